//! Pits, moves and their names: `A B C …` for South's pits, `a b c …` for North's, `pass`.

use std::fmt;

use arrayvec::ArrayVec;

use crate::Side;

/// A pit, by its index on the ring `0 … 2N−1` (South's `0 … N−1`, North's `N … 2N−1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pit(u8);

impl Pit {
    /// The pit at ring index `index`. The caller keeps it below 2N of the board it is used on.
    #[inline]
    pub const fn new(index: usize) -> Pit {
        Pit(index as u8)
    }

    /// The pit of `side` in column `column` (0 = `A`/`a`, as its owner sees the row).
    #[inline]
    pub const fn of(side: Side, column: usize, pits_per_row: usize) -> Pit {
        Pit((side.index() * pits_per_row + column) as u8)
    }

    /// Its ring index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The side whose row holds the pit.
    #[inline]
    pub const fn owner(self, pits_per_row: usize) -> Side {
        if self.index() < pits_per_row {
            Side::South
        } else {
            Side::North
        }
    }

    /// Its column in its owner's row.
    #[inline]
    pub const fn column(self, pits_per_row: usize) -> usize {
        self.index() % pits_per_row
    }

    /// The pit across the board: `2N − 1 − i`.
    #[inline]
    pub const fn opposite(self, pits_per_row: usize) -> Pit {
        Pit((2 * pits_per_row - 1 - self.index()) as u8)
    }

    /// Its letter: `A …` in South's row, `a …` in North's.
    pub const fn letter(self, pits_per_row: usize) -> char {
        let column = self.column(pits_per_row) as u8;
        match self.owner(pits_per_row) {
            Side::South => (b'A' + column) as char,
            Side::North => (b'a' + column) as char,
        }
    }
}

/// A move: sow from one of your pits, or pass when there is nothing else (C.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Lift the seeds of this pit and sow them.
    Sow(Pit),
    /// The only legal move of a player who has no legal sowing move.
    Pass,
}

/// The legal moves of a position, on the stack: at most one per pit of a row.
pub type MoveList = ArrayVec<Move, { crate::Rules::MAX_PITS_PER_ROW }>;

impl Move {
    /// The move's name on a board of `pits_per_row` pits a row, for display.
    pub const fn name(self, pits_per_row: usize) -> MoveName {
        MoveName {
            mv: self,
            pits_per_row: pits_per_row as u8,
        }
    }

    /// Reads a move token (`A`, `f`, `pass`) for a board of `pits_per_row` pits a row.
    ///
    /// # Errors
    /// When the token names no pit of that board and is not `pass`.
    pub fn parse(token: &str, pits_per_row: usize) -> Result<Move, ParseMoveError> {
        let error = || ParseMoveError {
            token: token.to_owned(),
            pits_per_row,
        };
        if token == "pass" {
            return Ok(Move::Pass);
        }
        let &[byte] = token.as_bytes() else {
            return Err(error());
        };
        let n = pits_per_row as u8;
        let (side, column) = match byte {
            b'A'..=b'Z' if byte - b'A' < n => (Side::South, byte - b'A'),
            b'a'..=b'z' if byte - b'a' < n => (Side::North, byte - b'a'),
            _ => return Err(error()),
        };
        Ok(Move::Sow(Pit::of(side, column.into(), pits_per_row)))
    }
}

/// A move with the board size needed to name it; see [`Move::name`].
#[derive(Clone, Copy, Debug)]
pub struct MoveName {
    mv: Move,
    pits_per_row: u8,
}

impl fmt::Display for MoveName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mv {
            Move::Pass => f.write_str("pass"),
            Move::Sow(pit) => write!(f, "{}", pit.letter(self.pits_per_row.into())),
        }
    }
}

/// A token that is not a move name on this board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError {
    /// The token as given.
    pub token: String,
    /// The board's pits per row, which decides the valid letters.
    pub pits_per_row: usize,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let last = (b'A' + self.pits_per_row as u8 - 1) as char;
        write!(
            f,
            "{:?} is not a move: expected a pit letter A-{} (South) or a-{} (North), or pass",
            self.token,
            last,
            last.to_ascii_lowercase()
        )
    }
}

impl std::error::Error for ParseMoveError {}
