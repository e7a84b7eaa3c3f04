//! Alpha-beta search (negamax) with iterative deepening, a transposition table, move
//! ordering and a capture-only quiescence search, exact about the rules:
//!
//! - the side to move does not always alternate (a Hoyito capture gives another move), so a
//!   child's value is negated only when the side to move changes;
//! - a pass is a move like any other (one ply);
//! - a position that repeats one on the path (or in the game since the last capture) ends
//!   the game (C.3): its value is the captured margin so far;
//! - a value into which no estimate went is *proven*: when a whole iteration evaluates no
//!   leaf by estimate, the search stops and reports the exact final margin.
//!
//! With endgame tables ([`Searcher::tables`]), a node with at most the tables' seeds on the
//! board (not the root) takes its exact value: the captured margin so far plus the table's
//! value, proven. The repetition check comes first (a node that repeats a position of the
//! game or of the path ends the game there); a node that repeats nothing takes the table's
//! value, which is that of the position without history (`crate::tables` explains why).
//!
//! Nodes whose value depends on a repetition with a position above them are not stored in
//! the table, since their value depends on the path.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use arrayvec::ArrayVec;
use sowing::{Game, Move, Pit, Position, Rules};

use crate::clock::Instant;
use crate::eval::{self, Evaluator};
use crate::features::{Weights, FEATURES};
use crate::ordering::{self, History};
use crate::tt::{Bound, Tt};
use crate::{Info, Limits, Score};

/// Larger than any value.
const INF: i32 = 1_000_000;
/// Deepest iteration when no depth is given.
const MAX_DEPTH: u32 = 240;
/// Quiescence plies at most (captures only).
const QUIESCENCE_PLIES: u32 = 12;

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play.
    pub best: Move,
    /// Its value for the side to move.
    pub score: Score,
    /// Deepest iteration completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The expected line, best move first.
    pub pv: Vec<Move>,
}

/// Random offsets added to the values of the root moves, to make weak levels err.
#[derive(Clone, Copy, Debug, Default)]
pub struct Noise {
    /// Largest offset, in centiseeds (0: none).
    pub amplitude: i32,
    /// Seed: the offsets follow from it and the position.
    pub seed: u64,
}

/// The searcher: a transposition table and a history of cut-offs, which live as long as
/// the searcher. [`Searcher::search`] empties both first, so that equal inputs give equal
/// results (the benchmark, tuning, tests); [`Searcher::search_warm`] keeps what earlier
/// searches stored, as [`crate::Engine`] does from one move of a game to the next.
pub struct Searcher {
    tt: Tt,
    history: History,
    evaluator: Evaluator,
    weights_for: Option<sowing::Rules>,
    /// Positions since the last capture: the game's, then the search path.
    stack: Vec<Position>,
    nodes: u64,
    /// Leaves valued by estimate (or by an unproven table entry) so far.
    estimated: u64,
    /// The lowest stack index a repetition in the current subtree went back to.
    rep_low: usize,
    stopped: bool,
    node_limit: u64,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    root_noise: [i32; 25],
    root_best: Option<(Move, i32)>,
    /// The best move of the last completed iteration, searched first at the root (the
    /// table keeps no root entry when the root moves carry noise).
    root_move: Option<Move>,
    /// Search captures beyond the depth limit (quiescence).
    pub quiescence: bool,
    /// Use the tuned features (otherwise the captured margin alone).
    pub use_features: bool,
    /// Use the transposition table (off only to compare with plain minimax in tests).
    pub use_tt: bool,
    /// Endgame tables: nodes inside them take their exact value.
    pub tables: Option<Arc<sowing_tables::Tables>>,
}

fn noise_slot(mv: Move) -> usize {
    match mv {
        Move::Pass => 24,
        Move::Sow(pit) => pit.index(),
    }
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Searcher {
    /// A searcher with a table of `hash_mib` MiB.
    pub fn new(hash_mib: usize) -> Searcher {
        Searcher {
            tt: Tt::new(hash_mib),
            history: History::default(),
            evaluator: Evaluator::new(&[0; FEATURES]),
            weights_for: None,
            stack: Vec::with_capacity(4096),
            nodes: 0,
            estimated: 0,
            rep_low: usize::MAX,
            stopped: false,
            node_limit: u64::MAX,
            deadline: None,
            stop: None,
            root_noise: [0; 25],
            root_best: None,
            root_move: None,
            quiescence: true,
            use_features: true,
            use_tt: true,
            tables: None,
        }
    }

    /// Uses these evaluation weights instead of the tuned ones (for the tuning tool).
    pub fn set_weights(&mut self, weights: Weights, rules: sowing::Rules) {
        self.evaluator = Evaluator::new(&weights);
        self.weights_for = Some(rules);
    }

    /// The table size in MiB.
    pub fn hash_mib(&self) -> usize {
        self.tt.mib()
    }

    /// The static evaluation the search uses, for the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        if self.use_features {
            self.evaluator.evaluate(pos)
        } else {
            eval::margin(pos)
        }
    }

    /// Forgets what earlier searches learnt: the table and the history.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
    }

    /// Searches the current position of `game` (which must not be over) within `limits`
    /// from a clean table and history ([`Searcher::clear`]), reporting each completed
    /// iteration to `progress`. Of the limits it reads the depth, the nodes, the stop flag
    /// and [`Limits::move_time`]; `infinite` means nothing to it (no limit is infinite).
    ///
    /// # Panics
    /// When the game is over.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        noise: Noise,
        progress: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.clear();
        self.search_warm(game, limits, noise, progress)
    }

    /// [`Searcher::search`], keeping the table and history of earlier searches: entries
    /// stored then cut this search short where they apply. Entries whose value depended on
    /// the path (a repetition) were never stored, so what is kept is valid in any later
    /// position of a game under the same rules.
    ///
    /// # Panics
    /// When the game is over.
    pub fn search_warm(
        &mut self,
        game: &Game,
        limits: &Limits,
        noise: Noise,
        progress: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let root = *game.position();
        assert!(!game.is_over(), "search needs a game that is not over");
        if self.weights_for != Some(root.rules()) {
            self.evaluator = Evaluator::new(&eval::weights_for(root.rules()));
            self.weights_for = Some(root.rules());
        }
        let start = Instant::now();
        let time = limits.move_time(root.to_move());
        self.nodes = 0;
        self.estimated = 0;
        self.stopped = false;
        self.rep_low = usize::MAX;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX).max(1);
        self.deadline = time.map(|t| start + t);
        self.stop = limits.stop.clone();
        self.stack.clear();
        self.stack.extend_from_slice(game.positions_since_capture());

        let successors = root.successors();
        self.root_noise = [0; 25];
        if noise.amplitude > 0 {
            for (mv, _) in &successors {
                let r = splitmix(noise.seed ^ root.hash() ^ (noise_slot(*mv) as u64) << 56);
                let span = 2 * noise.amplitude as u64 + 1;
                self.root_noise[noise_slot(*mv)] = (r % span) as i32 - noise.amplitude;
            }
        }
        self.root_move = None;
        let mut best = successors[0].0;
        let mut best_value = 0;
        let mut best_depth = 0;
        let mut proven = false;
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        for depth in 1..=max_depth {
            self.root_best = None;
            let before = self.estimated;
            let value = self.negamax(&root, depth as i32, -INF, INF, 0);
            if self.stopped {
                if let Some((mv, v)) = self.root_best {
                    best = mv;
                    best_value = v;
                }
                break;
            }
            let (mv, _) = self
                .root_best
                .expect("a completed iteration has a best move");
            best = mv;
            best_value = value;
            best_depth = depth;
            self.root_move = Some(mv);
            proven = self.estimated == before && noise.amplitude == 0;
            let elapsed = start.elapsed();
            progress(&Info {
                depth,
                score: score_of(value, proven),
                nodes: self.nodes,
                nps: nps(self.nodes, elapsed),
                pv: self.pv(&root, best),
            });
            if proven {
                break;
            }
            if let Some(time) = time {
                // Half the time gone: the next iteration would not end in the other half.
                if elapsed * 2 > time || successors.len() == 1 {
                    break;
                }
            }
        }
        SearchResult {
            best,
            score: score_of(best_value, proven),
            depth: best_depth,
            nodes: self.nodes,
            pv: self.pv(&root, best),
        }
    }

    /// The expected line from the table, `first` first.
    fn pv(&self, root: &Position, first: Move) -> Vec<Move> {
        let mut line = vec![first];
        let mut pos = *root;
        if pos.play(first).is_err() {
            return line;
        }
        let mut seen = vec![root.hash(), pos.hash()];
        while line.len() < 40 && !pos.is_over() {
            let Some(mv) = self.tt.probe(pos.hash()).and_then(|e| e.mv) else {
                break;
            };
            if pos.play(mv).is_err() || seen.contains(&pos.hash()) {
                break;
            }
            seen.push(pos.hash());
            line.push(mv);
        }
        line
    }

    #[inline]
    fn check_limits(&mut self) {
        if self.nodes >= self.node_limit {
            self.stopped = true;
        }
        if self.nodes & 1023 == 0 {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.stopped = true;
                }
            }
            if let Some(stop) = &self.stop {
                if stop.load(Ordering::Relaxed) {
                    self.stopped = true;
                }
            }
        }
    }

    /// The exact value of what is still to come in `pos` for its side to move, in
    /// centiseeds, if the tables hold it.
    #[inline]
    fn exact(&self, pos: &Position) -> Option<i32> {
        let tables = self.tables.as_deref()?;
        crate::tables::value(tables, pos).map(|v| 100 * v)
    }

    /// The stack index of an earlier occurrence of `pos` since the last capture, if any.
    #[inline]
    fn repetition(&self, pos: &Position) -> Option<usize> {
        let captured = pos.captured();
        for (i, earlier) in self.stack.iter().enumerate().rev() {
            if earlier.captured() != captured {
                return None;
            }
            if earlier.repeats(pos) {
                return Some(i);
            }
        }
        None
    }

    /// The value of `pos` for its side to move, searched `depth` plies.
    fn negamax(&mut self, pos: &Position, depth: i32, mut alpha: i32, beta: i32, ply: u32) -> i32 {
        self.nodes += 1;
        if depth > 0 {
            // The table is larger than the caches: fetch the slot while the repetition scan
            // and the bounds below run.
            self.tt.prefetch(pos.hash());
        }
        self.check_limits();
        if self.stopped && ply > 0 {
            return 0;
        }
        let base = eval::margin(pos);
        if pos.is_over() {
            return base;
        }
        if ply > 0 {
            if let Some(at) = self.repetition(pos) {
                self.rep_low = self.rep_low.min(at);
                return base;
            }
            if let Some(value) = self.exact(pos) {
                return base + value;
            }
        }
        // The seeds on the board bound what is still to be won or lost: a window outside
        // those bounds is decided without search (and without estimates).
        let reach = 100 * pos.seeds_on_board() as i32;
        if base + reach <= alpha {
            return base + reach;
        }
        if base - reach >= beta {
            return base - reach;
        }
        if depth <= 0 {
            return if self.quiescence {
                self.quiesce(pos, alpha, beta, 0)
            } else {
                self.estimated += 1;
                self.evaluate(pos).clamp(base - reach, base + reach)
            };
        }
        let key = pos.hash();
        let mut tt_move = if ply == 0 { self.root_move } else { None };
        if let Some(entry) = self.tt.probe(key).filter(|_| self.use_tt) {
            tt_move = tt_move.or(entry.mv);
            if ply > 0 && (entry.proven || i32::from(entry.depth) >= depth) {
                let value = entry.value + base;
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= alpha,
                };
                if cut {
                    if !entry.proven {
                        self.estimated += 1;
                    }
                    return value;
                }
            }
        }

        let me = pos.to_move();
        let index = self.stack.len();
        self.stack.push(*pos);
        let outer_rep = std::mem::replace(&mut self.rep_low, usize::MAX);
        let estimated_before = self.estimated;
        let alpha_before = alpha;
        let mut best = -INF;
        let mut best_move = None;
        // The table move is played and searched alone first: when it cuts off, the other
        // moves are never played (most cut-offs come from it).
        let mut children: ArrayVec<(Move, Position), { Rules::MAX_PITS_PER_ROW }> = ArrayVec::new();
        let mut keys = [0i32; Rules::MAX_PITS_PER_ROW];
        if let Some(mv) = tt_move {
            if let Some(child) = play(pos, mv) {
                children.push((mv, child));
            }
        }
        let mut generated = false;
        let mut n = 0;
        loop {
            if n == children.len() {
                if generated {
                    break;
                }
                generated = true;
                // All moves at once, the one searched already (if any) moved to the front.
                generate(pos, &mut children);
                for (i, (mv, child)) in children.iter().enumerate().skip(n) {
                    keys[i] = ordering::key(pos, *mv, child, None, &self.history);
                    if depth > 1 {
                        self.tt.prefetch(child.hash());
                    }
                }
                if n == children.len() {
                    break;
                }
            }
            // Selection: the best remaining key.
            let mut pick = n;
            for j in n + 1..children.len() {
                if keys[j] > keys[pick] {
                    pick = j;
                }
            }
            keys.swap(n, pick);
            children.swap(n, pick);
            let (mv, child) = children[n];
            n += 1;
            let shift = if ply == 0 {
                self.root_noise[noise_slot(mv)]
            } else {
                0
            };
            let value = if child.to_move() == me {
                self.negamax(&child, depth - 1, alpha - shift, beta - shift, ply + 1) + shift
            } else {
                -self.negamax(&child, depth - 1, shift - beta, shift - alpha, ply + 1) + shift
            };
            if self.stopped {
                break;
            }
            if value > best {
                best = value;
                best_move = Some(mv);
                if ply == 0 {
                    self.root_best = Some((mv, value));
                }
                if value > alpha {
                    alpha = value;
                    if value >= beta {
                        self.history.reward(pos, mv, depth);
                        break;
                    }
                }
                if value >= base + reach {
                    // Nothing can do better than winning every seed left.
                    break;
                }
            }
        }
        self.stack.pop();
        let path_dependent = self.rep_low < index;
        self.rep_low = self.rep_low.min(outer_rep);
        if self.use_tt
            && !self.stopped
            && !path_dependent
            && (ply != 0 || self.root_noise == [0; 25])
        {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha_before {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let proven = self.estimated == estimated_before;
            if let Some(best_move) = best_move {
                self.tt
                    .store(key, best - base, depth as u32, bound, proven, best_move);
            }
        }
        best
    }

    /// Captures only, with the option to stop (stand pat) at the static evaluation.
    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, qply: u32) -> i32 {
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        let base = eval::margin(pos);
        if pos.is_over() {
            return base;
        }
        if let Some(value) = self.exact(pos) {
            return base + value;
        }
        let reach = 100 * pos.seeds_on_board() as i32;
        self.estimated += 1;
        let stand = self.evaluate(pos).clamp(base - reach, base + reach);
        if stand >= beta || qply >= QUIESCENCE_PLIES {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let me = pos.to_move();
        let mine = pos.captured()[me];
        let n = pos.rules().pits_per_row();
        // Each move is played only when reached: a cut-off skips the rest. A pass (no sowing
        // move) captures nothing, so only sowing moves are tried.
        for column in 0..n {
            let pit = Pit::of(me, column, n);
            if !pos.may_capture(pit) {
                continue;
            }
            let Ok(child) = pos.after_sow(pit) else {
                continue;
            };
            if child.captured()[me] <= mine {
                continue;
            }
            // A capture changes the captures, so the child cannot repeat an earlier position.
            let value = if child.to_move() == me {
                self.quiesce(&child, alpha, beta, qply + 1)
            } else {
                -self.quiesce(&child, -beta, -alpha, qply + 1)
            };
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// Completes `children` to the legal moves of `pos` with their positions, in the order of
/// [`Position::successors`] but for the move already in it (played first), which stays at
/// the front and is not sown again. Fills in place: the list is too large to copy per node.
fn generate(
    pos: &Position,
    children: &mut ArrayVec<(Move, Position), { Rules::MAX_PITS_PER_ROW }>,
) {
    let first = children.pop();
    if let Some((Move::Pass, _)) = first {
        // A pass is played only when it is the one move.
        children.extend(first);
        return;
    }
    let me = pos.to_move();
    let n = pos.rules().pits_per_row();
    for column in 0..n {
        let pit = Pit::of(me, column, n);
        match first {
            Some(played) if played.0 == Move::Sow(pit) => children.push(played),
            _ => {
                if let Ok(child) = pos.after_sow(pit) {
                    children.push((Move::Sow(pit), child));
                }
            }
        }
    }
    if children.is_empty() {
        // No sowing move: the one move is a pass.
        children.extend(pos.successors());
        return;
    }
    if let Some(at) = children
        .iter()
        .position(|&(mv, _)| Some(mv) == first.map(|f| f.0))
    {
        children.swap(0, at);
    }
}

/// The position after `mv`, if it is legal.
fn play(pos: &Position, mv: Move) -> Option<Position> {
    match mv {
        Move::Sow(pit) => pos.after_sow(pit).ok(),
        Move::Pass => {
            let mut child = *pos;
            child.play(Move::Pass).ok().map(|_| child)
        }
    }
}

fn score_of(value: i32, proven: bool) -> Score {
    if proven {
        Score::Proven((value as f64 / 100.0).round() as i32)
    } else {
        Score::Estimate(value)
    }
}

fn nps(nodes: u64, elapsed: Duration) -> u64 {
    let micros = elapsed.as_micros().max(1) as u64;
    nodes.saturating_mul(1_000_000) / micros
}
