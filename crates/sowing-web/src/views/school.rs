//! The school's JSON shapes (docs/api.md, "The opening explorer" and "Endgame practice"):
//! a position with every legal move's value and how often it was played here, and a
//! position picked for practice.

use serde::Serialize;

use crate::views::games::Snapshot;

/// A position of the explorer and what is known of each legal move.
#[derive(Clone, Debug, Serialize)]
pub struct Explored {
    /// The position text of the line's start.
    pub start: String,
    /// The moves from the start to this position.
    pub line: Vec<String>,
    /// The position text of this position (its history aside).
    pub position: String,
    /// The position.
    pub board: Snapshot,
    /// Whether the game is over here (then `moves` is empty).
    pub over: bool,
    /// The position's value for the mover when every move is proven (the best of them).
    pub value: Option<i32>,
    /// The tables' best move for the mover (the server's perfect player's), when the
    /// position is inside the tables: the practice's defence plays it.
    pub best: Option<String>,
    /// The most seeds the server's tables of these rules hold (`null`: none).
    pub tables: Option<usize>,
    /// Whether the position has more seeds than the tables hold and a solve of it could
    /// be queued (`POST /api/explorer/solve`).
    pub solvable: bool,
    /// A solve of this position waiting or running on this server.
    pub solve: Option<SolveProgress>,
    /// Each legal move, in ring order.
    pub moves: Vec<ExploredMove>,
}

/// A legal move, its value for the mover (what it captures plus what follows), and how it
/// was played here.
#[derive(Clone, Debug, Serialize)]
pub struct ExploredMove {
    /// The move's name (`A`…, `a`…, `pass`).
    #[serde(rename = "move")]
    pub mv: String,
    /// `proven` (exact), `bounded` (proven bounds, not meeting) or `estimated` (the
    /// engine's search).
    pub status: &'static str,
    /// Where the proof comes from: `end` (the game ends), `tables`, `certificate` (the
    /// solve's, docs/solve/), `solve` (one run on this server); `null` when estimated.
    pub source: Option<&'static str>,
    /// The exact value, when proven.
    pub value: Option<i32>,
    /// The value is at least this (proven)…
    pub lower: Option<i32>,
    /// … and at most this (proven).
    pub upper: Option<i32>,
    /// The engine's estimate, in seeds, when not proven.
    pub estimate: Option<f64>,
    /// The depth of the engine's search behind the estimate.
    pub depth: Option<u32>,
    /// The finished games of this site that played it here.
    pub played: Played,
}

/// Finished games that played a move, by result.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Played {
    /// The games in all.
    pub games: u64,
    /// Won by South.
    pub south: u64,
    /// Won by North.
    pub north: u64,
    /// Drawn.
    pub draws: u64,
}

/// A solve waiting or running.
#[derive(Clone, Debug, Serialize)]
pub struct SolveProgress {
    /// `waiting` or `running`.
    pub status: &'static str,
    /// Nodes searched so far.
    pub nodes: u64,
    /// The budget, in seconds.
    pub budget_s: u64,
}

/// A position to practise: inside the tables, the mover winning with best play.
#[derive(Clone, Debug, Serialize)]
pub struct Practice {
    /// Its position text (open it in the explorer to play on).
    pub position: String,
    /// The position.
    pub board: Snapshot,
    /// Its value for the mover: what perfect play wins by from here.
    pub value: i32,
    /// Seeds on the board.
    pub seeds: usize,
    /// The mover's legal moves that give up seeds against perfect defence.
    pub wrong_moves: usize,
    /// `easy`, `medium` or `hard`: the difficulty it was picked for.
    pub difficulty: &'static str,
}
