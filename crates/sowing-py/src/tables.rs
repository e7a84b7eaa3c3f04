//! `sowing.Tables`: the perfect-play endgame tables of the tables crate (`sow tables`).

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use sowing::Position;
use sowing_tables::{build, file, split, Family};

use crate::game::Game;
use crate::{rules_from, size, ParseError, RuleArgs, TablesError};

fn error(e: sowing_tables::TablesError) -> PyErr {
    TablesError::new_err(e.to_string())
}

/// The tables' directory as `sow tables` finds it: `dir` if given, else `$SOWING_TABLES`,
/// else `sowing/tables` in the user's data directory (`~/.local/share` on Linux).
#[pyfunction]
#[pyo3(signature = (dir = None))]
pub fn tables_dir(dir: Option<PathBuf>) -> PyResult<PathBuf> {
    if let Some(dir) = dir {
        return Ok(dir);
    }
    sowing_engine::tables::default_dir().ok_or_else(|| {
        TablesError::new_err("no data directory is known here: give dir or set SOWING_TABLES")
    })
}

/// A position from a `Game` or a position text.
#[derive(FromPyObject)]
pub(crate) enum PositionArg<'py> {
    Game(PyRef<'py, Game>),
    Text(String),
}

impl PositionArg<'_> {
    fn position(&self) -> PyResult<Position> {
        match self {
            PositionArg::Game(game) => Ok(*game.inner.position()),
            PositionArg::Text(text) => text
                .parse()
                .map_err(|e: sowing::ParsePositionError| ParseError::new_err(e.to_string())),
        }
    }
}

/// A position's exact value and each legal move's, for the player to move.
#[pyclass(module = "sowing", name = "Probe", frozen, skip_from_py_object)]
pub struct Probe {
    value: i32,
    moves: Vec<(String, i32)>,
}

#[pymethods]
impl Probe {
    /// V: the mover's future captures minus the opponent's, with best play from both.
    #[getter]
    fn value(&self) -> i32 {
        self.value
    }

    /// Each legal move's value for the mover, by name, in ring order.
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in &self.moves {
            dict.set_item(name, value)?;
        }
        Ok(dict)
    }

    /// The moves that keep the value, in ring order.
    #[getter]
    fn best(&self) -> Vec<String> {
        self.moves
            .iter()
            .filter(|(_, v)| *v == self.value)
            .map(|(name, _)| name.clone())
            .collect()
    }

    fn __repr__(&self) -> String {
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|(name, value)| format!("{name:?}: {value}"))
            .collect();
        format!(
            "Probe(value={}, moves={{{}}})",
            self.value,
            moves.join(", ")
        )
    }
}

/// The endgame tables of one game and its options, as `sow tables build` wrote them:
/// every position with at most `max_seeds` seeds on the board, valued exactly. The files
/// are memory-mapped and checked when opened.
#[pyclass(module = "sowing", name = "Tables", frozen)]
pub struct Tables {
    inner: sowing_tables::Tables,
}

impl Tables {
    /// Checks that positions `start .. end` of layer `seeds` can be expanded over these
    /// tables; returns the layer's length.
    fn checked_range(&self, seeds: usize, start: u64, end: u64) -> PyResult<u64> {
        if seeds == 0 {
            return Err(TablesError::new_err(
                "layer 0 (an empty board) has no positions",
            ));
        }
        // The layers its exits land in (every fourth below, in Hoyito) must be built.
        self.inner.check_below(seeds).map_err(error)?;
        let count = self.inner.family().layer_len(seeds);
        if start > end || end > count {
            return Err(TablesError::new_err(format!(
                "{start}..{end} is not a range of layer {seeds} ({count} positions)"
            )));
        }
        Ok(count)
    }

    /// The most seeds on the board of a position in the tables.
    pub(crate) fn max_seeds_of(&self) -> usize {
        self.inner.max_seeds()
    }

    /// A position's exact future margin for its mover.
    pub(crate) fn value_of(&self, position: &Position) -> Result<i32, sowing_tables::TablesError> {
        self.inner.value(position)
    }
}

#[pymethods]
impl Tables {
    /// Opens the tables of a game (keywords as for `Game`) in `dir` (see `tables_dir`),
    /// every layer found or those up to `max_seeds`. Raises `TablesError` when a file is
    /// unreadable or corrupt.
    #[new]
    #[pyo3(signature = (game = "hoyito-ii", pits = 6, *, dir = None, max_seeds = None, **options))]
    fn new(
        py: Python<'_>,
        game: &str,
        pits: i64,
        dir: Option<PathBuf>,
        max_seeds: Option<i64>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Tables> {
        let max_seeds = max_seeds.map(|m| size("max_seeds", m)).transpose()?;
        let rules = rules_from(game, pits, options)?;
        let dir = tables_dir(dir)?;
        let inner = py
            .detach(|| match max_seeds {
                Some(max) => sowing_tables::Tables::open_up_to(&dir, rules, max),
                None => sowing_tables::Tables::open(&dir, rules),
            })
            .map_err(error)?;
        Ok(Tables { inner })
    }

    /// Positions in layer `seeds` (seeds on the board) of this game.
    fn layer_len(&self, seeds: usize) -> u64 {
        self.inner.family().layer_len(seeds)
    }

    /// Expands the positions `start .. end` of layer `seeds` over these tables, which must
    /// hold every layer below it (the step of a build that parallelises; see
    /// `sowing.distributed`). Returns the tables crate's `Expansion` as bytes: the best exit
    /// value of each position, its moves inside the layer, and their targets (little-endian
    /// u32), with the GIL released.
    fn expand<'py>(
        &self,
        py: Python<'py>,
        seeds: usize,
        start: u64,
        end: u64,
    ) -> PyResult<(
        Bound<'py, PyBytes>,
        Bound<'py, PyBytes>,
        Bound<'py, PyBytes>,
    )> {
        let family = self.inner.family();
        self.checked_range(seeds, start, end)?;
        let expansion = py
            .detach(|| build::expand(&family, seeds, &self.inner, start..end))
            .map_err(error)?;
        let exit: Vec<u8> = expansion.exit.iter().map(|&v| v as u8).collect();
        let children: Vec<u8> = expansion
            .children
            .iter()
            .flat_map(|c| c.to_le_bytes())
            .collect();
        Ok((
            PyBytes::new(py, &exit),
            PyBytes::new(py, &expansion.inner),
            PyBytes::new(py, &children),
        ))
    }

    /// As `expand`, cut for a solve split into shards at `bounds` (from 0 to the layer's
    /// length): one part a shard, as bytes for its `TablesShard.receive` (empty when the
    /// range holds nothing for it): the range's positions it owns, and the moves whose
    /// child it owns.
    fn expand_parts<'py>(
        &self,
        py: Python<'py>,
        seeds: usize,
        start: u64,
        end: u64,
        bounds: Vec<u64>,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        let count = self.checked_range(seeds, start, end)?;
        if bounds.first() != Some(&0)
            || bounds.last() != Some(&count)
            || bounds.windows(2).any(|w| w[0] > w[1])
        {
            return Err(TablesError::new_err(format!(
                "{bounds:?} are not increasing bounds from 0 to {count}, the length of layer {seeds}"
            )));
        }
        let family = self.inner.family();
        let parts = py
            .detach(|| {
                let expansion = build::expand(&family, seeds, &self.inner, start..end)?;
                Ok(split::route(&bounds, &expansion)
                    .iter()
                    .map(|part| {
                        if part.is_empty() {
                            Vec::new()
                        } else {
                            part.to_bytes()
                        }
                    })
                    .collect::<Vec<_>>())
            })
            .map_err(error)?;
        Ok(parts.iter().map(|bytes| PyBytes::new(py, bytes)).collect())
    }

    /// The largest layer built (0: none). Layers below it may be missing: in Hoyito only
    /// every fourth is built by default (see `layers`).
    #[getter]
    fn max_seeds(&self) -> usize {
        self.inner.max_seeds()
    }

    /// The layers built (seeds on the board), from 1 up.
    #[getter]
    fn layers(&self) -> Vec<usize> {
        self.inner.layers_built()
    }

    /// The directory of this game's files.
    #[getter]
    fn dir(&self) -> PathBuf {
        self.inner.dir()
    }

    /// The exact value of a position (a `Game` or a position text) for the player to move.
    /// Raises `TablesError` when it is of another game, beyond the tables or in a layer
    /// that is not built.
    fn value(&self, position: PositionArg<'_>) -> PyResult<i32> {
        self.inner.value(&position.position()?).map_err(error)
    }

    /// The exact value of a position and of each of its legal moves.
    fn probe(&self, position: PositionArg<'_>) -> PyResult<Probe> {
        let position = position.position()?;
        let probe = self.inner.probe(&position).map_err(error)?;
        let n = position.rules().pits_per_row();
        Ok(Probe {
            value: probe.value,
            moves: probe
                .moves
                .into_iter()
                .map(|(mv, value)| (mv.name(n).to_string(), value))
                .collect(),
        })
    }
}

/// Layers asked for by number, each checked as [`size`] checks one.
fn sizes(name: &str, values: Vec<i64>) -> PyResult<Vec<usize>> {
    values.into_iter().map(|v| size(name, v)).collect()
}

/// `layers="reachable"` or `"all"`, as `sow tables build --layers` takes it.
fn layers_from(layers: &str) -> PyResult<build::Layers> {
    match layers {
        "reachable" => Ok(build::Layers::Reachable),
        "all" => Ok(build::Layers::All),
        other => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "layers={other:?}: expected \"reachable\" or \"all\""
        ))),
    }
}

/// The layers a build of a game to `max_seeds` computes, as `sow tables build` plans them:
/// with `layers="reachable"` (the default) those play from the start reaches (in Hoyito
/// the multiples of 4), with `"all"` every one, and each of `extra` with the layers its
/// captures land in.
#[pyfunction]
#[pyo3(signature = (game = "hoyito-ii", pits = 6, *, max_seeds, layers = "reachable", extra = Vec::new(), **options))]
pub fn tables_plan(
    game: &str,
    pits: i64,
    max_seeds: i64,
    layers: &str,
    extra: Vec<i64>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<usize>> {
    let max_seeds = size("max_seeds", max_seeds)?;
    let extra = sizes("extra", extra)?;
    let rules = rules_from(game, pits, options)?;
    let family = Family::of(rules);
    let plan = build::plan(&family, max_seeds, layers_from(layers)?, &extra);
    build::check_plan(&family, &plan).map_err(error)?;
    Ok(plan)
}

/// Builds (or completes: layers on disk are checked and kept) the tables of a game up to
/// `max_seeds` seeds on the board in `dir`, as `sow tables build` does, with the GIL
/// released: the layers of `tables_plan` (`layers`, `extra`). Returns what it did: `built`
/// and `reused` layers, `positions` computed.
#[pyfunction]
#[pyo3(signature = (game = "hoyito-ii", pits = 6, *, max_seeds, dir = None, threads = None, layers = "reachable", extra = Vec::new(), **options))]
#[allow(clippy::too_many_arguments)] // its own settings, as `sow tables build` takes them
pub fn tables_build<'py>(
    py: Python<'py>,
    game: &str,
    pits: i64,
    max_seeds: i64,
    dir: Option<PathBuf>,
    threads: Option<i64>,
    layers: &str,
    extra: Vec<i64>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let max_seeds = size("max_seeds", max_seeds)?;
    let threads = threads.map(|t| size("threads", t)).transpose()?;
    let extra = sizes("extra", extra)?;
    let rules = rules_from(game, pits, options)?;
    let dir = tables_dir(dir)?;
    let options = build::Options {
        threads,
        layers: layers_from(layers)?,
        extra,
        ..build::Options::quiet()
    };
    let report = py
        .detach(|| build::build(&dir, rules, max_seeds, &options))
        .map_err(error)?;
    let dict = PyDict::new(py);
    dict.set_item("built", report.built)?;
    dict.set_item("reused", report.reused)?;
    dict.set_item("positions", report.positions)?;
    dict.set_item("seconds", report.elapsed.as_secs_f64())?;
    Ok(dict)
}

/// One expanded range: its start, and the bytes of `Tables.expand`.
type Part = (u64, Vec<u8>, Vec<u8>, Vec<u8>);

/// Solves layer `seeds` of a game from its expanded ranges — `(start, exit, inner,
/// children)` as `Tables.expand` gives them, in order and covering the layer — and writes
/// its file in `dir` as `sow tables build` does. Returns the file's path.
#[pyfunction]
#[pyo3(signature = (rules, seeds, parts, dir = None))]
pub fn tables_solve(
    py: Python<'_>,
    rules: RuleArgs,
    seeds: usize,
    parts: Vec<Part>,
    dir: Option<PathBuf>,
) -> PyResult<PathBuf> {
    let rules = rules.rules()?;
    let family = Family::of(rules);
    let dir = tables_dir(dir)?;
    let mut next = 0u64;
    let mut expansions = Vec::with_capacity(parts.len());
    for (start, exit, inner, children) in parts {
        if start != next || exit.len() != inner.len() || children.len() % 4 != 0 {
            return Err(TablesError::new_err(format!(
                "the expanded ranges of layer {seeds} are not in order, or not whole, at {start}"
            )));
        }
        next += exit.len() as u64;
        expansions.push(build::Expansion {
            start,
            exit: exit.into_iter().map(|v| v as i8).collect(),
            inner,
            children: children
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        });
    }
    if next != family.layer_len(seeds) {
        return Err(TablesError::new_err(format!(
            "the expanded ranges cover {next} of the {} positions of layer {seeds}",
            family.layer_len(seeds)
        )));
    }
    py.detach(|| {
        let values = build::solve(expansions)?;
        file::write_layer(&dir, &family, seeds, &values)
    })
    .map_err(error)
}
