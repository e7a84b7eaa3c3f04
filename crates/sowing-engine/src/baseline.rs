//! Baseline players: random and greedy.

use sowing::{Game, Move};

use crate::random::Rng;

use crate::{Info, Limits, Player};

/// Plays a uniformly random legal move.
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    /// A random player whose choices follow from `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Rng::new(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".to_owned()
    }

    fn choose(&mut self, game: &Game, _: &Limits, _: &mut dyn FnMut(&Info)) -> Move {
        self.rng
            .pick(&game.position().legal_moves())
            .copied()
            .expect("a game that is not over has a legal move")
    }
}

/// Plays the move that captures most at once (ties broken at random): one ply deep.
pub struct Greedy {
    rng: Rng,
}

impl Greedy {
    /// A greedy player whose tie-breaks follow from `seed`.
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            rng: Rng::new(seed),
        }
    }
}

impl Player for Greedy {
    fn name(&self) -> String {
        "greedy".to_owned()
    }

    fn choose(&mut self, game: &Game, _: &Limits, _: &mut dyn FnMut(&Info)) -> Move {
        let position = game.position();
        let me = position.to_move();
        let gain = |next: &sowing::Position| {
            i32::from(next.captured()[me]) - i32::from(next.captured()[!me])
        };
        let successors = position.successors();
        let best = successors
            .iter()
            .map(|(_, next)| gain(next))
            .max()
            .expect("a game that is not over has a legal move");
        let choices: Vec<Move> = successors
            .iter()
            .filter(|(_, next)| gain(next) == best)
            .map(|&(mv, _)| mv)
            .collect();
        *self.rng.pick(&choices).expect("at least the best move")
    }
}
