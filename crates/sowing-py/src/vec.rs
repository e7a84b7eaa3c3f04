//! `sowing.VecGame`: many games stepped together in Rust, for self-play and training.
//!
//! Each step plays one action in every game for the side to move there, then the passes
//! that follow (a player with no sowing move is never asked), and writes into NumPy arrays
//! that the `VecGame` owns and hands back every time: no allocation and no copy per step.
//! A finished game starts again at once. The GIL is released while the games are stepped.

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use sowing::Position;
use sowing_engine::random::Rng;

use crate::actions::{integer_actions, nth_column};
use crate::batch::{Reward, Slot};
use crate::buffer::{Buffer1, Buffer2};
use crate::game::Game;
use crate::memory::{alloc_with, check_memory};
use crate::{game_index, observe, rules_from, size, IllegalMoveError, SowingError};

/// Games stepped together: their successors' sowings interleaved, their data in the
/// first-level cache.
const STEP_BLOCK: usize = 64;

/// A raw view of the output arrays for the stepping loop, which runs without the GIL.
struct Out {
    obs: *mut f32,
    rewards: *mut f32,
    terminations: *mut bool,
    masks: *mut i8,
    to_move: *mut i8,
}

// The arrays are owned by the VecGame, which is borrowed mutably for the whole step.
unsafe impl Send for Out {}

impl Out {
    /// Writes `slot`'s observation, mask and side to move at `index`.
    ///
    /// # Safety
    /// The arrays have the VecGame's shape (`n` pits a row) and `index` is below its length.
    unsafe fn write(&self, slot: &Slot, index: usize, n: usize) {
        let size = observe::size(n);
        let obs = std::slice::from_raw_parts_mut(self.obs.add(index * size), size);
        let mask = std::slice::from_raw_parts_mut(self.masks.add(index * n), n);
        *self.to_move.add(index) = slot.write(obs, mask);
    }
}

/// `n` games stepped together in Rust (self-play: each action is played for whichever
/// side is to move in its game).
///
/// After `reset()` and every `step(actions)`, these arrays (the same objects every time,
/// overwritten in place) describe the games:
///
/// - `observations`: float32 `(n, 2N + 8)`, each from the point of view of the side to
///   move (as `Game.observation()`);
/// - `masks`: int8 `(n, N)`, the legal actions (columns of the mover's pits);
/// - `rewards`: float32 `(n,)`, for the side that made the step's move;
/// - `terminations`: bool `(n,)`, whether the step ended the game (which then restarted);
/// - `to_move`: int8 `(n,)`, the side to move now (0 South, 1 North).
///
/// Passes are played by the step itself, so the side to move always has a choice; after
/// a capture in Hoyito the same side moves again.
#[pyclass(module = "sowing", name = "VecGame")]
pub struct VecGame {
    slots: Vec<Slot>,
    start: Position,
    reward: Reward,
    n: usize,
    obs: Buffer2<f32>,
    rewards: Buffer1<f32>,
    terminations: Buffer1<bool>,
    masks: Buffer2<i8>,
    to_move: Buffer1<i8>,
    /// Each game's legal columns as bits (a copy of its slot's, side by side, so that
    /// checking or drawing the actions reads 2 bytes a game, not a cache line).
    legal: Vec<u16>,
    actions: Vec<u8>,
    /// `sample_actions`' array and generator.
    sampled: Buffer1<i64>,
    rng: Rng,
}

/// A generator seeded with `seed`, or from the operating system's entropy.
fn generator(seed: Option<u64>) -> Rng {
    seed.map_or_else(Rng::from_entropy, Rng::new)
}

/// One of the columns of `legal` (bits), each as likely, from the random 32 bits `draw`
/// (more come from `rng` on the rare draw that would bias it); 0 when there is none.
fn random_column(legal: u16, draw: u32, rng: &mut Rng) -> i64 {
    if legal == 0 {
        return 0;
    }
    i64::from(nth_column(legal, rng.below_from(draw, legal.count_ones())))
}

impl VecGame {
    fn copied(&self, py: Python<'_>) -> PyResult<VecGame> {
        let slots = self
            .slots
            .iter()
            .map(|slot| Slot::restore(slot.history()).expect("a slot has a move"))
            .collect();
        let reward = match self.reward {
            Reward::Margin => "margin",
            Reward::Captures => "captures",
        };
        let copy = VecGame::from_slots(py, self.start, slots, reward, self.rng.clone().next_u64())?;
        self.rewards.copy_to(py, &copy.rewards)?;
        self.terminations.copy_to(py, &copy.terminations)?;
        Ok(copy)
    }

    /// A VecGame of these slots (the arrays written from them).
    fn from_slots(
        py: Python<'_>,
        start: Position,
        slots: Vec<Slot>,
        reward: &str,
        seed: u64,
    ) -> PyResult<VecGame> {
        if slots.is_empty() {
            return Err(SowingError::new_err("a VecGame needs at least one game"));
        }
        let reward = match reward {
            "margin" => Reward::Margin,
            "captures" => Reward::Captures,
            _ => {
                return Err(SowingError::new_err(format!(
                    "unknown reward {reward:?} (expected margin or captures)"
                )))
            }
        };
        let n = slots.len();
        let per_row = start.rules().pits_per_row();
        let vec = VecGame {
            start,
            reward,
            n: per_row,
            obs: Buffer2::zeros(py, [n, observe::size(per_row)]),
            rewards: Buffer1::zeros(py, n),
            terminations: Buffer1::zeros(py, n),
            masks: Buffer2::zeros(py, [n, per_row]),
            to_move: Buffer1::zeros(py, n),
            legal: slots.iter().map(|slot| slot.legal).collect(),
            slots,
            actions: vec![0; n],
            sampled: Buffer1::zeros(py, n),
            rng: generator(Some(seed)),
        };
        let out = vec.out(py);
        for (index, slot) in vec.slots.iter().enumerate() {
            unsafe { out.write(slot, index, per_row) };
        }
        Ok(vec)
    }

    fn out(&self, py: Python<'_>) -> Out {
        Out {
            obs: self.obs.data(py),
            rewards: self.rewards.data(py),
            terminations: self.terminations.data(py),
            masks: self.masks.data(py),
            to_move: self.to_move.data(py),
        }
    }

    fn outputs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(
            py,
            [
                self.obs.array(py).into_any(),
                self.rewards.array(py).into_any(),
                self.terminations.array(py).into_any(),
                self.masks.array(py).into_any(),
            ],
        )
    }
}

#[pymethods]
impl VecGame {
    /// `n` games of `game` (with `pits` and the options, as `Game`), all at the start.
    /// `reward` is `"margin"` (the final seed margin, on the last step) or `"captures"`
    /// (the change of the mover's margin on every step). `seed` seeds `sample_actions`
    /// (`None`: from the operating system).
    #[new]
    #[pyo3(signature = (n, game = "hoyito-ii", pits = 6, *, reward = "margin", seed = None, **options))]
    fn new(
        py: Python<'_>,
        n: i64,
        game: &str,
        pits: i64,
        reward: &str,
        seed: Option<u64>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<VecGame> {
        let n = size("n", n)?;
        if n == 0 {
            return Err(SowingError::new_err("a VecGame needs at least one game"));
        }
        let reward = match reward {
            "margin" => Reward::Margin,
            "captures" => Reward::Captures,
            _ => {
                return Err(SowingError::new_err(format!(
                    "unknown reward {reward:?} (expected margin or captures)"
                )))
            }
        };
        let rules = rules_from(game, pits, options)?;
        let start = Position::start(rules);
        let per_row = rules.pits_per_row();
        check_memory(n, std::mem::size_of::<Slot>() + 16 * observe::size(per_row))?;
        let slots = alloc_with(n, || Slot::new(start))?;
        let vec = VecGame {
            start,
            reward,
            n: per_row,
            obs: Buffer2::zeros(py, [n, observe::size(per_row)]),
            rewards: Buffer1::zeros(py, n),
            terminations: Buffer1::zeros(py, n),
            masks: Buffer2::zeros(py, [n, per_row]),
            to_move: Buffer1::zeros(py, n),
            legal: slots.iter().map(|slot| slot.legal).collect(),
            slots,
            actions: vec![0; n],
            sampled: Buffer1::zeros(py, n),
            rng: generator(seed),
        };
        let out = vec.out(py);
        for (index, slot) in vec.slots.iter().enumerate() {
            unsafe { out.write(slot, index, per_row) };
        }
        Ok(vec)
    }

    /// Games in the batch.
    #[getter]
    fn num_envs(&self) -> usize {
        self.slots.len()
    }

    /// Actions per game: the pits of a row (N).
    #[getter]
    fn num_actions(&self) -> usize {
        self.n
    }

    /// Numbers in one observation: 2N + 8.
    #[getter]
    fn observation_size(&self) -> usize {
        observe::size(self.n)
    }

    /// float32 `(n, 2N + 8)`: each game from the side to move's point of view.
    #[getter]
    fn observations<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.obs.array(py)
    }

    /// float32 `(n,)`: the last step's reward for the side that moved.
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        self.rewards.array(py)
    }

    /// bool `(n,)`: whether the last step ended the game (it restarted since).
    #[getter]
    fn terminations<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.terminations.array(py)
    }

    /// int8 `(n, N)`: the legal actions of the side to move.
    #[getter]
    fn masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i8>> {
        self.masks.array(py)
    }

    /// int8 `(n,)`: the side to move, 0 South or 1 North.
    #[getter]
    fn to_move<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        self.to_move.array(py)
    }

    /// Restarts every game (and reseeds `sample_actions` when `seed` is given); returns
    /// `(observations, masks)`.
    #[pyo3(signature = (*, seed = None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Bound<'py, PyTuple>> {
        if seed.is_some() {
            self.rng = generator(seed);
        }
        let out = self.out(py);
        let n = self.n;
        for (index, (slot, legal)) in self.slots.iter_mut().zip(&mut self.legal).enumerate() {
            slot.restart(self.start);
            *legal = slot.legal;
            unsafe {
                out.write(slot, index, n);
                *out.rewards.add(index) = 0.0;
                *out.terminations.add(index) = false;
            }
        }
        PyTuple::new(
            py,
            [
                self.obs.array(py).into_any(),
                self.masks.array(py).into_any(),
            ],
        )
    }

    /// Plays `actions[i]` (a column of the mover's pits; any integer dtype) in game `i`, for every
    /// game, and returns `(observations, rewards, terminations, masks)` — the VecGame's own
    /// arrays, overwritten.
    ///
    /// Raises `IllegalMoveError`, before any game moves, when an action is not legal.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let actions = integer_actions(actions, self.slots.len())?;
        // One pass that only checks, with no branch to mispredict on legal actions; the
        // message is made when one is not.
        let view = actions.as_array();
        let mut all_legal = true;
        for ((&action, &legal), stored) in view.iter().zip(&self.legal).zip(&mut self.actions) {
            let column = action as u64;
            all_legal &= (column < self.n as u64) & ((u64::from(legal) >> (column & 15)) & 1 == 1);
            *stored = column as u8;
        }
        if !all_legal {
            let (index, (&action, slot)) = view
                .iter()
                .zip(&self.slots)
                .enumerate()
                .find(|(_, (&action, slot))| {
                    !(0..self.n as i64).contains(&action) || (slot.legal >> action) & 1 == 0
                })
                .expect("an illegal action");
            return Err(IllegalMoveError::new_err(format!(
                "game {index}: action {action} is not legal (legal: {:?}; position {})",
                (0..self.n)
                    .filter(|c| (slot.legal >> c) & 1 == 1)
                    .collect::<Vec<_>>(),
                slot.position
            )));
        }
        let out = self.out(py);
        let n = self.n;
        let (slots, legal, actions, start, reward) = (
            &mut self.slots,
            &mut self.legal,
            &self.actions,
            &self.start,
            self.reward,
        );
        py.detach(move || {
            let out = out;
            // A block of games at a time: each plays its move, then the legal moves of all
            // the positions reached are sown together (their sowings interleaved), then
            // each finishes its step.
            let mut played = [None; STEP_BLOCK];
            for (block, ((slots, legal), actions)) in slots
                .chunks_mut(STEP_BLOCK)
                .zip(legal.chunks_mut(STEP_BLOCK))
                .zip(actions.chunks(STEP_BLOCK))
                .enumerate()
            {
                for i in 0..slots.len() {
                    if let (Some(ahead), Some(&action)) = (slots.get(i + 8), actions.get(i + 8)) {
                        ahead.prefetch_play(usize::from(action));
                    }
                    if let (Some(ahead), Some(&action)) = (slots.get(i + 4), actions.get(i + 4)) {
                        ahead.prefetch_filter(usize::from(action));
                    }
                    played[i] = Some(slots[i].play(usize::from(actions[i])));
                }
                Position::sow_columns_batch(slots);
                for (offset, ((slot, legal), played)) in
                    slots.iter_mut().zip(legal).zip(&played).enumerate()
                {
                    let played = played.expect("played above");
                    let (value, over) = slot.finish_step(played, start, reward);
                    *legal = slot.legal;
                    let index = block * STEP_BLOCK + offset;
                    unsafe {
                        *out.rewards.add(index) = value;
                        *out.terminations.add(index) = over;
                        out.write(slot, index, n);
                    }
                }
            }
        });
        self.outputs(py)
    }

    /// int64 `(n,)`: a uniformly random legal action of every game, drawn in Rust from the
    /// VecGame's seeded generator — random play without a draw in NumPy. The same array
    /// every call, overwritten: pass it to `step`, or copy it to keep it.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let sampled = self.sampled.array(py);
        // A checked borrow: it fails, with a Python exception, if the caller made the
        // array read-only or holds a view of it that Rust borrows.
        let mut writing = sampled.try_readwrite().map_err(|error| {
            SowingError::new_err(format!("sample_actions cannot write its array: {error}"))
        })?;
        let out = writing.as_slice_mut()?;
        // Two games a 64-bit draw.
        for (actions, legal) in out.chunks_mut(2).zip(self.legal.chunks(2)) {
            let draw = self.rng.next_u64();
            for ((action, &legal), draw) in actions
                .iter_mut()
                .zip(legal)
                .zip([draw as u32, (draw >> 32) as u32])
            {
                *action = random_column(legal, draw, &mut self.rng);
            }
        }
        drop(writing);
        Ok(sampled)
    }

    /// Game `index` as it stands now: a new `Game` from its position (no history).
    fn game(&self, index: i64) -> PyResult<Game> {
        let index = game_index(index, self.slots.len(), "VecGame")?;
        Ok(Game::wrap(self.slots[index].game()))
    }

    fn __len__(&self) -> usize {
        self.slots.len()
    }

    /// A copy: the same games (their positions since the last capture, so that the
    /// repetition rule carries over), reward and arrays; its `sample_actions` generator is
    /// seeded from this one's (the two draw differently from then on).
    fn __copy__(&self, py: Python<'_>) -> PyResult<VecGame> {
        self.copied(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<VecGame> {
        self.copied(py)
    }

    /// Pickles as the games' positions since their last capture (position texts), the
    /// reward and a seed for `sample_actions` drawn from this one's generator.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let this = slf.borrow();
        let histories: Vec<Vec<String>> = this
            .slots
            .iter()
            .map(|slot| slot.history().iter().map(|p| p.to_string()).collect())
            .collect();
        let reward = match this.reward {
            Reward::Margin => "margin",
            Reward::Captures => "captures",
        };
        let seed = this.rng.clone().next_u64();
        let restore = py.get_type::<VecGame>().getattr("_restore")?;
        let args = (this.start.to_string(), histories, reward, seed).into_pyobject(py)?;
        PyTuple::new(py, [restore, args.into_any()])
    }

    /// The `VecGame` of `__reduce__`'s arguments.
    #[staticmethod]
    fn _restore(
        py: Python<'_>,
        start: &str,
        histories: Vec<Vec<String>>,
        reward: &str,
        seed: u64,
    ) -> PyResult<VecGame> {
        let parse = |text: &str| {
            text.parse::<Position>()
                .map_err(|e| crate::ParseError::new_err(e.to_string()))
        };
        let start = parse(start)?;
        let mut slots = Vec::with_capacity(histories.len());
        for (index, history) in histories.iter().enumerate() {
            let history = history
                .iter()
                .map(|t| parse(t))
                .collect::<PyResult<Vec<_>>>()?;
            slots.push(Slot::restore(&history).ok_or_else(|| {
                SowingError::new_err(format!("game {index}: no position with a move to restore"))
            })?);
        }
        VecGame::from_slots(py, start, slots, reward, seed)
    }
}
