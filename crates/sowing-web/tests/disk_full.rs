//! The disk under SQLite fills up: moves get a clear error (503 `store-full`), the database
//! stays sound (`PRAGMA integrity_check`), and play resumes when space returns, with every
//! acknowledged move kept. The disk is a 2 MB tmpfs this test mounts, so it needs root:
//! ignored under plain `cargo test`; `scripts/test` runs it with `--ignored`.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use sowing_web::store::Store;
use sowing_web::{router, App};

/// A small filesystem of its own, unmounted (and its folder removed) when dropped.
struct SmallDisk(PathBuf);

impl SmallDisk {
    fn mount(megabytes: u32) -> SmallDisk {
        let dir = common::temp_db("disk-full").parent().unwrap().join("disk");
        std::fs::create_dir_all(&dir).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={megabytes}m"), "tmpfs"])
            .arg(&dir)
            .status()
            .expect("mount runs");
        assert!(mounted.success(), "this test needs root, to mount a tmpfs");
        SmallDisk(dir)
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
        let _ = std::fs::remove_dir_all(self.0.parent().unwrap());
    }
}

/// Fills the disk that `dir` is on with a file of zeros, to the last byte: the file.
fn fill(dir: &Path) -> PathBuf {
    let filler = dir.join("filler");
    let mut file = std::fs::File::create(&filler).unwrap();
    let block = vec![0u8; 4096];
    // Whole blocks until none fits, then single bytes: not one byte is left.
    while file.write_all(&block).is_ok() {}
    while file.write_all(&[0]).is_ok() {}
    let _ = file.sync_all();
    filler
}

fn integrity(db: &Path) -> String {
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    conn.query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap()
}

/// Plays the first legal move of game `id` at `ply`: the answer.
async fn play(app: &axum::Router, id: i64, ply: u64) -> (StatusCode, Value) {
    let (_, view) = common::send(app, Method::GET, &format!("/api/games/{id}"), None).await;
    let mv = view["state"]["legal"][0].as_str().unwrap().to_owned();
    common::send(
        app,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(&json!({"move": mv, "ply": ply}).to_string()),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs root: mounts a 2 MB tmpfs (scripts/test runs it)"]
async fn a_full_disk_refuses_moves_clearly_keeps_the_database_sound_and_play_resumes() {
    let disk = SmallDisk::mount(2);
    let db = disk.0.join("games.db");
    let app = router(Arc::new(App::new(Store::open(&db).unwrap(), 16)));
    let (status, view) = common::send(
        &app,
        Method::POST,
        "/api/games",
        Some(&json!({"game": "ayoayo"}).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{view}");
    let id = view["id"].as_i64().unwrap();
    let mut acknowledged = 0;
    for _ in 0..4 {
        let (status, answer) = play(&app, id, acknowledged).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        acknowledged += 1;
    }

    let filler = fill(&disk.0);
    // Each commit grows the write-ahead log, so a move soon finds no room. A move may still
    // fit in room the log already had: it is then acknowledged like any other.
    let mut refused = None;
    for _ in 0..50 {
        let (status, answer) = play(&app, id, acknowledged).await;
        if status == StatusCode::OK {
            acknowledged += 1;
            continue;
        }
        refused = Some((status, answer));
        break;
    }
    let (status, answer) = refused.expect("a move on a full disk is refused");
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{answer}");
    assert_eq!(answer["code"], "store-full", "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("disk is full"),
        "{answer}"
    );
    assert_eq!(integrity(&db), "ok");
    // The game is as its acknowledged moves left it.
    let (_, view) = common::send(&app, Method::GET, &format!("/api/games/{id}"), None).await;
    assert_eq!(view["ply"], acknowledged, "{view}");

    std::fs::remove_file(filler).unwrap();
    for _ in 0..4 {
        let (status, answer) = play(&app, id, acknowledged).await;
        assert_eq!(status, StatusCode::OK, "play resumes: {answer}");
        acknowledged += 1;
    }
    assert_eq!(integrity(&db), "ok");
    drop(app);
    // Every acknowledged move is in the file, read by a store of its own.
    let stored = Store::open(&db).unwrap().stored_moves(id).unwrap();
    assert_eq!(stored as u64, acknowledged);
}
