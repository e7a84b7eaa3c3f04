//! Puzzles (docs/puzzles.md): the mined puzzles with their Glicko-2 ratings, accounts'
//! puzzle ratings, each account's attempts, the daily puzzle of each day, and which
//! finished games were mined.

use sowing::Game;

use super::error::{StoreError, StoreResult};
use super::ratings::rating_in;
use super::sql::{limit, values, Record, Sql, Value};
use super::write::{Applied, Write};
use super::Store;
use crate::ratings::{self, Rating};

/// A puzzle to keep ([`Store::add_puzzles`]).
#[derive(Clone, Debug, PartialEq)]
pub struct NewPuzzle {
    /// `hoyito-ii`, `hoyito-iii` or `ayoayo`.
    pub variant: String,
    /// The position text (options included); a board ([`board`]) is kept once.
    pub position: String,
    /// The solution line, moves by name separated by spaces.
    pub moves: String,
    /// The proven value for the mover.
    pub value: i32,
    /// Theme codes separated by spaces.
    pub themes: String,
    /// The first rating.
    pub rating: f64,
    /// `self-play` or `game`.
    pub source: String,
    /// The finished game it came from, if any.
    pub game_id: Option<i64>,
}

/// A kept puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRow {
    /// Its id.
    pub id: i64,
    /// `hoyito-ii`, `hoyito-iii` or `ayoayo`.
    pub variant: String,
    /// The position text.
    pub position: String,
    /// The solution line, moves by name separated by spaces.
    pub moves: String,
    /// The proven value for the mover.
    pub value: i32,
    /// Theme codes separated by spaces.
    pub themes: String,
    /// Its Glicko-2 rating.
    pub rating: Rating,
    /// Results given for it.
    pub plays: i64,
    /// Of those, solved.
    pub solved: i64,
    /// `self-play` or `game`.
    pub source: String,
    /// The finished game it came from, if any.
    pub game_id: Option<i64>,
}

/// What a result did ([`Store::puzzle_result`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleOutcome {
    /// The puzzle's rating after.
    pub puzzle: Rating,
    /// The account's puzzle rating after (`None` for an anonymous player).
    pub player: Option<Rating>,
}

const COLUMNS: &str = "id, variant, position, moves, value, themes, rating, deviation, \
                       volatility, plays, solved, source, game_id";

fn puzzle_row(r: &Record) -> StoreResult<PuzzleRow> {
    Ok(PuzzleRow {
        id: r.int(0)?,
        variant: r.text(1)?,
        position: r.text(2)?,
        moves: r.text(3)?,
        value: i32::try_from(r.int(4)?).map_err(|_| r.bad(4, "a value"))?,
        themes: r.text(5)?.trim().to_owned(),
        rating: Rating {
            rating: r.real(6)?,
            deviation: r.real(7)?,
            volatility: r.real(8)?,
        },
        plays: r.int(9)?,
        solved: r.int(10)?,
        source: r.text(11)?,
        game_id: r.opt_int(12)?,
    })
}

/// A puzzle's board: its position text without the captures (the third field), which do
/// not change the value or the line. A board is kept once, whatever the captures beside it.
fn board(position: &str) -> String {
    position
        .split(' ')
        .enumerate()
        .filter(|&(i, _)| i != 2)
        .map(|(_, field)| field)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The puzzles of one batch, each kept unless its board is; the game they came from
/// marked as mined. The answer is how many were new.
struct Add {
    puzzles: Vec<NewPuzzle>,
    mined_game: Option<i64>,
}

impl Write for Add {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let mut added = 0;
        for p in &self.puzzles {
            let start = ratings::Rating::default();
            // Themes are kept between spaces, so that a filter is one LIKE '% code %'.
            added += sql.execute(
                "INSERT INTO puzzles (variant, position, moves, value, themes, rating,
                     deviation, volatility, plays, solved, source, game_id, board)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 0, 0, ?9, ?10, ?11)
                 ON CONFLICT DO NOTHING",
                &values![
                    &p.variant,
                    &p.position,
                    &p.moves,
                    i64::from(p.value),
                    format!(" {} ", p.themes),
                    p.rating,
                    start.deviation,
                    start.volatility,
                    &p.source,
                    p.game_id,
                    board(&p.position)
                ],
            )?;
        }
        if let Some(game) = self.mined_game {
            sql.execute(
                "INSERT INTO puzzle_mined_games (game_id) VALUES (?1)
                 ON CONFLICT (game_id) DO NOTHING",
                &values![game],
            )?;
        }
        Ok(Applied::answer(added as i64, now))
    }
}

/// The daily puzzle of `day` for `variant`, chosen once (the first asker's choice stays);
/// the answer is its id, or 0 when there is no puzzle of the game.
struct Daily {
    variant: String,
    day: i64,
}

/// The daily puzzle's rating band: most players can solve it.
const DAILY_BAND: (f64, f64) = (1100.0, 1900.0);

impl Write for Daily {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        if let Some(r) = sql.query_opt(
            "SELECT puzzle_id FROM daily_puzzles WHERE day = ?1 AND variant = ?2",
            &values![self.day, &self.variant],
        )? {
            return Ok(Applied::answer(r.int(0)?, now));
        }
        // In the band if any is there, else any puzzle of the game.
        let mut chosen = 0;
        for (low, high) in [DAILY_BAND, (f64::MIN, f64::MAX)] {
            let count = sql
                .query_one(
                    "SELECT count(*) FROM puzzles
                     WHERE variant = ?1 AND rating >= ?2 AND rating <= ?3",
                    &values![&self.variant, low, high],
                )?
                .int(0)?;
            if count == 0 {
                continue;
            }
            let index = (splitmix(self.day as u64) % count as u64) as i64;
            chosen = sql
                .query_one(
                    "SELECT id FROM puzzles WHERE variant = ?1 AND rating >= ?2 AND rating <= ?3
                     ORDER BY id LIMIT 1 OFFSET ?4",
                    &values![&self.variant, low, high, index],
                )?
                .int(0)?;
            break;
        }
        if chosen != 0 {
            sql.execute(
                "INSERT INTO daily_puzzles (day, variant, puzzle_id) VALUES (?1, ?2, ?3)
                 ON CONFLICT (day, variant) DO NOTHING",
                &values![self.day, &self.variant, chosen],
            )?;
            // Another server may have chosen first: its choice stands.
            chosen = sql
                .query_one(
                    "SELECT puzzle_id FROM daily_puzzles WHERE day = ?1 AND variant = ?2",
                    &values![self.day, &self.variant],
                )?
                .int(0)?;
        }
        Ok(Applied::answer(chosen, now))
    }
}

/// A well-mixed number of the day (SplitMix64's finalizer), so that consecutive days land
/// far apart among the puzzles.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A result: the puzzle's rating and the account's (if any) move by one Glicko-2 game,
/// the player against the puzzle, solved a win. Answers 1, or 0 when there is no such
/// puzzle.
struct Rate {
    id: i64,
    account: Option<i64>,
    /// An anonymous player's rating, as the page keeps it.
    anonymous: Rating,
    solved: bool,
    at_ms: i64,
}

fn read_account_rating(sql: &mut dyn Sql, account: i64, variant: &str) -> StoreResult<Rating> {
    Ok(sql
        .query_opt(
            "SELECT rating, deviation, volatility FROM puzzle_ratings
             WHERE account_id = ?1 AND variant = ?2",
            &values![account, variant],
        )?
        .map(|r| rating_in(&r))
        .transpose()?
        .unwrap_or_default())
}

impl Write for Rate {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let Some(r) = sql.query_opt(
            &format!("SELECT {COLUMNS} FROM puzzles WHERE id = ?1"),
            &values![self.id],
        )?
        else {
            return Ok(Applied::answer(0, now));
        };
        let puzzle = puzzle_row(&r)?;
        let player = match self.account {
            Some(account) => read_account_rating(sql, account, &puzzle.variant)?,
            None => self.anonymous,
        };
        let score = if self.solved { 1.0 } else { 0.0 };
        let (player_after, puzzle_after) = ratings::after_game(player, puzzle.rating, score);
        sql.execute(
            "UPDATE puzzles SET rating = ?2, deviation = ?3, volatility = ?4,
                 plays = plays + 1, solved = solved + ?5
             WHERE id = ?1",
            &values![
                self.id,
                puzzle_after.rating,
                puzzle_after.deviation,
                puzzle_after.volatility,
                i64::from(self.solved)
            ],
        )?;
        if let Some(account) = self.account {
            sql.execute(
                "INSERT INTO puzzle_ratings (account_id, variant, rating, deviation, volatility,
                     attempts)
                 VALUES (?1, ?2, ?3, ?4, ?5, 1)
                 ON CONFLICT (account_id, variant) DO UPDATE
                     SET rating = excluded.rating, deviation = excluded.deviation,
                         volatility = excluded.volatility,
                         attempts = puzzle_ratings.attempts + 1",
                &values![
                    account,
                    &puzzle.variant,
                    player_after.rating,
                    player_after.deviation,
                    player_after.volatility
                ],
            )?;
            sql.execute(
                "INSERT INTO puzzle_attempts (account_id, puzzle_id, solved, at_ms)
                 VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (account_id, puzzle_id) DO UPDATE
                     SET solved = excluded.solved, at_ms = excluded.at_ms",
                &values![account, self.id, self.solved, self.at_ms],
            )?;
        }
        Ok(Applied::answer(1, now))
    }
}

/// The most puzzles a request may ask to leave out.
pub const MAX_EXCLUDED: usize = 200;

/// How many of the nearest puzzles a pick chooses among, so that two players of one
/// rating do not meet the same puzzle every time.
const NEAREST: usize = 12;

impl Store {
    /// Keeps `puzzles` (one whose board is kept already is left out) and marks `mined_game`
    /// as mined; how many were new.
    ///
    /// # Errors
    /// On a database failure.
    pub fn add_puzzles(
        &self,
        puzzles: Vec<NewPuzzle>,
        mined_game: Option<i64>,
    ) -> StoreResult<usize> {
        let applied = self.backend.write(Box::new(Add {
            puzzles,
            mined_game,
        }))?;
        Ok(applied.answer as usize)
    }

    /// How many puzzles of `variant` are kept.
    ///
    /// # Errors
    /// On a database failure.
    pub fn puzzle_count(&self, variant: &str) -> StoreResult<i64> {
        self.backend
            .read_statement(
                "SELECT count(*) FROM puzzles WHERE variant = ?1",
                &values![variant],
            )?
            .first()
            .map_or(Ok(0), |r| r.int(0))
    }

    /// The ids of finished games not mined yet, oldest first, at most `count`.
    ///
    /// # Errors
    /// On a database failure.
    pub fn unmined_games(&self, count: usize) -> StoreResult<Vec<i64>> {
        self.backend
            .read_statement(
                "SELECT g.id FROM games g
                 WHERE (g.result IS NOT NULL
                        OR EXISTS (SELECT 1 FROM live l WHERE l.game_id = g.id
                                   AND l.outcome IS NOT NULL))
                   AND NOT EXISTS (SELECT 1 FROM puzzle_mined_games m WHERE m.game_id = g.id)
                 ORDER BY g.id LIMIT ?1",
                &values![limit(count)],
            )?
            .iter()
            .map(|r| r.int(0))
            .collect()
    }

    /// Finished games with an id above `after`, oldest first, at most `count`, replayed
    /// (a game that no longer replays is left out).
    ///
    /// # Errors
    /// On a database failure.
    pub fn finished_games(&self, after: i64, count: usize) -> StoreResult<Vec<(i64, Game)>> {
        let ids: Vec<i64> = self
            .backend
            .read_statement(
                "SELECT g.id FROM games g
                 WHERE g.id > ?1 AND (g.result IS NOT NULL
                        OR EXISTS (SELECT 1 FROM live l WHERE l.game_id = g.id
                                   AND l.outcome IS NOT NULL))
                 ORDER BY g.id LIMIT ?2",
                &values![after, limit(count)],
            )?
            .iter()
            .map(|r| r.int(0))
            .collect::<StoreResult<_>>()?;
        let mut games = Vec::new();
        for id in ids {
            match self.load(id) {
                Ok(Some((_, game))) => games.push((id, game)),
                Ok(None) | Err(StoreError::BadStart { .. } | StoreError::Unreplayable { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(games)
    }

    /// Puzzle `id`, if kept.
    ///
    /// # Errors
    /// On a database failure.
    pub fn puzzle(&self, id: i64) -> StoreResult<Option<PuzzleRow>> {
        self.backend
            .read_statement(
                &format!("SELECT {COLUMNS} FROM puzzles WHERE id = ?1"),
                &values![id],
            )?
            .first()
            .map(puzzle_row)
            .transpose()
    }

    /// A puzzle of `variant` near `rating`: one of the [`NEAREST`] nearest, chosen by
    /// `pick` (a number the caller draws), having one of `themes` if any are given, leaving
    /// out `exclude` and those `account` has tried.
    ///
    /// # Errors
    /// On a database failure.
    pub fn puzzle_near(
        &self,
        variant: &str,
        rating: f64,
        themes: &[String],
        exclude: &[i64],
        account: Option<i64>,
        pick: u64,
    ) -> StoreResult<Option<PuzzleRow>> {
        let mut params: Vec<Value> = values![variant, rating].to_vec();
        let mut filters = String::new();
        if !themes.is_empty() {
            let ors: Vec<String> = themes
                .iter()
                .map(|theme| {
                    params.push(Value::from(format!("% {theme} %")));
                    format!("themes LIKE ?{}", params.len())
                })
                .collect();
            filters.push_str(&format!(" AND ({})", ors.join(" OR ")));
        }
        for &id in exclude.iter().take(MAX_EXCLUDED) {
            params.push(Value::from(id));
            filters.push_str(&format!(" AND id <> ?{}", params.len()));
        }
        if let Some(account) = account {
            params.push(Value::from(account));
            filters.push_str(&format!(
                " AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a
                                  WHERE a.puzzle_id = puzzles.id AND a.account_id = ?{})",
                params.len()
            ));
        }
        params.push(limit(NEAREST));
        let n = params.len();
        // The nearest above and the nearest below, each read along the rating index, rather
        // than every puzzle of the game sorted by its distance.
        let query = format!(
            "SELECT * FROM (SELECT {COLUMNS} FROM puzzles
                            WHERE variant = ?1 AND rating >= ?2{filters}
                            ORDER BY rating, id LIMIT ?{n}) AS above
             UNION ALL
             SELECT * FROM (SELECT {COLUMNS} FROM puzzles
                            WHERE variant = ?1 AND rating < ?2{filters}
                            ORDER BY rating DESC, id LIMIT ?{n}) AS below"
        );
        let mut rows: Vec<PuzzleRow> = self
            .backend
            .read_statement(&query, &params)?
            .iter()
            .map(puzzle_row)
            .collect::<StoreResult<_>>()?;
        rows.sort_by(|a, b| {
            let distance = |p: &PuzzleRow| (p.rating.rating - rating).abs();
            distance(a).total_cmp(&distance(b)).then(a.id.cmp(&b.id))
        });
        rows.truncate(NEAREST);
        if rows.is_empty() {
            return Ok(None);
        }
        let chosen = (pick % rows.len() as u64) as usize;
        Ok(Some(rows.swap_remove(chosen)))
    }

    /// The daily puzzle of `variant` on `day` (days since 1970-01-01, UTC): the same for
    /// everyone, chosen the first time it is asked for.
    ///
    /// # Errors
    /// On a database failure.
    pub fn daily_puzzle(&self, variant: &str, day: i64) -> StoreResult<Option<PuzzleRow>> {
        let applied = self.backend.write(Box::new(Daily {
            variant: variant.to_owned(),
            day,
        }))?;
        match applied.answer {
            0 => Ok(None),
            id => self.puzzle(id),
        }
    }

    /// An account's puzzle rating in `variant` (a new player's when it has none).
    ///
    /// # Errors
    /// On a database failure.
    pub fn puzzle_rating(&self, account: i64, variant: &str) -> StoreResult<Rating> {
        let rows = self.backend.read_statement(
            "SELECT rating, deviation, volatility FROM puzzle_ratings
             WHERE account_id = ?1 AND variant = ?2",
            &values![account, variant],
        )?;
        match rows.first() {
            Some(r) => Ok(Rating {
                rating: r.real(0)?,
                deviation: r.real(1)?,
                volatility: r.real(2)?,
            }),
            None => Ok(Rating::default()),
        }
    }

    /// Rates a result on puzzle `id`: by `account`'s puzzle rating, or by `anonymous` (the
    /// page's own) for a player without one. `None` when there is no such puzzle.
    ///
    /// # Errors
    /// On a database failure.
    pub fn puzzle_result(
        &self,
        id: i64,
        account: Option<i64>,
        anonymous: Rating,
        solved: bool,
        at_ms: i64,
    ) -> StoreResult<Option<PuzzleOutcome>> {
        let applied = self.backend.write(Box::new(Rate {
            id,
            account,
            anonymous,
            solved,
            at_ms,
        }))?;
        if applied.answer == 0 {
            return Ok(None);
        }
        let puzzle = self
            .puzzle(id)?
            .ok_or_else(|| StoreError::Database(format!("puzzle {id} went away")))?;
        let player = match account {
            Some(account) => Some(self.puzzle_rating(account, &puzzle.variant)?),
            None => None,
        };
        Ok(Some(PuzzleOutcome {
            puzzle: puzzle.rating,
            player,
        }))
    }
}
