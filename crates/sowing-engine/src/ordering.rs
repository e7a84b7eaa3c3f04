//! Move ordering: the table's move first, then captures (largest first) and extra turns,
//! then quiet moves by history (how often a move of that pit caused a cut-off).

use sowing::{Move, Position};

/// Cut-off statistics per side and pit.
#[derive(Default)]
pub struct History {
    table: [[u32; 25]; 2],
}

fn slot(mv: Move) -> usize {
    match mv {
        Move::Pass => 24,
        Move::Sow(pit) => pit.index(),
    }
}

impl History {
    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// A move of `pos` caused a cut-off at `depth`.
    #[inline]
    pub fn reward(&mut self, pos: &Position, mv: Move, depth: i32) {
        let entry = &mut self.table[pos.to_move().index()][slot(mv)];
        *entry += (depth * depth).max(1) as u32;
        if *entry > 1 << 20 {
            for row in &mut self.table {
                for value in row.iter_mut() {
                    *value /= 2;
                }
            }
        }
    }

    /// The history score, below the capture scores.
    #[inline]
    pub fn score(&self, pos: &Position, mv: Move) -> i32 {
        (self.table[pos.to_move().index()][slot(mv)] >> 11) as i32
    }
}

/// The ordering key of the move from `pos` to `child`: higher is searched first.
#[inline]
pub fn key(
    pos: &Position,
    mv: Move,
    child: &Position,
    tt_move: Option<Move>,
    history: &History,
) -> i32 {
    if Some(mv) == tt_move {
        return i32::MAX;
    }
    let me = pos.to_move();
    let gain = i32::from(child.captured()[me]) - i32::from(pos.captured()[me]);
    let extra = i32::from(child.to_move() == me && !child.is_over());
    gain * 10_000 + extra * 5_000 + history.score(pos, mv).min(4_000)
}
