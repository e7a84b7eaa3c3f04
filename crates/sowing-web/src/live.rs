//! The hub that tells live sockets a game changed. After a write commits, the service
//! publishes "game G changed"; every socket subscribed to G wakes and reads what it is
//! missing from the service (never from the notice itself, which carries only a version).
//! A second store (PostgreSQL) plugs in here: [`Hub::with_forward`] passes each local
//! notice on (to NOTIFY), and [`Hub::publish_local`] feeds in those of other processes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

/// The sockets of one game: a channel whose value is the last version published.
struct Channel {
    tx: watch::Sender<u64>,
    spectators: usize,
    sockets: usize,
}

type Forward = Box<dyn Fn(i64, u64) + Send + Sync>;

/// Publish and subscribe by game id.
#[derive(Default)]
pub struct Hub {
    channels: Mutex<HashMap<i64, Channel>>,
    forward: Option<Forward>,
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
    /// A hub that also hands each local notice to `forward` (game, version), e.g. to tell
    /// other server processes.
    pub fn with_forward(forward: impl Fn(i64, u64) + Send + Sync + 'static) -> Hub {
        Hub {
            channels: Mutex::default(),
            forward: Some(Box::new(forward)),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Channel>> {
        self.channels.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Game `game` changed (now at `version`): wakes its sockets here, and forwards.
    pub fn publish(&self, game: i64, version: u64) {
        self.publish_local(game, version);
        if let Some(forward) = &self.forward {
            forward(game, version);
        }
    }

    /// Wakes this process's sockets of `game` only (a notice from another process).
    pub fn publish_local(&self, game: i64, version: u64) {
        if let Some(channel) = self.lock().get(&game) {
            channel.tx.send_replace(version);
        }
    }

    /// Subscribes a socket (a spectator's, or a seat's) to `game`; the others are told, for
    /// the spectator count.
    pub fn subscribe(self: &Arc<Hub>, game: i64, spectator: bool) -> Subscription {
        let mut channels = self.lock();
        let channel = channels.entry(game).or_insert_with(|| Channel {
            tx: watch::channel(0).0,
            spectators: 0,
            sockets: 0,
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
    fn forward_gets_local_notices_only() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        let hub = Hub::with_forward(move |g, v| log.lock().unwrap().push((g, v)));
        hub.publish(1, 5);
        hub.publish_local(2, 6);
        assert_eq!(*seen.lock().unwrap(), [(1, 5)]);
    }
}
