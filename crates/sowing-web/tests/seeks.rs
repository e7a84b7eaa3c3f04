//! Quick pairing (docs/api.md, "Quick pairing"): compatible seeks pair once into a live game
//! whose seats their tokens hold; other clocks, rated-ness, ranges and one's own seek do not
//! pair; a cancelled seek or one whose socket closed is not paired; seats alternate by each
//! player's recent pairings; the socket brings the pairing. Run on SQLite, and with
//! `SOWING_TEST_STORE=postgres` on PostgreSQL (`scripts/test` does both).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::http::{Method, StatusCode};
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sowing_web::limits::AbuseLimits;
use sowing_web::messages::{ClientMessage, SeekMessage};
use sowing_web::{router, App};
use tokio_tungstenite::tungstenite::Message;

mod common;
use common::Call;

const ANA: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const BO: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
const CY: &str = "cccccccccccccccccccccccccccccccc";

fn app() -> (Router, Arc<App>) {
    let app = Arc::new(App::new(common::store(), 1).with_limits(AbuseLimits {
        enabled: false,
        ..AbuseLimits::default()
    }));
    (router(app.clone()), app)
}

/// The 3+2 Hoyito II seek, casual.
fn blitz() -> Value {
    json!({"game": "hoyito-ii", "clock": {"base_ms": 180000, "increment_ms": 2000}})
}

/// Places `body` as the player of `key`: the answer.
async fn seek_as(router: &Router, key: &str, body: Value) -> Value {
    let (status, placed) = Call::new(Method::POST, "/api/seeks")
        .key(Some(key))
        .json(body)
        .send(router)
        .await;
    assert_eq!(status, StatusCode::CREATED, "{placed}");
    assert_eq!(placed["token"].as_str().unwrap().len(), 32);
    placed
}

async fn seek_state(router: &Router, placed: &Value) -> Value {
    let (status, state) = Call::new(Method::GET, format!("/api/seeks/{}", placed["seek"]))
        .seat(placed["token"].as_str())
        .send(router)
        .await;
    assert_eq!(status, StatusCode::OK, "{state}");
    state
}

#[tokio::test]
async fn two_compatible_seeks_pair_once_into_a_live_game_whose_seats_their_tokens_hold() {
    let (router, _) = app();
    let ana = seek_as(&router, ANA, blitz()).await;
    assert_eq!(ana["game"], Value::Null, "nobody waits yet: {ana}");
    let mut named = blitz();
    named["name"] = json!("Bo");
    let bo = seek_as(&router, BO, named).await;
    let game = bo["game"].as_i64().expect("paired at once");
    let ana_state = seek_state(&router, &ana).await;
    assert_eq!(ana_state["open"], false);
    assert_eq!(ana_state["game"], game);
    assert_ne!(ana_state["seat"], bo["seat"], "one seat each");
    // On a tie of recent seats the player who waited sits South.
    assert_eq!(ana_state["seat"], "south");
    let (status, live) = Call::new(Method::GET, format!("/api/live/{game}"))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(live["live"]["clock"]["base_ms"], 180000);
    assert_eq!(live["live"]["seats"]["north"]["name"], "Bo");
    assert_eq!(live["live"]["lobby"], false);
    // Each token plays its own seat, and only it.
    fn play<'a>(game: i64, token: &'a str, mv: &str, ply: usize) -> Call<'a> {
        Call::new(Method::POST, format!("/api/live/{game}/moves"))
            .seat(Some(token))
            .json(json!({"move": mv, "ply": ply}))
    }
    let (ana_token, bo_token) = (
        ana["token"].as_str().unwrap(),
        bo["token"].as_str().unwrap(),
    );
    assert_eq!(
        play(game, bo_token, "A", 0).send(&router).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        play(game, ana_token, "A", 0).send(&router).await.0,
        StatusCode::OK
    );
    // A third seeker waits: both earlier seeks are taken.
    let cy = seek_as(&router, CY, blitz()).await;
    assert_eq!(cy["game"], Value::Null);
}

#[tokio::test]
async fn seeks_of_another_clock_game_or_rated_ness_do_not_pair() {
    let (router, _) = app();
    seek_as(&router, ANA, blitz()).await;
    let other_clock = json!({"game": "hoyito-ii", "clock": {"base_ms": 180000}});
    assert_eq!(seek_as(&router, BO, other_clock).await["game"], Value::Null);
    let other_game = json!({"game": "ayoayo", "clock": {"base_ms": 180000, "increment_ms": 2000}});
    assert_eq!(seek_as(&router, BO, other_game).await["game"], Value::Null);
    let other_option = json!({"game": "hoyito-ii", "pits": 12,
                              "clock": {"base_ms": 180000, "increment_ms": 2000}});
    assert_eq!(
        seek_as(&router, BO, other_option).await["game"],
        Value::Null
    );
    let unlimited = json!({"game": "hoyito-ii"});
    assert_eq!(seek_as(&router, BO, unlimited).await["game"], Value::Null);
    assert!(seek_as(&router, CY, blitz()).await["game"].is_i64());
}

#[tokio::test]
async fn a_player_is_never_paired_with_their_own_seek() {
    let (router, _) = app();
    seek_as(&router, ANA, blitz()).await;
    assert_eq!(seek_as(&router, ANA, blitz()).await["game"], Value::Null);
    assert!(seek_as(&router, BO, blitz()).await["game"].is_i64());
}

#[tokio::test]
async fn a_cancelled_seek_is_not_paired_and_a_paired_one_says_where_it_went() {
    let (router, _) = app();
    let ana = seek_as(&router, ANA, blitz()).await;
    fn cancel(placed: &Value) -> Call<'_> {
        Call::new(Method::DELETE, format!("/api/seeks/{}", placed["seek"]))
            .seat(placed["token"].as_str())
    }
    let (status, state) = cancel(&ana).send(&router).await;
    assert_eq!(
        (status, state["game"].clone()),
        (StatusCode::OK, Value::Null)
    );
    let bo = seek_as(&router, BO, blitz()).await;
    assert_eq!(bo["game"], Value::Null, "Ana's seek is gone");
    let cy = seek_as(&router, CY, blitz()).await;
    let (status, state) = cancel(&bo).send(&router).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["game"], cy["game"], "too late to cancel: {state}");
}

#[tokio::test]
async fn a_seek_is_read_and_cancelled_only_with_its_token() {
    let (router, _) = app();
    let ana = seek_as(&router, ANA, blitz()).await;
    let path = format!("/api/seeks/{}", ana["seek"]);
    for token in [None, Some("0123456789abcdef0123456789abcdef")] {
        for method in [Method::GET, Method::DELETE] {
            let (status, body) = Call::new(method, &path).seat(token).send(&router).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
            assert_eq!(body["code"], "forbidden");
        }
    }
    let (status, body) = Call::new(Method::GET, "/api/seeks/99999")
        .seat(ana["token"].as_str())
        .send(&router)
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("unknown-seek"))
    );
    // Still open: the refusals changed nothing.
    assert_eq!(seek_state(&router, &ana).await["open"], true);
}

#[tokio::test]
async fn bad_seeks_are_refused_with_what_is_wrong() {
    let (router, _) = app();
    for (body, status, says) in [
        (
            json!({"game": "chess"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "chess",
        ),
        (
            json!({"game": "hoyito-ii", "clock": {"base_ms": 5}}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "clock.base_ms",
        ),
        (
            json!({"game": "hoyito-ii", "range": {"below": -1, "above": 100}}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "range",
        ),
        (
            json!({"game": "hoyito-ii", "rated": true}),
            StatusCode::UNAUTHORIZED,
            "signed in",
        ),
        (
            json!({"game": "hoyito-ii", "range": {"below": 100, "above": 100}}),
            StatusCode::UNAUTHORIZED,
            "signed in",
        ),
        (
            json!({"game": "hoyito-ii", "name": "a\u{202E}b"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "name",
        ),
    ] {
        let (got, answer) = Call::new(Method::POST, "/api/seeks")
            .json(body.clone())
            .send(&router)
            .await;
        assert_eq!(got, status, "{body}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(says),
            "{body}: {answer}"
        );
    }
}

#[tokio::test]
async fn rated_seeks_pair_signed_in_players_inside_each_others_range() {
    let (router, _) = app();
    let ana = common::sign_up(&router, "Ana", Some(ANA)).await;
    let bo = common::sign_up(&router, "Bo", Some(BO)).await;
    let rated = json!({"game": "ayoayo", "clock": {"base_ms": 300000, "increment_ms": 3000},
                       "rated": true, "range": {"below": 0, "above": 0}});
    let (status, first) = Call::new(Method::POST, "/api/seeks")
        .by(&common::with_cookie(&ana))
        .json(rated.clone())
        .send(&router)
        .await;
    assert_eq!(
        (status, first["game"].clone()),
        (StatusCode::CREATED, Value::Null)
    );
    // An anonymous casual seeker of the same clock is another pool; a signed-in one of the
    // same rating (both new: 1500) is inside the range of ±0.
    let (status, second) = Call::new(Method::POST, "/api/seeks")
        .by(&common::with_cookie(&bo))
        .json(rated)
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::CREATED, "{second}");
    let game = second["game"].as_i64().expect("paired");
    let (_, live) = Call::new(Method::GET, format!("/api/live/{game}"))
        .send(&router)
        .await;
    assert_eq!(live["live"]["rated"], true);
    let names = [
        &live["live"]["seats"]["south"]["name"],
        &live["live"]["seats"]["north"]["name"],
    ];
    assert_eq!(names, [&json!("Ana"), &json!("Bo")]);
    assert_eq!(live["live"]["seats"]["south"]["account"], true);
}

#[tokio::test]
async fn a_range_refuses_a_seeker_without_a_rating_inside_it() {
    let (router, _) = app();
    let ana = common::sign_up(&router, "Ana", Some(ANA)).await;
    let who = common::with_cookie(&ana);
    let mut ranged = blitz();
    ranged["range"] = json!({"below": 100, "above": 100});
    let (status, _) = Call::new(Method::POST, "/api/seeks")
        .by(&who)
        .json(ranged)
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::CREATED);
    // Bo, not signed in, has no rating: Ana's range does not take him.
    assert_eq!(seek_as(&router, BO, blitz()).await["game"], Value::Null);
    // Cy, signed in (a new player's 1500), is inside it; Bo's older seek waits on.
    let cy = common::sign_up(&router, "Cy", Some(CY)).await;
    let who = common::with_cookie(&cy);
    let (_, paired) = Call::new(Method::POST, "/api/seeks")
        .by(&who)
        .json(blitz())
        .send(&router)
        .await;
    let game = paired["game"].as_i64().expect("paired");
    let (_, live) = Call::new(Method::GET, format!("/api/live/{game}"))
        .send(&router)
        .await;
    let names = [
        &live["live"]["seats"]["south"]["name"],
        &live["live"]["seats"]["north"]["name"],
    ];
    assert!(
        names.contains(&&json!("Ana")) && names.contains(&&json!("Cy")),
        "{live}"
    );
}

#[tokio::test]
async fn seats_alternate_by_each_players_recent_pairings() {
    let (router, _) = app();
    let mut ana_seats = Vec::new();
    for _ in 0..4 {
        // Ana always waits first; the seats still alternate.
        let ana = seek_as(&router, ANA, blitz()).await;
        let bo = seek_as(&router, BO, blitz()).await;
        assert!(bo["game"].is_i64());
        ana_seats.push(seek_state(&router, &ana).await["seat"].clone());
    }
    assert_eq!(
        ana_seats,
        [
            json!("south"),
            json!("north"),
            json!("south"),
            json!("north")
        ]
    );
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens seek `placed`'s socket, says hello with its token, and reads the first message.
async fn hold(addr: SocketAddr, placed: &Value) -> (Socket, SeekMessage) {
    let url = format!("ws://{addr}/api/seeks/{}/socket", placed["seek"]);
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let hello = ClientMessage::Hello {
        token: placed["token"].as_str().map(str::to_owned),
    };
    let hello = serde_json::to_string(&hello).unwrap();
    socket.send(Message::text(hello)).await.unwrap();
    let first = next(&mut socket).await;
    (socket, first)
}

async fn next(socket: &mut Socket) -> SeekMessage {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(10), socket.next())
            .await
            .expect("a message within 10 s")
            .expect("the socket open")
            .unwrap();
        if let Message::Text(text) = message {
            return serde_json::from_str(text.as_str()).unwrap();
        }
    }
}

#[tokio::test]
async fn the_socket_brings_the_pairing_and_closing_it_takes_the_seek_out() {
    let (router, app) = app();
    let addr = common::serve(app).await;
    let ana = seek_as(&router, ANA, blitz()).await;
    let (mut socket, first) = hold(addr, &ana).await;
    assert_eq!(
        first,
        SeekMessage::Waiting {
            seek: ana["seek"].as_i64().unwrap()
        }
    );
    let bo = seek_as(&router, BO, blitz()).await;
    let paired = next(&mut socket).await;
    assert_eq!(
        paired,
        SeekMessage::Paired {
            game: bo["game"].as_i64().unwrap(),
            seat: "south".into()
        }
    );
    // A socket opened on a seek already paired says so at once.
    assert_eq!(
        hold(addr, &bo).await.1,
        SeekMessage::Paired {
            game: bo["game"].as_i64().unwrap(),
            seat: "north".into()
        }
    );
    // Cy leaves the page: his seek goes, and Ana's next seek waits.
    let cy = seek_as(&router, CY, blitz()).await;
    let (mut socket, _) = hold(addr, &cy).await;
    socket.close(None).await.unwrap();
    let mut open = true;
    for _ in 0..100 {
        let (status, _) = Call::new(Method::GET, format!("/api/seeks/{}", cy["seek"]))
            .seat(cy["token"].as_str())
            .send(&router)
            .await;
        if status == StatusCode::NOT_FOUND {
            open = false;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(!open, "the seek is taken out when its socket closes");
    assert_eq!(seek_as(&router, ANA, blitz()).await["game"], Value::Null);
}

#[tokio::test]
async fn a_socket_with_a_wrong_token_is_refused() {
    let (router, app) = app();
    let addr = common::serve(app).await;
    let ana = seek_as(&router, ANA, blitz()).await;
    let forged = json!({"seek": ana["seek"], "token": "0123456789abcdef0123456789abcdef"});
    let (_, first) = hold(addr, &forged).await;
    assert!(
        matches!(first, SeekMessage::Error { ref error } if error.contains("token")),
        "{first:?}"
    );
    assert_eq!(seek_state(&router, &ana).await["open"], true);
}

#[tokio::test]
async fn a_paired_game_whose_first_move_does_not_come_in_time_is_aborted_and_not_rated() {
    use sowing_web::clock::{now_ms, TimeSource};
    use std::sync::atomic::{AtomicI64, Ordering};
    let time = Arc::new(AtomicI64::new(now_ms()));
    let app = App::new(common::store(), 1)
        .with_limits(AbuseLimits {
            enabled: false,
            ..AbuseLimits::default()
        })
        .with_time(TimeSource::Manual(time.clone()));
    let router = router(Arc::new(app));
    let (ana, bo) = (
        common::sign_up(&router, "Ana", Some(ANA)).await,
        common::sign_up(&router, "Bo", Some(BO)).await,
    );
    let rated = json!({"game": "hoyito-ii", "clock": {"base_ms": 180000, "increment_ms": 2000},
                       "rated": true});
    let mut games = Vec::new();
    for _ in 0..2 {
        for session in [&ana, &bo] {
            let (status, placed) = Call::new(Method::POST, "/api/seeks")
                .by(&common::with_cookie(session))
                .json(rated.clone())
                .send(&router)
                .await;
            assert_eq!(status, StatusCode::CREATED, "{placed}");
            if let Some(game) = placed["game"].as_i64() {
                games.push((
                    game,
                    placed["seat"].clone(),
                    placed["token"].as_str().unwrap().to_owned(),
                ));
            }
        }
    }
    let live = |game: i64| Call::new(Method::GET, format!("/api/live/{game}"));
    // Game 1: South never moves. Game 2: South moves, North never does.
    let (first, second) = (games[0].0, &games[1]);
    let (_, view) = live(first).send(&router).await;
    let by = view["live"]["first_move_by_ms"]
        .as_i64()
        .expect("a first move is due");
    assert_eq!(by, time.load(Ordering::SeqCst) + 30_000);
    // The answer that paired the second game was Bo's, who sits South there: Ana sat South
    // in the first.
    assert_eq!(second.1, "south");
    let south_token = second.2.clone();
    time.fetch_add(10_000, Ordering::SeqCst);
    let (status, _) = Call::new(Method::POST, format!("/api/live/{}/moves", second.0))
        .seat(Some(&south_token))
        .json(json!({"move": "A", "ply": 0}))
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::OK);
    time.fetch_add(19_999, Ordering::SeqCst);
    let (_, view) = live(first).send(&router).await;
    assert_eq!(view["live"]["result"], Value::Null, "1 ms left: {view}");
    time.fetch_add(1, Ordering::SeqCst);
    let (_, view) = live(first).send(&router).await;
    assert_eq!(view["live"]["result"]["reason"], "aborted", "{view}");
    assert_eq!(view["live"]["result"]["outcome"], "none");
    // North's first move is due 30 s after South's.
    let (_, view) = live(second.0).send(&router).await;
    assert_eq!(
        view["live"]["result"],
        Value::Null,
        "North has 10 s left: {view}"
    );
    time.fetch_add(10_000, Ordering::SeqCst);
    let (_, view) = live(second.0).send(&router).await;
    assert_eq!(view["live"]["result"]["reason"], "aborted", "{view}");
    // Aborted games are not rated: both players still have no rated game.
    for name in ["Ana", "Bo"] {
        let (_, profile) = Call::new(Method::GET, format!("/api/accounts/{name}"))
            .send(&router)
            .await;
        let ratings = profile["ratings"]
            .as_array()
            .expect("the profile's ratings");
        assert!(ratings.is_empty(), "{name}: {profile}");
    }
}

#[tokio::test]
async fn a_page_on_another_site_cannot_seek_cancel_or_say() {
    let (router, _) = app();
    let ana = seek_as(&router, ANA, blitz()).await;
    let bo = seek_as(&router, BO, blitz()).await;
    let game = bo["game"].as_i64().unwrap();
    let attack = [
        ("origin", "http://evil.example"),
        ("sec-fetch-site", "cross-site"),
        ("host", "127.0.0.1:8080"),
    ];
    for (method, path, body, token) in [
        (Method::POST, "/api/seeks".to_owned(), blitz(), None),
        (
            Method::DELETE,
            format!("/api/seeks/{}", ana["seek"]),
            json!({}),
            ana["token"].as_str(),
        ),
        (
            Method::POST,
            format!("/api/live/{game}/say"),
            json!({"phrase": "hello"}),
            bo["token"].as_str(),
        ),
    ] {
        let (status, answer) = Call::new(method.clone(), &path)
            .headers(&attack)
            .seat(token)
            .json(body)
            .send(&router)
            .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{method} {path}: {answer}");
        assert!(
            answer["error"]
                .as_str()
                .unwrap()
                .contains("http://evil.example"),
            "{answer}"
        );
    }
    let (_, live) = Call::new(Method::GET, format!("/api/live/{game}"))
        .send(&router)
        .await;
    assert_eq!(
        live["live"]["said"]["north"],
        Value::Null,
        "nothing was said: {live}"
    );
}

#[tokio::test]
async fn seeks_from_one_address_are_capped_and_rate_limited() {
    // The default limits: at most 3 open seeks from an address, and the creation rate.
    let router = router(Arc::new(App::new(common::store(), 1)));
    let keys = [
        "1".repeat(32),
        "2".repeat(32),
        "3".repeat(32),
        "4".repeat(32),
    ];
    // Three players of one address, each with another clock: none pairs, all stay open.
    for (key, base) in keys.iter().zip([60_000, 120_000, 240_000]) {
        let body = json!({"game": "ayoayo", "clock": {"base_ms": base}});
        let (status, placed) = Call::new(Method::POST, "/api/seeks")
            .key(Some(key))
            .json(body)
            .send(&router)
            .await;
        assert_eq!(status, StatusCode::CREATED, "{placed}");
    }
    let (status, refused) = Call::new(Method::POST, "/api/seeks")
        .key(Some(&keys[3]))
        .json(blitz())
        .send(&router)
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{refused}");
    assert_eq!(refused["code"], "limited");
    // Past the creation rate, even a seek that would be allowed is refused.
    let mut limited = false;
    for _ in 0..40 {
        let (status, _) = Call::new(Method::POST, "/api/seeks")
            .key(Some(&keys[3]))
            .json(json!({"game": "chess"}))
            .send(&router)
            .await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            limited = true;
            break;
        }
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    }
    assert!(limited, "the creation rate limits seeks");
}
