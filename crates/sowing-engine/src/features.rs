//! The board features the evaluation weighs ([`features`]), their names, and the shape of
//! a weight set ([`Weights`]): the vocabulary that `eval.rs`, the tuned `weights.rs` and
//! the tuning share, kept apart so that each of them depends on it and not on the others.

use sowing::{Position, Side};

/// Number of board features.
pub const FEATURES: usize = 13;

/// Feature names, for the tuning tool and the docs.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "tempo",
    "tempo-x-seeds",
    "row-seeds",
    "threes-mine",
    "threes-theirs",
    "fours-mine",
    "fours-theirs",
    "empty-mine",
    "empty-theirs",
    "targets-mine",
    "targets-theirs",
    "row-empty-theirs",
    "row-empty-mine",
];

/// Weights in 1/16 of a centiseed per unit of each feature.
pub type Weights = [i32; FEATURES];

/// The board features of `pos` as the side to move sees it ("mine" is the side to move).
///
/// Hoyito: pits of three become casas when a lap ends there, pits of four continue chains.
/// Ayoayo: "targets" are seeds opposite an empty pit of the other row (what a move ending
/// in that empty pit would capture), and an empty row brings feeding (A.5, A.7).
#[inline]
pub fn features(pos: &Position) -> [i32; FEATURES] {
    let rules = pos.rules();
    let n = rules.pits_per_row();
    let me = pos.to_move();
    let pits = pos.pits();
    let (mine, theirs) = if me == Side::South {
        (&pits[..n], &pits[n..])
    } else {
        (&pits[n..], &pits[..n])
    };
    let mut f = [0i32; FEATURES];
    let mut mine_seeds = 0i32;
    let mut their_seeds = 0i32;
    for column in 0..n {
        let (a, b) = (mine[column], theirs[column]);
        mine_seeds += i32::from(a);
        their_seeds += i32::from(b);
        f[3] += i32::from(a == 3);
        f[4] += i32::from(b == 3);
        f[5] += i32::from(a == 4);
        f[6] += i32::from(b == 4);
        f[7] += i32::from(a == 0);
        f[8] += i32::from(b == 0);
        // My pit at column c faces their pit at column n−1−c (opposite is 2N−1−i).
        let facing = theirs[n - 1 - column];
        if a == 0 {
            f[9] += i32::from(facing);
        }
        if facing == 0 {
            f[10] += i32::from(a);
        }
    }
    f[0] = 1;
    f[1] = mine_seeds + their_seeds;
    f[2] = mine_seeds - their_seeds;
    f[11] = i32::from(their_seeds == 0);
    f[12] = i32::from(mine_seeds == 0);
    f
}
