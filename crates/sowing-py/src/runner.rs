//! Stepping every game of a `VectorGame` without Python: the output arrays seen as raw rows
//! ([`Out`]), what one call does to the games ([`Job`]), and [`run`], which does it on the
//! calling thread or across the thread pool it runs in. Nothing here needs the GIL, so a
//! job can run while Python computes (`VectorGame.send`/`recv`).

use rayon::prelude::*;

use crate::seat::{Autoreset, Seat, Shared};

/// Raw views of the output arrays, written row by row by the games (from worker threads)
/// while the GIL is released.
#[derive(Clone, Copy)]
pub(crate) struct Out {
    pub(crate) obs: *mut f32,
    pub(crate) final_obs: *mut f32,
    pub(crate) rewards: *mut f32,
    /// Two a game: South's reward, then North's.
    pub(crate) seat_rewards: *mut f32,
    pub(crate) terminations: *mut bool,
    pub(crate) masks: *mut i8,
    pub(crate) agents: *mut i8,
    /// Numbers in one observation.
    pub(crate) size: usize,
    /// Pits a row.
    pub(crate) n: usize,
}

// The arrays belong to the VectorGame, which lets no other step start (nor itself be
// dropped) before a job's end, and each game writes only its own rows.
unsafe impl Send for Out {}
unsafe impl Sync for Out {}

impl Out {
    /// Writes game `index`'s observation, mask and seat.
    ///
    /// # Safety
    /// `index` is below the arrays' length and no other thread writes its rows.
    pub(crate) unsafe fn write(&self, seat: &Seat, index: usize) {
        let obs = std::slice::from_raw_parts_mut(self.obs.add(index * self.size), self.size);
        let mask = std::slice::from_raw_parts_mut(self.masks.add(index * self.n), self.n);
        seat.write(obs, mask);
        *self.agents.add(index) = seat.agent.index() as i8;
    }

    /// Writes game `index`'s step result: `reward` for the side that acted, its opposite
    /// for the other (the margin is zero-sum), and whether the game ended.
    ///
    /// # Safety
    /// As [`Out::write`].
    pub(crate) unsafe fn result(&self, seat: &Seat, index: usize, reward: f32, over: bool) {
        *self.rewards.add(index) = reward;
        *self.terminations.add(index) = over;
        let acted = seat.acted.index();
        *self.seat_rewards.add(2 * index + acted) = reward;
        *self.seat_rewards.add(2 * index + 1 - acted) = 0.0 - reward;
    }

    /// Copies game `index`'s observation into the final observations.
    ///
    /// # Safety
    /// As [`Out::write`].
    pub(crate) unsafe fn keep_final(&self, index: usize) {
        std::ptr::copy_nonoverlapping(
            self.obs.add(index * self.size),
            self.final_obs.add(index * self.size),
            self.size,
        );
    }
}

/// What one call does to the games.
pub(crate) enum Job {
    /// Each game's action (one a game), then the opponent's replies.
    Step(Vec<i64>),
    /// Restart the games (those that are true, if given).
    Reset(Option<Vec<bool>>),
}

impl Job {
    /// The actions of a step (empty for a reset), handed back to be reused.
    pub(crate) fn into_actions(self) -> Vec<i64> {
        match self {
            Job::Step(actions) => actions,
            Job::Reset(_) => Vec::new(),
        }
    }
}

/// Does `job` to every game, writing the rows of `out`: on this thread (`chunk` `None`) or
/// in chunks of `chunk` games across the thread pool the caller runs in.
pub(crate) fn run(seats: &mut [Seat], shared: &Shared, out: Out, job: &Job, chunk: Option<usize>) {
    match chunk {
        None => {
            for (index, seat) in seats.iter_mut().enumerate() {
                run_one(index, seat, shared, out, job);
            }
        }
        Some(size) => seats
            .par_chunks_mut(size)
            .enumerate()
            .for_each(|(first, games)| {
                for (offset, seat) in games.iter_mut().enumerate() {
                    run_one(first * size + offset, seat, shared, out, job);
                }
            }),
    }
}

/// [`run`] for game `index`.
fn run_one(index: usize, seat: &mut Seat, shared: &Shared, out: Out, job: &Job) {
    // SAFETY: each game writes its own rows, and `index` is its place in the arrays.
    unsafe {
        match job {
            Job::Reset(mask) => {
                if mask.as_ref().is_none_or(|mask| mask[index]) {
                    seat.restart(shared);
                    out.result(seat, index, 0.0, false);
                    out.write(seat, index);
                }
            }
            Job::Step(actions) => {
                let (reward, over) = seat.step(actions[index], shared);
                out.result(seat, index, reward, over);
                if over && shared.autoreset == Autoreset::SameStep {
                    out.write(seat, index);
                    out.keep_final(index);
                    seat.restart(shared);
                }
                out.write(seat, index);
            }
        }
    }
}
