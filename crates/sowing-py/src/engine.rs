//! `sowing.Engine`: the engine crate's `Engine` (levels and searches) and its other players,
//! searching with the GIL released.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::prelude::*;
use sowing::Move;
use sowing_engine::{Info, Limits, Player, PlayerSpec, Score};

use pyo3::types::PyTuple;

use crate::game::Game;
use crate::interrupt::interruptible;
use crate::{count, IllegalMoveError, SowingError};

/// What a search found.
#[pyclass(
    module = "sowing",
    name = "Analysis",
    frozen,
    get_all,
    skip_from_py_object
)]
pub struct Analysis {
    /// The best move, by name.
    best: String,
    /// Its value for the side to move, in seeds: an estimate of the final margin, or the
    /// proven margin when `proven`. `None` for players that do not value positions
    /// (random, greedy).
    score: Option<f64>,
    /// Whether `score` is proven (the margin with best play from both sides).
    proven: bool,
    /// The score as the engine prints it: `+1.25`, `win by 4`, `draw` …
    score_text: Option<String>,
    /// The principal variation, best move first, by name.
    pv: Vec<String>,
    /// Deepest iteration completed (0 when the player does not search).
    depth: u32,
    /// Nodes searched (0 when the player does not search).
    nodes: u64,
}

#[pymethods]
impl Analysis {
    fn __repr__(&self) -> String {
        format!(
            "Analysis(best={:?}, score={}, pv={:?}, depth={}, nodes={})",
            self.best,
            self.score_text.as_deref().unwrap_or("None"),
            self.pv,
            self.depth,
            self.nodes
        )
    }
}

enum Brain {
    /// The engine facade (levels and `search:` specs): a full analysis, its table kept
    /// from one search to the next until `new_game` (or a game under other rules).
    Search(Box<sowing_engine::Engine>),
    /// Any other player: its move, and its last progress report if it gives one.
    Other(Box<dyn Player>),
}

/// A computer player of the engine crate: `Engine(level=4)`, `Engine(movetime=100)`
/// (milliseconds, full strength), `Engine(nodes=20000)`, or any player by name
/// (`Engine(player="mcts")`, `"greedy"`, `"random"`, `"search:depth=6"`).
///
/// Levels 1–5 and node or depth limits play the same move every time for a given `seed`;
/// a time limit depends on the machine. Searches release the GIL.
#[pyclass(module = "sowing", name = "Engine")]
pub struct Engine {
    /// The constructor's arguments: for `repr`, copies and pickles (a new engine from
    /// them: what the search learnt is not carried over).
    args: EngineArgs,
    spec: PlayerSpec,
    /// The limits of every move, with the stop flag that Ctrl-C sets.
    limits: Limits,
    brain: Mutex<Brain>,
}

/// The arguments an `Engine` was made with.
#[derive(Clone)]
struct EngineArgs {
    level: Option<u8>,
    movetime: Option<u64>,
    nodes: Option<u64>,
    depth: Option<u32>,
    player: Option<String>,
    seed: u64,
}

fn score_parts(score: Score) -> (f64, bool, String) {
    match score {
        Score::Estimate(centi) => (f64::from(centi) / 100.0, false, score.to_string()),
        Score::Proven(margin) => (f64::from(margin), true, score.to_string()),
    }
}

#[pymethods]
impl Engine {
    /// A player: `level` (1–6), or the full search with `movetime` (ms), `nodes` or `depth`
    /// caps, or `player` by name as on the command line (`sow play --south …`). With no
    /// argument, level 6 at 100 ms a move. `seed` decides whatever randomness it uses.
    #[new]
    #[pyo3(signature = (level = None, *, movetime = None, nodes = None, depth = None, player = None, seed = 0))]
    fn new(
        level: Option<i64>,
        movetime: Option<i64>,
        nodes: Option<i64>,
        depth: Option<i64>,
        player: Option<&str>,
        seed: i64,
    ) -> PyResult<Engine> {
        let level = level
            .map(|level| {
                u8::try_from(level).map_err(|_| {
                    SowingError::new_err(format!(
                        "level must be 1 (beginner) to 6 (full strength), not {level}"
                    ))
                })
            })
            .transpose()?;
        let movetime = movetime.map(|v| count("movetime", v)).transpose()?;
        let nodes = nodes.map(|v| count("nodes", v)).transpose()?;
        let depth = depth
            .map(|v| count("depth", v).map(|d| d.min(u64::from(u32::MAX)) as u32))
            .transpose()?;
        let seed = count("seed", seed)?;
        let args = EngineArgs {
            level,
            movetime,
            nodes,
            depth,
            player: player.map(str::to_owned),
            seed,
        };
        let spec_error = |e: sowing_engine::SpecError| SowingError::new_err(e.to_string());
        let spec = match (level, player) {
            (Some(_), Some(_)) => {
                return Err(SowingError::new_err(
                    "give either level or player, not both",
                ))
            }
            (Some(level), None) => format!("level:{level}").parse().map_err(spec_error)?,
            (None, Some(name)) => name.parse().map_err(spec_error)?,
            (None, None) => PlayerSpec::Level(6),
        };
        let mut limits = Limits {
            time: movetime.map(Duration::from_millis),
            nodes,
            depth,
            stop: Some(Arc::new(AtomicBool::new(false))),
            ..Limits::default()
        };
        if level.is_none()
            && player.is_none()
            && movetime.is_none()
            && nodes.is_none()
            && depth.is_none()
        {
            limits.time = Some(Duration::from_millis(100));
        }
        let brain = match spec.build_engine(seed) {
            Some(engine) => Brain::Search(Box::new(engine)),
            None => Brain::Other(spec.build(seed)),
        };
        Ok(Engine {
            args,
            spec,
            limits,
            brain: Mutex::new(brain),
        })
    }

    /// The player's name, as `sow match` writes it (`level:4`, `mcts`, …).
    #[getter]
    fn name(&self) -> String {
        self.spec.to_string()
    }

    /// Searches the game's position and says what it found. Raises `IllegalMoveError` when
    /// the game is over.
    fn analyse(&self, py: Python<'_>, game: PyRef<'_, Game>) -> PyResult<Analysis> {
        if game.inner.is_over() {
            return Err(IllegalMoveError::new_err(
                "the game is over: there is no move to choose",
            ));
        }
        let copy = game.inner.clone();
        drop(game);
        let n = copy.rules().pits_per_row();
        let name = |mv: Move| mv.name(n).to_string();
        let limits = self.limits.clone();
        let brain = &self.brain;
        let search = move || {
            let mut brain = brain.lock().unwrap_or_else(|p| p.into_inner());
            match &mut *brain {
                Brain::Search(search) => {
                    let result = search.go(&copy, &limits, &mut |_| {});
                    (
                        result.best,
                        Some(result.score),
                        result.pv,
                        result.depth,
                        result.nodes,
                    )
                }
                Brain::Other(player) => {
                    let mut last: Option<Info> = None;
                    let best = player.choose(&copy, &limits, &mut |info| last = Some(info.clone()));
                    match last {
                        Some(info) if info.pv.first() == Some(&best) => {
                            (best, Some(info.score), info.pv, info.depth, info.nodes)
                        }
                        _ => (best, None, vec![best], 0, 0),
                    }
                }
            }
        };
        let (best, score, pv, depth, nodes) = if self.may_take_long() {
            let stop = self.limits.stop.as_deref().expect("an engine's stop flag");
            interruptible(py, stop, search)?
        } else {
            py.detach(search)
        };
        let (score, proven, score_text) = match score.map(score_parts) {
            Some((value, proven, text)) => (Some(value), proven, Some(text)),
            None => (None, false, None),
        };
        let mut pv: Vec<String> = pv.into_iter().map(name).collect();
        if pv.is_empty() {
            pv.push(name(best));
        }
        Ok(Analysis {
            best: name(best),
            score,
            proven,
            score_text,
            pv,
            depth,
            nodes,
        })
    }

    /// The move it would play, by name.
    fn best_move(&self, py: Python<'_>, game: PyRef<'_, Game>) -> PyResult<String> {
        Ok(self.analyse(py, game)?.best)
    }

    /// Forgets what it learnt (its transposition table, histories): for a new game.
    fn new_game(&self) {
        let mut brain = self.brain.lock().unwrap_or_else(|p| p.into_inner());
        match &mut *brain {
            Brain::Search(search) => search.new_game(),
            Brain::Other(player) => player.new_game(),
        }
    }

    /// The limits of every move in milliseconds, nodes and plies (`None`: not limited by
    /// that; a level adds its own caps of nodes and depth).
    #[getter]
    fn limits(&self) -> (Option<u64>, Option<u64>, Option<u32>) {
        (
            self.limits.time.map(|t| t.as_millis() as u64),
            self.limits.nodes,
            self.limits.depth,
        )
    }

    /// The call that makes this engine, its limits and seed included.
    fn __repr__(&self) -> String {
        let a = &self.args;
        let mut parts = Vec::new();
        match (&a.level, &a.player) {
            (Some(level), _) => parts.push(format!("level={level}")),
            (None, Some(player)) => parts.push(format!("player={player:?}")),
            (None, None) => parts.push(format!("player={:?}", self.spec.to_string())),
        }
        if let Some(ms) = self.limits.time.map(|t| t.as_millis()) {
            parts.push(format!("movetime={ms}"));
        }
        if let Some(nodes) = a.nodes {
            parts.push(format!("nodes={nodes}"));
        }
        if let Some(depth) = a.depth {
            parts.push(format!("depth={depth}"));
        }
        if a.seed != 0 {
            parts.push(format!("seed={}", a.seed));
        }
        format!("Engine({})", parts.join(", "))
    }

    /// A new engine with the same arguments (what the search learnt is not copied).
    fn __copy__(&self) -> PyResult<Engine> {
        self.remade()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyResult<Engine> {
        self.remade()
    }

    /// Pickles as its arguments.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let a = slf.borrow().args.clone();
        let restore = py.get_type::<Engine>().getattr("_restore")?;
        let args = (a.level, a.movetime, a.nodes, a.depth, a.player, a.seed).into_pyobject(py)?;
        PyTuple::new(py, [restore, args.into_any()])
    }

    /// The engine of `__reduce__`'s arguments.
    #[staticmethod]
    fn _restore(
        level: Option<u8>,
        movetime: Option<u64>,
        nodes: Option<u64>,
        depth: Option<u32>,
        player: Option<String>,
        seed: u64,
    ) -> PyResult<Engine> {
        Engine::from_args(EngineArgs {
            level,
            movetime,
            nodes,
            depth,
            player,
            seed,
        })
    }
}

/// Nodes a search may take on the calling thread: a few milliseconds, too short to wait
/// for Ctrl-C.
const QUICK_NODES: u64 = 200_000;

impl Engine {
    /// Whether a move may take long enough that Ctrl-C must be able to stop it: not for
    /// random and greedy, nor for a search capped at a few milliseconds' nodes (levels
    /// 1–5), which run on the calling thread without the cost of another.
    fn may_take_long(&self) -> bool {
        let capped = |nodes: Option<u64>| nodes.is_some_and(|n| n <= QUICK_NODES);
        match &self.spec {
            PlayerSpec::Random | PlayerSpec::Greedy => false,
            spec => {
                let settings = spec.search_settings();
                !(capped(self.limits.nodes) || settings.is_some_and(|s| capped(s.nodes)))
            }
        }
    }

    fn remade(&self) -> PyResult<Engine> {
        Engine::from_args(self.args.clone())
    }

    fn from_args(a: EngineArgs) -> PyResult<Engine> {
        let to_i64 = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        Engine::new(
            a.level.map(i64::from),
            a.movetime.map(to_i64),
            a.nodes.map(to_i64),
            a.depth.map(i64::from),
            a.player.as_deref(),
            to_i64(a.seed),
        )
    }
}
