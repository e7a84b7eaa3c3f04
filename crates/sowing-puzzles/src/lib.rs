//! Puzzles proven by perfect play. A position is a puzzle when its mover has exactly one
//! move that keeps the position's value, as the endgame tables prove it, and every other
//! move gives up at least [`threshold`] seeds. [`Miner`] finds them among the positions of
//! finished games and of self-play ([`sources`]), with the solution line ([`line`]), the
//! themes the rules' trace shows ([`themes`]) and a first rating ([`rating`]).
//! `docs/puzzles.md` documents the choices.
//!
//! ```
//! use sowing::{Rules, Variant};
//! use sowing_puzzles::{sources, Miner};
//! use sowing_tables::{build, Tables};
//!
//! let dir = std::env::temp_dir().join(format!("sowing-puzzles-doc-{}", std::process::id()));
//! let rules = Rules::new(Variant::HoyitoII);
//! build::build(&dir, rules, 8, &build::Options::quiet())?;
//! let tables = Tables::open(&dir, rules)?;
//! let mut miner = Miner::new(&tables, 20);
//! let positions = sources::self_play(&tables, rules, 7, 0..64);
//! miner.add(&positions, "self-play")?;
//! let stats = miner.stats();
//! assert_eq!(stats.kept as usize, miner.puzzles().len());
//! assert!(stats.kept <= stats.candidates);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

pub mod line;
mod mine;
pub mod rating;
pub mod sources;
pub mod themes;
mod values;

pub use mine::{Miner, Stats};
pub use values::{move_values, only_move, threshold, MoveValues};

use serde::{Deserialize, Serialize};

/// One puzzle: one line of the JSONL file `sow puzzles mine` writes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Puzzle {
    /// The game: `hoyito-ii`, `hoyito-iii` or `ayoayo` (its options are in `position`).
    pub game: String,
    /// The position, as the text `sow solve` reads (options included).
    pub position: String,
    /// The solution line: the mover's moves and the opponent's best replies between them,
    /// named as `sow replay` names them. It starts and ends with a move of the mover.
    pub moves: Vec<String>,
    /// The position's proven value for the mover: its future captures minus the
    /// opponent's, with best play.
    pub value: i32,
    /// What the line shows, by [`themes::Theme`] code.
    pub themes: Vec<String>,
    /// A first estimate of its difficulty, on the players' rating scale ([`rating`]).
    pub rating: i32,
    /// Where the position came from: `self-play` or `game`.
    pub source: String,
}
