//! The JSON state reader: never panics, for every game's options.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sowing::{Rules, State, Variant};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(state) = State::from_json(text) {
        for variant in Variant::ALL {
            if let Ok(game) = state.to_game(Rules::new(variant)) {
                let _ = State::of(&game).to_json();
            }
        }
    }
});
