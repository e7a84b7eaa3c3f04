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

use std::cell::RefCell;

use super::sow::{sow_short_lap, NoTrace};
use super::Position;
use crate::laps::MAX_PITS;
use crate::Rules;

/// What a [`ColumnsSlot`] lends [`Position::sow_columns_batch`]: the position; `next[c]`,
/// where the mover's column `c` leads; the legal columns, as bits.
pub type ColumnsParts<'a> = (
    &'a Position,
    &'a mut [Position; Rules::MAX_PITS_PER_ROW],
    &'a mut u16,
);

/// A game whose legal moves [`Position::sow_columns_batch`] finds: its position, the
/// positions its moves lead to, and the bits of its legal columns.
pub trait ColumnsSlot {
    /// The position, where its moves lead, and its legal columns.
    fn parts(&mut self) -> ColumnsParts<'_>;
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
    fn parts(&mut self) -> ColumnsParts<'_> {
        (&self.position, &mut self.next, &mut self.legal)
    }
}

/// Sowings in flight in one block (the games of a block are added while their columns fit).
const BLOCK_SOWINGS: usize = 192;
/// The scratch arrays' length: every index is a byte, so none is checked.
const ITEMS: usize = 256;
const _: () = assert!(BLOCK_SOWINGS + Rules::MAX_PITS_PER_ROW <= ITEMS);

/// One sowing in flight, packed in a word so that a lap reads and writes it whole:
/// bits 0–7 its index in the block (`item`, in the order the sowings were set out),
/// 8–15 the pit the next lap starts from, 16–23 a lap clock (below), 24–30 the fast laps
/// it may sow ([`Position::fast_laps`]), bit 31 set once it is handed to the general loop,
/// and 32–63 its game's [`Position::casa_bits`].
///
/// The clock starts at `129 − limit` and counts laps, so that its top bit sets when the
/// fast loop may sow no more laps (`laps + 1 >= limit`): one test a lap.
#[derive(Clone, Copy)]
struct Sowing(u64);

impl Sowing {
    const HANDED: u64 = 1 << 31;
    const CLOCK_DONE: u64 = 0x80 << 16;

    fn new(item: usize, from: usize, limit: u32, casas: u32) -> Sowing {
        let clock = u64::from(129 - limit);
        Sowing(
            item as u64
                | (from as u64) << 8
                | clock << 16
                | u64::from(limit) << 24
                | u64::from(casas) << 32,
        )
    }

    fn item(self) -> usize {
        usize::from(self.0 as u8)
    }

    fn from(self) -> usize {
        usize::from((self.0 >> 8) as u8)
    }

    /// Whether the fast loop may sow no more laps of it.
    fn out_of_fast_laps(self) -> bool {
        self.0 & Self::CLOCK_DONE != 0
    }

    fn laps(self) -> u32 {
        let (clock, limit) = (
            u32::from((self.0 >> 16) as u8),
            u32::from((self.0 >> 24) as u8 & 0x7F),
        );
        clock + limit - 129
    }

    fn casas(self) -> u32 {
        (self.0 >> 32) as u32
    }

    fn handed(self) -> bool {
        self.0 & Self::HANDED != 0
    }

    /// After one more lap, which ended in `end`.
    fn after_lap(self, end: u8) -> Sowing {
        Sowing(((self.0 & !0xFF00) | u64::from(end) << 8) + (1 << 16))
    }
}

/// The working arrays of a batch, made once for all its blocks, indexed by a sowing's
/// item (a byte).
struct Scratch {
    /// The pits and hash each sowing is sown on (a copy of its game's position).
    pits: [[u8; MAX_PITS]; ITEMS],
    hashes: [u64; ITEMS],
    /// Which game of the block and which column each sowing is.
    games: [u8; ITEMS],
    columns: [u8; ITEMS],
    /// The sowings still going, compacted after each round.
    live: [Sowing; ITEMS],
    /// `ended[item]`: the sowing after its last fast lap (`from` is where it ended), or
    /// where it was handed to the general loop.
    ended: [Sowing; ITEMS],
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

thread_local! {
    /// One [`Scratch`] a thread, kept between batches: `VecGame` sows a batch every few
    /// dozen games, and clearing 13 KB each time would cost more than some of its sowings.
    static SCRATCH: RefCell<Scratch> = const {
        RefCell::new(Scratch {
            pits: [[0; MAX_PITS]; ITEMS],
            hashes: [0; ITEMS],
            games: [0; ITEMS],
            columns: [0; ITEMS],
            live: [Sowing(0); ITEMS],
            ended: [Sowing(0); ITEMS],
        })
    };
}

// Its own function for each game kind and board: the hot loop then compiles the same
// wherever the batch is called from (inlined into `VecGame`'s step, it ran 14% slower).
#[inline(never)]
fn sow_blocks<S: ColumnsSlot, const HOYITO: bool, const RING: usize>(slots: &mut [S]) {
    SCRATCH.with_borrow_mut(|scratch| {
        let games = BLOCK_SOWINGS / (RING / 2);
        for block in slots.chunks_mut(games) {
            sow_block::<S, HOYITO, RING>(block, scratch);
        }
    });
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
        pits,
        hashes,
        games,
        columns,
        live,
        ended,
    } = scratch;
    // Every column of every game set out on a copy of its pits; only the occupied ones
    // are kept (no branch on which).
    let mut count = 0;
    for (game, slot) in block.iter_mut().enumerate() {
        let (position, next, legal) = slot.parts();
        *legal = 0;
        if position.rules.variant().is_hoyito() != HOYITO || position.rules.pit_count() != RING {
            *legal = position.sow_columns(u16::MAX, next);
            continue;
        }
        let (limit, casas) = (position.fast_laps(), position.casa_bits::<HOYITO, RING>());
        let first = position.to_move.index() * n;
        for column in 0..n {
            let item = count & (ITEMS - 1);
            pits[item] = position.pits;
            hashes[item] = position.hash;
            games[item] = game as u8;
            columns[item] = column as u8;
            live[item] = Sowing::new(item, first + column, limit, casas);
            count += usize::from(position.pits[first + column] != 0);
        }
    }

    // The rounds: one fast lap of every live sowing.
    let mut alive = count as u8;
    while alive > 0 {
        let mut kept = 0u8;
        for index in 0..alive {
            let sowing = live[usize::from(index)];
            let item = sowing.item();
            let board = &mut pits[item];
            let from = sowing.from();
            let seeds = board[from];
            if (usize::from(seeds) >= turn) | sowing.out_of_fast_laps() {
                // Rare: to the general loop, after the rounds.
                ended[item] = Sowing(sowing.0 | Sowing::HANDED);
                continue;
            }
            let lap = sow_short_lap::<HOYITO, RING>(board, from, seeds);
            hashes[item] = hashes[item].wrapping_add(lap.key);
            let held = board[usize::from(lap.end)];
            let done =
                (held == 1) | (HOYITO & (held == 4) & ((sowing.casas() >> lap.end) & 1 == 1));
            let after = sowing.after_lap(lap.end);
            ended[item] = after;
            live[usize::from(kept)] = after;
            kept += u8::from(!done);
        }
        alive = kept;
    }

    // Each sowing back on its position: on to its end or refusal in the general loop if
    // it was handed over, exactly as the plain sowing; then the end of every move, and
    // the legal columns.
    for item in 0..count {
        let sowing = ended[item];
        let (position, next, legal) = block[usize::from(games[item])].parts();
        let column = usize::from(columns[item]);
        let must_feed = !HOYITO && position.row_is_empty(!position.to_move);
        let next = &mut next[column];
        *next = *position;
        next.pits = pits[item];
        next.hash = hashes[item];
        let (end, laps) = if sowing.handed() {
            next.sow_laps_general::<NoTrace, HOYITO, RING>(
                sowing.from(),
                sowing.laps(),
                &mut NoTrace,
            )
            .unwrap_or((0, 0))
        } else {
            (sowing.from(), sowing.laps())
        };
        let ok = laps != 0
            && next
                .finish_sow::<NoTrace, HOYITO, RING>(must_feed, end, laps, &mut NoTrace)
                .is_ok();
        *legal |= u16::from(ok) << column;
    }
}
