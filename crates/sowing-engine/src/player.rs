//! The player interface every front end drives, and players named by text.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use sowing::{Game, Move};

use crate::{Greedy, MctsPlayer, MctsSettings, RandomPlayer, SearchPlayer, SearchSettings};

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

/// A player named by text: `random`, `greedy`, `level:1` … `level:6`,
/// `search[:key=value,…]` (depth, nodes, time in ms, hash in MiB, noise, quiescence=on|off,
/// eval=tuned|margin) or `mcts[:key=value,…]` (c, playouts, time, cap).
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// Uniformly random legal moves.
    Random,
    /// The move that captures most at once.
    Greedy,
    /// A strength level, 1 (beginner) to 6 (full strength).
    Level(u8),
    /// The alpha-beta search with these settings.
    Search(SearchSettings),
    /// Monte Carlo tree search with these settings.
    Mcts(MctsSettings),
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

/// Splits `key=value,key=value` and feeds each pair to `set`.
fn settings<T>(
    text: &str,
    mut value: T,
    set: impl Fn(&mut T, &str, &str) -> Result<(), String>,
) -> Result<T, SpecError> {
    for pair in text.split(',').filter(|p| !p.is_empty()) {
        let (key, v) = pair
            .split_once('=')
            .ok_or_else(|| SpecError(format!("{pair:?} is not a setting like key=value")))?;
        set(&mut value, key, v).map_err(SpecError)?;
    }
    Ok(value)
}

impl FromStr for PlayerSpec {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<PlayerSpec, SpecError> {
        let (name, rest) = s.split_once(':').unwrap_or((s, ""));
        match name {
            "random" if rest.is_empty() => Ok(PlayerSpec::Random),
            "greedy" if rest.is_empty() => Ok(PlayerSpec::Greedy),
            "level" => match rest.parse::<u8>() {
                Ok(level) if crate::levels::LEVELS.contains(&level) => Ok(PlayerSpec::Level(level)),
                _ => Err(SpecError(format!(
                    "{s:?}: a level is level:1 (beginner) to level:6 (full strength)"
                ))),
            },
            "search" => Ok(PlayerSpec::Search(settings(
                rest,
                SearchSettings::default(),
                SearchSettings::set,
            )?)),
            "mcts" => Ok(PlayerSpec::Mcts(settings(
                rest,
                MctsSettings::default(),
                MctsSettings::set,
            )?)),
            _ => Err(SpecError(format!(
                "unknown player {s:?} (expected random, greedy, level:1 to level:6, search[:settings] or mcts[:settings])"
            ))),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let with = |f: &mut fmt::Formatter<'_>, name: &str, settings: String| {
            if settings.is_empty() {
                f.write_str(name)
            } else {
                write!(f, "{name}:{settings}")
            }
        };
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Level(level) => write!(f, "level:{level}"),
            PlayerSpec::Search(settings) => with(f, "search", settings.to_string()),
            PlayerSpec::Mcts(settings) => with(f, "mcts", settings.to_string()),
        }
    }
}

impl PlayerSpec {
    /// The player, with `seed` for whatever randomness it uses (same seed, same moves).
    pub fn build(&self, seed: u64) -> Box<dyn Player> {
        match self {
            PlayerSpec::Random => Box::new(RandomPlayer::new(seed)),
            PlayerSpec::Greedy => Box::new(Greedy::new(seed)),
            PlayerSpec::Level(level) => Box::new(SearchPlayer::new(
                self.to_string(),
                crate::levels::settings(*level),
                seed,
            )),
            PlayerSpec::Search(settings) => {
                Box::new(SearchPlayer::new(self.to_string(), settings.clone(), seed))
            }
            PlayerSpec::Mcts(settings) => Box::new(MctsPlayer::new(settings.clone(), seed)),
        }
    }

    /// The search player of a level or search spec (for analysis and the protocol), if it
    /// is one.
    pub fn build_search(&self, seed: u64) -> Option<SearchPlayer> {
        match self {
            PlayerSpec::Level(level) => Some(SearchPlayer::new(
                self.to_string(),
                crate::levels::settings(*level),
                seed,
            )),
            PlayerSpec::Search(settings) => {
                Some(SearchPlayer::new(self.to_string(), settings.clone(), seed))
            }
            _ => None,
        }
    }
}
