//! The notices socket of a signed-in page (docs/api.md, "Challenges"), for the tests.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::StreamExt;
use serde_json::Value;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The notices socket of the session `cookie`, sent from a page of `origin` if given; the
/// handshake's error as text when refused.
pub async fn notices_socket(
    addr: SocketAddr,
    cookie: &str,
    origin: Option<&str>,
) -> Result<Socket, String> {
    let mut request = format!("ws://{addr}/api/account/socket")
        .into_client_request()
        .unwrap();
    let headers = request.headers_mut();
    headers.insert(
        "cookie",
        format!("sowing_session={cookie}").parse().unwrap(),
    );
    if let Some(origin) = origin {
        headers.insert("origin", origin.parse().unwrap());
    }
    tokio_tungstenite::connect_async(request)
        .await
        .map(|(socket, _)| socket)
        .map_err(|e| e.to_string())
}

/// The next list of challenges the socket sends (within 5 s).
pub async fn next_challenges(socket: &mut Socket) -> Vec<Value> {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await
            .expect("a notice within 5 s")
            .unwrap()
            .unwrap();
        if let Message::Text(text) = message {
            let value: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(value["type"], "challenges", "{value}");
            return value["challenges"].as_array().unwrap().clone();
        }
    }
}
