//! The school's routes (docs/api.md, "The opening explorer" and "Endgame practice"):
//! `GET /api/explorer`, `POST /api/explorer/solve` and `GET /api/practice`. Each is rated
//! per address (the explorer's answer may search, a solve costs a core for its budget), and
//! the solve, which changes the server's state, is refused to other sites' pages by the
//! router's origin check.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use sowing::{Position, Rules, Variant};

use crate::services::games::Games;
use crate::services::practice::Difficulty;
use crate::transport::error::{ApiError, ApiResult};
use crate::transport::extract::{ClientAddr, JsonBody, QueryParams};
use crate::views::school::{Explored, Practice};

type Shared = State<Arc<Games>>;

/// The longest start or line a request may name, in bytes.
const MAX_TEXT: usize = 4096;

/// The school's routes, to be merged into the API.
pub(crate) fn routes() -> Router<Arc<Games>> {
    Router::new()
        .route("/explorer", get(explore))
        .route("/explorer/solve", post(solve))
        .route("/practice", get(practice))
}

/// A line: a start (a position text; by default the start of `game`) and moves.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LineRequest {
    game: Option<String>,
    start: Option<String>,
    #[serde(default)]
    moves: String,
    /// A game of the site whose line to open (`ply`: its first moves only).
    from: Option<String>,
    ply: Option<usize>,
}

fn unprocessable(message: String) -> ApiError {
    ApiError::coded(StatusCode::UNPROCESSABLE_ENTITY, "unprocessable", message)
}

/// The rules of a game's name (with its default options).
fn rules_named(name: &str) -> ApiResult<Rules> {
    name.parse::<Variant>().map(Rules::new).map_err(|_| {
        unprocessable(format!(
            "game {}: not hoyito-ii, hoyito-iii or ayoayo",
            crate::services::games::shorten(name)
        ))
    })
}

impl LineRequest {
    /// The start's position text, and the moves.
    fn line(&self) -> ApiResult<(String, &str)> {
        if self.moves.len() > MAX_TEXT || self.start.as_ref().is_some_and(|s| s.len() > MAX_TEXT) {
            return Err(unprocessable(format!(
                "a start or a line longer than {MAX_TEXT} bytes"
            )));
        }
        let start = match (&self.start, &self.game) {
            (Some(start), None) => start.clone(),
            (None, Some(game)) => Position::start(rules_named(game)?).to_string(),
            _ => {
                return Err(unprocessable(
                    "name either the game (its start) or a start position text".to_owned(),
                ))
            }
        };
        Ok((start, self.moves.as_str()))
    }
}

fn limited() -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "too many requests from your address: wait a few seconds and try again",
    )
}

/// `GET /api/explorer?game=G|start=TEXT&moves=A+b`: every legal move after the line, its
/// value and how it was played here.
async fn explore(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    QueryParams(request): QueryParams<LineRequest>,
) -> ApiResult<Json<Explored>> {
    if !games.limiter.may_act(address) {
        return Err(limited());
    }
    if let Some(id) = &request.from {
        if request.game.is_some() || request.start.is_some() || !request.moves.is_empty() {
            return Err(unprocessable(
                "name either a game of the site (from) or a line".to_owned(),
            ));
        }
        let (start, moves) = games.game_line(id, request.ply).await?;
        return Ok(Json(games.explore(&start, &moves).await?));
    }
    let (start, moves) = request.line()?;
    Ok(Json(games.explore(&start, moves).await?))
}

/// `POST /api/explorer/solve` with `{"game"|"start", "moves"}`: queues a budgeted solve of
/// the position; 202 with the explorer's answer, which shows the solve under way.
async fn solve(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    JsonBody(request): JsonBody<LineRequest>,
) -> ApiResult<(StatusCode, Json<Explored>)> {
    // A solve costs a core for its budget: rated like a new game.
    if !games.limiter.may_create_plain(address) {
        return Err(limited());
    }
    if request.from.is_some() || request.ply.is_some() {
        return Err(unprocessable("a solve takes a start and moves".to_owned()));
    }
    let (start, moves) = request.line()?;
    games.queue_solve(&start, moves).await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(games.explore(&start, moves).await?),
    ))
}

/// `GET /api/practice?game=G&difficulty=D` or `?from=ID`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PracticeRequest {
    game: Option<String>,
    difficulty: Option<String>,
    from: Option<String>,
}

/// A position inside the tables to practise: of a finished game (`from`), or picked by
/// difficulty.
async fn practice(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    QueryParams(request): QueryParams<PracticeRequest>,
) -> ApiResult<Json<Practice>> {
    if !games.limiter.may_act(address) {
        return Err(limited());
    }
    let difficulty = match request.difficulty.as_deref() {
        None => Difficulty::Medium,
        Some(name) => Difficulty::named(name).ok_or_else(|| {
            unprocessable(format!(
                "difficulty {}: easy, medium or hard",
                crate::services::games::shorten(name)
            ))
        })?,
    };
    let rules = match (&request.game, &request.from) {
        (Some(game), None) => rules_named(game)?,
        (None, Some(_)) => Rules::new(Variant::HoyitoII),
        _ => {
            return Err(unprocessable(
                "name either the game or the game id to practise from (from)".to_owned(),
            ))
        }
    };
    Ok(Json(
        games
            .practice(rules, difficulty, request.from.as_deref())
            .await?,
    ))
}
