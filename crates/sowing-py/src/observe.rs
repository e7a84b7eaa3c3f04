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
    // Boards have 6 or 12 pits a row: a constant row length lets the compiler unroll and
    // vectorise the byte-to-float conversion (`VecGame` writes one observation a step).
    match position.rules().pits_per_row() {
        6 => write_as::<6>(position, side, out),
        _ => write_as::<12>(position, side, out),
    }
}

#[inline(always)]
fn write_as<const N: usize>(position: &Position, side: Side, out: &mut [f32]) {
    let out = &mut out[..size(N)];
    let pits = &position.pits()[..2 * N];
    let own = side.index() * N;
    let theirs = N - own;
    // The ring turned so that the side's own row comes first, then converted in one run
    // (the compiler's vector conversion wants one array, not two halves).
    let mut turned = [0u8; 24];
    turned[..N].copy_from_slice(&pits[own..own + N]);
    turned[N..2 * N].copy_from_slice(&pits[theirs..theirs + N]);
    for (value, &seeds) in out[..2 * N].iter_mut().zip(&turned[..2 * N]) {
        *value = f32::from(seeds);
    }
    let captured = position.captured();
    let flag = |b: bool| f32::from(u8::from(b));
    let rest = &mut out[2 * N..];
    rest[0] = f32::from(captured[side]);
    rest[1] = f32::from(captured[!side]);
    rest[2] = flag(position.to_move() == side);
    rest[3] = flag(position.last_sower() == Some(side));
    rest[4] = flag(position.last_sower() == Some(!side));
    let final_four = position.rules().effective_final_four();
    rest[5] = flag(final_four == FinalFour::Capturer);
    rest[6] = flag(final_four == FinalFour::To(side));
    rest[7] = flag(final_four == FinalFour::To(!side));
}

/// Writes the action mask of the legal columns `legal` (bit `c`: column `c`) as `n` bytes
/// of 0 or 1, six at a time: the bits of each six columns spread one to a byte.
pub(crate) fn write_mask(legal: u16, mask: &mut [i8]) {
    for (k, chunk) in mask.chunks_mut(6).enumerate() {
        let bytes = spread_bits((legal >> (6 * k)) & 0x3F).to_le_bytes();
        for (slot, &byte) in chunk.iter_mut().zip(&bytes) {
            *slot = byte as i8;
        }
    }
}

/// Bit `i` of `bits` (below 128) as byte `i`, 0 or 1, of the result: the multiply puts a
/// copy of bit `i` at bit `8i` (the copies do not overlap for seven bits or fewer).
#[inline]
const fn spread_bits(bits: u16) -> u64 {
    ((bits & 0x7F) as u64).wrapping_mul(0x0002_0408_1020_4081) & 0x0101_0101_0101_0101
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
