//! The opening explorer and the endgame practice (`/api/explorer`, `/api/practice`):
//! the first moves at each solved start are the values docs/solve.md states, checked
//! against the certificates' root claims read here (not through the server's lookup); moves
//! past what is proven are estimated with their depth; the site's finished games are counted
//! by move and result; a queued solve proves bounds that hold the tables' values; a
//! practice position is converted against the tables' defence; every bad request is a 4xx.
//! The new-game dialog's proven values of the starts are the certificates' too.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::{Method, StatusCode};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use sowing::{Game, Position, Rules, Side, Variant};
use sowing_engine::TableSet;
use sowing_solve::certificate::Certificate;
use sowing_solve::Kind;
use sowing_tables::build::{build, Options};
use sowing_tables::Tables;
use sowing_web::limits::AbuseLimits;
use sowing_web::store::{NewGame, Store};
use sowing_web::{router, App, SolveSettings};

mod common;
use common::{send, Call};

fn repo(path: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// The opening values docs/solve.md states: (the row's words, the start's value, A … F).
fn documented() -> Vec<(String, i32, Vec<i32>)> {
    let text = std::fs::read_to_string(repo("docs/solve.md")).unwrap();
    let number = |s: &str| -> i32 {
        let s = s
            .trim()
            .trim_matches('*')
            .replace('−', "-")
            .replace('+', "");
        s.parse().unwrap_or_else(|_| panic!("not a number: {s:?}"))
    };
    let mut rows = Vec::new();
    // The table of every option set: "| set | value | A, B, … F | …".
    for line in text.lines().filter(|l| l.starts_with("| ")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 {
            continue;
        }
        let openings: Vec<&str> = cells[3].split(',').collect();
        if openings.len() == 6 {
            let values: Option<Vec<i32>> = openings
                .iter()
                .map(|o| o.trim().replace('−', "-").parse().ok())
                .collect();
            if let Some(values) = values {
                rows.push((cells[1].to_owned(), number(cells[2]), values));
            }
        }
    }
    // Ayoayo's, in the text: "A −4, B −2, C +8, D −6, E −16, F −6".
    let at = text.find("valued every opening move exactly").unwrap();
    let sentence = &text[at..];
    let from = sentence.find("): A ").unwrap() + 3;
    let values: Vec<i32> = sentence[from..]
        .split(',')
        .take(6)
        .map(|part| number(part.split_whitespace().nth(1).unwrap()))
        .collect();
    rows.push(("Ayoayo".to_owned(), 8, values));
    rows
}

/// The start and certificate of a row of docs/solve.md.
fn start_of(row: &str) -> (Position, &'static str) {
    let rules = |variant, option: Option<(&str, &str)>| {
        let mut rules = Rules::new(variant);
        if let Some((name, value)) = option {
            rules.set_option(name, value).unwrap();
        }
        Position::start(rules)
    };
    if row.starts_with("Hoyito II,") {
        (rules(Variant::HoyitoII, None), "hoyito-ii.cert")
    } else if row.contains("final-four=capturer") {
        (rules(Variant::HoyitoIII, None), "hoyito-iii.cert")
    } else if row.contains("final-four=south") {
        (
            rules(Variant::HoyitoIII, Some(("final-four", "south"))),
            "hoyito-iii-four-south.cert",
        )
    } else if row.contains("final-four=north") {
        (
            rules(Variant::HoyitoIII, Some(("final-four", "north"))),
            "hoyito-iii-four-north.cert",
        )
    } else if row.contains("leftover=holder") {
        (
            rules(Variant::Ayoayo, Some(("leftover", "holder"))),
            "ayoayo-holder.cert",
        )
    } else if row == "Ayoayo" {
        (rules(Variant::Ayoayo, None), "ayoayo.cert")
    } else {
        panic!("a row of docs/solve.md this test does not know: {row}")
    }
}

/// Each opening's value for South from the certificate's root claims ("after X"): what
/// the move captures, plus (or minus, when North moves next) the bound proven after it.
fn certified(start: &Position, file: &str) -> Vec<i32> {
    let certificate = Certificate::read(&repo(&format!("docs/solve/{file}"))).unwrap();
    let n = start.rules().pits_per_row();
    start
        .successors()
        .iter()
        .map(|(mv, child)| {
            let label = format!("after {}", mv.name(n));
            // A bound the seeds on the board give is not written as a root.
            let seeds = child.seeds_on_board() as i32;
            let bound = |kind, seeds| {
                certificate
                    .roots
                    .iter()
                    .find(|r| r.label == label && r.kind == kind)
                    .map_or(seeds, |r| r.bound)
            };
            let (lower, upper) = (bound(Kind::Lower, -seeds), bound(Kind::Upper, seeds));
            assert_eq!(lower, upper, "{file}: {label} is not exact");
            let c = child.captured();
            let gain = i32::from(c.south) - i32::from(c.north);
            if child.to_move() == Side::South {
                gain + lower
            } else {
                gain - lower
            }
        })
        .collect()
}

async fn explore(router: &axum::Router, query: &str) -> Value {
    let (status, body) = send(router, Method::GET, &format!("/api/explorer?{query}"), None).await;
    assert_eq!(status, StatusCode::OK, "{query}: {body}");
    body
}

fn encode(text: &str) -> String {
    text.replace(' ', "+")
        .replace('=', "%3D")
        .replace(',', "%2C")
        .replace('/', "%2F")
}

#[tokio::test]
async fn the_first_moves_at_each_solved_start_are_the_values_of_docs_solve_md() {
    let router = router(Arc::new(App::new(Store::in_memory().unwrap(), 2)));
    let rows = documented();
    assert_eq!(rows.len(), 6, "{rows:?}");
    for (row, start_value, openings) in rows {
        let (start, file) = start_of(&row);
        assert_eq!(certified(&start, file), openings, "{row}");
        assert_eq!(openings.iter().max(), Some(&start_value), "{row}");
        let body = explore(&router, &format!("start={}", encode(&start.to_string()))).await;
        let served: Vec<(String, &str, &str, i64)> = body["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["move"].as_str().unwrap().to_owned(),
                    m["status"].as_str().unwrap(),
                    m["source"].as_str().unwrap(),
                    m["value"].as_i64().unwrap(),
                )
            })
            .collect();
        let expected: Vec<(String, &str, &str, i64)> = ["A", "B", "C", "D", "E", "F"]
            .iter()
            .zip(&openings)
            .map(|(mv, &v)| (mv.to_string(), "proven", "certificate", i64::from(v)))
            .collect();
        assert_eq!(served, expected, "{row}");
        assert_eq!(body["value"], json!(start_value), "{row}");
    }
}

/// What the new-game dialog states of a start (static/newgame.js): its value for South
/// (`solved`), or the bounds proven on it (`bounded`).
#[derive(Debug)]
enum Stated {
    Value(i32),
    Bounds(i32, i32),
}

/// The dialog's statements: each (game, its options' words, what it states).
fn in_the_dialog() -> Vec<(String, String, Stated)> {
    let text = std::fs::read_to_string(repo("crates/sowing-web/static/newgame.js")).unwrap();
    let mut found = Vec::new();
    let mut game = String::new();
    for line in text.lines().map(str::trim) {
        // A game's entry opens its line ("'hoyito-ii': {", "ayoayo: {") in ABOUT.
        if let Some(name) = line.strip_suffix(": {") {
            game = name.trim_matches('\'').to_owned();
        }
        let Some(at) = line.find("options: {") else {
            continue;
        };
        let options = &line[at + "options: {".len()..line[at..].find('}').unwrap() + at];
        let number = |key: &str| {
            let after = line.split(key).nth(1)?;
            let end = after.find([',', ' ']).unwrap();
            Some(after[..end].parse::<i32>().unwrap())
        };
        let stated = match (number("value: "), number("lower: "), number("upper: ")) {
            (Some(value), None, None) => Stated::Value(value),
            (None, Some(lower), Some(upper)) => Stated::Bounds(lower, upper),
            other => panic!("an entry this test cannot read: {line} {other:?}"),
        };
        found.push((game.clone(), options.trim().to_owned(), stated));
    }
    found
}

/// The start and certificate of an option set of the dialog (the certificates' names, as
/// scripts/solve-options.sh gives them: the game, then each option that is not the default).
fn dialog_start(game: &str, options: &str) -> (Position, String) {
    let variant = match game {
        "hoyito-ii" => Variant::HoyitoII,
        "hoyito-iii" => Variant::HoyitoIII,
        "ayoayo" => Variant::Ayoayo,
        other => panic!("a game this test does not know: {other}"),
    };
    let mut rules = Rules::new(variant);
    let mut name = game.to_owned();
    for pair in options.split(',') {
        let (field, value) = pair.split_once(':').unwrap();
        let (field, value) = (
            field.trim().replace('_', "-"),
            value.trim().trim_matches('\''),
        );
        rules.set_option(&field, value).unwrap();
        match (field.as_str(), value) {
            ("casa-rows", "opponent") => name.push_str("-opponent"),
            ("final-four", "south" | "north") => name.push_str(&format!("-four-{value}")),
            ("leftover", "holder") => name.push_str("-holder"),
            ("casa-rows", "any") | ("final-four", "capturer") | ("leftover", "last-mover") => {}
            other => panic!("an option this test does not know: {other:?}"),
        }
    }
    (Position::start(rules), format!("{name}.cert"))
}

#[test]
fn the_new_game_dialogs_statements_are_the_certificates() {
    let rows = in_the_dialog();
    let solved = rows
        .iter()
        .filter(|r| matches!(r.2, Stated::Value(_)))
        .count();
    assert_eq!(solved, 6, "{rows:?}");
    assert!(rows.len() > solved, "no bounded set: {rows:?}");
    for (game, options, stated) in rows {
        let (start, file) = dialog_start(&game, &options);
        match stated {
            Stated::Value(value) => {
                let best = certified(&start, &file).into_iter().max();
                assert_eq!(
                    best,
                    Some(value),
                    "{game} {{{options}}}: the dialog says {value}"
                );
            }
            Stated::Bounds(lower, upper) => {
                let certificate = Certificate::read(&repo(&format!("docs/solve/{file}"))).unwrap();
                assert_eq!(certificate.rules, start.rules(), "{file}");
                let root = |kind| {
                    let root = certificate
                        .roots
                        .iter()
                        .find(|r| r.label == "start" && r.kind == kind);
                    let root =
                        root.unwrap_or_else(|| panic!("{file}: no {kind:?} bound on the start"));
                    assert_eq!(root.position, start, "{file}");
                    root.bound
                };
                // Hoyito captures in fours, so its values are multiples of 4: V ≥ −33 is
                // V ≥ −32.
                let (proven_lower, proven_upper) = (root(Kind::Lower), root(Kind::Upper));
                let fours = (
                    -(-proven_lower).div_euclid(4) * 4,
                    proven_upper.div_euclid(4) * 4,
                );
                assert_eq!(
                    (lower, upper),
                    fours,
                    "{game} {{{options}}}: the dialog says [{lower}, {upper}], \
                     {file} proves [{proven_lower}, {proven_upper}]"
                );
            }
        }
    }
}

#[tokio::test]
async fn a_line_past_the_proofs_is_estimated_with_its_depth() {
    let router = router(Arc::new(App::new(Store::in_memory().unwrap(), 2)));
    // Hoyito II with casa-rows=opponent: its start not solved (docs/solve.md), a line of
    // first moves known to nobody.
    let unsolved = Position::start({
        let mut rules = Rules::new(Variant::HoyitoII);
        rules.set_option("casa-rows", "opponent").unwrap();
        rules
    });
    let mut game = Game::from_position(unsolved);
    let mut line = Vec::new();
    for _ in 0..6 {
        let mv = game.legal_moves()[0];
        line.push(mv.name(6).to_string());
        game.play(mv).unwrap();
    }
    let body = explore(
        &router,
        &format!(
            "start={}&moves={}",
            encode(&unsolved.to_string()),
            line.join("+")
        ),
    )
    .await;
    assert_eq!(body["line"], json!(line));
    let moves = body["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    let mut estimated = 0;
    for m in moves {
        match m["status"].as_str().unwrap() {
            "estimated" => {
                estimated += 1;
                assert!(m["value"].is_null() && m["source"].is_null(), "{m}");
                assert!(m["estimate"].is_number(), "{m}");
                assert!(m["depth"].as_u64().is_some_and(|d| d >= 1), "{m}");
            }
            "proven" => assert_eq!(m["value"], m["lower"], "{m}"),
            "bounded" => assert!(m["lower"].is_number() || m["upper"].is_number(), "{m}"),
            other => panic!("status {other}"),
        }
    }
    assert!(estimated > 0, "{body}");
    // The unsolved start: its moves are not all proven, so no value for the position.
    let body = explore(&router, &format!("start={}", encode(&unsolved.to_string()))).await;
    assert!(body["value"].is_null(), "{body}");
}

/// Random finished games of Hoyito II, their moves' names.
fn finished_games(count: usize, seed: u64) -> Vec<Game> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let mut game = Game::new(Rules::new(Variant::HoyitoII));
            // A few fixed openings so that lines are shared.
            let first = ["C", "D"][rng.gen_range(0..2)];
            game.play(game.parse_move(first).unwrap()).unwrap();
            while !game.is_over() {
                let moves = game.legal_moves();
                game.play(moves[rng.gen_range(0..moves.len())]).unwrap();
            }
            game
        })
        .collect()
}

#[tokio::test]
async fn the_sites_finished_games_are_counted_by_move_and_result() {
    let app = Arc::new(App::new(common::store(), 2));
    let games = finished_games(12, 7);
    for game in &games {
        app.store()
            .create_game(&NewGame::new(game, "human", "human"))
            .unwrap();
    }
    // A game not finished counts for nothing.
    let mut open = Game::new(Rules::new(Variant::HoyitoII));
    open.play(open.parse_move("C").unwrap()).unwrap();
    app.store()
        .create_game(&NewGame::new(&open, "human", "human"))
        .unwrap();
    let router = router(app);
    let n = 6;
    for line in [vec![], vec!["C"], vec!["D"]] {
        let body = explore(&router, &format!("game=hoyito-ii&moves={}", line.join("+"))).await;
        for m in body["moves"].as_array().unwrap() {
            let name = m["move"].as_str().unwrap();
            let (mut south, mut north, mut draws) = (0, 0, 0);
            for game in &games {
                let names: Vec<String> = game
                    .moves()
                    .iter()
                    .map(|mv| mv.name(n).to_string())
                    .collect();
                if names.len() > line.len()
                    && names[..line.len()] == line[..]
                    && names[line.len()] == name
                {
                    match game.outcome().unwrap() {
                        sowing::Outcome::Win(Side::South) => south += 1,
                        sowing::Outcome::Win(Side::North) => north += 1,
                        sowing::Outcome::Draw => draws += 1,
                    }
                }
            }
            let played = &m["played"];
            assert_eq!(
                (played["south"].clone(), played["north"].clone()),
                (json!(south), json!(north)),
                "{line:?} {name}"
            );
            assert_eq!(played["draws"], json!(draws));
            assert_eq!(played["games"], json!(south + north + draws));
        }
    }
    let body = explore(&router, "game=hoyito-ii").await;
    let total: u64 = body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["played"]["games"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 12);
}

/// No rate limits: these tests ask as fast as they can (the limits have tests of their own).
fn polling() -> AbuseLimits {
    AbuseLimits {
        enabled: false,
        ..AbuseLimits::default()
    }
}

fn tables_dir(name: &str, seeds: usize) -> std::path::PathBuf {
    let dir = common::temp_db(name).with_file_name("tables");
    std::fs::create_dir_all(&dir).unwrap();
    build(
        &dir,
        Rules::new(Variant::HoyitoII),
        seeds,
        &Options::quiet(),
    )
    .unwrap();
    dir
}

/// Twelve seeds, South to move, past tables to 8.
const TWELVE: &str = "hoyito-ii 2,1,0,3,0,1/0,2,1,1,0,1 18-18 S -";

#[tokio::test]
async fn a_queued_solve_proves_bounds_that_hold_the_tables_values() {
    let small = tables_dir("solve-8", 8);
    let large = tables_dir("solve-12", 12);
    let app = Arc::new(
        App::new(Store::in_memory().unwrap(), 2)
            .with_tables(Some(Arc::new(TableSet::open(&small).unwrap())))
            .with_limits(polling())
            .with_solves(SolveSettings {
                budget: Duration::from_secs(10),
                ..SolveSettings::default()
            }),
    );
    let router = router(app);
    let query = format!("start={}", encode(TWELVE));
    let before = explore(&router, &query).await;
    assert_eq!(before["solvable"], json!(true));
    assert_eq!(before["tables"], json!(8));
    let body = json!({ "start": TWELVE }).to_string();
    let (status, queued) = send(&router, Method::POST, "/api/explorer/solve", Some(&body)).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{queued}");
    let deadline = Instant::now() + Duration::from_secs(60);
    let after = loop {
        let now = explore(&router, &query).await;
        if now["solve"].is_null() {
            break now;
        }
        assert!(Instant::now() < deadline, "the solve did not end: {now}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let tables = Tables::open(&large, Rules::new(Variant::HoyitoII)).unwrap();
    let game = Game::from_position(TWELVE.parse().unwrap());
    let exact = sowing_engine::tables::move_values(&tables, &game).unwrap();
    // What the solve proved in its budget holds the tables' value: a move proven has it,
    // a move bounded has it within its bounds.
    let n = 6;
    let mut from_solve = 0;
    for (mv, value) in exact {
        let m = after["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == json!(mv.name(n).to_string()))
            .unwrap();
        let value = i64::from(value);
        match m["status"].as_str().unwrap() {
            "proven" => assert_eq!(m["value"], json!(value), "{m}"),
            "bounded" => {
                assert!(m["lower"].as_i64().is_none_or(|lo| lo <= value), "{m}");
                assert!(m["upper"].as_i64().is_none_or(|hi| value <= hi), "{m}");
            }
            _ => {}
        }
        if m["source"] == json!("solve") {
            from_solve += 1;
        }
    }
    assert!(from_solve > 0, "{after}");
    // Inside the tables there is nothing to solve.
    let inside = json!({ "start": "hoyito-ii 2,1,0,0,0,1/0,0,3,1,0,0 20-20 S -" }).to_string();
    let (status, error) = send(&router, Method::POST, "/api/explorer/solve", Some(&inside)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{error}");
}

#[tokio::test]
async fn a_practice_position_is_converted_against_the_tables_defence() {
    let dir = tables_dir("practice", 8);
    let app = Arc::new(
        App::new(Store::in_memory().unwrap(), 2)
            .with_tables(Some(Arc::new(TableSet::open(&dir).unwrap())))
            .with_limits(polling()),
    );
    let router = router(app.clone());
    for difficulty in ["easy", "medium", "hard"] {
        let (status, practice) = send(
            &router,
            Method::GET,
            &format!("/api/practice?game=hoyito-ii&difficulty={difficulty}"),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{practice}");
        let start: Position = practice["position"].as_str().unwrap().parse().unwrap();
        let me = start.to_move();
        let value = practice["value"].as_i64().unwrap() as i32;
        assert!(start.seeds_on_board() <= 8);
        let c = start.captured();
        assert!(
            i32::from(c[me]) - i32::from(c[!me]) + value > 0,
            "{practice}"
        );
        // The player plays the best move, the defence the tables' best: the game ends
        // with the value won, nothing given up.
        let mut line: Vec<String> = Vec::new();
        let mut given_up = 0;
        loop {
            let body = explore(
                &router,
                &format!(
                    "start={}&moves={}",
                    encode(&start.to_string()),
                    line.join("+")
                ),
            )
            .await;
            if body["over"] == json!(true) {
                break;
            }
            let moves = body["moves"].as_array().unwrap();
            assert!(
                moves.iter().all(|m| m["status"] == json!("proven")),
                "{body}"
            );
            let best = body["value"].as_i64().unwrap();
            let mover = body["board"]["to_move"].as_str().unwrap();
            let mv = if mover == me.name() {
                // The player: the first move that keeps the value, or, once, a worse one.
                let pick = moves
                    .iter()
                    .find(|m| m["value"].as_i64() == Some(best))
                    .unwrap();
                pick["move"].as_str().unwrap().to_owned()
            } else {
                body["best"].as_str().unwrap().to_owned()
            };
            given_up += best
                - moves.iter().find(|m| m["move"] == json!(mv)).unwrap()["value"]
                    .as_i64()
                    .unwrap();
            line.push(mv);
            assert!(line.len() < 200, "no end");
        }
        let mut game = Game::from_position(start);
        for mv in &line {
            game.play(game.parse_move(mv).unwrap()).unwrap();
        }
        assert_eq!(given_up, 0);
        assert_eq!(
            game.outcome(),
            Some(sowing::Outcome::Win(me)),
            "{difficulty}"
        );
        let end = game.position().captured();
        assert_eq!(
            i32::from(end[me]) - i32::from(end[!me]),
            i32::from(c[me]) - i32::from(c[!me]) + value
        );
    }
    // A finished game's first position inside the tables that its mover wins.
    let game = &finished_games(1, 3)[0];
    let id = app
        .store()
        .create_game(&NewGame::new(game, "human", "human"))
        .unwrap();
    let (status, practice) = send(
        &router,
        Method::GET,
        &format!("/api/practice?from={id}"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{practice}");
    assert_eq!(practice["difficulty"], json!("game"));
    let position: Position = practice["position"].as_str().unwrap().parse().unwrap();
    assert!(position.seeds_on_board() <= 8);
    assert!((0..=game.moves().len()).any(|ply| game.position_at(ply) == Some(&position)));
    // The explorer opens at a game of the site, at any of its plies.
    let names: Vec<String> = game.moves().iter().map(|m| m.name(6).to_string()).collect();
    let body = explore(&router, &format!("from={id}&ply=5")).await;
    assert_eq!(body["line"], json!(names[..5]));
    assert_eq!(body["start"], json!(game.start().to_string()));
    let body = explore(&router, &format!("from={id}")).await;
    assert_eq!(body["line"], json!(names));
    assert_eq!(body["over"], json!(true));
    assert_eq!(body["moves"], json!([]));
    let past = format!("/api/explorer?from={id}&ply={}", names.len() + 1);
    let (status, error) = send(&router, Method::GET, &past, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{error}");
    let both = format!("/api/explorer?from={id}&moves=A");
    let (status, error) = send(&router, Method::GET, &both, None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{error}");
}

#[tokio::test]
async fn bad_requests_are_refused_with_a_clear_4xx() {
    let router = router(Arc::new(App::new(Store::in_memory().unwrap(), 2)));
    for (query, status, says) in [
        ("game=chess", 422, "game \"chess\""),
        ("", 422, "either the game"),
        (
            "game=ayoayo&start=ayoayo+4%2C4%2C4%2C4%2C4%2C4%2F4%2C4%2C4%2C4%2C4%2C4+0-0+S+-",
            422,
            "either the game",
        ),
        ("start=hoyito-ii+x", 422, "start: position text"),
        ("game=hoyito-ii&moves=A+Z", 422, "move 2"),
        ("game=hoyito-ii&moves=a", 422, "move 1"),
        ("game=hoyito-ii&colour=red", 400, ""),
    ] {
        let (got, body) = send(
            &router,
            Method::GET,
            &format!("/api/explorer?{query}"),
            None,
        )
        .await;
        assert!(
            got.as_u16() == status || (status == 400 && got.is_client_error()),
            "{query}: {got} {body}"
        );
        assert!(
            body["error"].as_str().unwrap().contains(says),
            "{query}: {body}"
        );
    }
    let long = vec!["A"; 601].join("+");
    let (got, body) = send(
        &router,
        Method::GET,
        &format!("/api/explorer?game=hoyito-ii&moves={long}"),
        None,
    )
    .await;
    assert!(got.is_client_error(), "{body}");
    // A solve with no tables, and one from another site's page.
    let body = json!({ "game": "hoyito-ii", "moves": "C" }).to_string();
    let (got, error) = send(&router, Method::POST, "/api/explorer/solve", Some(&body)).await;
    assert_eq!(got, StatusCode::CONFLICT, "{error}");
    assert!(error["error"]
        .as_str()
        .unwrap()
        .contains("no endgame tables"));
    let (got, error) = Call::new(Method::POST, "/api/explorer/solve")
        .header("origin", "https://elsewhere.example")
        .header("sec-fetch-site", "cross-site")
        .json(json!({ "game": "hoyito-ii" }))
        .send(&router)
        .await;
    assert_eq!(got, StatusCode::FORBIDDEN, "{error}");
    for query in [
        "game=hoyito-ii&difficulty=extreme",
        "",
        "game=hoyito-ii&from=1",
    ] {
        let (got, body) = send(
            &router,
            Method::GET,
            &format!("/api/practice?{query}"),
            None,
        )
        .await;
        assert_eq!(got, StatusCode::UNPROCESSABLE_ENTITY, "{query}: {body}");
    }
    // No tables: nothing to practise.
    let (got, body) = send(&router, Method::GET, "/api/practice?game=hoyito-ii", None).await;
    assert_eq!(got, StatusCode::CONFLICT, "{body}");
    let (got, body) = send(&router, Method::GET, "/api/practice?from=999", None).await;
    assert_eq!(got, StatusCode::NOT_FOUND, "{body}");
}
