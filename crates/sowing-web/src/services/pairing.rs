//! Quick pairing (docs/api.md, "Quick pairing"): placing a seek, the rounds that pair the
//! open seeks (the store decides, once, in one transaction a round: [`Store::pair_seeks`]),
//! and telling the socket waiting on a seek that it was paired.
//!
//! Each server runs rounds on a task of its own: at once when a seek is placed here, else
//! every [`ROUND_EVERY`]. A placed seek waits for the end of a round begun after it, so
//! that its answer already names the game when a partner was waiting; a burst of seeks
//! shares rounds. After each round the task reads which of the seeks whose sockets wait
//! here were paired (by this server or another) and tells those sockets.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::Duration;

use sowing::{Game, Rules, Side};
use tokio::sync::oneshot;

use crate::clock::LiveClock;
use crate::ratings::Speed;
use crate::seats;
use crate::services::games::{blocking, GameError, Games};
use crate::store::{NewSeek, SeekRow, Store};

type GameResult<T> = Result<T, GameError>;

/// How often a server runs a round when no seek was placed here meanwhile (one read when
/// there is nothing to pair), and looks for its waiting seeks that another server paired.
const ROUND_EVERY: Duration = Duration::from_millis(100);

/// The longest a seek's placing waits for a round before it answers (open).
const PLACING_WAITS: Duration = Duration::from_secs(2);

/// How often a server marks the seeks it holds sockets for as alive; well inside
/// [`crate::store::SEEK_ALIVE_MS`].
const ALIVE_EVERY: Duration = Duration::from_secs(4);

/// A seek to place, as the route read it.
#[derive(Clone, Debug)]
pub struct SeekAsked {
    /// The rules.
    pub rules: Rules,
    /// The clock (`None`: unlimited).
    pub clock: Option<LiveClock>,
    /// A rated game (needs `account`).
    pub rated: bool,
    /// How far below and above their own rating the seeker takes an opponent (needs
    /// `account`).
    pub range: Option<(f64, f64)>,
    /// The name shown, for a player who is not signed in.
    pub name: Option<String>,
    /// The seeker's account (id, name and owner hash), when signed in.
    pub account: Option<(i64, String, [u8; 32])>,
    /// The SHA-256 of the page's player key, if it sent one.
    pub player_key: Option<[u8; 32]>,
    /// The seeker's address.
    pub address: String,
}

/// A placed seek: its id and seat token, and the game it was paired into at once, if any.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Placed {
    /// The seek's id.
    pub seek: i64,
    /// The seat token the seeker plays with once paired (shown once).
    pub token: String,
    /// The game, once paired.
    pub game: Option<i64>,
    /// The seeker's seat there.
    pub seat: Option<&'static str>,
}

/// Where a seek stands for the socket waiting on it.
pub enum Waiting {
    /// Paired: the game and the seat.
    Paired(i64, Side),
    /// Open: the pairing arrives on this channel.
    Open(oneshot::Receiver<(i64, Side)>),
}

/// The pool a seek waits in: what must be equal for two seeks to pair.
fn pool_of(start: &str, clock: Option<LiveClock>, rated: bool) -> String {
    let clock = clock.map_or("unlimited".to_owned(), |c| {
        format!("{}+{}", c.base_ms, c.increment_ms)
    });
    let rated = if rated { "rated" } else { "casual" };
    format!("{start}|{clock}|{rated}")
}

fn token_holds(row: &SeekRow, token: Option<&str>) -> GameResult<()> {
    match token {
        Some(token) if seats::holds(&row.token_hash, token) => Ok(()),
        _ => Err(GameError::Forbidden(format!(
            "seek {}: this needs the seek's token (header X-Seat-Token)",
            row.id
        ))),
    }
}

impl Games {
    /// Places a seek, paired at once with the oldest compatible seek waiting if any.
    ///
    /// # Errors
    /// A rated seek or a rating range without an account; too many open seeks from the
    /// address; a store failure.
    pub async fn seek(self: &Arc<Self>, asked: SeekAsked) -> GameResult<Placed> {
        let now = self.time.now_ms();
        if asked.account.is_none() && (asked.rated || asked.range.is_some()) {
            return Err(GameError::SignedOut(
                "a rated seek or a rating range needs you signed in".to_owned(),
            ));
        }
        let limits = self.limiter.limits();
        let store = self.store.clone();
        let address = asked.address.clone();
        let open = blocking(move || store.open_seeks_from(&address, now)).await?;
        if limits.enabled && open >= limits.lobby_per_address {
            return Err(GameError::Limited(format!(
                "you have {open} seeks open already (at most {}): cancel one first",
                limits.lobby_per_address
            )));
        }
        let game = Game::new(asked.rules);
        let speed = Speed::of_clock(asked.clock.as_ref());
        let rating = match &asked.account {
            Some((id, _, _)) => {
                let (store, id, variant) = (self.store.clone(), *id, game.rules().variant().name());
                let found =
                    blocking(move || store.ratings_in(&[id], variant, speed.name())).await?;
                found.first().map(|(r, _)| r.rating)
            }
            None => None,
        };
        let (token, token_hash) = seats::new_token();
        let player = match (&asked.account, asked.player_key) {
            (Some((_, _, owner)), _) => *owner,
            (None, Some(key)) => key,
            // No key: a player of its own, paired with anyone.
            (None, None) => seats::hash(&seats::new_token().0),
        };
        let start = game.start().to_string();
        let new = NewSeek {
            pool: pool_of(&start, asked.clock, asked.rated),
            player,
            token_hash,
            name: asked.account.as_ref().map(|a| a.1.clone()).or(asked.name),
            account: asked.account.as_ref().map(|a| a.0),
            rating,
            range: asked
                .range
                .zip(rating)
                .map(|((below, above), r)| (r - below, r + above)),
            address: asked.address,
            server: self.seekers.server,
            now_ms: now,
            start,
            clock: asked.clock,
            rated: asked.rated,
        };
        let store = self.store.clone();
        let seek = blocking(move || store.place_seek(new)).await?;
        // A round begun after the seek was written pairs it if a partner waits.
        self.start_rounds();
        let begun = self.seekers.rounds_begun.load(Ordering::SeqCst);
        let mut done = self.seekers.rounds_done.subscribe();
        self.seekers.poke.notify_one();
        let _ = tokio::time::timeout(PLACING_WAITS, done.wait_for(|&d| d > begun)).await;
        let store = self.store.clone();
        let paired = blocking(move || store.seek(seek))
            .await?
            .and_then(|r| r.paired);
        Ok(Placed {
            seek,
            token,
            game: paired.map(|p| p.0),
            seat: paired.map(|p| p.1.name()),
        })
    }

    async fn seek_row(&self, id: &str, token: Option<&str>) -> GameResult<SeekRow> {
        let unknown = || GameError::UnknownSeek(id.to_owned());
        let id: i64 = id.parse().map_err(|_| unknown())?;
        let store = self.store.clone();
        let row = blocking(move || store.seek(id))
            .await?
            .ok_or_else(unknown)?;
        token_holds(&row, token)?;
        Ok(row)
    }

    /// Where seek `id` stands, for the holder of its token.
    ///
    /// # Errors
    /// An unknown seek, a wrong token, a store failure.
    pub async fn seek_status(
        &self,
        id: &str,
        token: Option<&str>,
    ) -> GameResult<Option<(i64, Side)>> {
        Ok(self.seek_row(id, token).await?.paired)
    }

    /// Takes seek `id` out, unless it was paired: then its pairing.
    ///
    /// # Errors
    /// An unknown seek, a wrong token, a store failure.
    pub async fn cancel_seek(
        &self,
        id: &str,
        token: Option<&str>,
    ) -> GameResult<Option<(i64, Side)>> {
        let row = self.seek_row(id, token).await?;
        if row.paired.is_some() {
            return Ok(row.paired);
        }
        let store = self.store.clone();
        let seek = row.id;
        self.seekers.waiting().remove(&seek);
        let cancelled = blocking(move || store.cancel_seek(seek)).await?;
        if cancelled {
            return Ok(None);
        }
        // Paired between the read and the cancel.
        let store = self.store.clone();
        Ok(blocking(move || store.seek(seek))
            .await?
            .and_then(|r| r.paired))
    }

    /// Waits on seek `id` from a socket of this server: its pairing now, or a channel that
    /// brings it. The seek stays alive while the socket does.
    ///
    /// # Errors
    /// An unknown seek, a wrong token, a store failure.
    pub async fn wait_on_seek(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
    ) -> GameResult<Waiting> {
        let row = self.seek_row(id, token).await?;
        if let Some((game, seat)) = row.paired {
            return Ok(Waiting::Paired(game, seat));
        }
        self.start_rounds();
        let (sender, receiver) = oneshot::channel();
        self.seekers.waiting().insert(row.id, sender);
        let (store, server, now, seek) = (
            self.store.clone(),
            self.seekers.server,
            self.time.now_ms(),
            row.id,
        );
        let open = blocking(move || store.hold_seek(seek, server, now)).await?;
        if !open {
            // Paired (or cancelled) before this socket held it.
            self.seekers.waiting().remove(&seek);
            let store = self.store.clone();
            return match blocking(move || store.seek(seek))
                .await?
                .and_then(|r| r.paired)
            {
                Some((game, seat)) => Ok(Waiting::Paired(game, seat)),
                None => Err(GameError::Conflict(format!("seek {seek} was cancelled"))),
            };
        }
        Ok(Waiting::Open(receiver))
    }

    /// The socket waiting on seek `id` went away: the seek goes too, unless it was paired
    /// meanwhile.
    pub async fn left_seek(&self, id: i64) {
        self.seekers.waiting().remove(&id);
        let store = self.store.clone();
        if let Err(e) = blocking(move || store.cancel_seek(id)).await {
            tracing::warn!(seek = id, error = %e, "taking out a seek whose socket closed");
        }
    }

    /// Deletes the open seeks nobody waits on any more (and, on a graceful stop, every
    /// open seek this server holds).
    ///
    /// # Errors
    /// On a store failure.
    pub async fn sweep_seeks(&self, stopping: bool) -> GameResult<usize> {
        let (store, now) = (self.store.clone(), self.time.now_ms());
        let server = stopping.then_some(self.seekers.server);
        blocking(move || store.sweep_seeks(now, server)).await
    }

    /// Starts, once, the task that runs this server's rounds of pairing, tells its waiting
    /// sockets of their pairings and keeps their seeks alive. It ends with the service.
    fn start_rounds(self: &Arc<Self>) {
        self.seekers.task.get_or_init(|| {
            tokio::spawn(run_rounds(Arc::downgrade(self)));
        });
    }
}

async fn run_rounds(games: Weak<Games>) {
    let mut alive_at = tokio::time::Instant::now();
    loop {
        let Some(games) = games.upgrade() else { return };
        let seekers = &games.seekers;
        let _ = tokio::time::timeout(ROUND_EVERY, seekers.poke.notified()).await;
        let begun = seekers.rounds_begun.fetch_add(1, Ordering::SeqCst) + 1;
        let waiting_from = seekers.waiting().keys().min().copied();
        let keep_alive = waiting_from.is_some() && alive_at.elapsed() >= ALIVE_EVERY;
        let (store, server, now): (Arc<Store>, i64, i64) =
            (games.store.clone(), seekers.server, games.time.now_ms());
        let round = blocking(move || {
            if store.seeks_to_pair(now)? {
                for _ in 0..store.pair_seeks(now)? {
                    crate::ops::game_created("live");
                }
            }
            if keep_alive {
                store.keep_seeks_alive(server, now)?;
            }
            match waiting_from {
                Some(from) => store.paired_seeks(server, from),
                None => Ok(Vec::new()),
            }
        })
        .await;
        seekers.rounds_done.send_replace(begun);
        if keep_alive {
            alive_at = tokio::time::Instant::now();
        }
        match round {
            Ok(paired) => seekers.tell(&paired),
            Err(e) => tracing::warn!(error = %e, "a round of quick pairing"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_differ_by_clock_and_rated() {
        let clock = Some(LiveClock::new(180_000, 2_000));
        assert_ne!(pool_of("s", clock, false), pool_of("s", clock, true));
        assert_ne!(pool_of("s", clock, false), pool_of("s", None, false));
        assert_ne!(
            pool_of("s", clock, false),
            pool_of("s", Some(LiveClock::new(180_000, 3_000)), false)
        );
        assert_eq!(pool_of("s", clock, true), pool_of("s", clock, true));
    }
}
