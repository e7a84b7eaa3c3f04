//! The solve of one layer split across workers, each a [`Shard`] owning a contiguous range of
//! the layer's indices, so that no worker holds the whole layer (docs/tables.md, "Splitting
//! a layer across workers").
//!
//! A shard holds its positions' best exits, counters (moves inside not yet refuted) and
//! values, and the predecessor rows of the positions in its range. It computes the same
//! threshold attractors as [`build::solve`](crate::build::solve), in rounds:
//!
//! 1. **Moves.** Each expanded range is cut by [`route`] into one [`Part`] a shard: the
//!    exits and counts of the positions it owns, and the moves (parent, child) whose child it
//!    owns, from any range. [`Shard::receive`] takes them in any order; [`Shard::seal`]
//!    reverses the moves into rows. A shard given a scratch directory ([`Shard::with_scratch`])
//!    keeps its moves in a file there until then, so that its memory holds 4 bytes a move, never 8.
//! 2. **Thresholds**, from the largest exit down to 1: [`Shard::begin`] adds the shard's new
//!    members (an exit worth exactly t wins; a refuted position whose exit is −t loses), and
//!    returns their messages; then rounds of [`Shard::step`], each applying the messages of
//!    the round before and sending those of the positions that joined, until no shard has
//!    anything left to send.
//! 3. **Values**: [`Shard::into_values`], the ranges concatenated in order.
//!
//! A new member `w` tells each predecessor `u`, through `u`'s owner, either that `w` is lost
//! (`u` joins W at t: [`Messages::wins`]) or that `w` is won (one of `u`'s moves inside is
//! refuted: [`Messages::refuted`]; `u` joins L at t when none is left and its exit is ≤ −t
//! or none). These are the updates of `build::solve`, only carried between processes; the
//! sets of each threshold are its unique least fixpoint whatever the order, so the values
//! are the same byte for byte. [`solve`] runs every shard in one process, the reference of
//! the Ray build in `sowing.distributed`.

use std::io::{BufWriter, Read, Seek, Write};
use std::ops::Range;
use std::path::Path;

use rayon::prelude::*;

use crate::build::{Expansion, NO_EXIT};
use crate::TablesError;

/// Messages a step sends at most (the rest of its new members wait for the next round), so
/// that a round's batches stay small when a threshold starts with many members at once.
pub const STEP_BUDGET: usize = 1 << 24;

/// The bounds of `shards` ranges of about equal length over a layer of `count` positions:
/// shard `k` owns `bounds[k] .. bounds[k + 1]`.
pub fn even_bounds(count: u64, shards: usize) -> Vec<u64> {
    let shards = shards.max(1) as u64;
    (0..=shards).map(|k| count * k / shards).collect()
}

/// The shard that owns index `index` under `bounds`.
fn owner(bounds: &[u64], index: u64) -> usize {
    bounds.partition_point(|&b| b <= index) - 1
}

fn malformed(what: &str) -> TablesError {
    TablesError::Unsupported(format!("a malformed {what} of a split solve"))
}

/// Little-endian `u32`s.
fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

fn put_words(out: &mut Vec<u8>, words: &[u32]) {
    out.extend(words.iter().flat_map(|w| w.to_le_bytes()));
}

/// What one shard needs of one expanded range.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Part {
    /// The first of the positions below (meaningless when there is none).
    pub start: u64,
    /// The best exit of each of the range's positions the shard owns ([`Expansion::exit`]).
    pub exit: Vec<i8>,
    /// Their numbers of moves inside ([`Expansion::inner`]).
    pub inner: Vec<u8>,
    /// The moves of the range whose child the shard owns: the parents …
    pub parents: Vec<u32>,
    /// … and the children, index by index.
    pub children: Vec<u32>,
}

impl Part {
    /// Whether it holds neither positions nor moves (nothing to send).
    pub fn is_empty(&self) -> bool {
        self.exit.is_empty() && self.parents.is_empty()
    }

    /// As bytes: the start, the counts of positions and moves (`u64` each), the exits, the
    /// counts of moves, then the parents and the children (`u32` each), little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(24 + 2 * self.exit.len() + 8 * self.parents.len());
        out.extend(self.start.to_le_bytes());
        out.extend((self.exit.len() as u64).to_le_bytes());
        out.extend((self.parents.len() as u64).to_le_bytes());
        out.extend(self.exit.iter().map(|&e| e as u8));
        out.extend(&self.inner);
        put_words(&mut out, &self.parents);
        put_words(&mut out, &self.children);
        out
    }

    /// Reads [`Part::to_bytes`].
    ///
    /// # Errors
    /// When the lengths do not add up.
    pub fn from_bytes(bytes: &[u8]) -> Result<Part, TablesError> {
        let word = |at: usize| {
            bytes
                .get(at..at + 8)
                .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
                .ok_or_else(|| malformed("part"))
        };
        let (start, positions, moves) = (word(0)?, word(8)? as usize, word(16)? as usize);
        let body = &bytes[24..];
        if body.len() as u64 != 2 * positions as u64 + 8 * moves as u64 {
            return Err(malformed("part"));
        }
        let (exit, rest) = body.split_at(positions);
        let (inner, rest) = rest.split_at(positions);
        let (parents, children) = rest.split_at(4 * moves);
        Ok(Part {
            start,
            exit: exit.iter().map(|&e| e as i8).collect(),
            inner: inner.to_vec(),
            parents: words(parents),
            children: words(children),
        })
    }
}

/// Cuts an expanded range into one [`Part`] a shard of `bounds`.
pub fn route(bounds: &[u64], expansion: &Expansion) -> Vec<Part> {
    let shards = bounds.len() - 1;
    let range = expansion.start..expansion.start + expansion.exit.len() as u64;
    let mut parts: Vec<Part> = (0..shards)
        .map(|k| {
            let first = range.start.max(bounds[k]).min(range.end);
            let last = range.end.min(bounds[k + 1]).max(first);
            let local = (first - range.start) as usize..(last - range.start) as usize;
            Part {
                start: first,
                exit: expansion.exit[local.clone()].to_vec(),
                inner: expansion.inner[local].to_vec(),
                ..Part::default()
            }
        })
        .collect();
    let mut children = expansion.children.iter();
    for (parent, &moves) in range.zip(&expansion.inner) {
        for _ in 0..moves {
            let child = *children.next().expect("one child a move inside");
            let part = &mut parts[owner(bounds, u64::from(child))];
            part.parents.push(parent as u32);
            part.children.push(child);
        }
    }
    parts
}

/// One round's messages from one shard to another, as global indices of the addressee's
/// positions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Messages {
    /// Positions with a move to a position lost at the threshold: they win it.
    pub wins: Vec<u32>,
    /// Positions with a move to a position won (at this threshold or above): that move is
    /// refuted, once a move.
    pub refuted: Vec<u32>,
}

impl Messages {
    /// The messages held.
    pub fn len(&self) -> usize {
        self.wins.len() + self.refuted.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// As bytes: nothing when there is no message, else the number of wins (`u32`), the
    /// wins, then the refuted (`u32` each), little-endian: 4 bytes a message.
    pub fn to_bytes(&self) -> Vec<u8> {
        if self.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::with_capacity(4 + 4 * self.len());
        out.extend((self.wins.len() as u32).to_le_bytes());
        put_words(&mut out, &self.wins);
        put_words(&mut out, &self.refuted);
        out
    }

    /// Reads [`Messages::to_bytes`].
    ///
    /// # Errors
    /// When the lengths do not add up.
    pub fn from_bytes(bytes: &[u8]) -> Result<Messages, TablesError> {
        if bytes.is_empty() {
            return Ok(Messages::default());
        }
        let wins = bytes
            .get(..4)
            .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize)
            .ok_or_else(|| malformed("batch of messages"))?;
        let body = &bytes[4..];
        if body.len() % 4 != 0 || body.len() / 4 < wins {
            return Err(malformed("batch of messages"));
        }
        let (won, refuted) = body.split_at(4 * wins);
        Ok(Messages {
            wins: words(won),
            refuted: words(refuted),
        })
    }
}

fn too_many(moves: u64) -> TablesError {
    TablesError::Unsupported(format!(
        "{moves} moves into one shard: more than 32-bit offsets count; use more shards"
    ))
}

/// A shard's moves in until [`Shard::seal`], in a scratch file: appended as they come
/// (8 bytes each, `local child << 32 | parent`) while the in-degrees are counted in memory,
/// so that the seal can place each parent straight into its row. The file is removed when
/// the spill is dropped, however the shard ends.
struct Spill {
    file: BufWriter<tempfile::NamedTempFile>,
    /// Moves in of each owned position (and one more slot, for the rows' end).
    degrees: Vec<u32>,
    moves: u64,
}

impl Spill {
    fn io(&self, error: std::io::Error) -> TablesError {
        TablesError::Io {
            path: self.file.get_ref().path().to_path_buf(),
            error,
        }
    }
}

/// A shard's moves in, reversed: the parents of local position `w` are
/// `parent(start[w]) .. parent(start[w + 1])`, two parents a 64-bit word (the words of the
/// received moves, packed in place, so that reversing needs no second copy of the moves).
#[derive(Default)]
struct Rows {
    start: Vec<u32>,
    packed: Vec<u64>,
}

impl Rows {
    /// Sorts `moves` (`local child << 32 | parent`) into rows, in place.
    fn of(mut moves: Vec<u64>, len: usize) -> Result<Rows, TablesError> {
        if moves.len() >= u32::MAX as usize {
            return Err(too_many(moves.len() as u64));
        }
        moves.shrink_to_fit();
        moves.par_sort_unstable();
        let mut start = vec![0u32; len + 1];
        for &m in &moves {
            start[(m >> 32) as usize + 1] += 1;
        }
        for w in 0..len {
            start[w + 1] += start[w];
        }
        // Parent i goes to word i / 2, whose own move was read already (i / 2 ≤ i).
        for i in 0..moves.len() {
            let parent = moves[i] & u64::from(u32::MAX);
            let word = &mut moves[i / 2];
            if i % 2 == 0 {
                *word = parent;
            } else {
                *word |= parent << 32;
            }
        }
        moves.truncate(moves.len().div_ceil(2));
        moves.shrink_to_fit();
        Ok(Rows {
            start,
            packed: moves,
        })
    }

    /// Places the moves of `spill` into rows: each parent straight into its row, counted
    /// from the row's end (the in-degrees summed), so that the rows take 4 bytes a move and
    /// the moves are read once from the file.
    fn of_spill(spill: &mut Spill, len: usize) -> Result<Rows, TablesError> {
        let moves = usize::try_from(spill.moves)
            .ok()
            .filter(|&m| m < u32::MAX as usize)
            .ok_or_else(|| too_many(spill.moves))?;
        // start[w] = the end of w's row; each parent placed takes it down by one, to the
        // row's start once the row is full.
        let mut start = std::mem::take(&mut spill.degrees);
        let mut sum = 0u32;
        for s in &mut start[..len] {
            sum += *s;
            *s = sum;
        }
        start[len] = sum;
        let mut packed = vec![0u64; moves.div_ceil(2)];
        spill.file.flush().map_err(|e| spill.io(e))?;
        let mut file = spill.file.get_ref().as_file();
        file.rewind().map_err(|e| spill.io(e))?;
        let mut chunk = vec![0u8; 1 << 20];
        let mut left = moves * 8;
        while left > 0 {
            let bytes = &mut chunk[..left.min(1 << 20)];
            file.read_exact(bytes).map_err(|e| spill.io(e))?;
            for m in bytes.chunks_exact(8) {
                let m = u64::from_le_bytes(m.try_into().expect("8 bytes"));
                let end = &mut start[(m >> 32) as usize];
                *end -= 1;
                let i = *end as usize;
                packed[i / 2] |= (m & u64::from(u32::MAX)) << (32 * (i % 2));
            }
            left -= bytes.len();
        }
        Ok(Rows { start, packed })
    }

    fn row(&self, w: usize) -> impl Iterator<Item = u32> + '_ {
        (self.start[w] as usize..self.start[w + 1] as usize)
            .map(|i| (self.packed[i / 2] >> (32 * (i % 2))) as u32)
    }
}

/// One worker's share of a layer's solve (see the module docs).
pub struct Shard {
    bounds: Vec<u64>,
    me: usize,
    /// Best exit of each owned position ([`NO_EXIT`] until received).
    exit: Vec<i8>,
    /// Moves inside not yet refuted, per owned position.
    counter: Vec<u8>,
    /// 0 while undecided, else the value as a signed byte (as in `build::solve`).
    value: Vec<u8>,
    /// The ranges of positions received, to check they tile the shard.
    received: Vec<Range<u64>>,
    /// Moves in, before [`Shard::seal`]: `local child << 32 | parent`, unless spilled.
    moves: Vec<u64>,
    spill: Option<Spill>,
    rows: Rows,
    /// The threshold being computed (0 before the first).
    threshold: i32,
    /// Owned positions that joined W or L and have not told their predecessors yet.
    queue: Vec<u32>,
    /// Messages to this shard's own positions, applied at the next step.
    own: Messages,
}

impl Shard {
    /// The shard `me` of the layer cut by `bounds` (increasing, from 0 to the layer's
    /// length, as [`even_bounds`] gives them).
    ///
    /// # Panics
    /// When `me` is not a shard of `bounds`.
    pub fn new(bounds: &[u64], me: usize) -> Shard {
        assert!(
            me + 1 < bounds.len(),
            "shard {me} of {} bounds",
            bounds.len()
        );
        let len = (bounds[me + 1] - bounds[me]) as usize;
        Shard {
            bounds: bounds.to_vec(),
            me,
            exit: vec![NO_EXIT; len],
            counter: vec![0; len],
            value: Vec::new(),
            received: Vec::new(),
            moves: Vec::new(),
            spill: None,
            rows: Rows::default(),
            threshold: 0,
            queue: Vec::new(),
            own: Messages::default(),
        }
    }

    /// As [`Shard::new`]; given a `scratch` directory, the shard keeps the moves in in a new
    /// file there until [`Shard::seal`] (removed then, or when the shard is dropped): 4 bytes
    /// a move in memory at the seal rather than 8, for 8 bytes a move on disk.
    ///
    /// # Errors
    /// When the file cannot be made.
    ///
    /// # Panics
    /// As [`Shard::new`].
    pub fn with_scratch(
        bounds: &[u64],
        me: usize,
        scratch: Option<&Path>,
    ) -> Result<Shard, TablesError> {
        let mut shard = Shard::new(bounds, me);
        let Some(dir) = scratch else {
            return Ok(shard);
        };
        let file = tempfile::Builder::new()
            .prefix(&format!("shard-{me}-"))
            .suffix(".moves")
            .tempfile_in(dir)
            .map_err(|error| TablesError::Io {
                path: dir.to_path_buf(),
                error,
            })?;
        shard.spill = Some(Spill {
            file: BufWriter::with_capacity(1 << 20, file),
            degrees: vec![0; shard.exit.len() + 1],
            moves: 0,
        });
        Ok(shard)
    }

    /// The indices this shard owns.
    pub fn range(&self) -> Range<u64> {
        self.bounds[self.me]..self.bounds[self.me + 1]
    }

    fn local(&self, index: u32) -> usize {
        (u64::from(index) - self.bounds[self.me]) as usize
    }

    /// Takes this shard's part of an expanded range ([`route`]).
    ///
    /// # Errors
    /// When it holds positions or moves of another shard.
    pub fn receive(&mut self, part: &Part) -> Result<(), TablesError> {
        let range = self.range();
        let positions = part.start..part.start + part.exit.len() as u64;
        let outside = |i: u64| !range.contains(&i);
        if part.exit.len() != part.inner.len()
            || part.parents.len() != part.children.len()
            || (!positions.is_empty() && (outside(positions.start) || outside(positions.end - 1)))
            || part.children.iter().any(|&c| outside(u64::from(c)))
        {
            return Err(TablesError::Unsupported(format!(
                "a part of another shard than {} ({range:?})",
                self.me
            )));
        }
        if !positions.is_empty() {
            let at =
                (positions.start - range.start) as usize..(positions.end - range.start) as usize;
            self.exit[at.clone()].copy_from_slice(&part.exit);
            self.counter[at].copy_from_slice(&part.inner);
            self.received.push(positions);
        }
        let first = range.start;
        if let Some(spill) = &mut self.spill {
            for (&c, &p) in part.children.iter().zip(&part.parents) {
                let w = u64::from(c) - first;
                spill.degrees[w as usize] += 1;
                let bytes = (w << 32 | u64::from(p)).to_le_bytes();
                spill.file.write_all(&bytes).map_err(|e| spill.io(e))?;
            }
            spill.moves += part.children.len() as u64;
            return Ok(());
        }
        // Grown by exactly the part, never doubled: the allocator moves a large vector's
        // pages rather than copying them, and the capacity (what a cap on the worker's
        // memory counts) stays the moves held.
        self.moves.reserve_exact(part.children.len());
        self.moves.extend(
            part.children
                .iter()
                .zip(&part.parents)
                .map(|(&c, &p)| (u64::from(c) - first) << 32 | u64::from(p)),
        );
        Ok(())
    }

    /// Once every part is in: checks that every owned position was received once, and
    /// reverses the moves into rows. Returns the largest exit value held (in absolute value):
    /// the thresholds start at the largest over the shards.
    ///
    /// # Errors
    /// When positions are missing or received twice, or the moves are too many to index.
    pub fn seal(&mut self) -> Result<i32, TablesError> {
        let range = self.range();
        self.received.sort_by_key(|r| r.start);
        let mut next = range.start;
        for r in &self.received {
            if r.start != next {
                break;
            }
            next = r.end;
        }
        if next != range.end {
            return Err(TablesError::Unsupported(format!(
                "shard {} ({range:?}) has not received its positions once each (from {next} on)",
                self.me
            )));
        }
        let len = self.exit.len();
        self.rows = match self.spill.take() {
            Some(mut spill) => Rows::of_spill(&mut spill, len)?,
            None => Rows::of(std::mem::take(&mut self.moves), len)?,
        };
        self.value = vec![0; len];
        Ok(self
            .exit
            .iter()
            .filter(|&&e| e != NO_EXIT)
            .map(|&e| i32::from(e).abs())
            .max()
            .unwrap_or(0))
    }

    fn won(&self) -> u8 {
        self.threshold as i8 as u8
    }

    fn lost(&self) -> u8 {
        (-self.threshold) as i8 as u8
    }

    /// Starts threshold `t` (every shard, each after the rounds of the threshold above):
    /// an undecided position whose exit is worth exactly t wins; one whose moves inside are
    /// all refuted and whose exit is exactly −t loses. Returns their messages, one batch a
    /// shard (this shard's own is kept for its next step, and returned empty).
    pub fn begin(&mut self, t: i32) -> Vec<Messages> {
        self.threshold = t;
        let (won, lost) = (self.won(), self.lost());
        for u in 0..self.exit.len() {
            if self.value[u] != 0 || self.exit[u] == NO_EXIT {
                continue;
            }
            let e = i32::from(self.exit[u]);
            if e == t {
                self.value[u] = won;
                self.queue.push(u as u32);
            } else if e == -t && self.counter[u] == 0 {
                self.value[u] = lost;
                self.queue.push(u as u32);
            }
        }
        self.send()
    }

    /// One round: applies the batches sent to this shard in the round before (and its own),
    /// then returns the messages of the positions that joined, as [`Shard::begin`].
    pub fn step<'a>(&mut self, inbox: impl IntoIterator<Item = &'a Messages>) -> Vec<Messages> {
        let own = std::mem::take(&mut self.own);
        self.apply(&own);
        for batch in inbox {
            self.apply(batch);
        }
        self.send()
    }

    /// Whether the shard has messages left to send or to apply: the rounds of a threshold
    /// go on while a shard has, or a batch is under way.
    pub fn pending(&self) -> bool {
        !self.queue.is_empty() || !self.own.is_empty()
    }

    fn apply(&mut self, messages: &Messages) {
        let (won, lost) = (self.won(), self.lost());
        for &u in &messages.wins {
            let u = self.local(u);
            if self.value[u] == 0 {
                self.value[u] = won;
                self.queue.push(u as u32);
            }
        }
        for &u in &messages.refuted {
            let u = self.local(u);
            if self.value[u] != 0 {
                continue;
            }
            self.counter[u] -= 1;
            let exit = self.exit[u];
            if self.counter[u] == 0 && (exit == NO_EXIT || i32::from(exit) <= -self.threshold) {
                self.value[u] = lost;
                self.queue.push(u as u32);
            }
        }
    }

    /// The messages of the queued members, up to [`STEP_BUDGET`].
    fn send(&mut self) -> Vec<Messages> {
        let mut out = vec![Messages::default(); self.bounds.len() - 1];
        let lost = self.lost();
        let mut sent = 0;
        while sent < STEP_BUDGET {
            let Some(w) = self.queue.pop() else { break };
            let w_lost = self.value[w as usize] == lost;
            for u in self.rows.row(w as usize) {
                let to = owner(&self.bounds, u64::from(u));
                let batch = if to == self.me {
                    &mut self.own
                } else {
                    &mut out[to]
                };
                if w_lost {
                    batch.wins.push(u);
                } else {
                    batch.refuted.push(u);
                }
                sent += 1;
            }
        }
        out
    }

    /// The values of the owned positions, one signed byte each, once the last threshold's
    /// rounds are done.
    pub fn into_values(self) -> Vec<u8> {
        self.value
    }
}

/// What a split solve exchanged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SplitReport {
    /// Rounds (barriers: every shard steps once), over every threshold.
    pub rounds: u64,
    /// Messages between shards (not those a shard sends itself).
    pub messages: u64,
}

/// Runs the thresholds over sealed shards, one round after another in this process, from
/// `top` down to 1.
pub fn run_thresholds(shards: &mut [Shard], top: i32) -> SplitReport {
    let mut report = SplitReport::default();
    for t in (1..=top).rev() {
        let mut mail: Vec<Vec<Messages>> = shards.iter_mut().map(|s| s.begin(t)).collect();
        loop {
            report.messages += mail.iter().flatten().map(|m| m.len() as u64).sum::<u64>();
            let idle = mail.iter().flatten().all(Messages::is_empty);
            if idle && !shards.iter().any(Shard::pending) {
                break;
            }
            report.rounds += 1;
            mail = (0..shards.len())
                .map(|to| shards[to].step(mail.iter().map(|from| &from[to])))
                .collect();
        }
    }
    report
}

/// Solves a layer from its expanded ranges (in order, covering it) with `shards` shards in
/// this process, their moves in kept in scratch files in `scratch` when given
/// ([`Shard::with_scratch`]). Returns the values of each shard's range, in order: concatenated, those of
/// [`build::solve`](crate::build::solve), byte for byte (and the file of
/// [`file::write_layer_parts`](crate::file::write_layer_parts)).
///
/// # Errors
/// As [`Shard::with_scratch`] and [`Shard::seal`].
pub fn solve(
    expansions: &[Expansion],
    shards: usize,
    scratch: Option<&Path>,
) -> Result<(Vec<Vec<u8>>, SplitReport), TablesError> {
    let count: u64 = expansions.iter().map(|e| e.exit.len() as u64).sum();
    let bounds = even_bounds(count, shards);
    let mut shards = (0..bounds.len() - 1)
        .map(|k| Shard::with_scratch(&bounds, k, scratch))
        .collect::<Result<Vec<Shard>, _>>()?;
    for expansion in expansions {
        for (shard, part) in shards.iter_mut().zip(route(&bounds, expansion)) {
            shard.receive(&part)?;
        }
    }
    let mut top = 0;
    for shard in &mut shards {
        top = top.max(shard.seal()?);
    }
    let report = run_thresholds(&mut shards, top);
    Ok((shards.into_iter().map(Shard::into_values).collect(), report))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_and_messages_read_back_as_written() {
        let part = Part {
            start: 7,
            exit: vec![3, NO_EXIT, -2],
            inner: vec![1, 0, 2],
            parents: vec![7, 9, 9],
            children: vec![1, 4, 12],
        };
        assert_eq!(Part::from_bytes(&part.to_bytes()).unwrap(), part);
        let messages = Messages {
            wins: vec![5, 6],
            refuted: vec![8],
        };
        assert_eq!(
            Messages::from_bytes(&messages.to_bytes()).unwrap(),
            messages
        );
        assert!(Messages::default().to_bytes().is_empty());
        assert!(Part::from_bytes(&part.to_bytes()[..30]).is_err());
        assert!(Messages::from_bytes(&[9, 0, 0, 0, 1, 0, 0, 0]).is_err());
    }

    #[test]
    fn rows_hold_every_parent_of_each_child() {
        // Children 0..3 of a shard; (child, parent) moves in no order, one repeated.
        let moves = [(2, 40), (0, 7), (2, 5), (1, 9), (2, 40), (0, 3)];
        let rows = Rows::of(moves.iter().map(|&(c, p)| c << 32 | p).collect(), 3).unwrap();
        let row = |w| rows.row(w).collect::<Vec<_>>();
        assert_eq!(row(0), [3, 7]);
        assert_eq!(row(1), [9]);
        assert_eq!(row(2), [5, 40, 40]);
    }

    #[test]
    fn route_sends_each_position_and_move_to_its_owner() {
        let bounds = even_bounds(10, 3);
        assert_eq!(bounds, [0, 3, 6, 10]);
        let expansion = Expansion {
            start: 2,
            exit: vec![1, 2, 3],
            inner: vec![2, 0, 1],
            children: vec![9, 0, 5],
        };
        let parts = route(&bounds, &expansion);
        assert_eq!((parts[0].start, &parts[0].exit[..]), (2, &[1][..]));
        assert_eq!((parts[1].start, &parts[1].exit[..]), (3, &[2, 3][..]));
        assert!(parts[2].exit.is_empty());
        assert_eq!(
            (&parts[0].parents[..], &parts[0].children[..]),
            (&[2][..], &[0][..])
        );
        assert_eq!(
            (&parts[1].parents[..], &parts[1].children[..]),
            (&[4][..], &[5][..])
        );
        assert_eq!(
            (&parts[2].parents[..], &parts[2].children[..]),
            (&[2][..], &[9][..])
        );
    }

    #[test]
    fn a_shard_refuses_what_it_does_not_own_and_missing_positions() {
        let bounds = even_bounds(10, 2);
        let mut shard = Shard::new(&bounds, 1);
        let foreign = Part {
            start: 4,
            exit: vec![0, 0],
            inner: vec![0, 0],
            ..Part::default()
        };
        assert!(shard.receive(&foreign).is_err());
        let half = Part {
            start: 5,
            exit: vec![0; 3],
            inner: vec![0; 3],
            ..Part::default()
        };
        shard.receive(&half).unwrap();
        assert!(shard.seal().is_err());
    }
}
