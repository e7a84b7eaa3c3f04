//! Computer players for the three games, behind one interface, [`Player`]: given a game and
//! limits, choose a move, reporting progress along the way.
//!
//! ```
//! use sowing::{Game, Rules, Variant};
//! use sowing_engine::{Limits, PlayerSpec};
//!
//! let game = Game::new(Rules::new(Variant::HoyitoII));
//! let mut player = "greedy".parse::<PlayerSpec>()?.build(7);
//! let mv = player.choose(&game, &Limits::default(), &mut |_| {});
//! assert!(game.legal_moves().contains(&mv));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

pub mod analysis;
pub mod arena;
mod baseline;
pub mod bench;
pub mod clock;
mod engine;
pub mod eval;
pub mod features;
pub mod levels;
mod mcts;
mod ordering;
mod player;
pub mod random;
pub mod search;
mod search_player;
pub mod tables;
pub mod time;
pub mod tt;
pub mod tune;
mod weights;

pub use baseline::{Greedy, RandomPlayer};
pub use engine::Engine;
pub use mcts::{MctsPlayer, MctsSettings};
pub use player::{Info, Limits, Player, PlayerSpec, Score, SpecError};
pub use search::{SearchResult, Searcher};
pub use search_player::{SearchPlayer, SearchSettings};
pub use tables::TableSet;
pub use time::Clock;
