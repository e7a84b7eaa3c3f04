//! Analyses after the game, computed in the background: `POST /api/games/{id}/analysis`
//! queues one, a few workers (one by default, so that play stays quick) run them with
//! [`sowing_engine::analysis`] — the analysis `sow analyze --json` prints — and each is
//! kept in the store with the moves it analysed. `GET` answers with its progress while it
//! runs, and the analysis once kept for the game's moves as they are.
//!
//! The jobs waiting or running are this server's own (several servers sharing PostgreSQL
//! each see only theirs until the analysis is kept, when all of them serve it).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use sowing::Game;
use sowing_engine::analysis::analyse_game;
use sowing_engine::TableSet;
use tokio::sync::Semaphore;

use crate::store::Store;

pub use sowing_engine::analysis::DEFAULT_NODES;
/// The most analyses waiting or running at once on a server; more are refused (429).
pub const MAX_JOBS: usize = 32;

/// How the server analyses games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Nodes the engine searches in each position (`sow analyze --nodes N` gives the same
    /// figures).
    pub nodes: u64,
    /// Analyses run at once (each on one thread).
    pub workers: usize,
    /// Analyses waiting or running at most.
    pub max_jobs: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            nodes: DEFAULT_NODES,
            workers: 1,
            max_jobs: MAX_JOBS,
        }
    }
}

/// An analysis waiting or running.
pub struct Job {
    /// The moves it analyses ([`crate::store::moves_key`]).
    pub moves: String,
    /// Positions looked at so far.
    pub done: AtomicUsize,
    /// Positions to look at (the moves and one).
    pub total: usize,
    /// Whether a worker took it.
    pub running: AtomicBool,
}

/// Where an analysis of a game stands on this server.
pub enum Standing {
    /// Waiting or running.
    Working(Arc<Job>),
    /// No analysis of these moves is under way here.
    Idle,
}

/// Why an analysis could not be queued.
pub enum QueueError {
    /// Too many analyses wait or run.
    Full,
}

/// The analyses waiting or running, by game.
pub struct Analyses {
    settings: Settings,
    jobs: Arc<Mutex<HashMap<i64, Arc<Job>>>>,
    workers: Arc<Semaphore>,
}

impl Analyses {
    /// No analyses yet, run as `settings` say.
    pub fn new(settings: Settings) -> Analyses {
        Analyses {
            settings,
            jobs: Arc::new(Mutex::new(HashMap::new())),
            workers: Arc::new(Semaphore::new(settings.workers.max(1))),
        }
    }

    fn jobs(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Arc<Job>>> {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Where the analysis of game `id` with `moves` stands here.
    pub fn standing(&self, id: i64, moves: &str) -> Standing {
        match self.jobs().get(&id) {
            Some(job) if job.moves == moves => Standing::Working(job.clone()),
            _ => Standing::Idle,
        }
    }

    /// Queues the analysis of `game` (game `id`), unless one of the same moves is under way;
    /// the job either way. A worker runs it with `tables` and keeps it in `store`.
    ///
    /// # Errors
    /// When [`Settings::max_jobs`] analyses already wait or run.
    pub fn queue(
        &self,
        id: i64,
        game: Game,
        store: Arc<Store>,
        tables: Option<Arc<TableSet>>,
    ) -> Result<Arc<Job>, QueueError> {
        let moves = crate::store::moves_key(&game);
        let job = {
            let mut jobs = self.jobs();
            if let Some(job) = jobs.get(&id).filter(|job| job.moves == moves) {
                return Ok(job.clone());
            }
            if jobs.len() >= self.settings.max_jobs {
                return Err(QueueError::Full);
            }
            let job = Arc::new(Job {
                moves: moves.clone(),
                done: AtomicUsize::new(0),
                total: game.moves().len() + 1,
                running: AtomicBool::new(false),
            });
            // A job of other moves (the game changed) is replaced: it keeps running, but
            // what it keeps is not served for these moves.
            jobs.insert(id, job.clone());
            job
        };
        let jobs = self.jobs.clone();
        let workers = self.workers.clone();
        let nodes = self.settings.nodes;
        let running = job.clone();
        tokio::spawn(async move {
            let Ok(_permit) = workers.acquire_owned().await else {
                return;
            };
            running.running.store(true, Ordering::Relaxed);
            let work = running.clone();
            let result = tokio::task::spawn_blocking(move || {
                let body = run(&game, nodes, tables, &work.done);
                crate::store::off_runtime(|| store.save_analysis(id, &work.moves, &body))
            })
            .await;
            match result {
                Ok(Ok(())) => tracing::info!(game = id, "analysis kept"),
                Ok(Err(e)) => tracing::warn!(game = id, error = %e, "analysis not kept"),
                Err(e) => tracing::error!(game = id, error = %e, "analysis failed"),
            }
            let mut jobs = jobs.lock().unwrap_or_else(|e| e.into_inner());
            if jobs.get(&id).is_some_and(|job| Arc::ptr_eq(job, &running)) {
                jobs.remove(&id);
            }
        });
        Ok(job)
    }
}

/// The analysis of `game` as JSON, searching `nodes` in each position with the analysis
/// engine and `tables`, counting the positions done in `done`.
pub fn run(game: &Game, nodes: u64, tables: Option<Arc<TableSet>>, done: &AtomicUsize) -> String {
    let analysis = analyse_game(game, nodes, tables, &mut |(looked, _)| {
        done.store(looked, Ordering::Relaxed)
    });
    serde_json::to_string(&analysis).expect("an analysis is plain data")
}
