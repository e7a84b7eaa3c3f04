//! Every API route in-process, with good and bad input.

use std::sync::Arc;

use axum::http::{header, Method, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use sowing::{Game, Record, Rules, State, Variant};
use sowing_web::{router, App, BODY_LIMIT};

mod common;
use common::{send, Call};

fn app() -> (Router, Arc<App>) {
    let app = Arc::new(App::new(common::store(), 2));
    (router(app.clone()), app)
}

async fn create(router: &Router, body: Value) -> Value {
    let (status, view) = send(router, Method::POST, "/api/games", Some(&body.to_string())).await;
    assert_eq!(status, StatusCode::CREATED, "{view}");
    view
}

fn error_of(value: &Value) -> &str {
    value["error"]
        .as_str()
        .expect("an error body has an error message")
}

#[tokio::test]
async fn create_then_read_gives_the_rules_md_state() {
    let (router, _) = app();
    let view = create(&router, json!({"game": "hoyito-ii", "pits": 12})).await;
    let id = view["id"].as_i64().unwrap();
    let (status, read) = send(&router, Method::GET, &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    let expected = State::of(&Game::new(
        Rules::new(Variant::HoyitoII).with_pits(12).unwrap(),
    ));
    let state: State = serde_json::from_value(read["state"].clone()).unwrap();
    assert_eq!(state, expected);
    assert_eq!(read["history"], json!([]));
    assert_eq!(read["players"], json!({"south": "human", "north": "human"}));
}

#[tokio::test]
async fn playing_moves_matches_the_rules_crate_and_returns_the_trace() {
    let (router, _) = app();
    let view = create(&router, json!({"game": "ayoayo", "leftover": "holder"})).await;
    let id = view["id"].as_i64().unwrap();
    let mut game = Game::new({
        let mut rules = Rules::new(Variant::Ayoayo);
        rules.leftover = sowing::Leftover::Holder;
        rules
    });
    let mut played = Vec::new();
    for _ in 0..3 {
        let mut trace = Vec::new();
        let mv = *game.legal_moves().last().unwrap();
        let token = mv.name(6).to_string();
        game.play_traced(mv, &mut trace).unwrap();
        played.push(token.clone());
        let (status, answer) = send(
            &router,
            Method::POST,
            &format!("/api/games/{id}/moves"),
            Some(&json!({"move": token}).to_string()),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(answer["trace"].as_array().unwrap().len(), trace.len());
        assert_eq!(answer["trace"][0]["kind"], "lift");
        let state: State = serde_json::from_value(answer["game"]["state"].clone()).unwrap();
        assert_eq!(state, State::of(&game));
    }
    let (_, read) = send(&router, Method::GET, &format!("/api/games/{id}"), None).await;
    let moves: Vec<&str> = read["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["move"].as_str().unwrap())
        .collect();
    assert_eq!(moves, played);
    assert_eq!(
        read["history"][2]["after"]["pits"],
        json!(game.position().pits())
    );
}

#[tokio::test]
async fn an_illegal_move_is_a_422_naming_the_legal_moves() {
    let (router, _) = app();
    let id = create(&router, json!({"game": "hoyito-iii"})).await["id"].clone();
    let path = format!("/api/games/{id}/moves");
    let (status, body) = send(&router, Method::POST, &path, Some(r#"{"move":"a"}"#)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error_of(&body).contains("opponent"), "{body}");
    assert_eq!(body["legal"], json!(["A", "B", "C", "D", "E", "F"]));
    let (status, body) = send(&router, Method::POST, &path, Some(r#"{"move":"Q"}"#)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error_of(&body).contains("not a move"));
    let (status, _) = send(&router, Method::POST, &path, Some(r#"{"move":"pass"}"#)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn unknown_games_are_404() {
    let (router, _) = app();
    for (method, path) in [
        (Method::GET, "/api/games/42"),
        (Method::GET, "/api/games/nonsense"),
        (Method::GET, "/api/games/-1"),
        (Method::POST, "/api/games/42/moves"),
        (Method::POST, "/api/games/42/undo"),
        (Method::POST, "/api/games/42/redo"),
        (Method::POST, "/api/games/42/engine"),
        (Method::GET, "/api/games/42/record"),
        (Method::POST, "/api/matches/42/next"),
    ] {
        let body = (method == Method::POST).then_some(r#"{"move":"A"}"#);
        let body = if path.ends_with("moves") { body } else { None };
        let (status, value) = send(&router, method, path, body).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {value}");
        assert!(error_of(&value).contains("unknown"), "{path}: {value}");
    }
    let (status, value) = send(&router, Method::GET, "/api/nothing/here", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(value["error"].is_string());
}

#[tokio::test]
async fn malformed_json_is_a_400_and_wrong_fields_a_422() {
    let (router, _) = app();
    let (status, body) = send(&router, Method::POST, "/api/games", Some(r#"{"game": "#)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_of(&body).contains("request body"));
    let (status, body) = send(&router, Method::POST, "/api/games", Some("not json")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, body) = send(
        &router,
        Method::POST,
        "/api/games",
        Some(r#"{"game":"hoyito-ii","colour":1}"#),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error_of(&body).contains("colour"), "{body}");
    let (status, body) = send(&router, Method::POST, "/api/games", Some(r#"{"pits":6}"#)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error_of(&body).contains("game"));
}

#[tokio::test]
async fn bad_game_options_are_422_with_the_reason() {
    let (router, _) = app();
    for (body, says) in [
        (json!({"game": "oware"}), "unknown game"),
        (json!({"game": "ayoayo", "pits": 12}), "not played with 12"),
        (
            json!({"game": "ayoayo", "casa_rows": "any"}),
            "casa_rows: casa-rows is not an option of ayoayo (it is for hoyito-ii and \
             hoyito-iii); ayoayo has leftover only",
        ),
        (
            json!({"game": "hoyito-ii", "leftover": "holder"}),
            "leftover: leftover is not an option of hoyito-ii (it is for ayoayo); hoyito-ii \
             has casa-rows only",
        ),
        (
            json!({"game": "hoyito-ii", "casa_rows": "some"}),
            "unknown casa-rows",
        ),
        (
            json!({"game": "hoyito-ii", "casa_rows": 1}),
            "casa_rows: expected a string",
        ),
        (json!({"game": "hoyito-ii", "rounds": 3}), "does not apply"),
        (json!({"game": "hoyito-iii", "rounds": 0}), "rounds"),
        (
            json!({"game": "hoyito-iii", "rounds": 3, "final_four": "south"}),
            "final_four: a match decides it round by round",
        ),
        (
            json!({"game": "hoyito-ii", "north": "superhuman"}),
            "unknown player",
        ),
    ] {
        let (status, answer) =
            send(&router, Method::POST, "/api/games", Some(&body.to_string())).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert!(error_of(&answer).contains(says), "{body}: {answer}");
    }
}

#[tokio::test]
async fn the_rules_route_serves_the_games_and_options_of_the_rules_crate() {
    let (router, _) = app();
    let (status, catalog) = send(&router, Method::GET, "/api/rules", None).await;
    assert_eq!(status, StatusCode::OK);
    let games: Vec<&str> = catalog["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap())
        .collect();
    assert_eq!(games, ["hoyito-ii", "hoyito-iii", "ayoayo"]);
    assert_eq!(
        catalog["games"][0],
        json!({"game": "hoyito-ii", "title": "Hoyito II", "pits": [6, 12],
               "options": ["casa_rows"], "match": null})
    );
    assert_eq!(
        catalog["games"][1]["match"],
        json!({"rounds": [1, 99], "decides": ["final_four"]})
    );
    assert_eq!(catalog["games"][2]["options"], json!(["leftover"]));
    assert_eq!(
        catalog["options"][0],
        json!({"field": "casa_rows", "name": "casa-rows", "tag": "CasaRows", "rule": "H2.5",
               "label": "Casas", "description": sowing::RuleOption::all()[0].description,
               "default": "any",
               "values": [{"name": "any", "label": "any row"},
                          {"name": "opponent", "label": "the opponent's row only"}],
               "games": ["hoyito-ii", "hoyito-iii"]})
    );
    // Every value of every option of every game, as the page offers them, makes a game
    // with that value.
    for game in catalog["games"].as_array().unwrap() {
        for field in game["options"].as_array().unwrap() {
            let field = field.as_str().unwrap();
            let option = catalog["options"]
                .as_array()
                .unwrap()
                .iter()
                .find(|o| o["field"] == field)
                .unwrap();
            for value in option["values"].as_array().unwrap() {
                let mut body = json!({"game": game["game"]});
                body[field] = value["name"].clone();
                let view = create(&router, body).await;
                assert_eq!(view["rules"][field], value["name"], "{game} {field}");
            }
        }
    }
}

#[tokio::test]
async fn oversized_bodies_are_refused_with_413() {
    let (router, _) = app();
    let huge = format!(r#"{{"record": "{}"}}"#, "x".repeat(BODY_LIMIT + 10));
    let (status, body) = send(&router, Method::POST, "/api/records", Some(&huge)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(body["error"].is_string(), "{body}");
}

#[tokio::test]
async fn undo_and_redo_move_through_the_game() {
    let (router, app) = app();
    let id = create(&router, json!({"game": "hoyito-ii"})).await["id"]
        .as_i64()
        .unwrap();
    let undo = format!("/api/games/{id}/undo");
    let redo = format!("/api/games/{id}/redo");
    let (status, body) = send(&router, Method::POST, &undo, None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(error_of(&body).contains("no move to undo"));
    let (status, _) = send(&router, Method::POST, &redo, None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    send(
        &router,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(r#"{"move":"C"}"#),
    )
    .await;
    let (status, body) = send(&router, Method::POST, &undo, Some(r#"{"ply": 1}"#)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["game"]["ply"], 0);
    assert_eq!(body["game"]["redo"], json!(["C"]));
    assert_eq!(app.store().stored_moves(id).unwrap(), 0);
    let (status, body) = send(&router, Method::POST, &redo, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["game"]["ply"], 1);
    assert!(!body["trace"].as_array().unwrap().is_empty());
    assert_eq!(app.store().stored_moves(id).unwrap(), 1);
    // A stale client (it saw 0 moves) is told to reload.
    let (status, body) = send(&router, Method::POST, &undo, Some(r#"{"ply": 0}"#)).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(error_of(&body).contains("reload"));
}

#[tokio::test]
async fn a_move_for_an_old_ply_is_refused() {
    let (router, _) = app();
    let id = create(&router, json!({"game": "hoyito-ii"})).await["id"].clone();
    let path = format!("/api/games/{id}/moves");
    let (status, _) = send(
        &router,
        Method::POST,
        &path,
        Some(r#"{"move":"A","ply":0}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = send(
        &router,
        Method::POST,
        &path,
        Some(r#"{"move":"a","ply":0}"#),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn the_engine_hints_and_plays() {
    let (router, _) = app();
    let id = create(&router, json!({"game": "hoyito-ii", "north": "greedy"})).await["id"].clone();
    let path = format!("/api/games/{id}/engine");
    let (status, hint) = send(&router, Method::POST, &path, Some(r#"{"time_ms": 200}"#)).await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    let mv = hint["engine"]["move"].as_str().unwrap();
    assert!(["A", "B", "C", "D", "E", "F"].contains(&mv));
    assert!(hint.get("game").is_none(), "a hint plays nothing");
    // North is greedy: after South's move, the engine plays for North.
    send(
        &router,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(r#"{"move":"A"}"#),
    )
    .await;
    let (_, before) = send(&router, Method::GET, &format!("/api/games/{id}"), None).await;
    if before["state"]["to_move"] == "north" {
        let (status, played) = send(
            &router,
            Method::POST,
            &path,
            Some(r#"{"play": true, "time_ms": 200}"#),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{played}");
        assert_eq!(played["engine"]["engine"], "greedy");
        assert_eq!(played["game"]["ply"], before["ply"].as_i64().unwrap() + 1);
        let last = played["game"]["history"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()
            .clone();
        assert_eq!(last["side"], "north");
        assert_eq!(last["move"], played["engine"]["move"]);
    }
    let (status, body) = send(
        &router,
        Method::POST,
        &path,
        Some(r#"{"engine": "nonsense"}"#),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error_of(&body).contains("unknown player"));
}

#[tokio::test]
async fn list_and_export_then_import_the_record() {
    let (router, _) = app();
    let id = create(&router, json!({"game": "ayoayo", "north": "random"})).await["id"].clone();
    for token in ["C", "d"] {
        let (status, _) = send(
            &router,
            Method::POST,
            &format!("/api/games/{id}/moves"),
            Some(&json!({"move": token}).to_string()),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
    let (status, list) = send(&router, Method::GET, "/api/games", None).await;
    assert_eq!(status, StatusCode::OK);
    let listed = &list["games"][0];
    assert_eq!(listed["id"], id);
    assert_eq!(listed["game"], "ayoayo");
    assert_eq!(listed["plies"], 2);
    assert_eq!(listed["north"], "random");

    let record = Call::new(Method::GET, format!("/api/games/{id}/record"))
        .reply(&router)
        .await;
    assert_eq!(record.status, StatusCode::OK);
    let text = record.text;
    let record = Record::parse(&text).expect("the exported record reads back");
    assert_eq!(record.game.moves().len(), 2);
    assert_eq!(record.tag("North"), Some("random"));

    let body = json!({"record": text, "north": "greedy"}).to_string();
    let (status, imported) = send(&router, Method::POST, "/api/records", Some(&body)).await;
    assert_eq!(status, StatusCode::CREATED, "{imported}");
    assert_ne!(imported["id"], id);
    assert_eq!(imported["ply"], 2);
    assert_eq!(imported["players"]["north"], "greedy");

    let bad = json!({"record": "[Game \"hoyito-ii\"]\n\n1. a *"}).to_string();
    let (status, body) = send(&router, Method::POST, "/api/records", Some(&bad)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error_of(&body).contains("line 3"), "{body}");
}

/// Plays the round out with the first legal move each time.
async fn finish(router: &Router, id: &Value) -> Value {
    loop {
        let (_, view) = send(router, Method::GET, &format!("/api/games/{id}"), None).await;
        if view["state"]["over"] == true {
            return view;
        }
        let mv = view["state"]["legal"][0].as_str().unwrap().to_owned();
        let (status, body) = send(
            router,
            Method::POST,
            &format!("/api/games/{id}/moves"),
            Some(&json!({"move": mv}).to_string()),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
}

#[tokio::test]
async fn h3_3_a_match_starts_each_round_as_the_rules_say() {
    let (router, _) = app();
    let first = create(&router, json!({"game": "hoyito-iii", "rounds": 3})).await;
    let match_id = first["match"]["id"].clone();
    assert_eq!(first["round"], 1);
    assert_eq!(first["match"]["rows"][0]["starter"], "south");
    let next = format!("/api/matches/{match_id}/next");
    let (status, body) = send(&router, Method::POST, &next, None).await;
    assert_eq!(status, StatusCode::CONFLICT, "round 1 is not over: {body}");

    let mut id = first["id"].clone();
    let mut previous_winner = Value::Null;
    for round in 1..=3 {
        let done = finish(&router, &id).await;
        assert_eq!(done["match"]["rows"].as_array().unwrap().len(), round);
        // Undo in a finished round is still allowed while it is the last round …
        if round == 1 {
            let undo = format!("/api/games/{id}/undo");
            assert_eq!(
                send(&router, Method::POST, &undo, None).await.0,
                StatusCode::OK
            );
            finish(&router, &id).await;
        }
        let winner = done["state"]["winner"].clone();
        if round == 3 {
            let (status, _) = send(&router, Method::POST, &next, None).await;
            assert_eq!(status, StatusCode::CONFLICT, "the match is over");
            let table = &done["match"];
            assert!(table["winner"].is_string(), "{table}");
            let wins = table["wins"].as_array().unwrap();
            let total: u64 = wins.iter().map(|w| w.as_u64().unwrap()).sum();
            let draws = table["rows"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|r| r["winner"] == "draw")
                .count() as u64;
            assert_eq!(total + draws, 3);
            break;
        }
        let (status, view) = send(&router, Method::POST, &next, None).await;
        assert_eq!(status, StatusCode::CREATED, "{view}");
        let round_now = round + 1;
        assert_eq!(view["round"], round_now);
        let starter = if round_now % 2 == 1 { "south" } else { "north" };
        assert_eq!(view["state"]["to_move"], starter);
        let expected_four = if round_now >= 3 && winner != "draw" {
            winner.as_str().unwrap().to_owned()
        } else {
            "capturer".to_owned()
        };
        assert_eq!(view["rules"]["final_four"], expected_four);
        // … but not once the next round has started.
        let (status, _) = send(
            &router,
            Method::POST,
            &format!("/api/games/{id}/undo"),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::CONFLICT);
        previous_winner = winner;
        id = view["id"].clone();
    }
    assert!(!previous_winner.is_null());
}

#[tokio::test]
async fn the_page_and_its_files_are_served() {
    let (router, _) = app();
    for (path, kind, says) in [
        ("/", "text/html", "<svg id=\"board\""),
        ("/main.js", "text/javascript", "import"),
        ("/board.js", "text/javascript", "animate"),
        ("/i18n.js", "text/javascript", "translatePage"),
        (
            "/vendor/fluent-bundle/index.js",
            "text/javascript",
            "@fluent/bundle@",
        ),
        ("/i18n/en.ftl", "text/plain", "language-name = English"),
        ("/i18n/es.ftl", "text/plain", "language-name = Español"),
        ("/style.css", "text/css", ".pit"),
        ("/icon.svg", "image/svg+xml", "<svg"),
    ] {
        let reply = Call::new(Method::GET, path).key(None).reply(&router).await;
        assert_eq!(reply.status, StatusCode::OK);
        let content_type = reply.headers[header::CONTENT_TYPE].to_str().unwrap();
        assert!(content_type.starts_with(kind), "{path}: {content_type}");
        assert!(reply.text.contains(says), "{path}");
    }
    // No route reads files: paths that look like files are just unknown.
    let (status, _) = send(&router, Method::GET, "/api/../Cargo.toml", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = send(&router, Method::GET, "/etc/passwd", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_wrong_method_is_a_405_with_a_json_body() {
    let (router, _) = app();
    let (status, body) = send(&router, Method::DELETE, "/api/games", None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(body["error"].is_string());
}

#[tokio::test]
async fn malformed_query_parameters_are_a_400_with_a_json_body() {
    let (router, _) = app();
    let view = create(&router, json!({"game": "hoyito-ii"})).await;
    let id = view["id"].as_i64().unwrap();
    let (status, body) = send(
        &router,
        Method::POST,
        &format!("/api/games/{id}/moves?brief=maybe"),
        Some(r#"{"move":"C"}"#),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_of(&body).contains("brief"), "{body}");
    let (status, body) = send(&router, Method::GET, "/api/games?limit=-3", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_of(&body).contains("limit"), "{body}");
}

/// Every route that changes something (its method and path, `{…}` for a parameter), and
/// whether it reads a body (`false`: it takes none, an empty body or `{}`).
const CHANGING_ROUTES: &[(&str, &str, bool)] = &[
    ("POST", "/api/games", true),
    ("DELETE", "/api/games/{id}", false),
    ("POST", "/api/games/{id}/moves", true),
    ("POST", "/api/games/{id}/undo", true),
    ("POST", "/api/games/{id}/redo", true),
    ("POST", "/api/games/{id}/engine", true),
    ("POST", "/api/games/{id}/analysis", false),
    ("POST", "/api/records", true),
    ("POST", "/api/matches/{id}/next", false),
    ("POST", "/api/live", true),
    ("POST", "/api/live/{id}/accept", true),
    ("POST", "/api/live/{id}/claim", false),
    ("POST", "/api/live/{id}/moves", true),
    ("POST", "/api/live/{id}/say", true),
    ("POST", "/api/live/{id}/resign", false),
    ("POST", "/api/live/{id}/draw", false),
    ("POST", "/api/live/{id}/takeback", false),
    ("POST", "/api/live/{id}/rematch", false),
    ("POST", "/api/live/{id}/decline", false),
    ("POST", "/api/seeks", true),
    ("DELETE", "/api/seeks/{id}", false),
    ("POST", "/api/challenges", true),
    ("POST", "/api/challenges/{id}/accept", false),
    ("POST", "/api/challenges/{id}/decline", false),
    ("DELETE", "/api/challenges/{id}", false),
    ("PUT", "/api/account/refusals", true),
    ("POST", "/api/tournaments", true),
    ("POST", "/api/tournaments/{id}/join", false),
    ("POST", "/api/tournaments/{id}/leave", false),
    ("POST", "/api/live/{id}/berserk", false),
    ("POST", "/api/account/signup", true),
    ("POST", "/api/account/signin", true),
    ("POST", "/api/account/signout", false),
    ("POST", "/api/account/signout-everywhere", false),
    ("POST", "/api/account/password", true),
    ("POST", "/api/account/recover", true),
    ("POST", "/api/account/recovery-codes", true),
    ("PUT", "/api/accounts/{name}", true),
    ("POST", "/api/puzzles/{id}/result", true),
    ("POST", "/api/explorer/solve", true),
];

/// The changing routes docs/api.md names (`POST /api/live/{id}/{act}` read as each act).
fn documented_changing_routes() -> std::collections::BTreeSet<(String, String)> {
    let docs = include_str!("../../../docs/api.md");
    let mut routes = std::collections::BTreeSet::new();
    for method in ["POST", "PUT", "DELETE", "PATCH"] {
        for (at, _) in docs.match_indices(&format!("{method} /api/")) {
            let rest = &docs[at + method.len() + 1..];
            let end = rest
                .find(|c: char| c.is_whitespace() || "`\"),;:".contains(c))
                .unwrap_or(rest.len());
            let path = rest[..end].trim_end_matches('.');
            if let Some(base) = path.strip_suffix("{act}") {
                for act in ["resign", "draw", "takeback", "rematch", "decline"] {
                    routes.insert((method.to_owned(), format!("{base}{act}")));
                }
            } else {
                routes.insert((method.to_owned(), path.to_owned()));
            }
        }
    }
    routes
}

#[tokio::test]
async fn every_route_refuses_a_bad_body_by_one_rule() {
    let listed: std::collections::BTreeSet<_> = CHANGING_ROUTES
        .iter()
        .map(|(m, p, _)| (m.to_string(), p.to_string()))
        .collect();
    assert_eq!(
        listed,
        documented_changing_routes(),
        "the routes walked here are those docs/api.md names"
    );
    let (router, _) = app();
    let huge = format!(r#"{{"x": "{}"}}"#, "x".repeat(300 * 1024));
    let live_sized = format!(r#"{{"x": "{}"}}"#, "x".repeat(5 * 1024));
    for &(method, pattern, reads) in CHANGING_ROUTES {
        let path = pattern.replace("{id}", "1").replace("{name}", "somebody");
        let method: Method = method.parse().unwrap();
        let route = format!("{method} {path}");
        let call = || Call::new(method.clone(), path.clone());
        let mut refusals = vec![
            // Broken JSON, even when it begins with a field the route does not know.
            (
                call().json_text(Some(r#"{"zzz": "#)),
                StatusCode::BAD_REQUEST,
            ),
            (
                call().json_text(Some(r#"{"mv" "A"}"#)),
                StatusCode::BAD_REQUEST,
            ),
            (
                call().json_text(Some(r#"{"zzz": 1} x"#)),
                StatusCode::BAD_REQUEST,
            ),
            (call().json_text(Some("not json")), StatusCode::BAD_REQUEST),
            // Not declared JSON: plain text, a form.
            (call().text("hello"), StatusCode::UNSUPPORTED_MEDIA_TYPE),
            (
                call()
                    .text(r#"{"mv": "A"}"#)
                    .header("content-type", "text/plain"),
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ),
            (
                call()
                    .text("mv=A&ply=0")
                    .header("content-type", "application/x-www-form-urlencoded"),
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ),
            // Too large, declared JSON or not.
            (call().json_text(Some(&huge)), StatusCode::PAYLOAD_TOO_LARGE),
            (call().text(&huge), StatusCode::PAYLOAD_TOO_LARGE),
            // JSON that is not an object.
            (
                call().json_text(Some("[1, 2]")),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                call().json_text(Some("\"A\"")),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
        ];
        if path.starts_with("/api/live") || path.starts_with("/api/seeks") {
            refusals.push((
                call().json_text(Some(&live_sized)),
                StatusCode::PAYLOAD_TOO_LARGE,
            ));
        }
        if !reads {
            // A route that takes no body refuses one with a field as it refuses any field
            // it does not know.
            refusals.push((
                call().json_text(Some(r#"{"zzz": 1}"#)),
                StatusCode::UNPROCESSABLE_ENTITY,
            ));
        }
        for (n, (call, expected)) in refusals.into_iter().enumerate() {
            let (status, body) = call.send(&router).await;
            assert_eq!(status, expected, "{route}, body {n}: {body}");
            let code = match expected {
                StatusCode::BAD_REQUEST => "bad-request",
                StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported-type",
                StatusCode::PAYLOAD_TOO_LARGE => "too-large",
                _ => "unprocessable",
            };
            assert_eq!(body["code"], code, "{route}, body {n}: {body}");
            assert!(body["error"].is_string(), "{route}, body {n}: {body}");
        }
    }
}
