//! A layer solved on disk (`build::on_disk`: work files, buckets, checkpoints) gives the same
//! files, byte for byte, as the same layer solved in memory. (A build killed in the middle
//! of a layer and resumed: `crates/sowing-cli/tests/tables.rs`.)

use std::time::Duration;

use sowing::{FinalFour, Leftover, Rules, Side, Variant};
use sowing_tables::build::{self, Layers, OnDisk, Options};
use sowing_tables::Family;

mod common;
use common::{bytes, Scratch};

/// Builds `rules` to `seeds` in memory and on disk (small ranges and buckets, so that a layer
/// has several of each, and a checkpoint after every threshold) and compares every layer.
fn same_files(name: &str, rules: Rules, seeds: usize, layers: Layers) {
    let (memory, disk) = (
        Scratch::new(&format!("on-disk-{name}-memory")),
        Scratch::new(&format!("on-disk-{name}")),
    );
    let options = Options {
        layers,
        ..Options::quiet()
    };
    let report = build::build(&memory.0, rules, seeds, &options).unwrap();
    let on_disk = Options {
        on_disk: true,
        disk: OnDisk {
            range: 20_000,
            bucket_moves: 200_000,
            checkpoint: Duration::ZERO,
        },
        ..options
    };
    let again = build::build(&disk.0, rules, seeds, &on_disk).unwrap();
    assert_eq!(report.built, again.built);
    assert_eq!(
        report.on_disk,
        Vec::<usize>::new(),
        "small layers fit in memory"
    );
    assert_eq!(
        again.on_disk, again.built,
        "--on-disk sends every layer to disk"
    );
    let family = Family::of(rules);
    for &layer in &report.built {
        assert!(
            bytes(&memory.0, &family, layer) == bytes(&disk.0, &family, layer),
            "{family}, layer {layer}: the files differ"
        );
        assert!(
            !build::on_disk::work_dir(&disk.0, &family, layer).exists(),
            "the work files of layer {layer} are removed"
        );
    }
}

#[test]
fn hoyito_ii_on_disk_equals_in_memory() {
    same_files(
        "hoyito-ii",
        Rules::new(Variant::HoyitoII),
        12,
        Layers::Reachable,
    );
}

#[test]
fn hoyito_iii_with_a_fixed_final_four_on_disk_equals_in_memory() {
    let mut rules = Rules::new(Variant::HoyitoIII);
    rules.final_four = FinalFour::To(Side::North);
    same_files("hoyito-iii", rules, 8, Layers::All);
}

#[test]
fn ayoayo_on_disk_equals_in_memory() {
    let mut rules = Rules::new(Variant::Ayoayo);
    same_files("ayoayo", rules, 6, Layers::All);
    rules.leftover = Leftover::Holder;
    same_files("ayoayo-holder", rules, 6, Layers::All);
}

/// `--memory`: the layers whose in-memory peak passes the cap go to disk, the others stay in
/// memory, and the files are the same as a build in memory.
#[test]
fn a_memory_cap_sends_the_larger_layers_to_disk() {
    let rules = Rules::new(Variant::HoyitoII);
    let family = Family::of(rules);
    let (memory, capped) = (
        Scratch::new("on-disk-cap-memory"),
        Scratch::new("on-disk-cap"),
    );
    let report = build::build(&memory.0, rules, 12, &Options::quiet()).unwrap();
    let cap = Options {
        memory: Some(build::in_memory_peak(&family, 8)),
        ..Options::quiet()
    };
    let again = build::build(&capped.0, rules, 12, &cap).unwrap();
    assert_eq!(again.built, vec![4, 8, 12]);
    assert_eq!(again.on_disk, vec![12]);
    for layer in again.built {
        assert!(
            bytes(&memory.0, &family, layer) == bytes(&capped.0, &family, layer),
            "{family}, layer {layer}: the files differ"
        );
    }
    assert_eq!(report.on_disk, Vec::<usize>::new());
}
