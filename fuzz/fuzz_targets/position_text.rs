//! The position text parser: never panics, and what it accepts writes back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sowing::Position;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(position) = text.parse::<Position>() {
        assert_eq!(position.to_string().parse::<Position>(), Ok(position));
    }
});
