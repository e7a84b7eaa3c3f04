//! The tables against a second solver written naively here: every position with both sides
//! to move (no rotation), kept in a hash map (no rank), valued by plain value iteration over
//! the rules crate's moves, one layer at a time from all zeros with the lower layers exact.
//!
//! Why that is sound (unlike value iteration over the whole game at once): within a layer
//! the k-th iterate is the value of the game cut off after k moves with nothing more
//! captured; a forced gain of t > 0 is reached within a bounded number of moves, and the
//! holding strategies keep the cut-off at 0 on the right side of every bound, so the
//! iterates equal the true values after finitely many steps (docs/tables.md). The iteration
//! stops at the first repeat, and an iterate that repeats stays for ever.

use std::collections::HashMap;
use std::path::PathBuf;

use sowing::{BySide, FinalFour, Leftover, Position, Rules, Side, Variant};
use sowing_tables::{build, verify, Tables};

/// A fresh directory under the system's temporary directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("sowing-tables-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Every composition of `seeds` into `pits.len()` parts.
fn boards(seeds: usize, at: usize, pits: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
    if at + 1 == pits.len() {
        pits[at] = seeds as u8;
        out.push(pits.clone());
        return;
    }
    for here in 0..=seeds {
        pits[at] = here as u8;
        boards(seeds - here, at + 1, pits, out);
    }
}

/// The position as a key: nothing captured, and no last sower where the game has no use for
/// it (Hoyito, H2.8).
fn key(position: &Position) -> Position {
    let sower = match position.rules().variant() {
        Variant::Ayoayo => position.last_sower(),
        _ => None,
    };
    Position::from_parts(
        position.rules(),
        position.pits(),
        BySide::default(),
        position.to_move(),
        sower,
    )
    .unwrap()
}

enum Edge {
    Exit(i32),
    Inner(usize),
}

/// The value of every position (not over) with at most `max_seeds` seeds on the board.
fn naive_values(rules: Rules, max_seeds: usize) -> HashMap<Position, i32> {
    let sowers: &[Option<Side>] = match rules.variant() {
        Variant::Ayoayo => &[None, Some(Side::South), Some(Side::North)],
        _ => &[None],
    };
    let mut values: HashMap<Position, i32> = HashMap::new();
    for seeds in 1..=max_seeds {
        let mut all = Vec::new();
        boards(seeds, 0, &mut vec![0; rules.pit_count()], &mut all);
        let mut nodes = Vec::new();
        let mut at: HashMap<Position, usize> = HashMap::new();
        for pits in &all {
            for side in [Side::South, Side::North] {
                for &sower in sowers {
                    let position =
                        Position::from_parts(rules, pits, BySide::default(), side, sower).unwrap();
                    if !position.is_over() {
                        at.insert(position, nodes.len());
                        nodes.push(position);
                    }
                }
            }
        }
        let mover_gain = |parent: &Position, child: &Position| {
            let me = parent.to_move();
            i32::from(child.captured()[me]) - i32::from(child.captured()[!me])
        };
        let edges: Vec<Vec<Edge>> = nodes
            .iter()
            .map(|position| {
                position
                    .successors()
                    .iter()
                    .map(|(_, child)| {
                        let gain = mover_gain(position, child);
                        if child.is_over() {
                            Edge::Exit(gain)
                        } else if child.seeds_on_board() < seeds {
                            let rest = values[&key(child)];
                            let same = child.to_move() == position.to_move();
                            Edge::Exit(gain + if same { rest } else { -rest })
                        } else {
                            assert_eq!(gain, 0);
                            assert_ne!(child.to_move(), position.to_move());
                            Edge::Inner(at[&key(child)])
                        }
                    })
                    .collect()
            })
            .collect();
        let mut value = vec![0i32; nodes.len()];
        loop {
            let next: Vec<i32> = edges
                .iter()
                .map(|moves| {
                    moves
                        .iter()
                        .map(|edge| match *edge {
                            Edge::Exit(v) => v,
                            Edge::Inner(w) => -value[w],
                        })
                        .max()
                        .expect("a position that is not over has a move")
                })
                .collect();
            if next == value {
                break;
            }
            value = next;
        }
        values.extend(nodes.into_iter().zip(value));
    }
    values
}

/// Builds the tables, compares them with the naive values position by position, and
/// verifies them.
fn check(name: &str, rules: Rules, max_seeds: usize) {
    let dir = TempDir::new(name);
    let report = build::build(&dir.0, rules, max_seeds, &build::Options::all_layers()).unwrap();
    assert_eq!(report.built, (1..=max_seeds).collect::<Vec<_>>());
    let tables = Tables::open(&dir.0, rules).unwrap();
    assert_eq!(tables.max_seeds(), max_seeds);
    let naive = naive_values(rules, max_seeds);
    let mut nonzero = 0;
    for (position, &value) in &naive {
        assert_eq!(tables.value(position).unwrap(), value, "{position}");
        nonzero += usize::from(value != 0);
        // The moves' values agree with the best one.
        let probe = tables.probe(position).unwrap();
        assert_eq!(probe.moves.iter().map(|m| m.1).max(), Some(value));
    }
    assert!(nonzero > 0, "some position is not a draw");
    let proof = verify::verify(&dir.0, rules, &build::Options::quiet()).unwrap();
    assert_eq!(proof.layers.len(), max_seeds);
}

#[test]
fn hoyito_ii_matches_the_naive_solver() {
    check("h2", Rules::new(Variant::HoyitoII), 12);
}

#[test]
fn hoyito_ii_casa_rows_opponent_matches_the_naive_solver() {
    let mut rules = Rules::new(Variant::HoyitoII);
    rules.casa_rows = sowing::CasaRows::Opponent;
    check("h2-opponent", rules, 10);
}

#[test]
fn hoyito_iii_matches_the_naive_solver() {
    check("h3", Rules::new(Variant::HoyitoIII), 12);
}

#[test]
fn hoyito_iii_final_four_fixed_matches_the_naive_solver() {
    // The same family serves final-four=south and final-four=north: check both.
    for side in [Side::South, Side::North] {
        let mut rules = Rules::new(Variant::HoyitoIII);
        rules.final_four = FinalFour::To(side);
        check(&format!("h3-{side}"), rules, 10);
    }
}

#[test]
fn ayoayo_matches_the_naive_solver() {
    check("ayo", Rules::new(Variant::Ayoayo), 8);
}

#[test]
fn ayoayo_leftover_holder_matches_the_naive_solver() {
    let mut rules = Rules::new(Variant::Ayoayo);
    rules.leftover = Leftover::Holder;
    check("ayo-holder", rules, 8);
}
