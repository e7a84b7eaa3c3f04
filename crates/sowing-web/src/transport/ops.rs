//! The routes of running in production: `GET /healthz`, `GET /metrics`, and the layer that
//! times and logs each request ([`crate::ops`] keeps the metrics and the graceful stop).

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::ops::{prometheus, REQUESTS};
use crate::services::games::Games;

/// `GET /healthz`: 200 `ok` when the store answers a read, else 503 with why (for a load
/// balancer or systemd's watchdog).
pub(crate) async fn healthz(State(games): State<Arc<Games>>) -> Response {
    let store = games.store.clone();
    let read =
        tokio::task::spawn_blocking(move || crate::store::off_runtime(|| store.version(0))).await;
    let text = |status, body: String| {
        (
            status,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            body,
        )
            .into_response()
    };
    match read {
        Ok(Ok(_)) => text(StatusCode::OK, "ok\n".to_owned()),
        Ok(Err(e)) => {
            e.count();
            text(StatusCode::SERVICE_UNAVAILABLE, format!("{e}\n"))
        }
        Err(e) => text(StatusCode::SERVICE_UNAVAILABLE, format!("{e}\n")),
    }
}

/// `GET /metrics`: the Prometheus text format.
pub(crate) async fn metrics_page() -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        prometheus().render(),
    )
        .into_response()
}

/// Times each request and logs it by its route's pattern (`/api/live/{id}/moves`), never
/// its path or headers: a failure (5xx) as a warning, the rest at debug level.
pub(crate) async fn track(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().as_str().to_owned();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |p| p.as_str().to_owned());
    let response = next.run(request).await;
    let status = response.status();
    let seconds = started.elapsed().as_secs_f64();
    metrics::histogram!(REQUESTS, "method" => method.clone(), "route" => route.clone(),
        "status" => status.as_u16().to_string())
    .record(seconds);
    if status.is_server_error() {
        tracing::warn!(%method, %route, status = status.as_u16(), seconds, "request failed");
    } else {
        tracing::debug!(%method, %route, status = status.as_u16(), seconds, "request");
    }
    response
}
