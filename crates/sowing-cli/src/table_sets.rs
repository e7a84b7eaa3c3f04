//! Which tables a `sow tables` command looks at, and how their layers are listed.

use std::path::Path;

use anyhow::{bail, Result};
use sowing::Rules;
use sowing_tables::Family;

use crate::options::GameOptions;

/// Layers as `4, 8, …, 24` (every fourth), `1-24` (every one) or one by one.
pub fn short_list(layers: &[usize]) -> String {
    let even = layers
        .windows(2)
        .all(|w| w[1] - w[0] == layers[1] - layers[0]);
    match layers {
        [first, .., last] if even && layers[1] - first == 1 => format!("{first}-{last}"),
        [first, second, .., last] if even && layers.len() > 3 => {
            format!("{first}, {second}, …, {last}")
        }
        _ => layers
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// Every set of rules whose tables differ (final-four south and north share one family).
fn all_families() -> Vec<Rules> {
    Family::all().iter().map(|family| family.rules(0)).collect()
}

/// The families to look at: the one named, or every one with a directory under `dir`.
pub fn families(options: &GameOptions, dir: &Path) -> Result<Vec<Rules>> {
    if options.game.is_some() {
        return Ok(vec![options.rules()?]);
    }
    let found: Vec<Rules> = all_families()
        .into_iter()
        .filter(|&rules| dir.join(Family::of(rules).name()).is_dir())
        .collect();
    if found.is_empty() {
        bail!(
            "no tables in {} (build some with `sow tables build`)",
            dir.display()
        );
    }
    Ok(found)
}
