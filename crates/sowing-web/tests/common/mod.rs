//! Helpers shared by the web tests: requests through the router ([`Call`]), and throwaway
//! databases.
// Each test binary uses only some of them.
#![allow(dead_code)]

use std::path::PathBuf;

use axum::http::{Method, StatusCode};
use axum::Router;
use serde_json::Value;

mod accounts;
mod call;
mod notices;
// Each test binary uses only some of them.
#[allow(unused_imports)]
pub use accounts::{sign_up, token_of, with_cookie};
#[allow(unused_imports)]
pub use call::{Call, Reply, Who};
#[allow(unused_imports)]
pub use notices::{next_challenges, notices_socket, Socket};

/// The player key the tests' requests present (`X-Player-Key`): the games they create are
/// its own, so they may play in them (tests of ownership use other keys).
pub const PLAYER_KEY: &str = "0123456789abcdef0123456789abcdef";

/// The common case of [`Call`]: sent with [`PLAYER_KEY`] and this text, if any, declared
/// JSON; the status and the body as JSON.
pub async fn send(
    router: &Router,
    method: Method,
    path: &str,
    body: Option<&str>,
) -> (StatusCode, Value) {
    Call::new(method, path).json_text(body).send(router).await
}

/// A database path in a new folder of its own under the system's temporary directory.
pub fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "sowing-web-test-{}-{}-{name}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("games.db")
}

/// The store the API tests run against: SQLite in memory, or, with
/// `SOWING_TEST_STORE=postgres`, a fresh database on the PostgreSQL server that
/// `SOWING_TEST_POSTGRES` names (`scripts/test` runs the suites both ways).
pub fn store() -> sowing_web::store::Store {
    match std::env::var("SOWING_TEST_STORE").as_deref() {
        Ok("postgres") => {
            let url = fresh_postgres_db()
                .expect("SOWING_TEST_STORE=postgres needs SOWING_TEST_POSTGRES (a server URL)");
            sowing_web::store::Store::connect(&url).unwrap()
        }
        Ok("sqlite") | Ok("") | Err(_) => sowing_web::store::Store::in_memory().unwrap(),
        Ok(other) => panic!("SOWING_TEST_STORE={other:?}: expected sqlite or postgres"),
    }
}

/// A database that a second server can open again (a restart): a new SQLite file, or with
/// `SOWING_TEST_STORE=postgres` a fresh PostgreSQL database; open it with `Database::open`.
pub fn reopenable_db(name: &str) -> String {
    match std::env::var("SOWING_TEST_STORE").as_deref() {
        Ok("postgres") => fresh_postgres_db()
            .expect("SOWING_TEST_STORE=postgres needs SOWING_TEST_POSTGRES (a server URL)"),
        _ => temp_db(name).to_string_lossy().into_owned(),
    }
}

/// A new, empty database on the server of `SOWING_TEST_POSTGRES`: its URL.
pub fn fresh_postgres_db() -> Option<String> {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let server = std::env::var("SOWING_TEST_POSTGRES")
        .ok()
        .filter(|u| !u.is_empty())?;
    let name = format!(
        "sowing_test_{}_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos()
    );
    // On a thread of its own: the blocking client cannot run on an async test's thread.
    let create = format!("CREATE DATABASE {name}");
    let url = server.clone();
    std::thread::spawn(move || {
        let mut client = postgres::Client::connect(&url, postgres::NoTls)
            .unwrap_or_else(|e| panic!("SOWING_TEST_POSTGRES={url}: {e}"));
        client.batch_execute(&create).unwrap();
    })
    .join()
    .unwrap();
    Some(with_database(&server, &name))
}

/// `url` naming the database `name` instead of its own.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (url, None),
    };
    let authority = base.find("://").map_or(0, |i| i + 3);
    let host_end = base[authority..]
        .find('/')
        .map_or(base.len(), |i| authority + i);
    let mut out = format!("{}/{name}", &base[..host_end]);
    if let Some(query) = query {
        out.push('?');
        out.push_str(query);
    }
    out
}

/// A server on a free loopback port, with connection addresses, until the test ends: for
/// the tests of sockets.
pub async fn serve(app: std::sync::Arc<sowing_web::App>) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(
            listener,
            sowing_web::router(app).into_make_service_with_connect_info::<std::net::SocketAddr>(),
        )
        .await
        .unwrap();
    });
    addr
}
