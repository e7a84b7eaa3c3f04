//! The solve split across shards (`split::solve`), its ranges written by
//! `file::write_layer_parts`, gives the layer files of `build::build`, byte for byte, with
//! 1, 2 and 3 shards, their moves in held in memory or in scratch files.

use std::path::PathBuf;

use sowing::{Leftover, Rules, Variant};
use sowing_tables::{build, file, split, Family, Tables};

fn scratch_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("sowing-tables-split-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Builds `rules` to `max_seeds` (every layer), then solves each of `layers` again split
/// into 1, 2 and 3 shards, their moves in memory and in scratch files, from its expansion in ranges of `chunk` positions (which straddle
/// the shards' bounds), and compares the files.
fn split_solves_write_the_same_files(
    name: &str,
    rules: Rules,
    max_seeds: usize,
    layers: &[usize],
    chunk: u64,
) {
    let dir = scratch_dir(name);
    build::build(&dir, rules, max_seeds, &build::Options::all_layers()).unwrap();
    let family = Family::of(rules);
    let built = Tables::open(&dir, rules).unwrap();
    for &seeds in layers {
        let count = family.layer_len(seeds);
        let expansions: Vec<_> = (0..count.div_ceil(chunk))
            .map(|c| {
                let range = c * chunk..((c + 1) * chunk).min(count);
                build::expand(&family, seeds, &built, range).unwrap()
            })
            .collect();
        let expected = std::fs::read(file::layer_path(&dir, &family, seeds)).unwrap();
        let spills = dir.join("spills");
        std::fs::create_dir_all(&spills).unwrap();
        for (shards, scratch) in (1..=3).flat_map(|n| [(n, None), (n, Some(spills.as_path()))]) {
            let (values, report) = split::solve(&expansions, shards, scratch).unwrap();
            assert_eq!(
                std::fs::read_dir(&spills).unwrap().count(),
                0,
                "the scratch files are removed"
            );
            assert!(report.rounds > 0, "layer {seeds}: rounds were run");
            assert_eq!(
                shards == 1,
                report.messages == 0,
                "layer {seeds}: messages cross shards only when there are several"
            );
            assert_eq!(values.len(), shards);
            let other = dir.join(format!("split-{shards}"));
            let parts: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
            let path = file::write_layer_parts(&other, &family, seeds, &parts).unwrap();
            assert!(
                std::fs::read(path).unwrap() == expected,
                "{name}: layer {seeds} split into {shards} shards (scratch {scratch:?}) differs"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn hoyito_iii_split_solves_give_the_files_of_the_build() {
    split_solves_write_the_same_files(
        "h3",
        Rules::new(Variant::HoyitoIII),
        12,
        &[4, 7, 8, 12],
        2_003,
    );
}

#[test]
fn hoyito_ii_split_solves_give_the_files_of_the_build() {
    split_solves_write_the_same_files("h2", Rules::new(Variant::HoyitoII), 10, &[9, 10], 997);
}

#[test]
fn ayoayo_split_solves_give_the_files_of_the_build() {
    let mut holder = Rules::new(Variant::Ayoayo);
    holder.leftover = Leftover::Holder;
    split_solves_write_the_same_files("ayoayo", Rules::new(Variant::Ayoayo), 7, &[6, 7], 501);
    split_solves_write_the_same_files("ayoayo-holder", holder, 6, &[6], 501);
}
