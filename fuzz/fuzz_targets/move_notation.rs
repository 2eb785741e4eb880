//! Any bytes as a move in positions from every phase: parse must return,
//! and an accepted move must be legal and print canonically.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pasang::movegen::legal_moves;
use pasang::notation::{parse_move, parse_position};
use pasang::rules::{Pattern, Rules};

const POSITIONS: &[&str] = &[
    "wwwwwbbbb.w/bwwwwbbbb.w/bbwwwbbbw.w/bb.wwbbww.w/..S.wb....N/bb.bb+bbbb./ww.wwbwbbb./w..wbbwwbb./ww.bbbwwwb./ww.bbbwwww./wb.bbbwwwww s 14 20 cj",
    "wwwwwbbbb.w/bwwwwbbbb.w/bbwwwbbbw.w/bbbwwbbww.w/bbbbwbwww.w/bbbbb+bbbbb/ww.wwbwbbbb/ww.wbbwwbbb/ww.bbbwwwbb/ww.bbbwwwwb/wb.bbbwwwww s 8 9 cj",
];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let rules = Rules::default();
    let start = parse_position(&Pattern::One.start_position_string()).unwrap();
    let mut positions = vec![start];
    positions.extend(POSITIONS.iter().map(|fen| parse_position(fen).unwrap()));
    for position in &positions {
        if let Ok(mv) = parse_move(position, &rules, &text) {
            assert!(legal_moves(position, &rules).contains(mv));
            assert_eq!(parse_move(position, &rules, &mv.to_string()), Ok(mv));
        }
    }
});
