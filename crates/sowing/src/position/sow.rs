//! The sowing core: the laps of one move, the capture, the turn and the end of the game,
//! for all three games in one routine. Everything here works on a position in place; the
//! public entry points in `position.rs` play on a copy, so a refused move changes nothing.

use super::Position;
use crate::laps::{
    lap_kind, ring_slot, Lap, LAPS, LAST_SOWER_KEYS, MAX_PITS, NORTH_KEY, PIT_KEYS, RING_KEYS,
    ROW_BITS, ROW_MASKS,
};
use crate::Variant;
use crate::{
    CasaRows, End, Event, FinalFour, Illegal, Leftover, Pit, Report, Rules, Side, TakeReason,
};

/// The pits as 8-byte words, for whole-board arithmetic.
const WORDS: usize = MAX_PITS / 8;

/// Word `w` of a board-sized byte array, pit `8w` in the lowest byte (as in
/// [`crate::laps::LAPS`]).
#[inline(always)]
fn word(bytes: &[u8; MAX_PITS], w: usize) -> u64 {
    u64::from_le_bytes(bytes[8 * w..8 * w + 8].try_into().expect("8 bytes"))
}

#[inline(always)]
fn set_word(bytes: &mut [u8; MAX_PITS], w: usize, value: u64) {
    bytes[8 * w..8 * w + 8].copy_from_slice(&value.to_le_bytes());
}

/// Laps sown before endless-sowing detection starts saving states (C.1).
const QUIET_LAPS: u32 = 8;

/// One fast lap on a board: lifts the `seeds` (fewer than a turn of the ring) of `from`
/// and sows them; returns the lap, whose key (the hash change) the caller adds. The plain
/// sowing's fast loop and the interleaved one of [`Position::sow_columns_batch`] (on
/// copies of the pits) both use it.
#[inline(always)]
pub(super) fn sow_short_lap<const HOYITO: bool, const RING: usize>(
    pits: &mut [u8; MAX_PITS],
    from: usize,
    seeds: u8,
) -> &'static Lap {
    let lap = &LAPS[lap_kind(HOYITO, RING)][from][usize::from(seeds)];
    for w in 0..RING.div_ceil(8) {
        set_word(pits, w, word(pits, w).wrapping_add(lap.words[w]));
    }
    lap
}

/// Receives the steps of a move; the untraced path compiles every call away.
pub(super) trait Trace {
    const ENABLED: bool;
    fn event(&mut self, event: Event);
}

pub(super) struct NoTrace;

impl Trace for NoTrace {
    const ENABLED: bool = false;
    #[inline(always)]
    fn event(&mut self, _: Event) {}
}

impl Trace for Vec<Event> {
    const ENABLED: bool = true;
    fn event(&mut self, event: Event) {
        self.push(event);
    }
}
impl Position {
    /// Whether a side's row is empty: three word operations, no loop with exits.
    #[inline]
    pub(super) fn row_is_empty(&self, side: Side) -> bool {
        let mask = &ROW_MASKS[ring_slot(self.rules.pit_count())][side.index()];
        (0..WORDS).fold(0, |any, w| any | (word(&self.pits, w) & word(mask, w))) == 0
    }

    #[inline]
    pub(super) fn set_to_move(&mut self, side: Side) {
        if side != self.to_move {
            self.to_move = side;
            self.hash = match side {
                Side::North => self.hash.wrapping_add(NORTH_KEY),
                Side::South => self.hash.wrapping_sub(NORTH_KEY),
            };
        }
    }

    /// Records the last sower; only Ayoayo's repetition rule (A.8) hashes it.
    #[inline(always)]
    fn set_last_sower<const HOYITO: bool>(&mut self, side: Side) {
        if !HOYITO {
            let old = self.last_sower.map_or(0, |s| LAST_SOWER_KEYS[s.index()]);
            self.hash = self
                .hash
                .wrapping_sub(old)
                .wrapping_add(LAST_SOWER_KEYS[side.index()]);
        }
        self.last_sower = Some(side);
    }

    /// Empties a pit, keeping the hash.
    #[inline]
    fn lift(&mut self, pit: usize) -> u8 {
        let seeds = self.pits[pit];
        self.pits[pit] = 0;
        self.hash = self
            .hash
            .wrapping_sub(u64::from(seeds).wrapping_mul(PIT_KEYS[pit]));
        seeds
    }

    /// Moves the seeds of `pit` to `by`'s captures.
    #[inline]
    fn take<T: Trace>(&mut self, pit: usize, by: Side, why: TakeReason, trace: &mut T) -> u8 {
        let seeds = self.lift(pit);
        self.captured[by] += seeds;
        trace.event(Event::Take {
            pit: Pit::new(pit),
            seeds,
            by,
            why,
        });
        seeds
    }

    /// Sows `pit` for the side to move: the laps, the capture, the turn and the end of game.
    /// On an error `self` is left half-played: callers play on a copy.
    pub(super) fn play_sow<T: Trace>(
        &mut self,
        pit: Pit,
        trace: &mut T,
    ) -> Result<Report, Illegal> {
        // One copy per game kind and ring size, so that both are constants in the loops.
        match (self.rules.variant().is_hoyito(), self.rules.pit_count()) {
            (true, 12) => self.play_sow_as::<T, true, 12>(pit, trace),
            (true, _) => self.play_sow_as::<T, true, 24>(pit, trace),
            (false, 12) => self.play_sow_as::<T, false, 12>(pit, trace),
            (false, _) => self.play_sow_as::<T, false, 24>(pit, trace),
        }
    }

    #[inline(always)]
    fn play_sow_as<T: Trace, const HOYITO: bool, const RING: usize>(
        &mut self,
        pit: Pit,
        trace: &mut T,
    ) -> Result<Report, Illegal> {
        let rules = self.rules;
        let n = RING / 2;
        let mover = self.to_move;
        if pit.index() >= rules.pit_count() {
            return Err(Illegal::NoSuchPit);
        }
        if pit.owner(n) != mover {
            return Err(Illegal::NotYourPit);
        }
        if self.pits[pit.index()] == 0 {
            return Err(Illegal::EmptyPit);
        }
        self.play_sow_checked::<T, HOYITO, RING>(pit, trace)
    }

    /// [`Position::play_sow_as`] once `pit` is known to be a non-empty pit of the mover.
    #[inline(always)]
    fn play_sow_checked<T: Trace, const HOYITO: bool, const RING: usize>(
        &mut self,
        pit: Pit,
        trace: &mut T,
    ) -> Result<Report, Illegal> {
        let must_feed = !HOYITO && self.row_is_empty(!self.to_move);
        let (end_pit, laps) = self.sow_laps::<T, HOYITO, RING>(pit.index(), trace)?;
        self.finish_sow::<T, HOYITO, RING>(must_feed, end_pit, laps, trace)
    }

    /// What follows the laps of a move that ended in `end_pit` after `laps` laps: the last
    /// sower, the capture (and H2.5's chain), the turn and the end of the game. `must_feed`:
    /// whether the opponent's row was empty before the sowing (A.5). Shared by the plain
    /// sowing and the interleaved one of [`Position::sow_columns_batch`].
    #[inline(always)]
    pub(super) fn finish_sow<T: Trace, const HOYITO: bool, const RING: usize>(
        &mut self,
        must_feed: bool,
        end_pit: usize,
        laps: u32,
        trace: &mut T,
    ) -> Result<Report, Illegal> {
        let rules = self.rules;
        let n = RING / 2;
        let mover = self.to_move;
        let mut report = Report {
            laps,
            ..Report::default()
        };
        self.set_last_sower::<HOYITO>(mover);
        if HOYITO {
            if self.pits[end_pit] == 4 && self.is_casa(end_pit, mover) {
                report.captured = self.take(end_pit, mover, TakeReason::Capture, trace);
                if rules.variant() == Variant::HoyitoII {
                    // H2.5: the chain backwards along the ring, wrapping past pit 0.
                    let mut chain = (end_pit + RING - 1) % RING;
                    while self.pits[chain] == 4 && self.is_casa(chain, mover) {
                        report.captured += self.take(chain, mover, TakeReason::Capture, trace);
                        chain = (chain + RING - 1) % RING;
                    }
                }
                report.end = self.after_hoyito_capture(mover, trace);
                report.extra_turn = report.end.is_none();
                if report.extra_turn {
                    trace.event(Event::ExtraTurn);
                }
            } else {
                self.set_to_move(!mover);
            }
        } else {
            let opposite = Pit::new(end_pit).opposite(n).index();
            if Pit::new(end_pit).owner(n) == mover && self.pits[opposite] > 0 {
                report.captured = self.take(opposite, mover, TakeReason::Capture, trace)
                    + self.take(end_pit, mover, TakeReason::Capture, trace);
            }
            if must_feed && self.row_is_empty(!mover) {
                return Err(Illegal::DoesNotFeed);
            }
            self.set_to_move(!mover);
            report.end = if self.is_over() {
                Some(End::BoardCleared)
            } else {
                self.settle(trace)
            };
        }
        Ok(report)
    }

    /// Sows the columns `columns` of the side to move (bit `c`: its column `c`, the pit
    /// [`Pit::of`]`(to_move, c, N)`), each on its own entry `next[c]`, and returns the bits
    /// of those that are legal; the other entries are left unspecified. With every column,
    /// the same moves and positions as [`Position::successors`] (no bits: the side to move
    /// must pass, or the game is over).
    ///
    /// For stepping many games at once (the Python package's `VecGame`): the game kind and
    /// board size are dispatched on once for all the pits, and each move is sown in place,
    /// with no result to copy out.
    pub fn sow_columns(&self, columns: u16, next: &mut [Position; Rules::MAX_PITS_PER_ROW]) -> u16 {
        match (self.rules.variant().is_hoyito(), self.rules.pit_count()) {
            (true, 12) => self.sow_columns_as::<true, 12>(columns, next),
            (true, _) => self.sow_columns_as::<true, 24>(columns, next),
            (false, 12) => self.sow_columns_as::<false, 12>(columns, next),
            (false, _) => self.sow_columns_as::<false, 24>(columns, next),
        }
    }

    #[inline(always)]
    fn sow_columns_as<const HOYITO: bool, const RING: usize>(
        &self,
        columns: u16,
        next: &mut [Position; Rules::MAX_PITS_PER_ROW],
    ) -> u16 {
        let n = RING / 2;
        let first = self.to_move.index() * n;
        let mut legal = 0;
        for (column, slot) in next[..n].iter_mut().enumerate() {
            if (columns >> column) & 1 == 0 || self.pits[first + column] == 0 {
                continue;
            }
            *slot = *self;
            // The pit is the mover's and not empty: no need to check again.
            let pit = Pit::new(first + column);
            let sown = slot.play_sow_checked::<NoTrace, HOYITO, RING>(pit, &mut NoTrace);
            legal |= u16::from(sown.is_ok()) << column;
        }
        legal
    }

    /// A pit of four that the mover may capture (H2.5, option `casa-rows`).
    #[inline]
    fn is_casa(&self, pit: usize, mover: Side) -> bool {
        (self.rules.casa_rows == CasaRows::Any)
            | (Pit::new(pit).owner(self.rules.pits_per_row()) != mover)
    }

    /// H2.7 / H3.3: after a capture, an empty board or the last four end the game.
    fn after_hoyito_capture<T: Trace>(&mut self, capturer: Side, trace: &mut T) -> Option<End> {
        match self.seeds_on_board() {
            0 => Some(End::BoardCleared),
            4 => {
                let to = match self.rules.effective_final_four() {
                    FinalFour::Capturer => capturer,
                    FinalFour::To(side) => side,
                };
                for pit in 0..self.rules.pit_count() {
                    if self.pits[pit] > 0 {
                        self.take(pit, to, TakeReason::LastFour, trace);
                    }
                }
                Some(End::LastFour(to))
            }
            _ => None,
        }
    }

    /// A.5 / A.7: an Ayoayo player to move who cannot feed the opponent's empty row ends the
    /// game, and the seeds left are shared out under the `leftover` option.
    #[inline]
    pub(super) fn settle<T: Trace>(&mut self, trace: &mut T) -> Option<End> {
        if self.rules.variant() != Variant::Ayoayo
            || self.is_over()
            || !self.row_is_empty(!self.to_move)
        {
            return None;
        }
        self.settle_empty_row(trace)
    }

    /// [`Position::settle`] when the opponent of the player to move has an empty row.
    #[cold]
    fn settle_empty_row<T: Trace>(&mut self, trace: &mut T) -> Option<End> {
        if self.has_sowing_move() {
            return None;
        }
        let n = self.rules.pits_per_row();
        for pit in 0..self.rules.pit_count() {
            if self.pits[pit] > 0 {
                let holder = Pit::new(pit).owner(n);
                let to = match (self.rules.leftover, self.last_sower) {
                    (Leftover::LastMover, Some(sower)) => sower,
                    // With no sowing move yet (a set-up position) the holder keeps them.
                    _ => holder,
                };
                self.take(pit, to, TakeReason::Leftover, trace);
            }
        }
        Some(End::CannotFeed)
    }

    /// The laps of one move from `origin` until a lap ends in an empty pit or (Hoyito) a
    /// casa: returns the end pit and the number of laps.
    ///
    /// C.1: a sowing still going after lap [`MAX_LAPS`](crate::MAX_LAPS) (the first lap
    /// counts as one) is illegal, [`Illegal::Endless`]. Brent's cycle finding over the state
    /// (pit counts, end pit) after each lap proves most endless sowings so within a few
    /// dozen laps — the same verdict, sooner — with one saved state and no allocation.
    #[inline(always)]
    fn sow_laps<T: Trace, const HOYITO: bool, const RING: usize>(
        &mut self,
        origin: usize,
        trace: &mut T,
    ) -> Result<(usize, u32), Illegal> {
        // Ayoayo laps skip the pit they were lifted from, so a turn of the ring is 2N−1 pits.
        let turn = if HOYITO { RING } else { RING - 1 };
        let mut from = origin;
        let mut laps = 0u32;
        if !T::ENABLED {
            // The common laps first, in a loop of their own: fewer seeds than a turn of the
            // ring, before endless-sowing detection starts and below the lap cap. The same
            // steps as the general loop, which takes over from the first other lap.
            let fast_laps = self.fast_laps();
            let casas = self.casa_bits::<HOYITO, RING>();
            let mut hash = self.hash;
            while laps + 1 < fast_laps {
                let seeds = self.pits[from];
                if usize::from(seeds) >= turn {
                    break;
                }
                laps += 1;
                let lap = sow_short_lap::<HOYITO, RING>(&mut self.pits, from, seeds);
                hash = hash.wrapping_add(lap.key);
                let end = usize::from(lap.end);
                let held = self.pits[end];
                if (held == 1) | (HOYITO & (held == 4) & ((casas >> end) & 1 == 1)) {
                    self.hash = hash;
                    return Ok((end, laps));
                }
                from = end;
            }
            self.hash = hash;
        }
        self.sow_laps_general::<T, HOYITO, RING>(from, laps, trace)
    }

    /// Laps the fast loop may sow: below endless-sowing detection and the lap cap (C.1).
    #[inline(always)]
    pub(super) fn fast_laps(&self) -> u32 {
        QUIET_LAPS.min(self.rules.max_laps())
    }

    /// Bit `p`: a lap of the side to move ending on four in pit `p` makes a casa (H2.5's
    /// `casa-rows`); every bit outside Hoyito, where the caller never asks.
    #[inline(always)]
    pub(super) fn casa_bits<const HOYITO: bool, const RING: usize>(&self) -> u32 {
        if !HOYITO || self.rules.casa_rows == CasaRows::Any {
            u32::MAX
        } else {
            ROW_BITS[ring_slot(RING)][(!self.to_move).index()]
        }
    }

    /// The laps of a move from `from` on, `laps` laps already sown (every kind of lap,
    /// endless-sowing detection, the lap cap): what [`Position::sow_laps`] hands over to
    /// after its fast laps, as [`Position::sow_columns_batch`] does.
    #[inline(always)]
    pub(super) fn sow_laps_general<T: Trace, const HOYITO: bool, const RING: usize>(
        &mut self,
        mut from: usize,
        mut laps: u32,
        trace: &mut T,
    ) -> Result<(usize, u32), Illegal> {
        let ring = RING;
        let slot = ring_slot(RING);
        let hoyito = HOYITO;
        let turn = if hoyito { ring } else { ring - 1 };
        let words = RING.div_ceil(8);
        let kind = lap_kind(HOYITO, RING);
        let mover = self.to_move;
        let max_laps = self.rules.max_laps();
        let mut relay = laps > 0;
        // Brent's state: the saved (pits, end) and when to save next. Saving starts only
        // after a few laps, since nearly every move ends before; any start finds the cycle.
        let mut saved_pits = self.pits;
        let mut saved_end = usize::MAX;
        let (mut power, mut since_saved) = (1u32, 0u32);
        loop {
            laps += 1;
            let seeds = self.pits[from];
            let count = usize::from(seeds);
            let end = if T::ENABLED {
                self.hash = self
                    .hash
                    .wrapping_sub(u64::from(seeds).wrapping_mul(PIT_KEYS[from]));
                self.pits[from] = 0;
                trace.event(Event::Lift {
                    pit: Pit::new(from),
                    seeds,
                    relay,
                });
                let mut pit = from;
                for _ in 0..count {
                    pit = if pit + 1 == ring { 0 } else { pit + 1 };
                    if !hoyito && pit == from {
                        trace.event(Event::Skip { pit: Pit::new(pit) });
                        pit = if pit + 1 == ring { 0 } else { pit + 1 };
                    }
                    self.pits[pit] += 1;
                    self.hash = self.hash.wrapping_add(PIT_KEYS[pit]);
                    trace.event(Event::Drop { pit: Pit::new(pit) });
                }
                pit
            } else {
                let (rounds, rest) = if count < turn {
                    (0, count)
                } else {
                    (count / turn, count % turn)
                };
                // Lift and sow in a few word operations (see `Lap`).
                let lap = &LAPS[kind][from][rest];
                for w in 0..words {
                    let sown = word(&self.pits, w).wrapping_add(lap.words[w]);
                    set_word(&mut self.pits, w, sown);
                }
                self.hash = self.hash.wrapping_add(lap.key);
                if rounds > 0 {
                    // Rare: a lap of a whole turn of the ring or more. The table lifted only
                    // `rest` seeds: lift the whole turns' too. Ayoayo skips `from`.
                    let turns = self.pits[from];
                    self.pits[from] = 0;
                    self.hash = self
                        .hash
                        .wrapping_sub(u64::from(turns).wrapping_mul(PIT_KEYS[from]));
                    let r = rounds as u8;
                    for pit in &mut self.pits[..ring] {
                        *pit += r;
                    }
                    let mut keys = RING_KEYS[slot];
                    if !hoyito {
                        self.pits[from] = 0;
                        keys = keys.wrapping_sub(PIT_KEYS[from]);
                    }
                    self.hash = self.hash.wrapping_add((rounds as u64).wrapping_mul(keys));
                }
                usize::from(lap.end)
            };
            let held = self.pits[end];
            // One branch, not three: where a lap ends is as good as random.
            if (held == 1) | (hoyito & (held == 4) & self.is_casa(end, mover)) {
                return Ok((end, laps));
            }
            if laps >= max_laps {
                return Err(Illegal::Endless);
            }
            if laps < QUIET_LAPS {
                from = end;
                relay = true;
                continue;
            }
            if end == saved_end && self.pits == saved_pits {
                return Err(Illegal::Endless);
            }
            since_saved += 1;
            if since_saved == power {
                saved_pits = self.pits;
                saved_end = end;
                power = power.saturating_mul(2);
                since_saved = 0;
            }
            from = end;
            relay = true;
        }
    }
}
