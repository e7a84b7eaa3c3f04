//! The pieces of `sow match` for `python -m sowing.distributed match`, which runs its games
//! as Ray tasks: the openings, one game, and the report — each from the engine crate's
//! arena, as `sow match` uses it, so that the same arguments give the same report.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use sowing::{BySide, Game, Move, Side};
use sowing_engine::arena::{self, Balance, Openings, Pairing, Played};
use sowing_engine::{Limits, Player, PlayerSpec};

use crate::{RuleArgs, SowingError};

fn spec(text: &str, flag: &str) -> PyResult<PlayerSpec> {
    text.parse()
        .map_err(|e: sowing_engine::SpecError| SowingError::new_err(format!("{flag}: {e}")))
}

/// The name of a built-in player as `sow match` writes it; raises `SowingError` for a name
/// that is not a player.
#[pyfunction]
pub fn match_player(text: &str) -> PyResult<String> {
    Ok(spec(text, "player")?.to_string())
}

/// The openings of a match of `pairs` pairs, as `sow match` draws them: a dict with
/// `moves` (one list of move names per pair), `plies`, `balance` (the `--balance` in
/// centiseeds, or `None` for any), `uneven` and `repeated`.
#[pyfunction]
#[pyo3(signature = (rules, plies, balance, seed, pairs))]
pub fn match_openings<'py>(
    py: Python<'py>,
    rules: RuleArgs,
    plies: Option<u32>,
    balance: Option<&str>,
    seed: u64,
    pairs: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = rules.rules()?;
    let balance = match balance {
        Some(text) => text
            .parse::<Balance>()
            .map_err(|e| SowingError::new_err(format!("--balance: {e}")))?,
        None => Balance::default_for(rules),
    };
    let plies = plies.unwrap_or(arena::default_opening_plies(rules));
    let openings = py.detach(|| arena::openings(rules, plies, balance, seed, pairs.max(1)));
    let n = rules.pits_per_row();
    let dict = PyDict::new(py);
    let moves: Vec<Vec<String>> = openings
        .moves
        .iter()
        .map(|line| line.iter().map(|m| m.name(n).to_string()).collect())
        .collect();
    dict.set_item("moves", moves)?;
    dict.set_item("plies", openings.plies)?;
    dict.set_item(
        "balance",
        match openings.balance {
            Balance::Within(centiseeds) => Some(centiseeds),
            Balance::Any => None,
        },
    )?;
    dict.set_item("uneven", openings.uneven)?;
    dict.set_item("repeated", openings.repeated)?;
    Ok(dict)
}

/// Plays game `index` of a match as `sow match` does (built-in players only): p1 as South
/// when `p1_south`, the players seeded from `seed`. Returns `(score of p1, plies, fault or
/// None, records)`, the records as game-record texts (several with `rounds`).
#[pyfunction]
#[pyo3(signature = (rules, rounds, opening, p1, p2, p1_south, seed, index, movetime = None, nodes = None, depth = None))]
#[allow(clippy::too_many_arguments)]
pub fn match_game(
    py: Python<'_>,
    rules: RuleArgs,
    rounds: Option<u32>,
    opening: Vec<String>,
    p1: &str,
    p2: &str,
    p1_south: bool,
    seed: u64,
    index: u64,
    movetime: Option<u64>,
    nodes: Option<u64>,
    depth: Option<u32>,
) -> PyResult<(f64, usize, Option<String>, Vec<String>)> {
    let rules = rules.rules()?;
    let (p1_spec, p2_spec) = (spec(p1, "--p1")?, spec(p2, "--p2")?);
    let n = rules.pits_per_row();
    let opening: Vec<Move> = opening
        .iter()
        .map(|token| Move::parse(token, n))
        .collect::<Result<_, _>>()
        .map_err(|e| SowingError::new_err(e.to_string()))?;
    let limits = Limits::given_or(movetime, nodes, depth, arena::MATCH_MOVETIME_MS);
    let played = py.detach(move || {
        let (south, north) = if p1_south {
            (&p1_spec, &p2_spec)
        } else {
            (&p2_spec, &p1_spec)
        };
        let mut seats: BySide<Box<dyn Player>> =
            BySide::new(south.build(seed), north.build(seed ^ 0x5555));
        let (p1_label, p2_label) = (p1_spec.to_string(), p2_spec.to_string());
        let pairing = Pairing {
            p1: &p1_label,
            p2: &p2_label,
            p1_south,
            index,
        };
        let mut choose = |side: Side, game: &Game| -> Result<Move, String> {
            Ok(seats[side].choose(game, &limits, &mut |_| {}))
        };
        match rounds {
            None => arena::play_game(rules, &opening, pairing, &mut choose),
            Some(rounds) => arena::play_rounds(rules, rounds, &opening, pairing, &mut choose),
        }
    });
    let records = played.records.iter().map(|r| r.to_string()).collect();
    Ok((played.score, played.plies, played.fault, records))
}

/// The report `sow match` prints (the engine crate's `arena::report`), from the games'
/// `(score, plies, fault)` and the openings dict of `match_openings`.
#[pyfunction]
#[pyo3(signature = (rules, p1, p2, rounds, openings, games, out))]
pub fn match_report(
    rules: RuleArgs,
    p1: &str,
    p2: &str,
    rounds: Option<u32>,
    openings: &Bound<'_, PyDict>,
    games: Vec<(f64, usize, Option<String>)>,
    out: &str,
) -> PyResult<String> {
    let rules = rules.rules()?;
    if games.is_empty() {
        return Err(SowingError::new_err("a match of no games"));
    }
    let played: Vec<Played> = games
        .into_iter()
        .map(|(score, plies, fault)| Played {
            score,
            plies,
            records: Vec::new(),
            fault,
        })
        .collect();
    let get = |key: &str| -> PyResult<Bound<'_, PyAny>> {
        openings
            .get_item(key)?
            .ok_or_else(|| SowingError::new_err(format!("openings without {key:?}")))
    };
    let balance = match get("balance")?.extract::<Option<i32>>()? {
        Some(centiseeds) => Balance::Within(centiseeds),
        None => Balance::Any,
    };
    let openings = Openings {
        plies: get("plies")?.extract()?,
        balance,
        moves: Vec::new(),
        uneven: get("uneven")?.extract()?,
        repeated: get("repeated")?.extract()?,
        self_play: None,
    };
    let (p1, p2) = (spec(p1, "--p1")?.to_string(), spec(p2, "--p2")?.to_string());
    Ok(arena::report(
        rules,
        &p1,
        &p2,
        rounds.is_some(),
        &openings,
        &played,
        out,
    ))
}
