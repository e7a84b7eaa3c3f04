//! `GET /api/tables/{family}` and `GET /api/tables/{family}/{seeds}`: the small tables the page
//! keeps for the engine in the browser, each layer a compressed file holding exactly the
//! server's values, and the refusals.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use serde_json::{json, Value};
use sowing::{Rules, Variant};
use sowing_engine::TableSet;
use sowing_tables::build::{build, Options};
use sowing_tables::{compressed, Family, Tables};
use sowing_web::store::Store;
use sowing_web::{router, App};
use tower::ServiceExt;

mod common;

async fn get(router: &axum::Router, path: &str) -> (StatusCode, Option<String>, Vec<u8>) {
    let request = Request::get(path).body(Body::empty()).unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let kind = response
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_owned());
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    (status, kind, bytes.to_vec())
}

#[tokio::test]
async fn each_layer_to_12_seeds_is_sent_compressed_with_the_servers_values() {
    let dir = common::temp_db("pocket").with_file_name("tables");
    let rules = Rules::new(Variant::HoyitoII);
    build(&dir, rules, 8, &Options::quiet()).unwrap();
    let tables = Tables::open(&dir, rules).unwrap();
    let set = Arc::new(TableSet::open(&dir).unwrap());
    let router = router(Arc::new(
        App::new(Store::in_memory().unwrap(), 2).with_tables(Some(set)),
    ));
    let family = Family::of(rules);
    let name = family.name();
    let (status, _, body) = get(&router, &format!("/api/tables/{name}")).await;
    assert_eq!(status, StatusCode::OK);
    let listing: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(listing["family"], json!(name));
    let layers = listing["layers"].as_array().unwrap();
    assert_eq!(
        layers
            .iter()
            .map(|l| l["seeds"].clone())
            .collect::<Vec<_>>(),
        vec![json!(4), json!(8)]
    );
    for layer in layers {
        let seeds = layer["seeds"].as_u64().unwrap() as usize;
        let (status, kind, file) = get(&router, &format!("/api/tables/{name}/{seeds}")).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(kind.as_deref(), Some("application/octet-stream"));
        assert_eq!(layer["bytes"], json!(file.len()));
        let read =
            compressed::Layer::new(Box::new(file), std::path::Path::new("sent"), &family, seeds)
                .unwrap();
        let sent: Vec<u8> = (0..read.blocks())
            .flat_map(|b| read.block(b).unwrap())
            .collect();
        assert_eq!(sent, tables.layer(seeds).unwrap().to_vec(), "layer {seeds}");
    }

    // Refused with a 404 that says why: a layer not built, one beyond 12 seeds, a family of
    // no game, a name too long, and other tables' families.
    for path in [
        format!("/api/tables/{name}/5"),
        format!("/api/tables/{name}/16"),
        format!("/api/tables/{name}/0"),
        "/api/tables/chess-8x8".to_owned(),
        format!("/api/tables/{}", "x".repeat(200)),
        format!(
            "/api/tables/{}",
            Family::of(Rules::new(Variant::Ayoayo)).name()
        ),
    ] {
        let (status, _, body) = get(&router, &path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        let error: Value = serde_json::from_slice(&body).unwrap();
        assert!(
            error["error"].as_str().unwrap().contains("no tables"),
            "{error}"
        );
    }
    let (status, _, _) = get(&router, &format!("/api/tables/{name}/eight")).await;
    assert!(
        status.is_client_error(),
        "a layer that is no number: {status}"
    );
}

#[tokio::test]
async fn a_server_without_tables_has_none_to_send() {
    let router = router(Arc::new(App::new(Store::in_memory().unwrap(), 2)));
    let name = Family::of(Rules::new(Variant::HoyitoII)).name();
    let (status, _, _) = get(&router, &format!("/api/tables/{name}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
