//! The API's answers as types: each serialises to the JSON that `docs/api.md` shows (and
//! `tests/shapes.rs` pins), field for field, null where the docs say null.

use serde::Serialize;
use sowing::{End, Game};
pub use sowing_views::{
    history, EndView, HistoryEntry, MoveReplay, RulesView, Snapshot, TraceEvent,
};

use crate::matches::Table;
use crate::store::GameRow;
use crate::views::engine::Answer;

/// Who plays each side: `human` or an engine spec.
#[derive(Clone, Debug, Serialize)]
pub struct Players {
    /// South's player.
    pub south: String,
    /// North's player.
    pub north: String,
}

/// The names the players of a game between two seats gave (each `None` until given, or
/// for an open seat), for the page to show people rather than sides.
#[derive(Clone, Debug, Serialize)]
pub struct Names {
    /// South's name.
    pub south: Option<String>,
    /// North's name.
    pub north: Option<String>,
}

/// The score table of a match, with the match's id.
#[derive(Clone, Debug, Serialize)]
pub struct MatchView {
    /// The match's id.
    pub id: i64,
    /// The table.
    #[serde(flatten)]
    pub table: Table,
}

/// The full view of a game, for the page and API clients.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// The game's id.
    pub id: i64,
    /// The machine state of RULES.md.
    pub state: sowing::State,
    /// The rules it is played under.
    pub rules: RulesView,
    /// Who plays each side.
    pub players: Players,
    /// The players' names, for a game between two seats; `None` for a one-screen game.
    pub names: Option<Names>,
    /// Moves played.
    pub ply: usize,
    /// The start position.
    pub start: Snapshot,
    /// Every move with the position after it.
    pub history: Vec<HistoryEntry>,
    /// The moves that redo would play, next first.
    pub redo: Vec<String>,
    /// How the game ended, once it is over.
    pub end: Option<EndView>,
    /// The score table, for a round of a match.
    #[serde(rename = "match")]
    pub table: Option<MatchView>,
    /// The round, for a round of a match.
    pub round: Option<u32>,
    /// When the game was created.
    pub created: String,
    /// When it last changed.
    pub updated: String,
    /// The player key the server made for a game created without one: sent once, in the
    /// answer that created it ([`crate::owners`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player_key: Option<String>,
}

impl View {
    /// The view of `game`, kept as `row`, with its match's table if it is a round.
    pub fn new(row: &GameRow, game: &Game, table: Option<MatchView>) -> View {
        let n = game.rules().pits_per_row();
        View {
            id: row.id,
            state: sowing::State::of(game),
            rules: RulesView::of(game.rules()),
            players: Players {
                south: row.south.clone(),
                north: row.north.clone(),
            },
            names: None,
            ply: game.moves().len(),
            start: Snapshot::of(game.start()),
            history: history(game),
            redo: game.redo_moves().map(|m| m.name(n).to_string()).collect(),
            end: game.end().map(EndView::of),
            table,
            round: row.round,
            created: row.created.clone(),
            updated: row.updated.clone(),
            player_key: None,
        }
    }
}

/// The answer to a move, a redo: the move's trace and the game's view.
#[derive(Clone, Debug, Serialize)]
pub struct Played {
    /// The sowing, step by step.
    pub trace: Vec<TraceEvent>,
    /// The game after it.
    pub game: View,
}

/// The answer to a move with `?brief=true`: the state alone, for clients that keep their
/// own history.
#[derive(Clone, Debug, Serialize)]
pub struct Brief {
    /// The sowing, step by step.
    pub trace: Vec<TraceEvent>,
    /// Moves played.
    pub ply: usize,
    /// The machine state.
    pub state: sowing::State,
    /// How the game ended, once it is over.
    pub end: Option<EndView>,
}

/// The answer to a move: whole or brief.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum MoveAnswer {
    /// With the game's view.
    Full(Box<Played>),
    /// With the state alone.
    Brief(Box<Brief>),
}

/// The answer to an undo.
#[derive(Clone, Debug, Serialize)]
pub struct Undone {
    /// The game after it.
    pub game: View,
}

/// The answer to an engine request: its move, and when it was played, the trace and view.
#[derive(Clone, Debug, Serialize)]
pub struct EngineReply {
    /// What the engine answered.
    pub engine: Answer,
    /// The move played, with `play: true`.
    #[serde(flatten)]
    pub played: Option<Played>,
}

/// A saved game in short, for the list.
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    /// The game's id.
    pub id: i64,
    /// `hoyito-ii`, `hoyito-iii` or `ayoayo`.
    pub game: String,
    /// Pits per row.
    pub pits: usize,
    /// South's player.
    pub south: String,
    /// North's player.
    pub north: String,
    /// Moves played.
    pub plies: usize,
    /// `south`, `north`, `draw`, or null while the game goes on.
    pub result: Option<String>,
    /// How it ended, in words, or null while it goes on.
    pub termination: Option<String>,
    /// The match it is a round of.
    #[serde(rename = "match")]
    pub match_id: Option<i64>,
    /// Its round in the match.
    pub round: Option<u32>,
    /// When it was created.
    pub created: String,
    /// When it last changed.
    pub updated: String,
    /// Played between two seats ("Play a friend"): opened as a live game.
    pub live: bool,
}

impl GameSummary {
    /// The summary of a stored game.
    pub fn of(row: GameRow) -> GameSummary {
        GameSummary {
            id: row.id,
            game: row.variant,
            pits: row.pits,
            south: row.south,
            north: row.north,
            plies: row.plies,
            result: row.result,
            termination: row.end.map(End::describe),
            match_id: row.match_id,
            round: row.round,
            created: row.created,
            updated: row.updated,
            live: false,
        }
    }
}

/// The list of saved games.
#[derive(Clone, Debug, Serialize)]
pub struct GameList {
    /// Most recently changed first.
    pub games: Vec<GameSummary>,
}

/// Every error's body: `{"error": message, "code": code}`, with the legal moves for an
/// illegal one.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorBody {
    /// What went wrong, in English words.
    pub error: String,
    /// What went wrong, as a stable code the page translates (docs/api.md, "Errors").
    pub code: &'static str,
    /// The legal moves, when a move was refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal: Option<Vec<String>>,
}
