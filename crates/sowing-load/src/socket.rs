//! A live game's socket as a client sees it (docs/api.md, "The socket"): connect, say
//! hello with a seat's token or none, then read the server's messages, typed. Only the
//! fields the load generator checks are read.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use sowing_web::messages::ClientMessage;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A position in short, as in a move's `before` and `after`.
#[derive(Deserialize, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub pits: Vec<u8>,
    pub captured: [u8; 2],
    pub to_move: String,
}

impl Snapshot {
    /// The snapshot of a position of the rules crate.
    pub fn of(position: &sowing::Position) -> Snapshot {
        let captured = position.captured();
        Snapshot {
            pits: position.pits().to_vec(),
            captured: [captured.south, captured.north],
            to_move: position.to_move().name().to_owned(),
        }
    }
}

/// One move as the socket sends it.
#[derive(Deserialize, Debug)]
pub struct MoveMessage {
    pub ply: usize,
    #[serde(rename = "move")]
    pub mv: String,
    pub side: String,
    pub after: Snapshot,
}

/// The live status, in part.
#[derive(Deserialize, Debug)]
pub struct Status {
    pub ply: usize,
    pub result: Option<serde_json::Value>,
}

/// The game's state in a view, in part.
#[derive(Deserialize, Debug)]
pub struct GameState {
    pub pits: Vec<u8>,
    pub captured: [u8; 2],
    pub to_move: String,
}

/// A move of the game view's history, in part.
#[derive(Deserialize, Debug)]
pub struct PastMove {
    #[serde(rename = "move")]
    pub mv: String,
}

/// The game view, in part.
#[derive(Deserialize, Debug)]
pub struct GameView {
    pub state: GameState,
    /// Every move so far, for a client that catches up after a reconnect.
    #[serde(default)]
    pub history: Vec<PastMove>,
}

/// The server's messages, as the server defines them, with the parts read here.
pub type ServerMessage = sowing_web::messages::ServerMessage<Status, GameView, MoveMessage>;

/// An open, greeted socket of one live game.
pub struct LiveSocket {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Waiting longer than this for a message is an error.
    timeout: Duration,
    /// For messages: which socket this is.
    pub name: String,
}

impl LiveSocket {
    /// Connects to game `id`'s socket on `addr`, says hello with `token` (none to watch),
    /// and reads the first message, which must be the `state`.
    pub async fn open(
        addr: SocketAddr,
        id: i64,
        token: Option<&str>,
        timeout: Duration,
        name: String,
    ) -> Result<(LiveSocket, ServerMessage), String> {
        let url = format!("ws://{addr}/api/live/{id}/socket");
        let (ws, _) = tokio::time::timeout(
            timeout,
            tokio_tungstenite::connect_async_with_config(url.as_str(), None, true),
        )
        .await
        .map_err(|_| format!("{name}: no connection to {url} within {timeout:?}"))?
        .map_err(|e| format!("{name}: {url}: {e}"))?;
        let mut socket = LiveSocket { ws, timeout, name };
        let hello = ClientMessage::Hello {
            token: token.map(str::to_owned),
        };
        let hello = serde_json::to_string(&hello).map_err(|e| e.to_string())?;
        socket
            .ws
            .send(Message::text(hello))
            .await
            .map_err(|e| format!("{}: hello: {e}", socket.name))?;
        let first = socket.next().await?;
        if !matches!(first, ServerMessage::State { .. }) {
            return Err(format!(
                "{}: the first message is not the state: {first:?}",
                socket.name
            ));
        }
        Ok((socket, first))
    }

    /// The next message from the server; a close, a broken socket, a message that is not
    /// understood or a silence longer than the timeout is an error.
    pub async fn next(&mut self) -> Result<ServerMessage, String> {
        // One deadline for the message, whatever comes before it: the server's pings (every
        // 20 s) must not keep a socket that never hears of a move looking alive.
        let deadline = tokio::time::Instant::now() + self.timeout;
        loop {
            let message = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .map_err(|_| format!("{}: no message for {:?}", self.name, self.timeout))?;
            match message {
                Some(Ok(Message::Text(text))) => {
                    return serde_json::from_str(text.as_str())
                        .map_err(|e| format!("{}: message {text}: {e}", self.name))
                }
                // Pings are answered by the library as it reads.
                Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => {}
                Some(Ok(Message::Binary(_))) => {
                    return Err(format!("{}: a binary message", self.name))
                }
                Some(Ok(Message::Close(frame))) => {
                    return Err(format!("{}: closed by the server ({frame:?})", self.name))
                }
                Some(Err(e)) => return Err(format!("{}: {e}", self.name)),
                None => return Err(format!("{}: the connection ended", self.name)),
            }
        }
    }

    /// Closes the socket politely (errors ignored: we are done with it).
    pub async fn close(mut self) {
        let _ = tokio::time::timeout(self.timeout, self.ws.close(None)).await;
    }
}
