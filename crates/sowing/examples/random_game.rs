//! Prints the moves of a random game:
//! `cargo run --example random_game -- GAME PITS SEED [OPTION=VALUE…]` (`casa-rows=opponent`).
//! Used to make the golden `sow replay` files.

use sowing::{Game, Rules};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut rules = Rules::new(args[1].parse().expect("a game"))
        .with_pits(args[2].parse().expect("pits per row"))
        .expect("a board of that game");
    for option in args.iter().skip(4) {
        let (name, value) = option
            .split_once('=')
            .expect("an option like casa-rows=opponent");
        rules
            .set_option(name, value)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let mut state: u64 = args[3].parse::<u64>().expect("a seed") | 1;
    let mut game = Game::new(rules);
    while !game.is_over() {
        let moves = game.legal_moves();
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        game.play(moves[(state % moves.len() as u64) as usize])
            .expect("a legal move");
    }
    let n = rules.pits_per_row();
    let names: Vec<String> = game.moves().iter().map(|m| m.name(n).to_string()).collect();
    println!("{}", names.join(" "));
}
