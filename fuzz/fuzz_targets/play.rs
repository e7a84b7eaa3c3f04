//! Playing any bytes as moves from any position: no panics, seeds conserved, refused moves
//! change nothing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sowing::{Game, Move, Pit, Position, Rules, Variant};

fuzz_target!(|data: &[u8]| {
    let Some((&first, moves)) = data.split_first() else {
        return;
    };
    let variant = Variant::ALL[usize::from(first % 3)];
    let pits = if first & 4 != 0 && variant == Variant::HoyitoII { 12 } else { 6 };
    let rules = Rules::new(variant).with_pits(pits).unwrap();
    let mut game = Game::new(rules);
    let total = rules.total_seeds();
    for &byte in moves {
        let mv = if usize::from(byte) >= rules.pit_count() {
            Move::Pass
        } else {
            Move::Sow(Pit::new(byte.into()))
        };
        let before = game.clone();
        if game.play(mv).is_err() {
            assert_eq!(game, before);
        }
        let position: &Position = game.position();
        let seeds = position.seeds_on_board()
            + usize::from(position.captured().south)
            + usize::from(position.captured().north);
        assert_eq!(seeds, total);
    }
});
