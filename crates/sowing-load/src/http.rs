//! One keep-alive HTTP/1.1 connection: just enough client for JSON requests to our own
//! server, so that a thousand games cost a thousand connections and no connection pool.

use std::net::SocketAddr;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// What a request presents to act: a live seat's token, or the player key that owns a
/// one-screen game (docs/api.md, "Owners").
#[derive(Clone, Copy)]
pub enum Key<'a> {
    /// `X-Seat-Token`.
    Seat(&'a str),
    /// `X-Player-Key`.
    Player(&'a str),
}

/// A request body of the server's own types (`sowing_web::requests`) as JSON.
pub fn json_body(request: &impl serde::Serialize) -> Value {
    serde_json::to_value(request).expect("a request body is plain data, always JSON")
}

/// A connection to one server, kept open across requests.
pub struct Connection {
    reader: BufReader<TcpStream>,
    host: String,
}

impl Connection {
    /// Connects to `addr` (Nagle off: each request is one small write).
    pub async fn open(addr: SocketAddr) -> Result<Connection, String> {
        let stream = TcpStream::connect(addr)
            .await
            .map_err(|e| format!("connect to {addr}: {e}"))?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        Ok(Connection {
            reader: BufReader::new(stream),
            host: addr.to_string(),
        })
    }

    /// Sends a request with an optional JSON body and key; the status and the body as JSON
    /// (`null` when it is not JSON).
    pub async fn request(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        key: Option<Key<'_>>,
    ) -> Result<(u16, Value), String> {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let token = match key {
            Some(Key::Seat(token)) => format!("X-Seat-Token: {token}\r\n"),
            Some(Key::Player(key)) => format!("X-Player-Key: {key}\r\n"),
            None => String::new(),
        };
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\n{token}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            self.host,
            body.len()
        );
        let io = |e: std::io::Error| format!("{method} {path}: {e}");
        let stream = self.reader.get_mut();
        stream.write_all(head.as_bytes()).await.map_err(io)?;
        stream.write_all(body.as_bytes()).await.map_err(io)?;
        let mut line = String::new();
        self.reader.read_line(&mut line).await.map_err(io)?;
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("{method} {path}: bad status line {line:?}"))?;
        let mut length = 0usize;
        loop {
            line.clear();
            self.reader.read_line(&mut line).await.map_err(io)?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value
                        .trim()
                        .parse()
                        .map_err(|_| format!("{method} {path}: bad content-length"))?;
                }
            }
        }
        let mut buf = vec![0; length];
        self.reader.read_exact(&mut buf).await.map_err(io)?;
        let value = serde_json::from_slice(&buf).unwrap_or(Value::Null);
        Ok((status, value))
    }
}
