//! The solution line: the mover's only move, then, while the opponent has the move, their
//! best defence, and again the mover's only move, for as long as it stays the only one.

use sowing::{Move, Position};
use sowing_tables::{Tables, TablesError};

use crate::values::{move_values, only_move};

/// The most moves of the mover a line holds: longer lines are cut here.
pub const MAX_MOVER_MOVES: usize = 8;

/// The solution line from `start`, whose only move is `first` (see [`crate::only_move`]):
/// the moves in order, the mover's and the replies, ending with one of the mover's. A reply
/// is the opponent's best move (the first in ring order among equals). The line stops
/// before the game ends on a reply, when the mover has more than one good move or no
/// choice, when a position would repeat (C.3 would end the game), or after
/// [`MAX_MOVER_MOVES`].
///
/// # Errors
/// When a position of the line lies outside the tables.
pub fn solution(
    tables: &Tables,
    start: &Position,
    first: Move,
    threshold: i32,
) -> Result<Vec<Move>, TablesError> {
    let mover = start.to_move();
    let mut line = vec![first];
    let mut seen = vec![*start];
    let mut position = *start;
    position
        .play(first)
        .expect("the first move is one of the position's moves");
    let mut mover_moves = 1;
    while mover_moves < MAX_MOVER_MOVES {
        let mut replies = Vec::new();
        let mut next = position;
        while !next.is_over() && next.to_move() != mover {
            let values = move_values(tables, &next)?;
            // max_by_key keeps the last of equals: reversed, the first in ring order.
            let best = values
                .iter()
                .rev()
                .max_by_key(|m| m.2)
                .expect("a position not over has a move");
            replies.push(best.0);
            seen.push(next);
            next = best.1;
        }
        if next.is_over() || seen.iter().any(|p| p.repeats(&next)) {
            break;
        }
        let values = move_values(tables, &next)?;
        let Some(only) = only_move(&values, threshold) else {
            break;
        };
        seen.push(next);
        let (mv, after, _) = values[only];
        if seen.iter().any(|p| p.repeats(&after)) {
            break;
        }
        line.extend(replies);
        line.push(mv);
        position = after;
        mover_moves += 1;
    }
    Ok(line)
}
