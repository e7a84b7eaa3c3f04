//! What a move did and how a game ends: the reports, events, outcomes and refusals that
//! [`Position`](crate::Position) hands back.

use std::fmt;

use crate::{Move, Pit, Rules, Side};

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
    /// The end's stable code, for stores, the web API and Python: `board-cleared`,
    /// `last-four`, `cannot-feed` or `repetition` (the side that took the last four is
    /// [`End::side`]); [`End::from_code`] reads it back.
    pub const fn code(self) -> &'static str {
        match self {
            End::BoardCleared => "board-cleared",
            End::LastFour(_) => "last-four",
            End::CannotFeed => "cannot-feed",
            End::Repetition => "repetition",
        }
    }

    /// The side that took the last four; `None` for the other ends.
    pub const fn side(self) -> Option<Side> {
        match self {
            End::LastFour(side) => Some(side),
            _ => None,
        }
    }

    /// The end of a code and side as [`End::code`] and [`End::side`] give them; `None` for
    /// a code this crate does not know, or a side given with an end that has none (or
    /// missing for the last four).
    ///
    /// ```
    /// use sowing::{End, Side};
    ///
    /// let end = End::LastFour(Side::North);
    /// assert_eq!(End::from_code(end.code(), end.side()), Some(end));
    /// assert_eq!(End::from_code("last-four", None), None);
    /// ```
    pub fn from_code(code: &str, side: Option<Side>) -> Option<End> {
        let end = match side {
            Some(side) => End::LastFour(side),
            None => [End::BoardCleared, End::CannotFeed, End::Repetition]
                .into_iter()
                .find(|end| end.code() == code)?,
        };
        (end.code() == code).then_some(end)
    }

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
    /// The sowing does not end within [`MAX_LAPS`](crate::MAX_LAPS) laps, or never ends (C.1).
    Endless,
    /// The opponent's row is empty and this move leaves it empty (A.5).
    DoesNotFeed,
    /// A pass is legal only when there is no sowing move (C.2).
    CannotPass,
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
            Illegal::Endless => write!(
                f,
                "{name} is not legal: its sowing does not end within {} laps (C.1)",
                crate::MAX_LAPS
            ),
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
