//! Quick pairing's seeks (docs/api.md, "Quick pairing"): a player waiting for any opponent
//! who wants the same game, options, clock and rated-ness (the same `pool`). Placing a seek
//! only writes it; pairing is done in rounds ([`Store::pair_seeks`]), each one transaction
//! that pairs every open seek it can, oldest first, and creates their games with both
//! seats' tokens in the same commit. One round runs at a time across all servers
//! ([`Sql::serialize_on`]), so a seek is paired once or not at all; and a round pairs
//! hundreds of seeks for one commit.
//!
//! A seek stays open while a socket waits on it: the server holding that socket marks it
//! alive every few seconds ([`Store::keep_seeks_alive`]); a seek not marked for
//! [`SEEK_ALIVE_MS`] (its page or its server gone) is no longer paired, and is swept.

use std::collections::HashMap;

use sowing::{Game, Position, Side};

use super::error::{StoreError, StoreResult};
use super::games::Create;
use super::sql::{values, Record, Sql, Value};
use super::write::{Applied, Statement, Write};
use super::{LiveRow, NewGame, Store};
use crate::clock::LiveClock;

/// How long a seek stays pairable without word from the socket waiting on it.
pub const SEEK_ALIVE_MS: i64 = 15_000;

/// How many recent pairings of each player decide the seats.
const RECENT_SEATS: i64 = 10;

/// The most seeks one round looks at.
const ROUND_SEEKS: usize = 4000;

/// The lock the pairing rounds of every server take in turn.
const ROUND_LOCK: i64 = 1_402_038;

/// A seek to place.
#[derive(Clone, Debug)]
pub struct NewSeek {
    /// What must be equal for two seeks to pair: the game, its options, the clock and
    /// whether it is rated.
    pub pool: String,
    /// Who seeks (the account's owner hash, or the SHA-256 of the player key): never
    /// paired with itself, and its recent seats decide the next.
    pub player: [u8; 32],
    /// SHA-256 of the seat token handed to the seeker.
    pub token_hash: [u8; 32],
    /// The name shown to the opponent.
    pub name: Option<String>,
    /// The seeker's account, when signed in.
    pub account: Option<i64>,
    /// The seeker's rating in this game at this speed, when signed in.
    pub rating: Option<f64>,
    /// The opponents' ratings the seeker accepts, when they said.
    pub range: Option<(f64, f64)>,
    /// The seeker's address, for the cap per address.
    pub address: String,
    /// The server placing it (a random id each server takes at start).
    pub server: i64,
    /// Now, Unix ms.
    pub now_ms: i64,
    /// The game's start position, as text (the rules and their options within).
    pub start: String,
    /// The clock, or `None` for unlimited time.
    pub clock: Option<LiveClock>,
    /// A rated game.
    pub rated: bool,
}

/// A seek as the store keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct SeekRow {
    /// Its id.
    pub id: i64,
    /// SHA-256 of its seat token.
    pub token_hash: [u8; 32],
    /// The game it was paired into, and the seat it holds there.
    pub paired: Option<(i64, Side)>,
}

/// An open seek as a round reads it.
struct Open {
    id: i64,
    pool: String,
    player: [u8; 32],
    token_hash: [u8; 32],
    name: Option<String>,
    account: Option<i64>,
    rating: Option<f64>,
    range: Option<(f64, f64)>,
    start: String,
    clock: Option<LiveClock>,
    rated: bool,
}

const OPEN_COLUMNS: &str = "id, pool, player, token_hash, name, account_id, rating, range_low, \
                            range_high, start, base_ms, increment_ms, rated";

impl Open {
    fn of(r: &Record) -> StoreResult<Open> {
        let hash = |column| {
            r.opt_hash(column)?
                .ok_or_else(|| r.bad(column, "a 32-byte hash"))
        };
        let clock = match r.opt_int(10)? {
            Some(base_ms) => Some(LiveClock::new(base_ms, r.int(11)?)),
            None => None,
        };
        Ok(Open {
            id: r.int(0)?,
            pool: r.text(1)?,
            player: hash(2)?,
            token_hash: hash(3)?,
            name: r.opt_text(4)?,
            account: r.opt_int(5)?,
            rating: r.opt_real(6)?,
            range: r.opt_real(7)?.zip(r.opt_real(8)?),
            start: r.text(9)?,
            clock,
            rated: r.flag(12)?,
        })
    }

    /// Whether `self` and `other` may play each other: not the same player or account,
    /// and each inside the other's range.
    fn suits(&self, other: &Open) -> bool {
        self.player != other.player
            && (self.account.is_none() || self.account != other.account)
            && accepts(self.range, other.rating)
            && accepts(other.range, self.rating)
    }
}

/// Whether `rating` is inside `range` (no range takes anyone; a range takes only a rating).
fn accepts(range: Option<(f64, f64)>, rating: Option<f64>) -> bool {
    match (range, rating) {
        (None, _) => true,
        (Some((low, high)), Some(r)) => low <= r && r <= high,
        (Some(_), None) => false,
    }
}

/// Pairs `open` (of one pool, oldest first): each seek, in turn, with the oldest earlier
/// one still unpaired that suits it. Indices into `open`, the older first.
fn pairs_of(open: &[&Open]) -> Vec<(usize, usize)> {
    let mut waiting: Vec<usize> = Vec::new();
    let mut pairs = Vec::new();
    for (i, seek) in open.iter().enumerate() {
        match waiting.iter().position(|&w| open[w].suits(seek)) {
            Some(at) => pairs.push((waiting.remove(at), i)),
            None => waiting.push(i),
        }
    }
    pairs
}

/// South seats minus North seats among the recent pairings of each player with an open
/// seek.
fn leans(sql: &mut dyn Sql, alive_since: i64) -> StoreResult<HashMap<[u8; 32], i64>> {
    let rows = sql.query(
        "SELECT player, seat FROM (
             SELECT player, seat, ROW_NUMBER() OVER (PARTITION BY player ORDER BY id DESC) AS n
             FROM seeks
             WHERE seat IS NOT NULL AND player IN (
                 SELECT player FROM seeks WHERE game_id IS NULL AND alive_ms >= ?1)
         ) AS recent WHERE n <= ?2",
        &values![alive_since, RECENT_SEATS],
    )?;
    let mut leans = HashMap::new();
    for r in &rows {
        let player = r.opt_hash(0)?.ok_or_else(|| r.bad(0, "a 32-byte hash"))?;
        *leans.entry(player).or_insert(0) += if r.text(1)? == "south" { 1 } else { -1 };
    }
    Ok(leans)
}

/// Places a seek (open); the answer is its id.
struct Place(NewSeek);

impl Write for Place {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let new = &self.0;
        let id = sql
            .query_one(
                "INSERT INTO seeks (pool, player, token_hash, name, account_id, rating, range_low,
                                    range_high, address, server, alive_ms, created_ms, start,
                                    base_ms, increment_ms, rated)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11, ?12, ?13, ?14, ?15)
                 RETURNING id",
                &values![
                    new.pool.as_str(),
                    new.player,
                    new.token_hash,
                    new.name.as_ref(),
                    new.account,
                    new.rating,
                    new.range.map(|r| r.0),
                    new.range.map(|r| r.1),
                    new.address.as_str(),
                    new.server,
                    new.now_ms,
                    new.start.as_str(),
                    new.clock.map(|c| c.base_ms),
                    new.clock.map_or(0, |c| c.increment_ms),
                    new.rated,
                ],
            )?
            .int(0)?;
        Ok(Applied::answer(id, now))
    }
}

/// One round of pairing at `now_ms`; the answer is the number of games created.
struct Round {
    now_ms: i64,
}

impl Round {
    /// Creates the game of `older` and `newer` and marks both seeks paired into it; false
    /// (and nothing written) when either was cancelled since the round read it.
    fn pair(
        &self,
        sql: &mut dyn Sql,
        now: &str,
        (older, newer): (&Open, &Open),
        leans: &HashMap<[u8; 32], i64>,
    ) -> StoreResult<bool> {
        let claimed = sql.execute(
            "UPDATE seeks SET paired_ms = ?3 WHERE id IN (?1, ?2) AND game_id IS NULL",
            &values![older.id, newer.id, self.now_ms],
        )?;
        if claimed != 2 {
            sql.execute(
                "UPDATE seeks SET paired_ms = NULL WHERE id IN (?1, ?2) AND game_id IS NULL",
                &values![older.id, newer.id],
            )?;
            return Ok(false);
        }
        let lean = |p: &Open| leans.get(&p.player).copied().unwrap_or(0);
        // The player who sat South more often lately sits North; on a tie the one who
        // waited longer sits South.
        let (south, north) = if lean(older) > lean(newer) {
            (newer, older)
        } else {
            (older, newer)
        };
        let start: Position = older.start.parse().map_err(|e| {
            StoreError::Database(format!("seek {}: its start does not read: {e}", older.id))
        })?;
        let game = Game::from_position(start);
        let live = LiveRow {
            accounts: [south.account, north.account],
            rated: older.rated,
            first_move_due: true,
            ..LiveRow::new(
                [Some(south.token_hash), Some(north.token_hash)],
                [south.name.clone(), north.name.clone()],
                older.clock,
                self.now_ms,
            )
        };
        let id = Create::of(&NewGame::live(&game, &live))
            .apply(sql, now)?
            .answer;
        for (seek, seat) in [(south, Side::South), (north, Side::North)] {
            sql.execute(
                "UPDATE seeks SET game_id = ?2, seat = ?3 WHERE id = ?1",
                &values![seek.id, id, seat],
            )?;
        }
        Ok(true)
    }
}

impl Write for Round {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        sql.serialize_on(ROUND_LOCK)?;
        let alive_since = self.now_ms - SEEK_ALIVE_MS;
        let open: Vec<Open> = sql
            .query(
                &format!(
                    "SELECT {OPEN_COLUMNS} FROM seeks WHERE game_id IS NULL AND alive_ms >= ?1
                     ORDER BY id LIMIT ?2"
                ),
                &values![alive_since, super::sql::limit(ROUND_SEEKS)],
            )?
            .iter()
            .map(Open::of)
            .collect::<StoreResult<_>>()?;
        let mut pools: HashMap<&str, Vec<&Open>> = HashMap::new();
        for seek in &open {
            pools.entry(seek.pool.as_str()).or_default().push(seek);
        }
        let mut pairs = Vec::new();
        for seeks in pools.values() {
            pairs.extend(
                pairs_of(seeks)
                    .into_iter()
                    .map(|(a, b)| (seeks[a], seeks[b])),
            );
        }
        let mut games = 0;
        if !pairs.is_empty() {
            let leans = leans(sql, alive_since)?;
            for pair in pairs {
                games += i64::from(self.pair(sql, now, pair, &leans)?);
            }
        }
        Ok(Applied::answer(games, now))
    }
}

fn seek_row(r: &Record) -> StoreResult<SeekRow> {
    let paired = match (r.opt_int(2)?, r.opt_side(3)?) {
        (Some(game), Some(seat)) => Some((game, seat)),
        _ => None,
    };
    Ok(SeekRow {
        id: r.int(0)?,
        token_hash: r.opt_hash(1)?.ok_or_else(|| r.bad(1, "a 32-byte hash"))?,
        paired,
    })
}

impl Store {
    fn seek_statement(&self, sql: &'static str, values: Vec<Value>) -> StoreResult<usize> {
        let changed = self
            .backend
            .write(Box::new(Statement { sql, values }))?
            .answer;
        Ok(usize::try_from(changed).unwrap_or(0))
    }

    /// Places a seek, open; its id.
    ///
    /// # Errors
    /// On a database failure; nothing is then written.
    pub fn place_seek(&self, new: NewSeek) -> StoreResult<i64> {
        Ok(self.backend.write(Box::new(Place(new)))?.answer)
    }

    /// Whether a round of pairing may find work: some pool with two open seeks alive at
    /// `now_ms`. A read, so that idle servers write nothing.
    ///
    /// # Errors
    /// On a database failure.
    pub fn seeks_to_pair(&self, now_ms: i64) -> StoreResult<bool> {
        let rows = self.backend.read_statement(
            "SELECT pool FROM seeks WHERE game_id IS NULL AND alive_ms >= ?1
             GROUP BY pool HAVING count(*) >= 2 LIMIT 1",
            &values![now_ms - SEEK_ALIVE_MS],
        )?;
        Ok(!rows.is_empty())
    }

    /// One round of pairing at `now_ms`: every open seek alive, oldest first, paired with
    /// the oldest earlier one of its pool that suits it, their games created, in one
    /// transaction (one round at a time across the servers); the games created.
    ///
    /// # Errors
    /// On a database failure; nothing is then written.
    pub fn pair_seeks(&self, now_ms: i64) -> StoreResult<usize> {
        let games = self.backend.write(Box::new(Round { now_ms }))?.answer;
        Ok(usize::try_from(games).unwrap_or(0))
    }

    /// A seek by id.
    ///
    /// # Errors
    /// On a database failure.
    pub fn seek(&self, id: i64) -> StoreResult<Option<SeekRow>> {
        self.backend
            .read_statement(
                "SELECT id, token_hash, game_id, seat FROM seeks WHERE id = ?1",
                &values![id],
            )?
            .first()
            .map(seek_row)
            .transpose()
    }

    /// The two seeks paired into `game`.
    ///
    /// # Errors
    /// On a database failure.
    pub fn seeks_of_game(&self, game: i64) -> StoreResult<Vec<SeekRow>> {
        self.backend
            .read_statement(
                "SELECT id, token_hash, game_id, seat FROM seeks WHERE game_id = ?1",
                &values![game],
            )?
            .iter()
            .map(seek_row)
            .collect()
    }

    /// Takes an open seek out; whether it was open (false: it was paired meanwhile, or
    /// is gone).
    ///
    /// # Errors
    /// On a database failure.
    pub fn cancel_seek(&self, id: i64) -> StoreResult<bool> {
        Ok(self.seek_statement(
            "DELETE FROM seeks WHERE id = ?1 AND game_id IS NULL",
            values![id].into(),
        )? == 1)
    }

    /// Marks an open seek as waited on by `server`'s socket, alive at `now_ms`; whether it
    /// is still open.
    ///
    /// # Errors
    /// On a database failure.
    pub fn hold_seek(&self, id: i64, server: i64, now_ms: i64) -> StoreResult<bool> {
        Ok(self.seek_statement(
            "UPDATE seeks SET server = ?2, alive_ms = ?3 WHERE id = ?1 AND game_id IS NULL",
            values![id, server, now_ms].into(),
        )? == 1)
    }

    /// Marks every open seek `server` holds alive at `now_ms`.
    ///
    /// # Errors
    /// On a database failure.
    pub fn keep_seeks_alive(&self, server: i64, now_ms: i64) -> StoreResult<()> {
        self.seek_statement(
            "UPDATE seeks SET alive_ms = ?2 WHERE server = ?1 AND game_id IS NULL",
            values![server, now_ms].into(),
        )
        .map(drop)
    }

    /// The seeks `server` holds, from id `from` on, that are paired: for the sockets waiting
    /// on them when another server paired them.
    ///
    /// # Errors
    /// On a database failure.
    pub fn paired_seeks(&self, server: i64, from: i64) -> StoreResult<Vec<SeekRow>> {
        self.backend
            .read_statement(
                "SELECT id, token_hash, game_id, seat FROM seeks
                 WHERE server = ?1 AND id >= ?2 AND game_id IS NOT NULL",
                &values![server, from],
            )?
            .iter()
            .map(seek_row)
            .collect()
    }

    /// The open seeks placed from `address` and alive at `now_ms`.
    ///
    /// # Errors
    /// On a database failure.
    pub fn open_seeks_from(&self, address: &str, now_ms: i64) -> StoreResult<usize> {
        let rows = self.backend.read_statement(
            "SELECT count(*) FROM seeks WHERE address = ?1 AND game_id IS NULL AND alive_ms >= ?2",
            &values![address, now_ms - SEEK_ALIVE_MS],
        )?;
        rows.first().map_or(Ok(0), |r| r.size(0))
    }

    /// Deletes the open seeks no socket has marked alive since `now_ms - SEEK_ALIVE_MS`, and
    /// with `server` given, every open seek it holds (on its graceful stop); how many.
    ///
    /// # Errors
    /// On a database failure.
    pub fn sweep_seeks(&self, now_ms: i64, server: Option<i64>) -> StoreResult<usize> {
        self.seek_statement(
            "DELETE FROM seeks WHERE game_id IS NULL
             AND (alive_ms < ?1 OR server = CAST(?2 AS BIGINT))",
            values![now_ms - SEEK_ALIVE_MS, server].into(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_takes_only_ratings_inside_it() {
        assert!(accepts(None, None));
        assert!(accepts(None, Some(1500.0)));
        assert!(accepts(Some((1400.0, 1600.0)), Some(1400.0)));
        assert!(accepts(Some((1400.0, 1600.0)), Some(1600.0)));
        assert!(!accepts(Some((1400.0, 1600.0)), Some(1600.5)));
        assert!(!accepts(Some((1400.0, 1600.0)), None));
    }

    fn open(id: i64, player: u8, rating: Option<f64>, range: Option<(f64, f64)>) -> Open {
        Open {
            id,
            pool: "p".into(),
            player: [player; 32],
            token_hash: [0; 32],
            name: None,
            account: None,
            rating,
            range,
            start: String::new(),
            clock: None,
            rated: false,
        }
    }

    #[test]
    fn each_seek_pairs_with_the_oldest_earlier_one_that_suits_it() {
        let seeks = [
            open(1, 1, None, None),
            open(2, 1, None, None),
            open(3, 2, Some(1500.0), Some((1400.0, 1600.0))),
            open(4, 3, Some(1500.0), None),
            open(5, 4, None, None),
        ];
        let seeks: Vec<&Open> = seeks.iter().collect();
        // Seek 2 is seek 1's player's own; seek 3's range takes no one without a rating.
        // Seek 4 pairs with seek 1, who waited longest, seek 5 with seek 2; seek 3 waits.
        assert_eq!(pairs_of(&seeks), [(0, 3), (1, 4)]);
    }
}
