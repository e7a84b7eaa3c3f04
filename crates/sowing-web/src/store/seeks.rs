//! Quick pairing's seeks (docs/api.md, "Quick pairing"): a player waiting for any opponent
//! who wants the same game, options, clock and rated-ness. A seek is placed and paired in
//! one transaction: the newcomer takes the oldest compatible seek still open, and the game
//! between them is created with both seats' tokens in the same commit, so a seek is paired
//! once or not at all. Writers of one pool wait for one another ([`Sql::serialize_on`]), so
//! that two seekers arriving together on two servers cannot each miss the other.
//!
//! A seek stays open while a socket waits on it: the server holding that socket marks it
//! alive every few seconds ([`Store::keep_seeks_alive`]); a seek not marked for
//! [`SEEK_ALIVE_MS`] (its page or its server gone) is no longer paired, and is swept.

use sowing::Side;

use super::error::StoreResult;
use super::games::Create;
use super::sql::{values, Record, Sql, Value};
use super::write::{Applied, Write};
use super::{LiveRow, NewGame, Store};

/// How long a seek stays pairable without word from the socket waiting on it.
pub const SEEK_ALIVE_MS: i64 = 15_000;

/// How many recent pairings of each player decide the seats.
const RECENT_SEATS: usize = 10;

/// The seeks a newcomer looks at, oldest first; the first compatible is taken.
const CANDIDATES: usize = 64;

/// A seek to place.
#[derive(Clone, Debug)]
pub struct NewSeek {
    /// What must be equal for two seeks to pair: the game, its options, the clock and
    /// whether it is rated.
    pub pool: String,
    /// Who seeks (the SHA-256 of the account's owner hash or the player key): never paired
    /// with itself, and its recent seats decide the next.
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
    /// The game to create when paired, at its start.
    pub game: sowing::Game,
    /// Its live row: the clock and whether it is rated, neither seat yet.
    pub live: LiveRow,
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

/// One candidate's columns.
struct Candidate {
    id: i64,
    player: [u8; 32],
    token_hash: [u8; 32],
    name: Option<String>,
    account: Option<i64>,
    rating: Option<f64>,
    range: Option<(f64, f64)>,
}

impl Candidate {
    fn of(r: &Record) -> StoreResult<Candidate> {
        let hash = |column| {
            r.opt_hash(column)?
                .ok_or_else(|| r.bad(column, "a 32-byte hash"))
        };
        let low = r.opt_real(6)?;
        let high = r.opt_real(7)?;
        Ok(Candidate {
            id: r.int(0)?,
            player: hash(1)?,
            token_hash: hash(2)?,
            name: r.opt_text(3)?,
            account: r.opt_int(4)?,
            rating: r.opt_real(5)?,
            range: low.zip(high),
        })
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

/// South seats minus North seats among `player`'s recent pairings.
fn lean(sql: &mut dyn Sql, player: [u8; 32]) -> StoreResult<i64> {
    let seats = sql.query(
        "SELECT seat FROM seeks WHERE player = ?1 AND seat IS NOT NULL ORDER BY id DESC LIMIT ?2",
        &values![player, super::sql::limit(RECENT_SEATS)],
    )?;
    seats.iter().try_fold(0, |lean, r| {
        Ok(lean + if r.text(0)? == "south" { 1 } else { -1 })
    })
}

/// The pool's writers wait for one another under this key.
fn pool_key(pool: &str) -> i64 {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(pool.as_bytes());
    let mut first = [0; 8];
    first.copy_from_slice(&digest[..8]);
    i64::from_be_bytes(first)
}

/// Places a seek, pairing it with the oldest compatible open seek if there is one; the
/// answer is the new seek's id.
struct Place(NewSeek);

impl Write for Place {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let new = &self.0;
        sql.serialize_on(pool_key(&new.pool))?;
        let candidates = sql.query(
            "SELECT id, player, token_hash, name, account_id, rating, range_low, range_high
             FROM seeks WHERE pool = ?1 AND game_id IS NULL AND alive_ms >= ?2 AND player <> ?3
             ORDER BY id LIMIT ?4",
            &values![
                new.pool.as_str(),
                new.now_ms - SEEK_ALIVE_MS,
                new.player,
                super::sql::limit(CANDIDATES)
            ],
        )?;
        let mut partner = None;
        for record in &candidates {
            let c = Candidate::of(record)?;
            let compatible = accepts(new.range, c.rating)
                && accepts(c.range, new.rating)
                && (new.account.is_none() || new.account != c.account);
            // Taken here, or by nobody: a cancel that came first leaves no row to take.
            if compatible
                && sql.execute(
                    "UPDATE seeks SET paired_ms = ?2 WHERE id = ?1 AND game_id IS NULL",
                    &values![c.id, new.now_ms],
                )? == 1
            {
                partner = Some(c);
                break;
            }
        }
        let mut pairing = None;
        let mut change = None;
        if let Some(p) = partner {
            // The player who sat South more often lately sits North; on a tie the one who
            // waited sits South.
            let mine = if lean(sql, new.player)? >= lean(sql, p.player)? {
                Side::North
            } else {
                Side::South
            };
            let mut live = new.live.clone();
            live.seats[mine.index()] = Some(new.token_hash);
            live.seats[(!mine).index()] = Some(p.token_hash);
            live.names[mine.index()] = new.name.clone();
            live.names[(!mine).index()] = p.name.clone();
            live.accounts[mine.index()] = new.account;
            live.accounts[(!mine).index()] = p.account;
            let created = Create::of(&NewGame::live(&new.game, &live)).apply(sql, now)?;
            let game = created.answer;
            sql.execute(
                "UPDATE seeks SET game_id = ?2, seat = ?3 WHERE id = ?1",
                &values![p.id, game, !mine],
            )?;
            pairing = Some((game, mine));
            change = created.change;
        }
        let id = sql
            .query_one(
                "INSERT INTO seeks (pool, player, token_hash, name, account_id, rating, range_low,
                                    range_high, address, server, alive_ms, created_ms, game_id,
                                    seat, paired_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11, ?12, ?13, ?14)
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
                    pairing.map(|p| p.0),
                    pairing.map(|p| p.1),
                    pairing.map(|_| new.now_ms),
                ],
            )?
            .int(0)?;
        Ok(Applied {
            answer: id,
            change,
            at: now.to_owned(),
        })
    }
}

/// A statement that changes seeks and no game.
struct Statement {
    sql: &'static str,
    values: Vec<Value>,
}

impl Write for Statement {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let changed = sql.execute(self.sql, &self.values)?;
        Ok(Applied::answer(
            i64::try_from(changed).unwrap_or(i64::MAX),
            now,
        ))
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

    /// Places a seek, paired at once with the oldest compatible open seek if any (the game
    /// between them created in the same transaction); the new seek's id.
    ///
    /// # Errors
    /// On a database failure; nothing is then written.
    pub fn place_seek(&self, new: NewSeek) -> StoreResult<i64> {
        Ok(self.backend.write(Box::new(Place(new)))?.answer)
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

    #[test]
    fn pools_lock_apart() {
        assert_ne!(pool_key("a"), pool_key("b"));
        assert_eq!(pool_key("a"), pool_key("a"));
    }
}
