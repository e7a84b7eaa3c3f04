//! The JSON API's routes (documented in `docs/api.md`): each handler reads its request,
//! asks the games service, and turns the answer or the [`GameError`] into HTTP. Every error
//! is a status with a JSON body `{"error": "..."}`.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use sowing::Record;
use sowing_engine::PlayerSpec;

use crate::owners::{Caller, NewOwner, PlayerKey};
use crate::services::games::{shorten, EngineRequest, Games, HUMAN};
use crate::transport::error::{ApiError, ApiResult};
use crate::transport::extract::{ClientAddr, JsonBody, NoBody, PathParams, QueryParams, Session};
use crate::transport::new_game::new_game_rules;
use crate::views::analysis::AnalysisView;
use crate::views::catalog;
use crate::views::games::{EngineReply, GameList, MoveAnswer, MoveReplay, Played, Undone, View};
use crate::views::requests::{MoveRequest, NewGameRequest};

type Shared = State<Arc<Games>>;

/// The API's routes, to be nested under `/api`.
pub(crate) fn api() -> Router<Arc<Games>> {
    Router::new()
        .route("/games", get(list_games).post(create_game))
        .route("/games/{id}", get(get_game).delete(delete_game))
        .route("/games/{id}/moves", post(play_move))
        .route("/games/{id}/moves/{ply}", get(move_trace))
        .route("/games/{id}/undo", post(undo))
        .route("/games/{id}/redo", post(redo))
        .route("/games/{id}/engine", post(engine))
        .route("/games/{id}/tables", get(table_values))
        .route(
            "/games/{id}/analysis",
            get(get_analysis).post(request_analysis),
        )
        .route("/games/{id}/record", get(export_record))
        .route("/records", post(import_record))
        .route("/matches/{id}/next", post(next_round))
        .route("/rules", get(catalog::serve))
        .merge(crate::transport::live::routes())
        .merge(crate::transport::seeks::routes())
        .merge(crate::transport::challenges::routes())
        .merge(crate::transport::tournaments::routes())
        .merge(crate::transport::accounts::routes())
        .merge(crate::transport::school::routes())
        .merge(crate::transport::puzzles::routes())
        .merge(crate::transport::pocket::routes())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
}

fn check_player(text: Option<String>) -> ApiResult<String> {
    let text = text.unwrap_or_else(|| HUMAN.to_owned());
    if text == HUMAN {
        return Ok(text);
    }
    text.parse::<PlayerSpec>()
        .map(|_| text.clone())
        .map_err(|e| {
            ApiError::coded(
                StatusCode::UNPROCESSABLE_ENTITY,
                "unknown-player",
                format!("player {text:?}: {e}"),
            )
        })
}

/// A 429 when `address` created too many games against the computer lately.
fn may_create_plain(games: &Games, address: std::net::IpAddr) -> ApiResult<()> {
    if games.limiter.may_create_plain(address) {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too many games created from your address: wait a few seconds and try again",
        ))
    }
}

async fn create_game(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    key: PlayerKey,
    session: Session,
    JsonBody(new): JsonBody<NewGameRequest>,
) -> ApiResult<(StatusCode, Json<View>)> {
    may_create_plain(&games, address)?;
    let (rules, rounds) = new_game_rules(&new)?;
    let south = check_player(new.south)?;
    let north = check_player(new.north)?;
    let owner = owner_of(&key, &session);
    let mut view = match rounds {
        None => games.create(rules, south, north, owner.hash).await?,
        Some(rounds) => {
            games
                .create_match(rules, rounds, south, north, owner.hash)
                .await?
        }
    };
    view.player_key = owner.made;
    Ok((StatusCode::CREATED, Json(view)))
}

#[derive(Deserialize)]
struct ListQuery {
    limit: Option<usize>,
}

/// The owner of a game a request creates: the signed-in account, else the player key
/// presented (or one made for it).
fn owner_of(key: &PlayerKey, session: &Session) -> NewOwner {
    match &session.account {
        Some(account) => NewOwner {
            hash: account.owner,
            made: None,
        },
        None => key.owner(),
    }
}

/// `GET /api/games`: the games of the signed-in account, else of the player key presented;
/// none without either.
async fn list_games(
    State(games): Shared,
    key: PlayerKey,
    session: Session,
    QueryParams(query): QueryParams<ListQuery>,
) -> ApiResult<Json<GameList>> {
    let limit = query.limit.unwrap_or(100).min(1000);
    let account = session.account.as_ref().map(|a| a.id);
    let owner = session.account.map(|a| a.owner).or_else(|| key.hash());
    let games = match owner {
        Some(owner) => games.list(owner, account, limit).await?,
        None => Vec::new(),
    };
    Ok(Json(GameList { games }))
}

async fn get_game(
    State(games): Shared,
    PathParams(id): PathParams<String>,
) -> ApiResult<Json<View>> {
    Ok(Json(games.view(&id).await?))
}

/// `DELETE /api/games/{id}`: 204, or 409 for a round of a match.
async fn delete_game(
    State(games): Shared,
    who: Caller,
    PathParams(id): PathParams<String>,
    JsonBody(NoBody {}): JsonBody<NoBody>,
) -> ApiResult<StatusCode> {
    games.delete(&id, &who).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/games/{id}/moves`.
#[derive(Deserialize)]
struct MoveQuery {
    #[serde(default)]
    brief: bool,
}

async fn play_move(
    State(games): Shared,
    who: Caller,
    PathParams(id): PathParams<String>,
    QueryParams(query): QueryParams<MoveQuery>,
    JsonBody(body): JsonBody<MoveRequest>,
) -> ApiResult<Json<MoveAnswer>> {
    Ok(Json(
        games
            .play(&id, &body.mv, body.ply, query.brief, &who)
            .await?,
    ))
}

/// `GET /api/games/{id}/moves/{ply}`: move `ply` (from 1) again, with its trace, for
/// replaying a game with the animation.
async fn move_trace(
    State(games): Shared,
    PathParams((id, ply)): PathParams<(String, String)>,
) -> ApiResult<Json<MoveReplay>> {
    Ok(Json(games.replay_move(&id, &ply).await?))
}

/// Undo and redo take an optional expected ply.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct PlyBody {
    ply: Option<usize>,
}

async fn undo(
    State(games): Shared,
    who: Caller,
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<PlyBody>,
) -> ApiResult<Json<Undone>> {
    Ok(Json(Undone {
        game: games.undo(&id, body.ply, &who).await?,
    }))
}

async fn redo(
    State(games): Shared,
    who: Caller,
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<PlyBody>,
) -> ApiResult<Json<Played>> {
    Ok(Json(games.redo(&id, body.ply, &who).await?))
}

/// `POST /api/games/{id}/engine`: a move from the engine, played or only suggested.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct EngineBody {
    /// Thinking time in milliseconds (default 1000, at most 30000).
    time_ms: Option<u64>,
    /// Play the move (true) or only suggest it (a hint, the default).
    #[serde(default)]
    play: bool,
    /// The engine to ask; default: the side to move's player when it is a computer, else
    /// the hint engine.
    engine: Option<String>,
    /// The number of moves the client saw.
    ply: Option<usize>,
}

async fn engine(
    State(games): Shared,
    who: Caller,
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<EngineBody>,
) -> ApiResult<Json<EngineReply>> {
    let request = EngineRequest {
        time: Duration::from_millis(body.time_ms.unwrap_or(1000).clamp(1, 30_000)),
        play: body.play,
        engine: body.engine,
        ply: body.ply,
        who,
    };
    Ok(Json(games.engine(&id, request).await?))
}

/// `GET /api/games/{id}/tables`: the exact value of each legal move, from the endgame tables.
async fn table_values(
    State(games): Shared,
    PathParams(id): PathParams<String>,
) -> ApiResult<Json<crate::services::table_values::TableValues>> {
    Ok(Json(games.table_values(&id).await?))
}

/// `GET /api/games/{id}/analysis`: where the analysis after the game stands, and once
/// done the analysis.
async fn get_analysis(
    State(games): Shared,
    PathParams(id): PathParams<String>,
) -> ApiResult<Json<AnalysisView>> {
    Ok(Json(games.analysis(&id).await?))
}

/// `POST /api/games/{id}/analysis`: asks for it; 202 while it waits or runs, 200 once kept.
async fn request_analysis(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    PathParams(id): PathParams<String>,
    JsonBody(NoBody {}): JsonBody<NoBody>,
) -> ApiResult<(StatusCode, Json<AnalysisView>)> {
    let view = games.analysis(&id).await?;
    if view.status != "none" {
        return Ok((status_of(&view), Json(view)));
    }
    // Queuing one costs the server a search of every position: rated like a new game.
    may_create_plain(&games, address)?;
    let view = games.request_analysis(&id).await?;
    Ok((status_of(&view), Json(view)))
}

fn status_of(view: &AnalysisView) -> StatusCode {
    if view.status == "done" {
        StatusCode::OK
    } else {
        StatusCode::ACCEPTED
    }
}

async fn export_record(
    State(games): Shared,
    PathParams(id): PathParams<String>,
) -> ApiResult<Response> {
    let file = games.record(&id).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{}\"", file.name),
            ),
        ],
        file.text,
    )
        .into_response())
}

/// `POST /api/records`: a game from an uploaded record, to replay or continue.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordBody {
    record: String,
    south: Option<String>,
    north: Option<String>,
    /// The name the page gave a game it played offline ([`check_client_id`]); read as any
    /// JSON, so that a value of the wrong type is refused in the same words as a bad one.
    client_id: Option<serde_json::Value>,
}

/// The longest `client_id`.
const CLIENT_ID_MAX: usize = 64;

/// A `client_id` as the page may send it: 1 to [`CLIENT_ID_MAX`] characters of `A`–`Z`,
/// `a`–`z`, `0`–`9`, `_` and `-`; anything else is a 400 that says what is wrong and where.
fn check_client_id(value: Option<serde_json::Value>) -> ApiResult<Option<String>> {
    const RULE: &str = "1 to 64 characters of A-Z, a-z, 0-9, '_' and '-'";
    let bad = |why: String| ApiError::new(StatusCode::BAD_REQUEST, format!("client_id: {why}"));
    let text = match value {
        None | Some(serde_json::Value::Null) => return Ok(None),
        Some(serde_json::Value::String(text)) => text,
        Some(other) => {
            let kind = match other {
                serde_json::Value::Bool(_) => "a boolean",
                serde_json::Value::Number(_) => "a number",
                serde_json::Value::Array(_) => "an array",
                _ => "an object",
            };
            return Err(bad(format!("expected a string of {RULE}, not {kind}")));
        }
    };
    let count = text.chars().count();
    if count == 0 {
        return Err(bad(format!("empty; expected {RULE}")));
    }
    if count > CLIENT_ID_MAX {
        return Err(bad(format!(
            "{} is {count} characters long; at most {CLIENT_ID_MAX}",
            shorten(&text)
        )));
    }
    if let Some((at, c)) = text
        .chars()
        .enumerate()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-')))
    {
        return Err(bad(format!(
            "{} has {c:?} at character {}; expected {RULE}",
            shorten(&text),
            at + 1
        )));
    }
    Ok(Some(text))
}

async fn import_record(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    key: PlayerKey,
    session: Session,
    JsonBody(body): JsonBody<RecordBody>,
) -> ApiResult<(StatusCode, Json<View>)> {
    may_create_plain(&games, address)?;
    let record = Record::parse(&body.record).map_err(|e| {
        ApiError::coded(
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad-record",
            e.to_string(),
        )
    })?;
    let south = check_player(body.south)?;
    let north = check_player(body.north)?;
    let client_id = check_client_id(body.client_id)?;
    let owner = owner_of(&key, &session);
    let imported = games
        .import(record.game, south, north, owner.hash, client_id)
        .await?;
    let mut view = imported.view;
    view.player_key = owner.made;
    // The same game uploaded again (a page syncing twice): the game it made, not a new one.
    let status = if imported.created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(view)))
}

async fn next_round(
    State(games): Shared,
    who: Caller,
    PathParams(id): PathParams<String>,
    JsonBody(NoBody {}): JsonBody<NoBody>,
) -> ApiResult<(StatusCode, Json<View>)> {
    Ok((
        StatusCode::CREATED,
        Json(games.next_round(&id, &who).await?),
    ))
}

async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no such API route")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method not allowed on this route",
    )
}
