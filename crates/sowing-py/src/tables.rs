//! `sowing.Tables`: the perfect-play endgame tables of the tables crate (`sow tables`).

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use sowing::Position;
use sowing_tables::build;

use crate::game::Game;
use crate::{rules_from, ParseError, TablesError};

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
    if let Some(dir) = std::env::var_os("SOWING_TABLES") {
        return Ok(dir.into());
    }
    dirs::data_dir()
        .map(|data| data.join("sowing").join("tables"))
        .ok_or_else(|| {
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

#[pymethods]
impl Tables {
    /// Opens the tables of a game (keywords as for `Game`) in `dir` (see `tables_dir`).
    /// Raises `TablesError` when a file is unreadable or corrupt.
    #[new]
    #[pyo3(signature = (game = "hoyito-ii", pits = 6, *, casa_rows = None, leftover = None, final_four = None, dir = None))]
    fn new(
        py: Python<'_>,
        game: &str,
        pits: usize,
        casa_rows: Option<&str>,
        leftover: Option<&str>,
        final_four: Option<&str>,
        dir: Option<PathBuf>,
    ) -> PyResult<Tables> {
        let rules = rules_from(game, pits, casa_rows, leftover, final_four)?;
        let dir = tables_dir(dir)?;
        let inner = py
            .detach(|| sowing_tables::Tables::open(&dir, rules))
            .map_err(error)?;
        Ok(Tables { inner })
    }

    /// The most seeds on the board a position may have to be in the tables (0: none built).
    #[getter]
    fn max_seeds(&self) -> usize {
        self.inner.max_seeds()
    }

    /// The directory of this game's files.
    #[getter]
    fn dir(&self) -> PathBuf {
        self.inner.dir()
    }

    /// The exact value of a position (a `Game` or a position text) for the player to move.
    /// Raises `TablesError` when it is of another game or beyond the tables.
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

/// Builds (or completes: layers on disk are checked and kept) the tables of a game up to
/// `max_seeds` seeds on the board in `dir`, as `sow tables build` does, with the GIL
/// released. Returns what it did: `built` and `reused` layers, `positions` computed.
#[pyfunction]
#[pyo3(signature = (game = "hoyito-ii", pits = 6, *, max_seeds, casa_rows = None, leftover = None, final_four = None, dir = None, threads = None))]
#[allow(clippy::too_many_arguments)]
pub fn tables_build<'py>(
    py: Python<'py>,
    game: &str,
    pits: usize,
    max_seeds: usize,
    casa_rows: Option<&str>,
    leftover: Option<&str>,
    final_four: Option<&str>,
    dir: Option<PathBuf>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = rules_from(game, pits, casa_rows, leftover, final_four)?;
    let dir = tables_dir(dir)?;
    let options = build::Options {
        threads,
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
