//! One keep-alive HTTP/1.1 connection per [`Connection`], through hyper's one-connection
//! client: a thousand games cost a thousand connections and no connection pool.

use std::net::SocketAddr;

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::{self, SendRequest};
use hyper::header::{CONTENT_TYPE, HOST};
use hyper::Request;
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::net::TcpStream;

/// What a request presents to act: a live seat's token, or the player key that owns a
/// one-screen game (docs/api.md, "Owners").
#[derive(Clone, Copy)]
pub enum Key<'a> {
    /// `X-Seat-Token`.
    Seat(&'a str),
    /// `X-Player-Key`.
    Player(&'a str),
    /// A signed-in account's session token (the `sowing_session` cookie).
    Session(&'a str),
}

/// A request body of the server's own types (`sowing_web::requests`) as JSON.
pub fn json_body(request: &impl serde::Serialize) -> Value {
    serde_json::to_value(request).expect("a request body is plain data, always JSON")
}

/// A connection to one server, kept open across requests.
pub struct Connection {
    sender: SendRequest<Full<Bytes>>,
    host: String,
}

impl Connection {
    /// Connects to `addr` (Nagle off: each request is one small write). The connection's
    /// reading and writing runs on a task of its own, which ends when the server closes it or
    /// this `Connection` is dropped.
    pub async fn open(addr: SocketAddr) -> Result<Connection, String> {
        let stream = TcpStream::connect(addr)
            .await
            .map_err(|e| format!("connect to {addr}: {e}"))?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        let (sender, connection) = http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| format!("connect to {addr}: {e}"))?;
        // Its error, if any, reaches the next request through `sender`.
        tokio::spawn(connection);
        Ok(Connection {
            sender,
            host: addr.to_string(),
        })
    }

    /// Sends a request with an optional JSON body and key; the status and the body as JSON
    /// (`null` when it is not JSON). A broken connection is an `Err`.
    pub async fn request(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        key: Option<Key<'_>>,
    ) -> Result<(u16, Value), String> {
        let (status, value, _) = self.request_cookie(method, path, body, key).await?;
        Ok((status, value))
    }

    /// [`Connection::request`], with the session token the answer's `Set-Cookie` sets, if
    /// any (signing up or in).
    pub async fn request_cookie(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        key: Option<Key<'_>>,
    ) -> Result<(u16, Value, Option<String>), String> {
        let failed = |e: &dyn std::fmt::Display| format!("{method} {path}: {e}");
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(HOST, &self.host)
            .header(CONTENT_TYPE, "application/json");
        request = match key {
            Some(Key::Seat(token)) => request.header("x-seat-token", token),
            Some(Key::Player(key)) => request.header("x-player-key", key),
            Some(Key::Session(token)) => {
                request.header("cookie", format!("sowing_session={token}"))
            }
            None => request,
        };
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let request = request
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| failed(&e))?;
        self.sender.ready().await.map_err(|e| failed(&e))?;
        let response = self
            .sender
            .send_request(request)
            .await
            .map_err(|e| failed(&e))?;
        let status = response.status().as_u16();
        let session = response
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find_map(|v| v.strip_prefix("sowing_session="))
            .and_then(|rest| rest.split(';').next())
            .map(str::to_owned);
        let bytes = response
            .into_body()
            .collect()
            .await
            .map_err(|e| failed(&e))?
            .to_bytes();
        let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Ok((status, value, session))
    }
}
