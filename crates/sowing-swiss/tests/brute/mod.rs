//! A reference for the property tests, written apart from the crate's matching: what the
//! rounds say about each player (read again from the rounds, not through the crate), and an
//! exhaustive search over every way of pairing a small field.

use std::cmp::Reverse;
use std::collections::{HashMap, HashSet};

use sowing_swiss::{GameResult, Pairing, PlayerId};

/// South or North, as +1 or −1.
pub type Side = i32;

/// What the rounds say about each player.
#[derive(Default)]
pub struct Model {
    pub points: HashMap<PlayerId, u32>,
    pub byes: HashMap<PlayerId, u32>,
    pub seats: HashMap<PlayerId, Vec<Side>>,
    met: HashSet<(PlayerId, PlayerId)>,
}

impl Model {
    pub fn read(rounds: &[Vec<Pairing>]) -> Model {
        let mut model = Model::default();
        for pairing in rounds.iter().flatten() {
            match *pairing {
                Pairing::Bye(p) => {
                    *model.points.entry(p).or_default() += 2;
                    *model.byes.entry(p).or_default() += 1;
                }
                Pairing::Game {
                    south,
                    north,
                    result,
                } => {
                    let (s, n) = match result {
                        GameResult::SouthWins => (2, 0),
                        GameResult::NorthWins => (0, 2),
                        GameResult::Draw => (1, 1),
                    };
                    *model.points.entry(south).or_default() += s;
                    *model.points.entry(north).or_default() += n;
                    model.seats.entry(south).or_default().push(1);
                    model.seats.entry(north).or_default().push(-1);
                    model.met.insert((south, north));
                    model.met.insert((north, south));
                }
            }
        }
        model
    }

    pub fn points(&self, p: PlayerId) -> u32 {
        self.points.get(&p).copied().unwrap_or(0)
    }

    pub fn byes(&self, p: PlayerId) -> u32 {
        self.byes.get(&p).copied().unwrap_or(0)
    }

    pub fn met(&self, a: PlayerId, b: PlayerId) -> bool {
        self.met.contains(&(a, b))
    }

    pub fn seats(&self, p: PlayerId) -> &[Side] {
        self.seats.get(&p).map_or(&[], Vec::as_slice)
    }

    /// The seat a player must have to keep within the limits (a difference of ±2, two games
    /// on the same seat in a row), if any: the difference first, then the last two seats.
    pub fn must(&self, p: PlayerId) -> Option<Side> {
        must(self.seats(p))
    }

    /// Whether two players both must have the same seat.
    pub fn clash(&self, a: PlayerId, b: PlayerId) -> bool {
        matches!((self.must(a), self.must(b)), (Some(x), Some(y)) if x == y)
    }
}

/// The seat needed to stay within the limits after these seats, if any.
pub fn must(seats: &[Side]) -> Option<Side> {
    let difference: i32 = seats.iter().sum();
    if difference >= 2 {
        Some(-1)
    } else if difference <= -2 {
        Some(1)
    } else if let [.., x, y] = seats {
        (x == y).then_some(-y)
    } else {
        None
    }
}

/// Whether a run of seats keeps within the limits: every running difference within ±2, never
/// three in a row on one seat.
pub fn within_limits(seats: &[Side]) -> bool {
    let mut difference = 0;
    seats.iter().enumerate().all(|(i, &seat)| {
        difference += seat;
        difference.abs() <= 2 && !(i >= 2 && seats[i - 1] == seat && seats[i - 2] == seat)
    })
}

/// How good a round is, by the criteria the crate puts first, in order: players covered (a
/// game or the bye), seat clashes, the bye's points, the total score difference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Quality {
    pub covered: Reverse<usize>,
    pub clashes: usize,
    pub bye_points: u32,
    pub difference: u32,
}

pub fn quality(model: &Model, games: &[(PlayerId, PlayerId)], bye: Option<PlayerId>) -> Quality {
    Quality {
        covered: Reverse(2 * games.len() + usize::from(bye.is_some())),
        clashes: games.iter().filter(|&&(a, b)| model.clash(a, b)).count(),
        bye_points: bye.map_or(0, |p| model.points(p)),
        difference: games
            .iter()
            .map(|&(a, b)| model.points(a).abs_diff(model.points(b)))
            .sum(),
    }
}

/// The best quality over every way of pairing `active`: each player left out, given the bye
/// (when the count is odd and they have had none) or paired with anyone not met yet.
pub fn best(model: &Model, active: &[PlayerId]) -> Quality {
    struct Search<'m> {
        model: &'m Model,
        active: &'m [PlayerId],
        bye_allowed: bool,
        taken: Vec<bool>,
        games: Vec<(PlayerId, PlayerId)>,
        bye: Option<PlayerId>,
        best: Option<Quality>,
    }
    impl Search<'_> {
        fn go(&mut self) {
            let Some(i) = self.taken.iter().position(|t| !t) else {
                let q = quality(self.model, &self.games, self.bye);
                if self.best.is_none_or(|b| q < b) {
                    self.best = Some(q);
                }
                return;
            };
            let p = self.active[i];
            self.taken[i] = true;
            // Left out.
            self.go();
            // The bye.
            if self.bye_allowed && self.bye.is_none() && self.model.byes(p) == 0 {
                self.bye = Some(p);
                self.go();
                self.bye = None;
            }
            // A game.
            for j in i + 1..self.active.len() {
                let q = self.active[j];
                if !self.taken[j] && !self.model.met(p, q) {
                    self.taken[j] = true;
                    self.games.push((p, q));
                    self.go();
                    self.games.pop();
                    self.taken[j] = false;
                }
            }
            self.taken[i] = false;
        }
    }
    let mut search = Search {
        model,
        active,
        bye_allowed: !active.len().is_multiple_of(2),
        taken: vec![false; active.len()],
        games: Vec::new(),
        bye: None,
        best: None,
    };
    search.go();
    search.best.expect("leaving everyone out is a pairing")
}
