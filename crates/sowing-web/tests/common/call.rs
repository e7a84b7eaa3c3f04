//! The one way the web tests send a request: through the router itself (`tower`'s
//! `oneshot`, no socket), built a piece at a time, with the whole reply read back.

use axum::body::Body;
use axum::http::{header, HeaderMap, Method, Request, StatusCode};
use axum::Router;
use serde_json::Value;
use tower::ServiceExt;

use super::PLAYER_KEY;

/// Who sends a request: the credentials and the extra headers it carries.
#[derive(Default, Clone)]
pub struct Who<'a> {
    /// `X-Player-Key`.
    pub key: Option<&'a str>,
    /// `X-Seat-Token`.
    pub seat: Option<&'a str>,
    /// The session token, sent as the `sowing_session` cookie.
    pub cookie: Option<&'a str>,
    /// Extra headers (`Origin`, `Sec-Fetch-Site`, `Authorization`, a content type).
    pub headers: Vec<(&'a str, &'a str)>,
}

/// A request on its way: `Call::new(Method::POST, "/api/games").json(body).send(&router)`.
pub struct Call<'a> {
    method: Method,
    path: String,
    who: Who<'a>,
    body: String,
    /// Whether the body is declared JSON (unless a content type is among the headers).
    declared_json: bool,
}

/// What came back: the status, the headers, the body as text, and as JSON (the text kept
/// as a JSON string when it is not JSON).
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub text: String,
    pub body: Value,
}

impl<'a> Call<'a> {
    /// A request sent with [`PLAYER_KEY`], which owns the games the tests create.
    pub fn new(method: Method, path: impl Into<String>) -> Self {
        Call {
            method,
            path: path.into(),
            who: Who {
                key: Some(PLAYER_KEY),
                ..Who::default()
            },
            body: String::new(),
            declared_json: false,
        }
    }

    /// Sent by exactly `who`: no player key unless it has one.
    pub fn by(mut self, who: &Who<'a>) -> Self {
        self.who = who.clone();
        self
    }

    /// With this player key, or none.
    pub fn key(mut self, key: Option<&'a str>) -> Self {
        self.who.key = key;
        self
    }

    /// With this seat token, or none.
    pub fn seat(mut self, token: Option<&'a str>) -> Self {
        self.who.seat = token;
        self
    }

    /// With one more header.
    pub fn header(mut self, name: &'a str, value: &'a str) -> Self {
        self.who.headers.push((name, value));
        self
    }

    /// With these headers too.
    pub fn headers(mut self, headers: &[(&'a str, &'a str)]) -> Self {
        self.who.headers.extend_from_slice(headers);
        self
    }

    /// With this JSON body, if any, declared `application/json`.
    pub fn json(self, body: impl Into<Option<Value>>) -> Self {
        let text = body.into().map(|b| b.to_string());
        self.json_text(text.as_deref())
    }

    /// With this text, if any, declared `application/json` (it may be broken JSON on purpose).
    pub fn json_text(mut self, body: Option<&str>) -> Self {
        if let Some(body) = body {
            self.body = body.to_owned();
            self.declared_json = true;
        }
        self
    }

    /// With this body and no content type but the headers' own.
    pub fn text(mut self, body: &str) -> Self {
        self.body = body.to_owned();
        self.declared_json = false;
        self
    }

    /// Sends it: the status and the body as JSON.
    pub async fn send(self, router: &Router) -> (StatusCode, Value) {
        let reply = self.reply(router).await;
        (reply.status, reply.body)
    }

    /// Sends it: the whole reply.
    pub async fn reply(self, router: &Router) -> Reply {
        let response = router.clone().oneshot(self.request()).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        let text = String::from_utf8(bytes.to_vec()).unwrap();
        let body = serde_json::from_str(&text).unwrap_or_else(|_| Value::String(text.clone()));
        Reply {
            status,
            headers,
            text,
            body,
        }
    }

    fn request(self) -> Request<Body> {
        let mut request = Request::builder().method(self.method).uri(self.path);
        let who = self.who;
        if let Some(cookie) = who.cookie {
            request = request.header(header::COOKIE, format!("sowing_session={cookie}"));
        }
        if let Some(key) = who.key {
            request = request.header("x-player-key", key);
        }
        if let Some(seat) = who.seat {
            request = request.header("x-seat-token", seat);
        }
        let typed = who
            .headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("content-type"));
        if self.declared_json && !typed {
            request = request.header(header::CONTENT_TYPE, "application/json");
        }
        for (name, value) in who.headers {
            request = request.header(name, value);
        }
        request.body(Body::from(self.body)).unwrap()
    }
}

impl Reply {
    /// The `Set-Cookie` header, if the reply sets one.
    pub fn set_cookie(&self) -> Option<String> {
        self.headers
            .get(header::SET_COOKIE)
            .map(|v| v.to_str().unwrap().to_owned())
    }
}
