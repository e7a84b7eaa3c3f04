//! Games between two seats: every live route and socket message, every act refused to the
//! wrong token and to none, stale plies, clocks and a flag fall, the limits. Run on SQLite,
//! and with `SOWING_TEST_STORE=postgres` on PostgreSQL (`scripts/test` does both).

use std::net::SocketAddr;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::http::{Method, StatusCode};
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};
use sowing::{Game, Rules, Variant};
use sowing_web::clock::{now_ms, TimeSource};
use sowing_web::limits::{AbuseLimits, Rate};
use sowing_web::messages::{ClientMessage, ServerMessage};
use sowing_web::store::Database;
use sowing_web::{router, App};
use tokio_tungstenite::tungstenite::Message;

mod common;
use common::Call;

fn app() -> (Router, Arc<App>) {
    let app = Arc::new(App::new(common::store(), 2));
    (router(app.clone()), app)
}

/// An invitation game of Hoyito II: (id, south's token, north's token).
async fn invite(router: &Router, extra: Value) -> (i64, String, String) {
    let mut body = json!({"game": "hoyito-ii", "name": "Ana"});
    body.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    let (status, seated) = Call::new(Method::POST, "/api/live")
        .json(body)
        .send(router)
        .await;
    assert_eq!(status, StatusCode::CREATED, "{seated}");
    let id = seated["live"]["id"].as_i64().unwrap();
    let mine = seated["token"].as_str().unwrap().to_owned();
    let theirs = seated["invite"].as_str().unwrap().to_owned();
    if seated["seat"] == "south" {
        (id, mine, theirs)
    } else {
        (id, theirs, mine)
    }
}

async fn play(router: &Router, id: i64, token: &str, mv: &str, ply: usize) -> Value {
    let (status, answer) = Call::new(Method::POST, format!("/api/live/{id}/moves"))
        .seat(Some(token))
        .json(json!({"move": mv, "ply": ply}))
        .send(router)
        .await;
    assert_eq!(status, StatusCode::OK, "{mv} at {ply}: {answer}");
    answer
}

fn error_of(value: &Value) -> &str {
    value["error"].as_str().expect("an error body")
}

#[tokio::test]
async fn an_invitation_gives_two_secret_seats_and_only_the_hashes_are_stored() {
    let (router, app) = app();
    let (status, seated) = Call::new(Method::POST, "/api/live")
        .json(json!({"game": "ayoayo", "seat": "north", "name": "  Bo <b>  "}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::CREATED, "{seated}");
    assert_eq!(seated["seat"], "north");
    let token = seated["token"].as_str().unwrap();
    let invite = seated["invite"].as_str().unwrap();
    assert_eq!(token.len(), 32);
    assert_ne!(token, invite);
    let live = &seated["live"];
    assert_eq!(
        live["seats"]["north"],
        json!({"name": "Bo <b>", "taken": true, "account": false, "rating": null})
    );
    assert_eq!(
        live["seats"]["south"],
        json!({"name": null, "taken": true, "account": false, "rating": null})
    );
    assert_eq!(live["clock"], Value::Null);
    assert_eq!(live["result"], Value::Null);
    assert_eq!(seated["game"]["rules"]["game"], "ayoayo");
    let id = live["id"].as_i64().unwrap();
    let row = app.store().live_row(id).unwrap().unwrap();
    assert_eq!(row.seats[1], Some(sowing_web::seats::hash(token)));
    assert_eq!(row.seats[0], Some(sowing_web::seats::hash(invite)));
    // The public view has no token in it.
    let (status, public) = Call::new(Method::GET, format!("/api/live/{id}"))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK);
    let text = public.to_string();
    assert!(!text.contains(token) && !text.contains(invite));
    // The game's own view names its players (the review shows names, not sides).
    let game_id = seated["game"]["id"].as_i64().unwrap();
    let (status, view) = Call::new(Method::GET, format!("/api/games/{game_id}"))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(view["names"], json!({"south": null, "north": "Bo <b>"}));
}

#[tokio::test]
async fn each_seat_moves_only_on_its_own_turn_and_a_stale_ply_from_either_seat_is_409() {
    let (router, _) = app();
    let (id, south, north) = invite(&router, json!({})).await;
    let path = format!("/api/live/{id}/moves");
    let body = || Some(json!({"move": "C", "ply": 0}));
    // No token, a foreign token, the other seat's token: 403 each, nothing played.
    let (status, e) = Call::new(Method::POST, &path)
        .json(body())
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{e}");
    assert!(error_of(&e).contains("X-Seat-Token"), "{e}");
    let (status, e) = Call::new(Method::POST, &path)
        .seat(Some("0123456789abcdef0123456789abcdef"))
        .json(body())
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{e}");
    assert!(error_of(&e).contains("holds no seat"), "{e}");
    let (status, e) = Call::new(Method::POST, &path)
        .seat(Some(&north))
        .json(body())
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{e}");
    assert!(error_of(&e).contains("south's turn"), "{e}");
    let moved = play(&router, id, &south, "C", 0).await;
    assert_eq!(moved["live"]["ply"], 1);
    assert!(moved["trace"].as_array().unwrap().len() > 1);
    // The same move again with the old ply, from the seat not to move: it lagged behind,
    // so it is told to reload (409), not that it is out of turn.
    let (status, e) = Call::new(Method::POST, &path)
        .seat(Some(&south))
        .json(body())
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "a stale ply from south: {e}");
    assert!(error_of(&e).contains("at move 1, not 0"), "{e}");
    // At the current ply, out of turn: 403.
    let (status, e) = Call::new(Method::POST, &path)
        .seat(Some(&south))
        .json(json!({"move": "A", "ply": 1}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "south is not to move: {e}");
    assert!(error_of(&e).contains("north's turn"), "{e}");
    let (status, e) = Call::new(Method::POST, &path)
        .seat(Some(&north))
        .json(json!({"move": "a", "ply": 0}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{e}");
    assert!(error_of(&e).contains("at move 1, not 0"), "{e}");
    // An illegal move: 422 with the legal ones; a missing ply: 422.
    let (status, e) = Call::new(Method::POST, &path)
        .seat(Some(&north))
        .json(json!({"move": "A", "ply": 1}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(e["legal"].as_array().is_some());
    let (status, _) = Call::new(Method::POST, &path)
        .seat(Some(&north))
        .json(json!({"move": "a"}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    // A token of another game holds no seat here.
    let (_, other_south, _) = invite(&router, json!({})).await;
    let (status, _) = Call::new(Method::POST, &path)
        .seat(Some(&other_south))
        .json(json!({"move": "a", "ply": 1}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // `Authorization: Bearer` carries a token too.
    let bearer = format!("Bearer {north}");
    let (status, _) = Call::new(Method::POST, &path)
        .key(None)
        .header("authorization", &bearer)
        .json(json!({"move": "a", "ply": 1}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, view) = Call::new(Method::GET, format!("/api/live/{id}"))
        .send(&router)
        .await;
    assert_eq!(view["game"]["ply"], 2);
    let moves: Vec<&str> = view["game"]["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["move"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["C", "a"]);
}

#[tokio::test]
async fn every_act_is_refused_without_a_token_and_with_a_foreign_one() {
    let (router, _) = app();
    let (id, south, _) = invite(&router, json!({})).await;
    play(&router, id, &south, "C", 0).await;
    let foreign = "ffffffffffffffffffffffffffffffff";
    for act in ["moves", "resign", "draw", "takeback", "rematch", "decline"] {
        let path = format!("/api/live/{id}/{act}");
        let body = (act == "moves").then(|| json!({"move": "a", "ply": 1}));
        for token in [None, Some(foreign)] {
            let (status, e) = Call::new(Method::POST, &path)
                .seat(token)
                .json(body.clone())
                .send(&router)
                .await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{act} with {token:?}: {e}");
            assert!(e["error"].is_string());
        }
    }
    // Nothing changed: no offer, no result, one move.
    let (_, view) = Call::new(Method::GET, format!("/api/live/{id}"))
        .send(&router)
        .await;
    assert_eq!(view["live"]["ply"], 1);
    assert_eq!(
        view["live"]["offers"],
        json!({"draw": null, "takeback": null, "rematch": null})
    );
    assert_eq!(view["live"]["result"], Value::Null);
}

#[tokio::test]
async fn the_one_screen_routes_cannot_change_a_live_game() {
    let (router, _) = app();
    let (id, south, _) = invite(&router, json!({})).await;
    play(&router, id, &south, "C", 0).await;
    let tries = [
        (
            Method::POST,
            format!("/api/games/{id}/moves"),
            Some(json!({"move": "a"})),
        ),
        (Method::POST, format!("/api/games/{id}/undo"), None),
        (Method::POST, format!("/api/games/{id}/redo"), None),
        (
            Method::POST,
            format!("/api/games/{id}/engine"),
            Some(json!({"play": true, "time_ms": 10})),
        ),
        (Method::DELETE, format!("/api/games/{id}"), None),
    ];
    for (method, path, body) in tries {
        let (status, e) = Call::new(method.clone(), &path)
            .seat(Some(&south))
            .json(body)
            .send(&router)
            .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{method} {path}: {e}");
        assert!(error_of(&e).contains("/api/live/"), "{e}");
    }
    // Reading still works, and a hint (nothing played) too.
    let (status, _) = Call::new(Method::GET, format!("/api/games/{id}"))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, hint) = Call::new(Method::POST, format!("/api/games/{id}/engine"))
        .json(json!({"time_ms": 10}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    // And a one-screen game is not live.
    let (_, plain) = common::send(
        &router,
        Method::POST,
        "/api/games",
        Some(r#"{"game":"ayoayo"}"#),
    )
    .await;
    let plain_id = plain["id"].as_i64().unwrap();
    let (status, e) = Call::new(Method::GET, format!("/api/live/{plain_id}"))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{e}");
    assert!(error_of(&e).contains("not played between two seats"));
}

#[tokio::test]
async fn a_lobby_challenge_is_listed_taken_once_and_then_gone() {
    let (router, _) = app();
    let (status, seated) = Call::new(Method::POST, "/api/live").json(json!({"game": "hoyito-iii", "lobby": true, "name": "Cy", "clock": {"base_ms": 300000, "increment_ms": 3000}})).send(&router).await;
    assert_eq!(status, StatusCode::CREATED, "{seated}");
    assert_eq!(seated["invite"], Value::Null);
    let id = seated["live"]["id"].as_i64().unwrap();
    let south = seated["token"].as_str().unwrap().to_owned();
    let (_, lobby) = Call::new(Method::GET, "/api/lobby").send(&router).await;
    let listed = lobby["challenges"].as_array().unwrap();
    assert_eq!(listed.len(), 1);
    let c = &listed[0];
    assert_eq!(
        (c["id"].as_i64(), c["game"].as_str(), c["pits"].as_i64()),
        (Some(id), Some("hoyito-iii"), Some(6))
    );
    assert_eq!(
        (c["name"].as_str(), c["open"].as_str()),
        (Some("Cy"), Some("north"))
    );
    assert_eq!(
        c["clock"],
        json!({"base_ms": 300000, "increment_ms": 3000, "days_per_move": null})
    );
    assert!(c["start"].as_str().unwrap().starts_with("hoyito-iii "));
    // Nobody to play yet: the creator waits.
    let (status, e) = Call::new(Method::POST, format!("/api/live/{id}/moves"))
        .seat(Some(&south))
        .json(json!({"move": "C", "ply": 0}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{e}");
    let (status, taken) = Call::new(Method::POST, format!("/api/live/{id}/accept"))
        .json(json!({"name": "Dee"}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK, "{taken}");
    assert_eq!(taken["seat"], "north");
    let north = taken["token"].as_str().unwrap().to_owned();
    assert_eq!(
        taken["live"]["seats"]["north"],
        json!({"name": "Dee", "taken": true, "account": false, "rating": null})
    );
    let (status, e) = Call::new(Method::POST, format!("/api/live/{id}/accept"))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{e}");
    let (_, lobby) = Call::new(Method::GET, "/api/lobby").send(&router).await;
    assert_eq!(lobby["challenges"], json!([]));
    play(&router, id, &south, "C", 0).await;
    play(&router, id, &north, "a", 1).await;
}

#[tokio::test]
async fn draw_and_takeback_need_the_opponents_consent_and_decline_clears_them() {
    let (router, _) = app();
    let (id, south, north) = invite(&router, json!({})).await;
    let act = |token: String, what: &'static str| {
        let router = router.clone();
        async move {
            let (status, v) = Call::new(Method::POST, format!("/api/live/{id}/{what}"))
                .seat(Some(&token))
                .send(&router)
                .await;
            (status, v)
        }
    };
    let (status, e) = act(south.clone(), "takeback").await;
    assert_eq!(status, StatusCode::CONFLICT, "no move to take back: {e}");
    play(&router, id, &south, "C", 0).await;
    let (status, v) = act(south.clone(), "takeback").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["live"]["offers"]["takeback"], "south");
    assert_eq!(v["live"]["ply"], 1, "a request alone takes nothing back");
    let (_, v) = act(north.clone(), "decline").await;
    assert_eq!(v["live"]["offers"]["takeback"], Value::Null);
    act(south.clone(), "takeback").await;
    let (_, v) = act(north.clone(), "takeback").await;
    assert_eq!(v["live"]["ply"], 0, "agreed: the move is taken back");
    assert_eq!(v["live"]["takebacks"], 1);
    assert_eq!(v["game"]["history"], json!([]));
    // A draw: offered by one, a move clears it, offered again, agreed by the other.
    let (_, v) = act(north.clone(), "draw").await;
    assert_eq!(v["live"]["offers"]["draw"], "north");
    let moved = play(&router, id, &south, "D", 0).await;
    assert_eq!(moved["live"]["offers"]["draw"], Value::Null);
    act(south.clone(), "draw").await;
    let (_, v) = act(north.clone(), "draw").await;
    assert_eq!(v["live"]["result"]["outcome"], "draw");
    assert_eq!(v["live"]["result"]["reason"], "agreement");
    // Over: no more moves, draws, takebacks or resignations.
    for what in ["draw", "takeback", "resign"] {
        let (status, _) = act(north.clone(), what).await;
        assert_eq!(status, StatusCode::CONFLICT, "{what}");
    }
    let (status, _) = Call::new(Method::POST, format!("/api/live/{id}/moves"))
        .seat(Some(&north))
        .json(json!({"move": "a", "ply": 1}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn resigning_ends_the_game_and_a_rematch_swaps_the_colours() {
    let (router, _) = app();
    let (id, south, north) = invite(
        &router,
        json!({"clock": {"base_ms": 60000, "increment_ms": 2000}}),
    )
    .await;
    let (status, e) = Call::new(Method::POST, format!("/api/live/{id}/rematch"))
        .seat(Some(&south))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "not over yet: {e}");
    play(&router, id, &south, "C", 0).await;
    let (status, v) = Call::new(Method::POST, format!("/api/live/{id}/resign"))
        .seat(Some(&north))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["live"]["result"]["outcome"], "south");
    assert_eq!(v["live"]["result"]["reason"], "resignation");
    assert_eq!(
        v["live"]["clock"]["running"],
        Value::Null,
        "the clock stopped"
    );
    let (_, v) = Call::new(Method::POST, format!("/api/live/{id}/rematch"))
        .seat(Some(&north))
        .send(&router)
        .await;
    assert_eq!(v["live"]["offers"]["rematch"], "north");
    assert_eq!(v["live"]["rematch"], Value::Null);
    let (_, v) = Call::new(Method::POST, format!("/api/live/{id}/rematch"))
        .seat(Some(&south))
        .send(&router)
        .await;
    let rematch = v["live"]["rematch"].as_i64().expect("a rematch");
    // The same tokens, the other seats: North's holder now moves first, as South.
    let (status, e) = Call::new(Method::POST, format!("/api/live/{rematch}/moves"))
        .seat(Some(&south))
        .json(json!({"move": "C", "ply": 0}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{e}");
    let moved = play(&router, rematch, &north, "C", 0).await;
    assert_eq!(moved["live"]["seats"]["south"]["name"], Value::Null);
    assert_eq!(moved["live"]["seats"]["north"]["name"], "Ana");
    assert_eq!(moved["live"]["clock"]["base_ms"], 60000);
    assert_eq!(moved["game"]["rules"]["game"], "hoyito-ii");
}

#[tokio::test]
async fn a_short_clock_runs_out_and_the_flag_ends_the_game() {
    // The server's clocks read a time moved here by hand: the flag falls without waiting.
    let time = Arc::new(AtomicI64::new(now_ms()));
    let app = App::new(common::store(), 2).with_time(TimeSource::Manual(time.clone()));
    let router = router(Arc::new(app));
    let (id, south, north) = invite(
        &router,
        json!({"clock": {"base_ms": 400, "increment_ms": 0}}),
    )
    .await;
    let (_, v) = Call::new(Method::GET, format!("/api/live/{id}"))
        .send(&router)
        .await;
    assert_eq!(
        v["live"]["clock"]["running"],
        Value::Null,
        "stopped before the first move"
    );
    let moved = play(&router, id, &south, "C", 0).await;
    assert_eq!(moved["live"]["clock"]["running"], "north");
    assert_eq!(
        moved["live"]["clock"]["south_ms"], 400,
        "the first move is free"
    );
    time.fetch_add(399, Ordering::SeqCst);
    let (_, v) = Call::new(Method::GET, format!("/api/live/{id}"))
        .send(&router)
        .await;
    assert_eq!(v["live"]["result"], Value::Null, "1 ms left: {v}");
    assert_eq!(v["live"]["clock"]["north_ms"], 1);
    time.fetch_add(201, Ordering::SeqCst);
    let (status, e) = Call::new(Method::POST, format!("/api/live/{id}/moves"))
        .seat(Some(&north))
        .json(json!({"move": "a", "ply": 1}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "too late: {e}");
    let (_, v) = Call::new(Method::GET, format!("/api/live/{id}"))
        .send(&router)
        .await;
    assert_eq!(v["live"]["result"]["outcome"], "south");
    assert_eq!(v["live"]["result"]["reason"], "flag");
    assert_eq!(v["live"]["clock"]["north_ms"], 0);
    assert_eq!(v["live"]["clock"]["running"], Value::Null);
    assert_eq!(v["game"]["ply"], 1);
}

#[tokio::test]
async fn bad_clocks_names_seats_and_rounds_are_422_and_big_bodies_413() {
    let (router, _) = app();
    let bad = [
        json!({"game": "hoyito-ii", "clock": {"base_ms": 50}}),
        json!({"game": "hoyito-ii", "clock": {"base_ms": 60000, "increment_ms": -1}}),
        json!({"game": "hoyito-ii", "clock": {"base_ms": 60000, "extra": 1}}),
        json!({"game": "hoyito-ii", "seat": "east"}),
        json!({"game": "hoyito-ii", "name": "x".repeat(33)}),
        json!({"game": "hoyito-ii", "name": "a\u{7}b"}),
        json!({"game": "hoyito-ii", "rounds": 3}),
        json!({"game": "hoyito-iii", "rounds": 0}),
        json!({"game": "hoyito-iii", "rounds": 100}),
        json!({"game": "hoyito-ii", "leftover": "holder"}),
    ];
    for body in bad {
        let (status, e) = Call::new(Method::POST, "/api/live")
            .json(body.clone())
            .send(&router)
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {e}");
        assert!(e["error"].is_string());
    }
    let big = json!({"game": "hoyito-ii", "name": "x".repeat(5000)});
    let (status, e) = Call::new(Method::POST, "/api/live")
        .json(big)
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{e}");
    assert!(e["error"].is_string(), "{e}");
}

#[tokio::test]
async fn creating_is_rate_limited_per_address_and_the_lobby_capped() {
    let (router, _) = app();
    let mut created = 0;
    for i in 0..12 {
        let (status, e) = Call::new(Method::POST, "/api/live")
            .json(json!({"game": "ayoayo", "lobby": i < 5}))
            .send(&router)
            .await;
        match status {
            StatusCode::CREATED => created += 1,
            StatusCode::TOO_MANY_REQUESTS => assert!(
                error_of(&e).contains("lobby") || error_of(&e).contains("too many games"),
                "{e}"
            ),
            other => panic!("{other}: {e}"),
        }
    }
    // Three open challenges (the cap per address) plus invitations up to the burst of 10.
    let defaults = AbuseLimits::default();
    assert_eq!(created, defaults.create.burst as usize - 2);
    let (_, lobby) = Call::new(Method::GET, "/api/lobby").send(&router).await;
    assert_eq!(
        lobby["challenges"].as_array().unwrap().len(),
        defaults.lobby_per_address
    );
}

#[tokio::test]
async fn moves_and_offers_are_rate_limited_per_address() {
    // The default burst, refilled once an hour: how many are refused does not depend on how
    // fast this machine answers the requests (the refill itself: limits.rs's unit tests).
    let defaults = AbuseLimits::default();
    let limits = AbuseLimits {
        act: Rate {
            every: Duration::from_secs(3600),
            ..defaults.act
        },
        ..defaults
    };
    let router = router(Arc::new(App::new(common::store(), 1).with_limits(limits)));
    let (id, south, _) = invite(&router, json!({})).await;
    let burst = limits.act.burst;
    let mut limited = 0;
    for _ in 0..burst + 5 {
        let (status, _) = Call::new(Method::POST, format!("/api/live/{id}/draw"))
            .seat(Some(&south))
            .send(&router)
            .await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            limited += 1;
        }
    }
    assert_eq!(limited, 5, "{limited} of {} limited", burst + 5);
}

#[tokio::test]
async fn abandoned_games_and_untaken_challenges_are_closed_after_their_times() {
    let (router, app) = app();
    let (playing, _, _) = invite(&router, json!({})).await;
    let (_, seated) = Call::new(Method::POST, "/api/live")
        .json(json!({"game": "ayoayo", "lobby": true}))
        .send(&router)
        .await;
    let open = seated["live"]["id"].as_i64().unwrap();
    let now = sowing_web::clock::now_ms();
    let limits = AbuseLimits::default();
    assert_eq!(app.close_stale(now).await.unwrap(), 0);
    let past_open = now + limits.open_for.as_millis() as i64 + 1000;
    assert_eq!(app.close_stale(past_open).await.unwrap(), 1);
    let (_, v) = Call::new(Method::GET, format!("/api/live/{open}"))
        .send(&router)
        .await;
    assert_eq!(v["live"]["result"]["reason"], "expired");
    assert_eq!(v["live"]["result"]["outcome"], "none");
    let (_, lobby) = Call::new(Method::GET, "/api/lobby").send(&router).await;
    assert_eq!(lobby["challenges"], json!([]));
    let past_idle = now + limits.abandoned_after.as_millis() as i64 + 1000;
    assert_eq!(app.close_stale(past_idle).await.unwrap(), 1);
    let (_, v) = Call::new(Method::GET, format!("/api/live/{playing}"))
        .send(&router)
        .await;
    assert_eq!(v["live"]["result"]["reason"], "abandoned");
}

#[tokio::test]
async fn a_live_game_and_its_seats_survive_a_restart() {
    let db = common::reopenable_db("live-restart");
    let (id, south, north) = {
        let app = Arc::new(App::new(Database::from(db.as_str()).open().unwrap(), 1));
        let router = router(app);
        let (id, south, north) = invite(&router, json!({"clock": {"base_ms": 600000}})).await;
        play(&router, id, &south, "C", 0).await;
        (id, south, north)
    };
    let app = Arc::new(App::new(Database::from(db.as_str()).open().unwrap(), 1));
    let router = router(app);
    let (status, e) = Call::new(Method::POST, format!("/api/live/{id}/moves"))
        .seat(Some(&south))
        .json(json!({"move": "D", "ply": 1}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{e}");
    let moved = play(&router, id, &north, "a", 1).await;
    // After C a, North captured and moves again: its clock runs on.
    assert_eq!(moved["game"]["state"]["to_move"], "north");
    assert_eq!(moved["live"]["clock"]["running"], "north");
    assert!(moved["live"]["clock"]["north_ms"].as_i64().unwrap() < 600000);
}

// ---------------------------------------------------------------- the socket
/// A server without the per-address limits, for tests that play whole games.
fn unlimited() -> Arc<App> {
    Arc::new(App::new(common::store(), 1).with_limits(AbuseLimits {
        enabled: false,
        ..AbuseLimits::default()
    }))
}

/// Plays game `id` to its end by the rules from `game` (the same game, kept in step here),
/// each seat playing its first legal move; the last move's answer.
async fn play_out(router: &Router, id: i64, game: &mut Game, tokens: [&str; 2]) -> Value {
    let mut last = Value::Null;
    while !game.is_over() {
        let mv = game.legal_moves()[0];
        let name = mv.name(game.rules().pits_per_row()).to_string();
        let token = tokens[game.position().to_move().index()];
        last = play(router, id, token, &name, game.moves().len()).await;
        game.play(mv).unwrap();
    }
    last
}

/// A live Hoyito III match of `rounds` rounds: (round 1's id, south's token, north's token).
async fn live_match(router: &Router, rounds: u32) -> (i64, String, String) {
    let (status, seated) = Call::new(Method::POST, "/api/live")
        .json(json!({"game": "hoyito-iii", "rounds": rounds, "clock": {"base_ms": 600000}}))
        .send(router)
        .await;
    assert_eq!(status, StatusCode::CREATED, "{seated}");
    assert_eq!(seated["game"]["round"], 1);
    assert_eq!(seated["game"]["match"]["rounds"], rounds);
    (
        seated["live"]["id"].as_i64().unwrap(),
        seated["token"].as_str().unwrap().to_owned(),
        seated["invite"].as_str().unwrap().to_owned(),
    )
}

fn round_start(round: usize, previous: Option<sowing::Outcome>) -> Game {
    let rules = Rules::new(Variant::HoyitoIII);
    Game::from_position(sowing::Match::round_start(rules, round, previous))
}

#[tokio::test]
async fn h3_3_a_live_match_goes_on_round_by_round_with_the_same_tokens_and_its_score() {
    let app = unlimited();
    let addr = common::serve(app.clone()).await;
    let router = router(app);
    let (first, south, north) = live_match(&router, 3).await;
    let (mut watcher, _) = watch(addr, first, None).await;
    let (mut seat, _) = watch(addr, first, Some(&north)).await;
    let mut game = round_start(1, None);
    let ended = play_out(&router, first, &mut game, [&south, &north]).await;
    // The round ended by the rules: the next one has started, and both sockets are told.
    assert_eq!(ended["live"]["result"]["reason"], "rules", "{ended}");
    let second = ended["live"]["next_round"]
        .as_i64()
        .expect("round 2 started");
    assert_ne!(second, first);
    for socket in [&mut watcher, &mut seat] {
        let told = until(socket, "next-round").await;
        assert_eq!(told["game"], second);
    }
    let (_, v) = Call::new(Method::GET, format!("/api/live/{first}"))
        .send(&router)
        .await;
    assert_eq!(v["live"]["next_round"], second);
    // Round 2: North starts (H3.3), under the same time control, fresh; the same tokens
    // hold the same seats; the score table counts round 1.
    let (status, v) = Call::new(Method::GET, format!("/api/live/{second}"))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["game"]["round"], 2);
    assert_eq!(v["game"]["state"]["to_move"], "north");
    assert_eq!(v["live"]["clock"]["north_ms"], 600000);
    assert_eq!(v["live"]["next_round"], Value::Null);
    let table = &v["game"]["match"];
    assert_eq!(table["rows"][0]["game"], first);
    assert_eq!(
        table["rows"][0]["winner"],
        json!(game.outcome().unwrap().name())
    );
    assert_eq!(table["rows"][1]["starter"], "north");
    assert_eq!(table["winner"], Value::Null);
    let (status, e) = Call::new(Method::POST, format!("/api/live/{second}/moves"))
        .seat(Some(&south))
        .json(json!({"move": "A", "ply": 0}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{e}");
    // The finished round no longer changes, and no rematch while the match goes on.
    let (status, e) = Call::new(Method::POST, format!("/api/live/{first}/rematch"))
        .seat(Some(&south))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{e}");
    assert!(error_of(&e).contains("the match goes on"), "{e}");
    // The one-screen route does not start a live match's rounds.
    let match_id = table["id"].as_i64().unwrap();
    let (status, e) = Call::new(Method::POST, format!("/api/matches/{match_id}/next"))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{e}");
    // Round 2 to its end: round 3 starts with South, the last four (from round 3 on) to
    // round 2's winner.
    let previous = game.outcome();
    let mut game = round_start(2, previous);
    let ended = play_out(&router, second, &mut game, [&south, &north]).await;
    let third = ended["live"]["next_round"]
        .as_i64()
        .expect("round 3 started");
    let (_, v) = Call::new(Method::GET, format!("/api/live/{third}"))
        .send(&router)
        .await;
    assert_eq!(v["game"]["round"], 3);
    assert_eq!(v["game"]["state"]["to_move"], "south");
    let expected = round_start(3, game.outcome());
    assert_eq!(
        v["game"]["match"]["rows"][2]["final_four"],
        json!(expected.rules().final_four.to_string())
    );
    // A resignation in round 3 ends the match there: no next round; the table has no winner.
    let (status, v) = Call::new(Method::POST, format!("/api/live/{third}/resign"))
        .seat(Some(&north))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["live"]["result"]["outcome"], "south");
    assert!(
        v["live"]["result"]["text"]
            .as_str()
            .unwrap()
            .contains("the match ends"),
        "{v}"
    );
    assert_eq!(v["live"]["next_round"], Value::Null);
    assert_eq!(v["game"]["match"]["rows"].as_array().unwrap().len(), 3);
    // A rematch of a match is a new match from round 1, colours swapped.
    Call::new(Method::POST, format!("/api/live/{third}/rematch"))
        .seat(Some(&south))
        .send(&router)
        .await;
    let (_, v) = Call::new(Method::POST, format!("/api/live/{third}/rematch"))
        .seat(Some(&north))
        .send(&router)
        .await;
    let rematch = v["live"]["rematch"].as_i64().expect("a rematch");
    let (_, v) = Call::new(Method::GET, format!("/api/live/{rematch}"))
        .send(&router)
        .await;
    assert_eq!(v["game"]["round"], 1);
    assert_ne!(v["game"]["match"]["id"], match_id);
    assert_eq!(v["game"]["match"]["rounds"], 3);
    play(&router, rematch, &north, "A", 0).await;
}

#[tokio::test]
async fn the_last_round_of_a_live_match_ends_it_by_the_score_table() {
    let app = unlimited();
    let router = router(app);
    let (first, south, north) = live_match(&router, 1).await;
    let mut game = round_start(1, None);
    let ended = play_out(&router, first, &mut game, [&south, &north]).await;
    assert_eq!(ended["live"]["next_round"], Value::Null);
    let table = &ended["game"]["match"];
    assert_eq!(table["winner"], json!(game.outcome().unwrap().name()));
    assert_eq!(table["next_round_ready"], false);
}

#[tokio::test]
async fn live_results_show_in_the_games_list_as_a_one_screen_games_do() {
    let (router, app) = app();
    let (resigned, _, north) = invite(&router, json!({})).await;
    Call::new(Method::POST, format!("/api/live/{resigned}/resign"))
        .seat(Some(&north))
        .send(&router)
        .await;
    let (agreed, south, north) = invite(&router, json!({})).await;
    for token in [&south, &north] {
        Call::new(Method::POST, format!("/api/live/{agreed}/draw"))
            .seat(Some(token))
            .send(&router)
            .await;
    }
    let (abandoned, _, _) = invite(&router, json!({})).await;
    let (going, _, _) = invite(&router, json!({})).await;
    let later =
        sowing_web::clock::now_ms() + AbuseLimits::default().abandoned_after.as_millis() as i64;
    // Closes every game still going (the two others are over already).
    assert_eq!(app.close_stale(later + 1000).await.unwrap(), 2);
    let (going_on, _, _) = invite(&router, json!({})).await;
    let (status, list) = Call::new(Method::GET, "/api/games").send(&router).await;
    assert_eq!(status, StatusCode::OK);
    let entry = |id: i64| {
        list["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .cloned()
            .unwrap_or_else(|| panic!("game {id} in {list}"))
    };
    let e = entry(resigned);
    assert_eq!(e["live"], true, "listed as a live game: {e}");
    // Its players by the names they gave, not "human".
    assert!(
        [&e["south"], &e["north"]].contains(&&json!("Ana")),
        "the creator's name: {e}"
    );
    assert_eq!(
        (e["result"].clone(), e["termination"].clone()),
        (json!("south"), json!("north resigned: south wins"))
    );
    let e = entry(agreed);
    assert_eq!(
        (e["result"].clone(), e["termination"].clone()),
        (json!("draw"), json!("drawn by agreement"))
    );
    for id in [abandoned, going] {
        let e = entry(id);
        assert_eq!(e["result"], Value::Null, "{e}");
        assert_eq!(e["termination"], "closed: nobody moved for too long");
    }
    let e = entry(going_on);
    assert_eq!(
        (e["result"].clone(), e["termination"].clone()),
        (Value::Null, Value::Null)
    );
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens game `id`'s socket without saying hello: the upgrade's refusal, if any.
async fn open(addr: SocketAddr, id: i64) -> Result<Socket, tokio_tungstenite::tungstenite::Error> {
    tokio_tungstenite::connect_async(format!("ws://{addr}/api/live/{id}/socket"))
        .await
        .map(|(socket, _)| socket)
}

/// Opens game `id`'s socket and says hello with `token` (none: a spectator).
async fn connect(addr: SocketAddr, id: i64, token: Option<&str>) -> Socket {
    let mut socket = open(addr, id).await.unwrap();
    let hello = ClientMessage::Hello {
        token: token.map(str::to_owned),
    };
    let hello = serde_json::to_string(&hello).unwrap();
    socket.send(Message::text(hello)).await.unwrap();
    socket
}

/// Connects as [`connect`] and reads the first message, the game's state.
async fn watch(addr: SocketAddr, id: i64, token: Option<&str>) -> (Socket, Value) {
    let mut socket = connect(addr, id, token).await;
    let state = next(&mut socket).await;
    assert_eq!(state["type"], "state", "{state}");
    (socket, state)
}

/// The next JSON message (pings skipped), within two seconds; each is one of the server's
/// messages as `sowing_web::messages` defines them.
async fn next(socket: &mut Socket) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(2), socket.next())
            .await
            .expect("a message in time")
            .expect("the socket is open")
            .unwrap();
        if let Message::Text(text) = message {
            let value: Value = serde_json::from_str(text.as_str()).unwrap();
            if let Err(e) = ServerMessage::<Value, Value, Value>::deserialize(&value) {
                panic!("not a server message ({e}): {value}");
            }
            return value;
        }
    }
}

/// Messages until one of type `kind`, which is returned.
async fn until(socket: &mut Socket, kind: &str) -> Value {
    loop {
        let m = next(socket).await;
        if m["type"] == kind {
            return m;
        }
    }
}

/// Messages until a status that satisfies `test`.
async fn status_until(socket: &mut Socket, test: impl Fn(&Value) -> bool) -> Value {
    loop {
        let m = next(socket).await;
        if m["type"] == "status" && test(&m["live"]) {
            return m;
        }
    }
}

#[tokio::test]
async fn both_seats_and_a_spectator_get_each_move_once_in_order_with_its_trace() {
    let app = Arc::new(App::new(common::store(), 1));
    let addr = common::serve(app.clone()).await;
    let router = router(app);
    let (id, south, north) = invite(&router, json!({})).await;
    let (mut a, a_state) = watch(addr, id, Some(&south)).await;
    let (mut b, b_state) = watch(addr, id, Some(&north)).await;
    let (mut watcher, watcher_state) = watch(addr, id, None).await;
    for (state, seat) in [
        (a_state, json!("south")),
        (b_state, json!("north")),
        (watcher_state, Value::Null),
    ] {
        assert_eq!(state["seat"], seat);
        assert_eq!(state["game"]["ply"], 0);
    }
    status_until(&mut a, |l| l["spectators"] == 1).await;
    let mut game = Game::new(Rules::new(Variant::HoyitoII));
    for ply in 0..6 {
        // The first legal move, by whichever seat is to move (a capture moves again).
        let mv = game.legal_moves()[0];
        let name = mv.name(6).to_string();
        let token = match game.position().to_move() {
            sowing::Side::South => &south,
            sowing::Side::North => &north,
        };
        let moved = play(&router, id, token, &name, ply).await;
        game.play(mv).unwrap();
        for socket in [&mut a, &mut b, &mut watcher] {
            let m = until(socket, "move").await;
            assert_eq!(m["move"]["ply"], ply + 1);
            assert_eq!(m["move"]["move"], name);
            assert_eq!(m["move"]["trace"], moved["trace"]);
            assert_eq!(m["move"]["after"]["pits"], json!(game.position().pits()));
            let status = until(socket, "status").await;
            assert_eq!(status["live"]["ply"], ply + 1);
        }
    }
    // A spectator that leaves is counted out.
    drop(watcher);
    status_until(&mut a, |l| l["spectators"] == 0).await;
    // A takeback rewrites history: the whole game comes again.
    Call::new(Method::POST, format!("/api/live/{id}/takeback"))
        .seat(Some(&south))
        .send(&router)
        .await;
    let offered = status_until(&mut b, |l| l["offers"]["takeback"] == "south").await;
    assert_eq!(offered["live"]["ply"], 6);
    Call::new(Method::POST, format!("/api/live/{id}/takeback"))
        .seat(Some(&north))
        .send(&router)
        .await;
    let state = until(&mut a, "state").await;
    assert_eq!(state["game"]["ply"], 5);
    assert_eq!(state["live"]["takebacks"], 1);
}

#[tokio::test]
async fn a_late_socket_gets_the_game_so_far_and_the_flag_falls_with_nobody_asking() {
    let app = Arc::new(App::new(common::store(), 1));
    let addr = common::serve(app.clone()).await;
    let router = router(app);
    let (id, south, north) = invite(&router, json!({"clock": {"base_ms": 500}})).await;
    play(&router, id, &south, "C", 0).await;
    play(&router, id, &north, "a", 1).await;
    let (mut watcher, state) = watch(addr, id, None).await;
    assert_eq!(state["game"]["ply"], 2);
    // North captured with a and moves again.
    assert_eq!(state["live"]["clock"]["running"], "north");
    // North does not move: within its 500 ms the flag falls and the socket is told.
    let ended = status_until(&mut watcher, |l| !l["result"].is_null()).await;
    assert_eq!(ended["live"]["result"]["reason"], "flag");
    assert_eq!(ended["live"]["result"]["outcome"], "south");
}

#[tokio::test]
async fn the_socket_refuses_a_foreign_token_a_bad_hello_and_oversized_messages() {
    let app = Arc::new(App::new(common::store(), 1));
    let addr = common::serve(app.clone()).await;
    let router = router(app);
    let (id, _, _) = invite(&router, json!({})).await;
    let mut socket = connect(addr, id, Some("00000000000000000000000000000000")).await;
    let m = next(&mut socket).await;
    assert_eq!(m["type"], "error");
    assert!(
        m["error"].as_str().unwrap().contains("holds no seat"),
        "{m}"
    );
    let mut socket = open(addr, id).await.unwrap();
    socket
        .send(Message::text(r#"{"type":"move"}"#))
        .await
        .unwrap();
    let m = next(&mut socket).await;
    assert_eq!(m["type"], "error", "{m}");
    // After hello: ping is answered, an unknown message is an error, a huge one closes.
    let (mut socket, _) = watch(addr, id, None).await;
    socket
        .send(Message::text(r#"{"type":"ping"}"#))
        .await
        .unwrap();
    until(&mut socket, "pong").await;
    socket
        .send(Message::text(r#"{"type":"resign"}"#))
        .await
        .unwrap();
    until(&mut socket, "error").await;
    let huge = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(4000));
    let _ = socket.send(Message::text(huge)).await;
    let closed = tokio::time::timeout(Duration::from_secs(2), async {
        loop {
            match socket.next().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return true,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert_eq!(closed, Ok(true));
    // An unknown game: 404 before any upgrade.
    let refused = open(addr, 999).await;
    assert!(refused.is_err());
}

#[tokio::test]
async fn sockets_are_capped_per_address() {
    let app = Arc::new(App::new(common::store(), 1));
    let addr = common::serve(app.clone()).await;
    let router = router(app.clone());
    let (id, _, _) = invite(&router, json!({})).await;
    let cap = AbuseLimits::default().sockets_per_address;
    let mut sockets = Vec::new();
    for _ in 0..cap {
        sockets.push(watch(addr, id, None).await.0);
    }
    let refused = open(addr, id).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS)
        }
        other => panic!("expected a 429, got {other:?}"),
    }
    // One closes: once the server has counted it gone (its address's place given back
    // first), another may open.
    let mut open = app.ops().open_sockets();
    assert_eq!(*open.borrow_and_update(), cap);
    sockets.pop();
    tokio::time::timeout(Duration::from_secs(10), open.wait_for(|&n| n < cap))
        .await
        .expect("the server sees the socket close")
        .unwrap();
    watch(addr, id, None).await;
}

#[tokio::test]
async fn an_invitation_waits_for_its_friend_and_is_never_aborted_for_a_late_first_move() {
    let time = Arc::new(AtomicI64::new(now_ms()));
    let app = App::new(common::store(), 2).with_time(TimeSource::Manual(time.clone()));
    let router = router(Arc::new(app));
    let (id, south, _) = invite(
        &router,
        json!({"clock": {"base_ms": 60000, "increment_ms": 0}}),
    )
    .await;
    let (_, v) = Call::new(Method::GET, format!("/api/live/{id}"))
        .send(&router)
        .await;
    assert_eq!(v["live"]["first_move_by_ms"], Value::Null, "{v}");
    // The friend opens the link ten minutes later: the game is there to play.
    time.fetch_add(600_000, Ordering::SeqCst);
    let moved = play(&router, id, &south, "C", 0).await;
    assert_eq!(moved["live"]["result"], Value::Null);
}

#[tokio::test]
async fn an_accepted_lobby_challenge_is_aborted_when_south_does_not_move_in_time() {
    let time = Arc::new(AtomicI64::new(now_ms()));
    let app = App::new(common::store(), 2).with_time(TimeSource::Manual(time.clone()));
    let router = router(Arc::new(app));
    let (status, posted) = Call::new(Method::POST, "/api/live")
        .json(json!({"game": "ayoayo", "lobby": true, "clock": {"base_ms": 60000}}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let id = posted["live"]["id"].as_i64().unwrap();
    // The challenge waits in the lobby for as long as it is open.
    time.fetch_add(120_000, Ordering::SeqCst);
    let (status, taken) = Call::new(Method::POST, format!("/api/live/{id}/accept"))
        .key(Some("fedcba9876543210fedcba9876543210"))
        .json(json!({}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK, "{taken}");
    assert_eq!(
        taken["live"]["first_move_by_ms"],
        time.load(Ordering::SeqCst) + 30_000
    );
    time.fetch_add(30_000, Ordering::SeqCst);
    let (_, v) = Call::new(Method::GET, format!("/api/live/{id}"))
        .send(&router)
        .await;
    assert_eq!(v["live"]["result"]["reason"], "aborted", "{v}");
    assert_eq!(v["live"]["result"]["outcome"], "none");
    let (status, refused) = Call::new(Method::POST, format!("/api/live/{id}/moves"))
        .seat(posted["token"].as_str())
        .json(json!({"move": "A", "ply": 0}))
        .send(&router)
        .await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "an aborted game takes no move: {refused}"
    );
}

#[tokio::test]
async fn a_seat_says_a_set_phrase_and_only_a_seat_and_only_a_set_one() {
    let (router, _) = app();
    let (id, south, north) = invite(&router, json!({})).await;
    fn say<'a>(id: i64, token: Option<&'a str>, phrase: &str) -> Call<'a> {
        Call::new(Method::POST, format!("/api/live/{id}/say"))
            .seat(token)
            .json(json!({ "phrase": phrase }))
    }
    let (south, north) = (south.as_str(), north.as_str());
    let (status, v) = say(id, Some(south), "good-luck").send(&router).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        v["live"]["said"]["south"],
        json!({"phrase": "good-luck", "n": 1})
    );
    assert_eq!(v["live"]["said"]["north"], Value::Null);
    say(id, Some(south), "hello").send(&router).await;
    let (_, v) = say(id, Some(north), "thanks").send(&router).await;
    assert_eq!(
        v["live"]["said"]["south"],
        json!({"phrase": "hello", "n": 2})
    );
    assert_eq!(
        v["live"]["said"]["north"],
        json!({"phrase": "thanks", "n": 1})
    );
    // No free text; no phrase without a seat's token.
    let (status, e) = say(id, Some(south), "you are bad").send(&router).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(error_of(&e).contains("good-game"), "{e}");
    let (status, _) = say(id, None, "hello").send(&router).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (_, v) = Call::new(Method::GET, format!("/api/live/{id}"))
        .send(&router)
        .await;
    assert_eq!(
        v["live"]["said"]["south"]["n"], 2,
        "the refusals said nothing: {v}"
    );
    assert_eq!(v["game"]["ply"], 0, "phrases are not moves");
}
