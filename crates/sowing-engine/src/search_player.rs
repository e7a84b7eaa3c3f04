//! The search as a [`Player`], with its settings; the strength levels are such settings.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use sowing::{Game, Move};

use crate::search::SearchResult;
use crate::{Engine, Info, Limits, Player, TableSet};

/// Settings of the search. Depth, nodes and time are caps: the smaller of the setting and
/// the limits a caller gives wins; with neither, [`SearchSettings::DEFAULT_TIME`] (see
/// [`Engine::limits`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchSettings {
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Nodes per move.
    pub nodes: Option<u64>,
    /// Time per move.
    pub time: Option<Duration>,
    /// Random offsets of the root moves' values, in centiseeds (weak levels).
    pub noise: i32,
    /// Extend capture sequences past the depth limit.
    pub quiescence: bool,
    /// Evaluate with the tuned features (else the captured margin alone).
    pub features: bool,
    /// Use the endgame tables, if the engine has them ([`Engine::set_tables`]).
    pub tables: bool,
}

impl SearchSettings {
    /// Think this long when nothing else limits the search.
    pub const DEFAULT_TIME: Duration = Duration::from_secs(1);
}

impl Default for SearchSettings {
    fn default() -> SearchSettings {
        SearchSettings {
            hash_mib: 16,
            depth: None,
            nodes: None,
            time: None,
            noise: 0,
            quiescence: true,
            features: true,
            tables: false,
        }
    }
}

impl SearchSettings {
    /// `key=value` pairs of the settings that differ from the defaults.
    fn pairs(&self) -> Vec<String> {
        let default = SearchSettings::default();
        let mut pairs = Vec::new();
        if let Some(depth) = self.depth {
            pairs.push(format!("depth={depth}"));
        }
        if let Some(nodes) = self.nodes {
            pairs.push(format!("nodes={nodes}"));
        }
        if let Some(time) = self.time {
            pairs.push(format!("time={}", time.as_millis()));
        }
        if self.hash_mib != default.hash_mib {
            pairs.push(format!("hash={}", self.hash_mib));
        }
        if self.noise != 0 {
            pairs.push(format!("noise={}", self.noise));
        }
        if !self.quiescence {
            pairs.push("quiescence=off".to_owned());
        }
        if !self.features {
            pairs.push("eval=margin".to_owned());
        }
        if self.tables {
            pairs.push("tables=on".to_owned());
        }
        pairs
    }

    /// Sets one `key=value` pair.
    ///
    /// # Errors
    /// On an unknown key or a malformed value.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let number = |value: &str| {
            value
                .parse::<u64>()
                .map_err(|_| format!("{key}={value}: expected a whole number"))
        };
        match key {
            "depth" => self.depth = Some(number(value)?.clamp(1, 240) as u32),
            "nodes" => self.nodes = Some(number(value)?.max(1)),
            "time" => self.time = Some(Duration::from_millis(number(value)?.max(1))),
            "hash" => self.hash_mib = number(value)?.clamp(1, 4096) as usize,
            "noise" => self.noise = number(value)?.min(100_000) as i32,
            "quiescence" => {
                self.quiescence = match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err(format!("quiescence={value}: expected on or off")),
                }
            }
            "eval" => {
                self.features = match value {
                    "tuned" => true,
                    "margin" => false,
                    _ => return Err(format!("eval={value}: expected tuned or margin")),
                }
            }
            "tables" => {
                self.tables = match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err(format!("tables={value}: expected on or off")),
                }
            }
            _ => {
                return Err(format!(
                    "unknown search setting {key:?} (expected depth, nodes, time, hash, noise, quiescence, eval or tables)"
                ))
            }
        }
        Ok(())
    }
}

impl fmt::Display for SearchSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.pairs().join(","))
    }
}

/// The alpha-beta search as a [`Player`]: an [`Engine`] with a name, keeping its table
/// through a game ([`Player::new_game`] clears it).
pub struct SearchPlayer {
    name: String,
    engine: Engine,
}

impl SearchPlayer {
    /// A search player; `seed` decides the noise of weak settings.
    pub fn new(name: String, settings: SearchSettings, seed: u64) -> SearchPlayer {
        SearchPlayer {
            name,
            engine: Engine::new(settings, seed),
        }
    }

    /// Searches and returns everything found (for analysis), as [`Engine::go`].
    pub fn analyse(
        &mut self,
        game: &Game,
        limits: &Limits,
        progress: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.engine.go(game, limits, progress)
    }

    /// Gives the engine these tables (used if the settings say so).
    pub fn with_tables(mut self, tables: Option<Arc<TableSet>>) -> SearchPlayer {
        self.engine.set_tables(tables);
        self
    }

    /// The engine, for the front ends that drive it directly.
    pub fn into_engine(self) -> Engine {
        self.engine
    }
}

impl Player for SearchPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &Game, limits: &Limits, progress: &mut dyn FnMut(&Info)) -> Move {
        self.engine.go(game, limits, progress).best
    }

    fn new_game(&mut self) {
        self.engine.new_game();
    }
}
