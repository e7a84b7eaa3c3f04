//! `GET /api/games/{id}/tables` against the tables themselves, and the first-start build
//! handing its tables to a running server.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use sowing::{Position, Rules, Variant};
use sowing_engine::TableSet;
use sowing_tables::build::{build, Options};
use sowing_tables::Tables;
use sowing_web::store::Store;
use sowing_web::{first_tables, router, App};

mod common;
use common::send;

fn temp_dir(name: &str) -> PathBuf {
    let dir = common::temp_db(name).with_file_name("tables");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A game imported from a record that starts at `start` (a position text).
async fn game_from(router: &axum::Router, start: &str) -> i64 {
    let record = format!("[Game \"hoyito-ii\"]\n[Start \"{start}\"]\n\n*");
    let body = json!({ "record": record }).to_string();
    let (status, view) = send(router, Method::POST, "/api/records", Some(&body)).await;
    assert_eq!(status, StatusCode::CREATED, "{view}");
    view["id"].as_i64().unwrap()
}

async fn values(router: &axum::Router, id: i64) -> Value {
    let (status, body) = send(
        router,
        Method::GET,
        &format!("/api/games/{id}/tables"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

/// Eight seeds on the board, South to move: A wins 8, B draws, F loses 8 (inside tables to
/// 8 seeds). Captures level, so the final margin equals the value.
const INSIDE: &str = "hoyito-ii 2,1,0,0,0,1/0,0,3,1,0,0 20-20 S -";

#[tokio::test]
async fn each_move_has_the_value_the_tables_probe_gives() {
    let dir = temp_dir("values");
    let rules = Rules::new(Variant::HoyitoII);
    build(&dir, rules, 8, &Options::quiet()).unwrap();
    let tables = Tables::open(&dir, rules).unwrap();
    let set = Arc::new(TableSet::open(&dir).unwrap());
    let app = Arc::new(App::new(Store::in_memory().unwrap(), 2).with_tables(Some(set)));
    let router = router(app);

    let id = game_from(&router, INSIDE).await;
    let answer = values(&router, id).await;
    let probe = tables.probe(&INSIDE.parse::<Position>().unwrap()).unwrap();
    let expected: Vec<Value> = probe
        .moves
        .iter()
        .map(|(mv, v)| json!({"move": mv.name(6).to_string(), "value": v}))
        .collect();
    assert_eq!(
        expected,
        [
            json!({"move": "A", "value": 8}),
            json!({"move": "B", "value": 0}),
            json!({"move": "F", "value": -8})
        ],
        "the position this test means"
    );
    assert_eq!(
        answer,
        json!({"max_seeds": 8, "building": false, "inside": true, "not_built": false,
               "value": probe.value,
               "moves": expected})
    );

    // The start position (48 seeds) is outside: no values, and the reach of the tables.
    let (_, view) = send(
        &router,
        Method::POST,
        "/api/games",
        Some(r#"{"game": "hoyito-ii"}"#),
    )
    .await;
    let start = values(&router, view["id"].as_i64().unwrap()).await;
    assert_eq!(
        start,
        json!({"max_seeds": 8, "building": false, "inside": false, "not_built": false,
               "value": null, "moves": []})
    );
    // A game with no tables on the server (Ayoayo here): none.
    let (_, view) = send(
        &router,
        Method::POST,
        "/api/games",
        Some(r#"{"game": "ayoayo"}"#),
    )
    .await;
    let none = values(&router, view["id"].as_i64().unwrap()).await;
    assert_eq!(none["max_seeds"], Value::Null);
    assert_eq!(none["inside"], false);
    // A set-up position of 5 seeds: within the reach of the tables, but its layer is not
    // built (only 4 and 8 are: those play from the start reaches).
    let id = game_from(&router, "hoyito-ii 1,1,1,1,1,0/0,0,0,0,0,0 20-23 S -").await;
    assert_eq!(
        values(&router, id).await,
        json!({"max_seeds": 8, "building": false, "inside": false, "not_built": true,
               "value": null, "moves": []})
    );
}

#[tokio::test]
async fn without_tables_and_for_unknown_games_the_route_says_so() {
    let router = router(Arc::new(App::new(Store::in_memory().unwrap(), 2)));
    let id = game_from(&router, INSIDE).await;
    assert_eq!(
        values(&router, id).await,
        json!({"max_seeds": null, "building": false, "inside": false, "not_built": false,
               "value": null, "moves": []})
    );
    let (status, body) = send(&router, Method::GET, "/api/games/999/tables", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["error"].as_str().unwrap().contains("999"), "{body}");
    let (status, body) = send(&router, Method::GET, "/api/games/x1/tables", None).await;
    assert!(status.is_client_error(), "{status}");
    assert!(body["error"].is_string(), "{body}");
}

#[tokio::test]
async fn the_first_start_build_hands_its_tables_to_the_running_server() {
    let dir = temp_dir("first");
    assert_eq!(
        first_tables::missing(&dir, 8).len(),
        3,
        "an empty directory"
    );
    let app = Arc::new(App::new(Store::in_memory().unwrap(), 2));
    let router = router(app.clone());
    let id = game_from(&router, INSIDE).await;
    first_tables::spawn(app, dir.clone(), first_tables::missing(&dir, 8), 8);
    let deadline = Instant::now() + Duration::from_secs(120);
    let answer = loop {
        let answer = values(&router, id).await;
        if answer["building"] == false {
            break answer;
        }
        assert_eq!(
            answer["inside"], false,
            "no tables while building: {answer}"
        );
        assert!(Instant::now() < deadline, "the build did not finish");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(answer["max_seeds"], 8, "{answer}");
    assert_eq!(answer["inside"], true, "{answer}");
    assert_eq!(answer["value"], 8, "{answer}");
    assert!(
        first_tables::missing(&dir, 8).is_empty(),
        "every game built"
    );
    assert_eq!(first_tables::missing(&dir, 9).len(), 3, "and no further");
    // The engines take them too: level 6 answers with the proven final margin (the
    // captures so far are level, so it is the value).
    let (status, reply) = send(
        &router,
        Method::POST,
        &format!("/api/games/{id}/engine"),
        Some(r#"{"engine": "level:6", "time_ms": 2000}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["engine"]["score"]["kind"], "proven", "{reply}");
    assert_eq!(
        reply["engine"]["score"]["south"].as_f64(),
        answer["value"].as_i64().map(|v| v as f64),
        "{reply} {answer}"
    );
}
