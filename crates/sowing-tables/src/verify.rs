//! Re-proving the tables without trusting the builder.
//!
//! For every layer, from its own sowing of every move (through the rules crate) and the
//! stored values only:
//!
//! 1. **Consistency**: every stored value is the best of its moves' values (a move's value:
//!    what it captures now, minus what it hands over, plus the stored value of what follows,
//!    seen from the mover); a board swept up at once (Ayoayo, A.7) holds its sweep.
//! 2. **Well-founded witnesses**: every non-zero value is reached in finitely many moves. In
//!    rounds 1, 2, …, a position worth V > 0 is proved in round r when one of its moves is
//!    worth V and either leaves the layer or leads to a position proved before round r; a
//!    position worth V < 0 is proved in round r when every move inside the layer leads to a
//!    position proved before round r. Every non-zero position must be proved.
//!
//! On a graph with cycles consistency alone does not fix the values (a cycle of positions
//! each claiming +1 and −1 in turn is consistent); with the witnesses, the values are the
//! game's, given correct lower layers (`docs/tables.md` has the argument). The round a winning
//! position is proved in is the number of moves to its winning capture against the best
//! defence: the longest is reported.

use std::path::Path;

use rayon::prelude::*;

use crate::{build::Options, Family, Tables, TablesError};
use sowing::{Position, Rules};

/// What one layer holds, once proved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayerProof {
    /// Seeds on the board.
    pub seeds: usize,
    /// Positions in the layer.
    pub positions: u64,
    /// Positions the mover wins (V > 0), draws (V = 0) and loses (V < 0).
    pub wins: u64,
    /// See `wins`.
    pub draws: u64,
    /// See `wins`.
    pub losses: u64,
    /// The most moves a winner needs, against the best defence, to make the capture that
    /// realises its gain (moves inside the layer, the capture included).
    pub longest_win: u32,
    /// The largest value.
    pub best: i32,
}

/// Every layer of a family, proved.
#[derive(Clone, Debug, Default)]
pub struct Proof {
    /// The layers built, from 1 seed up (in Hoyito by default only every fourth).
    pub layers: Vec<LayerProof>,
}

/// The tables disagree with the rules at a position.
fn wrong(family: &Family, seeds: usize, index: u64, why: String) -> TablesError {
    TablesError::Wrong {
        family: family.name(),
        seeds,
        index,
        position: family.position(seeds, index).to_string(),
        why,
    }
}

/// The value for the mover of reaching `child` from `parent`, computed here from the
/// captures on both sides and the stored value of `child`.
fn value_of_move(
    tables: &Tables,
    family: &Family,
    parent: &Position,
    child: &Position,
) -> Result<i32, TablesError> {
    let mover = parent.to_move();
    let mut total = i32::from(child.captured()[mover]) - i32::from(parent.captured()[mover]);
    total -= i32::from(child.captured()[!mover]) - i32::from(parent.captured()[!mover]);
    if !child.is_over() {
        let (layer, index) = family.locate(child);
        let rest = tables.stored(layer, index)?;
        total += if child.to_move() == mover {
            rest
        } else {
            -rest
        };
    }
    Ok(total)
}

/// What the rounds need of one position: its value, whether a best move leaves the layer,
/// and the moves inside the layer that count.
struct Node {
    value: i8,
    direct: bool,
    children: Vec<u32>,
}

/// Re-proves every layer of the family of `rules` under `dir`.
///
/// # Errors
/// When a file is missing its lower layers, unreadable or corrupt, or when a value is wrong
/// ([`TablesError::Wrong`], naming the position).
pub fn verify(dir: &Path, rules: Rules, options: &Options) -> Result<Proof, TablesError> {
    let tables = Tables::open(dir, rules)?;
    let family = tables.family();
    let pool = options.thread_pool()?;
    let mut proof = Proof::default();
    for seeds in tables.layers_built() {
        // A layer whose lower layers were removed cannot be re-proved: say which is missing.
        tables.check_below(seeds)?;
        let layer = pool.install(|| prove_layer(&tables, &family, seeds))?;
        if options.progress {
            eprintln!(
                "{family} layer {seeds}: proved ({} positions, longest win {} moves)",
                layer.positions, layer.longest_win
            );
        }
        proof.layers.push(layer);
    }
    Ok(proof)
}

/// The rounds of the witness check: the round each position is proved in, 0 for those never
/// proved (draws, and any non-zero value without a finite witness).
fn rounds(nodes: &[Node]) -> Vec<u32> {
    let mut proved = vec![0u32; nodes.len()];
    let mut round = 0u32;
    loop {
        round += 1;
        let before = |w: &u32| {
            let r = proved[*w as usize];
            r != 0 && r < round
        };
        let newly: Vec<usize> = nodes
            .par_iter()
            .enumerate()
            .filter(|(u, node)| {
                proved[*u] == 0
                    && match node.value {
                        0 => false,
                        v if v > 0 => node.direct || node.children.iter().any(before),
                        _ => node.children.iter().all(before),
                    }
            })
            .map(|(u, _)| u)
            .collect();
        if newly.is_empty() {
            return proved;
        }
        for u in newly {
            proved[u] = round;
        }
    }
}

fn prove_layer(tables: &Tables, family: &Family, seeds: usize) -> Result<LayerProof, TablesError> {
    let count = family.layer_len(seeds);
    let nodes: Vec<Node> = (0..count)
        .into_par_iter()
        .map(|index| {
            let value = tables.stored(seeds, index)?;
            let position = family.position(seeds, index);
            let node = |direct| Node {
                value: value as i8,
                direct,
                children: Vec::new(),
            };
            if position.is_over() {
                let c = position.captured();
                let sweep = i32::from(c.south) - i32::from(c.north);
                return if sweep == value {
                    Ok(node(true))
                } else {
                    Err(wrong(
                        family,
                        seeds,
                        index,
                        format!("stored {value}, but the board is swept up for {sweep}"),
                    ))
                };
            }
            let mut best = i32::MIN;
            let mut out = node(false);
            for (_, child) in position.successors() {
                let v = value_of_move(tables, family, &position, &child)?;
                best = best.max(v);
                let inside = !child.is_over() && child.seeds_on_board() == seeds;
                if !inside {
                    out.direct |= v == value;
                } else if (value > 0 && v == value) || value < 0 {
                    out.children.push(family.locate(&child).1 as u32);
                }
            }
            if best != value {
                return Err(wrong(
                    family,
                    seeds,
                    index,
                    format!("stored {value}, but its best move is worth {best}"),
                ));
            }
            Ok(out)
        })
        .collect::<Result<_, _>>()?;

    let proved = rounds(&nodes);
    let mut layer = LayerProof {
        seeds,
        positions: count,
        ..LayerProof::default()
    };
    for (u, node) in nodes.iter().enumerate() {
        let value = i32::from(node.value);
        if value != 0 && proved[u] == 0 {
            return Err(wrong(
                family,
                seeds,
                u as u64,
                format!("stored {value}, but no finite line of play reaches it"),
            ));
        }
        match value.signum() {
            1 => {
                layer.wins += 1;
                layer.longest_win = layer.longest_win.max(proved[u]);
            }
            0 => layer.draws += 1,
            _ => layer.losses += 1,
        }
        layer.best = layer.best.max(value);
    }
    Ok(layer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(value: i8, direct: bool, children: &[u32]) -> Node {
        Node {
            value,
            direct,
            children: children.to_vec(),
        }
    }

    #[test]
    fn a_consistent_cycle_without_an_exit_is_not_proved() {
        // 0 ↔ 1 with no other moves: +1 / −1 is consistent (each is the best of its one
        // move), but nothing is ever captured: the true values are 0.
        assert_eq!(
            rounds(&[node(1, false, &[1]), node(-1, false, &[0])]),
            [0, 0]
        );
    }

    #[test]
    fn rounds_count_moves_to_the_capture() {
        // 0 wins by moving to 1, which must move to 2, which captures at once.
        let nodes = [
            node(2, false, &[1]),
            node(-2, false, &[2]),
            node(2, true, &[]),
            node(0, false, &[0]),
        ];
        assert_eq!(rounds(&nodes), [3, 2, 1, 0]);
    }
}
