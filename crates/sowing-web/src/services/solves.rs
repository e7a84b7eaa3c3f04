//! Budgeted solves in the background, for the opening explorer: `POST /api/explorer/solve`
//! queues a position beyond the tables, a worker (one by default, as for the analyses)
//! runs [`sowing_solve::solve::solve`] on it with a time and memory budget, and what it
//! proves — the position's bounds and those of the positions its moves lead to — joins the
//! explorer's [`Proofs`]. A run that cannot close the value in its budget still proves
//! bounds (the tests start from both ends of the interval). Kept in memory: a restart
//! forgets them, the certificates stay.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sowing::Position;
use sowing_solve::prove::Prover;
use sowing_solve::solve::{solve, Options, Order};
use sowing_tables::Tables;
use tokio::sync::Semaphore;

use crate::services::proofs::{Bounds, Proofs};

/// How the server runs solves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The longest a solve runs.
    pub budget: Duration,
    /// The prover's memory (its store of claims and table of unknowns), bytes.
    pub memory: usize,
    /// Solves run at once (each on one thread).
    pub workers: usize,
    /// Solves waiting or running at most; more are refused (429).
    pub max_jobs: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            budget: Duration::from_secs(30),
            memory: 128 << 20,
            workers: 1,
            max_jobs: 8,
        }
    }
}

/// A solve waiting or running.
pub struct Job {
    /// Nodes searched so far.
    pub nodes: AtomicU64,
    /// Whether a worker took it.
    pub running: AtomicBool,
    /// Its budget.
    pub budget: Duration,
}

/// Why a solve could not be queued.
pub enum QueueError {
    /// Too many solves wait or run.
    Full,
}

/// The solves waiting or running, by position text.
pub struct Solves {
    settings: Settings,
    jobs: Arc<Mutex<HashMap<String, Arc<Job>>>>,
    workers: Arc<Semaphore>,
}

impl Default for Solves {
    fn default() -> Solves {
        Solves::new(Settings::default())
    }
}

impl Solves {
    /// No solves yet, run as `settings` say.
    pub fn new(settings: Settings) -> Solves {
        Solves {
            settings,
            jobs: Arc::default(),
            workers: Arc::new(Semaphore::new(settings.workers.max(1))),
        }
    }

    fn jobs(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Job>>> {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The solve of `position` under way here, if any.
    pub fn job(&self, position: &Position) -> Option<Arc<Job>> {
        self.jobs().get(&position.to_string()).cloned()
    }

    /// Queues a solve of `position` (more seeds than `tables` hold, not over) unless one is
    /// under way; the job either way. What it proves goes into `proofs`.
    ///
    /// # Errors
    /// When [`Settings::max_jobs`] solves already wait or run.
    pub fn queue(
        &self,
        position: Position,
        tables: Arc<Tables>,
        proofs: Arc<Proofs>,
    ) -> Result<Arc<Job>, QueueError> {
        let text = position.to_string();
        let job = {
            let mut jobs = self.jobs();
            if let Some(job) = jobs.get(&text) {
                return Ok(job.clone());
            }
            if jobs.len() >= self.settings.max_jobs {
                return Err(QueueError::Full);
            }
            let job = Arc::new(Job {
                nodes: AtomicU64::new(0),
                running: AtomicBool::new(false),
                budget: self.settings.budget,
            });
            jobs.insert(text.clone(), job.clone());
            job
        };
        let jobs = self.jobs.clone();
        let workers = self.workers.clone();
        let settings = self.settings;
        let work = job.clone();
        tokio::spawn(async move {
            let Ok(_permit) = workers.acquire_owned().await else {
                return;
            };
            work.running.store(true, Ordering::Relaxed);
            let started = std::time::Instant::now();
            let counted = work.clone();
            let done = tokio::task::spawn_blocking(move || {
                run(&position, &tables, &proofs, settings, &counted.nodes)
            })
            .await;
            match done {
                Ok(Ok((lower, upper))) => tracing::info!(
                    position = %text,
                    lower,
                    upper,
                    nodes = work.nodes.load(Ordering::Relaxed),
                    seconds = started.elapsed().as_secs_f64(),
                    "solve done"
                ),
                Ok(Err(e)) => tracing::warn!(position = %text, error = %e, "solve refused"),
                Err(e) => tracing::error!(position = %text, error = %e, "solve failed"),
            }
            jobs.lock().unwrap_or_else(|e| e.into_inner()).remove(&text);
        });
        Ok(job)
    }
}

/// Solves `position` within the budget, keeping in `proofs` the bounds proven on it and on
/// the positions its moves lead to; its bounds.
///
/// # Errors
/// When the position is of other tables or too large for the index.
pub fn run(
    position: &Position,
    tables: &Tables,
    proofs: &Proofs,
    settings: Settings,
    nodes: &AtomicU64,
) -> Result<(i32, i32), sowing_solve::SolveError> {
    let mut prover = Prover::new(tables, settings.memory);
    prover.set_hook(Box::new(|p: &Prover<'_>| {
        nodes.store(p.nodes(), Ordering::Relaxed)
    }));
    let options = Options {
        max_time: Some(settings.budget),
        order: Order::FromEnds,
        ..Options::default()
    };
    let solution = solve(&mut prover, position, &options)?;
    nodes.store(prover.nodes(), Ordering::Relaxed);
    let keep = |p: &Position| {
        if p.is_over() || p.seeds_on_board() <= prover.leaf_seeds() {
            return;
        }
        let seeds = p.seeds_on_board() as i32;
        let (lo, hi) = prover.bounds(p);
        proofs.add(
            p,
            Bounds {
                lower: (lo > -seeds).then_some(lo),
                upper: (hi < seeds).then_some(hi),
            },
        );
    };
    keep(position);
    for (_, child) in position.successors() {
        keep(&child);
    }
    Ok((solution.lower, solution.upper))
}
