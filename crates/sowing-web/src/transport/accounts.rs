//! The routes of accounts (`/api/account…`, `/api/accounts/{name}`, `/api/leaderboard`;
//! docs/api.md, "Accounts"). The session's token travels only in an HttpOnly cookie
//! (SameSite=Lax, Secure behind TLS: `sow serve --secure-cookies`), never in an address or a
//! log; passwords and recovery codes only in JSON bodies, which pages of other sites cannot send
//! (`transport::security` refuses their requests, and bodies must be `application/json`).

use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use crate::owners::PlayerKey;
use crate::services::accounts::{SignedIn, SESSION_LIFETIME};
use crate::services::games::Games;
use crate::transport::error::ApiResult;
use crate::transport::extract::{
    ClientAddr, JsonBody, NoBody, PathParams, QueryParams, Session, SESSION_COOKIE,
};
use crate::views::accounts::{AccountView, LeaderboardView, ProfileView, SessionView};

type Shared = State<Arc<Games>>;

/// The routes, to be merged into the API's.
pub(crate) fn routes() -> Router<Arc<Games>> {
    Router::new()
        .route("/account", get(me))
        .route("/account/turns", get(turns))
        .route("/account/signup", post(sign_up))
        .route("/account/signin", post(sign_in))
        .route("/account/signout", post(sign_out))
        .route("/account/signout-everywhere", post(sign_out_everywhere))
        .route("/account/password", post(change_password))
        .route("/account/recover", post(recover))
        .route("/account/recovery-codes", post(renew_recovery_codes))
        .route("/accounts/{name}", get(profile).put(edit_profile))
        .route("/leaderboard", get(leaderboard))
}

/// The `Set-Cookie` of a session: `token`, or an expired empty one to remove it.
fn session_cookie(games: &Games, token: Option<&str>) -> HeaderValue {
    let (value, age) = match token {
        Some(token) => (token, SESSION_LIFETIME.as_secs()),
        None => ("", 0),
    };
    let secure = if games.secure_cookies() {
        "; Secure"
    } else {
        ""
    };
    let text =
        format!("{SESSION_COOKIE}={value}; Path=/; Max-Age={age}; HttpOnly; SameSite=Lax{secure}");
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// An answer that sets (or removes) the session cookie.
fn with_cookie(
    games: &Games,
    token: Option<&str>,
    status: StatusCode,
    body: SessionView,
) -> Response {
    let mut response = (status, Json(body)).into_response();
    let headers = response.headers_mut();
    headers.insert(header::SET_COOKIE, session_cookie(games, token));
    // Answers that set a session are never kept by a cache.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn signed_in(games: &Games, signed: SignedIn, status: StatusCode) -> Response {
    with_cookie(
        games,
        Some(&signed.token),
        status,
        SessionView {
            account: Some(AccountView::of(&signed.account)),
            moved: Some(signed.moved),
            ended: signed.ended,
            recovery_codes: (!signed.recovery_codes.is_empty()).then_some(signed.recovery_codes),
        },
    )
}

/// `GET /api/account`: the signed-in account, or null.
async fn me(session: Session) -> Json<SessionView> {
    Json(SessionView {
        account: session.account.as_ref().map(AccountView::of),
        moved: None,
        ended: None,
        recovery_codes: None,
    })
}

#[derive(Serialize)]
struct Turns {
    games: Vec<crate::views::live::Turn>,
}

/// `GET /api/account/turns`: the live games waiting for the signed-in player's move.
async fn turns(State(games): State<Arc<Games>>, session: Session) -> ApiResult<Json<Turns>> {
    let account = games.signed_in_as(session.account)?;
    Ok(Json(Turns {
        games: games.turns(account.id).await?,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

async fn sign_up(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    key: PlayerKey,
    JsonBody(body): JsonBody<Credentials>,
) -> ApiResult<Response> {
    let signed = games
        .sign_up(address, body.name.trim(), &body.password, key.hash())
        .await?;
    Ok(signed_in(&games, signed, StatusCode::CREATED))
}

async fn sign_in(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    key: PlayerKey,
    JsonBody(body): JsonBody<Credentials>,
) -> ApiResult<Response> {
    let signed = games
        .sign_in(address, body.name.trim(), &body.password, key.hash())
        .await?;
    Ok(signed_in(&games, signed, StatusCode::OK))
}

/// `POST /api/account/signout`: this session ends (nothing to end is no error).
async fn sign_out(
    State(games): Shared,
    session: Session,
    JsonBody(NoBody {}): JsonBody<NoBody>,
) -> ApiResult<Response> {
    if let Some(token) = &session.token {
        games.sign_out(token).await?;
    }
    Ok(with_cookie(
        &games,
        None,
        StatusCode::OK,
        SessionView {
            account: None,
            moved: None,
            ended: None,
            recovery_codes: None,
        },
    ))
}

/// `POST /api/account/signout-everywhere`: every session of the account ends.
async fn sign_out_everywhere(
    State(games): Shared,
    session: Session,
    JsonBody(NoBody {}): JsonBody<NoBody>,
) -> ApiResult<Response> {
    let account = games.signed_in_as(session.account)?;
    let ended = games.sign_out_everywhere(&account).await?;
    Ok(with_cookie(
        &games,
        None,
        StatusCode::OK,
        SessionView {
            account: None,
            moved: None,
            ended: Some(ended),
            recovery_codes: None,
        },
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewPassword {
    password: String,
    new_password: String,
}

/// `POST /api/account/password`: a new password; the other sessions end.
async fn change_password(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    session: Session,
    JsonBody(body): JsonBody<NewPassword>,
) -> ApiResult<Json<SessionView>> {
    let account = games.signed_in_as(session.account)?;
    let token = session.token.unwrap_or_default();
    let ended = games
        .change_password(
            address,
            &account,
            &token,
            &body.password,
            &body.new_password,
        )
        .await?;
    Ok(Json(SessionView {
        account: Some(AccountView::of(&account)),
        moved: None,
        ended: Some(ended),
        recovery_codes: None,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Recovery {
    name: String,
    code: String,
    new_password: String,
}

/// `POST /api/account/recover`: a forgotten password, replaced with one recovery code; a
/// new session, and the account's others end.
async fn recover(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    key: PlayerKey,
    JsonBody(body): JsonBody<Recovery>,
) -> ApiResult<Response> {
    let signed = games
        .recover(
            address,
            body.name.trim(),
            &body.code,
            &body.new_password,
            key.hash(),
        )
        .await?;
    Ok(signed_in(&games, signed, StatusCode::OK))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Password {
    password: String,
}

/// `POST /api/account/recovery-codes`: new recovery codes (the password again, as for a new
/// password), which end the old ones; shown in this answer only.
async fn renew_recovery_codes(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    session: Session,
    JsonBody(body): JsonBody<Password>,
) -> ApiResult<Response> {
    let account = games.signed_in_as(session.account)?;
    let codes = games
        .renew_recovery_codes(address, &account, &body.password)
        .await?;
    let mut response = Json(SessionView {
        account: Some(AccountView::of(&account)),
        moved: None,
        ended: None,
        recovery_codes: Some(codes),
    })
    .into_response();
    // Codes are secrets: no cache keeps them.
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

async fn profile(
    State(games): Shared,
    PathParams(name): PathParams<String>,
) -> ApiResult<Json<ProfileView>> {
    Ok(Json(games.profile(&name).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfileEdit {
    about: String,
}

/// `PUT /api/accounts/{name}`: the profile's own account changes its text.
async fn edit_profile(
    State(games): Shared,
    session: Session,
    PathParams(name): PathParams<String>,
    JsonBody(body): JsonBody<ProfileEdit>,
) -> ApiResult<Json<ProfileView>> {
    let account = games.signed_in_as(session.account)?;
    Ok(Json(
        games.edit_profile(&account, &name, &body.about).await?,
    ))
}

#[derive(Deserialize)]
struct BoardQuery {
    game: Option<String>,
    speed: Option<String>,
}

async fn leaderboard(
    State(games): Shared,
    QueryParams(query): QueryParams<BoardQuery>,
) -> ApiResult<Json<LeaderboardView>> {
    let game = query.game.unwrap_or_else(|| "hoyito-ii".to_owned());
    let speed = query.speed.unwrap_or_else(|| "blitz".to_owned());
    Ok(Json(games.leaderboard(&game, &speed).await?))
}
