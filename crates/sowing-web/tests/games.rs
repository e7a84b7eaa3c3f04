//! The games service through the API: the bound on games in memory, and games whose stored
//! moves no longer replay.

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use sowing_web::store::Store;
use sowing_web::{router, App};

mod common;
use common::temp_db;
use common::Call;

#[tokio::test]
async fn the_cache_keeps_its_bound_and_evicted_games_come_back_from_the_store() {
    let app = Arc::new(App::with_cache(common::store(), 1, 3));
    let server = router(app.clone());
    let mut games = Vec::new();
    for i in 0..10 {
        let game = ["hoyito-ii", "hoyito-iii", "ayoayo"][i % 3];
        let (status, view) = Call::new(Method::POST, "/api/games")
            .json(json!({ "game": game }))
            .send(&server)
            .await;
        assert_eq!(status, StatusCode::CREATED);
        let id = view["id"].as_i64().unwrap();
        let mv = view["state"]["legal"][i % 4].clone();
        let (status, answer) = Call::new(Method::POST, format!("/api/games/{id}/moves"))
            .json(json!({ "move": mv }))
            .send(&server)
            .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert!(
            app.cached_games() <= 3,
            "{} games cached",
            app.cached_games()
        );
        games.push((id, answer["game"].clone()));
    }
    assert_eq!(app.cached_games(), 3);
    // The first games left memory; each reads back whole, and plays on.
    for (id, before) in &games {
        let (status, after) = Call::new(Method::GET, format!("/api/games/{id}"))
            .json(Value::Null)
            .send(&server)
            .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(after["state"], before["state"]);
        assert_eq!(after["history"], before["history"]);
        assert!(app.cached_games() <= 3);
    }
    let (id, before) = &games[0];
    let mv = before["state"]["legal"][0].clone();
    let (status, answer) = Call::new(Method::POST, format!("/api/games/{id}/moves"))
        .json(json!({ "move": mv, "ply": 1 }))
        .send(&server)
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["game"]["ply"], 2);
    assert_eq!(app.store().stored_moves(*id).unwrap(), 2);
}

#[tokio::test]
async fn a_game_that_no_longer_replays_says_so_and_keeps_its_moves() {
    let path = temp_db("damaged");
    let id = {
        let server = router(Arc::new(App::new(Store::open(&path).unwrap(), 1)));
        let (_, view) = Call::new(Method::POST, "/api/games")
            .json(json!({"game": "hoyito-ii"}))
            .send(&server)
            .await;
        let id = view["id"].as_i64().unwrap();
        let (status, _) = Call::new(Method::POST, format!("/api/games/{id}/moves"))
            .json(json!({"move": "A"}))
            .send(&server)
            .await;
        assert_eq!(status, StatusCode::OK);
        id
    };
    // As if the rules had changed since: the stored first move is no longer legal.
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute("UPDATE moves SET mv = 'a' WHERE game_id = ?1", [id])
        .unwrap();
    drop(conn);

    let app = Arc::new(App::new(Store::open(&path).unwrap(), 1));
    let server = router(app.clone());
    let game = format!("/api/games/{id}");
    let (status, body) = Call::new(Method::GET, &game)
        .json(Value::Null)
        .send(&server)
        .await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    let error = body["error"].as_str().unwrap();
    assert!(
        error.contains("move 1 (\"a\") no longer replays"),
        "{error}"
    );
    assert!(error.contains("kept"), "{error}");
    // Nothing is played over it or taken back from it.
    for (path, body) in [
        (format!("{game}/moves"), json!({"move": "B"})),
        (format!("{game}/undo"), json!({})),
    ] {
        let (status, _) = Call::new(Method::POST, &path)
            .json(body)
            .send(&server)
            .await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{path}");
    }
    assert_eq!(app.store().stored_moves(id).unwrap(), 1);
    assert_eq!(app.store().game_row(id).unwrap().unwrap().plies, 1);
    // It is still listed.
    let (_, list) = Call::new(Method::GET, "/api/games")
        .json(Value::Null)
        .send(&server)
        .await;
    assert_eq!(list["games"][0]["id"], id);
    std::fs::remove_dir_all(path.parent().unwrap()).ok();
}
