//! The JSON API's routes (documented in `docs/api.md`): each handler reads its request,
//! asks the games service, and turns the answer or the [`GameError`] into HTTP. Every error
//! is a status with a JSON body `{"error": "..."}`.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use sowing::{Record, Rules, Variant};
use sowing_engine::PlayerSpec;

use crate::engine::EngineError;
use crate::online_routes::ClientAddr;
use crate::responses::{
    EngineReply, ErrorBody, GameList, MoveAnswer, MoveReplay, Played, Undone, View,
};
use crate::service::{EngineRequest, GameError, Games, HUMAN};
use crate::store::StoreError;
use crate::{catalog, matches};

type Shared = State<Arc<Games>>;

/// An API error: a status and a message, sent as `{"error": message}` (with `legal` for an
/// illegal move).
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    body: ErrorBody,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            body: ErrorBody {
                error: message.into(),
                legal: None,
            },
        }
    }

    pub(crate) fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }
}

impl From<GameError> for ApiError {
    fn from(error: GameError) -> ApiError {
        let status = match &error {
            GameError::UnknownGame(_)
            | GameError::UnknownMatch(_)
            | GameError::NoSuchMove { .. } => StatusCode::NOT_FOUND,
            GameError::Illegal { .. } | GameError::Engine(EngineError::UnknownPlayer(_)) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            GameError::StalePly { .. }
            | GameError::NothingToUndo
            | GameError::NothingToRedo
            | GameError::GameOver
            | GameError::RoundNotOver
            | GameError::MatchOver
            | GameError::RoundClosed
            | GameError::ChangedMeanwhile
            | GameError::RoundTaken
            | GameError::InMatch
            | GameError::Store(StoreError::Conflict(_)) => StatusCode::CONFLICT,
            GameError::Forbidden(_) => StatusCode::FORBIDDEN,
            GameError::Limited(_) => StatusCode::TOO_MANY_REQUESTS,
            GameError::Refused(_) => StatusCode::UNPROCESSABLE_ENTITY,
            GameError::Conflict(_) => StatusCode::CONFLICT,
            GameError::NotLive(_) => StatusCode::NOT_FOUND,
            GameError::Engine(EngineError::Busy) => StatusCode::TOO_MANY_REQUESTS,
            GameError::Engine(EngineError::NoAnswer) => StatusCode::SERVICE_UNAVAILABLE,
            GameError::Store(_) | GameError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let message = error.to_string();
        let legal = match error {
            GameError::Illegal { legal, .. } => Some(legal),
            _ => None,
        };
        ApiError {
            status,
            body: ErrorBody {
                error: message,
                legal,
            },
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body)).into_response()
    }
}

pub(crate) type ApiResult<T> = Result<T, ApiError>;

/// A JSON request body; an empty body reads as `{}`. A body not sent as
/// `application/json` is a 415 (a page on another site can send text/plain without asking
/// first), malformed JSON a 400, JSON of the wrong shape a 422, an oversized body a 413, each
/// with a JSON error body.
pub struct JsonBody<T>(pub T);

/// Whether `headers` declare a JSON body (`application/json`, parameters allowed).
fn declares_json(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"))
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let json = declares_json(req.headers());
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|e| ApiError::new(e.status(), e.body_text()))?;
        let text: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else if !json {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "request body: send it as JSON, with Content-Type: application/json",
            ));
        } else {
            &bytes
        };
        // Every body is an object: anything else is named as JSON names it, not as the
        // struct it was meant for.
        if text.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
            return Err(match serde_json::from_slice::<serde_json::Value>(text) {
                Err(e) => ApiError::new(StatusCode::BAD_REQUEST, format!("request body: {e}")),
                Ok(value) => ApiError::bad(format!(
                    "request body: expected a JSON object, not {}",
                    json_kind(&value)
                )),
            });
        }
        serde_json::from_slice(text).map(JsonBody).map_err(|e| {
            let status = match e.classify() {
                serde_json::error::Category::Data => StatusCode::UNPROCESSABLE_ENTITY,
                _ => StatusCode::BAD_REQUEST,
            };
            ApiError::new(status, format!("request body: {e}"))
        })
    }
}

fn json_kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// Path parameters; one that cannot be read (not UTF-8 once percent-decoded) is a 400 with
/// a JSON error body, like everything else.
pub struct PathParams<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for PathParams<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        Path::<T>::from_request_parts(parts, state)
            .await
            .map(|Path(value)| PathParams(value))
            .map_err(|e| {
                ApiError::new(
                    StatusCode::BAD_REQUEST,
                    format!("the address cannot be read: {}", e.body_text()),
                )
            })
    }
}

/// Query parameters; malformed ones are a 400 with a JSON error body, like everything else.
pub struct QueryParams<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for QueryParams<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        Query::<T>::from_request_parts(parts, state)
            .await
            .map(|Query(value)| QueryParams(value))
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.body_text()))
    }
}

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
        .route("/games/{id}/record", get(export_record))
        .route("/records", post(import_record))
        .route("/matches/{id}/next", post(next_round))
        .route("/rules", get(catalog::serve))
        .merge(crate::online_routes::routes())
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
        .map_err(|e| ApiError::bad(format!("player {text:?}: {e}")))
}

/// `POST /api/games`: a new game or match.
#[derive(Deserialize)]
pub struct NewGame {
    pub(crate) game: String,
    pub(crate) pits: Option<usize>,
    /// The rule options by JSON field (`casa_rows` …); any other field is refused by
    /// [`catalog::set_options`].
    #[serde(flatten)]
    pub(crate) options: serde_json::Map<String, serde_json::Value>,
    pub(crate) south: Option<String>,
    pub(crate) north: Option<String>,
    /// Hoyito III only: play a match of this many rounds (H3.3).
    pub(crate) rounds: Option<u32>,
}

/// The rules a new game asks for, and its rounds if it is a match: each option set through
/// [`Rules::set_option`], which refuses one the game does not have.
pub(crate) fn new_game_rules(new: &NewGame) -> ApiResult<(Rules, Option<u32>)> {
    let variant: Variant = new
        .game
        .parse()
        .map_err(|e| ApiError::bad(format!("{e}")))?;
    let mut rules = Rules::new(variant);
    if let Some(pits) = new.pits {
        rules = rules
            .with_pits(pits)
            .map_err(|e| ApiError::bad(e.to_string()))?;
    }
    let given = new
        .options
        .iter()
        .map(|(field, value)| (field.as_str(), value));
    catalog::set_options(&mut rules, given, new.rounds.is_some()).map_err(ApiError::bad)?;
    if let Some(rounds) = new.rounds {
        if !catalog::plays_matches(variant) {
            return Err(ApiError::bad(format!("rounds does not apply to {variant}")));
        }
        if !(1..=matches::MAX_ROUNDS).contains(&rounds) {
            return Err(ApiError::bad(format!(
                "rounds: {rounds} (expected 1 to {})",
                matches::MAX_ROUNDS
            )));
        }
    }
    Ok((rules, new.rounds))
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
    JsonBody(new): JsonBody<NewGame>,
) -> ApiResult<(StatusCode, Json<View>)> {
    may_create_plain(&games, address)?;
    let (rules, rounds) = new_game_rules(&new)?;
    let south = check_player(new.south)?;
    let north = check_player(new.north)?;
    let view = match rounds {
        None => games.create(rules, south, north).await?,
        Some(rounds) => games.create_match(rules, rounds, south, north).await?,
    };
    Ok((StatusCode::CREATED, Json(view)))
}

#[derive(Deserialize)]
struct ListQuery {
    limit: Option<usize>,
}

async fn list_games(
    State(games): Shared,
    QueryParams(query): QueryParams<ListQuery>,
) -> ApiResult<Json<GameList>> {
    let limit = query.limit.unwrap_or(100).min(1000);
    Ok(Json(GameList {
        games: games.list(limit).await?,
    }))
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
    PathParams(id): PathParams<String>,
) -> ApiResult<StatusCode> {
    games.delete(&id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/games/{id}/moves`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    #[serde(rename = "move")]
    mv: String,
    /// The number of moves the client saw; a mismatch is refused (409).
    ply: Option<usize>,
}

/// `?brief=true` answers a move with the state alone.
#[derive(Deserialize)]
struct MoveQuery {
    #[serde(default)]
    brief: bool,
}

async fn play_move(
    State(games): Shared,
    PathParams(id): PathParams<String>,
    QueryParams(query): QueryParams<MoveQuery>,
    JsonBody(body): JsonBody<MoveBody>,
) -> ApiResult<Json<MoveAnswer>> {
    Ok(Json(
        games.play(&id, &body.mv, body.ply, query.brief).await?,
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
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<PlyBody>,
) -> ApiResult<Json<Undone>> {
    Ok(Json(Undone {
        game: games.undo(&id, body.ply).await?,
    }))
}

async fn redo(
    State(games): Shared,
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<PlyBody>,
) -> ApiResult<Json<Played>> {
    Ok(Json(games.redo(&id, body.ply).await?))
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
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<EngineBody>,
) -> ApiResult<Json<EngineReply>> {
    let request = EngineRequest {
        time: Duration::from_millis(body.time_ms.unwrap_or(1000).clamp(1, 30_000)),
        play: body.play,
        engine: body.engine,
        ply: body.ply,
    };
    Ok(Json(games.engine(&id, request).await?))
}

/// `GET /api/games/{id}/tables`: the exact value of each legal move, from the endgame tables.
async fn table_values(
    State(games): Shared,
    PathParams(id): PathParams<String>,
) -> ApiResult<Json<crate::tables_view::TableValues>> {
    Ok(Json(games.table_values(&id).await?))
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
}

async fn import_record(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    JsonBody(body): JsonBody<RecordBody>,
) -> ApiResult<(StatusCode, Json<View>)> {
    may_create_plain(&games, address)?;
    let record = Record::parse(&body.record).map_err(|e| ApiError::bad(e.to_string()))?;
    let south = check_player(body.south)?;
    let north = check_player(body.north)?;
    let view = games.import(record.game, south, north).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

async fn next_round(
    State(games): Shared,
    PathParams(id): PathParams<String>,
) -> ApiResult<(StatusCode, Json<View>)> {
    Ok((StatusCode::CREATED, Json(games.next_round(&id).await?)))
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
