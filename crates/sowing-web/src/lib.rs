//! `sow serve`: the web app. One binary serves the page (embedded, no network at run time)
//! and a JSON API (`docs/api.md`) over games kept in SQLite or PostgreSQL, with what running
//! it in production needs (`ops`: `/healthz`, `/metrics`, logs, a graceful stop;
//! docs/deploy.md).
//!
//! The crate is in layers, each importing only those below it (docs/web.md, "Layers"):
//! `transport` (routes, the socket, extractors, errors) asks `services` (games, live games,
//! the hub, the engines), which answer with `views` (the JSON shapes) and keep games in the
//! `store` (SQLite or PostgreSQL).
//!
//! ```no_run
//! // Serves on loopback until Ctrl-C, keeping games in sowing.db.
//! let db = "sowing.db".parse().expect("any text names a database");
//! sowing_web::Server::new("127.0.0.1:8080", db).run()?;
//! # Ok::<(), sowing_web::ServeError>(())
//! ```
#![warn(missing_docs)]

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

pub mod clock;
pub mod limits;
pub mod listener;
mod matches;
mod memory;
mod ops;
mod owners;
pub mod ratings;
pub mod seats;
mod services;
pub mod store;
mod tournament;
mod transport;
mod views;

pub use services::analysis::Settings as AnalysisSettings;
pub use services::first_tables;
pub use services::games::{GameError, Games, DEFAULT_CACHED_GAMES};
pub use services::solves::Settings as SolveSettings;
use store::Database;
pub use transport::error::ERROR_CODES;
pub use views::{messages, requests};

/// The server's shared state: the games service (the database, the games in memory, the
/// engines).
pub type App = Games;

/// The largest request body accepted: a record of a very long game fits many times over.
pub const BODY_LIMIT: usize = 256 * 1024;

/// Run the web app: play, watch and replay games in a browser.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on (loopback by default; port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// The SQLite database that keeps the games, created on first start; or a PostgreSQL
    /// database (`postgres://user@host:port/dbname`), which several servers may share.
    #[arg(long, default_value = "sowing.db")]
    pub db: Database,
    /// Games kept in memory; the least recently used leave it and are read back from the
    /// database when asked for again.
    #[arg(long, default_value_t = DEFAULT_CACHED_GAMES, value_name = "N")]
    pub cache_games: usize,
    /// Endgame tables for the engines (levels 5–6, `perfect`, hints and the bar); default:
    /// $SOWING_TABLES, else the user's data directory, when it holds tables.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// Lift the per-address limits of the live routes (rates, sockets, lobby caps): for
    /// load tests from one address. Sizes and closing times still hold.
    #[arg(long)]
    pub no_limits: bool,
    /// Without --tables, when the default directory lacks tables of a game up to this many
    /// seeds (at most 16), build them there in the background at start (0: never).
    #[arg(long, value_name = "SEEDS", default_value_t = services::first_tables::FIRST_SEEDS,
          value_parser = clap::value_parser!(u8).range(0..=16))]
    pub first_tables: u8,
    /// Log lines (on standard error) as text, or as one JSON object a line for a log
    /// collector. Requests are logged by their route's pattern, never a token or a key.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// The least important log lines written: error, warn, info, or debug (every request).
    #[arg(long, default_value = "info", value_name = "LEVEL")]
    pub log_level: tracing::Level,
    /// An origin besides the server's own whose pages may act here (creating games,
    /// moving), such as `https://sowing.example` behind a proxy that rewrites the host;
    /// repeat for several. Every other site's requests that change something get a 403.
    #[arg(long = "allow-origin", value_name = "ORIGIN", value_parser = parse_origin)]
    pub allow_origins: Vec<String>,
    /// The server is reached over TLS (a proxy holds the certificate, docs/deploy.md):
    /// session cookies are marked `Secure`, so browsers send them only over HTTPS.
    #[arg(long)]
    pub secure_cookies: bool,
    /// Nodes the analysis after the game searches in each position (`sow analyze --json
    /// --nodes N` gives the same figures); one analysis runs at a time.
    #[arg(long, value_name = "N", default_value_t = services::analysis::DEFAULT_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub analysis_nodes: u64,
}

fn parse_origin(text: &str) -> Result<String, String> {
    transport::security::normalize_origin(text)
        .ok_or_else(|| format!("{text:?} is not an origin like https://sowing.example"))
}

/// How `sow serve` writes its log lines.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// One line of text an event.
    Text,
    /// One JSON object a line.
    Json,
}

/// Sends log lines to standard error, as `format` says, from `level` up (once a process).
fn start_logs(format: LogFormat, level: tracing::Level) {
    let logs = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(level)
        .with_target(false);
    // Already set (a program embedding this crate set its own): keep that one.
    let _ = match format {
        LogFormat::Text => logs.try_init(),
        LogFormat::Json => logs.json().try_init(),
    };
}

/// Why the server could not start or stopped.
#[derive(Debug)]
pub struct ServeError(String);

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ServeError {}

/// `sow serve` with its arguments.
///
/// # Errors
/// See [`serve`].
pub fn run(args: ServeArgs) -> Result<(), ServeError> {
    start_logs(args.log_format, args.log_level);
    let tables = sowing_engine::TableSet::resolve(args.tables.as_deref())
        .map_err(|e| ServeError(format!("--tables: {e}")))?;
    // Small tables to build at first start: only into the default directory, never into
    // one given with --tables.
    let seeds = usize::from(args.first_tables);
    let first = match (&args.tables, sowing_engine::tables::default_dir()) {
        (None, Some(dir)) if seeds > 0 => {
            let games = services::first_tables::missing(&dir, seeds);
            (!games.is_empty()).then_some((dir, games))
        }
        _ => None,
    };
    match &tables {
        Some(set) => println!("sow serve: endgame tables from {}", set.dir().display()),
        None if first.is_none() => {
            println!("sow serve: no endgame tables (build some with `sow tables build`)")
        }
        None => {}
    }
    Server::new(args.addr, args.db)
        .cached_games(args.cache_games)
        .tables(tables)
        .limits(limits::AbuseLimits {
            enabled: !args.no_limits,
            ..limits::AbuseLimits::default()
        })
        .allowed_origins(args.allow_origins)
        .secure_cookies(args.secure_cookies)
        .analysis_nodes(args.analysis_nodes)
        .run_with(|app| {
            if let Some((dir, games)) = first {
                services::first_tables::spawn(app, dir, games, seeds);
            }
        })
}

/// Makes a tournament in `db` as the operator (`sow tournament create`, docs/web.md
/// "Tournaments"): the servers sharing `db` direct it from its start. Its id.
///
/// # Errors
/// Unknown rules, a field out of range, or a store that cannot be opened or written.
pub fn create_tournament(
    db: &Database,
    request: views::requests::TournamentRequest,
) -> Result<i64, ServeError> {
    let asked =
        transport::tournaments::asked(request).map_err(|e| ServeError(e.message().to_owned()))?;
    let new = services::tournaments::checked(asked, None, clock::now_ms())
        .map_err(|e| ServeError(e.to_string()))?;
    let store = db
        .open()
        .map_err(|e| ServeError(format!("--db {db}: {e}")))?;
    store
        .make_tournament(new)
        .map_err(|e| ServeError(format!("--db {db}: {e}")))
}

/// How often the server looks for abandoned live games to close.
const SWEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// A server to run: where it listens, where it keeps games, and how.
pub struct Server {
    addr: String,
    db: Database,
    cached_games: usize,
    tables: Option<Arc<sowing_engine::TableSet>>,
    limits: limits::AbuseLimits,
    allowed_origins: Vec<String>,
    secure_cookies: bool,
    analysis_nodes: u64,
}

impl Server {
    /// A server on `addr` (such as `127.0.0.1:8080`) keeping games in `db`, with the
    /// defaults of `sow serve`: 1000 games in memory, no endgame tables, the abuse limits,
    /// only its own origin's pages acting.
    pub fn new(addr: impl Into<String>, db: Database) -> Server {
        Server {
            addr: addr.into(),
            db,
            cached_games: DEFAULT_CACHED_GAMES,
            tables: None,
            limits: limits::AbuseLimits::default(),
            allowed_origins: Vec::new(),
            secure_cookies: false,
            analysis_nodes: services::analysis::DEFAULT_NODES,
        }
    }

    /// Searches `nodes` nodes in each position of an analysis after the game.
    pub fn analysis_nodes(self, nodes: u64) -> Server {
        Server {
            analysis_nodes: nodes,
            ..self
        }
    }

    /// Keeps at most `cached_games` games in memory.
    pub fn cached_games(self, cached_games: usize) -> Server {
        Server {
            cached_games,
            ..self
        }
    }

    /// The engines use these endgame tables.
    pub fn tables(self, tables: Option<Arc<sowing_engine::TableSet>>) -> Server {
        Server { tables, ..self }
    }

    /// Under these abuse limits.
    pub fn limits(self, limits: limits::AbuseLimits) -> Server {
        Server { limits, ..self }
    }

    /// Lets pages of these origins act here besides the server's own.
    pub fn allowed_origins(self, allowed_origins: Vec<String>) -> Server {
        Server {
            allowed_origins,
            ..self
        }
    }

    /// Marks session cookies `Secure` (the server is reached over TLS).
    pub fn secure_cookies(self, secure_cookies: bool) -> Server {
        Server {
            secure_cookies,
            ..self
        }
    }

    /// Serves until Ctrl-C or SIGTERM.
    ///
    /// # Errors
    /// When the address is not valid or taken, or the database cannot be opened.
    pub fn run(self) -> Result<(), ServeError> {
        self.run_with(|_| {})
    }

    /// [`Server::run`], handing the app to `started` once it exists (before listening).
    fn run_with(self, started: impl FnOnce(Arc<App>)) -> Result<(), ServeError> {
        let addr: SocketAddr = self
            .addr
            .parse()
            .map_err(|e| ServeError(format!("--addr {:?}: {e}", self.addr)))?;
        let shown = self.db.to_string();
        let store = self
            .db
            .open()
            .map_err(|e| ServeError(format!("{shown}: {e}")))?;
        let cores = sowing_tables::threads::worker_threads(None);
        let app = Arc::new(
            Games::with_cache(store, cores, self.cached_games)
                .with_tables(self.tables)
                .with_limits(self.limits)
                .with_allowed_origins(self.allowed_origins)
                .with_secure_cookies(self.secure_cookies)
                .with_analysis(services::analysis::Settings {
                    nodes: self.analysis_nodes,
                    ..services::analysis::Settings::default()
                }),
        );
        app.listen()
            .map_err(|e| ServeError(format!("{shown}: {e}")))?;
        started(app.clone());
        serve(app, addr, &shown)
    }
}

/// Threads for blocking work: the store's calls (which wait on one SQLite connection, or on
/// PostgreSQL's pool of 16) and the engines and analyses (a few at a time). Tokio's default
/// of 512 let a thousand live games start 500 threads that only waited, each with its own
/// memory: the soak's resident memory grew 21% in half an hour (docs/web.md, "When the
/// parts fail").
const BLOCKING_THREADS: usize = 64;

/// Serves `app` on `addr` until Ctrl-C or SIGTERM, then stops gracefully.
fn serve(app: Arc<App>, addr: SocketAddr, shown: &str) -> Result<(), ServeError> {
    memory::cap_malloc_arenas();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(BLOCKING_THREADS)
        .build()
        .map_err(|e| ServeError(format!("runtime: {e}")))?;
    runtime.block_on(async move {
        if let Err(e) = listener::raise_open_files_limit() {
            tracing::warn!(error = %e, "cannot raise the open files limit");
        }
        // The clocks that ran while no server served get that time back.
        match app.credit_outage().await {
            Ok(Some((gap, games))) => {
                tracing::info!(
                    away_ms = gap,
                    games,
                    "gave the running clocks back the outage"
                )
            }
            Ok(None) => {}
            Err(e) => tracing::error!(error = %e, "crediting the clocks for the outage"),
        }
        let beat = app.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(services::outages::SERVING_BEAT);
            loop {
                every.tick().await;
                if let Err(e) = beat.mark_serving().await {
                    tracing::warn!(error = %e, "marking the store as served");
                }
            }
        });
        let listener = listener::listen(addr)
            .map_err(|e| ServeError(format!("cannot listen on {addr}: {e}")))?;
        let local = listener
            .local_addr()
            .map_err(|e| ServeError(e.to_string()))?;
        println!(
            "sow serve: open http://{local}/ in a browser (games kept in {shown}; Ctrl-C stops)"
        );
        tracing::info!(addr = %local, db = %shown, "serving");
        let sweeper = app.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(SWEEP_EVERY);
            loop {
                every.tick().await;
                if let Err(e) = sweeper.close_stale(sweeper.now_ms()).await {
                    tracing::error!(error = %e, "closing abandoned games");
                }
                if let Err(e) = sweeper.settle_due(sweeper.now_ms()).await {
                    tracing::error!(error = %e, "ending games whose time ran out");
                }
                if let Err(e) = sweeper.sweep_seeks(false).await {
                    tracing::error!(error = %e, "taking out seeks nobody waits on");
                }
                if let Err(e) = sweeper.sweep_challenges().await {
                    tracing::error!(error = %e, "deleting old challenges");
                }
                ops::fold_histograms();
                let _ = tokio::task::spawn_blocking(memory::return_free_memory).await;
            }
        });
        let miner = app.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(services::puzzles::MINE_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                if let Err(e) = miner.mine_puzzles().await {
                    tracing::warn!(error = %e, "mining puzzles");
                }
            }
        });
        let director = app.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(services::director::DIRECT_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                if let Err(e) = director.direct_tournaments().await {
                    tracing::warn!(error = %e, "directing the tournaments");
                }
            }
        });
        let stopping = app.clone();
        axum::serve(
            listener,
            router(app.clone()).into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(async move {
            shutdown().await;
            // No new connection from here on; the sockets are told to reconnect.
            stopping.ops().stop();
        })
        .await
        .map_err(|e| ServeError(e.to_string()))?;
        // The requests in flight have finished, and their writes with them.
        if !app.ops().sockets_closed(SOCKETS_CLOSE_WITHIN).await {
            tracing::warn!("sockets still open after the stop; closing them");
        }
        // The last mark: a restart credits the clocks from this moment.
        if let Err(e) = app.mark_serving().await {
            tracing::warn!(error = %e, "marking the store as served");
        }
        // The seeks whose sockets were here: their players seek again elsewhere.
        if let Err(e) = app.sweep_seeks(true).await {
            tracing::warn!(error = %e, "taking out this server's seeks");
        }
        tracing::info!("stopped");
        Ok(())
    })
}

/// How long a graceful stop waits for the sockets it told to reconnect to close.
const SOCKETS_CLOSE_WITHIN: std::time::Duration = std::time::Duration::from_secs(10);

async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    tracing::info!("stopping: no new connections; sockets told to reconnect");
}

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const TEXT: &str = "text/plain; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const SVG: &str = "image/svg+xml";
const WASM: &str = "application/wasm";
const PNG: &str = "image/png";
const MANIFEST: &str = "application/manifest+json";

/// The page's files, compiled in: its address, content type and contents. The scripts are ES
/// modules that import one another by these addresses (docs/web.md, "The page's files"): a
/// new module needs one line here.
const PAGE_FILES: &[(&str, &str, &str)] = &[
    ("/", HTML, include_str!("../static/index.html")),
    ("/style.css", CSS, include_str!("../static/style.css")),
    ("/icon.svg", SVG, include_str!("../static/icon.svg")),
    ("/main.js", JS, include_str!("../static/main.js")),
    ("/state.js", JS, include_str!("../static/state.js")),
    ("/i18n.js", JS, include_str!("../static/i18n.js")),
    ("/words.js", JS, include_str!("../static/words.js")),
    ("/puzzles.js", JS, include_str!("../static/puzzles.js")),
    ("/glicko2.js", JS, include_str!("../static/glicko2.js")),
    (
        "/smallboard.js",
        JS,
        include_str!("../static/smallboard.js"),
    ),
    ("/api.js", JS, include_str!("../static/api.js")),
    ("/rules.js", JS, include_str!("../static/rules.js")),
    ("/board.js", JS, include_str!("../static/board.js")),
    ("/helps.js", JS, include_str!("../static/helps.js")),
    ("/game.js", JS, include_str!("../static/game.js")),
    ("/newgame.js", JS, include_str!("../static/newgame.js")),
    ("/saved.js", JS, include_str!("../static/saved.js")),
    ("/learn.js", JS, include_str!("../static/learn.js")),
    ("/live.js", JS, include_str!("../static/live.js")),
    ("/phrases.js", JS, include_str!("../static/phrases.js")),
    ("/lobby.js", JS, include_str!("../static/lobby.js")),
    ("/pairing.js", JS, include_str!("../static/pairing.js")),
    ("/turns.js", JS, include_str!("../static/turns.js")),
    (
        "/challenges.js",
        JS,
        include_str!("../static/challenges.js"),
    ),
    (
        "/tournaments.js",
        JS,
        include_str!("../static/tournaments.js"),
    ),
    (
        "/tournament.js",
        JS,
        include_str!("../static/tournament.js"),
    ),
    ("/account.js", JS, include_str!("../static/account.js")),
    ("/analysis.js", JS, include_str!("../static/analysis.js")),
    ("/school.js", JS, include_str!("../static/school.js")),
    ("/explorer.js", JS, include_str!("../static/explorer.js")),
    ("/practice.js", JS, include_str!("../static/practice.js")),
    // The engine in WebAssembly: its loader (the module is in BINARY_FILES), its worker and
    // the page's side of it.
    (
        "/engine/worker.js",
        JS,
        include_str!("../static/engine/worker.js"),
    ),
    ("/pocket.js", JS, include_str!("../static/pocket.js")),
    ("/local.js", JS, include_str!("../static/local.js")),
    // Installable and offline: the manifest, the service worker and its registration.
    (
        "/manifest.webmanifest",
        MANIFEST,
        include_str!("../static/manifest.webmanifest"),
    ),
    ("/sw.js", JS, include_str!("../static/sw.js")),
    ("/offline.js", JS, include_str!("../static/offline.js")),
    (
        "/engine/sowing.js",
        JS,
        include_str!("../static/engine/sowing.js"),
    ),
    // Fluent's message formatter: npm `@fluent/bundle`, its ES module build, vendored
    // (docs/dependencies.md).
    (
        "/vendor/fluent-bundle/index.js",
        JS,
        include_str!("../static/vendor/fluent-bundle/index.js"),
    ),
    (
        "/vendor/fluent-bundle/bundle.js",
        JS,
        include_str!("../static/vendor/fluent-bundle/bundle.js"),
    ),
    (
        "/vendor/fluent-bundle/builtins.js",
        JS,
        include_str!("../static/vendor/fluent-bundle/builtins.js"),
    ),
    (
        "/vendor/fluent-bundle/memoizer.js",
        JS,
        include_str!("../static/vendor/fluent-bundle/memoizer.js"),
    ),
    (
        "/vendor/fluent-bundle/resolver.js",
        JS,
        include_str!("../static/vendor/fluent-bundle/resolver.js"),
    ),
    (
        "/vendor/fluent-bundle/resource.js",
        JS,
        include_str!("../static/vendor/fluent-bundle/resource.js"),
    ),
    (
        "/vendor/fluent-bundle/scope.js",
        JS,
        include_str!("../static/vendor/fluent-bundle/scope.js"),
    ),
    (
        "/vendor/fluent-bundle/types.js",
        JS,
        include_str!("../static/vendor/fluent-bundle/types.js"),
    ),
    // The page's words, one catalogue per language (docs/web.md, "Languages").
    ("/i18n/en.ftl", TEXT, include_str!("../static/i18n/en.ftl")),
    ("/i18n/es.ftl", TEXT, include_str!("../static/i18n/es.ftl")),
];

/// The page's files that are not text: the installed app's icons, and the engine in
/// WebAssembly (crates/sowing-wasm), built by scripts/wasm-build.sh and committed, with the
/// record of the sources it was built from.
const BINARY_FILES: &[(&str, &str, &[u8])] = &[
    (
        "/icon-192.png",
        PNG,
        include_bytes!("../static/icon-192.png"),
    ),
    (
        "/icon-512.png",
        PNG,
        include_bytes!("../static/icon-512.png"),
    ),
    (
        "/engine/sowing.wasm",
        WASM,
        include_bytes!("../static/engine/sowing.wasm"),
    ),
    (
        "/engine/sowing.wasm.sources",
        TEXT,
        include_bytes!("../static/engine/sowing.wasm.sources"),
    ),
];

/// What the service worker keeps for a visit with no connection (static/sw.js): every file
/// of the page but the worker itself, and the rules' catalogue.
fn offline_files() -> Vec<&'static str> {
    PAGE_FILES
        .iter()
        .map(|f| f.0)
        .chain(BINARY_FILES.iter().map(|f| f.0))
        .filter(|&path| path != "/sw.js")
        .chain(["/api/rules"])
        .collect()
}

/// A page file's entity tag: the start of the SHA-256 of its contents.
fn etag_of(body: &[u8]) -> HeaderValue {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(body);
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    HeaderValue::from_str(&format!("\"{hex}\"")).expect("hex digits make a header value")
}

/// One of the page's files, to be checked again before use (it changes with the server):
/// with its entity tag, so that a browser (or the service worker) that has it gets a 304
/// with no body instead of the file again.
fn asset(
    content_type: &'static str,
    etag: HeaderValue,
    request: &HeaderMap,
    body: impl IntoResponse,
) -> Response {
    let headers = [
        (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (header::ETAG, etag.clone()),
    ];
    let matches = request
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|t| t.trim() == etag));
    if matches {
        (StatusCode::NOT_MODIFIED, headers).into_response()
    } else {
        (headers, body).into_response()
    }
}

/// The app's routes: the page, then the API under `/api`; requests from other sites that
/// would change something are refused, and every answer carries the security headers.
pub fn router(app: Arc<App>) -> Router {
    let mut page: Router<Arc<App>> = Router::new();
    for &(path, content_type, body) in PAGE_FILES {
        let etag = etag_of(body.as_bytes());
        page = page.route(
            path,
            get(move |request: HeaderMap| async move { asset(content_type, etag, &request, body) }),
        );
    }
    for &(path, content_type, body) in BINARY_FILES {
        let etag = etag_of(body);
        page = page.route(
            path,
            get(move |request: HeaderMap| async move { asset(content_type, etag, &request, body) }),
        );
    }
    page = page.route(
        "/offline-files.json",
        get(|| async { axum::Json(offline_files()) }),
    );
    page.route("/healthz", get(transport::ops::healthz))
        .route("/metrics", get(transport::ops::metrics_page))
        .nest("/api", transport::games::api())
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            transport::security::refuse_cross_site,
        ))
        .layer(axum::middleware::from_fn(
            transport::security::security_headers,
        ))
        // Outermost: every request is timed and logged, the refused ones too.
        .layer(axum::middleware::from_fn(transport::ops::track))
        .with_state(app)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file in static/ is served (a module left out of the table would fail to load
    /// only in a browser), and served once.
    #[test]
    fn every_file_of_the_page_is_served() {
        fn walk(dir: &std::path::Path, out: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, out);
                } else {
                    out.push(path.to_string_lossy().into_owned());
                }
            }
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("static");
        let mut files = Vec::new();
        walk(&root, &mut files);
        let mut on_disk: Vec<String> = files
            .iter()
            .map(|f| {
                let address = f[root.to_string_lossy().len()..].replace('\\', "/");
                if address == "/index.html" {
                    "/".to_owned()
                } else {
                    address
                }
            })
            .collect();
        on_disk.sort();
        let mut served: Vec<String> = PAGE_FILES.iter().map(|f| f.0.to_owned()).collect();
        served.extend(BINARY_FILES.iter().map(|f| f.0.to_owned()));
        served.sort();
        assert_eq!(served, on_disk);
    }

    #[test]
    fn a_postgres_password_is_never_shown() {
        let shown = |db: &str| db.parse::<Database>().unwrap().to_string();
        assert_eq!(
            shown("postgres://sow:secret@db:5432/games"),
            "postgres://sow:***@db:5432/games"
        );
        assert_eq!(
            shown("postgresql://sow@127.0.0.1/games"),
            "postgresql://sow@127.0.0.1/games"
        );
        assert_eq!(shown("games/sowing.db"), "games/sowing.db");
    }
}
