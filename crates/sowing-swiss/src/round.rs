//! The input and output values: players, seats, results, the pairings of a round.

use std::fmt;

/// A player, as the caller numbers them (an account, an entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(pub u64);

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One entry of the tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    /// Who the player is.
    pub id: PlayerId,
    /// The rating that sets the initial order (the pairing numbers): highest first, equal
    /// ratings by id.
    pub rating: i32,
    /// Left the tournament: never paired again, still in the standings with what they scored.
    pub withdrawn: bool,
    /// The index of the first round the player may be paired in: 0 for a player there from the
    /// start, `k` for one who joined after `k` rounds (a late joiner, who starts with zero
    /// points). A player whose first round is still to come is not paired yet.
    pub joined: usize,
}

impl Player {
    /// A player there from the start, not withdrawn.
    pub fn new(id: PlayerId, rating: i32) -> Player {
        Player {
            id,
            rating,
            withdrawn: false,
            joined: 0,
        }
    }

    /// Whether the player joined after the first round.
    pub fn late(&self) -> bool {
        self.joined > 0
    }
}

/// A seat at the board. South moves first in all three games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    /// The first mover.
    South,
    /// The second mover.
    North,
}

impl Seat {
    /// The other seat.
    pub fn other(self) -> Seat {
        match self {
            Seat::South => Seat::North,
            Seat::North => Seat::South,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// South won: one point to South.
    SouthWins,
    /// North won: one point to North.
    NorthWins,
    /// A draw: half a point each.
    Draw,
}

/// One line of a round played: a game with its result, or a bye.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    /// A game between two players.
    Game {
        /// The player in the South seat, who moved first.
        south: PlayerId,
        /// The player in the North seat.
        north: PlayerId,
        /// How it ended.
        result: GameResult,
    },
    /// A pairing-allocated bye: one point, no opponent, no seat.
    Bye(PlayerId),
}

/// A game of the next round, before it is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// The player who sits South (the first mover).
    pub south: PlayerId,
    /// The player who sits North.
    pub north: PlayerId,
}

impl Board {
    /// The line of the round once the game is over.
    pub fn with_result(self, result: GameResult) -> Pairing {
        Pairing::Game {
            south: self.south,
            north: self.north,
            result,
        }
    }
}

/// The pairings of the next round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NextRound {
    /// The games, board 1 first (boards in the order of their higher-ranked player).
    pub boards: Vec<Board>,
    /// The player who gets the bye, when the count of players is odd.
    pub bye: Option<PlayerId>,
    /// Players left without a game or a bye because no pairing of everyone exists (every
    /// possible opponent already met, or an odd count with every player already given a
    /// bye). They score nothing this round. Empty in any ordinary round.
    pub unpaired: Vec<PlayerId>,
}
