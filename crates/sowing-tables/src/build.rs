//! The builder: retrograde analysis of one layer (every position with the same number of
//! seeds on the board) after another.
//!
//! Captures only take seeds off the board, so a move either leaves its layer — a capture,
//! whose value is known from the layers below — or stays in it without capturing, and then
//! hands the move to the opponent. Within a layer the values are found with threshold
//! attractors: for t = n, n−1, …, 1, the positions whose mover can force a gain of at least
//! t (reach, in finitely many moves, a capture worth ≥ t), and those whose opponent can force
//! the mover's result down to −t or less, grown from the previous threshold's sets with a
//! counter of unrefuted moves per position, as in retrograde win/loss analysis. A position
//! in neither set for t = 1 is worth 0. `docs/tables.md` gives the argument.
//!
//! A layer is built in two steps, so that separate workers can share the first: [`expand`]
//! (the costly one: every move of every position of a rank range, sown by the rules crate)
//! and [`solve`] (the fixpoint over the whole layer, from the expanded ranges).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicU16, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

pub mod on_disk;

pub use on_disk::OnDisk;

use crate::progress::{ProgressBar, ProgressStyle};
use crate::{compressed, file, layer, Values};
use crate::{move_value, Family, Tables, TablesError, MAX_LAYER_SEEDS};
use sowing::Rules;

/// No move leaves the layer (in [`Expansion::exit`]).
pub const NO_EXIT: i8 = i8::MIN;

/// Positions expanded per parallel task, at least and at most. Large layers take large
/// ranges (a 64th of the layer, up to 4 million positions): their children are then each a
/// separate mapping of tens of megabytes, which goes back to the system as soon as the
/// solver has placed it (small allocations freed would stay with the process).
const CHUNK: u64 = 1 << 12;
const MAX_CHUNK: u64 = 1 << 22;

/// Which layers up to the largest a build computes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layers {
    /// Only those play from the start reaches ([`Family::reachable`]): in Hoyito the
    /// multiples of 4 (every capture takes a multiple of 4 seeds from the 48 or 96 of the
    /// start), so a quarter of the layers and well under half the positions; in Ayoayo all.
    #[default]
    Reachable,
    /// Every layer, for set-up positions with any number of seeds.
    All,
}

/// How to build.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Worker threads (default: one per core).
    pub threads: Option<usize>,
    /// Show a progress bar on standard error.
    pub progress: bool,
    /// Which layers up to the largest (default: the reachable ones).
    pub layers: Layers,
    /// Layers built as well, each with the layers its exits land in (`sow tables build
    /// --layer N`): e.g. layer 13 of Hoyito needs 9, 5 and 1.
    pub extra: Vec<usize>,
    /// Solve every layer on disk ([`on_disk`]), not only those too large for memory.
    pub on_disk: bool,
    /// The most memory, in bytes, a layer solved in memory may take at its peak (about 6
    /// bytes a move inside and 8 a position, [`in_memory_peak`]); a larger layer is solved
    /// on disk. Without it a layer goes to memory when its expansion fits the system's
    /// memory, and the reversal falls back to a scratch file when short.
    pub memory: Option<u64>,
    /// How a layer is solved on disk.
    pub disk: OnDisk,
    /// Write each layer built compressed ([`compressed`], `layer-NNN.sowz`) instead of raw.
    /// The layers below are then held decompressed in memory while the build goes on (one
    /// byte a position), since building reads them at random.
    pub compressed: Option<compressed::Settings>,
}

impl Options {
    /// Default threads, no progress bar, the reachable layers.
    pub fn quiet() -> Options {
        Options::default()
    }

    /// As [`Options::quiet`], with every layer.
    pub fn all_layers() -> Options {
        Options {
            layers: Layers::All,
            ..Options::default()
        }
    }

    /// The worker threads these options ask for.
    pub(crate) fn thread_pool(&self) -> Result<rayon::ThreadPool, TablesError> {
        crate::threads::thread_pool(self.threads)
            .map_err(|e| TablesError::Unsupported(format!("cannot start the threads: {e}")))
    }
}

/// What a build did.
#[derive(Clone, Debug, Default)]
pub struct BuildReport {
    /// Layers computed in this run.
    pub built: Vec<usize>,
    /// Layers found on disk, checked and kept.
    pub reused: Vec<usize>,
    /// Layers found on disk but refused (truncated, corrupt): built again, with the reason.
    pub replaced: Vec<(usize, String)>,
    /// Positions computed in this run.
    pub positions: u64,
    /// Time spent computing (not checking reused layers).
    pub elapsed: Duration,
    /// The layers of `built` solved on disk.
    pub on_disk: Vec<usize>,
}

/// The moves of the positions of one rank range of a layer.
#[derive(Clone, Debug, Default)]
pub struct Expansion {
    /// The first index of the range.
    pub start: u64,
    /// Per position: the best value for the mover among the moves that leave the layer
    /// (captures, and moves that end the game), or [`NO_EXIT`].
    pub exit: Vec<i8>,
    /// Per position: how many of its moves stay in the layer.
    pub inner: Vec<u8>,
    /// The indices, in the same layer, of the positions those moves lead to, position after
    /// position (with repeats when two moves lead to the same position).
    pub children: Vec<u32>,
}

/// Expands the positions `range` of layer `seeds`: the costly, embarrassingly parallel step.
/// `lower` must hold every layer the exits land in ([`Family::layers_below`]).
///
/// # Errors
/// [`TablesError::NotBuilt`] when `lower` lacks one of them.
pub fn expand(
    family: &Family,
    seeds: usize,
    lower: &Tables,
    range: Range<u64>,
) -> Result<Expansion, TablesError> {
    lower.check_below(seeds)?;
    let len = (range.end - range.start) as usize;
    let mut out = Expansion {
        start: range.start,
        exit: Vec::with_capacity(len),
        inner: Vec::with_capacity(len),
        children: Vec::with_capacity(len * 3),
    };
    for index in range {
        let position = family.position(seeds, index);
        if position.is_over() {
            // An Ayoayo board whose mover cannot feed: swept up at once (A.7).
            let captured = position.captured();
            out.exit
                .push((i32::from(captured.south) - i32::from(captured.north)) as i8);
            out.inner.push(0);
            continue;
        }
        let mut best = i32::MIN;
        let mut inner = 0u8;
        for (_, child) in position.successors() {
            let child_seeds = child.seeds_on_board();
            if child.is_over() || child_seeds < seeds {
                let rest = if child.is_over() {
                    0
                } else {
                    let (layer, at) = family.locate(&child);
                    lower.stored(layer, at)?
                };
                best = best.max(move_value(&position, &child, rest));
            } else {
                debug_assert!(child.to_move() != position.to_move());
                debug_assert_eq!(child.captured(), position.captured());
                out.children.push(family.locate(&child).1 as u32);
                inner += 1;
            }
        }
        out.exit.push(if best == i32::MIN {
            NO_EXIT
        } else {
            best as i8
        });
        out.inner.push(inner);
    }
    // The vector grew by doubling: give back what it does not use (up to half of it), since
    // every range's children are kept until the layer is solved.
    out.children.shrink_to_fit();
    Ok(out)
}

/// Solves a layer from its expanded ranges (in order, covering it): the value of every
/// position, one signed byte each. Runs on the current rayon pool; the result does not
/// depend on the number of threads (it is the unique least fixpoint, see the module docs).
///
/// # Errors
/// When the layer has more moves inside it than 32-bit offsets can count.
pub fn solve(expansions: Vec<Expansion>) -> Result<Vec<u8>, TablesError> {
    let (count, edges) = sizes(&expansions)?;
    Ok(attractors(Predecessors::of(expansions, count, edges)).0)
}

/// [`solve`] with less memory, for layers whose moves do not fit twice: the moves go to the
/// file `scratch` first (removed afterwards), so that the expansions are freed before the
/// predecessor rows are filled from it. About 4 bytes a move at the peak instead of 6, and
/// the same values.
///
/// # Errors
/// As [`solve`], and when `scratch` cannot be written or read.
pub fn solve_through(expansions: Vec<Expansion>, scratch: &Path) -> Result<Vec<u8>, TablesError> {
    let (count, edges) = sizes(&expansions)?;
    let graph = Predecessors::through_file(expansions, count, edges, scratch);
    // Removed whether or not the reversal succeeded; a failure to remove it changes nothing.
    std::fs::remove_file(scratch).ok();
    Ok(attractors(graph.map_err(|error| TablesError::io(scratch, error))?).0)
}

/// The positions and the moves inside of a layer's expansions.
fn sizes(expansions: &[Expansion]) -> Result<(usize, usize), TablesError> {
    let count: usize = expansions.iter().map(|e| e.exit.len()).sum();
    let edges: u64 = expansions.iter().map(|e| e.children.len() as u64).sum();
    if edges >= u64::from(u32::MAX) {
        return Err(TablesError::Unsupported(format!(
            "{edges} moves inside one layer: more than this builder can index"
        )));
    }
    Ok((count, edges as usize))
}

/// Whether the in-memory reversal of [`solve`] would need more memory than the system has
/// free now: it holds about 6 bytes a move and 8 a position at its peak, of which the
/// expansions (4 bytes a move, 2 a position) are held already. Linux's `MemAvailable`;
/// elsewhere, never.
fn reversal_needs_more_than_available(expansions: &[Expansion]) -> bool {
    let (count, edges): (u64, u64) = expansions.iter().fold((0, 0), |(n, m), e| {
        (n + e.exit.len() as u64, m + e.children.len() as u64)
    });
    let more = 2 * edges + 6 * count;
    // A tenth kept back for the lower layers' pages and everything else running.
    meminfo("MemAvailable:").is_some_and(|bytes| more > bytes / 10 * 9)
}

/// A line of Linux's `/proc/meminfo`, in bytes (`None` elsewhere).
fn meminfo(field: &str) -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with(field))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// A layer's moves inside it, reversed, in compressed rows: the positions that move to `w`
/// are `predecessors[start[w] .. start[w + 1]]`; with each position's best exit and its
/// number of moves inside.
struct Predecessors {
    exit: Vec<i8>,
    inner: Vec<u8>,
    start: Vec<u32>,
    predecessors: Vec<u32>,
}

/// Children a bucket of the reversal covers: its edges are placed with the child's low bits
/// (2 bytes) beside the parent (4 bytes), then sorted into rows bucket by bucket.
const BUCKET_BITS: u32 = 16;

impl Predecessors {
    /// Reverses the expansions' moves. The moves are held once at a time, plus 2 bytes a
    /// move: each range's children are freed as soon as they are placed in their child's
    /// bucket (as parent and low bits of the child, written bucket by bucket into memory
    /// that becomes resident only as it is written), and each bucket is then sorted into
    /// its rows in place. About 6 bytes a move at the peak instead of 8 for children and
    /// predecessors side by side.
    fn of(mut expansions: Vec<Expansion>, count: usize, edges: usize) -> Predecessors {
        // Row starts: the in-degrees summed up, in place.
        let mut start: Vec<u32> = in_degrees(&expansions, count)
            .into_iter()
            .map(AtomicU32::into_inner)
            .collect();
        let mut sum = 0u32;
        for slot in start.iter_mut() {
            let degree = *slot;
            *slot = sum;
            sum += degree;
        }
        let (exit, inner) = gather(&mut expansions, count);
        let buckets = count.div_ceil(1 << BUCKET_BITS);
        // Zeroed allocations: pages become resident as the buckets fill up.
        let mut predecessors = vec![0u32; edges];
        let mut low = vec![0u16; edges];
        // The buckets in as many contiguous groups as threads, each group with its own
        // slices of the arrays and its own cursors: every thread reads each range's moves and
        // places those whose child falls in its group, so the placement runs on all threads
        // without sharing a cursor, and the rows come out as on one thread.
        let threads = rayon::current_num_threads().clamp(1, buckets.max(1));
        let mut groups = Vec::with_capacity(threads);
        let (mut rest_p, mut rest_l) = (&mut predecessors[..], &mut low[..]);
        for g in 0..threads {
            let first = buckets * g / threads;
            let last = buckets * (g + 1) / threads;
            let base = start[first << BUCKET_BITS];
            let len = (start[(last << BUCKET_BITS).min(count)] - base) as usize;
            let (p, tail_p) = std::mem::take(&mut rest_p).split_at_mut(len);
            let (l, tail_l) = std::mem::take(&mut rest_l).split_at_mut(len);
            rest_p = tail_p;
            rest_l = tail_l;
            let cursor: Vec<u32> = (first..last)
                .map(|b| start[b << BUCKET_BITS] - base)
                .collect();
            groups.push((first..last, cursor, p, l));
        }
        for expansion in expansions {
            groups
                .par_iter_mut()
                .for_each(|(group, cursor, predecessors, low)| {
                    let mut children = expansion.children.iter();
                    for (offset, &moves) in expansion.inner.iter().enumerate() {
                        let parent = expansion.start as u32 + offset as u32;
                        for _ in 0..moves {
                            let child = *children.next().expect("one child a move inside");
                            let bucket = (child >> BUCKET_BITS) as usize;
                            if group.contains(&bucket) {
                                let at = &mut cursor[bucket - group.start];
                                predecessors[*at as usize] = parent;
                                low[*at as usize] = child as u16;
                                *at += 1;
                            }
                        }
                    }
                });
            // `expansion` (its children) is freed here.
        }
        drop(groups);
        // Each bucket's edges into rows, by child (a stable counting sort: within a row the
        // parents stay in increasing order), the buckets in parallel.
        let mut slices = Vec::with_capacity(buckets);
        let (mut rest_p, mut rest_l) = (&mut predecessors[..], &mut low[..]);
        for b in 0..buckets {
            let first = b << BUCKET_BITS;
            let last = ((b + 1) << BUCKET_BITS).min(count);
            let len = (start[last] - start[first]) as usize;
            let (p, tail_p) = std::mem::take(&mut rest_p).split_at_mut(len);
            let (l, tail_l) = std::mem::take(&mut rest_l).split_at_mut(len);
            rest_p = tail_p;
            rest_l = tail_l;
            slices.push((first..last, p, l));
        }
        slices.into_par_iter().for_each(|(children, p, l)| {
            let base = start[children.start];
            let mut next: Vec<u32> = start[children].iter().map(|&s| s - base).collect();
            let parents = p.to_vec();
            for (&parent, &child_low) in parents.iter().zip(l.iter()) {
                let at = &mut next[usize::from(child_low)];
                p[*at as usize] = parent;
                *at += 1;
            }
        });
        drop(low);
        Predecessors {
            exit,
            inner,
            start,
            predecessors,
        }
    }

    /// Reverses the expansions' moves through the file `scratch`: every range's children are
    /// written there and freed, then read back range by range (in parallel) and each parent
    /// put in its child's row, filled from its end by an atomic decrement of the row's end.
    /// The moves are held once, 4 bytes each, plus the file's pages, which the system may
    /// drop. Within a row the parents come in no fixed order, which the attractors do not
    /// depend on.
    fn through_file(
        mut expansions: Vec<Expansion>,
        count: usize,
        edges: usize,
        scratch: &Path,
    ) -> std::io::Result<Predecessors> {
        // Row ends: the in-degrees summed up, in place; the placement lowers each to its start.
        let mut start = in_degrees(&expansions, count);
        let mut sum = 0u32;
        for slot in start.iter_mut() {
            sum += *slot.get_mut();
            *slot.get_mut() = sum;
        }
        let (exit, inner) = gather(&mut expansions, count);
        // (first position, first move) of each range, in the file's order.
        let mut ranges = Vec::with_capacity(expansions.len() + 1);
        if let Some(parent) = scratch.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let mut file = std::io::BufWriter::new(File::create(scratch)?);
        let mut bytes = Vec::new();
        let mut moves = 0usize;
        for expansion in expansions {
            ranges.push((expansion.start as usize, moves));
            bytes.clear();
            bytes.extend(expansion.children.iter().flat_map(|c| c.to_le_bytes()));
            file.write_all(&bytes)?;
            moves += expansion.children.len();
            // `expansion` (its children) is freed here.
        }
        ranges.push((count, moves));
        drop(bytes);
        file.into_inner().map_err(|e| e.into_error())?;
        let predecessors: Vec<AtomicU32> = (0..edges).map(|_| AtomicU32::new(0)).collect();
        ranges
            .par_windows(2)
            .try_for_each(|pair| -> std::io::Result<()> {
                let ((first, from), (last, to)) = (pair[0], pair[1]);
                let mut bytes = vec![0u8; (to - from) * 4];
                let mut file = File::open(scratch)?;
                file.seek(SeekFrom::Start(from as u64 * 4))?;
                file.read_exact(&mut bytes)?;
                let mut children = bytes
                    .chunks_exact(4)
                    .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
                for (parent, &moves) in (first..).zip(&inner[first..last]) {
                    for _ in 0..moves {
                        let child = children.next().expect("one child a move inside");
                        let at = start[child as usize].fetch_sub(1, Ordering::Relaxed) - 1;
                        predecessors[at as usize].store(parent as u32, Ordering::Relaxed);
                    }
                }
                Ok(())
            })?;
        let start: Vec<u32> = start.into_iter().map(AtomicU32::into_inner).collect();
        Ok(Predecessors {
            exit,
            inner,
            start,
            predecessors: predecessors
                .into_iter()
                .map(AtomicU32::into_inner)
                .collect(),
        })
    }
}

/// Each position's number of moves in from the layer, counted on all threads, and a last
/// slot of 0: summed up, the slots become the row bounds (no push onto a full vector, which
/// would copy it).
fn in_degrees(expansions: &[Expansion], count: usize) -> Vec<AtomicU32> {
    let degree: Vec<AtomicU32> = (0..=count).map(|_| AtomicU32::new(0)).collect();
    expansions.par_iter().for_each(|expansion| {
        for &child in &expansion.children {
            degree[child as usize].fetch_add(1, Ordering::Relaxed);
        }
    });
    degree
}

/// The best exits and the numbers of moves inside of the whole layer, taken from the ranges
/// (their exits freed; their counts kept, since the children are read by them).
fn gather(expansions: &mut [Expansion], count: usize) -> (Vec<i8>, Vec<u8>) {
    let mut exit = Vec::with_capacity(count);
    let mut inner = Vec::with_capacity(count);
    for expansion in expansions {
        exit.append(&mut expansion.exit);
        expansion.exit.shrink_to_fit();
        inner.extend_from_slice(&expansion.inner);
    }
    (exit, inner)
}

/// Positions handled together by one task of the parallel steps.
const SOLVE_CHUNK: usize = 1 << 14;

/// Where the attractors find the positions that move to a position that joins a set.
pub(crate) trait Rows: Sync {
    /// Whether a frontier should be sorted before it is visited (rows read from a file come
    /// in file order then).
    const SORTED: bool;

    /// Calls `visit(w, row)` for every `w` of `members`, `row` being the positions with a move
    /// inside the layer to `w`.
    fn visit(&self, members: &[u32], visit: &mut dyn FnMut(u32, &[u32])) -> std::io::Result<()>;
}

/// The rows of [`Predecessors`], in memory.
struct InMemory {
    start: Vec<u32>,
    predecessors: Vec<u32>,
}

impl Rows for InMemory {
    const SORTED: bool = false;

    fn visit(&self, members: &[u32], visit: &mut dyn FnMut(u32, &[u32])) -> std::io::Result<()> {
        for &w in members {
            let w_ = w as usize;
            visit(
                w,
                &self.predecessors[self.start[w_] as usize..self.start[w_ + 1] as usize],
            );
        }
        Ok(())
    }
}

/// The threshold attractors over one layer (see the module docs), from its reversed moves.
///
/// Returns the values and the rounds run (frontiers expanded, over every threshold): the
/// messages a solve split across workers would exchange (docs/tables.md, "The whole game").
fn attractors(graph: Predecessors) -> (Vec<u8>, u64) {
    let Predecessors {
        exit,
        inner,
        start,
        predecessors,
    } = graph;
    let rows = InMemory {
        start,
        predecessors,
    };
    let mut state = Thresholds::new(&exit, inner);
    let rounds = state
        .run(&exit, &rows, |_| Ok(()))
        .expect("rows in memory are read without error");
    (state.into_values(), rounds)
}

/// The attractors' state between two thresholds: what a solve keeps, and a checkpoint holds.
/// Each position has one cell of two bytes: its value byte (high), 0 while it is undecided
/// (no decided value is 0: thresholds start at 1), `t` once its mover forces ≥ t, `−t` once
/// it is held to ≤ −t; and its counter (low), its moves inside not yet known to lead to a
/// position the mover loses at the current threshold (counters only go down, one a move,
/// so the low byte never borrows from the high one). One cell, so that a predecessor visited
/// costs one cache miss, not two: the attractors' time is those misses.
pub(crate) struct Thresholds {
    /// Each position's value and counter.
    pub(crate) cell: Vec<AtomicU16>,
    /// The next threshold to run (0 once every one has run).
    pub(crate) next: i32,
}

/// A cell's value byte.
#[inline]
fn value_of(cell: u16) -> u8 {
    (cell >> 8) as u8
}

/// Sets the value of an undecided cell: false when it was decided meanwhile.
#[inline]
fn decide(cell: &AtomicU16, value: u8) -> bool {
    let mut now = cell.load(Ordering::Relaxed);
    while value_of(now) == 0 {
        let set = u16::from(value) << 8 | (now & 0xff);
        match cell.compare_exchange_weak(now, set, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return true,
            Err(seen) => now = seen,
        }
    }
    false
}

impl Thresholds {
    /// The state before the first threshold: every position undecided, every counter its
    /// number of moves inside, the first threshold the largest exit.
    pub(crate) fn new(exit: &[i8], inner: Vec<u8>) -> Thresholds {
        let top = exit
            .par_iter()
            .filter(|&&e| e != NO_EXIT)
            .map(|&e| i32::from(e).abs())
            .max()
            .unwrap_or(0);
        Thresholds {
            cell: inner
                .into_iter()
                .map(|moves| AtomicU16::new(u16::from(moves)))
                .collect(),
            next: top,
        }
    }

    /// The values, once every threshold has run.
    pub(crate) fn into_values(self) -> Vec<u8> {
        self.cell
            .into_iter()
            .map(|cell| value_of(cell.into_inner()))
            .collect()
    }

    /// Runs the thresholds from `self.next` down to 1, calling `after` once each is done.
    /// Each threshold grows its sets breadth first, every frontier on all threads: a
    /// position joins once (a compare-and-swap from undecided), and a counter reaches 0 once,
    /// so any order gives the same sets. Returns the rounds run.
    pub(crate) fn run<R: Rows>(
        &mut self,
        exit: &[i8],
        rows: &R,
        mut after: impl FnMut(&Thresholds) -> std::io::Result<()>,
    ) -> std::io::Result<u64> {
        let mut rounds = 0u64;
        while self.next >= 1 {
            rounds += self.threshold(exit, rows)?;
            self.next -= 1;
            after(self)?;
        }
        Ok(rounds)
    }

    /// One threshold, `self.next`: its rounds.
    fn threshold<R: Rows>(&self, exit: &[i8], rows: &R) -> std::io::Result<u64> {
        let cell = &self.cell;
        let t = self.next;
        let won = t as i8 as u8;
        let lost = (-t) as i8 as u8;
        // New members at this threshold: an exit worth exactly t wins; a position whose
        // moves inside are all refuted and whose best exit is exactly −t loses. (Each cell is
        // seen by one thread here.)
        let mut frontier: Vec<u32> = (0..exit.len())
            .into_par_iter()
            .with_min_len(SOLVE_CHUNK)
            .filter_map(|u| {
                let now = cell[u].load(Ordering::Relaxed);
                if value_of(now) != 0 || exit[u] == NO_EXIT {
                    return None;
                }
                let e = i32::from(exit[u]);
                let value = if e == t {
                    won
                } else if e == -t && now == 0 {
                    lost
                } else {
                    return None;
                };
                cell[u].store(u16::from(value) << 8 | now, Ordering::Relaxed);
                Some(u as u32)
            })
            .collect();
        let mut rounds = 0;
        while !frontier.is_empty() {
            rounds += 1;
            if R::SORTED {
                frontier.par_sort_unstable();
            }
            let joined: Vec<Vec<u32>> = frontier
                .par_chunks(SOLVE_CHUNK / 16)
                .map(|chunk| {
                    let mut joined = Vec::new();
                    rows.visit(chunk, &mut |w, row| {
                        let w_lost = value_of(cell[w as usize].load(Ordering::Relaxed)) == lost;
                        for &u in row {
                            let u = u as usize;
                            if value_of(cell[u].load(Ordering::Relaxed)) != 0 {
                                continue;
                            }
                            let join = if w_lost {
                                // Moving to a lost position wins t for u's mover.
                                Some(won)
                            } else {
                                let left = (cell[u].fetch_sub(1, Ordering::Relaxed) & 0xff) - 1;
                                (left == 0 && (exit[u] == NO_EXIT || i32::from(exit[u]) <= -t))
                                    .then_some(lost)
                            };
                            if join.is_some_and(|v| decide(&cell[u], v)) {
                                joined.push(u as u32);
                            }
                        }
                    })?;
                    Ok(joined)
                })
                .collect::<std::io::Result<_>>()?;
            frontier = joined.concat();
        }
        Ok(rounds)
    }
}

/// The layers a build to `max_seeds` computes, from 1 seed up: those of `layers` up to
/// `max_seeds`, and each of `extra` with every layer its exits land in.
pub fn plan(family: &Family, max_seeds: usize, layers: Layers, extra: &[usize]) -> Vec<usize> {
    let mut wanted: Vec<usize> = (1..=max_seeds)
        .filter(|&s| layers == Layers::All || family.reachable(s))
        .collect();
    for &seeds in extra.iter().filter(|&&s| s > 0) {
        wanted.push(seeds);
        wanted.extend(family.layers_below(seeds));
    }
    wanted.sort_unstable();
    wanted.dedup();
    wanted
}

/// The sizes of the planned layers, checked before anything is computed: a request the
/// format cannot serve is refused at once, not after hours of the smaller layers. (A layer
/// too large for memory is solved on disk.)
///
/// # Errors
/// When a layer has more seeds than the format stores or more positions than 32-bit indices
/// reach.
pub fn check_plan(family: &Family, plan: &[usize]) -> Result<(), TablesError> {
    let Some(&top) = plan.last() else {
        return Ok(());
    };
    if top > MAX_LAYER_SEEDS {
        return Err(TablesError::Unsupported(format!(
            "at most {MAX_LAYER_SEEDS} seeds a layer (asked for {top})"
        )));
    }
    if let Some(&seeds) = plan
        .iter()
        .find(|&&s| family.layer_len(s) >= u64::from(u32::MAX))
    {
        return Err(TablesError::Unsupported(format!(
            "layer {seeds} of {family} has {} positions: more than 32-bit indices reach",
            family.layer_len(seeds)
        )));
    }
    Ok(())
}

/// Whether layer `seeds` can be solved in memory: its moves are counted by 32-bit offsets,
/// and either its peak in memory ([`in_memory_peak`]) is within `cap` or, without a cap, its
/// expansion (4 bytes a move inside and 2 a position) fits in the system's memory; else it
/// is solved on disk ([`on_disk`]).
fn fits_in_memory(family: &Family, seeds: usize, cap: Option<u64>) -> bool {
    let positions = family.layer_len(seeds);
    let moves = positions * MOVES_INSIDE_ESTIMATE;
    let fits = match cap {
        Some(cap) => in_memory_peak(family, seeds) <= cap,
        None => meminfo("MemTotal:").is_none_or(|total| 4 * moves + 2 * positions <= total),
    };
    moves < u64::from(u32::MAX) && fits
}

/// About the most memory the in-memory solve of layer `seeds` takes, in bytes: the reversal
/// holds 6 bytes a move inside and 8 a position at its peak (see
/// [`reversal_needs_more_than_available`]), with [`MOVES_INSIDE_ESTIMATE`] moves a position.
/// Ayoayo's layer 22 of `last-mover` (580,610,160 positions, 2.4 moves each) is estimated
/// at 14.1 GiB and took 13.2 GiB.
pub fn in_memory_peak(family: &Family, seeds: usize) -> u64 {
    let positions = family.layer_len(seeds);
    6 * positions * MOVES_INSIDE_ESTIMATE + 8 * positions
}

/// Moves inside a layer a position, about (the 2×6 Hoyito layers 20 and 24 have 3.0–3.1),
/// to send to disk before any work a layer whose moves could not be held or counted.
const MOVES_INSIDE_ESTIMATE: u64 = 3;

/// Builds (or completes) the tables of the family of `rules` up to `max_seeds` seeds on the
/// board under `dir`: the layers of [`plan`] with the options' layers and extra layers.
/// Layers already on disk are checked (header and checksum) and kept.
///
/// # Errors
/// When a file cannot be written or read back, when a layer on disk is corrupt, or when
/// the layers asked for are too large for the format.
pub fn build(
    dir: &Path,
    rules: Rules,
    max_seeds: usize,
    options: &Options,
) -> Result<BuildReport, TablesError> {
    let family = Family::of(rules);
    let plan = plan(&family, max_seeds, options.layers, &options.extra);
    check_plan(&family, &plan)?;
    let pool = options.thread_pool()?;
    let mut report = BuildReport::default();
    // `layers[n − 1]`: layer n, when this build holds it (built or kept).
    let mut layers: Vec<Option<Values>> = Vec::new();
    for seeds in plan {
        layers.resize_with(seeds - 1, || None);
        match layer::open(dir, &family, seeds, None) {
            Ok(Some(values)) => {
                // Building reads the layers below at random: a compressed one is held
                // decompressed.
                let values = match values {
                    Values::Compressed(_) => Values::Owned(values.all()?.into_owned()),
                    values => values,
                };
                layers.push(Some(values));
                report.reused.push(seeds);
                continue;
            }
            Ok(None) => {}
            Err(error @ TablesError::Corrupt { .. }) => {
                report.replaced.push((seeds, error.to_string()));
            }
            Err(error) => return Err(error),
        }
        let started = Instant::now();
        let lower = Tables::from_layers(dir, family, std::mem::take(&mut layers));
        let on_disk = options.on_disk || !fits_in_memory(&family, seeds, options.memory);
        let values = pool.install(|| build_layer(dir, &family, seeds, &lower, on_disk, options))?;
        match options.compressed {
            Some(settings) => {
                let bytes =
                    pool.install(|| compressed::compress(&family, seeds, &values, settings))?;
                file::write_atomically(&file::compressed_path(dir, &family, seeds), &bytes)?;
            }
            None => {
                file::write_layer(dir, &family, seeds, &values)?;
            }
        }
        on_disk::finish(dir, &family, seeds)?;
        report.elapsed += started.elapsed();
        report.positions += values.len() as u64;
        report.built.push(seeds);
        if on_disk {
            report.on_disk.push(seeds);
        }
        layers = lower.into_layers();
        layers.resize_with(seeds - 1, || None);
        if options.compressed.is_some() {
            layers.push(Some(Values::Owned(values)));
            continue;
        }
        drop(values);
        layers.push(Some(layer::open(dir, &family, seeds, None)?.ok_or_else(
            || TablesError::Corrupt {
                path: file::layer_path(dir, &family, seeds),
                why: "vanished right after it was written".into(),
            },
        )?));
    }
    Ok(report)
}

/// Expands a whole layer in parallel and solves it, in memory or (`on_disk`) on disk.
fn build_layer(
    dir: &Path,
    family: &Family,
    seeds: usize,
    lower: &Tables,
    on_disk: bool,
    options: &Options,
) -> Result<Vec<u8>, TablesError> {
    let count = family.layer_len(seeds);
    let bar = if options.progress {
        let bar = ProgressBar::new(count);
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} {per_sec} left {eta}",
            )
            .expect("a valid template"),
        );
        bar.set_message(format!("{family} layer {seeds}"));
        bar
    } else {
        ProgressBar::hidden()
    };
    if on_disk {
        let (values, disk) = on_disk::solve_layer(dir, family, seeds, lower, &options.disk, &bar)?;
        bar.finish_and_clear();
        if options.progress {
            eprintln!(
                "{family} layer {seeds}: {count} positions, {} moves inside ({:.2} a position), \
                 {} rounds, on disk (peak {:.2} GB of work files); in {:.1} s",
                disk.moves,
                disk.moves as f64 / count.max(1) as f64,
                disk.rounds,
                disk.peak_disk as f64 / 1e9,
                bar.elapsed().as_secs_f64()
            );
        }
        return Ok(values);
    }
    let chunk = (count / 64).clamp(CHUNK, MAX_CHUNK);
    let chunks: Vec<Range<u64>> = (0..count.div_ceil(chunk))
        .map(|c| c * chunk..((c + 1) * chunk).min(count))
        .collect();
    let expansions: Vec<Expansion> = chunks
        .into_par_iter()
        .map(|range| {
            let len = range.end - range.start;
            let expansion = expand(family, seeds, lower, range);
            bar.inc(len);
            expansion
        })
        .collect::<Result<_, _>>()?;
    let expanded = bar.elapsed();
    bar.set_message(format!("{family} layer {seeds}: solving"));
    let (count_, edges) = sizes(&expansions)?;
    let (values, rounds) = if reversal_needs_more_than_available(&expansions) {
        bar.set_message(format!(
            "{family} layer {seeds}: solving through a scratch file (short of memory)"
        ));
        let scratch = file::scratch_path(dir, family, seeds);
        let graph = Predecessors::through_file(expansions, count_, edges, &scratch);
        std::fs::remove_file(&scratch).ok();
        attractors(graph.map_err(|error| TablesError::io(&scratch, error))?)
    } else {
        attractors(Predecessors::of(expansions, count_, edges))
    };
    bar.finish_and_clear();
    if options.progress {
        // The measurements behind docs/tables.md's costs: moves inside a position, rounds.
        eprintln!(
            "{family} layer {seeds}: {count} positions, {edges} moves inside ({:.2} a \
             position), {rounds} rounds; expanded in {:.1} s, solved in {:.1} s",
            edges as f64 / count.max(1) as f64,
            expanded.as_secs_f64(),
            (bar.elapsed() - expanded).as_secs_f64()
        );
    }
    Ok(values)
}

impl Tables {
    pub(crate) fn into_layers(self) -> Vec<Option<Values>> {
        self.layers
    }
}
