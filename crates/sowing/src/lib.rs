//! The exact rules of three two-row mancala games with relay sowing — Hoyito II and
//! Hoyito III (Dominican Republic) and Ayoayo (Yoruba, Nigeria) — as ruled by the project's
//! `RULES.md`, with their notation: move names, a one-line position text, game records and
//! the JSON machine state.
//!
//! No I/O and no panics on input. [`Position`] is a small `Copy` value for search;
//! [`Game`] keeps history, undo/redo and the repetition rule.
//!
//! ```
//! use sowing::{Game, Move, Rules, Variant};
//!
//! let mut game = Game::new(Rules::new(Variant::Ayoayo));
//! for token in ["C", "a"] {
//!     game.play(game.parse_move(token)?)?;
//! }
//! println!("{}", game.position());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

mod game;
#[cfg(feature = "serde")]
mod json;
mod laps;
mod moves;
mod outcome;
mod position;
mod record;
mod repetition;
mod rounds;
mod rules;
mod side;
mod text;

pub use game::Game;
#[cfg(feature = "serde")]
pub use json::{JsonError, State};
pub use moves::{Move, MoveList, MoveName, ParseMoveError, Pit};
pub use outcome::{End, Event, Illegal, Outcome, PlayError, PositionError, Report, TakeReason};
pub use position::{Columns, ColumnsParts, ColumnsSlot, Position};
pub use record::{Record, RecordError};
pub use rounds::Match;
pub use rules::{
    CasaRows, FinalFour, Leftover, OptionValue, RuleOption, Rules, RulesError, Variant, MAX_LAPS,
};
pub use side::{BySide, ParseSideError, Side};
pub use text::ParsePositionError;

/// The number of move sequences of length `depth` from `position`: every sowing move (extra
/// turns included) and every pass is one ply, a finished position has no moves, and
/// repetition (C.3) is ignored, since perft is about positions.
///
/// ```
/// use sowing::{perft, Position, Rules, Variant};
///
/// assert_eq!(perft(&Position::start(Rules::new(Variant::HoyitoII)), 1), 6);
/// ```
pub fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.successors().len() as u64,
        _ => position
            .successors()
            .iter()
            .map(|(_, next)| perft(next, depth - 1))
            .sum(),
    }
}
