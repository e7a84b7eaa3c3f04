//! What can be wrong with the players and rounds handed in.

use std::fmt;

use crate::round::PlayerId;

/// Why the players or the rounds cannot be read. `round` is an index into the rounds handed
/// in (0 for the first round); messages count from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SwissError {
    /// Two players share an id.
    DuplicatePlayer(PlayerId),
    /// A round names a player who is not in the list.
    UnknownPlayer {
        /// The round.
        round: usize,
        /// The id not found.
        player: PlayerId,
    },
    /// A player appears twice in one round (or plays themselves).
    PlaysTwice {
        /// The round.
        round: usize,
        /// The player.
        player: PlayerId,
    },
    /// A player appears in a round before the one they joined in.
    BeforeJoining {
        /// The round.
        round: usize,
        /// The player.
        player: PlayerId,
    },
    /// The field is too large for the weights of the matching to fit in 128 bits (far beyond
    /// any real tournament: thousands of players over hundreds of rounds).
    TooLarge,
}

impl fmt::Display for SwissError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SwissError::DuplicatePlayer(player) => write!(f, "two players have the id {player}"),
            SwissError::UnknownPlayer { round, player } => {
                write!(
                    f,
                    "round {} names player {player}, who is not entered",
                    round + 1
                )
            }
            SwissError::PlaysTwice { round, player } => {
                write!(f, "player {player} appears twice in round {}", round + 1)
            }
            SwissError::BeforeJoining { round, player } => write!(
                f,
                "player {player} appears in round {}, before the round they joined in",
                round + 1
            ),
            SwissError::TooLarge => write!(f, "the field is too large to pair"),
        }
    }
}

impl std::error::Error for SwissError {}
