//! Solving positions with more seeds than the endgame tables hold: a search proves bounds on
//! a position's value down to the tables ([`prove`], driven by [`solve`]), records every
//! proven bound as a *claim* in a certificate file ([`certificate`]), and a checker written
//! apart from the prover ([`check`]) confirms the certificate using only the rules crate's
//! moves and the tables' values. docs/solve.md describes the method and the file format.
//!
//! **The value** is the tables' (docs/tables.md): V = the mover's future captures minus the
//! opponent's, with best play, play that never ends being worth 0 for the seeds left.
//!
//! **Claims.** A claim is "V(p) ≥ b" ([`Kind::Lower`], with the move that achieves it) or
//! "V(p) ≤ b" ([`Kind::Upper`]), about a position p named by its place in the tables' index
//! ([`Key`]): the mover is South, and the captures so far do not matter.
#![warn(missing_docs)]

pub mod certificate;
pub mod check;
pub mod prove;
pub mod solve;

use std::fmt;
use std::path::PathBuf;

use sowing::{Move, Pit, Position, Side};
use sowing_tables::{Family, TablesError};

/// A position as the tables index it: `index << 7 | seeds` (seeds on the board below 128,
/// index below 2⁵⁶), the mover rotated to South.
pub type Key = u64;

/// The largest index a [`Key`] can hold.
const MAX_INDEX: u64 = 1 << 56;

/// Which side of the value a claim bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// V ≥ bound: the mover can force at least that.
    Lower,
    /// V ≤ bound: the opponent can hold the mover to at most that.
    Upper,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Lower => "≥",
            Kind::Upper => "≤",
        })
    }
}

/// The seeds on the board of a key's position.
#[inline]
pub fn key_seeds(key: Key) -> usize {
    (key & 0x7F) as usize
}

/// The index in its layer of a key's position.
#[inline]
pub fn key_index(key: Key) -> u64 {
    key >> 7
}

/// The key of a position of `family` (which the caller has checked with [`check_family`]).
#[inline]
pub fn key_of(family: &Family, position: &Position) -> Key {
    let (seeds, index) = family.locate(position);
    (index << 7) | seeds as u64
}

/// The position of a key: South to move, nothing captured; `None` when the key names no
/// position of the family (an index beyond its layer).
pub fn position_of(family: &Family, key: Key) -> Option<Position> {
    let (seeds, index) = (key_seeds(key), key_index(key));
    if seeds == 0 || index >= family.layer_len(seeds) {
        return None;
    }
    Some(family.position(seeds, index))
}

/// Checks that every position of `family` with up to `seeds` seeds has a [`Key`].
///
/// # Errors
/// When the layers are too large (e.g. Hoyito II's 2×12 board).
pub fn check_family(family: &Family, seeds: usize) -> Result<(), SolveError> {
    let fits = seeds < 128 && (1..=seeds).all(|n| family.layer_len(n) < MAX_INDEX / 4);
    if fits {
        Ok(())
    } else {
        Err(SolveError::Unsupported(format!(
            "positions of {family} with {seeds} seeds are beyond the index a certificate \
             uses (below 2^54 positions a layer)"
        )))
    }
}

/// A move as one byte, relative to its mover: the column (0 = `A`), or [`PASS`].
pub fn move_code(mv: Move, pits_per_row: usize) -> u8 {
    match mv {
        Move::Pass => PASS,
        Move::Sow(pit) => pit.column(pits_per_row) as u8,
    }
}

/// The code of a pass in [`move_code`].
pub const PASS: u8 = 0x1F;

/// The move of a [`move_code`] for `mover`; `None` for a code that names no column.
pub fn code_move(code: u8, mover: Side, pits_per_row: usize) -> Option<Move> {
    match code {
        PASS => Some(Move::Pass),
        c if usize::from(c) < pits_per_row => {
            Some(Move::Sow(Pit::of(mover, c.into(), pits_per_row)))
        }
        _ => None,
    }
}

/// What the mover gains by a move from `parent` to `child`: its captures minus the
/// opponent's (a leftover or the last four handed over count for the opponent).
#[inline]
pub fn gain(parent: &Position, child: &Position) -> i32 {
    let me = parent.to_move();
    let (before, after) = (parent.captured(), child.captured());
    (i32::from(after[me]) - i32::from(before[me]))
        - (i32::from(after[!me]) - i32::from(before[!me]))
}

/// Why solving, writing or checking failed.
#[derive(Debug)]
pub enum SolveError {
    /// The tables could not be opened or read.
    Tables(TablesError),
    /// A file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        error: std::io::Error,
    },
    /// A certificate or checkpoint file is malformed.
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The checker refuses a certificate: the first position whose claim fails, and why.
    Refused {
        /// The position, as position text.
        position: String,
        /// What fails there.
        why: String,
    },
    /// A request the solver cannot serve.
    Unsupported(String),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Tables(error) => write!(f, "{error}"),
            SolveError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            SolveError::Format { path, why } => write!(f, "{}: {why}", path.display()),
            SolveError::Refused { position, why } => {
                write!(f, "certificate refused at {position}: {why}")
            }
            SolveError::Unsupported(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for SolveError {}

impl From<TablesError> for SolveError {
    fn from(error: TablesError) -> SolveError {
        SolveError::Tables(error)
    }
}
