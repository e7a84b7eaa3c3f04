//! PostgreSQL shared by several servers: what one writes the others see, stale writes are
//! refused by the database, and every commit is announced to every listener. Skipped (with
//! a line saying so) when `SOWING_TEST_POSTGRES` is not set; `scripts/test` sets it.

mod common;

use std::sync::{mpsc, Arc};
use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::json;
use sowing::{Game, Rules, Side, Variant};
use sowing_web::clock::Clock;
use sowing_web::store::{Change, LiveRow, Offers, Store, StoreError};
use sowing_web::{router, App};

/// Two stores (two pools, as two servers have) on one fresh database.
fn two_stores(test: &str) -> Option<(Store, Store)> {
    common::postgres_server(test)?;
    let url = common::fresh_postgres_db()?;
    Some((Store::connect(&url).unwrap(), Store::connect(&url).unwrap()))
}

#[test]
fn a_move_stored_through_one_store_is_read_through_the_other() {
    let Some((a, b)) = two_stores("a_move_stored_through_one_store_is_read_through_the_other")
    else {
        return;
    };
    let mut game = Game::new(Rules::new(Variant::Ayoayo));
    let id = a.create_game(&game, "human", "human", None).unwrap();
    for _ in 0..3 {
        game.play(game.legal_moves()[0]).unwrap();
        a.append_move(id, &game).unwrap();
    }
    let (row, loaded) = b.load(id).unwrap().unwrap();
    assert_eq!(loaded.moves(), game.moves());
    assert_eq!((row.plies, row.version), (3, 3));
    assert_eq!(b.version(id).unwrap(), Some(3));
    assert_eq!(b.integrity_check().unwrap(), "ok");
}

#[test]
fn a_write_onto_a_version_another_server_changed_is_refused() {
    let Some((a, b)) = two_stores("a_write_onto_a_version_another_server_changed_is_refused")
    else {
        return;
    };
    let start = Game::new(Rules::new(Variant::HoyitoII));
    let id = a.create_game(&start, "human", "human", None).unwrap();
    // Both servers hold the game at version 0; A moves first.
    let mut through_a = start.clone();
    through_a.play(through_a.parse_move("A").unwrap()).unwrap();
    a.append_move_at(id, &through_a, 0).unwrap();
    let mut through_b = start.clone();
    through_b.play(through_b.parse_move("B").unwrap()).unwrap();
    let refused = b.append_move_at(id, &through_b, 0);
    assert!(
        matches!(refused, Err(StoreError::Conflict(_))),
        "{refused:?}"
    );
    // The same ply without a version: the primary key (game, ply) refuses it.
    let refused = b.append_move(id, &through_b);
    assert!(
        matches!(refused, Err(StoreError::Conflict(_))),
        "{refused:?}"
    );
    // A takeback onto a stale version is refused too, and nothing changed.
    let refused = b.truncate_at(id, &start, 0);
    assert!(
        matches!(refused, Err(StoreError::Conflict(_))),
        "{refused:?}"
    );
    let (row, game) = b.load(id).unwrap().unwrap();
    assert_eq!(game.moves(), through_a.moves());
    assert_eq!(row.version, 1);
    // A move onto a game missing the moves before it (a gap) is refused.
    let mut ahead = through_a.clone();
    ahead.play(ahead.legal_moves()[0]).unwrap();
    ahead.play(ahead.legal_moves()[0]).unwrap();
    let refused = b.append_move(id, &ahead);
    assert!(
        matches!(refused, Err(StoreError::Conflict(_))),
        "{refused:?}"
    );
    assert_eq!(b.stored_moves(id).unwrap(), 1);
}

#[test]
fn every_commit_is_announced_to_every_listener() {
    let Some((a, b)) = two_stores("every_commit_is_announced_to_every_listener") else {
        return;
    };
    let (tx, rx) = mpsc::channel::<Change>();
    b.listen(move |change| {
        let _ = tx.send(change);
    })
    .unwrap();
    let mut game = Game::new(Rules::new(Variant::HoyitoIII));
    let id = a.create_game(&game, "human", "human", None).unwrap();
    game.play(game.legal_moves()[0]).unwrap();
    a.append_move(id, &game).unwrap();
    game.undo();
    a.truncate(id, &game).unwrap();
    a.delete(id).unwrap();
    let heard: Vec<(i64, usize, i64)> = (0..4)
        .map(|_| {
            let c = rx.recv_timeout(Duration::from_secs(10)).expect("a notice");
            (c.game, c.plies, c.version)
        })
        .collect();
    assert_eq!(heard, [(id, 0, 0), (id, 1, 1), (id, 0, 2), (id, 0, -1)]);
    // A refused write announces nothing.
    let refused = a.truncate_at(id, &game, 7);
    assert!(refused.is_err());
    assert!(rx.recv_timeout(Duration::from_millis(300)).is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_services_on_one_database_serve_each_others_moves() {
    let Some(_) = common::postgres_server("two_services_on_one_database_serve_each_others_moves")
    else {
        return;
    };
    let url = common::fresh_postgres_db().unwrap();
    let app_a = Arc::new(App::new(Store::connect(&url).unwrap(), 1));
    let app_b = Arc::new(App::new(Store::connect(&url).unwrap(), 1));
    app_b.listen().unwrap();
    let (a, b) = (router(app_a), router(app_b.clone()));
    let (status, view) = common::send(
        &a,
        Method::POST,
        "/api/games",
        Some(&json!({"game": "hoyito-ii"}).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{view}");
    let id = view["id"].as_i64().unwrap();
    // B reads (and keeps) the game, then hears of and serves the move made through A.
    let (status, _) = common::send(&b, Method::GET, &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    let mut heard = app_b.hub().subscribe(id, true);
    // Subscribing wakes the game's sockets (the spectator count): take that notice first.
    heard.changed().await;
    let moves = format!("/api/games/{id}/moves");
    let body = json!({"move": "A", "ply": 0}).to_string();
    let (status, answer) = common::send(&a, Method::POST, &moves, Some(&body)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    tokio::time::timeout(Duration::from_secs(10), heard.changed())
        .await
        .expect("B's live hub hears of A's move");
    let (_, view) = common::send(&b, Method::GET, &format!("/api/games/{id}"), None).await;
    assert_eq!(view["ply"], 1, "{view}");
    // B, told ply 0 by a client that missed A's move, refuses it as stale.
    let body = json!({"move": "B", "ply": 0}).to_string();
    let (status, answer) = common::send(&b, Method::POST, &moves, Some(&body)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    // B's move at ply 1 is seen through A, which kept the game at ply 1.
    let legal = view["state"]["legal"][0].as_str().unwrap().to_owned();
    let body = json!({"move": legal, "ply": 1}).to_string();
    let (status, answer) = common::send(&b, Method::POST, &moves, Some(&body)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (_, view) = common::send(&a, Method::GET, &format!("/api/games/{id}"), None).await;
    assert_eq!(view["ply"], 2, "{view}");
}

/// An open challenge by Ana (South) from 192.0.2.1, with a 60+2 clock.
fn open_challenge() -> LiveRow {
    LiveRow {
        game_id: 0,
        seats: [Some([7; 32]), None],
        names: [Some("Ana".into()), None],
        lobby: true,
        address: Some("192.0.2.1".into()),
        clock: Some(Clock::new(60_000, 2_000)),
        offers: Offers::default(),
        result: None,
        rematch: None,
        takebacks: 0,
        version: 0,
        created_ms: 1_000,
        touched_ms: 1_000,
    }
}

#[test]
fn a_live_game_written_through_one_store_is_read_and_guarded_through_the_other() {
    let Some((a, b)) =
        two_stores("a_live_game_written_through_one_store_is_read_and_guarded_through_the_other")
    else {
        return;
    };
    let mut game = Game::new(Rules::new(Variant::HoyitoII));
    let challenge = open_challenge();
    let id = a.create_live_game(&game, &challenge, None).unwrap();
    let read = b.live_row(id).unwrap().unwrap();
    assert_eq!(
        read,
        LiveRow {
            game_id: id,
            ..challenge.clone()
        }
    );
    assert_eq!(b.open_challenges("192.0.2.1").unwrap(), (1, 1));
    assert_eq!(b.open_challenges("192.0.2.2").unwrap(), (1, 0));
    assert_eq!(b.lobby(10).unwrap()[0].1, read);
    // Open since 1000 ms: stale for a sweep of open challenges older than 2000 ms only.
    assert_eq!(b.stale_live_games(0, 2_000).unwrap(), vec![id]);
    assert_eq!(b.stale_live_games(0, 500).unwrap(), Vec::<i64>::new());

    // B seats North (a row-only write): the game's version moves on, so A's copy is stale.
    let mut seated = read.clone();
    seated.seats[1] = Some([9; 32]);
    seated.touched_ms = 2_000;
    // Each write returns the version it left the game at (what a server's copy is then).
    assert_eq!(b.update_live(&seated).unwrap(), 1);
    assert_eq!(a.version(id).unwrap(), Some(1));
    assert!(a.lobby(10).unwrap().is_empty(), "both seats taken");
    // A, from the version before B's write: refused, with its move.
    game.play(game.parse_move("C").unwrap()).unwrap();
    let mut stale = read.clone();
    stale
        .clock
        .as_mut()
        .unwrap()
        .after_move(Side::South, 5, true);
    assert!(matches!(
        a.append_live_move(&game, &stale),
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(b.stored_moves(id).unwrap(), 0);
    // From the current version: the move and its clock in one transaction.
    let mut current = a.live_row(id).unwrap().unwrap();
    assert_eq!(current.version, 1);
    current
        .clock
        .as_mut()
        .unwrap()
        .after_move(Side::South, 5, true);
    assert_eq!(a.append_live_move(&game, &current).unwrap(), 2);
    let after = b.live_row(id).unwrap().unwrap();
    assert_eq!(
        after,
        LiveRow {
            version: 2,
            ..current.clone()
        }
    );
    assert_eq!(b.stored_moves(id).unwrap(), 1);
    // The same ply again, from the current live version: the stored ply refuses it.
    let after_copy = after.clone();
    assert!(matches!(
        b.append_live_move(&game, &after_copy),
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(a.live_row(id).unwrap().unwrap().version, 2);
    // A takeback: the move is gone and the row counts it.
    let mut undone = after.clone();
    undone.takebacks = 1;
    let undone_at = b
        .truncate_live(&Game::new(Rules::new(Variant::HoyitoII)), &undone)
        .unwrap();
    assert_eq!((undone_at, a.version(id).unwrap()), (3, Some(3)));
    assert_eq!(a.stored_moves(id).unwrap(), 0);
    assert_eq!(a.live_row(id).unwrap().unwrap().takebacks, 1);
    assert_eq!(a.integrity_check().unwrap(), "ok");
    a.delete(id).unwrap();
    assert_eq!(b.live_row(id).unwrap(), None);
}

#[test]
fn each_live_write_is_announced_with_the_games_new_version() {
    let Some((a, b)) = two_stores("each_live_write_is_announced_with_the_games_new_version") else {
        return;
    };
    let (tx, rx) = mpsc::channel();
    b.listen(move |change| {
        let _ = tx.send(change);
    })
    .unwrap();
    let game = Game::new(Rules::new(Variant::Ayoayo));
    let id = a.create_live_game(&game, &open_challenge(), None).unwrap();
    let mut row = a.live_row(id).unwrap().unwrap();
    row.names[1] = Some("Ben".into());
    a.update_live(&row).unwrap();
    let heard: Vec<Change> = (0..2)
        .map(|_| rx.recv_timeout(Duration::from_secs(10)).unwrap())
        .collect();
    assert_eq!(
        heard,
        vec![
            Change {
                game: id,
                plies: 0,
                version: 0
            },
            Change {
                game: id,
                plies: 0,
                version: 1
            }
        ]
    );
}

#[test]
fn a_version_1_database_gains_the_live_table_and_keeps_its_games() {
    let Some(_) = common::postgres_server("a_version_1_database_gains_the_live_table") else {
        return;
    };
    let url = common::fresh_postgres_db().unwrap();
    let game = Game::new(Rules::new(Variant::Ayoayo));
    let id = {
        let store = Store::connect(&url).unwrap();
        store.create_game(&game, "human", "human", None).unwrap()
    };
    // Back to version 1: no table `live`.
    let raw = url.clone();
    std::thread::spawn(move || {
        let mut client = postgres::Client::connect(&raw, postgres::NoTls).unwrap();
        client
            .batch_execute("DROP TABLE live; UPDATE sowing_schema SET version = 1")
            .unwrap();
    })
    .join()
    .unwrap();
    let store = Store::connect(&url).unwrap();
    assert!(store.load(id).unwrap().is_some());
    assert_eq!(store.live_row(id).unwrap(), None);
    let live = store
        .create_live_game(&game, &open_challenge(), None)
        .unwrap();
    assert_eq!(
        store.live_row(live).unwrap().unwrap().names[0].as_deref(),
        Some("Ana")
    );
    let raw = url.clone();
    let version: i64 = std::thread::spawn(move || {
        let mut client = postgres::Client::connect(&raw, postgres::NoTls).unwrap();
        client
            .query_one("SELECT max(version) FROM sowing_schema", &[])
            .unwrap()
            .get(0)
    })
    .join()
    .unwrap();
    assert_eq!(version, 2);
}
