//! Arena tournaments, as lichess players know them: a fixed length, a player paired again as
//! soon as their game ends, 2 points a win and 1 a draw, streaks that count double, berserk
//! for an extra point, pause and come back.
//!
//! The crate holds the rules only: no I/O, no clock (every time is handed in, in Unix
//! milliseconds), nothing of the web server. The server keeps an [`Arena`] (or its rows),
//! calls [`Arena::pair`] whenever a player becomes free and [`Arena::finish`] when a game
//! ends; [`standings()`] recomputes the table from the players and the games alone.
//!
//! ```
//! use sowing_arena::*;
//!
//! let minute = 60_000;
//! let mut arena = Arena::new(Schedule { start: 0, end: 30 * minute });
//! for id in 1..=4 {
//!     arena.join(PlayerId(id), 1500 + id as i32, 0)?;
//! }
//! let games = arena.pair(0); // neighbours by rating: 4 and 3, 2 and 1
//! assert_eq!(games.len(), 2);
//! for game in &games {
//!     let berserk = Seats::new(true, false); // South played on half the clock
//!     arena.finish(game.id, GameResult::SouthWins, berserk, Seats::new(20, 19), 3 * minute)?;
//! }
//! let table = arena.standings();
//! assert_eq!(table[0].points, 3); // 2 for the win, 1 for the berserk
//! // The two winners meet next, the two losers too: never last game's opponent.
//! assert_eq!(arena.pair(3 * minute).len(), 2);
//! # Ok::<(), ArenaError>(())
//! ```
//!
//! # The rules
//!
//! **Scoring** ([`game_points`]): 2 points a win, 1 a draw, 0 a loss. After two wins in a row
//! a player is *on fire*: every further game counts double (4 a win, 2 a draw) until a game
//! is not won; a draw ends the streak like a loss. A player who *berserked* (played on half
//! their clock, [`Clock::berserk`]) gets one more point for a win if they made at least
//! [`BERSERK_MIN_MOVES`] (7) moves; the bonus is not doubled, so a game brings at most 5.
//!
//! **Standings** ([`standings()`]): by points, then *performance* — the mean over one's
//! games of the opponent's rating plus 500 for a win, minus 500 for a loss (lichess's
//! tie-break) — then rating, then id. Only games that ended by the end count (lichess:
//! games still going at the end are finished, but do not count).
//!
//! **Pairing** ([`pair`]): nothing before the start, nor in the last
//! [`PAIRING_CLOSES_BEFORE_END`] (30 s). The players waiting now (active, not in a game)
//! are ranked by points, then rating; neighbours meet (1–2, 3–4, …). Nobody meets the
//! opponent of their last game while anyone else waits; when that forbids the neighbours,
//! the pairing covering the most players with the smallest sum of squared distances in the
//! ranking is found as a maximum-weight matching. Two players who just met and are the only
//! ones waiting meet again only after [`REMATCH_AFTER`] (30 s). Seats: the lower balance
//! (South games minus North games) sits South, then the one who waited longer.
//!
//! **Pause and come back** ([`Arena::pause`], [`Arena::resume`]): a paused player is not
//! paired; a game they are playing goes on and counts. Coming back keeps their points and
//! their streak (as on lichess: the streak is read from their games, and a pause plays none).
//!
//! `docs/arena.md` in the repository gives the rules in full, the method, the bound on seat
//! balance and what is left out of lichess's rules.
#![warn(missing_docs)]

mod arena;
mod error;
mod model;
mod pairing;
mod scoring;
mod standings;

pub use arena::Arena;
pub use error::ArenaError;
pub use model::{
    Board, Clock, Finished, GameId, GameResult, Millis, Ongoing, Outcome, Player, PlayerId,
    Schedule, Seat, Seats, Status,
};
pub use pairing::{pair, Waiting, PAIRING_CLOSES_BEFORE_END, REMATCH_AFTER};
pub use scoring::{game_points, Streak, BERSERK_MIN_MOVES, FIRE_AFTER_WINS};
pub use standings::{standings, Standing, PERFORMANCE_SPREAD};
