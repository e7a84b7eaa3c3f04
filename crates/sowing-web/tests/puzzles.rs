//! Puzzles on the server: the store's puzzle operations on SQLite and PostgreSQL (the
//! PostgreSQL runs need `SOWING_TEST_POSTGRES`, as in `store.rs`), and the routes over a
//! server that mines its first set from tables built here.

mod common;

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use sowing::{Game, Move, Position, Rules, Variant};
use sowing_engine::TableSet;
use sowing_tables::build::{build, Options};
use sowing_tables::Tables;
use sowing_web::ratings::Rating;
use sowing_web::store::{Database, NewGame, NewPuzzle, Store};
use sowing_web::{router, App};

use common::{send, sign_up, with_cookie, Call, Who};

#[derive(Clone, Copy)]
enum Kind {
    Sqlite,
    Postgres,
}

fn store(kind: Kind, name: &str) -> Store {
    let db = match kind {
        Kind::Sqlite => common::temp_db(name).to_string_lossy().into_owned(),
        Kind::Postgres => common::fresh_postgres_db().expect(
            "this test needs a PostgreSQL server: set SOWING_TEST_POSTGRES to its URL \
             (scripts/test starts one)",
        ),
    };
    Database::from(db.as_str()).open().unwrap()
}

macro_rules! on_both {
    ($($test:ident),* $(,)?) => {
        mod sqlite {
            $(#[test]
            fn $test() {
                super::$test(super::Kind::Sqlite)
            })*
        }
        mod postgres {
            $(#[test]
            #[ignore = "needs PostgreSQL: set SOWING_TEST_POSTGRES (scripts/test runs it)"]
            fn $test() {
                super::$test(super::Kind::Postgres)
            })*
        }
    };
}

on_both!(
    puzzles_are_kept_once_and_found_near_a_rating_by_theme,
    the_daily_puzzle_is_chosen_once_a_day,
    a_result_moves_the_puzzle_and_the_account_by_glicko_2,
    finished_games_are_mined_once,
);

fn puzzle(position: &str, rating: f64, themes: &str) -> NewPuzzle {
    NewPuzzle {
        variant: "hoyito-ii".into(),
        position: position.into(),
        moves: "A".into(),
        value: 4,
        themes: themes.into(),
        rating,
        source: "self-play".into(),
        game_id: None,
    }
}

/// A position text of Hoyito II with `seeds` in pit A and one in pit a.
fn text(seeds: u8) -> String {
    format!("hoyito-ii {seeds},0,0,0,0,0/1,0,0,0,0,0 0-0 S -")
}

fn puzzles_are_kept_once_and_found_near_a_rating_by_theme(kind: Kind) {
    let store = store(kind, "puzzles-near");
    let batch = vec![
        puzzle(&text(1), 1000.0, "relay-chain"),
        puzzle(&text(2), 1500.0, "last-four extra-turn"),
        puzzle(&text(3), 2000.0, ""),
    ];
    assert_eq!(store.add_puzzles(batch.clone(), None).unwrap(), 3);
    assert_eq!(
        store.add_puzzles(batch, None).unwrap(),
        0,
        "each position once"
    );
    let other_captures = puzzle("hoyito-ii 1,0,0,0,0,0/1,0,0,0,0,0 20-26 S -", 1000.0, "");
    assert_eq!(
        store.add_puzzles(vec![other_captures], None).unwrap(),
        0,
        "each board once"
    );
    assert_eq!(store.puzzle_count("hoyito-ii").unwrap(), 3);
    assert_eq!(store.puzzle_count("ayoayo").unwrap(), 0);
    let near = |rating: f64, themes: &[&str], exclude: &[i64], account: Option<i64>| {
        let themes: Vec<String> = themes.iter().map(|t| t.to_string()).collect();
        // Pick 0: the nearest.
        store
            .puzzle_near("hoyito-ii", rating, &themes, exclude, account, 0)
            .unwrap()
            .map(|p| p.position)
    };
    assert_eq!(near(1900.0, &[], &[], None), Some(text(3)));
    assert_eq!(near(1100.0, &[], &[], None), Some(text(1)));
    assert_eq!(near(1900.0, &["extra-turn"], &[], None), Some(text(2)));
    assert_eq!(
        near(1900.0, &["relay-chain", "last-four"], &[], None),
        Some(text(2))
    );
    assert_eq!(near(1900.0, &["sweep"], &[], None), None);
    let second = store
        .puzzle_near("hoyito-ii", 1500.0, &[], &[], None, 0)
        .unwrap()
        .unwrap();
    assert_eq!(second.themes, "last-four extra-turn");
    assert_eq!(second.rating.deviation, Rating::default().deviation);
    assert_eq!(near(1500.0, &[], &[second.id], None), Some(text(1)));
    // An account does not meet a puzzle it has tried.
    store
        .puzzle_result(second.id, Some(7), Rating::default(), true, 1)
        .unwrap()
        .unwrap();
    assert_eq!(near(1500.0, &[], &[], Some(7)), Some(text(1)));
    assert_eq!(near(1500.0, &[], &[], Some(8)), Some(text(2)));
    assert_eq!(store.puzzle(second.id).unwrap().unwrap().plays, 1);
    assert_eq!(store.puzzle(-1).unwrap(), None);
}

fn the_daily_puzzle_is_chosen_once_a_day(kind: Kind) {
    let store = store(kind, "puzzles-daily");
    assert_eq!(store.daily_puzzle("hoyito-ii", 20_000).unwrap(), None);
    let batch: Vec<NewPuzzle> = (1..=9)
        .map(|i| puzzle(&text(i), if i == 5 { 3000.0 } else { 1500.0 }, ""))
        .collect();
    store.add_puzzles(batch, None).unwrap();
    let first = store.daily_puzzle("hoyito-ii", 20_000).unwrap().unwrap();
    assert_ne!(
        first.position,
        text(5),
        "the daily puzzle is in its band when it can be"
    );
    // More puzzles later in the day do not change it.
    store
        .add_puzzles(
            (10..=20).map(|i| puzzle(&text(i), 1500.0, "")).collect(),
            None,
        )
        .unwrap();
    assert_eq!(
        store.daily_puzzle("hoyito-ii", 20_000).unwrap().unwrap().id,
        first.id
    );
    let days: std::collections::HashSet<i64> = (20_001..20_031)
        .map(|day| store.daily_puzzle("hoyito-ii", day).unwrap().unwrap().id)
        .collect();
    assert!(
        days.len() > 5,
        "a month of days chose only {} puzzles",
        days.len()
    );
}

fn a_result_moves_the_puzzle_and_the_account_by_glicko_2(kind: Kind) {
    let store = store(kind, "puzzles-result");
    store
        .add_puzzles(vec![puzzle(&text(1), 1500.0, "")], None)
        .unwrap();
    let id = store
        .puzzle_near("hoyito-ii", 1500.0, &[], &[], None, 0)
        .unwrap()
        .unwrap()
        .id;
    assert_eq!(
        store
            .puzzle_result(id + 1000, Some(1), Rating::default(), true, 1)
            .unwrap(),
        None
    );
    let solved = store
        .puzzle_result(id, Some(1), Rating::default(), true, 1)
        .unwrap()
        .unwrap();
    let (player, puzzle) =
        sowing_web::ratings::after_game(Rating::default(), Rating::default(), 1.0);
    assert_eq!(solved.player, Some(player));
    assert_eq!(solved.puzzle, puzzle);
    assert_eq!(store.puzzle_rating(1, "hoyito-ii").unwrap(), player);
    assert_eq!(store.puzzle_rating(1, "ayoayo").unwrap(), Rating::default());
    // An anonymous player's rating moves only the puzzle.
    let strong = Rating {
        rating: 2200.0,
        deviation: 80.0,
        volatility: 0.06,
    };
    let missed = store
        .puzzle_result(id, None, strong, false, 2)
        .unwrap()
        .unwrap();
    assert_eq!(missed.player, None);
    assert_eq!(
        missed.puzzle,
        sowing_web::ratings::after_game(strong, puzzle, 0.0).1
    );
    assert!(
        missed.puzzle.rating > puzzle.rating,
        "a strong player's miss raises it"
    );
    let row = store.puzzle(id).unwrap().unwrap();
    assert_eq!((row.plays, row.solved), (2, 1));
}

fn finished_games_are_mined_once(kind: Kind) {
    let store = store(kind, "puzzles-games");
    let rules = Rules::new(Variant::HoyitoII);
    let mut over = Game::new(rules);
    while !over.is_over() {
        over.play(over.legal_moves()[0]).unwrap();
    }
    let going = Game::new(rules);
    let a = store
        .create_game(&NewGame::new(&over, "ana", "level:1"))
        .unwrap();
    let b = store
        .create_game(&NewGame::new(&going, "ana", "level:1"))
        .unwrap();
    assert_eq!(store.unmined_games(10).unwrap(), vec![a]);
    let finished = store.finished_games(0, 10).unwrap();
    assert_eq!(finished.len(), 1);
    assert_eq!(finished[0].0, a);
    assert_eq!(finished[0].1.moves(), over.moves());
    assert!(store.finished_games(a, 10).unwrap().is_empty());
    store.add_puzzles(Vec::new(), Some(a)).unwrap();
    assert!(store.unmined_games(10).unwrap().is_empty());
    assert_ne!(a, b);
}

/// A server over Hoyito II tables to 8 seeds, its first set mined.
async fn server(name: &str) -> (axum::Router, Tables, Arc<App>) {
    let dir = common::temp_db(name).with_file_name("tables");
    std::fs::create_dir_all(&dir).unwrap();
    let rules = Rules::new(Variant::HoyitoII);
    build(&dir, rules, 8, &Options::quiet()).unwrap();
    let set = Arc::new(TableSet::open(&dir).unwrap());
    let app = Arc::new(App::new(Store::in_memory().unwrap(), 2).with_tables(Some(set)));
    assert!(app.mine_puzzles().await.unwrap() > 100);
    assert_eq!(
        app.mine_puzzles().await.unwrap(),
        0,
        "the first set is mined once"
    );
    (router(app.clone()), Tables::open(&dir, rules).unwrap(), app)
}

/// Checks an answer's puzzle against the tables: the only move keeps the value, its states
/// follow its moves.
fn check(tables: &Tables, puzzle: &Value) {
    let start: Position = puzzle["position"].as_str().unwrap().parse().unwrap();
    let probe = tables.probe(&start).unwrap();
    assert_eq!(puzzle["value"], probe.value);
    let first = Move::parse(puzzle["moves"][0].as_str().unwrap(), 6).unwrap();
    for (mv, value) in probe.moves {
        if mv == first {
            assert_eq!(value, probe.value);
        } else {
            assert!(value <= probe.value - 4, "{puzzle}");
        }
    }
    let moves = puzzle["moves"].as_array().unwrap();
    let states = puzzle["states"].as_array().unwrap();
    assert_eq!(states.len(), moves.len() + 1);
    assert_eq!(states[0]["to_move"], puzzle["mover"]);
    assert!(states[0]["legal"].as_array().unwrap().contains(&moves[0]));
}

#[tokio::test]
async fn the_routes_serve_puzzles_near_a_rating_daily_and_rate_results() {
    let (router, tables, _) = server("puzzles-routes").await;
    let (status, next) = send(
        &router,
        Method::GET,
        "/api/puzzles/next?game=hoyito-ii&rating=1500",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{next}");
    check(&tables, &next["puzzle"]);
    assert_eq!(next["player"], Value::Null);
    assert_eq!(next["daily"], Value::Null);
    let id = next["puzzle"]["id"].as_i64().unwrap();
    let (status, same) = send(&router, Method::GET, &format!("/api/puzzles/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(same["puzzle"]["position"], next["puzzle"]["position"]);
    // Excluded, it is not given again.
    for _ in 0..5 {
        let (_, other) = send(
            &router,
            Method::GET,
            &format!("/api/puzzles/next?game=hoyito-ii&rating=1500&exclude={id}"),
            None,
        )
        .await;
        assert_ne!(other["puzzle"]["id"], id);
    }
    // By theme.
    let (status, themed) = send(
        &router,
        Method::GET,
        "/api/puzzles/next?game=hoyito-ii&themes=last-four",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{themed}");
    assert!(themed["puzzle"]["themes"]
        .as_array()
        .unwrap()
        .contains(&json!("last-four")));
    check(&tables, &themed["puzzle"]);
    // The daily puzzle: the same twice, with its day.
    let (status, daily) = send(
        &router,
        Method::GET,
        "/api/puzzles/daily?game=hoyito-ii",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{daily}");
    let (_, again) = send(
        &router,
        Method::GET,
        "/api/puzzles/daily?game=hoyito-ii",
        None,
    )
    .await;
    assert_eq!(daily["puzzle"]["id"], again["puzzle"]["id"]);
    assert_eq!(daily["daily"].as_str().unwrap().len(), 10);
    check(&tables, &daily["puzzle"]);

    // An anonymous result moves only the puzzle.
    let before = next["puzzle"]["rating"]["rating"].as_f64().unwrap();
    let reply = Call::new(Method::POST, format!("/api/puzzles/{id}/result"))
        .json(json!({"solved": true, "rating": {"rating": 1500.0, "deviation": 350.0, "volatility": 0.06}}))
        .reply(&router)
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["player"], Value::Null);
    assert!(reply.body["puzzle"]["rating"].as_f64().unwrap() < before);

    // A signed-in player's result moves their puzzle rating, kept on the server.
    let token = sign_up(&router, "solver", None).await;
    let who = with_cookie(&token);
    let reply = Call::new(Method::POST, format!("/api/puzzles/{id}/result"))
        .by(&who)
        .json(json!({"solved": false}))
        .reply(&router)
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let after = reply.body["player"]["rating"].as_f64().unwrap();
    assert!(after < 1500.0);
    let mine = Call::new(Method::GET, "/api/puzzles/next?game=hoyito-ii")
        .by(&who)
        .reply(&router)
        .await;
    assert_eq!(mine.status, StatusCode::OK);
    assert_eq!(mine.body["player"]["rating"].as_f64().unwrap(), after);
    assert_ne!(
        mine.body["puzzle"]["id"], id,
        "a puzzle tried is not given again"
    );
}

#[tokio::test]
async fn bad_requests_get_clear_refusals() {
    let (router, _, _) = server("puzzles-refusals").await;
    for (path, status, says) in [
        (
            "/api/puzzles/next?game=chess",
            StatusCode::UNPROCESSABLE_ENTITY,
            "not hoyito-ii",
        ),
        ("/api/puzzles/next", StatusCode::BAD_REQUEST, "game"),
        (
            "/api/puzzles/next?game=ayoayo&colour=red",
            StatusCode::BAD_REQUEST,
            "colour",
        ),
        (
            "/api/puzzles/next?game=hoyito-ii&rating=9000",
            StatusCode::UNPROCESSABLE_ENTITY,
            "0–4000",
        ),
        (
            "/api/puzzles/next?game=hoyito-ii&themes=forks",
            StatusCode::UNPROCESSABLE_ENTITY,
            "relay-chain",
        ),
        (
            "/api/puzzles/next?game=hoyito-ii&exclude=1,x",
            StatusCode::UNPROCESSABLE_ENTITY,
            "not a puzzle id",
        ),
        (
            "/api/puzzles/next?game=ayoayo",
            StatusCode::NOT_FOUND,
            "no puzzle",
        ),
        (
            "/api/puzzles/daily?game=ayoayo",
            StatusCode::NOT_FOUND,
            "no puzzle",
        ),
        ("/api/puzzles/999999", StatusCode::NOT_FOUND, "999999"),
        ("/api/puzzles/abc", StatusCode::NOT_FOUND, "unknown puzzle"),
    ] {
        let (got, body) = send(&router, Method::GET, path, None).await;
        assert_eq!(got, status, "{path}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains(says),
            "{path}: {body}"
        );
    }
    let many: Vec<String> = (0..201).map(|i| i.to_string()).collect();
    let (got, body) = send(
        &router,
        Method::GET,
        &format!(
            "/api/puzzles/next?game=hoyito-ii&exclude={}",
            many.join(",")
        ),
        None,
    )
    .await;
    assert_eq!(got, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (_, next) = send(
        &router,
        Method::GET,
        "/api/puzzles/next?game=hoyito-ii",
        None,
    )
    .await;
    let id = next["puzzle"]["id"].as_i64().unwrap();
    for (body, status) in [
        (
            json!({"solved": true, "rating": {"rating": 1500.0, "deviation": 0.0, "volatility": 0.06}}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (json!({"solved": "yes"}), StatusCode::UNPROCESSABLE_ENTITY),
        (
            json!({"solved": true, "extra": 1}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ] {
        let reply = Call::new(Method::POST, format!("/api/puzzles/{id}/result"))
            .json(body.clone())
            .reply(&router)
            .await;
        assert!(reply.status.is_client_error(), "{body}: {}", reply.body);
        assert_eq!(reply.status, status, "{body}: {}", reply.body);
    }
    let reply = Call::new(Method::POST, "/api/puzzles/999999/result")
        .json(json!({"solved": true}))
        .reply(&router)
        .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    // Another site's page may not rate.
    let foreign = Who {
        headers: vec![("Origin", "https://evil.example")],
        ..Who::default()
    };
    let reply = Call::new(Method::POST, format!("/api/puzzles/{id}/result"))
        .by(&foreign)
        .json(json!({"solved": true}))
        .reply(&router)
        .await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{}", reply.body);
}

#[tokio::test]
async fn a_finished_game_gives_its_puzzles_once() {
    let (router, tables, app) = server("puzzles-finished").await;
    let (_, next) = send(
        &router,
        Method::GET,
        "/api/puzzles/next?game=hoyito-ii",
        None,
    )
    .await;
    // A game from a puzzle's position seen from the other side (the rows, the side to move,
    // the last sower and the captures swapped): a puzzle too, which the first set cannot
    // hold, as its miner took each board once whichever side moved (docs/puzzles.md).
    let text = next["puzzle"]["position"].as_str().unwrap();
    let mut fields: Vec<String> = text.split(' ').map(str::to_owned).collect();
    let (south, north) = fields[1].split_once('/').unwrap();
    fields[1] = format!("{north}/{south}");
    let (south, north) = fields[2].split_once('-').unwrap();
    fields[2] = format!("{north}-{south}");
    let other = |side: &str| match side {
        "S" => "N".to_owned(),
        "N" => "S".to_owned(),
        none => none.to_owned(),
    };
    fields[3] = other(&fields[3]);
    fields[4] = other(&fields[4]);
    let start: Position = fields.join(" ").parse().unwrap();
    let mut game = Game::from_position(start);
    while !game.is_over() {
        game.play(game.legal_moves()[0]).unwrap();
    }
    let moves: Vec<String> = game.moves().iter().map(|m| m.name(6).to_string()).collect();
    let record = format!(
        "[Game \"hoyito-ii\"]\n[Start \"{start}\"]\n\n{}",
        moves.join(" ")
    );
    let reply = Call::new(Method::POST, "/api/records")
        .json(json!({ "record": record }))
        .reply(&router)
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    let id = reply.body["id"].as_i64().unwrap();
    let before = app.store().puzzle_count("hoyito-ii").unwrap();
    let added = app.mine_puzzles().await.unwrap();
    assert_eq!(app.mine_puzzles().await.unwrap(), 0, "a game is mined once");
    // Its puzzles are the rows after the first set's (ids count up from 1 in SQLite): each
    // names the game and is proven, its first position among them.
    let kept = app.store().puzzle_count("hoyito-ii").unwrap();
    assert_eq!(kept, before + added as i64);
    let mut starts = 0;
    for puzzle in before + 1..=kept {
        let row = app.store().puzzle(puzzle).unwrap().unwrap();
        assert_eq!((row.source.as_str(), row.game_id), ("game", Some(id)));
        let (_, answer) = send(
            &router,
            Method::GET,
            &format!("/api/puzzles/{puzzle}"),
            None,
        )
        .await;
        check(&tables, &answer["puzzle"]);
        starts += usize::from(row.position == start.to_string());
    }
    assert_eq!(starts, 1, "the game's first position is one of its puzzles");
    let (status, first) = send(
        &router,
        Method::GET,
        &format!("/api/puzzles/{}", next["puzzle"]["id"]),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(first["puzzle"]["game_id"], Value::Null);
}

#[test]
fn a_version_12_database_gains_the_boards_of_its_puzzles() {
    let path = common::temp_db("puzzles-upgrade");
    let store = Store::open(&path).unwrap();
    store
        .add_puzzles(vec![puzzle(&text(1), 1000.0, "")], None)
        .unwrap();
    drop(store);
    // The tables as version 12 made them: no board.
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(
        "DROP INDEX puzzles_by_board; ALTER TABLE puzzles DROP COLUMN board;
         PRAGMA user_version = 12;",
    )
    .unwrap();
    drop(conn);
    let store = Store::open(&path).unwrap();
    assert_eq!(store.puzzle_count("hoyito-ii").unwrap(), 1);
    let more = vec![
        puzzle(&text(2), 1000.0, ""),
        puzzle("hoyito-ii 2,0,0,0,0,0/1,0,0,0,0,0 9-9 S -", 1000.0, ""),
    ];
    assert_eq!(store.add_puzzles(more, None).unwrap(), 1, "each board once");
    let version: i64 = rusqlite::Connection::open(&path)
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, 14, "the current version");
}
