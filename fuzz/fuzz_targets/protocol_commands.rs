//! Any bytes as protocol input lines: the command parser must return, and
//! a whole session on them (searches capped by the input's own limits)
//! must end without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pasang::protocol::Command;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for line in text.lines() {
        let _ = line.parse::<Command>();
    }
});
