//! Agreement at scale: positions from seeded random games, solved with the tables cut at
//! fewer seeds, against the tables that hold them. For docs/solve.md's figures:
//!
//! ```sh
//! cargo run --release -p sowing-solve --example agree -- TABLES hoyito-ii 8 14 16 20
//! ```
//!
//! arguments: the tables' directory, the game, the seeds of the tables the prover uses,
//! the fewest and most seeds of the positions, how many positions; then, optionally,
//! `--spread` (each game stops at a number of seeds drawn from MIN..=MAX, so that the
//! positions are not all at the top: Hoyito's layers go by fours) and `--max-seconds S` (a
//! position not solved within S seconds counts as unsolved, its bounds still checked
//! against the tables). Prints one line a position and a summary; exits with 1 at the
//! first disagreement or refused certificate.

use std::time::Instant;

use sowing::{Position, Rules, Variant};
use sowing_solve::prove::Prover;
use sowing_solve::{check, solve};
use sowing_tables::Tables;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let spread = args.iter().any(|a| a == "--spread");
    args.retain(|a| a != "--spread");
    let mut max_time = None;
    if let Some(at) = args.iter().position(|a| a == "--max-seconds") {
        let Some(secs) = args.get(at + 1).and_then(|a| a.parse::<f64>().ok()) else {
            eprintln!("agree: --max-seconds needs a number of seconds");
            std::process::exit(2)
        };
        if !(secs.is_finite() && secs > 0.0) {
            eprintln!("agree: --max-seconds needs a positive number, not {secs}");
            std::process::exit(2)
        }
        max_time = Some(std::time::Duration::from_secs_f64(secs));
        args.drain(at..at + 2);
    }
    if args.len() != 6 {
        eprintln!(
            "usage: agree TABLES GAME LEAF-SEEDS MIN-SEEDS MAX-SEEDS COUNT [--spread] \
             [--max-seconds S]"
        );
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
    let (mut done, mut nodes, mut bytes, mut unsolved) = (0, 0u64, 0usize, 0);
    let mut seen = std::collections::HashSet::new();
    let started = Instant::now();
    while done < count {
        let mut position = Position::start(rules);
        let stop = if spread {
            min + next() % (max - min + 1)
        } else {
            max
        };
        for _ in 0..5_000 {
            if position.is_over() || position.seeds_on_board() <= stop {
                break;
            }
            let successors = position.successors();
            position = successors[next() % successors.len()].1;
        }
        if position.is_over()
            || !(min..=max).contains(&position.seeds_on_board())
            || (spread && !seen.insert(position))
        {
            continue;
        }
        let clock = Instant::now();
        let mut prover = Prover::new(&small, 1 << 30);
        let options = solve::Options {
            max_time,
            ..solve::Options::default()
        };
        let solution = solve::solve(&mut prover, &position, &options)
            .unwrap_or_else(|e| panic!("{position}: {e}"));
        let roots = solve::roots(&prover, &position, &solution);
        let certificate =
            solve::certificate(&prover, rules, roots).unwrap_or_else(|e| panic!("{position}: {e}"));
        let truth = big.probe(&position).expect("in the big tables");
        let checked = check::verify(&certificate, &small).is_ok();
        // Every move valued (all of them once the value is exact, unless the time ran out
        // first), each within its proven bounds; exact where the run finished.
        let finished = solution.stopped.is_none();
        let moves_agree = (!finished || solution.moves.len() == truth.moves.len())
            && solution.moves.iter().all(|m| {
                truth.moves.iter().any(|t| {
                    t.0 == m.mv
                        && m.lower <= t.1
                        && t.1 <= m.upper
                        && (!finished || m.lower == m.upper)
                })
            });
        let bounds_agree = solution.lower <= truth.value && truth.value <= solution.upper;
        let size = certificate.encode().len();
        println!(
            "{position}  seeds {}  proven [{}, {}]  tables {}  moves {}  nodes {}  {:.2} s  certificate {} bytes {}",
            position.seeds_on_board(),
            solution.lower,
            solution.upper,
            truth.value,
            if moves_agree { "agree" } else { "DISAGREE" },
            solution.nodes,
            clock.elapsed().as_secs_f64(),
            size,
            if checked { "checked" } else { "REFUSED" }
        );
        if !bounds_agree || (finished && solution.exact().is_none()) || !moves_agree || !checked {
            std::process::exit(1);
        }
        if !finished {
            unsolved += 1;
        }
        done += 1;
        nodes += solution.nodes;
        bytes += size;
    }
    println!(
        "{count} positions of {min}-{max} seeds with tables to {leaf}: {} solved, {unsolved} \
         stopped by the time limit; all agree with the tables to {max}; {nodes} nodes, {:.1} s, \
         certificates {bytes} bytes in all",
        count - unsolved,
        started.elapsed().as_secs_f64()
    );
}
