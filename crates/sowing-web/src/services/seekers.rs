//! This server's side of quick pairing (docs/api.md, "Quick pairing"): the counters of its
//! pairing rounds, what wakes them, and the seeks whose sockets wait here, with where to
//! send each one's pairing. The rounds themselves are `pairing.rs`'s.

use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Mutex, OnceLock};

use sowing::Side;
use tokio::sync::{oneshot, watch, Notify};

use crate::store::SeekRow;

/// This server's side of quick pairing: its rounds, and the seeks whose sockets wait here.
pub(crate) struct Seekers {
    /// This server's id among those sharing the store.
    pub(crate) server: i64,
    /// Each waiting seek and where to send its pairing.
    pub(crate) waiting: Mutex<HashMap<i64, oneshot::Sender<(i64, Side)>>>,
    /// Rounds begun by this server's task.
    pub(crate) rounds_begun: AtomicU64,
    /// Rounds it finished.
    pub(crate) rounds_done: watch::Sender<u64>,
    /// Wakes the task for a round now.
    pub(crate) poke: Notify,
    /// The task, once started.
    pub(crate) task: OnceLock<()>,
}

impl Default for Seekers {
    fn default() -> Seekers {
        Seekers {
            server: rand::random(),
            waiting: Mutex::new(HashMap::new()),
            rounds_begun: AtomicU64::new(0),
            rounds_done: watch::Sender::new(0),
            poke: Notify::new(),
            task: OnceLock::new(),
        }
    }
}

impl Seekers {
    pub(crate) fn waiting(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<i64, oneshot::Sender<(i64, Side)>>> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends each paired seek's pairing to its socket here, if one waits.
    pub(crate) fn tell(&self, paired: &[SeekRow]) {
        let mut waiting = self.waiting();
        for row in paired {
            if let (Some(pairing), Some(sender)) = (row.paired, waiting.remove(&row.id)) {
                let _ = sender.send(pairing);
            }
        }
    }
}
