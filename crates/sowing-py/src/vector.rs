//! `sowing._sowing.VectorGame`: the core of `sowing.vector`'s environments. Many games in
//! which one agent plays against an opponent whose replies are played inside the step, in
//! Rust: a trainer sees only the agent's turns, as with the single Gymnasium environment,
//! without a Python call per game. The opponent may also be Python policies (a league),
//! asked once a step for all the games where each is to move, or no one: in self-play the
//! agent plays both sides.
//!
//! Each game is a [`Seat`] (`seat.rs`); [`runner`](crate::runner) steps them, on this
//! thread or on the batch's own thread pool, with the GIL released; `send` starts a step
//! there and returns, `recv` waits for it (while the trainer computes in between).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use rayon::ThreadPool;
use sowing::{Move, Position, Rules, Side};
use sowing_engine::random::Rng;
use sowing_engine::{PlayerSpec, SearchSettings};

use crate::actions::integer_actions;
use crate::buffer::{Buffer, Buffer1, Buffer2};
use crate::game::{side_arg, Game};
use crate::memory::{alloc_with, check_memory};
use crate::runner::{run, Job, Out};
use crate::seat::{legal_action, Autoreset, Opponent, Scoring, Seat, Shared};
use crate::{game_index, observe, rules_from, size, IllegalMoveError, ParseError, SowingError};

/// How often a wait for the games looks at Python's signals (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// The games of a batch on their way back from a worker thread, with the actions' buffer.
type Returned = std::thread::Result<(Vec<Seat>, Vec<i64>)>;

/// Games of one agent against an opponent played inside each step: the core of
/// `sowing.vector` (use its `SowingVectorEnv`, `SowingVecEnv` or `SelfPlayVectorEnv`).
///
/// After `reset()` and every `step(actions)` (or `send(actions)` then `recv()`), these
/// arrays (the same objects, overwritten) describe the games: `observations` float32
/// `(n, 2N + 8)` from the agent's point of view (in self-play, the side to move's);
/// `masks` int8 `(n, N)`, the agent's legal columns (all of them once a game is over: its
/// next action is ignored); `rewards` float32 `(n,)`, the reward of the side that acted;
/// `seat_rewards` float32 `(n, 2)`, South's and North's rewards of the step (opposites:
/// the margin is zero-sum); `terminations` bool `(n,)`; `final_observations` float32
/// `(n, 2N + 8)`, the last observation of the games that ended at this step in `same-step`
/// mode; `agents` int8 `(n,)`, the agent's side (0 South, 1 North; in self-play, the side
/// to move). Between `send` and `recv` the arrays are being written: read them after.
#[pyclass(module = "sowing", name = "VectorGame")]
pub struct VectorGame {
    seats: Vec<Seat>,
    /// Games in the batch (`seats` is empty while they are away on the workers).
    games: usize,
    shared: Arc<Shared>,
    /// The opponent's policies (`Opponent::Policies`), a league's members in order.
    policies: Vec<Py<PyAny>>,
    spec_name: String,
    seed: Option<u64>,
    /// Whether the games' generators were seeded (the constructor's reset does it).
    seeded: bool,
    /// Threads that step the games (1: the calling thread alone).
    threads: usize,
    /// The engine opponents' tables, all games together (MiB).
    engine_memory: usize,
    /// The batch's own workers, when it steps on `threads` of them (or has engines).
    pool: Option<Arc<ThreadPool>>,
    /// The one worker that steps the games for `send` when there is no pool.
    worker: Option<Arc<ThreadPool>>,
    /// The games come back from a worker through this channel (the receiver in a mutex
    /// only to make the batch `Sync` for Python: one thread at a time holds the batch).
    sender: Sender<Returned>,
    receiver: Mutex<Receiver<Returned>>,
    /// Whether a step runs on the workers (the games are away, `recv` brings them back).
    in_flight: bool,
    /// Why the games need a reset before the next step, if they do (a step cut short).
    broken: Option<String>,
    /// The actions' buffer handed to the workers, kept between steps.
    actions: Vec<i64>,
    obs: Buffer2<f32>,
    final_obs: Buffer2<f32>,
    rewards: Buffer1<f32>,
    seat_rewards: Buffer2<f32>,
    terminations: Buffer1<bool>,
    masks: Buffer2<i8>,
    agents: Buffer1<i8>,
}

impl VectorGame {
    fn out(&self, py: Python<'_>) -> Out {
        Out {
            obs: self.obs.data(py),
            final_obs: self.final_obs.data(py),
            rewards: self.rewards.data(py),
            seat_rewards: self.seat_rewards.data(py),
            terminations: self.terminations.data(py),
            masks: self.masks.data(py),
            agents: self.agents.data(py),
            size: observe::size(self.shared.n),
            n: self.shared.n,
        }
    }

    /// Seeds every game's generator from `seed` (each its own stream, a jump of the one
    /// before), or from the operating system, and gives each its first seat and, for an
    /// engine opponent, a new engine seeded from its generator.
    fn seed_all(&mut self, seed: Option<u64>) {
        let mut master = seed.map_or_else(Rng::from_entropy, Rng::new);
        let shared = &self.shared;
        for (index, seat) in self.seats.iter_mut().enumerate() {
            seat.rng = master.clone();
            master.jump();
            // `restart` turns the seat over when it alternates: even games start South.
            let first = if index % 2 == 0 {
                Side::South
            } else {
                Side::North
            };
            seat.agent = shared.seat.map_or(!first, |side| !side);
            if let Opponent::Engine(_) = &shared.opponent {
                let engine_seed = seat.rng.next_u64();
                seat.build_engine(shared, engine_seed);
            }
        }
    }

    /// Refuses to touch the games while a step runs on the workers, or (`stepping`) to
    /// step them when a step was cut short.
    fn check_idle(&self, stepping: bool) -> PyResult<()> {
        if self.in_flight {
            return Err(SowingError::new_err(
                "a step is under way (send): call recv() for its results first",
            ));
        }
        if let (true, Some(why)) = (stepping, &self.broken) {
            return Err(SowingError::new_err(format!(
                "the games need reset() before the next step: {why}"
            )));
        }
        Ok(())
    }

    /// Chunks of games for the workers: one game each for an engine opponent (a search
    /// takes long, and the lengths vary), else a few chunks a thread.
    fn chunk(&self) -> Option<usize> {
        if self.threads <= 1 {
            return None;
        }
        Some(match self.shared.opponent {
            Opponent::Engine(_) => 1,
            _ => self.seats.len().div_ceil(self.threads * 4).max(1),
        })
    }

    /// The actions of a step, one integer a game, checked against the legal columns when
    /// illegal actions raise: into `self.actions`.
    fn take_actions(&mut self, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let array = integer_actions(actions, self.seats.len())?;
        let actions = array.as_slice()?;
        let n = self.shared.n;
        if !self.shared.illegal_loses {
            let refused = self.seats.iter().zip(actions).position(|(seat, &action)| {
                !seat.over && !legal_action(seat.slot.legal, action, n)
            });
            if let Some(index) = refused {
                let seat = &self.seats[index];
                return Err(IllegalMoveError::new_err(format!(
                    "game {index}: action {} is not legal (legal: {:?}; position {})",
                    actions[index],
                    (0..n)
                        .filter(|c| (seat.slot.legal >> c) & 1 == 1)
                        .collect::<Vec<_>>(),
                    seat.slot.position
                )));
            }
        }
        self.actions.clear();
        self.actions.extend_from_slice(actions);
        Ok(())
    }

    /// Does `job` to the games: on this thread, or on the workers while this thread waits
    /// (and listens for Ctrl-C).
    fn execute(&mut self, py: Python<'_>, job: Job) -> PyResult<()> {
        if self.pool.is_none() {
            let out = self.out(py);
            let shared = &*self.shared;
            let seats = &mut self.seats;
            let job = py.detach(|| {
                run(seats, shared, out, &job, None);
                job
            });
            self.actions = job.into_actions();
            return Ok(());
        }
        self.launch(py, job)?;
        self.wait(py)
    }

    /// Hands the games and `job` to the workers and returns at once.
    fn launch(&mut self, py: Python<'_>, job: Job) -> PyResult<()> {
        let pool = match (&self.pool, &self.worker) {
            (Some(pool), _) | (None, Some(pool)) => Arc::clone(pool),
            (None, None) => Arc::clone(self.worker.insert(Arc::new(new_pool(1)?))),
        };
        let mut seats = std::mem::take(&mut self.seats);
        let shared = Arc::clone(&self.shared);
        let out = self.out(py);
        let chunk = self.chunk();
        let back = self.sender.clone();
        self.in_flight = true;
        pool.spawn(move || {
            let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run(&mut seats, &shared, out, &job, chunk);
                (seats, job.into_actions())
            }));
            // The batch waits for this message; it cannot be gone (its drop waits too).
            let _ = back.send(done);
        });
        Ok(())
    }

    /// Waits for the games to come back from the workers. A Ctrl-C meanwhile stops the
    /// engines' searches (each plays its best move so far), and once the games are back
    /// raises `KeyboardInterrupt`; the games then need a reset.
    fn wait(&mut self, py: Python<'_>) -> PyResult<()> {
        let mut interrupted = None;
        let returned = loop {
            let receiver = &self.receiver;
            let answer = py.detach(|| {
                let receiver = receiver.lock().unwrap_or_else(|p| p.into_inner());
                receiver.recv_timeout(SIGNAL_POLL)
            });
            match answer {
                Ok(returned) => break returned,
                Err(RecvTimeoutError::Timeout) => {
                    if interrupted.is_none() {
                        if let Err(signal) = py.check_signals() {
                            self.shared.stop.store(true, Ordering::Relaxed);
                            interrupted = Some(signal);
                        }
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    unreachable!("the batch holds a sender of its own channel")
                }
            }
        };
        self.in_flight = false;
        self.shared.stop.store(false, Ordering::Relaxed);
        match returned {
            Ok((seats, actions)) => {
                self.seats = seats;
                self.actions = actions;
            }
            Err(panic) => {
                // A bug: the games are lost; fresh ones wait for a reset.
                let start = self.shared.start;
                self.seats = alloc_with(self.games, || Seat::new(start))?;
                self.seeded = false;
                self.broken = Some("a step failed inside the engine (a bug)".into());
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                return Err(pyo3::panic::PanicException::new_err(what));
            }
        }
        if let Some(signal) = interrupted {
            self.broken = Some("a step was interrupted (KeyboardInterrupt)".into());
            return Err(signal);
        }
        Ok(())
    }
}

/// A thread pool of `threads` workers for one batch.
fn new_pool(threads: usize) -> PyResult<ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("sowing-vector-{i}"))
        .build()
        .map_err(|e| SowingError::new_err(format!("no thread pool of {threads} threads: {e}")))
}

impl Drop for VectorGame {
    fn drop(&mut self) {
        // The workers write into this batch's arrays: let a step under way end first.
        if self.in_flight {
            let receiver = self.receiver.get_mut().unwrap_or_else(|p| p.into_inner());
            let _ = receiver.recv();
        }
    }
}

/// `VectorGame.__reduce__`'s settings: the start position (its text), games, opponent,
/// agent, reward, illegal action, autoreset, the constructor's seed, whether the
/// generators were seeded, threads and the engines' memory.
type RestoredSettings = (
    String,
    usize,
    String,
    String,
    String,
    String,
    String,
    Option<u64>,
    bool,
    usize,
    usize,
);

/// A game of `VectorGame.__reduce__`: its columns played, the agent's side (0 South,
/// 1 North), whether it is over, its generator's state and its engine's seed.
type RestoredSeat<'py> = (Bound<'py, pyo3::types::PyBytes>, u8, bool, [u64; 4], u64);

/// `VectorGame.__reduce__`'s arrays: observations, final observations, rewards, seats'
/// rewards, terminations, masks, agents.
type RestoredArrays<'py> = (
    PyReadonlyArray2<'py, f32>,
    PyReadonlyArray2<'py, f32>,
    PyReadonlyArray1<'py, f32>,
    PyReadonlyArray2<'py, f32>,
    PyReadonlyArray1<'py, bool>,
    PyReadonlyArray2<'py, i8>,
    PyReadonlyArray1<'py, i8>,
);

/// Who plays the opponent, as the constructor was told.
enum Chosen {
    /// A player's name (`random`, `level:3` …), or `self` for self-play.
    Named(String),
    /// Python policies with their weights (one policy, or a league).
    Policies(Vec<Py<PyAny>>, Vec<f64>),
}

impl Chosen {
    /// `opponent` as the constructor takes it: a name, a callable, or a sequence of
    /// callables (a league, drawn for each game with `weights`, all alike by default).
    fn from_arg(opponent: &Bound<'_, PyAny>, weights: Option<Vec<f64>>) -> PyResult<Chosen> {
        if let Ok(name) = opponent.extract::<String>() {
            if weights.is_some() {
                return Err(PyTypeError::new_err(
                    "opponent_weights go with a league of policies, not a player's name",
                ));
            }
            return Ok(Chosen::Named(name));
        }
        let members: Vec<Bound<'_, PyAny>> = if opponent.is_callable() {
            vec![opponent.clone()]
        } else {
            opponent.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "opponent must be a player's name (random, greedy, level:N, self …), a policy (a callable taking observations and masks) or a list of policies, not {}",
                    opponent.get_type().name().map_or_else(|_| "?".into(), |n| n.to_string())
                ))
            })?
        };
        if members.is_empty() {
            return Err(SowingError::new_err(
                "a league of policies needs at least one",
            ));
        }
        if let Some(index) = members.iter().position(|m| !m.is_callable()) {
            return Err(PyTypeError::new_err(format!(
                "the league's member {index} is not callable: a policy takes (observations, masks) and returns actions"
            )));
        }
        let weights = weights.unwrap_or_else(|| vec![1.0; members.len()]);
        if weights.len() != members.len() {
            return Err(SowingError::new_err(format!(
                "{} opponent_weights for {} policies",
                weights.len(),
                members.len()
            )));
        }
        if weights.iter().any(|w| !w.is_finite() || *w < 0.0) || weights.iter().sum::<f64>() <= 0.0
        {
            return Err(SowingError::new_err(format!(
                "opponent_weights must be finite, not negative, and not all zero: {weights:?}"
            )));
        }
        let cumulative = weights
            .iter()
            .scan(0.0, |total, w| {
                *total += w;
                Some(*total)
            })
            .collect();
        Ok(Chosen::Policies(
            members.into_iter().map(Bound::unbind).collect(),
            cumulative,
        ))
    }
}

/// An engine spec whose transposition table is its share of `budget_mib` over `n` games
/// (never more than its own size, at least 1 MiB), and that table's bytes a game.
fn sized_to_batch(spec: PlayerSpec, n: usize, budget_mib: usize) -> (PlayerSpec, usize) {
    let Some(settings) = spec.search_settings() else {
        return (spec, 0);
    };
    let share = (budget_mib / n).clamp(1, settings.hash_mib.max(1));
    if share >= settings.hash_mib {
        return (spec, settings.hash_mib << 20);
    }
    let sized = SearchSettings {
        hash_mib: share,
        ..settings
    };
    (PlayerSpec::Search(sized), share << 20)
}

/// The constructor's arguments past the rules and the opponent, as Python names them.
struct Settings<'a> {
    agent: &'a str,
    reward: &'a str,
    illegal_action: &'a str,
    autoreset: &'a str,
    threads: Option<usize>,
    engine_memory: usize,
}

impl VectorGame {
    /// `n` games of `rules` at the start, their generators not yet seeded (`reset` or
    /// `_restore` does it).
    fn build(
        py: Python<'_>,
        n: usize,
        rules: Rules,
        chosen: Chosen,
        settings: &Settings<'_>,
        seed: Option<u64>,
    ) -> PyResult<VectorGame> {
        let Settings {
            agent,
            reward,
            illegal_action,
            autoreset,
            threads,
            engine_memory,
        } = *settings;
        if n == 0 {
            return Err(SowingError::new_err("a VectorGame needs at least one game"));
        }
        let scoring = Scoring::parse(reward)?;
        let seat = match agent {
            "alternate" => None,
            side => Some(side_arg(side).map_err(|_| {
                SowingError::new_err(format!(
                    "agent must be south, north or alternate, not {side:?}"
                ))
            })?),
        };
        let illegal_loses = match illegal_action {
            "lose" => true,
            "raise" => false,
            _ => {
                return Err(SowingError::new_err(format!(
                    "illegal_action must be lose or raise, not {illegal_action:?}"
                )))
            }
        };
        let autoreset = match autoreset {
            "next-step" => Autoreset::NextStep,
            "same-step" => Autoreset::SameStep,
            _ => {
                return Err(SowingError::new_err(format!(
                    "autoreset must be next-step or same-step, not {autoreset:?}"
                )))
            }
        };
        let (opponent, spec_name, policies, table) = match chosen {
            Chosen::Named(name) if name == "self" => (Opponent::SelfPlay, name, Vec::new(), 0),
            Chosen::Named(name) => {
                let spec: PlayerSpec = name
                    .parse()
                    .map_err(|e: sowing_engine::SpecError| SowingError::new_err(e.to_string()))?;
                let spec_name = spec.to_string();
                match spec {
                    PlayerSpec::Random => (Opponent::Random, spec_name, Vec::new(), 0),
                    PlayerSpec::Greedy => (Opponent::Greedy, spec_name, Vec::new(), 0),
                    spec => {
                        let (spec, table) = sized_to_batch(spec, n, engine_memory);
                        (Opponent::Engine(spec), spec_name, Vec::new(), table)
                    }
                }
            }
            Chosen::Policies(policies, weights) => {
                let name = if policies.len() == 1 {
                    "policy"
                } else {
                    "league"
                };
                (Opponent::Policies(weights), name.to_string(), policies, 0)
            }
        };
        let per_row = rules.pits_per_row();
        let size = observe::size(per_row);
        check_memory(
            n,
            std::mem::size_of::<Seat>() + table + 8 * size + per_row + 16,
        )?;
        let engine = matches!(opponent, Opponent::Engine(_));
        let threads = match threads {
            Some(0) => return Err(SowingError::new_err("threads must be at least 1")),
            Some(threads) => threads,
            None if engine => std::thread::available_parallelism().map_or(1, |n| n.get()),
            None => 1,
        };
        // Python policies are asked on the calling thread: no pool for them.
        let pool = if (threads > 1 || engine) && policies.is_empty() {
            Some(Arc::new(new_pool(threads)?))
        } else {
            None
        };
        let start = Position::start(rules);
        let shared = Shared {
            start,
            n: per_row,
            seeds: rules.total_seeds() as f32,
            scoring,
            opponent,
            seat,
            illegal_loses,
            autoreset,
            stop: Arc::new(AtomicBool::new(false)),
        };
        let seats = alloc_with(n, || Seat::new(start))?;
        let (sender, receiver) = mpsc::channel();
        Ok(VectorGame {
            seats,
            games: n,
            shared: Arc::new(shared),
            policies,
            spec_name,
            seed,
            seeded: false,
            threads,
            engine_memory,
            pool,
            worker: None,
            sender,
            receiver: Mutex::new(receiver),
            in_flight: false,
            broken: None,
            actions: Vec::with_capacity(n),
            obs: Buffer2::zeros(py, [n, size]),
            final_obs: Buffer2::zeros(py, [n, size]),
            rewards: Buffer1::zeros(py, n),
            seat_rewards: Buffer2::zeros(py, [n, 2]),
            terminations: Buffer1::zeros(py, n),
            masks: Buffer2::zeros(py, [n, per_row]),
            agents: Buffer1::zeros(py, n),
        })
    }

    /// A step against Python policies: the agent's actions, the policies' replies (a call
    /// a policy each round, for all its games), then the rewards; the games restarted at
    /// once (`same-step`) get their first replies too.
    fn step_with_policies(&mut self, py: Python<'_>) -> PyResult<()> {
        let shared = Arc::clone(&self.shared);
        let results: Vec<Option<(f32, bool)>> = self
            .seats
            .iter_mut()
            .zip(&self.actions)
            .map(|(seat, &action)| seat.act(action, &shared))
            .collect();
        self.play_policies(py)?;
        let out = self.out(py);
        let mut restarted = Vec::new();
        for (index, (seat, result)) in self.seats.iter_mut().zip(results).enumerate() {
            let (reward, over) = result.unwrap_or_else(|| seat.settle(&shared));
            // SAFETY: this thread alone writes the arrays, row `index` for game `index`.
            unsafe {
                out.result(seat, index, reward, over);
                if over && shared.autoreset == Autoreset::SameStep {
                    out.write(seat, index);
                    out.keep_final(index);
                    seat.restart(&shared);
                    restarted.push(index);
                }
                out.write(seat, index);
            }
        }
        if !restarted.is_empty() {
            self.play_policies(py)?;
            for index in restarted {
                // SAFETY: as above.
                unsafe { out.write(&self.seats[index], index) };
            }
        }
        Ok(())
    }

    /// A reset against Python policies: the games restart, the policies make their
    /// first moves where they begin.
    fn reset_with_policies(&mut self, py: Python<'_>, mask: Option<&[bool]>) -> PyResult<()> {
        let shared = Arc::clone(&self.shared);
        let chosen = |index: usize| mask.is_none_or(|mask| mask[index]);
        for (index, seat) in self.seats.iter_mut().enumerate() {
            if chosen(index) {
                seat.restart(&shared);
            }
        }
        self.play_policies(py)?;
        let out = self.out(py);
        for (index, seat) in self.seats.iter().enumerate() {
            if chosen(index) {
                // SAFETY: this thread alone writes the arrays, row `index` for game `index`.
                unsafe {
                    out.result(seat, index, 0.0, false);
                    out.write(seat, index);
                }
            }
        }
        Ok(())
    }

    /// The policies' moves until the agent is to move (or the game is over) in every
    /// game. A policy that fails leaves the step half done: the games then need a reset.
    fn play_policies(&mut self, py: Python<'_>) -> PyResult<()> {
        let played = self.ask_policies(py);
        if let Err(error) = &played {
            self.broken = Some(format!(
                "the opponent's policy failed in the middle of a step ({error})"
            ));
        }
        played
    }

    fn ask_policies(&mut self, py: Python<'_>) -> PyResult<()> {
        let n = self.shared.n;
        let size = observe::size(n);
        loop {
            let mut asked = false;
            for member in 0..self.policies.len() {
                let waiting: Vec<usize> = (0..self.seats.len())
                    .filter(|&i| {
                        let seat = &self.seats[i];
                        seat.member == member && seat.waits_for_policy(&self.shared)
                    })
                    .collect();
                if waiting.is_empty() {
                    continue;
                }
                asked = true;
                let rows = waiting.len();
                let obs = PyArray2::<f32>::zeros(py, [rows, size], false);
                let masks = PyArray2::<i8>::zeros(py, [rows, n], false);
                {
                    let mut obs_rows = obs.readwrite();
                    let mut mask_rows = masks.readwrite();
                    let (obs_rows, mask_rows) =
                        (obs_rows.as_slice_mut()?, mask_rows.as_slice_mut()?);
                    for (row, &i) in waiting.iter().enumerate() {
                        self.seats[i].write_mover(
                            &mut obs_rows[row * size..][..size],
                            &mut mask_rows[row * n..][..n],
                        );
                    }
                }
                let who = if self.policies.len() == 1 {
                    "the opponent's policy".to_string()
                } else {
                    format!("the league's policy {member}")
                };
                let answer = self.policies[member].bind(py).call1((obs, masks))?;
                let actions = integer_actions(&answer, rows).map_err(|e| {
                    PyErr::from_type(e.get_type(py), format!("{who} returned {}", e.value(py)))
                })?;
                let actions = actions.as_slice()?;
                for (row, (&i, &action)) in waiting.iter().zip(actions).enumerate() {
                    let legal = self.seats[i].slot.legal;
                    if !legal_action(legal, action, n) {
                        return Err(IllegalMoveError::new_err(format!(
                            "{who} chose action {action} for row {row} (game {i}), which is not legal there (legal: {:?}; position {})",
                            (0..n).filter(|c| (legal >> c) & 1 == 1).collect::<Vec<_>>(),
                            self.seats[i].slot.position
                        )));
                    }
                }
                for (&i, &action) in waiting.iter().zip(actions) {
                    self.seats[i].play(action as usize);
                }
            }
            if !asked {
                return Ok(());
            }
        }
    }

    fn seat(&self, index: i64) -> PyResult<&Seat> {
        self.check_idle(false)?;
        Ok(&self.seats[game_index(index, self.games, "VectorGame")?])
    }
}

#[pymethods]
impl VectorGame {
    /// `n` games of `game` (rules as `Game`) against `opponent`, the agent playing `agent`
    /// (`"south"`, `"north"` or `"alternate"`: South in the even games and North in the
    /// odd ones, each game changing sides at every restart), rewarded by `reward`
    /// (`"margin"`, `"captures"`, `"normalized"` or `"win"`). `illegal_action` is
    /// `"lose"` (the game ends with the worst reward) or `"raise"`; `autoreset` is
    /// `"next-step"` or `"same-step"`. `seed` seeds every game (`None`: the system's).
    ///
    /// `opponent` is a player's name (`"random"`, `"greedy"`, `"level:1"` … or any
    /// player name of `Engine(player=…)`), `"self"` (self-play: the agent plays both
    /// sides, always the side to move), a policy (a callable taking float32 observations
    /// `(B, 2N + 8)` and int8 masks `(B, N)` of the games where it is to move, from its
    /// point of view, and returning B actions), or a list of policies (a league: each game
    /// draws one at its start, with `opponent_weights`).
    ///
    /// `threads` steps the games on that many threads (default: every core for an engine
    /// opponent, else 1; Python policies are asked on the calling thread).
    /// `engine_memory` (MiB) bounds the engine opponents' search tables, all games
    /// together: each game's table is its level's size or its share of this, whichever is
    /// smaller (at least 1 MiB), so that a large batch of `level:6` games fits where one
    /// full table a game would not.
    #[new]
    #[pyo3(signature = (n, game = "hoyito-ii", pits = 6, *, opponent = None, opponent_weights = None, agent = "south", reward = "margin", illegal_action = "lose", autoreset = "next-step", seed = None, threads = None, engine_memory = 1024, **options))]
    #[allow(clippy::too_many_arguments)] // its own settings, besides the rules (`**options`)
    fn new(
        py: Python<'_>,
        n: i64,
        game: &str,
        pits: i64,
        opponent: Option<&Bound<'_, PyAny>>,
        opponent_weights: Option<Vec<f64>>,
        agent: &str,
        reward: &str,
        illegal_action: &str,
        autoreset: &str,
        seed: Option<u64>,
        threads: Option<i64>,
        engine_memory: i64,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<VectorGame> {
        let n = size("n", n)?;
        let rules = rules_from(game, pits, options)?;
        let chosen = match opponent {
            Some(opponent) => Chosen::from_arg(opponent, opponent_weights)?,
            None => Chosen::Named("random".into()),
        };
        let settings = Settings {
            agent,
            reward,
            illegal_action,
            autoreset,
            threads: threads.map(|t| size("threads", t)).transpose()?,
            engine_memory: size("engine_memory", engine_memory)?,
        };
        let mut vector = VectorGame::build(py, n, rules, chosen, &settings, seed)?;
        vector.reset(py, seed, None)?;
        Ok(vector)
    }

    /// Games in the batch.
    #[getter]
    fn num_envs(&self) -> usize {
        self.games
    }

    /// Actions per game: the pits of a row (N).
    #[getter]
    fn num_actions(&self) -> usize {
        self.shared.n
    }

    /// Numbers in one observation: 2N + 8.
    #[getter]
    fn observation_size(&self) -> usize {
        observe::size(self.shared.n)
    }

    /// Seeds in the game: the largest value an observation number takes.
    #[getter]
    fn seeds(&self) -> usize {
        self.shared.seeds as usize
    }

    /// The opponent's name (`random`, `greedy`, `level:3` …, `self`, `policy`, `league`).
    #[getter]
    fn opponent(&self) -> String {
        self.spec_name.clone()
    }

    /// The seed given to the constructor (`None`: from the system).
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// Threads that step the games.
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }

    /// Whether the games need `reset()` before the next step (a step was interrupted, or
    /// a policy opponent failed in the middle of one).
    #[getter]
    fn needs_reset(&self) -> bool {
        self.broken.is_some()
    }

    /// float32 `(n, 2N + 8)`: each game from the agent's point of view.
    #[getter]
    fn observations<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.obs.array(py)
    }

    /// float32 `(n, 2N + 8)`: in `same-step` mode, the last observation of each game that
    /// ended at the last step (the rows of the others are stale).
    #[getter]
    fn final_observations<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.final_obs.array(py)
    }

    /// float32 `(n,)`: the last step's rewards, of the side that acted.
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        self.rewards.array(py)
    }

    /// float32 `(n, 2)`: the last step's rewards of South and of North (opposites). In
    /// self-play, a seat's reward for its move is the sum of its entries from that move
    /// until its next one: the opponent's replies count too.
    #[getter]
    fn seat_rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.seat_rewards.array(py)
    }

    /// bool `(n,)`: whether the last step ended the game.
    #[getter]
    fn terminations<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.terminations.array(py)
    }

    /// int8 `(n, N)`: the agent's legal columns (all of them once the game is over).
    #[getter]
    fn masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i8>> {
        self.masks.array(py)
    }

    /// int8 `(n,)`: the agent's side in each game, 0 South or 1 North (in self-play, the
    /// side to move).
    #[getter]
    fn agents<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        self.agents.array(py)
    }

    /// Restarts the games (those where `mask` is true, if given); with `seed`, reseeds
    /// every game first, so that the same seed replays the same games.
    #[pyo3(signature = (seed = None, mask = None))]
    fn reset(
        &mut self,
        py: Python<'_>,
        seed: Option<u64>,
        mask: Option<PyReadonlyArray1<'_, bool>>,
    ) -> PyResult<()> {
        self.check_idle(false)?;
        let mask: Option<Vec<bool>> = mask.map(|m| m.as_array().to_vec());
        if let Some(mask) = &mask {
            if mask.len() != self.games {
                return Err(SowingError::new_err(format!(
                    "a reset mask of {} for {} games",
                    mask.len(),
                    self.games
                )));
            }
        }
        if self.broken.is_some() && mask.is_some() {
            return Err(SowingError::new_err(format!(
                "the games need a reset of them all, not of some: {}",
                self.broken.as_deref().unwrap_or_default()
            )));
        }
        if seed.is_some() || !self.seeded {
            self.seed_all(seed);
            self.seeded = true;
        }
        self.broken = None;
        if self.shared.has_policies() {
            return self.reset_with_policies(py, mask.as_deref());
        }
        self.execute(py, Job::Reset(mask))
    }

    /// Plays `actions[i]` (a column of the agent's pits; any integer dtype) in game `i`,
    /// then the opponent's replies, for every game; the arrays then hold the result.
    ///
    /// An illegal action loses its game (`illegal_action="lose"`) or raises
    /// `IllegalMoveError` before any game moves (`"raise"`). The action of a game that
    /// ended at the last step is ignored in `next-step` mode: the game restarts. Ctrl-C
    /// stops the engine opponents' searches and raises `KeyboardInterrupt`; the games then
    /// need `reset()`.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        self.check_idle(true)?;
        self.take_actions(actions)?;
        if self.shared.has_policies() {
            return self.step_with_policies(py);
        }
        let actions = std::mem::take(&mut self.actions);
        self.execute(py, Job::Step(actions))
    }

    /// Starts `step(actions)` on the batch's worker threads and returns at once, so that
    /// the caller computes while the games step; `recv()` waits for the step's end. The
    /// arrays are written meanwhile: read them after `recv()`. Not with Python policies
    /// as the opponent (they need the GIL: use `step`).
    fn send(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        self.check_idle(true)?;
        if self.shared.has_policies() {
            return Err(SowingError::new_err(
                "send() steps the games without Python, and the opponent is a Python policy: use step()",
            ));
        }
        self.take_actions(actions)?;
        let actions = std::mem::take(&mut self.actions);
        self.launch(py, Job::Step(actions))
    }

    /// Changes the Python policies that play the opponent (a policy, or a league's list
    /// with `opponent_weights`) for the games that start from now on; a game under way
    /// keeps its policy, unless the new list has no policy at its place.
    #[pyo3(signature = (opponent, opponent_weights = None))]
    fn set_opponent(
        &mut self,
        opponent: &Bound<'_, PyAny>,
        opponent_weights: Option<Vec<f64>>,
    ) -> PyResult<()> {
        self.check_idle(false)?;
        if !self.shared.has_policies() {
            return Err(SowingError::new_err(format!(
                "set_opponent changes a Python policy opponent, and this batch plays {}: make a new one",
                self.spec_name
            )));
        }
        let Chosen::Policies(policies, weights) = Chosen::from_arg(opponent, opponent_weights)?
        else {
            return Err(PyTypeError::new_err(
                "set_opponent takes a policy or a list of them, not a player's name",
            ));
        };
        let shared = Arc::get_mut(&mut self.shared)
            .ok_or_else(|| SowingError::new_err("the games are in use on a worker thread"))?;
        shared.opponent = Opponent::Policies(weights);
        self.spec_name = if policies.len() == 1 {
            "policy"
        } else {
            "league"
        }
        .into();
        self.policies = policies;
        for seat in &mut self.seats {
            seat.keep_member(shared);
        }
        Ok(())
    }

    /// Waits for the step `send` started; the arrays then hold its result.
    fn recv(&mut self, py: Python<'_>) -> PyResult<()> {
        if !self.in_flight {
            return Err(SowingError::new_err(
                "recv() without a step under way: call send(actions) first",
            ));
        }
        self.wait(py)
    }

    /// The columns chosen in game `index` since its start, by both sides in turn (the
    /// forced passes left out).
    fn moves(&self, index: i64) -> PyResult<Vec<usize>> {
        Ok(self
            .seat(index)?
            .moves
            .iter()
            .map(|&c| usize::from(c))
            .collect())
    }

    /// Game `index` as played since its start: a `Game` with its history (the columns
    /// replayed, with the forced passes).
    fn game(&self, index: i64) -> PyResult<Game> {
        let seat = self.seat(index)?;
        let mut game = sowing::Game::from_position(self.shared.start);
        for &column in &seat.moves {
            game.play(observe::sow(game.position(), usize::from(column)))
                .expect("a column played");
            while !game.is_over() && game.legal_moves().as_slice() == [Move::Pass] {
                game.play(Move::Pass).expect("a forced pass");
            }
        }
        Ok(Game::wrap(game))
    }

    fn __len__(&self) -> usize {
        self.games
    }

    /// Pickles as its settings, each game's moves since its start, seat, generator state
    /// and engine seed, and the arrays: unpickled, it continues as this one would, draw for
    /// draw. An engine opponent is rebuilt from its seed, without what its search learnt
    /// in the game under way (as `Engine` pickles): its moves there may differ.
    /// (`copy.copy` and `copy.deepcopy` go through this too.) A batch whose opponent is a
    /// Python policy does not pickle: the policy is the caller's to save.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let this = slf.borrow();
        this.check_idle(false)?;
        let shared = &this.shared;
        if shared.has_policies() {
            return Err(PyTypeError::new_err(
                "a VectorGame whose opponent is a Python policy cannot be pickled or copied: make a new one with the policy",
            ));
        }
        let agent = shared.seat.map_or("alternate", |side| side.name());
        let settings = (
            shared.start.to_string(),
            this.seats.len(),
            this.spec_name.clone(),
            agent,
            shared.scoring.name(),
            if shared.illegal_loses {
                "lose"
            } else {
                "raise"
            },
            shared.autoreset.name(),
            this.seed,
            this.seeded,
            this.threads,
            this.engine_memory,
        );
        let seats: Vec<_> = this
            .seats
            .iter()
            .map(|seat| {
                (
                    pyo3::types::PyBytes::new(py, &seat.moves),
                    seat.agent.index() as u8,
                    seat.over,
                    seat.rng.state(),
                    seat.engine_seed,
                )
            })
            .collect();
        let arrays = (
            this.obs.copied(py)?,
            this.final_obs.copied(py)?,
            this.rewards.copied(py)?,
            this.seat_rewards.copied(py)?,
            this.terminations.copied(py)?,
            this.masks.copied(py)?,
            this.agents.copied(py)?,
        );
        let restore = py.get_type::<VectorGame>().getattr("_restore")?;
        let args = (settings, seats, arrays).into_pyobject(py)?;
        PyTuple::new(py, [restore, args.into_any()])
    }

    /// The `VectorGame` of `__reduce__`'s arguments.
    #[staticmethod]
    fn _restore(
        py: Python<'_>,
        settings: RestoredSettings,
        seats: Vec<RestoredSeat>,
        arrays: RestoredArrays<'_>,
    ) -> PyResult<VectorGame> {
        let (
            start,
            n,
            opponent,
            agent,
            reward,
            illegal_action,
            autoreset,
            seed,
            seeded,
            threads,
            engine_memory,
        ) = settings;
        let start: Position = start
            .parse()
            .map_err(|e: sowing::ParsePositionError| ParseError::new_err(e.to_string()))?;
        if seats.len() != n {
            return Err(SowingError::new_err(format!(
                "{} games' states for {n} games",
                seats.len()
            )));
        }
        let settings = Settings {
            agent: &agent,
            reward: &reward,
            illegal_action: &illegal_action,
            autoreset: &autoreset,
            threads: Some(threads),
            engine_memory,
        };
        let chosen = Chosen::Named(opponent);
        let mut vector = VectorGame::build(py, n, start.rules(), chosen, &settings, seed)?;
        if start != vector.shared.start {
            return Err(ParseError::new_err(format!(
                "{start} is not the start position of its rules"
            )));
        }
        vector.seeded = seeded;
        let shared = &vector.shared;
        for (index, (seat, (moves, agent, over, rng, engine_seed))) in
            vector.seats.iter_mut().zip(seats).enumerate()
        {
            let error = |what: String| SowingError::new_err(format!("game {index}: {what}"));
            seat.agent = match agent {
                0 => Side::South,
                1 => Side::North,
                _ => return Err(error(format!("no side {agent} (0 South, 1 North)"))),
            };
            seat.over = over;
            seat.rng =
                Rng::from_state(rng).ok_or_else(|| error("a generator state of zeros".into()))?;
            seat.engine_seed = engine_seed;
            seat.replay(shared, moves.as_bytes()).map_err(error)?;
        }
        let (obs, final_obs, rewards, seat_rewards, terminations, masks, agents) = arrays;
        let games = n;
        let size = observe::size(shared.n);
        let same = |name: &str, found: &[usize], wanted: &[usize]| {
            if found == wanted {
                Ok(())
            } else {
                Err(SowingError::new_err(format!(
                    "{name} of shape {found:?}, not {wanted:?}"
                )))
            }
        };
        same("observations", obs.shape(), &[games, size])?;
        same("final_observations", final_obs.shape(), &[games, size])?;
        same("rewards", rewards.shape(), &[games])?;
        same("seat_rewards", seat_rewards.shape(), &[games, 2])?;
        same("terminations", terminations.shape(), &[games])?;
        same("masks", masks.shape(), &[games, shared.n])?;
        same("agents", agents.shape(), &[games])?;
        vector.obs = Buffer::copy_of(py, &obs);
        vector.final_obs = Buffer::copy_of(py, &final_obs);
        vector.rewards = Buffer::copy_of(py, &rewards);
        vector.seat_rewards = Buffer::copy_of(py, &seat_rewards);
        vector.terminations = Buffer::copy_of(py, &terminations);
        vector.masks = Buffer::copy_of(py, &masks);
        vector.agents = Buffer::copy_of(py, &agents);
        Ok(vector)
    }

    fn __repr__(&self) -> String {
        format!(
            "VectorGame({}, {:?}, {}, opponent={:?})",
            self.seats.len(),
            self.shared.start.rules().variant().name(),
            self.shared.n,
            self.spec_name
        )
    }
}
