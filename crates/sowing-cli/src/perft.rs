//! `sow perft`: count move sequences from the start position.

use anyhow::{bail, Result};
use sowing::{perft, Position};

use crate::options::GameOptions;

/// Count the move sequences of a given length from the start position.
///
/// A pass is a move, every sowing move (extra turns included) is one ply, a finished
/// position has no moves, and repetition is ignored. Prints the count, or with --json
/// {"game":…,"depth":…,"nodes":…}.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    options: GameOptions,
    /// Plies to look ahead.
    #[arg(long)]
    depth: u32,
    /// Print one line of JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let rules = args.options.rules()?;
    if args.depth > 64 {
        bail!(
            "--depth {} is far beyond what perft can count; use at most 64",
            args.depth
        );
    }
    let nodes = perft(&Position::start(rules), args.depth);
    if args.json {
        println!(
            "{}",
            serde_json::json!({"game": rules.variant().name(), "depth": args.depth, "nodes": nodes})
        );
    } else {
        println!("{nodes}");
    }
    Ok(())
}
