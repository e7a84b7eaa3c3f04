//! `sow-load`: a load generator for `sow serve`, with three modes (docs/web.md, "Load
//! figures" and "Live games under load"):
//!
//! - plain (the default): one-screen games through the JSON API, random legal moves (no
//!   engine work), one keep-alive connection per game;
//! - `--live`: games between two seats, each followed by three WebSockets (South, North,
//!   a spectator), each seat moving over its own keep-alive connection when its socket
//!   says it is its turn; latency from a move sent to the opponent's socket receiving it;
//! - `--live --idle N --server-pid PID`: the server's memory per idle live game;
//! - `--seek`: `--games` players seeking one game and clock at once (quick pairing), the
//!   time from each seek to its pairing, and every player paired exactly once;
//! - `--tournament ID --players N`: N bot players join tournament ID and play it to its
//!   end; the time from a game's end to the next pairing, and the final standings as JSON
//!   on the last line.
//!
//! ```text
//! sow serve --addr 127.0.0.1:8099 --db /tmp/load.db --no-limits &
//! sow-load --url http://127.0.0.1:8099 --games 200 --db /tmp/load.db
//! sow-load --url http://127.0.0.1:8099 --games 1000 --live --think-ms 1000 --db /tmp/load.db
//! ```
//!
//! Without `--url` it starts a server of its own, in this process, on a fresh database
//! (without the per-address limits). Given several `--url` (servers sharing one PostgreSQL
//! database), a plain game's moves go to the servers in turn, and a live game's three
//! clients sit on different servers. Afterwards it checks that every game is complete on
//! the server and, given `--db` (or with its own server), in the database: every
//! acknowledged move there. It exits with 1 on any error or incomplete game, 2 on bad
//! arguments. It only talks to loopback addresses.

mod failover;
mod http;
mod idle;
mod live;
mod plain;
mod replica;
mod seek;
mod socket;
mod stats;
mod tournament;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use sowing_web::store::Store;

/// Play many games at once against `sow serve`.
#[derive(Parser)]
#[command(name = "sow-load")]
struct Args {
    /// The server, e.g. http://127.0.0.1:8099 (loopback only); repeat it for servers
    /// sharing one database; default: start one here.
    #[arg(long)]
    url: Vec<String>,
    /// Games played at once.
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// The game: hoyito-ii, hoyito-iii or ayoayo; default: the three in turn.
    #[arg(long)]
    game: Option<String>,
    /// The server's database (an SQLite file or a postgres:// URL), to check every game
    /// there afterwards.
    #[arg(long)]
    db: Option<String>,
    /// Seed for the random moves (and think times).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Give up on a game after this many moves (repetition ends games long before).
    #[arg(long, default_value_t = 5000)]
    max_moves: usize,
    /// Live games between two seats, over WebSockets (docs/api.md, "Play a friend").
    #[arg(long)]
    live: bool,
    /// Live or seek: the clock, BASE+INC in seconds (e.g. 300+3); default unlimited.
    #[arg(long, value_name = "BASE+INC")]
    clock: Option<String>,
    /// Quick pairing: --games players seek the same game and clock at once, through the
    /// servers in turn (docs/api.md, "Quick pairing").
    #[arg(long, conflicts_with = "live")]
    seek: bool,
    /// Live or tournament: a seat's mean think time before each move, in ms; each is
    /// drawn uniformly from 0 to twice it, so that the games do not move in step.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    think_ms: u64,
    /// A tournament (docs/api.md, "Tournaments") for --players bots to join and play to
    /// its end (it must take players: upcoming, or running).
    #[arg(long, value_name = "ID", conflicts_with_all = ["live", "seek"], requires = "players")]
    tournament: Option<i64>,
    /// With --tournament: how many bot players.
    #[arg(long, value_name = "N", requires = "tournament")]
    players: Option<usize>,
    /// Live: waiting longer than this (seconds) for a socket message or an answer is an
    /// error.
    #[arg(long, value_name = "S", default_value_t = 60)]
    timeout: u64,
    /// Live: instead of playing, create N games with both seats taken and their three
    /// sockets open, and report the server's memory per game (with --url, needs
    /// --server-pid; without, the server is this process).
    #[arg(long, value_name = "N", requires = "live")]
    idle: Option<usize>,
    /// With --idle: the server's process id, whose VmRSS is read from /proc.
    #[arg(long, value_name = "PID")]
    server_pid: Option<u32>,
    /// Live: ride out the database restarting or a server killed during the run (the
    /// chaos tests): a move refused with 503 store-unavailable is sent again, a client whose
    /// server is gone moves to the next --url; the failures met are counted.
    #[arg(long, requires = "live")]
    through_failures: bool,
    /// With --idle: seconds to wait before each memory reading.
    #[arg(long, value_name = "S", default_value_t = 3)]
    settle: u64,
}

/// The servers under load, and the database to check afterwards.
pub struct Target {
    pub addrs: Vec<SocketAddr>,
    pub db: Option<String>,
}

impl Target {
    /// The servers, for messages.
    pub fn servers(&self) -> String {
        let servers: Vec<String> = self.addrs.iter().map(|a| format!("http://{a}/")).collect();
        servers.join(" and ")
    }
}

/// Game number `i`'s variant: the one asked for, else the three in turn.
pub fn variant_of(game: Option<&str>, i: usize) -> String {
    const VARIANTS: [&str; 3] = ["hoyito-ii", "hoyito-iii", "ayoayo"];
    game.map_or_else(|| VARIANTS[i % VARIANTS.len()].to_owned(), str::to_owned)
}

/// Plays `games` games at once, game `i` by `play(i, its seed)` (derived from `seed`): their
/// results in order, and the time they all took.
pub async fn play_all<T, F, Fut>(
    games: usize,
    seed: u64,
    play: F,
) -> Result<(Vec<T>, Duration), String>
where
    F: Fn(usize, u64) -> Fut,
    Fut: std::future::Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    let start = std::time::Instant::now();
    let tasks: Vec<_> = (0..games)
        .map(|i| tokio::spawn(play(i, seed.wrapping_mul(1000).wrapping_add(i as u64))))
        .collect();
    let mut results = Vec::with_capacity(games);
    for task in tasks {
        results.push(task.await.map_err(|e| e.to_string())?);
    }
    Ok((results, start.elapsed()))
}

/// `BASE+INC` in seconds (decimals allowed) → (base, increment) in ms.
fn parse_clock(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("--clock {text:?}: expected BASE+INC in seconds, e.g. 300+3");
    let (base, inc) = text.split_once('+').ok_or_else(bad)?;
    let ms = |s: &str| -> Result<u64, String> {
        let seconds: f64 = s.trim().parse().map_err(|_| bad())?;
        if !(0.0..=86_400.0).contains(&seconds) {
            return Err(bad());
        }
        Ok((seconds * 1000.0).round() as u64)
    };
    Ok((ms(base)?, ms(inc)?))
}

/// The loopback address of `--url`.
fn parse_url(url: &str) -> Result<SocketAddr, String> {
    let hostport = url.trim_start_matches("http://").trim_end_matches('/');
    let addr: SocketAddr = hostport
        .parse()
        .map_err(|e| format!("--url {url:?}: expected http://IP:PORT ({e})"))?;
    if !addr.ip().is_loopback() {
        return Err(format!(
            "--url {url:?}: only loopback servers may be loaded"
        ));
    }
    Ok(addr)
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    match runtime.block_on(run(args)) {
        Ok(true) => std::process::ExitCode::SUCCESS,
        Ok(false) => std::process::ExitCode::FAILURE,
        Err(e) => {
            eprintln!("sow-load: {e}");
            std::process::ExitCode::from(2)
        }
    }
}

/// Starts a server in this process on a fresh database, without the per-address limits
/// (every client here has the same address): its address and database.
async fn own_server() -> Result<(SocketAddr, String), String> {
    let dir = std::env::temp_dir().join(format!("sow-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let path = dir.join("load.db");
    let store = Store::open(&path).map_err(|e| e.to_string())?;
    let limits = sowing_web::limits::AbuseLimits {
        enabled: false,
        ..sowing_web::limits::AbuseLimits::default()
    };
    let app = Arc::new(sowing_web::App::new(store, 2).with_limits(limits));
    let listener =
        sowing_web::listener::listen(([127, 0, 0, 1], 0).into()).map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    tokio::spawn(async move {
        axum::serve(listener, sowing_web::router(app)).await.ok();
    });
    println!(
        "sow-load: started a server in this process at http://{addr}/ on {}",
        path.display()
    );
    Ok((addr, path.display().to_string()))
}

async fn run(args: Args) -> Result<bool, String> {
    // One descriptor per connection and socket, and as many on the server when it runs here.
    sowing_web::listener::raise_open_files_limit()
        .map_err(|e| format!("cannot raise the open files limit: {e}"))?;
    let clock = args.clock.as_deref().map(parse_clock).transpose()?;
    if let Some(variant) = &args.game {
        variant
            .parse::<sowing::Variant>()
            .map_err(|e| format!("--game: {e}"))?;
    }
    let mut db = args.db.clone();
    let mut addrs = args
        .url
        .iter()
        .map(|u| parse_url(u))
        .collect::<Result<Vec<_>, _>>()?;
    if args.idle.is_some() && addrs.len() != usize::from(args.server_pid.is_some()) {
        return Err(
            "--idle measures one server: give one --url and its --server-pid, or neither (the server runs here)".into(),
        );
    }
    let server_pid = args.server_pid.unwrap_or_else(std::process::id);
    if addrs.is_empty() {
        let (addr, path) = own_server().await?;
        db.get_or_insert(path);
        addrs.push(addr);
    }
    let target = Arc::new(Target { addrs, db });
    let plan = live::Plan {
        clock,
        think_ms: args.think_ms,
        max_moves: args.max_moves,
        timeout: Duration::from_secs(args.timeout.max(1)),
        through_failures: args.through_failures,
    };
    let game = args.game.as_deref();
    if let (Some(tournament), Some(players)) = (args.tournament, args.players) {
        let plan = tournament::Plan {
            tournament,
            seed: args.seed,
            think_ms: args.think_ms,
            timeout: Duration::from_secs(args.timeout.max(1)),
        };
        return tournament::run(target, players, plan).await;
    }
    if args.seek {
        let timeout = Duration::from_secs(args.timeout.max(1));
        return seek::run(
            target,
            args.games,
            game.unwrap_or("hoyito-ii"),
            clock,
            args.seed,
            timeout,
        )
        .await;
    }
    match (args.live, args.idle) {
        (true, Some(n)) => {
            idle::run(
                target,
                n,
                game,
                server_pid,
                Duration::from_secs(args.settle),
                plan,
            )
            .await
        }
        (true, None) => live::run(target, args.games, game, args.seed, plan).await,
        _ => plain::run(target, args.games, game, args.seed, args.max_moves).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_is_base_plus_increment_in_seconds() {
        assert_eq!(parse_clock("300+3"), Ok((300_000, 3_000)));
        assert_eq!(parse_clock("0.5+0"), Ok((500, 0)));
        for bad in ["300", "five+3", "300+-1", "+"] {
            assert!(parse_clock(bad).unwrap_err().contains("BASE+INC"), "{bad}");
        }
    }
}
