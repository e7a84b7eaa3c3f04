//! Two `sow serve` processes on one PostgreSQL database: a move made through one is served
//! by the other, and a stale move is refused whichever server it reaches; a live game
//! created through one and accepted through the other, each move reaching the sockets of
//! both servers. Ignored under plain `cargo test`: they need a PostgreSQL server, which
//! `scripts/test` starts and names in `SOWING_TEST_POSTGRES` before running them with
//! `--ignored`.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

mod common;
use common::request;

/// A `sow serve` child process, killed when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(db: &str) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sow"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
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
    // Keep reading its output so that it never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    Server { child, addr }
}

/// A fresh database on the server `SOWING_TEST_POSTGRES` names.
fn fresh_database(server: &str, test: &str) -> String {
    let name = format!("sowing_cli_test_{}_{test}", std::process::id());
    let mut client = postgres::Client::connect(server, postgres::NoTls).unwrap();
    for statement in [
        format!("DROP DATABASE IF EXISTS {name}"),
        format!("CREATE DATABASE {name}"),
    ] {
        client.batch_execute(&statement).unwrap();
    }
    let base = server.split('?').next().unwrap();
    let authority = base.find("://").unwrap() + 3;
    let host_end = base[authority..]
        .find('/')
        .map_or(base.len(), |i| authority + i);
    format!("{}/{name}", &base[..host_end])
}

/// The PostgreSQL server of `SOWING_TEST_POSTGRES`.
fn postgres_server() -> String {
    std::env::var("SOWING_TEST_POSTGRES")
        .ok()
        .filter(|u| !u.is_empty())
        .expect("this test needs PostgreSQL: set SOWING_TEST_POSTGRES (scripts/test does)")
}

#[test]
#[ignore = "needs PostgreSQL: set SOWING_TEST_POSTGRES (scripts/test runs it)"]
fn two_servers_on_one_postgres_database_serve_the_same_games() {
    let pg = postgres_server();
    let db = fresh_database(&pg, "games");
    let (one, two) = (serve(&db), serve(&db));
    let (status, view) = request(
        &one.addr,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "ayoayo"})),
    );
    assert_eq!(status, 201, "{view}");
    let id = view["id"].as_i64().unwrap();
    let game = format!("/api/games/{id}");
    let moves = format!("{game}/moves");
    // Each server keeps the game in memory from here on.
    assert_eq!(request(&two.addr, "GET", &game, None, None).0, 200);
    let mut ply = 0;
    for round in 0..6 {
        let (mover, other) = if round % 2 == 0 {
            (&one, &two)
        } else {
            (&two, &one)
        };
        let (_, view) = request(&mover.addr, "GET", &game, None, None);
        assert_eq!(view["ply"], ply, "{view}");
        let mv = view["state"]["legal"][0].as_str().unwrap().to_owned();
        let (status, answer) = request(
            &mover.addr,
            "POST",
            &moves,
            None,
            Some(json!({"move": mv, "ply": ply})),
        );
        assert_eq!(status, 200, "{answer}");
        ply += 1;
        // The other server serves the move at once, and refuses the stale ply.
        let (_, view) = request(&other.addr, "GET", &game, None, None);
        assert_eq!(view["ply"], ply, "round {round}: {view}");
        assert_eq!(view["history"].as_array().map(Vec::len), Some(ply));
        let (status, answer) = request(
            &other.addr,
            "POST",
            &moves,
            None,
            Some(json!({"move": mv, "ply": ply - 1})),
        );
        assert_eq!(status, 409, "{answer}");
    }
    // An undo through one is seen through the other.
    let (status, answer) = request(
        &two.addr,
        "POST",
        &format!("{game}/undo"),
        None,
        Some(json!({"ply": ply})),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["game"]["ply"], ply - 1, "{answer}");
    let (_, view) = request(&one.addr, "GET", &game, None, None);
    assert_eq!(view["ply"], ply - 1, "{view}");
}

type Socket = tungstenite::WebSocket<TcpStream>;

/// A live game's socket on `server`, as the seat of `token` or a spectator; its first
/// message (the whole game) is read and checked.
fn connect(server: &Server, id: i64, token: Option<&str>) -> Socket {
    let stream = TcpStream::connect(&server.addr).unwrap();
    // A message that does not come fails the test instead of hanging it.
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let url = format!("ws://{}/api/live/{id}/socket", server.addr);
    let (mut socket, _) = tungstenite::client(url, stream).unwrap();
    let hello = json!({"type": "hello", "token": token});
    socket
        .send(tungstenite::Message::text(hello.to_string()))
        .unwrap();
    let state = until(&mut socket, "state");
    assert_eq!(state["game"]["ply"], 0, "{state}");
    socket
}

/// The socket's next message of type `kind` (others are skipped).
fn until(socket: &mut Socket, kind: &str) -> Value {
    loop {
        if let tungstenite::Message::Text(text) = socket.read().expect("a message in time") {
            let message: Value = serde_json::from_str(text.as_str()).unwrap();
            if message["type"] == kind {
                return message;
            }
        }
    }
}

#[test]
#[ignore = "needs PostgreSQL: set SOWING_TEST_POSTGRES (scripts/test runs it)"]
fn a_live_move_made_through_one_server_reaches_the_sockets_of_the_other() {
    let pg = postgres_server();
    let db = fresh_database(&pg, "live");
    let (one, two) = (serve(&db), serve(&db));
    // An open challenge posted through one, listed by and accepted through the other.
    let (status, seated) = request(
        &one.addr,
        "POST",
        "/api/live",
        None,
        Some(
            json!({"game": "hoyito-ii", "lobby": true, "name": "Ana", "clock": {"base_ms": 600000}}),
        ),
    );
    assert_eq!(status, 201, "{seated}");
    assert_eq!(seated["seat"], "south");
    let id = seated["live"]["id"].as_i64().unwrap();
    let south = seated["token"].as_str().unwrap().to_owned();
    let (_, lobby) = request(&two.addr, "GET", "/api/lobby", None, None);
    assert!(
        lobby.to_string().contains(&format!("\"id\":{id}")),
        "{lobby}"
    );
    let (status, accepted) = request(
        &two.addr,
        "POST",
        &format!("/api/live/{id}/accept"),
        None,
        Some(json!({"name": "Ben"})),
    );
    assert_eq!(status, 200, "{accepted}");
    assert_eq!(accepted["seat"], "north");
    let north = accepted["token"].as_str().unwrap().to_owned();
    // Through one, the seat Ben took is seen taken, with his name.
    let (_, view) = request(&one.addr, "GET", &format!("/api/live/{id}"), None, None);
    assert_eq!(
        view["live"]["seats"]["north"],
        json!({"name": "Ben", "taken": true, "account": false, "rating": null}),
        "{view}"
    );
    // Each player on the other's server, a spectator on the second.
    let mut ana = connect(&one, id, Some(&south));
    let mut ben = connect(&two, id, Some(&north));
    let mut watcher = connect(&two, id, None);
    let mut ply = 0;
    for _ in 0..6 {
        let (_, view) = request(&one.addr, "GET", &format!("/api/live/{id}"), None, None);
        assert_eq!(view["game"]["ply"], ply, "{view}");
        let to_move = view["game"]["state"]["to_move"]
            .as_str()
            .unwrap()
            .to_owned();
        let mv = view["game"]["state"]["legal"][0]
            .as_str()
            .unwrap()
            .to_owned();
        // South moves through one, North through two.
        let (mover, token) = if to_move == "south" {
            (&one, &south)
        } else {
            (&two, &north)
        };
        let (status, answer) = request(
            &mover.addr,
            "POST",
            &format!("/api/live/{id}/moves"),
            Some(token),
            Some(json!({"move": mv, "ply": ply})),
        );
        assert_eq!(status, 200, "{mv} at {ply}: {answer}");
        ply += 1;
        for (who, socket) in [
            ("ana", &mut ana),
            ("ben", &mut ben),
            ("watcher", &mut watcher),
        ] {
            let m = until(socket, "move");
            assert_eq!(m["move"]["ply"], ply, "{who}: {m}");
            assert_eq!(m["move"]["move"], mv.as_str(), "{who}: {m}");
            let status = until(socket, "status");
            assert_eq!(status["live"]["ply"], ply, "{who}: {status}");
        }
        // The seat to move now, through the other server, from before that move: a stale
        // ply, refused.
        let other = if std::ptr::eq(mover, &one) {
            &two
        } else {
            &one
        };
        let next = match answer["game"]["state"]["to_move"].as_str() {
            Some("south") => &south,
            _ => &north,
        };
        let (status, answer) = request(
            &other.addr,
            "POST",
            &format!("/api/live/{id}/moves"),
            Some(next),
            Some(json!({"move": mv, "ply": ply - 1})),
        );
        assert_eq!(status, 409, "{answer}");
    }
    // A resignation through two ends the game on a socket of one.
    let (status, answer) = request(
        &two.addr,
        "POST",
        &format!("/api/live/{id}/resign"),
        Some(&north),
        None,
    );
    assert_eq!(status, 200, "{answer}");
    loop {
        let status = until(&mut ana, "status");
        if !status["live"]["result"].is_null() {
            assert_eq!(
                status["live"]["result"]["reason"], "resignation",
                "{status}"
            );
            assert_eq!(status["live"]["result"]["outcome"], "south", "{status}");
            break;
        }
    }
}
