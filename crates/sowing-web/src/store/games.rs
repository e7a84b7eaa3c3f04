//! Games and their moves: the rows of `games` and `moves` (and `matches`, the rounds of
//! Hoyito III), creating and deleting a game, and reading it back, with its live row when it
//! has one. Playing moves onto a stored game is `moves.rs`.

use sowing::{End, Game, Move, Position};

use super::error::{StoreError, StoreResult};
use super::live::{insert_live, live_row, LiveRow, LIVE_COLUMNS, OPEN};
use super::sql::{limit, values, Record, Sql, Value};
use super::write::{Applied, Stamp, Write};
use super::Store;

/// What is kept about a game besides its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// The game's id.
    pub id: i64,
    /// The game's name (`hoyito-ii`, `hoyito-iii`, `ayoayo`).
    pub variant: String,
    /// Pits per row.
    pub pits: usize,
    /// The start position as position text: it carries the game, board and options.
    pub start: String,
    /// South's player: `human` or an engine spec such as `level:3`.
    pub south: String,
    /// North's player.
    pub north: String,
    /// The match this game is a round of, if any.
    pub match_id: Option<i64>,
    /// Its round in the match, from 1.
    pub round: Option<u32>,
    /// Moves played.
    pub plies: usize,
    /// `south`, `north`, `draw`, or `None` while the game goes on.
    pub result: Option<String>,
    /// How the game ended, or `None` while it goes on.
    pub end: Option<End>,
    /// When it was created (UTC, `2026-12-01 18:47:00`).
    pub created: String,
    /// When it last changed.
    pub updated: String,
    /// Bumped by every change to the game (its moves or its live row): a copy in memory at
    /// another version is stale, and a write made from it is refused.
    pub version: i64,
    /// SHA-256 of its owner's player key ([`crate::owners`]); `None` for a game stored before
    /// games had owners.
    pub owner: Option<[u8; 32]>,
}

impl GameRow {
    /// The row as a write of `game` that left `stamp` made it: what reading it back at once
    /// would give.
    pub fn stamped(self, game: &Game, stamp: Stamp) -> GameRow {
        let summary = Summary::of(game);
        GameRow {
            plies: summary.plies,
            result: summary.result.map(str::to_owned),
            end: summary.end,
            updated: stamp.updated,
            version: stamp.version,
            ..self
        }
    }
}

/// A match of Hoyito III rounds (H3.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRow {
    /// The match's id.
    pub id: i64,
    /// Rounds to play (R).
    pub rounds: u32,
}

/// A game to save ([`Store::create_game`]): the game with the moves it already has (an
/// uploaded record has some), its players, its round of a match, and for a game between two
/// seats its live row.
#[derive(Clone, Copy, Debug)]
pub struct NewGame<'a> {
    /// The game.
    pub game: &'a Game,
    /// South's player: `human` or an engine spec.
    pub south: &'a str,
    /// North's player.
    pub north: &'a str,
    /// The match and the round (from 1) this game is.
    pub match_round: Option<(i64, u32)>,
    /// The seats, clock and offers of a game between two seats (its `game_id` is ignored).
    pub live: Option<&'a LiveRow>,
    /// SHA-256 of its owner's player key.
    pub owner: Option<[u8; 32]>,
    /// The name the page gave a game it played offline and uploads
    /// ([`Store::game_by_client`]): unique per owner, so that uploading it again finds it.
    pub client_id: Option<&'a str>,
}

impl<'a> NewGame<'a> {
    /// A game between these players, not in a match, not between seats.
    pub fn new(game: &'a Game, south: &'a str, north: &'a str) -> NewGame<'a> {
        NewGame {
            game,
            south,
            north,
            match_round: None,
            live: None,
            owner: None,
            client_id: None,
        }
    }

    /// A game between two seats (both players `human`).
    pub fn live(game: &'a Game, live: &'a LiveRow) -> NewGame<'a> {
        NewGame {
            live: Some(live),
            ..NewGame::new(game, "human", "human")
        }
    }

    /// The same game, owned by the player key whose SHA-256 is `owner`.
    pub fn owned_by(self, owner: Option<[u8; 32]>) -> NewGame<'a> {
        NewGame { owner, ..self }
    }

    /// The same game, named `client_id` by the page that played it offline (unique per
    /// owner).
    pub fn synced_as(self, client_id: Option<&'a str>) -> NewGame<'a> {
        NewGame { client_id, ..self }
    }

    /// The same game as round `match_round` of a match (or in none).
    pub fn in_match(self, match_round: Option<(i64, u32)>) -> NewGame<'a> {
        NewGame {
            match_round,
            ..self
        }
    }
}

// The rows: columns, readers and writers, once for both databases.

const GAME_COLUMNS: &str = "id, variant, pits, start, south, north, match_id, round, plies, \
                            result, end_reason, end_to, created, updated, version, owner";

fn game_row(r: &Record) -> StoreResult<GameRow> {
    let id = r.int(0)?;
    let to = r.opt_side(11)?;
    let end = r
        .opt_text(10)?
        .map(|code| {
            End::from_code(&code, to)
                .ok_or_else(|| StoreError::Database(format!("game {id}: unknown end {code:?}")))
        })
        .transpose()?;
    Ok(GameRow {
        id,
        variant: r.text(1)?,
        pits: r.size(2)?,
        start: r.text(3)?,
        south: r.text(4)?,
        north: r.text(5)?,
        match_id: r.opt_int(6)?,
        round: r.opt_small(7)?,
        plies: r.size(8)?,
        result: r.opt_text(9)?,
        end,
        created: r.text(12)?,
        updated: r.text(13)?,
        version: r.int(14)?,
        owner: r.opt_hash(15)?,
    })
}

/// The game row's summary of its moves: how many, the result, how it ended.
#[derive(Clone, Copy, Debug)]
pub(super) struct Summary {
    pub(super) plies: usize,
    pub(super) result: Option<&'static str>,
    pub(super) end: Option<End>,
}

impl Summary {
    pub(super) fn of(game: &Game) -> Summary {
        Summary {
            plies: game.moves().len(),
            result: game.outcome().map(|o| o.name()),
            end: game.end(),
        }
    }
}

pub(super) fn changed_meanwhile(id: i64) -> StoreError {
    StoreError::Conflict(format!(
        "game {id} changed meanwhile (by another writer); nothing was written"
    ))
}

pub(super) fn insert_move(sql: &mut dyn Sql, id: i64, ply: usize, mv: &str) -> StoreResult<()> {
    sql.execute(
        "INSERT INTO moves (game_id, ply, mv) VALUES (?1, ?2, ?3)",
        &values![id, ply, mv],
    )?;
    Ok(())
}

/// The game a row and its stored moves make: the start position, each move replayed.
///
/// # Errors
/// [`StoreError::BadStart`] or [`StoreError::Unreplayable`] when the stored game no longer
/// replays under these rules; the game is refused whole rather than cut short.
fn replay(row: GameRow, tokens: Vec<String>) -> StoreResult<(GameRow, Game)> {
    let id = row.id;
    let start: Position = row.start.parse().map_err(|e| StoreError::BadStart {
        game: id,
        reason: format!("{e}"),
    })?;
    let mut game = Game::from_position(start);
    for (index, token) in tokens.into_iter().enumerate() {
        let played = Move::parse(&token, game.rules().pits_per_row())
            .map_err(|e| e.to_string())
            .and_then(|mv| game.play(mv).map(drop).map_err(|e| e.to_string()));
        if let Err(reason) = played {
            return Err(StoreError::Unreplayable {
                game: id,
                ply: index + 1,
                token,
                reason,
            });
        }
    }
    Ok((row, game))
}

/// A game's row and its moves' tokens, within a read.
fn read_game(sql: &mut dyn Sql, id: i64) -> StoreResult<Option<(GameRow, Vec<String>)>> {
    let Some(row) = read_game_row(sql, id)? else {
        return Ok(None);
    };
    let tokens = sql
        .query(
            "SELECT mv FROM moves WHERE game_id = ?1 ORDER BY ply",
            &values![id],
        )?
        .iter()
        .map(|r| r.text(0))
        .collect::<StoreResult<Vec<String>>>()?;
    Ok(Some((row, tokens)))
}

fn read_game_row(sql: &mut dyn Sql, id: i64) -> StoreResult<Option<GameRow>> {
    sql.query_opt(
        &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"),
        &values![id],
    )?
    .as_ref()
    .map(game_row)
    .transpose()
}

fn game_rows(sql: &mut dyn Sql, query: &str, params: &[Value]) -> StoreResult<Vec<GameRow>> {
    sql.query(query, params)?.iter().map(game_row).collect()
}

/// A new match of `rounds` rounds; the answer is its id.
struct NewMatch {
    rounds: u32,
}

impl Write for NewMatch {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let id = sql
            .query_one(
                "INSERT INTO matches (rounds, created) VALUES (?1, ?2) RETURNING id",
                &values![self.rounds, now],
            )?
            .int(0)?;
        Ok(Applied::answer(id, now))
    }
}

/// A new game with the moves it already has, and its live row for a game between two seats;
/// the answer is its id.
pub(super) struct Create {
    variant: &'static str,
    pits: usize,
    start: String,
    south: String,
    north: String,
    match_round: Option<(i64, u32)>,
    moves: Vec<String>,
    summary: Summary,
    live: Option<LiveRow>,
    owner: Option<[u8; 32]>,
    client_id: Option<String>,
}

impl Create {
    /// The write that saves `new`.
    pub(super) fn of(new: &NewGame<'_>) -> Create {
        let rules = new.game.rules();
        let n = rules.pits_per_row();
        Create {
            variant: rules.variant().name(),
            pits: n,
            start: new.game.start().to_string(),
            south: new.south.to_owned(),
            north: new.north.to_owned(),
            match_round: new.match_round,
            moves: new
                .game
                .moves()
                .iter()
                .map(|m| m.name(n).to_string())
                .collect(),
            summary: Summary::of(new.game),
            live: new.live.cloned(),
            owner: new.owner,
            client_id: new.client_id.map(str::to_owned),
        }
    }
}

impl Write for Create {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let summary = &self.summary;
        let (reason, to) = summary.end.map(|end| (end.code(), end.side())).unzip();
        // Ids come from a counter that deleting a game does not lower: an id is never given
        // twice, so an old link cannot open someone else's game.
        let id = sql
            .query_one("UPDATE game_ids SET last = last + 1 RETURNING last", &[])?
            .int(0)?;
        sql.execute(
            "INSERT INTO games (id, variant, pits, start, south, north, match_id, round,
                                plies, result, end_reason, end_to, created, updated, owner,
                                client_id)
             VALUES (?13, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?12, ?14, ?15)",
            &values![
                self.variant,
                self.pits,
                &self.start,
                &self.south,
                &self.north,
                self.match_round.map(|(m, _)| m),
                self.match_round.map(|(_, r)| r),
                summary.plies,
                summary.result,
                reason,
                to.flatten(),
                now,
                id,
                self.owner,
                self.client_id.as_deref(),
            ],
        )?;
        for (ply, mv) in self.moves.iter().enumerate() {
            insert_move(sql, id, ply, mv)?;
        }
        if let Some(live) = &self.live {
            insert_live(sql, id, live)?;
        }
        Ok(Applied {
            answer: id,
            ..Applied::changed(id, summary.plies, 0, now)
        })
    }
}

/// A game gone, with its moves, its live row and its analysis.
struct Delete {
    id: i64,
}

impl Write for Delete {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        for table in [
            "analyses WHERE game_id",
            "live WHERE game_id",
            "moves WHERE game_id",
            "games WHERE id",
        ] {
            sql.execute(&format!("DELETE FROM {table} = ?1"), &values![self.id])?;
        }
        Ok(Applied::changed(self.id, 0, -1, now))
    }
}

impl Store {
    /// Creates a match of `rounds` rounds; its id.
    ///
    /// # Errors
    /// On a database failure.
    pub fn create_match(&self, rounds: u32) -> StoreResult<i64> {
        self.backend
            .write(Box::new(NewMatch { rounds }))
            .map(|a| a.answer)
    }

    /// A match by id.
    ///
    /// # Errors
    /// On a database failure.
    pub fn get_match(&self, id: i64) -> StoreResult<Option<MatchRow>> {
        self.read(|sql| {
            sql.query_opt("SELECT id, rounds FROM matches WHERE id = ?1", &values![id])?
                .map(|r| {
                    Ok(MatchRow {
                        id: r.int(0)?,
                        rounds: r.opt_small(1)?.unwrap_or(0),
                    })
                })
                .transpose()
        })
    }

    /// Saves a new game with the moves it already has, and its live row for a game between
    /// two seats, in one transaction; its id.
    ///
    /// # Errors
    /// On a database failure, or [`StoreError::Conflict`] when that round of the match is
    /// already stored, or its owner has a game of that `client_id` already (unique index
    /// `games_by_client`); nothing is then saved.
    pub fn create_game(&self, new: &NewGame<'_>) -> StoreResult<i64> {
        self.backend
            .write(Box::new(Create::of(new)))
            .map(|a| a.answer)
    }

    /// The game that `owner` (the SHA-256 of a player key, or an account's owner hash)
    /// uploaded under `client_id` ([`NewGame::synced_as`]), if any.
    ///
    /// # Errors
    /// On a database failure.
    pub fn game_by_client(&self, owner: [u8; 32], client_id: &str) -> StoreResult<Option<i64>> {
        self.backend
            .read_statement(
                "SELECT id FROM games WHERE owner = ?1 AND client_id = ?2",
                &values![owner, client_id],
            )?
            .first()
            .map(|r| r.int(0))
            .transpose()
    }

    /// Deletes a game, its moves and its live row, in one transaction.
    ///
    /// # Errors
    /// On a database failure; nothing is then changed.
    pub fn delete(&self, id: i64) -> StoreResult<()> {
        self.backend.write(Box::new(Delete { id })).map(drop)
    }

    /// A game's row.
    ///
    /// # Errors
    /// On a database failure.
    pub fn game_row(&self, id: i64) -> StoreResult<Option<GameRow>> {
        self.read(|sql| read_game_row(sql, id))
    }

    /// A game's version now ([`GameRow::version`]), `None` when there is no such game.
    ///
    /// # Errors
    /// On a database failure.
    pub fn version(&self, id: i64) -> StoreResult<Option<i64>> {
        self.backend
            .read_statement("SELECT version FROM games WHERE id = ?1", &values![id])?
            .first()
            .map(|r| r.int(0))
            .transpose()
    }

    /// A game's row and the game replayed from its moves, read together.
    ///
    /// # Errors
    /// On a database failure; [`StoreError::BadStart`] or [`StoreError::Unreplayable`] when
    /// the stored game no longer replays under these rules (it cannot happen unless the
    /// rules changed). The game is then refused whole rather than cut short, and nothing
    /// stored is changed.
    pub fn load(&self, id: i64) -> StoreResult<Option<(GameRow, Game)>> {
        let read = self.read(|sql| read_game(sql, id))?;
        read.map(|(row, tokens)| replay(row, tokens)).transpose()
    }

    /// [`Store::load`] and [`Store::live_row`] in one read.
    ///
    /// # Errors
    /// As [`Store::load`].
    pub fn load_with_live(&self, id: i64) -> StoreResult<Option<(GameRow, Game, Option<LiveRow>)>> {
        // One statement (a server reloading a game another server changed does this for
        // every move): the row, its live row, and its moves joined by spaces.
        static GAME_WITH_LIVE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
            let prefixed = |table: &str, columns: &str| {
                columns
                    .split(',')
                    .map(|c| format!("{table}.{}", c.trim()))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            format!(
                "SELECT {}, {}, (SELECT string_agg(mv, ' ' ORDER BY ply) FROM moves
                                 WHERE game_id = ?1)
                 FROM games g LEFT JOIN live l ON l.game_id = g.id WHERE g.id = ?1",
                prefixed("g", GAME_COLUMNS),
                prefixed("l", LIVE_COLUMNS)
            )
        });
        let Some(mut row) = self
            .backend
            .read_statement(&GAME_WITH_LIVE, &values![id])?
            .into_iter()
            .next()
        else {
            return Ok(None);
        };
        let games = GAME_COLUMNS.split(',').count();
        let lives = LIVE_COLUMNS.split(',').count();
        let moves = row.split_off(games + lives);
        let live = row.split_off(games);
        let tokens = moves.opt_text(0)?.map_or_else(Vec::new, |text| {
            text.split(' ').map(str::to_owned).collect()
        });
        let live = match live.opt_int(0)? {
            Some(_) => Some(live_row(&live)?),
            None => None,
        };
        let (row, game) = replay(game_row(&row)?, tokens)?;
        Ok(Some((row, game, live)))
    }

    /// The most recently changed games of the player key whose SHA-256 is `owner`, newest
    /// first.
    ///
    /// # Errors
    /// On a database failure.
    pub fn list(&self, owner: [u8; 32], count: usize) -> StoreResult<Vec<GameRow>> {
        self.list_with_seats(owner, None, count)
    }

    /// The games of `owner` and, with an account, the live games whose seat it holds (a seat
    /// taken by a signed-in player belongs to the account, wherever the game was made),
    /// most recently changed first, at most `count`.
    ///
    /// # Errors
    /// On a database failure.
    pub fn list_with_seats(
        &self,
        owner: [u8; 32],
        account: Option<i64>,
        count: usize,
    ) -> StoreResult<Vec<GameRow>> {
        if let Some(account) = account {
            return self.read(|sql| {
                game_rows(
                    sql,
                    &format!(
                        "SELECT {GAME_COLUMNS} FROM games WHERE owner = ?2
                            OR id IN (SELECT game_id FROM live
                                      WHERE south_account = ?3 OR north_account = ?3)
                         ORDER BY updated DESC, id DESC LIMIT ?1"
                    ),
                    &[limit(count), Value::from(owner), Value::from(account)],
                )
            });
        }
        self.read(|sql| {
            game_rows(
                sql,
                &format!(
                    "SELECT {GAME_COLUMNS} FROM games WHERE owner = ?2
                     ORDER BY updated DESC, id DESC LIMIT ?1"
                ),
                &[limit(count), Value::from(owner)],
            )
        })
    }

    /// The games of a match, by round.
    ///
    /// # Errors
    /// On a database failure.
    pub fn match_games(&self, match_id: i64) -> StoreResult<Vec<GameRow>> {
        self.read(|sql| {
            game_rows(
                sql,
                &format!("SELECT {GAME_COLUMNS} FROM games WHERE match_id = ?1 ORDER BY round"),
                &values![match_id],
            )
        })
    }

    /// Counts the moves stored for a game (for checks and the load generator).
    ///
    /// # Errors
    /// On a database failure.
    pub fn stored_moves(&self, id: i64) -> StoreResult<usize> {
        self.read(|sql| {
            sql.query_one(
                "SELECT count(*) FROM moves WHERE game_id = ?1",
                &values![id],
            )?
            .size(0)
        })
    }

    /// The open challenges of the lobby (a seat free, no result), oldest first.
    ///
    /// # Errors
    /// On a database failure.
    pub fn lobby(&self, count: usize) -> StoreResult<Vec<(GameRow, LiveRow)>> {
        self.read(|sql| {
            let lives = sql
                .query(
                    &format!(
                        "SELECT {LIVE_COLUMNS} FROM live WHERE {OPEN}
                         ORDER BY created_ms, game_id LIMIT ?2"
                    ),
                    &[Value::Bool(true), limit(count)],
                )?
                .iter()
                .map(live_row)
                .collect::<StoreResult<Vec<LiveRow>>>()?;
            let mut open = Vec::with_capacity(lives.len());
            for live in lives {
                if let Some(row) = read_game_row(sql, live.game_id)? {
                    open.push((row, live));
                }
            }
            Ok(open)
        })
    }
}
