//! When the servers last served (`serving.last_ms`), so that a start after an outage gives
//! the running clocks back the time nobody served them. Every server marks it every second
//! ([`Store::mark_serving`]); with several servers sharing PostgreSQL, a server that starts
//! while another serves finds it fresh and credits nothing.

use super::error::StoreResult;
use super::sql::{values, Sql};
use super::write::{Applied, Write};
use super::Store;

/// Marks the servers serving at `now_ms`.
struct Mark {
    now_ms: i64,
}

impl Write for Mark {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        sql.execute(
            "UPDATE serving SET last_ms = ?1 WHERE last_ms < ?1",
            &values![self.now_ms],
        )?;
        Ok(Applied::answer(0, now))
    }
}

/// Gives every running clock back the time since `last_ms` when no server served since
/// then, at least `least_ms`; the answer is the games credited.
struct Credit {
    now_ms: i64,
    least_ms: i64,
}

impl Write for Credit {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let last = sql.query_one("SELECT last_ms FROM serving", &[])?.int(0)?;
        let gap = self.now_ms - last;
        let mut games = 0;
        if last > 0 && gap >= self.least_ms {
            // The games whose clock ran through the outage: running, not over. A clock that
            // started after the last mark (a move just before the end) gets back the time
            // since it started; the others the time since the mark.
            const RUNNING: &str =
                "running_since IS NOT NULL AND running_since < ?1 AND outcome IS NULL";
            const SINCE: &str =
                "CASE WHEN running_since > ?2 THEN running_since ELSE CAST(?2 AS BIGINT) END";
            sql.execute(
                &format!(
                    "UPDATE games SET version = version + 1
                     WHERE id IN (SELECT game_id FROM live WHERE {RUNNING})"
                ),
                &values![self.now_ms],
            )?;
            games = sql.execute(
                &format!(
                    "UPDATE live SET running_since = running_since + (?1 - {SINCE}),
                         credited_ms = credited_ms + (?1 - {SINCE}), version = version + 1
                     WHERE {RUNNING}"
                ),
                &values![self.now_ms, last],
            )?;
        }
        Mark {
            now_ms: self.now_ms,
        }
        .apply(sql, now)?;
        Ok(Applied::answer(
            i64::try_from(games).unwrap_or(i64::MAX),
            now,
        ))
    }
}

impl Store {
    /// Marks the servers serving at `now_ms` (Unix ms).
    ///
    /// # Errors
    /// On a database failure.
    pub fn mark_serving(&self, now_ms: i64) -> StoreResult<()> {
        self.backend.write(Box::new(Mark { now_ms })).map(drop)
    }

    /// When a server last marked serving (Unix ms; 0 never).
    ///
    /// # Errors
    /// On a database failure.
    pub fn last_served(&self) -> StoreResult<i64> {
        let rows = self
            .backend
            .read_statement("SELECT last_ms FROM serving", &[])?;
        rows.first().map_or(Ok(0), |r| r.int(0))
    }

    /// At a start at `now_ms`: when no server served for `least_ms` or more, gives every
    /// running clock back the time since the last one did, and marks serving; the games
    /// credited.
    ///
    /// # Errors
    /// On a database failure; nothing is then changed.
    pub fn credit_outage(&self, now_ms: i64, least_ms: i64) -> StoreResult<usize> {
        let games = self
            .backend
            .write(Box::new(Credit { now_ms, least_ms }))?
            .answer;
        Ok(usize::try_from(games).unwrap_or(0))
    }
}
