// Small dense matrices: indices read more plainly than iterator chains here.
#![allow(clippy::needless_range_loop)]
//! Fitting the evaluation weights: a least-squares regression of the seeds still to be won
//! (final margin minus current margin, for the side to move) on the board features, over
//! positions from self-play games. `sow-tune` runs it; docs/engine.md gives the procedure.

use sowing::Rules;

use crate::eval;
use crate::features::{self, Weights, FEATURES};
use crate::random::{self, Rng};
use crate::search::{Noise, Searcher};
use crate::Limits;

/// One training example.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The features of the position.
    pub features: [i32; FEATURES],
    /// Centiseeds the side to move went on to win beyond its margin then.
    pub target: f64,
}

/// Self-play games of the search with `weights` (`nodes` a move, `opening` random moves
/// first, from `seed`), every position after the opening a sample.
pub fn self_play(
    rules: Rules,
    weights: Weights,
    games: usize,
    nodes: u64,
    opening: u32,
    seed: u64,
) -> Vec<Sample> {
    let mut searcher = Searcher::new(2);
    searcher.set_weights(weights, rules);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut rng = Rng::new(seed);
    let mut samples = Vec::new();
    for _ in 0..games {
        let mut game = random::opening(rules, opening, &mut rng);
        let first = game.moves().len();
        while !game.is_over() && game.moves().len() < 1000 {
            let mv = searcher
                .search(&game, &limits, Noise::default(), &mut |_| {})
                .best;
            game.play(mv).expect("the search plays legal moves");
        }
        let end = game.position().captured();
        for ply in first..game.moves().len() {
            let pos = game.position_at(ply).expect("a position per ply");
            let me = pos.to_move();
            let final_margin = 100.0 * (f64::from(end[me]) - f64::from(end[!me]));
            samples.push(Sample {
                features: features::features(pos),
                target: final_margin - f64::from(eval::margin(pos)),
            });
        }
    }
    samples
}

/// The ridge least-squares weights (in the units of [`Weights`]) for `samples`.
pub fn fit(samples: &[Sample], ridge: f64) -> Weights {
    let mut a = [[0.0f64; FEATURES]; FEATURES];
    let mut b = [0.0f64; FEATURES];
    for s in samples {
        for i in 0..FEATURES {
            let fi = f64::from(s.features[i]);
            b[i] += fi * s.target;
            for j in 0..FEATURES {
                a[i][j] += fi * f64::from(s.features[j]);
            }
        }
    }
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += ridge * samples.len().max(1) as f64;
    }
    let w = solve(a, b);
    let mut weights = [0; FEATURES];
    for i in 0..FEATURES {
        weights[i] = (16.0 * w[i]).round().clamp(-1e6, 1e6) as i32;
    }
    weights
}

/// Gaussian elimination with partial pivoting (the matrix is small and, with the ridge,
/// positive definite).
fn solve(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> [f64; FEATURES] {
    for col in 0..FEATURES {
        let pivot = (col..FEATURES)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .expect("rows left");
        a.swap(col, pivot);
        b.swap(col, pivot);
        if a[col][col].abs() < 1e-12 {
            continue;
        }
        for row in col + 1..FEATURES {
            let factor = a[row][col] / a[col][col];
            for k in col..FEATURES {
                a[row][k] -= factor * a[col][k];
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = [0.0; FEATURES];
    for row in (0..FEATURES).rev() {
        if a[row][row].abs() < 1e-12 {
            continue;
        }
        let sum: f64 = (row + 1..FEATURES).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - sum) / a[row][row];
    }
    x
}

/// Mean squared error of `weights` on `samples`, in seeds².
pub fn error(samples: &[Sample], weights: &Weights) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let predicted: f64 = (0..FEATURES)
                .map(|i| f64::from(weights[i]) * f64::from(s.features[i]) / 16.0)
                .sum();
            ((predicted - s.target) / 100.0).powi(2)
        })
        .sum();
    total / samples.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_recovers_known_weights() {
        let truth: [f64; FEATURES] = [
            30.0, 2.0, -5.0, 40.0, -25.0, 10.0, 0.0, -8.0, 12.0, 3.0, -3.0, -150.0, 90.0,
        ];
        let mut rng = Rng::new(5);
        let samples: Vec<Sample> = (0..3000)
            .map(|_| {
                let mut features = [0; FEATURES];
                for f in features.iter_mut() {
                    *f = rng.below(10) as i32;
                }
                features[0] = 1;
                let target = (0..FEATURES)
                    .map(|i| truth[i] * f64::from(features[i]))
                    .sum();
                Sample { features, target }
            })
            .collect();
        let weights = fit(&samples, 0.0);
        for i in 0..FEATURES {
            assert!(
                (f64::from(weights[i]) / 16.0 - truth[i]).abs() < 0.1,
                "{i}: {weights:?}"
            );
        }
        assert!(error(&samples, &weights) < 1e-3);
    }
}
