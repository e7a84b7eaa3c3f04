//! The JSON shapes of a game between two seats: its seats, clock, offers and result, as
//! the routes answer and the socket sends them (docs/api.md, "Play a friend").

use serde::Serialize;

use crate::store::LiveResult;
use crate::views::accounts::RatingNumbers;
use crate::views::games::{GameSummary, TraceEvent, View};

/// A seat: its name and whether someone holds it.
#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    /// The name the holder gave (shown escaped by the page), or null.
    pub name: Option<String>,
    /// Whether the seat is taken (an open challenge has one free seat).
    pub taken: bool,
    /// Whether a signed-in account holds it (then `name` is the account's name).
    pub account: bool,
    /// The account's rating in this game at this speed, or null for no account.
    pub rating: Option<RatingNumbers>,
}

/// Both seats.
#[derive(Clone, Debug, Serialize)]
pub struct SeatsView {
    /// South's seat.
    pub south: SeatView,
    /// North's seat.
    pub north: SeatView,
}

/// The clock as the server keeps it, at `now_ms`.
#[derive(Clone, Debug, Serialize)]
pub struct ClockView {
    /// Each side's time at the start, ms.
    pub base_ms: i64,
    /// Added after each timed move, ms.
    pub increment_ms: i64,
    /// South's time left at `now_ms`.
    pub south_ms: i64,
    /// North's time left at `now_ms`.
    pub north_ms: i64,
    /// The side whose clock runs, or null.
    pub running: Option<&'static str>,
    /// The server's time of this view, Unix ms.
    pub now_ms: i64,
    /// The time given back to the running clock, in all, for the server's outages (ms).
    pub credited_ms: i64,
    /// Correspondence: the days for each move (`base_ms` in days); null for a clock.
    pub days_per_move: Option<i64>,
}

/// A live game waiting for the player's move (`GET /api/account/turns`).
#[derive(Clone, Debug, Serialize)]
pub struct Turn {
    /// The game.
    pub id: i64,
    /// Its variant (`hoyito-ii` …).
    pub game: String,
    /// The player's seat there.
    pub seat: &'static str,
    /// The opponent's name, if shown.
    pub opponent: Option<String>,
    /// The player's time left (ms), with a clock.
    pub left_ms: Option<i64>,
    /// Correspondence: the days for each move.
    pub days_per_move: Option<i64>,
}

/// A seat's last quick phrase, and how many it has said (a reader shows each new one once).
#[derive(Clone, Debug, Serialize)]
pub struct SaidView {
    /// The phrase's code (`hello`, `good-luck` …); the page words it in its reader's language.
    pub phrase: String,
    /// How many phrases the seat has said in this game.
    pub n: u32,
}

/// Each seat's last quick phrase.
#[derive(Clone, Debug, Serialize)]
pub struct SaidByView {
    /// South's, or null.
    pub south: Option<SaidView>,
    /// North's, or null.
    pub north: Option<SaidView>,
}

/// Who made each standing offer.
#[derive(Clone, Debug, Serialize)]
pub struct OffersView {
    /// A draw offer's side, or null.
    pub draw: Option<&'static str>,
    /// A takeback request's side, or null.
    pub takeback: Option<&'static str>,
    /// A rematch offer's side, or null.
    pub rematch: Option<&'static str>,
}

/// How a live game ended.
#[derive(Clone, Debug, Serialize)]
pub struct ResultView {
    /// `south`, `north`, `draw`, or `none` (closed with no result).
    pub outcome: String,
    /// `rules` (the game's own end), `resignation`, `agreement`, `flag`, `abandoned` or
    /// `expired`.
    pub reason: String,
    /// In words.
    pub text: String,
}

/// A live game's seats, clock, offers and result, without the game.
#[derive(Clone, Debug, Serialize)]
pub struct LiveStatus {
    /// The game's id.
    pub id: i64,
    /// Moves played.
    pub ply: usize,
    /// Takebacks granted so far.
    pub takebacks: u32,
    /// Bumped by every change.
    pub version: i64,
    /// The seats.
    pub seats: SeatsView,
    /// The clock, or null for unlimited time.
    pub clock: Option<ClockView>,
    /// Standing offers.
    pub offers: OffersView,
    /// The result, once the game is over.
    pub result: Option<ResultView>,
    /// The rematch's game id, once both asked for one.
    pub rematch: Option<i64>,
    /// In a match between two seats, the next round's game id once this round has ended by
    /// the rules and the next has started (the same tokens hold the same seats in it).
    pub next_round: Option<i64>,
    /// Listed in the lobby.
    pub lobby: bool,
    /// Sockets watching without a seat (on this server).
    pub spectators: usize,
    /// A rated game: its end moves both accounts' ratings.
    pub rated: bool,
    /// Its speed, from the clock (`bullet`, `blitz`, `rapid`, `classical`, `unlimited`).
    pub speed: &'static str,
    /// When the side to move must have made its first move (Unix ms), in a game with a
    /// clock before each side's first move; else the game is aborted, unrated, at that time.
    pub first_move_by_ms: Option<i64>,
    /// Each seat's last quick phrase.
    pub said: SaidByView,
}

/// A live game whole: its status and its game view.
#[derive(Clone, Debug, Serialize)]
pub struct LiveView {
    /// Seats, clock, offers, result.
    pub live: LiveStatus,
    /// The game as `GET /api/games/{id}` gives it.
    pub game: View,
}

/// A seat handed out: the token is shown once and never stored.
#[derive(Clone, Debug, Serialize)]
pub struct Seated {
    /// The seat's side.
    pub seat: &'static str,
    /// The seat's token.
    pub token: String,
    /// The other seat's token, for the invitation link (null for a lobby challenge, or
    /// when taking a seat).
    pub invite: Option<String>,
    /// The game.
    #[serde(flatten)]
    pub view: LiveView,
}

/// The answer to a live move: its trace and the game after it.
#[derive(Clone, Debug, Serialize)]
pub struct LiveMoved {
    /// The sowing, step by step.
    pub trace: Vec<TraceEvent>,
    /// The game after it.
    #[serde(flatten)]
    pub view: LiveView,
}

/// An open challenge of the lobby.
#[derive(Clone, Debug, Serialize)]
pub struct Challenge {
    /// The game's id.
    pub id: i64,
    /// `hoyito-ii`, `hoyito-iii` or `ayoayo`.
    pub game: String,
    /// Pits per row.
    pub pits: usize,
    /// The start position's text (game, board, options).
    pub start: String,
    /// The challenger's name, or null.
    pub name: Option<String>,
    /// The seat left for whoever accepts.
    pub open: &'static str,
    /// `{"base_ms", "increment_ms"}`, or null for unlimited time.
    pub clock: Option<ClockSpecView>,
    /// When it was posted, Unix ms.
    pub created_ms: i64,
    /// A rated challenge (only a signed-in player may accept it).
    pub rated: bool,
    /// Its speed.
    pub speed: &'static str,
    /// The challenger's rating in this game at this speed, when signed in.
    pub rating: Option<RatingNumbers>,
}

/// A time control.
#[derive(Clone, Debug, Serialize)]
pub struct ClockSpecView {
    /// Each side's time, ms.
    pub base_ms: i64,
    /// Added after each timed move, ms.
    pub increment_ms: i64,
    /// Correspondence: the days for each move; null for a clock.
    pub days_per_move: Option<i64>,
}

/// `result` in words; in a match, a result that is not the rules' own ends the match.
pub(crate) fn result_text(result: &LiveResult, in_match: bool) -> String {
    let text = game_result_text(result);
    if in_match && result.reason != "rules" {
        format!("{text}; the match ends with this round")
    } else {
        text
    }
}

fn game_result_text(result: &LiveResult) -> String {
    let loser = |o: &str| match o {
        "south" => "north",
        _ => "south",
    };
    match (result.reason.as_str(), result.outcome.as_str()) {
        ("flag", "draw") => "time ran out for the side to move, but its opponent could no \
                             longer win on captures: drawn"
            .to_owned(),
        ("flag", o) => format!("{}'s time ran out: {o} wins", loser(o)),
        ("resignation", o) => format!("{} resigned: {o} wins", loser(o)),
        ("agreement", _) => "drawn by agreement".to_owned(),
        ("abandoned", _) => "closed: nobody moved for too long".to_owned(),
        ("expired", _) => "closed: nobody took the open seat in time".to_owned(),
        ("aborted", _) => "aborted: a first move did not come in time (not rated)".to_owned(),
        (reason, outcome) => format!("{reason}: {outcome}"),
    }
}

/// Puts a live game's `result` in its list entry, as a one-screen game's is shown: the
/// winner or `draw` (none for a game closed with no result) and the words.
pub(crate) fn show_result(summary: &mut GameSummary, result: &LiveResult, in_match: bool) {
    summary.result = (result.outcome != "none").then(|| result.outcome.clone());
    summary.termination = Some(result_text(result, in_match));
}
