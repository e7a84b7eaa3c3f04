//! A fixed amount of `Position::sow_columns` work as the Python package's `VecGame` does
//! it (every pit of the mover sown, then one legal column chosen at random), for counting
//! instructions with callgrind rather than timing:
//!
//! ```sh
//! cargo build --profile bench -p sowing --example sow_columns_steps
//! valgrind --tool=callgrind target/release/examples/sow_columns_steps 1024 200
//! callgrind_annotate --auto=yes callgrind.out.*
//! ```
//!
//! Arguments: games (1,024), steps of every game (200), game (`hoyito-ii`), pits a row
//! (6). Prints the steps and a checksum of the final positions (the same for the same
//! sowing results). Repetition (C.3) is not tracked here: a pass or the end restarts.

use sowing::{Move, Position, Rules};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or(default.to_string());
    let games: usize = arg(1, "1024").parse().expect("a number of games");
    let steps: usize = arg(2, "200").parse().expect("a number of steps");
    let rules = Rules::new(arg(3, "hoyito-ii").parse().expect("a game"))
        .with_pits(arg(4, "6").parse().expect("pits per row"))
        .expect("a board of that game");
    let start = Position::start(rules);
    let mut positions = vec![start; games];
    let mut next = [start; Rules::MAX_PITS_PER_ROW];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut sown = 0u64;
    for _ in 0..steps {
        for position in &mut positions {
            let legal = position.sow_columns(u16::MAX, &mut next);
            sown += u64::from(legal.count_ones());
            if legal == 0 {
                if position.is_over() || position.play(Move::Pass).is_err() {
                    *position = start;
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
            *position = next[column];
            if position.is_over() {
                *position = start;
            }
        }
    }
    let checksum = positions
        .iter()
        .fold(0u64, |sum, p| sum.wrapping_mul(31).wrapping_add(p.hash()));
    println!(
        "{} steps, {sown} legal columns, checksum {checksum:016x}",
        games * steps
    );
}
