//! Correspondence games (docs/api.md, "Play a friend"): days for each move instead of a
//! clock, rated as a speed of their own, the *Your turn* list, and a game whose time ran out
//! ended by the server's sweep with nobody connected. Time is moved by hand. Run on SQLite,
//! and with `SOWING_TEST_STORE=postgres` on PostgreSQL (`scripts/test` does both).

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use axum::http::{Method, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use sowing_web::clock::{now_ms, TimeSource};
use sowing_web::{router, App};

mod common;
use common::{sign_up, with_cookie, Call};

const DAY: i64 = 86_400_000;

async fn turns(router: &Router, session: &str) -> Vec<Value> {
    let (status, body) = Call::new(Method::GET, "/api/account/turns")
        .by(&with_cookie(session))
        .send(router)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["games"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_correspondence_game_over_two_days_lists_whose_turn_it_is_and_its_timeout_ends_it() {
    let time = Arc::new(AtomicI64::new(now_ms()));
    let app = Arc::new(App::new(common::store(), 1).with_time(TimeSource::Manual(time.clone())));
    let router = router(app.clone());
    let (ana, bo) = (
        sign_up(&router, "Ana", Some(&"a".repeat(32))).await,
        sign_up(&router, "Bo", Some(&"b".repeat(32))).await,
    );
    let (status, posted) = Call::new(Method::POST, "/api/live")
        .by(&with_cookie(&ana))
        .json(json!({"game": "hoyito-ii", "lobby": true, "rated": true, "days_per_move": 1}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::CREATED, "{posted}");
    assert_eq!(posted["live"]["speed"], "correspondence");
    assert_eq!(posted["live"]["clock"]["days_per_move"], 1);
    let id = posted["live"]["id"].as_i64().unwrap();
    let (status, taken) = Call::new(Method::POST, format!("/api/live/{id}/accept"))
        .by(&with_cookie(&bo))
        .json(json!({}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK, "{taken}");
    assert_eq!(
        taken["live"]["first_move_by_ms"],
        Value::Null,
        "no 30 s first move in correspondence"
    );
    let ana_token = posted["token"].as_str().unwrap().to_owned();
    let bo_token = taken["token"].as_str().unwrap().to_owned();
    // Ana (South) is to move: her list has the game, Bo's none.
    let mine = turns(&router, &ana).await;
    assert_eq!(
        (mine.len(), mine[0]["id"].as_i64(), mine[0]["seat"].as_str()),
        (1, Some(id), Some("south"))
    );
    assert_eq!(mine[0]["days_per_move"], 1);
    assert!(turns(&router, &bo).await.is_empty());
    fn play<'a>(id: i64, token: &'a str, mv: &str, ply: usize) -> Call<'a> {
        Call::new(Method::POST, format!("/api/live/{id}/moves"))
            .seat(Some(token))
            .json(json!({"move": mv, "ply": ply}))
    }
    // Day 1: an hour later Ana moves; Bo has a day.
    time.fetch_add(3_600_000, Ordering::SeqCst);
    let (status, moved) = play(id, &ana_token, "A", 0).send(&router).await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    let to_move = moved["game"]["state"]["to_move"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(to_move, "north");
    assert!(turns(&router, &ana).await.is_empty());
    let bos = turns(&router, &bo).await;
    assert_eq!(bos[0]["left_ms"], DAY);
    // Day 2: 23 hours later Bo moves; Ana's day is whole again.
    time.fetch_add(23 * 3_600_000, Ordering::SeqCst);
    let legal = moved["game"]["state"]["legal"][0]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, moved) = play(id, &bo_token, &legal, 1).send(&router).await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    assert_eq!(
        moved["live"]["clock"]["south_ms"], DAY,
        "a whole day for every move"
    );
    assert_eq!(moved["live"]["result"], Value::Null);
    // Ana is away for a day and a second; nobody reads the game: the sweep ends it.
    time.fetch_add(DAY + 1_000, Ordering::SeqCst);
    assert_eq!(
        app.settle_due(time.load(Ordering::SeqCst)).await.unwrap(),
        1
    );
    assert_eq!(
        app.settle_due(time.load(Ordering::SeqCst)).await.unwrap(),
        0,
        "once"
    );
    let (_, view) = Call::new(Method::GET, format!("/api/live/{id}"))
        .send(&router)
        .await;
    assert_eq!(view["live"]["result"]["reason"], "flag", "{view}");
    assert_eq!(view["live"]["result"]["outcome"], "north");
    // Rated as correspondence, a speed of its own.
    let (_, profile) = Call::new(Method::GET, "/api/accounts/Bo")
        .send(&router)
        .await;
    assert_eq!(
        profile["ratings"][0]["speed"], "correspondence",
        "{profile}"
    );
    assert!(turns(&router, &ana).await.is_empty());
}

#[tokio::test]
async fn days_per_move_is_one_of_the_offered_and_never_with_a_clock() {
    let app = Arc::new(App::new(common::store(), 1));
    let router = router(app);
    for (body, says) in [
        (
            json!({"game": "ayoayo", "days_per_move": 4}),
            "days_per_move: 4",
        ),
        (
            json!({"game": "ayoayo", "days_per_move": 1, "clock": {"base_ms": 60000}}),
            "one or the other",
        ),
    ] {
        let (status, e) = Call::new(Method::POST, "/api/live")
            .json(body)
            .send(&router)
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
        assert!(e["error"].as_str().unwrap().contains(says), "{e}");
    }
    let (status, e) = Call::new(Method::GET, "/api/account/turns")
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{e}");
}
