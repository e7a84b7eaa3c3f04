//! PostgreSQL shared by several servers: every commit is announced to every listener, two
//! services on one database serve each other's moves, a cut `LISTEN` connection is made again
//! without a stale copy accepting a move, an act overtaken by an unheard write is judged again
//! on the stored game, a challenge made on one server reaches the notices socket on another,
//! and an older database is upgraded.
//! (What both databases do alike is in `tests/store.rs`.) Ignored under plain `cargo test`:
//! they need a PostgreSQL server, which `scripts/test` starts and names in
//! `SOWING_TEST_POSTGRES` before running them with `--ignored`.

mod common;

use std::sync::{mpsc, Arc};
use std::time::Duration;

use axum::http::{Method, StatusCode};
use serde_json::json;
use sowing::{Game, Rules, Variant};
use sowing_web::clock::LiveClock;
use sowing_web::store::{
    Change, LiveRow, NewGame, Notice, Offers, RecoveryCode, Step, Store, StoreError,
};
use sowing_web::{router, App};

/// A fresh database on the server of `SOWING_TEST_POSTGRES`: its URL.
fn fresh_db() -> String {
    common::fresh_postgres_db()
        .expect("this test needs PostgreSQL: set SOWING_TEST_POSTGRES (scripts/test does)")
}

/// Two stores (two pools, as two servers have) on one fresh database.
fn two_stores() -> (Store, Store) {
    let url = fresh_db();
    (Store::connect(&url).unwrap(), Store::connect(&url).unwrap())
}

/// The changes `store` hears announced from now on.
fn changes_heard(store: &Store) -> mpsc::Receiver<Change> {
    let (tx, rx) = mpsc::channel();
    store
        .listen(move |notice| {
            if let Notice::Change(change) = notice {
                let _ = tx.send(change);
            }
        })
        .unwrap();
    rx
}

#[test]
#[ignore = "needs PostgreSQL: set SOWING_TEST_POSTGRES (scripts/test runs it)"]
fn every_commit_is_announced_to_every_listener() {
    let (a, b) = two_stores();
    let (tx, rx) = mpsc::channel::<Change>();
    let (hearing_tx, hearing) = mpsc::channel();
    b.listen(move |notice| match notice {
        Notice::Change(change) => drop(tx.send(change)),
        other => drop(hearing_tx.send(other)),
    })
    .unwrap();
    assert_eq!(
        hearing.recv_timeout(Duration::from_secs(10)),
        Ok(Notice::Hearing),
        "the listener says when it hears every change"
    );
    let mut game = Game::new(Rules::new(Variant::HoyitoIII));
    let id = a
        .create_game(&NewGame::new(&game, "human", "human"))
        .unwrap();
    game.play(game.legal_moves()[0]).unwrap();
    a.append_move(id, &game, None).unwrap();
    game.undo();
    a.truncate(id, &game, None).unwrap();
    a.delete(id).unwrap();
    let heard: Vec<(i64, usize, i64)> = (0..4)
        .map(|_| {
            let c = rx.recv_timeout(Duration::from_secs(10)).expect("a notice");
            (c.game, c.plies, c.version)
        })
        .collect();
    assert_eq!(heard, [(id, 0, 0), (id, 1, 1), (id, 0, 2), (id, 0, -1)]);
    // A refused write announces nothing: the next notice heard is that of the next write
    // that committed (notices come in the order of the commits).
    let other = a
        .create_game(&NewGame::new(&game, "human", "human"))
        .unwrap();
    game.play(game.legal_moves()[0]).unwrap();
    let refused = a.append_move(other, &game, Some(7));
    assert!(refused.is_err());
    a.append_move(other, &game, Some(0)).unwrap();
    let heard: Vec<(i64, usize, i64)> = (0..2)
        .map(|_| {
            let c = rx.recv_timeout(Duration::from_secs(10)).expect("a notice");
            (c.game, c.plies, c.version)
        })
        .collect();
    assert_eq!(heard, [(other, 0, 0), (other, 1, 1)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set SOWING_TEST_POSTGRES (scripts/test runs it)"]
async fn two_services_on_one_database_serve_each_others_moves() {
    let url = fresh_db();
    let (a, b, app_b) = two_servers(&url);
    let id = new_game(&a).await;
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

/// Two servers on the database `url`: A's routes, B's, and B's service, which listens.
fn two_servers(url: &str) -> (axum::Router, axum::Router, Arc<App>) {
    let app_a = Arc::new(App::new(Store::connect(url).unwrap(), 1));
    let app_b = Arc::new(App::new(Store::connect(url).unwrap(), 1));
    app_b.listen().unwrap();
    (router(app_a), router(app_b.clone()), app_b)
}

/// A game of Hoyito II created through `server`: its id.
async fn new_game(server: &axum::Router) -> i64 {
    let (status, view) = common::send(
        server,
        Method::POST,
        "/api/games",
        Some(&json!({"game": "hoyito-ii"}).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{view}");
    view["id"].as_i64().unwrap()
}

/// An open challenge by Ana (South) from 192.0.2.1, with a 60+2 clock.
fn open_challenge() -> LiveRow {
    LiveRow {
        game_id: 0,
        seats: [Some([7; 32]), None],
        names: [Some("Ana".into()), None],
        lobby: true,
        address: Some("192.0.2.1".into()),
        clock: Some(LiveClock::new(60_000, 2_000)),
        offers: Offers::default(),
        result: None,
        rematch: None,
        takebacks: 0,
        version: 0,
        created_ms: 1_000,
        touched_ms: 1_000,
        accounts: [None, None],
        rated: false,
        first_move_due: false,
        credited_ms: 0,
        said: [None, None],
    }
}

#[test]
#[ignore = "needs PostgreSQL: set SOWING_TEST_POSTGRES (scripts/test runs it)"]
fn each_live_write_is_announced_with_the_games_new_version() {
    let (a, b) = two_stores();
    let rx = changes_heard(&b);
    let game = Game::new(Rules::new(Variant::Ayoayo));
    let id = a
        .create_game(&NewGame::live(&game, &open_challenge()))
        .unwrap();
    let mut row = a.live_row(id).unwrap().unwrap();
    row.names[1] = Some("Ben".into());
    a.update_live(&row).unwrap();
    let heard: Vec<Change> = (0..2)
        .map(|_| rx.recv_timeout(Duration::from_secs(10)).unwrap())
        .collect();
    let step = Step {
        mv: None,
        live: b.live_row(id).unwrap().unwrap(),
        updated: b.game_row(id).unwrap().unwrap().updated,
    };
    assert_eq!(step.live.names[1].as_deref(), Some("Ben"));
    assert_eq!(
        heard,
        vec![
            Change {
                game: id,
                plies: 0,
                version: 0,
                step: None,
            },
            Change {
                game: id,
                plies: 0,
                version: 1,
                step: Some(Box::new(step)),
            }
        ]
    );
}

/// A copy of the game read before a live write, brought forward by the write's notice
/// alone, is what reading the game after it gives: for a move, a change of the live row
/// (an offer), and the move that ends the game; a copy not at the version before is not.
#[test]
#[ignore = "needs PostgreSQL: set SOWING_TEST_POSTGRES (scripts/test runs it)"]
fn a_live_writes_notice_brings_a_copy_at_the_version_before_to_the_stored_game() {
    let (a, b) = two_stores();
    let rx = changes_heard(&b);
    let mut game = Game::new(Rules::new(Variant::Ayoayo));
    let mut live = open_challenge();
    // A name that needs escaping in SQL and JSON.
    live.names[1] = Some("Bea 'o\\ \"x\" Ñ".into());
    live.seats[1] = Some([9; 32]);
    let id = a.create_game(&NewGame::live(&game, &live)).unwrap();
    assert!(rx
        .recv_timeout(Duration::from_secs(10))
        .unwrap()
        .step
        .is_none());
    let mut live = a.live_row(id).unwrap().unwrap();
    let mut plies = 0;
    while !game.is_over() {
        let before = b.load_with_live(id).unwrap().unwrap();
        if plies == 3 {
            live.offers.draw = Some(game.position().to_move());
            a.update_live(&live).unwrap();
        } else {
            game.play(game.legal_moves()[0]).unwrap();
            live.touched_ms += 1;
            a.append_live_move(&game, &live).unwrap();
        }
        live.version += 1;
        plies += 1;
        let change = rx.recv_timeout(Duration::from_secs(10)).expect("a notice");
        let after = b.load_with_live(id).unwrap().unwrap();
        let (row, followed, live_after) = change
            .follow(before.0.clone(), before.1.clone(), before.2.as_ref())
            .expect("the copy at the version before follows the notice");
        assert_eq!(row, after.0);
        assert_eq!(followed.moves(), after.1.moves());
        assert_eq!(Some(&live_after), after.2.as_ref());
        assert_eq!(live_after, live);
        assert!(
            change
                .follow(after.0.clone(), after.1.clone(), after.2.as_ref())
                .is_none(),
            "a copy already at the change's version does not follow it again"
        );
    }
    let stored = b.game_row(id).unwrap().unwrap();
    assert_eq!(
        (stored.plies, stored.result.is_some()),
        (game.moves().len(), true)
    );
}

#[test]
#[ignore = "needs PostgreSQL: set SOWING_TEST_POSTGRES (scripts/test runs it)"]
fn a_version_1_database_gains_the_live_table_owners_the_id_counter_accounts_and_client_ids() {
    let url = fresh_db();
    let game = Game::new(Rules::new(Variant::Ayoayo));
    let id = {
        let store = Store::connect(&url).unwrap();
        store
            .create_game(&NewGame::new(&game, "human", "human"))
            .unwrap()
    };
    // Back to version 1: no table `live`, no owners, no counter of ids, no accounts.
    let raw = url.clone();
    std::thread::spawn(move || {
        let mut client = postgres::Client::connect(&raw, postgres::NoTls).unwrap();
        client
            .batch_execute(
                "DROP TABLE live; DROP TABLE game_ids; ALTER TABLE games DROP COLUMN owner;
                 ALTER TABLE games DROP COLUMN client_id;
                 DROP TABLE recovery_codes; DROP TABLE rated_games; DROP TABLE ratings;
                 DROP TABLE sessions; DROP TABLE accounts;
                 UPDATE sowing_schema SET version = 1",
            )
            .unwrap();
    })
    .join()
    .unwrap();
    let store = Store::connect(&url).unwrap();
    let (row, _) = store.load(id).unwrap().unwrap();
    assert_eq!(row.owner, None);
    assert_eq!(store.live_row(id).unwrap(), None);
    let live = store
        .create_game(&NewGame::live(&game, &open_challenge()))
        .unwrap();
    assert_eq!(
        live,
        id + 1,
        "the counter of ids starts past the games there are"
    );
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
    assert_eq!(version, 13);
    // Accounts, their recovery codes, and the live rows' accounts, are there.
    let ana = store.sign_up("Ana", "h", [1; 32], None, 0, &[]).unwrap();
    assert_eq!(
        store.session_account([1; 32], 0).unwrap().unwrap().id,
        ana.id
    );
    let code = RecoveryCode {
        tag: "ab".to_owned(),
        hash: "$argon2id$…".to_owned(),
    };
    store
        .set_recovery_codes(ana.id, std::slice::from_ref(&code))
        .unwrap();
    assert_eq!(store.recovery_codes(ana.id).unwrap(), vec![code]);
    assert_eq!(
        store.live_row(live).unwrap().unwrap().accounts,
        [None, None]
    );
    // The names of uploaded games, one game per owner and name (version 13).
    let named = NewGame::new(&game, "human", "human")
        .owned_by(Some([3; 32]))
        .synced_as(Some("offline-1"));
    let synced = store.create_game(&named).unwrap();
    assert!(matches!(
        store.create_game(&named),
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(
        store.game_by_client([3; 32], "offline-1").unwrap(),
        Some(synced)
    );
}

/// The backends of `sow-listen` connections on the database `url` names.
fn listener_pids(url: &str) -> Vec<i32> {
    let url = url.to_owned();
    // On a thread of its own: the blocking client cannot run on an async test's thread.
    std::thread::spawn(move || {
        let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        client
            .query(
                "SELECT pid FROM pg_stat_activity
                 WHERE application_name = $1 AND datname = current_database()",
                &[&sowing_web::store::LISTENER_NAME],
            )
            .unwrap()
            .iter()
            .map(|row| row.get(0))
            .collect()
    })
    .join()
    .unwrap()
}

/// Ends the `sow-listen` backends of the database `url` names, as an operator (or a
/// failing network) might; how many.
fn cut_listeners(url: &str) -> usize {
    let url = url.to_owned();
    std::thread::spawn(move || {
        let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        client
            .query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                 WHERE application_name = $1 AND datname = current_database()",
                &[&sowing_web::store::LISTENER_NAME],
            )
            .unwrap()
            .len()
    })
    .join()
    .unwrap()
}

/// Waits (at most `within`) for `done`; how long it took, or `None`.
async fn within(within: Duration, mut done: impl FnMut() -> bool) -> Option<Duration> {
    let start = std::time::Instant::now();
    while start.elapsed() < within {
        if done() {
            return Some(start.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set SOWING_TEST_POSTGRES (scripts/test runs it)"]
async fn a_cut_listen_connection_is_made_again_and_no_stale_copy_accepts_a_move() {
    let url = fresh_db();
    let (a, b, app_b) = two_servers(&url);
    assert!(
        within(Duration::from_secs(10), || listener_pids(&url).len() == 1)
            .await
            .is_some(),
        "B listens"
    );
    let first_listener = listener_pids(&url)[0];
    let id = new_game(&a).await;
    // B keeps the game at ply 0, and a socket of it follows the game.
    let (_, view) = common::send(&b, Method::GET, &format!("/api/games/{id}"), None).await;
    assert_eq!(view["ply"], 0, "{view}");
    let mut socket = app_b.hub().subscribe(id, true);
    socket.changed().await;

    assert_eq!(cut_listeners(&url), 1, "B's LISTEN connection is cut");
    let moves = format!("/api/games/{id}/moves");
    let (status, answer) = common::send(
        &a,
        Method::POST,
        &moves,
        Some(&json!({"move": "A", "ply": 0}).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    // B's copy at ply 0 is stale: a move made from it is refused, whatever B heard.
    let (status, answer) = common::send(
        &b,
        Method::POST,
        &moves,
        Some(&json!({"move": "B", "ply": 0}).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    // B listens again, on a new connection, within 5 s; its socket was woken to catch up.
    let again = within(Duration::from_secs(5), || {
        listener_pids(&url)
            .first()
            .is_some_and(|&pid| pid != first_listener)
    })
    .await;
    assert!(again.is_some(), "B did not listen again within 5 s");
    tokio::time::timeout(Duration::from_secs(5), socket.changed())
        .await
        .expect("B's sockets are told to catch up");
    let (_, view) = common::send(&b, Method::GET, &format!("/api/games/{id}"), None).await;
    assert_eq!(view["ply"], 1, "B serves the game as it is: {view}");
    // And B hears every change again: a move through A wakes B's socket.
    let legal = view["state"]["legal"][0].as_str().unwrap().to_owned();
    let (status, answer) = common::send(
        &a,
        Method::POST,
        &moves,
        Some(&json!({"move": legal, "ply": 1}).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    tokio::time::timeout(Duration::from_secs(5), socket.changed())
        .await
        .expect("B hears A's next move");
    let (_, view) = common::send(&b, Method::GET, &format!("/api/games/{id}"), None).await;
    assert_eq!(view["ply"], 2, "{view}");
}

/// Commits a change to live game `id` in the database `url` without a notice, as a server
/// that died between its commit and its `NOTIFY` leaves it: the live row's new version, and
/// with `mv` (its ply from 0, its name) a move too.
fn commit_unannounced(url: &str, id: i64, mv: Option<(i64, &str)>) {
    let url = url.to_owned();
    let mv = mv.map(|(ply, name)| (ply, name.to_owned()));
    std::thread::spawn(move || {
        let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        let mut tx = client.transaction().unwrap();
        if let Some((ply, name)) = mv {
            tx.execute(
                "INSERT INTO moves (game_id, ply, mv) VALUES ($1, $2, $3)",
                &[&id, &ply, &name],
            )
            .unwrap();
            tx.execute(
                "UPDATE games SET plies = plies + 1, version = version + 1 WHERE id = $1",
                &[&id],
            )
            .unwrap();
        }
        let bumped = tx
            .execute(
                "UPDATE live SET version = version + 1 WHERE game_id = $1",
                &[&id],
            )
            .unwrap();
        assert_eq!(bumped, 1);
        tx.commit().unwrap();
    })
    .join()
    .unwrap();
}

/// `mv` played at `ply` through `server` by the seat `token` holds in live game `id`.
async fn live_move(
    server: &axum::Router,
    id: i64,
    token: &str,
    mv: &str,
    ply: usize,
) -> (StatusCode, serde_json::Value) {
    common::Call::new(Method::POST, format!("/api/live/{id}/moves"))
        .seat(Some(token))
        .json(json!({"move": mv, "ply": ply}))
        .send(server)
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set SOWING_TEST_POSTGRES (scripts/test runs it)"]
async fn a_live_move_overtaken_by_an_unheard_write_is_judged_again_on_the_stored_game() {
    let url = fresh_db();
    let (a, b, app_b) = two_servers(&url);
    let (status, seated) = common::Call::new(Method::POST, "/api/live")
        .json(json!({"game": "hoyito-ii", "name": "Ana", "seat": "south"}))
        .send(&a)
        .await;
    assert_eq!(status, StatusCode::CREATED, "{seated}");
    let id = seated["live"]["id"].as_i64().unwrap();
    let south = seated["token"].as_str().unwrap().to_owned();
    let north = seated["invite"].as_str().unwrap().to_owned();
    assert_eq!(seated["seat"], "south");
    // B keeps the game and follows it with a socket, so it trusts what it hears.
    assert!(
        within(Duration::from_secs(10), || listener_pids(&url).len() == 1)
            .await
            .is_some(),
        "B listens"
    );
    let (status, _) = common::send(&b, Method::GET, &format!("/api/live/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    let mut socket = app_b.hub().subscribe(id, true);
    socket.changed().await;
    // A move through A, which B hears of: B now trusts its notices for this game.
    let mut game = Game::new(Rules::new(Variant::HoyitoII));
    let play = |game: &mut Game| {
        let mv = game.legal_moves()[0];
        let seat = game.position().to_move().index();
        game.play(mv).unwrap();
        (mv.name(6).to_string(), [&south, &north][seat].clone())
    };
    let (first, mover) = play(&mut game);
    let (status, answer) = live_move(&a, id, &mover, &first, 0).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    tokio::time::timeout(Duration::from_secs(10), socket.changed())
        .await
        .expect("B hears A's move");

    // A write B has not heard of: B's first try conflicts, its second reads the stored game.
    commit_unannounced(&url, id, None);
    let (second, mover) = play(&mut game);
    let (status, answer) = live_move(&b, id, &mover, &second, 1).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["live"]["ply"], 2, "{answer}");
    socket.changed().await;

    // A move committed by a server that then died unheard: sent again to B, it is a stale
    // ply, and B's sockets are woken to catch up with it.
    let (third, mover) = play(&mut game);
    commit_unannounced(&url, id, Some((2, &third)));
    let (status, answer) = live_move(&b, id, &mover, &third, 2).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert_eq!(answer["code"], "stale-ply", "{answer}");
    tokio::time::timeout(Duration::from_secs(5), socket.changed())
        .await
        .expect("B's sockets are told to catch up");
    let (_, view) = common::send(&b, Method::GET, &format!("/api/live/{id}"), None).await;
    assert_eq!(view["live"]["ply"], 3, "{view}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set SOWING_TEST_POSTGRES (scripts/test runs it)"]
async fn seekers_through_two_servers_are_each_paired_exactly_once() {
    let url = fresh_db();
    let server = || {
        let app = App::new(Store::connect(&url).unwrap(), 1).with_limits(
            sowing_web::limits::AbuseLimits {
                enabled: false,
                ..Default::default()
            },
        );
        router(Arc::new(app))
    };
    let servers = [server(), server()];
    const SEEKERS: usize = 200;
    let keys: Vec<String> = (0..SEEKERS).map(|i| format!("{i:032x}")).collect();
    // Everyone seeks at once, half through each server.
    let placed = futures_util::future::join_all(keys.iter().enumerate().map(|(i, key)| {
        common::Call::new(Method::POST, "/api/seeks")
            .key(Some(key))
            .json(json!({"game": "hoyito-ii", "clock": {"base_ms": 60000}}))
            .send(&servers[i % 2])
    }))
    .await;
    let mut seats_by_game = std::collections::HashMap::<i64, Vec<String>>::new();
    for (i, (status, seek)) in placed.iter().enumerate() {
        assert_eq!(*status, StatusCode::CREATED, "{seek}");
        // Read back through the other server.
        let (status, state) =
            common::Call::new(Method::GET, format!("/api/seeks/{}", seek["seek"]))
                .seat(seek["token"].as_str())
                .send(&servers[(i + 1) % 2])
                .await;
        assert_eq!(status, StatusCode::OK, "{state}");
        let game = state["game"]
            .as_i64()
            .unwrap_or_else(|| panic!("seek {i} unpaired: {state}"));
        seats_by_game
            .entry(game)
            .or_default()
            .push(state["seat"].as_str().unwrap().to_owned());
    }
    assert_eq!(
        seats_by_game.len(),
        SEEKERS / 2,
        "one game for each two seekers"
    );
    for (game, mut seats) in seats_by_game {
        seats.sort();
        assert_eq!(seats, ["north", "south"], "game {game}: one seat each");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set SOWING_TEST_POSTGRES (scripts/test runs it)"]
async fn a_challenge_made_on_one_server_reaches_the_notices_socket_on_another() {
    let url = fresh_db();
    let (a, _, app_b) = two_servers(&url);
    let b = common::serve(app_b).await;
    let ana = common::sign_up(&a, "Ana", None).await;
    let bo = common::sign_up(&a, "Bo", None).await;
    let mut socket = common::notices_socket(b, &bo, None).await.unwrap();
    assert!(common::next_challenges(&mut socket).await.is_empty());
    let (status, made) = common::Call::new(Method::POST, "/api/challenges")
        .by(&common::with_cookie(&ana))
        .json(json!({"to": "Bo", "game": "ayoayo"}))
        .send(&a)
        .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let heard = common::next_challenges(&mut socket).await;
    assert_eq!(heard.len(), 1);
    assert_eq!(heard[0]["id"], made["challenge"]["id"]);
}
