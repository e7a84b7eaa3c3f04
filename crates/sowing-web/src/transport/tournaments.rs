//! The routes of tournaments (docs/api.md, "Tournaments"): the list, making one, one
//! tournament whole, joining and leaving, and the socket a tournament's page keeps open.
//! Reading needs no session; every change does.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::limits::SocketPermit;
use crate::services::games::{GameError, Games};
use crate::services::tournaments::TournamentAsked;
use crate::transport::error::{ApiError, ApiResult};
use crate::transport::extract::{ClientAddr, JsonBody, NoBody, PathParams, Session};
use crate::transport::live::{
    limited, may_act, send_json, socket_upgrade, LIVE_BODY_LIMIT, PING_EVERY,
};
use crate::transport::new_game::single_game_rules;
use crate::views::messages::{ClientMessage, TournamentMessage};
use crate::views::requests::TournamentRequest;
use crate::views::tournaments::{TournamentList, TournamentView};

type Shared = State<Arc<Games>>;

/// The routes, to be merged into the API's.
pub(crate) fn routes() -> Router<Arc<Games>> {
    Router::new()
        .route("/tournaments", post(make).get(list))
        .route("/tournaments/{id}", get(one))
        .route("/tournaments/{id}/join", post(join))
        .route("/tournaments/{id}/leave", post(leave))
        .route("/tournaments/{id}/socket", get(socket))
        .layer(DefaultBodyLimit::max(LIVE_BODY_LIMIT))
}

/// The request read as the service takes it.
///
/// # Errors
/// Unknown rules or options (400).
pub(crate) fn asked(body: TournamentRequest) -> ApiResult<TournamentAsked> {
    Ok(TournamentAsked {
        rules: single_game_rules(body.game, body.pits, body.options)?,
        name: body.name,
        kind: body.kind,
        base_ms: body.clock.base_ms,
        increment_ms: body.clock.increment_ms,
        rated: body.rated,
        starts_ms: body.starts_ms,
        minutes: body.minutes,
        rounds: body.rounds,
        min_rating: body.min_rating,
    })
}

async fn make(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    session: Session,
    JsonBody(body): JsonBody<TournamentRequest>,
) -> ApiResult<(StatusCode, Json<TournamentView>)> {
    let creator = games.signed_in_as(session.account)?;
    if !games.limiter.may_create(address) {
        return Err(limited(
            "too many games and tournaments from your address: wait a minute and try again",
        ));
    }
    let view = games.create_tournament(Some(creator), asked(body)?).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

async fn list(State(games): Shared) -> ApiResult<Json<TournamentList>> {
    Ok(Json(games.tournaments().await?))
}

async fn one(
    State(games): Shared,
    session: Session,
    PathParams(id): PathParams<String>,
) -> ApiResult<Json<TournamentView>> {
    let reader = session.account.map(|a| a.id);
    Ok(Json(games.tournament_view(&id, reader).await?))
}

async fn join(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    session: Session,
    PathParams(id): PathParams<String>,
    JsonBody(NoBody {}): JsonBody<NoBody>,
) -> ApiResult<Json<TournamentView>> {
    let account = games.signed_in_as(session.account)?;
    may_act(&games, address)?;
    Ok(Json(games.join_tournament(&id, account).await?))
}

async fn leave(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    session: Session,
    PathParams(id): PathParams<String>,
    JsonBody(NoBody {}): JsonBody<NoBody>,
) -> ApiResult<Json<TournamentView>> {
    let account = games.signed_in_as(session.account)?;
    may_act(&games, address)?;
    Ok(Json(games.leave_tournament(&id, account).await?))
}

/// How often a socket reads the tournament's version by itself: a change made by another
/// server sharing the store reaches its pages within this.
const READ_AGAIN: Duration = Duration::from_secs(1);

/// `GET /api/tournaments/{id}/socket`: the tournament whole, at once and on every change.
async fn socket(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    session: Session,
    PathParams(id): PathParams<String>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    let number: i64 = id
        .parse()
        .map_err(|_| ApiError::from(GameError::UnknownTournament(id.clone())))?;
    games.tournament_version(number).await?;
    let reader = session.account.map(|a| a.id);
    let (upgrade, permit) = socket_upgrade(&games, address, upgrade, "Tournaments")?;
    Ok(upgrade
        .on_upgrade(move |socket| run_socket(socket, games, number, reader, permit))
        .into_response())
}

async fn close_with(mut socket: WebSocket, error: String) {
    let _ = send_json(&mut socket, &TournamentMessage::Error { error }).await;
    let _ = socket.send(Message::Close(None)).await;
}

async fn run_socket(
    mut socket: WebSocket,
    games: Arc<Games>,
    id: i64,
    reader: Option<i64>,
    permit: SocketPermit,
) {
    let _open = games.ops().socket_opened(permit);
    let mut stopping = games.ops().stopping();
    let mut listening = games.tournament_watch.listen(id);
    let mut messages_in = games.limiter.message_rate();
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    let mut read_again = tokio::time::interval(READ_AGAIN);
    let mut sent = None;
    loop {
        let version = match games.tournament_version(id).await {
            Ok(version) => version,
            Err(e) => return close_with(socket, e.to_string()).await,
        };
        if sent != Some(version) {
            let view = match games.tournament_view(&id.to_string(), reader).await {
                Ok(view) => view,
                Err(e) => return close_with(socket, e.to_string()).await,
            };
            sent = Some(view.version);
            let message = TournamentMessage::Tournament {
                view: Box::new(view),
            };
            if !send_json(&mut socket, &message).await {
                return;
            }
        }
        // Until something calls for the version again.
        loop {
            tokio::select! {
                woken = listening.woken.changed() => {
                    if woken.is_err() { return; }
                    break;
                }
                _ = read_again.tick() => break,
                _ = async { drop(stopping.wait_for(|&stop| stop).await) } => {
                    let close = CloseFrame { code: close_code::RESTART, reason: "server restarting".into() };
                    let _ = socket.send(Message::Close(Some(close))).await;
                    return;
                }
                message = socket.recv() => {
                    let answer = match message {
                        Some(Ok(Message::Text(_))) if !messages_in.allows() => {
                            return close_with(socket, "too many messages on this socket: slow down and reconnect".into()).await;
                        }
                        Some(Ok(Message::Text(text))) => match serde_json::from_str::<ClientMessage>(text.as_str()) {
                            Ok(ClientMessage::Ping {}) => TournamentMessage::Pong,
                            Ok(ClientMessage::Hello { .. }) => TournamentMessage::Error { error: "this socket needs no hello".into() },
                            Err(e) => TournamentMessage::Error { error: format!("message: {e}") },
                        },
                        Some(Ok(Message::Binary(_))) => {
                            return close_with(socket, "messages are JSON text".into()).await;
                        }
                        Some(Ok(_)) => continue,
                        Some(Err(_)) | None => return,
                    };
                    if !send_json(&mut socket, &answer).await { return; }
                }
                _ = ping.tick() => {
                    if socket.send(Message::Ping(Default::default())).await.is_err() { return; }
                }
            }
        }
    }
}
