//! The prover: a depth-limited null-window search ("is V ≥ t?") whose every answer is a
//! proven claim, kept in a store that the certificate is later drawn from.
//!
//! A node answers **yes** (a claim V ≥ t, with the move), **no** (V ≤ t − 1), or
//! **unknown** when the depth runs out. Moves into the tables, or that end the game, are
//! valued at once; the others are searched with the threshold shifted by what the move
//! captures (the opponent's question after a handed-over move is "V ≥ gain − t + 1?", whose
//! negation answers ours). Moves are ordered as the engine orders them: the move that
//! answered here before first, then captures (largest first), then extra turns.
//!
//! **Repetition.** A position that repeats one on the search path (no capture in between,
//! so the same question) is answered as a play that never ends: worth 0, so yes when t ≤ 0
//! and no when t ≥ 1. Either answer is a *safety* claim (V ≥ t ≤ 0, or V ≤ t − 1 ≥ 0),
//! which the certificate may prove through a cycle. But the answer is only valid if the
//! repeated ancestor's own answer turns out the same, so every answer that leaned on an
//! ancestor carries it in a set of dependencies (one bit a ply) and waits, unstored, in a
//! pending list; when the ancestor is answered, its dependents are stored if the answer
//! agrees with the assumption and dropped if not. Only unconditional answers are stored
//! (the graph-history interaction problem: a stored answer must not depend on the path).
//!
//! **Memory.** The store holds every proven claim (the certificate needs them); a second,
//! fixed-size table remembers which questions were left unknown at which depth, and each
//! position's last best move, for ordering.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

use arrayvec::ArrayVec;
use sowing::{Position, Rules, Side};
use sowing_tables::{Family, Tables};

use crate::{key_of, move_code, Key, Kind};

/// What the store knows about one position: V ≥ lower (by move `mv`) and V ≤ upper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The proven lower bound, [`Bounds::NO_LOWER`] when there is none.
    pub lower: i8,
    /// The proven upper bound, [`Bounds::NO_UPPER`] when there is none.
    pub upper: i8,
    /// The move code ([`crate::move_code`]) that achieves `lower`.
    pub mv: u8,
}

impl Bounds {
    /// No lower bound.
    pub const NO_LOWER: i8 = i8::MIN;
    /// No upper bound.
    pub const NO_UPPER: i8 = i8::MAX;
    const NONE: Bounds = Bounds {
        lower: Bounds::NO_LOWER,
        upper: Bounds::NO_UPPER,
        mv: 0,
    };
}

/// Keys are already well spread in their high bits; one multiplication mixes the rest.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, key: u64) {
        let x = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = x ^ (x >> 32);
    }
}

/// The proven claims, by position.
pub type Store = HashMap<Key, Bounds, BuildHasherDefault<KeyHasher>>;

/// The answer to "V ≥ t?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Proven: V ≥ t.
    Yes,
    /// Proven: V ≤ t − 1.
    No,
    /// The depth (or the time, nodes or memory) ran out first.
    Unknown,
}

/// An answer inside the search, with the plies of the ancestors it assumed (see the module
/// documentation).
#[derive(Clone, Copy, Debug)]
enum Res {
    Yes(u128),
    No(u128),
    Unknown,
}

fn negate(res: Res) -> Res {
    match res {
        Res::Yes(d) => Res::No(d),
        Res::No(d) => Res::Yes(d),
        Res::Unknown => Res::Unknown,
    }
}

/// The most plies a search goes down (one dependency bit a ply).
pub const MAX_PLY: usize = 128;

struct Frame {
    key: Key,
    mover: Side,
    seeds: usize,
    t: i32,
    pending_start: usize,
    referenced: bool,
}

#[derive(Clone, Copy)]
struct Pending {
    key: Key,
    kind: Kind,
    bound: i32,
    mv: u8,
    deps: u128,
}

/// A question left unknown: at `depth` for threshold `t`; and the position's best move.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: Key,
    t: i8,
    depth: u8,
    mv: u8,
}

/// When to stop.
#[derive(Clone, Copy, Debug, Default)]
pub struct ProofLimits {
    /// Stop at this time.
    pub deadline: Option<Instant>,
    /// Stop after this many nodes.
    pub max_nodes: Option<u64>,
}

/// Why a search stopped before its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The time limit.
    Time,
    /// The node limit.
    Nodes,
    /// The store outgrew its share of the memory.
    Memory,
}

/// Called about once a second of search with the prover, for progress and checkpoints.
pub type Hook<'t> = Box<dyn FnMut(&Prover<'t>) + 't>;

/// The prover, its store and its limits.
pub struct Prover<'t> {
    tables: &'t Tables,
    family: Family,
    leaf: usize,
    store: Store,
    slots: Vec<Slot>,
    store_budget: usize,
    path: Vec<Frame>,
    pending: Vec<Pending>,
    nodes: u64,
    limits: ProofLimits,
    stopped: Option<Stop>,
    last_hook: Instant,
    hook: Option<Hook<'t>>,
    /// The threshold being tested (for progress reports).
    pub testing: i32,
    /// The depth being searched (for progress reports).
    pub depth: u32,
}

/// Bytes a stored claim takes in the hash map, roughly (entry, control byte, spare room).
const STORE_ENTRY_BYTES: usize = 24;

impl<'t> Prover<'t> {
    /// A prover using `tables` for every position with at most their seeds, with about
    /// `memory` bytes: a quarter for the table of unknown questions, the rest for the store.
    pub fn new(tables: &'t Tables, memory: usize) -> Prover<'t> {
        let slot_bytes = std::mem::size_of::<Slot>();
        let slots = (memory / 4 / slot_bytes).max(1024).next_power_of_two() / 2;
        Prover {
            tables,
            family: tables.family(),
            leaf: tables.max_seeds(),
            store: Store::default(),
            slots: vec![Slot::default(); slots],
            store_budget: memory.saturating_sub(slots * slot_bytes),
            path: Vec::new(),
            pending: Vec::new(),
            nodes: 0,
            limits: ProofLimits::default(),
            stopped: None,
            last_hook: Instant::now(),
            hook: None,
            testing: 0,
            depth: 0,
        }
    }

    /// The family of the tables.
    pub fn family(&self) -> Family {
        self.family
    }

    /// The tables.
    pub fn tables(&self) -> &'t Tables {
        self.tables
    }

    /// The seeds at and below which the tables value a position.
    pub fn leaf_seeds(&self) -> usize {
        self.leaf
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Why the search stopped, if it did.
    pub fn stopped(&self) -> Option<Stop> {
        self.stopped
    }

    /// Sets the limits (and clears a stop).
    pub fn set_limits(&mut self, limits: ProofLimits) {
        self.limits = limits;
        self.stopped = None;
    }

    /// Sets the function called about once a second.
    pub fn set_hook(&mut self, hook: Hook<'t>) {
        self.hook = Some(hook);
    }

    /// The proven claims.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Bytes in use, roughly: the store and the table of unknowns.
    pub fn memory(&self) -> usize {
        self.store.capacity() * STORE_ENTRY_BYTES + self.slots.len() * std::mem::size_of::<Slot>()
    }

    /// Adds a claim proven elsewhere (a checkpoint): it must be true, it is not checked.
    pub fn load(&mut self, key: Key, kind: Kind, bound: i32, mv: u8) {
        self.commit(key, kind, bound, mv);
    }

    /// The proven bounds on V(position), from the store, the tables and the seeds left.
    pub fn bounds(&self, position: &Position) -> (i32, i32) {
        if position.is_over() {
            return (0, 0);
        }
        let seeds = position.seeds_on_board();
        if seeds <= self.leaf {
            let (layer, index) = self.family.locate(position);
            // A compressed block that does not decompress (its file passed its checksum on
            // opening) proves nothing: the bounds of the seeds left stay sound.
            if let Ok(v) = self.tables.stored(layer, index) {
                return (v, v);
            }
        }
        let seeds = seeds as i32;
        let (mut lo, mut hi) = (-seeds, seeds);
        if let Some(b) = self.store.get(&key_of(&self.family, position)) {
            lo = lo.max(i32::from(b.lower));
            hi = hi.min(i32::from(b.upper));
        }
        (lo, hi)
    }

    /// Answers "V(position) ≥ t?" searching at most `depth` plies.
    ///
    /// # Panics
    /// When the position has no more seeds than the tables hold (ask [`Prover::bounds`]),
    /// or is of another family.
    pub fn test(&mut self, position: &Position, t: i32, depth: u32) -> Answer {
        assert!(position.seeds_on_board() > self.leaf && !position.is_over());
        assert_eq!(Family::of(position.rules()), self.family);
        self.path.clear();
        self.pending.clear();
        self.testing = t;
        self.depth = depth;
        match self.search(position, t, depth) {
            Res::Yes(_) => Answer::Yes,
            Res::No(_) => Answer::No,
            Res::Unknown => Answer::Unknown,
        }
    }

    fn poll(&mut self) {
        if let Some(max) = self.limits.max_nodes {
            if self.nodes >= max {
                self.stopped = Some(Stop::Nodes);
            }
        }
        if self.store.capacity() * STORE_ENTRY_BYTES > self.store_budget {
            self.stopped = Some(Stop::Memory);
        }
        let now = Instant::now();
        if let Some(deadline) = self.limits.deadline {
            if now >= deadline {
                self.stopped = Some(Stop::Time);
            }
        }
        if now.duration_since(self.last_hook).as_secs_f64() >= 1.0 {
            self.last_hook = now;
            if let Some(mut hook) = self.hook.take() {
                hook(self);
                self.hook = Some(hook);
            }
        }
    }

    fn commit(&mut self, key: Key, kind: Kind, bound: i32, mv: u8) {
        let entry = self.store.entry(key).or_insert(Bounds::NONE);
        let bound = bound.clamp(-127, 126) as i8;
        match kind {
            Kind::Lower if bound > entry.lower => {
                entry.lower = bound;
                entry.mv = mv;
            }
            Kind::Upper if bound < entry.upper => entry.upper = bound,
            _ => {}
        }
    }

    fn slot(&self, key: Key) -> usize {
        let x = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((x >> 20) as usize) & (self.slots.len() - 1)
    }

    fn search(&mut self, position: &Position, t: i32, depth: u32) -> Res {
        self.nodes += 1;
        if self.nodes & 0x3FFF == 0 {
            self.poll();
        }
        if self.stopped.is_some() {
            return Res::Unknown;
        }
        let seeds = position.seeds_on_board();
        if t <= -(seeds as i32) {
            return Res::Yes(0);
        }
        if t > seeds as i32 {
            return Res::No(0);
        }
        let key = key_of(&self.family, position);
        if let Some(b) = self.store.get(&key) {
            if i32::from(b.lower) >= t {
                return Res::Yes(0);
            }
            if i32::from(b.upper) < t {
                return Res::No(0);
            }
        }
        let mover = position.to_move();
        for (ply, frame) in self.path.iter_mut().enumerate().rev() {
            if frame.seeds != seeds {
                break;
            }
            if frame.key == key && frame.mover == mover && frame.t == t {
                // A play that never ends from here is worth 0.
                frame.referenced = true;
                let bit = 1u128 << ply;
                return if t <= 0 { Res::Yes(bit) } else { Res::No(bit) };
            }
        }
        if depth == 0 || self.path.len() >= MAX_PLY {
            return Res::Unknown;
        }
        let slot_index = self.slot(key);
        let slot = self.slots[slot_index];
        let mut hint = None;
        if slot.key == key {
            if i32::from(slot.t) == t && u32::from(slot.depth) >= depth {
                return Res::Unknown;
            }
            hint = Some(slot.mv);
        }

        let n = position.rules().pits_per_row();
        // Children to search: (order, code, position, gain, extra turn).
        let mut children: ArrayVec<(i32, u8, Position, i32, bool), { Rules::MAX_PITS_PER_ROW }> =
            ArrayVec::new();
        let mut best_now: Option<(i32, u8)> = None;
        let mut unreadable = false;
        for (mv, child) in position.successors() {
            let code = move_code(mv, n);
            let me = mover;
            let (before, after) = (position.captured(), child.captured());
            let gain = (i32::from(after[me]) - i32::from(before[me]))
                - (i32::from(after[!me]) - i32::from(before[!me]));
            let extra = !child.is_over() && child.to_move() == mover;
            let now = if child.is_over() {
                Some(gain)
            } else if child.seeds_on_board() <= self.leaf {
                let (layer, index) = self.family.locate(&child);
                match self.tables.stored(layer, index) {
                    Ok(v) => Some(if extra { gain + v } else { gain - v }),
                    // Unreadable (see `bounds`): the move is not valued, so the answer
                    // cannot be No.
                    Err(_) => {
                        unreadable = true;
                        continue;
                    }
                }
            } else {
                None
            };
            match now {
                Some(v) => {
                    if best_now.is_none_or(|(b, _)| v > b) {
                        best_now = Some((v, code));
                    }
                }
                None => {
                    let order = if hint == Some(code) {
                        i32::MAX
                    } else {
                        gain * 10_000 + i32::from(extra) * 5_000 - child.seeds_on_board() as i32
                    };
                    children.push((order, code, child, gain, extra));
                }
            }
        }
        if let Some((v, code)) = best_now {
            if children.is_empty() && !unreadable {
                // Every move valued at once: the exact value.
                self.commit(key, Kind::Lower, v, code);
                self.commit(key, Kind::Upper, v, 0);
                return if v >= t { Res::Yes(0) } else { Res::No(0) };
            }
            if v >= t {
                self.commit(key, Kind::Lower, v, code);
                return Res::Yes(0);
            }
        }
        children.sort_unstable_by_key(|c| std::cmp::Reverse(c.0));

        self.path.push(Frame {
            key,
            mover,
            seeds,
            t,
            pending_start: self.pending.len(),
            referenced: false,
        });
        let mut yes = None;
        let mut no_deps = 0u128;
        let mut unknown = unreadable;
        for &(_, code, ref child, gain, extra) in &children {
            let res = if extra {
                self.search(child, t - gain, depth - 1)
            } else {
                negate(self.search(child, gain - t + 1, depth - 1))
            };
            match res {
                Res::Yes(deps) => {
                    yes = Some((deps, code));
                    break;
                }
                Res::No(deps) => no_deps |= deps,
                Res::Unknown => unknown = true,
            }
            if self.stopped.is_some() {
                unknown = true;
                break;
            }
        }
        let frame = self.path.pop().expect("pushed above");
        let mut res = match yes {
            Some((deps, _)) => Res::Yes(deps),
            None if unknown => Res::Unknown,
            None => Res::No(no_deps),
        };
        let bit = 1u128 << self.path.len();
        if frame.referenced {
            // Settle what assumed this node's answer was the one a repetition gives.
            let assumed_yes = t <= 0;
            let agrees = match res {
                Res::Yes(_) => assumed_yes,
                Res::No(_) => !assumed_yes,
                Res::Unknown => false,
            };
            // A dependent relies on this node's claim, which may itself still wait on
            // ancestors further up: it inherits what this node waits on.
            let own = match res {
                Res::Yes(d) | Res::No(d) => d & !bit,
                Res::Unknown => 0,
            };
            let mut keep = frame.pending_start;
            for i in frame.pending_start..self.pending.len() {
                let mut p = self.pending[i];
                if p.deps & bit != 0 {
                    if !agrees {
                        continue;
                    }
                    p.deps = (p.deps & !bit) | own;
                    if p.deps == 0 {
                        self.commit(p.key, p.kind, p.bound, p.mv);
                        continue;
                    }
                }
                self.pending[keep] = p;
                keep += 1;
            }
            self.pending.truncate(keep);
            res = match res {
                Res::Yes(d) if d & bit != 0 => {
                    if agrees {
                        Res::Yes(d & !bit)
                    } else {
                        Res::Unknown
                    }
                }
                Res::No(d) if d & bit != 0 => {
                    if agrees {
                        Res::No(d & !bit)
                    } else {
                        Res::Unknown
                    }
                }
                other => other,
            };
        }
        let claim = match (res, yes) {
            (Res::Yes(deps), Some((_, code))) => Some((Kind::Lower, t, code, deps)),
            (Res::No(deps), _) => Some((Kind::Upper, t - 1, 0, deps)),
            _ => None,
        };
        match claim {
            Some((kind, bound, mv, 0)) => self.commit(key, kind, bound, mv),
            Some((kind, bound, mv, deps)) => self.pending.push(Pending {
                key,
                kind,
                bound,
                mv,
                deps,
            }),
            None => {}
        }
        let slot = &mut self.slots[slot_index];
        match (res, yes) {
            (Res::Unknown, _) => {
                *slot = Slot {
                    key,
                    t: t.clamp(-128, 127) as i8,
                    depth: depth.min(255) as u8,
                    mv: hint.or(children.first().map(|c| c.1)).unwrap_or(0),
                }
            }
            (_, Some((_, code))) => {
                *slot = Slot {
                    key,
                    t: 0,
                    depth: 0,
                    mv: code,
                }
            }
            _ => {}
        }
        res
    }
}
