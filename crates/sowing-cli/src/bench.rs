//! `sow bench`: random games at full speed, for each game and board.

use std::time::Instant;

use anyhow::Result;
use sowing::{Game, Position, Rules, Variant};
use sowing_engine::random::{self, Rng};

use crate::legality;
use crate::options::GameOptions;

/// Play random games (full rules, repetition included) on one thread with a fixed seed and
/// print games and moves per second for each game and board: the median of several runs.
///
/// With --json: an array of {"game","pits_per_row","games_per_sec","moves_per_sec"}.
#[derive(clap::Args)]
pub struct Args {
    /// Only this game (with its options) rather than every game and board.
    #[command(flatten)]
    options: GameOptions,
    /// Print one line of JSON.
    #[arg(long)]
    json: bool,
    /// Games per game and board (default: about five seconds' worth: 500000 on 2×6,
    /// 1500000 for the shorter Ayoayo games, 30000 on 2×12).
    #[arg(long)]
    games: Option<u64>,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// Benchmark the search instead: the committed positions
    /// (crates/sowing-engine/data/bench-positions.txt), each searched to its fixed depth on
    /// one thread; the total node count is the search's signature. With --json:
    /// {"nodes","micros","nps","positions":[{"position","nodes","depth","micros"}]}.
    #[arg(long)]
    search: bool,
    /// Measure the slowest legality check instead (C.1): the legal moves of every position
    /// of random games (100000 a board unless --games says), each timed, the slow ones timed
    /// again (fastest of 9), and the known sowings with the longest cycles.
    #[arg(long, conflicts_with = "search")]
    legality: bool,
    /// Play the same games this many times and report the median time.
    #[arg(long, default_value_t = 3)]
    repeat: u32,
}

/// The games and boards measured.
const BOARDS: [(Variant, usize); 4] = [
    (Variant::HoyitoII, 6),
    (Variant::HoyitoII, 12),
    (Variant::HoyitoIII, 6),
    (Variant::Ayoayo, 6),
];

pub fn run(args: Args) -> Result<()> {
    if args.search {
        print!("{}", sowing_engine::bench::report(args.json));
        return Ok(());
    }
    let boards: Vec<Rules> = match args.options.game {
        Some(_) => vec![args.options.rules()?],
        None => BOARDS
            .iter()
            .map(|&(variant, pits)| Rules::new(variant).with_pits(pits))
            .collect::<Result<_, _>>()?,
    };
    if args.legality {
        return legality(&args, &boards);
    }
    let mut rows = Vec::new();
    for rules in boards {
        let (variant, pits) = (rules.variant(), rules.pits_per_row());
        // About five seconds a run: a steadier figure on a shared machine.
        let games = args.games.unwrap_or(match (variant, pits) {
            (_, 12) => 30_000,
            (Variant::Ayoayo, _) => 1_500_000,
            _ => 500_000,
        });
        let start = Position::start(rules);
        let mut game = Game::new(rules);
        // The same games `repeat` times; the median time, since the machine is shared.
        let mut times = Vec::new();
        let mut moves = 0u64;
        for _ in 0..args.repeat.max(1) {
            let mut rng = Rng::new(args.seed);
            let clock = Instant::now();
            moves = (0..games)
                .map(|_| random::play_game(&mut game, start, &mut rng))
                .sum();
            times.push(clock.elapsed().as_secs_f64());
        }
        times.sort_by(f64::total_cmp);
        let seconds = times[times.len() / 2];
        let row = serde_json::json!({
            "game": variant.name(),
            "pits_per_row": pits,
            "games_per_sec": (games as f64 / seconds).round() as u64,
            "moves_per_sec": (moves as f64 / seconds).round() as u64,
        });
        if !args.json {
            println!(
                "{:<11} 2×{:<3} {:>9} games/s {:>12} moves/s  ({games} games, {moves} moves, median {seconds:.3} s of {})",
                variant.name(),
                pits,
                row["games_per_sec"],
                row["moves_per_sec"],
                times.len()
            );
        }
        rows.push(row);
    }
    if args.json {
        println!("{}", serde_json::Value::Array(rows));
    }
    Ok(())
}
/// `sow bench --legality`: one line (or JSON row) a board, then one a known long cycle.
fn legality(args: &Args, boards: &[Rules]) -> Result<()> {
    let games = args.games.unwrap_or(100_000);
    let mut rows = Vec::new();
    for &rules in boards {
        let worst = legality::random_games(rules, games, args.seed)?;
        let (position, slowest) = worst.slowest;
        let row = serde_json::json!({
            "game": rules.variant().name(),
            "pits_per_row": rules.pits_per_row(),
            "games": games,
            "positions": worst.positions,
            "mean_ns": worst.mean_ns.round() as u64,
            "slowest_ns": slowest.as_nanos() as u64,
            "slowest_position": position.to_string(),
        });
        if !args.json {
            println!(
                "{:<11} 2×{:<3} {games} games, {} positions: mean {:.2} µs, slowest {:.3} ms at {position}",
                rules.variant().name(),
                rules.pits_per_row(),
                worst.positions,
                worst.mean_ns / 1e3,
                slowest.as_secs_f64() * 1e3,
            );
        }
        rows.push(row);
    }
    for text in legality::LONG_CYCLES {
        let position: Position = text.parse()?;
        let time = legality::retime(&position);
        if !args.json {
            println!("long cycle  {text}: {:.3} ms", time.as_secs_f64() * 1e3);
        }
        rows.push(serde_json::json!({
            "game": position.rules().variant().name(),
            "pits_per_row": position.rules().pits_per_row(),
            "positions": 1,
            "slowest_ns": time.as_nanos() as u64,
            "slowest_position": text,
        }));
    }
    if args.json {
        println!("{}", serde_json::Value::Array(rows));
    }
    Ok(())
}
