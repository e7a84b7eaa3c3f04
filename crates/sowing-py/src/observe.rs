//! The observation vector and the action mask, shared by `Game`, `VecGame` and (through
//! them) every environment, so that all of them see a position the same way.
//!
//! The observation of a position from one side's point of view, `2N + 8` numbers:
//!
//! | index | value |
//! |---|---|
//! | `0 … N−1` | seeds in that side's own pits, `A … ` as its owner reads them |
//! | `N … 2N−1` | seeds in the opponent's pits, `a … ` likewise |
//! | `2N`, `2N+1` | seeds captured by the side, by the opponent (Ayoayo: the stores) |
//! | `2N+2` | 1 if the side is to move |
//! | `2N+3`, `2N+4` | 1 if the last sower (A.8) is the side, the opponent |
//! | `2N+5 … 2N+7` | who takes the last four (H2.7, H3.3): the capturer, the side, the opponent |

use sowing::{FinalFour, Move, Pit, Position, Side};

/// Numbers in the observation of a board of `n` pits a row.
pub(crate) const fn size(n: usize) -> usize {
    2 * n + 8
}

/// Writes the observation of `position` from `side`'s point of view into `out`
/// (`size(n)` numbers).
pub(crate) fn write(position: &Position, side: Side, out: &mut [f32]) {
    let rules = position.rules();
    let n = rules.pits_per_row();
    let out = &mut out[..size(n)];
    let pits = position.pits();
    let (own, theirs) = match side {
        Side::South => (&pits[..n], &pits[n..2 * n]),
        Side::North => (&pits[n..2 * n], &pits[..n]),
    };
    for (slot, &seeds) in out[..n].iter_mut().zip(own) {
        *slot = f32::from(seeds);
    }
    for (slot, &seeds) in out[n..2 * n].iter_mut().zip(theirs) {
        *slot = f32::from(seeds);
    }
    let captured = position.captured();
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    let rest = &mut out[2 * n..];
    rest[0] = f32::from(captured[side]);
    rest[1] = f32::from(captured[!side]);
    rest[2] = flag(position.to_move() == side);
    rest[3] = flag(position.last_sower() == Some(side));
    rest[4] = flag(position.last_sower() == Some(!side));
    let final_four = rules.effective_final_four();
    rest[5] = flag(final_four == FinalFour::Capturer);
    rest[6] = flag(final_four == FinalFour::To(side));
    rest[7] = flag(final_four == FinalFour::To(!side));
}

/// The sowing move of the side to move from its column `column`.
pub(crate) fn sow(position: &Position, column: usize) -> Move {
    let n = position.rules().pits_per_row();
    Move::Sow(Pit::of(position.to_move(), column, n))
}

/// The seed margin of `side`: its captures less the opponent's.
pub(crate) fn margin(position: &Position, side: Side) -> i32 {
    let captured = position.captured();
    i32::from(captured[side]) - i32::from(captured[!side])
}
