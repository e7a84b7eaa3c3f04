//! `sow-tune`: fits the evaluation weights by self-play and regression, and prints (or
//! writes) `crates/sowing-engine/src/weights.rs`. docs/engine.md describes the procedure.
//!
//! Usage: `sow-tune [--games N] [--nodes N] [--rounds R] [--seed S] [--write FILE]
//! [--from-zero]` (`sow-tune --help` explains each).

use clap::Parser;
use sowing::{Rules, Variant};
use sowing_engine::eval::weights_for;
use sowing_engine::features::{Weights, FEATURES, FEATURE_NAMES};
use sowing_engine::tune;

/// Fit the evaluation weights of every game and board by self-play and regression, and
/// print the weights file (or write it with --write).
#[derive(Parser)]
#[command(name = "sow-tune")]
struct Args {
    /// Self-play games a round on 2×6 boards (a quarter as many on 2×12).
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Nodes the search gets a move in self-play.
    #[arg(long, default_value_t = 3_000)]
    nodes: u64,
    /// Rounds of self-play and fitting, each with the weights of the one before.
    #[arg(long, default_value_t = 2)]
    rounds: u32,
    /// Seed of the random openings (round R, counting from 0, uses SEED + R).
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// Write the weights to this file (crates/sowing-engine/src/weights.rs) instead of
    /// printing them.
    #[arg(long)]
    write: Option<String>,
    /// Start from zero weights rather than the current ones.
    #[arg(long)]
    from_zero: bool,
}

fn main() -> std::process::ExitCode {
    let Args {
        games,
        nodes,
        rounds,
        seed,
        write,
        from_zero,
    } = Args::parse();
    let boards = [
        (
            "HOYITO_II_6",
            "Hoyito II on 2×6.",
            Rules::new(Variant::HoyitoII),
        ),
        (
            "HOYITO_II_12",
            "Hoyito II on 2×12.",
            Rules::new(Variant::HoyitoII)
                .with_pits(12)
                .expect("Hoyito II has a 2×12 board"),
        ),
        ("HOYITO_III", "Hoyito III.", Rules::new(Variant::HoyitoIII)),
        ("AYOAYO", "Ayoayo.", Rules::new(Variant::Ayoayo)),
    ];
    let mut source = String::from(
        "//! Evaluation weights, written by `sow-tune` (see docs/engine.md for the procedure).\n\
         //! Units: 1/16 centiseed per unit of each feature of [`crate::features::FEATURES`].\n\n\
         use crate::features::Weights;\n",
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
        Some(path) => {
            if let Err(e) = std::fs::write(&path, source) {
                eprintln!("sow-tune: writing {path}: {e}");
                return std::process::ExitCode::from(2);
            }
        }
        None => print!("{source}"),
    }
    std::process::ExitCode::SUCCESS
}
