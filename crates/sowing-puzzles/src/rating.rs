//! A puzzle's first rating, before any player has tried it: from what makes a line hard to
//! find. Glicko-2 moves it with every result (the server's and the page's).
//!
//! `rating = 1000 + 200 × (the mover's moves in the line − 1) + 250 if the only move is
//! not the greedy one (another move captures more at once) + 40 × (legal moves − 2)`,
//! kept within [`MIN`]–[`MAX`].

use sowing::Position;
use sowing_tables::move_value;

use crate::values::MoveValues;

/// The lowest first rating.
pub const MIN: i32 = 600;
/// The highest first rating.
pub const MAX: i32 = 2600;

/// The first rating of a puzzle at `start`, whose moves are `values`, whose only move is
/// `values[only]` and whose line holds `mover_moves` moves of the mover.
pub fn initial(start: &Position, values: &MoveValues, only: usize, mover_moves: usize) -> i32 {
    // What each move gains at once, before any reply: the captures alone.
    let gain = |i: usize| move_value(start, &values[i].1, 0);
    let greedy = (0..values.len()).map(gain).max().unwrap_or(0);
    let mut rating = 1000 + 200 * (mover_moves as i32 - 1);
    if gain(only) < greedy {
        rating += 250;
    }
    rating += 40 * (values.len() as i32 - 2);
    rating.clamp(MIN, MAX)
}
