//! A layer larger than memory, solved through files in a work directory beside its layer
//! file (`layer-NNN.work/`), in steps that each leave files a killed build resumes from:
//!
//! 1. **Expansion**: each range of positions is expanded and written as two files, its
//!    children (4 bytes a move inside) and its best exits and move counts (2 bytes a
//!    position); the second is renamed into place last, so a range whose files are both
//!    there is complete.
//! 2. **In-degrees**: read from the children (kept in memory, 2 bytes a position), and the
//!    row starts of every block of 64 positions (8 bytes a block).
//! 3. **Reversal** in buckets of consecutive children, as many moves each as the memory
//!    budget allows: for each bucket every range's children are read again and the parents
//!    of the bucket's children placed in its rows, then written as one file. The last
//!    bucket's pass deletes the children as it reads them (so the disk holds the moves about
//!    once and a bucket, not twice; a kill then costs those ranges' expansion again); the
//!    in-degrees and the list of buckets are written last, and mark the reversal done.
//! 4. **Attractors** (the same [`Thresholds`] as in memory) with the predecessor rows read
//!    from the bucket files by `pread` (the page cache is the system's, not the process's),
//!    the frontier sorted so that the reads go forward through the files. Between two
//!    thresholds, at most every `checkpoint`, the values and counters are written to a
//!    checkpoint a resumed build starts from (the state between two thresholds determines
//!    the rest: each threshold's sets are a least fixpoint).
//!
//! The values are the same as in memory, byte for byte (`tests/on_disk.rs`).

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU16, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::{expand, Rows, Thresholds};
use crate::progress::ProgressBar;
use crate::{Family, Tables, TablesError};

/// How a layer is solved on disk.
#[derive(Clone, Debug)]
pub struct OnDisk {
    /// Positions expanded into one pair of files (at most).
    pub range: u64,
    /// Moves inside reversed in memory at once: 4 bytes each.
    pub bucket_moves: u64,
    /// The least time between two checkpoints of the attractors.
    pub checkpoint: Duration,
}

impl Default for OnDisk {
    /// 16 million positions a range, 1.8 billion moves a bucket (7.2 GB), a checkpoint every
    /// 5 minutes at most.
    fn default() -> OnDisk {
        OnDisk {
            range: 1 << 24,
            bucket_moves: 1_800_000_000,
            checkpoint: Duration::from_secs(300),
        }
    }
}

/// Positions a block of the row index: a row's start is its block's plus the in-degrees
/// before it in the block.
const BLOCK: usize = 64;

/// Predecessor entries read at once at most, and the gap between two rows read in one go.
const MAX_READ: u64 = 1 << 16;
const MAX_GAP: u64 = 1 << 10;

/// What the on-disk solve of one layer measured.
#[derive(Clone, Debug, Default)]
pub struct DiskReport {
    /// The work directory's largest size, in bytes.
    pub peak_disk: u64,
    /// Moves inside the layer.
    pub moves: u64,
    /// Attractor rounds run in this process.
    pub rounds: u64,
}

/// Solves layer `seeds` of `family` through `layer-NNN.work/` under `dir`, resuming from
/// whatever a previous run left there, and removes the work directory once the values are
/// returned.
///
/// # Errors
/// When a work file cannot be written or read, or a position has more than 65,535 moves
/// into it from its layer.
pub(crate) fn solve_layer(
    dir: &Path,
    family: &Family,
    seeds: usize,
    lower: &Tables,
    settings: &OnDisk,
    bar: &ProgressBar,
) -> Result<(Vec<u8>, DiskReport), TablesError> {
    let work = work_dir(dir, family, seeds);
    let io = |error| TablesError::io(&work, error);
    let count = family.layer_len(seeds);
    let params = format!(
        "layer {seeds} of {family}: {count} positions, {} a range\n",
        settings.range
    );
    prepare(&work, &params).map_err(io)?;
    let ranges: Vec<Range<u64>> = (0..count.div_ceil(settings.range))
        .map(|r| r * settings.range..((r + 1) * settings.range).min(count))
        .collect();
    let mut report = DiskReport::default();

    let (index, buckets) = match read_reversed(&work, count as usize).map_err(io)? {
        Some(reversed) => reversed,
        None => {
            expand_ranges(family, seeds, lower, &work, &ranges, bar)?;
            report.peak_disk = disk_use(&work);
            bar.set_message(format!("{family} layer {seeds}: counting moves in"));
            let index = RowIndex::count(&work, &ranges).map_err(io)?;
            let buckets = index.buckets(settings.bucket_moves);
            for (b, bucket) in buckets.iter().enumerate() {
                bar.set_message(format!(
                    "{family} layer {seeds}: reversing the moves, bucket {} of {}",
                    b + 1,
                    buckets.len()
                ));
                if !reversed(&work, bucket, &index) {
                    report.peak_disk = report.peak_disk.max(disk_use(&work));
                    // The last bucket's pass is the last to read the children: it deletes
                    // them as it goes (a kill then costs those ranges' expansion again).
                    let last = b + 1 == buckets.len();
                    index.reverse(&work, &ranges, bucket, last).map_err(io)?;
                }
            }
            report.peak_disk = report.peak_disk.max(disk_use(&work));
            write_reversed(&work, &index, &buckets).map_err(io)?;
            for r in 0..ranges.len() {
                remove(&children_path(&work, r)).map_err(io)?;
            }
            (index, buckets)
        }
    };
    report.moves = index.total;

    let (exit, inner) = read_exits(&work, &ranges).map_err(io)?;
    let rows = OnDiskRows::open(&work, index, &buckets).map_err(io)?;
    let mut state = match read_checkpoint(&work, count as usize).map_err(io)? {
        Some(state) => {
            drop(inner);
            state
        }
        None => Thresholds::new(&exit, inner),
    };
    let mut saved = Instant::now();
    report.rounds = state
        .run(&exit, &rows, |state| {
            bar.set_message(format!(
                "{family} layer {seeds}: solving, threshold {} left",
                state.next
            ));
            if state.next > 0 && saved.elapsed() >= settings.checkpoint {
                write_checkpoint(&work, state)?;
                saved = Instant::now();
            }
            Ok(())
        })
        .map_err(io)?;
    drop(rows);
    report.peak_disk = report.peak_disk.max(disk_use(&work));
    Ok((state.into_values(), report))
}

/// Expands every range not yet expanded into its two work files.
fn expand_ranges(
    family: &Family,
    seeds: usize,
    lower: &Tables,
    work: &Path,
    ranges: &[Range<u64>],
    bar: &ProgressBar,
) -> Result<(), TablesError> {
    let io = |error| TablesError::io(work, error);
    bar.set_message(format!(
        "{family} layer {seeds}: expanding to {}",
        work.display()
    ));
    ranges.par_iter().enumerate().try_for_each(|(r, range)| {
        if !expanded(work, r, range) {
            let expansion = expand(family, seeds, lower, range.clone())?;
            let children: Vec<u8> = expansion
                .children
                .iter()
                .flat_map(|c| c.to_le_bytes())
                .collect();
            write_file(&children_path(work, r), &children).map_err(io)?;
            drop(children);
            let mut exits: Vec<u8> = expansion.exit.iter().map(|&e| e as u8).collect();
            exits.extend_from_slice(&expansion.inner);
            write_file(&exits_path(work, r), &exits).map_err(io)?;
        }
        bar.inc(range.end - range.start);
        Ok(())
    })
}

/// Removes the work directory of a layer once its file is written.
pub(crate) fn finish(dir: &Path, family: &Family, seeds: usize) -> Result<(), TablesError> {
    let work = work_dir(dir, family, seeds);
    match fs::remove_dir_all(&work) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(TablesError::io(&work, e)),
        _ => Ok(()),
    }
}

/// The work directory of a layer solved on disk.
pub fn work_dir(dir: &Path, family: &Family, seeds: usize) -> PathBuf {
    crate::file::layer_path(dir, family, seeds).with_extension("work")
}

/// Makes the work directory, or keeps it when a run with the same parameters left it (else
/// its files are of another split and are removed).
fn prepare(work: &Path, params: &str) -> io::Result<()> {
    let path = work.join("params");
    if fs::read_to_string(&path).ok().as_deref() != Some(params) {
        if work.exists() {
            fs::remove_dir_all(work)?;
        }
        fs::create_dir_all(work)?;
        write_file(&path, params.as_bytes())?;
    }
    Ok(())
}

fn children_path(work: &Path, range: usize) -> PathBuf {
    work.join(format!("range-{range:05}.children"))
}

fn exits_path(work: &Path, range: usize) -> PathBuf {
    work.join(format!("range-{range:05}.exits"))
}

fn bucket_path(work: &Path, bucket: &Range<u64>) -> PathBuf {
    work.join(format!("rows-{:010}-{:010}", bucket.start, bucket.end))
}

/// Written once every bucket is reversed: the buckets, a line each.
fn reversed_path(work: &Path) -> PathBuf {
    work.join("reversed")
}

/// The in-degrees, kept with the rows once the children are gone.
fn degrees_path(work: &Path) -> PathBuf {
    work.join("degrees")
}

fn checkpoint_path(work: &Path) -> PathBuf {
    work.join("checkpoint")
}

/// Writes a file whole under a temporary name, then renames it: a file with its final name
/// is complete. (Not synced: the work files need to survive a killed process, not a crash of
/// the system; the layer file itself is synced.)
fn write_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let partial = path.with_extension("partial");
    fs::write(&partial, bytes)?;
    fs::rename(&partial, path)
}

/// As [`write_file`], the bytes given by `write` through a buffer (a layer's arrays are
/// written without a second copy of them in memory).
fn write_streamed(
    path: &Path,
    write: impl FnOnce(&mut io::BufWriter<File>) -> io::Result<()>,
) -> io::Result<()> {
    let partial = path.with_extension("partial");
    let mut file = io::BufWriter::with_capacity(1 << 22, File::create(&partial)?);
    write(&mut file)?;
    file.into_inner().map_err(io::IntoInnerError::into_error)?;
    fs::rename(partial, path)
}

fn remove(path: &Path) -> io::Result<()> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Fills `bytes` from `file` at `offset` without moving a shared cursor where the platform
/// allows (Unix); elsewhere (the browser build, which never solves on disk) by seeking.
#[cfg(unix)]
fn read_exact_at(file: &File, bytes: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, bytes, offset)
}

#[cfg(not(unix))]
fn read_exact_at(mut file: &File, bytes: &mut [u8], offset: u64) -> io::Result<()> {
    use std::io::Seek;
    file.seek(io::SeekFrom::Start(offset))?;
    file.read_exact(bytes)
}

fn file_len(path: &Path) -> Option<u64> {
    fs::metadata(path).ok().map(|m| m.len())
}

/// Bytes in the work directory's files.
fn disk_use(work: &Path) -> u64 {
    fs::read_dir(work)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// Whether a range's files are both there, of the right lengths.
fn expanded(work: &Path, r: usize, range: &Range<u64>) -> bool {
    let positions = range.end - range.start;
    let Some(exits) = fs::read(exits_path(work, r)).ok() else {
        return false;
    };
    let moves: u64 = exits[exits.len().min(positions as usize)..]
        .iter()
        .map(|&m| u64::from(m))
        .sum();
    exits.len() as u64 == 2 * positions && file_len(&children_path(work, r)) == Some(4 * moves)
}

/// Whether a bucket's rows are there, of the right length.
fn reversed(work: &Path, bucket: &Range<u64>, index: &RowIndex) -> bool {
    let moves = index.start(bucket.end as usize) - index.start(bucket.start as usize);
    file_len(&bucket_path(work, bucket)) == Some(4 * moves)
}

/// Writes the in-degrees, then the list of buckets, which marks the reversal done.
fn write_reversed(work: &Path, index: &RowIndex, buckets: &[Range<u64>]) -> io::Result<()> {
    write_streamed(&degrees_path(work), |file| {
        index
            .degree
            .iter()
            .try_for_each(|d| file.write_all(&d.to_le_bytes()))
    })?;
    let list: String = buckets
        .iter()
        .map(|b| format!("{} {}\n", b.start, b.end))
        .collect();
    write_file(&reversed_path(work), list.as_bytes())
}

/// The row index and the buckets of a reversal done by an earlier run, if there is one.
fn read_reversed(work: &Path, count: usize) -> io::Result<Option<(RowIndex, Vec<Range<u64>>)>> {
    let Ok(list) = fs::read_to_string(reversed_path(work)) else {
        return Ok(None);
    };
    let buckets: Option<Vec<Range<u64>>> = list
        .lines()
        .map(|line| {
            let (start, end) = line.split_once(' ')?;
            Some(start.parse().ok()?..end.parse().ok()?)
        })
        .collect();
    let bytes = fs::read(degrees_path(work))?;
    match buckets {
        Some(buckets) if bytes.len() == 2 * count => {
            let degree = bytes
                .chunks_exact(2)
                .map(|d| u16::from_le_bytes([d[0], d[1]]))
                .collect();
            Ok(Some((RowIndex::new(degree), buckets)))
        }
        _ => Err(io::Error::other(
            "the reversal's list or in-degrees are damaged",
        )),
    }
}

/// Every range's children, in parent order, read whole: `(first parent, move counts,
/// children)`, given to `each` on all threads; with `consume`, each file is deleted once read.
fn each_range(
    work: &Path,
    ranges: &[Range<u64>],
    consume: bool,
    each: impl Fn(u64, &[u8], &[u32]) + Sync,
) -> io::Result<()> {
    ranges.par_iter().enumerate().try_for_each(|(r, range)| {
        let positions = (range.end - range.start) as usize;
        let mut exits = Vec::with_capacity(2 * positions);
        File::open(exits_path(work, r))?.read_to_end(&mut exits)?;
        let mut bytes = Vec::new();
        File::open(children_path(work, r))?.read_to_end(&mut bytes)?;
        if consume {
            remove(&children_path(work, r))?;
        }
        let children: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        drop(bytes);
        each(range.start, &exits[positions..], &children);
        Ok(())
    })
}

/// The best exits and the move counts of the whole layer, from the ranges' files.
fn read_exits(work: &Path, ranges: &[Range<u64>]) -> io::Result<(Vec<i8>, Vec<u8>)> {
    let count = ranges.last().map_or(0, |r| r.end) as usize;
    let mut exit = Vec::with_capacity(count);
    let mut inner = Vec::with_capacity(count);
    for (r, range) in ranges.iter().enumerate() {
        let bytes = fs::read(exits_path(work, r))?;
        let positions = (range.end - range.start) as usize;
        exit.extend(bytes[..positions].iter().map(|&e| e as i8));
        inner.extend_from_slice(&bytes[positions..]);
    }
    Ok((exit, inner))
}

/// Where each position's row of predecessors starts: its in-degree (2 bytes) and the start of
/// every block of [`BLOCK`] positions (8 bytes), about 2.1 bytes a position in all.
struct RowIndex {
    degree: Vec<u16>,
    block: Vec<u64>,
    total: u64,
}

impl RowIndex {
    /// Counts every position's moves in from the children files.
    fn count(work: &Path, ranges: &[Range<u64>]) -> io::Result<RowIndex> {
        let count = ranges.last().map_or(0, |r| r.end) as usize;
        let degree: Vec<AtomicU16> = (0..count).map(|_| AtomicU16::new(0)).collect();
        let overflow = std::sync::atomic::AtomicBool::new(false);
        each_range(work, ranges, false, |_, _, children| {
            for &child in children {
                if degree[child as usize].fetch_add(1, Ordering::Relaxed) == u16::MAX {
                    overflow.store(true, Ordering::Relaxed);
                }
            }
        })?;
        if overflow.into_inner() {
            return Err(io::Error::other(
                "a position has more than 65,535 moves into it from its layer",
            ));
        }
        Ok(RowIndex::new(
            degree.into_iter().map(AtomicU16::into_inner).collect(),
        ))
    }

    /// The index of rows of these in-degrees.
    fn new(degree: Vec<u16>) -> RowIndex {
        let mut block = Vec::with_capacity(degree.len() / BLOCK + 2);
        let mut total = 0u64;
        for chunk in degree.chunks(BLOCK) {
            block.push(total);
            total += chunk.iter().map(|&d| u64::from(d)).sum::<u64>();
        }
        block.push(total);
        RowIndex {
            degree,
            block,
            total,
        }
    }

    /// Where the row of position `w` starts, in the layer's predecessors (`w` may be the
    /// layer's length: the end of the last row).
    #[inline]
    fn start(&self, w: usize) -> u64 {
        let first = w - w % BLOCK;
        self.block[w / BLOCK]
            + self.degree[first..w]
                .iter()
                .map(|&d| u64::from(d))
                .sum::<u64>()
    }

    /// The rows of `w`: from its start, its in-degree long.
    #[inline]
    fn row(&self, w: usize) -> Range<u64> {
        let start = self.start(w);
        start..start + u64::from(self.degree[w])
    }

    /// Consecutive children in buckets of whole blocks and at most `moves` moves in each
    /// (or one block, when a block alone has more).
    fn buckets(&self, moves: u64) -> Vec<Range<u64>> {
        let blocks = self.block.len() - 1;
        let mut out = Vec::new();
        let mut first = 0;
        for b in 1..blocks {
            // Cut before block b when taking it in would make the bucket too large.
            if self.block[b + 1] - self.block[first] > moves {
                out.push((first * BLOCK) as u64..(b * BLOCK) as u64);
                first = b;
            }
        }
        out.push((first * BLOCK) as u64..self.degree.len() as u64);
        out
    }

    /// Writes the predecessor rows of the children of `bucket` to its file, read from every
    /// range's children (deleted once read, with `consume`). Within a row the parents come in no fixed order, which the
    /// attractors do not depend on.
    fn reverse(
        &self,
        work: &Path,
        ranges: &[Range<u64>],
        bucket: &Range<u64>,
        consume: bool,
    ) -> io::Result<()> {
        let base = self.start(bucket.start as usize);
        let moves = (self.start(bucket.end as usize) - base) as usize;
        let next: Vec<AtomicU32> = (bucket.start..bucket.end)
            .map(|w| AtomicU32::new((self.start(w as usize) - base) as u32))
            .collect();
        let rows: Vec<AtomicU32> = (0..moves).map(|_| AtomicU32::new(0)).collect();
        each_range(work, ranges, consume, |first, inner, children| {
            let mut children = children.iter();
            for (parent, &moves) in (first..).zip(inner) {
                for _ in 0..moves {
                    let child = u64::from(*children.next().expect("one child a move inside"));
                    if bucket.contains(&child) {
                        let slot = &next[(child - bucket.start) as usize];
                        let at = slot.fetch_add(1, Ordering::Relaxed);
                        rows[at as usize].store(parent as u32, Ordering::Relaxed);
                    }
                }
            }
        })?;
        drop(next);
        write_streamed(&bucket_path(work, bucket), |file| {
            rows.iter()
                .try_for_each(|p| file.write_all(&p.load(Ordering::Relaxed).to_le_bytes()))
        })
    }
}

/// The predecessor rows in their bucket files, read by `pread`.
struct OnDiskRows {
    index: RowIndex,
    /// Each bucket's first child, its file, and the start of its first row.
    buckets: Vec<(u64, File, u64)>,
}

impl OnDiskRows {
    fn open(work: &Path, index: RowIndex, buckets: &[Range<u64>]) -> io::Result<OnDiskRows> {
        let buckets = buckets
            .iter()
            .map(|b| {
                let file = File::open(bucket_path(work, b))?;
                Ok((b.start, file, index.start(b.start as usize)))
            })
            .collect::<io::Result<_>>()?;
        Ok(OnDiskRows { index, buckets })
    }

    /// The bucket holding the row of `w`.
    fn bucket(&self, w: u32) -> usize {
        self.buckets.partition_point(|b| b.0 <= u64::from(w)) - 1
    }
}

impl Rows for OnDiskRows {
    const SORTED: bool = true;

    /// Reads the rows of the (sorted) members in as few reads as their closeness allows:
    /// consecutive rows of one bucket less than [`MAX_GAP`] apart are read together, up to
    /// [`MAX_READ`] entries.
    fn visit(&self, members: &[u32], visit: &mut dyn FnMut(u32, &[u32])) -> io::Result<()> {
        let mut bytes = Vec::new();
        let mut entries = Vec::new();
        let mut i = 0;
        while i < members.len() {
            let b = self.bucket(members[i]);
            let first = self.index.row(members[i] as usize);
            let mut end = first.end;
            let mut j = i + 1;
            while j < members.len() {
                let row = self.index.row(members[j] as usize);
                let same = self
                    .buckets
                    .get(b + 1)
                    .is_none_or(|next| u64::from(members[j]) < next.0);
                if !same || row.start > end + MAX_GAP || row.end - first.start > MAX_READ {
                    break;
                }
                end = row.end;
                j += 1;
            }
            let (_, file, base) = &self.buckets[b];
            bytes.resize(((end - first.start) * 4) as usize, 0);
            read_exact_at(file, &mut bytes, (first.start - base) * 4)?;
            entries.clear();
            entries.extend(
                bytes
                    .chunks_exact(4)
                    .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            );
            for &w in &members[i..j] {
                let row = self.index.row(w as usize);
                visit(
                    w,
                    &entries[(row.start - first.start) as usize..(row.end - first.start) as usize],
                );
            }
            i = j;
        }
        Ok(())
    }
}

/// Writes the attractors' state: the next threshold (4 bytes), then each position's cell
/// (2 bytes: value and counter).
fn write_checkpoint(work: &Path, state: &Thresholds) -> io::Result<()> {
    write_streamed(&checkpoint_path(work), |file| {
        file.write_all(&state.next.to_le_bytes())?;
        state
            .cell
            .iter()
            .try_for_each(|c| file.write_all(&c.load(Ordering::Relaxed).to_le_bytes()))
    })
}

/// The attractors' state a previous run left, if any (and whole).
fn read_checkpoint(work: &Path, count: usize) -> io::Result<Option<Thresholds>> {
    let path = checkpoint_path(work);
    if file_len(&path) != Some(4 + 2 * count as u64) {
        return Ok(None);
    }
    let mut file = io::BufReader::with_capacity(1 << 22, File::open(path)?);
    let mut next = [0u8; 4];
    file.read_exact(&mut next)?;
    let mut cell = Vec::with_capacity(count);
    let mut bytes = vec![0u8; 1 << 22];
    while cell.len() < count {
        let take = (2 * (count - cell.len())).min(bytes.len());
        file.read_exact(&mut bytes[..take])?;
        cell.extend(
            bytes[..take]
                .chunks_exact(2)
                .map(|c| AtomicU16::new(u16::from_le_bytes([c[0], c[1]]))),
        );
    }
    Ok(Some(Thresholds {
        cell,
        next: i32::from_le_bytes(next),
    }))
}
