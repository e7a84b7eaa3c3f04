//! The routes of games between two seats (`/api/live…`, `/api/lobby`) and their socket
//! (docs/api.md, "Play a friend"). A seat's token comes in the `X-Seat-Token` header (or
//! `Authorization: Bearer …`), or in the socket's first message: never in an address that
//! a log would keep.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use axum::{Json, Router};
use futures_util::SinkExt;
use serde::{Deserialize, Serialize};
use sowing::Side;

use crate::clock::LiveClock;
use crate::limits::SocketPermit;
use crate::services::accounts::hidden_or_reordering;
use crate::services::games::{GameError, Games};
use crate::services::live::{NewLive, Offer, SeatHolder, Update};
use crate::transport::error::{ApiError, ApiResult};
use crate::transport::extract::{
    ClientAddr, Holder, JsonBody, NoBody, PathParams, QueryParams, SeatToken, Session, SessionToken,
};
use crate::transport::new_game::new_game_rules;
use crate::views::games::{MoveReplay, View};
use crate::views::live::{Challenge, LiveMoved, LiveStatus, LiveView, Seated};
use crate::views::messages::{ClientMessage, ServerMessage};
use crate::views::requests::{ClockRequest, LiveMoveRequest, NewGameRequest, NewLiveRequest};

type Shared = State<Arc<Games>>;

/// The routes, to be merged into the API's.
pub(crate) fn routes() -> Router<Arc<Games>> {
    Router::new()
        .route("/live", post(create))
        .route("/lobby", get(lobby))
        .route("/live/{id}", get(view))
        .route("/live/{id}/accept", post(accept))
        .route("/live/{id}/claim", post(claim))
        .route("/live/{id}/moves", post(play))
        .route("/live/{id}/resign", act(Act::Resign))
        .route("/live/{id}/berserk", act(Act::Berserk))
        .route("/live/{id}/draw", act(Act::Offer(Offer::Draw)))
        .route("/live/{id}/takeback", act(Act::Offer(Offer::Takeback)))
        .route("/live/{id}/rematch", act(Act::Offer(Offer::Rematch)))
        .route("/live/{id}/decline", act(Act::Decline))
        .route("/live/{id}/say", post(say))
        .route("/live/{id}/socket", get(socket))
        .layer(DefaultBodyLimit::max(LIVE_BODY_LIMIT))
}

/// The largest live request body ([`crate::limits::AbuseLimits::body_bytes`]'s default).
pub(crate) const LIVE_BODY_LIMIT: usize = 4096;

/// The longest clock accepted: three hours a side; the shortest: a tenth of a second.
const CLOCK_MS: std::ops::RangeInclusive<i64> = 100..=3 * 3600 * 1000;
/// The correspondence clocks offered: days for each move.
const DAYS_PER_MOVE: [i64; 6] = [1, 2, 3, 5, 7, 14];
/// The largest increment: one minute.
const INCREMENT_MS: std::ops::RangeInclusive<i64> = 0..=60_000;

/// A name as given: trimmed, at most `max` characters, no control, invisible or reordering
/// characters; empty is none. The page shows it escaped.
pub(crate) fn check_name(name: Option<String>, max: usize) -> ApiResult<Option<String>> {
    let Some(name) = name.map(|n| n.trim().to_owned()).filter(|n| !n.is_empty()) else {
        return Ok(None);
    };
    if name.chars().count() > max {
        return Err(ApiError::bad(format!(
            "name: {} characters (at most {max})",
            name.chars().count()
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(ApiError::bad("name: control characters are not allowed"));
    }
    if let Some(c) = name.chars().find(|&c| hidden_or_reordering(c)) {
        return Err(ApiError::bad(format!(
            "name: invisible or direction-changing characters are not allowed (U+{:04X})",
            u32::from(c)
        )));
    }
    Ok(Some(name))
}

/// A time control as asked for: none (unlimited), or within [`CLOCK_MS`] and
/// [`INCREMENT_MS`].
pub(crate) fn check_clock(clock: Option<ClockRequest>) -> ApiResult<Option<LiveClock>> {
    let Some(c) = clock else { return Ok(None) };
    if !CLOCK_MS.contains(&c.base_ms) {
        return Err(ApiError::bad(format!(
            "clock.base_ms: {} (expected {} to {})",
            c.base_ms,
            CLOCK_MS.start(),
            CLOCK_MS.end()
        )));
    }
    if !INCREMENT_MS.contains(&c.increment_ms) {
        return Err(ApiError::bad(format!(
            "clock.increment_ms: {} (expected {} to {})",
            c.increment_ms,
            INCREMENT_MS.start(),
            INCREMENT_MS.end()
        )));
    }
    Ok(Some(LiveClock::new(c.base_ms, c.increment_ms)))
}

/// A game's time as a request gives it: a clock, days per move (correspondence), or
/// neither (unlimited).
pub(crate) fn check_time(
    clock: Option<ClockRequest>,
    days_per_move: Option<i64>,
) -> ApiResult<Option<LiveClock>> {
    match (days_per_move, clock) {
        (Some(_), Some(_)) => Err(ApiError::bad(
            "clock and days_per_move: a game has one or the other",
        )),
        (Some(days), None) if DAYS_PER_MOVE.contains(&days) => {
            Ok(Some(LiveClock::days_per_move(days)))
        }
        (Some(days), None) => Err(ApiError::bad(format!(
            "days_per_move: {days} (expected one of 1, 2, 3, 5, 7, 14)"
        ))),
        (None, clock) => check_clock(clock),
    }
}

pub(crate) fn limited(message: &str) -> ApiError {
    ApiError::new(StatusCode::TOO_MANY_REQUESTS, message)
}

async fn create(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    key: crate::owners::PlayerKey,
    session: Session,
    JsonBody(body): JsonBody<NewLiveRequest>,
) -> ApiResult<(StatusCode, Json<Seated>)> {
    if body.rated {
        if body.rounds.is_some() {
            return Err(ApiError::bad(
                "rated: only single games are rated, not matches of rounds",
            ));
        }
        games.signed_in_as(session.account.clone())?;
    }
    if !games.limiter.may_create(address) {
        return Err(limited(
            "too many games created from your address: wait a minute and try again",
        ));
    }
    let new = NewGameRequest {
        game: body.game,
        pits: body.pits,
        options: body.options,
        south: None,
        north: None,
        rounds: body.rounds,
    };
    // The one-screen matches' checks: Hoyito III only, 1 to 99 rounds.
    let (rules, rounds) = new_game_rules(&new)?;
    let seat = match body.seat.as_deref() {
        None | Some("south") => Side::South,
        Some("north") => Side::North,
        Some(other) => {
            return Err(ApiError::bad(format!(
                "seat: {} (expected south or north)",
                crate::services::games::shorten(other)
            )))
        }
    };
    let clock = check_time(body.clock, body.days_per_move)?;
    let name = check_name(body.name, games.limiter.limits().name_chars)?;
    let seated = games
        .create_live(
            rules,
            NewLive {
                seat,
                clock,
                lobby: body.lobby,
                name,
                address: address.to_string(),
                rounds,
                owner: session
                    .account
                    .as_ref()
                    .map(|a| a.owner)
                    .or_else(|| key.hash()),
                account: session.account.map(|a| (a.id, a.name)),
                rated: body.rated,
            },
        )
        .await?;
    Ok((StatusCode::CREATED, Json(seated)))
}

#[derive(Serialize)]
struct Lobby {
    challenges: Vec<Challenge>,
}

/// `GET /api/lobby?min_rating=1400&max_rating=1700`: only challenges whose challenger's
/// rating is in the range (when either is given).
#[derive(Deserialize)]
struct LobbyQuery {
    min_rating: Option<f64>,
    max_rating: Option<f64>,
}

async fn lobby(
    State(games): Shared,
    QueryParams(query): QueryParams<LobbyQuery>,
) -> ApiResult<Json<Lobby>> {
    let range = match (query.min_rating, query.max_rating) {
        (None, None) => None,
        (low, high) => Some((low.unwrap_or(f64::MIN), high.unwrap_or(f64::MAX))),
    };
    Ok(Json(Lobby {
        challenges: games.lobby(range).await?,
    }))
}

async fn view(
    State(games): Shared,
    PathParams(id): PathParams<String>,
) -> ApiResult<Json<LiveView>> {
    Ok(Json(games.live_view(&id).await?))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct AcceptBody {
    name: Option<String>,
}

async fn accept(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    session: Session,
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<AcceptBody>,
) -> ApiResult<Json<Seated>> {
    if !games.limiter.may_create(address) {
        return Err(limited(
            "too many games joined from your address: wait a minute and try again",
        ));
    }
    let name = check_name(body.name, games.limiter.limits().name_chars)?;
    let account = session.account.map(|a| (a.id, a.name));
    Ok(Json(games.accept(&id, name, account).await?))
}

/// `POST /api/live/{id}/claim`: the signed-in account takes the seat the token holds.
async fn claim(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    SeatToken(token): SeatToken,
    session: Session,
    PathParams(id): PathParams<String>,
    JsonBody(NoBody {}): JsonBody<NoBody>,
) -> ApiResult<Json<LiveView>> {
    may_act(&games, address)?;
    let account = games.signed_in_as(session.account)?;
    Ok(Json(
        games
            .claim(&id, token.as_deref(), (account.id, account.name))
            .await?,
    ))
}

/// Counts an act of `address` (a move, an offer, an answer to a challenge), refused past
/// the rate.
pub(crate) fn may_act(games: &Games, address: IpAddr) -> ApiResult<()> {
    if games.limiter.may_act(address) {
        Ok(())
    } else {
        Err(limited(
            "too many moves, offers and answers from your address: slow down",
        ))
    }
}

async fn play(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    Holder(holder): Holder,
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<LiveMoveRequest>,
) -> ApiResult<Json<LiveMoved>> {
    may_act(&games, address)?;
    Ok(Json(
        games.live_move(&id, &holder, &body.mv, body.ply).await?,
    ))
}

/// `POST /api/live/{id}/say`: a quick phrase.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SayRequest {
    phrase: String,
}

async fn say(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    Holder(holder): Holder,
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<SayRequest>,
) -> ApiResult<Json<LiveView>> {
    may_act(&games, address)?;
    Ok(Json(games.say(&id, &holder, &body.phrase).await?))
}

/// An act of a seat that takes no body: resigning, an offer, or declining the opponent's.
#[derive(Clone, Copy)]
enum Act {
    Resign,
    Berserk,
    Offer(Offer),
    Decline,
}

/// The route of `act` (`POST /api/live/{id}/resign`, `…/berserk`, `…/draw`, `…/takeback`, `…/rematch`,
/// `…/decline`): the rate limit, then the act for the seat the token holds.
fn act(act: Act) -> MethodRouter<Arc<Games>> {
    post(
        move |State(games): Shared,
              ClientAddr(address): ClientAddr,
              Holder(holder): Holder,
              PathParams(id): PathParams<String>,
              JsonBody(NoBody {}): JsonBody<NoBody>| async move {
            may_act(&games, address)?;
            let view = match act {
                Act::Resign => games.resign(&id, &holder).await?,
                Act::Berserk => games.berserk(&id, &holder).await?,
                Act::Offer(what) => games.offer(&id, &holder, what).await?,
                Act::Decline => games.decline(&id, &holder).await?,
            };
            Ok::<_, ApiError>(Json(view))
        },
    )
}

// ---------------------------------------------------------------- the socket

/// How long a new socket may take to say hello.
pub(crate) const HELLO_WITHIN: Duration = Duration::from_secs(10);
/// A ping this often keeps idle connections (and proxies) awake.
pub(crate) const PING_EVERY: Duration = Duration::from_secs(20);

/// A socket's read buffer: the messages in are at most 1 KiB.
const SOCKET_READ_BUFFER: usize = 4096;

/// A message the server sends: its views, borrowed.
type Outgoing<'a> = ServerMessage<&'a LiveStatus, &'a View, &'a MoveReplay>;

fn error_message(error: impl Into<String>) -> Outgoing<'static> {
    ServerMessage::Error {
        error: error.into(),
    }
}

/// A socket's upgrade for `address`, with its permit: refused in JSON when the request is
/// no WebSocket upgrade (a plain GET; `section` names the docs/api.md section), or when the
/// address has too many sockets open; sized for the small messages clients send.
pub(crate) fn socket_upgrade(
    games: &Games,
    address: IpAddr,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    section: &str,
) -> ApiResult<(WebSocketUpgrade, SocketPermit)> {
    let upgrade = upgrade.map_err(|e| {
        ApiError::new(
            e.status(),
            format!(
                "this address is a WebSocket (docs/api.md, \"{section}\"): {}",
                e.body_text()
            ),
        )
    })?;
    let Some(permit) = games.limiter.socket(address) else {
        return Err(limited(
            "too many live connections from your address: close some pages",
        ));
    };
    let max = games.limiter.limits().message_bytes;
    let upgrade = upgrade
        .max_message_size(max)
        .max_frame_size(max)
        // Messages in are small (a hello, a ping): tungstenite's default 128 KiB read buffer
        // is allocated whole for each socket and zeroed before every read.
        .read_buffer_size(SOCKET_READ_BUFFER);
    Ok((upgrade, permit))
}

/// `GET /api/live/{id}/socket`: the live game's updates (docs/api.md, "The socket").
async fn socket(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    SessionToken(session): SessionToken,
    PathParams(id): PathParams<String>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    let (upgrade, permit) = socket_upgrade(&games, address, upgrade, "The socket")?;
    // The game must exist and be live before the upgrade: a plain 404 otherwise.
    let game = games.live_view(&id).await?.live.id;
    Ok(upgrade
        .on_upgrade(move |socket| run_socket(socket, games, game, session, permit))
        .into_response())
}

pub(crate) async fn send_json(socket: &mut WebSocket, value: &impl Serialize) -> bool {
    send_all_json(socket, std::slice::from_ref(&value)).await
}

/// Sends `values` as one write to the network (one flush for all their frames).
async fn send_all_json(socket: &mut WebSocket, values: &[impl Serialize]) -> bool {
    for value in values {
        let Ok(text) = serde_json::to_string(value) else {
            return false;
        };
        if socket.feed(Message::text(text)).await.is_err() {
            return false;
        }
    }
    socket.flush().await.is_ok()
}

async fn refuse(mut socket: WebSocket, message: String) {
    let _ = send_json(&mut socket, &error_message(message)).await;
    let _ = socket.send(Message::Close(None)).await;
}

/// What the socket has sent so far.
struct Sent {
    ply: usize,
    takebacks: u32,
    /// The next round it announced, in a match.
    next_round: Option<i64>,
    /// When the running side's flag falls, if a clock runs, or the game is aborted for want
    /// of a first move, whichever comes first.
    flag: Option<tokio::time::Instant>,
}

impl Sent {
    fn saw(&mut self, status: &LiveStatus) {
        self.ply = status.ply;
        self.takebacks = status.takebacks;
        let after =
            |ms: i64| tokio::time::Instant::now() + Duration::from_millis(ms.max(0) as u64 + 20);
        let clock = status.clock.as_ref().filter(|_| status.result.is_none());
        let flag = clock.and_then(|c| {
            Some(after(match c.running? {
                "south" => c.south_ms,
                _ => c.north_ms,
            }))
        });
        let abort = clock
            .zip(status.first_move_by_ms)
            .map(|(c, by)| after(by - c.now_ms));
        self.flag = flag.into_iter().chain(abort).min();
    }
}

/// Tells the socket once that the match's next round started (`status.next_round`), so
/// that its page follows there.
async fn announce_next_round(socket: &mut WebSocket, sent: &mut Sent, status: &LiveStatus) -> bool {
    match status.next_round {
        Some(game) if sent.next_round != Some(game) => {
            sent.next_round = Some(game);
            send_json(socket, &Outgoing::NextRound { game }).await
        }
        _ => true,
    }
}

async fn send_state(socket: &mut WebSocket, seat: Option<Side>, view: &LiveView) -> bool {
    let state = Outgoing::State {
        seat: seat.map(|side| side.name().to_owned()),
        live: &view.live,
        game: &view.game,
    };
    send_json(socket, &state).await
}

/// A live game's socket: the seat is the hello's token's, or the one the upgrade's session
/// account holds; else a spectator's.
async fn run_socket(
    mut socket: WebSocket,
    games: Arc<Games>,
    game: i64,
    session: Option<String>,
    permit: SocketPermit,
) {
    let _open = games.ops().socket_opened(permit);
    let mut stopping = games.ops().stopping();
    let hello = tokio::time::timeout(HELLO_WITHIN, socket.recv()).await;
    let token = match hello {
        Ok(Some(Ok(Message::Text(text)))) => {
            match serde_json::from_str::<ClientMessage>(text.as_str()) {
                Ok(ClientMessage::Hello { token }) => token,
                _ => {
                    return refuse(
                        socket,
                        "the first message must be {\"type\": \"hello\", \"token\": …}".into(),
                    )
                    .await
                }
            }
        }
        _ => return refuse(socket, "no hello in time".into()).await,
    };
    let id = game.to_string();
    let holder = SeatHolder { token, session };
    let seat = match games.seat(&id, &holder).await {
        Ok(seat) => seat,
        Err(e) => return refuse(socket, e.to_string()).await,
    };
    let mut subscription = games.hub().subscribe(game, seat.is_none());
    let mut sent = Sent {
        ply: 0,
        takebacks: 0,
        next_round: None,
        flag: None,
    };
    match games.live_view(&id).await {
        Ok(view) => {
            sent.saw(&view.live);
            if !send_state(&mut socket, seat, &view).await
                || !announce_next_round(&mut socket, &mut sent, &view.live).await
            {
                return;
            }
        }
        Err(e) => return refuse(socket, e.to_string()).await,
    }
    let mut messages_in = games.limiter.message_rate();
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    loop {
        let flag = sent.flag;
        tokio::select! {
            _ = async { drop(stopping.wait_for(|&stop| stop).await) } => {
                // The server stops: the page reconnects (to this server restarted, or to
                // another behind the same address).
                let close = CloseFrame { code: close_code::RESTART, reason: "server restarting".into() };
                let _ = socket.send(Message::Close(Some(close))).await;
                return;
            }
            _ = subscription.changed() => {
                let ok = match games.catch_up(game, sent.ply, sent.takebacks).await {
                    Ok(Update::Full(view)) => {
                        sent.saw(&view.live);
                        send_state(&mut socket, seat, &view).await
                            && announce_next_round(&mut socket, &mut sent, &view.live).await
                    }
                    Ok(Update::Moves(moves, status)) => {
                        let mut messages: Vec<Outgoing> =
                            moves.iter().map(|mv| Outgoing::Move { mv }).collect();
                        messages.push(Outgoing::Status { live: &status });
                        sent.saw(&status);
                        send_all_json(&mut socket, &messages).await
                            && announce_next_round(&mut socket, &mut sent, &status).await
                    }
                    Err(GameError::UnknownGame(_)) => {
                        return refuse(socket, format!("game {game} was deleted")).await
                    }
                    // A failure of the store now: the next notice (or the page's own
                    // reconnect) tries again.
                    Err(e) => send_json(&mut socket, &error_message(e.to_string())).await,
                };
                if !ok {
                    return;
                }
            }
            _ = async { tokio::time::sleep_until(flag.expect("guarded")).await }, if flag.is_some() => {
                sent.flag = None;
                // Settles the flag; its notice then brings the result here and everywhere.
                let _ = games.live_view(&id).await;
            }
            message = socket.recv() => {
                match message {
                    Some(Ok(Message::Text(_))) if !messages_in.allows() => {
                        return refuse(socket, "too many messages on this socket: slow down and reconnect".into()).await
                    }
                    Some(Ok(Message::Text(text))) => {
                        let answer = match serde_json::from_str::<ClientMessage>(text.as_str()) {
                            Ok(ClientMessage::Ping {}) => Outgoing::Pong,
                            Ok(ClientMessage::Hello { .. }) => error_message("hello is sent once"),
                            Err(e) => error_message(format!("message: {e}")),
                        };
                        if !send_json(&mut socket, &answer).await {
                            return;
                        }
                    }
                    Some(Ok(Message::Binary(_))) => {
                        return refuse(socket, "messages are JSON text".into()).await;
                    }
                    Some(Ok(_)) => {}
                    // Closed, or broken (an oversized message among others).
                    Some(Err(_)) | None => return,
                }
            }
            _ = ping.tick() => {
                if socket.send(Message::Ping(Default::default())).await.is_err() {
                    return;
                }
            }
        }
    }
}
