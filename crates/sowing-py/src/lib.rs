//! The `sowing` Python package's native module, `sowing._sowing`: the rules ([`Game`]),
//! the engine ([`Engine`]) and a vectorised environment stepped in Rust ([`VecGame`]).
//!
//! Errors are Python exceptions carrying the rules crate's own messages:
//! `SowingError` (a `ValueError`) and its subclasses `IllegalMoveError`, `ParseError` and
//! `RulesError`. The Python side (`python/sowing`) adds the Gymnasium, PettingZoo and
//! OpenSpiel environments on top.
#![warn(missing_docs)]

mod alphazero;
mod arena;
mod batch;
mod engine;
mod game;
mod observe;
mod tables;
mod vec;
mod vector;

use pyo3::create_exception;
use pyo3::prelude::*;
use sowing::{Rules, Variant};

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

/// The rules named by the keyword arguments shared by `Game`, `VecGame` and the
/// environments: the game, pits a row, and the options by their JSON field names
/// (`casa_rows`, `leftover`, `final_four`; `None` keeps the default), set through the rules
/// crate's `Rules::set_option`, whose messages the errors carry.
///
/// An option the game does not have is refused, rather than ignored as on the command
/// line: a Python caller who sets it means something the game cannot do.
pub(crate) fn rules_from(
    game: &str,
    pits: i64,
    casa_rows: Option<&str>,
    leftover: Option<&str>,
    final_four: Option<&str>,
) -> PyResult<Rules> {
    let pits = size("pits", pits)?;
    let error = |e: sowing::RulesError| RulesError::new_err(e.to_string());
    let variant: Variant = game.parse().map_err(error)?;
    let mut rules = Rules::new(variant).with_pits(pits).map_err(error)?;
    for (field, value) in [
        ("casa_rows", casa_rows),
        ("leftover", leftover),
        ("final_four", final_four),
    ] {
        if let Some(value) = value {
            let option = Variant::ALL
                .iter()
                .flat_map(|v| v.options())
                .find(|o| o.field == field)
                .expect("the rules crate has the option");
            rules.set_option(option.name, value).map_err(error)?;
        }
    }
    Ok(rules)
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

/// The rules as one Python tuple `(game, pits, casa_rows, leftover, final_four)`, for the
/// functions that `sowing.distributed` calls with the rules of its command line.
#[derive(FromPyObject)]
pub(crate) struct RuleArgs(
    String,
    usize,
    Option<String>,
    Option<String>,
    Option<String>,
);

impl RuleArgs {
    /// The rules, checked as [`rules_from`] checks them.
    pub(crate) fn rules(&self) -> PyResult<Rules> {
        let RuleArgs(game, pits, casa_rows, leftover, final_four) = self;
        rules_from(
            game,
            i64::try_from(*pits).unwrap_or(i64::MAX),
            casa_rows.as_deref(),
            leftover.as_deref(),
            final_four.as_deref(),
        )
    }
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
    m.add_function(wrap_pyfunction!(tables::tables_dir, m)?)?;
    m.add_function(wrap_pyfunction!(tables::tables_build, m)?)?;
    m.add_function(wrap_pyfunction!(tables::tables_plan, m)?)?;
    m.add_function(wrap_pyfunction!(tables::tables_solve, m)?)?;
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
    Ok(())
}
