//! The API's answers to odd requests say what went wrong in JSON, briefly, and in the words
//! of docs/api.md (issue 12, "Fix what misled", point 14), and saved games can be deleted
//! (point 13).

use std::sync::Arc;

use axum::http::{header, Method, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use sowing_web::{router, App};

mod common;
use common::{send, Call};

fn app() -> Router {
    router(Arc::new(App::new(common::store(), 2)))
}

async fn create(router: &Router, body: Value) -> i64 {
    let (status, view) = send(router, Method::POST, "/api/games", Some(&body.to_string())).await;
    assert_eq!(status, StatusCode::CREATED, "{view}");
    view["id"].as_i64().unwrap()
}

fn error_of(value: &Value) -> &str {
    value["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no JSON error in {value}"))
}

#[tokio::test]
async fn a_path_that_is_not_utf8_is_a_json_400() {
    let router = app();
    for path in [
        "/api/games/%FF",
        "/api/games/%C3%28/moves/1",
        "/api/games/%FF/record",
    ] {
        let reply = Call::new(Method::GET, path).key(None).reply(&router).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{path}");
        assert_eq!(
            reply.headers[header::CONTENT_TYPE],
            "application/json",
            "{path}"
        );
        let body: Value = serde_json::from_str(&reply.text).unwrap();
        assert!(error_of(&body).contains("address"), "{body}");
    }
}

#[tokio::test]
async fn a_huge_move_is_not_echoed_back_whole() {
    let router = app();
    let id = create(&router, json!({"game": "hoyito-ii"})).await;
    let token = "C".repeat(5000);
    let body = json!({ "move": token }).to_string();
    let (status, answer) = send(
        &router,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(&body),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let message = error_of(&answer);
    assert!(message.len() < 120, "{message}");
    assert!(message.contains("5000 characters"), "{message}");
    assert_eq!(answer["legal"], json!(["A", "B", "C", "D", "E", "F"]));
    let long_id = "9".repeat(3000);
    let (status, answer) = send(&router, Method::GET, &format!("/api/games/{long_id}"), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(error_of(&answer).len() < 120, "{answer}");
}

#[tokio::test]
async fn a_body_that_is_not_an_object_is_named_as_json_names_it() {
    let router = app();
    let id = create(&router, json!({"game": "hoyito-ii"})).await;
    for (path, body, kind) in [
        (format!("/api/games/{id}/moves"), "[]", "an array"),
        (format!("/api/games/{id}/moves"), r#"["C", 0]"#, "an array"),
        ("/api/games".to_owned(), "[1]", "an array"),
        (format!("/api/games/{id}/undo"), "\"C\"", "a string"),
        (format!("/api/games/{id}/engine"), "7", "a number"),
    ] {
        let (status, answer) = send(&router, Method::POST, &path, Some(body)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{path} {body}");
        let message = error_of(&answer);
        assert!(
            message.contains(&format!("expected a JSON object, not {kind}")),
            "{message}"
        );
        assert!(!message.contains("struct"), "{message}");
    }
    let (status, answer) = send(&router, Method::POST, "/api/games", Some("[1,")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert!(error_of(&answer).contains("line 1"), "{answer}");
}

#[tokio::test]
async fn limit_zero_lists_no_game() {
    let router = app();
    create(&router, json!({"game": "hoyito-ii"})).await;
    create(&router, json!({"game": "ayoayo"})).await;
    for (query, count) in [("?limit=0", 0), ("?limit=1", 1), ("", 2)] {
        let (status, list) = send(&router, Method::GET, &format!("/api/games{query}"), None).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(list["games"].as_array().unwrap().len(), count, "{query}");
    }
}

#[tokio::test]
async fn every_player_the_api_accepts_is_in_docs_api_md() {
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/api.md")).unwrap();
    let line = docs
        .lines()
        .find(|l| l.starts_with("- `players`"))
        .expect("docs/api.md lists the players");
    let router = app();
    for (player, named) in [
        ("human", "`human`"),
        ("random", "`random`"),
        ("greedy", "`greedy`"),
        ("level:6", "`level:6`"),
        ("search", "`search"),
        ("search:depth=3", "`search"),
        ("mcts", "`mcts"),
    ] {
        create(&router, json!({"game": "hoyito-ii", "north": player})).await;
        assert!(
            line.contains(named),
            "docs/api.md's players omit {player}: {line}"
        );
    }
}

#[tokio::test]
async fn a_saved_game_can_be_deleted_but_not_a_round_of_a_match() {
    let router = app();
    let id = create(&router, json!({"game": "hoyito-ii"})).await;
    let (status, _) = send(
        &router,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(r#"{"move":"C"}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = send(&router, Method::DELETE, &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, answer) = send(&router, Method::GET, &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
    let (status, _) = send(&router, Method::DELETE, &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, list) = send(&router, Method::GET, "/api/games", None).await;
    assert_eq!(list["games"], json!([]));

    let round = create(&router, json!({"game": "hoyito-iii", "rounds": 3})).await;
    let (status, answer) = send(
        &router,
        Method::DELETE,
        &format!("/api/games/{round}"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(error_of(&answer).contains("match"), "{answer}");
    let (status, _) = send(&router, Method::GET, &format!("/api/games/{round}"), None).await;
    assert_eq!(status, StatusCode::OK);
}
