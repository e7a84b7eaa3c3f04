//! The two ways of reversing a layer's moves — in memory (`build::solve`) and through a
//! scratch file when memory is short (`build::solve_through`) — give the same values, byte
//! for byte, as the layer files written by the builder.

use std::path::PathBuf;

use sowing::{Leftover, Rules, Variant};
use sowing_tables::{build, Family, Tables};

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "sowing-tables-reversal-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Builds `rules` to `seeds`, then solves the top layer again both ways from its expansion
/// in ranges of `chunk` positions.
fn both_reversals_agree(name: &str, rules: Rules, seeds: usize, chunk: u64) {
    let dir = scratch_dir(name);
    build::build(&dir, rules, seeds, &build::Options::all_layers()).unwrap();
    let family = Family::of(rules);
    let lower = Tables::open_up_to(&dir, rules, seeds - 1).unwrap();
    let count = family.layer_len(seeds);
    let expansions = || {
        (0..count.div_ceil(chunk))
            .map(|c| {
                build::expand(
                    &family,
                    seeds,
                    &lower,
                    c * chunk..((c + 1) * chunk).min(count),
                )
                .unwrap()
            })
            .collect::<Vec<_>>()
    };
    assert!(
        expansions().iter().any(|e| !e.children.is_empty()),
        "moves inside the layer"
    );
    let in_memory = build::solve(expansions()).unwrap();
    let scratch = dir.join("layer.moves.partial");
    let through_file = build::solve_through(expansions(), &scratch).unwrap();
    assert!(!scratch.exists(), "the scratch file is removed");
    assert_eq!(in_memory, through_file);
    let built = Tables::open(&dir, rules).unwrap();
    assert_eq!(&built.layer(seeds).unwrap()[..], &in_memory[..]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn hoyito_ii_reversal_through_a_file_gives_the_same_values() {
    both_reversals_agree("h2", Rules::new(Variant::HoyitoII), 10, 997);
}

#[test]
fn ayoayo_reversal_through_a_file_gives_the_same_values() {
    let mut rules = Rules::new(Variant::Ayoayo);
    rules.leftover = Leftover::LastMover;
    both_reversals_agree("ayo", rules, 8, 331);
}

#[test]
fn hoyito_ii_long_board_reversal_through_a_file_gives_the_same_values() {
    both_reversals_agree(
        "h2-12",
        Rules::new(Variant::HoyitoII).with_pits(12).unwrap(),
        6,
        1 << 12,
    );
}
