//! The exact JSON the API answers (docs/api.md): every field name, and null against absent,
//! for each route. The page, the browser tests and `sow-load` read these shapes.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use axum::http::{Method, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use sowing_web::{router, App};

mod common;
use common::Call;

fn app() -> Router {
    router(Arc::new(App::new(common::store(), 2)))
}

/// The value with its `created` and `updated` times checked and replaced by `"<time>"`.
fn masked(mut value: Value) -> Value {
    for key in ["created", "updated"] {
        if let Some(time) = value.get_mut(key) {
            let text = time.as_str().expect("a time is text");
            assert_eq!(text.len(), "2026-11-29 21:31:30".len(), "{text}");
            *time = json!("<time>");
        }
    }
    value
}

/// The object's keys, sorted.
fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .unwrap_or_else(|| panic!("an object: {value}"))
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

fn start_snapshot() -> Value {
    json!({"pits": vec![4; 12], "captured": [0, 0], "to_move": "south"})
}

#[tokio::test]
async fn a_new_game_and_a_move_answer_the_whole_view() {
    let router = app();
    let (status, view) = Call::new(Method::POST, "/api/games")
        .json(json!({"game": "hoyito-ii", "north": "level:3"}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let id = view["id"].as_i64().unwrap();
    assert_eq!(
        masked(view),
        json!({
            "id": id,
            "state": {"game": "hoyito-ii", "pits_per_row": 6, "pits": vec![4; 12],
                      "captured": [0, 0], "to_move": "south", "over": false, "winner": null,
                      "last_sower": null, "legal": ["A", "B", "C", "D", "E", "F"]},
            "rules": {"game": "hoyito-ii", "pits": 6, "casa_rows": "any",
                      "leftover": "last-mover", "final_four": "capturer"},
            "players": {"south": "human", "north": "level:3"},
            "names": null,
            "ply": 0,
            "start": start_snapshot(),
            "history": [],
            "redo": [],
            "end": null,
            "match": null,
            "round": null,
            "created": "<time>",
            "updated": "<time>",
        })
    );

    let (status, answer) = Call::new(Method::POST, format!("/api/games/{id}/moves"))
        .json(json!({"move": "A", "ply": 0}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(keys(&answer), ["game", "trace"]);
    let after = answer["game"]["state"].clone();
    let snapshot_after = json!({
        "pits": after["pits"], "captured": after["captured"], "to_move": after["to_move"],
    });
    assert_eq!(
        answer["trace"][0],
        json!({"kind": "lift", "pit": 0, "name": "A", "seeds": 4, "relay": false})
    );
    assert_eq!(
        answer["trace"][1],
        json!({"kind": "drop", "pit": 1, "name": "B"})
    );
    let game = masked(answer["game"].clone());
    assert_eq!(
        keys(&game),
        [
            "created", "end", "history", "id", "match", "names", "players", "ply", "redo", "round",
            "rules", "start", "state", "updated"
        ]
    );
    assert_eq!(game["ply"], 1);
    assert_eq!(
        game["history"],
        json!([{"ply": 1, "move": "A", "side": "south", "after": snapshot_after}])
    );
    assert_eq!(game["state"]["last_sower"], "south");

    // The same game read back is the same view.
    let (_, read) = Call::new(Method::GET, format!("/api/games/{id}"))
        .send(&router)
        .await;
    assert_eq!(masked(read), game);

    // `?brief=true`: the state alone.
    let mv = after["legal"][0].clone();
    let (status, brief) = Call::new(Method::POST, format!("/api/games/{id}/moves?brief=true"))
        .json(json!({ "move": mv }))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK, "{brief}");
    assert_eq!(keys(&brief), ["end", "ply", "state", "trace"]);
    assert_eq!(brief["ply"], 2);
    assert_eq!(brief["end"], Value::Null);
    assert_eq!(
        keys(&brief["state"]),
        [
            "captured",
            "game",
            "last_sower",
            "legal",
            "over",
            "pits",
            "pits_per_row",
            "to_move",
            "winner"
        ]
    );

    // One move again, with its trace.
    let (status, replay) = Call::new(Method::GET, format!("/api/games/{id}/moves/1"))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        keys(&replay),
        ["after", "before", "move", "ply", "side", "trace"]
    );
    assert_eq!(replay["ply"], 1);
    assert_eq!(replay["move"], "A");
    assert_eq!(replay["side"], "south");
    assert_eq!(replay["before"], start_snapshot());
    assert_eq!(replay["after"], snapshot_after);
    assert_eq!(replay["trace"], answer["trace"]);

    // Undo answers the view alone, redo like a move.
    let (status, undone) = Call::new(Method::POST, format!("/api/games/{id}/undo"))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(keys(&undone), ["game"]);
    assert_eq!(undone["game"]["ply"], 1);
    assert_eq!(undone["game"]["redo"], json!([mv]));
    let (status, redone) = Call::new(Method::POST, format!("/api/games/{id}/redo"))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(keys(&redone), ["game", "trace"]);
    assert_eq!(redone["game"]["state"], brief["state"]);
}

#[tokio::test]
async fn the_list_gives_each_game_in_short() {
    let router = app();
    let (_, view) = Call::new(Method::POST, "/api/games")
        .json(json!({"game": "hoyito-ii", "pits": 12, "south": "greedy"}))
        .send(&router)
        .await;
    let id = view["id"].as_i64().unwrap();
    let (status, list) = Call::new(Method::GET, "/api/games").send(&router).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(keys(&list), ["games"]);
    assert_eq!(
        masked(list["games"][0].clone()),
        json!({"id": id, "game": "hoyito-ii", "pits": 12, "south": "greedy", "north": "human",
               "plies": 0, "result": null, "termination": null, "match": null, "round": null,
               "created": "<time>", "updated": "<time>", "live": false})
    );
}

/// Plays the game to its end with the first legal move each time (brief answers), and
/// gathers every trace event's keys by kind (the three games played out this way
/// show all six kinds); the last brief answer too.
async fn play_out(
    router: &Router,
    id: i64,
    kinds: &mut BTreeMap<String, BTreeSet<Vec<String>>>,
) -> Value {
    let (_, view) = Call::new(Method::GET, format!("/api/games/{id}"))
        .send(router)
        .await;
    let mut state = view["state"].clone();
    let mut last = Value::Null;
    while state["over"] != true {
        let mv = state["legal"][0].clone();
        let (status, brief) = Call::new(Method::POST, format!("/api/games/{id}/moves?brief=true"))
            .json(json!({ "move": mv }))
            .send(router)
            .await;
        assert_eq!(status, StatusCode::OK, "{brief}");
        for event in brief["trace"].as_array().unwrap() {
            let kind = event["kind"].as_str().unwrap().to_owned();
            let fields = keys(event).into_iter().map(str::to_owned).collect();
            kinds.entry(kind).or_default().insert(fields);
        }
        state = brief["state"].clone();
        last = brief;
    }
    last
}

#[tokio::test]
async fn finished_games_give_their_end_and_every_trace_event_its_fields() {
    let router = app();
    let mut kinds = BTreeMap::new();
    let mut ends = Vec::new();
    for game in ["hoyito-ii", "hoyito-iii", "ayoayo"] {
        let (_, view) = Call::new(Method::POST, "/api/games")
            .json(json!({ "game": game }))
            .send(&router)
            .await;
        let id = view["id"].as_i64().unwrap();
        let last = play_out(&router, id, &mut kinds).await;
        let end = last["end"].clone();
        assert_eq!(keys(&end), ["reason", "text", "to"], "{end}");
        let (_, read) = Call::new(Method::GET, format!("/api/games/{id}"))
            .send(&router)
            .await;
        assert_eq!(read["end"], end);
        assert_eq!(read["state"]["over"], true);
        ends.push((id, end, read["state"]["winner"].clone()));
    }
    let strings = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let expected: BTreeMap<String, BTreeSet<Vec<String>>> = [
        ("drop", vec![strings(&["kind", "name", "pit"])]),
        ("extra-turn", vec![strings(&["kind"])]),
        (
            "lift",
            vec![strings(&["kind", "name", "pit", "relay", "seeds"])],
        ),
        ("pass", vec![strings(&["kind"])]),
        ("skip", vec![strings(&["kind", "name", "pit"])]),
        (
            "take",
            vec![strings(&["by", "kind", "name", "pit", "seeds", "why"])],
        ),
    ]
    .into_iter()
    .map(|(kind, fields)| (kind.to_owned(), fields.into_iter().collect()))
    .collect();
    assert_eq!(kinds, expected);

    // The list says how each ended, in words, and who won.
    let (_, list) = Call::new(Method::GET, "/api/games").send(&router).await;
    for (id, end, winner) in ends {
        let row = list["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .unwrap();
        assert_eq!(row["termination"], end["text"], "{row}");
        assert_eq!(row["result"], winner, "{row}");
    }
}

#[tokio::test]
async fn errors_carry_a_message_a_code_and_an_illegal_move_the_legal_ones() {
    let router = app();
    let (_, view) = Call::new(Method::POST, "/api/games")
        .json(json!({"game": "ayoayo"}))
        .send(&router)
        .await;
    let id = view["id"].as_i64().unwrap();
    let path = format!("/api/games/{id}/moves");
    let (status, body) = Call::new(Method::POST, &path)
        .json(json!({"move": "a"}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(keys(&body), ["code", "error", "legal"]);
    assert_eq!(body["code"], "illegal-move");
    assert_eq!(body["legal"], json!(["A", "B", "C", "D", "E", "F"]));
    let (status, body) = Call::new(Method::POST, &path)
        .json(json!({"move": "A", "ply": 3}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(keys(&body), ["code", "error"]);
    assert_eq!(body["code"], "stale-ply");
    let (status, body) = Call::new(Method::GET, "/api/games/999").send(&router).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(
        body,
        json!({"error": "unknown game \"999\"", "code": "unknown-game"})
    );
    // A refusal known by its status has the status's code; the message says the rest.
    let (status, body) = Call::new(Method::GET, "/api/no-such-route")
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(body["code"], "not-found");
    let (status, body) = Call::new(Method::POST, "/api/records")
        .json(json!({"record": "[Game \"nonsense\"]\n\n*"}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["code"], "bad-record");
    let (status, body) = Call::new(Method::POST, "/api/games")
        .json(json!({"game": "ayoayo", "north": "level:99"}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["code"], "unknown-player");
    for code in sowing_web::ERROR_CODES {
        assert!(
            code.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "{code}"
        );
    }
}

#[tokio::test]
async fn the_engine_answers_its_move_and_when_asked_plays_it() {
    let router = app();
    let (_, view) = Call::new(Method::POST, "/api/games")
        .json(json!({"game": "hoyito-iii"}))
        .send(&router)
        .await;
    let id = view["id"].as_i64().unwrap();
    let path = format!("/api/games/{id}/engine");
    let (status, hint) = Call::new(Method::POST, &path)
        .json(json!({"engine": "greedy", "time_ms": 100}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    assert_eq!(keys(&hint), ["engine"]);
    assert_eq!(
        keys(&hint["engine"]),
        ["depth", "engine", "move", "nodes", "pv", "score"]
    );
    assert_eq!(hint["engine"]["engine"], "greedy");
    let (status, played) = Call::new(Method::POST, &path)
        .json(json!({"engine": "level:1", "time_ms": 100, "play": true, "ply": 0}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK, "{played}");
    assert_eq!(keys(&played), ["engine", "game", "trace"]);
    let score = &played["engine"]["score"];
    assert_eq!(keys(score), ["kind", "south", "text"], "{played}");
    assert!(played["engine"]["depth"].is_u64());
    assert!(played["engine"]["nodes"].is_u64());
    assert!(played["engine"]["pv"].is_array());
    assert_eq!(played["game"]["ply"], 1);
}

#[tokio::test]
async fn a_match_round_carries_the_score_table() {
    let router = app();
    let (status, view) = Call::new(Method::POST, "/api/games")
        .json(json!({"game": "hoyito-iii", "rounds": 2, "north": "random"}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let id = view["id"].as_i64().unwrap();
    let match_id = view["match"]["id"].as_i64().unwrap();
    assert_eq!(view["round"], 1);
    assert_eq!(
        view["match"],
        json!({"id": match_id, "rounds": 2,
               "rows": [{"round": 1, "game": id, "starter": "south", "final_four": "capturer",
                         "captured": [0, 0], "winner": null}],
               "wins": [0, 0], "seeds": [0, 0], "winner": null, "next_round_ready": false})
    );
    let mut kinds = BTreeMap::new();
    play_out(&router, id, &mut kinds).await;
    let (status, next) = Call::new(Method::POST, format!("/api/matches/{match_id}/next"))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::CREATED, "{next}");
    assert_eq!(next["round"], 2);
    assert_eq!(
        next["players"],
        json!({"south": "human", "north": "random"})
    );
    let table = &next["match"];
    assert_eq!(
        keys(table),
        [
            "id",
            "next_round_ready",
            "rounds",
            "rows",
            "seeds",
            "winner",
            "wins"
        ]
    );
    assert_eq!(table["rows"].as_array().unwrap().len(), 2);
    assert_eq!(
        keys(&table["rows"][0]),
        [
            "captured",
            "final_four",
            "game",
            "round",
            "starter",
            "winner"
        ]
    );
    assert!(table["rows"][0]["winner"].is_string());
    assert_eq!(table["rows"][1]["starter"], "north");
    let (_, list) = Call::new(Method::GET, "/api/games").send(&router).await;
    let row = &list["games"][0];
    assert_eq!(row["match"], match_id);
    assert_eq!(row["round"], 2);
}
