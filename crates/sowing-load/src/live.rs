//! The live mode: each game is a real game between two seats (docs/api.md, "Play a
//! friend"). South creates it, North holds the invitation's token, and three sockets
//! follow it: South's, North's and a spectator's, on different servers when several are
//! given (round-robin), so that every move crosses servers.
//!
//! Each seat learns the game from its own socket only: a replica (`sowing::Game`) plays
//! each `move` message and must reach the message's `after` position; the replica says
//! whose turn it is and which moves are legal. A seat moves (a random legal move, after
//! its think time) over its own keep-alive HTTP connection, then waits for its move to
//! come back on its socket before it moves again (an extra turn, H2.6). The latency of a
//! move runs from the moment its seat sends it to the moment the opponent's socket (and,
//! separately, the spectator's) receives it.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sowing::{Game, Rules, Side, Variant};
use sowing_engine::random::{legal_move, Rng};
use sowing_web::requests::{ClockRequest, LiveMoveRequest, NewLiveRequest};
use sowing_web::store::Database;

use crate::failover::{self, Failures, Sent, Servers};
use crate::http::{json_body, Connection};
use crate::replica::{apply, check_other, check_state};
use crate::socket::{LiveSocket, ServerMessage};
use crate::{play_all, variant_of, Target};

/// How the live games are played.
#[derive(Clone, Copy)]
pub struct Plan {
    /// The clock (base, increment) in ms, or unlimited.
    pub clock: Option<(u64, u64)>,
    /// Mean think time before each move, in ms: each is drawn uniformly from 0 to twice it.
    pub think_ms: u64,
    /// A game stops after this many moves (repetition ends games long before).
    pub max_moves: usize,
    /// Waiting longer than this for a socket message or an answer is an error.
    pub timeout: Duration,
    /// Ride out a database restarting or a server killed ([`failover`]).
    pub through_failures: bool,
}

impl Plan {
    /// The body of `POST /api/live` for this game.
    pub fn create_body(&self, variant: &str) -> serde_json::Value {
        json_body(&NewLiveRequest {
            game: variant.to_owned(),
            seat: Some("south".to_owned()),
            clock: self.clock.map(|(base_ms, increment_ms)| ClockRequest {
                base_ms: i64::try_from(base_ms).unwrap_or(i64::MAX),
                increment_ms: i64::try_from(increment_ms).unwrap_or(i64::MAX),
            }),
            ..NewLiveRequest::default()
        })
    }
}

/// What the game's clients measured and saw, kept outside their futures so that a client
/// that fails (and stops the others) leaves it whole.
#[derive(Default)]
struct Shared {
    /// When each ply was sent, by ply number (index 0 unused).
    sent: Vec<Option<Instant>>,
    /// Every move the server acknowledged: (ply, name).
    acked: Vec<(usize, String)>,
    /// Moves whose answer was lost in a failure but that a socket brought back: (ply, name).
    answer_lost: Vec<(usize, String)>,
    /// What the clients met, riding out failures.
    failures: Failures,
    /// Move sent → the opponent's socket.
    to_opponent: Vec<Duration>,
    /// Move sent → the spectator's socket.
    to_spectator: Vec<Duration>,
}

impl Shared {
    fn lock(shared: &Mutex<Shared>) -> std::sync::MutexGuard<'_, Shared> {
        shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn since_sent(&self, ply: usize, now: Instant) -> Option<Duration> {
        self.sent
            .get(ply)
            .copied()
            .flatten()
            .map(|sent| now.saturating_duration_since(sent))
    }
}

/// One live game's outcome.
pub struct Played {
    pub id: Option<i64>,
    /// The acknowledged moves, in ply order.
    pub acked: Vec<String>,
    /// The moves the spectator's socket brought (its replica's).
    pub watched: Vec<String>,
    pub to_opponent: Vec<Duration>,
    pub to_spectator: Vec<Duration>,
    pub failures: Failures,
    /// Of `acked`, the moves whose answer was lost (a socket brought them back).
    pub answer_lost: usize,
    pub error: Option<String>,
}

/// The servers of a game's three clients: South, North, the spectator.
fn servers_of(addrs: &[SocketAddr], game: usize) -> [SocketAddr; 3] {
    let at = |k: usize| addrs[(game * 3 + k) % addrs.len()];
    [at(0), at(1), at(2)]
}

/// One seat: follows the game on its socket and moves on its turns.
#[allow(clippy::too_many_arguments)]
async fn seat(
    side: Side,
    mut socket: LiveSocket,
    mut http: Connection,
    mut servers: Servers,
    token: &str,
    id: i64,
    rules: Rules,
    shared: &Mutex<Shared>,
    mut rng: Rng,
    plan: Plan,
) -> Result<(), String> {
    let mut replica = Game::new(rules);
    let who = socket.name.clone();
    let path = format!("/api/live/{id}/moves");
    // Our move is on its way back to our socket: wait for it before moving again.
    let mut sent_mine = false;
    // Our move whose answer a failure lost, until a socket brings it back: (ply, name).
    let mut unanswered: Option<(usize, String)> = None;
    let mut failures = Failures::default();
    let played = async {
        while !replica.is_over() && replica.moves().len() < plan.max_moves {
            if !sent_mine && replica.position().to_move() == side {
                if plan.think_ms > 0 {
                    let think = rng.below(u32::try_from(plan.think_ms * 2 + 1).unwrap_or(u32::MAX));
                    tokio::time::sleep(Duration::from_millis(u64::from(think))).await;
                }
                let mv = legal_move(&replica, &mut rng)
                    .ok_or_else(|| format!("{who}: no legal move in a game not over"))?;
                let name = mv.name(rules.pits_per_row()).to_string();
                let ply = replica.moves().len();
                {
                    let mut s = Shared::lock(shared);
                    if s.sent.len() <= ply + 1 {
                        s.sent.resize(ply + 2, None);
                    }
                    s.sent[ply + 1] = Some(Instant::now());
                }
                let body = json_body(&LiveMoveRequest {
                    mv: name.clone(),
                    ply,
                });
                let sent = failover::send_move(
                    &mut http,
                    &mut servers,
                    &path,
                    &body,
                    token,
                    plan.timeout,
                    plan.through_failures,
                    &mut failures,
                    &format!("{who}: ply {} ({name})", ply + 1),
                )
                .await?;
                match sent {
                    Sent::Acknowledged => Shared::lock(shared).acked.push((ply + 1, name)),
                    Sent::AnswerLost => unanswered = Some((ply + 1, name)),
                }
                sent_mine = true;
            }
            let message = match socket.next().await {
                Ok(message) => message,
                Err(_) if plan.through_failures => {
                    failures.reconnects += 1;
                    let (again, caught_up) =
                        failover::reopen(&mut servers, id, Some(token), plan.timeout, &who, rules)
                            .await?;
                    socket = again;
                    replica = caught_up;
                    confirm(&mut unanswered, &replica, shared, &who)?;
                    sent_mine = false;
                    continue;
                }
                Err(e) => return Err(e),
            };
            match message {
                ServerMessage::Move { mv } => {
                    apply(&mut replica, &mv, &who)?;
                    if mv.side == side.name() {
                        sent_mine = false;
                        confirm(&mut unanswered, &replica, shared, &who)?;
                    } else {
                        let now = Instant::now();
                        let mut s = Shared::lock(shared);
                        if let Some(latency) = s.since_sent(mv.ply, now) {
                            s.to_opponent.push(latency);
                        }
                    }
                }
                ServerMessage::Error { .. } if plan.through_failures => failures.socket_errors += 1,
                other => check_other(other, &replica, &who)?,
            }
        }
        Ok(())
    }
    .await;
    Shared::lock(shared).failures += failures;
    played?;
    if let Some((ply, name)) = unanswered {
        return Err(format!(
            "{who}: move {ply} ({name}) was never seen committed"
        ));
    }
    socket.close().await;
    Ok(())
}

/// Our move whose answer was lost, once the replica (the server's moves) has its ply: it
/// must be that move, and then it counts as committed.
fn confirm(
    unanswered: &mut Option<(usize, String)>,
    replica: &Game,
    shared: &Mutex<Shared>,
    who: &str,
) -> Result<(), String> {
    let Some((ply, name)) = unanswered.take_if(|(ply, _)| *ply <= replica.moves().len()) else {
        return Ok(());
    };
    let pits = replica.rules().pits_per_row();
    let stored = replica.moves()[ply - 1].name(pits).to_string();
    if stored != name {
        return Err(format!(
            "{who}: ply {ply}: sent {name}, but the server has {stored}"
        ));
    }
    Shared::lock(shared).answer_lost.push((ply, name));
    Ok(())
}

/// The spectator: follows the game on its socket; its replica's moves.
async fn spectator(
    mut socket: LiveSocket,
    mut servers: Servers,
    id: i64,
    rules: Rules,
    shared: &Mutex<Shared>,
    plan: Plan,
) -> Result<Vec<String>, String> {
    let mut replica = Game::new(rules);
    let who = socket.name.clone();
    while !replica.is_over() && replica.moves().len() < plan.max_moves {
        let message = match socket.next().await {
            Ok(message) => message,
            Err(_) if plan.through_failures => {
                Shared::lock(shared).failures.reconnects += 1;
                let (again, caught_up) =
                    failover::reopen(&mut servers, id, None, plan.timeout, &who, rules).await?;
                socket = again;
                replica = caught_up;
                continue;
            }
            Err(e) => return Err(e),
        };
        match message {
            ServerMessage::Move { mv } => {
                apply(&mut replica, &mv, &who)?;
                let now = Instant::now();
                let mut s = Shared::lock(shared);
                if let Some(latency) = s.since_sent(mv.ply, now) {
                    s.to_spectator.push(latency);
                }
            }
            ServerMessage::Error { .. } if plan.through_failures => {
                Shared::lock(shared).failures.socket_errors += 1;
            }
            other => check_other(other, &replica, &who)?,
        }
    }
    socket.close().await;
    let pits = rules.pits_per_row();
    Ok(replica
        .moves()
        .iter()
        .map(|m| m.name(pits).to_string())
        .collect())
}

/// Creates a live game on `addr` over `conn`: (id, South's token, North's token).
pub async fn create(
    conn: &mut Connection,
    plan: &Plan,
    variant: &str,
) -> Result<(i64, String, String), String> {
    let (status, seated) = conn
        .request("POST", "/api/live", Some(&plan.create_body(variant)), None)
        .await?;
    if status != 201 {
        return Err(format!("POST /api/live: {status} {seated}"));
    }
    let field = |name: &str| {
        seated[name]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("POST /api/live: no {name} in {seated}"))
    };
    let id = seated["live"]["id"]
        .as_i64()
        .ok_or_else(|| format!("POST /api/live: no live.id in {seated}"))?;
    Ok((id, field("token")?, field("invite")?))
}

/// Plays game number `index` to its end.
async fn play_one(
    target: Arc<Target>,
    index: usize,
    variant: String,
    seed: u64,
    plan: Plan,
) -> Played {
    let shared = Mutex::new(Shared::default());
    let mut id = None;
    let mut watched = Vec::new();
    let rules = Rules::new(variant.parse::<Variant>().expect("the variants are known"));
    let result: Result<(), String> = async {
        let [south_at, north_at, watch_at] = servers_of(&target.addrs, index);
        let mut south_http = Connection::open(south_at).await?;
        let (game, south_token, north_token) = create(&mut south_http, &plan, &variant).await?;
        id = Some(game);
        let north_http = Connection::open(north_at).await?;
        let name = |who: &str| format!("game {game} {who}");
        let (south, north, watcher) = tokio::try_join!(
            LiveSocket::open(
                south_at,
                game,
                Some(&south_token),
                plan.timeout,
                name("south")
            ),
            LiveSocket::open(
                north_at,
                game,
                Some(&north_token),
                plan.timeout,
                name("north")
            ),
            LiveSocket::open(watch_at, game, None, plan.timeout, name("spectator")),
        )?;
        check_state(&south.1, Some(Side::South), rules, &south.0.name)?;
        check_state(&north.1, Some(Side::North), rules, &north.0.name)?;
        check_state(&watcher.1, None, rules, &watcher.0.name)?;
        let ((), (), seen) = tokio::try_join!(
            seat(
                Side::South,
                south.0,
                south_http,
                Servers::new(&target.addrs, south_at),
                &south_token,
                game,
                rules,
                &shared,
                Rng::new(seed),
                plan
            ),
            seat(
                Side::North,
                north.0,
                north_http,
                Servers::new(&target.addrs, north_at),
                &north_token,
                game,
                rules,
                &shared,
                Rng::new(seed ^ 0x9e37_79b9_7f4a_7c15),
                plan
            ),
            spectator(
                watcher.0,
                Servers::new(&target.addrs, watch_at),
                game,
                rules,
                &shared,
                plan
            ),
        )?;
        watched = seen;
        Ok(())
    }
    .await;
    let shared = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    let answer_lost = shared.answer_lost.len();
    let mut acked = shared.acked;
    acked.extend(shared.answer_lost);
    acked.sort_by_key(|(ply, _)| *ply);
    let mut error = result.err();
    if error.is_none() && acked.iter().enumerate().any(|(i, (ply, _))| *ply != i + 1) {
        error = Some(format!(
            "game {id:?}: the acknowledged plies are not 1, 2, 3 …"
        ));
    }
    Played {
        id,
        acked: acked.into_iter().map(|(_, name)| name).collect(),
        watched,
        to_opponent: shared.to_opponent,
        to_spectator: shared.to_spectator,
        failures: shared.failures,
        answer_lost,
        error,
    }
}

/// Whether each game is whole on the server: over, at the acknowledged ply.
async fn complete_on_server(addrs: &[SocketAddr], results: &[Played]) -> Result<usize, String> {
    // The first server that answers (after a chaos test, one may be gone).
    let mut conn = None;
    for &addr in addrs {
        if let Ok(c) = Connection::open(addr).await {
            conn = Some(c);
            break;
        }
    }
    let mut conn = conn.ok_or("no server answers, to check the games")?;
    let mut complete = 0;
    for r in results {
        let Some(id) = r.id else { continue };
        let (status, view) = conn
            .request("GET", &format!("/api/live/{id}"), None, None)
            .await?;
        let ok = status == 200
            && view["game"]["state"]["over"] == true
            && view["live"]["ply"].as_u64() == Some(r.acked.len() as u64);
        if ok {
            complete += 1;
        } else {
            eprintln!("sow-load: game {id} is not complete on the server");
        }
    }
    Ok(complete)
}

/// Whether each game is whole in the database: finished, with exactly the acknowledged
/// moves, in order.
fn complete_in_db(db: &str, games: &[(Option<i64>, Vec<String>)]) -> Result<usize, String> {
    let store = Database::from(db)
        .open()
        .map_err(|e| format!("--db {db}: {e}"))?;
    let mut complete = 0;
    for (id, acked) in games {
        let Some(id) = *id else { continue };
        let stored = store.load(id).map_err(|e| e.to_string())?;
        let ok = stored.is_some_and(|(row, game)| {
            let pits = game.rules().pits_per_row();
            let moves: Vec<String> = game
                .moves()
                .iter()
                .map(|m| m.name(pits).to_string())
                .collect();
            row.result.is_some() && row.plies == acked.len() && moves == *acked
        });
        if ok {
            complete += 1;
        } else {
            eprintln!("sow-load: game {id} is not complete in the database");
        }
    }
    Ok(complete)
}

/// Plays `games` live games at once; prints the figures; true when all went well.
pub async fn run(
    target: Arc<Target>,
    games: usize,
    game: Option<&str>,
    seed: u64,
    plan: Plan,
) -> Result<bool, String> {
    println!(
        "sow-load: {games} live games at once (2 seats and a spectator each: {} sockets), think time {} ms on average, against {} …",
        games * 3,
        plan.think_ms,
        target.servers()
    );
    let (results, elapsed) = play_all(games, seed, |i, seed| {
        play_one(target.clone(), i, variant_of(game, i), seed, plan)
    })
    .await?;

    let moves: usize = results.iter().map(|r| r.acked.len()).sum();
    let mut errors: Vec<String> = results.iter().filter_map(|r| r.error.clone()).collect();
    for r in results.iter().filter(|r| r.error.is_none()) {
        if r.watched != r.acked {
            errors.push(format!(
                "game {:?}: the spectator saw {} moves, the seats had {} acknowledged",
                r.id,
                r.watched.len(),
                r.acked.len()
            ));
        }
    }
    for e in errors.iter().take(5) {
        eprintln!("sow-load: error: {e}");
    }
    let on_server = complete_on_server(&target.addrs, &results).await?;
    let mut complete = on_server == games;
    let mut db_checked = String::from("database not checked (give --db)");
    if let Some(db) = target.db.clone() {
        let games_acked: Vec<_> = results.iter().map(|r| (r.id, r.acked.clone())).collect();
        let in_db = tokio::task::spawn_blocking(move || complete_in_db(&db, &games_acked))
            .await
            .map_err(|e| e.to_string())??;
        complete &= in_db == games;
        db_checked = format!(
            "{in_db}/{games} games complete in the database (every acknowledged move, in order)"
        );
    }

    let seconds = elapsed.as_secs_f64();
    let to_opponent: Vec<Duration> = results
        .iter()
        .flat_map(|r| r.to_opponent.iter().copied())
        .collect();
    let to_spectator: Vec<Duration> = results
        .iter()
        .flat_map(|r| r.to_spectator.iter().copied())
        .collect();
    println!(
        "games:          {games} at once, {} finished without error",
        results.iter().filter(|r| r.error.is_none()).count()
    );
    println!(
        "moves:          {moves} in {seconds:.1} s = {:.0} moves/s",
        moves as f64 / seconds
    );
    println!("to opponent:    {}", crate::stats::summary(to_opponent));
    println!("to spectator:   {}", crate::stats::summary(to_spectator));
    if plan.through_failures {
        let mut met = Failures::default();
        for r in &results {
            met += r.failures;
        }
        let answer_lost: usize = results.iter().map(|r| r.answer_lost).sum();
        println!(
            "failures:       {} moves refused (503 store-unavailable, sent again), {} reconnects, {} socket error messages, {answer_lost} moves whose answer was lost (seen committed)",
            met.refused, met.reconnects, met.socket_errors
        );
    }
    println!("errors:         {}", errors.len());
    println!("complete:       {on_server}/{games} games complete on the server; {db_checked}");
    Ok(errors.is_empty() && complete)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_games_three_clients_sit_on_different_servers_in_turn() {
        let a: SocketAddr = "127.0.0.1:1".parse().unwrap();
        let b: SocketAddr = "127.0.0.1:2".parse().unwrap();
        assert_eq!(servers_of(&[a, b], 0), [a, b, a]);
        assert_eq!(servers_of(&[a, b], 1), [b, a, b]);
        assert_eq!(servers_of(&[a], 5), [a, a, a]);
    }
}
