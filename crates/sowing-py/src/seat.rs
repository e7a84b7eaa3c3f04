//! One game of `VectorGame` ([`Seat`]) and what the games of a batch share ([`Shared`]):
//! the agent's side, the opponent's replies and the rewards. Nothing here holds a Python
//! object, so that the games step on worker threads without the GIL; the Python policies
//! that may play the opponent are asked by `vector.rs`, a batch a call.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use pyo3::prelude::*;
use sowing::{Move, Position, Side};
use sowing_engine::random::Rng;
use sowing_engine::{Limits, Player, PlayerSpec};

use crate::actions::nth_column;
use crate::batch::Slot;
use crate::{observe, SowingError};

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

    pub(crate) fn name(self) -> &'static str {
        match self {
            Scoring::Margin => "margin",
            Scoring::Captures => "captures",
            Scoring::Normalized => "normalized",
            Scoring::Win => "win",
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
pub(crate) enum Opponent {
    /// A uniformly random legal column, from the game's own generator.
    Random,
    /// The column that captures most at once (ties broken at random), as the engine
    /// crate's `greedy`, chosen from the slot's successors without a `sowing::Game`.
    Greedy,
    /// A player of the engine crate (`level:N`, `search:…`, `mcts`), searching the game
    /// with its history.
    Engine(PlayerSpec),
    /// Python policies, one drawn for each game at its start with these cumulative
    /// weights (a league; one policy has the weight 1). Their moves are asked for outside
    /// the seats, one call a policy for all the games where it is to move.
    Policies(Vec<f64>),
    /// No opponent: the agent plays both sides (self-play), always the side to move.
    SelfPlay,
}

/// When a finished game starts again.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Autoreset {
    /// Gymnasium's default: the step that ends a game returns its last observation; the
    /// next step restarts it (its action ignored, reward 0).
    NextStep,
    /// The step that ends a game restarts it at once; the last observation is kept in
    /// `final_observations` (Gymnasium's `SAME_STEP`, Stable-Baselines3's `VecEnv`).
    SameStep,
}

impl Autoreset {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Autoreset::NextStep => "next-step",
            Autoreset::SameStep => "same-step",
        }
    }
}

/// What every game of the batch shares.
pub(crate) struct Shared {
    pub(crate) start: Position,
    /// Pits a row.
    pub(crate) n: usize,
    pub(crate) seeds: f32,
    pub(crate) scoring: Scoring,
    pub(crate) opponent: Opponent,
    /// The agent's side, or `None` when it changes sides every game.
    pub(crate) seat: Option<Side>,
    pub(crate) illegal_loses: bool,
    pub(crate) autoreset: Autoreset,
    /// Set (by Ctrl-C) to cut the engine opponents' searches short.
    pub(crate) stop: Arc<AtomicBool>,
}

impl Shared {
    /// Whether the opponent's moves come from Python.
    pub(crate) fn has_policies(&self) -> bool {
        matches!(self.opponent, Opponent::Policies(_))
    }
}

/// One game of the batch with what the opponent needs.
pub(crate) struct Seat {
    pub(crate) slot: Slot,
    /// The side the agent plays in this game (in self-play: the side to move).
    pub(crate) agent: Side,
    /// The side whose action the last step played (the agent's, in self-play the mover).
    pub(crate) acted: Side,
    /// Whether the game is over and waits for the next step to restart it.
    pub(crate) over: bool,
    /// The agent's margin when the step began.
    before: i32,
    /// The league's policy that plays the opponent in this game.
    pub(crate) member: usize,
    pub(crate) rng: Rng,
    /// The seed its engine opponent was built with (kept to rebuild it when unpickled).
    pub(crate) engine_seed: u64,
    /// The columns chosen since the start, by both sides (the passes are forced and left
    /// out), for `VectorGame.game`.
    pub(crate) moves: Vec<u8>,
    /// An engine opponent and the game it searches, with its history (the repetition
    /// rule, C.3, depends on it).
    /// (In a mutex only to make the batch `Sync` for Python: it is reached through
    /// `&mut`, never locked.)
    pub(crate) engine: Option<std::sync::Mutex<EngineSeat>>,
}

/// An engine opponent and the game it searches.
pub(crate) type EngineSeat = (sowing::Game, Box<dyn Player>);

impl Seat {
    /// A game at `start`, its generator not yet seeded.
    pub(crate) fn new(start: Position) -> Seat {
        Seat {
            slot: Slot::new(start),
            agent: Side::South,
            acted: Side::South,
            over: false,
            before: 0,
            member: 0,
            rng: Rng::new(0),
            engine_seed: 0,
            moves: Vec::new(),
            engine: None,
        }
    }

    /// Draws the game's policy again if the league has none at its place any more.
    pub(crate) fn keep_member(&mut self, shared: &Shared) {
        if let Opponent::Policies(weights) = &shared.opponent {
            if self.member >= weights.len() {
                self.member = draw(weights, &mut self.rng);
            }
        }
    }

    /// Gives the seat a new engine opponent (for an engine spec) seeded from `seed`.
    pub(crate) fn build_engine(&mut self, shared: &Shared, seed: u64) {
        self.engine_seed = seed;
        if let Opponent::Engine(spec) = &shared.opponent {
            let player = spec.build(seed);
            let game = sowing::Game::from_position(shared.start);
            self.engine = Some(std::sync::Mutex::new((game, player)));
        }
    }

    fn engine_mut(&mut self) -> Option<&mut EngineSeat> {
        self.engine
            .as_mut()
            .map(|engine| engine.get_mut().unwrap_or_else(|p| p.into_inner()))
    }

    /// Whether the game has ended (no side has a move left).
    pub(crate) fn ended(&self) -> bool {
        self.slot.legal == 0
    }

    /// Whether a Python policy is to move in this game.
    pub(crate) fn waits_for_policy(&self, shared: &Shared) -> bool {
        shared.has_policies() && !self.ended() && self.slot.position.to_move() != self.agent
    }

    /// The game's start: the agent's seat for it (the other one if it alternates; the side
    /// to move in self-play), the league's policy for it, then the opponent's moves until
    /// the agent has a choice (a policy's wait for `vector.rs`).
    pub(crate) fn restart(&mut self, shared: &Shared) {
        self.slot.restart(shared.start);
        self.moves.clear();
        self.agent = match shared.opponent {
            Opponent::SelfPlay => shared.start.to_move(),
            _ => shared.seat.unwrap_or(!self.agent),
        };
        self.acted = self.agent;
        if let Opponent::Policies(weights) = &shared.opponent {
            self.member = draw(weights, &mut self.rng);
        }
        if let Some((game, player)) = self.engine_mut() {
            game.reset(shared.start);
            player.new_game();
        }
        self.reply(shared);
        self.over = self.ended();
    }

    /// The game from its start again with `moves` (columns, as [`Seat::moves`] keeps them)
    /// played, for an unpickled batch: the slot, and an engine opponent's game, with a new
    /// engine built from `engine_seed` (what its search learnt is not kept).
    pub(crate) fn replay(&mut self, shared: &Shared, moves: &[u8]) -> Result<(), String> {
        self.slot.restart(shared.start);
        self.moves.clear();
        self.build_engine(shared, self.engine_seed);
        if let Some((_, player)) = self.engine_mut() {
            player.new_game();
        }
        for (index, &column) in moves.iter().enumerate() {
            if self.ended() || !legal_action(self.slot.legal, i64::from(column), shared.n) {
                return Err(format!(
                    "move {index} (column {column}) is not legal in position {}",
                    self.slot.position
                ));
            }
            self.play(usize::from(column));
        }
        Ok(())
    }

    /// Plays the opponent's moves (and the passes) until the agent is to move or the game
    /// ends; a Python policy's moves are left to `vector.rs`.
    fn reply(&mut self, shared: &Shared) {
        while !self.ended() && self.slot.position.to_move() != self.agent {
            match self.choose(shared) {
                Some(column) => self.play(column),
                None => return,
            };
        }
    }

    /// The opponent's column (`None` for a Python policy).
    fn choose(&mut self, shared: &Shared) -> Option<usize> {
        let legal = self.slot.legal;
        match &shared.opponent {
            Opponent::Random => Some(pick(legal, &mut self.rng)),
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
                Some(pick(ties, &mut self.rng))
            }
            Opponent::Engine(_) => {
                let limits = Limits {
                    stop: Some(Arc::clone(&shared.stop)),
                    ..Limits::default()
                };
                let (game, player) = self.engine_mut().expect("an engine opponent");
                match player.choose(game, &limits, &mut |_| {}) {
                    Move::Sow(pit) => Some(pit.column(shared.n)),
                    Move::Pass => unreachable!("the opponent is asked only when it can sow"),
                }
            }
            Opponent::Policies(_) | Opponent::SelfPlay => None,
        }
    }

    /// Plays column `column` (legal) of the side to move and the passes after it; tells
    /// whether the game ended.
    pub(crate) fn play(&mut self, column: usize) -> bool {
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
    pub(crate) fn step(&mut self, action: i64, shared: &Shared) -> (f32, bool) {
        if let Some(done) = self.act(action, shared) {
            return done;
        }
        self.reply(shared);
        self.settle(shared)
    }

    /// The first part of a step: the agent's `action` alone. Returns the step's result when
    /// it needs no reply (a restart, or an illegal action that loses); else
    /// [`Seat::settle`] gives it, once the opponent has replied.
    pub(crate) fn act(&mut self, action: i64, shared: &Shared) -> Option<(f32, bool)> {
        if self.over {
            self.restart(shared);
            return Some((0.0, false));
        }
        self.acted = self.agent;
        self.before = observe::margin(&self.slot.position, self.agent);
        if !legal_action(self.slot.legal, action, shared.n) {
            // Only reached when illegal actions lose (else `step` refused them all).
            self.over = true;
            return Some((shared.scoring.worst(shared.seeds), true));
        }
        self.play(action as usize);
        None
    }

    /// The end of a step whose replies are played: the reward of the side that acted and
    /// whether the game ended; in self-play, the agent becomes the side to move.
    pub(crate) fn settle(&mut self, shared: &Shared) -> (f32, bool) {
        let over = self.ended();
        self.over = over;
        let after = observe::margin(&self.slot.position, self.acted);
        if matches!(shared.opponent, Opponent::SelfPlay) && !over {
            self.agent = self.slot.position.to_move();
        }
        (
            shared
                .scoring
                .reward(self.before, after, over, shared.seeds),
            over,
        )
    }

    /// Writes the observation from the agent's point of view, and the mask: the legal
    /// columns, or all of them once the game is over (the next action is then ignored,
    /// and a masked policy still needs one to draw).
    pub(crate) fn write(&self, obs: &mut [f32], mask: &mut [i8]) {
        observe::write(&self.slot.position, self.agent, obs);
        if self.over {
            mask.fill(1);
        } else {
            observe::write_mask(self.slot.legal, mask);
        }
    }

    /// Writes the observation and mask of the side to move (a policy's view).
    pub(crate) fn write_mover(&self, obs: &mut [f32], mask: &mut [i8]) {
        observe::write(&self.slot.position, self.slot.position.to_move(), obs);
        observe::write_mask(self.slot.legal, mask);
    }
}

/// Whether `action` is a legal column of `legal` on a board of `n` pits a row.
pub(crate) fn legal_action(legal: u16, action: i64, n: usize) -> bool {
    (0..n as i64).contains(&action) && (legal >> action) & 1 == 1
}

/// One of the columns of `legal` (not none), each as likely.
fn pick(legal: u16, rng: &mut Rng) -> usize {
    nth_column(legal, rng.below(legal.count_ones())) as usize
}

/// An index drawn with these cumulative weights (the last one is the total).
fn draw(cumulative: &[f64], rng: &mut Rng) -> usize {
    let total = *cumulative.last().expect("a league has a policy");
    let x = rng.next_f64() * total;
    cumulative
        .iter()
        .position(|&c| x < c)
        .unwrap_or(cumulative.len() - 1)
}
