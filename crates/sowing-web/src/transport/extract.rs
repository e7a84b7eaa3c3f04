//! What the routes read from a request — its JSON body, path and query, the client's
//! address, a seat token, a player key — each refusing a malformed one with a JSON error.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::body::Bytes;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Path, Query, Request};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use serde::de::DeserializeOwned;
use serde::Deserialize;

use std::sync::Arc;

use crate::owners::{Caller, PlayerKey, PLAYER_KEY_HEADER};
use crate::services::games::Games;
use crate::services::live::SeatHolder;
use crate::transport::error::ApiError;

/// A JSON request body; an empty body reads as `{}`. One rule for every route that reads one
/// (docs/api.md, "Errors"), checked in this order: a body over the route's limit is a 413, a
/// body not sent as `application/json` a 415 (a page on another site can send text/plain
/// without asking first), text that is not JSON a 400, JSON of the wrong shape (not an
/// object, a field unknown or missing or of the wrong type) a 422, each with a JSON error
/// body. The text is read as JSON before it is read as `T`, so broken JSON is a 400 even
/// when it begins with a field `T` does not know.
pub struct JsonBody<T>(pub T);

/// The body of a route that takes none: an empty body or `{}`, refused like any other body
/// (415, 400, 413) otherwise, and any field in it a 422.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NoBody {}

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
        let value: serde_json::Value = serde_json::from_slice(text)
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, format!("request body: {e}")))?;
        // Every body is an object: anything else is named as JSON names it, not as the
        // struct it was meant for.
        if !value.is_object() {
            return Err(ApiError::bad(format!(
                "request body: expected a JSON object, not {}",
                json_kind(&value)
            )));
        }
        T::deserialize(value)
            .map(JsonBody)
            .map_err(|e| ApiError::bad(format!("request body: {e}")))
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

/// The client's address (from the connection; unknown when served without one, as in
/// tests through the router alone).
pub(crate) struct ClientAddr(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(ClientAddr(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip()),
        ))
    }
}

/// The seat token of a request, if it carries one.
pub(crate) struct SeatToken(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for SeatToken {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let text = |name: &str| {
            parts
                .headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::trim)
        };
        let token = text("x-seat-token")
            .or_else(|| {
                text(header::AUTHORIZATION.as_str()).and_then(|a| a.strip_prefix("Bearer "))
            })
            .map(|t| t.trim().to_owned())
            .filter(|t| !t.is_empty());
        Ok(SeatToken(token))
    }
}

/// Who acts for a seat ([`SeatHolder`]): the request's seat token, and its session
/// cookie's token (looked up by the service only when the seat token does not settle it).
pub(crate) struct Holder(pub SeatHolder);

impl<S: Send + Sync> FromRequestParts<S> for Holder {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let SeatToken(token) = SeatToken::from_request_parts(parts, state).await?;
        let SessionToken(session) = SessionToken::from_request_parts(parts, state).await?;
        Ok(Holder(SeatHolder { token, session }))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for PlayerKey {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let Some(value) = parts.headers.get(PLAYER_KEY_HEADER) else {
            return Ok(PlayerKey(None));
        };
        let key = value
            .to_str()
            .ok()
            .map(|k| k.trim().to_ascii_lowercase())
            .filter(|k| k.len() == 32 && k.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| {
                ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "X-Player-Key: expected 32 hexadecimal digits (128 random bits)",
                )
            })?;
        Ok(PlayerKey(Some(key)))
    }
}

/// The cookie that carries a session's token (HttpOnly: the page's scripts never see it).
pub(crate) const SESSION_COOKIE: &str = "sowing_session";

/// The session token of a request's cookie, if it carries one of the right form (32 hex
/// digits); anything else reads as none.
pub(crate) struct SessionToken(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for SessionToken {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let token = parts
            .headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .find(|(name, _)| *name == SESSION_COOKIE)
            .map(|(_, value)| value.trim().to_owned())
            .filter(|t| t.len() == 32 && t.bytes().all(|b| b.is_ascii_hexdigit()));
        Ok(SessionToken(token))
    }
}

/// The signed-in account of a request (its session cookie, looked up), and the token.
pub(crate) struct Session {
    pub account: Option<crate::store::AccountRow>,
    pub token: Option<String>,
}

impl FromRequestParts<Arc<Games>> for Session {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        games: &Arc<Games>,
    ) -> Result<Self, Self::Rejection> {
        let SessionToken(token) = SessionToken::from_request_parts(parts, games).await?;
        let account = match &token {
            Some(token) => games.session(token).await?,
            None => None,
        };
        Ok(Session { account, token })
    }
}

impl FromRequestParts<Arc<Games>> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        games: &Arc<Games>,
    ) -> Result<Self, Self::Rejection> {
        let PlayerKey(key) = PlayerKey::from_request_parts(parts, games).await?;
        let session = Session::from_request_parts(parts, games).await?;
        Ok(Caller {
            key,
            account: session.account.map(|a| a.owner),
        })
    }
}
