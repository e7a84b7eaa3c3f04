//! `sow tables`: build, probe, verify and describe the perfect-play endgame tables
//! (crate `sowing-tables`, docs/tables.md).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Subcommand;
use sowing::Position;
use sowing_tables::build::OnDisk;
use sowing_tables::{build, verify, Family, Tables};

use crate::options::{DirOption, GameOptions, LimitOptions};
use crate::table_sets::{families, short_list};
use crate::tables_bench::{random_positions, BenchProbeArgs};
use crate::tables_compress::CompressArgs;

/// Perfect-play endgame tables: every position with at most S seeds on the board, valued
/// exactly (the mover's future captures minus the opponent's, with best play).
///
/// The tables live in DIR (default: $SOWING_TABLES, else the user's data directory, e.g.
/// ~/.local/share/sowing/tables), one directory per game and options, one file per layer.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Build(BuildArgs),
    Probe(ProbeArgs),
    Verify(FamilyArgs),
    Stats(FamilyArgs),
    Bench(BenchArgs),
    BenchProbe(BenchProbeArgs),
    Compress(CompressArgs),
    Errors(ErrorsArgs),
}

/// Build the tables of one game (with its options) up to a number of seeds on the board.
/// Layers already on disk are checked and kept, so an interrupted build resumes.
///
/// By default only the layers play from the start can reach are built: in Hoyito every
/// capture takes a multiple of 4 seeds, so the layers 4, 8, 12, …; --layers all builds
/// every one, --layer N adds layer N (for set-up positions) with the layers it needs.
#[derive(clap::Args)]
struct BuildArgs {
    #[command(flatten)]
    options: GameOptions,
    /// The largest number of seeds on the board (may be left out with --layer).
    #[arg(long, required_unless_present = "layer")]
    max_seeds: Option<usize>,
    /// Which layers up to --max-seeds: those play from the start reaches (in Hoyito the
    /// multiples of 4), or all.
    #[arg(long, value_enum, default_value = "reachable")]
    layers: LayersArg,
    /// Build this layer too (repeatable), with the layers below it that its captures reach.
    #[arg(long, value_name = "N")]
    layer: Vec<usize>,
    #[command(flatten)]
    dir: DirOption,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Solve every layer through work files on disk (a layer too large for memory always
    /// is): resumable after a kill at any point.
    #[arg(long)]
    on_disk: bool,
    /// The most memory, in GiB, a layer solved in memory may take (about 26 bytes a
    /// position); a larger layer is solved on disk. Without it a layer whose moves fit the
    /// machine's memory is solved in memory.
    #[arg(long, value_name = "GIB")]
    memory: Option<f64>,
    /// On disk: the least time between two checkpoints of a layer's solve.
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    checkpoint_secs: u64,
    /// On disk: positions expanded into one pair of work files.
    #[arg(long, hide = true, default_value_t = OnDisk::default().range)]
    range_positions: u64,
    /// Write the layers built compressed (`layer-NNN.sowz`, as `sow tables compress`
    /// writes them) instead of raw; the layers below are held in memory while building.
    #[arg(long)]
    compressed: bool,
    /// On disk: moves reversed in memory at once (4 bytes each).
    #[arg(long, hide = true, default_value_t = OnDisk::default().bucket_moves)]
    bucket_moves: u64,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum LayersArg {
    Reachable,
    All,
}

/// Print the exact value of a position and of each of its moves, as one line of JSON:
/// {"value": V, "moves": [{"move": "C", "value": v}, …]} (values for the player to move).
#[derive(clap::Args)]
struct ProbeArgs {
    /// The position text (docs/notation.md), e.g. "hoyito-ii 0,1,0,0,2,0/0,0,3,0,0,0 20-21 S -".
    position: String,
    #[command(flatten)]
    dir: DirOption,
}

/// The tables of one game, or (without --game) every set found in the directory.
#[derive(clap::Args)]
struct FamilyArgs {
    #[command(flatten)]
    options: GameOptions,
    #[command(flatten)]
    dir: DirOption,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
}

/// Probes a second on one thread, tables warm.
#[derive(clap::Args)]
struct BenchArgs {
    #[command(flatten)]
    options: GameOptions,
    #[command(flatten)]
    dir: DirOption,
    /// Random positions probed.
    #[arg(long, default_value_t = 2_000_000)]
    probes: usize,
}

/// The strength of a player against perfect play: positions inside the tables with a real
/// choice (two legal moves whose values differ) are drawn from self-play games (level 3
/// after 6 random moves, no position twice, each without its history); the player chooses
/// a move in each, afresh, within the limits (default 100 ms). Prints, per seeds on the
/// board, the share of its moves that lose value and the seeds they give up.
///
/// The player gets the tables only if it asks for them (levels 5–6, `perfect`,
/// `search:tables=on`): the default, `search`, measures the search without them.
#[derive(clap::Args)]
struct ErrorsArgs {
    #[command(flatten)]
    options: GameOptions,
    #[command(flatten)]
    dir: DirOption,
    /// The player measured.
    #[arg(long, default_value = "search")]
    player: String,
    /// The tables the player may use (with `tables=on` in its settings; default: --dir), e.g.
    /// tables to 20 seeds, measured in positions above them against tables to 28.
    #[arg(long, value_name = "DIR")]
    player_tables: Option<PathBuf>,
    /// Only positions with at least this many seeds on the board.
    #[arg(long, default_value_t = 0)]
    min_seeds: usize,
    #[command(flatten)]
    limits: LimitOptions,
    /// Positions to measure.
    #[arg(long, default_value_t = 2_000)]
    positions: usize,
    /// Seed of the self-play games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Positions searched at once (default 1: each timed search has the machine's core to
    /// itself, as far as the machine allows).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

fn run_errors(args: ErrorsArgs) -> Result<()> {
    let rules = args.options.rules()?;
    let dir = args.dir.dir()?;
    let tables = Tables::open(&dir, rules)?;
    if tables.max_seeds() == 0 {
        bail!("no tables of {} in {}", Family::of(rules), dir.display());
    }
    let spec: sowing_engine::PlayerSpec = args.player.parse()?;
    let set = sowing_engine::TableSet::resolve(Some(args.player_tables.as_ref().unwrap_or(&dir)))?;
    crate::strength::run(
        &tables,
        rules,
        &spec,
        set,
        &args.limits.limits(100),
        crate::strength::Draw {
            count: args.positions,
            min_seeds: args.min_seeds,
            seed: args.seed,
        },
        args.threads,
    )
}

pub fn run(args: Args) -> Result<()> {
    match args.command {
        Command::Build(args) => run_build(args),
        Command::Probe(args) => run_probe(args),
        Command::Verify(args) => run_verify(args, false),
        Command::Stats(args) => run_verify(args, true),
        Command::Bench(args) => run_bench(args),
        Command::BenchProbe(args) => crate::tables_bench::run(args),
        Command::Compress(args) => crate::tables_compress::run(args),
        Command::Errors(args) => run_errors(args),
    }
}

fn run_build(args: BuildArgs) -> Result<()> {
    let rules = args.options.rules()?;
    let dir = args.dir.dir()?;
    let options = build::Options {
        threads: args.threads,
        progress: !args.quiet,
        layers: match args.layers {
            LayersArg::Reachable => build::Layers::Reachable,
            LayersArg::All => build::Layers::All,
        },
        extra: args.layer.clone(),
        on_disk: args.on_disk,
        memory: args.memory.map(|gib| (gib * (1u64 << 30) as f64) as u64),
        disk: OnDisk {
            range: args.range_positions.max(1),
            bucket_moves: args.bucket_moves.max(1),
            checkpoint: Duration::from_secs(args.checkpoint_secs),
        },
        compressed: args.compressed.then(Default::default),
    };
    if let Some(gib) = args.memory.filter(|gib| !gib.is_finite() || *gib <= 0.0) {
        bail!("--memory {gib}: must be a positive number of GiB");
    }
    if let Some(zero) = args.layer.iter().find(|&&n| n == 0) {
        bail!("--layer {zero}: an empty board has no layer (layers start at 1)");
    }
    let max_seeds = args.max_seeds.unwrap_or(0);
    let plan = build::plan(
        &Family::of(rules),
        max_seeds,
        options.layers,
        &options.extra,
    );
    if plan.is_empty() {
        bail!(
            "no layer to build: --max-seeds {max_seeds} holds no layer play reaches in {} \
             (every capture takes {} seeds); give --layers all or a larger --max-seeds",
            Family::of(rules),
            Family::of(rules).capture_step()
        );
    }
    let report = build::build(&dir, rules, max_seeds, &options)?;
    for (seeds, why) in &report.replaced {
        eprintln!("sow: layer {seeds} was refused and built again: {why}");
    }
    if !report.on_disk.is_empty() {
        eprintln!("solved on disk: layers {}", short_list(&report.on_disk));
    }
    let seconds = report.elapsed.as_secs_f64();
    eprintln!(
        "{}: layers {} in {} ({} built, {} kept); {} positions computed in {seconds:.1} s{}",
        Family::of(rules),
        short_list(&plan),
        dir.join(Family::of(rules).name()).display(),
        report.built.len(),
        report.reused.len(),
        report.positions,
        if seconds > 0.0 {
            format!(" ({:.0} positions/s)", report.positions as f64 / seconds)
        } else {
            String::new()
        }
    );
    Ok(())
}

fn run_probe(args: ProbeArgs) -> Result<()> {
    let position: Position = args
        .position
        .parse()
        .with_context(|| format!("cannot read the position {:?}", args.position))?;
    let dir = args.dir.dir()?;
    let tables = Tables::open_up_to(&dir, position.rules(), position.seeds_on_board())?;
    let probe = tables.probe(&position)?;
    let n = position.rules().pits_per_row();
    let line = ProbeLine {
        value: probe.value,
        moves: probe
            .moves
            .iter()
            .map(|&(mv, value)| MoveValue {
                mv: mv.name(n).to_string(),
                value,
            })
            .collect(),
    };
    println!("{}", serde_json::to_string(&line)?);
    Ok(())
}

/// The line `sow tables probe` prints (fields in this order).
#[derive(serde::Serialize)]
struct ProbeLine {
    value: i32,
    moves: Vec<MoveValue>,
}

#[derive(serde::Serialize)]
struct MoveValue {
    #[serde(rename = "move")]
    mv: String,
    value: i32,
}

fn run_verify(args: FamilyArgs, stats: bool) -> Result<()> {
    let dir = args.dir.dir()?;
    let options = build::Options {
        threads: args.threads,
        ..build::Options::default()
    };
    for rules in families(&args.options, &dir)? {
        let family = Family::of(rules);
        let started = Instant::now();
        let proof = verify::verify(&dir, rules, &options)?;
        if proof.layers.is_empty() {
            bail!("no layers of {family} in {}", dir.display());
        }
        if stats {
            println!("{family}");
            println!("seeds  positions       win %   draw %   loss %  best  longest win");
            for layer in &proof.layers {
                let share = |n: u64| 100.0 * n as f64 / layer.positions as f64;
                println!(
                    "{:>5}  {:>14}  {:>6.2}  {:>7.2}  {:>7.2}  {:>4}  {:>6} moves",
                    layer.seeds,
                    layer.positions,
                    share(layer.wins),
                    share(layer.draws),
                    share(layer.losses),
                    layer.best,
                    layer.longest_win
                );
            }
        } else {
            let positions: u64 = proof.layers.iter().map(|l| l.positions).sum();
            let seeds: Vec<usize> = proof.layers.iter().map(|l| l.seeds).collect();
            println!(
                "{family}: layers {} proved ({positions} positions, {:.1} s)",
                short_list(&seeds),
                started.elapsed().as_secs_f64()
            );
        }
    }
    Ok(())
}

fn run_bench(args: BenchArgs) -> Result<()> {
    let rules = args.options.rules()?;
    let dir = args.dir.dir()?;
    let tables = Tables::open(&dir, rules)?;
    let family = tables.family();
    let max = tables.max_seeds();
    if max == 0 {
        bail!("no tables of {family} in {}", dir.display());
    }
    let built = tables.layers_built();
    let positions = random_positions(&tables, args.probes, 1);
    let mut touch = 0i64;
    for position in &positions {
        touch += i64::from(tables.value(position)?);
    }
    let started = Instant::now();
    let mut probes = 0usize;
    let mut sum = 0i64;
    while probes < args.probes {
        for position in &positions {
            sum += i64::from(tables.value(position)?);
        }
        probes += positions.len();
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{family}, layers {}: {probes} probes in {seconds:.2} s = {:.0} probes/s \
         (one thread; checksum {})",
        short_list(&built),
        probes as f64 / seconds,
        sum + touch
    );
    Ok(())
}
