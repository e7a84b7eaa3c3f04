//! A live game's clock, kept by the server as plain numbers (so that any store can keep it):
//! each side's time left, the increment, and the moment the running clock started. Times
//! are Unix milliseconds, passed in, so that the rules below are tested without waiting.
//!
//! The clock starts with the first move: South's first move is free, then the clock of the
//! side to move runs. After each move made while the mover's clock ran, the increment is
//! added to the mover's time (an extra turn is a move of its own). A correspondence clock
//! (`per_move`) instead gives the mover its whole time back after each move: so many days
//! for every move.

use sowing::Side;

/// The clock state of a live game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiveClock {
    /// Each side's time at the start, milliseconds.
    pub base_ms: i64,
    /// Added to the mover's time after each timed move, milliseconds.
    pub increment_ms: i64,
    /// Time left (South, North) when the running clock last started or stopped.
    pub remaining_ms: [i64; 2],
    /// When the side to move's clock started, or `None` while it is stopped (before the
    /// first move, once the game is over).
    pub running_since: Option<i64>,
    /// Correspondence: `base_ms` for each move, given back whole after every move.
    pub per_move: bool,
}

impl LiveClock {
    /// A stopped clock giving both sides `base_ms`.
    pub fn new(base_ms: i64, increment_ms: i64) -> LiveClock {
        LiveClock {
            base_ms,
            increment_ms,
            remaining_ms: [base_ms, base_ms],
            running_since: None,
            per_move: false,
        }
    }

    /// A stopped correspondence clock: `days` days for each move.
    pub fn days_per_move(days: i64) -> LiveClock {
        LiveClock {
            per_move: true,
            ..LiveClock::new(days * 86_400_000, 0)
        }
    }

    /// The same time control on a fresh, stopped clock (a rematch, a match's next round).
    pub fn fresh(&self) -> LiveClock {
        LiveClock {
            per_move: self.per_move,
            ..LiveClock::new(self.base_ms, self.increment_ms)
        }
    }

    /// Each side's time left at `now`, the running side (`to_move`) charged; never below 0.
    pub fn left(&self, to_move: Side, now: i64) -> [i64; 2] {
        let mut left = self.remaining_ms;
        if let Some(since) = self.running_since {
            let side = &mut left[to_move.index()];
            *side = (*side - (now - since).max(0)).max(0);
        }
        left
    }

    /// When the running side's time runs out, if its clock runs.
    pub fn flag_at(&self, to_move: Side) -> Option<i64> {
        self.running_since
            .map(|since| since + self.remaining_ms[to_move.index()])
    }

    /// Whether the side to move has no time left at `now`.
    pub fn flagged(&self, to_move: Side, now: i64) -> bool {
        self.flag_at(to_move).is_some_and(|at| now >= at)
    }

    /// Stops the clock at `now`, charging the running side.
    pub fn stop(&mut self, to_move: Side, now: i64) {
        self.remaining_ms = self.left(to_move, now);
        self.running_since = None;
    }

    /// `mover` has moved at `now`: its time is charged and, if its clock ran, the increment
    /// added; the next side's clock then runs if the game goes on.
    pub fn after_move(&mut self, mover: Side, now: i64, goes_on: bool) {
        let ran = self.running_since.is_some();
        self.stop(mover, now);
        if self.per_move {
            self.remaining_ms[mover.index()] = self.base_ms;
        } else if ran {
            self.remaining_ms[mover.index()] += self.increment_ms;
        }
        self.running_since = goes_on.then_some(now);
    }

    /// Starts the side to move's clock at `now` (after a takeback: the clock runs from the
    /// position taken back to, unless no move is left in the game).
    pub fn restart(&mut self, now: i64, runs: bool) {
        self.running_since = runs.then_some(now);
    }
}

/// Where the server reads the time for its clocks: the system's, or one a test moves by
/// hand (so that a flag falls without waiting).
#[derive(Clone, Debug, Default)]
pub enum TimeSource {
    /// The system's clock ([`now_ms`]).
    #[default]
    System,
    /// Unix milliseconds held here, changed only by whoever holds the other handle.
    Manual(std::sync::Arc<std::sync::atomic::AtomicI64>),
}

impl TimeSource {
    /// The time now, Unix milliseconds.
    pub fn now_ms(&self) -> i64 {
        match self {
            TimeSource::System => now_ms(),
            TimeSource::Manual(ms) => ms.load(std::sync::atomic::Ordering::SeqCst),
        }
    }
}

/// The time now, Unix milliseconds.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_starts_after_the_first_move_and_adds_the_increment_after_timed_moves() {
        let mut clock = LiveClock::new(5_000, 1_000);
        assert_eq!(clock.left(Side::South, 99_000), [5_000, 5_000]);
        clock.after_move(Side::South, 100_000, true);
        // The first move was free: no increment for it.
        assert_eq!(clock.remaining_ms, [5_000, 5_000]);
        assert_eq!(clock.left(Side::North, 102_500), [5_000, 2_500]);
        clock.after_move(Side::North, 102_500, true);
        assert_eq!(clock.remaining_ms, [5_000, 3_500]);
        assert_eq!(clock.flag_at(Side::South), Some(107_500));
        assert!(!clock.flagged(Side::South, 107_499));
        assert!(clock.flagged(Side::South, 107_500));
        assert_eq!(clock.left(Side::South, 200_000), [0, 3_500]);
    }

    #[test]
    fn a_stopped_clock_keeps_its_times_and_a_game_over_stops_it() {
        let mut clock = LiveClock::new(60_000, 0);
        clock.after_move(Side::South, 0, true);
        clock.after_move(Side::North, 10_000, false);
        assert_eq!(clock.running_since, None);
        assert_eq!(clock.remaining_ms, [60_000, 50_000]);
        assert!(!clock.flagged(Side::South, 1_000_000));
        clock.restart(20_000, true);
        assert_eq!(clock.left(Side::North, 25_000), [60_000, 45_000]);
    }
}
