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

use std::ops::Range;
use std::path::Path;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::file::{self, Values};
use crate::{move_value, Family, Tables, TablesError, MAX_LAYER_SEEDS};
use sowing::Rules;

/// No move leaves the layer (in [`Expansion::exit`]).
pub const NO_EXIT: i8 = i8::MIN;

/// Positions expanded per parallel task.
const CHUNK: u64 = 1 << 12;

/// How to build.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Worker threads (default: one per core).
    pub threads: Option<usize>,
    /// Show a progress bar on standard error.
    pub progress: bool,
}

impl Options {
    /// Default threads, no progress bar.
    pub fn quiet() -> Options {
        Options::default()
    }

    /// The worker threads these options ask for.
    pub(crate) fn thread_pool(&self) -> Result<rayon::ThreadPool, TablesError> {
        let mut pool = rayon::ThreadPoolBuilder::new();
        if let Some(threads) = self.threads {
            pool = pool.num_threads(threads);
        }
        pool.build()
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
/// `lower` must hold every layer below `seeds`.
pub fn expand(family: &Family, seeds: usize, lower: &Tables, range: Range<u64>) -> Expansion {
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
                    lower.stored(layer, at)
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
    out
}

/// Solves a layer from its expanded ranges (in order, covering it): the value of every
/// position, one signed byte each.
///
/// # Errors
/// When the layer has more moves inside it than 32-bit offsets can count.
pub fn solve(expansions: Vec<Expansion>) -> Result<Vec<u8>, TablesError> {
    let count: usize = expansions.iter().map(|e| e.exit.len()).sum();
    let mut exit = Vec::with_capacity(count);
    let mut counter = Vec::with_capacity(count);
    // Predecessors in compressed rows: first count them, then fill from the back.
    let mut start = vec![0u32; count + 1];
    let mut edges = 0u64;
    for expansion in &expansions {
        exit.extend_from_slice(&expansion.exit);
        counter.extend_from_slice(&expansion.inner);
        for &child in &expansion.children {
            start[child as usize] += 1;
        }
        edges += expansion.children.len() as u64;
    }
    if edges >= u64::from(u32::MAX) {
        return Err(TablesError::Unsupported(format!(
            "{edges} moves inside one layer: more than this builder can index"
        )));
    }
    let mut sum = 0u32;
    for slot in start.iter_mut() {
        sum += *slot;
        *slot = sum;
    }
    let mut predecessors = vec![0u32; edges as usize];
    for expansion in expansions {
        let mut children = expansion.children.iter();
        for (offset, &inner) in expansion.inner.iter().enumerate() {
            let parent = expansion.start as u32 + offset as u32;
            for _ in 0..inner {
                let child = *children.next().expect("one child a move inside") as usize;
                start[child] -= 1;
                predecessors[start[child] as usize] = parent;
            }
        }
    }
    Ok(attractors(&exit, &mut counter, &start, &predecessors))
}

/// Not yet decided / the mover forces ≥ t / the mover is held to ≤ −t.
const OPEN: u8 = 0;
const WON: u8 = 1;
const LOST: u8 = 2;

/// The threshold attractors over one layer (see the module docs): `exit` and `counter` per
/// position, predecessors in compressed rows (`predecessors[start[w] .. start[w + 1]]`).
fn attractors(exit: &[i8], counter: &mut [u8], start: &[u32], predecessors: &[u32]) -> Vec<u8> {
    let count = exit.len();
    let mut state = vec![OPEN; count];
    let mut value = vec![0u8; count];
    let top = exit
        .iter()
        .filter(|&&e| e != NO_EXIT)
        .map(|&e| i32::from(e).abs())
        .max()
        .unwrap_or(0);
    let mut stack: Vec<u32> = Vec::new();
    for t in (1..=top).rev() {
        // New seeds at this threshold: an exit worth exactly t wins; a position whose moves
        // inside are all refuted and whose best exit is exactly −t loses.
        for u in 0..count {
            if state[u] != OPEN {
                continue;
            }
            let e = i32::from(exit[u]);
            if exit[u] != NO_EXIT && e == t {
                state[u] = WON;
                value[u] = t as i8 as u8;
                stack.push(u as u32);
            } else if counter[u] == 0 && exit[u] != NO_EXIT && e == -t {
                state[u] = LOST;
                value[u] = (-t) as i8 as u8;
                stack.push(u as u32);
            }
        }
        while let Some(w) = stack.pop() {
            let w = w as usize;
            let lost = state[w] == LOST;
            for &u in &predecessors[start[w] as usize..start[w + 1] as usize] {
                let u = u as usize;
                if state[u] != OPEN {
                    continue;
                }
                if lost {
                    // Moving to a lost position wins t for u's mover.
                    state[u] = WON;
                    value[u] = t as i8 as u8;
                    stack.push(u as u32);
                } else {
                    counter[u] -= 1;
                    if counter[u] == 0 && (exit[u] == NO_EXIT || i32::from(exit[u]) <= -t) {
                        state[u] = LOST;
                        value[u] = (-t) as i8 as u8;
                        stack.push(u as u32);
                    }
                }
            }
        }
    }
    value
}

/// Builds (or completes) the tables of the family of `rules` up to `max_seeds` seeds on the
/// board under `dir`. Layers already on disk are checked (header and checksum) and kept.
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
    if max_seeds > MAX_LAYER_SEEDS {
        return Err(TablesError::Unsupported(format!(
            "at most {MAX_LAYER_SEEDS} seeds a layer (asked for {max_seeds})"
        )));
    }
    if let Some(seeds) = (1..=max_seeds).find(|&s| family.layer_len(s) >= u64::from(u32::MAX)) {
        return Err(TablesError::Unsupported(format!(
            "layer {seeds} of {family} has {} positions: more than 32-bit indices reach",
            family.layer_len(seeds)
        )));
    }
    let pool = options.thread_pool()?;
    let mut report = BuildReport::default();
    let mut layers: Vec<Values> = Vec::new();
    for seeds in 1..=max_seeds {
        match file::open_layer(dir, &family, seeds) {
            Ok(Some(values)) => {
                layers.push(values);
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
        let values = pool.install(|| build_layer(&family, seeds, &lower, options))?;
        file::write_layer(dir, &family, seeds, &values)?;
        report.elapsed += started.elapsed();
        report.positions += values.len() as u64;
        report.built.push(seeds);
        layers = lower.into_layers();
        drop(values);
        layers.push(file::open_layer(dir, &family, seeds)?.ok_or_else(|| {
            TablesError::Corrupt {
                path: file::layer_path(dir, &family, seeds),
                why: "vanished right after it was written".into(),
            }
        })?);
    }
    Ok(report)
}

/// Expands a whole layer in parallel and solves it.
fn build_layer(
    family: &Family,
    seeds: usize,
    lower: &Tables,
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
    let chunks: Vec<Range<u64>> = (0..count.div_ceil(CHUNK))
        .map(|c| c * CHUNK..((c + 1) * CHUNK).min(count))
        .collect();
    let expansions: Vec<Expansion> = chunks
        .into_par_iter()
        .map(|range| {
            let len = range.end - range.start;
            let expansion = expand(family, seeds, lower, range);
            bar.inc(len);
            expansion
        })
        .collect();
    bar.set_message(format!("{family} layer {seeds}: solving"));
    let values = solve(expansions);
    bar.finish_and_clear();
    if options.progress {
        eprintln!(
            "{family} layer {seeds}: {count} positions in {:.1} s",
            bar.elapsed().as_secs_f64()
        );
    }
    values
}

impl Tables {
    pub(crate) fn into_layers(self) -> Vec<Values> {
        self.layers
    }
}
