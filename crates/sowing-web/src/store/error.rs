//! Why a store call failed, and the count of failures the server's metrics show.

use std::fmt;

/// Store calls that failed (`kind`: `conflict`, `database`, `unavailable`, `full`,
/// `unreplayable`). Counted where
/// the failures are seen ([`StoreError::count`]); the server's metrics page describes it.
pub const STORE_ERRORS: &str = "sowing_store_errors_total";

/// Why the store could not do what was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The database failed, or is not a database of this program.
    Database(String),
    /// The database cannot be reached now (PostgreSQL stopped or restarting, a connection
    /// lost). A transaction never half-writes; a commit whose answer was lost may have been
    /// made, so the caller reads the game again before trusting its copy.
    Unavailable(String),
    /// The disk under the database is full: nothing was written, and writes succeed again
    /// once there is room.
    Full(String),
    /// A write broke a uniqueness rule or was made from a stale copy: another writer got
    /// there first (the same ply stored twice, the same round of a match started twice, a
    /// game changed since it was read). Nothing was written.
    Conflict(String),
    /// A stored game's start position no longer reads. The stored data is kept as it is.
    BadStart {
        /// The game.
        game: i64,
        /// Why the position text does not read.
        reason: String,
    },
    /// A stored move no longer replays (the rules changed since it was played). The game is
    /// not cut short at that move: it is refused whole, and its stored moves are kept.
    Unreplayable {
        /// The game.
        game: i64,
        /// The move's number, from 1.
        ply: usize,
        /// The move as stored.
        token: String,
        /// Why it does not replay.
        reason: String,
    },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Database(message) => write!(f, "database: {message}"),
            StoreError::Unavailable(message) => write!(
                f,
                "the database cannot be reached now ({message}); try again shortly"
            ),
            StoreError::Full(message) => write!(
                f,
                "the server's disk is full ({message}); nothing was written"
            ),
            StoreError::Conflict(message) => write!(f, "database: conflicting write: {message}"),
            StoreError::BadStart { game, reason } => write!(
                f,
                "game {game}: its stored start position no longer reads ({reason}); \
                 the stored game is kept as it is"
            ),
            StoreError::Unreplayable {
                game,
                ply,
                token,
                reason,
            } => write!(
                f,
                "game {game}: its stored move {ply} ({token:?}) no longer replays ({reason}); \
                 the stored moves are kept as they are"
            ),
        }
    }
}

impl std::error::Error for StoreError {}

impl StoreError {
    /// Counts this failure in [`STORE_ERRORS`].
    pub fn count(&self) {
        let kind = match self {
            StoreError::Conflict(_) => "conflict",
            StoreError::Database(_) => "database",
            StoreError::Unavailable(_) => "unavailable",
            StoreError::Full(_) => "full",
            StoreError::BadStart { .. } | StoreError::Unreplayable { .. } => "unreplayable",
        };
        metrics::counter!(STORE_ERRORS, "kind" => kind).increment(1);
    }
}

/// A store answer.
pub type StoreResult<T> = Result<T, StoreError>;
