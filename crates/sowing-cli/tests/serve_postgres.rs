//! Two `sow serve` processes on one PostgreSQL database: a move made through one is served
//! by the other, and a stale move is refused whichever server it reaches; a live game
//! created through one and accepted through the other, each move reaching the sockets of
//! both servers. Ignored under plain `cargo test`: they need a PostgreSQL server, which
//! `scripts/test` starts and names in `SOWING_TEST_POSTGRES` before running them with
//! `--ignored`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

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

/// One request on a fresh connection: the status and the JSON body.
fn request(server: &Server, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    request_as(server, method, path, None, body)
}

/// The player key every request presents: the one-screen games the test creates are its own
/// (docs/api.md, "Owners").
const PLAYER_KEY: &str = "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a";

/// [`request`] with a seat's token (header `X-Seat-Token`) when given.
fn request_as(
    server: &Server,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let seat = token.map_or(String::new(), |t| format!("X-Seat-Token: {t}\r\n"));
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         {seat}X-Player-Key: {PLAYER_KEY}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        server.addr,
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
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
    let (status, view) = request(&one, "POST", "/api/games", Some(json!({"game": "ayoayo"})));
    assert_eq!(status, 201, "{view}");
    let id = view["id"].as_i64().unwrap();
    let game = format!("/api/games/{id}");
    let moves = format!("{game}/moves");
    // Each server keeps the game in memory from here on.
    assert_eq!(request(&two, "GET", &game, None).0, 200);
    let mut ply = 0;
    for round in 0..6 {
        let (mover, other) = if round % 2 == 0 {
            (&one, &two)
        } else {
            (&two, &one)
        };
        let (_, view) = request(mover, "GET", &game, None);
        assert_eq!(view["ply"], ply, "{view}");
        let mv = view["state"]["legal"][0].as_str().unwrap().to_owned();
        let (status, answer) =
            request(mover, "POST", &moves, Some(json!({"move": mv, "ply": ply})));
        assert_eq!(status, 200, "{answer}");
        ply += 1;
        // The other server serves the move at once, and refuses the stale ply.
        let (_, view) = request(other, "GET", &game, None);
        assert_eq!(view["ply"], ply, "round {round}: {view}");
        assert_eq!(view["history"].as_array().map(Vec::len), Some(ply));
        let (status, answer) = request(
            other,
            "POST",
            &moves,
            Some(json!({"move": mv, "ply": ply - 1})),
        );
        assert_eq!(status, 409, "{answer}");
    }
    // An undo through one is seen through the other.
    let (status, answer) = request(
        &two,
        "POST",
        &format!("{game}/undo"),
        Some(json!({"ply": ply})),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["game"]["ply"], ply - 1, "{answer}");
    let (_, view) = request(&one, "GET", &game, None);
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
        &one,
        "POST",
        "/api/live",
        Some(
            json!({"game": "hoyito-ii", "lobby": true, "name": "Ana", "clock": {"base_ms": 600000}}),
        ),
    );
    assert_eq!(status, 201, "{seated}");
    assert_eq!(seated["seat"], "south");
    let id = seated["live"]["id"].as_i64().unwrap();
    let south = seated["token"].as_str().unwrap().to_owned();
    let (_, lobby) = request(&two, "GET", "/api/lobby", None);
    assert!(
        lobby.to_string().contains(&format!("\"id\":{id}")),
        "{lobby}"
    );
    let (status, accepted) = request(
        &two,
        "POST",
        &format!("/api/live/{id}/accept"),
        Some(json!({"name": "Ben"})),
    );
    assert_eq!(status, 200, "{accepted}");
    assert_eq!(accepted["seat"], "north");
    let north = accepted["token"].as_str().unwrap().to_owned();
    // Through one, the seat Ben took is seen taken, with his name.
    let (_, view) = request(&one, "GET", &format!("/api/live/{id}"), None);
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
        let (_, view) = request(&one, "GET", &format!("/api/live/{id}"), None);
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
        let (status, answer) = request_as(
            mover,
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
        let (status, answer) = request_as(
            other,
            "POST",
            &format!("/api/live/{id}/moves"),
            Some(next),
            Some(json!({"move": mv, "ply": ply - 1})),
        );
        assert_eq!(status, 409, "{answer}");
    }
    // A resignation through two ends the game on a socket of one.
    let (status, answer) = request_as(
        &two,
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
