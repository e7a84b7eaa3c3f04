//! `sow-tune`: fits the evaluation weights by self-play and regression, and prints (or
//! writes) `crates/sowing-engine/src/weights.rs`. docs/engine.md describes the procedure.
//!
//! Usage: `sow-tune [--games N] [--nodes N] [--rounds R] [--seed S] [--write FILE]`

use sowing::{Rules, Variant};
use sowing_engine::eval::{weights_for, Weights, FEATURES, FEATURE_NAMES};
use sowing_engine::tune;

fn main() {
    let mut games = 200usize;
    let mut nodes = 3_000u64;
    let mut rounds = 2u32;
    let mut seed = 2026u64;
    let mut write: Option<String> = None;
    let mut from_zero = false;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--games" => games = value.parse().expect("--games N"),
            "--nodes" => nodes = value.parse().expect("--nodes N"),
            "--rounds" => rounds = value.parse().expect("--rounds R"),
            "--seed" => seed = value.parse().expect("--seed S"),
            "--write" => write = Some(value),
            "--from-zero" => {
                from_zero = true;
                i += 1;
                continue;
            }
            other => {
                eprintln!("sow-tune: unknown argument {other}");
                std::process::exit(2);
            }
        }
        i += 2;
    }
    let boards = [
        (
            "HOYITO_II_6",
            "Hoyito II on 2×6.",
            Rules::new(Variant::HoyitoII),
        ),
        (
            "HOYITO_II_12",
            "Hoyito II on 2×12.",
            Rules::new(Variant::HoyitoII).with_pits(12).unwrap(),
        ),
        ("HOYITO_III", "Hoyito III.", Rules::new(Variant::HoyitoIII)),
        ("AYOAYO", "Ayoayo.", Rules::new(Variant::Ayoayo)),
    ];
    let mut source = String::from(
        "//! Evaluation weights, written by `sow-tune` (see docs/engine.md for the procedure).\n\
         //! Units: 1/16 centiseed per unit of each feature of [`crate::eval::FEATURES`].\n\n\
         use crate::eval::Weights;\n",
    );
    for (name, doc, rules) in boards {
        let mut weights: Weights = if from_zero {
            [0; FEATURES]
        } else {
            weights_for(rules)
        };
        // The long board's games are long: fewer of them.
        let board_games = if rules.pits_per_row() == 12 {
            games / 4
        } else {
            games
        };
        for round in 0..rounds {
            let samples = tune::self_play(
                rules,
                weights,
                board_games.max(1),
                nodes,
                6,
                seed + u64::from(round),
            );
            let before = tune::error(&samples, &weights);
            weights = tune::fit(&samples, 0.01);
            eprintln!(
                "{name} round {}: {} positions, error {before:.2} -> {:.2} seeds²",
                round + 1,
                samples.len(),
                tune::error(&samples, &weights)
            );
        }
        let listed: Vec<String> = weights
            .iter()
            .zip(FEATURE_NAMES)
            .map(|(w, n)| format!("    {w}, // {n}"))
            .collect();
        source.push_str(&format!(
            "\n/// {doc}\npub const {name}: Weights = [\n{}\n];\n",
            listed.join("\n")
        ));
    }
    match write {
        Some(path) => std::fs::write(&path, source).expect("writing the weights"),
        None => print!("{source}"),
    }
}
