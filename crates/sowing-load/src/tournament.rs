//! `--tournament ID --players N`: N bot players sign up, join tournament ID (docs/api.md,
//! "Tournaments") through the servers in turn, and play random legal moves in every game the
//! director pairs them into, until the tournament is over. Each player learns of its
//! pairings on its notices socket (`tournament_games`), follows its game on the game's
//! socket and moves over HTTP with its session. One player in ten berserks in an arena.
//!
//! The figure: the time from a player's game ending (the last move or the result reaching
//! it) to its notices socket naming its next game — end to next pairing, as the player sees
//! it. At the end it waits for the tournament to finish and prints the final standings as
//! JSON on its last line.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::{json, Value};
use sowing::{Game, Position, Rules, Side};
use sowing_engine::random::{legal_move, Rng};
use sowing_web::requests::LiveMoveRequest;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use crate::http::{json_body, Connection, Key};
use crate::replica::{apply, replica_of};
use crate::socket::{LiveSocket, ServerMessage};
use crate::stats::summary;
use crate::Target;

/// What the players measured and met.
#[derive(Default)]
struct Tally {
    /// End of a game to the next pairing, each player's in turn.
    to_next: Vec<Duration>,
    games: usize,
    moves: usize,
    berserks: usize,
    /// A player's server gone (a connection or socket broken): it moved to the next one.
    failovers: usize,
    errors: Vec<String>,
}

/// The settings every player shares.
#[derive(Clone, Copy)]
pub struct Plan {
    pub tournament: i64,
    pub seed: u64,
    pub think_ms: u64,
    pub timeout: Duration,
}

type Notices =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens the notices socket of the session `token` on `addr`.
async fn notices(addr: SocketAddr, token: &str, timeout: Duration) -> Result<Notices, String> {
    let mut request = format!("ws://{addr}/api/account/socket")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    let cookie = format!("sowing_session={token}")
        .parse()
        .map_err(|e| format!("cookie: {e}"))?;
    request.headers_mut().insert("cookie", cookie);
    let (ws, _) = tokio::time::timeout(timeout, tokio_tungstenite::connect_async(request))
        .await
        .map_err(|_| format!("notices socket: no connection within {timeout:?}"))?
        .map_err(|e| format!("notices socket: {e}"))?;
    Ok(ws)
}

/// The next game of tournament `id` the notices socket names that is not `done`, or `None`
/// when nothing comes within `wait`.
async fn next_game(
    ws: &mut Notices,
    id: i64,
    done: &[i64],
    wait: Duration,
) -> Result<Option<(i64, Side)>, String> {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        let message = match tokio::time::timeout_at(deadline, ws.next()).await {
            Err(_) => return Ok(None),
            Ok(Some(Ok(Message::Text(text)))) => text,
            Ok(Some(Ok(Message::Close(frame)))) => {
                return Err(format!("notices socket closed: {frame:?}"))
            }
            Ok(Some(Ok(_))) => continue,
            Ok(Some(Err(e))) => return Err(format!("notices socket: {e}")),
            Ok(None) => return Err("notices socket ended".into()),
        };
        let value: Value =
            serde_json::from_str(message.as_str()).map_err(|e| format!("notice: {e}"))?;
        if value["type"] == "error" {
            return Err(format!("notice: {}", value["error"]));
        }
        let playing = value["tournament_games"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        for game in playing {
            let game_id = game["game_id"].as_i64().unwrap_or(0);
            if game["tournament_id"] == id && !done.contains(&game_id) {
                let seat = if game["seat"] == "south" {
                    Side::South
                } else {
                    Side::North
                };
                return Ok(Some((game_id, seat)));
            }
        }
    }
}

/// Plays game `id` on `side` to its end: random legal moves after a think, the opponent's
/// moves from the game's socket. Whether this side berserked, and the moves made.
#[allow(clippy::too_many_arguments)]
async fn play(
    http: &mut Connection,
    addr: SocketAddr,
    token: &str,
    id: i64,
    side: Side,
    rules: Rules,
    berserk: bool,
    rng: &mut Rng,
    plan: Plan,
) -> Result<(bool, usize), String> {
    let who = format!("game {id} ({})", side.name());
    let (mut socket, state) = LiveSocket::open(addr, id, None, plan.timeout, who.clone()).await?;
    let mut replica: Game = replica_of(&state, rules, &who)?;
    // Over already (a player back after a failover, to a game that ended meanwhile).
    let mut over = matches!(&state, ServerMessage::State { live, .. } if live.result.is_some());
    let mut berserked = false;
    if berserk
        && !replica.moves().iter().enumerate().any(|(ply, _)| {
            replica
                .position_at(ply)
                .is_some_and(|p| p.to_move() == side)
        })
    {
        let path = format!("/api/live/{id}/berserk");
        let (status, body) = http
            .request("POST", &path, None, Some(Key::Session(token)))
            .await?;
        match status {
            200 => berserked = true,
            // Over already (a flag, an abort), or moved meanwhile.
            409 | 422 => {}
            _ => return Err(format!("{who}: berserk: {status} {body}")),
        }
    }
    let path = format!("/api/live/{id}/moves");
    let mut sent_mine = false;
    let mut moves = 0;
    while !over && !replica.is_over() {
        if !sent_mine && replica.position().to_move() == side {
            if plan.think_ms > 0 {
                let think = rng.below(u32::try_from(plan.think_ms * 2 + 1).unwrap_or(u32::MAX));
                tokio::time::sleep(Duration::from_millis(u64::from(think))).await;
            }
            let mv = legal_move(&replica, rng)
                .ok_or_else(|| format!("{who}: no legal move in a game not over"))?;
            let body = json_body(&LiveMoveRequest {
                mv: mv.name(rules.pits_per_row()).to_string(),
                ply: replica.moves().len(),
            });
            let (status, answer) = http
                .request("POST", &path, Some(&body), Some(Key::Session(token)))
                .await?;
            match status {
                200 => {
                    sent_mine = true;
                    moves += 1;
                }
                // The game ended meanwhile (the clock, an abort): its socket says so.
                409 if answer["code"] == "game-over" => sent_mine = true,
                _ => return Err(format!("{who}: move: {status} {answer}")),
            }
        }
        match socket.next().await? {
            ServerMessage::Move { mv } => {
                apply(&mut replica, &mv, &who)?;
                if mv.side == side.name() {
                    sent_mine = false;
                }
            }
            ServerMessage::Status { live } => over = live.result.is_some(),
            ServerMessage::Error { error } => return Err(format!("{who}: {error}")),
            _ => {}
        }
    }
    socket.close().await;
    Ok((berserked, moves))
}

/// How often a player moves to the next server and tries again before giving up.
const FAILOVERS: usize = 3;

/// One player: signs up, joins, and plays every game it is paired into until the end. When
/// its server goes (killed), it moves to the next of `addrs` and goes on where it was.
async fn player(
    addrs: Vec<SocketAddr>,
    i: usize,
    plan: Plan,
    tally: Arc<Mutex<Tally>>,
) -> Result<(), String> {
    let mut at = i % addrs.len();
    let mut http = Connection::open(addrs[at]).await?;
    let name = format!("b{}-{i}", plan.seed % 100_000);
    let body = json!({"name": name, "password": "load-test-password"});
    let (status, answer, token) = http
        .request_cookie("POST", "/api/account/signup", Some(&body), None)
        .await?;
    let token = match (status, token) {
        (201, Some(token)) => token,
        _ => return Err(format!("{name}: sign up: {status} {answer}")),
    };
    let join = format!("/api/tournaments/{}/join", plan.tournament);
    let (status, view) = http
        .request("POST", &join, None, Some(Key::Session(&token)))
        .await?;
    if status != 200 {
        return Err(format!("{name}: join: {status} {view}"));
    }
    let rules = view["start"]
        .as_str()
        .and_then(|s| s.parse::<Position>().ok())
        .map(|p| p.rules())
        .ok_or_else(|| format!("{name}: the tournament's start does not read"))?;
    let arena = view["kind"] == "arena";
    let ends = view["ends_ms"].as_i64();
    let mut ws = notices(addrs[at], &token, plan.timeout).await?;
    let mut rng = Rng::new(plan.seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut done = Vec::new();
    let mut ended: Option<Instant> = None;
    let mut failovers = 0;
    // Moves to the next server: a new connection and notices socket there.
    macro_rules! fail_over {
        ($error:expr) => {{
            failovers += 1;
            if failovers > FAILOVERS {
                return Err(format!("{name}: {}", $error));
            }
            lock(&tally).failovers += 1;
            at = (at + 1) % addrs.len();
            tokio::time::sleep(Duration::from_millis(200)).await;
            http = Connection::open(addrs[at]).await?;
            ws = notices(addrs[at], &token, plan.timeout).await?;
        }};
    }
    loop {
        let next = next_game(&mut ws, plan.tournament, &done, Duration::from_secs(5)).await;
        let (game, side) = match next {
            Ok(Some(next)) => next,
            Ok(None) => {
                // Nothing for a while: over once the arena has ended or the Swiss finished.
                let now = sowing_web::clock::now_ms();
                match finished(&mut http, plan.tournament).await {
                    Ok(over) if over || ends.is_some_and(|end| now > end) => return Ok(()),
                    Ok(_) => continue,
                    Err(e) => fail_over!(e),
                }
                continue;
            }
            Err(e) => {
                fail_over!(e);
                continue;
            }
        };
        if let Some(ended) = ended {
            lock(&tally).to_next.push(ended.elapsed());
        }
        let berserk = arena && i.is_multiple_of(10);
        let played = play(
            &mut http, addrs[at], &token, game, side, rules, berserk, &mut rng, plan,
        )
        .await;
        let (berserked, moves) = match played {
            Ok(played) => played,
            // The game is played on from the next server (its state read again there).
            Err(e) => {
                fail_over!(e);
                continue;
            }
        };
        done.push(game);
        ended = Some(Instant::now());
        let mut t = lock(&tally);
        t.games += 1;
        t.moves += moves;
        t.berserks += usize::from(berserked);
    }
}

fn lock(tally: &Mutex<Tally>) -> std::sync::MutexGuard<'_, Tally> {
    tally.lock().unwrap_or_else(|e| e.into_inner())
}

async fn finished(http: &mut Connection, id: i64) -> Result<bool, String> {
    let (status, view) = http
        .request("GET", &format!("/api/tournaments/{id}"), None, None)
        .await?;
    if status != 200 {
        return Err(format!("tournament {id}: {status} {view}"));
    }
    Ok(view["state"] == "finished")
}

/// A connection to the first of `addrs` that answers (one may have been killed).
async fn open_any(addrs: &[SocketAddr]) -> Result<Connection, String> {
    let mut failed = Vec::new();
    for &addr in addrs {
        match Connection::open(addr).await {
            Ok(connection) => return Ok(connection),
            Err(e) => failed.push(e),
        }
    }
    Err(failed.join("; "))
}

/// Runs `players` players in tournament `plan.tournament` through the servers of `target`
/// in turn; whether all went without an error.
pub async fn run(target: Arc<Target>, players: usize, plan: Plan) -> Result<bool, String> {
    let tally = Arc::new(Mutex::new(Tally::default()));
    let start = Instant::now();
    let tasks: Vec<_> = (0..players)
        .map(|i| {
            let addrs = target.addrs.clone();
            let tally = tally.clone();
            tokio::spawn(async move {
                if let Err(e) = player(addrs, i, plan, tally.clone()).await {
                    lock(&tally).errors.push(e);
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.map_err(|e| e.to_string())?;
    }
    let mut http = open_any(&target.addrs).await?;
    let deadline = Instant::now() + plan.timeout;
    while !finished(&mut http, plan.tournament).await? {
        if Instant::now() > deadline {
            lock(&tally).errors.push(format!(
                "tournament {}: not finished {:?} after the players stopped",
                plan.tournament, plan.timeout
            ));
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let (_, view) = http
        .request(
            "GET",
            &format!("/api/tournaments/{}", plan.tournament),
            None,
            None,
        )
        .await?;
    let t = std::mem::take(&mut *lock(&tally));
    println!(
        "sow-load: tournament {}: {players} players through {}, {:.0} s: {} games, {} moves, {} berserks, {} failovers, {} errors",
        plan.tournament,
        target.servers(),
        start.elapsed().as_secs_f64(),
        t.games,
        t.moves,
        t.berserks,
        t.failovers,
        t.errors.len()
    );
    println!(
        "sow-load: end of a game to the next pairing: {}",
        summary(t.to_next)
    );
    for e in t.errors.iter().take(10) {
        println!("sow-load: error: {e}");
    }
    println!(
        "{}",
        json!({"tournament": plan.tournament, "state": view["state"], "standings": view["standings"]})
    );
    Ok(t.errors.is_empty())
}
