//! `sow tables bench-probe`: the time of single probes, raw or compressed, as percentiles
//! (the figures of docs/tables.md's "Compressed tables"), and the random positions the
//! table benchmarks probe.

use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use sowing::{FinalFour, Position};
use sowing_tables::{file, Family, Format, Tables, MAX_LAYER_SEEDS};

use crate::options::{DirOption, GameOptions};
use crate::table_sets::short_list;

/// The time of single probes, as percentiles: opening the tables; `value` (the stored
/// value alone) and `probe` (it and every move's) of random positions, each timed on its
/// first probe after opening and again right after (warm: its blocks in the cache). One
/// thread.
#[derive(clap::Args)]
pub struct BenchProbeArgs {
    #[command(flatten)]
    options: GameOptions,
    #[command(flatten)]
    dir: DirOption,
    /// Which layer files to read: raw or compressed (default: those on disk, the raw ones
    /// when both are).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Random positions timed, for `value` and again for `probe`.
    #[arg(long, default_value_t = 100_000)]
    positions: usize,
    /// Before opening, ask the system to drop the layer files from its page cache (Linux),
    /// so that opening reads them from disk.
    #[arg(long)]
    cold: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum FormatArg {
    Raw,
    Compressed,
}

pub fn run(args: BenchProbeArgs) -> Result<()> {
    let rules = args.options.rules()?;
    let dir = args.dir.dir()?;
    let family = Family::of(rules);
    let format = args.format.map(|f| match f {
        FormatArg::Raw => Format::Raw,
        FormatArg::Compressed => Format::Compressed,
    });
    if args.cold {
        drop_from_page_cache(&dir, &family)?;
    }
    let started = Instant::now();
    let tables = Tables::open_format(&dir, rules, MAX_LAYER_SEEDS, format)?;
    let opened = started.elapsed();
    if tables.max_seeds() == 0 {
        bail!("no tables of {family} in {}", dir.display());
    }
    let built = tables.layers_built();
    let forms: Vec<&str> = built
        .iter()
        .map(|&s| match tables.values(s).format() {
            Some(Format::Compressed) => "compressed",
            _ => "raw",
        })
        .collect();
    let form = if forms.iter().all(|f| *f == forms[0]) {
        forms[0]
    } else {
        "raw and compressed"
    };
    println!(
        "{family}, {form}, layers {}: opened in {:.1} ms{}",
        short_list(&built),
        opened.as_secs_f64() * 1e3,
        if args.cold {
            " (page cache dropped)"
        } else {
            ""
        }
    );
    let count = args.positions.max(1);
    let positions = random_positions(&tables, 2 * count, 7);
    let (for_value, for_probe) = positions.split_at(count);
    let mut first = Vec::with_capacity(count);
    let mut again = Vec::with_capacity(count);
    let mut sum = 0i64;
    for position in for_value {
        let started = Instant::now();
        sum += i64::from(tables.value(position)?);
        first.push(started.elapsed());
        let started = Instant::now();
        sum += i64::from(tables.value(position)?);
        again.push(started.elapsed());
    }
    print_percentiles("value, first", &mut first);
    print_percentiles("value, again", &mut again);
    first.clear();
    again.clear();
    for position in for_probe {
        let started = Instant::now();
        sum += i64::from(tables.probe(position)?.value);
        first.push(started.elapsed());
        let started = Instant::now();
        sum += i64::from(tables.probe(position)?.value);
        again.push(started.elapsed());
    }
    print_percentiles("probe, first", &mut first);
    print_percentiles("probe, again", &mut again);
    println!("  ({count} positions each; checksum {sum})");
    Ok(())
}

fn print_percentiles(what: &str, times: &mut [Duration]) {
    times.sort_unstable();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e6;
    println!(
        "  {what:<13} p50 {:>8.2} µs  p99 {:>8.2} µs  max {:>9.1} µs",
        at(0.5),
        at(0.99),
        at(1.0)
    );
}

/// Asks the system to drop the family's layer files (raw and compressed) from its page
/// cache: they must not be mapped by a running program, or their pages stay.
fn drop_from_page_cache(dir: &std::path::Path, family: &Family) -> Result<()> {
    for seeds in 1..=MAX_LAYER_SEEDS {
        for path in [
            file::layer_path(dir, family, seeds),
            file::compressed_path(dir, family, seeds),
        ] {
            if path.exists() {
                advise_dont_need(&path)?;
            }
        }
    }
    Ok(())
}

#[cfg(target_os = "linux")]
fn advise_dont_need(path: &std::path::Path) -> Result<()> {
    use std::os::fd::AsRawFd;
    let file = std::fs::File::open(path)?;
    // SAFETY: a valid open descriptor; the call only advises the kernel.
    let code = unsafe { libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
    if code != 0 {
        bail!(
            "{}: cannot drop it from the page cache (error {code})",
            path.display()
        );
    }
    Ok(())
}

#[cfg(not(target_os = "linux"))]
fn advise_dont_need(_: &std::path::Path) -> Result<()> {
    bail!("--cold needs Linux (posix_fadvise)")
}

/// `count` random positions of the layers built (at most 4 million), weighted by the layers'
/// sizes, half with North to move.
pub fn random_positions(tables: &Tables, count: usize, seed: u64) -> Vec<Position> {
    let family = tables.family();
    let mut rng = sowing_engine::random::Rng::new(seed);
    let built = tables.layers_built();
    let total: u64 = built.iter().map(|&s| family.layer_len(s)).sum();
    (0..count.min(1 << 22))
        .map(|_| {
            // A bias of at most total / 2⁶⁴: nothing for a benchmark.
            let mut at = rng.next_u64() % total;
            let mut layers = built.iter();
            let mut seeds = *layers.next().expect("a layer is built");
            while at >= family.layer_len(seeds) {
                at -= family.layer_len(seeds);
                seeds = *layers.next().expect("the layers hold `total` positions");
            }
            let position = family.position(seeds, at);
            if rng.next_u32() & 1 == 1 {
                mirrored(&position)
            } else {
                position
            }
        })
        .collect()
}

/// The same position with the board turned and North to move.
fn mirrored(position: &Position) -> Position {
    let n = position.rules().pits_per_row();
    let pits = position.pits();
    let turned: Vec<u8> = (0..2 * n).map(|i| pits[(i + n) % (2 * n)]).collect();
    let mut rules = position.rules();
    if let FinalFour::To(side) = rules.final_four {
        rules.final_four = FinalFour::To(!side);
    }
    Position::from_parts(
        rules,
        &turned,
        position.captured(),
        !position.to_move(),
        position.last_sower().map(|s| !s),
    )
    .expect("a turned position is valid")
}
