//! The position: pit counts, captures, side to move and rule state, and the one sowing
//! routine that plays all three games.

use std::fmt;

use arrayvec::ArrayVec;

use crate::tables::{
    lap_kind, ring_slot, KEEP_MASKS, LAPS, LAST_SOWER_KEYS, MAX_PITS, NORTH_KEY, PIT_KEYS,
    RING_KEYS, ROW_MASKS,
};
use crate::{BySide, CasaRows, FinalFour, Leftover, Move, MoveList, Pit, Rules, Side, Variant};

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

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// A capture took the last seeds on the board.
    BoardCleared,
    /// A capture left exactly four seeds, and this side took them (H2.7, H3.2, H3.3).
    LastFour(Side),
    /// The player to move could not feed an empty row; the seeds left were shared out
    /// under the `leftover` option (A.5, A.7).
    CannotFeed,
    /// A position recurred (C.3): the seeds on the board go to nobody.
    Repetition,
}

impl End {
    /// A short phrase for people: "last four to south", "repetition" …
    pub fn describe(self) -> String {
        match self {
            End::BoardCleared => "the board was cleared".to_owned(),
            End::LastFour(side) => format!("the last four went to {side}"),
            End::CannotFeed => "the player to move could not feed".to_owned(),
            End::Repetition => "a position recurred".to_owned(),
        }
    }
}

/// The result of a finished game (C.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This side captured more seeds.
    Win(Side),
    /// Both captured as many.
    Draw,
}

impl Outcome {
    /// The winner's name as in the machine state: `south`, `north` or `draw`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win(side) => side.name(),
            Outcome::Draw => "draw",
        }
    }
}

/// What a move did, for people and for the engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Laps sown (0 for a pass).
    pub laps: u32,
    /// Seeds captured by the move itself (the last four and swept seeds not included).
    pub captured: u8,
    /// The mover moves again (a Hoyito capture, H2.6).
    pub extra_turn: bool,
    /// The game ended with this move, and how.
    pub end: Option<End>,
}

/// One step of a move, in order, for animation: see [`Position::play_traced`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// All seeds of a pit lifted: the first lift of a move (`relay: false`) or a relay.
    Lift {
        /// The pit emptied.
        pit: Pit,
        /// Seeds lifted.
        seeds: u8,
        /// Whether this continues the move from a lap's end pit.
        relay: bool,
    },
    /// One seed dropped.
    Drop {
        /// The pit that received it.
        pit: Pit,
    },
    /// The pit the lap was lifted from, passed over without a seed (Ayoayo, A.2).
    Skip {
        /// The pit passed over.
        pit: Pit,
    },
    /// Seeds taken off the board by a side.
    Take {
        /// The pit emptied.
        pit: Pit,
        /// Seeds taken.
        seeds: u8,
        /// Who takes them.
        by: Side,
        /// Why.
        why: TakeReason,
    },
    /// The mover moves again (H2.6).
    ExtraTurn,
    /// The player to move had no sowing move (C.2).
    Pass,
}

/// Why seeds left the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakeReason {
    /// A capture by the move.
    Capture,
    /// The last four (H2.7).
    LastFour,
    /// The seeds left when the player to move could not feed (A.7).
    Leftover,
}

/// Why a move is not legal here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The game is over: no move is legal.
    GameOver,
    /// The pit is in the opponent's row.
    NotYourPit,
    /// The pit is not on this board.
    NoSuchPit,
    /// The pit is empty.
    EmptyPit,
    /// The sowing would never end (C.1).
    Endless,
    /// The opponent's row is empty and this move leaves it empty (A.5).
    DoesNotFeed,
    /// A pass is legal only when there is no sowing move (C.2).
    CannotPass,
}

/// What sowing a pit with a lap budget found: see [`Position::sow_within`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sown {
    /// The sowing ended: the position after the move.
    Ended(Position),
    /// The move is not legal.
    Refused(Illegal),
    /// Still sowing when the budget ran out: neither shown to end nor shown endless.
    Unsettled,
}

/// Why a sowing stopped short of its end: internal to [`Position::sow_laps`] and its callers.
enum Stop {
    Refused(Illegal),
    /// The lap budget ran out first.
    OutOfLaps,
}

impl From<Illegal> for Stop {
    fn from(reason: Illegal) -> Stop {
        Stop::Refused(reason)
    }
}

impl Stop {
    /// The refusal of an unbudgeted sowing, which always settles.
    fn into_illegal(self) -> Illegal {
        match self {
            Stop::Refused(reason) => reason,
            Stop::OutOfLaps => unreachable!("an unbudgeted sowing runs until it settles"),
        }
    }
}

/// A move refused; the position is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayError {
    /// The move refused.
    pub mv: Move,
    /// Why it was refused.
    pub reason: Illegal,
    pits_per_row: u8,
}

impl PlayError {
    pub(crate) fn new(mv: Move, reason: Illegal, rules: Rules) -> PlayError {
        PlayError {
            mv,
            reason,
            pits_per_row: rules.pits_per_row() as u8,
        }
    }
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.mv.name(self.pits_per_row.into());
        match self.reason {
            Illegal::GameOver => write!(f, "{name} is not legal: the game is over"),
            Illegal::NotYourPit => write!(f, "{name} is not legal: that pit is the opponent's"),
            Illegal::NoSuchPit => write!(f, "{name} is not legal: no such pit on this board"),
            Illegal::EmptyPit => write!(f, "{name} is not legal: that pit is empty"),
            Illegal::Endless => write!(f, "{name} is not legal: its sowing never ends (C.1)"),
            Illegal::DoesNotFeed => write!(
                f,
                "{name} is not legal: the opponent's row is empty and this move does not feed it (A.5)"
            ),
            Illegal::CannotPass => {
                write!(f, "pass is not legal: a sowing move is available (C.2)")
            }
        }
    }
}

impl std::error::Error for PlayError {}

/// Pit counts or captures that make no position of these rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError(pub String);

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PositionError {}

/// The pits as 8-byte words, for whole-board arithmetic.
const WORDS: usize = MAX_PITS / 8;

/// Word `w` of a board-sized byte array, pit `8w` in the lowest byte (as in
/// [`crate::tables::LAPS`]).
#[inline(always)]
fn word(bytes: &[u8; MAX_PITS], w: usize) -> u64 {
    u64::from_le_bytes(bytes[8 * w..8 * w + 8].try_into().expect("8 bytes"))
}

#[inline(always)]
fn set_word(bytes: &mut [u8; MAX_PITS], w: usize, value: u64) {
    bytes[8 * w..8 * w + 8].copy_from_slice(&value.to_le_bytes());
}

/// Laps sown before endless-sowing detection starts saving states (C.1).
const QUIET_LAPS: u64 = 8;
/// The budget of a sowing that must settle: far more laps than any computer can sow.
const NO_BUDGET: u64 = u64::MAX;

/// Receives the steps of a move; the untraced path compiles every call away.
trait Trace {
    const ENABLED: bool;
    fn event(&mut self, event: Event);
}

struct NoTrace;

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

    /// Whether a side's row is empty: three word operations, no loop with exits.
    #[inline]
    fn row_is_empty(&self, side: Side) -> bool {
        let mask = &ROW_MASKS[ring_slot(self.rules.pit_count())][side.index()];
        (0..WORDS).fold(0, |any, w| any | (word(&self.pits, w) & word(mask, w))) == 0
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
        // Without a budget every sowing settles, so none is left out.
        self.successors_within(NO_BUDGET).0
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
        next.play_sow(pit, NO_BUDGET, &mut NoTrace)
            .map_err(Stop::into_illegal)?;
        Ok(next)
    }

    /// Sows `pit` until it settles or `max_laps` laps have passed (the first few laps are
    /// always sown): the position after the move, or why it is not legal, or
    /// [`Sown::Unsettled`] if it is still sowing then.
    ///
    /// For players, not referees. Deciding C.1 exactly means following the laps until the
    /// state repeats, and some endless sowings repeat only after millions of laps (billions
    /// on 2×12). A player may leave such a move out of its choice without breaking any rule;
    /// a move it does choose has ended, so the referee settles it at once.
    #[inline]
    pub fn sow_within(&self, pit: Pit, max_laps: u64) -> Sown {
        if self.is_over() {
            return Sown::Refused(Illegal::GameOver);
        }
        let mut next = *self;
        match next.play_sow(pit, max_laps, &mut NoTrace) {
            Ok(_) => Sown::Ended(next),
            Err(Stop::Refused(reason)) => Sown::Refused(reason),
            Err(Stop::OutOfLaps) => Sown::Unsettled,
        }
    }

    /// The legal moves whose sowing settles within `max_laps` laps each, with the positions
    /// they lead to, and the number of sowing moves left out unsettled; when that would
    /// leave no move, those are settled exactly instead, so the list is empty only when the
    /// game is over and holds `pass` only when it is the one legal move.
    pub fn successors_within(
        &self,
        max_laps: u64,
    ) -> (
        ArrayVec<(Move, Position), { Rules::MAX_PITS_PER_ROW }>,
        usize,
    ) {
        let mut out = ArrayVec::new();
        if self.is_over() {
            return (out, 0);
        }
        let n = self.rules.pits_per_row();
        let mut unsettled = 0;
        for column in 0..n {
            let pit = Pit::of(self.to_move, column, n);
            match self.sow_within(pit, max_laps) {
                Sown::Ended(next) => out.push((Move::Sow(pit), next)),
                Sown::Refused(_) => {}
                Sown::Unsettled => unsettled += 1,
            }
        }
        if out.is_empty() && unsettled > 0 {
            return (self.successors_within(NO_BUDGET).0, 0);
        }
        if out.is_empty() {
            let mut next = *self;
            next.play_pass(&mut NoTrace);
            out.push((Move::Pass, next));
        }
        (out, unsettled)
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
                .play_sow(pit, NO_BUDGET, trace)
                .map_err(|stop| self.error(mv, stop.into_illegal())),
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
            next.play_sow(Pit::of(self.to_move, column, n), NO_BUDGET, &mut NoTrace)
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

    #[inline]
    fn set_to_move(&mut self, side: Side) {
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
    fn play_sow<T: Trace>(
        &mut self,
        pit: Pit,
        max_laps: u64,
        trace: &mut T,
    ) -> Result<Report, Stop> {
        // One copy per game kind and ring size, so that both are constants in the loops.
        match (self.rules.variant().is_hoyito(), self.rules.pit_count()) {
            (true, 12) => self.play_sow_as::<T, true, 12>(pit, max_laps, trace),
            (true, _) => self.play_sow_as::<T, true, 24>(pit, max_laps, trace),
            (false, 12) => self.play_sow_as::<T, false, 12>(pit, max_laps, trace),
            (false, _) => self.play_sow_as::<T, false, 24>(pit, max_laps, trace),
        }
    }

    #[inline(always)]
    fn play_sow_as<T: Trace, const HOYITO: bool, const RING: usize>(
        &mut self,
        pit: Pit,
        max_laps: u64,
        trace: &mut T,
    ) -> Result<Report, Stop> {
        let rules = self.rules;
        let n = RING / 2;
        let mover = self.to_move;
        if pit.index() >= rules.pit_count() {
            return Err(Illegal::NoSuchPit.into());
        }
        if pit.owner(n) != mover {
            return Err(Illegal::NotYourPit.into());
        }
        if self.pits[pit.index()] == 0 {
            return Err(Illegal::EmptyPit.into());
        }
        let must_feed = !HOYITO && self.row_is_empty(!mover);
        let (end_pit, laps) = self.sow_laps::<T, HOYITO, RING>(pit.index(), max_laps, trace)?;
        let mut report = Report {
            laps: u32::try_from(laps).unwrap_or(u32::MAX),
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
                return Err(Illegal::DoesNotFeed.into());
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
    fn settle<T: Trace>(&mut self, trace: &mut T) -> Option<End> {
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
    /// Detects endless sowing exactly (C.1) with Brent's cycle finding over the state
    /// (pit counts, end pit) after each lap: one saved state, no allocation, no lap cap
    /// but the caller's `max_laps` (see [`Position::sow_within`]).
    #[inline(always)]
    fn sow_laps<T: Trace, const HOYITO: bool, const RING: usize>(
        &mut self,
        origin: usize,
        max_laps: u64,
        trace: &mut T,
    ) -> Result<(usize, u64), Stop> {
        let ring = RING;
        let slot = ring_slot(RING);
        let hoyito = HOYITO;
        // Ayoayo laps skip the pit they were lifted from, so a turn of the ring is 2N−1 pits.
        let turn = if hoyito { ring } else { ring - 1 };
        // The words the lap touches: two cover 2×6.
        let words = RING.div_ceil(8);
        let kind = lap_kind(HOYITO, RING);
        let mover = self.to_move;

        let mut from = origin;
        let mut relay = false;
        let mut laps = 0u64;
        // Brent's state: the saved (pits, end) and when to save next. Saving starts only
        // after a few laps, since nearly every move ends before; any start finds the cycle.
        let mut saved_pits = self.pits;
        let mut saved_end = usize::MAX;
        let (mut power, mut since_saved) = (1u64, 0u64);
        loop {
            laps += 1;
            let seeds = self.pits[from];
            let count = usize::from(seeds);
            self.hash = self
                .hash
                .wrapping_sub(u64::from(seeds).wrapping_mul(PIT_KEYS[from]));
            let end = if T::ENABLED {
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
                // Lift and sow in a few word operations: no pit holds more than 255 seeds,
                // so no byte carries into the next.
                let lap = &LAPS[kind][from][rest];
                let keep = &KEEP_MASKS[from];
                for w in 0..words {
                    let sown = (word(&self.pits, w) & word(keep, w)) + lap.run[w];
                    set_word(&mut self.pits, w, sown);
                }
                self.hash = self.hash.wrapping_add(lap.key);
                if rounds > 0 {
                    // Rare: a lap of a whole turn of the ring or more. Ayoayo skips `from`.
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
            if laps < QUIET_LAPS {
                from = end;
                relay = true;
                continue;
            }
            if end == saved_end && self.pits == saved_pits {
                return Err(Illegal::Endless.into());
            }
            if laps >= max_laps {
                return Err(Stop::OutOfLaps);
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

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self)
    }
}
