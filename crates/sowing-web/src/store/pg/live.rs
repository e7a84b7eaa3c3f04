//! Live games (two secret seats, clocks, offers) in PostgreSQL: the table `live` and the
//! writes on it, with the same conflict rules as SQLite's. Every write of a live row also
//! bumps the game row's version and announces it (`NOTIFY`), so that another server's copy
//! in memory is known stale (it checks that version) and its sockets wake.

use postgres::Transaction;
use sowing::{Game, Side};

use super::super::{LiveResult, LiveRow, Offers, StoreError, StoreResult, Summary};
use super::{changed_meanwhile, db, notify, update_summary, Postgres, NOW};
use crate::clock::Clock;

/// The table, as SQLite's (`lobby` a boolean, the hashes `BYTEA`).
pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS live (
    game_id        BIGINT PRIMARY KEY REFERENCES games(id),
    south_hash     BYTEA,
    north_hash     BYTEA,
    south_name     TEXT,
    north_name     TEXT,
    lobby          BOOLEAN NOT NULL DEFAULT FALSE,
    address        TEXT,
    base_ms        BIGINT,
    increment_ms   BIGINT NOT NULL DEFAULT 0,
    south_ms       BIGINT NOT NULL DEFAULT 0,
    north_ms       BIGINT NOT NULL DEFAULT 0,
    running_since  BIGINT,
    offer_draw     TEXT,
    offer_takeback TEXT,
    offer_rematch  TEXT,
    outcome        TEXT,
    reason         TEXT,
    rematch_id     BIGINT,
    takebacks      BIGINT NOT NULL DEFAULT 0,
    version        BIGINT NOT NULL DEFAULT 0,
    created_ms     BIGINT NOT NULL,
    touched_ms     BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS live_open ON live(lobby, outcome);
";

const COLUMNS: &str = "game_id, south_hash, north_hash, south_name, north_name, lobby, \
    address, base_ms, increment_ms, south_ms, north_ms, running_since, offer_draw, \
    offer_takeback, offer_rematch, outcome, reason, rematch_id, takebacks, version, \
    created_ms, touched_ms";

/// An open challenge of the lobby: listed, a seat free, no result.
const OPEN: &str = "lobby AND outcome IS NULL AND (south_hash IS NULL OR north_hash IS NULL)";

/// A live row's values, owned, in `COLUMNS` order from `south_hash` on but `version`.
struct Values {
    hashes: [Option<Vec<u8>>; 2],
    names: [Option<String>; 2],
    lobby: bool,
    address: Option<String>,
    base: Option<i64>,
    increment: i64,
    remaining: [i64; 2],
    running_since: Option<i64>,
    offers: [Option<&'static str>; 3],
    outcome: Option<String>,
    reason: Option<String>,
    rematch: Option<i64>,
    takebacks: i64,
    created_ms: i64,
    touched_ms: i64,
}

impl Values {
    fn of(live: &LiveRow) -> Values {
        let clock = live.clock.as_ref();
        Values {
            hashes: live.seats.map(|h| h.map(|h| h.to_vec())),
            names: live.names.clone(),
            lobby: live.lobby,
            address: live.address.clone(),
            base: clock.map(|c| c.base_ms),
            increment: clock.map_or(0, |c| c.increment_ms),
            remaining: clock.map_or([0, 0], |c| c.remaining_ms),
            running_since: clock.and_then(|c| c.running_since),
            offers: [
                live.offers.draw.map(Side::name),
                live.offers.takeback.map(Side::name),
                live.offers.rematch.map(Side::name),
            ],
            outcome: live.result.as_ref().map(|r| r.outcome.clone()),
            reason: live.result.as_ref().map(|r| r.reason.clone()),
            rematch: live.rematch,
            takebacks: i64::from(live.takebacks),
            created_ms: live.created_ms,
            touched_ms: live.touched_ms,
        }
    }

    fn params(&self) -> Vec<&(dyn postgres::types::ToSql + Sync)> {
        vec![
            &self.hashes[0],
            &self.hashes[1],
            &self.names[0],
            &self.names[1],
            &self.lobby,
            &self.address,
            &self.base,
            &self.increment,
            &self.remaining[0],
            &self.remaining[1],
            &self.running_since,
            &self.offers[0],
            &self.offers[1],
            &self.offers[2],
            &self.outcome,
            &self.reason,
            &self.rematch,
            &self.takebacks,
            &self.created_ms,
            &self.touched_ms,
        ]
    }
}

fn live_row(row: &postgres::Row) -> StoreResult<LiveRow> {
    let get_error = |e: postgres::Error| StoreError::Database(format!("PostgreSQL: {e}"));
    let id: i64 = row.try_get(0).map_err(get_error)?;
    let bad = |what: String| StoreError::Database(format!("live game {id}: {what}"));
    let hash = |column: usize| -> StoreResult<Option<[u8; 32]>> {
        let blob: Option<Vec<u8>> = row.try_get(column).map_err(get_error)?;
        blob.map(|b| {
            <[u8; 32]>::try_from(b.as_slice())
                .map_err(|_| bad(format!("a seat hash of {} bytes", b.len())))
        })
        .transpose()
    };
    let side = |column: usize| -> StoreResult<Option<Side>> {
        let text: Option<String> = row.try_get(column).map_err(get_error)?;
        text.map(|t| t.parse::<Side>().map_err(|_| bad(format!("side {t:?}"))))
            .transpose()
    };
    let int = |column: usize| -> StoreResult<i64> { row.try_get(column).map_err(get_error) };
    let base: Option<i64> = row.try_get(7).map_err(get_error)?;
    let clock = match base {
        Some(base_ms) => Some(Clock {
            base_ms,
            increment_ms: int(8)?,
            remaining_ms: [int(9)?, int(10)?],
            running_since: row.try_get(11).map_err(get_error)?,
        }),
        None => None,
    };
    let outcome: Option<String> = row.try_get(15).map_err(get_error)?;
    let reason: Option<String> = row.try_get(16).map_err(get_error)?;
    let takebacks = int(18)?;
    Ok(LiveRow {
        game_id: id,
        seats: [hash(1)?, hash(2)?],
        names: [
            row.try_get(3).map_err(get_error)?,
            row.try_get(4).map_err(get_error)?,
        ],
        lobby: row.try_get(5).map_err(get_error)?,
        address: row.try_get(6).map_err(get_error)?,
        clock,
        offers: Offers {
            draw: side(12)?,
            takeback: side(13)?,
            rematch: side(14)?,
        },
        result: outcome.map(|outcome| LiveResult {
            outcome,
            reason: reason.unwrap_or_default(),
        }),
        rematch: row.try_get(17).map_err(get_error)?,
        takebacks: u32::try_from(takebacks).map_err(|_| bad(format!("{takebacks} takebacks")))?,
        version: int(19)?,
        created_ms: int(20)?,
        touched_ms: int(21)?,
    })
}

/// Stores the live row of the new game `id` (in its creating transaction).
pub(super) fn insert_live(tx: &mut Transaction<'_>, id: i64, live: &LiveRow) -> StoreResult<()> {
    let values = Values::of(live);
    let mut all: Vec<&(dyn postgres::types::ToSql + Sync)> = vec![&id];
    all.extend(values.params());
    tx.execute(
        "INSERT INTO live (game_id, south_hash, north_hash, south_name, north_name, lobby,
             address, base_ms, increment_ms, south_ms, north_ms, running_since, offer_draw,
             offer_takeback, offer_rematch, outcome, reason, rematch_id, takebacks,
             created_ms, touched_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
             $18, $19, $20, $21)",
        &all,
    )
    .map_err(db)?;
    Ok(())
}

/// Writes the live row over the stored one if that is still at `live.version` (bumping
/// it); else a conflict, and the caller's transaction is not committed.
fn put_live(tx: &mut Transaction<'_>, live: &LiveRow) -> StoreResult<()> {
    let values = Values::of(live);
    let mut all: Vec<&(dyn postgres::types::ToSql + Sync)> = vec![&live.game_id, &live.version];
    all.extend(values.params());
    let changed = tx
        .execute(
            "UPDATE live SET south_hash = $3, north_hash = $4, south_name = $5,
                 north_name = $6, lobby = $7, address = $8, base_ms = $9, increment_ms = $10,
                 south_ms = $11, north_ms = $12, running_since = $13, offer_draw = $14,
                 offer_takeback = $15, offer_rematch = $16, outcome = $17, reason = $18,
                 rematch_id = $19, takebacks = $20, created_ms = $21, touched_ms = $22,
                 version = version + 1
             WHERE game_id = $1 AND version = $2",
            &all,
        )
        .map_err(db)?;
    if changed == 0 {
        return Err(StoreError::Conflict(format!(
            "game {} changed meanwhile (version {} is no longer the stored one)",
            live.game_id, live.version
        )));
    }
    Ok(())
}

impl Postgres {
    pub(in crate::store) fn create_live_game(
        &self,
        game: &Game,
        live: &LiveRow,
        match_round: Option<(i64, u32)>,
    ) -> StoreResult<i64> {
        self.create_game_with(game, "human", "human", match_round, Some(live))
    }

    pub(in crate::store) fn live_results(
        &self,
        ids: &[i64],
    ) -> StoreResult<Vec<(i64, LiveResult)>> {
        Ok(self
            .client()?
            .query(
                "SELECT game_id, outcome, reason FROM live
                 WHERE outcome IS NOT NULL AND game_id = ANY($1)",
                &[&ids],
            )
            .map_err(db)?
            .iter()
            .map(|r| {
                (
                    r.get(0),
                    LiveResult {
                        outcome: r.get(1),
                        reason: r.get(2),
                    },
                )
            })
            .collect())
    }

    pub(in crate::store) fn append_live_move(
        &self,
        game: &Game,
        live: &LiveRow,
    ) -> StoreResult<i64> {
        let id = live.game_id;
        let ply = game.moves().len() - 1;
        let mv = game.moves()[ply]
            .name(game.rules().pits_per_row())
            .to_string();
        let summary = Summary::of(game);
        self.transaction(|tx| {
            let version = update_summary(tx, id, &summary, Some(ply), None)?
                .ok_or_else(|| changed_meanwhile(id))?;
            tx.execute(
                "INSERT INTO moves (game_id, ply, mv) VALUES ($1, $2, $3)",
                &[&id, &(ply as i64), &mv],
            )
            .map_err(db)?;
            put_live(tx, live)?;
            notify(tx, id, summary.plies, version)?;
            Ok(version)
        })
    }

    pub(in crate::store) fn truncate_live(&self, game: &Game, live: &LiveRow) -> StoreResult<i64> {
        let id = live.game_id;
        let summary = Summary::of(game);
        self.transaction(|tx| {
            let version = update_summary(tx, id, &summary, None, None)?
                .ok_or_else(|| changed_meanwhile(id))?;
            tx.execute(
                "DELETE FROM moves WHERE game_id = $1 AND ply >= $2",
                &[&id, &(summary.plies as i64)],
            )
            .map_err(db)?;
            put_live(tx, live)?;
            notify(tx, id, summary.plies, version)?;
            Ok(version)
        })
    }

    pub(in crate::store) fn update_live(&self, live: &LiveRow) -> StoreResult<i64> {
        let id = live.game_id;
        self.transaction(|tx| {
            put_live(tx, live)?;
            // The game row's version tells other servers their copy is stale.
            let row = tx
                .query_opt(
                    &format!(
                        "UPDATE games SET updated = {NOW}, version = version + 1
                         WHERE id = $1 RETURNING plies, version"
                    ),
                    &[&id],
                )
                .map_err(db)?
                .ok_or_else(|| changed_meanwhile(id))?;
            let (plies, version): (i64, i64) = (row.get(0), row.get(1));
            notify(tx, id, plies as usize, version)?;
            Ok(version)
        })
    }

    pub(in crate::store) fn live_row(&self, id: i64) -> StoreResult<Option<LiveRow>> {
        self.client()?
            .query_opt(
                &format!("SELECT {COLUMNS} FROM live WHERE game_id = $1"),
                &[&id],
            )
            .map_err(db)?
            .as_ref()
            .map(live_row)
            .transpose()
    }

    pub(in crate::store) fn lobby(
        &self,
        limit: usize,
    ) -> StoreResult<Vec<(super::super::GameRow, LiveRow)>> {
        let lives: Vec<LiveRow> = self
            .client()?
            .query(
                &format!(
                    "SELECT {COLUMNS} FROM live WHERE {OPEN}
                     ORDER BY created_ms, game_id LIMIT $1"
                ),
                &[&(limit.min(i64::MAX as usize) as i64)],
            )
            .map_err(db)?
            .iter()
            .map(live_row)
            .collect::<StoreResult<_>>()?;
        let mut open = Vec::with_capacity(lives.len());
        for live in lives {
            if let Some(row) = self.game_row(live.game_id)? {
                open.push((row, live));
            }
        }
        Ok(open)
    }

    pub(in crate::store) fn open_challenges(&self, address: &str) -> StoreResult<(usize, usize)> {
        let row = self
            .client()?
            .query_one(
                &format!(
                    "SELECT count(*), count(CASE WHEN address = $1 THEN 1 END) FROM live
                     WHERE {OPEN}"
                ),
                &[&address],
            )
            .map_err(db)?;
        Ok((row.get::<_, i64>(0) as usize, row.get::<_, i64>(1) as usize))
    }

    pub(in crate::store) fn stale_live_games(
        &self,
        before_ms: i64,
        open_before_ms: i64,
    ) -> StoreResult<Vec<i64>> {
        Ok(self
            .client()?
            .query(
                "SELECT game_id FROM live WHERE outcome IS NULL AND (touched_ms < $1
                   OR (lobby AND (south_hash IS NULL OR north_hash IS NULL)
                       AND touched_ms < $2))
                 ORDER BY game_id",
                &[&before_ms, &open_before_ms],
            )
            .map_err(db)?
            .iter()
            .map(|r| r.get(0))
            .collect())
    }
}
