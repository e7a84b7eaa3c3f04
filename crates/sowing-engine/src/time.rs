//! Time management: how long one move may take, from a clock with an increment or a fixed
//! time a move ([`Limits::move_time`]).

use std::time::Duration;

use sowing::Side;

use crate::Limits;

/// One side's clock in a game with a time control.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub left: Duration,
    /// Time added to the clock after each move.
    pub increment: Duration,
}

impl Clock {
    /// The time to spend on the next move: a twentieth of the time left plus three
    /// quarters of the increment, never more than a third of the time left, and at least
    /// a millisecond. Whole milliseconds, as a protocol gives them.
    ///
    /// ```
    /// use std::time::Duration;
    /// use sowing_engine::Clock;
    ///
    /// let clock = Clock { left: Duration::from_secs(60), increment: Duration::from_secs(1) };
    /// assert_eq!(clock.budget(), Duration::from_millis(3_750));
    /// ```
    pub fn budget(self) -> Duration {
        let millis = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let (left, increment) = (millis(self.left), millis(self.increment));
        let budget = (left / 20)
            .saturating_add(increment.saturating_mul(3) / 4)
            .min(left / 3)
            .max(1);
        Duration::from_millis(budget)
    }
}

impl Limits {
    /// The limits of a move given as the command line and Python give them (milliseconds,
    /// nodes, plies), or `default_ms` milliseconds when none is (a match's is
    /// [`crate::arena::MATCH_MOVETIME_MS`]).
    pub fn given_or(
        movetime: Option<u64>,
        nodes: Option<u64>,
        depth: Option<u32>,
        default_ms: u64,
    ) -> Limits {
        let millis = match (movetime, nodes, depth) {
            (None, None, None) => Some(default_ms),
            (movetime, ..) => movetime,
        };
        Limits {
            time: millis.map(Duration::from_millis),
            nodes,
            depth,
            ..Limits::default()
        }
    }

    /// The time `side` may spend on this move: its clock's [`Clock::budget`] when its clock
    /// is given (a clock wins over a fixed time), else the fixed time, if any.
    pub fn move_time(&self, side: Side) -> Option<Duration> {
        self.clock[side].map(Clock::budget).or(self.time)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sowing::BySide;

    fn clock(left_ms: u64, increment_ms: u64) -> Clock {
        Clock {
            left: Duration::from_millis(left_ms),
            increment: Duration::from_millis(increment_ms),
        }
    }

    #[test]
    fn a_twentieth_of_the_time_left_and_most_of_the_increment() {
        assert_eq!(clock(60_000, 0).budget(), Duration::from_millis(3_000));
        assert_eq!(clock(60_000, 1_000).budget(), Duration::from_millis(3_750));
        // Never more than a third of what is left, never nothing.
        assert_eq!(clock(3_000, 10_000).budget(), Duration::from_millis(1_000));
        assert_eq!(clock(0, 0).budget(), Duration::from_millis(1));
        // Absurd numbers from a protocol do not overflow.
        assert!(clock(u64::MAX, u64::MAX).budget() <= Duration::from_millis(u64::MAX / 3));
    }

    #[test]
    fn the_clock_of_the_side_to_move_wins_over_a_fixed_time() {
        let limits = Limits {
            time: Some(Duration::from_millis(500)),
            clock: BySide::new(Some(clock(40_000, 0)), None),
            ..Limits::default()
        };
        assert_eq!(
            limits.move_time(Side::South),
            Some(Duration::from_millis(2_000))
        );
        assert_eq!(
            limits.move_time(Side::North),
            Some(Duration::from_millis(500))
        );
        assert_eq!(Limits::default().move_time(Side::North), None);
    }
}
