//! Static evaluation: the captured-seed margin plus a linear estimate of the seeds still to
//! be won, from board features. The weights are fitted by `sow-tune` (docs/engine.md) as a
//! regression of the final margin on the features, per game and board.

use sowing::{Position, Rules, Side, Variant};

use crate::features::{features, Weights, FEATURES};
use crate::weights;

/// The weights for a game and board.
pub fn weights_for(rules: Rules) -> Weights {
    match (rules.variant(), rules.pits_per_row()) {
        (Variant::HoyitoII, 12) => weights::HOYITO_II_12,
        (Variant::HoyitoII, _) => weights::HOYITO_II_6,
        (Variant::HoyitoIII, _) => weights::HOYITO_III,
        (Variant::Ayoayo, _) => weights::AYOAYO,
    }
}

/// The captured-seed margin of the side to move, in centiseeds.
#[inline]
pub fn margin(pos: &Position) -> i32 {
    let captured = pos.captured();
    let me = pos.to_move();
    100 * (i32::from(captured[me]) - i32::from(captured[!me]))
}

/// The expected final margin of the side to move, in centiseeds: the margin so far plus the
/// weighted features. The definition; the search uses the faster [`Evaluator`].
pub fn evaluate(pos: &Position, weights: &Weights) -> i32 {
    let f = features(pos);
    let sum: i32 = (0..FEATURES).map(|i| weights[i] * f[i]).sum();
    margin(pos) + sum / 16
}

/// [`evaluate`] for one set of weights, folded into a table per pit count: the search
/// evaluates at every leaf, so the features are never built one by one.
#[derive(Clone)]
pub struct Evaluator {
    /// The weighted features of one of my pits holding `v` seeds, and one of theirs.
    mine: [i32; 256],
    theirs: [i32; 256],
    tempo: i32,
    targets_mine: i32,
    targets_theirs: i32,
    row_empty_theirs: i32,
    row_empty_mine: i32,
}

impl Evaluator {
    /// The evaluator of `weights`.
    pub fn new(w: &Weights) -> Evaluator {
        let pit = |v: i32, seeds: i32, three: i32, four: i32, empty: i32| {
            seeds * v
                + three * i32::from(v == 3)
                + four * i32::from(v == 4)
                + empty * i32::from(v == 0)
        };
        let (mut mine, mut theirs) = ([0; 256], [0; 256]);
        for v in 0..256 {
            mine[v as usize] = pit(v, w[1] + w[2], w[3], w[5], w[7]);
            theirs[v as usize] = pit(v, w[1] - w[2], w[4], w[6], w[8]);
        }
        Evaluator {
            mine,
            theirs,
            tempo: w[0],
            targets_mine: w[9],
            targets_theirs: w[10],
            row_empty_theirs: w[11],
            row_empty_mine: w[12],
        }
    }

    /// Equal to [`evaluate`] with the weights of [`Evaluator::new`].
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let pits = pos.pits();
        let sum = match (pits.len(), pos.to_move()) {
            // The row length as a constant: the loop unrolls.
            (12, Side::South) => self.rows::<6>(&pits[..6], &pits[6..]),
            (12, Side::North) => self.rows::<6>(&pits[6..], &pits[..6]),
            (_, Side::South) => self.rows::<12>(&pits[..12], &pits[12..]),
            (_, Side::North) => self.rows::<12>(&pits[12..], &pits[..12]),
        };
        margin(pos) + sum / 16
    }

    /// The weighted features of my row and theirs.
    #[inline(always)]
    fn rows<const N: usize>(&self, mine: &[u8], theirs: &[u8]) -> i32 {
        let (mine, theirs): (&[u8; N], &[u8; N]) = (
            mine.try_into().expect("a row"),
            theirs.try_into().expect("a row"),
        );
        let mut sum = self.tempo;
        let (mut any_mine, mut any_theirs) = (0u8, 0u8);
        for column in 0..N {
            // My pit at column c faces their pit at column N−1−c.
            let (a, facing) = (mine[column], theirs[N - 1 - column]);
            any_mine |= a;
            any_theirs |= facing;
            sum += self.mine[usize::from(a)] + self.theirs[usize::from(facing)];
            sum += i32::from(a == 0) * self.targets_mine * i32::from(facing);
            sum += i32::from(facing == 0) * self.targets_theirs * i32::from(a);
        }
        sum += i32::from(any_theirs == 0) * self.row_empty_theirs;
        sum + i32::from(any_mine == 0) * self.row_empty_mine
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::{self, Rng};
    use sowing::Game;

    #[test]
    fn the_table_evaluator_equals_the_weighted_features() {
        let mut rng = Rng::new(5);
        for (variant, pits) in [
            (Variant::HoyitoII, 6),
            (Variant::HoyitoII, 12),
            (Variant::HoyitoIII, 6),
            (Variant::Ayoayo, 6),
        ] {
            let rules = Rules::new(variant).with_pits(pits).expect("a board");
            let weights = weights_for(rules);
            let evaluator = Evaluator::new(&weights);
            for _ in 0..200 {
                let mut game = Game::new(rules);
                while let Some(mv) = random::legal_move(&game, &mut rng) {
                    let pos = game.position();
                    assert_eq!(evaluator.evaluate(pos), evaluate(pos, &weights), "{pos}");
                    game.play(mv).expect("a legal move");
                }
            }
        }
    }
}
