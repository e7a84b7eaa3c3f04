//! Only the layers play reaches: in Hoyito every capture takes a multiple of 4 seeds, so the
//! default build computes the layers 4, 8, …, and those equal, byte for byte, the same layers
//! of a build of every layer; a position in a layer not built is a clear error, never a
//! value; `extra` adds a layer with the ones below it that it needs.

use sowing::{FinalFour, Leftover, Position, Rules, Side, Variant};
use sowing_tables::build::{self, Layers, Options};
use sowing_tables::{file, Family, Tables, TablesError};

mod common;
use common::{bytes, Scratch};

fn hoyito_iii_fixed() -> Rules {
    let mut rules = Rules::new(Variant::HoyitoIII);
    rules.final_four = FinalFour::To(Side::North);
    rules
}

/// Builds `rules` to `max_seeds` both ways and compares the layers they share.
fn reachable_equals_all(name: &str, rules: Rules, max_seeds: usize) {
    let (reachable, all) = (
        Scratch::new(&format!("{name}-r")),
        Scratch::new(&format!("{name}-a")),
    );
    let family = Family::of(rules);
    let report = build::build(&reachable.0, rules, max_seeds, &Options::quiet()).unwrap();
    let expected: Vec<usize> = (1..=max_seeds).filter(|s| s % 4 == 0).collect();
    assert_eq!(report.built, expected, "{family}");
    build::build(&all.0, rules, max_seeds, &Options::all_layers()).unwrap();
    for seeds in 1..=max_seeds {
        let path = file::layer_path(&reachable.0, &family, seeds);
        if seeds % 4 == 0 {
            assert_eq!(
                bytes(&reachable.0, &family, seeds),
                bytes(&all.0, &family, seeds),
                "{family}, layer {seeds}"
            );
        } else {
            assert!(!path.exists(), "{family}: layer {seeds} is not reachable");
        }
    }
    let tables = Tables::open(&reachable.0, rules).unwrap();
    assert_eq!(tables.layers_built(), expected);
    assert_eq!(tables.max_seeds(), *expected.last().unwrap());
}

#[test]
fn hoyito_ii_reachable_layers_equal_those_of_every_layer() {
    reachable_equals_all("h2", Rules::new(Variant::HoyitoII), 10);
}

#[test]
fn hoyito_iii_reachable_layers_equal_those_of_every_layer() {
    reachable_equals_all("h3", Rules::new(Variant::HoyitoIII), 9);
    reachable_equals_all("h3-fixed", hoyito_iii_fixed(), 8);
}

#[test]
fn hoyito_on_the_long_board_builds_every_fourth_layer() {
    let rules = Rules::new(Variant::HoyitoII).with_pits(12).unwrap();
    reachable_equals_all("h2-12", rules, 5);
}

#[test]
fn ayoayo_reaches_every_layer() {
    let mut rules = Rules::new(Variant::Ayoayo);
    rules.leftover = Leftover::Holder;
    let family = Family::of(rules);
    assert_eq!(
        build::plan(&family, 6, Layers::Reachable, &[]),
        vec![1, 2, 3, 4, 5, 6]
    );
    let dir = Scratch::new("layers-ayo");
    let report = build::build(&dir.0, rules, 4, &Options::quiet()).unwrap();
    assert_eq!(report.built, vec![1, 2, 3, 4]);
}

#[test]
fn a_position_in_a_layer_not_built_is_a_clear_error() {
    let dir = Scratch::new("layers-probe");
    let rules = Rules::new(Variant::HoyitoII);
    build::build(&dir.0, rules, 8, &Options::quiet()).unwrap();
    let tables = Tables::open(&dir.0, rules).unwrap();
    assert_eq!(tables.max_seeds(), 8);
    assert!(tables.built(4) && tables.built(8) && !tables.built(5));
    // 5 seeds: below the largest layer, but not built.
    let five: Position = "hoyito-ii 0,0,0,0,1,0/3,0,0,0,0,1 20-22 S -"
        .parse()
        .unwrap();
    for error in [
        tables.value(&five).unwrap_err(),
        tables.probe(&five).unwrap_err(),
    ] {
        assert!(
            matches!(error, TablesError::NotBuilt { seeds: 5, ref built, .. } if built == &[4, 8]),
            "{error:?}"
        );
        let message = error.to_string();
        assert!(
            message.contains("layer 5")
                && message.contains("not built")
                && message.contains("--layer 5"),
            "{message}"
        );
    }
    // 4 seeds: built.
    let four: Position = "hoyito-ii 0,0,0,0,1,0/3,0,0,0,0,0 20-24 S -"
        .parse()
        .unwrap();
    let probe = tables.probe(&four).unwrap();
    assert_eq!(probe.value, probe.moves.iter().map(|m| m.1).max().unwrap());
    // 9 seeds: beyond the tables, as before.
    let nine: Position = "hoyito-ii 0,0,0,0,1,4/3,0,0,0,0,1 15-22 S -"
        .parse()
        .unwrap();
    assert!(matches!(
        tables.value(&nine),
        Err(TablesError::Beyond {
            seeds: 9,
            max: 8,
            ..
        })
    ));
}

#[test]
fn an_extra_layer_comes_with_the_layers_it_needs_and_the_values_of_a_full_build() {
    let rules = Rules::new(Variant::HoyitoII);
    let family = Family::of(rules);
    assert_eq!(
        build::plan(&family, 8, Layers::Reachable, &[7]),
        vec![3, 4, 7, 8]
    );
    assert_eq!(
        build::plan(&family, 0, Layers::Reachable, &[13]),
        vec![1, 5, 9, 13]
    );
    let (some, all) = (
        Scratch::new("layers-extra-some"),
        Scratch::new("layers-extra-all"),
    );
    let options = Options {
        extra: vec![7],
        ..Options::quiet()
    };
    let report = build::build(&some.0, rules, 4, &options).unwrap();
    assert_eq!(report.built, vec![3, 4, 7]);
    build::build(&all.0, rules, 7, &Options::all_layers()).unwrap();
    for seeds in [3, 4, 7] {
        assert_eq!(
            bytes(&some.0, &family, seeds),
            bytes(&all.0, &family, seeds)
        );
    }
    // A rebuild with every layer keeps the ones on disk and fills in the rest.
    let again = build::build(&some.0, rules, 7, &Options::all_layers()).unwrap();
    assert_eq!(again.reused, vec![3, 4, 7]);
    assert_eq!(again.built, vec![1, 2, 5, 6]);
}

#[test]
fn expanding_a_layer_without_the_layers_below_it_is_an_error() {
    let dir = Scratch::new("layers-expand");
    let rules = Rules::new(Variant::HoyitoII);
    let family = Family::of(rules);
    build::build(&dir.0, rules, 4, &Options::quiet()).unwrap();
    let lower = Tables::open(&dir.0, rules).unwrap();
    // Layer 8 needs only 4 (built); layer 9 needs 5 and 1 (not built).
    assert!(build::expand(&family, 8, &lower, 0..100).is_ok());
    let error = build::expand(&family, 9, &lower, 0..100).unwrap_err();
    assert!(
        matches!(error, TablesError::NotBuilt { seeds: 5, .. }),
        "{error:?}"
    );
}

#[test]
fn a_layer_too_large_for_this_builder_is_refused_before_any_work() {
    let dir = Scratch::new("layers-too-large");
    let rules = Rules::new(Variant::HoyitoIII);
    // Layer 32 of 2×6: 5,752,004,349 positions, more than 32-bit indices reach.
    let error = build::build(&dir.0, rules, 32, &Options::quiet()).unwrap_err();
    let message = error.to_string();
    assert!(
        matches!(error, TablesError::Unsupported(_)) && message.contains("layer 32"),
        "{message}"
    );
    assert!(!dir.0.exists(), "nothing was built");
}
