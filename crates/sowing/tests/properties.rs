//! Invariants over thousands of random games for every game and option: seeds conserved,
//! generated moves agree with the legality check, finished games refuse every move, the
//! incremental hash equals a fresh one, notation round-trips, undo restores exactly, and a
//! traced move ends where an untraced one does.

mod common;

use common::{all_rules, Rng};
use proptest::prelude::*;
use sowing::{Event, Game, Move, Pit, Position, Record, Rules, State, MAX_LAPS};

fn total(position: &Position) -> usize {
    position.seeds_on_board()
        + usize::from(position.captured().south)
        + usize::from(position.captured().north)
}

/// Every move token of the board, legal or not.
fn every_move(rules: Rules) -> Vec<Move> {
    (0..rules.pit_count())
        .map(|i| Move::Sow(Pit::new(i)))
        .chain([Move::Pass])
        .collect()
}

fn check_game(rules: Rules, seed: u64) {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(rules);
    let seeds = rules.total_seeds();
    while !game.is_over() && game.moves().len() < 600 {
        let position = *game.position();
        assert_eq!(total(&position), seeds, "seeds conserved");
        assert_eq!(
            position.hash(),
            position.compute_hash(),
            "hash at {position}"
        );
        assert_eq!(position.to_string().parse::<Position>(), Ok(position));

        let legal = game.legal_moves();
        assert!(!legal.is_empty(), "a game that goes on has a move");
        for mv in every_move(rules) {
            assert_eq!(
                position.is_legal(mv),
                legal.contains(&mv),
                "{mv:?} at {position}"
            );
        }
        for pit in (0..rules.pit_count()).map(Pit::new) {
            // C.1: a move that takes L laps is legal under a cap of L laps and refused as
            // endless under L − 1 (a capped copy that the A.5 settling changed is skipped).
            let exact = position.after_sow(pit);
            let mut copy = position;
            let laps = copy.play(Move::Sow(pit)).map(|report| report.laps);
            assert_eq!(laps.is_ok(), exact.is_ok());
            if let Ok(laps) = laps {
                assert!((1..=MAX_LAPS).contains(&laps));
                let capped = |cap: u32| {
                    Position::from_parts(
                        rules.with_max_laps(cap),
                        position.pits(),
                        position.captured(),
                        position.to_move(),
                        position.last_sower(),
                    )
                    .unwrap()
                };
                let (at, below) = (capped(laps), capped(laps - 1));
                if at.pits() == position.pits() {
                    assert!(at.after_sow(pit).is_ok(), "{pit:?} at {position}");
                }
                if laps > 1 && below.pits() == position.pits() {
                    assert_eq!(below.after_sow(pit), Err(sowing::Illegal::Endless));
                }
            }
            if !position.may_capture(pit) {
                let after = position.after_sow(pit);
                assert!(
                    after.map_or(true, |next| next.captured() == position.captured()),
                    "{pit:?} captures at {position}, though may_capture said not"
                );
            }
        }
        let mv = legal[rng.below(legal.len())];

        // Traced and untraced play agree, and the trace replays to the same pits.
        let mut traced = position;
        let mut trace = Vec::new();
        let traced_report = traced.play_traced(mv, &mut trace).unwrap();
        let mut replayed = position.pits().to_vec();
        for event in &trace {
            match *event {
                Event::Lift { pit, .. } | Event::Take { pit, .. } => replayed[pit.index()] = 0,
                Event::Drop { pit } => replayed[pit.index()] += 1,
                _ => {}
            }
        }
        assert_eq!(replayed, traced.pits(), "trace of {mv:?} at {position}");

        let before = game.clone();
        let report = game.play(mv).unwrap();
        // The position alone does not know the repetition rule; the game does.
        let position_report = sowing::Report {
            end: report.end.filter(|&end| end != sowing::End::Repetition),
            ..report
        };
        assert_eq!(traced_report, position_report);
        assert_eq!(&traced, game.position());
        if rng.below(8) == 0 {
            let mut undone = game.clone();
            undone.undo();
            assert_eq!(
                undone.position(),
                before.position(),
                "undo restores the position"
            );
            assert_eq!(undone.moves(), before.moves());
            assert_eq!(undone.is_over(), before.is_over());
            undone.redo();
            assert_eq!(undone.position(), game.position());
            assert_eq!(undone.end(), game.end(), "redo replays the ending too");
        }
    }
    if game.is_over() {
        assert_eq!(total(game.position()), seeds);
        for mv in every_move(rules) {
            assert!(
                game.clone().play(mv).is_err(),
                "a finished game refuses {mv:?}"
            );
        }
        assert!(game.outcome().is_some());
    }

    // Records and JSON round-trip.
    let mut record = Record::new(game.clone());
    record.set_tag("South", "random");
    record.comments.push((1, "a comment".to_owned()));
    let text = record.to_string();
    let back = Record::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back, record);

    let state = State::of(&game);
    let json = state.to_json();
    let restored = State::from_json(&json).unwrap().to_game(rules).unwrap();
    assert_eq!(restored.position(), game.position());
    assert_eq!(State::of(&restored), state);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 250, .. ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_invariant(seed in any::<u64>()) {
        for rules in all_rules() {
            if rules.pits_per_row() == 12 && seed % 8 != 0 {
                continue; // long games: fewer of them
            }
            check_game(rules, seed);
        }
    }
}

#[test]
fn repetition_undo_and_redo_across_captures() {
    // Long random games take back and replay many moves, across captures.
    for seed in 0..40 {
        let game = common::random_game(Rules::new(sowing::Variant::HoyitoII), seed, 400);
        let mut copy = game.clone();
        let plies = copy.moves().len();
        for _ in 0..plies {
            copy.undo();
        }
        assert_eq!(copy.position(), game.start());
        for _ in 0..plies {
            copy.redo().unwrap();
        }
        assert_eq!(copy.position(), game.position());
        assert_eq!(copy.end(), game.end());
    }
}
