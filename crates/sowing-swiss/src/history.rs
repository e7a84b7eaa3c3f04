//! The rounds played, read into each player's record: points, games, byes, seats.

use std::collections::{HashMap, HashSet};

use crate::error::SwissError;
use crate::round::{GameResult, Pairing, Player, PlayerId, Seat};

/// One game from one player's side.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Played {
    /// The opponent, as an index into the players.
    pub opponent: usize,
    /// The half-points this player took from the game: 2, 1 or 0.
    pub took: u32,
}

/// What one player has done so far.
#[derive(Clone, Debug, Default)]
pub(crate) struct Record {
    /// Points in half-points, byes included.
    pub points: u32,
    /// The games played, in order.
    pub games: Vec<Played>,
    /// The seats of those games, in order (byes and absences have none).
    pub seats: Vec<Seat>,
    /// Byes received.
    pub byes: u32,
}

/// The players and what they have done, checked.
pub(crate) struct History {
    pub records: Vec<Record>,
    /// Pairs of player indices (smaller first) who have met.
    pub met: HashSet<(usize, usize)>,
    /// Each player's pairing number from 0: the place in the initial order (rating, highest
    /// first, then id).
    pub number: Vec<usize>,
    /// How many rounds have been played.
    pub rounds: usize,
}

impl History {
    /// Whether two players (indices) have met.
    pub fn have_met(&self, a: usize, b: usize) -> bool {
        self.met.contains(&(a.min(b), a.max(b)))
    }
}

/// Reads the rounds, refusing unknown players, a player twice in a round, and a player in a
/// round before the one they joined in.
pub(crate) fn read(players: &[Player], rounds: &[Vec<Pairing>]) -> Result<History, SwissError> {
    let mut index = HashMap::with_capacity(players.len());
    for (i, player) in players.iter().enumerate() {
        if index.insert(player.id, i).is_some() {
            return Err(SwissError::DuplicatePlayer(player.id));
        }
    }
    let mut records = vec![Record::default(); players.len()];
    let mut met = HashSet::new();
    for (round, pairings) in rounds.iter().enumerate() {
        let mut seen = HashSet::new();
        let mut enter = |player: PlayerId| -> Result<usize, SwissError> {
            let &i = index
                .get(&player)
                .ok_or(SwissError::UnknownPlayer { round, player })?;
            if !seen.insert(i) {
                return Err(SwissError::PlaysTwice { round, player });
            }
            if round < players[i].joined {
                return Err(SwissError::BeforeJoining { round, player });
            }
            Ok(i)
        };
        for pairing in pairings {
            match *pairing {
                Pairing::Bye(player) => {
                    let i = enter(player)?;
                    records[i].points += 2;
                    records[i].byes += 1;
                }
                Pairing::Game {
                    south,
                    north,
                    result,
                } => {
                    let s = enter(south)?;
                    let n = enter(north)?;
                    let (south_took, north_took) = match result {
                        GameResult::SouthWins => (2, 0),
                        GameResult::NorthWins => (0, 2),
                        GameResult::Draw => (1, 1),
                    };
                    for (me, opponent, took, seat) in [
                        (s, n, south_took, Seat::South),
                        (n, s, north_took, Seat::North),
                    ] {
                        let record = &mut records[me];
                        record.points += took;
                        record.games.push(Played { opponent, took });
                        record.seats.push(seat);
                    }
                    met.insert((s.min(n), s.max(n)));
                }
            }
        }
    }
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(players[i].rating), players[i].id));
    let mut number = vec![0; players.len()];
    for (place, &i) in order.iter().enumerate() {
        number[i] = place;
    }
    Ok(History {
        records,
        met,
        number,
        rounds: rounds.len(),
    })
}
