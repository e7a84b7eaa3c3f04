//! What an engine answered, as the API shows it (hints, the evaluation bar, computer moves).

use serde::Serialize;
use sowing::Move;

/// What the engine answered.
#[derive(Clone, Debug, Serialize)]
pub struct Answer {
    /// The engine that answered, as a spec.
    pub engine: String,
    /// The move chosen.
    #[serde(rename = "move")]
    pub mv: String,
    /// The evaluation, if the engine reported one.
    pub score: Option<Evaluation>,
    /// Depth completed, if reported.
    pub depth: Option<u32>,
    /// Nodes searched, if reported.
    pub nodes: Option<u64>,
    /// The principal variation, if reported.
    pub pv: Vec<String>,
    /// The chosen move itself, not serialised.
    #[serde(skip)]
    pub chosen: Option<Move>,
}

/// An evaluation from South's point of view (the bar is drawn that way whoever moves).
#[derive(Clone, Debug, Serialize)]
pub struct Evaluation {
    /// `estimate` (in seeds) or `proven` (the final margin with best play).
    pub kind: &'static str,
    /// Seeds South is ahead by (negative: North is ahead).
    pub south: f64,
    /// The score as the engine prints it, for the side to move.
    pub text: String,
}
