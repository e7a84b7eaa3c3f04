//! Games between two seats ("live" games): what the table `live` keeps besides the game row
//! (seats, names, the clock, offers, a result not by the rules), its codec, and the reads of
//! the lobby's and the sweeper's questions. A live row is written with its game's moves, in
//! the same transaction (`moves.rs`).

use sowing::Side;

use super::error::{StoreError, StoreResult};
use super::sql::{values, Record, Sql, Value};
use super::Store;
use crate::clock::LiveClock;

/// What the games list shows of a live game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveListing {
    /// Its result, when it ended otherwise than by the rules.
    pub result: Option<LiveResult>,
    /// The players' names as they gave them (South, North).
    pub names: [Option<String>; 2],
}

/// A finished live game's result when it did not end by the rules: the outcome (`south`,
/// `north`, `draw`, or `none` for a game closed with no result) and why (`resignation`,
/// `agreement`, `flag`, `abandoned`, `expired`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveResult {
    /// `south`, `north`, `draw` or `none`.
    pub outcome: String,
    /// `resignation`, `agreement`, `flag`, `abandoned` or `expired`.
    pub reason: String,
}

/// Standing offers of a live game: which side made each, if any.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Offers {
    /// A draw offer.
    pub draw: Option<Side>,
    /// A takeback request (of the last move).
    pub takeback: Option<Side>,
    /// A rematch offer, once the game is over.
    pub rematch: Option<Side>,
}

/// What is kept about a game between two seats (a "live" game) besides the game row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveRow {
    /// The game.
    pub game_id: i64,
    /// SHA-256 of each seat's token (South, North); `None` while a lobby seat is open.
    pub seats: [Option<[u8; 32]>; 2],
    /// The players' names as they gave them (South, North), unescaped.
    pub names: [Option<String>; 2],
    /// Listed in the lobby as an open challenge.
    pub lobby: bool,
    /// The creator's address while the challenge is open (for the cap per address).
    pub address: Option<String>,
    /// The clock, or `None` for unlimited time.
    pub clock: Option<LiveClock>,
    /// Standing offers.
    pub offers: Offers,
    /// The result when the game ended other than by the rules.
    pub result: Option<LiveResult>,
    /// The rematch's game, once both asked for it.
    pub rematch: Option<i64>,
    /// How many takebacks were granted (a socket that saw another number sends the whole
    /// game again).
    pub takebacks: u32,
    /// Bumped by every write: a write made from an older version is refused.
    pub version: i64,
    /// When it was created, Unix milliseconds.
    pub created_ms: i64,
    /// When a seat last acted (a move, an offer, a seat taken), Unix milliseconds.
    pub touched_ms: i64,
    /// The account holding each seat (South, North), once a signed-in player took or
    /// claimed it ([`super::AccountRow::id`]).
    pub accounts: [Option<i64>; 2],
    /// A rated game: its end moves both accounts' ratings (once, in the write that ends it).
    pub rated: bool,
    /// Both players were there when it began (quick pairing, a challenge accepted): each
    /// side's first move must come in time, else the game is aborted. Not for an
    /// invitation, whose friend may open the link much later.
    pub first_move_due: bool,
    /// The time given back to the clock, in all, for the server's outages (ms).
    pub credited_ms: i64,
    /// The last quick phrase each seat said (South, North), and how many it has said.
    pub said: [Option<(u32, String)>; 2],
}

impl LiveRow {
    /// The row of a new game between `seats` at `now` (Unix ms): not in the lobby, no
    /// offers, no result, nothing taken back.
    pub fn new(
        seats: [Option<[u8; 32]>; 2],
        names: [Option<String>; 2],
        clock: Option<LiveClock>,
        now: i64,
    ) -> LiveRow {
        LiveRow {
            game_id: 0,
            seats,
            names,
            lobby: false,
            address: None,
            clock,
            offers: Offers::default(),
            result: None,
            rematch: None,
            takebacks: 0,
            version: 0,
            created_ms: now,
            touched_ms: now,
            accounts: [None, None],
            rated: false,
            first_move_due: false,
            credited_ms: 0,
            said: [None, None],
        }
    }
}

pub(super) const LIVE_COLUMNS: &str =
    "game_id, south_hash, north_hash, south_name, north_name, lobby, \
    address, base_ms, increment_ms, south_ms, north_ms, running_since, offer_draw, \
    offer_takeback, offer_rematch, outcome, reason, rematch_id, takebacks, version, \
    created_ms, touched_ms, south_account, north_account, rated, first_move_due, credited_ms, said_south, said_south_n, said_north, \
    said_north_n, clock_per_move";

/// An open challenge of the lobby (with `?1` bound to true): listed, a seat free, no result.
pub(super) const OPEN: &str =
    "lobby = ?1 AND outcome IS NULL AND (south_hash IS NULL OR north_hash IS NULL)";

pub(super) fn live_row(r: &Record) -> StoreResult<LiveRow> {
    let clock = match r.opt_int(7)? {
        Some(base_ms) => Some(LiveClock {
            base_ms,
            increment_ms: r.int(8)?,
            remaining_ms: [r.int(9)?, r.int(10)?],
            running_since: r.opt_int(11)?,
            per_move: r.flag(31)?,
        }),
        None => None,
    };
    let reason = r.opt_text(16)?;
    Ok(LiveRow {
        game_id: r.int(0)?,
        seats: [r.opt_hash(1)?, r.opt_hash(2)?],
        names: [r.opt_text(3)?, r.opt_text(4)?],
        lobby: r.flag(5)?,
        address: r.opt_text(6)?,
        clock,
        offers: Offers {
            draw: r.opt_side(12)?,
            takeback: r.opt_side(13)?,
            rematch: r.opt_side(14)?,
        },
        result: r.opt_text(15)?.map(|outcome| LiveResult {
            outcome,
            reason: reason.unwrap_or_default(),
        }),
        rematch: r.opt_int(17)?,
        takebacks: r.opt_small(18)?.unwrap_or(0),
        version: r.int(19)?,
        created_ms: r.int(20)?,
        touched_ms: r.int(21)?,
        accounts: [r.opt_int(22)?, r.opt_int(23)?],
        rated: r.flag(24)?,
        first_move_due: r.flag(25)?,
        credited_ms: r.int(26)?,
        said: [said(r, 27)?, said(r, 29)?],
    })
}

/// A seat's last phrase and its count, from the columns at `at` and `at + 1`.
fn said(r: &Record, at: usize) -> StoreResult<Option<(u32, String)>> {
    Ok(r.opt_text(at)?
        .map(|phrase| (r.opt_small(at + 1).ok().flatten().unwrap_or(0), phrase)))
}

/// The live row's values for `?1` (the game), `?2` (its version) and then `LIVE_COLUMNS`
/// from `south_hash` to `rated` but `version`.
fn live_values(id: i64, live: &LiveRow) -> Vec<Value> {
    let clock = live.clock.as_ref();
    values![
        id,
        live.version,
        live.seats[0],
        live.seats[1],
        live.names[0].as_ref(),
        live.names[1].as_ref(),
        live.lobby,
        live.address.as_ref(),
        clock.map(|c| c.base_ms),
        clock.map_or(0, |c| c.increment_ms),
        clock.map_or(0, |c| c.remaining_ms[0]),
        clock.map_or(0, |c| c.remaining_ms[1]),
        clock.and_then(|c| c.running_since),
        live.offers.draw,
        live.offers.takeback,
        live.offers.rematch,
        live.result.as_ref().map(|r| r.outcome.as_str()),
        live.result.as_ref().map(|r| r.reason.as_str()),
        live.rematch,
        live.takebacks,
        live.created_ms,
        live.touched_ms,
        live.accounts[0],
        live.accounts[1],
        live.rated,
        live.first_move_due,
        live.credited_ms,
        live.said[0].as_ref().map(|s| s.1.as_str()),
        live.said[0].as_ref().map_or(0, |s| s.0),
        live.said[1].as_ref().map(|s| s.1.as_str()),
        live.said[1].as_ref().map_or(0, |s| s.0),
        clock.is_some_and(|c| c.per_move),
    ]
    .into()
}

/// The live row's values in the order of `LIVE_COLUMNS`, as [`live_row`] reads them.
pub(super) fn live_record(live: &LiveRow) -> Record {
    let mut values = live_values(live.game_id, live);
    // `live_values` puts the version second; the columns have it after `takebacks`.
    let version = values.remove(1);
    values.insert(19, version);
    Record(values)
}

/// Inserts the live row of the new game `id` (at version 0).
pub(super) fn insert_live(sql: &mut dyn Sql, id: i64, live: &LiveRow) -> StoreResult<()> {
    sql.execute(
        &format!(
            "INSERT INTO live ({LIVE_COLUMNS})
             VALUES (?1, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14,
                     ?15, ?16, ?17, ?18, ?19, ?20, ?2, ?21, ?22, ?23, ?24, ?25, ?26, ?27,
                     ?28, ?29, ?30, ?31, ?32)"
        ),
        &live_values(
            id,
            &LiveRow {
                version: 0,
                ..live.clone()
            },
        ),
    )?;
    Ok(())
}

/// Writes the live row over the stored one if that is still at `live.version` (bumping
/// it); else a conflict, and the caller's transaction is not committed.
pub(super) fn put_live(sql: &mut dyn Sql, live: &LiveRow) -> StoreResult<()> {
    let changed = sql.execute(
        "UPDATE live SET south_hash = ?3, north_hash = ?4, south_name = ?5,
             north_name = ?6, lobby = ?7, address = ?8, base_ms = ?9, increment_ms = ?10,
             south_ms = ?11, north_ms = ?12, running_since = ?13, offer_draw = ?14,
             offer_takeback = ?15, offer_rematch = ?16, outcome = ?17, reason = ?18,
             rematch_id = ?19, takebacks = ?20, created_ms = ?21, touched_ms = ?22,
             south_account = ?23, north_account = ?24, rated = ?25, first_move_due = ?26,
             credited_ms = ?27, said_south = ?28, said_south_n = ?29, said_north = ?30,
             said_north_n = ?31, clock_per_move = ?32, version = version + 1
         WHERE game_id = ?1 AND version = ?2",
        &live_values(live.game_id, live),
    )?;
    if changed == 0 {
        return Err(StoreError::Conflict(format!(
            "game {} changed meanwhile (version {} is no longer the stored one)",
            live.game_id, live.version
        )));
    }
    Ok(())
}

pub(super) fn read_live_row(sql: &mut dyn Sql, id: i64) -> StoreResult<Option<LiveRow>> {
    sql.query_opt(
        &format!("SELECT {LIVE_COLUMNS} FROM live WHERE game_id = ?1"),
        &values![id],
    )?
    .as_ref()
    .map(live_row)
    .transpose()
}

impl Store {
    /// A live game's row, or `None` for a game that is not between two seats.
    ///
    /// # Errors
    /// On a database failure.
    pub fn live_row(&self, id: i64) -> StoreResult<Option<LiveRow>> {
        self.read(|sql| read_live_row(sql, id))
    }

    /// Those of the games `ids` that are live games, each with its players' names and its
    /// result when it ended otherwise than by the rules (resignation, agreement, flag,
    /// abandoned, expired), for the games list.
    ///
    /// # Errors
    /// On a database failure.
    pub fn live_listings(&self, ids: &[i64]) -> StoreResult<Vec<(i64, LiveListing)>> {
        self.read(|sql| {
            let mut results = Vec::new();
            // In slices, well under either database's limit on bound parameters.
            for chunk in ids.chunks(500) {
                let marks: Vec<String> = (1..=chunk.len()).map(|i| format!("?{i}")).collect();
                let params: Vec<Value> = chunk.iter().map(|&id| Value::from(id)).collect();
                for r in sql.query(
                    &format!(
                        "SELECT game_id, outcome, reason, south_name, north_name FROM live
                         WHERE game_id IN ({})",
                        marks.join(", ")
                    ),
                    &params,
                )? {
                    let result = r
                        .opt_text(1)?
                        .map(|outcome| {
                            Ok::<_, StoreError>(LiveResult {
                                outcome,
                                reason: r.opt_text(2)?.unwrap_or_default(),
                            })
                        })
                        .transpose()?;
                    let names = [r.opt_text(3)?, r.opt_text(4)?];
                    results.push((r.int(0)?, LiveListing { result, names }));
                }
            }
            Ok(results)
        })
    }

    /// How many open challenges there are in all, and how many `address` posted.
    ///
    /// # Errors
    /// On a database failure.
    pub fn open_challenges(&self, address: &str) -> StoreResult<(usize, usize)> {
        self.read(|sql| {
            let r = sql.query_one(
                &format!(
                    "SELECT count(*), count(CASE WHEN address = ?2 THEN 1 END) FROM live
                     WHERE {OPEN}"
                ),
                &values![true, address],
            )?;
            Ok((r.size(0)?, r.size(1)?))
        })
    }

    /// Live games with no result that nobody touched since `before_ms` (Unix ms), and open
    /// challenges not taken since `open_before_ms`: the ids, for closing.
    ///
    /// # Errors
    /// On a database failure.
    pub fn stale_live_games(&self, before_ms: i64, open_before_ms: i64) -> StoreResult<Vec<i64>> {
        self.read(|sql| {
            sql.query(
                &format!(
                    "SELECT game_id FROM live WHERE outcome IS NULL
                       AND (touched_ms < ?2 OR ({OPEN} AND touched_ms < ?3))
                     ORDER BY game_id"
                ),
                &values![true, before_ms, open_before_ms],
            )?
            .iter()
            .map(|r| r.int(0))
            .collect()
        })
    }

    /// The live games going on (no result) whose seat `account` holds, newest first, at
    /// most `count`: the ids.
    ///
    /// # Errors
    /// On a database failure.
    pub fn account_live_games(&self, account: i64, count: usize) -> StoreResult<Vec<i64>> {
        self.read(|sql| {
            sql.query(
                "SELECT l.game_id FROM live l JOIN games g ON g.id = l.game_id
                 WHERE l.outcome IS NULL AND g.result IS NULL
                   AND (l.south_account = ?1 OR l.north_account = ?1)
                 ORDER BY l.game_id DESC LIMIT ?2",
                &values![account, super::sql::limit(count)],
            )?
            .iter()
            .map(|r| r.int(0))
            .collect()
        })
    }

    /// Live games going on that may be over at `now_ms` with nobody there to see it: a
    /// running clock whose lower time has run out, or a first move due for `first_move_ms`
    /// and not made. The ids (at most `count`), for the sweeper to settle; each is judged
    /// again when it is locked.
    ///
    /// # Errors
    /// On a database failure.
    pub fn due_live_games(
        &self,
        now_ms: i64,
        first_move_ms: i64,
        count: usize,
    ) -> StoreResult<Vec<i64>> {
        self.read(|sql| {
            sql.query(
                "SELECT l.game_id FROM live l JOIN games g ON g.id = l.game_id
                 WHERE l.outcome IS NULL AND g.result IS NULL AND (
                     (l.running_since IS NOT NULL AND l.running_since
                         + CASE WHEN l.south_ms < l.north_ms THEN l.south_ms ELSE l.north_ms END
                         <= ?1)
                     OR (l.first_move_due = ?2 AND l.base_ms IS NOT NULL AND g.plies < 2
                         AND l.clock_per_move = ?5 AND l.touched_ms + ?3 <= ?1))
                 ORDER BY l.game_id LIMIT ?4",
                &values![now_ms, true, first_move_ms, super::sql::limit(count), false],
            )?
            .iter()
            .map(|r| r.int(0))
            .collect()
        })
    }
}
