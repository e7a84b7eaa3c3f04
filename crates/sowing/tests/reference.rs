//! The fast rules against the naive second implementation in `common`, move for move.

mod common;

use common::{all_rules, Naive, Rng};
use sowing::{perft, Game, Position};

fn naive_perft(position: &Naive, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    position
        .successors()
        .iter()
        .map(|(_, next)| naive_perft(next, depth - 1))
        .sum()
}

#[test]
fn successors_agree_with_the_naive_rules_along_random_games() {
    for rules in all_rules() {
        let games = if rules.pits_per_row() == 12 { 20 } else { 300 };
        let mut positions = 0;
        for seed in 0..games {
            let mut rng = Rng::new(seed);
            let mut game = Game::new(rules);
            while !game.is_over() && game.moves().len() < 400 {
                let position = *game.position();
                let fast: Vec<(String, Naive)> = position
                    .successors()
                    .iter()
                    .map(|(mv, next)| (mv.name(rules.pits_per_row()).to_string(), Naive::of(next)))
                    .collect();
                let naive = Naive::of(&position).successors();
                assert_eq!(fast, naive, "{rules:?} from {position}");
                let moves = game.legal_moves();
                game.play(moves[rng.below(moves.len())]).unwrap();
                positions += 1;
            }
        }
        assert!(positions > games as usize * 10);
    }
}

#[test]
fn perft_agrees_with_the_naive_rules() {
    for rules in all_rules() {
        let depth = if rules.pits_per_row() == 12 { 4 } else { 5 };
        let start = Position::start(rules);
        assert_eq!(
            perft(&start, depth),
            naive_perft(&Naive::of(&start), depth),
            "{rules:?}"
        );
    }
}
