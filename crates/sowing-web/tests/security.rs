//! A public server's refusals (issue 23, "Trust"): another site's page cannot act here,
//! bodies are JSON only, every answer carries the security headers, game creation and socket
//! messages are rate-limited, names hide nothing, and the socket route answers a plain GET in
//! JSON.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::connect_info::MockConnectInfo;
use axum::http::{header, Method, StatusCode};
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};

use sowing_web::limits::{AbuseLimits, Rate};
use sowing_web::{router, App};
use tokio_tungstenite::tungstenite::Message;

mod common;
use common::{send, Call, Reply};

fn app() -> Router {
    router(Arc::new(App::new(common::store(), 2)))
}

async fn create(router: &Router) -> i64 {
    let (status, view) = send(
        router,
        Method::POST,
        "/api/games",
        Some(r#"{"game": "hoyito-ii"}"#),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{view}");
    view["id"].as_i64().unwrap()
}

async fn moves_of(router: &Router, id: i64) -> usize {
    let (_, view) = send(router, Method::GET, &format!("/api/games/{id}"), None).await;
    view["moves"].as_array().map_or(0, Vec::len)
}

const ATTACK: [(&str, &str); 3] = [
    ("origin", "http://evil.example"),
    ("sec-fetch-site", "cross-site"),
    ("host", "127.0.0.1:8080"),
];

#[tokio::test]
async fn a_page_on_another_site_cannot_move_undo_delete_create_rate_or_solve() {
    let router = app();
    let id = create(&router).await;
    let json = [&ATTACK[..], &[("content-type", "application/json")]].concat();
    for (method, path, body) in [
        (
            Method::POST,
            format!("/api/games/{id}/moves"),
            r#"{"move":"A"}"#,
        ),
        (Method::POST, format!("/api/games/{id}/undo"), ""),
        (Method::DELETE, format!("/api/games/{id}"), ""),
        (
            Method::POST,
            "/api/games".to_owned(),
            r#"{"game":"hoyito-ii"}"#,
        ),
        (
            Method::POST,
            "/api/live".to_owned(),
            r#"{"game":"hoyito-ii"}"#,
        ),
        // The school's: a puzzle's result and a solve queued from the explorer.
        (
            Method::POST,
            "/api/puzzles/1/result".to_owned(),
            r#"{"solved":true}"#,
        ),
        (
            Method::POST,
            "/api/explorer/solve".to_owned(),
            r#"{"game":"hoyito-ii"}"#,
        ),
    ] {
        let Reply {
            status,
            body: answer,
            ..
        } = Call::new(method.clone(), &path)
            .headers(&json)
            .text(body)
            .reply(&router)
            .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{method} {path}: {answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.contains("http://evil.example"), "{error}");
    }
    assert_eq!(moves_of(&router, id).await, 0);
    let (status, _) = send(&router, Method::GET, &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK, "the game was not deleted");
}

#[tokio::test]
async fn an_old_browser_from_another_origin_is_judged_by_origin() {
    let router = app();
    let id = create(&router).await;
    let path = format!("/api/games/{id}/moves");
    let foreign = [
        ("origin", "http://127.0.0.1:9999"),
        ("host", "127.0.0.1:8080"),
        ("content-type", "application/json"),
    ];
    let Reply {
        status,
        body: answer,
        ..
    } = Call::new(Method::POST, &path)
        .headers(&foreign)
        .text(r#"{"move":"A"}"#)
        .reply(&router)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
    let own = [
        ("origin", "http://127.0.0.1:8080"),
        ("host", "127.0.0.1:8080"),
        ("content-type", "application/json"),
    ];
    let Reply {
        status,
        body: answer,
        ..
    } = Call::new(Method::POST, &path)
        .headers(&own)
        .text(r#"{"move":"A"}"#)
        .reply(&router)
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let same_origin = [
        ("sec-fetch-site", "same-origin"),
        ("content-type", "application/json"),
    ];
    let Reply {
        status,
        body: answer,
        ..
    } = Call::new(Method::POST, &path)
        .headers(&same_origin)
        .text(r#"{"move":"a"}"#)
        .reply(&router)
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
}

#[tokio::test]
async fn an_allowed_origin_may_act() {
    let games =
        App::new(common::store(), 2).with_allowed_origins(vec!["http://evil.example".to_owned()]);
    let router = router(Arc::new(games));
    let json = [&ATTACK[..], &[("content-type", "application/json")]].concat();
    let Reply {
        status,
        body: answer,
        ..
    } = Call::new(Method::POST, "/api/games")
        .headers(&json)
        .text(r#"{"game":"hoyito-ii"}"#)
        .reply(&router)
        .await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
}

#[tokio::test]
async fn reading_from_another_site_is_allowed_and_answers_carry_the_headers() {
    let router = app();
    let id = create(&router).await;
    for path in [
        "/".to_owned(),
        format!("/api/games/{id}"),
        "/main.js".to_owned(),
    ] {
        let Reply {
            status, headers, ..
        } = Call::new(Method::GET, &path)
            .headers(&ATTACK)
            .reply(&router)
            .await;
        assert_eq!(status, StatusCode::OK, "{path}");
        let csp = headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
        assert!(csp.contains("script-src 'self'"), "{csp}");
        assert!(!csp.contains("unsafe-inline"), "{csp}");
        assert_eq!(headers[header::REFERRER_POLICY], "no-referrer");
        assert_eq!(headers[header::X_FRAME_OPTIONS], "DENY");
        assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    }
    // Refusals carry them too.
    let Reply { headers, .. } = Call::new(Method::POST, "/api/games")
        .headers(&ATTACK)
        .text("{}")
        .reply(&router)
        .await;
    assert!(headers.contains_key(header::CONTENT_SECURITY_POLICY));
}

#[tokio::test]
async fn a_body_that_is_not_declared_json_is_a_415() {
    let router = app();
    let id = create(&router).await;
    for content_type in [
        None,
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
    ] {
        let headers: Vec<(&str, &str)> = content_type
            .map(|t| ("content-type", t))
            .into_iter()
            .collect();
        let path = format!("/api/games/{id}/moves");
        let Reply {
            status,
            body: answer,
            ..
        } = Call::new(Method::POST, &path)
            .headers(&headers)
            .text(r#"{"move":"A"}"#)
            .reply(&router)
            .await;
        assert_eq!(
            status,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{content_type:?}: {answer}"
        );
        assert!(answer["error"]
            .as_str()
            .unwrap()
            .contains("application/json"));
    }
    assert_eq!(moves_of(&router, id).await, 0, "nothing was played");
    let charset = [("content-type", "application/json; charset=utf-8")];
    let path = format!("/api/games/{id}/moves");
    let Reply {
        status,
        body: answer,
        ..
    } = Call::new(Method::POST, &path)
        .headers(&charset)
        .text(r#"{"move":"A"}"#)
        .reply(&router)
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
}

#[tokio::test]
async fn creating_games_against_the_computer_is_rate_limited() {
    // A rate that earns nothing back while the test runs, however slow the machine.
    let burst = 5;
    let limits = AbuseLimits {
        create_plain: Rate {
            burst,
            every: Duration::from_secs(3600),
        },
        ..AbuseLimits::default()
    };
    let router = router(Arc::new(App::new(common::store(), 2).with_limits(limits)));
    for _ in 0..burst {
        create(&router).await;
    }
    let (status, answer) = send(
        &router,
        Method::POST,
        "/api/games",
        Some(r#"{"game":"hoyito-ii"}"#),
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{answer}");
    let (status, _) = send(
        &router,
        Method::POST,
        "/api/records",
        Some(&json!({"record": "[Game \"hoyito-ii\"]\n\n*"}).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "imports count too");
}

#[tokio::test]
async fn names_with_hidden_or_reordering_characters_are_refused() {
    let router = app();
    for name in [
        "abc\u{202E}lmth.exe",
        "Ana\u{200B}",
        "\u{2066}Bo\u{2069}",
        "x\u{FEFF}",
    ] {
        let body = json!({"game": "hoyito-ii", "name": name}).to_string();
        let (status, answer) = send(&router, Method::POST, "/api/live", Some(&body)).await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{name:?}: {answer}"
        );
        assert!(answer["error"].as_str().unwrap().contains("U+"), "{answer}");
    }
    let body = json!({"game": "hoyito-ii", "name": "José Nuñez"}).to_string();
    let (status, answer) = send(&router, Method::POST, "/api/live", Some(&body)).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
}

#[tokio::test]
async fn the_socket_route_answers_a_plain_get_in_json() {
    let router = app().layer(MockConnectInfo(SocketAddr::from(([192, 0, 2, 1], 1))));
    let (status, seated) = send(
        &router,
        Method::POST,
        "/api/live",
        Some(r#"{"game":"hoyito-ii"}"#),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{seated}");
    let id = seated["live"]["id"].as_i64().unwrap();
    let Reply {
        status,
        body: answer,
        headers,
        ..
    } = Call::new(Method::GET, format!("/api/live/{id}/socket"))
        .reply(&router)
        .await;
    assert!(status.is_client_error(), "{status}");
    assert_eq!(headers[header::CONTENT_TYPE], "application/json");
    assert!(
        answer["error"].as_str().unwrap().contains("WebSocket"),
        "{answer}"
    );
}

/// A socket that sends more than its burst of messages at once is told so and closed.
#[tokio::test]
async fn a_socket_flooding_pings_is_closed() {
    let burst = 20;
    let limits = AbuseLimits {
        socket_messages: Rate {
            burst,
            every: Duration::from_secs(3600),
        },
        ..AbuseLimits::default()
    };
    let games = Arc::new(App::new(common::store(), 2).with_limits(limits));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let served = router(games).into_make_service_with_connect_info::<SocketAddr>();
    tokio::spawn(async move { axum::serve(listener, served).await });
    let client = create_live_over_http(address).await;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{address}/api/live/{client}/socket"))
            .await
            .unwrap();
    socket
        .send(Message::text(r#"{"type":"hello","token":null}"#))
        .await
        .unwrap();
    for _ in 0..burst * 5 {
        if socket
            .send(Message::text(r#"{"type":"ping"}"#))
            .await
            .is_err()
        {
            break;
        }
    }
    let mut pongs = 0;
    let mut refused = None;
    while let Some(Ok(message)) = socket.next().await {
        if let Message::Text(text) = message {
            let value: Value = serde_json::from_str(text.as_str()).unwrap();
            match value["type"].as_str() {
                Some("pong") => pongs += 1,
                Some("error") => refused = value["error"].as_str().map(str::to_owned),
                _ => {}
            }
        }
    }
    assert_eq!(pongs, burst, "pongs for a burst of {burst}");
    let refused = refused.expect("the socket says why it closes");
    assert!(refused.contains("too many messages"), "{refused}");
}

/// Creates a live game over plain HTTP/1.1 on `address` (no client crate needed); its id.
async fn create_live_over_http(address: SocketAddr) -> i64 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body = r#"{"game":"hoyito-ii"}"#;
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let request = format!(
        "POST /api/live HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    let json = &answer[answer.find("\r\n\r\n").unwrap() + 4..];
    let seated: Value = serde_json::from_str(json).unwrap();
    seated["live"]["id"].as_i64().unwrap()
}
