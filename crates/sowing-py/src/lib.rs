//! The `sowing` Python package's native module, `sowing._sowing`: the rules ([`Game`]),
//! the engine ([`Engine`]) and a vectorised environment stepped in Rust ([`VecGame`]).
//!
//! Errors are Python exceptions carrying the rules crate's own messages:
//! `SowingError` (a `ValueError`) and its subclasses `IllegalMoveError`, `ParseError` and
//! `RulesError`. The Python side (`python/sowing`) adds the Gymnasium, PettingZoo and
//! OpenSpiel environments on top.
#![warn(missing_docs)]

mod actions;
mod alphazero;
mod arena;
mod batch;
mod buffer;
mod engine;
mod game;
mod interrupt;
mod memory;
mod observe;
mod runner;
mod seat;
mod split;
mod tables;
mod vec;
mod vector;

use pyo3::create_exception;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyString, PyTuple};
use sowing::{RuleOption, Rules, Variant};

create_exception!(
    sowing,
    SowingError,
    pyo3::exceptions::PyValueError,
    "Any input the rules or the engine refuse; the message is the rules crate's."
);
create_exception!(
    sowing,
    IllegalMoveError,
    SowingError,
    "A move that is not legal in the position (or not a move of this board)."
);
create_exception!(
    sowing,
    ParseError,
    SowingError,
    "A position text, game record or JSON state that could not be read."
);
create_exception!(
    sowing,
    RulesError,
    SowingError,
    "An unknown game, board size or option value, or an option the game does not have."
);

create_exception!(
    sowing,
    TablesError,
    SowingError,
    "Endgame tables that could not be built, opened or probed (missing, corrupt, beyond them)."
);

/// The rules of a call: the game, pits a row, and the rule options among its keyword
/// arguments (`**options`, named by the options table's JSON fields: `casa_rows`,
/// `leftover`, `final_four`; `None` keeps the default), set through the rules crate's
/// `Rules::set_option`, whose messages the errors carry. Every constructor and function
/// that takes rules reads them here, so that the rules crate's table is the only list.
///
/// An option the game does not have is refused (`RulesError`), rather than ignored as on
/// the command line: a Python caller who sets it means something the game cannot do. A
/// keyword that is no option is a `TypeError`, as Python's own for an unknown keyword.
pub(crate) fn rules_from(
    game: &str,
    pits: i64,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Rules> {
    let pits = size("pits", pits)?;
    let error = |e: sowing::RulesError| RulesError::new_err(e.to_string());
    let variant: Variant = game.parse().map_err(error)?;
    let mut rules = Rules::new(variant).with_pits(pits).map_err(error)?;
    for (key, value) in options.into_iter().flat_map(|options| options.iter()) {
        let key: String = key.extract()?;
        let Some(option) = RuleOption::all().iter().find(|o| o.field == key) else {
            let fields: Vec<&str> = RuleOption::all().iter().map(|o| o.field).collect();
            return Err(PyTypeError::new_err(format!(
                "unexpected keyword argument '{key}' (the rule options are {})",
                fields.join(", ")
            )));
        };
        if value.is_none() {
            continue;
        }
        let value: String = value.extract().map_err(|_| {
            PyTypeError::new_err(format!("{key} must be a string or None, not {value}"))
        })?;
        rules.set_option(option.name, &value).map_err(error)?;
    }
    Ok(rules)
}

/// `sowing.OPTIONS`: for each game, its keyword arguments of rules — `pits` (the board
/// sizes) and its options from the rules crate's table — each a dict with `name`, `type`,
/// `default`, `values` (the default first), `flag` (the command line's), `rule` (its
/// RULES.md id), `label` and `description`.
fn options_table(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let table = PyDict::new(py);
    for variant in Variant::ALL {
        let game = PyDict::new(py);
        let sizes: Vec<u8> = variant.board_sizes().to_vec();
        let pits = PyDict::new(py);
        pits.set_item("name", "pits")?;
        pits.set_item("type", py.get_type::<PyInt>())?;
        pits.set_item("default", sizes[0])?;
        pits.set_item("values", PyTuple::new(py, &sizes)?)?;
        pits.set_item("flag", "--pits")?;
        pits.set_item("rule", "Board")?;
        pits.set_item("label", "Pits a row")?;
        pits.set_item("description", "The board: pits in each row")?;
        game.set_item("pits", pits)?;
        for option in variant.options() {
            let entry = PyDict::new(py);
            entry.set_item("name", option.field)?;
            entry.set_item("type", py.get_type::<PyString>())?;
            entry.set_item("default", option.default_value())?;
            entry.set_item(
                "values",
                PyTuple::new(py, option.values.iter().map(|v| v.name))?,
            )?;
            entry.set_item("flag", format!("--{}", option.name))?;
            entry.set_item("rule", option.rule)?;
            entry.set_item("label", option.label)?;
            entry.set_item("description", option.description)?;
            game.set_item(option.field, entry)?;
        }
        table.set_item(variant.name(), game)?;
    }
    Ok(table)
}

/// `value` of the argument `name` as a count: a negative one is refused with a message
/// that names the argument (pyo3's own says only "can't convert negative int to
/// unsigned").
pub(crate) fn count(name: &str, value: i64) -> PyResult<u64> {
    u64::try_from(value)
        .map_err(|_| SowingError::new_err(format!("{name} must not be negative, not {value}")))
}

/// [`count`] as a `usize`.
pub(crate) fn size(name: &str, value: i64) -> PyResult<usize> {
    count(name, value).map(|v| v as usize)
}

/// The place of game `index` in a batch (`batch`, its class's name) of `games`: a negative
/// or too large index is refused with `SowingError` naming the range (not the
/// `OverflowError` of an unsigned argument).
pub(crate) fn game_index(index: i64, games: usize, batch: &str) -> PyResult<usize> {
    usize::try_from(index)
        .ok()
        .filter(|&index| index < games)
        .ok_or_else(|| {
            SowingError::new_err(format!(
                "no game {index}: the {batch} has {games} (0 to {})",
                games.saturating_sub(1)
            ))
        })
}

/// The rules as one Python tuple `(game, pits, options)` (`options` a dict of the rule
/// options by keyword), for the functions that `sowing.distributed` calls with the rules
/// of its command line.
#[derive(FromPyObject)]
pub(crate) struct RuleArgs<'py>(String, i64, Option<Bound<'py, PyDict>>);

impl RuleArgs<'_> {
    /// The rules, checked as [`rules_from`] checks them.
    pub(crate) fn rules(&self) -> PyResult<Rules> {
        let RuleArgs(game, pits, options) = self;
        rules_from(game, *pits, options.as_ref())
    }
}

/// `sowing.END_CODES`: how a game can end, as `Game.end` and `Report.end` name it (the
/// rules crate's `End::code`).
fn end_codes() -> Vec<&'static str> {
    use sowing::{End, Side};
    [
        End::BoardCleared,
        End::LastFour(Side::South),
        End::CannotFeed,
        End::Repetition,
    ]
    .map(End::code)
    .to_vec()
}

/// The native module.
#[pymodule]
fn _sowing(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<game::Game>()?;
    m.add_class::<game::Report>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<engine::Analysis>()?;
    m.add_class::<vec::VecGame>()?;
    m.add_class::<vector::VectorGame>()?;
    m.add_class::<alphazero::BatchedMcts>()?;
    m.add_class::<tables::Tables>()?;
    m.add_class::<tables::Probe>()?;
    m.add_class::<split::TablesShard>()?;
    m.add_function(wrap_pyfunction!(tables::tables_dir, m)?)?;
    m.add_function(wrap_pyfunction!(tables::tables_build, m)?)?;
    m.add_function(wrap_pyfunction!(tables::tables_plan, m)?)?;
    m.add_function(wrap_pyfunction!(tables::tables_solve, m)?)?;
    m.add_function(wrap_pyfunction!(split::tables_write_layer, m)?)?;
    m.add_function(wrap_pyfunction!(arena::match_player, m)?)?;
    m.add_function(wrap_pyfunction!(arena::match_openings, m)?)?;
    m.add_function(wrap_pyfunction!(arena::match_game, m)?)?;
    m.add_function(wrap_pyfunction!(arena::match_report, m)?)?;
    m.add("SowingError", py.get_type::<SowingError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("RulesError", py.get_type::<RulesError>())?;
    m.add("TablesError", py.get_type::<TablesError>())?;
    m.add(
        "GAMES",
        Variant::ALL.iter().map(|v| v.name()).collect::<Vec<_>>(),
    )?;
    m.add("MAX_LAPS", sowing::MAX_LAPS)?;
    m.add("OPTIONS", options_table(py)?)?;
    m.add("END_CODES", end_codes())?;
    m.add("MATCH_MOVETIME_MS", sowing_engine::arena::MATCH_MOVETIME_MS)?;
    Ok(())
}
