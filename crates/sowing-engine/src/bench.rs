//! The search benchmark behind `sow bench --search`: the positions of a committed file,
//! `data/bench-positions.txt`, each searched to a fixed depth on one thread. The total node
//! count is a signature, like Stockfish's `bench`: it changes only when the positions, the
//! depths or the search change (a test compares it with [`SIGNATURE`]); nodes per second
//! measure speed.

use crate::clock::Instant;

use sowing::{Game, Position};

use crate::search::{Noise, Searcher};
use crate::Limits;

/// The benchmark file: `depth N` lines, then position texts searched to that depth; `#`
/// starts a comment.
pub const POSITIONS: &str = include_str!("../data/bench-positions.txt");

/// The total node count of [`report`] over [`POSITIONS`]: the benchmark's signature.
pub const SIGNATURE: u64 = 13_136_479;

/// Size of the transposition table the benchmark searches with, kept from one position to
/// the next.
pub const HASH_MIB: usize = 16;

/// One position of the benchmark and the depth it is searched to.
#[derive(Clone, Debug)]
pub struct BenchPosition {
    /// The game, from the position (no history).
    pub game: Game,
    /// Depth of the search, in plies.
    pub depth: u32,
}

/// The positions of a benchmark file (see [`POSITIONS`]).
///
/// # Errors
/// A line that is neither a comment, a `depth N` line nor a position text, a position
/// before the first `depth` line, or a position that is over: the message gives the line.
pub fn parse(text: &str) -> Result<Vec<BenchPosition>, String> {
    let mut depth = None;
    let mut positions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default().trim();
        let at = |why: String| format!("bench positions, line {}: {why}", number + 1);
        if line.is_empty() {
            continue;
        }
        if let Some(n) = line.strip_prefix("depth ") {
            let n = n
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| at(format!("{n:?} is not a depth")))?;
            depth = Some(n);
            continue;
        }
        let position: Position = line.parse().map_err(|e| at(format!("{e}")))?;
        let game = Game::from_position(position);
        if game.is_over() {
            return Err(at("the game is over there".to_owned()));
        }
        let depth = depth.ok_or_else(|| at("a position before any `depth` line".to_owned()))?;
        positions.push(BenchPosition { game, depth });
    }
    Ok(positions)
}

/// The positions of [`POSITIONS`].
pub fn positions() -> Vec<BenchPosition> {
    parse(POSITIONS).expect("the committed bench positions are valid (a test reads them)")
}

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

/// Searches each of `positions` to its depth, `less` plies shallower (at least 1), with one
/// table of `hash_mib` MiB, calling `row` after each.
pub fn search_bench(
    positions: &[BenchPosition],
    less: u32,
    hash_mib: usize,
    row: &mut dyn FnMut(&BenchRow),
) -> Vec<BenchRow> {
    let mut searcher = Searcher::new(hash_mib);
    let mut rows = Vec::new();
    for bench in positions {
        let limits = Limits {
            depth: Some(bench.depth.saturating_sub(less).max(1)),
            ..Limits::default()
        };
        let clock = Instant::now();
        let result = searcher.search(&bench.game, &limits, Noise::default(), &mut |_| {});
        let out = BenchRow {
            position: bench.game.position().to_string(),
            nodes: result.nodes,
            depth: result.depth,
            micros: clock.elapsed().as_micros() as u64,
        };
        row(&out);
        rows.push(out);
    }
    rows
}

/// Runs [`search_bench`] over [`positions`] at their depths with a [`HASH_MIB`] table, and
/// returns the report: a line per position and a total, or with `json` one line of JSON
/// (`{"nodes":…,"micros":…,"nps":…,"positions":[{"position":…,"nodes":…,"depth":…,
/// "micros":…},…]}`, where `nodes`, the total, is the signature).
pub fn report(json: bool) -> String {
    let rows = search_bench(&positions(), 0, HASH_MIB, &mut |_| {});
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

#[cfg(test)]
mod tests {
    use super::*;
    use sowing::{Rules, Variant};

    /// The signature: searching the committed positions to their depths visits exactly
    /// [`SIGNATURE`] nodes. A change to the search that changes what it visits changes it;
    /// then check the change, and update the constant (and docs/engine.md, "Benchmark").
    #[test]
    fn the_bench_visits_the_committed_number_of_nodes() {
        let rows = search_bench(&positions(), 0, HASH_MIB, &mut |_| {});
        let nodes: u64 = rows.iter().map(|r| r.nodes).sum();
        assert_eq!(nodes, SIGNATURE);
    }

    #[test]
    fn the_positions_cover_every_game_the_long_board_and_each_option() {
        let positions = positions();
        let rules: Vec<Rules> = positions.iter().map(|p| p.game.rules()).collect();
        for variant in [Variant::HoyitoII, Variant::HoyitoIII, Variant::Ayoayo] {
            assert!(rules.iter().any(|r| r.variant() == variant), "{variant}");
        }
        assert!(rules.iter().any(|r| r.pits_per_row() == 12));
        for option in ["casa-rows=", "final-four=", "leftover="] {
            assert!(
                positions
                    .iter()
                    .any(|p| p.game.position().to_string().contains(option)),
                "{option}"
            );
        }
        // Every position searches to its full depth.
        let rows = search_bench(&positions[..2], 8, HASH_MIB, &mut |_| {});
        assert_eq!(rows[0].depth, positions[0].depth - 8);
    }

    #[test]
    fn a_malformed_bench_file_is_refused_with_its_line() {
        let good = "# c\ndepth 3\nhoyito-ii 4,4,4,4,4,4/4,4,4,4,4,4 0-0 S -  # the start\n";
        let parsed = parse(good).expect("a valid file");
        assert_eq!((parsed.len(), parsed[0].depth), (1, 3));
        for (bad, line) in [
            ("hoyito-ii 4,4,4,4,4,4/4,4,4,4,4,4 0-0 S -", 1),
            ("depth 3\nhoyito-ii 4,4,x", 2),
            ("\ndepth 0", 2),
            ("depth 2\nayoayo 0,0,0,0,0,0/0,0,0,0,0,0 24-24 S N", 2),
        ] {
            let error = parse(bad).expect_err(bad);
            assert!(error.contains(&format!("line {line}:")), "{bad}: {error}");
        }
    }
}
