//! The three games and their options, as data read by one sowing routine.

use std::fmt;
use std::str::FromStr;

use crate::Side;

/// C.1: a sowing move is legal only if its sowing ends within this many laps (the first lap
/// counts as one). Every endless sowing is refused under it, and it bounds each legality test
/// to about a millisecond: in 26 million sowings from random games none that ended took more
/// than 919 laps.
pub const MAX_LAPS: u32 = 65_536;

/// One of the three games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Hoyito II: relay sowing, casa captures with backward chains, extra turns (H2.*).
    HoyitoII,
    /// Hoyito III: as Hoyito II but only the end pit is captured (H3.*).
    HoyitoIII,
    /// Ayoayo: origin-skipping relay sowing, opposite captures into stores, feeding (A.*).
    Ayoayo,
}

impl Variant {
    /// All games, in the order the docs list them.
    pub const ALL: [Variant; 3] = [Variant::HoyitoII, Variant::HoyitoIII, Variant::Ayoayo];

    /// The stable name used on the command line, in records and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::HoyitoII => "hoyito-ii",
            Variant::HoyitoIII => "hoyito-iii",
            Variant::Ayoayo => "ayoayo",
        }
    }

    /// Whether this is one of the Hoyito games (casas, extra turns, the last four).
    pub const fn is_hoyito(self) -> bool {
        !matches!(self, Variant::Ayoayo)
    }

    /// The board sizes (pits per row) the game is played on; the first is the usual one.
    pub const fn board_sizes(self) -> &'static [u8] {
        match self {
            Variant::HoyitoII => &[6, 12],
            _ => &[6],
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A game, board size or option that the rules do not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError(pub String);

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RulesError {}

impl FromStr for Variant {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Variant, RulesError> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| {
                RulesError(format!(
                    "unknown game {s:?} (expected hoyito-ii, hoyito-iii or ayoayo)"
                ))
            })
    }
}

/// Hoyito option of H2.5: which row's pits of four can be captured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CasaRows {
    /// A casa on either row counts (default).
    #[default]
    Any,
    /// Only pits in the opponent's row make a casa or continue a chain (Valdez's reading).
    Opponent,
}

/// Ayoayo option of A.7: who takes the seeds left when the mover cannot feed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Leftover {
    /// The player who made the last sowing move (the seed text; default).
    #[default]
    LastMover,
    /// Each seed goes to the owner of the row it lies in.
    Holder,
}

/// Hoyito setting of H2.7 / H3.3: who takes the last four seeds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FinalFour {
    /// The player whose capture left them (a single game, rounds 1 and 2; default).
    #[default]
    Capturer,
    /// A fixed player: the winner of the previous round from round 3 of a match on.
    To(Side),
}

macro_rules! option_names {
    ($ty:ty, $what:literal, $($value:expr => $name:literal),+ $(,)?) => {
        impl $ty {
            /// The option value's name on the command line and in records.
            pub fn name(self) -> &'static str {
                $(if self == $value { return $name; })+
                unreachable!()
            }
        }
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
        impl FromStr for $ty {
            type Err = RulesError;
            fn from_str(s: &str) -> Result<Self, RulesError> {
                $(if s == $name { return Ok($value); })+
                Err(RulesError(format!(
                    concat!("unknown ", $what, " {:?} (expected {})"),
                    s,
                    [$($name),+].join(" or ")
                )))
            }
        }
    };
}

option_names!(CasaRows, "casa-rows", CasaRows::Any => "any", CasaRows::Opponent => "opponent");
option_names!(Leftover, "leftover", Leftover::LastMover => "last-mover", Leftover::Holder => "holder");
option_names!(FinalFour, "final-four",
    FinalFour::Capturer => "capturer",
    FinalFour::To(Side::South) => "south",
    FinalFour::To(Side::North) => "north");

/// Everything that decides how a game is played: the game, the board size and the options.
///
/// Options that do not apply to the game (say `leftover` in Hoyito) are kept at their
/// defaults by [`Rules::new`] and ignored by play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    variant: Variant,
    pits_per_row: u8,
    /// H2.5 option (Hoyito games).
    pub casa_rows: CasaRows,
    /// A.7 option (Ayoayo).
    pub leftover: Leftover,
    /// H3.3 setting: who takes the last four (Hoyito III; Hoyito II always gives them to
    /// the capturer).
    pub final_four: FinalFour,
    /// The C.1 lap cap: [`MAX_LAPS`], lower only in tests (`Rules::with_max_laps`).
    max_laps: u32,
}

impl Rules {
    /// The largest board: 2×12.
    pub const MAX_PITS_PER_ROW: usize = 12;

    /// The game on its usual board (2×6) with the default options.
    pub const fn new(variant: Variant) -> Rules {
        Rules {
            variant,
            pits_per_row: 6,
            casa_rows: CasaRows::Any,
            leftover: Leftover::LastMover,
            final_four: FinalFour::Capturer,
            max_laps: MAX_LAPS,
        }
    }

    /// The same rules with a lower C.1 lap cap, so that tests can build a sowing that ends
    /// exactly on the cap or one lap after it without a 65,536-lap position.
    #[cfg(feature = "test-lap-cap")]
    #[doc(hidden)]
    pub fn with_max_laps(mut self, laps: u32) -> Rules {
        self.max_laps = laps;
        self
    }

    /// Laps a sowing may take (C.1): [`MAX_LAPS`].
    #[inline]
    pub const fn max_laps(self) -> u32 {
        self.max_laps
    }

    /// The same rules on a board of `pits_per_row` pits a row.
    ///
    /// # Errors
    /// When the game is not played on that board (only Hoyito II has 2×12).
    pub fn with_pits(mut self, pits_per_row: usize) -> Result<Rules, RulesError> {
        if !self
            .variant
            .board_sizes()
            .iter()
            .any(|&n| usize::from(n) == pits_per_row)
        {
            let sizes: Vec<String> = self
                .variant
                .board_sizes()
                .iter()
                .map(|n| n.to_string())
                .collect();
            return Err(RulesError(format!(
                "{} is not played with {pits_per_row} pits per row (only {})",
                self.variant,
                sizes.join(" or ")
            )));
        }
        self.pits_per_row = pits_per_row as u8;
        Ok(self)
    }

    /// The game.
    #[inline]
    pub const fn variant(self) -> Variant {
        self.variant
    }

    /// Pits in each row (N).
    #[inline]
    pub const fn pits_per_row(self) -> usize {
        self.pits_per_row as usize
    }

    /// Pits on the board (2N).
    #[inline]
    pub const fn pit_count(self) -> usize {
        2 * self.pits_per_row as usize
    }

    /// Seeds on the board at the start: 4 in every pit.
    #[inline]
    pub const fn total_seeds(self) -> usize {
        4 * self.pit_count()
    }

    /// The same rules with the options the game does not have put back to their defaults,
    /// so that equal games compare equal.
    pub fn normalized(mut self) -> Rules {
        if !self.variant.is_hoyito() {
            self.casa_rows = CasaRows::default();
        }
        if self.variant != Variant::Ayoayo {
            self.leftover = Leftover::default();
        }
        if self.variant != Variant::HoyitoIII {
            self.final_four = FinalFour::default();
        }
        self
    }

    /// Who takes the last four in this game: Hoyito II always gives them to the capturer.
    #[inline]
    pub const fn effective_final_four(self) -> FinalFour {
        match self.variant {
            Variant::HoyitoIII => self.final_four,
            _ => FinalFour::Capturer,
        }
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::new(Variant::HoyitoII)
    }
}

impl From<Variant> for Rules {
    fn from(variant: Variant) -> Rules {
        Rules::new(variant)
    }
}
