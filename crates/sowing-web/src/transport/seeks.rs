//! The routes of quick pairing (`/api/seeks…`, docs/api.md "Quick pairing"): placing a
//! seek, reading or cancelling it with its token, and the socket that holds it open and
//! brings its pairing. The token comes in the `X-Seat-Token` header or the socket's first
//! message, never in an address.

use std::sync::Arc;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;
use sowing::Side;

use crate::limits::SocketPermit;
use crate::services::games::Games;
use crate::services::pairing::{Placed, SeekAsked, Waiting};
use crate::transport::error::{ApiError, ApiResult};
use crate::transport::extract::{ClientAddr, JsonBody, NoBody, PathParams, SeatToken, Session};
use crate::transport::live::{
    check_clock, check_name, limited, send_json, socket_upgrade, HELLO_WITHIN, LIVE_BODY_LIMIT,
    PING_EVERY,
};
use crate::transport::new_game::single_game_rules;
use crate::views::messages::{ClientMessage, SeekMessage};
use crate::views::requests::SeekRequest;

type Shared = State<Arc<Games>>;

/// The routes, to be merged into the API's.
pub(crate) fn routes() -> Router<Arc<Games>> {
    Router::new()
        .route("/seeks", post(place))
        .route("/seeks/{id}", get(status).delete(cancel))
        .route("/seeks/{id}/socket", get(socket))
        .layer(DefaultBodyLimit::max(LIVE_BODY_LIMIT))
}

/// The widest rating range taken: more is no range.
const RANGE_POINTS: std::ops::RangeInclusive<f64> = 0.0..=1000.0;

async fn place(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    key: crate::owners::PlayerKey,
    session: Session,
    JsonBody(body): JsonBody<SeekRequest>,
) -> ApiResult<(StatusCode, Json<Placed>)> {
    if !games.limiter.may_create(address) {
        return Err(limited(
            "too many games and seeks from your address: wait a minute and try again",
        ));
    }
    let rules = single_game_rules(body.game, body.pits, body.options)?;
    let clock = check_clock(body.clock)?;
    let range = match body.range {
        None => None,
        Some(r) if RANGE_POINTS.contains(&r.below) && RANGE_POINTS.contains(&r.above) => {
            Some((r.below, r.above))
        }
        Some(r) => {
            return Err(ApiError::bad(format!(
                "range: below {} and above {} (each expected 0 to {})",
                r.below,
                r.above,
                RANGE_POINTS.end()
            )))
        }
    };
    let name = check_name(body.name, games.limiter.limits().name_chars)?;
    let placed = games
        .seek(SeekAsked {
            rules,
            clock,
            rated: body.rated,
            range,
            name,
            account: session.account.map(|a| (a.id, a.name, a.owner)),
            player_key: key.hash(),
            address: address.to_string(),
        })
        .await?;
    Ok((StatusCode::CREATED, Json(placed)))
}

/// A seek's state for its holder: open, or paired into `game` at `seat`.
#[derive(Serialize)]
struct SeekState {
    seek: String,
    open: bool,
    game: Option<i64>,
    seat: Option<&'static str>,
}

impl SeekState {
    fn of(seek: String, paired: Option<(i64, Side)>) -> SeekState {
        SeekState {
            seek,
            open: paired.is_none(),
            game: paired.map(|p| p.0),
            seat: paired.map(|p| p.1.name()),
        }
    }
}

async fn status(
    State(games): Shared,
    SeatToken(token): SeatToken,
    PathParams(id): PathParams<String>,
) -> ApiResult<Json<SeekState>> {
    let paired = games.seek_status(&id, token.as_deref()).await?;
    Ok(Json(SeekState::of(id, paired)))
}

/// Takes the seek out; when it was paired meanwhile, says where (200 either way).
async fn cancel(
    State(games): Shared,
    SeatToken(token): SeatToken,
    PathParams(id): PathParams<String>,
    JsonBody(NoBody {}): JsonBody<NoBody>,
) -> ApiResult<Json<SeekState>> {
    let paired = games.cancel_seek(&id, token.as_deref()).await?;
    Ok(Json(SeekState {
        open: false,
        ..SeekState::of(id, paired)
    }))
}

/// `GET /api/seeks/{id}/socket`: holds the seek open while connected and sends its
/// pairing; closing it before takes the seek out.
async fn socket(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    PathParams(id): PathParams<String>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    let (upgrade, permit) = socket_upgrade(&games, address, upgrade, "Quick pairing")?;
    Ok(upgrade
        .on_upgrade(move |socket| run_socket(socket, games, id, permit))
        .into_response())
}

async fn refuse(mut socket: WebSocket, error: String) {
    let _ = send_json(&mut socket, &SeekMessage::Error { error }).await;
    let _ = socket.send(Message::Close(None)).await;
}

async fn send_paired(socket: &mut WebSocket, game: i64, seat: Side) {
    let paired = SeekMessage::Paired {
        game,
        seat: seat.name().to_owned(),
    };
    if send_json(socket, &paired).await {
        let _ = socket.send(Message::Close(None)).await;
    }
}

async fn run_socket(mut socket: WebSocket, games: Arc<Games>, id: String, permit: SocketPermit) {
    let _open = games.ops().socket_opened(permit);
    let mut stopping = games.ops().stopping();
    let token = match tokio::time::timeout(HELLO_WITHIN, socket.recv()).await {
        Ok(Some(Ok(Message::Text(text)))) => {
            match serde_json::from_str::<ClientMessage>(text.as_str()) {
                Ok(ClientMessage::Hello { token }) => token,
                _ => {
                    let first = "the first message must be {\"type\": \"hello\", \"token\": …}";
                    return refuse(socket, first.into()).await;
                }
            }
        }
        _ => return refuse(socket, "no hello in time".into()).await,
    };
    let mut pairing = match games.wait_on_seek(&id, token.as_deref()).await {
        Ok(Waiting::Paired(game, seat)) => return send_paired(&mut socket, game, seat).await,
        Ok(Waiting::Open(pairing)) => pairing,
        Err(e) => return refuse(socket, e.to_string()).await,
    };
    let Ok(seek) = id.parse::<i64>() else { return };
    if !send_json(&mut socket, &SeekMessage::Waiting { seek }).await {
        return games.left_seek(seek).await;
    }
    let mut messages_in = games.limiter.message_rate();
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    loop {
        tokio::select! {
            paired = &mut pairing => {
                return match paired {
                    Ok((game, seat)) => send_paired(&mut socket, game, seat).await,
                    // Dropped unsent: the seek was taken out here (a cancel).
                    Err(_) => refuse(socket, format!("seek {seek} was cancelled")).await,
                };
            }
            _ = async { drop(stopping.wait_for(|&stop| stop).await) } => {
                // The server stops: the seek goes with it (swept on the stop), and the page
                // seeks again on another server or this one restarted.
                let close = CloseFrame { code: close_code::RESTART, reason: "server restarting".into() };
                let _ = socket.send(Message::Close(Some(close))).await;
                return games.left_seek(seek).await;
            }
            message = socket.recv() => {
                let answer = match message {
                    Some(Ok(Message::Text(_))) if !messages_in.allows() => {
                        refuse(socket, "too many messages on this socket: slow down and reconnect".into()).await;
                        return games.left_seek(seek).await;
                    }
                    Some(Ok(Message::Text(text))) => match serde_json::from_str::<ClientMessage>(text.as_str()) {
                        Ok(ClientMessage::Ping {}) => SeekMessage::Pong,
                        Ok(ClientMessage::Hello { .. }) => SeekMessage::Error { error: "hello is sent once".into() },
                        Err(e) => SeekMessage::Error { error: format!("message: {e}") },
                    },
                    Some(Ok(Message::Binary(_))) => {
                        refuse(socket, "messages are JSON text".into()).await;
                        return games.left_seek(seek).await;
                    }
                    Some(Ok(_)) => continue,
                    // Closed, or broken: the player left.
                    Some(Err(_)) | None => return games.left_seek(seek).await,
                };
                if !send_json(&mut socket, &answer).await {
                    return games.left_seek(seek).await;
                }
            }
            _ = ping.tick() => {
                if socket.send(Message::Ping(Default::default())).await.is_err() {
                    return games.left_seek(seek).await;
                }
            }
        }
    }
}
