//! A run: narrows the bounds of a position by null-window tests, each searched ever
//! deeper until it is answered, keeps checkpoints, values the opening moves, and writes the
//! certificate of what it proved.
//!
//! The tests bisect the interval still open: a test far from the value is answered
//! quickly, and every answer is a stored claim that later tests reuse. A checkpoint is the
//! store itself (every claim in it is proven), so a stopped run resumes from it and ends
//! where an unstopped one would.

use std::collections::HashSet;
use std::path::Path;
use std::time::{Duration, Instant};

use sowing::{Move, Position};

use crate::certificate::{Certificate, Entry, Root};
use crate::prove::{Bounds, ProofLimits, Prover, Stop};
use crate::{key_of, move_code, Key, Kind, SolveError};

/// What a run is told.
#[derive(Clone, Debug)]
pub struct Options {
    /// Stop after this long.
    pub max_time: Option<Duration>,
    /// Stop after this many nodes.
    pub max_nodes: Option<u64>,
    /// Also value every legal move of the position once its value is exact.
    pub moves: bool,
    /// The deepest search a test may go to before the run gives up on it.
    pub max_depth: u32,
    /// Where the tests start while neither end of the interval is proven.
    pub order: Order,
}

/// Where a run's tests start while neither end of the interval is proven.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// In the middle, halving the interval each time: fewest tests when they are all
    /// answered, but the first is the hardest there is when the value is near 0.
    #[default]
    Bisect,
    /// At both ends in turn, galloping inward (1, 2, 4 … seeds past each end), until a test
    /// crosses the value; then bisecting. A test far from the value is answered far sooner,
    /// so a run that cannot finish still proves bounds (Ayoayo).
    FromEnds,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_time: None,
            max_nodes: None,
            moves: true,
            max_depth: crate::prove::MAX_PLY as u32,
            order: Order::Bisect,
        }
    }
}

/// A legal move of the solved position with the proven bounds on its value for the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Its value is at least this …
    pub lower: i32,
    /// … and at most this.
    pub upper: i32,
}

/// What a run proved.
#[derive(Clone, Debug)]
pub struct Solution {
    /// V ≥ lower …
    pub lower: i32,
    /// … and V ≤ upper.
    pub upper: i32,
    /// The moves' values (when asked for and the position's value is exact).
    pub moves: Vec<MoveValue>,
    /// Nodes searched by this run (not counting those of runs it resumed).
    pub nodes: u64,
    /// Why it stopped early, if it did.
    pub stopped: Option<Stop>,
    /// The tests on the position itself that were answered, in order: "V ≥ t?" and the
    /// answer (not those on its moves).
    pub tests: Vec<(i32, bool)>,
}

impl Solution {
    /// The exact value, when the bounds meet.
    pub fn exact(&self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }
}

/// Narrows the bounds of `position` until they meet, the limits are reached, or a test
/// needs more than `max_depth` plies; appends each answered test to `tests`.
///
/// With only one side of the interval proven (a move's position after the root's proof,
/// which bounds every move from one side), the tests gallop from that side (one, two,
/// four … seeds past it): the value is usually near it, and a test far past the value
/// costs as much as one near it. With neither side proven they bisect the interval, or,
/// by [`Order::FromEnds`], gallop from both ends in turn until one crosses the value.
fn narrow(
    prover: &mut Prover<'_>,
    position: &Position,
    max_depth: u32,
    order: Order,
    tests: &mut Vec<(i32, bool)>,
) -> (i32, i32) {
    let seeds = position.seeds_on_board() as i32;
    let mut step = 1;
    // From the ends: the next step up from below and down from above, and whose turn.
    let (open_lo, open_hi) = prover.bounds(position);
    let mut ends = (order == Order::FromEnds && (open_lo == -seeds || open_hi == seeds))
        .then_some((1, 1, false));
    loop {
        let (lo, hi) = prover.bounds(position);
        if lo >= hi || prover.stopped().is_some() {
            return (lo, hi);
        }
        // "V ≥ t?", t in (lo, hi]; `from_above` when a yes would cross the value.
        let (t, from_above) = if let Some((up, down, above)) = ends.as_mut() {
            let from = *above;
            *above = !from;
            let t = if from {
                let t = (hi - *down + 1).max(lo + 1);
                *down *= 2;
                t
            } else {
                let t = (lo + *up).min(hi);
                *up *= 2;
                t
            };
            (t, Some(from))
        } else {
            let t = if lo > -seeds && hi == seeds {
                (lo + step).min(hi)
            } else if hi < seeds && lo == -seeds {
                (hi - step + 1).max(lo + 1)
            } else {
                lo + (hi - lo + 1) / 2
            };
            step *= 2;
            (t, None)
        };
        let mut answer = crate::prove::Answer::Unknown;
        for depth in 1..=max_depth {
            answer = prover.test(position, t, depth);
            if answer != crate::prove::Answer::Unknown || prover.stopped().is_some() {
                break;
            }
        }
        let yes = match answer {
            crate::prove::Answer::Yes => true,
            crate::prove::Answer::No => false,
            crate::prove::Answer::Unknown => return prover.bounds(position),
        };
        tests.push((t, yes));
        // A test from below answered no, or one from above yes: the value lies between
        // two proven bounds, which bisecting closes fastest.
        if from_above.is_some_and(|above| above == yes) {
            ends = None;
        }
    }
}

/// Solves `position` (its value, then its moves' values) within the options' limits.
///
/// # Errors
/// When the position is of another game than the tables, or its layers are too large for
/// the index.
pub fn solve(
    prover: &mut Prover<'_>,
    position: &Position,
    options: &Options,
) -> Result<Solution, SolveError> {
    let family = prover.family();
    if sowing_tables::Family::of(position.rules()) != family {
        return Err(SolveError::Unsupported(format!(
            "the position is of {}, the tables of {family}",
            sowing_tables::Family::of(position.rules())
        )));
    }
    crate::check_family(&family, position.seeds_on_board())?;
    let start_nodes = prover.nodes();
    prover.set_limits(ProofLimits {
        deadline: options.max_time.map(|d| Instant::now() + d),
        max_nodes: options.max_nodes.map(|n| start_nodes + n),
    });
    let searchable = |p: &Position, prover: &Prover<'_>| {
        !p.is_over() && p.seeds_on_board() > prover.leaf_seeds()
    };
    let mut tests = Vec::new();
    let (lower, upper) = if searchable(position, prover) {
        narrow(
            prover,
            position,
            options.max_depth,
            options.order,
            &mut tests,
        )
    } else {
        prover.bounds(position)
    };
    let mut moves = Vec::new();
    if options.moves && lower == upper && prover.stopped().is_none() {
        let mover = position.to_move();
        for (mv, child) in position.successors() {
            let gain = crate::gain(position, &child);
            let (lo, hi) = if searchable(&child, prover) {
                narrow(
                    prover,
                    &child,
                    options.max_depth,
                    Order::Bisect,
                    &mut Vec::new(),
                )
            } else {
                prover.bounds(&child)
            };
            let (lower, upper) = if child.is_over() {
                (gain, gain)
            } else if child.to_move() == mover {
                (gain + lo, gain + hi)
            } else {
                (gain - hi, gain - lo)
            };
            moves.push(MoveValue { mv, lower, upper });
        }
    }
    Ok(Solution {
        lower,
        upper,
        moves,
        nodes: prover.nodes() - start_nodes,
        stopped: prover.stopped(),
        tests,
    })
}

/// The root claims of a solution: its bounds, and each move's (as bounds on the position
/// the move leads to, when that is not valued at once).
pub fn roots(prover: &Prover<'_>, position: &Position, solution: &Solution) -> Vec<Root> {
    let mut roots = Vec::new();
    let mut add = |label: String, position: &Position, lo: i32, hi: i32| {
        let seeds = position.seeds_on_board() as i32;
        if position.is_over() || position.seeds_on_board() <= prover.leaf_seeds() {
            return;
        }
        if lo > -seeds {
            roots.push(Root {
                label: label.clone(),
                position: *position,
                kind: Kind::Lower,
                bound: lo,
            });
        }
        if hi < seeds {
            roots.push(Root {
                label,
                position: *position,
                kind: Kind::Upper,
                bound: hi,
            });
        }
    };
    let label = if *position == Position::start(position.rules()) {
        "start"
    } else {
        "position"
    };
    add(label.into(), position, solution.lower, solution.upper);
    let n = position.rules().pits_per_row();
    for (mv, child) in position.successors() {
        if solution.moves.iter().any(|m| m.mv == mv) {
            let (lo, hi) = prover.bounds(&child);
            add(format!("after {}", mv.name(n)), &child, lo, hi);
        }
    }
    roots
}

/// The certificate of `roots`: every claim of the store their proofs reach, found by
/// following, from each claim, the move it names (a lower bound) or every move (an upper
/// bound) down to the tables.
///
/// # Errors
/// When the store lacks a claim a proof needs (a prover bug, reported rather than hidden).
pub fn certificate(
    prover: &Prover<'_>,
    rules: sowing::Rules,
    roots: Vec<Root>,
) -> Result<Certificate, SolveError> {
    let family = prover.family();
    let store = prover.store();
    let leaf = prover.leaf_seeds();
    let mut seen: HashSet<(Key, Kind)> = HashSet::new();
    let mut todo: Vec<(Position, Kind, i32)> = roots
        .iter()
        .map(|r| (r.position, r.kind, r.bound))
        .collect();
    let missing = |position: &Position, kind: Kind, bound: i32| SolveError::Refused {
        position: position.to_string(),
        why: format!("the prover's store has no claim V {kind} {bound} (a prover bug)"),
    };
    while let Some((position, kind, bound)) = todo.pop() {
        let seeds = position.seeds_on_board() as i32;
        if position.is_over()
            || position.seeds_on_board() <= leaf
            || (kind == Kind::Lower && bound <= -seeds)
            || (kind == Kind::Upper && bound >= seeds)
        {
            continue;
        }
        let key = key_of(&family, &position);
        let b = store.get(&key).copied().unwrap_or(Bounds {
            lower: Bounds::NO_LOWER,
            upper: Bounds::NO_UPPER,
            mv: 0,
        });
        let have = match kind {
            Kind::Lower => i32::from(b.lower),
            Kind::Upper => i32::from(b.upper),
        };
        let ok = match kind {
            Kind::Lower => b.lower != Bounds::NO_LOWER && have >= bound,
            Kind::Upper => b.upper != Bounds::NO_UPPER && have <= bound,
        };
        if !ok {
            return Err(missing(&position, kind, bound));
        }
        if !seen.insert((key, kind)) {
            continue;
        }
        // From the stored (strongest) bound, as the checker will.
        let n = position.rules().pits_per_row();
        let mover = position.to_move();
        for (mv, child) in position.successors() {
            if kind == Kind::Lower && move_code(mv, n) != b.mv {
                continue;
            }
            let gain = crate::gain(&position, &child);
            if child.is_over() {
                continue;
            }
            let need = if child.to_move() == mover {
                (kind, have - gain)
            } else {
                let flipped = if kind == Kind::Lower {
                    Kind::Upper
                } else {
                    Kind::Lower
                };
                (flipped, gain - have)
            };
            todo.push((child, need.0, need.1));
        }
    }
    let mut claims: Vec<Entry> = Vec::new();
    let mut keys: Vec<Key> = seen.iter().map(|&(k, _)| k).collect();
    keys.sort_unstable();
    keys.dedup();
    for key in keys {
        let b = store[&key];
        claims.push(Entry {
            key,
            lower: seen
                .contains(&(key, Kind::Lower))
                .then_some((i32::from(b.lower), b.mv)),
            upper: seen
                .contains(&(key, Kind::Upper))
                .then_some(i32::from(b.upper)),
        });
    }
    Ok(Certificate {
        rules,
        leaf_seeds: leaf,
        roots,
        claims,
    })
}

/// Writes a checkpoint: every proven claim of the store, as a certificate with no roots.
///
/// # Errors
/// When the file cannot be written.
pub fn write_checkpoint(
    prover: &Prover<'_>,
    rules: sowing::Rules,
    path: &Path,
) -> Result<usize, SolveError> {
    let claims = prover
        .store()
        .iter()
        .map(|(&key, b)| Entry {
            key,
            lower: (b.lower != Bounds::NO_LOWER).then_some((i32::from(b.lower), b.mv)),
            upper: (b.upper != Bounds::NO_UPPER).then_some(i32::from(b.upper)),
        })
        .collect();
    Certificate {
        rules,
        leaf_seeds: prover.leaf_seeds(),
        roots: Vec::new(),
        claims,
    }
    .write(path)
}

/// Loads a checkpoint written by [`write_checkpoint`] for the same tables into the store;
/// returns the number of positions loaded.
///
/// # Errors
/// When the file cannot be read, is malformed, or is of other tables.
pub fn read_checkpoint(prover: &mut Prover<'_>, path: &Path) -> Result<usize, SolveError> {
    let checkpoint = Certificate::read(path)?;
    if checkpoint.family() != prover.family() || checkpoint.leaf_seeds != prover.leaf_seeds() {
        return Err(SolveError::Format {
            path: path.to_path_buf(),
            why: format!(
                "a checkpoint of {} with tables to {} seeds, not {} to {}",
                checkpoint.family(),
                checkpoint.leaf_seeds,
                prover.family(),
                prover.leaf_seeds()
            ),
        });
    }
    for entry in &checkpoint.claims {
        if let Some((bound, mv)) = entry.lower {
            prover.load(entry.key, Kind::Lower, bound, mv);
        }
        if let Some(bound) = entry.upper {
            prover.load(entry.key, Kind::Upper, bound, 0);
        }
    }
    Ok(checkpoint.claims.len())
}
