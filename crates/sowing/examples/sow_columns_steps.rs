//! A fixed amount of `Position::sow_columns` work as the Python package's `VecGame` does
//! it (every pit of the mover sown, then one legal column chosen at random), for counting
//! instructions with callgrind rather than timing:
//!
//! ```sh
//! cargo build --profile bench -p sowing --example sow_columns_steps
//! valgrind --tool=callgrind --branch-sim=yes target/release/examples/sow_columns_steps 1024 200
//! callgrind_annotate --auto=yes callgrind.out.*
//! ```
//!
//! Arguments: games (1,024), steps of every game (200), game (`hoyito-ii`), pits a row
//! (6), `plain` (one game's moves at a time, `sow_columns`) or `batch` (the default: the
//! interleaved `sow_columns_batch`). Prints the steps and a checksum of the final
//! positions (the same for the same sowing results, in either mode). Repetition (C.3) is
//! not tracked here: a pass or the end restarts.

use sowing::{Columns, Move, Position, Rules};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or(default.to_string());
    let games: usize = arg(1, "1024").parse().expect("a number of games");
    let steps: usize = arg(2, "200").parse().expect("a number of steps");
    let rules = Rules::new(arg(3, "hoyito-ii").parse().expect("a game"))
        .with_pits(arg(4, "6").parse().expect("pits per row"))
        .expect("a board of that game");
    let batch = match arg(5, "batch").as_str() {
        "batch" => true,
        "plain" => false,
        other => panic!("unknown mode {other:?} (plain or batch)"),
    };
    let start = Position::start(rules);
    let mut slots = vec![Columns::new(start); games];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut sown = 0u64;
    for _ in 0..steps {
        if batch {
            Position::sow_columns_batch(&mut slots);
        } else {
            for slot in &mut slots {
                slot.legal = slot.position.sow_columns(u16::MAX, &mut slot.next);
            }
        }
        for slot in &mut slots {
            let legal = slot.legal;
            sown += u64::from(legal.count_ones());
            if legal == 0 {
                if slot.position.is_over() || slot.position.play(Move::Pass).is_err() {
                    slot.position = start;
                }
                continue;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut pick = (state % u64::from(legal.count_ones())) as u32;
            let mut column = legal.trailing_zeros() as usize;
            while pick > 0 {
                column = (legal >> (column + 1)).trailing_zeros() as usize + column + 1;
                pick -= 1;
            }
            slot.position = slot.next[column];
            if slot.position.is_over() {
                slot.position = start;
            }
        }
    }
    let checksum = slots.iter().fold(0u64, |sum, s| {
        sum.wrapping_mul(31).wrapping_add(s.position.hash())
    });
    println!(
        "{} steps, {sown} legal columns, checksum {checksum:016x}",
        games * steps
    );
}
