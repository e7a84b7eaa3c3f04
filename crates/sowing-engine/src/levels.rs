//! Strength levels 1–6: the search with fewer nodes and more noise for the weaker ones.
//!
//! Levels 1–5 are capped by nodes and depth, so they play the same on any machine and the
//! same move every time (for a given seed); level 6 is the full search within the caller's
//! limits. Levels 5 and 6 use the endgame tables when the front end has them
//! ([`crate::TableSet`]); levels 1–4 never do. Elo of each level against its neighbours: docs/engine.md, "Strength".

use crate::SearchSettings;

/// The weakest and the strongest level.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=6;

/// The search settings of a level (1–6).
///
/// # Panics
/// When the level is not in 1–6.
pub fn settings(level: u8) -> SearchSettings {
    let base = SearchSettings::default();
    let (depth, nodes, noise, hash) = match level {
        1 => (Some(1), Some(100), 300, 1),
        2 => (Some(2), Some(1_000), 150, 1),
        3 => (Some(4), Some(6_000), 40, 1),
        4 => (Some(6), Some(15_000), 0, 4),
        5 => (None, Some(50_000), 0, 16),
        6 => (None, None, 0, 64),
        _ => panic!("level {level} is not in 1-6"),
    };
    SearchSettings {
        depth,
        nodes,
        noise,
        hash_mib: hash,
        quiescence: level >= 2,
        tables: level >= 5,
        ..base
    }
}
