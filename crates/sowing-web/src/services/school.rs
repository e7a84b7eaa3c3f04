//! The school's state on a server (docs/web.md, "The school"): what is proven beyond the
//! tables, the solves under way, and the engines that estimate the explorer's other moves.

use std::sync::{Arc, Mutex};

use sowing_engine::{levels, Engine, SearchSettings, TableSet};
use tokio::sync::Semaphore;

use crate::services::proofs::Proofs;
use crate::services::solves::{Settings as SolveSettings, Solves};

/// The table of the estimating engine, MiB.
const ESTIMATE_HASH_MIB: usize = 4;

/// The school's state on a server: the proofs, the solves and the estimating engines.
pub struct School {
    /// What is proven beyond the tables.
    pub proofs: Arc<Proofs>,
    /// Solves waiting or running.
    pub solves: Solves,
    /// Estimates run one request at a time, on engines kept between requests.
    pub(crate) estimating: Semaphore,
    engines: Mutex<Vec<Engine>>,
}

impl Default for School {
    fn default() -> School {
        School::new(SolveSettings::default())
    }
}

impl School {
    /// Nothing solved yet; solves run as `settings` say.
    pub fn new(settings: SolveSettings) -> School {
        School {
            proofs: Arc::default(),
            solves: Solves::new(settings),
            estimating: Semaphore::new(1),
            engines: Mutex::default(),
        }
    }

    /// An engine for estimates (level 6's settings) with the server's tables `set`.
    pub(crate) fn engine(&self, set: Option<&Arc<TableSet>>) -> Engine {
        let mut engine = self
            .engines
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_else(|| {
                // 20,000 nodes fill little of a table: a small one, cleared before each move
                // so that a move's estimate does not depend on the moves asked before it.
                let settings = SearchSettings {
                    hash_mib: ESTIMATE_HASH_MIB,
                    ..levels::settings(6)
                };
                Engine::new(settings, 0)
            });
        engine.set_tables(set.cloned());
        engine
    }

    /// Keeps `engine` for the next request (one is enough: estimates run one at a time).
    pub(crate) fn give_back(&self, engine: Engine) {
        let mut engines = self.engines.lock().unwrap_or_else(|e| e.into_inner());
        if engines.is_empty() {
            engines.push(engine);
        }
    }
}
