//! `sow-load`: a load generator for `sow serve`. Plays many games at once through the JSON
//! API (random legal moves, no engine work), one keep-alive connection per game, then
//! checks that every game is complete on the server and, given `--db`, in the database.
//!
//! ```text
//! sow serve --addr 127.0.0.1:8099 --db /tmp/load.db &
//! sow-load --url http://127.0.0.1:8099 --games 200 --db /tmp/load.db
//! ```
//!
//! Without `--url` it starts a server of its own, in this process, on a fresh database.
//! Given several `--url` (servers sharing one PostgreSQL database), each game's moves go to
//! the servers in turn, one keep-alive connection to each, as when its two players are
//! connected to different servers; `--db postgres://…` checks that database afterwards.
//! It prints moves per second, p50/p99 latency and the error count; it exits non-zero on
//! any error or incomplete game. It only talks to loopback addresses.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::{json, Value};
use sowing_engine::random::Rng;
use sowing_web::store::Store;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// Play many games at once against one `sow serve`.
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
    /// Seed for the random moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Give up on a game after this many moves (repetition ends games long before).
    #[arg(long, default_value_t = 5000)]
    max_moves: usize,
}

/// One keep-alive HTTP/1.1 connection: enough client for JSON requests to our own server.
struct Connection {
    reader: BufReader<TcpStream>,
    host: String,
}

impl Connection {
    async fn open(addr: SocketAddr) -> std::io::Result<Connection> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        Ok(Connection {
            reader: BufReader::new(stream),
            host: addr.to_string(),
        })
    }

    async fn request(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> Result<(u16, Value), String> {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            self.host,
            body.len()
        );
        let stream = self.reader.get_mut();
        stream
            .write_all(head.as_bytes())
            .await
            .map_err(|e| e.to_string())?;
        stream
            .write_all(body.as_bytes())
            .await
            .map_err(|e| e.to_string())?;
        let mut line = String::new();
        self.reader
            .read_line(&mut line)
            .await
            .map_err(|e| e.to_string())?;
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("bad status line {line:?}"))?;
        let mut length = 0usize;
        loop {
            line.clear();
            self.reader
                .read_line(&mut line)
                .await
                .map_err(|e| e.to_string())?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().map_err(|_| "bad content-length")?;
                }
            }
        }
        let mut buf = vec![0; length];
        self.reader
            .read_exact(&mut buf)
            .await
            .map_err(|e| e.to_string())?;
        let value = serde_json::from_slice(&buf).unwrap_or(Value::Null);
        Ok((status, value))
    }
}

/// What one game's player saw.
struct Played {
    id: Option<i64>,
    moves: usize,
    latencies: Vec<Duration>,
    error: Option<String>,
}

async fn play_one(
    addrs: Arc<Vec<SocketAddr>>,
    variant: String,
    seed: u64,
    max_moves: usize,
) -> Played {
    let mut played = Played {
        id: None,
        moves: 0,
        latencies: Vec::new(),
        error: None,
    };
    let mut rng = Rng::new(seed);
    let result: Result<(), String> = async {
        let mut conns = Vec::with_capacity(addrs.len());
        for &addr in addrs.iter() {
            conns.push(Connection::open(addr).await.map_err(|e| e.to_string())?);
        }
        let (status, view) = conns[0]
            .request("POST", "/api/games", Some(&json!({ "game": variant })))
            .await?;
        if status != 201 {
            return Err(format!("create: {status} {view}"));
        }
        let id = view["id"].as_i64().ok_or("no id")?;
        played.id = Some(id);
        let mut state = view["state"].clone();
        while state["over"] != true && played.moves < max_moves {
            let legal: Vec<&str> = state["legal"]
                .as_array()
                .ok_or("no legal moves")?
                .iter()
                .filter_map(Value::as_str)
                .collect();
            let mv = rng
                .pick(&legal)
                .ok_or("no legal move in a game not over")?
                .to_string();
            let body = json!({ "move": mv, "ply": played.moves });
            let start = Instant::now();
            let conn = &mut conns[played.moves % addrs.len()];
            let (status, answer) = conn
                .request(
                    "POST",
                    &format!("/api/games/{id}/moves?brief=true"),
                    Some(&body),
                )
                .await?;
            played.latencies.push(start.elapsed());
            if status != 200 {
                return Err(format!("game {id} move {mv}: {status} {answer}"));
            }
            played.moves += 1;
            state = answer["state"].clone();
        }
        Ok(())
    }
    .await;
    played.error = result.err();
    played
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
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

async fn run(args: Args) -> Result<bool, String> {
    // One descriptor per game's connection, and as many on the server when it runs here.
    sowing_web::listener::raise_open_files_limit()
        .map_err(|e| format!("cannot raise the open files limit: {e}"))?;
    let mut db = args.db.clone();
    let mut addrs = Vec::new();
    for url in &args.url {
        let hostport = url.trim_start_matches("http://").trim_end_matches('/');
        let addr: SocketAddr = hostport
            .parse()
            .map_err(|e| format!("--url {url:?}: expected http://IP:PORT ({e})"))?;
        if !addr.ip().is_loopback() {
            return Err(format!(
                "--url {url:?}: only loopback servers may be loaded"
            ));
        }
        addrs.push(addr);
    }
    if addrs.is_empty() {
        let dir = std::env::temp_dir().join(format!("sow-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let path = dir.join("load.db");
        let store = Store::open(&path).map_err(|e| e.to_string())?;
        let app = Arc::new(sowing_web::App::new(store, 2));
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
        db.get_or_insert(path.display().to_string());
        addrs.push(addr);
    }
    let addr = addrs[0];
    let addrs = Arc::new(addrs);
    let variants = ["hoyito-ii", "hoyito-iii", "ayoayo"];
    let servers: Vec<String> = addrs.iter().map(|a| format!("http://{a}/")).collect();
    println!(
        "sow-load: {} games at once against {} …",
        args.games,
        servers.join(" and ")
    );
    let start = Instant::now();
    let tasks: Vec<_> = (0..args.games)
        .map(|i| {
            let variant = args
                .game
                .clone()
                .unwrap_or_else(|| variants[i % variants.len()].to_owned());
            tokio::spawn(play_one(
                addrs.clone(),
                variant,
                args.seed.wrapping_mul(1000).wrapping_add(i as u64),
                args.max_moves,
            ))
        })
        .collect();
    let mut results = Vec::new();
    for task in tasks {
        results.push(task.await.map_err(|e| e.to_string())?);
    }
    let elapsed = start.elapsed();

    let mut latencies: Vec<Duration> = results
        .iter()
        .flat_map(|r| r.latencies.iter().copied())
        .collect();
    latencies.sort();
    let moves: usize = results.iter().map(|r| r.moves).sum();
    let errors: Vec<&String> = results.iter().filter_map(|r| r.error.as_ref()).collect();
    for e in errors.iter().take(5) {
        eprintln!("sow-load: error: {e}");
    }

    // Every game complete on the server, and in the database if we can see it.
    let mut incomplete = 0;
    let mut conn = Connection::open(addr).await.map_err(|e| e.to_string())?;
    for r in &results {
        let Some(id) = r.id else {
            incomplete += 1;
            continue;
        };
        let (status, view) = conn
            .request("GET", &format!("/api/games/{id}"), None)
            .await?;
        let complete = status == 200
            && view["state"]["over"] == true
            && view["ply"].as_u64() == Some(r.moves as u64);
        if !complete {
            incomplete += 1;
            eprintln!("sow-load: game {id} is not complete on the server");
        }
    }
    let mut db_checked = String::from("database not checked (give --db)");
    if let Some(path) = &db {
        let store = Store::open_db(path).map_err(|e| e.to_string())?;
        let mut in_db = 0;
        for r in &results {
            let Some(id) = r.id else { continue };
            let row = store.game_row(id).map_err(|e| e.to_string())?;
            let ok = row
                .as_ref()
                .is_some_and(|row| row.result.is_some() && row.plies == r.moves)
                && store.stored_moves(id).map_err(|e| e.to_string())? == r.moves;
            if ok {
                in_db += 1;
            } else {
                incomplete += 1;
                eprintln!("sow-load: game {id} is not complete in the database");
            }
        }
        db_checked = format!("{in_db}/{} games complete in the database", results.len());
    }

    let seconds = elapsed.as_secs_f64();
    println!(
        "games:          {} at once, {} finished",
        args.games,
        results.iter().filter(|r| r.error.is_none()).count()
    );
    println!(
        "moves:          {moves} in {seconds:.1} s = {:.0} moves/s",
        moves as f64 / seconds
    );
    println!(
        "latency:        p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        percentile(&latencies, 50.0).as_secs_f64() * 1e3,
        percentile(&latencies, 99.0).as_secs_f64() * 1e3,
        latencies.last().copied().unwrap_or_default().as_secs_f64() * 1e3
    );
    println!("errors:         {}", errors.len());
    println!("complete:       {}", db_checked);
    Ok(errors.is_empty() && incomplete == 0)
}
