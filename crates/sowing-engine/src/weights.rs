//! Evaluation weights, written by `sow-tune` (see docs/engine.md for the procedure).
//! Units: 1/16 centiseed per unit of each feature of [`crate::features::FEATURES`].

use crate::features::Weights;

/// Hoyito II on 2×6.
pub const HOYITO_II_6: Weights = [
    -3134, // tempo
    412,   // tempo-x-seeds
    258,   // row-seeds
    3907,  // threes-mine
    -1776, // threes-theirs
    -613,  // fours-mine
    1028,  // fours-theirs
    16,    // empty-mine
    -554,  // empty-theirs
    -263,  // targets-mine
    160,   // targets-theirs
    -3515, // row-empty-theirs
    4435,  // row-empty-mine
];

/// Hoyito II on 2×12.
pub const HOYITO_II_12: Weights = [
    -10297, // tempo
    542,    // tempo-x-seeds
    -398,   // row-seeds
    3776,   // threes-mine
    -845,   // threes-theirs
    1317,   // fours-mine
    747,    // fours-theirs
    -1964,  // empty-mine
    2663,   // empty-theirs
    -112,   // targets-mine
    -628,   // targets-theirs
    -3337,  // row-empty-theirs
    6709,   // row-empty-mine
];

/// Hoyito III.
pub const HOYITO_III: Weights = [
    -2507, // tempo
    404,   // tempo-x-seeds
    290,   // row-seeds
    3551,  // threes-mine
    -1267, // threes-theirs
    -625,  // fours-mine
    786,   // fours-theirs
    -312,  // empty-mine
    -449,  // empty-theirs
    -71,   // targets-mine
    -18,   // targets-theirs
    -3596, // row-empty-theirs
    4420,  // row-empty-mine
];

/// Ayoayo.
pub const AYOAYO: Weights = [
    -935, // tempo
    100,  // tempo-x-seeds
    96,   // row-seeds
    -745, // threes-mine
    698,  // threes-theirs
    -575, // fours-mine
    759,  // fours-theirs
    -193, // empty-mine
    395,  // empty-theirs
    74,   // targets-mine
    -122, // targets-theirs
    852,  // row-empty-theirs
    -973, // row-empty-mine
];
