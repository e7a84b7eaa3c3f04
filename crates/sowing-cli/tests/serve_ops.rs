//! `sow serve` run as in production: `/healthz`, `/metrics`, JSON logs that name routes and
//! never a seat token, a graceful stop on SIGTERM in the middle of live games (no
//! acknowledged move lost, sockets told to reconnect, exit 0, the games there on restart),
//! and `sow backup` of the running server's database under load.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use sowing_web::store::Store;

mod common;
use common::{request, try_request, PLAYER_KEY};

/// A `sow serve` child process (killed when dropped) and what it wrote to standard error.
struct Server {
    child: Child,
    addr: String,
    logs: Arc<Mutex<Vec<String>>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start(db: &Path, extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sow"))
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--first-tables",
                "0",
                "--no-limits",
            ])
            .arg("--db")
            .arg(db)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let logs = Arc::new(Mutex::new(Vec::new()));
        let into = logs.clone();
        let stderr = BufReader::new(child.stderr.take().unwrap());
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                into.lock().unwrap().push(line);
            }
        });
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let addr = loop {
            let line = lines
                .next()
                .expect("sow serve printed its address")
                .unwrap();
            if let Some(rest) = line.strip_prefix("sow serve: open http://") {
                break rest.split('/').next().unwrap().to_owned();
            }
        };
        std::thread::spawn(move || lines.for_each(drop));
        Server { child, addr, logs }
    }

    /// Sends SIGTERM and waits (a bounded time) for the process to end.
    fn terminate(&mut self) -> ExitStatus {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "sow serve did not stop");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sowing-serve-ops-{}-{name}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A live game between two seats: its id and the tokens (South, North).
fn live_game(addr: &str) -> (i64, String, String) {
    let (status, seated) = request(
        addr,
        "POST",
        "/api/live",
        None,
        Some(json!({"game": "hoyito-ii", "lobby": true, "name": "Ana"})),
    );
    assert_eq!(status, 201, "{seated}");
    let id = seated["live"]["id"].as_i64().unwrap();
    let south = seated["token"].as_str().unwrap().to_owned();
    let (status, accepted) = request(
        addr,
        "POST",
        &format!("/api/live/{id}/accept"),
        None,
        Some(json!({"name": "Ben"})),
    );
    assert_eq!(status, 200, "{accepted}");
    (id, south, accepted["token"].as_str().unwrap().to_owned())
}

type Socket = tungstenite::WebSocket<TcpStream>;

/// A spectator's socket on a live game, its first message (the whole game) read.
fn watch(addr: &str, id: i64) -> (Socket, Value) {
    let stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let (mut socket, _) =
        tungstenite::client(format!("ws://{addr}/api/live/{id}/socket"), stream).unwrap();
    socket
        .send(tungstenite::Message::text(
            json!({"type": "hello"}).to_string(),
        ))
        .unwrap();
    loop {
        if let tungstenite::Message::Text(text) = socket.read().expect("the game's state") {
            let message: Value = serde_json::from_str(text.as_str()).unwrap();
            if message["type"] == "state" {
                return (socket, message);
            }
        }
    }
}

/// Reads the socket until it closes: the close code.
fn close_code(socket: &mut Socket) -> Option<u16> {
    loop {
        match socket.read() {
            Ok(tungstenite::Message::Close(frame)) => return frame.map(|f| u16::from(f.code)),
            Ok(_) => {}
            Err(e) => panic!("the socket broke without a close frame: {e}"),
        }
    }
}

#[test]
fn health_metrics_and_json_logs_name_routes_and_never_a_token() {
    let dir = temp_dir("health");
    let mut server = Server::start(
        &dir.join("games.db"),
        &["--log-format", "json", "--log-level", "debug"],
    );
    let addr = server.addr.clone();
    let (status, text) = try_request(&addr, "GET", "/healthz", None, None).unwrap();
    assert_eq!((status, text.as_str()), (200, "ok\n"));
    // A plain game and a move.
    let (status, view) = request(
        &addr,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "ayoayo"})),
    );
    assert_eq!(status, 201, "{view}");
    let id = view["id"].as_i64().unwrap();
    let mv = view["state"]["legal"][0].as_str().unwrap().to_owned();
    let path = format!("/api/games/{id}/moves");
    let (status, answer) = request(
        &addr,
        "POST",
        &path,
        None,
        Some(json!({"move": mv, "ply": 0})),
    );
    assert_eq!(status, 200, "{answer}");
    // A live game, a move with a seat's token, a socket watching.
    let (live, south, north) = live_game(&addr);
    let (_, view) = request(&addr, "GET", &format!("/api/live/{live}"), None, None);
    let mv = view["game"]["state"]["legal"][0]
        .as_str()
        .unwrap()
        .to_owned();
    let path = format!("/api/live/{live}/moves");
    let (status, answer) = request(
        &addr,
        "POST",
        &path,
        Some(&south),
        Some(json!({"move": mv, "ply": 0})),
    );
    assert_eq!(status, 200, "{answer}");
    let (mut socket, _) = watch(&addr, live);
    let (status, metrics) = try_request(&addr, "GET", "/metrics", None, None).unwrap();
    assert_eq!(status, 200);
    for line in [
        "sowing_moves_total{kind=\"plain\"} 1",
        "sowing_moves_total{kind=\"live\"} 1",
        "sowing_games_created_total{kind=\"plain\"} 1",
        "sowing_games_created_total{kind=\"live\"} 1",
        "sowing_sockets_open 1",
        "sowing_move_seconds_count{kind=\"live\"} 1",
    ] {
        assert!(
            metrics.lines().any(|l| l.starts_with(line)),
            "{line} in\n{metrics}"
        );
    }
    assert!(
        metrics
            .lines()
            .any(|l| l.starts_with("sowing_http_request_seconds_bucket{")
                && l.contains("route=\"/api/live/{id}/moves\"")
                && l.contains("status=\"200\"")),
        "{metrics}"
    );
    // SIGTERM: the socket is told to reconnect, and the server exits 0.
    let status = server.terminate();
    assert_eq!(close_code(&mut socket), Some(1012));
    assert!(status.success(), "{status:?}");
    let logs = server.logs.lock().unwrap().clone();
    assert!(!logs.is_empty());
    for line in &logs {
        let event: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert!(event["level"].is_string(), "{line}");
        for secret in [south.as_str(), north.as_str(), PLAYER_KEY] {
            assert!(!line.contains(secret), "a token or key in the logs: {line}");
        }
    }
    let routes: Vec<&str> = logs
        .iter()
        .filter_map(|l| l.split("\"route\":\"").nth(1)?.split('"').next())
        .collect();
    assert!(routes.contains(&"/api/live/{id}/moves"), "{logs:?}");
    assert!(routes.contains(&"/api/games/{id}/moves"), "{logs:?}");
    assert!(logs.iter().any(|l| l.contains("\"stopped\"")), "{logs:?}");
}

/// Plays `id` as both seats until it ends or the server stops; the moves acknowledged.
fn play_until_stopped(addr: &str, id: i64, tokens: [String; 2], stop: &AtomicBool) -> Vec<String> {
    let mut acknowledged = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let Some((200, text)) = try_request(addr, "GET", &format!("/api/live/{id}"), None, None)
        else {
            break;
        };
        let view: Value = serde_json::from_str(&text).unwrap();
        let Some(mv) = view["game"]["state"]["legal"][0].as_str() else {
            break; // over
        };
        let seat = usize::from(view["game"]["state"]["to_move"] == "north");
        let body = json!({"move": mv, "ply": acknowledged.len()});
        match try_request(
            addr,
            "POST",
            &format!("/api/live/{id}/moves"),
            Some(&tokens[seat]),
            Some(body),
        ) {
            Some((200, _)) => acknowledged.push(mv.to_owned()),
            Some((status, text)) => panic!("{status}: {text}"),
            None => break,
        }
    }
    acknowledged
}

#[test]
fn sigterm_in_the_middle_of_live_games_loses_no_acknowledged_move() {
    let dir = temp_dir("sigterm");
    let db = dir.join("games.db");
    let mut server = Server::start(&db, &[]);
    let addr = server.addr.clone();
    let games: Vec<(i64, String, String)> = (0..4).map(|_| live_game(&addr)).collect();
    let (mut watcher, _) = watch(&addr, games[0].0);
    let stop = Arc::new(AtomicBool::new(false));
    let players: Vec<_> = games
        .iter()
        .map(|(id, south, north)| {
            let (addr, id, tokens, stop) = (
                addr.clone(),
                *id,
                [south.clone(), north.clone()],
                stop.clone(),
            );
            std::thread::spawn(move || (id, play_until_stopped(&addr, id, tokens, &stop)))
        })
        .collect();
    // Once moves are flowing, in the middle of them: SIGTERM.
    let mut seen = 0;
    while seen < 6 {
        if let tungstenite::Message::Text(text) = watcher.read().expect("the game's moves") {
            seen += usize::from(text.as_str().contains("\"type\":\"move\""));
        }
    }
    let status = server.terminate();
    assert!(status.success(), "{status:?}");
    assert_eq!(close_code(&mut watcher), Some(1012));
    stop.store(true, Ordering::Relaxed);
    let acknowledged: HashMap<i64, Vec<String>> =
        players.into_iter().map(|p| p.join().unwrap()).collect();
    assert!(acknowledged.values().map(Vec::len).sum::<usize>() >= 6);
    // Every acknowledged move is stored, in order.
    let store = Store::open(&db).unwrap();
    assert_eq!(store.integrity_check().unwrap(), "ok");
    for (id, moves) in &acknowledged {
        let (_, game) = store.load(*id).unwrap().unwrap();
        let stored: Vec<String> = game.moves().iter().map(|m| m.name(6).to_string()).collect();
        assert!(
            stored.len() >= moves.len(),
            "game {id}: {stored:?} lacks some of {moves:?}"
        );
        assert_eq!(&stored[..moves.len()], moves.as_slice(), "game {id}");
    }
    drop(store);
    // Restarted on the same database, a page reconnecting gets the game as stored.
    let server = Server::start(&db, &[]);
    let (id, moves) = acknowledged.iter().next().unwrap();
    let (_, state) = watch(&server.addr, *id);
    assert!(
        state["game"]["ply"].as_u64().unwrap() as usize >= moves.len(),
        "{state}"
    );
}

#[test]
fn a_backup_under_load_holds_every_game_acknowledged_before_it_began() {
    let dir = temp_dir("backup");
    let db = dir.join("games.db");
    let server = Server::start(&db, &[]);
    let addr = server.addr.clone();
    // A writer: new games, a few moves each, every acknowledged write noted.
    let acknowledged: Arc<Mutex<HashMap<i64, usize>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (addr, acknowledged, stop) = (addr.clone(), acknowledged.clone(), stop.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let (status, view) = request(
                    &addr,
                    "POST",
                    "/api/games",
                    None,
                    Some(json!({"game": "hoyito-iii"})),
                );
                assert_eq!(status, 201, "{view}");
                let id = view["id"].as_i64().unwrap();
                acknowledged.lock().unwrap().insert(id, 0);
                for ply in 0..5 {
                    let (_, view) = request(&addr, "GET", &format!("/api/games/{id}"), None, None);
                    let mv = view["state"]["legal"][0].as_str().unwrap().to_owned();
                    let body = json!({"move": mv, "ply": ply});
                    let (status, answer) = request(
                        &addr,
                        "POST",
                        &format!("/api/games/{id}/moves"),
                        None,
                        Some(body),
                    );
                    assert_eq!(status, 200, "{answer}");
                    acknowledged.lock().unwrap().insert(id, ply + 1);
                }
            }
        })
    };
    while acknowledged.lock().unwrap().len() < 5 {
        std::thread::yield_now();
    }
    let before = acknowledged.lock().unwrap().clone();
    let copy = dir.join("copy.db");
    let out = Command::new(env!("CARGO_BIN_EXE_sow"))
        .arg("backup")
        .arg("--db")
        .arg(&db)
        .arg(&copy)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("sow backup: "));
    stop.store(true, Ordering::Relaxed);
    writer.join().unwrap();
    let after = acknowledged.lock().unwrap().clone();
    let backup = Store::open(&copy).unwrap();
    assert_eq!(backup.integrity_check().unwrap(), "ok");
    for (id, plies) in &before {
        let (row, game) = backup
            .load(*id)
            .unwrap()
            .unwrap_or_else(|| panic!("game {id} missing"));
        assert!(
            game.moves().len() >= *plies,
            "game {id}: {} of {plies} moves",
            game.moves().len()
        );
        assert!(row.plies <= after[id]);
    }
    drop(server);
    // A PostgreSQL database is not this command's to copy, and a missing file is no backup.
    let out = Command::new(env!("CARGO_BIN_EXE_sow"))
        .args(["backup", "--db", "postgres://x@127.0.0.1/none"])
        .arg(dir.join("pg.db"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("pg_dump"));
    let out = Command::new(env!("CARGO_BIN_EXE_sow"))
        .arg("backup")
        .arg("--db")
        .arg(dir.join("missing.db"))
        .arg(dir.join("none.db"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(!dir.join("none.db").exists());
}

#[test]
fn a_five_second_restart_costs_the_side_to_move_nothing() {
    let dir = temp_dir("outage");
    let db = dir.join("games.db");
    let mut server = Server::start(&db, &[]);
    let (status, seated) = request(
        &server.addr,
        "POST",
        "/api/live",
        None,
        Some(json!({"game": "hoyito-ii", "clock": {"base_ms": 300000, "increment_ms": 0}})),
    );
    assert_eq!(status, 201, "{seated}");
    let id = seated["live"]["id"].as_i64().unwrap();
    let south = seated["token"].as_str().unwrap().to_owned();
    let moved = request(
        &server.addr,
        "POST",
        &format!("/api/live/{id}/moves"),
        Some(&south),
        Some(json!({"move": "A", "ply": 0})),
    );
    assert_eq!(moved.0, 200, "{}", moved.1);
    let north_ms = |addr: &str| {
        let (status, view) = request(addr, "GET", &format!("/api/live/{id}"), None, None);
        assert_eq!(status, 200, "{view}");
        let clock = view["live"]["clock"].clone();
        (
            clock["north_ms"].as_i64().unwrap(),
            clock["credited_ms"].as_i64().unwrap(),
        )
    };
    let (before, _) = north_ms(&server.addr);
    assert!(server.terminate().success());
    std::thread::sleep(Duration::from_secs(5));
    let server = Server::start(&db, &[]);
    let (after, credited) = north_ms(&server.addr);
    let lost = before - after;
    println!("a 5 s restart: North's clock {before} ms before, {after} ms after ({lost} ms lost, {credited} ms given back)");
    assert!(credited >= 5_000, "the outage given back: {credited} ms");
    assert!(
        lost < 1_500,
        "only the time served is charged: {lost} ms lost"
    );
}
