//! The standings, recomputed from the players and the finished games.

use std::cmp::Reverse;
use std::collections::HashMap;

use crate::error::ArenaError;
use crate::model::{Finished, Outcome, Player, PlayerId, Schedule, Seat, Status};
use crate::scoring::{game_points, Streak};

/// What a win or a loss adds to (or takes from) the opponent's rating in the performance.
pub const PERFORMANCE_SPREAD: i64 = 500;

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The place, from 1; players level on points and performance share it.
    pub rank: usize,
    /// Who.
    pub player: PlayerId,
    /// The points: the sum of the sheet.
    pub points: u32,
    /// The points of each game that counts, in the order the games ended (lichess's sheet:
    /// `2 2 4 5 0 1`).
    pub sheet: Vec<u32>,
    /// Games that count.
    pub games: u32,
    /// Of which won.
    pub wins: u32,
    /// Of which drawn.
    pub draws: u32,
    /// Of which berserked.
    pub berserks: u32,
    /// Whether the player's next game counts double.
    pub on_fire: bool,
    /// The performance: the mean over the games that count of the opponent's rating, plus
    /// [`PERFORMANCE_SPREAD`] for a win and minus it for a loss, rounded down; `None` before
    /// the first game.
    pub performance: Option<i32>,
    /// Active or paused.
    pub status: Status,
}

/// One player's games read in order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Record {
    pub sheet: Vec<u32>,
    pub streak: Streak,
    pub wins: u32,
    pub draws: u32,
    pub berserks: u32,
    /// The sum of the opponents' ratings, plus or minus the spread.
    pub performance_sum: i64,
    /// The opponent of the last game finished, counted or not.
    pub last_opponent: Option<PlayerId>,
    /// South games minus North games, over every game finished.
    pub balance: i32,
}

impl Record {
    pub fn points(&self) -> u32 {
        self.sheet.iter().sum()
    }

    pub fn performance(&self) -> Option<i32> {
        let games = self.sheet.len() as i64;
        (games > 0).then(|| self.performance_sum.div_euclid(games) as i32)
    }
}

/// The players' index by id, refusing a repeated id.
pub(crate) fn index(players: &[Player]) -> Result<HashMap<PlayerId, usize>, ArenaError> {
    let mut index = HashMap::with_capacity(players.len());
    for (i, player) in players.iter().enumerate() {
        if index.insert(player.id, i).is_some() {
            return Err(ArenaError::DuplicatePlayer(player.id));
        }
    }
    Ok(index)
}

/// Reads the games, in order, into each player's record (in the order of `players`).
pub(crate) fn read(
    players: &[Player],
    games: &[Finished],
    schedule: Schedule,
) -> Result<Vec<Record>, ArenaError> {
    let index = index(players)?;
    let find = |player: PlayerId| {
        index
            .get(&player)
            .copied()
            .ok_or(ArenaError::UnknownPlayer(player))
    };
    let mut records = vec![Record::default(); players.len()];
    for game in games {
        let south = find(game.board.south)?;
        let north = find(game.board.north)?;
        if south == north {
            return Err(ArenaError::PlaysThemselves(game.board.south));
        }
        let counts = game.ended <= schedule.end;
        for (seat, me, them) in [(Seat::South, south, north), (Seat::North, north, south)] {
            let opponent_rating = i64::from(players[them].rating);
            let record = &mut records[me];
            record.last_opponent = Some(players[them].id);
            record.balance += if seat == Seat::South { 1 } else { -1 };
            if !counts {
                continue;
            }
            let outcome = game.result.for_seat(seat);
            let berserk = *game.berserk.get(seat);
            let points = game_points(outcome, record.streak, berserk, *game.moves.get(seat));
            record.sheet.push(points);
            record.streak = record.streak.after(outcome);
            record.berserks += u32::from(berserk);
            record.performance_sum += opponent_rating
                + match outcome {
                    Outcome::Win => {
                        record.wins += 1;
                        PERFORMANCE_SPREAD
                    }
                    Outcome::Draw => {
                        record.draws += 1;
                        0
                    }
                    Outcome::Loss => -PERFORMANCE_SPREAD,
                };
        }
    }
    Ok(records)
}

/// The standings, best first: by points, then performance (a player with games before one
/// without), then rating, then id. Every player is listed, paused ones too. Only the games
/// that ended by `schedule.end` count; `games` must be in the order they ended (the order of
/// each player's own games sets their streaks).
///
/// # Errors
///
/// A repeated player id, a game naming a player not in `players`, or a player on both seats.
///
/// # Examples
///
/// ```
/// use sowing_arena::*;
///
/// let players = [Player::new(PlayerId(1), 1500, 0), Player::new(PlayerId(2), 1600, 0)];
/// let game = Finished {
///     id: GameId(0),
///     board: Board { south: PlayerId(1), north: PlayerId(2) },
///     result: GameResult::SouthWins,
///     berserk: Seats::new(true, false),
///     moves: Seats::new(12, 11),
///     started: 0,
///     ended: 60_000,
/// };
/// let table = standings(&players, &[game], Schedule { start: 0, end: 600_000 })?;
/// assert_eq!((table[0].player, table[0].points), (PlayerId(1), 3)); // a berserk win
/// assert_eq!(table[0].performance, Some(2100)); // 1600 + 500
/// assert_eq!(table[1].performance, Some(1000)); // 1500 − 500
/// # Ok::<(), ArenaError>(())
/// ```
pub fn standings(
    players: &[Player],
    games: &[Finished],
    schedule: Schedule,
) -> Result<Vec<Standing>, ArenaError> {
    let records = read(players, games, schedule)?;
    let mut table: Vec<(i32, Standing)> = players
        .iter()
        .zip(records)
        .map(|(player, record)| {
            let games = record.sheet.len() as u32;
            let standing = Standing {
                rank: 0,
                player: player.id,
                points: record.points(),
                games,
                wins: record.wins,
                draws: record.draws,
                berserks: record.berserks,
                on_fire: record.streak.on_fire(),
                performance: record.performance(),
                status: player.status,
                sheet: record.sheet,
            };
            (player.rating, standing)
        })
        .collect();
    let level = |s: &Standing| (s.points, s.performance);
    table.sort_by_key(|(rating, s)| (Reverse(level(s)), Reverse(*rating), s.player));
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
