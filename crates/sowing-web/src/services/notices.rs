//! The accounts' notices: each signed-in page's socket waits here for its account's
//! challenges to change, on this server or (through the store's listener) on another one
//! sharing the store. A wake carries nothing: the socket reads the list again. The
//! tournament pages' sockets wait on a second set, keyed by tournament.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

/// The notices sockets open on this server, by account.
#[derive(Default)]
pub(crate) struct Notices {
    channels: Mutex<HashMap<i64, (watch::Sender<u64>, usize)>>,
}

/// A socket's hold on its account's wakes; dropping it lets the channel go.
pub(crate) struct Listening {
    notices: Arc<Notices>,
    account: i64,
    /// Changes when the account's notices may have changed.
    pub(crate) woken: watch::Receiver<u64>,
}

impl Notices {
    fn channels(&self) -> std::sync::MutexGuard<'_, HashMap<i64, (watch::Sender<u64>, usize)>> {
        self.channels.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts listening for `account`'s notices.
    pub(crate) fn listen(self: &Arc<Notices>, account: i64) -> Listening {
        let mut channels = self.channels();
        let (tx, sockets) = channels
            .entry(account)
            .or_insert_with(|| (watch::channel(0).0, 0));
        *sockets += 1;
        Listening {
            notices: self.clone(),
            account,
            woken: tx.subscribe(),
        }
    }

    /// Wakes `account`'s sockets here, if any.
    pub(crate) fn wake(&self, account: i64) {
        if let Some((tx, _)) = self.channels().get(&account) {
            tx.send_modify(|n| *n += 1);
        }
    }

    /// Wakes every socket here (notices may have been missed while the listener was away).
    pub(crate) fn wake_all(&self) {
        for (tx, _) in self.channels().values() {
            tx.send_modify(|n| *n += 1);
        }
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        let mut channels = self.notices.channels();
        if let Some((_, sockets)) = channels.get_mut(&self.account) {
            *sockets -= 1;
            if *sockets == 0 {
                channels.remove(&self.account);
            }
        }
    }
}
