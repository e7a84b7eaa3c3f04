//! The routes of challenges by name (docs/api.md, "Challenges"): making, listing,
//! accepting, declining and cancelling challenges, an account's refusals, and the notices
//! socket a signed-in page keeps open. Every route needs a session.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use sowing::Side;

use crate::limits::SocketPermit;
use crate::services::challenges::ChallengeAsked;
use crate::services::games::{shorten, Games};
use crate::store::AccountRow;
use crate::transport::error::{ApiError, ApiResult};
use crate::transport::extract::{ClientAddr, JsonBody, NoBody, PathParams, Session};
use crate::transport::live::{
    check_time, limited, may_act, send_json, socket_upgrade, LIVE_BODY_LIMIT, PING_EVERY,
};
use crate::transport::new_game::single_game_rules;
use crate::views::challenges::{ChallengeList, ChallengeMade, ChallengeView, RefusalsView};
use crate::views::live::Seated;
use crate::views::messages::{ClientMessage, NoticeMessage};
use crate::views::requests::{ChallengeRequest, RefusalsRequest};

type Shared = State<Arc<Games>>;

/// The routes, to be merged into the API's.
pub(crate) fn routes() -> Router<Arc<Games>> {
    Router::new()
        .route("/challenges", post(make).get(list))
        .route("/challenges/{id}/accept", post(accept))
        .route("/challenges/{id}/decline", post(decline))
        .route("/challenges/{id}", axum::routing::delete(cancel))
        .route("/account/refusals", get(refusals).put(set_refusals))
        .route("/account/socket", get(socket))
        .layer(DefaultBodyLimit::max(LIVE_BODY_LIMIT))
}

async fn make(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    session: Session,
    JsonBody(body): JsonBody<ChallengeRequest>,
) -> ApiResult<(StatusCode, Json<ChallengeMade>)> {
    let from = games.signed_in_as(session.account)?;
    if !games.limiter.may_create(address) {
        return Err(limited(
            "too many games and challenges from your address: wait a minute and try again",
        ));
    }
    let rules = single_game_rules(body.game, body.pits, body.options)?;
    let seat = match body.seat.as_deref() {
        None | Some("random") => None,
        Some("south") => Some(Side::South),
        Some("north") => Some(Side::North),
        Some(other) => {
            return Err(ApiError::bad(format!(
                "seat: {} (expected south, north or random)",
                shorten(other)
            )))
        }
    };
    let made = games
        .challenge(
            from,
            ChallengeAsked {
                to: body.to,
                rules,
                clock: check_time(body.clock, body.days_per_move)?,
                rated: body.rated,
                seat,
            },
        )
        .await?;
    Ok((StatusCode::CREATED, Json(made)))
}

async fn list(State(games): Shared, session: Session) -> ApiResult<Json<ChallengeList>> {
    let account = games.signed_in_as(session.account)?;
    Ok(Json(games.challenges(account.id).await?))
}

async fn accept(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    session: Session,
    PathParams(id): PathParams<String>,
    JsonBody(NoBody {}): JsonBody<NoBody>,
) -> ApiResult<(StatusCode, Json<Seated>)> {
    let account = games.signed_in_as(session.account)?;
    may_act(&games, address)?;
    let seated = games.accept_challenge(&id, account.id).await?;
    Ok((StatusCode::CREATED, Json(seated)))
}

async fn decline(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    session: Session,
    PathParams(id): PathParams<String>,
    JsonBody(NoBody {}): JsonBody<NoBody>,
) -> ApiResult<Json<ChallengeView>> {
    let account = games.signed_in_as(session.account)?;
    may_act(&games, address)?;
    Ok(Json(games.decline_challenge(&id, account.id).await?))
}

async fn cancel(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    session: Session,
    PathParams(id): PathParams<String>,
    JsonBody(NoBody {}): JsonBody<NoBody>,
) -> ApiResult<Json<ChallengeView>> {
    let account = games.signed_in_as(session.account)?;
    may_act(&games, address)?;
    Ok(Json(games.cancel_challenge(&id, account.id).await?))
}

async fn refusals(State(games): Shared, session: Session) -> ApiResult<Json<RefusalsView>> {
    let account = games.signed_in_as(session.account)?;
    Ok(Json(games.refusals(account.id).await?))
}

async fn set_refusals(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    session: Session,
    JsonBody(body): JsonBody<RefusalsRequest>,
) -> ApiResult<Json<RefusalsView>> {
    let account = games.signed_in_as(session.account)?;
    may_act(&games, address)?;
    Ok(Json(
        games
            .set_refusals(account.id, body.everyone, body.names)
            .await?,
    ))
}

/// `GET /api/account/socket`: the account's challenges, at once and whenever they change.
async fn socket(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    session: Session,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    let account = games.signed_in_as(session.account)?;
    let token = session.token.unwrap_or_default();
    let (upgrade, permit) = socket_upgrade(&games, address, upgrade, "Challenges")?;
    Ok(upgrade
        .on_upgrade(move |socket| run_socket(socket, games, account, token, permit))
        .into_response())
}

/// The longest a socket waits before reading its list again by itself: an open challenge
/// expires, or (much later) the session is checked again.
const READ_AGAIN: Duration = Duration::from_secs(60);

/// The account's list now, or `None` when its session ended (the socket then closes).
async fn notice(games: &Games, account: &AccountRow, token: &str) -> Option<NoticeMessage> {
    let still = games.session(token).await.ok().flatten();
    if still.is_none_or(|a| a.id != account.id) {
        return None;
    }
    match games.challenges(account.id).await {
        Ok(list) => Some(NoticeMessage::Challenges { list }),
        Err(e) => Some(NoticeMessage::Error {
            error: e.to_string(),
        }),
    }
}

/// When the socket should read its list again by itself: the next open challenge's
/// expiry, else after [`READ_AGAIN`].
fn next_read(message: &NoticeMessage) -> Duration {
    let NoticeMessage::Challenges { list } = message else {
        return READ_AGAIN;
    };
    list.challenges
        .iter()
        .filter(|c| c.state == "open")
        .map(|c| c.expires_ms - list.now_ms)
        .min()
        .map_or(READ_AGAIN, |ms| {
            Duration::from_millis(u64::try_from(ms.max(0)).unwrap_or(0) + 50).min(READ_AGAIN)
        })
}

async fn close_with(mut socket: WebSocket, error: &str) {
    let message = NoticeMessage::Error {
        error: error.to_owned(),
    };
    let _ = send_json(&mut socket, &message).await;
    let _ = socket.send(Message::Close(None)).await;
}

async fn run_socket(
    mut socket: WebSocket,
    games: Arc<Games>,
    account: AccountRow,
    token: String,
    permit: SocketPermit,
) {
    const SIGNED_OUT: &str = "the session ended: sign in again";
    let _open = games.ops().socket_opened(permit);
    let mut stopping = games.ops().stopping();
    let mut listening = games.notices.listen(account.id);
    let mut messages_in = games.limiter.message_rate();
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    loop {
        let Some(list) = notice(&games, &account, &token).await else {
            return close_with(socket, SIGNED_OUT).await;
        };
        let read_again = tokio::time::sleep(next_read(&list));
        if !send_json(&mut socket, &list).await {
            return;
        }
        tokio::pin!(read_again);
        // Until something calls for the list again.
        loop {
            tokio::select! {
                woken = listening.woken.changed() => {
                    if woken.is_err() { return; }
                    break;
                }
                () = &mut read_again => break,
                _ = async { drop(stopping.wait_for(|&stop| stop).await) } => {
                    let close = CloseFrame { code: close_code::RESTART, reason: "server restarting".into() };
                    let _ = socket.send(Message::Close(Some(close))).await;
                    return;
                }
                message = socket.recv() => {
                    let answer = match message {
                        Some(Ok(Message::Text(_))) if !messages_in.allows() => {
                            return close_with(socket, "too many messages on this socket: slow down and reconnect").await;
                        }
                        Some(Ok(Message::Text(text))) => match serde_json::from_str::<ClientMessage>(text.as_str()) {
                            Ok(ClientMessage::Ping {}) => NoticeMessage::Pong,
                            Ok(ClientMessage::Hello { .. }) => NoticeMessage::Error { error: "this socket needs no hello".into() },
                            Err(e) => NoticeMessage::Error { error: format!("message: {e}") },
                        },
                        Some(Ok(Message::Binary(_))) => {
                            return close_with(socket, "messages are JSON text").await;
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
