//! The standings: points, Buchholz, Sonneborn–Berger, recomputed from the rounds.

use std::cmp::Reverse;

use crate::error::SwissError;
use crate::history;
use crate::points::{HalfPoints, QuarterPoints};
use crate::round::{Pairing, Player, PlayerId};

/// One line of the standings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The place, from 1; players level on points and both tie-breaks share it.
    pub rank: usize,
    /// Who.
    pub player: PlayerId,
    /// 1 a win, ½ a draw, 1 a bye.
    pub points: HalfPoints,
    /// The sum of the points of every opponent played (their points now), once per game; a
    /// bye adds nothing.
    pub buchholz: HalfPoints,
    /// The sum of the points of every opponent beaten, and half those of every opponent
    /// drawn (their points now); a bye adds nothing.
    pub sonneborn_berger: QuarterPoints,
    /// Games played (byes not counted).
    pub games: u32,
    /// Byes received.
    pub byes: u32,
    /// Whether the player has withdrawn.
    pub withdrawn: bool,
}

/// The standings after `rounds`, best first: by points, then Buchholz, then
/// Sonneborn–Berger, then the initial order (rating, then id). Every player is listed,
/// withdrawn ones too.
///
/// # Errors
///
/// When the players or rounds are inconsistent (see [`SwissError`]).
///
/// # Examples
///
/// ```
/// use sowing_swiss::{standings, GameResult, Pairing, Player, PlayerId};
///
/// let players: Vec<Player> = (1..=3).map(|id| Player::new(PlayerId(id), 1500)).collect();
/// let round = vec![
///     Pairing::Game { south: PlayerId(1), north: PlayerId(2), result: GameResult::Draw },
///     Pairing::Bye(PlayerId(3)),
/// ];
/// let table = standings(&players, &[round])?;
/// assert_eq!(table[0].player, PlayerId(3));
/// assert_eq!(table[1].points.to_string(), "0.5");
/// assert_eq!(table[1].buchholz.to_string(), "0.5");
/// # Ok::<(), sowing_swiss::SwissError>(())
/// ```
pub fn standings(players: &[Player], rounds: &[Vec<Pairing>]) -> Result<Vec<Standing>, SwissError> {
    let history = history::read(players, rounds)?;
    let records = &history.records;
    let mut table: Vec<(usize, Standing)> = players
        .iter()
        .enumerate()
        .map(|(i, player)| {
            let record = &records[i];
            let buchholz = record
                .games
                .iter()
                .map(|game| records[game.opponent].points)
                .sum();
            // A win brings the opponent's half-points twice in quarter-points, a draw once.
            let sonneborn_berger = record
                .games
                .iter()
                .map(|game| records[game.opponent].points * game.took)
                .sum();
            let standing = Standing {
                rank: 0,
                player: player.id,
                points: HalfPoints(record.points),
                buchholz: HalfPoints(buchholz),
                sonneborn_berger: QuarterPoints(sonneborn_berger),
                games: record.games.len() as u32,
                byes: record.byes,
                withdrawn: player.withdrawn,
            };
            (i, standing)
        })
        .collect();
    let level = |s: &Standing| (s.points, s.buchholz, s.sonneborn_berger);
    table.sort_by_key(|(i, s)| (Reverse(level(s)), history.number[*i]));
    let mut rank = 0;
    let mut previous = None;
    for (place, (_, standing)) in table.iter_mut().enumerate() {
        if previous != Some(level(standing)) {
            rank = place + 1;
            previous = Some(level(standing));
        }
        standing.rank = rank;
    }
    Ok(table.into_iter().map(|(_, standing)| standing).collect())
}
