//! Engine work off the async runtime: each request runs on a blocking thread with a time
//! limit and a stop flag, and at most a few run at once, so a slow search never holds up the
//! requests that only play moves.
//!
//! Levels and `search` specs run on [`Engine`]s kept for the next request, so a request
//! reuses a table instead of allocating one. Each request starts a new game on its engine
//! (requests come from many games, in any order): the same position, spec and seed get the
//! same answer, as before the pool.
//!
//! With endgame tables ([`Engines::set_tables`]), levels 5–6 and `perfect` use them: a
//! position inside them is answered at once with its exact value, marked proven.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use sowing::{Game, Side};
use sowing_engine::{Engine, Info, Limits, PlayerSpec, Score, SearchSettings, TableSet};
use tokio::sync::Semaphore;

use crate::views::engine::{Answer, Evaluation};

/// The engine used for hints and the evaluation bar when the request names none.
pub const HINT_ENGINE: PlayerSpec = PlayerSpec::Level(6);

/// The longest an engine request may think.
pub const MAX_TIME: Duration = Duration::from_secs(30);

/// How long a search may overrun its time limit before the request gives up on it.
const GRACE: Duration = Duration::from_secs(2);

fn evaluation(score: Score, to_move: Side) -> Evaluation {
    let south = if to_move == Side::South {
        score
    } else {
        -score
    };
    Evaluation {
        kind: if score.is_proven() {
            "proven"
        } else {
            "estimate"
        },
        south: south.seeds(),
        text: score.to_string(),
    }
}

/// Why the engine could not answer.
#[derive(Debug)]
pub enum EngineError {
    /// The spec names no player this build knows.
    UnknownPlayer(String),
    /// Too many engine requests are running.
    Busy,
    /// The search did not come back in time even after being told to stop.
    NoAnswer,
}

/// Runs players with limits, a few at a time.
pub struct Engines {
    slots: Semaphore,
    /// Search engines between requests.
    idle: Arc<Pool>,
    /// The endgame tables, if any; replaced when tables built in the background are done.
    tables: RwLock<Option<Arc<TableSet>>>,
}

/// Idle search engines, at most one for each request that may run at once.
struct Pool {
    engines: Mutex<Vec<Engine>>,
    most: usize,
}

impl Pool {
    /// An idle engine set up for `settings` and `seed`, with nothing learnt: one with a
    /// table of the same size if there is one, else any, else a new one.
    fn take(&self, settings: SearchSettings, seed: u64) -> Engine {
        let mut engine = {
            let mut engines = self.engines.lock().unwrap_or_else(|e| e.into_inner());
            let same = engines
                .iter()
                .position(|e| e.settings().hash_mib == settings.hash_mib);
            match same {
                Some(at) => Some(engines.swap_remove(at)),
                None => engines.pop(),
            }
        }
        .unwrap_or_else(|| Engine::new(settings.clone(), seed));
        engine.set_settings(settings);
        engine.set_seed(seed);
        engine.new_game();
        engine
    }

    fn give_back(&self, engine: Engine) {
        let mut engines = self.engines.lock().unwrap_or_else(|e| e.into_inner());
        if engines.len() < self.most {
            engines.push(engine);
        }
    }
}

impl Engines {
    /// At most `parallel` searches at once (the machine's cores).
    pub fn new(parallel: usize) -> Engines {
        let parallel = parallel.max(1);
        Engines {
            slots: Semaphore::new(parallel),
            idle: Arc::new(Pool {
                engines: Mutex::new(Vec::new()),
                most: parallel,
            }),
            tables: RwLock::new(None),
        }
    }

    /// Gives the engines endgame tables (levels 5–6 and `perfect` use them).
    pub fn set_tables(&mut self, tables: Option<Arc<TableSet>>) {
        self.replace_tables(tables);
    }

    /// Replaces the tables while requests are served: requests that start afterwards use the
    /// new ones (the server's first-start build hands its tables over this way).
    pub fn replace_tables(&self, tables: Option<Arc<TableSet>>) {
        *self.tables.write().unwrap_or_else(|e| e.into_inner()) = tables;
    }

    /// The endgame tables, if any.
    pub fn tables(&self) -> Option<Arc<TableSet>> {
        self.tables
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The player `text` names, or [`HINT_ENGINE`] when it names none.
    pub fn spec(text: Option<&str>) -> Result<PlayerSpec, EngineError> {
        match text {
            Some(text) => text
                .parse::<PlayerSpec>()
                .map_err(|e| EngineError::UnknownPlayer(e.to_string())),
            None => Ok(HINT_ENGINE),
        }
    }

    /// The move `spec` chooses in `game` (which must not be over) within `time`.
    pub async fn choose(
        &self,
        spec: PlayerSpec,
        seed: u64,
        game: Game,
        time: Duration,
    ) -> Result<Answer, EngineError> {
        let time = time.min(MAX_TIME);
        // Queue behind running searches only briefly: a request that waits longer than its
        // own time limit is answered "busy" instead.
        let permit = tokio::time::timeout(time + GRACE, self.slots.acquire())
            .await
            .map_err(|_| EngineError::Busy)?
            .map_err(|_| EngineError::Busy)?;
        let stop = Arc::new(AtomicBool::new(false));
        let limits = Limits {
            time: Some(time),
            stop: Some(stop.clone()),
            ..Limits::default()
        };
        let pool = self.idle.clone();
        let tables = self.tables();
        let task = tokio::task::spawn_blocking(move || {
            let mut last: Option<Info> = None;
            let mut progress = |info: &Info| last = Some(info.clone());
            let (name, mv) = match spec.search_settings() {
                Some(settings) => {
                    let mut engine = pool.take(settings, seed);
                    engine.set_tables(tables);
                    let mv = engine.go(&game, &limits, &mut progress).best;
                    pool.give_back(engine);
                    (spec.to_string(), mv)
                }
                None => {
                    let mut player = spec.build_with_tables(seed, tables);
                    let mv = player.choose(&game, &limits, &mut progress);
                    (player.name(), mv)
                }
            };
            (name, mv, last, game)
        });
        let result = match tokio::time::timeout(time + GRACE, task).await {
            Ok(joined) => joined.ok(),
            Err(_) => {
                // Ask it to stop; the thread finishes on its own and its answer is dropped.
                stop.store(true, Ordering::Relaxed);
                None
            }
        };
        drop(permit);
        let (name, mv, info, game) = result.ok_or(EngineError::NoAnswer)?;
        let n = game.rules().pits_per_row();
        let to_move = game.position().to_move();
        Ok(Answer {
            engine: name,
            mv: mv.name(n).to_string(),
            score: info.as_ref().map(|i| evaluation(i.score, to_move)),
            depth: info.as_ref().map(|i| i.depth),
            nodes: info.as_ref().map(|i| i.nodes),
            pv: info
                .map(|i| i.pv.iter().map(|m| m.name(n).to_string()).collect())
                .unwrap_or_default(),
            chosen: Some(mv),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sowing::{Rules, Variant};

    #[test]
    fn evaluation_is_from_south() {
        let e = evaluation(Score::Estimate(250), Side::North);
        assert_eq!(e.south, -2.5);
        assert_eq!(e.kind, "estimate");
        let e = evaluation(Score::Proven(4), Side::South);
        assert_eq!(e.south, 4.0);
    }

    #[test]
    fn unknown_spec_is_an_error_and_the_default_is_the_hint_engine() {
        assert!(matches!(
            Engines::spec(Some("nonsense")),
            Err(EngineError::UnknownPlayer(_))
        ));
        assert_eq!(Engines::spec(None).ok(), Some(HINT_ENGINE));
        assert_eq!(HINT_ENGINE.to_string(), "level:6");
    }

    #[tokio::test]
    async fn a_search_engine_is_kept_and_each_request_starts_clean() {
        let engines = Engines::new(1);
        let mut game = Game::new(Rules::new(Variant::Ayoayo));
        game.play(game.parse_move("C").unwrap()).unwrap();
        let mut answers = Vec::new();
        for _ in 0..2 {
            // Level 4 stops at 15,000 nodes, long before the time limit.
            let answer = engines
                .choose(PlayerSpec::Level(4), 7, game.clone(), MAX_TIME)
                .await
                .unwrap_or_else(|_| panic!("no answer"));
            answers.push((answer.mv, answer.nodes, answer.pv));
            assert_eq!(engines.idle.engines.lock().unwrap().len(), 1);
        }
        // A table kept from the first request would have cut the second one short.
        assert_eq!(answers[0], answers[1]);
    }

    #[tokio::test]
    async fn with_tables_a_position_inside_them_is_answered_exactly() {
        let dir = std::env::temp_dir().join(format!("sowing-web-tables-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let rules = Rules::new(Variant::HoyitoII);
        sowing_tables::build::build(&dir, rules, 6, &sowing_tables::build::Options::all_layers())
            .unwrap();
        let tables = sowing_tables::Tables::open(&dir, rules).unwrap();
        let mut engines = Engines::new(1);
        engines.set_tables(Some(Arc::new(TableSet::open(&dir).unwrap())));
        let family = tables.family();
        let mut checked = 0;
        for index in (0..family.layer_len(6)).step_by(97) {
            let pos = family.position(6, index);
            if pos.is_over() {
                continue;
            }
            let probe = tables.probe(&pos).unwrap();
            for (spec, exact) in [(HINT_ENGINE, true), (PlayerSpec::Level(4), false)] {
                let answer = engines
                    .choose(spec, 1, Game::from_position(pos), MAX_TIME)
                    .await
                    .unwrap_or_else(|_| panic!("no answer"));
                if exact {
                    let score = answer.score.unwrap();
                    assert_eq!(score.kind, "proven");
                    assert_eq!(score.south, f64::from(probe.value));
                    let mv = answer.chosen.unwrap();
                    assert!(probe.moves.contains(&(mv, probe.value)), "{pos}");
                } else {
                    // Level 4 never uses the tables: it searches (6 plies at most).
                    assert!(answer.depth.unwrap() > 1 || answer.nodes.unwrap() > 1);
                }
            }
            checked += 1;
        }
        assert!(checked > 50, "{checked}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[tokio::test]
    async fn greedy_answers_a_legal_move() {
        let engines = Engines::new(1);
        let game = Game::new(Rules::new(Variant::HoyitoII));
        let answer = engines
            .choose(
                "greedy".parse().unwrap(),
                1,
                game.clone(),
                Duration::from_millis(100),
            )
            .await
            .unwrap_or_else(|_| panic!("no answer"));
        assert!(game.legal_moves().contains(&answer.chosen.unwrap()));
    }
}
