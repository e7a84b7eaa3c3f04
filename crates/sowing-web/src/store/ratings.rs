//! Ratings, per account, game and speed, and every rated game's before and after
//! (`rated_games`), written in the transaction that ended the game ([`settle_rating`]).

use super::error::StoreResult;
use super::sql::{limit, values, Record, Sql, Value};
use super::Store;
use crate::ratings::{self, Rating, Speed};

/// An account's rating in one game at one speed.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// The account.
    pub account: i64,
    /// Its name (for leaderboards).
    pub name: String,
    /// `hoyito-ii`, `hoyito-iii` or `ayoayo`.
    pub variant: String,
    /// `bullet` … `unlimited` ([`Speed::name`]).
    pub speed: String,
    /// The rating.
    pub rating: Rating,
    /// Rated games played.
    pub games: u32,
}

/// A rated game's result and what it did to both ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGameRow {
    /// The game.
    pub game_id: i64,
    /// `hoyito-ii`, `hoyito-iii` or `ayoayo`.
    pub variant: String,
    /// Its speed's name.
    pub speed: String,
    /// The accounts (South, North).
    pub accounts: [i64; 2],
    /// Their names (South, North).
    pub names: [String; 2],
    /// `south`, `north` or `draw`.
    pub outcome: String,
    /// The ratings before (South, North).
    pub before: [f64; 2],
    /// The ratings after (South, North).
    pub after: [f64; 2],
    /// The deviations after (South, North).
    pub deviation_after: [f64; 2],
    /// When it was rated, Unix ms.
    pub at_ms: i64,
}

/// The score of South in a result (`south`, `north`, `draw`); `None` for no result.
fn south_score(outcome: &str) -> Option<f64> {
    match outcome {
        "south" => Some(1.0),
        "north" => Some(0.0),
        "draw" => Some(0.5),
        _ => None,
    }
}

fn read_rating(sql: &mut dyn Sql, account: i64, variant: &str, speed: &str) -> StoreResult<Rating> {
    Ok(sql
        .query_opt(
            "SELECT rating, deviation, volatility FROM ratings
             WHERE account_id = ?1 AND variant = ?2 AND speed = ?3",
            &values![account, variant, speed],
        )?
        .map(|r| rating_in(&r))
        .transpose()?
        .unwrap_or_default())
}

/// The Glicko-2 rating in a row's first three columns: rating, deviation, volatility.
pub(super) fn rating_in(row: &Record) -> StoreResult<Rating> {
    Ok(Rating {
        rating: row.real(0)?,
        deviation: row.real(1)?,
        volatility: row.real(2)?,
    })
}

/// Rates the live game `game_id` if its write just ended it: a rated game between two
/// accounts, over with a result (by the rules, a resignation, a flag, an agreement), and
/// not rated yet. Inside the transaction that wrote it, so a game is rated exactly once.
pub(super) fn settle_rating(sql: &mut dyn Sql, game_id: i64) -> StoreResult<()> {
    let Some(r) = sql.query_opt(
        "SELECT g.variant, g.result, l.outcome, l.rated, l.south_account, l.north_account,
                l.base_ms, l.increment_ms, l.clock_per_move
         FROM games g JOIN live l ON l.game_id = g.id WHERE g.id = ?1",
        &values![game_id],
    )?
    else {
        return Ok(());
    };
    let (Some(south), Some(north)) = (r.opt_int(4)?, r.opt_int(5)?) else {
        return Ok(());
    };
    if !r.flag(3)? || south == north {
        return Ok(());
    }
    // A result not by the rules (resignation, flag …) is the live row's; else the game's.
    let outcome = match r.opt_text(2)? {
        Some(outcome) => outcome,
        None => match r.opt_text(1)? {
            Some(result) => result,
            None => return Ok(()),
        },
    };
    let Some(score) = south_score(&outcome) else {
        return Ok(());
    };
    let done = sql.query_opt(
        "SELECT game_id FROM rated_games WHERE game_id = ?1",
        &values![game_id],
    )?;
    if done.is_some() {
        return Ok(());
    }
    let variant = r.text(0)?;
    let clock = r.opt_int(6)?.map(|base| crate::clock::LiveClock {
        per_move: r.flag(8).unwrap_or(false),
        ..crate::clock::LiveClock::new(base, r.int(7).unwrap_or(0))
    });
    let speed = Speed::of_clock(clock.as_ref()).name();
    // Every rating row there, then locked in the accounts' order (PostgreSQL: another game
    // of the same player ending at once waits; SQLite has one writer), then read.
    let mut both = [south, north];
    both.sort_unstable();
    for account in both {
        let fresh = Rating::default();
        sql.execute(
            "INSERT INTO ratings (account_id, variant, speed, rating, deviation, volatility, games)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0) ON CONFLICT DO NOTHING",
            &values![
                account,
                variant.as_str(),
                speed,
                fresh.rating,
                fresh.deviation,
                fresh.volatility
            ],
        )?;
        sql.execute(
            "UPDATE ratings SET games = games
             WHERE account_id = ?1 AND variant = ?2 AND speed = ?3",
            &values![account, variant.as_str(), speed],
        )?;
    }
    let before_south = read_rating(sql, south, &variant, speed)?;
    let before_north = read_rating(sql, north, &variant, speed)?;
    let (after_south, after_north) = ratings::after_game(before_south, before_north, score);
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    sql.execute(
        "INSERT INTO rated_games (game_id, variant, speed, south_account, north_account,
             outcome, south_before, north_before, south_after, north_after, south_deviation,
             north_deviation, at_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
        &values![
            game_id,
            variant.as_str(),
            speed,
            south,
            north,
            outcome.as_str(),
            before_south.rating,
            before_north.rating,
            after_south.rating,
            after_north.rating,
            after_south.deviation,
            after_north.deviation,
            now_ms
        ],
    )?;
    for (account, after) in [(south, after_south), (north, after_north)] {
        sql.execute(
            "UPDATE ratings SET rating = ?4, deviation = ?5, volatility = ?6, games = games + 1
             WHERE account_id = ?1 AND variant = ?2 AND speed = ?3",
            &values![
                account,
                variant.as_str(),
                speed,
                after.rating,
                after.deviation,
                after.volatility
            ],
        )?;
    }
    Ok(())
}

fn rating_row(r: &Record) -> StoreResult<RatingRow> {
    Ok(RatingRow {
        account: r.int(0)?,
        name: r.text(1)?,
        variant: r.text(2)?,
        speed: r.text(3)?,
        rating: Rating {
            rating: r.real(4)?,
            deviation: r.real(5)?,
            volatility: r.real(6)?,
        },
        games: r.opt_small(7)?.unwrap_or(0),
    })
}

const RATING_COLUMNS: &str = "r.account_id, a.name, r.variant, r.speed, r.rating, r.deviation, \
                              r.volatility, r.games";

impl Store {
    /// Every rating of `account` (the games and speeds it played rated), by game and speed.
    ///
    /// # Errors
    /// On a database failure.
    pub fn ratings(&self, account: i64) -> StoreResult<Vec<RatingRow>> {
        self.read(|sql| {
            sql.query(
                &format!(
                    "SELECT {RATING_COLUMNS} FROM ratings r JOIN accounts a ON a.id = r.account_id
                     WHERE r.account_id = ?1 AND r.games > 0 ORDER BY r.variant, r.speed"
                ),
                &values![account],
            )?
            .iter()
            .map(rating_row)
            .collect()
        })
    }

    /// The rating of each of `accounts` in `variant` at `speed` (a new player's when it has
    /// none), in their order.
    ///
    /// # Errors
    /// On a database failure.
    pub fn ratings_in(
        &self,
        accounts: &[i64],
        variant: &str,
        speed: &str,
    ) -> StoreResult<Vec<(Rating, u32)>> {
        let accounts = accounts.to_vec();
        let (variant, speed) = (variant.to_owned(), speed.to_owned());
        self.read(move |sql| {
            accounts
                .iter()
                .map(|&account| {
                    let row = sql.query_opt(
                        "SELECT rating, deviation, volatility, games FROM ratings
                         WHERE account_id = ?1 AND variant = ?2 AND speed = ?3",
                        &values![account, variant.as_str(), speed.as_str()],
                    )?;
                    Ok(match row {
                        Some(r) => (
                            Rating {
                                rating: r.real(0)?,
                                deviation: r.real(1)?,
                                volatility: r.real(2)?,
                            },
                            r.opt_small(3)?.unwrap_or(0),
                        ),
                        None => (Rating::default(), 0),
                    })
                })
                .collect()
        })
    }

    /// The best `count` ratings in `variant` at `speed` (accounts with a rated game), best
    /// first.
    ///
    /// # Errors
    /// On a database failure.
    pub fn leaderboard(
        &self,
        variant: &str,
        speed: &str,
        count: usize,
    ) -> StoreResult<Vec<RatingRow>> {
        let (variant, speed) = (variant.to_owned(), speed.to_owned());
        self.read(move |sql| {
            sql.query(
                &format!(
                    "SELECT {RATING_COLUMNS} FROM ratings r JOIN accounts a ON a.id = r.account_id
                     WHERE r.variant = ?1 AND r.speed = ?2 AND r.games > 0
                     ORDER BY r.rating DESC, a.name_key LIMIT ?3"
                ),
                &[
                    Value::from(variant.as_str()),
                    Value::from(speed.as_str()),
                    limit(count),
                ],
            )?
            .iter()
            .map(rating_row)
            .collect()
        })
    }

    /// The last `count` rated games of `account`, newest first.
    ///
    /// # Errors
    /// On a database failure.
    pub fn rated_games(&self, account: i64, count: usize) -> StoreResult<Vec<RatedGameRow>> {
        self.read(|sql| {
            sql.query(
                "SELECT r.game_id, r.variant, r.speed, r.south_account, r.north_account,
                        s.name, n.name, r.outcome, r.south_before, r.north_before,
                        r.south_after, r.north_after, r.south_deviation, r.north_deviation,
                        r.at_ms
                 FROM rated_games r JOIN accounts s ON s.id = r.south_account
                                    JOIN accounts n ON n.id = r.north_account
                 WHERE r.south_account = ?1 OR r.north_account = ?1
                 ORDER BY r.at_ms DESC, r.game_id DESC LIMIT ?2",
                &[Value::from(account), limit(count)],
            )?
            .iter()
            .map(|r| {
                Ok(RatedGameRow {
                    game_id: r.int(0)?,
                    variant: r.text(1)?,
                    speed: r.text(2)?,
                    accounts: [r.int(3)?, r.int(4)?],
                    names: [r.text(5)?, r.text(6)?],
                    outcome: r.text(7)?,
                    before: [r.real(8)?, r.real(9)?],
                    after: [r.real(10)?, r.real(11)?],
                    deviation_after: [r.real(12)?, r.real(13)?],
                    at_ms: r.int(14)?,
                })
            })
            .collect()
        })
    }
}
