//! Every perft figure of RULES.md: three independent implementations agree
//! on them, so any difference is a move-generation bug.
//!
//! Depth 9 (pattern 1) runs in release builds (under a second) and is
//! ignored in debug builds; depth 10 is always ignored: run it with
//! `cargo test --release --test perft -- --ignored`.

use pasang::notation::parse_position;
use pasang::perft::{divide, perft};
use pasang::rules::{Centre, KaEntry, Pattern, Rules, SecondColumn};

/// Checks `perft` at depths 1, 2, ... against `expected`.
fn check(rules: Rules, expected: &[u64]) {
    let start = parse_position(&rules.pattern.start_position_string()).unwrap();
    for (depth, &count) in (1..).zip(expected) {
        assert_eq!(
            perft(&start, &rules, depth),
            count,
            "perft({depth}) under {rules:?}"
        );
    }
}

#[test]
fn pattern_one_defaults() {
    check(Rules::default(), &[11, 60, 850, 12912, 60078, 269139]);
}

#[test]
fn pattern_two_defaults() {
    let rules = Rules {
        pattern: Pattern::Two,
        ..Rules::default()
    };
    check(rules, &[11, 60, 800, 10782, 75476, 552070]);
}

#[test]
fn pattern_one_ka_entry_jump() {
    let rules = Rules {
        ka_entry: KaEntry::Jump,
        ..Rules::default()
    };
    check(rules, &[11, 60, 745, 9680, 39836, 155494]);
}

#[test]
fn pattern_one_ka_entry_both() {
    let rules = Rules {
        ka_entry: KaEntry::Both,
        ..Rules::default()
    };
    check(rules, &[11, 60, 1595, 44956, 197847, 833291]);
}

#[test]
fn pattern_one_second_column_any() {
    let rules = Rules {
        second_column: SecondColumn::Any,
        ..Rules::default()
    };
    check(rules, &[11, 110, 1620, 22744, 107778, 506692]);
}

#[test]
fn pattern_one_centre_open() {
    let rules = Rules {
        centre: Centre::Open,
        ..Rules::default()
    };
    check(rules, &[11, 60, 950, 14072, 74350, 370634]);
}

#[test]
fn pattern_one_depths_seven_and_eight() {
    let rules = Rules::default();
    let start = parse_position(&rules.pattern.start_position_string()).unwrap();
    assert_eq!(perft(&start, &rules, 7), 1_232_468);
    assert_eq!(perft(&start, &rules, 8), 5_649_268);
}

/// Fast in release builds; slow in debug ones.
#[test]
#[cfg_attr(debug_assertions, ignore = "slow in debug builds")]
fn pattern_one_depth_nine() {
    let rules = Rules::default();
    let start = parse_position(&rules.pattern.start_position_string()).unwrap();
    assert_eq!(perft(&start, &rules, 9), 26_178_651);
}

/// Slower still: `cargo test --release --test perft -- --ignored`.
#[test]
#[ignore = "slow; run with `cargo test --release --test perft -- --ignored`"]
fn pattern_one_depth_ten() {
    let rules = Rules::default();
    let start = parse_position(&rules.pattern.start_position_string()).unwrap();
    assert_eq!(perft(&start, &rules, 10), 123_783_420);
}

#[test]
fn divide_sums_to_perft_sequentially_and_in_parallel() {
    // The CLI's `perft` prints `divide`; its parts must add up, in the
    // same order either way.
    let rules = Rules::default();
    let start = parse_position(&rules.pattern.start_position_string()).unwrap();
    let sequential = divide(&start, &rules, 5, false);
    let parallel = divide(&start, &rules, 5, true);
    assert_eq!(sequential, parallel);
    assert_eq!(sequential.len(), 11);
    assert_eq!(
        sequential.iter().map(|(_, count)| count).sum::<u64>(),
        60078
    );
    assert!(divide(&start, &rules, 0, false).is_empty());
}
