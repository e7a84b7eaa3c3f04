//! `--seek`: players seeking a game at once (docs/api.md, "Quick pairing"), spread over
//! the servers given. Each places a seek with a player key of its own and, unless it was
//! paired at once, holds the seek's socket until it says `paired`. The time from sending
//! the seek to knowing the game is each player's sample. Afterwards every player must be
//! paired exactly once: each game holds two of them, one seat each, and is live on the
//! server with both seats taken.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sowing_web::messages::{ClientMessage, SeekMessage};
use tokio_tungstenite::tungstenite::Message;

use crate::http::Connection;
use crate::stats::summary;
use crate::Target;

/// What one player saw: the game and seat, and how long it took.
struct Pairing {
    game: i64,
    seat: String,
    took: Duration,
}

/// Player `i`'s key: 32 hex digits of its own.
fn player_key(seed: u64, i: usize) -> String {
    format!("{:016x}{:016x}", seed, i)
}

/// Waits on seek `seek`'s socket on `addr` for its pairing.
async fn hold(
    addr: SocketAddr,
    seek: i64,
    token: &str,
    timeout: Duration,
) -> Result<(i64, String), String> {
    let url = format!("ws://{addr}/api/seeks/{seek}/socket");
    let (mut ws, _) = tokio::time::timeout(timeout, tokio_tungstenite::connect_async(url.as_str()))
        .await
        .map_err(|_| format!("seek {seek}: no connection within {timeout:?}"))?
        .map_err(|e| format!("seek {seek}: {url}: {e}"))?;
    let hello = ClientMessage::Hello {
        token: Some(token.to_owned()),
    };
    let hello = serde_json::to_string(&hello).map_err(|e| e.to_string())?;
    ws.send(Message::text(hello))
        .await
        .map_err(|e| format!("seek {seek}: hello: {e}"))?;
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        let message = tokio::time::timeout_at(deadline, ws.next())
            .await
            .map_err(|_| format!("seek {seek}: not paired within {timeout:?}"))?;
        let text = match message {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => continue,
            other => return Err(format!("seek {seek}: the socket ended: {other:?}")),
        };
        match serde_json::from_str::<SeekMessage>(text.as_str()) {
            Ok(SeekMessage::Waiting { .. } | SeekMessage::Pong) => {}
            Ok(SeekMessage::Paired { game, seat }) => {
                let _ = ws.close(None).await;
                return Ok((game, seat));
            }
            Ok(SeekMessage::Error { error }) => return Err(format!("seek {seek}: {error}")),
            Err(e) => return Err(format!("seek {seek}: message {text}: {e}")),
        }
    }
}

/// One player: seeks through `addr` and waits to be paired.
async fn seek_once(
    addr: SocketAddr,
    key: String,
    body: Value,
    timeout: Duration,
) -> Result<Pairing, String> {
    let mut http = Connection::open(addr).await?;
    let start = Instant::now();
    let (status, placed) = http
        .request(
            "POST",
            "/api/seeks",
            Some(&body),
            Some(crate::http::Key::Player(&key)),
        )
        .await?;
    if status != 201 {
        return Err(format!("POST /api/seeks: {status} {placed}"));
    }
    let (game, seat) = match placed["game"].as_i64() {
        Some(game) => (game, placed["seat"].as_str().unwrap_or("").to_owned()),
        None => {
            let seek = placed["seek"].as_i64().ok_or("a seek without an id")?;
            let token = placed["token"].as_str().ok_or("a seek without a token")?;
            hold(addr, seek, token, timeout).await?
        }
    };
    Ok(Pairing {
        game,
        seat,
        took: start.elapsed(),
    })
}

/// Runs `players` players seeking the same game and clock at once; whether every one was
/// paired exactly once with no error.
pub async fn run(
    target: Arc<Target>,
    players: usize,
    game: &str,
    clock: Option<(u64, u64)>,
    seed: u64,
    timeout: Duration,
) -> Result<bool, String> {
    let clock = clock
        .map(|(base_ms, increment_ms)| json!({"base_ms": base_ms, "increment_ms": increment_ms}));
    let body = json!({"game": game, "clock": clock});
    println!(
        "sow-load: {players} players seeking {game} at once through {}",
        target.servers()
    );
    let start = Instant::now();
    let tasks: Vec<_> = (0..players)
        .map(|i| {
            let addr = target.addrs[i % target.addrs.len()];
            tokio::spawn(seek_once(addr, player_key(seed, i), body.clone(), timeout))
        })
        .collect();
    let mut errors = Vec::new();
    let mut samples = Vec::new();
    let mut seats_by_game: HashMap<i64, Vec<String>> = HashMap::new();
    for task in tasks {
        match task.await.map_err(|e| e.to_string())? {
            Ok(p) => {
                samples.push(p.took);
                seats_by_game.entry(p.game).or_default().push(p.seat);
            }
            Err(e) => errors.push(e),
        }
    }
    let elapsed = start.elapsed();
    let mut wrong = Vec::new();
    for (game, seats) in &mut seats_by_game {
        seats.sort();
        if seats != &["north", "south"] {
            wrong.push(format!("game {game}: seats {seats:?}"));
        }
    }
    // Each game live on a server (the other one than most of its players used), both seats
    // taken.
    let mut http = Connection::open(target.addrs[target.addrs.len() - 1]).await?;
    for game in seats_by_game.keys() {
        let (status, view) = http
            .request("GET", &format!("/api/live/{game}"), None, None)
            .await?;
        let seats = &view["live"]["seats"];
        if status != 200 || seats["south"]["taken"] != true || seats["north"]["taken"] != true {
            wrong.push(format!("game {game}: {status} {seats}"));
        }
    }
    println!("players:       {players} in {:.1} s", elapsed.as_secs_f64());
    println!("seek to pair:  {}", summary(samples.clone()));
    println!(
        "games:         {} for {} players paired",
        seats_by_game.len(),
        samples.len()
    );
    println!("errors:        {}", errors.len() + wrong.len());
    for e in errors.iter().chain(&wrong).take(10) {
        println!("  {e}");
    }
    Ok(errors.is_empty()
        && wrong.is_empty()
        && samples.len() == players
        && seats_by_game.len() * 2 == players)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_player_has_a_key_of_its_own_of_32_hex_digits() {
        let (a, b) = (player_key(1, 0), player_key(1, 1));
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
    }
}
