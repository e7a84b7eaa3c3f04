//! Riding out failures (`--through-failures`), for the chaos tests of docs/web.md: the
//! database restarting under the servers, or one of several servers killed. A move refused
//! because the database cannot be reached (503 `store-unavailable`) is sent again; a client
//! whose server is gone moves to the next one and catches up from its socket's first state.
//! Nothing is taken on trust: a move counts as committed only when the server acknowledged it
//! or a socket brought it back, and the database is checked against them afterwards.

use std::net::SocketAddr;
use std::time::Duration;

use sowing::{Game, Rules};

use crate::http::{Connection, Key};
use crate::replica::replica_of;
use crate::socket::LiveSocket;

/// How long a client waits before trying again after a failure.
const PAUSE: Duration = Duration::from_millis(250);

/// A client's servers: the one it uses, and the others to move to when it is gone.
pub struct Servers {
    addrs: Vec<SocketAddr>,
    at: usize,
}

impl Servers {
    /// The servers `addrs`, starting with `first`.
    pub fn new(addrs: &[SocketAddr], first: SocketAddr) -> Servers {
        let at = addrs.iter().position(|&a| a == first).unwrap_or(0);
        Servers {
            addrs: addrs.to_vec(),
            at,
        }
    }

    pub fn current(&self) -> SocketAddr {
        self.addrs[self.at]
    }

    /// Moves on to the next server (round the list).
    pub fn next(&mut self) -> SocketAddr {
        self.at = (self.at + 1) % self.addrs.len();
        self.current()
    }
}

/// What the clients of one game met.
#[derive(Clone, Copy, Default)]
pub struct Failures {
    /// Moves refused because the database could not be reached (sent again).
    pub refused: usize,
    /// Connections or sockets made again, to the same server or the next one.
    pub reconnects: usize,
    /// Error messages on a socket (a catch-up that failed while the database was away).
    pub socket_errors: usize,
}

impl std::ops::AddAssign for Failures {
    fn add_assign(&mut self, other: Failures) {
        self.refused += other.refused;
        self.reconnects += other.reconnects;
        self.socket_errors += other.socket_errors;
    }
}

/// What became of a move sent through failures.
pub enum Sent {
    /// The server answered 200.
    Acknowledged,
    /// An earlier try whose answer was lost was committed (the ply moved on: 409): the
    /// socket will bring it.
    AnswerLost,
}

/// Sends a seat's move. Riding out failures (`ride_out`), until the server acknowledges it
/// or says an earlier try was committed, within `timeout` in all, reconnecting (to the next
/// server) when the connection breaks; else the first answer but 200, a broken connection or
/// a silence longer than `timeout` is an error.
#[allow(clippy::too_many_arguments)]
pub async fn send_move(
    http: &mut Connection,
    servers: &mut Servers,
    path: &str,
    body: &serde_json::Value,
    token: &str,
    timeout: Duration,
    ride_out: bool,
    failures: &mut Failures,
    who: &str,
) -> Result<Sent, String> {
    let deadline = tokio::time::Instant::now() + timeout;
    let mut tried = false;
    loop {
        if tokio::time::Instant::now() >= deadline {
            return Err(format!(
                "{who}: {path}: not acknowledged within {timeout:?}"
            ));
        }
        let answer = tokio::time::timeout_at(
            deadline,
            http.request("POST", path, Some(body), Some(Key::Seat(token))),
        )
        .await;
        match answer {
            Ok(Ok((200, _))) => return Ok(Sent::Acknowledged),
            Ok(Ok((409, answer))) if tried && answer["code"] == "stale-ply" => {
                return Ok(Sent::AnswerLost)
            }
            Ok(Ok((503, answer))) if ride_out && answer["code"] == "store-unavailable" => {
                failures.refused += 1;
            }
            Ok(Ok((status, answer))) => {
                return Err(format!("{who}: {path}: {status} {answer}"));
            }
            Ok(Err(e)) if !ride_out => return Err(format!("{who}: {e}")),
            Err(_) if !ride_out => {
                return Err(format!("{who}: no answer to {path} within {timeout:?}"));
            }
            // The connection broke (its server is gone?): a new one, to the next server.
            Ok(Err(_)) | Err(_) => {
                failures.reconnects += 1;
                *http = reconnect(servers, deadline).await?;
            }
        }
        tried = true;
        tokio::time::sleep(PAUSE).await;
    }
}

/// A new connection, to the next server that takes one, before `deadline`.
async fn reconnect(
    servers: &mut Servers,
    deadline: tokio::time::Instant,
) -> Result<Connection, String> {
    loop {
        let addr = servers.next();
        match Connection::open(addr).await {
            Ok(connection) => return Ok(connection),
            Err(e) if tokio::time::Instant::now() >= deadline => return Err(e),
            Err(_) => tokio::time::sleep(PAUSE).await,
        }
    }
}

/// Opens the game's socket again, on the next server that answers, within `timeout`; the
/// socket and the replica rebuilt from its first state's history (checked against the
/// state's position).
pub async fn reopen(
    servers: &mut Servers,
    id: i64,
    token: Option<&str>,
    timeout: Duration,
    name: &str,
    rules: Rules,
) -> Result<(LiveSocket, Game), String> {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        let addr = servers.next();
        match LiveSocket::open(addr, id, token, timeout, name.to_owned()).await {
            Ok((socket, first)) => return Ok((socket, replica_of(&first, rules, name)?)),
            Err(e) if tokio::time::Instant::now() >= deadline => return Err(e),
            Err(_) => tokio::time::sleep(PAUSE).await,
        }
    }
}
