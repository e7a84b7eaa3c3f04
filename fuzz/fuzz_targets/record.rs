//! The game record parser: never panics, and what it accepts round-trips.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sowing::Record;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(record) = Record::parse(text) {
        assert_eq!(Record::parse(&record.to_string()).as_ref(), Ok(&record));
    }
});
