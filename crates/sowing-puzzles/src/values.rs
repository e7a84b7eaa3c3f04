//! Exact move values from the tables, and what makes a position a puzzle.

use arrayvec::ArrayVec;
use sowing::{Move, Position, Rules, Variant};
use sowing_tables::{move_value, Tables, TablesError};

/// Each legal move of a position, the position it leads to, and its value for the mover.
pub type MoveValues = ArrayVec<(Move, Position, i32), { Rules::MAX_PITS_PER_ROW }>;

/// The seeds every other move must give up for a position to be a puzzle: 4 in Hoyito
/// (every capture takes four, so any worse move loses at least four), 2 in Ayoayo (a
/// position's seeds are shared between the two players, so margins move by twos).
pub const fn threshold(variant: Variant) -> i32 {
    match variant {
        Variant::Ayoayo => 2,
        _ => 4,
    }
}

/// Each legal move of `position` with the position it leads to and its exact value for
/// the mover, from the tables (no allocation).
///
/// # Errors
/// When a child lies in a layer the tables do not hold.
pub fn move_values(tables: &Tables, position: &Position) -> Result<MoveValues, TablesError> {
    let mut out = MoveValues::new();
    for (mv, child) in position.successors() {
        let rest = if child.is_over() {
            0
        } else {
            tables.value(&child)?
        };
        out.push((mv, child, move_value(position, &child, rest)));
    }
    Ok(out)
}

/// The index of the one move that keeps the best value when every other move is worth at
/// least `threshold` less; `None` when there is no choice (fewer than two moves) or the
/// best is not alone.
pub fn only_move(values: &MoveValues, threshold: i32) -> Option<usize> {
    if values.len() < 2 {
        return None;
    }
    let (best, &(_, _, value)) = values.iter().enumerate().max_by_key(|(_, m)| m.2)?;
    values
        .iter()
        .enumerate()
        .all(|(i, m)| i == best || m.2 <= value - threshold)
        .then_some(best)
}
