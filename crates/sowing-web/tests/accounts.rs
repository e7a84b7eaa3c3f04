//! Accounts and ratings (issue 24, part 3): every route of docs/api.md "Accounts" and
//! "Ratings", each refusal (a wrong password, a taken name, someone else's profile, no
//! session, another site), the session cookie, an anonymous player's games moving into the
//! account, and a rated live game moving both ratings as Glicko-2 computes.

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use sowing_web::ratings::{self, Rating};
use sowing_web::{router, App};

mod common;
use common::{sign_up, token_of, with_cookie, Call, Who};

const KEY: &str = "00112233445566778899aabbccddeeff";
const OTHER_KEY: &str = "ffeeddccbbaa99887766554433221100";

fn app() -> Router {
    router(Arc::new(App::new(common::store(), 2)))
}

async fn me(router: &Router, cookie: &str) -> Value {
    let a = Call::new(Method::GET, "/api/account")
        .by(&with_cookie(cookie))
        .reply(router)
        .await;
    assert_eq!(a.status, StatusCode::OK);
    a.body["account"].clone()
}

#[tokio::test]
async fn signing_up_sets_an_httponly_lax_session_cookie_and_keeps_the_token_out_of_the_body() {
    let router = app();
    let a = Call::new(Method::POST, "/api/account/signup")
        .by(&Who::default())
        .json(json!({"name": "Ana", "password": "correct horse"}))
        .reply(&router)
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
    assert_eq!(a.body["account"]["name"], "Ana");
    let cookie = a.set_cookie().unwrap();
    for part in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] {
        assert!(cookie.contains(part), "{cookie}");
    }
    assert!(!cookie.contains("Secure"), "plain HTTP: {cookie}");
    let token = token_of(&cookie);
    assert_eq!(token.len(), 32);
    assert!(!a.body.to_string().contains(&token), "{}", a.body);
    assert!(a.body["account"].get("password").is_none());
    assert_eq!(me(&router, &token).await["name"], "Ana");
    // No cookie, or a cookie of no session: nobody.
    assert_eq!(
        me(&router, "0123456789abcdef0123456789abcdef").await,
        Value::Null
    );
    let a = Call::new(Method::GET, "/api/account")
        .by(&Who::default())
        .reply(&router)
        .await;
    assert_eq!(a.body["account"], Value::Null);
}

#[tokio::test]
async fn behind_tls_the_session_cookie_is_secure() {
    let router = router(Arc::new(
        App::new(common::store(), 2).with_secure_cookies(true),
    ));
    let a = Call::new(Method::POST, "/api/account/signup")
        .by(&Who::default())
        .json(json!({"name": "Ana", "password": "correct horse"}))
        .reply(&router)
        .await;
    let cookie = a.set_cookie().unwrap();
    assert!(cookie.ends_with("; Secure"), "{cookie}");
}

#[tokio::test]
async fn a_taken_name_in_any_case_and_names_or_passwords_of_the_wrong_form_are_refused() {
    let router = app();
    sign_up(&router, "Ana", None).await;
    for (body, status, words) in [
        (
            json!({"name": "ana", "password": "another one"}),
            StatusCode::CONFLICT,
            "taken",
        ),
        (
            json!({"name": "A", "password": "correct horse"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "name",
        ),
        (
            json!({"name": "<b>x</b>", "password": "correct horse"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "name",
        ),
        (
            json!({"name": "Bea", "password": "short"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "password",
        ),
        (
            json!({"name": "Bea"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "password",
        ),
    ] {
        let a = Call::new(Method::POST, "/api/account/signup")
            .by(&Who::default())
            .json(body.clone())
            .reply(&router)
            .await;
        assert_eq!(a.status, status, "{body}: {}", a.body);
        assert!(
            a.body["error"].as_str().unwrap().contains(words),
            "{}",
            a.body
        );
        assert!(a.set_cookie().is_none());
        if status == StatusCode::CONFLICT {
            // Its own code, which the page words in the reader's language.
            assert_eq!(a.body["code"], "name-taken", "{}", a.body);
        }
    }
}

#[tokio::test]
async fn signing_in_needs_the_right_password_and_says_the_same_for_an_unknown_name() {
    let router = app();
    sign_up(&router, "Ana", None).await;
    let wrong = Call::new(Method::POST, "/api/account/signin")
        .by(&Who::default())
        .json(json!({"name": "Ana", "password": "wrong horse"}))
        .reply(&router)
        .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED, "{}", wrong.body);
    assert!(wrong.set_cookie().is_none());
    let unknown = Call::new(Method::POST, "/api/account/signin")
        .by(&Who::default())
        .json(json!({"name": "Nobody", "password": "wrong horse"}))
        .reply(&router)
        .await;
    assert_eq!(unknown.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        unknown.body, wrong.body,
        "the same answer: no name is confirmed"
    );
    let right = Call::new(Method::POST, "/api/account/signin")
        .by(&Who::default())
        .json(json!({"name": "ANA", "password": "correct horse"}))
        .reply(&router)
        .await;
    assert_eq!(right.status, StatusCode::OK, "{}", right.body);
    assert_eq!(right.body["account"]["name"], "Ana");
    let token = token_of(&right.set_cookie().unwrap());
    assert_eq!(me(&router, &token).await["name"], "Ana");
}

#[tokio::test]
async fn sign_in_attempts_are_rate_limited_per_address() {
    let router = app();
    let mut statuses = Vec::new();
    for _ in 0..11 {
        let a = Call::new(Method::POST, "/api/account/signin")
            .by(&Who::default())
            .json(json!({"name": "Ana", "password": "wrong horse"}))
            .reply(&router)
            .await;
        statuses.push(a.status);
    }
    assert!(
        statuses[..10]
            .iter()
            .all(|s| *s == StatusCode::UNAUTHORIZED),
        "{statuses:?}"
    );
    assert_eq!(statuses[10], StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn an_anonymous_players_games_move_into_the_account_on_sign_up_and_on_sign_in() {
    let router = app();
    let mine = Who {
        key: Some(KEY),
        ..Who::default()
    };
    let created = Call::new(Method::POST, "/api/games")
        .by(&mine)
        .json(json!({"game": "ayoayo"}))
        .reply(&router)
        .await;
    let id = created.body["id"].as_i64().unwrap();
    let a = Call::new(Method::POST, "/api/account/signup")
        .by(&mine)
        .json(json!({"name": "Ana", "password": "correct horse"}))
        .reply(&router)
        .await;
    assert_eq!(a.body["moved"], 1, "{}", a.body);
    let token = token_of(&a.set_cookie().unwrap());
    // On another device, signed in but with no key: the game is the account's.
    let device = with_cookie(&token);
    let list = Call::new(Method::GET, "/api/games")
        .by(&device)
        .reply(&router)
        .await;
    assert_eq!(list.body["games"][0]["id"], id, "{}", list.body);
    let moved = Call::new(Method::POST, format!("/api/games/{id}/moves"))
        .by(&device)
        .json(json!({"move": "C"}))
        .reply(&router)
        .await;
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.body);
    // Neither another key nor another account may change it.
    let theirs = Who {
        key: Some(OTHER_KEY),
        ..Who::default()
    };
    let refused = Call::new(Method::POST, format!("/api/games/{id}/undo"))
        .by(&theirs)
        .reply(&router)
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let bea = sign_up(&router, "Bea", None).await;
    let refused = Call::new(Method::POST, format!("/api/games/{id}/undo"))
        .by(&with_cookie(&bea))
        .reply(&router)
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    // Games made while signed in are the account's; signing in with another key brings its
    // games along.
    let made = Call::new(Method::POST, "/api/games")
        .by(&device)
        .json(json!({"game": "hoyito-ii"}))
        .reply(&router)
        .await;
    let made = made.body["id"].as_i64().unwrap();
    let other = Call::new(Method::POST, "/api/games")
        .by(&theirs)
        .json(json!({"game": "hoyito-iii"}))
        .reply(&router)
        .await;
    let other = other.body["id"].as_i64().unwrap();
    let again = Call::new(Method::POST, "/api/account/signin")
        .by(&theirs)
        .json(json!({"name": "ana", "password": "correct horse"}))
        .reply(&router)
        .await;
    assert_eq!(again.body["moved"], 1, "{}", again.body);
    let list = Call::new(Method::GET, "/api/games")
        .by(&device)
        .reply(&router)
        .await;
    let mut ids: Vec<i64> = list.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, vec![id, made, other]);
    // Bea's list has none of them.
    let list = Call::new(Method::GET, "/api/games")
        .by(&with_cookie(&bea))
        .reply(&router)
        .await;
    assert_eq!(list.body["games"], json!([]));
}

#[tokio::test]
async fn signing_out_ends_this_session_and_signing_out_everywhere_ends_them_all() {
    let router = app();
    let first = sign_up(&router, "Ana", None).await;
    let nobody = Who::default();
    let sign_in = || {
        Call::new(Method::POST, "/api/account/signin")
            .by(&nobody)
            .json(json!({"name": "Ana", "password": "correct horse"}))
            .reply(&router)
    };
    let second = token_of(&sign_in().await.set_cookie().unwrap());
    let third = token_of(&sign_in().await.set_cookie().unwrap());
    let out = Call::new(Method::POST, "/api/account/signout")
        .by(&with_cookie(&first))
        .reply(&router)
        .await;
    assert_eq!(out.status, StatusCode::OK);
    assert!(out
        .set_cookie()
        .unwrap()
        .contains("sowing_session=; Path=/; Max-Age=0"));
    assert_eq!(me(&router, &first).await, Value::Null);
    assert_eq!(me(&router, &second).await["name"], "Ana");
    // Everywhere needs a session.
    let refused = Call::new(Method::POST, "/api/account/signout-everywhere")
        .by(&Who::default())
        .reply(&router)
        .await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED, "{}", refused.body);
    let all = Call::new(Method::POST, "/api/account/signout-everywhere")
        .by(&with_cookie(&second))
        .reply(&router)
        .await;
    assert_eq!(all.status, StatusCode::OK);
    assert_eq!(all.body["ended"], 2, "{}", all.body);
    assert_eq!(me(&router, &second).await, Value::Null);
    assert_eq!(me(&router, &third).await, Value::Null);
}

#[tokio::test]
async fn a_new_password_needs_the_old_one_and_ends_the_other_sessions() {
    let router = app();
    let here = sign_up(&router, "Ana", None).await;
    let there = Call::new(Method::POST, "/api/account/signin")
        .by(&Who::default())
        .json(json!({"name": "Ana", "password": "correct horse"}))
        .reply(&router)
        .await;
    let there = token_of(&there.set_cookie().unwrap());
    let path = "/api/account/password";
    let body = |old: &str| Some(json!({"password": old, "new_password": "battery staple"}));
    let none = Call::new(Method::POST, path)
        .by(&Who::default())
        .json(body("correct horse"))
        .reply(&router)
        .await;
    assert_eq!(none.status, StatusCode::UNAUTHORIZED);
    let wrong = Call::new(Method::POST, path)
        .by(&with_cookie(&here))
        .json(body("wrong horse"))
        .reply(&router)
        .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED, "{}", wrong.body);
    let short = Call::new(Method::POST, path)
        .by(&with_cookie(&here))
        .json(json!({"password": "correct horse", "new_password": "short"}))
        .reply(&router)
        .await;
    assert_eq!(short.status, StatusCode::UNPROCESSABLE_ENTITY);
    let changed = Call::new(Method::POST, path)
        .by(&with_cookie(&here))
        .json(body("correct horse"))
        .reply(&router)
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.body);
    assert_eq!(changed.body["ended"], 1);
    assert_eq!(me(&router, &here).await["name"], "Ana");
    assert_eq!(me(&router, &there).await, Value::Null);
    let old = Call::new(Method::POST, "/api/account/signin")
        .by(&Who::default())
        .json(json!({"name": "Ana", "password": "correct horse"}))
        .reply(&router)
        .await;
    assert_eq!(old.status, StatusCode::UNAUTHORIZED);
    let new = Call::new(Method::POST, "/api/account/signin")
        .by(&Who::default())
        .json(json!({"name": "Ana", "password": "battery staple"}))
        .reply(&router)
        .await;
    assert_eq!(new.status, StatusCode::OK);
}

#[tokio::test]
async fn a_profile_is_public_and_only_its_own_account_edits_it() {
    let router = app();
    let ana = sign_up(&router, "Ana", None).await;
    let bea = sign_up(&router, "Bea", None).await;
    let profile = Call::new(Method::GET, "/api/accounts/ana")
        .by(&Who::default())
        .reply(&router)
        .await;
    assert_eq!(profile.status, StatusCode::OK);
    assert_eq!(profile.body["name"], "Ana");
    assert_eq!(profile.body["ratings"], json!([]));
    assert_eq!(profile.body["games"], json!([]));
    let missing = Call::new(Method::GET, "/api/accounts/nobody")
        .by(&Who::default())
        .reply(&router)
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    let about = Some(json!({"about": "I play Hoyito in Santo Domingo"}));
    let edited = Call::new(Method::PUT, "/api/accounts/Ana")
        .by(&with_cookie(&ana))
        .json(about.clone())
        .reply(&router)
        .await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.body);
    assert_eq!(edited.body["about"], "I play Hoyito in Santo Domingo");
    let theirs = Call::new(Method::PUT, "/api/accounts/Ana")
        .by(&with_cookie(&bea))
        .json(json!({"about": "hacked"}))
        .reply(&router)
        .await;
    assert_eq!(theirs.status, StatusCode::FORBIDDEN, "{}", theirs.body);
    let nobody = Call::new(Method::PUT, "/api/accounts/Ana")
        .by(&Who::default())
        .json(json!({"about": "hacked"}))
        .reply(&router)
        .await;
    assert_eq!(nobody.status, StatusCode::UNAUTHORIZED);
    let long = Call::new(Method::PUT, "/api/accounts/Ana")
        .by(&with_cookie(&ana))
        .json(json!({"about": "x".repeat(401)}))
        .reply(&router)
        .await;
    assert_eq!(long.status, StatusCode::UNPROCESSABLE_ENTITY);
    // As names do, the text refuses what hides itself or turns the text after it around.
    for hidden in ["\u{202E}evil", "a\u{200B}b", "\u{FEFF}x", "ok\u{2066}"] {
        let refused = Call::new(Method::PUT, "/api/accounts/Ana")
            .by(&with_cookie(&ana))
            .json(json!({ "about": hidden }))
            .reply(&router)
            .await;
        assert_eq!(
            refused.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{hidden:?}"
        );
        assert!(
            refused.body["error"]
                .as_str()
                .unwrap()
                .contains("direction-changing"),
            "{}",
            refused.body
        );
    }
    let profile = Call::new(Method::GET, "/api/accounts/Ana")
        .by(&Who::default())
        .reply(&router)
        .await;
    assert_eq!(profile.body["about"], "I play Hoyito in Santo Domingo");
}

#[tokio::test]
async fn pages_of_other_sites_cannot_use_the_account_routes() {
    let router = app();
    let ana = sign_up(&router, "Ana", None).await;
    let credentials = Some(json!({"name": "Ana", "password": "correct horse"}));
    for headers in [
        vec![("sec-fetch-site", "cross-site")],
        vec![("sec-fetch-site", "same-site")],
        vec![
            ("origin", "https://evil.example"),
            ("host", "sowing.example"),
        ],
    ] {
        for path in [
            "/api/account/signup",
            "/api/account/signin",
            "/api/account/signout",
            "/api/account/signout-everywhere",
            "/api/account/password",
        ] {
            let who = Who {
                cookie: Some(&ana),
                headers: headers.clone(),
                ..Who::default()
            };
            let a = Call::new(Method::POST, path)
                .by(&who)
                .json(credentials.clone())
                .reply(&router)
                .await;
            assert_eq!(
                a.status,
                StatusCode::FORBIDDEN,
                "{path} {headers:?}: {}",
                a.body
            );
            assert!(a.body["error"]
                .as_str()
                .unwrap()
                .contains("only the server's own page"));
            assert!(a.set_cookie().is_none());
        }
        let who = Who {
            cookie: Some(&ana),
            headers: headers.clone(),
            ..Who::default()
        };
        let a = Call::new(Method::PUT, "/api/accounts/Ana")
            .by(&who)
            .json(json!({"about": "x"}))
            .reply(&router)
            .await;
        assert_eq!(a.status, StatusCode::FORBIDDEN);
    }
    // A form's body (text/plain), which another page can send without asking: refused.
    let form = Who {
        headers: vec![("content-type", "text/plain")],
        ..Who::default()
    };
    let a = Call::new(Method::POST, "/api/account/signin")
        .by(&form)
        .json(credentials.clone())
        .reply(&router)
        .await;
    assert_eq!(a.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // The session still stands, and the page itself may act.
    assert_eq!(me(&router, &ana).await["name"], "Ana");
    let own = Who {
        headers: vec![("sec-fetch-site", "same-origin")],
        ..Who::default()
    };
    let a = Call::new(Method::POST, "/api/account/signin")
        .by(&own)
        .json(credentials)
        .reply(&router)
        .await;
    assert_eq!(a.status, StatusCode::OK);
}

/// A rated invitation by Ana's account (South, 3 + 2: blitz) claimed by Bea's (North): the
/// id and both seats' tokens.
async fn rated_game(router: &Router, ana: &str, bea: &str) -> (i64, String, String) {
    let a = Call::new(Method::POST, "/api/live")
        .by(&with_cookie(ana))
        .json(json!({"game": "hoyito-ii", "rated": true,
                    "clock": {"base_ms": 180_000, "increment_ms": 2_000}}))
        .reply(router)
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
    assert_eq!(a.body["live"]["rated"], true);
    assert_eq!(a.body["live"]["speed"], "blitz");
    assert_eq!(a.body["live"]["seats"]["south"]["name"], "Ana");
    assert_eq!(a.body["live"]["seats"]["south"]["rating"]["rating"], 1500.0);
    let id = a.body["live"]["id"].as_i64().unwrap();
    let south = a.body["token"].as_str().unwrap().to_owned();
    let north = a.body["invite"].as_str().unwrap().to_owned();
    // Before North's account claims the seat, a rated game does not start.
    let early = Call::new(Method::POST, format!("/api/live/{id}/moves"))
        .by(&Who {
            seat: Some(&south),
            ..Who::default()
        })
        .json(json!({"move": "A", "ply": 0}))
        .reply(router)
        .await;
    assert_eq!(early.status, StatusCode::CONFLICT, "{}", early.body);
    let claim = Call::new(Method::POST, format!("/api/live/{id}/claim"))
        .by(&Who {
            cookie: Some(bea),
            seat: Some(&north),
            ..Who::default()
        })
        .reply(router)
        .await;
    assert_eq!(claim.status, StatusCode::OK, "{}", claim.body);
    assert_eq!(claim.body["live"]["seats"]["north"]["name"], "Bea");
    assert_eq!(claim.body["live"]["seats"]["north"]["account"], true);
    (id, south, north)
}

#[tokio::test]
async fn claiming_a_seat_needs_a_session_its_token_and_a_seat_free_of_other_accounts() {
    let router = app();
    let ana = sign_up(&router, "Ana", None).await;
    let bea = sign_up(&router, "Bea", None).await;
    let cy = sign_up(&router, "Cy", None).await;
    let a = Call::new(Method::POST, "/api/live")
        .by(&with_cookie(&ana))
        .json(json!({"game": "ayoayo", "rated": true}))
        .reply(&router)
        .await;
    let id = a.body["live"]["id"].as_i64().unwrap();
    let south = a.body["token"].as_str().unwrap().to_owned();
    let north = a.body["invite"].as_str().unwrap().to_owned();
    let path = format!("/api/live/{id}/claim");
    let claim = |cookie: Option<&'static str>, seat: Option<String>| {
        let router = router.clone();
        let path = path.clone();
        async move {
            let who = Who {
                cookie,
                seat: seat.as_deref(),
                ..Who::default()
            };
            Call::new(Method::POST, &path).by(&who).reply(&router).await
        }
    };
    let leak = |s: &str| -> &'static str { Box::leak(s.to_owned().into_boxed_str()) };
    let (ana, bea, cy) = (leak(&ana), leak(&bea), leak(&cy));
    assert_eq!(
        claim(None, Some(north.clone())).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(claim(Some(bea), None).await.status, StatusCode::FORBIDDEN);
    assert_eq!(
        claim(Some(bea), Some("0123456789abcdef0123456789abcdef".into()))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    // Ana holds South: she cannot take North too.
    let both = claim(Some(ana), Some(north.clone())).await;
    assert_eq!(both.status, StatusCode::CONFLICT, "{}", both.body);
    // Nor can Bea take Ana's seat.
    assert_eq!(
        claim(Some(bea), Some(south.clone())).await.status,
        StatusCode::CONFLICT
    );
    assert_eq!(
        claim(Some(bea), Some(north.clone())).await.status,
        StatusCode::OK
    );
    // Again: nothing changes; Cy may not take it over.
    assert_eq!(
        claim(Some(bea), Some(north.clone())).await.status,
        StatusCode::OK
    );
    assert_eq!(
        claim(Some(cy), Some(north.clone())).await.status,
        StatusCode::CONFLICT
    );
    // Rated needs a session; a match of rounds is never rated.
    let anonymous = Call::new(Method::POST, "/api/live")
        .by(&Who::default())
        .json(json!({"game": "ayoayo", "rated": true}))
        .reply(&router)
        .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let rounds = Call::new(Method::POST, "/api/live")
        .by(&with_cookie(ana))
        .json(json!({"game": "hoyito-iii", "rounds": 3, "rated": true}))
        .reply(&router)
        .await;
    assert_eq!(rounds.status, StatusCode::UNPROCESSABLE_ENTITY);
}

/// Plays `id` to its end with the first legal move each turn; the final live status.
async fn play_out(router: &Router, id: i64, south: &str, north: &str) -> Value {
    for _ in 0..2000 {
        let a = Call::new(Method::GET, format!("/api/live/{id}"))
            .by(&Who::default())
            .reply(router)
            .await;
        if a.body["live"]["result"] != Value::Null {
            return a.body["live"].clone();
        }
        let state = &a.body["game"]["state"];
        let token = if state["to_move"] == "south" {
            south
        } else {
            north
        };
        let mv = state["legal"][0].as_str().unwrap().to_owned();
        let ply = a.body["game"]["ply"].as_u64().unwrap();
        let who = Who {
            seat: Some(token),
            ..Who::default()
        };
        // Unlimited sign-ins aside, the default limits hold: a test plays under them.
        let played = Call::new(Method::POST, format!("/api/live/{id}/moves"))
            .by(&who)
            .json(json!({"move": mv, "ply": ply}))
            .reply(router)
            .await;
        assert_eq!(played.status, StatusCode::OK, "{}", played.body);
    }
    panic!("game {id} did not end");
}

fn rating_of(profile: &Value, game: &str, speed: &str) -> Value {
    profile["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["game"] == game && r["speed"] == speed)
        .cloned()
        .unwrap_or_else(|| panic!("no {game} {speed} rating: {profile}"))
}

#[tokio::test]
async fn a_rated_game_moves_both_ratings_as_glicko_2_computes_once() {
    let router = router(Arc::new(App::new(common::store(), 2).with_limits(
        sowing_web::limits::AbuseLimits {
            enabled: false,
            ..sowing_web::limits::AbuseLimits::default()
        },
    )));
    let ana = sign_up(&router, "Ana", None).await;
    let bea = sign_up(&router, "Bea", None).await;
    let (id, south, north) = rated_game(&router, &ana, &bea).await;
    let end = play_out(&router, id, &south, &north).await;
    let outcome = end["result"]["outcome"].as_str().unwrap().to_owned();
    let score = match outcome.as_str() {
        "south" => 1.0,
        "north" => 0.0,
        _ => 0.5,
    };
    let (s, n) = ratings::after_game(Rating::default(), Rating::default(), score);
    let close = |value: &Value, expected: f64| (value.as_f64().unwrap() - expected).abs() < 1e-9;
    let ana_profile = Call::new(Method::GET, "/api/accounts/Ana")
        .by(&Who::default())
        .reply(&router)
        .await
        .body;
    let bea_profile = Call::new(Method::GET, "/api/accounts/Bea")
        .by(&Who::default())
        .reply(&router)
        .await
        .body;
    let (ra, rb) = (
        rating_of(&ana_profile, "hoyito-ii", "blitz"),
        rating_of(&bea_profile, "hoyito-ii", "blitz"),
    );
    assert!(
        close(&ra["rating"], s.rating) && close(&ra["deviation"], s.deviation),
        "{ra}"
    );
    assert!(close(&ra["volatility"], s.volatility), "{ra}");
    assert!(
        close(&rb["rating"], n.rating) && close(&rb["deviation"], n.deviation),
        "{rb}"
    );
    assert_eq!(
        (ra["games"].clone(), rb["games"].clone()),
        (json!(1), json!(1))
    );
    assert_eq!(ra["provisional"], true);
    // The status shows the ratings after the game beside the names.
    let status = Call::new(Method::GET, format!("/api/live/{id}"))
        .by(&Who::default())
        .reply(&router)
        .await
        .body;
    assert!(
        close(
            &status["live"]["seats"]["south"]["rating"]["rating"],
            s.rating
        ),
        "{status}"
    );
    assert!(
        close(
            &status["live"]["seats"]["north"]["rating"]["rating"],
            n.rating
        ),
        "{status}"
    );
    // The profile's game and results.
    let game = &ana_profile["games"][0];
    assert_eq!(game["id"], id);
    assert_eq!(game["opponent"], "Bea");
    assert_eq!(game["side"], "south");
    assert!(
        close(&game["before"], 1500.0) && close(&game["after"], s.rating),
        "{game}"
    );
    let expected_result = match outcome.as_str() {
        "south" => "win",
        "north" => "loss",
        _ => "draw",
    };
    assert_eq!(game["result"], expected_result);
    let results = &ana_profile["results"][0];
    assert_eq!(results["game"], "hoyito-ii");
    let counted = ["wins", "losses", "draws"].map(|k| results[k].as_u64().unwrap());
    assert_eq!(counted.iter().sum::<u64>(), 1, "{results}");
    // A rematch asked for after the end changes no rating: the game is rated once.
    let who = Who {
        seat: Some(&south),
        ..Who::default()
    };
    Call::new(Method::POST, format!("/api/live/{id}/rematch"))
        .by(&who)
        .reply(&router)
        .await;
    let again = Call::new(Method::GET, "/api/accounts/Ana")
        .by(&Who::default())
        .reply(&router)
        .await
        .body;
    assert_eq!(rating_of(&again, "hoyito-ii", "blitz")["games"], 1);
    // The leaderboard: both, the better first.
    let board = Call::new(Method::GET, "/api/leaderboard?game=hoyito-ii&speed=blitz")
        .by(&Who::default())
        .reply(&router)
        .await
        .body;
    let names: Vec<&str> = board["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    let expected = if s.rating >= n.rating {
        ["Ana", "Bea"]
    } else {
        ["Bea", "Ana"]
    };
    assert_eq!(names, expected, "{board}");
    assert_eq!(board["players"][0]["rank"], 1);
    let empty = Call::new(Method::GET, "/api/leaderboard?game=ayoayo&speed=bullet")
        .by(&Who::default())
        .reply(&router)
        .await
        .body;
    assert_eq!(empty["players"], json!([]));
    let bad = Call::new(Method::GET, "/api/leaderboard?game=hoyito-ii&speed=slow")
        .by(&Who::default())
        .reply(&router)
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    let bad = Call::new(Method::GET, "/api/leaderboard?game=chess&speed=blitz")
        .by(&Who::default())
        .reply(&router)
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn a_resignation_rates_the_game_and_the_lobby_filters_challenges_by_rating() {
    let router = router(Arc::new(App::new(common::store(), 2).with_limits(
        sowing_web::limits::AbuseLimits {
            enabled: false,
            ..sowing_web::limits::AbuseLimits::default()
        },
    )));
    let ana = sign_up(&router, "Ana", None).await;
    let bea = sign_up(&router, "Bea", None).await;
    let (id, south, _) = rated_game(&router, &ana, &bea).await;
    let who = Who {
        seat: Some(&south),
        ..Who::default()
    };
    let resigned = Call::new(Method::POST, format!("/api/live/{id}/resign"))
        .by(&who)
        .reply(&router)
        .await;
    assert_eq!(resigned.status, StatusCode::OK);
    let (s, n) = ratings::after_game(Rating::default(), Rating::default(), 0.0);
    let bea_rating = rating_of(
        &Call::new(Method::GET, "/api/accounts/Bea")
            .by(&Who::default())
            .reply(&router)
            .await
            .body,
        "hoyito-ii",
        "blitz",
    );
    assert!((bea_rating["rating"].as_f64().unwrap() - n.rating).abs() < 1e-9);
    // Challenges: Ana's (now below 1500), Bea's (above), and an anonymous one.
    let post = |who: Who<'static>| {
        let router = router.clone();
        async move {
            let a = Call::new(Method::POST, "/api/live")
                .by(&who)
                .json(
                    json!({"game": "hoyito-ii", "lobby": true, "rated": who.cookie.is_some(),
                            "clock": {"base_ms": 300_000, "increment_ms": 3_000}}),
                )
                .reply(&router)
                .await;
            assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
            a.body["live"]["id"].as_i64().unwrap()
        }
    };
    let leak = |s: &str| -> &'static str { Box::leak(s.to_owned().into_boxed_str()) };
    let ana_open = post(with_cookie(leak(&ana))).await;
    let bea_open = post(with_cookie(leak(&bea))).await;
    let anonymous = post(Who::default()).await;
    let listed = |query: &'static str| {
        let router = router.clone();
        async move {
            let a = Call::new(Method::GET, format!("/api/lobby{query}"))
                .by(&Who::default())
                .reply(&router)
                .await;
            assert_eq!(a.status, StatusCode::OK, "{}", a.body);
            a.body["challenges"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["id"].as_i64().unwrap())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(listed("").await, vec![ana_open, bea_open, anonymous]);
    assert_eq!(listed("?min_rating=1500").await, vec![bea_open]);
    assert_eq!(listed("?max_rating=1500").await, vec![ana_open]);
    assert_eq!(
        listed("?min_rating=1000&max_rating=2000").await,
        vec![ana_open, bea_open]
    );
    let lobby = Call::new(Method::GET, "/api/lobby")
        .by(&Who::default())
        .reply(&router)
        .await
        .body;
    let first = &lobby["challenges"][0];
    assert_eq!(
        (first["rated"].clone(), first["speed"].clone()),
        (json!(true), json!("blitz"))
    );
    assert!(
        (first["rating"]["rating"].as_f64().unwrap() - s.rating).abs() < 1e-9,
        "{first}"
    );
    assert_eq!(lobby["challenges"][2]["rating"], Value::Null);
    // A rated challenge is accepted only by another signed-in player.
    let path = format!("/api/live/{bea_open}/accept");
    let a = Call::new(Method::POST, &path)
        .by(&Who::default())
        .reply(&router)
        .await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.body);
    let a = Call::new(Method::POST, &path)
        .by(&with_cookie(&bea))
        .reply(&router)
        .await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.body);
    let a = Call::new(Method::POST, &path)
        .by(&with_cookie(&ana))
        .reply(&router)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    assert_eq!(
        a.body["live"]["seats"][a.body["seat"].as_str().unwrap()]["name"],
        "Ana"
    );
}

#[tokio::test]
async fn a_seat_taken_by_an_account_lists_the_game_on_every_device_of_it() {
    let router = app();
    let ana = sign_up(&router, "Ana", None).await;
    let bea = sign_up(&router, "Bea", None).await;
    let cy = sign_up(&router, "Cy", None).await;
    let (id, _, _) = rated_game(&router, &ana, &bea).await;
    let listed = |cookie: String| {
        let router = router.clone();
        async move {
            // Another device: the session's cookie alone, no player key.
            let a = Call::new(Method::GET, "/api/games")
                .by(&Who {
                    cookie: Some(&cookie),
                    ..Who::default()
                })
                .reply(&router)
                .await;
            assert_eq!(a.status, StatusCode::OK, "{}", a.body);
            a.body["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["id"].as_i64().unwrap())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(listed(ana.clone()).await, [id], "the poster's account");
    assert_eq!(
        listed(bea.clone()).await,
        [id],
        "the account that took the other seat"
    );
    assert!(
        listed(cy.clone()).await.is_empty(),
        "an account with no seat"
    );
}
