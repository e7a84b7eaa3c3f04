//! Two `sow serve` processes on one PostgreSQL database: a move made through one is served
//! by the other, and a stale move is refused whichever server it reaches. Skipped (saying
//! so) when `SOWING_TEST_POSTGRES` is not set; `scripts/test` sets it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

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
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
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
fn fresh_database(server: &str) -> String {
    let name = format!("sowing_cli_test_{}", std::process::id());
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

#[test]
fn two_servers_on_one_postgres_database_serve_the_same_games() {
    let Some(pg) = std::env::var("SOWING_TEST_POSTGRES")
        .ok()
        .filter(|u| !u.is_empty())
    else {
        eprintln!(
            "skipped: two sow serve processes on PostgreSQL (set SOWING_TEST_POSTGRES to a \
             PostgreSQL URL; scripts/test does)"
        );
        return;
    };
    let db = fresh_database(&pg);
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
