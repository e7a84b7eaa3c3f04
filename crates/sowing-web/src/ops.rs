//! What running the server in production needs besides the games: `GET /healthz`,
//! Prometheus metrics at `GET /metrics` (through the `metrics` crates), a log line per
//! request naming the route's pattern (never its path, which may hold a game's secrets, nor
//! a header, which may hold a seat token), and a graceful stop: on SIGTERM the server stops
//! accepting, tells each socket to reconnect (close code 1012, "service restart"), lets the
//! requests in flight finish their writes, and exits 0.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tokio::sync::watch;

use crate::store::STORE_ERRORS;

/// Moves stored (`kind`: `plain` or `live`).
pub const MOVES: &str = "sowing_moves_total";
/// Games created (`kind`: `plain` or `live`).
pub const GAMES: &str = "sowing_games_created_total";
/// Live sockets open now.
pub const SOCKETS: &str = "sowing_sockets_open";
/// Requests by method, route pattern and status: their latency, seconds.
pub const REQUESTS: &str = "sowing_http_request_seconds";
/// From a move received to its commit, seconds (`kind`: `plain` or `live`).
pub const MOVE_LATENCY: &str = "sowing_move_seconds";
/// Copies in memory checked against a shared store before use (`how`: `heard` when the
/// store's notices said whether it was current, `asked` when the database was asked).
pub const FRESHNESS_CHECKS: &str = "sowing_freshness_checks_total";
/// Acts tried again because another server wrote the game first (its notice not yet heard).
pub const OVERTAKEN: &str = "sowing_acts_overtaken_total";

/// 1 while the store's `LISTEN` connection hears every change (PostgreSQL), 0 while it is
/// lost and connecting again; absent for SQLite.
pub const LISTENING: &str = "sowing_store_listening";

/// Buckets of the latency histograms, seconds: a move on one server takes milliseconds, a
/// shared store's tens of milliseconds, and anything past a second is trouble.
const BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
];

/// The process's Prometheus recorder, installed on first use (one per process: the
/// `metrics` macros report to one global recorder).
pub(crate) fn prometheus() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let builder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Suffix("_seconds".to_owned()), &BUCKETS)
            .expect("the buckets are not empty");
        let recorder = builder.build_recorder();
        let handle = recorder.handle();
        // Another recorder installed first (a program embedding this crate): this one's
        // page then stays empty rather than the server failing.
        let _ = metrics::set_global_recorder(recorder);
        describe();
        handle
    })
}

/// Folds the histograms' samples taken since the last time into their buckets. The
/// recorder keeps every sample until then (`build_recorder` starts no upkeep task of its
/// own), so a server that nobody scrapes grew by each request: about 3 MB per thousand
/// live games in the soak (docs/web.md, "When the parts fail").
pub(crate) fn fold_histograms() {
    prometheus().run_upkeep();
}

fn describe() {
    metrics::describe_counter!(MOVES, "Moves stored.");
    metrics::describe_counter!(GAMES, "Games created.");
    metrics::describe_gauge!(SOCKETS, "Live sockets open now.");
    metrics::describe_histogram!(REQUESTS, metrics::Unit::Seconds, "HTTP requests.");
    metrics::describe_histogram!(
        MOVE_LATENCY,
        metrics::Unit::Seconds,
        "From a move received to its commit."
    );
    metrics::describe_counter!(STORE_ERRORS, "Store calls that failed.");
    metrics::describe_gauge!(
        LISTENING,
        "1 while the store's LISTEN connection hears every change, 0 while it is lost."
    );
    metrics::describe_counter!(
        FRESHNESS_CHECKS,
        "Copies in memory checked against a shared store before use."
    );
    metrics::describe_counter!(
        OVERTAKEN,
        "Acts tried again because another server wrote the game first."
    );
}

/// Counts a check of a copy in memory against a shared store: `heard` from its notices, or
/// `asked` of the database.
pub(crate) fn freshness_checked(how: &'static str) {
    metrics::counter!(FRESHNESS_CHECKS, "how" => how).increment(1);
}

/// Counts an act tried again because another server wrote its game first.
pub(crate) fn overtaken() {
    metrics::counter!(OVERTAKEN).increment(1);
}

/// Whether the store's listener hears every change now.
pub(crate) fn listening(hearing: bool) {
    metrics::gauge!(LISTENING).set(if hearing { 1.0 } else { 0.0 });
}

/// Counts a stored move and how long it took from `received`.
pub(crate) fn move_stored(kind: &'static str, received: Instant) {
    metrics::counter!(MOVES, "kind" => kind).increment(1);
    metrics::histogram!(MOVE_LATENCY, "kind" => kind).record(received.elapsed().as_secs_f64());
}

/// Counts a created game.
pub(crate) fn game_created(kind: &'static str) {
    metrics::counter!(GAMES, "kind" => kind).increment(1);
}

/// The server's state for running it: the sockets open and whether it is stopping.
pub struct Ops {
    sockets: Arc<watch::Sender<usize>>,
    stopping: watch::Sender<bool>,
}

impl Default for Ops {
    fn default() -> Ops {
        // Installed now, so that `/metrics` lists the server's metrics from the start.
        prometheus();
        Ops {
            sockets: Arc::new(watch::Sender::new(0)),
            stopping: watch::Sender::new(false),
        }
    }
}

/// A socket's place in the count of open sockets (and its place in its address's count,
/// given back first): leaving (drop) tells whoever waits on [`Ops::open_sockets`].
pub(crate) struct OpenSocket<P> {
    sockets: Arc<watch::Sender<usize>>,
    permit: Option<P>,
}

impl<P> Drop for OpenSocket<P> {
    fn drop(&mut self) {
        // The address's place first: a watcher told of one socket fewer may open another.
        drop(self.permit.take());
        self.sockets.send_modify(|n| *n -= 1);
        metrics::gauge!(SOCKETS).decrement(1.0);
    }
}

impl Ops {
    /// Counts a socket open until the guard is dropped, holding `permit` as long.
    pub(crate) fn socket_opened<P>(&self, permit: P) -> OpenSocket<P> {
        self.sockets.send_modify(|n| *n += 1);
        metrics::gauge!(SOCKETS).increment(1.0);
        OpenSocket {
            sockets: self.sockets.clone(),
            permit: Some(permit),
        }
    }

    /// The number of live sockets open, watched: a test or the graceful stop waits on it
    /// instead of sleeping.
    pub fn open_sockets(&self) -> watch::Receiver<usize> {
        self.sockets.subscribe()
    }

    /// Starts the graceful stop: every socket is told to reconnect, and closes.
    pub fn stop(&self) {
        self.stopping.send_replace(true);
    }

    /// Whether the server is stopping, watched (sockets close when it turns true).
    pub fn stopping(&self) -> watch::Receiver<bool> {
        self.stopping.subscribe()
    }

    /// Waits until every socket has closed, or `within` has passed; whether they all did.
    pub async fn sockets_closed(&self, within: Duration) -> bool {
        let mut open = self.open_sockets();
        tokio::time::timeout(within, open.wait_for(|&n| n == 0))
            .await
            .is_ok_and(|r| r.is_ok())
    }
}
