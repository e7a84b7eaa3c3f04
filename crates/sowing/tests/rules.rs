//! One test per rule of RULES.md, named after its id, each from an explicit position.
//!
//! Positions are written in the position text: South's row A..F, then North's row a..f
//! (each in ring order), captures South-North, side to move, last sower.

use sowing::{
    End, Event, Game, Illegal, Match, Move, Outcome, Pit, Position, Report, Rules, Side,
    TakeReason, Variant, MAX_LAPS,
};

fn position(text: &str) -> Position {
    text.parse()
        .unwrap_or_else(|e| panic!("bad test position {text:?}: {e}"))
}

/// Plays `token` from `text`; the position after, and what the move did.
fn after(text: &str, token: &str) -> (Position, Report) {
    let mut pos = position(text);
    let mv = Move::parse(token, pos.rules().pits_per_row()).unwrap();
    let report = pos
        .play(mv)
        .unwrap_or_else(|e| panic!("{token} from {text}: {e}"));
    (pos, report)
}

fn legal(text: &str) -> Vec<String> {
    let pos = position(text);
    pos.legal_moves()
        .iter()
        .map(|m| m.name(pos.rules().pits_per_row()).to_string())
        .collect()
}

fn refusal(text: &str, token: &str) -> Illegal {
    let mut pos = position(text);
    let before = pos;
    let mv = Move::parse(token, pos.rules().pits_per_row()).unwrap();
    let error = pos.play(mv).expect_err("the move should be refused");
    assert_eq!(pos, before, "a refused move changes nothing");
    error.reason
}

// ---- Common to all three ----

#[test]
fn board_ring_and_opposite_pits() {
    let rules = Rules::new(Variant::HoyitoII);
    assert_eq!(rules.pit_count(), 12);
    assert_eq!(Pit::new(0).opposite(6), Pit::new(11));
    assert_eq!(Pit::new(5).opposite(6), Pit::new(6));
    assert_eq!(Pit::new(0).letter(6), 'A');
    assert_eq!(Pit::new(6).letter(6), 'a');
    assert_eq!(Pit::new(23).letter(12), 'l');
    assert_eq!(Move::parse("pass", 6), Ok(Move::Pass));
    assert!(Move::parse("G", 6).is_err());
    assert!(Move::parse("G", 12).is_ok());
}

#[test]
fn south_moves_first() {
    for variant in Variant::ALL {
        assert_eq!(Position::start(Rules::new(variant)).to_move(), Side::South);
    }
}

#[test]
fn lap_sows_counter_clockwise_one_seed_a_pit() {
    // F's 3 seeds go to a, b, c: across to North's row.
    let (pos, report) = after("hoyito-ii 0,0,0,0,0,3/0,0,0,0,0,1 0-0 S -", "F");
    assert_eq!(pos.pits(), &[0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1]);
    assert_eq!(report.laps, 1);
}

#[test]
fn c_1_endless_hoyito_ii_sowing_is_not_a_legal_move() {
    let text = "hoyito-ii 2,1,0,1,3,1/0,2,1,0,1,0 18-18 S -";
    assert_eq!(refusal(text, "E"), Illegal::Endless);
    assert!(!legal(text).contains(&"E".to_owned()));
    assert!(!legal(text).is_empty());
}

#[test]
fn c_1_endless_ayoayo_sowing_is_not_a_legal_move() {
    let text = "ayoayo 0,1,0,2,1,0/1,0,1,0,3,2 18-18 N S";
    assert_eq!(refusal(text, "f"), Illegal::Endless);
    assert!(!legal(text).contains(&"f".to_owned()));
}

#[test]
fn c_1_sowings_that_cycle_only_after_millions_of_laps_are_refused_at_the_cap() {
    // Cycles of 4,628,448 and 2,352,774 laps on 2×6, and a 2×12 sowing that took 44 s to
    // prove endless before the revised ruling: each is refused after lap 65,536, so each
    // check is over in about a millisecond (sow bench --legality measures it).
    for (text, token) in [
        ("hoyito-ii 4,0,7,3,5,12/3,1,5,2,1,5 0-0 N -", "a"),
        ("hoyito-ii 13,2,1,0,1,5/1,0,1,0,2,22 0-0 S -", "F"),
        (
            "hoyito-ii 1,2,4,3,4,6,15,0,7,1,0,1/5,4,1,5,1,0,7,1,2,1,3,2 8-12 S -",
            "G",
        ),
    ] {
        assert_eq!(refusal(text, token), Illegal::Endless, "{token} at {text}");
        assert!(
            !legal(text).contains(&token.to_owned()),
            "{token} at {text}"
        );
    }
    assert_eq!(MAX_LAPS, 65_536);
    assert_eq!(Rules::default().max_laps(), MAX_LAPS);
}

#[test]
fn c_1_a_sowing_that_ends_on_the_last_lap_allowed_is_legal_one_lap_more_is_not() {
    // No real position is at hand whose sowing ends on lap 65,536 (none that ended took
    // over 919 laps in 26 million sowings), so the cap is lowered through the test-only
    // `Rules::with_max_laps`: South's A here ends on lap 35.
    let text = "hoyito-ii 2,8,4,3,5,4/1,2,1,3,4,3 0-8 S N";
    let a = Move::parse("A", 6).unwrap();
    let (_, report) = after(text, "A");
    assert_eq!(report.laps, 35);
    let real = position(text);
    let with_cap = |laps: u32| {
        let rules = real.rules().with_max_laps(laps);
        Position::from_parts(
            rules,
            real.pits(),
            real.captured(),
            real.to_move(),
            real.last_sower(),
        )
        .unwrap()
    };
    let mut on_the_cap = with_cap(35);
    assert_eq!(on_the_cap.play(a).map(|r| r.laps), Ok(35));
    assert!(with_cap(35).legal_moves().contains(&a));
    let over = with_cap(34);
    assert_eq!(over.check(a).unwrap_err().reason, Illegal::Endless);
    assert!(!over.legal_moves().contains(&a));
    // A cap below the laps where cycle detection starts (8) works the same: South's A at
    // the start ends on lap 5.
    let mut start = Position::start(Rules::new(Variant::HoyitoII));
    assert_eq!(start.play(a).map(|r| r.laps), Ok(5));
    let capped = |laps| Position::start(Rules::new(Variant::HoyitoII).with_max_laps(laps));
    assert!(capped(5).is_legal(a));
    assert_eq!(capped(4).check(a).unwrap_err().reason, Illegal::Endless);
}

#[test]
fn c_1_endless_sowings_cycle_every_60_and_66_laps() {
    // Follow the laps one by one (from the trace of an unchecked replay) and find the
    // period of the (pits, end pit) state, as RULES.md states it.
    fn period(text: &str, token: &str, variant_skips: bool) -> usize {
        let pos = position(text);
        let n = pos.rules().pits_per_row();
        let ring = 2 * n;
        let mut pits = pos.pits().to_vec();
        let Move::Sow(pit) = Move::parse(token, n).unwrap() else {
            unreachable!()
        };
        let mut from = pit.index();
        let mut seen = std::collections::HashMap::new();
        for lap in 0..10_000 {
            let seeds = std::mem::take(&mut pits[from]);
            let mut at = from;
            for _ in 0..seeds {
                at = (at + 1) % ring;
                if variant_skips && at == from {
                    at = (at + 1) % ring;
                }
                pits[at] += 1;
            }
            if let Some(first) = seen.insert((pits.clone(), at), lap) {
                return lap - first;
            }
            from = at;
        }
        panic!("no cycle in 10000 laps");
    }
    assert_eq!(
        period("hoyito-ii 2,1,0,1,3,1/0,2,1,0,1,0 18-18 S -", "E", false),
        60
    );
    assert_eq!(
        period("ayoayo 0,1,0,2,1,0/1,0,1,0,3,2 18-18 N S", "f", true),
        66
    );
}

#[test]
fn c_2_a_player_without_a_sowing_move_passes() {
    let text = "hoyito-ii 0,0,0,0,0,0/1,2,0,0,0,1 22-22 S N";
    assert_eq!(legal(text), ["pass"]);
    assert_eq!(refusal(text, "A"), Illegal::EmptyPit);
    let (pos, report) = after(text, "pass");
    assert_eq!(pos.to_move(), Side::North);
    assert_eq!(pos.pits(), position(text).pits());
    assert_eq!(
        pos.last_sower(),
        Some(Side::North),
        "a pass is not a sowing move"
    );
    assert_eq!(report.laps, 0);
}

#[test]
fn c_2_pass_is_refused_while_a_sowing_move_exists() {
    assert_eq!(
        refusal("hoyito-ii 4,4,4,4,4,4/4,4,4,4,4,4 0-0 S -", "pass"),
        Illegal::CannotPass
    );
}

#[test]
fn c_3_a_recurring_position_ends_the_game_and_the_board_goes_to_nobody() {
    let start = position("hoyito-ii 0,1,1,0,0,0/0,0,0,1,0,1 20-20 S -");
    let mut game = Game::from_position(start);
    for token in ["B", "d", "D", "f", "F"] {
        let report = game.play(game.parse_move(token).unwrap()).unwrap();
        assert_eq!(report.end, None);
    }
    let report = game.play(game.parse_move("b").unwrap()).unwrap();
    assert_eq!(report.end, Some(End::Repetition));
    assert!(game.is_over());
    assert_eq!(
        game.position().pits(),
        start.pits(),
        "the position recurred"
    );
    assert_eq!(
        game.position().seeds_on_board(),
        4,
        "the seeds stay on the board"
    );
    assert_eq!(game.outcome(), Some(Outcome::Draw));
    assert!(game.legal_moves().is_empty());
    let refused = game.play(Move::Pass).unwrap_err();
    assert_eq!(refused.reason, Illegal::GameOver);
    // Undo takes back the ending too.
    game.undo();
    assert!(!game.is_over());
}

#[test]
fn c_3_positions_before_a_capture_cannot_recur() {
    // After a capture the captures differ, so the earlier positions are never compared.
    let mut game = Game::new(Rules::new(Variant::HoyitoII));
    let mut plies = 0;
    while !game.is_over() && plies < 300 {
        let mv = game.legal_moves()[plies % game.legal_moves().len()];
        game.play(mv).unwrap();
        plies += 1;
    }
    assert!(game.is_over());
    if game.end() == Some(End::Repetition) {
        let last = game.position();
        let earlier = (0..game.moves().len())
            .filter_map(|ply| game.position_at(ply))
            .filter(|p| p.repeats(last))
            .count();
        assert_eq!(earlier, 1);
    }
}

#[test]
fn c_4_more_captured_seeds_win_and_equal_is_a_draw() {
    // South takes the penultimate four and the last four: 28-20.
    let (pos, _) = after("hoyito-ii 0,0,0,0,0,1/3,0,0,0,4,0 20-20 S N", "F");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Side::South)));
    let (pos, _) = after("hoyito-ii 0,0,0,0,0,1/3,0,0,0,0,0 16-28 S N", "F");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Side::North)));
    let (pos, _) = after("hoyito-ii 0,0,0,0,0,1/3,0,0,0,0,0 22-22 S N", "F");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Side::South)));
    let (pos, _) = after("hoyito-ii 0,0,0,0,0,1/3,0,0,0,0,0 20-24 S N", "F");
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
}

// ---- Hoyito II ----

#[test]
fn h2_1_four_seeds_in_every_pit_no_stores() {
    let short = Position::start(Rules::new(Variant::HoyitoII));
    assert_eq!(short.pits(), &[4; 12]);
    assert_eq!(short.seeds_on_board(), 48);
    let long = Position::start(Rules::new(Variant::HoyitoII).with_pits(12).unwrap());
    assert_eq!(long.pits(), &[4; 24]);
    assert_eq!(long.seeds_on_board(), 96);
    assert!(Rules::new(Variant::HoyitoIII).with_pits(12).is_err());
    assert!(Rules::new(Variant::Ayoayo).with_pits(12).is_err());
}

#[test]
fn h2_2_the_lifted_pit_is_not_skipped() {
    // 12 seeds from A: one in each other pit, the twelfth back into A, which held none.
    let (pos, report) = after("hoyito-ii 12,0,0,0,0,0/0,0,0,0,0,0 18-18 S -", "A");
    assert_eq!(pos.pits(), &[1; 12]);
    assert_eq!(report.laps, 1);
    assert_eq!(pos.to_move(), Side::North);
}

#[test]
fn h2_2_only_your_own_occupied_pits() {
    let text = "hoyito-ii 0,1,0,0,0,0/1,0,0,0,0,0 23-23 S -";
    assert_eq!(refusal(text, "a"), Illegal::NotYourPit);
    assert_eq!(refusal(text, "A"), Illegal::EmptyPit);
    assert_eq!(legal(text), ["B"]);
}

#[test]
fn h2_3_end_pit_that_was_empty_ends_the_move() {
    let (pos, report) = after("hoyito-ii 0,2,0,0,0,0/1,0,0,0,0,1 22-22 S -", "B");
    assert_eq!(pos.pits(), &[0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 1]);
    assert_eq!((report.laps, report.captured), (1, 0));
}

#[test]
fn h2_3_occupied_end_pit_relays() {
    // B: C, D; D held 1 so its 2 seeds go on to E, F; F was empty.
    let (pos, report) = after("hoyito-ii 0,2,0,1,0,0/1,0,0,0,0,1 22-21 S -", "B");
    assert_eq!(pos.pits(), &[0, 0, 1, 0, 1, 1, 1, 0, 0, 0, 0, 1]);
    assert_eq!(report.laps, 2);
    assert_eq!(pos.to_move(), Side::North);
}

#[test]
fn h2_3_a_relay_chain_crosses_rows_and_wraps_past_pit_zero() {
    // f's 2 seeds go to A, B (wrapping); B held 1, so its 2 go to C, D; D was empty.
    let (pos, report) = after("hoyito-ii 0,1,0,0,0,0/0,0,0,0,1,2 22-22 N -", "f");
    assert_eq!(pos.pits(), &[1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0]);
    assert_eq!(report.laps, 2);
}

#[test]
fn h2_3_end_pit_of_four_is_captured() {
    let (pos, report) = after("hoyito-ii 0,0,0,0,0,1/3,0,0,0,1,1 20-18 S -", "F");
    assert_eq!(report.captured, 4);
    assert_eq!(pos.captured().south, 24);
    assert_eq!(pos.seeds(Pit::new(6)), 0);
}

#[test]
fn h2_4_nothing_is_captured_during_a_lap() {
    // B's 3 seeds make C four on the way; the lap ends in E, which was empty.
    let (pos, report) = after("hoyito-ii 0,3,3,0,0,0/1,0,0,0,0,1 20-20 S -", "B");
    assert_eq!(pos.pits(), &[0, 0, 4, 1, 1, 0, 1, 0, 0, 0, 0, 1]);
    assert_eq!(report.captured, 0);
}

#[test]
fn h2_5_chain_crosses_rows_and_wraps_past_pit_zero() {
    // F's 7 seeds end in A (wrapping past pit 0): A, then f and e (North's row) hold four;
    // d holds three and stops the chain.
    let mut pos = position("hoyito-ii 3,0,0,0,0,7/1,1,1,2,3,3 15-12 S -");
    let mut trace = Vec::new();
    let report = pos
        .play_traced(Move::parse("F", 6).unwrap(), &mut trace)
        .unwrap();
    assert_eq!(report.captured, 12);
    assert_eq!(pos.pits(), &[0, 0, 0, 0, 0, 0, 2, 2, 2, 3, 0, 0]);
    assert_eq!(pos.captured().south, 27);
    let taken: Vec<usize> = trace
        .iter()
        .filter_map(|e| match e {
            Event::Take {
                pit,
                seeds: 4,
                by: Side::South,
                why: TakeReason::Capture,
            } => Some(pit.index()),
            _ => None,
        })
        .collect();
    assert_eq!(
        taken,
        [0, 11, 10],
        "the chain goes backwards along the ring"
    );
}

#[test]
fn h2_5_chain_takes_casas_on_either_row() {
    // C's 5 seeds end in b: b, a (North's) and F, E (South's own) hold four; D stops it.
    let (pos, report) = after("hoyito-ii 0,0,5,0,3,3/3,3,1,1,1,1 15-12 S -", "C");
    assert_eq!(report.captured, 16);
    assert_eq!(pos.pits(), &[0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1]);
}

#[test]
fn h2_5_opponent_rows_option_stops_the_chain_at_your_own_row() {
    let (pos, report) = after(
        "hoyito-ii 0,0,5,0,3,3/3,3,1,1,1,1 15-12 S - casa-rows=opponent",
        "C",
    );
    assert_eq!(report.captured, 8, "b and a only; F is South's own");
    assert_eq!(pos.pits(), &[0, 0, 0, 1, 4, 4, 0, 0, 1, 1, 1, 1]);
}

#[test]
fn h2_5_opponent_rows_option_own_pit_of_four_is_no_casa_and_relays() {
    // The lap ends in A with four, in South's own row: not a casa, so A's seeds relay to
    // B, C, D, E, and E was empty.
    let (pos, report) = after(
        "hoyito-ii 3,0,0,0,0,7/1,1,1,2,3,3 15-12 S - casa-rows=opponent",
        "F",
    );
    assert_eq!(report.captured, 0);
    assert_eq!(report.laps, 2);
    assert_eq!(pos.pits(), &[0, 1, 1, 1, 1, 0, 2, 2, 2, 3, 4, 4]);
    assert_eq!(pos.to_move(), Side::North);
}

#[test]
fn h2_5_chain_on_the_long_board_wraps_past_pit_zero() {
    // 2×12: k's 3 seeds go to l, A and B; B makes four, then A, then l in North's row;
    // k was lifted and stops the chain.
    let text = "hoyito-ii 3,3,2,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,4,3,3 36-42 N -";
    let (pos, report) = after(text, "k");
    assert_eq!(report.captured, 12);
    assert!(report.extra_turn);
    let mut expected = [0; 24];
    expected[2] = 2;
    expected[21] = 4;
    assert_eq!(pos.pits(), &expected);
    assert_eq!(pos.captured().north, 54);
}

#[test]
fn h2_6_a_capture_gives_another_move_for_as_long_as_you_capture() {
    let mut pos = position("hoyito-ii 0,0,0,1,0,1/3,0,3,2,0,1 14-19 S -");
    // F: a makes four and is taken; South again.
    let report = pos.play(Move::parse("F", 6).unwrap()).unwrap();
    assert!(report.extra_turn);
    assert_eq!(pos.to_move(), Side::South);
    // D: E was empty; the move ends without capture and North moves.
    let mut other = pos;
    let report = other.play(Move::parse("D", 6).unwrap()).unwrap();
    assert!(!report.extra_turn);
    assert_eq!(other.to_move(), Side::North);
}

#[test]
fn h2_7_the_capturer_of_the_penultimate_four_takes_the_last_four() {
    let (pos, report) = after("hoyito-ii 0,0,0,0,0,1/3,0,0,0,4,0 20-20 S N", "F");
    assert_eq!(report.end, Some(End::LastFour(Side::South)));
    assert!(pos.is_over());
    assert_eq!(pos.captured().south, 28);
    assert!(pos.legal_moves().is_empty());
}

#[test]
fn h2_7_a_capture_that_clears_the_board_ends_the_game() {
    let (pos, report) = after("hoyito-ii 0,0,0,0,0,1/3,0,0,0,0,0 22-22 S N", "F");
    assert_eq!(report.end, Some(End::BoardCleared));
    assert!(pos.is_over());
    assert!(!report.extra_turn);
}

#[test]
fn h2_8_repetition_compares_pits_and_side_to_move_only() {
    let a = position("hoyito-ii 0,1,1,0,0,0/0,0,0,1,0,1 20-20 S N");
    let b = position("hoyito-ii 0,1,1,0,0,0/0,0,0,1,0,1 20-20 S S");
    let c = position("hoyito-ii 0,1,1,0,0,0/0,0,0,1,0,1 20-20 N N");
    assert!(a.repeats(&b));
    assert!(!a.repeats(&c));
}

// ---- Hoyito III ----

#[test]
fn h3_1_only_the_end_pit_is_captured() {
    let (pos, report) = after("hoyito-iii 3,0,0,0,0,7/1,1,1,2,3,3 15-12 S -", "F");
    assert_eq!(report.captured, 4);
    assert_eq!(pos.pits(), &[0, 0, 0, 0, 0, 0, 2, 2, 2, 3, 4, 4]);
    assert!(report.extra_turn, "a capture still gives another move");
}

#[test]
fn h3_2_a_single_game_gives_the_last_four_to_the_capturer() {
    let (pos, report) = after("hoyito-iii 0,0,0,0,0,1/3,0,0,0,4,0 20-20 S N", "F");
    assert_eq!(report.end, Some(End::LastFour(Side::South)));
    assert_eq!(pos.captured().south, 28);
}

#[test]
fn h3_3_the_last_four_can_go_to_the_previous_rounds_winner() {
    let (pos, report) = after(
        "hoyito-iii 0,0,0,0,0,1/3,0,0,0,4,0 20-20 S N final-four=north",
        "F",
    );
    assert_eq!(report.end, Some(End::LastFour(Side::North)));
    assert_eq!((pos.captured().south, pos.captured().north), (24, 24));
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
}

#[test]
fn h3_3_a_match_alternates_starters_and_hands_the_last_four_on() {
    use sowing::FinalFour;
    let rules = Rules::new(Variant::HoyitoIII);
    let mut m = Match::new(rules, 5);
    // Finish each round the quickest way: a game taken over by an ended position.
    let finish = |south: u8, north: u8, start: &Position| {
        let pos = Position::from_parts(
            start.rules(),
            &[0; 12],
            sowing::BySide::new(south, north),
            start.to_move(),
            None,
        )
        .unwrap();
        Game::from_position(pos)
    };
    let expected = [
        (Side::South, FinalFour::Capturer),
        (Side::North, FinalFour::Capturer),
        (Side::South, FinalFour::To(Side::North)),
        (Side::North, FinalFour::Capturer),
        (Side::South, FinalFour::To(Side::South)),
    ];
    let scores = [(28, 20), (20, 28), (24, 24), (32, 16), (20, 28)];
    for (round, ((starter, final_four), (south, north))) in
        expected.into_iter().zip(scores).enumerate()
    {
        let start = m.next_start().unwrap();
        assert_eq!(start.to_move(), starter, "round {}", round + 1);
        assert_eq!(start.rules().final_four, final_four, "round {}", round + 1);
        m.record(&finish(south, north, &start)).unwrap();
    }
    assert!(m.next_start().is_none());
    // Two rounds each, one drawn; seeds 124-116: South wins on seeds.
    assert_eq!(m.wins(), sowing::BySide::new(2, 2));
    assert_eq!(m.outcome(), Some(Outcome::Win(Side::South)));
}

#[test]
fn h3_4_who_receives_the_last_four_is_part_of_the_position() {
    let a = position("hoyito-iii 0,1,1,0,0,0/0,0,0,1,0,1 20-20 S - final-four=north");
    let b = position("hoyito-iii 0,1,1,0,0,0/0,0,0,1,0,1 20-20 S -");
    assert!(!a.repeats(&b));
    assert_eq!(
        a.to_string(),
        "hoyito-iii 0,1,1,0,0,0/0,0,0,1,0,1 20-20 S - final-four=north"
    );
}

// ---- Ayoayo ----

#[test]
fn a_1_four_seeds_a_pit_and_empty_stores() {
    let start = Position::start(Rules::new(Variant::Ayoayo));
    assert_eq!(start.pits(), &[4; 12]);
    assert_eq!((start.captured().south, start.captured().north), (0, 0));
}

#[test]
fn a_2_every_lap_skips_the_pit_it_was_lifted_from() {
    // A's 12 seeds: b..l get one, A is skipped, B gets the twelfth and relays; the relays
    // run B→D→F→b→d→f, and f's seeds go to A and B, B being empty: a capture of e's two.
    let mut pos = position("ayoayo 12,0,0,0,0,0/0,0,0,0,0,0 18-18 S -");
    let mut trace = Vec::new();
    let report = pos
        .play_traced(Move::parse("A", 6).unwrap(), &mut trace)
        .unwrap();
    assert_eq!(report.laps, 7);
    assert_eq!(trace[12], Event::Skip { pit: Pit::new(0) });
    assert_eq!(trace[13], Event::Drop { pit: Pit::new(1) });
    assert_eq!(report.captured, 3);
    assert_eq!(pos.pits(), &[1, 0, 2, 0, 2, 0, 2, 0, 2, 0, 0, 0]);
    assert_eq!(pos.captured().south, 21);
}

#[test]
fn a_3_occupied_end_pit_relays_and_empty_one_ends() {
    // b: c, d; d held one so its two go to e, f; f was empty, in North's own row, so A's
    // seed across is captured with f's.
    let (pos, report) = after("ayoayo 1,0,0,0,0,1/0,2,0,1,0,0 20-20 N S", "b");
    assert_eq!(report.laps, 2);
    assert_eq!(pos.pits(), &[0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0]);
    assert_eq!(report.captured, 2);
}

#[test]
fn a_4_ending_in_your_own_empty_pit_captures_across() {
    // D → E, which was empty; across from E (pit 4) is pit 2N−1−4 = 7, b.
    let (pos, report) = after("ayoayo 1,0,0,1,0,0/3,0,0,0,2,0 18-18 S N", "D");
    assert_eq!(report.captured, 0, "b is empty: nothing is captured");
    assert_eq!(pos.seeds(Pit::new(4)), 1);
    let (pos, report) = after("ayoayo 1,0,0,1,0,0/3,2,0,0,0,0 18-18 S N", "D");
    assert_eq!(report.captured, 3, "b's two and the capturing seed");
    assert_eq!(pos.captured().south, 21);
    assert_eq!(pos.seeds(Pit::new(4)), 0);
}

#[test]
fn a_5_a_capture_that_empties_your_own_row_can_end_the_game() {
    // D → E captures b; South's row is empty and North's a cannot reach it: the seeds
    // left go to the last sower, South.
    let (pos, report) = after("ayoayo 0,0,0,1,0,0/3,2,0,0,0,0 18-18 S N", "D");
    assert_eq!(report.end, Some(End::CannotFeed));
    assert_eq!(pos.captured().south, 24);
}

#[test]
fn a_4_ending_in_the_opponents_row_captures_nothing() {
    let (pos, report) = after("ayoayo 0,0,0,0,0,1/0,0,0,0,0,3 18-18 S N", "F");
    assert_eq!(report.captured, 0);
    assert_eq!(pos.seeds(Pit::new(6)), 1);
}

#[test]
fn a_5_you_must_feed_an_empty_row() {
    let text = "ayoayo 1,0,0,0,0,2/0,0,0,0,0,0 22-23 S N";
    assert_eq!(legal(text), ["F"]);
    assert_eq!(refusal(text, "A"), Illegal::DoesNotFeed);
}

#[test]
fn a_6_an_empty_row_passes_and_the_opponent_must_feed() {
    let text = "ayoayo 0,0,0,0,0,2/0,0,0,0,0,0 23-23 N S";
    assert_eq!(legal(text), ["pass"]);
    let (pos, _) = after(text, "pass");
    assert_eq!(pos.to_move(), Side::South);
    assert_eq!(pos.legal_moves().len(), 1);
    assert!(!pos.is_over());
}

#[test]
fn a_6_after_a_pass_a_player_who_cannot_feed_ends_the_game() {
    let (pos, report) = after("ayoayo 0,0,0,2,0,0/0,0,0,0,0,0 23-23 N S", "pass");
    assert_eq!(report.end, Some(End::CannotFeed));
    assert!(pos.is_over());
    assert_eq!(
        pos.captured().south,
        25,
        "the last sower, South, takes what is left"
    );
}

#[test]
fn a_7_leftover_goes_to_last_sower() {
    // F relays through a to b, c: South's row is empty and North cannot feed it.
    let (pos, report) = after("ayoayo 0,0,0,0,0,1/1,0,0,0,0,0 23-23 S N", "F");
    assert_eq!(report.end, Some(End::CannotFeed));
    assert_eq!((pos.captured().south, pos.captured().north), (25, 23));
    assert_eq!(pos.outcome(), Some(Outcome::Win(Side::South)));
}

#[test]
fn a_7_leftover_goes_to_holder() {
    let (pos, report) = after(
        "ayoayo 0,0,0,0,0,1/1,0,0,0,0,0 23-23 S N leftover=holder",
        "F",
    );
    assert_eq!(report.end, Some(End::CannotFeed));
    assert_eq!((pos.captured().south, pos.captured().north), (23, 25));
    assert_eq!(pos.outcome(), Some(Outcome::Win(Side::North)));
}

#[test]
fn a_7_a_capture_that_empties_the_board_ends_the_game() {
    let (pos, report) = after("ayoayo 0,0,0,0,1,0/3,0,0,0,0,0 20-24 S N", "E");
    assert_eq!(report.end, Some(End::BoardCleared));
    assert_eq!(pos.captured().south, 24);
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
}

#[test]
fn a_8_the_last_sower_is_part_of_the_position() {
    let a = position("ayoayo 0,1,1,0,0,0/0,0,0,1,0,1 20-20 S N");
    let b = position("ayoayo 0,1,1,0,0,0/0,0,0,1,0,1 20-20 S S");
    assert!(!a.repeats(&b));
    assert_ne!(a.hash(), b.hash());
}

#[test]
fn options_a_game_does_not_have_are_ignored() {
    let mut odd = Rules::new(Variant::HoyitoII);
    odd.final_four = sowing::FinalFour::To(Side::North);
    odd.leftover = sowing::Leftover::Holder;
    assert_eq!(
        Position::start(odd),
        Position::start(Rules::new(Variant::HoyitoII))
    );
    let mut odd = Rules::new(Variant::Ayoayo);
    odd.casa_rows = sowing::CasaRows::Opponent;
    let start = Position::start(odd);
    assert_eq!(start.to_string().parse::<Position>(), Ok(start));
}
