//! The API's errors: a status and a JSON body `{"error": "..."}`, from each refusal of the
//! services ([`GameError`]) and of the extractors.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::services::engines::EngineError;
use crate::services::games::GameError;
use crate::store::StoreError;
use crate::views::games::ErrorBody;

/// An API error: a status and a message, sent as `{"error": message}` (with `legal` for an
/// illegal move).
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    body: ErrorBody,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            body: ErrorBody {
                error: message.into(),
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
            GameError::NotLive(_) | GameError::UnknownAccount(_) => StatusCode::NOT_FOUND,
            GameError::SignedOut(_) => StatusCode::UNAUTHORIZED,
            GameError::Engine(EngineError::Busy) => StatusCode::TOO_MANY_REQUESTS,
            GameError::Engine(EngineError::NoAnswer) => StatusCode::SERVICE_UNAVAILABLE,
            GameError::Store(_) | GameError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let message = error.to_string();
        let legal = match error {
            GameError::Illegal { legal, .. } => Some(legal),
            _ => None,
        };
        ApiError {
            status,
            body: ErrorBody {
                error: message,
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
