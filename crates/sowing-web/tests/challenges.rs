//! Challenges by name (docs/api.md, "Challenges"): a challenge accepted makes one live game
//! whose seats the two accounts hold, declined or cancelled makes none, and expires after
//! its minutes; refusals from everyone or one name; caps and rates; every route needs a session and
//! refuses another site; the notices socket brings each change at once. Run on SQLite, and
//! with `SOWING_TEST_STORE=postgres` on PostgreSQL (`scripts/test` does both).

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::http::{Method, StatusCode};
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sowing_web::clock::{now_ms, TimeSource};
use sowing_web::limits::{AbuseLimits, Rate};
use sowing_web::{router, App};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

mod common;
use common::{sign_up, with_cookie, Call};

/// A server whose clocks move only when told, without the abuse limits; its routes, its
/// time and the sessions of Ana, Bo and Cy.
async fn app() -> (Router, Arc<App>, Arc<AtomicI64>, [String; 3]) {
    let time = Arc::new(AtomicI64::new(now_ms()));
    let app = Arc::new(
        App::new(common::store(), 1)
            .with_time(TimeSource::Manual(time.clone()))
            .with_limits(AbuseLimits {
                enabled: false,
                ..AbuseLimits::default()
            }),
    );
    let router = router(app.clone());
    let mut sessions = Vec::new();
    for name in ["Ana", "Bo", "Cy"] {
        sessions.push(sign_up(&router, name, None).await);
    }
    let sessions: [String; 3] = sessions.try_into().unwrap();
    (router, app, time, sessions)
}

/// `body` sent to `path` with the session `cookie`.
async fn send(
    router: &Router,
    method: Method,
    path: &str,
    cookie: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let call = Call::new(method, path).by(&with_cookie(cookie));
    match body {
        Some(body) => call.json(body).send(router).await,
        None => call.send(router).await,
    }
}

/// `from` challenges `to` to a casual 5+3 Hoyito II game, sitting South.
async fn challenge(router: &Router, from: &str, to: &str) -> (StatusCode, Value) {
    let body = json!({"to": to, "game": "hoyito-ii", "seat": "south",
                      "clock": {"base_ms": 300000, "increment_ms": 3000}});
    send(router, Method::POST, "/api/challenges", from, Some(body)).await
}

/// Challenge `id` answered by `cookie`'s account: `accept`, `decline`, or `cancel` (the
/// challenger's `DELETE`).
async fn answer(router: &Router, id: i64, how: &str, cookie: &str) -> (StatusCode, Value) {
    match how {
        "cancel" => {
            let path = format!("/api/challenges/{id}");
            send(router, Method::DELETE, &path, cookie, None).await
        }
        _ => {
            let path = format!("/api/challenges/{id}/{how}");
            send(router, Method::POST, &path, cookie, None).await
        }
    }
}

/// Ana's challenge to Bo (Ana South), accepted by Bo: the live game's id.
async fn accepted_game(router: &Router, ana: &str, bo: &str) -> i64 {
    let (_, made) = challenge(router, ana, "Bo").await;
    let id = made["challenge"]["id"].as_i64().unwrap();
    let (status, seated) = answer(router, id, "accept", bo).await;
    assert_eq!(status, StatusCode::CREATED, "{seated}");
    seated["live"]["id"].as_i64().unwrap()
}

async fn challenges_of(router: &Router, cookie: &str) -> Vec<Value> {
    let (status, list) = send(router, Method::GET, "/api/challenges", cookie, None).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list["challenges"].as_array().unwrap().clone()
}

#[tokio::test]
async fn an_accepted_challenge_makes_one_game_whose_seats_the_two_accounts_hold() {
    let (router, _, _, [ana, bo, _]) = app().await;
    let (status, made) = challenge(&router, &ana, "bo").await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["challenge"]["id"].as_i64().unwrap();
    let ana_token = made["token"].as_str().unwrap().to_owned();
    assert_eq!(made["challenge"]["from"], "Ana");
    assert_eq!(made["challenge"]["to"], "Bo");
    assert_eq!(made["challenge"]["state"], "open");
    assert_eq!(made["challenge"]["seat"], "south");
    assert_eq!(made["challenge"]["clock"]["base_ms"], 300000);
    // Bo sees it, Ana sees it: one list each.
    let listed = challenges_of(&router, &bo).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["id"], id);
    assert_eq!(challenges_of(&router, &ana).await[0]["id"], id);

    // Ana cannot accept her own; Bo accepts: a live game, Bo North, both accounts named.
    let accept = format!("/api/challenges/{id}/accept");
    let (status, e) = send(&router, Method::POST, &accept, &ana, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{e}");
    let (status, seated) = send(&router, Method::POST, &accept, &bo, None).await;
    assert_eq!(status, StatusCode::CREATED, "{seated}");
    assert_eq!(seated["seat"], "north");
    let game = seated["live"]["id"].as_i64().unwrap();
    let bo_token = seated["token"].as_str().unwrap().to_owned();
    assert_eq!(seated["live"]["seats"]["south"]["name"], "Ana", "{seated}");
    assert_eq!(seated["live"]["seats"]["north"]["name"], "Bo", "{seated}");

    // Accepting again makes no second game.
    let (status, e) = send(&router, Method::POST, &accept, &bo, None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{e}");
    assert_eq!(e["code"], "challenge-gone");

    // Ana's list says where the game is; each token plays its own seat.
    let mine = &challenges_of(&router, &ana).await[0];
    assert_eq!(mine["state"], "accepted");
    assert_eq!(mine["game_id"], game);
    assert!(challenges_of(&router, &bo).await.is_empty());
    let moves = format!("/api/live/{game}/moves");
    let (status, e) = Call::new(Method::POST, &moves)
        .seat(Some(&bo_token))
        .json(json!({"move": "A", "ply": 0}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "North cannot open: {e}");
    let (status, moved) = Call::new(Method::POST, &moves)
        .seat(Some(&ana_token))
        .json(json!({"move": "A", "ply": 0}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK, "{moved}");
}

#[tokio::test]
async fn a_declined_or_cancelled_challenge_makes_no_game_and_only_its_players_may_close_it() {
    let (router, _, _, [ana, bo, cy]) = app().await;
    let (_, made) = challenge(&router, &ana, "Bo").await;
    let id = made["challenge"]["id"].as_i64().unwrap();
    for (who, how) in [
        (&cy, "decline"),
        (&ana, "decline"),
        (&bo, "cancel"),
        (&cy, "accept"),
    ] {
        let (status, e) = answer(&router, id, how, who).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{how}: {e}");
    }
    let (status, declined) = answer(&router, id, "decline", &bo).await;
    assert_eq!(status, StatusCode::OK, "{declined}");
    assert_eq!(declined["state"], "declined");
    assert_eq!(declined["game_id"], Value::Null);
    assert_eq!(challenges_of(&router, &ana).await[0]["state"], "declined");

    let (_, made) = challenge(&router, &ana, "Bo").await;
    let id = made["challenge"]["id"].as_i64().unwrap();
    let (status, cancelled) = answer(&router, id, "cancel", &ana).await;
    assert_eq!(status, StatusCode::OK, "{cancelled}");
    assert_eq!(cancelled["state"], "cancelled");
    let (status, e) = answer(&router, id, "accept", &bo).await;
    assert_eq!(
        (status, e["code"].as_str()),
        (StatusCode::CONFLICT, Some("challenge-gone"))
    );
    let (status, e) = send(
        &router,
        Method::POST,
        "/api/challenges/999/accept",
        &bo,
        None,
    )
    .await;
    assert_eq!(
        (status, e["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("unknown-challenge"))
    );
}

#[tokio::test]
async fn a_challenge_expires_after_five_minutes_unanswered_and_is_deleted_a_day_later() {
    let (router, app, time, [ana, bo, _]) = app().await;
    let (_, made) = challenge(&router, &ana, "Bo").await;
    let id = made["challenge"]["id"].as_i64().unwrap();
    let expires = made["challenge"]["expires_ms"].as_i64().unwrap();
    assert_eq!(
        expires - made["challenge"]["created_ms"].as_i64().unwrap(),
        300_000
    );
    time.fetch_add(300_000, Ordering::SeqCst);
    assert!(
        challenges_of(&router, &bo).await.is_empty(),
        "gone from Bo's list"
    );
    assert_eq!(challenges_of(&router, &ana).await[0]["state"], "expired");
    let (status, e) = answer(&router, id, "accept", &bo).await;
    assert_eq!(status, StatusCode::CONFLICT, "{e}");
    assert!(e["error"].as_str().unwrap().contains("expired"), "{e}");
    // Ten minutes on, it leaves Ana's list too; and she may challenge Bo again.
    time.fetch_add(600_000, Ordering::SeqCst);
    assert!(challenges_of(&router, &ana).await.is_empty());
    let (status, again) = challenge(&router, &ana, "Bo").await;
    assert_eq!(status, StatusCode::CREATED);
    // A day after it expired the sweep deletes the first, and only the first.
    time.fetch_add(24 * 3_600_000 - 600_000, Ordering::SeqCst);
    assert_eq!(app.sweep_challenges().await.unwrap(), 0, "not yet a day");
    time.fetch_add(1_000, Ordering::SeqCst);
    assert_eq!(app.sweep_challenges().await.unwrap(), 1);
    assert!(app.store().challenge(id).unwrap().is_none());
    let kept = again["challenge"]["id"].as_i64().unwrap();
    assert!(app.store().challenge(kept).unwrap().is_some());
}

#[tokio::test]
async fn refusals_from_everyone_or_one_name_refuse_alike_and_can_be_lifted() {
    let (router, _, _, [ana, bo, cy]) = app().await;
    let (status, e) = send(
        &router,
        Method::PUT,
        "/api/account/refusals",
        &bo,
        Some(json!({"everyone": false, "names": ["Ana", "Nobody"]})),
    )
    .await;
    assert_eq!(
        (status, e["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("unknown-account"))
    );
    let (status, set) = send(
        &router,
        Method::PUT,
        "/api/account/refusals",
        &bo,
        Some(json!({"everyone": false, "names": ["ana"]})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{set}");
    assert_eq!(set, json!({"everyone": false, "names": ["Ana"]}));
    let (status, refused) = challenge(&router, &ana, "Bo").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{refused}");
    assert_eq!(refused["code"], "challenge-refused");
    assert_eq!(challenge(&router, &cy, "Bo").await.0, StatusCode::CREATED);

    send(
        &router,
        Method::PUT,
        "/api/account/refusals",
        &ana,
        Some(json!({"everyone": true, "names": []})),
    )
    .await;
    let (status, refused_all) = challenge(&router, &cy, "Ana").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // The same words whichever the reason.
    assert_eq!(
        refused_all["error"].as_str().unwrap().replace("Ana", "Bo"),
        refused["error"].as_str().unwrap()
    );
    let (_, read) = send(&router, Method::GET, "/api/account/refusals", &ana, None).await;
    assert_eq!(read, json!({"everyone": true, "names": []}));
    send(
        &router,
        Method::PUT,
        "/api/account/refusals",
        &bo,
        Some(json!({"everyone": false, "names": []})),
    )
    .await;
    assert_eq!(challenge(&router, &ana, "Bo").await.0, StatusCode::CREATED);
}

#[tokio::test]
async fn bad_challenges_are_refused_with_what_is_wrong() {
    let (router, _, _, [ana, _, _]) = app().await;
    let cases = [
        (
            json!({"to": "Ana", "game": "hoyito-ii"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "another player",
        ),
        (
            json!({"to": "Zed", "game": "hoyito-ii"}),
            StatusCode::NOT_FOUND,
            "Zed",
        ),
        (
            json!({"to": "Bo", "game": "chess"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "chess",
        ),
        (
            json!({"to": "Bo", "game": "ayoayo", "seat": "east"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "seat",
        ),
        (
            json!({"to": "Bo", "game": "ayoayo", "days_per_move": 4}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "days_per_move",
        ),
        (
            json!({"to": "Bo", "game": "ayoayo", "days_per_move": 3, "clock": {"base_ms": 60000, "increment_ms": 0}}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "one or the other",
        ),
    ];
    for (body, status, says) in cases {
        let (got, e) = send(
            &router,
            Method::POST,
            "/api/challenges",
            &ana,
            Some(body.clone()),
        )
        .await;
        assert_eq!(got, status, "{body}: {e}");
        assert!(e["error"].as_str().unwrap().contains(says), "{body}: {e}");
    }
    assert!(
        challenges_of(&router, &ana).await.is_empty(),
        "nothing was made"
    );
    // A correspondence challenge says its days.
    let (status, made) = send(
        &router,
        Method::POST,
        "/api/challenges",
        &ana,
        Some(json!({"to": "Bo", "game": "ayoayo", "days_per_move": 3, "rated": true})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    assert_eq!(made["challenge"]["days_per_move"], 3);
    assert_eq!(made["challenge"]["clock"], Value::Null);
    assert_eq!(made["challenge"]["game"], "ayoayo");
}

#[tokio::test]
async fn challenges_are_capped_one_to_each_player_and_five_open() {
    let (router, _, _, [ana, _, _]) = app().await;
    assert_eq!(challenge(&router, &ana, "Bo").await.0, StatusCode::CREATED);
    let (status, e) = challenge(&router, &ana, "Bo").await;
    assert_eq!(status, StatusCode::CONFLICT, "one open to Bo already: {e}");
    for name in ["Di", "Ed", "Flo", "Gus"] {
        sign_up(&router, name, None).await;
        assert_eq!(challenge(&router, &ana, name).await.0, StatusCode::CREATED);
    }
    sign_up(&router, "Hal", None).await;
    let (status, e) = challenge(&router, &ana, "Hal").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{e}");
}

#[tokio::test]
async fn every_challenge_route_needs_a_session_and_refuses_another_site() {
    let (router, _, _, [ana, bo, _]) = app().await;
    let (_, made) = challenge(&router, &ana, "Bo").await;
    let id = made["challenge"]["id"].as_i64().unwrap();
    let routes = [
        (
            Method::POST,
            "/api/challenges".to_owned(),
            Some(json!({"to": "Bo", "game": "ayoayo"})),
        ),
        (Method::GET, "/api/challenges".to_owned(), None),
        (Method::POST, format!("/api/challenges/{id}/accept"), None),
        (Method::POST, format!("/api/challenges/{id}/decline"), None),
        (Method::DELETE, format!("/api/challenges/{id}"), None),
        (Method::GET, "/api/account/refusals".to_owned(), None),
        (
            Method::PUT,
            "/api/account/refusals".to_owned(),
            Some(json!({"everyone": true, "names": []})),
        ),
        (Method::GET, "/api/account/socket".to_owned(), None),
    ];
    for (method, path, body) in &routes {
        let call = Call::new(method.clone(), path);
        let (status, e) = match body {
            Some(body) => call.json(body.clone()).send(&router).await,
            None => call.send(&router).await,
        };
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{method} {path}: {e}");
    }
    let hostile = common::Who {
        cookie: Some(&bo),
        headers: vec![
            ("origin", "http://evil.example"),
            ("sec-fetch-site", "cross-site"),
        ],
        ..common::Who::default()
    };
    for (method, path, body) in routes.iter().filter(|r| r.0 != Method::GET) {
        let call = Call::new(method.clone(), path).by(&hostile);
        let (status, e) = match body {
            Some(body) => call.json(body.clone()).send(&router).await,
            None => call.send(&router).await,
        };
        assert_eq!(status, StatusCode::FORBIDDEN, "{method} {path}: {e}");
    }
    assert_eq!(
        challenges_of(&router, &bo).await[0]["state"],
        "open",
        "nothing changed"
    );
}

#[tokio::test]
async fn the_notices_socket_brings_each_change_to_both_players_at_once() {
    let (router, app, _, [ana, bo, _]) = app().await;
    let addr = common::serve(app).await;
    let mut bo_socket = common::notices_socket(addr, &bo, None).await.unwrap();
    let mut ana_socket = common::notices_socket(addr, &ana, None).await.unwrap();
    assert!(common::next_challenges(&mut bo_socket).await.is_empty());
    assert!(common::next_challenges(&mut ana_socket).await.is_empty());

    let (_, made) = challenge(&router, &ana, "Bo").await;
    let id = made["challenge"]["id"].as_i64().unwrap();
    let seen = common::next_challenges(&mut bo_socket).await;
    assert_eq!((seen.len(), &seen[0]["from"]), (1, &json!("Ana")));
    assert_eq!(
        common::next_challenges(&mut ana_socket).await[0]["state"],
        "open"
    );

    answer(&router, id, "accept", &bo).await;
    assert!(common::next_challenges(&mut bo_socket).await.is_empty());
    let accepted = &common::next_challenges(&mut ana_socket).await[0];
    assert_eq!(accepted["state"], "accepted");
    assert!(accepted["game_id"].is_i64());

    // A ping is answered; another site's page and a page without a session get no socket.
    ana_socket
        .send(Message::text(r#"{"type": "ping"}"#))
        .await
        .unwrap();
    let pong = tokio::time::timeout(Duration::from_secs(5), ana_socket.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(pong.into_text().unwrap().as_str(), r#"{"type":"pong"}"#);
    let refused = common::notices_socket(addr, &ana, Some("http://evil.example")).await;
    assert!(refused.unwrap_err().contains("403"));
    let refused = common::notices_socket(addr, &"0".repeat(32), None).await;
    assert!(refused.unwrap_err().contains("401"));
}

#[tokio::test]
async fn making_and_answering_challenges_are_rate_limited_per_address() {
    // The default bursts, refilled once an hour: how many are refused does not depend on
    // how fast this machine answers.
    let defaults = AbuseLimits::default();
    let hourly = |rate: Rate| Rate {
        every: Duration::from_secs(3600),
        ..rate
    };
    let limits = AbuseLimits {
        act: hourly(defaults.act),
        create: hourly(defaults.create),
        ..defaults
    };
    let router = router(Arc::new(App::new(common::store(), 1).with_limits(limits)));
    let [ana, bo] = [
        sign_up(&router, "Ana", None).await,
        sign_up(&router, "Bo", None).await,
    ];
    let mut made = 0;
    for _ in 0..limits.create.burst + 3 {
        let (status, e) = challenge(&router, &ana, "Bo").await;
        match status {
            StatusCode::CREATED => {
                made += 1;
                let id = e["challenge"]["id"].as_i64().unwrap();
                answer(&router, id, "cancel", &ana).await;
            }
            StatusCode::TOO_MANY_REQUESTS => {}
            other => panic!("{other}: {e}"),
        }
    }
    assert_eq!(made, limits.create.burst as usize, "only a burst is made");
    let body = json!({"everyone": false, "names": []});
    let mut limited = 0;
    for _ in 0..limits.act.burst + 5 {
        let (status, _) = send(
            &router,
            Method::PUT,
            "/api/account/refusals",
            &bo,
            Some(body.clone()),
        )
        .await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            limited += 1;
        }
    }
    // Each cancel above was an act too.
    assert_eq!(
        limited,
        5 + made,
        "{limited} refused of {}",
        limits.act.burst + 5
    );
}

#[tokio::test]
async fn a_seat_held_by_an_account_acts_from_any_device_with_the_session_alone() {
    let (router, _, _, [ana, bo, cy]) = app().await;
    let game = accepted_game(&router, &ana, &bo).await;
    let moves = format!("/api/live/{game}/moves");
    let first = json!({"move": "A", "ply": 0});
    // Neither Cy's session nor no credentials at all acts for a seat; Bo's is North's, whose
    // turn it is not.
    for who in [Some(cy.as_str()), None] {
        let call = Call::new(Method::POST, &moves).json(first.clone());
        let call = match who {
            Some(cookie) => call.by(&with_cookie(cookie)),
            None => call,
        };
        let (status, e) = call.send(&router).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{e}");
    }
    let (status, e) = send(&router, Method::POST, &moves, &bo, Some(first.clone())).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{e}");
    assert!(e["error"].as_str().unwrap().contains("turn"), "{e}");
    // Ana, on a device without her token, moves with her session; so does Bo after her.
    let (status, moved) = send(&router, Method::POST, &moves, &ana, Some(first)).await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    let state = &moved["game"]["state"];
    let mover = if state["to_move"] == "south" {
        &ana
    } else {
        &bo
    };
    let legal = state["legal"][0].clone();
    let (status, moved) = send(
        &router,
        Method::POST,
        &moves,
        mover,
        Some(json!({"move": legal, "ply": 1})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    // A session also offers, and resigns, for its seat.
    let (status, view) = send(
        &router,
        Method::POST,
        &format!("/api/live/{game}/resign"),
        &bo,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["live"]["result"]["outcome"], "south", "{view}");
}

#[tokio::test]
async fn a_live_socket_opened_with_the_session_of_a_seats_account_is_that_seat() {
    let (router, app, _, [ana, bo, cy]) = app().await;
    let addr = common::serve(app).await;
    let game = accepted_game(&router, &ana, &bo).await;
    for (cookie, seat) in [
        (&ana, json!("south")),
        (&bo, json!("north")),
        (&cy, Value::Null),
    ] {
        let mut request = format!("ws://{addr}/api/live/{game}/socket")
            .into_client_request()
            .unwrap();
        request.headers_mut().insert(
            "cookie",
            format!("sowing_session={cookie}").parse().unwrap(),
        );
        let (mut socket, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        socket
            .send(Message::text(r#"{"type": "hello", "token": null}"#))
            .await
            .unwrap();
        let first = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        let state: Value = serde_json::from_str(first.to_text().unwrap()).unwrap();
        assert_eq!(state["type"], "state", "{state}");
        assert_eq!(state["seat"], seat, "{state}");
    }
}
