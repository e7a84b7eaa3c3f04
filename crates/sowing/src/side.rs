//! The two players and a pair of values, one for each.

use std::fmt;
use std::ops::{Index, IndexMut, Not};
use std::str::FromStr;

/// One of the two players. South owns pits `0..N`, North owns `N..2N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The player who starts a single game; owns pits `A B C …`.
    South,
    /// The second player; owns pits `a b c …`.
    North,
}

impl Side {
    /// Both sides, South first.
    pub const ALL: [Side; 2] = [Side::South, Side::North];

    /// `0` for South, `1` for North.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side's name in the machine state: `south` or `north`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::South => "south",
            Side::North => "north",
        }
    }

    /// One letter, as in the position text: `S` or `N`.
    pub const fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }
}

impl Not for Side {
    type Output = Side;
    /// A table lookup, not a branch: the side to move is as good as random in a search.
    #[inline]
    fn not(self) -> Side {
        Side::ALL[self.index() ^ 1]
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text was not `south` or `north` (or `S` / `N`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSideError(pub String);

impl fmt::Display for ParseSideError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown side {:?} (expected south or north)", self.0)
    }
}

impl std::error::Error for ParseSideError {}

impl FromStr for Side {
    type Err = ParseSideError;
    fn from_str(s: &str) -> Result<Side, ParseSideError> {
        match s {
            "south" | "S" | "s" => Ok(Side::South),
            "north" | "N" | "n" => Ok(Side::North),
            _ => Err(ParseSideError(s.to_owned())),
        }
    }
}

/// A value for each side, indexed by [`Side`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BySide<T> {
    /// South's value.
    pub south: T,
    /// North's value.
    pub north: T,
}

impl<T> BySide<T> {
    /// A pair from South's and North's values.
    pub const fn new(south: T, north: T) -> Self {
        BySide { south, north }
    }
}

impl<T> Index<Side> for BySide<T> {
    type Output = T;
    #[inline]
    fn index(&self, side: Side) -> &T {
        match side {
            Side::South => &self.south,
            Side::North => &self.north,
        }
    }
}

impl<T> IndexMut<Side> for BySide<T> {
    #[inline]
    fn index_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::South => &mut self.south,
            Side::North => &mut self.north,
        }
    }
}
