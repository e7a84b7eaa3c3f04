//! Evaluation weights, written by `sow-tune` (see docs/engine.md for the procedure).
//! Units: 1/16 centiseed per unit of each feature of [`crate::eval::FEATURES`].

use crate::eval::Weights;

/// Hoyito II on 2×6.
pub const HOYITO_II_6: Weights = [0; 13];
/// Hoyito II on 2×12.
pub const HOYITO_II_12: Weights = [0; 13];
/// Hoyito III.
pub const HOYITO_III: Weights = [0; 13];
/// Ayoayo.
pub const AYOAYO: Weights = [0; 13];
