//! The search benchmark behind `sow bench --search`: a fixed set of middle-game positions,
//! each searched to a fixed number of nodes on one thread. The total node count is a
//! signature (it changes only when the search changes); nodes per second measure speed.

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use sowing::{Game, Rules, Variant};

use crate::search::{Noise, Searcher};
use crate::Limits;

/// One searched position.
#[derive(Clone, Debug)]
pub struct BenchRow {
    /// The position text.
    pub position: String,
    /// Nodes searched.
    pub nodes: u64,
    /// Depth completed.
    pub depth: u32,
    /// Time taken, in microseconds.
    pub micros: u64,
}

/// The benchmark positions: for each game and board, the games after 8, 16, 24 and 32
/// random moves from a fixed seed (shorter when a game would end first).
pub fn positions() -> Vec<Game> {
    let boards = [
        (Variant::HoyitoII, 6),
        (Variant::HoyitoII, 12),
        (Variant::HoyitoIII, 6),
        (Variant::Ayoayo, 6),
    ];
    let mut games = Vec::new();
    for (b, (variant, pits)) in boards.into_iter().enumerate() {
        let rules = Rules::new(variant)
            .with_pits(pits)
            .expect("a board of the game");
        for (k, plies) in [8, 16, 24, 32].into_iter().enumerate() {
            let mut rng = SmallRng::seed_from_u64(1000 + 10 * b as u64 + k as u64);
            let mut game = Game::new(rules);
            for _ in 0..plies {
                let legal = game.legal_moves();
                let Some(&mv) = legal.choose(&mut rng) else {
                    break;
                };
                game.play(mv).expect("a legal move");
                if game.is_over() {
                    game.undo();
                    break;
                }
            }
            games.push(game);
        }
    }
    games
}

/// Searches every benchmark position to `nodes` nodes with a table of `hash_mib` MiB,
/// calling `row` after each.
pub fn search_bench(nodes: u64, hash_mib: usize, row: &mut dyn FnMut(&BenchRow)) -> Vec<BenchRow> {
    let mut searcher = Searcher::new(hash_mib);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut rows = Vec::new();
    for game in positions() {
        let clock = Instant::now();
        let result = searcher.search(&game, &limits, Noise::default(), &mut |_| {});
        let out = BenchRow {
            position: game.position().to_string(),
            nodes: result.nodes,
            depth: result.depth,
            micros: clock.elapsed().as_micros() as u64,
        };
        row(&out);
        rows.push(out);
    }
    rows
}

/// Nodes per position in [`report`].
pub const BENCH_NODES: u64 = 1_000_000;

/// Runs [`search_bench`] with [`BENCH_NODES`] nodes and a 16 MiB table, and returns the
/// report: a line per position and a total, or with `json` one line of JSON
/// (`{"nodes":…,"micros":…,"nps":…,"positions":[…]}`).
pub fn report(json: bool) -> String {
    let rows = search_bench(BENCH_NODES, 16, &mut |_| {});
    let nodes: u64 = rows.iter().map(|r| r.nodes).sum();
    let micros: u64 = rows.iter().map(|r| r.micros).sum::<u64>().max(1);
    let nps = nodes * 1_000_000 / micros;
    if json {
        let positions: Vec<String> = rows
            .iter()
            .map(|r| {
                format!(
                    "{{\"position\":\"{}\",\"nodes\":{},\"depth\":{},\"micros\":{}}}",
                    r.position, r.nodes, r.depth, r.micros
                )
            })
            .collect();
        return format!(
            "{{\"nodes\":{nodes},\"micros\":{micros},\"nps\":{nps},\"positions\":[{}]}}\n",
            positions.join(",")
        );
    }
    let mut out = String::new();
    for r in &rows {
        out.push_str(&format!(
            "{:>9} nodes  depth {:>3}  {:>9} nps  {}\n",
            r.nodes,
            r.depth,
            r.nodes * 1_000_000 / r.micros.max(1),
            r.position
        ));
    }
    out.push_str(&format!(
        "search: {nodes} nodes in {:.2} s, {nps} nodes/s (one thread; signature {nodes})\n",
        micros as f64 / 1e6
    ));
    out
}
