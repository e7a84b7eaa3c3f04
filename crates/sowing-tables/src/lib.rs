//! Perfect-play endgame tables for Hoyito II, Hoyito III and Ayoayo.
//!
//! For every position with at most S seeds on the board the tables hold its value
//! **V = the future captures of the player to move minus the opponent's**, with both players
//! maximising their final margin under every rule of the game, repetition (C.3) included:
//! play that never ends captures nothing more. They are built by retrograde analysis layer
//! by layer over the seeds on the board ([`build`]), stored one signed byte a position in
//! one file a layer ([`file`]) or compressed in blocks ([`compressed`]), read memory-mapped
//! through one path whatever the form ([`layer`], [`Tables`]) and re-proved by [`verify`].
//! `docs/tables.md` documents the method, the index and the file formats.
//!
//! ```
//! use sowing::{Position, Rules, Variant};
//! use sowing_tables::{build, Tables};
//!
//! let dir = std::env::temp_dir().join(format!("sowing-tables-doc-{}", std::process::id()));
//! let rules = Rules::new(Variant::HoyitoII);
//! build::build(&dir, rules, 5, &build::Options::quiet())?;
//! let tables = Tables::open(&dir, rules)?;
//! let position: Position = "hoyito-ii 0,0,0,0,1,0/3,0,0,0,0,0 20-23 S -".parse()?;
//! let probe = tables.probe(&position)?;
//! assert_eq!(probe.value, probe.moves.iter().map(|m| m.1).max().unwrap());
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

pub mod build;
pub mod compressed;
pub mod file;
mod index;
pub mod layer;
mod progress;
pub mod split;
pub mod threads;
pub mod verify;

use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};

use sowing::{Move, Position, Rules};

pub use index::{binomial, boards, rank, unrank, Family, RuleState, MAX_LAYER_SEEDS};
pub use layer::{Format, Values};

/// Why tables could not be built, opened or probed.
#[derive(Debug)]
pub enum TablesError {
    /// A file or directory could not be read or written.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What went wrong.
        error: std::io::Error,
    },
    /// A layer file is truncated, corrupt, or of another table.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// The position has more seeds on the board than the tables on disk hold.
    Beyond {
        /// Seeds on the board.
        seeds: usize,
        /// The largest layer present (0 when there is none).
        max: usize,
        /// The family's directory.
        dir: PathBuf,
    },
    /// The position's layer is not built: the tables hold layers above and below it, but
    /// not this one (by default only the layers play from the start reaches are built, see
    /// [`build::Layers`]; a set-up position may lie between them).
    NotBuilt {
        /// Seeds on the board: the layer.
        seeds: usize,
        /// The layers that are built, from 1 seed up.
        built: Vec<usize>,
        /// The family's directory.
        dir: PathBuf,
    },
    /// A stored value that the rules disprove (found by [`verify`]).
    Wrong {
        /// The family's name.
        family: String,
        /// The layer.
        seeds: usize,
        /// The index in the layer.
        index: u64,
        /// The position stored there, as position text.
        position: String,
        /// What is wrong.
        why: String,
    },
    /// A request the tables cannot serve (too many seeds for the format, …).
    Unsupported(String),
}

impl TablesError {
    pub(crate) fn io(path: &Path, error: std::io::Error) -> TablesError {
        TablesError::Io {
            path: path.to_path_buf(),
            error,
        }
    }
}

impl fmt::Display for TablesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablesError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            TablesError::Corrupt { path, why } => {
                write!(f, "{}: corrupt table file: {why}", path.display())
            }
            TablesError::Beyond { seeds, max, dir } => write!(
                f,
                "the position has {seeds} seeds on the board, beyond the tables in {} \
                 (they hold up to {max}); build more with `sow tables build --max-seeds {seeds}`",
                dir.display()
            ),
            TablesError::NotBuilt { seeds, built, dir } => write!(
                f,
                "the position has {seeds} seeds on the board, and layer {seeds} of the tables \
                 in {} is not built (built: {}); build it with `sow tables build --layer {seeds}` \
                 and the game's options",
                dir.display(),
                layer_list(built)
            ),
            TablesError::Wrong {
                family,
                seeds,
                index,
                position,
                why,
            } => write!(
                f,
                "{family}, layer {seeds}, index {index} ({position}): {why}"
            ),
            TablesError::Unsupported(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for TablesError {}

/// Layers as a short list: `4, 8, 12, …, 24` when they step evenly, else every one.
fn layer_list(layers: &[usize]) -> String {
    match layers {
        [] => "none".into(),
        [a, b, c, .., last]
            if layers.windows(2).all(|w| w[1] - w[0] == b - a) && layers.len() > 4 =>
        {
            format!("{a}, {b}, {c}, …, {last}")
        }
        _ => layers
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// The value for the mover of the move from `parent` to `child`: what it captures now
/// (minus what it hands the opponent, e.g. a leftover) plus the value of what follows, seen
/// from the mover (an extra turn keeps the mover). `rest` is the value of `child` for its
/// own player to move, ignored when the game is over.
#[inline]
pub fn move_value(parent: &Position, child: &Position, rest: i32) -> i32 {
    let mover = parent.to_move();
    let (before, after) = (parent.captured(), child.captured());
    let gain = (i32::from(after[mover]) - i32::from(before[mover]))
        - (i32::from(after[!mover]) - i32::from(before[!mover]));
    if child.is_over() {
        gain
    } else if child.to_move() == mover {
        gain + rest
    } else {
        gain - rest
    }
}

/// The tables of one family on disk, each layer memory-mapped and checked on opening.
pub struct Tables {
    family: Family,
    dir: PathBuf,
    /// `layers[n − 1]` holds layer `n`, `None` when it is not built; the last is built.
    layers: Vec<Option<Values>>,
    /// The largest layer on disk, opened or not ([`Tables::open_up_to`] stops short): a
    /// position below it whose layer is not open is in a layer not built, not beyond.
    reach: usize,
}

/// A position's exact value and the value of each legal move, for the mover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// V: the mover's future captures minus the opponent's, with best play.
    pub value: i32,
    /// Each legal move with its value for the mover, in ring order.
    pub moves: Vec<(Move, i32)>,
}

impl Tables {
    /// Opens every layer of the family of `rules` found under `dir` (a layer may be missing
    /// between two that are built: see [`build::Layers`]), checking each file's header and
    /// checksum.
    ///
    /// # Errors
    /// When a file cannot be read or is corrupt.
    pub fn open(dir: &Path, rules: Rules) -> Result<Tables, TablesError> {
        Tables::open_up_to(dir, rules, MAX_LAYER_SEEDS)
    }

    /// As [`Tables::open`], but stops after layer `max_seeds`.
    ///
    /// # Errors
    /// When a file cannot be read or is corrupt.
    pub fn open_up_to(dir: &Path, rules: Rules, max_seeds: usize) -> Result<Tables, TablesError> {
        Tables::open_format(dir, rules, max_seeds, None)
    }

    /// As [`Tables::open_up_to`], reading only the layer files of one form (`None`: of the
    /// form on disk, the raw file when both are there; see [`layer::open`]).
    ///
    /// # Errors
    /// When a file cannot be read or is corrupt.
    pub fn open_format(
        dir: &Path,
        rules: Rules,
        max_seeds: usize,
        format: Option<Format>,
    ) -> Result<Tables, TablesError> {
        let family = Family::of(rules);
        let mut tables = Tables {
            family,
            dir: dir.to_path_buf(),
            layers: Vec::new(),
            reach: 0,
        };
        for seeds in 1..=max_seeds.min(MAX_LAYER_SEEDS) {
            tables
                .layers
                .push(layer::open(dir, &family, seeds, format)?);
        }
        while tables.layers.last().is_some_and(Option::is_none) {
            tables.layers.pop();
        }
        // Only whether a file is there: the larger layers are not read.
        tables.reach = (max_seeds + 1..=MAX_LAYER_SEEDS)
            .rev()
            .find(|&seeds| layer::exists(dir, &family, seeds))
            .unwrap_or(tables.layers.len());
        Ok(tables)
    }

    /// Tables from layers held in memory: the builder's, or those the browser build reads
    /// from bytes (it has no file system). `layers[n − 1]` holds layer `n`, `None` where it
    /// is not built; `dir` names the tables in errors.
    pub fn from_layers(dir: &Path, family: Family, mut layers: Vec<Option<Values>>) -> Tables {
        while layers.last().is_some_and(Option::is_none) {
            layers.pop();
        }
        let reach = layers.len();
        Tables {
            family,
            dir: dir.to_path_buf(),
            layers,
            reach,
        }
    }

    /// The family.
    pub fn family(&self) -> Family {
        self.family
    }

    /// The directory of the family's files.
    pub fn dir(&self) -> PathBuf {
        self.dir.join(self.family.name())
    }

    /// The largest layer built: no position with more seeds on the board is in the tables
    /// (0 when none is built). Layers below it may be missing: see [`Tables::built`].
    pub fn max_seeds(&self) -> usize {
        self.layers.len()
    }

    /// Whether layer `seeds` is built (layer 0, the empty board, always is: it is over).
    #[inline]
    pub fn built(&self, seeds: usize) -> bool {
        seeds == 0 || self.layers.get(seeds - 1).is_some_and(Option::is_some)
    }

    /// The layers built, from 1 seed up.
    pub fn layers_built(&self) -> Vec<usize> {
        (1..=self.max_seeds()).filter(|&s| self.built(s)).collect()
    }

    /// Whether every layer the exits of layer `seeds` land in is built, i.e. whether layer
    /// `seeds` can be built (expanded) over these tables.
    ///
    /// # Errors
    /// [`TablesError::NotBuilt`] naming the highest layer missing.
    pub fn check_below(&self, seeds: usize) -> Result<(), TablesError> {
        match self.family.layers_below(seeds).find(|&s| !self.built(s)) {
            Some(missing) => Err(TablesError::NotBuilt {
                seeds: missing,
                built: self.layers_built(),
                dir: self.dir(),
            }),
            None => Ok(()),
        }
    }

    /// Every value of layer `seeds`, one signed byte each (decompressed when the layer is).
    ///
    /// # Errors
    /// When a compressed block does not decompress.
    ///
    /// # Panics
    /// When the layer is not built (check with [`Tables::built`]).
    pub fn layer(&self, seeds: usize) -> Result<Cow<'_, [u8]>, TablesError> {
        self.values(seeds).all()
    }

    /// The values of layer `seeds`, in whatever form they are read.
    ///
    /// # Panics
    /// When the layer is not built (check with [`Tables::built`]).
    #[inline]
    pub fn values(&self, seeds: usize) -> &Values {
        match self.layers.get(seeds.wrapping_sub(1)) {
            Some(Some(values)) => values,
            _ => panic!("layer {seeds} of {} is not built", self.family),
        }
    }

    /// The value stored at `index` of layer `seeds`: every reader of the tables comes here,
    /// whether the layer is raw or compressed.
    ///
    /// # Errors
    /// When the layer is compressed and the block holding `index` does not decompress (a
    /// damaged file that passed its checksum).
    ///
    /// # Panics
    /// When the layer is not built (check with [`Tables::built`]) or `index` is beyond it.
    #[inline]
    pub fn stored(&self, seeds: usize, index: u64) -> Result<i32, TablesError> {
        Ok(i32::from(self.values(seeds).get(index)? as i8))
    }

    fn check(&self, position: &Position) -> Result<(), TablesError> {
        if Family::of(position.rules()) != self.family {
            return Err(TablesError::Unsupported(format!(
                "the position is of {}, the tables of {}",
                Family::of(position.rules()),
                self.family
            )));
        }
        let seeds = position.seeds_on_board();
        if seeds > self.reach.max(self.max_seeds()) {
            return Err(TablesError::Beyond {
                seeds,
                max: self.reach.max(self.max_seeds()),
                dir: self.dir(),
            });
        }
        if !self.built(seeds) {
            return Err(TablesError::NotBuilt {
                seeds,
                built: self.layers_built(),
                dir: self.dir(),
            });
        }
        Ok(())
    }

    /// The value of a position for its player to move: 0 when the game is over.
    ///
    /// # Errors
    /// When the position is of another family, beyond the tables or in a layer not built.
    pub fn value(&self, position: &Position) -> Result<i32, TablesError> {
        self.check(position)?;
        if position.is_over() {
            return Ok(0);
        }
        let (seeds, index) = self.family.locate(position);
        self.stored(seeds, index)
    }

    /// The value of a position with the value of each legal move.
    ///
    /// # Errors
    /// When the position is of another family or beyond the tables, or when the stored value
    /// is not the best of its moves (a damaged table that passed its checksum).
    pub fn probe(&self, position: &Position) -> Result<Probe, TablesError> {
        let value = self.value(position)?;
        let mut moves = Vec::new();
        for (mv, child) in position.successors() {
            let rest = if child.is_over() {
                0
            } else {
                self.value(&child)?
            };
            moves.push((mv, move_value(position, &child, rest)));
        }
        if let Some(best) = moves.iter().map(|m| m.1).max() {
            if best != value {
                return Err(TablesError::Corrupt {
                    path: self.dir(),
                    why: format!(
                        "the stored value {value} of {position} is not the best of its moves ({best})"
                    ),
                });
            }
        }
        Ok(Probe { value, moves })
    }
}
