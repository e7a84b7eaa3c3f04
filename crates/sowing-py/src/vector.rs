//! `sowing._sowing.VectorGame`: the core of `sowing.vector`'s environments. Many games in
//! which one agent plays against an opponent whose replies are played inside the step, in
//! Rust: a trainer sees only the agent's turns, as with the single Gymnasium environment,
//! without a Python call per game.
//!
//! Each game is a [`Slot`] (as in `VecGame`) and a [`Seat`] around it: the agent's side, a
//! random generator of its own (so that the games do not depend on each other, nor on the
//! threads that step them), the columns chosen so far, and for an engine opponent the
//! engine and the game with its history, which the engine searches. The random and greedy
//! opponents choose from the slot's legal columns directly; the engine's players are
//! stepped on rayon's thread pool, one game a task.

use numpy::{PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use rayon::prelude::*;
use sowing::{Move, Position, Rules, Side};
use sowing_engine::random::Rng;
use sowing_engine::{Limits, Player, PlayerSpec};

use crate::actions::{integer_actions, nth_column};
use crate::batch::Slot;
use crate::buffer::{Buffer, Buffer1, Buffer2};
use crate::game::{side_arg, Game};
use crate::memory::{alloc_with, check_memory};
use crate::{observe, rules_from, size, IllegalMoveError, ParseError, SowingError};

/// What the agent is rewarded with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Scoring {
    /// The final seed margin (the agent's captures less the opponent's), on the last step.
    Margin,
    /// The change of that margin over each step (the opponent's replies included).
    Captures,
    /// The final margin divided by the seeds of the game: in −1 … 1, on the last step.
    Normalized,
    /// 1 for a win, −1 for a loss, 0 for a draw, on the last step.
    Win,
}

impl Scoring {
    /// The reward named `name` (`margin`, `captures`, `normalized` or `win`).
    pub(crate) fn parse(name: &str) -> PyResult<Scoring> {
        match name {
            "margin" => Ok(Scoring::Margin),
            "captures" => Ok(Scoring::Captures),
            "normalized" => Ok(Scoring::Normalized),
            "win" => Ok(Scoring::Win),
            _ => Err(SowingError::new_err(format!(
                "unknown reward {name:?} (expected margin, captures, normalized or win)"
            ))),
        }
    }

    /// The reward of a step from margin `before` to margin `after`, out of `seeds`.
    fn reward(self, before: i32, after: i32, over: bool, seeds: f32) -> f32 {
        match self {
            Scoring::Captures => (after - before) as f32,
            _ if !over => 0.0,
            Scoring::Margin => after as f32,
            Scoring::Normalized => after as f32 / seeds,
            Scoring::Win => after.signum() as f32,
        }
    }

    /// The reward of an illegal action, which loses: the worst there is.
    fn worst(self, seeds: f32) -> f32 {
        match self {
            Scoring::Margin | Scoring::Captures => -seeds,
            Scoring::Normalized | Scoring::Win => -1.0,
        }
    }
}

/// Who chooses the opponent's moves.
enum Opponent {
    /// A uniformly random legal column, from the game's own generator.
    Random,
    /// The column that captures most at once (ties broken at random), as the engine
    /// crate's `greedy`, chosen from the slot's successors without a `sowing::Game`.
    Greedy,
    /// A player of the engine crate (`level:N`, `search:…`, `mcts`), searching the game
    /// with its history.
    Engine(PlayerSpec),
}

/// When a finished game starts again.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Autoreset {
    /// Gymnasium's default: the step that ends a game returns its last observation; the
    /// next step restarts it (its action ignored, reward 0).
    NextStep,
    /// The step that ends a game restarts it at once; the last observation is kept in
    /// `final_observations` (Gymnasium's `SAME_STEP`, Stable-Baselines3's `VecEnv`).
    SameStep,
}

impl Autoreset {
    fn name(self) -> &'static str {
        match self {
            Autoreset::NextStep => "next-step",
            Autoreset::SameStep => "same-step",
        }
    }
}

impl Scoring {
    fn name(self) -> &'static str {
        match self {
            Scoring::Margin => "margin",
            Scoring::Captures => "captures",
            Scoring::Normalized => "normalized",
            Scoring::Win => "win",
        }
    }
}

/// What every game of the batch shares.
struct Shared {
    start: Position,
    /// Pits a row.
    n: usize,
    seeds: f32,
    scoring: Scoring,
    opponent: Opponent,
    /// The agent's side, or `None` when it changes sides every game.
    seat: Option<Side>,
    illegal_loses: bool,
}

/// One game of the batch with what the opponent needs.
struct Seat {
    slot: Slot,
    /// The side the agent plays in this game.
    agent: Side,
    /// Whether the game is over and waits for the next step to restart it.
    over: bool,
    rng: Rng,
    /// The seed its engine opponent was built with (kept to rebuild it when unpickled).
    engine_seed: u64,
    /// The columns chosen since the start, by both sides (the passes are forced and left
    /// out), for `VectorGame.game`.
    moves: Vec<u8>,
    /// An engine opponent and the game it searches, with its history (the repetition
    /// rule, C.3, depends on it).
    /// (In a mutex only to make the batch `Sync` for Python: it is reached through
    /// `&mut`, never locked.)
    engine: Option<std::sync::Mutex<EngineSeat>>,
}

/// An engine opponent and the game it searches.
type EngineSeat = (sowing::Game, Box<dyn Player>);

impl Seat {
    fn engine_mut(&mut self) -> Option<&mut EngineSeat> {
        self.engine
            .as_mut()
            .map(|engine| engine.get_mut().unwrap_or_else(|p| p.into_inner()))
    }

    /// The game's start: the agent's seat for it (the other one if it alternates), then
    /// the opponent's moves until the agent has a choice.
    fn restart(&mut self, shared: &Shared) {
        self.slot.restart(shared.start);
        self.moves.clear();
        self.over = false;
        self.agent = shared.seat.unwrap_or(!self.agent);
        if let Some((game, player)) = self.engine_mut() {
            game.reset(shared.start);
            player.new_game();
        }
        self.over = self.reply(shared);
    }

    /// The game from its start again with `moves` (columns, as [`Seat::moves`] keeps them)
    /// played, for an unpickled batch: the slot, and an engine opponent's game, with a new
    /// engine built from `engine_seed` (what its search learnt is not kept).
    fn replay(&mut self, shared: &Shared, moves: &[u8]) -> Result<(), String> {
        self.slot.restart(shared.start);
        self.moves.clear();
        if let Opponent::Engine(spec) = &shared.opponent {
            let mut player = spec.build(self.engine_seed);
            player.new_game();
            let game = sowing::Game::from_position(shared.start);
            self.engine = Some(std::sync::Mutex::new((game, player)));
        }
        let mut over = false;
        for (index, &column) in moves.iter().enumerate() {
            if over || !legal_action(self.slot.legal, i64::from(column), shared.n) {
                return Err(format!(
                    "move {index} (column {column}) is not legal in position {}",
                    self.slot.position
                ));
            }
            over = self.play(usize::from(column));
        }
        Ok(())
    }

    /// Plays the opponent's moves (and the passes) until the agent is to move; tells
    /// whether the game ended.
    fn reply(&mut self, shared: &Shared) -> bool {
        while self.slot.position.to_move() != self.agent {
            let column = self.choose(shared);
            if self.play(column) {
                return true;
            }
        }
        false
    }

    /// The opponent's column.
    fn choose(&mut self, shared: &Shared) -> usize {
        let legal = self.slot.legal;
        match &shared.opponent {
            Opponent::Random => pick(legal, &mut self.rng),
            Opponent::Greedy => {
                let me = self.slot.position.to_move();
                let mut best = i32::MIN;
                let mut ties = 0u16;
                for column in 0..shared.n {
                    if (legal >> column) & 1 == 1 {
                        let gain = observe::margin(self.slot.successor(column), me);
                        if gain > best {
                            best = gain;
                            ties = 0;
                        }
                        if gain == best {
                            ties |= 1 << column;
                        }
                    }
                }
                pick(ties, &mut self.rng)
            }
            Opponent::Engine(_) => {
                let (game, player) = self.engine_mut().expect("an engine opponent");
                match player.choose(game, &Limits::default(), &mut |_| {}) {
                    Move::Sow(pit) => pit.column(shared.n),
                    Move::Pass => unreachable!("the opponent is asked only when it can sow"),
                }
            }
        }
    }

    /// Plays column `column` (legal) of the side to move and the passes after it; tells
    /// whether the game ended.
    fn play(&mut self, column: usize) -> bool {
        let mv = observe::sow(&self.slot.position, column);
        self.moves.push(column as u8);
        if let Some((game, _)) = self.engine_mut() {
            game.play(mv).expect("a legal column");
            while !game.is_over() && game.legal_moves().as_slice() == [Move::Pass] {
                game.play(Move::Pass).expect("a forced pass");
            }
        }
        self.slot.play_alone(column)
    }

    /// One step of the agent: `action`, then the opponent's replies. Returns the reward and
    /// whether the game ended. A game that ended at the last step restarts instead.
    fn step(&mut self, action: i64, shared: &Shared) -> (f32, bool) {
        if self.over {
            self.restart(shared);
            return (0.0, false);
        }
        let before = observe::margin(&self.slot.position, self.agent);
        if !legal_action(self.slot.legal, action, shared.n) {
            // Only reached when illegal actions lose (else `step` refused them all).
            self.over = true;
            return (shared.scoring.worst(shared.seeds), true);
        }
        let mut over = self.play(action as usize);
        if !over {
            over = self.reply(shared);
        }
        self.over = over;
        let after = observe::margin(&self.slot.position, self.agent);
        (
            shared.scoring.reward(before, after, over, shared.seeds),
            over,
        )
    }

    /// Writes the observation from the agent's point of view, and the mask: the legal
    /// columns, or all of them once the game is over (the next action is then ignored,
    /// and a masked policy still needs one to draw).
    fn write(&self, obs: &mut [f32], mask: &mut [i8]) {
        observe::write(&self.slot.position, self.agent, obs);
        if self.over {
            mask.fill(1);
        } else {
            observe::write_mask(self.slot.legal, mask);
        }
    }
}

/// Whether `action` is a legal column of `legal` on a board of `n` pits a row.
fn legal_action(legal: u16, action: i64, n: usize) -> bool {
    (0..n as i64).contains(&action) && (legal >> action) & 1 == 1
}

/// One of the columns of `legal` (not none), each as likely.
fn pick(legal: u16, rng: &mut Rng) -> usize {
    nth_column(legal, rng.below(legal.count_ones())) as usize
}

/// Raw views of the output arrays, written row by row by the games (from rayon's threads
/// for an engine opponent) while the GIL is released.
#[derive(Clone, Copy)]
struct Out {
    obs: *mut f32,
    final_obs: *mut f32,
    rewards: *mut f32,
    terminations: *mut bool,
    masks: *mut i8,
    agents: *mut i8,
    size: usize,
    n: usize,
}

// The arrays belong to the VectorGame, borrowed mutably for the whole step, and each game
// writes only its own rows.
unsafe impl Send for Out {}
unsafe impl Sync for Out {}

impl Out {
    /// Writes game `index`'s observation, mask and seat.
    ///
    /// # Safety
    /// `index` is below the arrays' length and no other thread writes its rows.
    unsafe fn write(&self, seat: &Seat, index: usize) {
        let obs = std::slice::from_raw_parts_mut(self.obs.add(index * self.size), self.size);
        let mask = std::slice::from_raw_parts_mut(self.masks.add(index * self.n), self.n);
        seat.write(obs, mask);
        *self.agents.add(index) = seat.agent.index() as i8;
    }

    /// Copies game `index`'s observation into the final observations.
    ///
    /// # Safety
    /// As [`Out::write`].
    unsafe fn keep_final(&self, index: usize) {
        std::ptr::copy_nonoverlapping(
            self.obs.add(index * self.size),
            self.final_obs.add(index * self.size),
            self.size,
        );
    }
}

/// Games of one agent against an opponent played inside each step: the core of
/// `sowing.vector` (use its `SowingVectorEnv` or `SowingVecEnv`).
///
/// After `reset()` and every `step(actions)`, these arrays (the same objects, overwritten)
/// describe the games: `observations` float32 `(n, 2N + 8)` from the agent's point of
/// view; `masks` int8 `(n, N)`, the agent's legal columns (all of them once a game is
/// over: its next action is ignored); `rewards` float32 `(n,)`; `terminations` bool
/// `(n,)`; `final_observations` float32 `(n, 2N + 8)`, the last observation of the games
/// that ended at this step in `same-step` mode; `agents` int8 `(n,)`, the agent's side
/// (0 South, 1 North).
#[pyclass(module = "sowing", name = "VectorGame")]
pub struct VectorGame {
    seats: Vec<Seat>,
    shared: Shared,
    autoreset: Autoreset,
    spec_name: String,
    seed: Option<u64>,
    /// Whether the games' generators were seeded (the constructor's reset does it).
    seeded: bool,
    obs: Buffer2<f32>,
    final_obs: Buffer2<f32>,
    rewards: Buffer1<f32>,
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
        for (index, seat) in self.seats.iter_mut().enumerate() {
            seat.rng = master.clone();
            master.jump();
            // `restart` turns the seat over when it alternates: even games start South.
            let first = if index % 2 == 0 {
                Side::South
            } else {
                Side::North
            };
            seat.agent = self.shared.seat.map_or(!first, |side| !side);
            if let Opponent::Engine(spec) = &self.shared.opponent {
                seat.engine_seed = seat.rng.next_u64();
                let player = spec.build(seat.engine_seed);
                let game = sowing::Game::from_position(self.shared.start);
                seat.engine = Some(std::sync::Mutex::new((game, player)));
            }
        }
    }
}

/// `VectorGame.__reduce__`'s settings: the start position (its text), games, opponent,
/// agent, reward, illegal action, autoreset, the constructor's seed and whether the
/// generators were seeded.
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
);

/// A game of `VectorGame.__reduce__`: its columns played, the agent's side (0 South,
/// 1 North), whether it is over, its generator's state and its engine's seed.
type RestoredSeat<'py> = (Bound<'py, pyo3::types::PyBytes>, u8, bool, [u64; 4], u64);

/// `VectorGame.__reduce__`'s arrays: observations, final observations, rewards,
/// terminations, masks, agents.
type RestoredArrays<'py> = (
    PyReadonlyArray2<'py, f32>,
    PyReadonlyArray2<'py, f32>,
    PyReadonlyArray1<'py, f32>,
    PyReadonlyArray1<'py, bool>,
    PyReadonlyArray2<'py, i8>,
    PyReadonlyArray1<'py, i8>,
);

/// The constructor's arguments past the rules, as Python names them.
struct Settings<'a> {
    opponent: &'a str,
    agent: &'a str,
    reward: &'a str,
    illegal_action: &'a str,
    autoreset: &'a str,
}

impl VectorGame {
    /// `n` games of `rules` at the start, their generators not yet seeded (`reset` or
    /// `_restore` does it).
    fn build(
        py: Python<'_>,
        n: usize,
        rules: Rules,
        settings: &Settings<'_>,
        seed: Option<u64>,
    ) -> PyResult<VectorGame> {
        let Settings {
            opponent,
            agent,
            reward,
            illegal_action,
            autoreset,
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
        let spec: PlayerSpec = opponent
            .parse()
            .map_err(|e: sowing_engine::SpecError| SowingError::new_err(e.to_string()))?;
        let spec_name = spec.to_string();
        // Each engine keeps its own transposition table.
        let table = spec.search_settings().map_or(0, |s| s.hash_mib << 20);
        let per_row = rules.pits_per_row();
        let size = observe::size(per_row);
        check_memory(
            n,
            std::mem::size_of::<Seat>() + table + 8 * size + per_row + 16,
        )?;
        let opponent = match spec {
            PlayerSpec::Random => Opponent::Random,
            PlayerSpec::Greedy => Opponent::Greedy,
            spec => Opponent::Engine(spec),
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
        };
        let seats = alloc_with(n, || Seat {
            slot: Slot::new(start),
            agent: Side::South,
            over: false,
            rng: Rng::new(0),
            engine_seed: 0,
            moves: Vec::new(),
            engine: None,
        })?;
        let vector = VectorGame {
            seats,
            shared,
            autoreset,
            spec_name,
            seed,
            seeded: false,
            obs: Buffer2::zeros(py, [n, size]),
            final_obs: Buffer2::zeros(py, [n, size]),
            rewards: Buffer1::zeros(py, n),
            terminations: Buffer1::zeros(py, n),
            masks: Buffer2::zeros(py, [n, per_row]),
            agents: Buffer1::zeros(py, n),
        };
        Ok(vector)
    }
}

#[pymethods]
impl VectorGame {
    /// `n` games of `game` (rules as `Game`) against `opponent` (`"random"`, `"greedy"`,
    /// `"level:1"` … or any player name of `Engine(player=…)`), the agent playing `agent`
    /// (`"south"`, `"north"` or `"alternate"`: South in the even games and North in the
    /// odd ones, each game changing sides at every restart), rewarded by `reward`
    /// (`"margin"`, `"captures"`, `"normalized"` or `"win"`). `illegal_action` is
    /// `"lose"` (the game ends with the worst reward) or `"raise"`; `autoreset` is
    /// `"next-step"` or `"same-step"`. `seed` seeds every game (`None`: the system's).
    #[new]
    #[pyo3(signature = (n, game = "hoyito-ii", pits = 6, *, opponent = "random", agent = "south", reward = "margin", illegal_action = "lose", autoreset = "next-step", seed = None, **options))]
    #[allow(clippy::too_many_arguments)] // its own settings, besides the rules (`**options`)
    fn new(
        py: Python<'_>,
        n: i64,
        game: &str,
        pits: i64,
        opponent: &str,
        agent: &str,
        reward: &str,
        illegal_action: &str,
        autoreset: &str,
        seed: Option<u64>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<VectorGame> {
        let n = size("n", n)?;
        let rules = rules_from(game, pits, options)?;
        let settings = Settings {
            opponent,
            agent,
            reward,
            illegal_action,
            autoreset,
        };
        let mut vector = VectorGame::build(py, n, rules, &settings, seed)?;
        vector.reset(py, seed, None)?;
        Ok(vector)
    }

    /// Games in the batch.
    #[getter]
    fn num_envs(&self) -> usize {
        self.seats.len()
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

    /// The opponent's name (`random`, `greedy`, `level:3` …).
    #[getter]
    fn opponent(&self) -> String {
        self.spec_name.clone()
    }

    /// The seed given to the constructor (`None`: from the system).
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.seed
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

    /// float32 `(n,)`: the last step's rewards.
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        self.rewards.array(py)
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

    /// int8 `(n,)`: the agent's side in each game, 0 South or 1 North.
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
        let mask: Option<Vec<bool>> = mask.map(|m| m.as_array().to_vec());
        if let Some(mask) = &mask {
            if mask.len() != self.seats.len() {
                return Err(SowingError::new_err(format!(
                    "a reset mask of {} for {} games",
                    mask.len(),
                    self.seats.len()
                )));
            }
        }
        if seed.is_some() || !self.seeded {
            self.seed_all(seed);
            self.seeded = true;
        }
        let out = self.out(py);
        let shared = &self.shared;
        let seats = &mut self.seats;
        let parallel = matches!(shared.opponent, Opponent::Engine(_));
        py.detach(|| {
            let each = |(index, seat): (usize, &mut Seat)| {
                if mask.as_ref().is_none_or(|mask| mask[index]) {
                    seat.restart(shared);
                    // SAFETY: each game writes its own rows.
                    unsafe {
                        *out.rewards.add(index) = 0.0;
                        *out.terminations.add(index) = false;
                        out.write(seat, index);
                    }
                }
            };
            if parallel {
                seats.par_iter_mut().enumerate().for_each(each);
            } else {
                seats.iter_mut().enumerate().for_each(each);
            }
        });
        Ok(())
    }

    /// Plays `actions[i]` (a column of the agent's pits; any integer dtype) in game `i`,
    /// then the opponent's replies, for every game; the arrays then hold the result.
    ///
    /// An illegal action loses its game (`illegal_action="lose"`) or raises
    /// `IllegalMoveError` before any game moves (`"raise"`). The action of a game that
    /// ended at the last step is ignored in `next-step` mode: the game restarts.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let actions = integer_actions(actions, self.seats.len())?;
        let actions = actions.as_slice()?;
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
        let out = self.out(py);
        let shared = &self.shared;
        let same_step = self.autoreset == Autoreset::SameStep;
        let seats = &mut self.seats;
        let parallel = matches!(shared.opponent, Opponent::Engine(_));
        py.detach(|| {
            let each = |(index, seat): (usize, &mut Seat)| {
                let (reward, over) = seat.step(actions[index], shared);
                // SAFETY: each game writes its own rows.
                unsafe {
                    *out.rewards.add(index) = reward;
                    *out.terminations.add(index) = over;
                    if over && same_step {
                        out.write(seat, index);
                        out.keep_final(index);
                        seat.restart(shared);
                    }
                    out.write(seat, index);
                }
            };
            if parallel {
                seats.par_iter_mut().enumerate().for_each(each);
            } else {
                seats.iter_mut().enumerate().for_each(each);
            }
        });
        Ok(())
    }

    /// The columns chosen in game `index` since its start, by both sides in turn (the
    /// forced passes left out).
    fn moves(&self, index: usize) -> PyResult<Vec<usize>> {
        Ok(self
            .seat(index)?
            .moves
            .iter()
            .map(|&c| usize::from(c))
            .collect())
    }

    /// Game `index` as played since its start: a `Game` with its history (the columns
    /// replayed, with the forced passes).
    fn game(&self, index: usize) -> PyResult<Game> {
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
        self.seats.len()
    }

    /// Pickles as its settings, each game's moves since its start, seat, generator state
    /// and engine seed, and the arrays: unpickled, it continues as this one would, draw for
    /// draw. An engine opponent is rebuilt from its seed, without what its search learnt
    /// in the game under way (as `Engine` pickles): its moves there may differ.
    /// (`copy.copy` and `copy.deepcopy` go through this too.)
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let this = slf.borrow();
        let shared = &this.shared;
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
            this.autoreset.name(),
            this.seed,
            this.seeded,
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
        let (start, n, opponent, agent, reward, illegal_action, autoreset, seed, seeded) = settings;
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
            opponent: &opponent,
            agent: &agent,
            reward: &reward,
            illegal_action: &illegal_action,
            autoreset: &autoreset,
        };
        let mut vector = VectorGame::build(py, n, start.rules(), &settings, seed)?;
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
        let (obs, final_obs, rewards, terminations, masks, agents) = arrays;
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
        same("terminations", terminations.shape(), &[games])?;
        same("masks", masks.shape(), &[games, shared.n])?;
        same("agents", agents.shape(), &[games])?;
        vector.obs = Buffer::copy_of(py, &obs);
        vector.final_obs = Buffer::copy_of(py, &final_obs);
        vector.rewards = Buffer::copy_of(py, &rewards);
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

impl VectorGame {
    fn seat(&self, index: usize) -> PyResult<&Seat> {
        self.seats.get(index).ok_or_else(|| {
            SowingError::new_err(format!(
                "no game {index}: the VectorGame has {}",
                self.seats.len()
            ))
        })
    }
}
