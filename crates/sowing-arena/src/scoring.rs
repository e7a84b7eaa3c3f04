//! The points of one game: 2 a win, 1 a draw, doubled on fire, one more for a berserk win.

use crate::model::Outcome;

/// The fewest moves a berserker must make for a won game to bring the berserk point (lichess
/// asks for 7). A win by an early resignation or a flag fall therefore brings no bonus.
pub const BERSERK_MIN_MOVES: u32 = 7;

/// Consecutive wins after which a player is on fire: every further game counts double until
/// one is not won.
pub const FIRE_AFTER_WINS: u32 = 2;

/// What a player brings into a game, and takes from it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Streak {
    /// Games won in a row, up to now.
    pub wins: u32,
}

impl Streak {
    /// Whether the next game counts double: the last [`FIRE_AFTER_WINS`] games were won.
    pub fn on_fire(self) -> bool {
        self.wins >= FIRE_AFTER_WINS
    }

    /// The streak after a game: one more win, or back to nothing after a draw or a loss.
    pub fn after(self, outcome: Outcome) -> Streak {
        match outcome {
            Outcome::Win => Streak {
                wins: self.wins + 1,
            },
            Outcome::Draw | Outcome::Loss => Streak::default(),
        }
    }
}

/// The points one player takes from one game: 2 a win, 1 a draw, 0 a loss, doubled when the
/// player came into the game on fire (`streak`); then one more for a win when the player
/// berserked and made at least [`BERSERK_MIN_MOVES`] moves. The bonus is not doubled, so a
/// game brings at most 4 + 1.
///
/// ```
/// use sowing_arena::{game_points, Outcome, Streak};
///
/// let cold = Streak::default();
/// let hot = Streak { wins: 2 };
/// assert_eq!(game_points(Outcome::Win, cold, false, 30), 2);
/// assert_eq!(game_points(Outcome::Draw, hot, false, 30), 2);
/// assert_eq!(game_points(Outcome::Win, hot, true, 30), 5);
/// assert_eq!(game_points(Outcome::Win, cold, true, 6), 2); // too few moves for the bonus
/// ```
pub fn game_points(outcome: Outcome, streak: Streak, berserk: bool, moves: u32) -> u32 {
    let base = match outcome {
        Outcome::Win => 2,
        Outcome::Draw => 1,
        Outcome::Loss => 0,
    };
    let doubled = if streak.on_fire() { base * 2 } else { base };
    let bonus = outcome == Outcome::Win && berserk && moves >= BERSERK_MIN_MOVES;
    doubled + u32::from(bonus)
}
