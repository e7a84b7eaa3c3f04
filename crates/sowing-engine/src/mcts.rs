//! Monte Carlo tree search: UCT over a tree of positions, with uniformly random playouts.
//!
//! Each node keeps the wins of the player who moved into it, so a Hoyito extra turn (the
//! same player moving twice) needs no special case. A child that repeats a position on its
//! path (or in the game since the last capture) is a finished game (C.3); playouts follow
//! the same rule, and stop after [`MctsSettings::playout_cap`] moves, scored on the
//! captures so far.

use std::fmt;
use std::time::Duration;

use sowing::{Game, Move, Pit, Position, Side};

use crate::clock::Instant;
use crate::random::Rng;
use crate::{Info, Limits, Player, Score};

/// Settings of the MCTS player. Iterations and time are caps like the search's.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsSettings {
    /// The exploration constant of UCT.
    pub exploration: f64,
    /// Iterations (playouts) per move.
    pub iterations: Option<u64>,
    /// Time per move.
    pub time: Option<Duration>,
    /// Playout length at most; then the captures so far decide.
    pub playout_cap: u32,
}

impl Default for MctsSettings {
    fn default() -> MctsSettings {
        MctsSettings {
            exploration: 1.0,
            iterations: None,
            time: None,
            playout_cap: 300,
        }
    }
}

impl MctsSettings {
    /// Sets one `key=value` pair.
    ///
    /// # Errors
    /// On an unknown key or a malformed value.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let number = |value: &str| {
            value
                .parse::<u64>()
                .map_err(|_| format!("{key}={value}: expected a whole number"))
        };
        match key {
            "c" => {
                self.exploration = value
                    .parse::<f64>()
                    .ok()
                    .filter(|c| c.is_finite() && *c >= 0.0)
                    .ok_or_else(|| format!("c={value}: expected a number >= 0"))?
            }
            "playouts" | "nodes" => self.iterations = Some(number(value)?.max(1)),
            "time" => self.time = Some(Duration::from_millis(number(value)?.max(1))),
            "cap" => self.playout_cap = number(value)?.clamp(1, 100_000) as u32,
            _ => {
                return Err(format!(
                    "unknown mcts setting {key:?} (expected c, playouts, time or cap)"
                ))
            }
        }
        Ok(())
    }
}

impl fmt::Display for MctsSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let default = MctsSettings::default();
        let mut pairs = Vec::new();
        if self.exploration != default.exploration {
            pairs.push(format!("c={}", self.exploration));
        }
        if let Some(n) = self.iterations {
            pairs.push(format!("playouts={n}"));
        }
        if let Some(t) = self.time {
            pairs.push(format!("time={}", t.as_millis()));
        }
        if self.playout_cap != default.playout_cap {
            pairs.push(format!("cap={}", self.playout_cap));
        }
        f.write_str(&pairs.join(","))
    }
}

/// One node of the tree.
struct Node {
    pos: Position,
    mv: Move,
    /// Who made the move into this node.
    mover: Side,
    first_child: u32,
    children: u8,
    expanded: bool,
    /// The result from South's view (1, ½, 0) and margin when the game ends here.
    terminal: Option<(f64, i32)>,
    visits: u32,
    /// Sum of results for `mover`.
    wins: f64,
    /// Sum of final margins for `mover`, in seeds.
    margin: i64,
}

/// Nodes at most in the tree; past this, leaves are no longer expanded.
const MAX_NODES: usize = 2_000_000;

/// The UCT player.
pub struct MctsPlayer {
    settings: MctsSettings,
    seed: u64,
    nodes: Vec<Node>,
    history: Vec<Position>,
}

impl MctsPlayer {
    /// An MCTS player whose playouts follow from `seed` (and the position).
    pub fn new(settings: MctsSettings, seed: u64) -> MctsPlayer {
        MctsPlayer {
            settings,
            seed,
            nodes: Vec::new(),
            history: Vec::with_capacity(1024),
        }
    }
}

fn result_south(pos: &Position) -> (f64, i32) {
    let c = pos.captured();
    let margin = i32::from(c.south) - i32::from(c.north);
    (
        match margin.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        },
        margin,
    )
}

fn repeats_any(history: &[Position], pos: &Position) -> bool {
    history
        .iter()
        .rev()
        .take_while(|p| p.captured() == pos.captured())
        .any(|p| p.repeats(pos))
}

impl MctsPlayer {
    /// A uniformly random playout from `pos`; `history` holds the positions before it.
    fn playout(&mut self, mut pos: Position, rng: &mut Rng) -> (f64, i32) {
        let n = pos.rules().pits_per_row();
        for _ in 0..self.settings.playout_cap {
            if pos.is_over() {
                break;
            }
            let side = pos.to_move();
            let mut candidates: u32 = (0..n)
                .filter(|&c| pos.seeds(Pit::of(side, c, n)) > 0)
                .fold(0, |bits, c| bits | 1 << c);
            let before = pos;
            loop {
                if candidates == 0 {
                    pos.play(Move::Pass)
                        .expect("no sowing move, so pass is legal");
                    break;
                }
                let mut pick = rng.below(candidates.count_ones());
                let mut bits = candidates;
                while pick > 0 {
                    bits &= bits - 1;
                    pick -= 1;
                }
                let column = bits.trailing_zeros() as usize;
                if let Ok(next) = pos.after_sow(Pit::of(side, column, n)) {
                    pos = next;
                    break;
                }
                candidates &= !(1 << column);
            }
            if pos.captured() != before.captured() {
                self.history.clear();
            } else if repeats_any(&self.history, &pos) {
                break;
            }
            self.history.push(pos);
        }
        result_south(&pos)
    }

    fn expand(&mut self, index: usize) {
        let pos = self.nodes[index].pos;
        let first = self.nodes.len() as u32;
        let successors = pos.successors();
        for &(mv, child) in &successors {
            let terminal = if child.is_over() || repeats_any(&self.history, &child) {
                Some(result_south(&child))
            } else {
                None
            };
            self.nodes.push(Node {
                pos: child,
                mv,
                mover: pos.to_move(),
                first_child: 0,
                children: 0,
                expanded: false,
                terminal,
                visits: 0,
                wins: 0.0,
                margin: 0,
            });
        }
        let node = &mut self.nodes[index];
        node.first_child = first;
        node.children = successors.len() as u8;
        node.expanded = true;
    }

    fn select_child(&self, index: usize) -> usize {
        let node = &self.nodes[index];
        let first = node.first_child as usize;
        let log_n = f64::from(node.visits.max(1)).ln();
        let c = self.settings.exploration;
        let mut best = first;
        let mut best_value = f64::NEG_INFINITY;
        for i in first..first + usize::from(node.children) {
            let child = &self.nodes[i];
            if child.visits == 0 {
                return i;
            }
            let visits = f64::from(child.visits);
            let value = child.wins / visits + c * (log_n / visits).sqrt();
            if value > best_value {
                best_value = value;
                best = i;
            }
        }
        best
    }

    /// One iteration: select, expand, play out, back up.
    fn iterate(&mut self, base_history: &[Position], rng: &mut Rng, path: &mut Vec<usize>) {
        self.history.clear();
        self.history.extend_from_slice(base_history);
        path.clear();
        let mut index = 0;
        path.push(0);
        let result = loop {
            let node = &self.nodes[index];
            if let Some(result) = node.terminal {
                break result;
            }
            let pos = node.pos;
            if self
                .history
                .last()
                .is_some_and(|p| p.captured() != pos.captured())
            {
                self.history.clear();
            }
            self.history.push(pos);
            if !node.expanded {
                if self.nodes.len() + 12 > MAX_NODES || node.visits == 0 && index != 0 {
                    break self.playout(pos, rng);
                }
                self.expand(index);
            }
            index = self.select_child(index);
            path.push(index);
        };
        let (south, margin) = result;
        for &i in path.iter() {
            let node = &mut self.nodes[i];
            node.visits += 1;
            let (r, m) = match node.mover {
                Side::South => (south, margin),
                Side::North => (1.0 - south, -margin),
            };
            node.wins += r;
            node.margin += i64::from(m);
        }
    }
}

impl Player for MctsPlayer {
    fn name(&self) -> String {
        let settings = self.settings.to_string();
        if settings.is_empty() {
            "mcts".to_owned()
        } else {
            format!("mcts:{settings}")
        }
    }

    fn choose(&mut self, game: &Game, limits: &Limits, progress: &mut dyn FnMut(&Info)) -> Move {
        let root = *game.position();
        let start = Instant::now();
        let mut iterations = match (self.settings.iterations, limits.nodes) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let time = match (self.settings.time, limits.move_time(root.to_move())) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if iterations.is_none() && time.is_none() && limits.depth.is_none() {
            iterations = Some(20_000);
        }
        if let (None, None, Some(depth)) = (iterations, time, limits.depth) {
            // A depth means little to MCTS: take it as a budget of 1,000 playouts a ply.
            iterations = Some(1_000 * u64::from(depth));
        }
        let legal = root.successors();
        if legal.len() == 1 {
            return legal[0].0;
        }
        let plies = game.moves().len();
        let base: Vec<Position> = game.positions_since_capture().to_vec();
        let mut rng = Rng::new(self.seed ^ root.hash() ^ plies as u64);
        self.nodes.clear();
        self.nodes.push(Node {
            pos: root,
            mv: Move::Pass,
            mover: !root.to_move(),
            first_child: 0,
            children: 0,
            expanded: false,
            terminal: None,
            visits: 0,
            wins: 0.0,
            margin: 0,
        });
        let mut path = Vec::with_capacity(256);
        let mut done = 0u64;
        loop {
            if iterations.is_some_and(|n| done >= n) {
                break;
            }
            if done % 64 == 0 {
                if time.is_some_and(|t| start.elapsed() >= t) {
                    break;
                }
                if limits
                    .stop
                    .as_ref()
                    .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
                {
                    break;
                }
            }
            self.iterate(&base, &mut rng, &mut path);
            done += 1;
        }
        let root_node = &self.nodes[0];
        let first = root_node.first_child as usize;
        let best = (first..first + usize::from(root_node.children))
            .max_by_key(|&i| self.nodes[i].visits)
            .expect("the root has children");
        let node = &self.nodes[best];
        let elapsed = start.elapsed().as_micros().max(1) as u64;
        progress(&Info {
            depth: 1,
            score: Score::Estimate(if node.visits > 0 {
                (node.margin * 100 / i64::from(node.visits)) as i32
            } else {
                0
            }),
            nodes: done,
            nps: done * 1_000_000 / elapsed,
            pv: vec![node.mv],
        });
        node.mv
    }
}
