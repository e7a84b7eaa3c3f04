//! The one-line position text, e.g. `hoyito-ii 4,4,4,4,4,4/4,4,4,4,4,4 0-0 S -`.
//!
//! Fields, separated by spaces: the game; South's row then North's row (each in ring
//! order, counts separated by commas, rows by `/`); the captures `South-North`; the side to
//! move `S` or `N`; the last sower `S`, `N` or `-`; then options that differ from the
//! defaults as `key=value` (`casa-rows=opponent`, `leftover=holder`, `final-four=north`;
//! [`crate::RuleOption`] lists them), each of the game's own.
//! `docs/notation.md` documents it.

use std::fmt;
use std::str::FromStr;

use crate::{BySide, Position, Rules, Side, Variant};

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rules = self.rules();
        let n = rules.pits_per_row();
        write!(f, "{} ", rules.variant())?;
        for (i, seeds) in self.pits().iter().enumerate() {
            if i > 0 {
                f.write_str(if i == n { "/" } else { "," })?;
            }
            write!(f, "{seeds}")?;
        }
        let captured = self.captured();
        write!(
            f,
            " {}-{} {} {}",
            captured.south,
            captured.north,
            self.to_move().letter(),
            self.last_sower().map_or('-', Side::letter)
        )?;
        for (option, value) in rules.options() {
            if value != option.default_value() {
                write!(f, " {}={value}", option.name)?;
            }
        }
        Ok(())
    }
}

/// A position text that could not be read: where (1-based column) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePositionError {
    /// The column of the field at fault, counting characters from 1.
    pub column: usize,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "position text, column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for ParsePositionError {}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(text: &str) -> Result<Position, ParsePositionError> {
        // Fields with the (1-based, character) column each starts at.
        let mut fields: Vec<(usize, String)> = Vec::new();
        let mut in_field = false;
        for (column, ch) in text.chars().enumerate() {
            if ch.is_whitespace() {
                in_field = false;
            } else if in_field {
                fields.last_mut().expect("a field is open").1.push(ch);
            } else {
                fields.push((column + 1, String::from(ch)));
                in_field = true;
            }
        }
        let end_column = text.chars().count() + 1;
        let mut fields = fields.into_iter();
        let mut next = |what: &str| {
            fields.next().ok_or_else(|| ParsePositionError {
                column: end_column,
                message: format!("missing {what}"),
            })
        };
        let err = |column: usize, message: String| ParsePositionError { column, message };

        let (column, game) = next("the game (hoyito-ii, hoyito-iii or ayoayo)")?;
        let variant: Variant = game.parse().map_err(|e| err(column, format!("{e}")))?;

        let (column, rows_text) = next("the rows (South's/North's pit counts)")?;
        let rows: Vec<&str> = rows_text.split('/').collect();
        if rows.len() != 2 {
            return Err(err(
                column,
                format!("expected two rows separated by '/', found {}", rows.len()),
            ));
        }
        let mut pits = Vec::new();
        let mut row_lengths = [0; 2];
        for (r, row) in rows.iter().enumerate() {
            for count in row.split(',') {
                let seeds: u8 = count.parse().map_err(|_| {
                    err(column, format!("{count:?} is not a seed count (0 to 255)"))
                })?;
                pits.push(seeds);
                row_lengths[r] += 1;
            }
        }
        if row_lengths[0] != row_lengths[1] {
            return Err(err(
                column,
                format!(
                    "South's row has {} pits but North's has {}",
                    row_lengths[0], row_lengths[1]
                ),
            ));
        }
        let mut rules = Rules::new(variant)
            .with_pits(row_lengths[0])
            .map_err(|e| err(column, e.to_string()))?;

        let (column, captured_text) = next("the captures (South-North)")?;
        let captured = captured_text
            .split_once('-')
            .and_then(|(s, n)| Some(BySide::new(s.parse().ok()?, n.parse().ok()?)))
            .ok_or_else(|| {
                err(
                    column,
                    format!("{captured_text:?} is not captures like 12-8 (South-North)"),
                )
            })?;

        let (column, side_text) = next("the side to move (S or N)")?;
        let to_move = match side_text.as_str() {
            "S" => Side::South,
            "N" => Side::North,
            _ => {
                return Err(err(
                    column,
                    format!("{side_text:?} is not a side to move (S or N)"),
                ))
            }
        };

        let (column, sower_text) = next("the last sower (S, N or -)")?;
        let last_sower = match sower_text.as_str() {
            "S" => Some(Side::South),
            "N" => Some(Side::North),
            "-" => None,
            _ => {
                return Err(err(
                    column,
                    format!("{sower_text:?} is not a last sower (S, N or -)"),
                ))
            }
        };

        for (column, option) in fields {
            let (key, value) = option.split_once('=').ok_or_else(|| {
                err(
                    column,
                    format!("{option:?} is not an option like key=value"),
                )
            })?;
            rules
                .set_option(key, value)
                .map_err(|e| err(column, e.to_string()))?;
        }

        Position::from_parts(rules, &pits, captured, to_move, last_sower)
            .map_err(|e| err(1, e.to_string()))
    }
}
