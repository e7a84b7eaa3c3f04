//! The shapes of challenges by name (docs/api.md, "Challenges"): a challenge as every route
//! and the notices socket give it, the list, and an account's refusals.

use serde::Serialize;
use sowing::Position;

use crate::store::ChallengeRow;

/// A clock as a challenge asks for it.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct ClockAskedView {
    /// Each side's time, ms.
    pub base_ms: i64,
    /// Added after each move, ms.
    pub increment_ms: i64,
}

/// A challenge.
#[derive(Clone, Debug, Serialize)]
pub struct ChallengeView {
    /// Its id.
    pub id: i64,
    /// The challenger's name.
    pub from: String,
    /// The challenged player's name.
    pub to: String,
    /// The game (`hoyito-ii` …).
    pub game: &'static str,
    /// The start position, as text (the rules and their options within).
    pub start: String,
    /// The challenger's seat.
    pub seat: &'static str,
    /// The clock; null for unlimited time or correspondence.
    pub clock: Option<ClockAskedView>,
    /// Correspondence: days for each move.
    pub days_per_move: Option<i64>,
    /// A rated game.
    pub rated: bool,
    /// `open`, `accepted`, `declined`, `cancelled` or `expired`.
    pub state: String,
    /// The live game, once accepted.
    pub game_id: Option<i64>,
    /// When it was made, Unix ms.
    pub created_ms: i64,
    /// When it expires unanswered, Unix ms.
    pub expires_ms: i64,
}

impl ChallengeView {
    /// The view of `row` at `now_ms` (an open one past its time has expired).
    pub fn of(row: &ChallengeRow, now_ms: i64) -> ChallengeView {
        let game = row
            .start
            .parse::<Position>()
            .map_or("unknown", |p| p.rules().variant().name());
        let expired = row.state == "open" && row.expires_ms <= now_ms;
        let per_move = row.clock.filter(|c| c.per_move);
        ChallengeView {
            id: row.id,
            from: row.from.1.clone(),
            to: row.to.1.clone(),
            game,
            start: row.start.clone(),
            seat: row.seat.name(),
            clock: row.clock.filter(|c| !c.per_move).map(|c| ClockAskedView {
                base_ms: c.base_ms,
                increment_ms: c.increment_ms,
            }),
            days_per_move: per_move.map(|c| c.base_ms / 86_400_000),
            rated: row.rated,
            state: if expired {
                "expired".to_owned()
            } else {
                row.state.clone()
            },
            game_id: row.game_id,
            created_ms: row.created_ms,
            expires_ms: row.expires_ms,
        }
    }
}

/// A made challenge, and the challenger's seat token (shown once).
#[derive(Clone, Debug, Serialize)]
pub struct ChallengeMade {
    /// The challenge.
    pub challenge: ChallengeView,
    /// The challenger's seat token.
    pub token: String,
}

/// An account's challenges, as `GET /api/challenges` and the notices socket give them.
#[derive(Clone, Debug, Serialize)]
pub struct ChallengeList {
    /// Open to or from the account, and those it made closed lately, newest first.
    pub challenges: Vec<ChallengeView>,
    /// The tournament games the account is playing, newest first: a pairing arrives here
    /// (docs/api.md, "Tournaments").
    pub tournament_games: Vec<TournamentGameView>,
    /// The server's time, Unix ms (for the countdowns).
    pub now_ms: i64,
}

/// A tournament game the account is playing.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct TournamentGameView {
    /// The tournament.
    pub tournament_id: i64,
    /// The live game.
    pub game_id: i64,
    /// The account's seat: `south` or `north`.
    pub seat: &'static str,
}

/// Whose challenges an account refuses.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct RefusalsView {
    /// Every challenge.
    pub everyone: bool,
    /// These players' challenges, by name.
    pub names: Vec<String>,
}
