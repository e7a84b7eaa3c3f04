//! Tournaments (docs/api.md, "Tournaments"): a Swiss paired round after round with no
//! rematch and byes at most once, its standings recomputable from what the API gives; an
//! arena that pairs again as games end, scores a berserk win, and finishes at its end;
//! refusals; and the director's lease — a server that lost it writes nothing, another takes
//! over and nothing is paired twice or lost. Run on SQLite, and with
//! `SOWING_TEST_STORE=postgres` on PostgreSQL (`scripts/test` does both).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use axum::http::{Method, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use sowing_web::clock::{now_ms, TimeSource};
use sowing_web::limits::AbuseLimits;
use sowing_web::{router, App};

mod common;
use common::{sign_up, with_cookie, Call};

const NAMES: [&str; 5] = ["Ana", "Bo", "Cy", "Di", "Ed"];

struct Site {
    router: Router,
    app: Arc<App>,
    time: Arc<AtomicI64>,
    /// Each player's session, by name.
    sessions: HashMap<&'static str, String>,
}

impl Site {
    async fn new(players: usize) -> Site {
        Site::on(common::store(), players).await
    }

    async fn on(store: sowing_web::store::Store, players: usize) -> Site {
        let time = Arc::new(AtomicI64::new(now_ms()));
        let app = Arc::new(
            App::new(store, 1)
                .with_time(TimeSource::Manual(time.clone()))
                .with_limits(AbuseLimits {
                    enabled: false,
                    ..AbuseLimits::default()
                }),
        );
        let router = router(app.clone());
        let mut sessions = HashMap::new();
        for name in &NAMES[..players] {
            sessions.insert(*name, sign_up(&router, name, None).await);
        }
        Site {
            router,
            app,
            time,
            sessions,
        }
    }

    fn now(&self) -> i64 {
        self.time.load(Ordering::SeqCst)
    }

    fn pass(&self, ms: i64) {
        self.time.fetch_add(ms, Ordering::SeqCst);
    }

    async fn send(
        &self,
        method: Method,
        path: &str,
        who: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let cookie = who.map(|name| self.sessions[name].clone());
        let mut call = Call::new(method, path);
        let who = cookie.as_deref().map(with_cookie);
        if let Some(who) = &who {
            call = call.by(who);
        }
        match body {
            Some(body) => call.json(body).send(&self.router).await,
            None => call.send(&self.router).await,
        }
    }

    async fn tournament(&self, id: i64) -> Value {
        let (status, view) = self
            .send(Method::GET, &format!("/api/tournaments/{id}"), None, None)
            .await;
        assert_eq!(status, StatusCode::OK, "{view}");
        view
    }

    async fn direct(&self) {
        self.app.direct_tournaments().await.unwrap();
    }

    /// `name` resigns game `game`, through their session alone.
    async fn resign(&self, game: i64, name: &str) {
        let path = format!("/api/live/{game}/resign");
        let (status, view) = self.send(Method::POST, &path, Some(name), None).await;
        assert_eq!(status, StatusCode::OK, "{name} resigns {game}: {view}");
    }

    /// `name` plays the first legal move in game `game`.
    async fn play(&self, game: i64, name: &str) {
        let (_, view) = self
            .send(Method::GET, &format!("/api/live/{game}"), None, None)
            .await;
        let ply = view["live"]["ply"].as_u64().unwrap();
        let mv = view["game"]["state"]["legal"][0]
            .as_str()
            .unwrap()
            .to_owned();
        let path = format!("/api/live/{game}/moves");
        let body = json!({"move": mv, "ply": ply});
        let (status, moved) = self.send(Method::POST, &path, Some(name), Some(body)).await;
        assert_eq!(
            status,
            StatusCode::OK,
            "{name} plays {mv} in {game}: {moved}"
        );
    }

    /// Who is to move in game `game`: South's or North's name.
    async fn to_move(&self, game: i64) -> String {
        let (_, view) = self
            .send(Method::GET, &format!("/api/live/{game}"), None, None)
            .await;
        let side = view["game"]["state"]["to_move"]
            .as_str()
            .unwrap()
            .to_owned();
        view["live"]["seats"][side.as_str()]["name"]
            .as_str()
            .unwrap()
            .to_owned()
    }
}

async fn create(site: &Site, by: &str, body: Value) -> i64 {
    let (status, made) = site
        .send(Method::POST, "/api/tournaments", Some(by), Some(body))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    made["id"].as_i64().unwrap()
}

fn boards_of(view: &Value, round: i64) -> Vec<Value> {
    view["boards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["round"] == round)
        .cloned()
        .collect()
}

/// `name`'s points in the standings of `view`.
fn points(view: &Value, name: &str) -> f64 {
    let line = view["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == name);
    line.and_then(|l| l["points"].as_f64()).unwrap()
}

#[tokio::test]
async fn a_swiss_pairs_each_round_once_all_its_games_are_over_with_no_rematch_and_one_bye_each() {
    let site = Site::new(5).await;
    let starts = site.now() + 60_000;
    let id = create(
        &site,
        "Ana",
        json!({"name": "Friday Swiss", "kind": "swiss", "game": "hoyito-ii", "rounds": 3,
               "clock": {"base_ms": 180000, "increment_ms": 2000}, "starts_ms": starts}),
    )
    .await;
    for name in NAMES {
        let path = format!("/api/tournaments/{id}/join");
        let (status, view) = site.send(Method::POST, &path, Some(name), None).await;
        assert_eq!(status, StatusCode::OK, "{view}");
        assert_eq!(view["me"]["status"], "active");
    }
    // Nothing before the start.
    site.direct().await;
    assert_eq!(site.tournament(id).await["state"], "upcoming");
    site.pass(60_000);
    let mut met = HashSet::new();
    let mut byes = HashSet::new();
    for round in 1..=3 {
        site.direct().await;
        let view = site.tournament(id).await;
        assert_eq!(view["state"], "running");
        assert_eq!(view["round"], round);
        let boards = boards_of(&view, round);
        assert_eq!(boards.len(), 3, "two games and a bye: {boards:?}");
        for board in &boards {
            let south = board["south"].as_str().unwrap().to_owned();
            match board["north"].as_str() {
                None => {
                    assert_eq!(board["result"], "bye");
                    assert!(byes.insert(south.clone()), "{south} had two byes");
                }
                Some(north) => {
                    let pair = if south.as_str() < north {
                        (south.clone(), north.to_owned())
                    } else {
                        (north.to_owned(), south.clone())
                    };
                    assert!(met.insert(pair.clone()), "{pair:?} met twice");
                }
            }
        }
        // The reader's own game is one tap away.
        let south = boards[0]["south"].as_str().unwrap();
        let south_name = *NAMES.iter().find(|n| **n == south).unwrap();
        let path = format!("/api/tournaments/{id}");
        let (_, mine) = site.send(Method::GET, &path, Some(south_name), None).await;
        assert_eq!(mine["me"]["game_id"], boards[0]["game_id"]);
        assert_eq!(mine["me"]["seat"], "south");
        // And on the player's notices (the challenges list): the pairing, at once.
        let (_, notices) = site
            .send(Method::GET, "/api/challenges", Some(south_name), None)
            .await;
        let playing = &notices["tournament_games"][0];
        assert_eq!(playing["game_id"], boards[0]["game_id"], "{notices}");
        assert_eq!(
            (playing["tournament_id"].as_i64(), &playing["seat"]),
            (Some(id), &json!("south"))
        );
        // North wins the first board, South the second.
        for (n, board) in boards.iter().filter(|b| b["north"].is_string()).enumerate() {
            let game = board["game_id"].as_i64().unwrap();
            let loser = if n == 0 {
                &board["south"]
            } else {
                &board["north"]
            };
            site.resign(game, loser.as_str().unwrap()).await;
        }
        // The results are recorded at once; the next round waits for its gap.
        site.direct().await;
        let view = site.tournament(id).await;
        assert!(boards_of(&view, round)
            .iter()
            .all(|b| b["result"].is_string()));
        assert_eq!(view["round"], round);
        site.pass(10_000);
    }
    site.direct().await;
    let view = site.tournament(id).await;
    assert_eq!(view["state"], "finished", "{view}");
    assert_eq!(view["boards"].as_array().unwrap().len(), 9);
    // The standings add up from the boards: a win or a bye 1, a draw ½.
    let mut points: HashMap<String, f64> = HashMap::new();
    for board in view["boards"].as_array().unwrap() {
        let (south, north) = (board["south"].as_str().unwrap(), board["north"].as_str());
        match (board["result"].as_str().unwrap(), north) {
            ("bye", _) | ("south", _) => *points.entry(south.into()).or_default() += 1.0,
            ("north", Some(north)) => *points.entry(north.into()).or_default() += 1.0,
            (other, _) => panic!("result {other}"),
        }
    }
    let standings = view["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 5);
    for line in standings {
        let name = line["name"].as_str().unwrap();
        assert_eq!(
            line["points"].as_f64().unwrap(),
            points.get(name).copied().unwrap_or(0.0),
            "{line}"
        );
        assert!(line["buchholz"].is_number() && line["sonneborn_berger"].is_number());
    }
    let ranked: Vec<f64> = standings
        .iter()
        .map(|l| l["points"].as_f64().unwrap())
        .collect();
    assert!(ranked.windows(2).all(|w| w[0] >= w[1]), "{ranked:?}");
    // The list shows it finished.
    let (_, list) = site.send(Method::GET, "/api/tournaments", None, None).await;
    assert_eq!(list["finished"][0]["id"], id);
}

#[tokio::test]
async fn an_arena_pairs_again_as_games_end_scores_a_berserk_win_and_finishes_at_its_end() {
    let site = Site::new(4).await;
    let id = create(
        &site,
        "Bo",
        json!({"name": "Quick arena", "kind": "arena", "game": "ayoayo", "minutes": 10,
               "clock": {"base_ms": 120000, "increment_ms": 0}, "starts_ms": site.now()}),
    )
    .await;
    for name in &NAMES[..4] {
        let (status, view) = site
            .send(
                Method::POST,
                &format!("/api/tournaments/{id}/join"),
                Some(name),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{view}");
    }
    site.direct().await;
    let view = site.tournament(id).await;
    assert_eq!(view["state"], "running");
    let boards = boards_of(&view, 0);
    assert_eq!(boards.len(), 2, "{view}");
    // South of board 0 berserks: half the clock, once, and only before moving.
    let board = &boards[0];
    let game = board["game_id"].as_i64().unwrap();
    let south = board["south"].as_str().unwrap().to_owned();
    let north = board["north"].as_str().unwrap().to_owned();
    let berserk = format!("/api/live/{game}/berserk");
    let (status, live) = site.send(Method::POST, &berserk, Some(&south), None).await;
    assert_eq!(status, StatusCode::OK, "{live}");
    assert_eq!(live["live"]["clock"]["south_ms"], 60000);
    assert_eq!(live["live"]["clock"]["north_ms"], 120000);
    let marked = site.tournament(id).await;
    assert!(
        marked["version"].as_i64() > view["version"].as_i64(),
        "the page hears of it"
    );
    assert_eq!(boards_of(&marked, 0)[0]["berserk_south"], true);
    let (status, e) = site.send(Method::POST, &berserk, Some(&south), None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "once: {e}");
    let (status, e) = site.send(Method::POST, &berserk, None, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "a spectator: {e}");
    // South makes its seven moves (North answering), then North resigns.
    let mut south_moves = 0;
    while south_moves < 7 {
        let mover = site.to_move(game).await;
        site.play(game, &mover).await;
        if mover == south {
            south_moves += 1;
        }
    }
    site.resign(game, &north).await;
    // The other board's North resigns too.
    let other = boards[1]["game_id"].as_i64().unwrap();
    site.resign(other, boards[1]["north"].as_str().unwrap())
        .await;
    site.pass(1_000);
    site.direct().await;
    let view = site.tournament(id).await;
    let done = boards_of(&view, 0);
    assert_eq!(done.len(), 4, "paired again at once: {view}");
    assert_eq!(done[0]["result"], "south");
    assert_eq!(done[0]["berserk_south"], true);
    assert!(done[0]["moves"][0].as_u64().unwrap() >= 7, "{}", done[0]);
    assert_eq!(
        points(&view, &south),
        3.0,
        "2 for the win, 1 for the berserk"
    );
    assert_eq!(points(&view, boards[1]["south"].as_str().unwrap()), 2.0);
    // Winners meet winners; nobody meets last game's opponent.
    for board in &done[2..] {
        let pair = [
            board["south"].as_str().unwrap(),
            board["north"].as_str().unwrap(),
        ];
        assert!(!(pair.contains(&south.as_str()) && pair.contains(&north.as_str())));
    }
    // A pause: Ana is not paired again until she comes back.
    let (status, view) = site
        .send(
            Method::POST,
            &format!("/api/tournaments/{id}/leave"),
            Some("Ana"),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["me"]["status"], "paused");
    // The end: games going on are played out; nothing new starts; then it finishes.
    site.pass(10 * 60_000);
    site.direct().await;
    let view = site.tournament(id).await;
    assert_eq!(view["state"], "running", "two games still going: {view}");
    assert_eq!(boards_of(&view, 0).len(), 4);
    // A look at each settles it: no first move came, South loses by forfeit.
    for board in &boards_of(&view, 0)[2..] {
        let path = format!("/api/live/{}", board["game_id"]);
        let (_, live) = site.send(Method::GET, &path, None, None).await;
        assert_eq!(live["live"]["result"]["reason"], "aborted", "{live}");
    }
    site.direct().await;
    let view = site.tournament(id).await;
    assert_eq!(view["state"], "finished", "{view}");
    let last = boards_of(&view, 0);
    assert_eq!(last.len(), 4);
    assert!(last[2..].iter().all(|b| b["result"] == "north"), "{last:?}");
    // Games over after the end count nothing.
    assert_eq!(points(&view, &south), 3.0);
    assert_eq!(points(&view, &north), 0.0);
    let (status, e) = site
        .send(
            Method::POST,
            &format!("/api/tournaments/{id}/join"),
            Some("Ana"),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{e}");
}

#[tokio::test]
async fn making_and_joining_refuse_what_is_out_of_bounds_and_need_a_session() {
    let site = Site::new(2).await;
    let good = json!({"name": "Weekly", "kind": "arena", "game": "hoyito-ii", "minutes": 30,
                      "clock": {"base_ms": 180000, "increment_ms": 2000}});
    let (status, e) = site
        .send(Method::POST, "/api/tournaments", None, Some(good.clone()))
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{e}");
    for (field, value) in [
        ("name", json!("")),
        ("kind", json!("knockout")),
        ("minutes", json!(0)),
        ("rounds", json!(3)),
        ("clock", json!({"base_ms": 1000})),
        ("game", json!("chess")),
        ("min_rating", json!(-5)),
    ] {
        let mut body = good.clone();
        body[field] = value;
        let (status, e) = site
            .send(Method::POST, "/api/tournaments", Some("Ana"), Some(body))
            .await;
        assert!(status.is_client_error(), "{field}: {status} {e}");
    }
    for _ in 0..3 {
        create(&site, "Ana", good.clone()).await;
    }
    let (status, e) = site
        .send(
            Method::POST,
            "/api/tournaments",
            Some("Ana"),
            Some(good.clone()),
        )
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "three at once: {e}");
    // A minimum rating keeps a new player out.
    let mut strong = good.clone();
    strong["min_rating"] = json!(1800);
    let id = create(&site, "Bo", strong).await;
    let join = format!("/api/tournaments/{id}/join");
    let (status, e) = site.send(Method::POST, &join, Some("Ana"), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{e}");
    let (status, e) = site.send(Method::POST, &join, None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{e}");
    // Another site's page may not join for a player.
    let cookie = site.sessions["Bo"].clone();
    let (status, e) = Call::new(Method::POST, &join)
        .by(&with_cookie(&cookie))
        .header("origin", "https://evil.example")
        .header("sec-fetch-site", "cross-site")
        .send(&site.router)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{e}");
    let (status, e) = site
        .send(Method::GET, "/api/tournaments/99999", None, None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{e}");
    assert_eq!(e["code"], "unknown-tournament");
    let (status, e) = site
        .send(Method::GET, "/api/tournaments/x", None, None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{e}");
}

/// Two servers on one database (PostgreSQL, or one SQLite file): the first directs; it
/// stops (as if killed) and its lease lapses; the second takes over, records the result
/// the first never saw and pairs the next round once; the first, back, writes nothing.
#[tokio::test]
async fn a_lapsed_lease_passes_to_another_server_and_nothing_is_paired_twice() {
    let db = sowing_web::store::Database::from(common::reopenable_db("lease").as_str());
    let first = Site::on(db.open().unwrap(), 4).await;
    let second = Site::on(db.open().unwrap(), 0).await;
    second.time.store(first.now(), Ordering::SeqCst);
    let id = create(
        &first,
        "Ana",
        json!({"name": "Lease", "kind": "swiss", "game": "hoyito-ii", "rounds": 2,
               "clock": {"base_ms": 180000, "increment_ms": 0}, "starts_ms": first.now()}),
    )
    .await;
    for name in &NAMES[..4] {
        let path = format!("/api/tournaments/{id}/join");
        assert_eq!(
            first.send(Method::POST, &path, Some(name), None).await.0,
            StatusCode::OK
        );
    }
    first.direct().await;
    second.direct().await;
    let view = first.tournament(id).await;
    assert_eq!(
        boards_of(&view, 1).len(),
        2,
        "paired once, by the first: {view}"
    );
    for board in boards_of(&view, 1) {
        first
            .resign(
                board["game_id"].as_i64().unwrap(),
                board["north"].as_str().unwrap(),
            )
            .await;
    }
    // The first server is gone; within the lease the second waits.
    second.pass(1_000);
    second.direct().await;
    assert!(boards_of(&first.tournament(id).await, 1)
        .iter()
        .all(|b| b["result"].is_null()));
    second.pass(3_000);
    second.direct().await;
    let view = first.tournament(id).await;
    assert!(
        boards_of(&view, 1).iter().all(|b| b["result"] == "south"),
        "{view}"
    );
    second.pass(10_000);
    second.direct().await;
    let view = first.tournament(id).await;
    assert_eq!(
        boards_of(&view, 2).len(),
        2,
        "round 2 by the second: {view}"
    );
    // The first comes back with its old clock: its lease is gone, it writes nothing.
    first.direct().await;
    let after = first.tournament(id).await;
    assert_eq!(after["version"], view["version"]);
    assert_eq!(after["boards"], view["boards"]);
}
