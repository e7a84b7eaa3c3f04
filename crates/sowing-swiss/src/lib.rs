//! Swiss-system tournaments: the pairings of the next round, and the standings.
//!
//! Give it the players and the rounds played so far; [`pair_next`] returns who plays whom
//! in the next round, who sits South (the first mover) and who North, and at most one bye.
//! [`standings()`] ranks the players by points, Buchholz and Sonneborn–Berger. Both are pure
//! functions of their input, so anyone holding the rounds can recompute them.
//!
//! ```
//! use sowing_swiss::{pair_next, standings, GameResult, Pairing, Player, PlayerId};
//!
//! let players: Vec<Player> = (1..=4)
//!     .map(|id| Player::new(PlayerId(id), 2000 - id as i32))
//!     .collect();
//! let mut rounds: Vec<Vec<Pairing>> = Vec::new();
//! for _ in 0..3 {
//!     let next = pair_next(&players, &rounds)?;
//!     assert_eq!(next.boards.len(), 2);
//!     // Here the games are played; South wins them all.
//!     let results = next.boards.iter().map(|b| b.with_result(GameResult::SouthWins));
//!     rounds.push(results.collect());
//! }
//! let table = standings(&players, &rounds)?;
//! assert_eq!(table.len(), 4);
//! println!("{} leads with {} points", table[0].player, table[0].points);
//! # Ok::<(), sowing_swiss::SwissError>(())
//! ```
//!
//! # The rules
//!
//! The main rules of the FIDE Dutch system, with South for White:
//!
//! - Paired are the players not withdrawn whose first round has come ([`Player::joined`]).
//!   A late joiner starts with zero points: a round a player was absent from scores nothing.
//! - Two players never meet twice.
//! - With an odd count, one player gets the bye: one point, no game, at most once per
//!   player, to a player of the lowest score group possible (the lowest-ranked there).
//! - Players are ranked by points, then by the initial order (rating, highest first, then
//!   id). They are paired inside their score group as far as possible; when a group cannot
//!   be paired within itself, players float to the next group, keeping the total of the
//!   score differences as small as possible, and among equal totals several short floats
//!   rather than one long one. Inside a group the top half meets the bottom half (1 against
//!   the first of the bottom half, 2 against the second, …), and the lowest players float.
//! - Seats: a player's difference (South games minus North games) stays within ±2 and
//!   nobody sits on the same seat three games running, unless no pairing allows it; each
//!   player's due seat is met where possible; when two players are due the same seat, the
//!   stronger claim wins, then the two alternate from the last game they sat on different
//!   seats, then the higher-ranked player gets theirs.
//! - When no pairing of everyone exists (every remaining opponent already met), as many
//!   players as possible are paired and the rest are [`NextRound::unpaired`].
//!
//! # The method
//!
//! The round is one maximum-weight matching (the blossom algorithm, from the crate
//! `integer-blossom`) on the graph of allowed pairs: players who have met are not joined,
//! and an extra vertex stands for the bye when the count is odd, joined to the players who
//! have not had one. Each edge's weight packs, from the most significant criterion down: as
//! many players as possible get a game or the bye; as few seat clashes beyond the limits as
//! possible; the lowest score for the bye; the smallest total score difference, then the
//! smallest sum of squared differences, then floats from the lower groups rather than the
//! higher; as many seat preferences met as possible; the Dutch order. Each criterion's
//! scale is above what all the criteria below it can add up to over a whole round, so the
//! heaviest matching is the best by those criteria taken in order. `docs/swiss.md` in the
//! repository gives the weights in full and what is left out of the FIDE rules.
//!
//! # The standings
//!
//! Points are counted exactly, in half-points ([`HalfPoints`]): 1 for a win, ½ for a draw,
//! 1 for a bye. The tie-breaks, in order: **Buchholz**, the sum of the current points of
//! every opponent played, once per game; **Sonneborn–Berger**, the sum of the current points
//! of every opponent beaten plus half those of every opponent drawn ([`QuarterPoints`]). A
//! bye adds nothing to either (there is no opponent), and a withdrawn opponent counts with
//! the points they have. Players level on all three share a rank, listed in the initial
//! order.
#![warn(missing_docs)]

mod error;
mod history;
mod pairing;
mod points;
mod round;
mod seats;
mod standings;

pub use error::SwissError;
pub use pairing::pair_next;
pub use points::{HalfPoints, QuarterPoints};
pub use round::{Board, GameResult, NextRound, Pairing, Player, PlayerId, Seat};
pub use standings::{standings, Standing};
