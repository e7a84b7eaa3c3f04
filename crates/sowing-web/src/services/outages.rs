//! Fair clocks across an outage (docs/web.md, "When the parts fail"): a serving server marks
//! the store every [`SERVING_BEAT`]; a server that starts after no server served for two
//! beats or more gives every running clock back the time since the last mark, and the live
//! status says how much (`clock.credited_ms`).

use std::time::Duration;

use crate::services::games::{blocking, GameError, Games};

/// How often a serving server marks the store.
pub const SERVING_BEAT: Duration = Duration::from_secs(1);

impl Games {
    /// Marks the store: this server serves now.
    ///
    /// # Errors
    /// On a store failure.
    pub async fn mark_serving(&self) -> Result<(), GameError> {
        let (store, now) = (self.store.clone(), self.time.now_ms());
        blocking(move || store.mark_serving(now)).await
    }

    /// At a start: when no server served for two beats or more, gives the running clocks
    /// back the time since one last did. The time given back (ms) and the games, if any.
    ///
    /// # Errors
    /// On a store failure.
    pub async fn credit_outage(&self) -> Result<Option<(i64, usize)>, GameError> {
        let (store, now) = (self.store.clone(), self.time.now_ms());
        let least = 2 * SERVING_BEAT.as_millis() as i64;
        blocking(move || {
            let last = store.last_served()?;
            let games = store.credit_outage(now, least)?;
            Ok((last > 0 && now - last >= least).then_some((now - last, games)))
        })
        .await
    }
}
