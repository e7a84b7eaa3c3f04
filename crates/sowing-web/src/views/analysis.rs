//! A game's analysis after the game, as `GET /api/games/{id}/analysis` shows it: where it
//! stands, its progress, and once done the analysis itself ([`sowing_engine::analysis`]).

use serde::Serialize;

/// Positions looked at, of all the game's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Positions looked at so far.
    pub done: usize,
    /// Positions in all (the moves and one).
    pub total: usize,
}

/// Where a game's analysis stands.
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisView {
    /// The game.
    pub game: i64,
    /// `none` (not asked for these moves), `queued`, `running` or `done`.
    pub status: &'static str,
    /// The game's moves now.
    pub plies: usize,
    /// While queued or running.
    pub progress: Option<Progress>,
    /// When done: the analysis (docs/api.md).
    pub analysis: Option<serde_json::Value>,
    /// When done: when it was kept (UTC).
    pub created: Option<String>,
}
