//! A second, naive implementation of RULES.md, written for clarity only, and a seeded
//! random-game helper. The fast rules must agree with it move for move.

#![allow(dead_code)]

use std::collections::HashSet;

use sowing::{CasaRows, FinalFour, Game, Leftover, Position, Rules, Side, Variant};

/// A position as plain data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Naive {
    pub rules: Rules,
    pub pits: Vec<u32>,
    pub captured: [u32; 2],
    /// 0 South, 1 North.
    pub to_move: usize,
    pub last_sower: Option<usize>,
}

fn side_index(side: Side) -> usize {
    side.index()
}

impl Naive {
    pub fn of(position: &Position) -> Naive {
        Naive {
            rules: position.rules(),
            pits: position.pits().iter().map(|&s| u32::from(s)).collect(),
            captured: [
                position.captured().south.into(),
                position.captured().north.into(),
            ],
            to_move: side_index(position.to_move()),
            last_sower: position.last_sower().map(side_index),
        }
    }

    fn n(&self) -> usize {
        self.rules.pits_per_row()
    }

    fn owner(&self, pit: usize) -> usize {
        pit / self.n()
    }

    fn row_seeds(&self, side: usize) -> u32 {
        self.pits[side * self.n()..(side + 1) * self.n()]
            .iter()
            .sum()
    }

    fn board(&self) -> u32 {
        self.pits.iter().sum()
    }

    fn hoyito(&self) -> bool {
        self.rules.variant() != Variant::Ayoayo
    }

    fn casa(&self, pit: usize, mover: usize) -> bool {
        self.rules.casa_rows == CasaRows::Any || self.owner(pit) != mover
    }

    /// The laps from `pit`: the end pit, or None if the sowing does not end within 65,536
    /// laps (C.1, revised 2026-12-01); a state that recurs proves it never ends.
    fn sow(&mut self, pit: usize) -> Option<usize> {
        let ring = self.pits.len();
        let mover = self.to_move;
        let mut from = pit;
        let mut states = HashSet::new();
        for _lap in 1..=65_536 {
            let seeds = std::mem::take(&mut self.pits[from]);
            let mut at = from;
            for _ in 0..seeds {
                at = (at + 1) % ring;
                if !self.hoyito() && at == from {
                    at = (at + 1) % ring;
                }
                self.pits[at] += 1;
            }
            let held = self.pits[at];
            if held == 1 || (self.hoyito() && held == 4 && self.casa(at, mover)) {
                return Some(at);
            }
            if !states.insert((self.pits.clone(), at)) {
                return None;
            }
            from = at;
        }
        None
    }

    /// The position after sowing `pit`, or None if that is not legal.
    pub fn after_sowing(&self, pit: usize) -> Option<Naive> {
        let mover = self.to_move;
        if self.owner(pit) != mover || self.pits[pit] == 0 || self.board() == 0 {
            return None;
        }
        let must_feed = !self.hoyito() && self.row_seeds(1 - mover) == 0;
        let mut next = self.clone();
        let end = next.sow(pit)?;
        next.last_sower = Some(mover);
        if next.hoyito() {
            if next.pits[end] == 4 && next.casa(end, mover) {
                next.captured[mover] += std::mem::take(&mut next.pits[end]);
                if next.rules.variant() == Variant::HoyitoII {
                    let ring = next.pits.len();
                    let mut at = (end + ring - 1) % ring;
                    while next.pits[at] == 4 && next.casa(at, mover) {
                        next.captured[mover] += std::mem::take(&mut next.pits[at]);
                        at = (at + ring - 1) % ring;
                    }
                }
                if next.board() == 4 {
                    let to = match next.rules.variant() {
                        Variant::HoyitoIII => match next.rules.final_four {
                            FinalFour::Capturer => mover,
                            FinalFour::To(side) => side_index(side),
                        },
                        _ => mover,
                    };
                    next.captured[to] += 4;
                    next.pits.iter_mut().for_each(|p| *p = 0);
                }
            } else {
                next.to_move = 1 - mover;
            }
        } else {
            let across = next.pits.len() - 1 - end;
            if next.owner(end) == mover && next.pits[across] > 0 {
                next.captured[mover] += next.pits[across] + 1;
                next.pits[across] = 0;
                next.pits[end] = 0;
            }
            if must_feed && next.row_seeds(1 - mover) == 0 {
                return None;
            }
            next.to_move = 1 - mover;
            next.settle();
        }
        Some(next)
    }

    /// Ayoayo: a player to move who cannot feed an empty row ends the game (A.5, A.7).
    fn settle(&mut self) {
        if self.hoyito() || self.board() == 0 || self.row_seeds(1 - self.to_move) > 0 {
            return;
        }
        let n = self.n();
        let me = self.to_move;
        if (me * n..(me + 1) * n).any(|pit| self.after_sowing(pit).is_some()) {
            return;
        }
        for pit in 0..self.pits.len() {
            let to = match (self.rules.leftover, self.last_sower) {
                (Leftover::LastMover, Some(sower)) => sower,
                _ => self.owner(pit),
            };
            self.captured[to] += std::mem::take(&mut self.pits[pit]);
        }
    }

    /// Every legal move with its result, by move name; `pass` alone when no sowing move.
    pub fn successors(&self) -> Vec<(String, Naive)> {
        if self.board() == 0 {
            return Vec::new();
        }
        let n = self.n();
        let me = self.to_move;
        let mut out: Vec<(String, Naive)> = (me * n..(me + 1) * n)
            .filter_map(|pit| {
                let letter = if me == 0 { b'A' } else { b'a' } + (pit - me * n) as u8;
                Some(((letter as char).to_string(), self.after_sowing(pit)?))
            })
            .collect();
        if out.is_empty() {
            let mut next = self.clone();
            next.to_move = 1 - me;
            next.settle();
            out.push(("pass".to_owned(), next));
        }
        out
    }
}

/// The rules to test: every game and board, with each option value.
pub fn all_rules() -> Vec<Rules> {
    let mut all = Vec::new();
    for variant in Variant::ALL {
        for &pits in variant.board_sizes() {
            all.push(Rules::new(variant).with_pits(pits.into()).unwrap());
        }
    }
    let mut opponent = Rules::new(Variant::HoyitoII);
    opponent.casa_rows = CasaRows::Opponent;
    all.push(opponent);
    let mut opponent3 = Rules::new(Variant::HoyitoIII);
    opponent3.casa_rows = CasaRows::Opponent;
    opponent3.final_four = FinalFour::To(Side::North);
    all.push(opponent3);
    let mut holder = Rules::new(Variant::Ayoayo);
    holder.leftover = Leftover::Holder;
    all.push(holder);
    all
}

/// A small deterministic generator (xorshift), so tests need no seed plumbing.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A random game from the start, at most `max_plies` long.
pub fn random_game(rules: Rules, seed: u64, max_plies: usize) -> Game {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(rules);
    while !game.is_over() && game.moves().len() < max_plies {
        let moves = game.legal_moves();
        game.play(moves[rng.below(moves.len())]).unwrap();
    }
    game
}
