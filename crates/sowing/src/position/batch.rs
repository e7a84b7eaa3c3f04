//! Every legal move of many positions at once, with their sowings interleaved: the mask
//! of a batch of games (the Python package's `VecGame`) without one loop exit to
//! mispredict per sowing.
//!
//! Where a sowing's lap ends is as good as random, so a loop that sows one move to its end
//! mispredicts its exit once a sowing, and each lap waits for the one before. Here the
//! sowings of a block of games are in flight together: each round sows one lap of every
//! live sowing, then keeps the unfinished ones by moving a write cursor (no branch on
//! where the lap ended). A lap the fast loop of [`Position::sow_laps`] would not take (a
//! turn of the ring or more, or past its laps) hands the sowing over to the general loop,
//! and the end of every move (capture, turn, game end) is the plain sowing's own code.

use super::sow::NoTrace;
use super::Position;
use crate::tables::PIT_KEYS;
use crate::Rules;

/// A game whose legal moves [`Position::sow_columns_batch`] finds: its position, the
/// positions its moves lead to, and the bits of its legal columns.
pub trait ColumnsSlot {
    /// The position; `next[c]`, where the mover's column `c` leads; the legal columns.
    fn parts(
        &mut self,
    ) -> (
        &Position,
        &mut [Position; Rules::MAX_PITS_PER_ROW],
        &mut u16,
    );
}

/// The plain [`ColumnsSlot`]: a position, where its moves lead and its legal columns (both
/// written by [`Position::sow_columns_batch`]).
#[derive(Clone, Copy, Debug)]
pub struct Columns {
    /// The position whose moves are sown.
    pub position: Position,
    /// `next[c]`: where the mover's column `c` leads, where `legal` has bit `c`.
    pub next: [Position; Rules::MAX_PITS_PER_ROW],
    /// The legal columns, as bits.
    pub legal: u16,
}

impl Columns {
    /// `position`, its moves not sown yet.
    pub fn new(position: Position) -> Columns {
        Columns {
            position,
            next: [position; Rules::MAX_PITS_PER_ROW],
            legal: 0,
        }
    }
}

impl ColumnsSlot for Columns {
    fn parts(
        &mut self,
    ) -> (
        &Position,
        &mut [Position; Rules::MAX_PITS_PER_ROW],
        &mut u16,
    ) {
        (&self.position, &mut self.next, &mut self.legal)
    }
}

/// Sowings in flight in one block (the games of a block are added while their columns fit).
const BLOCK_SOWINGS: usize = 192;
// A sowing's index and game in the block are bytes.
const _: () = assert!(BLOCK_SOWINGS <= 256);

/// One sowing in flight, in 8 bytes: which game of the block and column, where the next
/// lap starts, and how many laps it has sown.
#[derive(Clone, Copy, Default)]
#[repr(C, align(8))]
struct Sowing {
    game: u8,
    column: u8,
    /// Its index in the block, in the order the sowings were set out.
    item: u8,
    from: u8,
    laps: u8,
}

/// The working arrays of a batch, made once for all its blocks.
struct Scratch {
    live: [Sowing; BLOCK_SOWINGS],
    handed: [Sowing; BLOCK_SOWINGS],
    /// `ended[item]`: the sowing after its last fast lap (`from` is where it ended); with
    /// `laps` 0 when it was handed over, whose laps are then in `long_laps` (0: refused).
    ended: [Sowing; BLOCK_SOWINGS],
    long_laps: [u32; BLOCK_SOWINGS],
    /// Per game of the block: A.5's empty row, [`Position::fast_laps`],
    /// [`Position::casa_bits`].
    must_feed: [bool; BLOCK_SOWINGS],
    limit: [u8; BLOCK_SOWINGS],
    casas: [u32; BLOCK_SOWINGS],
}

impl Position {
    /// For every slot, what [`Position::sow_columns`]`(u16::MAX, next)` gives: each legal
    /// move of its position sown into `next` and the bits of the legal columns (the other
    /// entries of `next` are left unspecified). The same results, with the sowings of
    /// many games interleaved; positions of several games and boards may be mixed, though
    /// those of the first slot's game and board go fastest.
    pub fn sow_columns_batch<S: ColumnsSlot>(slots: &mut [S]) {
        let Some(first) = slots.first_mut() else {
            return;
        };
        let rules = first.parts().0.rules;
        match (rules.variant().is_hoyito(), rules.pit_count()) {
            (true, 12) => sow_blocks::<S, true, 12>(slots),
            (true, _) => sow_blocks::<S, true, 24>(slots),
            (false, 12) => sow_blocks::<S, false, 12>(slots),
            (false, _) => sow_blocks::<S, false, 24>(slots),
        }
    }
}

fn sow_blocks<S: ColumnsSlot, const HOYITO: bool, const RING: usize>(slots: &mut [S]) {
    let mut scratch = Box::new(Scratch {
        live: [Sowing::default(); BLOCK_SOWINGS],
        handed: [Sowing::default(); BLOCK_SOWINGS],
        ended: [Sowing::default(); BLOCK_SOWINGS],
        long_laps: [0; BLOCK_SOWINGS],
        must_feed: [false; BLOCK_SOWINGS],
        limit: [0; BLOCK_SOWINGS],
        casas: [0; BLOCK_SOWINGS],
    });
    let games = BLOCK_SOWINGS / (RING / 2);
    for block in slots.chunks_mut(games) {
        sow_block::<S, HOYITO, RING>(block, &mut scratch);
    }
}

/// The interleaved sowing of one block (at most `BLOCK_SOWINGS / N` games).
#[inline(always)]
fn sow_block<S: ColumnsSlot, const HOYITO: bool, const RING: usize>(
    block: &mut [S],
    scratch: &mut Scratch,
) {
    let n = RING / 2;
    let turn = if HOYITO { RING } else { RING - 1 };
    let Scratch {
        live,
        handed,
        ended,
        long_laps,
        must_feed,
        limit,
        casas,
    } = scratch;
    let mut count = 0;
    for (game, slot) in block.iter_mut().enumerate() {
        let (position, next, legal) = slot.parts();
        let position = *position;
        *legal = 0;
        if position.rules.variant().is_hoyito() != HOYITO || position.rules.pit_count() != RING {
            *legal = position.sow_columns(u16::MAX, next);
            continue;
        }
        must_feed[game] = !HOYITO && position.row_is_empty(!position.to_move);
        limit[game] = position.fast_laps() as u8;
        casas[game] = position.casa_bits::<HOYITO, RING>();
        let first = position.to_move.index() * n;
        for (column, slot) in next[..n].iter_mut().enumerate() {
            *slot = position;
            live[count] = Sowing {
                game: game as u8,
                column: column as u8,
                item: count as u8,
                from: (first + column) as u8,
                laps: 0,
            };
            // Only the occupied pits are sown; no branch on which.
            count += usize::from(position.pits[first + column] != 0);
        }
    }

    // The rounds: one fast lap of every live sowing.
    let mut alive = count;
    let mut handed_count = 0;
    while alive > 0 {
        let mut kept = 0;
        for index in 0..alive {
            let sowing = live[index];
            let game = usize::from(sowing.game);
            let position = &mut block[game].parts().1[usize::from(sowing.column)];
            let from = usize::from(sowing.from);
            let seeds = position.pits[from];
            if (usize::from(seeds) >= turn) | (sowing.laps + 1 >= limit[game]) {
                // Rare: to the general loop, after the rounds.
                handed[handed_count] = sowing;
                handed_count += 1;
                continue;
            }
            let lap = position.sow_short_lap::<HOYITO, RING>(from, seeds);
            position.hash = position
                .hash
                .wrapping_sub(u64::from(seeds).wrapping_mul(PIT_KEYS[from]))
                .wrapping_add(lap.key);
            let end = lap.end;
            let held = position.pits[usize::from(end)];
            let done = (held == 1) | (HOYITO & (held == 4) & ((casas[game] >> end) & 1 == 1));
            let after = Sowing {
                from: end,
                laps: sowing.laps + 1,
                ..sowing
            };
            ended[usize::from(sowing.item)] = after;
            live[kept] = after;
            kept += usize::from(!done);
        }
        alive = kept;
    }

    // The sowings handed over: on to their end or refusal, exactly as the plain sowing.
    for sowing in &handed[..handed_count] {
        let position = &mut block[usize::from(sowing.game)].parts().1[usize::from(sowing.column)];
        let item = usize::from(sowing.item);
        let result = position.sow_laps_general::<NoTrace, HOYITO, RING>(
            usize::from(sowing.from),
            u32::from(sowing.laps),
            &mut NoTrace,
        );
        let (end, laps) = result.unwrap_or((0, 0));
        ended[item] = Sowing {
            from: end as u8,
            laps: 0,
            ..*sowing
        };
        long_laps[item] = laps;
    }

    // The end of every move, and the legal columns.
    for (item, sowing) in ended[..count].iter().enumerate() {
        let game = usize::from(sowing.game);
        let (_, next, legal) = block[game].parts();
        let position = &mut next[usize::from(sowing.column)];
        let laps = if sowing.laps != 0 {
            u32::from(sowing.laps)
        } else {
            long_laps[item]
        };
        let ok = laps != 0
            && position
                .finish_sow::<NoTrace, HOYITO, RING>(
                    must_feed[game],
                    usize::from(sowing.from),
                    laps,
                    &mut NoTrace,
                )
                .is_ok();
        *legal |= u16::from(ok) << sowing.column;
    }
}
