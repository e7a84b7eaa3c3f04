//! `GET /api/games/{id}/tables`: the exact value of each legal move, from the endgame
//! tables, for the page to show on the pits. Separate from the engine route because it is a
//! lookup, not a search: no time limit, no slot, the same answer every time.

use serde::Serialize;
use sowing::Game;
use sowing_engine::tables::move_values;
use sowing_engine::TableSet;

/// What the tables say about a game's current position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableValues {
    /// The most seeds on the board the server's tables of this game (these rule options)
    /// hold; `null` when it has none.
    pub max_seeds: Option<usize>,
    /// Whether small tables are being built in the background (first start with none).
    pub building: bool,
    /// Whether the position is inside the tables (and the game not over): then `value` and
    /// `moves` are exact.
    pub inside: bool,
    /// Whether the position has no more seeds than the tables reach but its layer is not
    /// built: by default only the layers play from the start reaches are (in Hoyito every
    /// fourth), and a set-up position may lie between them. `sow tables build --layer N`
    /// adds it.
    pub not_built: bool,
    /// The position's value for the player to move: their future captures minus the
    /// opponent's with best play (`null` outside the tables).
    pub value: Option<i32>,
    /// Each legal move, in ring order, with its value for the mover: what it captures now
    /// plus what follows with best play (empty outside the tables).
    pub moves: Vec<MoveValue>,
}

/// One move and its exact value for the mover.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveValue {
    /// The move's name (`A`…, `a`…, `pass`).
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value for the mover.
    pub value: i32,
}

/// The tables' values for `game` (its history counts: a move that repeats a position ends
/// the game there). Opening a game's tables the first time reads every file: call it off
/// the async runtime.
///
/// # Errors
/// When a table file is unreadable or corrupt (a message naming the file).
pub fn table_values(
    set: Option<&TableSet>,
    game: &Game,
    building: bool,
) -> Result<TableValues, String> {
    let tables = match set {
        Some(set) => set.tables(game.rules()).map_err(|e| e.to_string())?,
        None => None,
    };
    let mut answer = TableValues {
        max_seeds: tables.as_ref().map(|t| t.max_seeds()),
        building,
        inside: false,
        not_built: false,
        value: None,
        moves: Vec::new(),
    };
    let Some(tables) = tables else {
        return Ok(answer);
    };
    let seeds = game.position().seeds_on_board();
    answer.not_built = !game.is_over() && seeds <= tables.max_seeds() && !tables.built(seeds);
    if let Some(moves) = move_values(&tables, game) {
        let n = game.rules().pits_per_row();
        answer.inside = true;
        answer.value = moves.iter().map(|m| m.1).max();
        answer.moves = moves
            .into_iter()
            .map(|(mv, value)| MoveValue {
                mv: mv.name(n).to_string(),
                value,
            })
            .collect();
    }
    Ok(answer)
}
