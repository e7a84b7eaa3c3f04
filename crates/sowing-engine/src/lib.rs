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

mod baseline;
pub mod bench;
pub mod eval;
pub mod levels;
mod mcts;
mod ordering;
mod player;
pub mod search;
mod search_player;
pub mod tt;
pub mod tune;
mod weights;

/// Laps a player follows a sowing before leaving the move out as unsettled (see
/// [`sowing::Position::sow_within`]): about a millisecond. Nearly every move ends within
/// 100 laps; a few endless sowings cycle only after millions, and checking them exactly at
/// every node would stall a search for minutes.
pub const SETTLE_LAPS: u64 = 1 << 16;

pub use baseline::{Greedy, RandomPlayer};
pub use mcts::{MctsPlayer, MctsSettings};
pub use player::{Info, Limits, Player, PlayerSpec, Score, SpecError};
pub use search::{SearchResult, Searcher};
pub use search_player::{SearchPlayer, SearchSettings};
