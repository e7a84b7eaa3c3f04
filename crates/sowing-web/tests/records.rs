//! `POST /api/records` with a `client_id`: a game played offline and uploaded again (a page
//! reloaded, two tabs syncing at once) is stored once per owner. Runs on SQLite, and on
//! PostgreSQL with `SOWING_TEST_STORE=postgres` (see `common::store`).

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use sowing::{Game, Rules, Variant};
use sowing_web::store::{NewGame, StoreError};
use sowing_web::{router, App};

mod common;
use common::{sign_up, Call, Who, PLAYER_KEY};

/// Another player's key.
const OTHER_KEY: &str = "fedcba9876543210fedcba9876543210";

/// A finished-or-not game played offline, as the page uploads it.
const RECORD: &str = "[Game \"ayoayo\"]\n\n1. C 2. d *";

fn app() -> Router {
    router(Arc::new(App::new(common::store(), 2)))
}

fn upload(client_id: Value) -> Value {
    json!({"record": RECORD, "south": "human", "north": "level:4", "client_id": client_id})
}

/// Uploads [`RECORD`] under `client_id` as `who`: the status and the answer.
async fn sync(router: &Router, who: &Who<'_>, client_id: Value) -> (StatusCode, Value) {
    Call::new(Method::POST, "/api/records")
        .by(who)
        .json(upload(client_id))
        .send(router)
        .await
}

fn key(key: &str) -> Who<'_> {
    Who {
        key: Some(key),
        ..Who::default()
    }
}

/// The ids of the games `GET /api/games` lists for `who`.
async fn listed(router: &Router, who: &Who<'_>) -> Vec<i64> {
    let (status, list) = Call::new(Method::GET, "/api/games")
        .by(who)
        .send(router)
        .await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect()
}

#[tokio::test]
async fn a_record_uploaded_twice_with_one_client_id_is_one_game_and_the_second_answer_is_200() {
    let router = app();
    let me = key(PLAYER_KEY);
    let (status, first) = sync(&router, &me, json!("offline-game_1")).await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    let id = first["id"].as_i64().unwrap();
    assert_eq!(first["ply"], 2, "{first}");
    let (status, again) = sync(&router, &me, json!("offline-game_1")).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["id"], id);
    assert_eq!(again["state"], first["state"]);
    assert_eq!(again["history"], first["history"]);
    assert_eq!(listed(&router, &me).await, vec![id]);
    // Another name is another game; so is an upload without one, every time.
    let (status, other) = sync(&router, &me, json!("offline-game_2")).await;
    assert_eq!(status, StatusCode::CREATED, "{other}");
    assert_ne!(other["id"], id);
    for _ in 0..2 {
        let (status, plain) = Call::new(Method::POST, "/api/records")
            .json(json!({"record": RECORD}))
            .send(&router)
            .await;
        assert_eq!(status, StatusCode::CREATED, "{plain}");
    }
    let (status, null) = sync(&router, &me, Value::Null).await;
    assert_eq!(status, StatusCode::CREATED, "null is no client_id: {null}");
    assert_eq!(listed(&router, &me).await.len(), 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_uploads_with_one_client_id_store_one_game_and_all_answers_name_it() {
    let router = app();
    let uploads = (0..8).map(|_| {
        let router = router.clone();
        tokio::spawn(async move { sync(&router, &key(PLAYER_KEY), json!("two-tabs")).await })
    });
    let mut answers = Vec::new();
    for upload in uploads.collect::<Vec<_>>() {
        answers.push(upload.await.unwrap());
    }
    let created = answers
        .iter()
        .filter(|(status, _)| *status == StatusCode::CREATED)
        .count();
    assert_eq!(created, 1, "{answers:?}");
    let id = answers[0].1["id"].as_i64().unwrap();
    for (status, view) in &answers {
        assert!(
            [StatusCode::CREATED, StatusCode::OK].contains(status),
            "{status}: {view}"
        );
        assert_eq!(view["id"], id, "{view}");
    }
    assert_eq!(listed(&router, &key(PLAYER_KEY)).await, vec![id]);
}

#[tokio::test]
async fn the_same_client_id_under_another_owner_is_another_game() {
    let router = app();
    let (status, mine) = sync(&router, &key(PLAYER_KEY), json!("shared-name")).await;
    assert_eq!(status, StatusCode::CREATED, "{mine}");
    let (status, theirs) = sync(&router, &key(OTHER_KEY), json!("shared-name")).await;
    assert_eq!(status, StatusCode::CREATED, "{theirs}");
    assert_ne!(theirs["id"], mine["id"]);
    assert_eq!(
        listed(&router, &key(OTHER_KEY)).await,
        vec![theirs["id"].as_i64().unwrap()]
    );
    // A signed-in account is an owner of its own.
    let session = sign_up(&router, "Ana", None).await;
    let ana = Who {
        cookie: Some(&session),
        ..Who::default()
    };
    let (status, hers) = sync(&router, &ana, json!("shared-name")).await;
    assert_eq!(status, StatusCode::CREATED, "{hers}");
    let (status, again) = sync(&router, &ana, json!("shared-name")).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["id"], hers["id"]);
    assert_ne!(hers["id"], mine["id"]);
    assert_ne!(hers["id"], theirs["id"]);
}

#[tokio::test]
async fn a_bad_client_id_is_a_400_that_says_what_is_wrong_and_stores_nothing() {
    let router = app();
    let me = key(PLAYER_KEY);
    let long = "a".repeat(65);
    let cases = [
        (json!(long), "65 characters long; at most 64"),
        (json!(""), "empty"),
        (json!("two words"), "' ' at character 4"),
        (json!("ça"), "'ç' at character 1"),
        (json!("a/b"), "'/' at character 2"),
        (json!(42), "not a number"),
        (json!(["x"]), "not an array"),
        (json!({"id": "x"}), "not an object"),
        (json!(true), "not a boolean"),
    ];
    for (client_id, says) in cases {
        let (status, body) = sync(&router, &me, client_id.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{client_id}: {body}");
        assert_eq!(body["code"], "bad-request", "{body}");
        let error = body["error"].as_str().unwrap();
        assert!(
            error.starts_with("client_id: ") && error.contains(says),
            "{client_id}: {error}"
        );
    }
    assert_eq!(listed(&router, &me).await, Vec::<i64>::new());
    // The longest name there may be, of every character there may be, is taken.
    let longest = format!("{}-_09AZaz", "x".repeat(56));
    assert_eq!(longest.len(), 64);
    let (status, body) = sync(&router, &me, json!(longest)).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
}

#[tokio::test]
async fn a_keys_games_moving_into_an_account_that_has_their_client_id_keep_both_games() {
    let router = app();
    // The account's own upload, made under its session.
    let session = sign_up(&router, "Ana", None).await;
    let ana = Who {
        cookie: Some(&session),
        ..Who::default()
    };
    let (_, hers) = sync(&router, &ana, json!("same-game")).await;
    // The same name uploaded by a key signed out, which then signs in.
    let (status, keys) = sync(&router, &key(OTHER_KEY), json!("same-game")).await;
    assert_eq!(status, StatusCode::CREATED, "{keys}");
    let signed_in = Call::new(Method::POST, "/api/account/signin")
        .by(&key(OTHER_KEY))
        .json(json!({"name": "Ana", "password": "correct horse"}))
        .reply(&router)
        .await;
    assert_eq!(signed_in.status, StatusCode::OK, "{}", signed_in.body);
    let mut games = listed(&router, &ana).await;
    games.sort_unstable();
    let mut both = vec![hers["id"].as_i64().unwrap(), keys["id"].as_i64().unwrap()];
    both.sort_unstable();
    assert_eq!(games, both, "both games are the account's");
    // The name answers with the account's own game.
    let (status, again) = sync(&router, &ana, json!("same-game")).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["id"], hers["id"]);
}

#[test]
fn the_store_refuses_a_second_game_of_one_owner_and_client_id() {
    let store = common::store();
    let game = Game::new(Rules::new(Variant::Ayoayo));
    let named = |owner: [u8; 32], client_id: &'static str| {
        NewGame::new(&game, "human", "human")
            .owned_by(Some(owner))
            .synced_as(Some(client_id))
    };
    let first = store.create_game(&named([1; 32], "x")).unwrap();
    assert!(matches!(
        store.create_game(&named([1; 32], "x")),
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(store.game_by_client([1; 32], "x").unwrap(), Some(first));
    assert_eq!(store.game_by_client([2; 32], "x").unwrap(), None);
    let second = store.create_game(&named([2; 32], "x")).unwrap();
    assert_ne!(second, first);
    assert_eq!(store.game_by_client([2; 32], "x").unwrap(), Some(second));
    // Games without a name are never in each other's way.
    for _ in 0..2 {
        store
            .create_game(&NewGame::new(&game, "human", "human").owned_by(Some([1; 32])))
            .unwrap();
    }
    assert_eq!(store.list([1; 32], 10).unwrap().len(), 3);
}
