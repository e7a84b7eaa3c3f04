//! A tournament's rows read as the rules crates' inputs: an arena as `sowing_arena` keeps
//! it, a Swiss's players and rounds as `sowing_swiss` reads them. Accounts are the players'
//! ids. Pure: the director pairs from these, and the views rank from them, so that a page
//! shows what the director decides on.

use sowing_arena as arena;
use sowing_swiss as swiss;

use crate::store::{BoardRow, EntrantRow, TournamentRow};

/// How long a Swiss waits between a round's last result and the next round's pairing:
/// time to look at the standings.
pub const ROUND_GAP_MS: i64 = 10_000;

fn millis(ms: i64) -> arena::Millis {
    u64::try_from(ms).unwrap_or(0)
}

fn account(id: u64) -> i64 {
    i64::try_from(id).unwrap_or(i64::MAX)
}

fn rating(entrant: &EntrantRow) -> i32 {
    i32::try_from(entrant.rating).unwrap_or(1500)
}

/// An arena's schedule.
pub fn schedule(row: &TournamentRow) -> arena::Schedule {
    arena::Schedule {
        start: millis(row.starts_ms),
        end: millis(row.ends_ms().unwrap_or(row.starts_ms)),
    }
}

fn arena_result(result: &str) -> Option<arena::GameResult> {
    match result {
        "south" => Some(arena::GameResult::SouthWins),
        "north" => Some(arena::GameResult::NorthWins),
        "draw" => Some(arena::GameResult::Draw),
        _ => None,
    }
}

/// The arena of `row`, its players and boards.
///
/// # Errors
/// When the rows do not make an arena (a board naming a player not in it, a player in two
/// games at once): a corrupted tournament.
pub fn arena_of(
    row: &TournamentRow,
    players: &[EntrantRow],
    boards: &[BoardRow],
) -> Result<arena::Arena, String> {
    let mut finished = Vec::new();
    let mut ongoing = Vec::new();
    for board in boards {
        let (Some(north), Ok(id)) = (board.north, u64::try_from(board.board)) else {
            continue;
        };
        let seats = arena::Board {
            south: arena::PlayerId(board.south as u64),
            north: arena::PlayerId(north as u64),
        };
        match (
            board.result.as_deref().and_then(arena_result),
            board.ended_ms,
        ) {
            (Some(result), Some(ended)) => finished.push(arena::Finished {
                id: arena::GameId(id),
                board: seats,
                result,
                berserk: arena::Seats::new(board.berserk[0], board.berserk[1]),
                moves: arena::Seats::new(board.moves[0], board.moves[1]),
                started: millis(board.started_ms),
                ended: millis(ended),
            }),
            _ => ongoing.push(arena::Ongoing {
                id: arena::GameId(id),
                board: seats,
                started: millis(board.started_ms),
            }),
        }
    }
    finished.sort_by_key(|g| (g.ended, g.id));
    let entrants = players
        .iter()
        .map(|p| {
            let last_game = boards
                .iter()
                .filter(|b| b.south == p.account || b.north == Some(p.account))
                .filter_map(|b| b.ended_ms)
                .max()
                .unwrap_or(0);
            arena::Player {
                id: arena::PlayerId(p.account as u64),
                rating: rating(p),
                joined: millis(p.joined_ms),
                status: if p.status == "active" {
                    arena::Status::Active
                } else {
                    arena::Status::Paused
                },
                free_since: millis(p.since_ms.max(last_game)),
            }
        })
        .collect();
    arena::Arena::restore(schedule(row), entrants, finished, ongoing).map_err(|e| e.to_string())
}

/// A Swiss's players as the pairing reads them.
pub fn swiss_players(players: &[EntrantRow]) -> Vec<swiss::Player> {
    players
        .iter()
        .map(|p| swiss::Player {
            id: swiss::PlayerId(p.account as u64),
            rating: rating(p),
            withdrawn: p.status != "active",
            joined: usize::try_from(p.joined_round).unwrap_or(0),
        })
        .collect()
}

/// A Swiss's rounds as far as they are played: every bye, and every game with a result
/// (a round in progress lists its games over).
pub fn swiss_rounds(boards: &[BoardRow]) -> Vec<Vec<swiss::Pairing>> {
    let last = boards.iter().map(|b| b.round).max().unwrap_or(0);
    (1..=last)
        .map(|round| {
            boards
                .iter()
                .filter(|b| b.round == round)
                .filter_map(|b| {
                    let south = swiss::PlayerId(b.south as u64);
                    let result = match (b.result.as_deref(), b.north) {
                        (Some("bye"), _) => return Some(swiss::Pairing::Bye(south)),
                        (Some("south"), Some(_)) => swiss::GameResult::SouthWins,
                        (Some("north"), Some(_)) => swiss::GameResult::NorthWins,
                        (Some("draw"), Some(_)) => swiss::GameResult::Draw,
                        _ => return None,
                    };
                    Some(swiss::Pairing::Game {
                        south,
                        north: swiss::PlayerId(b.north? as u64),
                        result,
                    })
                })
                .collect()
        })
        .collect()
}

/// An arena player's account.
pub fn arena_account(id: arena::PlayerId) -> i64 {
    account(id.0)
}

/// A Swiss player's account.
pub fn swiss_account(id: swiss::PlayerId) -> i64 {
    account(id.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(round: i64, n: i64, south: i64, north: Option<i64>, result: Option<&str>) -> BoardRow {
        BoardRow {
            round,
            board: n,
            game_id: north.map(|_| 100 + n),
            south,
            north,
            result: result.map(str::to_owned),
            berserk: [false, false],
            moves: [0, 0],
            started_ms: 0,
            ended_ms: result.map(|_| 10),
        }
    }

    #[test]
    fn a_swiss_round_in_progress_lists_only_its_games_over_and_its_bye() {
        let boards = [
            board(1, 1, 1, Some(2), Some("north")),
            board(1, 2, 3, None, Some("bye")),
            board(2, 1, 2, Some(3), None),
        ];
        let rounds = swiss_rounds(&boards);
        assert_eq!(rounds.len(), 2);
        assert_eq!(
            rounds[0],
            vec![
                swiss::Pairing::Game {
                    south: swiss::PlayerId(1),
                    north: swiss::PlayerId(2),
                    result: swiss::GameResult::NorthWins
                },
                swiss::Pairing::Bye(swiss::PlayerId(3)),
            ]
        );
        assert!(rounds[1].is_empty());
    }
}
