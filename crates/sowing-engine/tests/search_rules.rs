//! The search against the rules: extra turns, passes, repetition on the path and proven
//! endings, checked against a plain minimax solver written here without any pruning.

use sowing::{BySide, Game, Move, Position, Rules, Side, Variant};
use sowing_engine::random::{self, Rng};
use sowing_engine::search::{Noise, Searcher};
use sowing_engine::{Limits, Score};

/// The final margin (seeds) for the side to move with best play, by plain minimax over
/// every line, ending a line when a position repeats one on `path` since the last capture
/// (C.3). `None` when the tree is larger than `budget` nodes.
fn solve(
    pos: &Position,
    path: &mut Vec<Position>,
    budget: &mut u64,
    repetitions: &mut u64,
) -> Option<i32> {
    *budget = budget.checked_sub(1)?;
    if path.len() > 150 {
        return None;
    }
    let me = pos.to_move();
    let margin = i32::from(pos.captured()[me]) - i32::from(pos.captured()[!me]);
    if pos.is_over() {
        return Some(margin);
    }
    if path
        .iter()
        .rev()
        .take_while(|p| p.captured() == pos.captured())
        .any(|p| p.repeats(pos))
    {
        *repetitions += 1;
        return Some(margin);
    }
    path.push(*pos);
    let mut best = i32::MIN;
    for (_, child) in pos.successors() {
        let value = solve(&child, path, budget, repetitions)?;
        best = best.max(if child.to_move() == me { value } else { -value });
    }
    path.pop();
    Some(best)
}

fn search(game: &Game, limits: Limits) -> sowing_engine::SearchResult {
    let mut searcher = Searcher::new(4);
    searcher.search(game, &limits, Noise::default(), &mut |_| {})
}

/// A random position with `seeds` seeds on the board of `rules`.
fn random_position(rules: Rules, seeds: u32, rng: &mut Rng) -> Position {
    let ring = rules.pit_count();
    let mut pits = vec![0u8; ring];
    for _ in 0..seeds {
        pits[rng.below(ring as u32) as usize] += 1;
    }
    let rest = rules.total_seeds() as u32 - seeds;
    let south = rng.below(rest + 1);
    let captured = BySide::new(south as u8, (rest - south) as u8);
    let to_move = if rng.below(2) == 0 {
        Side::South
    } else {
        Side::North
    };
    let last_sower = if rng.below(2) == 0 {
        Some(!to_move)
    } else {
        None
    };
    Position::from_parts(rules, &pits, captured, to_move, last_sower).expect("a valid position")
}

/// What plain minimax met on the way, so that a test can check it covered the rule.
#[derive(Default, Debug)]
struct Seen {
    extra_turns: u64,
    passes: u64,
    repetitions: u64,
    horizon: u64,
}

/// Plain fixed-depth minimax with the captured margin (centiseeds) at the horizon; the
/// value is exact (the game's final margin) when `seen.horizon` stays 0. Its one shortcut:
/// a move that wins every seed left ends the look at the others.
fn minimax(pos: &Position, depth: u32, path: &mut Vec<Position>, seen: &mut Seen) -> i32 {
    let me = pos.to_move();
    let margin = 100 * (i32::from(pos.captured()[me]) - i32::from(pos.captured()[!me]));
    if pos.is_over() {
        return margin;
    }
    if path
        .iter()
        .rev()
        .take_while(|p| p.captured() == pos.captured())
        .any(|p| p.repeats(pos))
    {
        seen.repetitions += 1;
        return margin;
    }
    if depth == 0 {
        seen.horizon += 1;
        return margin;
    }
    path.push(*pos);
    let mut best = i32::MIN;
    for (mv, child) in pos.successors() {
        seen.passes += u64::from(mv == Move::Pass);
        let same = child.to_move() == me;
        seen.extra_turns += u64::from(same);
        let value = minimax(&child, depth - 1, path, seen);
        best = best.max(if same { value } else { -value });
        if best == margin + 100 * pos.seeds_on_board() as i32 {
            break; // every seed left won: no move does better
        }
    }
    path.pop();
    best
}

/// Positions with history: random games of `rules` from random set-ups with `seeds` seeds.
fn random_games(rules: Rules, seeds: u32, count: usize, seed: u64) -> Vec<Game> {
    let mut rng = Rng::new(seed);
    let mut games = Vec::new();
    while games.len() < count {
        let mut game = Game::from_position(random_position(rules, seeds, &mut rng));
        for _ in 0..rng.below(10) {
            let Some(mv) = random::legal_move(&game, &mut rng) else {
                break;
            };
            game.play(mv).unwrap();
        }
        if !game.is_over() {
            games.push(game);
        }
    }
    games
}

/// The search without table cut-offs equals plain minimax at the same depth, history of
/// the game included; and when minimax never met its horizon, the search says proven.
fn matches_minimax(rules: Rules, seeds: u32, depth: u32, seed: u64) -> Seen {
    let mut seen = Seen::default();
    let mut proven = 0;
    for game in random_games(rules, seeds, 40, seed) {
        let root = *game.position();
        let mut path: Vec<Position> = (0..game.moves().len())
            .filter_map(|ply| game.position_at(ply).copied())
            .filter(|p| p.captured() == root.captured())
            .collect();
        let horizon_before = seen.horizon;
        let expected = minimax(&root, depth, &mut path, &mut seen);
        let exact = seen.horizon == horizon_before;
        let mut searcher = Searcher::new(1);
        searcher.use_tt = false;
        searcher.quiescence = false;
        searcher.use_features = false;
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let result = searcher.search(&game, &limits, Noise::default(), &mut |_| {});
        let value = match result.score {
            Score::Estimate(v) => v,
            Score::Proven(margin) => {
                proven += 1;
                100 * margin
            }
        };
        assert_eq!(value, expected, "{root} after {:?}", game.moves());
        if exact {
            assert!(
                matches!(result.score, Score::Proven(_)),
                "{root}: exact but not proven"
            );
        }
    }
    assert!(
        seen.horizon > 0,
        "every line ended: the test misses estimates"
    );
    let _ = proven;
    seen
}

#[test]
fn h2_6_extra_turns_and_c_3_repetition_match_minimax_hoyito_ii() {
    let seen = matches_minimax(Rules::new(Variant::HoyitoII), 12, 5, 1);
    assert!(seen.extra_turns > 0 && seen.repetitions > 0, "{seen:?}");
}

#[test]
fn h2_5_opponent_casas_match_minimax() {
    let mut rules = Rules::new(Variant::HoyitoII);
    rules.casa_rows = sowing::CasaRows::Opponent;
    let seen = matches_minimax(rules, 12, 5, 2);
    assert!(seen.extra_turns > 0, "{seen:?}");
}

#[test]
fn h2_long_board_matches_minimax() {
    let rules = Rules::new(Variant::HoyitoII).with_pits(12).unwrap();
    let seen = matches_minimax(rules, 20, 4, 3);
    assert!(seen.extra_turns > 0, "{seen:?}");
}

#[test]
fn h3_1_matches_minimax() {
    let seen = matches_minimax(Rules::new(Variant::HoyitoIII), 12, 5, 4);
    assert!(seen.extra_turns > 0 && seen.repetitions > 0, "{seen:?}");
}

#[test]
fn a_6_passes_and_c_3_repetition_match_minimax_ayoayo() {
    let seen = matches_minimax(Rules::new(Variant::Ayoayo), 6, 6, 5);
    assert!(seen.passes > 0 && seen.repetitions > 0, "{seen:?}");
}

/// With the table on, a proven value is the game's value: plain minimax, searching
/// deeper, reaches no horizon and finds the same margin.
fn proven_values_are_exact(rules: Rules, seeds: u32, seed: u64) -> usize {
    let mut checked = 0;
    for game in random_games(rules, seeds, 60, seed) {
        let result = search(
            &game,
            Limits {
                nodes: Some(300_000),
                ..Limits::default()
            },
        );
        let Score::Proven(margin) = result.score else {
            continue;
        };
        if result.depth > 6 {
            continue; // too deep for plain minimax
        }
        let root = *game.position();
        let mut path: Vec<Position> = (0..game.moves().len())
            .filter_map(|ply| game.position_at(ply).copied())
            .filter(|p| p.captured() == root.captured())
            .collect();
        let mut seen = Seen::default();
        let value = minimax(&root, result.depth + 1, &mut path, &mut seen);
        if seen.horizon == 0 {
            assert_eq!(100 * margin, value, "{root} after {:?}", game.moves());
            checked += 1;
        }
    }
    checked
}

#[test]
fn c_4_proven_results_are_exact_ayoayo() {
    let checked = proven_values_are_exact(Rules::new(Variant::Ayoayo), 5, 6);
    assert!(checked >= 10, "only {checked} proven results checked");
}

#[test]
fn c_4_proven_results_are_exact_hoyito() {
    let checked = proven_values_are_exact(Rules::new(Variant::HoyitoII), 8, 7)
        + proven_values_are_exact(Rules::new(Variant::HoyitoIII), 8, 8);
    eprintln!("{checked} proven results checked");
    assert!(checked >= 5, "only {checked} proven results checked");
}

#[test]
fn h2_6_extra_turn_keeps_the_side_to_move() {
    // South: D sows into E (3 → 4, a casa), then, moving again, F sows into a (3 → 4).
    let pos: Position = "hoyito-ii 0,0,0,1,3,1/3,0,0,0,0,5 20-16 S -"
        .parse()
        .unwrap();
    let mut searcher = Searcher::new(1);
    searcher.quiescence = false;
    searcher.use_features = false;
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    let result = searcher.search(
        &Game::from_position(pos),
        &limits,
        Noise::default(),
        &mut |_| {},
    );
    // Two captures of four by the same player: +8 on top of the +4 margin.
    assert_eq!(result.score, Score::Estimate(1200));
    assert_eq!(
        result.pv.len(),
        2,
        "both moves are South's: {:?}",
        result.pv
    );
}

#[test]
fn c_2_pass_is_searched_as_a_move() {
    // South's row is empty: South passes (A.6) and North must feed (A.5).
    let pos: Position = "ayoayo 0,0,0,0,0,0/0,0,0,0,1,2 20-23 S N".parse().unwrap();
    assert_eq!(pos.legal_moves().as_slice(), &[Move::Pass]);
    let mut budget = 1_000_000;
    let expected = solve(&pos, &mut Vec::new(), &mut budget, &mut 0).expect("small");
    let result = search(
        &Game::from_position(pos),
        Limits {
            nodes: Some(1_000_000),
            ..Limits::default()
        },
    );
    assert_eq!(result.best, Move::Pass);
    assert_eq!(result.score, Score::Proven(expected));
}

#[test]
fn same_seed_and_node_limit_give_the_same_move() {
    let mut game = Game::new(Rules::new(Variant::HoyitoIII));
    for token in ["C", "a", "E"] {
        if let Ok(mv) = game.parse_move(token) {
            let _ = game.play(mv);
        }
    }
    let limits = Limits {
        nodes: Some(50_000),
        ..Limits::default()
    };
    let first = search(&game, limits.clone());
    let second = search(&game, limits);
    assert_eq!(first, second);
    assert!(game.legal_moves().contains(&first.best));
}
