//! The stepping core of `VecGame`, without Python: one game of the batch ([`Slot`]) kept
//! lean for speed. `vec.rs` wraps it for Python; a plain Rust program can drive it to
//! profile it.

use sowing::{ColumnsParts, ColumnsSlot, Move, Position, Rules, Side};

use crate::observe;

/// How a step is rewarded.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reward {
    /// The final seed margin of the side that moved, on the step that ends the game.
    Margin,
    /// The change of the mover's seed margin over the step (its captures less those it
    /// gave up): the same total over a game as `Margin` for a player who makes every move,
    /// spread over the moves.
    Captures,
}

/// A move played by [`Slot::play`], awaiting [`Slot::finish_step`].
#[derive(Clone, Copy)]
pub(crate) struct Played {
    mover: Side,
    before: i32,
    /// Whether the move ended the game (the legal moves after it then need no sowing).
    over: bool,
}

impl ColumnsSlot for Slot {
    fn parts(&mut self) -> ColumnsParts<'_> {
        (&self.position, &mut self.next, &mut self.legal)
    }
}

/// One game of the batch, kept lean for speed: the position, the position each legal move
/// leads to (found when the mask is made, so that playing the chosen one costs a copy), and
/// the positions since the last capture for the repetition rule (C.3), applied as
/// `sowing::Game` applies it (tests/test_vec.py compares the two move for move).
pub(crate) struct Slot {
    pub(crate) position: Position,
    /// The legal columns of the side to move, as bits.
    pub(crate) legal: u16,
    /// `next[c]`: the position after sowing column `c`, where `legal` has bit `c`.
    next: [Position; Rules::MAX_PITS_PER_ROW],
    /// The positions since the last capture (the current one included).
    since_capture: Vec<Position>,
    /// Their hashes in a Bloom filter, so that a step reads the history (hundreds of
    /// positions in a long game, out of the cache) only when its position may be in it.
    seen: HashFilter,
}

/// A hint to the processor to bring `value`'s cache line in; nothing elsewhere.
#[inline(always)]
fn prefetch<T>(value: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and cannot fault, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(value.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// A Bloom filter of position hashes: two bits of 2,048 a hash, in the slot's own four
/// cache lines. Runs between captures are 38 positions on average and up to hundreds
/// (Hoyito II, random play): a new position then hits the filter by chance on about 0.3%
/// of steps, and a step reads half a position of the history on average.
#[derive(Clone, Copy, Default)]
struct HashFilter([u64; 32]);

impl HashFilter {
    /// The two bits of `hash`. The position hash is linear in the pit counts, so nearby
    /// positions differ in few of its bits: mixed first (as `sowing`'s own table does).
    #[inline]
    fn bits(hash: u64) -> [usize; 2] {
        let mixed = (hash ^ (hash >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        [(mixed >> 53) as usize, ((mixed >> 42) & 2047) as usize]
    }

    /// Adds `hash`; tells whether both its bits were set already (it may have been added).
    #[inline]
    fn add(&mut self, hash: u64) -> bool {
        let mut present = true;
        for bit in Self::bits(hash) {
            let (word, mask) = (&mut self.0[bit / 64], 1u64 << (bit % 64));
            present &= *word & mask != 0;
            *word |= mask;
        }
        present
    }
}

impl Slot {
    pub(crate) fn new(start: Position) -> Slot {
        let mut slot = Slot {
            position: start,
            legal: 0,
            next: [start; Rules::MAX_PITS_PER_ROW],
            since_capture: Vec::new(),
            seen: HashFilter::default(),
        };
        slot.restart(start);
        slot
    }

    /// A slot at the last of `history` (a position where the side to move has a sowing
    /// move), the positions since the last capture: a slot as [`Slot::history`] left it.
    pub(crate) fn restore(history: &[Position]) -> Option<Slot> {
        let (&position, _) = history.split_last()?;
        let mut slot = Slot::new(history[0]);
        slot.since_capture.clear();
        slot.seen = HashFilter::default();
        for earlier in history {
            slot.seen.add(earlier.hash());
            slot.since_capture.push(*earlier);
        }
        slot.position = position;
        slot.legal = position.sow_columns(u16::MAX, &mut slot.next);
        (slot.legal != 0 && !position.is_over()).then_some(slot)
    }

    /// The positions since the last capture, the current one last.
    pub(crate) fn history(&self) -> &[Position] {
        &self.since_capture
    }

    /// Back to `start`, keeping the allocations.
    pub(crate) fn restart(&mut self, start: Position) {
        self.position = start;
        self.since_capture.clear();
        self.since_capture.push(start);
        self.seen = HashFilter::default();
        self.seen.add(start.hash());
        if start.is_over() || self.settle() {
            // Not a start position of the rules: nothing to play.
            self.legal = 0;
        }
    }

    /// Moves to `next`; tells whether the game is over there: the board is empty (every
    /// end of the rules empties it) or the position repeats one since the last capture.
    fn advance(&mut self, next: Position) -> bool {
        let repeated = if next.captured() != self.position.captured() {
            self.since_capture.clear();
            self.seen = HashFilter::default();
            self.seen.add(next.hash());
            false
        } else {
            self.seen.add(next.hash())
                && self
                    .since_capture
                    .iter()
                    .any(|earlier| earlier.repeats(&next))
        };
        self.since_capture.push(next);
        self.position = next;
        repeated || next.is_over()
    }

    /// Finds the legal sowing moves and where they lead; plays the pass when there is none
    /// (C.2), until the side to move has a choice. Tells whether the game ended meanwhile.
    fn settle(&mut self) -> bool {
        loop {
            self.legal = self.position.sow_columns(u16::MAX, &mut self.next);
            if self.legal != 0 {
                return false;
            }
            let mut next = self.position;
            next.play(Move::Pass)
                .expect("a pass is legal when there is no sowing move");
            if self.advance(next) {
                return true;
            }
        }
    }

    /// Writes the slot's observation (`observe::size(n)` numbers) and mask (`n`) and
    /// returns the side to move's index.
    pub(crate) fn write(&self, obs: &mut [f32], mask: &mut [i8]) -> i8 {
        let position = &self.position;
        observe::write(position, position.to_move(), obs);
        observe::write_mask(self.legal, mask);
        position.to_move().index() as i8
    }

    /// Asks the processor to fetch what [`Slot::play`]`(action)` will read first: the
    /// successor played and the end of the history it is added to. `VecGame` asks a few
    /// games ahead, so that their lines (out of the first-level caches since the last
    /// step) arrive while it plays the games before.
    #[inline(always)]
    pub(crate) fn prefetch_play(&self, action: usize) {
        prefetch(&self.next[action % Rules::MAX_PITS_PER_ROW]);
        prefetch(self.since_capture.as_ptr_range().end);
    }

    /// The second stage of [`Slot::prefetch_play`], once the successor has arrived: the
    /// filter's word for its hash.
    #[inline(always)]
    pub(crate) fn prefetch_filter(&self, action: usize) {
        let hash = self.next[action % Rules::MAX_PITS_PER_ROW].hash();
        prefetch(&self.seen.0[HashFilter::bits(hash)[0] / 64]);
    }

    /// The first half of a step: plays column `action` (legal) for the side to move; the
    /// legal moves of the position reached are then sown, for many slots at once, with
    /// `Position::sow_columns_batch`, before [`Slot::finish_step`].
    pub(crate) fn play(&mut self, action: usize) -> Played {
        let mover = self.position.to_move();
        Played {
            mover,
            before: observe::margin(&self.position, mover),
            over: self.advance(self.next[action]),
        }
    }

    /// The rest of a step once the legal moves of the position reached are sown (unless
    /// it ended the game): the passes after it, the reward, and the restart from `start`
    /// when the game ended. Returns the reward and whether the game ended.
    pub(crate) fn finish_step(
        &mut self,
        played: Played,
        start: &Position,
        reward: Reward,
    ) -> (f32, bool) {
        let over = played.over || (self.legal == 0 && self.settle());
        let after = observe::margin(&self.position, played.mover);
        let value = match reward {
            Reward::Margin if over => after,
            Reward::Margin => 0,
            Reward::Captures => after - played.before,
        };
        if over {
            self.restart(*start);
        }
        (value as f32, over)
    }

    /// The position column `column` (legal) of the side to move leads to.
    pub(crate) fn successor(&self, column: usize) -> &Position {
        &self.next[column]
    }

    /// Plays column `action` (legal) for the side to move and every forced pass after it,
    /// for this slot alone (the vector environments' opponent replies); tells whether the
    /// game ended. The legal columns are then those of the side to move (none once over).
    pub(crate) fn play_alone(&mut self, action: usize) -> bool {
        let played = self.play(action);
        self.legal = if played.over {
            0
        } else {
            self.position.sow_columns(u16::MAX, &mut self.next)
        };
        self.settled(played)
    }

    /// The passes after a move played by [`Slot::play`] whose position reached has its
    /// legal columns sown; tells whether the game ended (the legal columns are then none).
    pub(crate) fn settled(&mut self, played: Played) -> bool {
        let over = played.over || (self.legal == 0 && self.settle());
        if over {
            self.legal = 0;
        }
        over
    }

    /// The game as a `sowing::Game` from its current position (the history before it is
    /// not kept).
    pub(crate) fn game(&self) -> sowing::Game {
        sowing::Game::from_position(self.position)
    }
}
