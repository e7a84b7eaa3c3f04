//! `GET` and `POST /api/games/{id}/analysis`: the analysis after the game computed in the
//! background, kept with the game in the store, served through the game's link with its
//! progress, and the same figures as `sow analyze --json` (one module); and the route's
//! refusals.

use std::sync::Arc;

use axum::http::{Method, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use sowing::{Game, Position, Rules, Variant};
use sowing_engine::{levels, Engine, Limits, TableSet};
use sowing_tables::build::{build, Options};
use sowing_web::store::Store;
use sowing_web::{router, AnalysisSettings, App};

mod common;
use common::send;
use common::Call;

/// South's E gives up 16 seeds (B and F win by 8 with perfect play, E loses by 8); then
/// North's b. Inside tables to 8 seeds.
const START: &str = "hoyito-ii 0,2,0,0,1,1/3,0,0,0,0,1 20-20 S -";
const NODES: u64 = 2_000;

fn tables(name: &str) -> Arc<TableSet> {
    let dir = common::temp_db(name).with_file_name("tables");
    std::fs::create_dir_all(&dir).unwrap();
    build(
        &dir,
        Rules::new(Variant::HoyitoII),
        8,
        &Options::all_layers(),
    )
    .unwrap();
    Arc::new(TableSet::open(&dir).unwrap())
}

fn app(store: Store, tables: Option<Arc<TableSet>>, max_jobs: usize) -> Router {
    router(Arc::new(
        App::new(store, 2)
            .with_tables(tables)
            .with_analysis(AnalysisSettings {
                nodes: NODES,
                workers: 1,
                max_jobs,
            }),
    ))
}

/// A game imported from a record: `START` and `moves`.
async fn game_of(router: &Router, moves: &str) -> i64 {
    let record = format!("[Game \"hoyito-ii\"]\n[Start \"{START}\"]\n\n{moves} *");
    let body = json!({ "record": record }).to_string();
    let (status, view) = send(router, Method::POST, "/api/records", Some(&body)).await;
    assert_eq!(status, StatusCode::CREATED, "{view}");
    view["id"].as_i64().unwrap()
}

/// Asks `GET` until the analysis is no longer queued or running (the worker runs on its
/// own thread), checking the progress on the way.
async fn until_done(router: &Router, id: i64) -> Value {
    let path = format!("/api/games/{id}/analysis");
    for _ in 0..6_000 {
        let (status, view) = send(router, Method::GET, &path, None).await;
        assert_eq!(status, StatusCode::OK, "{view}");
        match view["status"].as_str().unwrap() {
            "queued" | "running" => {
                let progress = &view["progress"];
                assert!(progress["done"].as_u64() <= progress["total"].as_u64());
                assert_eq!(progress["total"], view["plies"].as_u64().unwrap() + 1);
            }
            _ => return view,
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("the analysis of game {id} never ended");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_is_made_in_the_background_kept_and_read_by_anyone_with_the_link() {
    let set = tables("kept");
    let db = common::temp_db("analysis-kept");
    let router = app(Store::open(&db).unwrap(), Some(set.clone()), 4);
    let id = game_of(&router, "E b").await;
    let path = format!("/api/games/{id}/analysis");
    let (status, view) = Call::new(Method::GET, &path).key(None).send(&router).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(
        (&view["status"], &view["plies"], &view["analysis"]),
        (&json!("none"), &json!(2), &Value::Null)
    );
    // Anyone who may read the game may ask: no player key here.
    let (status, view) = Call::new(Method::POST, &path).key(None).send(&router).await;
    assert!(
        status == StatusCode::ACCEPTED || status == StatusCode::OK,
        "{status} {view}"
    );
    let done = until_done(&router, id).await;
    assert_eq!(done["status"], "done", "{done}");
    let analysis = &done["analysis"];
    let blunder = &analysis["turns"][0]["moves"][0];
    assert_eq!(
        (&blunder["move"], &blunder["class"], &blunder["loss"]),
        (&json!("E"), &json!("blunder"), &json!(16.0))
    );
    assert_eq!(blunder["proven"], true);
    assert_eq!(analysis["players"]["south"]["accuracy"], 6.3);
    assert_eq!(analysis["limits"], format!("nodes {NODES}"));
    // The same figures as the module gives (and `sow analyze --json --nodes 2000`).
    let mut game = Game::from_position(START.parse::<Position>().unwrap());
    for name in ["E", "b"] {
        game.play(game.parse_move(name).unwrap()).unwrap();
    }
    let mut engine = Engine::new(levels::settings(6), 0);
    engine.set_tables(Some(set.clone()));
    let exact = set.tables(game.rules()).unwrap();
    let limits = Limits {
        nodes: Some(NODES),
        ..Limits::default()
    };
    let direct = sowing_engine::analysis::analyse(
        &game,
        &mut engine,
        "level:6",
        &limits,
        exact.as_deref(),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(analysis, &serde_json::to_value(&direct).unwrap());
    // Asked again: it is there at once.
    let (status, again) = send(&router, Method::POST, &path, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["analysis"], *analysis);
    // Kept with the game: a server started again on the database serves it.
    drop(router);
    let restarted = app(Store::open(&db).unwrap(), Some(set), 4);
    let (status, view) = Call::new(Method::GET, &path)
        .key(None)
        .send(&restarted)
        .await;
    assert_eq!((status, &view["status"]), (StatusCode::OK, &json!("done")));
    assert_eq!(view["analysis"], *analysis);
    // Once the game's moves change, it is the analysis of another game: not served.
    let (status, _) = send(
        &restarted,
        Method::POST,
        &format!("/api/games/{id}/undo"),
        Some("{}"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, view) = Call::new(Method::GET, &path)
        .key(None)
        .send(&restarted)
        .await;
    assert_eq!(
        (&view["status"], &view["plies"]),
        (&json!("none"), &json!(1))
    );
}

#[tokio::test]
async fn the_route_refuses_what_it_cannot_analyse() {
    let router = app(common::store(), None, 4);
    // No such game.
    for method in [Method::GET, Method::POST] {
        let (status, body) = send(&router, method, "/api/games/999/analysis", None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    }
    let (status, _) = send(&router, Method::GET, "/api/games/x/analysis", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // A game with no moves yet.
    let id = game_of(&router, "").await;
    let (status, body) = send(
        &router,
        Method::POST,
        &format!("/api/games/{id}/analysis"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("no moves"),
        "{body}"
    );
    // Other methods.
    let (status, _) = send(
        &router,
        Method::DELETE,
        &format!("/api/games/{id}/analysis"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn a_game_between_two_seats_is_analysed_only_once_over() {
    let router = app(common::store(), None, 4);
    let (status, seated) = send(
        &router,
        Method::POST,
        "/api/live",
        Some(&json!({"game": "hoyito-ii", "name": "Ana"}).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{seated}");
    let id = seated["live"]["id"].as_i64().unwrap();
    let path = format!("/api/games/{id}/analysis");
    // Watchers may read where it stands, but not ask for help while it is played.
    let (status, view) = Call::new(Method::GET, &path).key(None).send(&router).await;
    assert_eq!((status, &view["status"]), (StatusCode::OK, &json!("none")));
    let (status, body) = Call::new(Method::POST, &path).key(None).send(&router).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("waits for its end"),
        "{body}"
    );
}

#[tokio::test]
async fn a_full_queue_refuses_more() {
    let router = app(common::store(), None, 0);
    let id = game_of(&router, "E b").await;
    let (status, body) = send(
        &router,
        Method::POST,
        &format!("/api/games/{id}/analysis"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    let (_, view) = send(
        &router,
        Method::GET,
        &format!("/api/games/{id}/analysis"),
        None,
    )
    .await;
    assert_eq!(view["status"], "none");
}
