//! `sow tables compress`: raw layer files to compressed ones (docs/tables.md, "Compressed
//! tables"). Each compressed file is read back from disk through the probing path and
//! compared with its raw file, value for value, before the raw file is removed.

use std::time::Instant;

use anyhow::{bail, Result};
use sowing_tables::compressed::{self, Settings};
use sowing_tables::layer::{self, Format, Values};
use sowing_tables::{file, Family, TablesError, MAX_LAYER_SEEDS};

use crate::options::{DirOption, GameOptions};
use crate::table_sets::{families, short_list};

/// Compress the tables of one game, or (without --game) every set found in the directory:
/// each raw layer file (`layer-NNN.sowt`) becomes a compressed one (`layer-NNN.sowz`,
/// blocks of positions compressed with zstd), which every reader of the tables reads
/// in its place.
///
/// Each compressed file is written under a temporary name and renamed, then read back and
/// compared with the raw file value for value; only then is the raw file removed (kept with
/// --keep-raw). A layer already compressed from the same values is checked, not written
/// again, so an interrupted run resumes.
#[derive(clap::Args)]
pub struct CompressArgs {
    #[command(flatten)]
    options: GameOptions,
    #[command(flatten)]
    dir: DirOption,
    /// Keep the raw files beside the compressed ones (readers then use the raw ones).
    #[arg(long)]
    keep_raw: bool,
    /// Write nothing: compare every compressed file that has its raw file beside it, value
    /// for value.
    #[arg(long)]
    check: bool,
    /// The zstd level (1–22): higher is smaller and slower to write, as fast to read.
    #[arg(long, default_value_t = Settings::default().level,
          value_parser = clap::value_parser!(i32).range(1..=22))]
    level: i32,
    /// Positions a block (a probe decompresses one block).
    #[arg(long, default_value_t = Settings::default().block)]
    block_positions: u32,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
}

/// What happened to the layers of one family.
#[derive(Default)]
struct Totals {
    layers: Vec<usize>,
    raw_bytes: u64,
    compressed_bytes: u64,
    written: usize,
    checked: usize,
}

pub fn run(args: CompressArgs) -> Result<()> {
    let dir = args.dir.dir()?;
    let settings = Settings {
        block: args.block_positions,
        level: args.level,
    };
    if settings.block == 0 {
        bail!("--block-positions 0: a block holds at least one position");
    }
    let pool = sowing_tables::threads::thread_pool(args.threads)
        .map_err(|e| anyhow::anyhow!("cannot start the threads: {e}"))?;
    for rules in families(&args.options, &dir)? {
        let family = Family::of(rules);
        let started = Instant::now();
        let mut totals = Totals::default();
        for seeds in 1..=MAX_LAYER_SEEDS {
            pool.install(|| compress_layer(&dir, &family, seeds, &args, settings, &mut totals))?;
        }
        if totals.layers.is_empty() {
            bail!("no layers of {family} in {}", dir.display());
        }
        println!(
            "{family}: layers {}: {} raw bytes, {} compressed ({:.2}× smaller); {} written, \
             {} checked value for value against the raw files; {:.1} s",
            short_list(&totals.layers),
            totals.raw_bytes,
            totals.compressed_bytes,
            totals.raw_bytes as f64 / totals.compressed_bytes.max(1) as f64,
            totals.written,
            totals.checked,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// Compresses (or, with --check, only compares) layer `seeds`, adding to `totals`.
fn compress_layer(
    dir: &std::path::Path,
    family: &Family,
    seeds: usize,
    args: &CompressArgs,
    settings: Settings,
    totals: &mut Totals,
) -> Result<()> {
    let raw_path = file::layer_path(dir, family, seeds);
    let path = file::compressed_path(dir, family, seeds);
    let started = Instant::now();
    let Some(raw) = layer::open(dir, family, seeds, Some(Format::Raw))? else {
        // Compressed before (the raw file removed): its header, index and checksum are
        // checked on opening.
        if let Some(values) = layer::open(dir, family, seeds, Some(Format::Compressed))? {
            totals.layers.push(seeds);
            let size = file_len(&path)?;
            totals.raw_bytes += file::HEADER_LEN as u64 + values.len();
            totals.compressed_bytes += size;
        }
        return Ok(());
    };
    let existing = match layer::open(dir, family, seeds, Some(Format::Compressed)) {
        Ok(existing) => existing,
        Err(error @ TablesError::Corrupt { .. }) if !args.check => {
            eprintln!("sow: {error}; compressing layer {seeds} again");
            None
        }
        Err(error) => return Err(error.into()),
    };
    let fresh = match existing {
        // With --check, whatever it holds is compared below.
        Some(Values::Compressed(c)) if args.check || c.values_crc() == crc_of_raw(&raw_path)? => {
            false
        }
        _ if args.check => {
            eprintln!("sow: layer {seeds} of {family} has no compressed file to check");
            return Ok(());
        }
        _ => {
            let bytes = compressed::compress(family, seeds, &raw.all()?, settings)?;
            file::write_atomically(&path, &bytes)?;
            totals.written += 1;
            true
        }
    };
    let compressed_values =
        layer::open(dir, family, seeds, Some(Format::Compressed))?.ok_or_else(|| {
            anyhow::anyhow!("{}: vanished right after it was written", path.display())
        })?;
    if let Some(index) = layer::first_difference(&raw, &compressed_values)? {
        bail!(
            "{}: position {index} of layer {seeds} reads {} where the raw file {} holds {}",
            path.display(),
            compressed_values.get(index)? as i8,
            raw_path.display(),
            raw.get(index)? as i8
        );
    }
    totals.checked += 1;
    totals.layers.push(seeds);
    let size = file_len(&path)?;
    totals.raw_bytes += file_len(&raw_path)?;
    totals.compressed_bytes += size;
    eprintln!(
        "{family} layer {seeds}: {} → {size} bytes ({:.2}×){}, checked in {:.1} s",
        file_len(&raw_path)?,
        file_len(&raw_path)? as f64 / size.max(1) as f64,
        if fresh {
            ", compressed"
        } else {
            ", already compressed"
        },
        started.elapsed().as_secs_f64()
    );
    if !args.keep_raw && !args.check {
        drop(raw);
        std::fs::remove_file(&raw_path)
            .map_err(|e| anyhow::anyhow!("{}: cannot remove it: {e}", raw_path.display()))?;
    }
    Ok(())
}

/// The CRC-32 of the values in a raw layer file's header (checked when it was opened).
fn crc_of_raw(path: &std::path::Path) -> Result<u32> {
    use std::io::Read;
    let mut header = [0u8; file::HEADER_LEN];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut header))
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok(u32::from_le_bytes(
        header[32..36].try_into().expect("4 bytes"),
    ))
}

fn file_len(path: &std::path::Path) -> Result<u64> {
    Ok(std::fs::metadata(path)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
        .len())
}
