//! `Position::sow_columns`, the batch form of the successors that the Python package's
//! `VecGame` steps with, against `Position::successors` along random games of every game
//! and option, on chosen columns, and on the endless sowings of C.1.

mod common;

use common::{all_rules, Rng};
use sowing::{Move, Position, Rules};

/// The legal sowing columns of the side to move and where each leads, from `successors`.
fn expected(position: &Position) -> Vec<(usize, Position)> {
    let n = position.rules().pits_per_row();
    position
        .successors()
        .into_iter()
        .filter_map(|(mv, next)| match mv {
            Move::Sow(pit) => Some((pit.index() % n, next)),
            Move::Pass => None,
        })
        .collect()
}

fn check(position: &Position, columns: u16, rng: &mut Rng) {
    let mut next = [*position; Rules::MAX_PITS_PER_ROW];
    let legal = position.sow_columns(columns, &mut next);
    let mut bits = 0u16;
    for (column, after) in expected(position) {
        if (columns >> column) & 1 == 1 {
            bits |= 1 << column;
            assert_eq!(next[column], after, "column {column} at {position}");
        }
    }
    assert_eq!(legal, bits, "legal columns of {columns:#b} at {position}");
    // A random part of the columns gives that part of the answer.
    let part = columns & rng.below(1 << 12) as u16;
    let mut again = [*position; Rules::MAX_PITS_PER_ROW];
    assert_eq!(position.sow_columns(part, &mut again), legal & part);
}

#[test]
fn sow_columns_agrees_with_successors_along_random_games() {
    for rules in all_rules() {
        let mut rng = Rng::new(7);
        for seed in 0..60 {
            let mut game = common::random_game(rules, seed, 0);
            while !game.is_over() && game.moves().len() < 400 {
                check(game.position(), u16::MAX, &mut rng);
                let moves = game.legal_moves();
                game.play(moves[rng.below(moves.len())]).unwrap();
            }
            assert_eq!(
                game.position()
                    .sow_columns(u16::MAX, &mut [*game.position(); 12])
                    != 0,
                !game.position().is_over() && !expected(game.position()).is_empty()
            );
        }
    }
}

#[test]
fn sow_columns_refuses_the_endless_sowings_of_c1() {
    // RULES.md C.1: South's E cycles every 60 laps; North's a every 4,628,448 laps.
    for (text, column) in [
        ("hoyito-ii 2,1,0,1,3,1/0,2,1,0,1,0 18-18 S -", 4),
        ("hoyito-ii 4,0,7,3,5,12/3,1,5,2,1,5 0-0 N -", 0),
    ] {
        let position: Position = text.parse().unwrap();
        let mut next = [position; Rules::MAX_PITS_PER_ROW];
        let legal = position.sow_columns(u16::MAX, &mut next);
        assert_eq!(
            (legal >> column) & 1,
            0,
            "column {column} of {text} is endless"
        );
        check(&position, u16::MAX, &mut Rng::new(1));
    }
}
