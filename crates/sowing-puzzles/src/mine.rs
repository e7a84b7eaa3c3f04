//! The miner: candidate positions in, distinct puzzles out, with the counts that say how
//! many candidates were kept.

use std::collections::HashSet;

use rayon::prelude::*;
use sowing::Position;
use sowing_tables::{Family, Tables, TablesError};

use crate::values::{move_values, only_move, threshold};
use crate::{line, rating, themes, Puzzle};

/// What the miner has looked at so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions given to the miner.
    pub positions: u64,
    /// Distinct candidates: positions inside the tables, not over, with two moves or more
    /// (two positions with the same board, side to move and rule state are one).
    pub candidates: u64,
    /// Candidates that were puzzles.
    pub kept: u64,
}

/// Finds puzzles among the positions it is given, each board once, up to a count.
pub struct Miner<'t> {
    tables: &'t Tables,
    family: Family,
    count: usize,
    seen: HashSet<(usize, u64)>,
    puzzles: Vec<Puzzle>,
    stats: Stats,
}

impl<'t> Miner<'t> {
    /// A miner over `tables` that stops at `count` puzzles.
    pub fn new(tables: &'t Tables, count: usize) -> Miner<'t> {
        Miner {
            tables,
            family: tables.family(),
            count,
            seen: HashSet::new(),
            puzzles: Vec::new(),
            stats: Stats::default(),
        }
    }

    /// Whether `count` puzzles are found.
    pub fn full(&self) -> bool {
        self.puzzles.len() >= self.count
    }

    /// The puzzles found, in the order their positions were given.
    pub fn puzzles(&self) -> &[Puzzle] {
        &self.puzzles
    }

    /// The counts so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The puzzles found.
    pub fn into_puzzles(self) -> Vec<Puzzle> {
        self.puzzles
    }

    /// Whether `key` (a board's layer and index) was seen before; marks it seen.
    fn seen(&mut self, key: (usize, u64)) -> bool {
        !self.seen.insert(key)
    }

    /// Looks at `positions` (of the tables' family; others are skipped) in order, examined
    /// in parallel, and keeps the puzzles among those not seen before, until the count is
    /// reached. `source` names where they came from.
    ///
    /// # Errors
    /// When the tables cannot be read.
    pub fn add(&mut self, positions: &[Position], source: &str) -> Result<(), TablesError> {
        let mut fresh = Vec::new();
        for position in positions {
            if self.full() {
                break;
            }
            self.stats.positions += 1;
            let seeds = position.seeds_on_board();
            if Family::of(position.rules()) != self.family
                || position.is_over()
                || seeds > self.tables.max_seeds()
                || !self.tables.built(seeds)
                || self.seen(self.family.locate(position))
            {
                continue;
            }
            fresh.push(*position);
        }
        let examined: Vec<Option<Option<Puzzle>>> = fresh
            .par_iter()
            .map(|position| examine(self.tables, position, source))
            .collect::<Result<_, _>>()?;
        for verdict in examined.into_iter().flatten() {
            if self.full() {
                break;
            }
            self.stats.candidates += 1;
            if let Some(puzzle) = verdict {
                self.stats.kept += 1;
                self.puzzles.push(puzzle);
            }
        }
        Ok(())
    }
}

/// `None` when `position` is no candidate (fewer than two moves), else the puzzle it is, if
/// it is one.
///
/// # Errors
/// When the tables cannot be read.
pub fn examine(
    tables: &Tables,
    position: &Position,
    source: &str,
) -> Result<Option<Option<Puzzle>>, TablesError> {
    let values = move_values(tables, position)?;
    if values.len() < 2 {
        return Ok(None);
    }
    let variant = position.rules().variant();
    let Some(only) = only_move(&values, threshold(variant)) else {
        return Ok(Some(None));
    };
    let moves = line::solution(tables, position, values[only].0, threshold(variant))?;
    let mover_moves = moves_of_mover(position, &moves);
    let n = position.rules().pits_per_row();
    Ok(Some(Some(Puzzle {
        game: variant.name().to_owned(),
        position: position.to_string(),
        moves: moves.iter().map(|m| m.name(n).to_string()).collect(),
        value: values[only].2,
        themes: themes::of_line(position, &moves)
            .into_iter()
            .map(|t| t.code().to_owned())
            .collect(),
        rating: rating::initial(position, &values, only, mover_moves),
        source: source.to_owned(),
    })))
}

/// How many moves of the line the mover of `start` makes.
fn moves_of_mover(start: &Position, moves: &[sowing::Move]) -> usize {
    let mover = start.to_move();
    let mut position = *start;
    moves
        .iter()
        .filter(|&&mv| {
            let mine = position.to_move() == mover;
            position.play(mv).expect("a line's moves are legal");
            mine
        })
        .count()
}
