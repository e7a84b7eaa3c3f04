//! The page's files as the browser and the service worker fetch them (docs/web.md,
//! "Installable and offline"): each with an entity tag, a 304 with no body for a browser
//! that has it, the WebAssembly engine as `application/wasm`, and the list the service
//! worker keeps.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use sowing_web::store::Store;
use sowing_web::{router, App};
use tower::ServiceExt;

async fn get(router: &axum::Router, path: &str, etag: Option<&str>) -> axum::response::Response {
    let mut request = Request::get(path);
    if let Some(etag) = etag {
        request = request.header(header::IF_NONE_MATCH, etag);
    }
    router
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap()
}

async fn body(response: axum::response::Response) -> Vec<u8> {
    axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap()
        .to_vec()
}

#[tokio::test]
async fn a_file_the_browser_has_is_answered_304_without_a_body() {
    let router = router(Arc::new(App::new(Store::in_memory().unwrap(), 2)));
    for (path, kind) in [
        ("/engine/sowing.wasm", "application/wasm"),
        ("/main.js", "text/javascript; charset=utf-8"),
        ("/icon-192.png", "image/png"),
        ("/manifest.webmanifest", "application/manifest+json"),
    ] {
        let first = get(&router, path, None).await;
        assert_eq!(first.status(), StatusCode::OK, "{path}");
        assert_eq!(first.headers()[header::CONTENT_TYPE], kind, "{path}");
        let etag = first.headers()[header::ETAG].to_str().unwrap().to_owned();
        assert!(etag.starts_with('"') && etag.len() == 18, "{path}: {etag}");
        assert!(!body(first).await.is_empty());

        let again = get(&router, path, Some(&etag)).await;
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{path}");
        assert_eq!(again.headers()[header::ETAG], etag.as_str());
        assert!(body(again).await.is_empty(), "{path}: a 304 has no body");

        let listed = format!("\"0000000000000000\", {etag}");
        let among = get(&router, path, Some(&listed)).await;
        assert_eq!(
            among.status(),
            StatusCode::NOT_MODIFIED,
            "{path}: one of several tags"
        );

        let other = get(&router, path, Some("\"0000000000000000\"")).await;
        assert_eq!(other.status(), StatusCode::OK, "{path}: another version");
    }
    // Two files, two tags.
    let a = get(&router, "/main.js", None).await;
    let b = get(&router, "/game.js", None).await;
    assert_ne!(a.headers()[header::ETAG], b.headers()[header::ETAG]);
}

#[tokio::test]
async fn the_service_worker_keeps_every_file_but_itself_and_the_rules() {
    let router = router(Arc::new(App::new(Store::in_memory().unwrap(), 2)));
    let response = get(&router, "/offline-files.json", None).await;
    assert_eq!(response.status(), StatusCode::OK);
    let list: Vec<String> = serde_json::from_slice(&body(response).await).unwrap();
    for path in [
        "/",
        "/main.js",
        "/pocket.js",
        "/engine/worker.js",
        "/engine/sowing.js",
        "/engine/sowing.wasm",
        "/i18n/es.ftl",
        "/manifest.webmanifest",
        "/api/rules",
    ] {
        assert!(list.iter().any(|p| p == path), "{path} is kept");
    }
    assert!(
        !list.iter().any(|p| p == "/sw.js"),
        "the worker does not keep itself"
    );
    for path in &list {
        let status = get(&router, path, None).await.status();
        assert_eq!(status, StatusCode::OK, "{path} is served");
    }
}
