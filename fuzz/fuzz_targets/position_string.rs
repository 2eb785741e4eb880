//! Any bytes as a position string: parse must return, never panic, and
//! what it accepts must print back to an equal position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pasang::notation::{format_position, parse_position};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(position) = parse_position(&text) {
        let printed = format_position(&position);
        let again = parse_position(&printed).expect("printed positions parse");
        assert_eq!(again, position);
    }
});
