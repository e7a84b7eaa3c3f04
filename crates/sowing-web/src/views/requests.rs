//! The JSON bodies of the API's requests (docs/api.md): what the server reads and what a
//! client such as `sow-load` writes, one type each.

use serde::{Deserialize, Serialize};

/// `POST /api/games`: a new game or match; `POST /api/live` reads the same fields inside
/// [`NewLiveRequest`].
#[derive(Serialize, Deserialize, Clone, Debug, Default)]
pub struct NewGameRequest {
    /// `hoyito-ii`, `hoyito-iii` or `ayoayo`.
    pub game: String,
    /// Pits per row (default: the game's own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pits: Option<usize>,
    /// The rule options by JSON field (`casa_rows` …); any other field is refused when the
    /// rules are made.
    #[serde(flatten)]
    pub options: serde_json::Map<String, serde_json::Value>,
    /// South's player: `human` (default) or a computer (`level:3` …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub south: Option<String>,
    /// North's player, as `south`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub north: Option<String>,
    /// Hoyito III only: play a match of this many rounds (H3.3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
}

/// `POST /api/games/{id}/moves`: a move of a game at this screen.
#[derive(Serialize, Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The move's name (`A` … or `a` …, docs/notation.md).
    #[serde(rename = "move")]
    pub mv: String,
    /// The number of moves the client saw; a mismatch is refused (409).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<usize>,
}

/// `POST /api/live`: a game for two seats.
#[derive(Serialize, Deserialize, Clone, Debug, Default)]
pub struct NewLiveRequest {
    /// `hoyito-ii`, `hoyito-iii` or `ayoayo`.
    pub game: String,
    /// Pits per row (default: the game's own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pits: Option<usize>,
    /// The creator's seat, `south` (default) or `north`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<String>,
    /// Null or absent: unlimited time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockRequest>,
    /// List as an open challenge in the lobby instead of an invitation.
    #[serde(default)]
    pub lobby: bool,
    /// The creator's name, shown to the opponent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Hoyito III only: a match of this many rounds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// A rated game (the creator signed in; single games only; docs/api.md, "Ratings").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// Correspondence: so many days for each move (1, 2, 3, 5, 7 or 14), instead of `clock`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days_per_move: Option<i64>,
    /// The rule options by JSON field, as in [`NewGameRequest`].
    #[serde(flatten)]
    pub options: serde_json::Map<String, serde_json::Value>,
}

/// `POST /api/seeks`: a seek of quick pairing.
#[derive(Serialize, Deserialize, Clone, Debug, Default)]
pub struct SeekRequest {
    /// `hoyito-ii`, `hoyito-iii` or `ayoayo`.
    pub game: String,
    /// Pits per row (default: the game's own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pits: Option<usize>,
    /// Null or absent: unlimited time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockRequest>,
    /// A rated game (signed-in players only).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The opponents' ratings taken, around the seeker's own (signed-in players only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<RangeRequest>,
    /// The name shown to the opponent (a signed-in player's is their account's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The rule options by JSON field, as in [`NewGameRequest`].
    #[serde(flatten)]
    pub options: serde_json::Map<String, serde_json::Value>,
}

/// `POST /api/challenges`: a challenge to a named player.
#[derive(Serialize, Deserialize, Clone, Debug, Default)]
pub struct ChallengeRequest {
    /// The challenged account's name.
    pub to: String,
    /// `hoyito-ii`, `hoyito-iii` or `ayoayo`.
    pub game: String,
    /// Pits per row (default: the game's own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pits: Option<usize>,
    /// Null or absent: unlimited time (or correspondence, with `days_per_move`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockRequest>,
    /// Correspondence: days for each move (1, 2, 3, 5, 7 or 14).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days_per_move: Option<i64>,
    /// A rated game.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The challenger's seat: `south`, `north` or `random` (the default).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<String>,
    /// The rule options by JSON field, as in [`NewGameRequest`].
    #[serde(flatten)]
    pub options: serde_json::Map<String, serde_json::Value>,
}

/// `PUT /api/account/refusals`: whose challenges an account refuses.
#[derive(Serialize, Deserialize, Clone, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct RefusalsRequest {
    /// Refuse every challenge.
    pub everyone: bool,
    /// Refuse these players' challenges.
    pub names: Vec<String>,
}

/// How far below and above one's own rating an opponent may be.
#[derive(Serialize, Deserialize, Clone, Copy, Debug)]
#[serde(deny_unknown_fields)]
pub struct RangeRequest {
    /// Rating points below one's own.
    pub below: f64,
    /// Rating points above one's own.
    pub above: f64,
}

/// A live game's time control.
#[derive(Serialize, Deserialize, Clone, Copy, Debug)]
#[serde(deny_unknown_fields)]
pub struct ClockRequest {
    /// Each side's time at the start.
    pub base_ms: i64,
    /// Added after each move.
    #[serde(default)]
    pub increment_ms: i64,
}

/// `POST /api/live/{id}/moves`: a seat's move.
#[derive(Serialize, Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct LiveMoveRequest {
    /// The move's name (`A` … or `a` …, docs/notation.md).
    #[serde(rename = "move")]
    pub mv: String,
    /// The number of moves the client saw: required, a mismatch is a 409.
    pub ply: usize,
}

/// `POST /api/tournaments`: a tournament to make (and `sow tournament create`).
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct TournamentRequest {
    /// Its name (1 to 60 characters).
    pub name: String,
    /// `arena` or `swiss`.
    pub kind: String,
    /// `hoyito-ii`, `hoyito-iii` or `ayoayo`.
    pub game: String,
    /// Pits per row (default: the game's own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pits: Option<usize>,
    /// Every game's clock.
    pub clock: ClockRequest,
    /// Rated games.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// When it starts, Unix ms (absent: in five minutes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub starts_ms: Option<i64>,
    /// An arena's length, minutes (1 to 720).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minutes: Option<i64>,
    /// A Swiss's rounds (1 to 30).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<i64>,
    /// The least rating to join (in the game, at the clock's speed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_rating: Option<i64>,
    /// The rule options by JSON field, as in [`NewGameRequest`].
    #[serde(flatten)]
    pub options: serde_json::Map<String, serde_json::Value>,
}
