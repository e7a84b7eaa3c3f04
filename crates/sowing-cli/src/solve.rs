//! `sow solve`: prove the value of a position (the start by default) by search down to the
//! endgame tables, with a certificate; `sow solve verify` checks a certificate
//! (crate `sowing-solve`, docs/solve.md).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Subcommand;
use sowing::{Position, Variant};
use sowing_solve::certificate::Certificate;
use sowing_solve::prove::{Prover, Stop};
use sowing_solve::{check, solve};
use sowing_tables::Tables;

use crate::options::GameOptions;

/// Prove bounds on the value of a position (the start when none is given) and narrow them
/// until they meet: V = the mover's future captures minus the opponent's with best play,
/// as the endgame tables define it (play that never ends is worth 0 for the seeds left).
///
/// Progress lines go to standard error; the result to standard output, its last line one
/// line of JSON: {"lower": L, "upper": U, "exact": V or null, "nodes": N, "seconds": S,
/// "certificate": "PATH", "moves": [{"move": "A", "lower": l, "upper": u}, …]} (moves'
/// values for the mover, once the position's value is exact). The certificate is checked
/// by `sow solve verify` before the run ends. A checkpoint (the proven claims) is written
/// as the run goes and read again by the next run with the same certificate path, so a
/// stopped run resumes.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    options: GameOptions,
    /// The position text (docs/notation.md); default: the start of the game.
    position: Option<String>,
    /// The endgame tables' directory (default: $SOWING_TABLES, else the user's data
    /// directory); their positions are the search's exact leaves.
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    /// Use the tables only up to this many seeds (default: all there are).
    #[arg(long)]
    leaf_seeds: Option<usize>,
    /// Memory for the search, in GiB (the proven claims and the table of open questions).
    #[arg(long, default_value_t = 2.0)]
    memory: f64,
    /// The certificate to write (default: FAMILY.cert, or FAMILY-HASH.cert for a position).
    #[arg(long, value_name = "PATH")]
    certificate: Option<PathBuf>,
    /// Ignore the checkpoint of an earlier run.
    #[arg(long)]
    fresh: bool,
    /// Stop after this many seconds (the bounds proven so far are reported).
    #[arg(long)]
    max_seconds: Option<f64>,
    /// Stop after this many nodes.
    #[arg(long)]
    max_nodes: Option<u64>,
    /// Do not value the position's moves once its value is exact.
    #[arg(long)]
    no_moves: bool,
    /// Start the tests at both ends of the interval, galloping inward, instead of in its
    /// middle: bounds far from the value come sooner when the run cannot finish.
    #[arg(long)]
    from_ends: bool,
    /// Seconds between progress lines.
    #[arg(long, default_value_t = 10.0)]
    progress: f64,
    /// Seconds between checkpoints.
    #[arg(long, default_value_t = 300.0)]
    checkpoint_every: f64,
}

#[derive(Subcommand)]
enum Command {
    Verify(VerifyArgs),
}

/// Check a certificate written by `sow solve`: every claim against the rules and the
/// tables, and no claim that needs a gain relying on itself. Prints what it proves, or
/// fails naming the first position whose claim fails.
#[derive(clap::Args)]
struct VerifyArgs {
    /// The certificate file.
    file: PathBuf,
    /// The endgame tables' directory (default: $SOWING_TABLES, else the user's data
    /// directory).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
}

fn tables_dir(explicit: Option<&Path>) -> Result<PathBuf> {
    if let Some(dir) = explicit {
        return Ok(dir.to_path_buf());
    }
    match sowing_engine::tables::default_dir() {
        Some(dir) => Ok(dir),
        None => bail!("no data directory is known here: give --tables or set SOWING_TABLES"),
    }
}

#[derive(serde::Serialize)]
struct ResultLine {
    lower: i32,
    upper: i32,
    exact: Option<i32>,
    nodes: u64,
    seconds: f64,
    certificate: String,
    moves: Vec<MoveLine>,
}

#[derive(serde::Serialize)]
struct MoveLine {
    #[serde(rename = "move")]
    mv: String,
    lower: i32,
    upper: i32,
}

pub fn run(args: Args) -> Result<()> {
    if let Some(Command::Verify(verify)) = args.command {
        return run_verify(verify);
    }
    let position: Position = match &args.position {
        Some(text) => text
            .parse()
            .with_context(|| format!("cannot read the position {text:?}"))?,
        None => Position::start(args.options.rules_or(Variant::HoyitoII)?),
    };
    if args.position.is_some() && (args.options.game.is_some() || args.options.pits.is_some()) {
        bail!("give either a position text or --game, not both (the text names its game)");
    }
    if !args.memory.is_finite() || args.memory <= 0.0 {
        bail!("--memory must be a positive number of GiB");
    }
    let dir = tables_dir(args.tables.as_deref())?;
    let tables = Tables::open_up_to(
        &dir,
        position.rules(),
        args.leaf_seeds.unwrap_or(sowing_tables::MAX_LAYER_SEEDS),
    )
    .with_context(|| format!("--tables {}", dir.display()))?;
    if tables.max_seeds() == 0 {
        bail!(
            "no tables for {} in {}: build some with `sow tables build --dir {} --max-seeds 12 …`",
            tables.family(),
            dir.display(),
            dir.display()
        );
    }
    let family = tables.family();
    // Every position the solve meets has the root's seeds less a multiple of the capture
    // step, and those up to the tables' largest layer are valued from them: each must be
    // built (by default only the layers play reaches are: a set-up position of Hoyito with
    // 13 seeds needs 9, 5 and 1).
    let seeds = position.seeds_on_board();
    let step = family.capture_step();
    let leaf = tables.max_seeds().min(seeds);
    if let Some(missing) = (1..=leaf)
        .rev()
        .filter(|s| (seeds - s).is_multiple_of(step))
        .find(|&s| !tables.built(s))
    {
        let top = (1..=leaf)
            .rev()
            .find(|s| (seeds - s).is_multiple_of(step))
            .unwrap_or(missing);
        bail!(
            "the position has {seeds} seeds on the board, so its play reaches layer {missing} \
             of the tables, which is not built in {}: build it with `sow tables build \
             --layer {top}` and the game's options",
            tables.dir().display()
        );
    }
    let certificate_path = args.certificate.clone().unwrap_or_else(|| {
        if args.position.is_none() {
            PathBuf::from(format!("{family}.cert"))
        } else {
            PathBuf::from(format!("{family}-{:016x}.cert", position.hash()))
        }
    });
    let checkpoint_path = PathBuf::from(format!("{}.checkpoint", certificate_path.display()));

    let memory = (args.memory * (1u64 << 30) as f64) as usize;
    let mut prover = Prover::new(&tables, memory);
    if !args.fresh && checkpoint_path.exists() {
        let loaded = solve::read_checkpoint(&mut prover, &checkpoint_path)?;
        eprintln!(
            "resuming from {} ({loaded} positions with proven bounds)",
            checkpoint_path.display()
        );
    }
    eprintln!(
        "solving {position} with tables to {} seeds ({}), {:.1} GiB",
        tables.max_seeds(),
        tables.dir().display(),
        args.memory
    );
    let started = Instant::now();
    let rules = position.rules();
    let progress_every = Duration::from_secs_f64(args.progress.max(0.1));
    let checkpoint_every = Duration::from_secs_f64(args.checkpoint_every.max(1.0));
    let (mut last_progress, mut last_checkpoint) = (Instant::now(), Instant::now());
    let root = position;
    let hook_checkpoint = checkpoint_path.clone();
    prover.set_hook(Box::new(move |prover: &Prover<'_>| {
        let now = Instant::now();
        if now.duration_since(last_progress) >= progress_every {
            last_progress = now;
            let (lo, hi) = prover.bounds(&root);
            let secs = started.elapsed().as_secs_f64();
            eprintln!(
                "bounds [{lo}, {hi}]  testing V ≥ {} at depth {}  nodes {}  {:.0} nodes/s  \
                 {} claims  {} MiB  {secs:.0} s",
                prover.testing,
                prover.depth,
                prover.nodes(),
                prover.nodes() as f64 / secs.max(1e-9),
                prover.store().len(),
                prover.memory() >> 20,
            );
        }
        if now.duration_since(last_checkpoint) >= checkpoint_every {
            last_checkpoint = now;
            if let Err(e) = solve::write_checkpoint(prover, rules, &hook_checkpoint) {
                eprintln!("warning: checkpoint not written: {e}");
            }
        }
    }));
    let options = solve::Options {
        max_time: args.max_seconds.map(Duration::from_secs_f64),
        max_nodes: args.max_nodes,
        moves: !args.no_moves,
        order: if args.from_ends {
            solve::Order::FromEnds
        } else {
            solve::Order::Bisect
        },
        ..solve::Options::default()
    };
    let solution = solve::solve(&mut prover, &position, &options)?;
    let seconds = started.elapsed().as_secs_f64();
    let checkpoint_bytes = solve::write_checkpoint(&prover, rules, &checkpoint_path)?;
    let roots = solve::roots(&prover, &position, &solution);
    let certificate = solve::certificate(&prover, rules, roots)?;
    let bytes = certificate.write(&certificate_path)?;
    let report = check::verify(&certificate, &tables)
        .context("the run's own certificate does not check (a prover bug)")?;
    let n = rules.pits_per_row();
    match solution.stopped {
        Some(Stop::Time) => println!("stopped: the time limit"),
        Some(Stop::Nodes) => println!("stopped: the node limit"),
        Some(Stop::Memory) => println!("stopped: the memory limit (give more --memory)"),
        None if solution.exact().is_none() => {
            println!("stopped: a test needed more than the deepest search")
        }
        None => {}
    }
    match solution.exact() {
        Some(v) => println!("value: {v} for the player to move"),
        None => println!("bounds: {} ≤ V ≤ {}", solution.lower, solution.upper),
    }
    for m in &solution.moves {
        if m.lower == m.upper {
            println!("  {}: {}", m.mv.name(n), m.lower);
        } else {
            println!("  {}: [{}, {}]", m.mv.name(n), m.lower, m.upper);
        }
    }
    println!(
        "nodes: {}  seconds: {seconds:.1}  memory: {} MiB  claims proven: {}",
        solution.nodes,
        prover.memory() >> 20,
        prover.store().len()
    );
    println!(
        "certificate: {} ({} claims, {bytes} bytes; checked), checkpoint: {} ({checkpoint_bytes} bytes)",
        certificate_path.display(),
        report.claims,
        checkpoint_path.display()
    );
    let line = ResultLine {
        lower: solution.lower,
        upper: solution.upper,
        exact: solution.exact(),
        nodes: solution.nodes,
        seconds: (seconds * 10.0).round() / 10.0,
        certificate: certificate_path.display().to_string(),
        moves: solution
            .moves
            .iter()
            .map(|m| MoveLine {
                mv: m.mv.name(n).to_string(),
                lower: m.lower,
                upper: m.upper,
            })
            .collect(),
    };
    println!("{}", serde_json::to_string(&line)?);
    Ok(())
}

fn run_verify(args: VerifyArgs) -> Result<()> {
    let certificate = Certificate::read(&args.file)?;
    let bytes = std::fs::metadata(&args.file)
        .with_context(|| args.file.display().to_string())?
        .len();
    let dir = tables_dir(args.tables.as_deref())?;
    let tables = Tables::open_up_to(&dir, certificate.rules, certificate.leaf_seeds)
        .with_context(|| format!("--tables {}", dir.display()))?;
    let report = check::verify(&certificate, &tables)?;
    for root in &report.roots {
        println!(
            "proven: {}: V {} {}  ({})",
            root.label, root.kind, root.bound, root.position
        );
    }
    println!(
        "confirmed: {} ({} claims, {bytes} bytes, leaves in tables to {} seeds)",
        args.file.display(),
        report.claims,
        certificate.leaf_seeds
    );
    Ok(())
}
