//! What can be wrong with an event or with the games handed in.

use std::fmt;

use crate::model::{GameId, PlayerId};

/// Why an event or a list of games is refused. Nothing is changed by a refused event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArenaError {
    /// Two players share an id, or a player joins twice (coming back is
    /// [`crate::Arena::resume`]).
    DuplicatePlayer(PlayerId),
    /// A game or an event names a player who has not joined.
    UnknownPlayer(PlayerId),
    /// A game has the same player on both seats.
    PlaysThemselves(PlayerId),
    /// No game in progress has this id.
    UnknownGame(GameId),
    /// Two games share an id.
    DuplicateGame(GameId),
    /// A player is in two games in progress at once.
    InTwoGames(PlayerId),
    /// The arena is over: nobody joins after the end.
    Over,
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::DuplicatePlayer(player) => write!(f, "player {player} has already joined"),
            ArenaError::UnknownPlayer(player) => write!(f, "player {player} has not joined"),
            ArenaError::PlaysThemselves(player) => {
                write!(f, "player {player} sits on both seats of one game")
            }
            ArenaError::UnknownGame(game) => write!(f, "no game {game} is in progress"),
            ArenaError::DuplicateGame(game) => write!(f, "two games have the id {game}"),
            ArenaError::InTwoGames(player) => {
                write!(f, "player {player} is in two games in progress")
            }
            ArenaError::Over => write!(f, "the arena is over"),
        }
    }
}

impl std::error::Error for ArenaError {}
