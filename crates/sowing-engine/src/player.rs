//! The player interface every front end drives, and players named by text.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use sowing::{Game, Move};

use crate::{Greedy, RandomPlayer};

/// How long a player may think. Unset fields do not limit; a player with no limit at all
/// uses its own default.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Wall-clock time for this move.
    pub time: Option<Duration>,
    /// Nodes to search.
    pub nodes: Option<u64>,
    /// Depth in plies.
    pub depth: Option<u32>,
    /// Set from another thread to stop the search early; the best move so far is returned.
    pub stop: Option<Arc<AtomicBool>>,
}

/// A position's value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// An estimate: the expected margin in seeds, in hundredths of a seed.
    Estimate(i32),
    /// A proven result: the final margin in seeds with best play (> 0 wins, 0 draws).
    Proven(i32),
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Estimate(centi) => write!(f, "{:+.2}", f64::from(centi) / 100.0),
            Score::Proven(0) => f.write_str("draw"),
            Score::Proven(margin) if margin > 0 => write!(f, "win by {margin}"),
            Score::Proven(margin) => write!(f, "loss by {}", -margin),
        }
    }
}

/// Progress of a search, reported as it goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Depth completed.
    pub depth: u32,
    /// The value of the position for the side to move.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// The principal variation, best move first.
    pub pv: Vec<Move>,
}

/// A computer player.
pub trait Player: Send {
    /// A name for people and records, like `greedy` or `level:4`.
    fn name(&self) -> String;

    /// A legal move for the side to move in `game`, which must not be over.
    fn choose(&mut self, game: &Game, limits: &Limits, progress: &mut dyn FnMut(&Info)) -> Move;

    /// Forgets what it learnt in the last game (tables, history).
    fn new_game(&mut self) {}
}

/// A player named by text: `random`, `greedy`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// Uniformly random legal moves.
    Random,
    /// The move that captures most at once.
    Greedy,
}

/// A player name that is not known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

impl FromStr for PlayerSpec {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<PlayerSpec, SpecError> {
        match s {
            "random" => Ok(PlayerSpec::Random),
            "greedy" => Ok(PlayerSpec::Greedy),
            _ => Err(SpecError(format!(
                "unknown player {s:?} (expected random or greedy)"
            ))),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
        }
    }
}

impl PlayerSpec {
    /// The player, with `seed` for whatever randomness it uses (same seed, same moves).
    pub fn build(&self, seed: u64) -> Box<dyn Player> {
        match self {
            PlayerSpec::Random => Box::new(RandomPlayer::new(seed)),
            PlayerSpec::Greedy => Box::new(Greedy::new(seed)),
        }
    }
}
