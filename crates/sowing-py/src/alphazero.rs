//! `sowing.BatchedMCTS`: AlphaZero's search (PUCT) over many games at once, in Rust, with
//! the positions valued by a Python function — a network — called on batches: NumPy in
//! and out, the GIL released in between is not needed since the tree work is short.
//!
//! OpenSpiel's C++ MCTS crashes on games registered from Python, so this is how an
//! AlphaZero-style training runs on these games: many self-play games searched together,
//! their leaves gathered into one batch per round (virtual loss spreads a game's leaves of
//! one round over its tree), the endgame tables giving exact values where they reach.
//!
//! Values are from the point of view of the side to move, in −1 … 1: a finished game is
//! worth 1 (won), 0 (drawn) or −1 (lost), and so is a position in the tables (its final
//! margin, the captures so far plus the table's value, decides). The passes (C.2) are
//! played without a node of their own; an extra turn (a Hoyito capture) keeps the mover,
//! which the backup follows.

use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use sowing::{Move, Side};
use sowing_engine::random::Rng;

use crate::game::Game;
use crate::tables::Tables;
use crate::{observe, SowingError};

/// An edge: a column of the node's mover, its prior, and its statistics from that mover's
/// point of view.
#[derive(Clone, Copy)]
struct Edge {
    column: u8,
    prior: f32,
    visits: u32,
    /// The sum of the values backed up through it, for the mover at its node.
    total: f32,
    /// Selections in flight through it this round (virtual losses).
    pending: u32,
    /// The node it leads to, once created (0: not yet; the root is never a child).
    child: u32,
}

#[derive(Clone, Copy, Default)]
struct Node {
    first_edge: u32,
    edges: u8,
    expanded: bool,
    /// A leaf chosen this round, waiting for its value.
    waiting: bool,
}

/// One game's search tree.
struct Tree {
    root: sowing::Game,
    nodes: Vec<Node>,
    edges: Vec<Edge>,
}

/// A leaf sent to the network: its game, node, the path to it (edges and their movers)
/// and the side to move there.
struct Leaf {
    tree: usize,
    node: u32,
    path: Vec<(u32, Side)>,
    mover: Side,
    game: sowing::Game,
}

/// What a selection reached.
enum Reached {
    /// A leaf for the network.
    Leaf(Leaf),
    /// A leaf of exact value (the game over, or in the tables): backed up at once.
    Exact,
    /// A leaf already waiting for the network this round: the game stops selecting.
    Collision,
}

/// Plays the forced passes of `game`.
fn settle(game: &mut sowing::Game) {
    while !game.is_over() && game.legal_moves().as_slice() == [Move::Pass] {
        game.play(Move::Pass).expect("a forced pass");
    }
}

/// The legal sowing columns of the side to move.
fn columns(game: &sowing::Game) -> Vec<u8> {
    let n = game.rules().pits_per_row();
    game.legal_moves()
        .iter()
        .filter_map(|mv| match mv {
            Move::Sow(pit) => Some(pit.column(n) as u8),
            Move::Pass => None,
        })
        .collect()
}

/// −1, 0 or 1 as the final margin `margin` loses, draws or wins.
fn outcome(margin: i32) -> f32 {
    margin.signum() as f32
}

/// A Gamma(`alpha`, 1) draw (Marsaglia and Tsang; boosted for `alpha` < 1), for the
/// Dirichlet noise at the roots.
fn gamma(alpha: f64, rng: &mut Rng) -> f64 {
    if alpha < 1.0 {
        let u: f64 = rng.next_f64().max(f64::MIN_POSITIVE);
        return gamma(alpha + 1.0, rng) * u.powf(1.0 / alpha);
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        // A standard normal draw (Box and Muller).
        let (u1, u2): (f64, f64) = (rng.next_f64().max(f64::MIN_POSITIVE), rng.next_f64());
        let x = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u: f64 = rng.next_f64().max(f64::MIN_POSITIVE);
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// AlphaZero's search over many games at once, with a Python function valuing the leaves
/// in batches.
///
/// `search(games, evaluate)` runs `simulations` simulations from each game's position
/// (a `Game`, its history kept for the repetition rule) and returns the visits of each
/// root's columns, float32 `(len(games), N)`, and each root's value for its mover,
/// float32 `(len(games),)`. `evaluate(observations, masks)` gets float32 `(B, 2N + 8)`
/// observations (from the side to move, as `Game.observation`) and int8 `(B, N)` masks of
/// the legal columns, and returns `(logits, values)`: `(B, N)` policy logits (the illegal
/// columns are ignored) and `(B,)` values in −1 … 1 for the side to move.
///
/// Selection is PUCT: the edge maximising `Q + c_puct · P · √N_parent / (1 + N)`, with
/// `Q` 0 for an unvisited edge. `noise_fraction` of each root's prior is Dirichlet noise
/// of `dirichlet_alpha` (with `noise=True`). Each round selects up to `leaves_per_round`
/// leaves in each game, a virtual loss of `virtual_loss` on each edge of their paths
/// until their values come back. With `tables`, a position with at most
/// `tables.max_seeds` seeds on the board is valued exactly (the network is not asked).
#[pyclass(module = "sowing", name = "BatchedMCTS")]
pub struct BatchedMcts {
    simulations: u32,
    c_puct: f32,
    dirichlet_alpha: f64,
    noise_fraction: f32,
    virtual_loss: f32,
    leaves_per_round: u32,
    tables: Option<Py<Tables>>,
    rng: Rng,
    /// Network calls and positions valued by the last search, exact leaves.
    stats: (u64, u64, u64),
}

impl Tree {
    fn new(root: sowing::Game) -> Tree {
        Tree {
            root,
            nodes: vec![Node::default()],
            edges: Vec::new(),
        }
    }

    fn root_visits(&self) -> u32 {
        let root = &self.nodes[0];
        self.edges[root.first_edge as usize..][..usize::from(root.edges)]
            .iter()
            .map(|e| e.visits + e.pending)
            .sum()
    }

    /// Adds `value` (for `mover`) along `path`, and takes back its virtual losses.
    fn backup(&mut self, path: &[(u32, Side)], mover: Side, value: f32) {
        for &(edge, by) in path {
            let edge = &mut self.edges[edge as usize];
            edge.pending -= 1;
            edge.visits += 1;
            edge.total += if by == mover { value } else { -value };
        }
    }

    /// Gives an unexpanded node its edges, with these priors (by column).
    fn expand(&mut self, node: u32, columns: &[u8], priors: &[f32]) {
        let first = self.edges.len() as u32;
        for &column in columns {
            self.edges.push(Edge {
                column,
                prior: priors[usize::from(column)],
                visits: 0,
                total: 0.0,
                pending: 0,
                child: 0,
            });
        }
        let node = &mut self.nodes[node as usize];
        node.first_edge = first;
        node.edges = columns.len() as u8;
        node.expanded = true;
        node.waiting = false;
    }
}

impl BatchedMcts {
    /// The exact value of `game` for its mover if it is over or in the tables.
    fn exact(&self, game: &sowing::Game) -> Option<f32> {
        let position = game.position();
        let mover = position.to_move();
        if game.is_over() {
            return Some(outcome(observe::margin(position, mover)));
        }
        let tables = self.tables.as_ref()?.get();
        if position.seeds_on_board() > tables.max_seeds_of() {
            return None;
        }
        let future = tables.value_of(position).ok()?;
        Some(outcome(observe::margin(position, mover) + future))
    }

    /// One selection in `tree` from the root: down the PUCT edges to a leaf.
    fn select(&self, index: usize, tree: &mut Tree) -> Reached {
        let mut game = tree.root.clone();
        settle(&mut game);
        let mut node = 0u32;
        let mut path: Vec<(u32, Side)> = Vec::new();
        loop {
            let mover = game.position().to_move();
            // The root is always expanded by the network (it is not over: `search` checks),
            // so that its moves have visits to compare; below it, an exact leaf stays a
            // leaf, valued again at each visit.
            if node != 0 {
                if let Some(value) = self.exact(&game) {
                    tree.backup(&path, mover, value);
                    return Reached::Exact;
                }
            }
            let current = tree.nodes[node as usize];
            if !current.expanded {
                if current.waiting {
                    // Take back this path's virtual losses: it selected nothing.
                    for &(edge, _) in &path {
                        tree.edges[edge as usize].pending -= 1;
                    }
                    return Reached::Collision;
                }
                tree.nodes[node as usize].waiting = true;
                return Reached::Leaf(Leaf {
                    tree: index,
                    node,
                    path,
                    mover,
                    game,
                });
            }
            let edges = current.first_edge as usize
                ..current.first_edge as usize + usize::from(current.edges);
            let parent_visits: u32 = tree.edges[edges.clone()]
                .iter()
                .map(|e| e.visits + e.pending)
                .sum();
            let scale = self.c_puct * (parent_visits.max(1) as f32).sqrt();
            let mut best = edges.start;
            let mut best_score = f32::NEG_INFINITY;
            for i in edges {
                let e = &tree.edges[i];
                let n = e.visits + e.pending;
                let q = if n == 0 {
                    0.0
                } else {
                    (e.total - self.virtual_loss * e.pending as f32) / n as f32
                };
                let score = q + scale * e.prior / (1.0 + n as f32);
                if score > best_score {
                    best_score = score;
                    best = i;
                }
            }
            tree.edges[best].pending += 1;
            path.push((best as u32, mover));
            let column = usize::from(tree.edges[best].column);
            game.play(observe::sow(game.position(), column))
                .expect("a legal column");
            settle(&mut game);
            if tree.edges[best].child == 0 {
                tree.nodes.push(Node::default());
                tree.edges[best].child = (tree.nodes.len() - 1) as u32;
            }
            node = tree.edges[best].child;
        }
    }
}

/// Refuses an evaluator's answer that would poison the search silently: a value that is
/// not a number in −1 … 1, or a legal column's logit that is not finite (the illegal
/// columns' logits are ignored, `-inf` included).
fn check_answer(logits: &[f32], values: &[f32], legal: &[Vec<u8>], n: usize) -> PyResult<()> {
    // A rounding's width past ±1 is taken (and clamped).
    if let Some(k) = values
        .iter()
        .position(|v| v.is_nan() || v.abs() > 1.0 + 1e-5)
    {
        return Err(PyValueError::new_err(format!(
            "evaluate's value {} for row {k} is not a number in -1 … 1 (the side to move's expected result)",
            values[k]
        )));
    }
    for (k, columns) in legal.iter().enumerate() {
        if let Some(&c) = columns
            .iter()
            .find(|&&c| !logits[k * n + usize::from(c)].is_finite())
        {
            return Err(PyValueError::new_err(format!(
                "evaluate's logit {} for row {k}, column {c} (a legal one) is not finite",
                logits[k * n + usize::from(c)]
            )));
        }
    }
    Ok(())
}

/// The softmax of `logits` over `columns`, as priors by column (`n` entries).
fn priors(logits: &[f32], columns: &[u8], n: usize) -> Vec<f32> {
    let mut priors = vec![0.0; n];
    let top = columns
        .iter()
        .map(|&c| logits[usize::from(c)])
        .fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for &c in columns {
        let p = if top.is_finite() {
            (logits[usize::from(c)] - top).exp()
        } else {
            1.0
        };
        priors[usize::from(c)] = p;
        sum += p;
    }
    for &c in columns {
        priors[usize::from(c)] /= sum;
    }
    priors
}

/// The visits of each root's columns and each root's value.
type SearchResult<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<f32>>);

#[pymethods]
impl BatchedMcts {
    #[new]
    #[pyo3(signature = (*, simulations = 64, c_puct = 1.5, dirichlet_alpha = 0.5, noise_fraction = 0.25, virtual_loss = 1.0, leaves_per_round = 4, tables = None, seed = 0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        simulations: i64,
        c_puct: f32,
        dirichlet_alpha: f64,
        noise_fraction: f32,
        virtual_loss: f32,
        leaves_per_round: i64,
        tables: Option<Py<Tables>>,
        seed: i64,
    ) -> PyResult<BatchedMcts> {
        let simulations = crate::count("simulations", simulations)?;
        let leaves_per_round = crate::count("leaves_per_round", leaves_per_round)?;
        if simulations == 0 || leaves_per_round == 0 {
            return Err(SowingError::new_err(
                "simulations and leaves_per_round must be at least 1",
            ));
        }
        if dirichlet_alpha.is_nan()
            || dirichlet_alpha <= 0.0
            || !(0.0..=1.0).contains(&noise_fraction)
        {
            return Err(SowingError::new_err(
                "dirichlet_alpha must be above 0 and noise_fraction in 0 … 1",
            ));
        }
        Ok(BatchedMcts {
            simulations: simulations.min(u64::from(u32::MAX / 2)) as u32,
            c_puct,
            dirichlet_alpha,
            noise_fraction,
            virtual_loss,
            leaves_per_round: leaves_per_round.min(1024) as u32,
            tables,
            rng: Rng::new(crate::count("seed", seed)?),
            stats: (0, 0, 0),
        })
    }

    /// Searches every game; returns `(visits, values)` (see the class).
    #[pyo3(signature = (games, evaluate, *, noise = true))]
    fn search<'py>(
        &mut self,
        py: Python<'py>,
        games: Vec<PyRef<'py, Game>>,
        evaluate: &Bound<'py, PyAny>,
        noise: bool,
    ) -> PyResult<SearchResult<'py>> {
        if games.is_empty() {
            return Err(SowingError::new_err("search needs at least one game"));
        }
        let rules = games[0].inner.rules();
        let n = rules.pits_per_row();
        let size = observe::size(n);
        let mut trees = Vec::with_capacity(games.len());
        for (index, game) in games.iter().enumerate() {
            if game.inner.rules() != rules {
                return Err(SowingError::new_err(format!(
                    "game {index} is of other rules than game 0: one search, one game"
                )));
            }
            let mut root = game.inner.clone();
            settle(&mut root);
            if root.is_over() {
                return Err(SowingError::new_err(format!(
                    "game {index} is over: there is nothing to search"
                )));
            }
            trees.push(Tree::new(root));
        }
        drop(games);
        self.stats = (0, 0, 0);
        let numpy = py.import("numpy")?;
        let mut noised = vec![false; trees.len()];
        loop {
            let mut leaves: Vec<Leaf> = Vec::new();
            for (index, tree) in trees.iter_mut().enumerate() {
                for _ in 0..self.leaves_per_round {
                    if tree.nodes[0].expanded && tree.root_visits() >= self.simulations {
                        break;
                    }
                    match self.select(index, tree) {
                        Reached::Leaf(leaf) => leaves.push(leaf),
                        Reached::Exact => self.stats.2 += 1,
                        Reached::Collision => break,
                    }
                    if !tree.nodes[0].expanded {
                        break; // the root first, alone
                    }
                }
            }
            if leaves.is_empty() {
                if trees
                    .iter()
                    .all(|t| t.nodes[0].expanded && t.root_visits() >= self.simulations)
                {
                    break;
                }
                continue;
            }
            // The batch for the network.
            let batch = leaves.len();
            let mut obs = vec![0f32; batch * size];
            let mut masks = vec![0i8; batch * n];
            let mut legal: Vec<Vec<u8>> = Vec::with_capacity(batch);
            for (k, leaf) in leaves.iter().enumerate() {
                let position = leaf.game.position();
                observe::write(position, leaf.mover, &mut obs[k * size..][..size]);
                let columns = columns(&leaf.game);
                for &c in &columns {
                    masks[k * n + usize::from(c)] = 1;
                }
                legal.push(columns);
            }
            let obs = PyArray1::from_vec(py, obs).reshape([batch, size])?;
            let masks = PyArray1::from_vec(py, masks).reshape([batch, n])?;
            let answer = evaluate.call1((obs, masks))?;
            let (logits, values): (Bound<'py, PyAny>, Bound<'py, PyAny>) = answer
                .extract()
                .map_err(|_| PyValueError::new_err("evaluate must return (logits, values)"))?;
            let float32 = numpy.getattr("float32")?;
            let logits = numpy.call_method1("ascontiguousarray", (logits, &float32))?;
            let values = numpy.call_method1("ascontiguousarray", (values, &float32))?;
            let logits: PyReadonlyArray2<'py, f32> = logits.extract().map_err(|_| {
                PyValueError::new_err(format!("evaluate's logits must have shape ({batch}, {n})"))
            })?;
            let values: PyReadonlyArray1<'py, f32> = values
                .call_method1("reshape", (-1,))?
                .extract()
                .map_err(|_| {
                    PyValueError::new_err(format!("evaluate's values must have shape ({batch},)"))
                })?;
            if logits.shape() != [batch, n] || values.len() != batch {
                return Err(PyValueError::new_err(format!(
                    "evaluate returned logits of shape {:?} and {} values for a batch of {batch} (expected ({batch}, {n}) and {batch})",
                    logits.shape(),
                    values.len()
                )));
            }
            let logits = logits.as_slice()?;
            let values = values.as_slice()?;
            check_answer(logits, values, &legal, n)?;
            self.stats.0 += 1;
            self.stats.1 += batch as u64;
            for (k, leaf) in leaves.into_iter().enumerate() {
                let tree = &mut trees[leaf.tree];
                let mut p = priors(&logits[k * n..][..n], &legal[k], n);
                if leaf.node == 0 && noise && !noised[leaf.tree] {
                    noised[leaf.tree] = true;
                    let draws: Vec<f64> = legal[k]
                        .iter()
                        .map(|_| gamma(self.dirichlet_alpha, &mut self.rng))
                        .collect();
                    let total: f64 = draws.iter().sum::<f64>().max(f64::MIN_POSITIVE);
                    for (&c, draw) in legal[k].iter().zip(draws) {
                        let c = usize::from(c);
                        p[c] = (1.0 - self.noise_fraction) * p[c]
                            + self.noise_fraction * (draw / total) as f32;
                    }
                }
                tree.expand(leaf.node, &legal[k], &p);
                tree.backup(&leaf.path, leaf.mover, values[k].clamp(-1.0, 1.0));
            }
        }
        let count = trees.len();
        let mut visits = vec![0f32; count * n];
        let mut values = vec![0f32; count];
        for (g, tree) in trees.iter().enumerate() {
            let root = tree.nodes[0];
            let edges = &tree.edges[root.first_edge as usize..][..usize::from(root.edges)];
            let (mut total, mut seen) = (0.0, 0u32);
            for e in edges {
                visits[g * n + usize::from(e.column)] = e.visits as f32;
                total += e.total;
                seen += e.visits;
            }
            values[g] = if seen == 0 { 0.0 } else { total / seen as f32 };
        }
        Ok((
            PyArray1::from_vec(py, visits).reshape([count, n])?,
            PyArray1::from_vec(py, values),
        ))
    }

    /// `(network calls, positions the network valued, exact leaves)` of the last search.
    #[getter]
    fn last_search(&self) -> (u64, u64, u64) {
        self.stats
    }

    #[getter]
    fn simulations(&self) -> u32 {
        self.simulations
    }
}
