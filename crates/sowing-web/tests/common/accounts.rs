//! Accounts for the tests: signing up through the API, and the session sent back.

use axum::http::{Method, StatusCode};
use axum::Router;
use serde_json::json;

use super::{Call, Who};

/// Who sends with the session `cookie` (its token) and nothing else.
pub fn with_cookie(cookie: &str) -> Who<'_> {
    Who {
        cookie: Some(cookie),
        ..Who::default()
    }
}

/// The session token a `Set-Cookie` sets.
pub fn token_of(set_cookie: &str) -> String {
    set_cookie
        .strip_prefix("sowing_session=")
        .and_then(|rest| rest.split(';').next())
        .unwrap()
        .to_owned()
}

/// Signs `name` up (with `key`'s games), password `correct horse`: the session token.
pub async fn sign_up(router: &Router, name: &str, key: Option<&str>) -> String {
    let who = Who {
        key,
        ..Who::default()
    };
    let a = Call::new(Method::POST, "/api/account/signup")
        .by(&who)
        .json(json!({"name": name, "password": "correct horse"}))
        .reply(router)
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
    token_of(&a.set_cookie().expect("a session cookie"))
}
