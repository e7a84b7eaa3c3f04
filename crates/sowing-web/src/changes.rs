//! Who hears that a game changed: subscribe and publish by game id. The service publishes
//! after each committed write (SQLite), or passes on what PostgreSQL's `LISTEN` hears from
//! every server (shared stores). A minimal seam for the live hub of issue 14, which replaces
//! it: a subscriber learns the game's new move count, and reads the rest from the service.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::watch;

/// Subscriptions by game.
#[derive(Default)]
pub struct Changes {
    channels: Mutex<HashMap<i64, watch::Sender<usize>>>,
}

impl Changes {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, watch::Sender<usize>>> {
        self.channels.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Subscribes to `game`: the receiver wakes with its move count after each change.
    pub fn subscribe(&self, game: i64) -> watch::Receiver<usize> {
        self.lock()
            .entry(game)
            .or_insert_with(|| watch::channel(0).0)
            .subscribe()
    }

    /// Game `game` now has `plies` moves: wakes its subscribers (and forgets the game when
    /// nobody listens any more).
    pub fn publish(&self, game: i64, plies: usize) {
        let mut channels = self.lock();
        if let Some(tx) = channels.get(&game) {
            if tx.send(plies).is_err() {
                channels.remove(&game);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subscriber_hears_its_game_only() {
        let changes = Changes::default();
        let mut seven = changes.subscribe(7);
        let eight = changes.subscribe(8);
        changes.publish(7, 3);
        assert!(seven.has_changed().unwrap());
        assert_eq!(*seven.borrow_and_update(), 3);
        assert!(!eight.has_changed().unwrap());
        drop(eight);
        changes.publish(8, 1);
        assert!(changes.lock().get(&8).is_none(), "nobody listens to game 8");
    }
}
