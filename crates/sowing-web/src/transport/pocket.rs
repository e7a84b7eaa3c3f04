//! The small endgame tables for the engine in the browser (docs/api.md, "The tables the page
//! keeps"): `GET /api/tables/{family}` lists the layers the server can send, and
//! `GET /api/tables/{family}/{seeds}` sends one as a compressed layer file. Reading only,
//! rated per address like the explorer (the first request of a layer compresses it).

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use sowing_engine::TableSet;

use crate::services::games::Games;
use crate::services::pocket_tables::{self, Listing, POCKET_SEEDS};
use crate::transport::error::{ApiError, ApiResult};
use crate::transport::extract::{ClientAddr, PathParams};

type Shared = State<Arc<Games>>;

/// The longest family name (`hoyito-iii-2x6-casa-rows=opponent-final-four=fixed` is 49).
const MAX_NAME: usize = 80;

/// The routes, to be merged into the API.
pub(crate) fn routes() -> Router<Arc<Games>> {
    Router::new()
        .route("/tables/{family}", get(list))
        .route("/tables/{family}/{seeds}", get(layer))
}

fn none(name: &str) -> ApiError {
    let shown: String = name.chars().take(24).collect();
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("no tables of {shown:?} up to {POCKET_SEEDS} seeds here"),
    )
}

fn limited() -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "too many requests from your address: wait a few seconds and try again",
    )
}

/// The server's tables, for a request from `address` about `family`: refused when the
/// address asks too often, the server has no tables or the name is too long to be one.
fn tables_for(games: &Games, address: IpAddr, family: &str) -> ApiResult<Arc<TableSet>> {
    if !games.limiter.may_act(address) {
        return Err(limited());
    }
    let set = games.table_set().ok_or_else(|| none(family))?;
    if family.len() > MAX_NAME {
        return Err(none(family));
    }
    Ok(set)
}

/// `GET /api/tables/{family}`: the layers to 12 seeds, with their sizes.
async fn list(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    PathParams(family): PathParams<String>,
) -> ApiResult<Json<Listing>> {
    let set = tables_for(&games, address, &family)?;
    let name = family.clone();
    let listing = tokio::task::spawn_blocking(move || pocket_tables::listing(&set, &name))
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?;
    listing.map(Json).ok_or_else(|| none(&family))
}

/// `GET /api/tables/{family}/{seeds}`: one compressed layer file.
async fn layer(
    State(games): Shared,
    ClientAddr(address): ClientAddr,
    PathParams((family, seeds)): PathParams<(String, usize)>,
) -> ApiResult<Response> {
    let set = tables_for(&games, address, &family)?;
    let name = family.clone();
    let file = tokio::task::spawn_blocking(move || pocket_tables::layer_file(&set, &name, seeds))
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?
        .ok_or_else(|| none(&family))?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/octet-stream"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        file.to_vec(),
    )
        .into_response())
}
