//! The API's errors: a status and a JSON body `{"error": "...", "code": "..."}`, from each
//! refusal of the services ([`GameError`]) and of the extractors.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::services::engines::EngineError;
use crate::services::games::GameError;
use crate::store::StoreError;
use crate::views::games::ErrorBody;

/// Every `code` an error body may carry (docs/api.md, "Errors"): the page has a sentence in
/// each language for each. The first ones name one refusal; the last ones, a kind of
/// refusal whose English `error` says the rest.
pub const ERROR_CODES: &[&str] = &[
    "unknown-game",
    "unknown-match",
    "no-such-move",
    "illegal-move",
    "stale-ply",
    "nothing-to-undo",
    "nothing-to-redo",
    "game-over",
    "round-not-over",
    "match-over",
    "round-closed",
    "changed-meanwhile",
    "round-taken",
    "in-match",
    "unknown-player",
    "engine-busy",
    "engine-no-answer",
    "write-conflict",
    "not-live",
    "bad-record",
    "bad-request",
    "forbidden",
    "not-found",
    "conflict",
    "too-large",
    "unsupported-type",
    "unprocessable",
    "limited",
    "server-error",
    "signed-out",
    "unknown-account",
    "unknown-seek",
    "unknown-challenge",
    "unknown-tournament",
    "challenge-gone",
    "challenge-refused",
    "name-taken",
    "wrong-recovery-code",
    "store-unavailable",
    "store-full",
];

/// The code of a refusal known only by its status.
fn status_code(status: StatusCode) -> &'static str {
    match status {
        StatusCode::BAD_REQUEST => "bad-request",
        StatusCode::FORBIDDEN => "forbidden",
        StatusCode::UNAUTHORIZED => "signed-out",
        StatusCode::NOT_FOUND | StatusCode::METHOD_NOT_ALLOWED => "not-found",
        StatusCode::CONFLICT => "conflict",
        StatusCode::PAYLOAD_TOO_LARGE => "too-large",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported-type",
        StatusCode::TOO_MANY_REQUESTS => "limited",
        status if status.is_server_error() => "server-error",
        _ => "unprocessable",
    }
}

/// A service's refusal as a code.
fn game_error_code(error: &GameError) -> &'static str {
    match error {
        GameError::UnknownGame(_) => "unknown-game",
        GameError::UnknownMatch(_) => "unknown-match",
        GameError::NoSuchMove { .. } => "no-such-move",
        GameError::Illegal { .. } => "illegal-move",
        GameError::StalePly { .. } => "stale-ply",
        GameError::NothingToUndo => "nothing-to-undo",
        GameError::NothingToRedo => "nothing-to-redo",
        GameError::GameOver => "game-over",
        GameError::RoundNotOver => "round-not-over",
        GameError::MatchOver => "match-over",
        GameError::RoundClosed => "round-closed",
        GameError::ChangedMeanwhile => "changed-meanwhile",
        GameError::RoundTaken => "round-taken",
        GameError::InMatch => "in-match",
        GameError::Engine(EngineError::UnknownPlayer(_)) => "unknown-player",
        GameError::Engine(EngineError::Busy) => "engine-busy",
        GameError::Engine(EngineError::NoAnswer) => "engine-no-answer",
        GameError::Store(StoreError::Conflict(_)) => "write-conflict",
        GameError::Store(StoreError::Unavailable(_)) => "store-unavailable",
        GameError::Store(StoreError::Full(_)) => "store-full",
        GameError::NotLive(_) => "not-live",
        GameError::Forbidden(_) => "forbidden",
        GameError::Limited(_) => "limited",
        GameError::Refused(_) => "unprocessable",
        GameError::Conflict(_) => "conflict",
        GameError::SignedOut(_) => "signed-out",
        GameError::UnknownAccount(_) => "unknown-account",
        GameError::UnknownSeek(_) => "unknown-seek",
        GameError::UnknownChallenge(_) => "unknown-challenge",
        GameError::UnknownTournament(_) => "unknown-tournament",
        GameError::ChallengeGone(..) => "challenge-gone",
        GameError::ChallengeRefused(_) => "challenge-refused",
        GameError::NameTaken => "name-taken",
        GameError::WrongRecoveryCode => "wrong-recovery-code",
        GameError::Store(_) | GameError::Internal(_) => "server-error",
    }
}

/// An API error: a status and a message, sent as `{"error": message, "code": code}` (with
/// `legal` for an illegal move).
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    body: ErrorBody,
}

impl ApiError {
    /// What went wrong, in English words.
    pub(crate) fn message(&self) -> &str {
        &self.body.error
    }

    /// A refusal known by its status: its code is the status's (`bad-request`, …).
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError::coded(status, status_code(status), message)
    }

    /// A refusal with its own code (one of [`ERROR_CODES`]).
    pub(crate) fn coded(
        status: StatusCode,
        code: &'static str,
        message: impl Into<String>,
    ) -> ApiError {
        debug_assert!(ERROR_CODES.contains(&code), "{code}");
        ApiError {
            status,
            body: ErrorBody {
                error: message.into(),
                code,
                legal: None,
            },
        }
    }

    pub(crate) fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }
}

impl From<GameError> for ApiError {
    fn from(error: GameError) -> ApiError {
        let status = match &error {
            GameError::UnknownGame(_)
            | GameError::UnknownMatch(_)
            | GameError::NoSuchMove { .. } => StatusCode::NOT_FOUND,
            GameError::Illegal { .. } | GameError::Engine(EngineError::UnknownPlayer(_)) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            GameError::StalePly { .. }
            | GameError::NothingToUndo
            | GameError::NothingToRedo
            | GameError::GameOver
            | GameError::RoundNotOver
            | GameError::MatchOver
            | GameError::RoundClosed
            | GameError::ChangedMeanwhile
            | GameError::RoundTaken
            | GameError::InMatch
            | GameError::Store(StoreError::Conflict(_)) => StatusCode::CONFLICT,
            GameError::Forbidden(_) => StatusCode::FORBIDDEN,
            GameError::Limited(_) => StatusCode::TOO_MANY_REQUESTS,
            GameError::Refused(_) => StatusCode::UNPROCESSABLE_ENTITY,
            GameError::Conflict(_) => StatusCode::CONFLICT,
            GameError::NotLive(_)
            | GameError::UnknownAccount(_)
            | GameError::UnknownSeek(_)
            | GameError::UnknownChallenge(_)
            | GameError::UnknownTournament(_) => StatusCode::NOT_FOUND,
            GameError::ChallengeGone(..) | GameError::NameTaken => StatusCode::CONFLICT,
            GameError::ChallengeRefused(_) => StatusCode::FORBIDDEN,
            GameError::SignedOut(_) | GameError::WrongRecoveryCode => StatusCode::UNAUTHORIZED,
            GameError::Engine(EngineError::Busy) => StatusCode::TOO_MANY_REQUESTS,
            GameError::Engine(EngineError::NoAnswer)
            | GameError::Store(StoreError::Unavailable(_) | StoreError::Full(_)) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            GameError::Store(_) | GameError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let message = error.to_string();
        let code = game_error_code(&error);
        let legal = match error {
            GameError::Illegal { legal, .. } => Some(legal),
            _ => None,
        };
        ApiError {
            status,
            body: ErrorBody {
                error: message,
                code,
                legal,
            },
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body)).into_response()
    }
}

pub(crate) type ApiResult<T> = Result<T, ApiError>;
