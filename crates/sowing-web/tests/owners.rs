//! Every one-screen game has an owner (issue 23, point 2): only the player key that created
//! it may change or delete it, anyone may watch it, the list shows a key its own games, and
//! an id is never given twice.

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use sowing_web::{router, App};

mod common;
use common::Call;

const MINE: &str = "00112233445566778899aabbccddeeff";
const THEIRS: &str = "ffeeddccbbaa99887766554433221100";

fn app() -> Router {
    router(Arc::new(App::new(common::store(), 2)))
}

async fn create(router: &Router, key: Option<&str>) -> Value {
    let (status, view) = Call::new(Method::POST, "/api/games")
        .key(key)
        .json(json!({"game": "hoyito-ii"}))
        .send(router)
        .await;
    assert_eq!(status, StatusCode::CREATED, "{view}");
    view
}

#[tokio::test]
async fn only_the_owner_changes_or_deletes_a_game_and_anyone_may_watch_it() {
    let router = app();
    let id = create(&router, Some(MINE)).await["id"].as_i64().unwrap();
    let game = format!("/api/games/{id}");
    for key in [Some(THEIRS), None] {
        for (method, path, body) in [
            (
                Method::POST,
                format!("{game}/moves"),
                Some(json!({"move": "A"})),
            ),
            (Method::POST, format!("{game}/undo"), None),
            (Method::POST, format!("{game}/redo"), None),
            (
                Method::POST,
                format!("{game}/engine"),
                Some(json!({"play": true, "engine": "random"})),
            ),
            (Method::DELETE, game.clone(), None),
        ] {
            let (status, answer) = Call::new(method.clone(), &path)
                .key(key)
                .json(body)
                .send(&router)
                .await;
            assert_eq!(
                status,
                StatusCode::FORBIDDEN,
                "{method} {path} with {key:?}: {answer}"
            );
            let error = answer["error"].as_str().unwrap();
            assert!(error.contains("belongs to another player"), "{error}");
        }
    }
    // Watching, replaying, downloading and hints are for anyone.
    let (status, view) = Call::new(Method::GET, &game)
        .key(Some(THEIRS))
        .send(&router)
        .await;
    assert_eq!((status, view["ply"].clone()), (StatusCode::OK, json!(0)));
    let (status, _) = Call::new(Method::GET, format!("{game}/record"))
        .key(None)
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK);
    let hint = json!({"play": false, "engine": "greedy", "time_ms": 50});
    let (status, answer) = Call::new(Method::POST, format!("{game}/engine"))
        .key(Some(THEIRS))
        .json(hint)
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    // The owner may do all of it.
    let (status, answer) = Call::new(Method::POST, format!("{game}/moves"))
        .key(Some(MINE))
        .json(json!({"move": "A"}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (status, _) = Call::new(Method::POST, format!("{game}/undo"))
        .key(Some(MINE))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = Call::new(Method::DELETE, &game)
        .key(Some(MINE))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn a_game_created_without_a_key_hands_one_back_once() {
    let router = app();
    let view = create(&router, None).await;
    let key = view["player_key"]
        .as_str()
        .expect("a key in the 201 answer")
        .to_owned();
    assert!(
        key.len() == 32 && key.bytes().all(|b| b.is_ascii_hexdigit()),
        "{key}"
    );
    let id = view["id"].as_i64().unwrap();
    let (_, again) = Call::new(Method::GET, format!("/api/games/{id}"))
        .key(None)
        .send(&router)
        .await;
    assert!(
        again.get("player_key").is_none(),
        "the key is never shown again: {again}"
    );
    let (status, answer) = Call::new(Method::POST, format!("/api/games/{id}/moves"))
        .key(Some(&key))
        .json(json!({"move": "A"}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    // A key brought is not handed back.
    assert!(create(&router, Some(MINE))
        .await
        .get("player_key")
        .is_none());
}

#[tokio::test]
async fn the_list_shows_a_key_its_own_games_only() {
    let router = app();
    let mine = create(&router, Some(MINE)).await["id"].clone();
    let theirs = create(&router, Some(THEIRS)).await["id"].clone();
    let listed = |list: &Value| -> Vec<Value> {
        list["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].clone())
            .collect()
    };
    let (_, list) = Call::new(Method::GET, "/api/games")
        .key(Some(MINE))
        .send(&router)
        .await;
    assert_eq!(listed(&list), [mine]);
    let (_, list) = Call::new(Method::GET, "/api/games")
        .key(Some(THEIRS))
        .send(&router)
        .await;
    assert_eq!(listed(&list), [theirs]);
    let (status, list) = Call::new(Method::GET, "/api/games")
        .key(None)
        .send(&router)
        .await;
    assert_eq!((status, listed(&list)), (StatusCode::OK, vec![]));
}

#[tokio::test]
async fn a_malformed_key_is_a_400() {
    let router = app();
    for key in [
        "short",
        "zz112233445566778899aabbccddeeff",
        "00112233445566778899aabbccddeeff00",
    ] {
        let (status, answer) = Call::new(Method::GET, "/api/games")
            .key(Some(key))
            .send(&router)
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{key}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains("X-Player-Key"),
            "{answer}"
        );
    }
}

#[tokio::test]
async fn a_deleted_games_id_is_not_given_again() {
    let router = app();
    let first = create(&router, Some(MINE)).await["id"].as_i64().unwrap();
    let second = create(&router, Some(MINE)).await["id"].as_i64().unwrap();
    let (status, _) = Call::new(Method::DELETE, format!("/api/games/{second}"))
        .key(Some(MINE))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let third = create(&router, Some(THEIRS)).await["id"].as_i64().unwrap();
    assert!(third > second && second > first, "{first} {second} {third}");
    let (status, _) = Call::new(Method::GET, format!("/api/games/{second}"))
        .key(None)
        .send(&router)
        .await;
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "the old link opens nobody's game"
    );
}
