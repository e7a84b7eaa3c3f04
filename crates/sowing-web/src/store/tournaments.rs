//! Tournaments (docs/api.md, "Tournaments"): the tournament row, its players and its
//! boards. A board is one pairing: a live game between two players (or a Swiss bye), with
//! its result once the game ended.
//!
//! One server directs a tournament at a time: it holds the row's lease (`director`, its
//! `director_until` deadline) and writes pairings and results only under the lease's
//! epoch ([`Direction`]), so that a server which lost the lease (stalled, cut off) never
//! writes again; the boards' key (tournament, round, board) refuses a pairing made twice
//! besides. Every write bumps the row's `version`, which pages watch.

use sowing::{Game, Position, Side};

use super::error::{StoreError, StoreResult};
use super::games::Create;
use super::live::LiveRow;
use super::moves::LiveChange;
use super::sql::{values, Record, Sql};
use super::write::{Applied, Write};
use super::{NewGame, Store};

/// A tournament to make.
#[derive(Clone, Debug)]
pub struct NewTournament {
    /// Its name, as the creator gave it.
    pub name: String,
    /// `arena` or `swiss`.
    pub kind: String,
    /// Every game's start position, as text (the rules and their options within).
    pub start: String,
    /// Each side's time, ms.
    pub base_ms: i64,
    /// Added after each move, ms.
    pub increment_ms: i64,
    /// Rated games.
    pub rated: bool,
    /// When it starts, Unix ms.
    pub starts_ms: i64,
    /// An arena's length, minutes.
    pub minutes: Option<i64>,
    /// A Swiss's rounds.
    pub rounds: Option<i64>,
    /// The least rating to join, if any.
    pub min_rating: Option<i64>,
    /// The creator's account and name (`None`: the operator, from the command line).
    pub creator: Option<(i64, String)>,
    /// Now, Unix ms.
    pub now_ms: i64,
}

/// A tournament as the store keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRow {
    /// Its id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// `arena` or `swiss`.
    pub kind: String,
    /// Every game's start position, as text.
    pub start: String,
    /// Each side's time, ms.
    pub base_ms: i64,
    /// Added after each move, ms.
    pub increment_ms: i64,
    /// Rated games.
    pub rated: bool,
    /// When it starts, Unix ms.
    pub starts_ms: i64,
    /// An arena's length, minutes.
    pub minutes: Option<i64>,
    /// A Swiss's rounds.
    pub rounds: Option<i64>,
    /// The least rating to join.
    pub min_rating: Option<i64>,
    /// The creator's account, if a player made it.
    pub creator: Option<i64>,
    /// The creator's name.
    pub creator_name: Option<String>,
    /// When it was made, Unix ms.
    pub created_ms: i64,
    /// `upcoming`, `running` or `finished`.
    pub state: String,
    /// A Swiss's rounds paired so far.
    pub round: i64,
    /// Bumped by every change.
    pub version: i64,
    /// When it finished, Unix ms.
    pub finished_ms: Option<i64>,
}

impl TournamentRow {
    /// An arena's end, Unix ms.
    pub fn ends_ms(&self) -> Option<i64> {
        self.minutes.map(|m| self.starts_ms + m * 60_000)
    }
}

/// A player of a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntrantRow {
    /// The account.
    pub account: i64,
    /// Its name.
    pub name: String,
    /// The rating at joining.
    pub rating: i64,
    /// When the player first joined, Unix ms.
    pub joined_ms: i64,
    /// A Swiss's rounds paired before the player joined.
    pub joined_round: i64,
    /// `active`, `paused` (an arena) or `withdrawn` (a Swiss).
    pub status: String,
    /// When the player last joined or came back, Unix ms.
    pub since_ms: i64,
}

/// A board: two players paired (or a Swiss bye), and the result once known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardRow {
    /// A Swiss's round, from 1; 0 in an arena.
    pub round: i64,
    /// The board's number: in a Swiss, from 1 within the round; in an arena, from 0 in the
    /// order of pairing.
    pub board: i64,
    /// The live game (`None` for a bye).
    pub game_id: Option<i64>,
    /// The player sitting South (the bye's player).
    pub south: i64,
    /// The player sitting North (`None` for a bye).
    pub north: Option<i64>,
    /// `south`, `north`, `draw` or `bye`; `None` while the game goes on.
    pub result: Option<String>,
    /// Whether each seat berserked (South, North).
    pub berserk: [bool; 2],
    /// Moves each seat made (South, North), once over.
    pub moves: [u32; 2],
    /// When it was paired, Unix ms.
    pub started_ms: i64,
    /// When the game ended, Unix ms.
    pub ended_ms: Option<i64>,
}

/// A board whose game has ended and whose result the tournament has not recorded yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The board's round.
    pub round: i64,
    /// The board.
    pub board: i64,
    /// The game.
    pub game_id: i64,
    /// `south`, `north`, `draw`, or `none` for a game aborted (a first move not made).
    pub outcome: String,
    /// Moves made in the game.
    pub plies: usize,
}

/// A tournament whole: its row, its players (in the order they joined), its boards (by
/// round and board).
pub type TournamentWhole = (TournamentRow, Vec<EntrantRow>, Vec<BoardRow>);

/// What the director writes in one step, under its lease.
#[derive(Debug, Default)]
pub struct Direction {
    /// Boards over: round, board, result (`south`, `north`, `draw`), moves (South, North),
    /// when it ended.
    pub results: Vec<(i64, i64, String, [u32; 2], i64)>,
    /// Players paused (an arena) or withdrawn (a Swiss): they did not make their first
    /// move.
    pub absent: Vec<i64>,
    /// New boards, with the game each plays (none for a bye, whose result is `bye`).
    pub boards: Vec<(BoardRow, Option<(Game, LiveRow)>)>,
    /// The tournament's new state and rounds paired, if they change.
    pub state: Option<(String, i64)>,
}

const COLUMNS: &str = "id, name, kind, start, base_ms, increment_ms, rated, starts_ms, minutes, \
                       rounds, min_rating, creator, creator_name, created_ms, state, round, \
                       version, finished_ms";

fn tournament_row(r: &Record) -> StoreResult<TournamentRow> {
    Ok(TournamentRow {
        id: r.int(0)?,
        name: r.text(1)?,
        kind: r.text(2)?,
        start: r.text(3)?,
        base_ms: r.int(4)?,
        increment_ms: r.int(5)?,
        rated: r.flag(6)?,
        starts_ms: r.int(7)?,
        minutes: r.opt_int(8)?,
        rounds: r.opt_int(9)?,
        min_rating: r.opt_int(10)?,
        creator: r.opt_int(11)?,
        creator_name: r.opt_text(12)?,
        created_ms: r.int(13)?,
        state: r.text(14)?,
        round: r.int(15)?,
        version: r.int(16)?,
        finished_ms: r.opt_int(17)?,
    })
}

const ENTRANT_COLUMNS: &str = "account_id, name, rating, joined_ms, joined_round, status, since_ms";

fn entrant_row(r: &Record) -> StoreResult<EntrantRow> {
    Ok(EntrantRow {
        account: r.int(0)?,
        name: r.text(1)?,
        rating: r.int(2)?,
        joined_ms: r.int(3)?,
        joined_round: r.int(4)?,
        status: r.text(5)?,
        since_ms: r.int(6)?,
    })
}

const BOARD_COLUMNS: &str = "round, board, game_id, south, north, result, berserk_south, \
                             berserk_north, moves_south, moves_north, started_ms, ended_ms";

fn board_row(r: &Record) -> StoreResult<BoardRow> {
    Ok(BoardRow {
        round: r.int(0)?,
        board: r.int(1)?,
        game_id: r.opt_int(2)?,
        south: r.int(3)?,
        north: r.opt_int(4)?,
        result: r.opt_text(5)?,
        berserk: [r.flag(6)?, r.flag(7)?],
        moves: [r.opt_small(8)?.unwrap_or(0), r.opt_small(9)?.unwrap_or(0)],
        started_ms: r.int(10)?,
        ended_ms: r.opt_int(11)?,
    })
}

/// Bumps the tournament's version if it is not finished; its kind and rounds paired, or
/// `None` when it is finished or missing.
fn touch(sql: &mut dyn Sql, id: i64) -> StoreResult<Option<(String, i64)>> {
    sql.query_opt(
        "UPDATE tournaments SET version = version + 1
         WHERE id = ?1 AND state <> 'finished' RETURNING kind, round",
        &values![id],
    )?
    .map(|r| Ok((r.text(0)?, r.int(1)?)))
    .transpose()
}

/// Makes a tournament; its id.
struct Make(NewTournament);

impl Write for Make {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let new = &self.0;
        let id = sql
            .query_one(
                "INSERT INTO tournaments (name, kind, start, base_ms, increment_ms, rated,
                     starts_ms, minutes, rounds, min_rating, creator, creator_name, created_ms,
                     state, round, version, director_epoch, director_until)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,
                         'upcoming', 0, 0, 0, 0)
                 RETURNING id",
                &values![
                    new.name.as_str(),
                    new.kind.as_str(),
                    new.start.as_str(),
                    new.base_ms,
                    new.increment_ms,
                    new.rated,
                    new.starts_ms,
                    new.minutes,
                    new.rounds,
                    new.min_rating,
                    new.creator.as_ref().map(|c| c.0),
                    new.creator.as_ref().map(|c| c.1.as_str()),
                    new.now_ms,
                ],
            )?
            .int(0)?;
        Ok(Applied::answer(id, now))
    }
}

/// A player joins, or comes back: 1, or 0 when the tournament is finished or missing.
struct Enter {
    tournament: i64,
    account: i64,
    name: String,
    rating: i64,
    now_ms: i64,
}

impl Write for Enter {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let Some((_, round)) = touch(sql, self.tournament)? else {
            return Ok(Applied::answer(0, now));
        };
        let back = sql.execute(
            "UPDATE tournament_players SET status = 'active', since_ms = ?3
             WHERE tournament_id = ?1 AND account_id = ?2 AND status <> 'active'",
            &values![self.tournament, self.account, self.now_ms],
        )?;
        if back == 0 {
            sql.execute(
                "INSERT INTO tournament_players (tournament_id, account_id, name, rating,
                     joined_ms, joined_round, status, since_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'active', ?5) ON CONFLICT DO NOTHING",
                &values![
                    self.tournament,
                    self.account,
                    self.name.as_str(),
                    self.rating,
                    self.now_ms,
                    round
                ],
            )?;
        }
        Ok(Applied::answer(1, now).telling(&[self.account]))
    }
}

/// A player pauses (an arena) or withdraws (a Swiss): 1, or 0 when not in it.
struct Leave {
    tournament: i64,
    account: i64,
}

impl Write for Leave {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let Some((kind, _)) = touch(sql, self.tournament)? else {
            return Ok(Applied::answer(0, now));
        };
        let status = if kind == "swiss" {
            "withdrawn"
        } else {
            "paused"
        };
        let left = sql.execute(
            "UPDATE tournament_players SET status = ?3 WHERE tournament_id = ?1 AND account_id = ?2",
            &values![self.tournament, self.account, status],
        )?;
        Ok(Applied::answer(i64::try_from(left).unwrap_or(0), now).telling(&[self.account]))
    }
}

/// Takes or keeps the lease on directing a tournament; the epoch, or -1 when another
/// server holds it.
struct Lease {
    tournament: i64,
    server: i64,
    now_ms: i64,
    until_ms: i64,
}

impl Write for Lease {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let epoch = sql
            .query_opt(
                "UPDATE tournaments SET director = ?2, director_until = ?4,
                     director_epoch = director_epoch
                         + CASE WHEN director = ?2 THEN 0 ELSE 1 END
                 WHERE id = ?1 AND state <> 'finished'
                   AND (director = ?2 OR director IS NULL OR director_until < ?3)
                 RETURNING director_epoch",
                &values![self.tournament, self.server, self.now_ms, self.until_ms],
            )?
            .map(|r| r.int(0))
            .transpose()?;
        Ok(Applied::answer(epoch.unwrap_or(-1), now))
    }
}

/// The director's step, under the lease of `epoch`; the tournament's new version.
struct Direct {
    tournament: i64,
    server: i64,
    epoch: i64,
    now_ms: i64,
    direction: Direction,
}

impl Write for Direct {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let (state, round) = match &self.direction.state {
            Some((state, round)) => (Some(state.as_str()), Some(*round)),
            None => (None, None),
        };
        let finished = (state == Some("finished")).then_some(self.now_ms);
        let fenced = sql
            .query_opt(
                "UPDATE tournaments SET version = version + 1,
                     state = COALESCE(?4, state), round = COALESCE(?5, round),
                     finished_ms = COALESCE(?6, finished_ms)
                 WHERE id = ?1 AND director = ?2 AND director_epoch = ?3
                 RETURNING version, kind",
                &values![
                    self.tournament,
                    self.server,
                    self.epoch,
                    state,
                    round,
                    finished
                ],
            )?
            .ok_or_else(|| {
                StoreError::Conflict(format!(
                    "tournament {}: this server no longer directs it",
                    self.tournament
                ))
            })?;
        let (version, kind) = (fenced.int(0)?, fenced.text(1)?);
        let mut told = Vec::new();
        for (round, board, result, moves, ended) in &self.direction.results {
            sql.execute(
                "UPDATE tournament_games SET result = ?4, moves_south = ?5, moves_north = ?6,
                     ended_ms = ?7
                 WHERE tournament_id = ?1 AND round = ?2 AND board = ?3 AND result IS NULL",
                &values![
                    self.tournament,
                    *round,
                    *board,
                    result.as_str(),
                    moves[0],
                    moves[1],
                    *ended
                ],
            )?;
        }
        for account in &self.direction.absent {
            sql.execute(
                "UPDATE tournament_players
                 SET status = CASE WHEN ?3 = 'swiss' THEN 'withdrawn' ELSE 'paused' END
                 WHERE tournament_id = ?1 AND account_id = ?2",
                &values![self.tournament, *account, kind.as_str()],
            )?;
            told.push(*account);
        }
        for (board, game) in &self.direction.boards {
            let game_id = match game {
                Some((game, live)) => Some(
                    Create::of(&NewGame::live(game, live))
                        .apply(sql, now)?
                        .answer,
                ),
                None => None,
            };
            sql.execute(
                &format!(
                    "INSERT INTO tournament_games (tournament_id, {BOARD_COLUMNS})
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"
                ),
                &values![
                    self.tournament,
                    board.round,
                    board.board,
                    game_id,
                    board.south,
                    board.north,
                    board.result.as_deref(),
                    board.berserk[0],
                    board.berserk[1],
                    board.moves[0],
                    board.moves[1],
                    board.started_ms,
                    board.ended_ms
                ],
            )?;
            told.push(board.south);
            told.extend(board.north);
        }
        Ok(Applied::answer(version, now).telling(&told))
    }
}

/// A seat berserks: its halved clock (the live row) and the board's mark, together.
struct Berserk {
    live: LiveRow,
    side: Side,
}

impl Write for Berserk {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let column = match self.side {
            Side::South => "berserk_south",
            Side::North => "berserk_north",
        };
        let marked = sql.execute(
            &format!(
                "UPDATE tournament_games SET {column} = ?2
                 WHERE game_id = ?1 AND result IS NULL AND {column} = ?3"
            ),
            &values![self.live.game_id, true, false],
        )?;
        if marked == 0 {
            return Err(StoreError::Conflict(format!(
                "game {}: already berserked, or not a tournament game going on",
                self.live.game_id
            )));
        }
        // The tournament's pages show the mark.
        sql.execute(
            "UPDATE tournaments SET version = version + 1
             WHERE id = (SELECT tournament_id FROM tournament_games WHERE game_id = ?1)",
            &values![self.live.game_id],
        )?;
        LiveChange(self.live.clone()).apply(sql, now)
    }
}

impl Store {
    /// Makes a tournament, upcoming; its id.
    ///
    /// # Errors
    /// On a database failure; nothing is then written.
    pub fn make_tournament(&self, new: NewTournament) -> StoreResult<i64> {
        Ok(self.backend.write(Box::new(Make(new)))?.answer)
    }

    /// `account` joins tournament `id` (or comes back to it) with `rating` at `now_ms`;
    /// whether it could (not when the tournament is finished).
    ///
    /// # Errors
    /// On a database failure; nothing is then written.
    pub fn enter_tournament(
        &self,
        id: i64,
        account: (i64, String),
        rating: i64,
        now_ms: i64,
    ) -> StoreResult<bool> {
        let write = Enter {
            tournament: id,
            account: account.0,
            name: account.1,
            rating,
            now_ms,
        };
        Ok(self.backend.write(Box::new(write))?.answer == 1)
    }

    /// `account` pauses (an arena) or withdraws from (a Swiss) tournament `id`; whether it
    /// was in it.
    ///
    /// # Errors
    /// On a database failure; nothing is then written.
    pub fn leave_tournament(&self, id: i64, account: i64) -> StoreResult<bool> {
        let write = Leave {
            tournament: id,
            account,
        };
        Ok(self.backend.write(Box::new(write))?.answer == 1)
    }

    /// Takes or keeps, for `server`, the lease on directing tournament `id` until
    /// `until_ms`: the lease's epoch, or `None` while another server holds it (or the
    /// tournament is finished).
    ///
    /// # Errors
    /// On a database failure.
    pub fn lease_tournament(
        &self,
        id: i64,
        server: i64,
        now_ms: i64,
        until_ms: i64,
    ) -> StoreResult<Option<i64>> {
        let write = Lease {
            tournament: id,
            server,
            now_ms,
            until_ms,
        };
        let epoch = self.backend.write(Box::new(write))?.answer;
        Ok((epoch >= 0).then_some(epoch))
    }

    /// Writes the director's step for tournament `id`, if `server` still holds the lease
    /// of `epoch`; the tournament's new version.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when the lease was lost, or a board was paired already;
    /// a database failure. Nothing is then written.
    pub fn direct_tournament(
        &self,
        id: i64,
        (server, epoch): (i64, i64),
        now_ms: i64,
        direction: Direction,
    ) -> StoreResult<i64> {
        let write = Direct {
            tournament: id,
            server,
            epoch,
            now_ms,
            direction,
        };
        Ok(self.backend.write(Box::new(write))?.answer)
    }

    /// A seat of a tournament game berserks: `live` (the seat's clock halved) is written
    /// if still at its version, with the board's mark; the game's new version.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when the game changed meanwhile, or the seat berserked
    /// already; a database failure. Nothing is then written.
    pub fn berserk(&self, live: &LiveRow, side: Side) -> StoreResult<super::Stamp> {
        let write = Berserk {
            live: live.clone(),
            side,
        };
        self.backend.write(Box::new(write)).map(Applied::stamp)
    }

    /// Tournament `id`.
    ///
    /// # Errors
    /// On a database failure.
    pub fn tournament(&self, id: i64) -> StoreResult<Option<TournamentRow>> {
        self.backend
            .read_statement(
                &format!("SELECT {COLUMNS} FROM tournaments WHERE id = ?1"),
                &values![id],
            )?
            .first()
            .map(tournament_row)
            .transpose()
    }

    /// Tournament `id` whole: its row, its players (in the order they joined) and its
    /// boards (by round and board), read together.
    ///
    /// # Errors
    /// On a database failure.
    pub fn tournament_whole(&self, id: i64) -> StoreResult<Option<TournamentWhole>> {
        self.read(|sql| {
            let Some(row) = sql.query_opt(
                &format!("SELECT {COLUMNS} FROM tournaments WHERE id = ?1"),
                &values![id],
            )?
            else {
                return Ok(None);
            };
            let players = sql
                .query(
                    &format!(
                        "SELECT {ENTRANT_COLUMNS} FROM tournament_players
                         WHERE tournament_id = ?1 ORDER BY joined_ms, account_id"
                    ),
                    &values![id],
                )?
                .iter()
                .map(entrant_row)
                .collect::<StoreResult<_>>()?;
            let boards = sql
                .query(
                    &format!(
                        "SELECT {BOARD_COLUMNS} FROM tournament_games
                         WHERE tournament_id = ?1 ORDER BY round, board"
                    ),
                    &values![id],
                )?
                .iter()
                .map(board_row)
                .collect::<StoreResult<_>>()?;
            Ok(Some((tournament_row(&row)?, players, boards)))
        })
    }

    /// The tournaments not finished, soonest first, and the last `finished` finished, with
    /// each one's count of players.
    ///
    /// # Errors
    /// On a database failure.
    pub fn tournaments_listed(&self, finished: usize) -> StoreResult<Vec<(TournamentRow, usize)>> {
        let count = "(SELECT count(*) FROM tournament_players p WHERE p.tournament_id = t.id)";
        let columns = COLUMNS
            .split(", ")
            .map(|c| format!("t.{c}"))
            .collect::<Vec<_>>()
            .join(", ");
        self.read(|sql| {
            let mut rows = sql.query(
                &format!(
                    "SELECT {columns}, {count} FROM tournaments t
                     WHERE t.state <> 'finished' ORDER BY t.starts_ms, t.id LIMIT 200"
                ),
                &[],
            )?;
            rows.extend(sql.query(
                &format!(
                    "SELECT {columns}, {count} FROM tournaments t
                     WHERE t.state = 'finished' ORDER BY t.finished_ms DESC, t.id DESC LIMIT ?1"
                ),
                &values![super::sql::limit(finished)],
            )?);
            rows.iter()
                .map(|r| Ok((tournament_row(r)?, r.size(18)?)))
                .collect()
        })
    }

    /// The tournaments `account` created that are not finished: how many.
    ///
    /// # Errors
    /// On a database failure.
    pub fn tournaments_made_by(&self, account: i64) -> StoreResult<usize> {
        self.backend
            .read_statement(
                "SELECT count(*) FROM tournaments WHERE creator = ?1 AND state <> 'finished'",
                &values![account],
            )?
            .first()
            .map_or(Ok(0), |r| r.size(0))
    }

    /// The tournaments a server should direct at `now_ms`: begun or due, not finished.
    ///
    /// # Errors
    /// On a database failure.
    pub fn tournaments_due(&self, now_ms: i64) -> StoreResult<Vec<i64>> {
        self.backend
            .read_statement(
                "SELECT id FROM tournaments WHERE state <> 'finished' AND starts_ms <= ?1
                 ORDER BY id",
                &values![now_ms],
            )?
            .iter()
            .map(|r| r.int(0))
            .collect()
    }

    /// The boards of tournament `id` whose game has ended and whose result it has not
    /// recorded.
    ///
    /// # Errors
    /// On a database failure.
    pub fn tournament_endings(&self, id: i64) -> StoreResult<Vec<Ending>> {
        self.backend
            .read_statement(
                "SELECT t.round, t.board, t.game_id, COALESCE(l.outcome, g.result), g.plies
                 FROM tournament_games t
                 JOIN live l ON l.game_id = t.game_id JOIN games g ON g.id = t.game_id
                 WHERE t.tournament_id = ?1 AND t.result IS NULL
                   AND (l.outcome IS NOT NULL OR g.result IS NOT NULL)
                 ORDER BY t.round, t.board",
                &values![id],
            )?
            .iter()
            .map(|r| {
                Ok(Ending {
                    round: r.int(0)?,
                    board: r.int(1)?,
                    game_id: r.int(2)?,
                    outcome: r.text(3)?,
                    plies: r.size(4)?,
                })
            })
            .collect()
    }

    /// Tournament `id`'s version, or `None` when there is no such tournament.
    ///
    /// # Errors
    /// On a database failure.
    pub fn tournament_version(&self, id: i64) -> StoreResult<Option<i64>> {
        self.backend
            .read_statement(
                "SELECT version FROM tournaments WHERE id = ?1",
                &values![id],
            )?
            .first()
            .map(|r| r.int(0))
            .transpose()
    }

    /// The tournament games `account` is playing: (tournament, game, seat), newest first
    /// (at most 10).
    ///
    /// # Errors
    /// On a database failure.
    pub fn tournament_games_of(&self, account: i64) -> StoreResult<Vec<(i64, i64, Side)>> {
        self.backend
            .read_statement(
                "SELECT tournament_id, game_id, south FROM tournament_games
                 WHERE result IS NULL AND game_id IS NOT NULL AND (south = ?1 OR north = ?1)
                 ORDER BY started_ms DESC LIMIT 10",
                &values![account],
            )?
            .iter()
            .map(|r| {
                let seat = if r.int(2)? == account {
                    Side::South
                } else {
                    Side::North
                };
                Ok((r.int(0)?, r.int(1)?, seat))
            })
            .collect()
    }

    /// The tournament board of live game `game_id`, if it is one: the tournament and the
    /// board.
    ///
    /// # Errors
    /// On a database failure.
    pub fn board_of_game(&self, game_id: i64) -> StoreResult<Option<(i64, BoardRow)>> {
        self.backend
            .read_statement(
                &format!(
                    "SELECT tournament_id, {BOARD_COLUMNS} FROM tournament_games
                     WHERE game_id = ?1"
                ),
                &values![game_id],
            )?
            .first()
            .map(|r| {
                let mut tournament = Record(r.0.clone());
                let board = tournament.split_off(1);
                Ok((tournament.int(0)?, board_row(&board)?))
            })
            .transpose()
    }
}

/// The start position of a tournament's games.
///
/// # Errors
/// When the stored text does not read.
pub fn start_of(row: &TournamentRow) -> StoreResult<Position> {
    row.start.parse().map_err(|e| {
        StoreError::Database(format!(
            "tournament {}: its start does not read: {e}",
            row.id
        ))
    })
}
