//! The player interface every front end drives, and players named by text.

use std::fmt;
use std::ops::Neg;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use sowing::{BySide, Game, Move};

use crate::time::Clock;
use crate::{
    Engine, Greedy, MctsPlayer, MctsSettings, RandomPlayer, SearchPlayer, SearchSettings, TableSet,
};

/// How long a player may think about one move. Unset fields do not limit; a player with
/// no limit at all uses its own default, except that `infinite` thinks until `stop` is set.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Wall-clock time for this move (a protocol's `movetime`).
    pub time: Option<Duration>,
    /// Nodes to search.
    pub nodes: Option<u64>,
    /// Depth in plies.
    pub depth: Option<u32>,
    /// Each side's clock, if the game has a time control: the side to move's clock decides
    /// the time for the move ([`Limits::move_time`]), in place of `time`.
    pub clock: BySide<Option<Clock>>,
    /// Think until `stop` is set, whatever the other limits say (a player's own caps, such
    /// as a weak level's nodes, still apply).
    pub infinite: bool,
    /// Set from another thread to stop the search early; the best move so far is returned.
    /// The one way to stop every player, from every front end.
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

impl Score {
    /// The value in centiseeds, for comparing scores: a proven margin counts as that many
    /// whole seeds.
    pub fn centiseeds(self) -> i32 {
        match self {
            Score::Estimate(centi) => centi,
            Score::Proven(margin) => 100 * margin,
        }
    }

    /// The value in seeds (an estimate in fractions of a seed).
    pub fn seeds(self) -> f64 {
        match self {
            Score::Estimate(centi) => f64::from(centi) / 100.0,
            Score::Proven(margin) => f64::from(margin),
        }
    }

    /// Whether no estimate went into the value.
    pub fn is_proven(self) -> bool {
        matches!(self, Score::Proven(_))
    }
}

/// The same value for the other side.
impl Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        match self {
            Score::Estimate(centi) => Score::Estimate(-centi),
            Score::Proven(margin) => Score::Proven(-margin),
        }
    }
}

/// In seeds: `+2.50` for an estimate, `win by 8`, `draw` or `loss by 3` for a proven result.
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

/// A player named by text: `random`, `greedy`, `level:1` … `level:6`, `perfect`,
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
    /// The endgame tables, falling back to the full-strength search (level 6) outside them.
    Perfect,
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
            "perfect" if rest.is_empty() => Ok(PlayerSpec::Perfect),
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
                "unknown player {s:?} (expected random, greedy, level:1 to level:6, perfect, search[:settings] or mcts[:settings])"
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
            PlayerSpec::Perfect => f.write_str("perfect"),
            PlayerSpec::Search(settings) => with(f, "search", settings.to_string()),
            PlayerSpec::Mcts(settings) => with(f, "mcts", settings.to_string()),
        }
    }
}

impl PlayerSpec {
    /// The player, with `seed` for whatever randomness it uses (same seed, same moves),
    /// without endgame tables.
    pub fn build(&self, seed: u64) -> Box<dyn Player> {
        self.build_with_tables(seed, None)
    }

    /// The player, with these endgame tables for the players that use them (levels 5–6,
    /// `perfect`, `search:tables=on`).
    pub fn build_with_tables(&self, seed: u64, tables: Option<Arc<TableSet>>) -> Box<dyn Player> {
        match self {
            PlayerSpec::Random => Box::new(RandomPlayer::new(seed)),
            PlayerSpec::Greedy => Box::new(Greedy::new(seed)),
            PlayerSpec::Level(_) | PlayerSpec::Perfect | PlayerSpec::Search(_) => {
                let settings = self.search_settings().expect("a search has settings");
                Box::new(SearchPlayer::new(self.to_string(), settings, seed).with_tables(tables))
            }
            PlayerSpec::Mcts(settings) => Box::new(MctsPlayer::new(settings.clone(), seed)),
        }
    }

    /// The search settings of a level, `perfect` or search spec, if it is one.
    pub fn search_settings(&self) -> Option<SearchSettings> {
        match self {
            PlayerSpec::Level(level) => Some(crate::levels::settings(*level)),
            PlayerSpec::Perfect => Some(crate::levels::settings(6)),
            PlayerSpec::Search(settings) => Some(settings.clone()),
            _ => None,
        }
    }

    /// The engine of a level, `perfect` or search spec (for analysis and the protocol), if
    /// it is one.
    pub fn build_engine(&self, seed: u64) -> Option<Engine> {
        Some(Engine::new(self.search_settings()?, seed))
    }

    /// [`PlayerSpec::build_engine`] with these endgame tables (used where the settings allow).
    pub fn build_engine_with_tables(
        &self,
        seed: u64,
        tables: Option<Arc<TableSet>>,
    ) -> Option<Engine> {
        let mut engine = self.build_engine(seed)?;
        engine.set_tables(tables);
        Some(engine)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_negated_and_shown_in_seeds() {
        assert_eq!(-Score::Estimate(250), Score::Estimate(-250));
        assert_eq!(-Score::Proven(3), Score::Proven(-3));
        assert_eq!(Score::Proven(-3).centiseeds(), -300);
        assert_eq!(Score::Estimate(-125).seeds(), -1.25);
        assert_eq!(Score::Estimate(250).to_string(), "+2.50");
        assert_eq!(Score::Proven(-3).to_string(), "loss by 3");
    }
}
