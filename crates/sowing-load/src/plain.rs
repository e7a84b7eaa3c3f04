//! The plain mode: one-screen games through the JSON API, one keep-alive connection per
//! game (one to each server given), random legal moves from each answer's state.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use sowing_engine::random::Rng;
use sowing_web::requests::{MoveRequest, NewGameRequest};
use sowing_web::store::Database;

use crate::http::{json_body, Connection, Key};
use crate::{play_all, variant_of, Target};

/// What one game's player saw.
struct Played {
    id: Option<i64>,
    moves: usize,
    latencies: Vec<Duration>,
    error: Option<String>,
}

async fn play_one(target: Arc<Target>, variant: String, seed: u64, max_moves: usize) -> Played {
    let mut played = Played {
        id: None,
        moves: 0,
        latencies: Vec::new(),
        error: None,
    };
    let mut rng = Rng::new(seed);
    let addrs = &target.addrs;
    let result: Result<(), String> = async {
        let mut conns = Vec::with_capacity(addrs.len());
        for &addr in addrs.iter() {
            conns.push(Connection::open(addr).await?);
        }
        let (status, view) = conns[0]
            .request(
                "POST",
                "/api/games",
                Some(&json_body(&NewGameRequest {
                    game: variant.to_owned(),
                    ..NewGameRequest::default()
                })),
                None,
            )
            .await?;
        if status != 201 {
            return Err(format!("create: {status} {view}"));
        }
        let id = view["id"].as_i64().ok_or("no id")?;
        // The game is the key's the server made for it (docs/api.md, "Owners").
        let key = view["player_key"]
            .as_str()
            .ok_or("no player_key in the answer")?
            .to_owned();
        played.id = Some(id);
        let mut state = view["state"].clone();
        while state["over"] != true && played.moves < max_moves {
            let legal: Vec<&str> = state["legal"]
                .as_array()
                .ok_or("no legal moves")?
                .iter()
                .filter_map(Value::as_str)
                .collect();
            let mv = rng
                .pick(&legal)
                .ok_or("no legal move in a game not over")?
                .to_string();
            let body = json_body(&MoveRequest {
                mv: mv.clone(),
                ply: Some(played.moves),
            });
            let start = Instant::now();
            let conn = &mut conns[played.moves % addrs.len()];
            let (status, answer) = conn
                .request(
                    "POST",
                    &format!("/api/games/{id}/moves?brief=true"),
                    Some(&body),
                    Some(Key::Player(&key)),
                )
                .await?;
            played.latencies.push(start.elapsed());
            if status != 200 {
                return Err(format!("game {id} move {mv}: {status} {answer}"));
            }
            played.moves += 1;
            state = answer["state"].clone();
        }
        Ok(())
    }
    .await;
    played.error = result.err();
    played
}

/// Plays `games` one-screen games at once; prints the figures; true when all went well.
pub async fn run(
    target: Arc<Target>,
    games: usize,
    game: Option<&str>,
    seed: u64,
    max_moves: usize,
) -> Result<bool, String> {
    println!(
        "sow-load: {games} games at once against {} …",
        target.servers()
    );
    let (results, elapsed) = play_all(games, seed, |i, seed| {
        play_one(target.clone(), variant_of(game, i), seed, max_moves)
    })
    .await?;

    let latencies: Vec<Duration> = results
        .iter()
        .flat_map(|r| r.latencies.iter().copied())
        .collect();
    let moves: usize = results.iter().map(|r| r.moves).sum();
    let errors: Vec<&String> = results.iter().filter_map(|r| r.error.as_ref()).collect();
    for e in errors.iter().take(5) {
        eprintln!("sow-load: error: {e}");
    }

    // Every game complete on the server, and in the database if we can see it.
    let mut incomplete = 0;
    let mut conn = Connection::open(target.addrs[0]).await?;
    for r in &results {
        let Some(id) = r.id else {
            incomplete += 1;
            continue;
        };
        let (status, view) = conn
            .request("GET", &format!("/api/games/{id}"), None, None)
            .await?;
        let complete = status == 200
            && view["state"]["over"] == true
            && view["ply"].as_u64() == Some(r.moves as u64);
        if !complete {
            incomplete += 1;
            eprintln!("sow-load: game {id} is not complete on the server");
        }
    }
    let mut db_checked = String::from("database not checked (give --db)");
    if let Some(db) = target.db.clone() {
        let expected: Vec<(Option<i64>, usize)> = results.iter().map(|r| (r.id, r.moves)).collect();
        let (in_db, missing) = tokio::task::spawn_blocking(move || -> Result<_, String> {
            let store = Database::from(db.as_str())
                .open()
                .map_err(|e| e.to_string())?;
            let mut in_db = 0;
            let mut missing = Vec::new();
            for (id, moves) in expected {
                let Some(id) = id else { continue };
                let row = store.game_row(id).map_err(|e| e.to_string())?;
                let ok = row
                    .as_ref()
                    .is_some_and(|row| row.result.is_some() && row.plies == moves)
                    && store.stored_moves(id).map_err(|e| e.to_string())? == moves;
                if ok {
                    in_db += 1;
                } else {
                    missing.push(id);
                }
            }
            Ok((in_db, missing))
        })
        .await
        .map_err(|e| e.to_string())??;
        for id in &missing {
            eprintln!("sow-load: game {id} is not complete in the database");
        }
        incomplete += missing.len();
        db_checked = format!("{in_db}/{} games complete in the database", results.len());
    }

    let seconds = elapsed.as_secs_f64();
    println!(
        "games:          {games} at once, {} finished",
        results.iter().filter(|r| r.error.is_none()).count()
    );
    println!(
        "moves:          {moves} in {seconds:.1} s = {:.0} moves/s",
        moves as f64 / seconds
    );
    println!("latency:        {}", crate::stats::summary(latencies));
    println!("errors:         {}", errors.len());
    println!("complete:       {db_checked}");
    Ok(errors.is_empty() && incomplete == 0)
}
