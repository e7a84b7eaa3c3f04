//! The untraced sowing's fast lap loop (laps of fewer seeds than a turn, before
//! endless-sowing detection, below the C.1 cap) against the general loop, which a traced
//! move runs alone: the same position, report or refusal for every pit of random positions
//! of every game and board, with pits of a whole turn of seeds or more, and lap caps on
//! either side of where the fast loop hands over. `sow_columns` (the Python package's
//! `VecGame`) agrees with them too.

mod common;

use common::all_rules;
use proptest::prelude::*;
use sowing::{BySide, Move, Pit, Position, Rules, Side, MAX_LAPS};

/// Caps below, at and past the 8 laps the fast loop may take, and the rules' own.
const CAPS: [u32; 8] = [1, 2, 3, 7, 8, 9, 12, MAX_LAPS];

/// A pit count from a random byte: small counts mostly, so that sowings relay, and some
/// of 25 to 40 seeds, a turn of either ring or more.
fn seeds(byte: u8) -> u8 {
    match byte {
        0..=199 => byte % 6,
        200..=239 => byte % 13,
        _ => byte - 215,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn fast_laps_agree_with_the_traced_sowing(
        rules in 0..all_rules().len(),
        cap in 0..CAPS.len(),
        counts in proptest::collection::vec(any::<u8>(), 24),
        south in any::<bool>(),
    ) {
        let rules = all_rules()[rules];
        let pits: Vec<u8> = counts[..rules.pit_count()].iter().map(|&c| seeds(c)).collect();
        prop_assume!(pits.iter().map(|&s| usize::from(s)).sum::<usize>() <= Position::MAX_SEEDS);
        let side = if south { Side::South } else { Side::North };
        let start = Position::from_parts(rules.with_max_laps(CAPS[cap]), &pits, BySide::default(), side, None)
            .expect("a valid position");
        let n = rules.pits_per_row();
        let mut next = [start; Rules::MAX_PITS_PER_ROW];
        let legal = start.sow_columns(u16::MAX, &mut next);
        for pit in (0..rules.pit_count()).map(Pit::new) {
            let mut fast = start;
            let mut traced = start;
            let fast_result = fast.play(Move::Sow(pit));
            let traced_result = traced.play_traced(Move::Sow(pit), &mut Vec::new());
            prop_assert_eq!(&fast_result, &traced_result, "{} at {}", pit.index(), start);
            prop_assert_eq!(fast, traced, "{} at {}", pit.index(), start);
            prop_assert_eq!(fast.hash(), fast.compute_hash());
            if pit.owner(n) == start.to_move() {
                let column = pit.index() % n;
                prop_assert_eq!((legal >> column) & 1 == 1, fast_result.is_ok());
                if fast_result.is_ok() {
                    prop_assert_eq!(next[column], fast);
                }
            }
        }
    }
}
