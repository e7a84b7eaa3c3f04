//! Memory per idle live game: creates N live games (both seats taken, no move played),
//! opens their three sockets (South, North, a spectator), waits, and reads the server's
//! resident memory (`VmRSS` in `/proc/PID/status`) before, with the sockets open, and
//! after they closed (the games left in the server's memory only).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use crate::http::Connection;
use crate::live::{create, Plan};
use crate::socket::LiveSocket;
use crate::{variant_of, Target};

/// Connections creating games at once, and sockets connecting at once.
const WORKERS: usize = 32;

/// The resident memory of process `pid`, in KiB.
fn vm_rss_kib(pid: u32) -> Result<u64, String> {
    let path = format!("/proc/{pid}/status");
    let status = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .ok_or_else(|| format!("{path}: no VmRSS line"))
}

/// A socket held open until told to close; reports whether it stayed open throughout.
async fn hold(mut socket: LiveSocket, mut stop: watch::Receiver<bool>) -> Result<(), String> {
    loop {
        tokio::select! {
            _ = async { let _ = stop.wait_for(|&s| s).await; } => {
                socket.close().await;
                return Ok(());
            }
            // Status messages (spectators coming) and pings: read and forgotten; a close or
            // an error while idle is a failure.
            message = socket.next() => {
                if let Err(e) = message {
                    if e.contains("no message for") {
                        continue;
                    }
                    return Err(e);
                }
            }
        }
    }
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

/// Per game, in KiB, from `before` to `after` (KiB).
fn per_game(before: u64, after: u64, games: usize) -> f64 {
    (after as f64 - before as f64) / games as f64
}

/// Runs the idle measurement; true when every socket opened and stayed open.
pub async fn run(
    target: Arc<Target>,
    games: usize,
    game: Option<&str>,
    pid: u32,
    settle: Duration,
    plan: Plan,
) -> Result<bool, String> {
    let addr = target.addrs[0];
    println!(
        "sow-load: {games} idle live games (3 sockets each) on http://{addr}/, server pid {pid} …"
    );
    let before = vm_rss_kib(pid)?;

    // The games, WORKERS connections creating them.
    let next = Arc::new(AtomicUsize::new(0));
    let mut creators = Vec::new();
    for _ in 0..WORKERS.min(games) {
        let next = next.clone();
        let variants: Vec<String> = (0..games).map(|i| variant_of(game, i)).collect();
        creators.push(tokio::spawn(async move {
            let mut conn = Connection::open(addr).await?;
            let mut made = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= variants.len() {
                    return Ok::<_, String>(made);
                }
                made.push(create(&mut conn, &plan, &variants[i]).await?);
            }
        }));
    }
    let mut created = Vec::with_capacity(games);
    for creator in creators {
        created.extend(creator.await.map_err(|e| e.to_string())??);
    }
    let after_create = vm_rss_kib(pid)?;

    // Three sockets a game, WORKERS connecting at once; each then held open.
    let (stop_tx, stop_rx) = watch::channel(false);
    let connecting = Arc::new(tokio::sync::Semaphore::new(WORKERS));
    let (ready_tx, mut ready_rx) = tokio::sync::mpsc::unbounded_channel::<Result<(), String>>();
    let mut holders = Vec::with_capacity(games * 3);
    for (id, south, north) in created {
        for (token, who) in [
            (Some(south.clone()), "south"),
            (Some(north.clone()), "north"),
            (None, "spectator"),
        ] {
            let connecting = connecting.clone();
            let ready = ready_tx.clone();
            let stop = stop_rx.clone();
            let timeout = plan.timeout;
            holders.push(tokio::spawn(async move {
                let permit = connecting
                    .acquire_owned()
                    .await
                    .map_err(|e| e.to_string())?;
                let opened = LiveSocket::open(
                    addr,
                    id,
                    token.as_deref(),
                    timeout,
                    format!("game {id} {who}"),
                )
                .await;
                drop(permit);
                match opened {
                    Ok((socket, _state)) => {
                        let _ = ready.send(Ok(()));
                        hold(socket, stop).await
                    }
                    Err(e) => {
                        let _ = ready.send(Err(e.clone()));
                        Err(e)
                    }
                }
            }));
        }
    }
    drop(ready_tx);
    let mut open = 0;
    let mut errors = Vec::new();
    // One answer from each socket (the holders keep their senders while they hold on).
    for _ in 0..holders.len() {
        match ready_rx.recv().await {
            Some(Ok(())) => open += 1,
            Some(Err(e)) => errors.push(e),
            None => break,
        }
    }
    tokio::time::sleep(settle).await;
    let with_sockets = vm_rss_kib(pid)?;

    let _ = stop_tx.send(true);
    for holder in holders {
        if let Err(e) = holder.await.map_err(|e| e.to_string())? {
            errors.push(e);
        }
    }
    tokio::time::sleep(settle).await;
    let closed = vm_rss_kib(pid)?;

    for e in errors.iter().take(5) {
        eprintln!("sow-load: error: {e}");
    }
    println!("server VmRSS:   {:.1} MiB before, {:.1} MiB with the games created, {:.1} MiB with {open} sockets open, {:.1} MiB after they closed", mib(before), mib(after_create), mib(with_sockets), mib(closed));
    println!(
        "per idle game:  {:.1} KiB with its 3 sockets open, {:.1} KiB after they closed (the game in memory only)",
        per_game(before, with_sockets, games),
        per_game(before, closed, games)
    );
    println!("errors:         {}", errors.len());
    Ok(errors.is_empty() && open == games * 3)
}
