//! `Position::sow_columns_batch`, the interleaved sowing of many positions' moves, against
//! `Position::successors` and the traced sowing (the general loop alone) over random
//! batches of random positions: every game and option, 2×6 and 2×12, pits of a whole turn
//! of seeds or more, lap caps on either side of where the fast laps hand over (C.1), batches
//! longer than a block, and some positions of another game mixed in.

mod common;

use common::all_rules;
use proptest::prelude::*;
use sowing::{BySide, Columns, Move, Pit, Position, Rules, Side, MAX_LAPS};

/// Caps below, at and past the 8 fast laps, and the rules' own.
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

/// A random position of `rules` with lap cap `CAPS[cap]`, or `None` past the seed limit.
fn position(rules: Rules, cap: usize, counts: &[u8], south: bool) -> Option<Position> {
    let pits: Vec<u8> = counts[..rules.pit_count()]
        .iter()
        .map(|&c| seeds(c))
        .collect();
    if pits.iter().map(|&s| usize::from(s)).sum::<usize>() > Position::MAX_SEEDS {
        return None;
    }
    let side = if south { Side::South } else { Side::North };
    Position::from_parts(
        rules.with_max_laps(CAPS[cap]),
        &pits,
        BySide::default(),
        side,
        None,
    )
    .ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn batch_agrees_with_successors_and_the_traced_sowing(
        rules in 0..all_rules().len(),
        games in proptest::collection::vec(
            (0..CAPS.len(), proptest::collection::vec(any::<u8>(), 24), any::<bool>(), 0..12u8),
            1..80,
        ),
    ) {
        let all = all_rules();
        let mut slots: Vec<Columns> = games
            .iter()
            .filter_map(|(cap, counts, south, other)| {
                // One position in twelve of another game or board.
                let rules = if *other == 0 { all[(rules + 1) % all.len()] } else { all[rules] };
                position(rules, *cap, counts, *south)
            })
            .map(Columns::new)
            .collect();
        Position::sow_columns_batch(&mut slots);
        for slot in &slots {
            let start = slot.position;
            let n = start.rules().pits_per_row();
            let mut bits = 0u16;
            for (mv, after) in start.successors() {
                if let Move::Sow(pit) = mv {
                    let column = pit.index() % n;
                    bits |= 1 << column;
                    prop_assert_eq!(slot.next[column], after, "column {} at {}", column, start);
                    prop_assert_eq!(after.hash(), after.compute_hash());
                }
            }
            prop_assert_eq!(slot.legal, bits, "legal columns at {}", start);
            for column in 0..n {
                let mut traced = start;
                let pit = Pit::of(start.to_move(), column, n);
                let result = traced.play_traced(Move::Sow(pit), &mut Vec::new());
                prop_assert_eq!((slot.legal >> column) & 1 == 1, result.is_ok(), "{} at {}", column, start);
                if result.is_ok() {
                    prop_assert_eq!(slot.next[column], traced, "{} at {}", column, start);
                }
            }
        }
    }
}
