//! `sow puzzles mine`: puzzles proven by the endgame tables, from finished games and
//! self-play (crate `sowing-puzzles`, docs/puzzles.md).

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Subcommand;
use sowing::{Position, Record};
use sowing_puzzles::{sources, Miner};
use sowing_tables::Tables;

use crate::options::GameOptions;

/// Puzzles proven by perfect play: positions whose mover has exactly one move that keeps
/// the position's value, every other move giving up 4 seeds or more (2 in Ayoayo).
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Mine(MineArgs),
}

/// Mine puzzles from finished games and self-play into a JSONL file, one puzzle a line:
/// {"game", "position", "moves", "value", "themes", "rating", "source"}.
///
/// Values come from the endgame tables only: positions beyond them are not candidates.
/// Finished games come first (--games, --db), then self-play. A summary goes to standard
/// error: the positions looked at, the distinct candidates (inside the tables, two moves or
/// more), the puzzles kept and their share, and puzzles per minute.
#[derive(clap::Args)]
struct MineArgs {
    #[command(flatten)]
    options: GameOptions,
    /// The endgame tables' directory (`sow tables build`).
    #[arg(long, value_name = "DIR")]
    tables: PathBuf,
    /// Game records to take positions from (records one after another, docs/notation.md);
    /// records of other games or options are skipped.
    #[arg(long, value_name = "FILE")]
    games: Option<PathBuf>,
    /// A `sow serve` SQLite database whose finished games to take positions from.
    #[arg(long, value_name = "DB")]
    db: Option<PathBuf>,
    /// Self-play games to take positions from (default: as many as the count needs when
    /// neither --games nor --db is given, else none).
    #[arg(long, value_name = "N")]
    self_play: Option<u64>,
    /// The seed of the self-play games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The most puzzles to write.
    #[arg(long)]
    count: usize,
    /// The JSONL file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

/// Finished games read from a database at a time.
const DB_BATCH: usize = 100;

/// Self-play games examined together (played and examined in parallel).
const BATCH: u64 = 256;

pub fn run(args: Args) -> Result<()> {
    match args.command {
        Command::Mine(args) => mine(args),
    }
}

fn mine(args: MineArgs) -> Result<()> {
    let rules = args.options.rules()?;
    let tables = Tables::open(&args.tables, rules)
        .with_context(|| format!("--tables {}", args.tables.display()))?;
    if tables.max_seeds() == 0 {
        bail!(
            "no tables of {} in {} (build them with `sow tables build`)",
            tables.family(),
            args.tables.display()
        );
    }
    let started = Instant::now();
    let mut miner = Miner::new(&tables, args.count);
    if let Some(path) = &args.games {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("--games {}", path.display()))?;
        for (i, chunk) in split_records(&text).into_iter().enumerate() {
            let record = Record::parse(chunk)
                .with_context(|| format!("--games {}: record {}", path.display(), i + 1))?;
            miner.add(&sources::of_game(&record.game), "game")?;
        }
    }
    if let Some(path) = &args.db {
        if !path.is_file() {
            bail!("--db {}: no such database", path.display());
        }
        let store = sowing_web::store::Store::open(path)
            .with_context(|| format!("--db {}", path.display()))?;
        let mut after = 0;
        while !miner.full() {
            let games = store.finished_games(after, DB_BATCH)?;
            let Some(&(last, _)) = games.last() else {
                break;
            };
            for (_, game) in &games {
                miner.add(&sources::of_game(game), "game")?;
            }
            after = last;
        }
    }
    let games = match args.self_play {
        Some(n) => n,
        None if args.games.is_none() && args.db.is_none() => u64::MAX,
        None => 0,
    };
    let mut next = 0;
    while next < games && !miner.full() {
        let end = next.saturating_add(BATCH).min(games);
        let positions: Vec<Position> = sources::self_play(&tables, rules, args.seed, next..end);
        miner.add(&positions, "self-play")?;
        next = end;
        if miner.stats().positions > 0 && miner.stats().candidates == 0 && next >= 64 * BATCH {
            bail!("no self-play position reaches the tables after {next} games");
        }
    }
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(&args.out)
            .with_context(|| format!("--out {}", args.out.display()))?,
    );
    for puzzle in miner.puzzles() {
        serde_json::to_writer(&mut out, puzzle)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    let stats = miner.stats();
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "{} puzzles in {seconds:.1} s ({:.0} a minute): {} positions, {} distinct candidates, \
         {} kept ({:.1}%), {next} self-play games",
        miner.puzzles().len(),
        miner.puzzles().len() as f64 * 60.0 / seconds.max(1e-9),
        stats.positions,
        stats.candidates,
        stats.kept,
        100.0 * stats.kept as f64 / (stats.candidates.max(1) as f64),
    );
    Ok(())
}

/// The records of a file written one after another: a new one starts at a tag line that
/// follows a line of moves.
fn split_records(text: &str) -> Vec<&str> {
    let mut records = Vec::new();
    let mut start = 0;
    let mut in_moves = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            if in_moves {
                records.push(&text[start..offset]);
                start = offset;
                in_moves = false;
            }
        } else if !trimmed.is_empty() {
            in_moves = true;
        }
        offset += line.len();
    }
    if !text[start..].trim().is_empty() {
        records.push(&text[start..]);
    }
    records
}
