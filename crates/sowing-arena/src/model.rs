//! The values an arena is made of: players, seats, results, games, the clock.

use std::fmt;

/// A player, as the caller numbers them (an account).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(pub u64);

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A game of the arena, numbered by the arena from 0 in the order it paired them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(pub u64);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A moment, in milliseconds since the Unix epoch. The crate never reads the clock: every
/// time is handed in.
pub type Millis = u64;

/// When the arena runs: pairing opens at `start` and the standings freeze at `end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The first moment a pairing may be made.
    pub start: Millis,
    /// The end: no game starts within [`crate::PAIRING_CLOSES_BEFORE_END`] of it, and a game
    /// that ends after it scores nothing.
    pub end: Millis,
}

/// Whether a player is in the pairing or has stepped out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Paired whenever free.
    Active,
    /// Paused or left: not paired, still in the standings with everything scored; may come
    /// back.
    Paused,
}

/// One entry of the arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    /// Who.
    pub id: PlayerId,
    /// The rating at joining: orders players level on points in the pairing, and counts in
    /// opponents' performance.
    pub rating: i32,
    /// When the player joined.
    pub joined: Millis,
    /// Active or paused.
    pub status: Status,
    /// Since when the player has been free to play: when they joined, came back, or their
    /// last game ended, whichever is latest.
    pub free_since: Millis,
}

impl Player {
    /// A player who joins at `now`, active.
    pub fn new(id: PlayerId, rating: i32, now: Millis) -> Player {
        Player {
            id,
            rating,
            joined: now,
            status: Status::Active,
            free_since: now,
        }
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

/// One value for each seat: who sits there, whether they berserked, how many moves they made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Seats<T> {
    /// South's.
    pub south: T,
    /// North's.
    pub north: T,
}

impl<T> Seats<T> {
    /// Both values.
    pub fn new(south: T, north: T) -> Seats<T> {
        Seats { south, north }
    }

    /// The value of one seat.
    pub fn get(&self, seat: Seat) -> &T {
        match seat {
            Seat::South => &self.south,
            Seat::North => &self.north,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// South won.
    SouthWins,
    /// North won.
    NorthWins,
    /// A draw.
    Draw,
}

/// How a game went for one of its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Won.
    Win,
    /// Drew.
    Draw,
    /// Lost.
    Loss,
}

impl GameResult {
    /// How the game went for the player on `seat`.
    pub fn for_seat(self, seat: Seat) -> Outcome {
        match (self, seat) {
            (GameResult::Draw, _) => Outcome::Draw,
            (GameResult::SouthWins, Seat::South) | (GameResult::NorthWins, Seat::North) => {
                Outcome::Win
            }
            _ => Outcome::Loss,
        }
    }
}

/// Two players the pairing put at one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The first mover.
    pub south: PlayerId,
    /// The second mover.
    pub north: PlayerId,
}

/// A game being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ongoing {
    /// The arena's number for it.
    pub id: GameId,
    /// Who sits where.
    pub board: Board,
    /// When it was paired.
    pub started: Millis,
}

/// A game over, with what the scoring needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finished {
    /// The arena's number for it.
    pub id: GameId,
    /// Who sat where.
    pub board: Board,
    /// How it ended.
    pub result: GameResult,
    /// Whether each player berserked (played on half their clock).
    pub berserk: Seats<bool>,
    /// How many moves each player made (a pass counts as a move).
    pub moves: Seats<u32>,
    /// When it was paired.
    pub started: Millis,
    /// When it ended. A game that ends after the arena's end scores nothing.
    pub ended: Millis,
}

impl Finished {
    /// The player on `seat`.
    pub fn player(&self, seat: Seat) -> PlayerId {
        match seat {
            Seat::South => self.board.south,
            Seat::North => self.board.north,
        }
    }

    /// The seat `player` sat on, if they played this game.
    pub fn seat_of(&self, player: PlayerId) -> Option<Seat> {
        if self.board.south == player {
            Some(Seat::South)
        } else if self.board.north == player {
            Some(Seat::North)
        } else {
            None
        }
    }
}

/// A game clock: the time each side starts with, and the time added after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clock {
    /// The starting time, in milliseconds.
    pub base: Millis,
    /// Added after each move, in milliseconds.
    pub increment: Millis,
}

impl Clock {
    /// The clock of a player who berserks, as on lichess: half the starting time (rounded
    /// down to the millisecond), no increment. The opponent keeps the full clock.
    ///
    /// ```
    /// use sowing_arena::Clock;
    ///
    /// let three_plus_two = Clock { base: 180_000, increment: 2_000 };
    /// assert_eq!(three_plus_two.berserk(), Clock { base: 90_000, increment: 0 });
    /// ```
    pub fn berserk(self) -> Clock {
        Clock {
            base: self.base / 2,
            increment: 0,
        }
    }
}
