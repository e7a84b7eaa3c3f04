//! Perft vectors from `tests/data/perft.txt`, read by one harness.

use sowing::{perft, Position, Rules};

/// Entries above this many nodes are left to `sow perft`, to keep the suite quick.
const MAX_NODES: u64 = 15_000_000;

#[test]
fn perft_vectors() {
    let data = include_str!("data/perft.txt");
    let mut checked = 0;
    for (number, line) in data.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [game, pits, options, depth, nodes] = fields[..] else {
            panic!("line {}: expected 5 fields: {line}", number + 1);
        };
        let mut rules = Rules::new(game.parse().unwrap())
            .with_pits(pits.parse().unwrap())
            .unwrap();
        for option in options.split(',').filter(|o| *o != "-") {
            let (key, value) = option.split_once('=').unwrap();
            rules
                .set_option(key, value)
                .unwrap_or_else(|e| panic!("line {}: {e}", number + 1));
        }
        let nodes: u64 = nodes.parse().unwrap();
        if nodes > MAX_NODES {
            continue;
        }
        let depth: u32 = depth.parse().unwrap();
        assert_eq!(
            perft(&Position::start(rules), depth),
            nodes,
            "line {}: {line}",
            number + 1
        );
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} vectors checked");
}
