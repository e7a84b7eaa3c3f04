//! The puzzle routes (docs/api.md, "Puzzles"): `GET /api/puzzles/next`,
//! `GET /api/puzzles/daily`, `GET /api/puzzles/{id}` and `POST /api/puzzles/{id}/result`.
//! Each is rated per address; the result, which changes ratings, is refused to other
//! sites' pages by the router's origin check.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use sowing::Variant;
use sowing_puzzles::themes::Theme;

use crate::ratings::Rating;
use crate::services::games::{shorten, Games};
use crate::services::puzzles::Asked;
use crate::store::MAX_EXCLUDED;
use crate::transport::error::{ApiError, ApiResult};
use crate::transport::extract::{ClientAddr, JsonBody, PathParams, QueryParams, Session};
use crate::views::puzzles::{day_text, PuzzleAnswer, PuzzleView, ResultAnswer};

type Shared = State<Arc<Games>>;

/// The puzzle routes, to be merged into the API.
pub(crate) fn routes() -> Router<Arc<Games>> {
    Router::new()
        .route("/puzzles/next", get(next))
        .route("/puzzles/daily", get(daily))
        .route("/puzzles/{id}", get(one))
        .route("/puzzles/{id}/result", post(result))
}

/// The ratings a request may name: beyond them no player or puzzle is.
const RATINGS: std::ops::RangeInclusive<f64> = 0.0..=4000.0;

fn limited() -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "too many requests from your address: wait a few seconds and try again",
    )
}

fn unprocessable(message: String) -> ApiError {
    ApiError::coded(StatusCode::UNPROCESSABLE_ENTITY, "unprocessable", message)
}

fn variant(name: &str) -> ApiResult<String> {
    name.parse::<Variant>()
        .map(|v| v.name().to_owned())
        .map_err(|_| {
            unprocessable(format!(
                "game {}: not hoyito-ii, hoyito-iii or ayoayo",
                shorten(name)
            ))
        })
}

/// Theme codes separated by commas, each known.
fn themes(text: Option<&str>) -> ApiResult<Vec<String>> {
    let Some(text) = text.filter(|t| !t.is_empty()) else {
        return Ok(Vec::new());
    };
    text.split(',')
        .map(|code| match Theme::from_code(code) {
            Some(theme) => Ok(theme.code().to_owned()),
            None => Err(unprocessable(format!(
                "theme {}: not one of {}",
                shorten(code),
                Theme::ALL.map(Theme::code).join(", ")
            ))),
        })
        .collect()
}

/// Puzzle ids separated by commas, at most [`MAX_EXCLUDED`].
fn ids(text: Option<&str>) -> ApiResult<Vec<i64>> {
    let Some(text) = text.filter(|t| !t.is_empty()) else {
        return Ok(Vec::new());
    };
    let ids: Vec<i64> = text
        .split(',')
        .map(|id| {
            id.parse::<i64>()
                .map_err(|_| unprocessable(format!("exclude: {} is not a puzzle id", shorten(id))))
        })
        .collect::<ApiResult<_>>()?;
    if ids.len() > MAX_EXCLUDED {
        return Err(unprocessable(format!(
            "exclude: {} ids, more than {MAX_EXCLUDED}",
            ids.len()
        )));
    }
    Ok(ids)
}

fn answer(asked: Option<Asked>, what: &str) -> ApiResult<Json<PuzzleAnswer>> {
    let asked = asked.ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no puzzle {what} yet: the server mines them once it has endgame tables"),
        )
    })?;
    let puzzle = PuzzleView::of(&asked.puzzle).ok_or_else(|| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("puzzle {} no longer reads", asked.puzzle.id),
        )
    })?;
    Ok(Json(PuzzleAnswer {
        puzzle,
        player: asked.player.map(Into::into),
        daily: asked.day.map(day_text),
    }))
}

/// `GET /api/puzzles/next?game=G&rating=R&themes=a,b&exclude=1,2`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NextQuery {
    game: String,
    rating: Option<f64>,
    themes: Option<String>,
    exclude: Option<String>,
}

async fn next(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    session: Session,
    QueryParams(query): QueryParams<NextQuery>,
) -> ApiResult<Json<PuzzleAnswer>> {
    if !games.limiter.may_act(address) {
        return Err(limited());
    }
    let variant = variant(&query.game)?;
    if let Some(rating) = query.rating.filter(|r| !RATINGS.contains(r)) {
        return Err(unprocessable(format!("rating {rating}: not within 0–4000")));
    }
    let themes = themes(query.themes.as_deref())?;
    let exclude = ids(query.exclude.as_deref())?;
    let account = session.account.map(|a| a.id);
    let asked = games
        .next_puzzle(variant, query.rating, themes, exclude, account)
        .await?;
    answer(asked, "fits")
}

/// `GET /api/puzzles/daily?game=G`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DailyQuery {
    game: String,
}

async fn daily(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    session: Session,
    QueryParams(query): QueryParams<DailyQuery>,
) -> ApiResult<Json<PuzzleAnswer>> {
    if !games.limiter.may_act(address) {
        return Err(limited());
    }
    let variant = variant(&query.game)?;
    let asked = games
        .daily_puzzle(variant, session.account.map(|a| a.id))
        .await?;
    answer(asked, "of this game")
}

fn puzzle_id(text: &str) -> ApiResult<i64> {
    text.parse::<i64>().map_err(|_| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("unknown puzzle {}", shorten(text)),
        )
    })
}

async fn one(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    PathParams(id): PathParams<String>,
) -> ApiResult<Json<PuzzleAnswer>> {
    if !games.limiter.may_act(address) {
        return Err(limited());
    }
    let row = games.puzzle(puzzle_id(&id)?).await?;
    let asked = row.map(|puzzle| Asked {
        puzzle,
        player: None,
        day: None,
    });
    answer(asked, &format!("with id {}", shorten(&id)))
}

/// `POST /api/puzzles/{id}/result` with `{"solved": true, "rating": {…}}`: `rating` is an
/// anonymous player's own (the page's), used only when no one is signed in.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultBody {
    solved: bool,
    rating: Option<RatingBody>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RatingBody {
    rating: f64,
    deviation: f64,
    volatility: f64,
}

impl RatingBody {
    fn checked(&self) -> ApiResult<Rating> {
        let ok = RATINGS.contains(&self.rating)
            && (1.0..=350.0).contains(&self.deviation)
            && (0.0..=1.0).contains(&self.volatility)
            && self.volatility > 0.0;
        if !ok {
            return Err(unprocessable(
                "rating: the rating within 0–4000, the deviation 1–350 and the volatility \
                 above 0 and at most 1"
                    .to_owned(),
            ));
        }
        Ok(Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        })
    }
}

async fn result(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    session: Session,
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<ResultBody>,
) -> ApiResult<Json<ResultAnswer>> {
    if !games.limiter.may_act(address) {
        return Err(limited());
    }
    let id = puzzle_id(&id)?;
    let anonymous = match &body.rating {
        Some(rating) => rating.checked()?,
        None => Rating::default(),
    };
    let outcome = games
        .puzzle_result(id, session.account.map(|a| a.id), anonymous, body.solved)
        .await?
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("unknown puzzle {id}")))?;
    Ok(Json(outcome.into()))
}
