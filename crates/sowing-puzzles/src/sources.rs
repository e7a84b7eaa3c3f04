//! Where candidate positions come from: finished games (records, the site's database) and
//! self-play.

use std::ops::Range;

use arrayvec::ArrayVec;
use rayon::prelude::*;
use sowing::{Game, Position, Rules};
use sowing_engine::random::Rng;
use sowing_tables::Tables;

use crate::values::move_values;

/// The longest self-play game, in moves: a game that cycles without repeating exactly is
/// cut here.
pub const MAX_PLIES: usize = 600;

/// One in this many moves of self-play inside the tables is random; the others are best
/// moves (chosen at random among equals), so that the positions are those of good play,
/// with mistakes in them.
pub const RANDOM_ONE_IN: u32 = 4;

/// The positions of self-play games `games` (each numbered game is the same for the same
/// `seed`), in order, game after game. Outside the tables every move is random; inside,
/// see [`RANDOM_ONE_IN`]. Games are played in parallel.
pub fn self_play(tables: &Tables, rules: Rules, seed: u64, games: Range<u64>) -> Vec<Position> {
    games
        .into_par_iter()
        .map(|game| {
            let mut out = Vec::new();
            self_play_game(tables, rules, seed, game, &mut out);
            out
        })
        .collect::<Vec<_>>()
        .concat()
}

/// Appends the positions of self-play game number `game` to `out`, from the start to the
/// end (the end not included: no move is left there).
pub fn self_play_game(
    tables: &Tables,
    rules: Rules,
    seed: u64,
    game: u64,
    out: &mut Vec<Position>,
) {
    let mut rng = Rng::new(seed ^ game.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut position = Position::start(rules);
    let first = out.len();
    while !position.is_over() && out.len() - first < MAX_PLIES {
        out.push(position);
        let seeds = position.seeds_on_board();
        let inside = seeds <= tables.max_seeds() && tables.built(seeds);
        let next = match inside.then(|| move_values(tables, &position)) {
            Some(Ok(values)) if rng.below(RANDOM_ONE_IN) != 0 => {
                let best = values.iter().map(|m| m.2).max().unwrap_or(0);
                let bests: ArrayVec<Position, { Rules::MAX_PITS_PER_ROW }> =
                    values.iter().filter(|m| m.2 == best).map(|m| m.1).collect();
                *rng.pick(&bests).expect("a best move")
            }
            _ => {
                let successors = position.successors();
                rng.pick(&successors)
                    .expect("a position not over has a move")
                    .1
            }
        };
        position = next;
    }
}

/// Every position of a finished game at which a move was made, in order.
pub fn of_game(game: &Game) -> Vec<Position> {
    (0..game.moves().len())
        .filter_map(|ply| game.position_at(ply).copied())
        .collect()
}
