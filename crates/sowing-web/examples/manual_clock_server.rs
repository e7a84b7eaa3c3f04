//! A server whose clocks read a time moved by hand, for the browser tests of games that
//! last days (scripts/browser/correspondence.mjs): `sow serve`'s app on an SQLite file,
//! printing its address as `sow serve` does, then reading commands on standard input —
//! `advance MS` moves the time on and runs the sweep that ends games whose time ran out,
//! answering `advanced` — until the input ends. Not a way to run the site: its time stands
//! still unless told.
//!
//! ```text
//! cargo run -p sowing-web --example manual_clock_server -- /tmp/games.db
//! ```

use std::net::SocketAddr;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use sowing_web::clock::{now_ms, TimeSource};
use sowing_web::store::Store;
use sowing_web::{router, App};
use std::io::BufRead;

#[tokio::main]
async fn main() -> Result<(), String> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: manual_clock_server DATABASE")?;
    let store = Store::open(std::path::Path::new(&path)).map_err(|e| e.to_string())?;
    let time = Arc::new(AtomicI64::new(now_ms()));
    let app = Arc::new(App::new(store, 1).with_time(TimeSource::Manual(time.clone())));
    let listener =
        sowing_web::listener::listen(([127, 0, 0, 1], 0).into()).map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let serving = app.clone();
    tokio::spawn(async move {
        axum::serve(
            listener,
            router(serving).into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
        .ok();
    });
    println!("sow serve: open http://{addr}/ (time moved by hand)");
    // Standard input read on a thread of its own, a line at a time.
    let (sender, mut lines) = tokio::sync::mpsc::unbounded_channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    while let Some(line) = lines.recv().await {
        match line.split_whitespace().collect::<Vec<_>>()[..] {
            ["advance", ms] => {
                let ms: i64 = ms.parse().map_err(|e| format!("advance {ms}: {e}"))?;
                let now = time.fetch_add(ms, Ordering::SeqCst) + ms;
                let settled = app.settle_due(now).await.map_err(|e| e.to_string())?;
                println!("advanced to {now} ({settled} games ended)");
            }
            _ => println!("unknown command {line:?} (advance MS)"),
        }
    }
    Ok(())
}
