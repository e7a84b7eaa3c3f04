//! The hub that tells live sockets a game changed. After a write commits, the service
//! publishes "game G is at version V"; every socket subscribed to G wakes and reads what
//! it is missing from the service. With a shared store (PostgreSQL) the changes of every
//! server arrive here too, from the store's `LISTEN`; the newest one heard of each game is
//! kept, so that a copy at the version before can follow it without reading the game
//! ([`Hub::heard`]).
//!
//! While the hub hears every change ([`Hub::set_hearing`]), it also knows the newest version
//! of each game with sockets here: a copy in memory at that version is current (a newer
//! change's notice is still on its way and will wake the sockets), so the service need not
//! ask the database before each read — at a thousand live games, that question was most of
//! the database's work.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

use crate::store::Change;

/// The sockets of one game: a channel whose value is the newest version published.
struct Channel {
    tx: watch::Sender<u64>,
    spectators: usize,
    sockets: usize,
    /// The newest version heard while hearing every change, if any.
    newest: Option<i64>,
    /// The change to `newest` when another server's notice carried it.
    heard: Option<Change>,
}

/// Publish and subscribe by game id.
#[derive(Default)]
pub struct Hub {
    channels: Mutex<HashMap<i64, Channel>>,
    /// Whether every change committed to the store reaches [`Hub::publish`] (the store's
    /// listener is connected, or this process is the only writer).
    hearing: std::sync::atomic::AtomicBool,
}

/// A socket's subscription to a game: wakes on each notice; leaving (drop) updates the
/// spectator count and tells the others.
pub struct Subscription {
    hub: Arc<Hub>,
    game: i64,
    spectator: bool,
    rx: watch::Receiver<u64>,
}

impl Subscription {
    /// Waits for the next notice about the game.
    pub async fn changed(&mut self) {
        if self.rx.changed().await.is_err() {
            // The channel cannot close while we hold it in the hub; never spin if it does.
            std::future::pending::<()>().await;
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut channels = self.hub.lock();
        if let Some(channel) = channels.get_mut(&self.game) {
            channel.sockets -= 1;
            if self.spectator {
                channel.spectators -= 1;
            }
            if channel.sockets == 0 {
                channels.remove(&self.game);
            } else {
                channel.tx.send_modify(|_| {});
            }
        }
    }
}

impl Hub {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Channel>> {
        self.channels.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Game `game` is now at `version` (-1: deleted), by a write of this process or a notice
    /// from the store: wakes its sockets here, unless they already heard of that version
    /// (the store's echo of this process's own write).
    pub fn publish(&self, game: i64, version: i64) {
        self.publish_change(Change {
            game,
            plies: 0,
            version,
            step: None,
        });
    }

    /// A copy of `game` read from the store at `version`: when the hub had heard only an
    /// older one, the notice of what came between was lost (its writer died between commit
    /// and `NOTIFY`), so the sockets are woken to catch up.
    pub fn read_from_store(&self, game: i64, version: i64) {
        if let Some(channel) = self.lock().get_mut(&game) {
            if channel.newest.is_some_and(|newest| newest < version) {
                channel.newest = Some(version);
                channel.heard = None;
                channel.tx.send_replace(version.max(0) as u64);
            }
        }
    }

    /// [`Hub::publish`] of a change the store announced, kept with its step (if any) for
    /// [`Hub::heard`].
    pub fn publish_change(&self, change: Change) {
        let version = change.version;
        if let Some(channel) = self.lock().get_mut(&change.game) {
            if version < 0 {
                channel.newest = None;
            } else if channel.newest.is_some_and(|newest| newest >= version) {
                return;
            } else {
                channel.newest = Some(version);
            }
            channel.heard = change.step.is_some().then_some(change);
            channel.tx.send_replace(version.max(0) as u64);
        }
    }

    /// Whether every change committed from now on reaches [`Hub::publish`]. Changing it
    /// forgets every version heard (some notices may have been missed, or may be from
    /// before), and wakes every socket to catch up.
    pub fn set_hearing(&self, hearing: bool) {
        let mut channels = self.lock();
        self.hearing
            .store(hearing, std::sync::atomic::Ordering::SeqCst);
        for channel in channels.values_mut() {
            channel.newest = None;
            channel.heard = None;
            channel.tx.send_modify(|_| {});
        }
    }

    /// The newest version of `game` heard while hearing every change: a copy at it (or
    /// newer) is current. `None` when the hub does not know (no socket of the game here, no
    /// notice since it began hearing, or it is not hearing): ask the store.
    pub fn newest(&self, game: i64) -> Option<i64> {
        let channels = self.lock();
        if !self.hearing.load(std::sync::atomic::Ordering::SeqCst) {
            return None;
        }
        channels.get(&game).and_then(|c| c.newest)
    }

    /// The change that brought `game` to its newest version ([`Hub::newest`]), when it is
    /// `version` and its notice carried the step.
    pub fn heard(&self, game: i64, version: i64) -> Option<Change> {
        let channels = self.lock();
        let channel = channels.get(&game)?;
        channel
            .heard
            .clone()
            .filter(|change| channel.newest == Some(version) && change.version == version)
    }

    /// Subscribes a socket (a spectator's, or a seat's) to `game`; the others are told, for
    /// the spectator count.
    pub fn subscribe(self: &Arc<Hub>, game: i64, spectator: bool) -> Subscription {
        let mut channels = self.lock();
        let channel = channels.entry(game).or_insert_with(|| Channel {
            tx: watch::channel(0).0,
            spectators: 0,
            sockets: 0,
            newest: None,
            heard: None,
        });
        channel.sockets += 1;
        if spectator {
            channel.spectators += 1;
        }
        let rx = channel.tx.subscribe();
        channel.tx.send_modify(|_| {});
        Subscription {
            hub: self.clone(),
            game,
            spectator,
            rx,
        }
    }

    /// Spectators watching `game` through this process.
    pub fn spectators(&self, game: i64) -> usize {
        self.lock().get(&game).map_or(0, |c| c.spectators)
    }

    /// Games with at least one socket here.
    pub fn games(&self) -> usize {
        self.lock().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn a_notice_wakes_the_games_subscribers_and_leaving_updates_the_count() {
        let hub = Arc::new(Hub::default());
        let mut player = hub.subscribe(7, false);
        let mut other_game = hub.subscribe(8, false);
        let watcher = hub.subscribe(7, true);
        assert_eq!(hub.spectators(7), 1);
        player.rx.mark_unchanged();
        other_game.rx.mark_unchanged();
        hub.publish(7, 3);
        tokio::time::timeout(Duration::from_secs(1), player.changed())
            .await
            .expect("woken");
        assert_eq!(*player.rx.borrow(), 3);
        assert!(!other_game.rx.has_changed().unwrap());
        drop(watcher);
        assert_eq!(hub.spectators(7), 0);
        assert!(
            player.rx.has_changed().unwrap(),
            "told of the spectator leaving"
        );
        drop(player);
        assert_eq!(hub.games(), 1);
    }

    #[test]
    fn the_newest_version_is_known_only_while_hearing_and_an_echo_wakes_nobody() {
        let hub = Arc::new(Hub::default());
        let mut socket = hub.subscribe(7, false);
        hub.publish(7, 3);
        assert_eq!(hub.newest(7), None, "not hearing every change yet");
        hub.set_hearing(true);
        assert_eq!(hub.newest(7), None, "what was heard before is forgotten");
        hub.publish(7, 4);
        assert_eq!(hub.newest(7), Some(4));
        socket.rx.mark_unchanged();
        hub.publish(7, 4);
        hub.publish(7, 3);
        assert!(
            !socket.rx.has_changed().unwrap(),
            "an old version wakes nobody"
        );
        assert_eq!(hub.newest(7), Some(4));
        hub.publish(7, 5);
        assert!(socket.rx.has_changed().unwrap());
        assert_eq!(hub.newest(7), Some(5));
        assert_eq!(hub.newest(8), None, "no socket of game 8 here");
        socket.rx.mark_unchanged();
        hub.set_hearing(false);
        assert!(socket.rx.has_changed().unwrap(), "told to catch up");
        assert_eq!(hub.newest(7), None);
        hub.set_hearing(true);
        hub.publish(7, 6);
        hub.publish(7, -1);
        assert_eq!(hub.newest(7), None, "deleted");
    }
}
