//! Agreement at scale: positions from seeded random games, solved with the tables cut at
//! fewer seeds, against the tables that hold them. For docs/solve.md's figures:
//!
//! ```sh
//! cargo run --release -p sowing-solve --example agree -- TABLES hoyito-ii 8 14 16 20
//! ```
//!
//! arguments: the tables' directory, the game, the seeds of the tables the prover uses,
//! the fewest and most seeds of the positions, how many positions. Prints one line a
//! position and a summary; exits with 1 at the first disagreement or refused certificate.

use std::time::Instant;

use sowing::{Position, Rules, Variant};
use sowing_solve::prove::Prover;
use sowing_solve::{check, solve};
use sowing_tables::Tables;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != 6 {
        eprintln!("usage: agree TABLES GAME LEAF-SEEDS MIN-SEEDS MAX-SEEDS COUNT");
        std::process::exit(2);
    }
    let number = |i: usize| -> usize {
        args[i].parse().unwrap_or_else(|_| {
            eprintln!("agree: {:?} is not a number", args[i]);
            std::process::exit(2)
        })
    };
    let variant: Variant = args[1].parse().unwrap_or_else(|e| {
        eprintln!("agree: {e}");
        std::process::exit(2)
    });
    let (leaf, min, max, count) = (number(2), number(3), number(4), number(5));
    let rules = Rules::new(variant);
    let dir = std::path::Path::new(&args[0]);
    let open = |seeds| {
        Tables::open_up_to(dir, rules, seeds).unwrap_or_else(|e| {
            eprintln!("agree: {e}");
            std::process::exit(2)
        })
    };
    let (big, small) = (open(max), open(leaf));
    if big.max_seeds() < max || small.max_seeds() < leaf {
        eprintln!(
            "agree: the tables in {} hold only {} seeds",
            dir.display(),
            big.max_seeds()
        );
        std::process::exit(2);
    }
    let mut seed = 2026u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    let (mut done, mut nodes, mut bytes) = (0, 0u64, 0usize);
    let started = Instant::now();
    while done < count {
        let mut position = Position::start(rules);
        for _ in 0..5_000 {
            if position.is_over() || position.seeds_on_board() <= max {
                break;
            }
            let successors = position.successors();
            position = successors[next() % successors.len()].1;
        }
        if position.is_over() || !(min..=max).contains(&position.seeds_on_board()) {
            continue;
        }
        let clock = Instant::now();
        let mut prover = Prover::new(&small, 1 << 30);
        let solution = solve::solve(&mut prover, &position, &solve::Options::default())
            .unwrap_or_else(|e| panic!("{position}: {e}"));
        let roots = solve::roots(&prover, &position, &solution);
        let certificate =
            solve::certificate(&prover, rules, roots).unwrap_or_else(|e| panic!("{position}: {e}"));
        let truth = big.probe(&position).expect("in the big tables");
        let checked = check::verify(&certificate, &small).is_ok();
        let moves_agree = solution.moves.iter().all(|m| {
            truth
                .moves
                .iter()
                .any(|t| t.0 == m.mv && t.1 == m.lower && t.1 == m.upper)
        });
        let size = certificate.encode().len();
        println!(
            "{position}  seeds {}  proven {:?}  tables {}  moves {}  nodes {}  {:.2} s  certificate {} bytes {}",
            position.seeds_on_board(),
            solution.exact(),
            truth.value,
            if moves_agree { "agree" } else { "DISAGREE" },
            solution.nodes,
            clock.elapsed().as_secs_f64(),
            size,
            if checked { "checked" } else { "REFUSED" }
        );
        if solution.exact() != Some(truth.value) || !moves_agree || !checked {
            std::process::exit(1);
        }
        done += 1;
        nodes += solution.nodes;
        bytes += size;
    }
    println!(
        "{count} positions of {min}-{max} seeds solved with tables to {leaf}: all agree with the \
         tables to {max}; {nodes} nodes, {:.1} s, certificates {bytes} bytes in all",
        started.elapsed().as_secs_f64()
    );
}
