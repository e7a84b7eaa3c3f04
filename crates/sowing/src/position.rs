//! The position: pit counts, captures, side to move and rule state, and the legality of
//! moves. The sowing itself is in `position/sow.rs`.

mod batch;
mod sow;

use std::fmt;

use arrayvec::ArrayVec;

use crate::laps::{lap_kind, LAPS, LAST_SOWER_KEYS, MAX_PITS, NORTH_KEY, PIT_KEYS};
use crate::{
    BySide, Event, Illegal, Move, MoveList, Outcome, Pit, PlayError, PositionError, Report, Rules,
    Side, Variant,
};
pub use batch::{Columns, ColumnsParts, ColumnsSlot};
use sow::{NoTrace, Trace};

/// A position: cheap to copy (48 bytes), with an incrementally kept hash, for search.
///
/// Every way of building one (the start, [`Position::from_parts`], the position text, JSON)
/// settles it: an Ayoayo position whose player to move cannot feed (A.5, A.7) is ended at
/// once, its seeds swept up. So a position is over exactly when its board is empty;
/// [`Game`](crate::Game) adds the one ending that needs history, repetition (C.3).
///
/// ```
/// use sowing::{Move, Position, Rules, Variant};
///
/// let mut pos = Position::start(Rules::new(Variant::HoyitoII));
/// let report = pos.play(Move::parse("C", 6)?)?;
/// assert!(report.laps >= 1);
/// assert_eq!(pos.seeds_on_board() + pos.captured().south as usize, 48);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pits: [u8; MAX_PITS],
    hash: u64,
    captured: BySide<u8>,
    rules: Rules,
    to_move: Side,
    last_sower: Option<Side>,
}

impl Position {
    /// The most seeds a position may hold (board and captures), so that every count fits a byte.
    pub const MAX_SEEDS: usize = 255;

    /// The start position: 4 seeds in every pit, South to move.
    pub fn start(rules: Rules) -> Position {
        let mut pits = [0; MAX_PITS];
        pits[..rules.pit_count()].fill(4);
        Position::from_parts(
            rules,
            &pits[..rules.pit_count()],
            BySide::default(),
            Side::South,
            None,
        )
        .expect("the start position is valid")
    }

    /// A position from its parts (pits in ring order, captures as [South, North]), settled
    /// as the rules say (an Ayoayo player to move who cannot feed ends the game at once).
    ///
    /// # Errors
    /// When the number of pits does not fit the board or there are more than
    /// [`Position::MAX_SEEDS`] seeds in all.
    pub fn from_parts(
        rules: Rules,
        pits: &[u8],
        captured: BySide<u8>,
        to_move: Side,
        last_sower: Option<Side>,
    ) -> Result<Position, PositionError> {
        if pits.len() != rules.pit_count() {
            return Err(PositionError(format!(
                "{} pits given, but a 2×{} board has {}",
                pits.len(),
                rules.pits_per_row(),
                rules.pit_count()
            )));
        }
        let total: usize = pits.iter().map(|&s| usize::from(s)).sum::<usize>()
            + usize::from(captured.south)
            + usize::from(captured.north);
        if total > Position::MAX_SEEDS {
            return Err(PositionError(format!(
                "{total} seeds in all; at most {} are supported",
                Position::MAX_SEEDS
            )));
        }
        let mut position = Position {
            pits: [0; MAX_PITS],
            hash: 0,
            captured,
            rules: rules.normalized(),
            to_move,
            last_sower,
        };
        position.pits[..pits.len()].copy_from_slice(pits);
        position.hash = position.compute_hash();
        position.settle(&mut NoTrace);
        Ok(position)
    }

    /// The rules the position is played under.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The pit counts in ring order (2N of them).
    #[inline]
    pub fn pits(&self) -> &[u8] {
        &self.pits[..self.rules.pit_count()]
    }

    /// The seeds in one pit.
    #[inline]
    pub fn seeds(&self, pit: Pit) -> u8 {
        self.pits[pit.index()]
    }

    /// The seeds captured by each side (Ayoayo: the stores).
    #[inline]
    pub fn captured(&self) -> BySide<u8> {
        self.captured
    }

    /// The side to move.
    #[inline]
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// The side that made the last sowing move (passes do not count), if any.
    #[inline]
    pub fn last_sower(&self) -> Option<Side> {
        self.last_sower
    }

    /// The hash of the position (pits, side to move, rule state of C.3; not the captures).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch; always equal to [`Position::hash`].
    pub fn compute_hash(&self) -> u64 {
        let mut hash = self.pits().iter().zip(PIT_KEYS).fold(0u64, |h, (&s, key)| {
            h.wrapping_add(u64::from(s).wrapping_mul(key))
        });
        if self.to_move == Side::North {
            hash = hash.wrapping_add(NORTH_KEY);
        }
        if let (Variant::Ayoayo, Some(side)) = (self.rules.variant(), self.last_sower) {
            hash = hash.wrapping_add(LAST_SOWER_KEYS[side.index()]);
        }
        hash
    }

    /// Whether two positions are the same for repetition (C.3): pits, side to move and the
    /// game's rule state (H2.8, H3.4, A.8).
    pub fn repeats(&self, other: &Position) -> bool {
        self.hash == other.hash
            && self.pits == other.pits
            && self.to_move == other.to_move
            && self.rules == other.rules
            && (self.rules.variant() != Variant::Ayoayo || self.last_sower == other.last_sower)
    }

    /// Seeds on the board.
    #[inline]
    pub fn seeds_on_board(&self) -> usize {
        self.pits.iter().map(|&s| usize::from(s)).sum()
    }

    /// Seeds in one side's row.
    #[inline]
    pub fn seeds_in_row(&self, side: Side) -> usize {
        self.row(side).iter().map(|&s| usize::from(s)).sum()
    }

    fn row(&self, side: Side) -> &[u8] {
        let n = self.rules.pits_per_row();
        &self.pits[side.index() * n..side.index() * n + n]
    }

    /// Whether the game is over by the rules of the position (not counting repetition, which
    /// [`Game`](crate::Game) tracks): exactly when the board is empty.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.pits == [0; MAX_PITS]
    }

    /// The result when the game is over: more captured seeds win (C.4).
    pub fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| self.score_outcome())
    }

    /// The result the captures so far would give (C.4), over or not.
    pub fn score_outcome(&self) -> Outcome {
        use std::cmp::Ordering::*;
        match self.captured.south.cmp(&self.captured.north) {
            Greater => Outcome::Win(Side::South),
            Less => Outcome::Win(Side::North),
            Equal => Outcome::Draw,
        }
    }

    /// The legal moves in ring order: the sowing moves, or `pass` alone, or none when over.
    pub fn legal_moves(&self) -> MoveList {
        self.successors().into_iter().map(|(mv, _)| mv).collect()
    }

    /// The legal moves with the position each leads to: sowing each pit once serves both.
    pub fn successors(&self) -> ArrayVec<(Move, Position), { Rules::MAX_PITS_PER_ROW }> {
        let mut out = ArrayVec::new();
        if self.is_over() {
            return out;
        }
        let n = self.rules.pits_per_row();
        for column in 0..n {
            let pit = Pit::of(self.to_move, column, n);
            if let Ok(next) = self.after_sow(pit) {
                out.push((Move::Sow(pit), next));
            }
        }
        if out.is_empty() {
            let mut next = *self;
            next.play_pass(&mut NoTrace);
            out.push((Move::Pass, next));
        }
        out
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    /// Plays `mv`, returning what it did.
    ///
    /// # Errors
    /// When the move is not legal; the position is then unchanged.
    pub fn play(&mut self, mv: Move) -> Result<Report, PlayError> {
        self.play_with(mv, &mut NoTrace)
    }

    /// Plays `mv` and appends every step — lifts, drops, skipped pits, captures — to `trace`.
    ///
    /// # Errors
    /// When the move is not legal; the position and the trace are then unchanged.
    pub fn play_traced(&mut self, mv: Move, trace: &mut Vec<Event>) -> Result<Report, PlayError> {
        let mark = trace.len();
        let result = self.play_with(mv, trace);
        if result.is_err() {
            trace.truncate(mark);
        }
        result
    }

    /// For [`Game`](crate::Game), which plays on a copy of its own: no second copy here.
    /// On an error `self` is left half-played and the trace as it was.
    pub(crate) fn play_on_copy(
        &mut self,
        mv: Move,
        trace: Option<&mut Vec<Event>>,
    ) -> Result<Report, PlayError> {
        match trace {
            None => self.play_in_place(mv, &mut NoTrace),
            Some(trace) => {
                let mark = trace.len();
                let result = self.play_in_place(mv, trace);
                if result.is_err() {
                    trace.truncate(mark);
                }
                result
            }
        }
    }

    /// Whether sowing `pit` may take seeds for the mover: `false` only when the move surely
    /// takes none, because its first lap ends it in an empty pit (Hoyito), or in an empty pit
    /// of the opponent's row while the mover keeps other seeds (Ayoayo: no capture, and no
    /// sweep of the board, A.7) — or because it is not legal. A table lookup, for searches
    /// that look only at captures: about half of all moves end that way.
    #[inline]
    pub fn may_capture(&self, pit: Pit) -> bool {
        let n = self.rules.pits_per_row();
        let ring = 2 * n;
        let hoyito = self.rules.variant().is_hoyito();
        let turn = if hoyito { ring } else { ring - 1 };
        let from = pit.index();
        if from >= ring || pit.owner(n) != self.to_move || self.pits[from] == 0 {
            return false;
        }
        let seeds = usize::from(self.pits[from]);
        if seeds >= turn {
            return true;
        }
        let end = usize::from(LAPS[lap_kind(hoyito, ring)][from][seeds].end);
        self.pits[end] != 0
            || (!hoyito
                && (Pit::new(end).owner(n) == self.to_move
                    || self.seeds_in_row(self.to_move) == seeds))
    }

    /// The position after sowing `pit`, or why that is not legal: the move played on one
    /// copy, for searches that look at children one by one.
    #[inline]
    pub fn after_sow(&self, pit: Pit) -> Result<Position, Illegal> {
        if self.is_over() {
            return Err(Illegal::GameOver);
        }
        let mut next = *self;
        next.play_sow(pit, &mut NoTrace)?;
        Ok(next)
    }

    /// Why `mv` would be refused, if it would.
    pub fn check(&self, mv: Move) -> Result<(), PlayError> {
        let mut copy = *self;
        copy.play(mv).map(|_| ())
    }

    fn error(&self, mv: Move, reason: Illegal) -> PlayError {
        PlayError::new(mv, reason, self.rules)
    }

    fn play_with<T: Trace>(&mut self, mv: Move, trace: &mut T) -> Result<Report, PlayError> {
        let mut next = *self;
        let report = next.play_in_place(mv, trace)?;
        *self = next;
        Ok(report)
    }

    /// Plays `mv` on `self`; on an error `self` is left half-played, so callers play on a
    /// copy they can drop.
    fn play_in_place<T: Trace>(&mut self, mv: Move, trace: &mut T) -> Result<Report, PlayError> {
        if self.is_over() {
            return Err(self.error(mv, Illegal::GameOver));
        }
        match mv {
            Move::Sow(pit) => self
                .play_sow(pit, trace)
                .map_err(|reason| self.error(mv, reason)),
            Move::Pass => {
                if self.has_sowing_move() {
                    return Err(self.error(mv, Illegal::CannotPass));
                }
                trace.event(Event::Pass);
                Ok(self.play_pass(trace))
            }
        }
    }

    fn has_sowing_move(&self) -> bool {
        let n = self.rules.pits_per_row();
        (0..n).any(|column| {
            let mut next = *self;
            next.play_sow(Pit::of(self.to_move, column, n), &mut NoTrace)
                .is_ok()
        })
    }

    fn play_pass<T: Trace>(&mut self, trace: &mut T) -> Report {
        self.set_to_move(!self.to_move);
        Report {
            end: self.settle(trace),
            ..Report::default()
        }
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self)
    }
}
