//! The subtleties of RULES.md, one hand-made position each.
//!
//! Boards are written as the `<ranks>` field of a position string split at
//! its `/`, one rank per line from rank 11 down to rank 1 (file `a` on the
//! left), so each test draws its own board; the comments point at what
//! matters. Expected move sets were worked out from the rule book by hand.

use pasang::movegen::{count_moves, legal_moves};
use pasang::notation::{MoveError, PositionError, format_position, parse_move, parse_position};
use pasang::outcome::{Reason, Status};
use pasang::position::{Colour, PartsError, Player, Position};
use pasang::rules::{Centre, KaEntry, OptionSpelling, Pattern, Rules, SecondColumn, rules_from};

// ---------------------------------------------------------------------------
// Helpers

/// The position whose board is `ranks` (rank 11 first) and whose other
/// fields are `rest`, e.g. `"s 0 0 cj"`.
fn position(ranks: [&str; 11], rest: &str) -> Position {
    let text = format!("{} {rest}", ranks.join("/"));
    parse_position(&text).unwrap_or_else(|error| panic!("{text}: {error}"))
}

/// The legal moves in canonical notation, sorted.
fn moves(position: &Position, rules: &Rules) -> Vec<String> {
    let mut moves: Vec<String> = legal_moves(position, rules)
        .iter()
        .map(ToString::to_string)
        .collect();
    moves.sort();
    assert_eq!(
        count_moves(position, rules),
        moves.len() as u64,
        "count_moves disagrees with legal_moves in {position:?}"
    );
    moves
}

/// `expected` as a sorted vector of owned strings.
fn sorted(expected: &[&str]) -> Vec<String> {
    let mut expected: Vec<String> = expected.iter().map(ToString::to_string).collect();
    expected.sort();
    expected
}

/// `position` after the move written `text`, which must parse.
fn play(position: &Position, rules: &Rules, text: &str) -> Position {
    let mv = parse_move(position, rules, text)
        .unwrap_or_else(|error| panic!("{text} in {position:?}: {error}"));
    position.play(mv)
}

/// Why `text`, well-formed, is no legal move of `position`; fails if it is
/// legal or malformed.
fn illegal(position: &Position, rules: &Rules, text: &str) -> String {
    match parse_move(position, rules, text) {
        Err(MoveError::Illegal { reason, .. }) => reason,
        other => panic!("{text} in {position:?}: expected an illegal move, got {other:?}"),
    }
}

fn rules_with(ka_entry: KaEntry, second_column: SecondColumn, centre: Centre) -> Rules {
    Rules {
        pattern: Pattern::One,
        ka_entry,
        second_column,
        centre,
    }
}

fn centre(centre: Centre) -> Rules {
    Rules {
        centre,
        ..Rules::default()
    }
}

fn ka_entry(ka_entry: KaEntry) -> Rules {
    Rules {
        ka_entry,
        ..Rules::default()
    }
}

fn start(pattern: Pattern) -> Position {
    parse_position(&pattern.start_position_string()).expect("built-in layouts parse")
}

/// A tiny deterministic generator (xorshift64*), so the random walks are
/// reproducible without depending on any crate's RNG API.
struct Xorshift(u64);

impl Xorshift {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as usize % bound
    }
}

fn all_rules() -> Vec<Rules> {
    let mut all = Vec::new();
    for pattern in [Pattern::One, Pattern::Two] {
        for ka_entry in [KaEntry::Slide, KaEntry::Jump, KaEntry::Both] {
            for second_column in [SecondColumn::Opposite, SecondColumn::Any] {
                for centre in [Centre::Wall, Centre::Open] {
                    all.push(Rules {
                        pattern,
                        ka_entry,
                        second_column,
                        centre,
                    });
                }
            }
        }
    }
    all
}

// ---------------------------------------------------------------------------
// The worked opening

#[test]
fn worked_opening_matches_the_rule_book() {
    let rules = Rules::default();
    let mut position = start(Pattern::One);
    assert_eq!(
        format_position(&position),
        "wwwwwbbbbbw/bwwwwbbbbww/bbwwwbbbwww/bbbwwbbwwww/bbbbwbwwwww/bbbbb+bbbbb/\
         wwwwwbwbbbb/wwwwbbwwbbb/wwwbbbwwwbb/wwbbbbwwwwb/wbbbbbwwwww s 0 0 --"
    );
    let steps = [
        ("c", 8, 0),
        ("j", 8, 9),
        ("b4c4n", 11, 9),
        ("k7j7w", 11, 15),
        ("c4c7ew", 14, 15),
        ("j7k7s", 14, 20),
    ];
    for (text, south, north) in steps {
        let mv = parse_move(&position, &rules, text).unwrap();
        assert_eq!(mv.to_string(), text, "canonical form of {text}");
        position = position.play(mv);
        assert_eq!(
            (position.score(Player::South), position.score(Player::North)),
            (south, north),
            "scores after {text}"
        );
    }
    assert_eq!(
        format_position(&position),
        "wwwwwbbbb.w/bwwwwbbbb.w/bbwwwbbbw.w/bb.wwbbww.w/..S.wb....N/bb.bb+bbbb./\
         ww.wwbwbbb./w..wbbwwbb./ww.bbbwwwb./ww.bbbwwww./wb.bbbwwwww s 14 20 cj"
    );
    assert_eq!(Status::of(&position, &rules), Status::InPlay);
}

// ---------------------------------------------------------------------------
// Capture lines

#[test]
fn same_colour_runs_on_both_sides_form_one_line_taken_whole() {
    // RULES' example `w . w K . w b` on rank 3: the South ka at d1 can only
    // go to d2 (empty rank) or d3, where a3 c3 | f3 are one line of three
    // whites (g3 ends it). Only the whole line may be taken: `ew`.
    let rules = Rules::default();
    let before = position(
        [
            "..........N", // 11
            "...........", // 10
            "...........", // 9
            "...........", // 8
            "...........", // 7
            ".....+.....", // 6
            "...........", // 5
            "...b.......", // 4   d4 stops the ka
            "w.w..wb....", // 3   w . w K . w b
            "...........", // 2
            "..bSb......", // 1   c1 e1 box the ka into file d
        ],
        "s 0 0 cj",
    );
    assert_eq!(moves(&before, &rules), sorted(&["d1d3ew"]));
    for part in ["d1d3e", "d1d3w"] {
        assert_eq!(
            illegal(&before, &rules, part),
            "no capturable line in those directions from d3"
        );
    }
    let after = play(&before, &rules, "d1d3ew");
    assert_eq!(
        format_position(&after),
        "..........N/.........../.........../.........../.........../.....+...../\
         .........../...b......./...S..b..../.........../..b.b...... n 6 0 cj"
    );

    // Along a file the same rule gives `ns`: b3 b2 below and b7 above are
    // three whites, ended by b1 and b8.
    let before = position(
        [
            "..........N", // 11
            "...........", // 10
            "...........", // 9
            ".b.........", // 8   b8 ends the north run
            ".w.........", // 7
            "b....+.....", // 6   a6 stops the ka
            "S..w.......", // 5   the ka can reach b5 and c5 only
            "b..........", // 4   a4 stops the ka
            ".w.........", // 3
            ".w.........", // 2
            ".b.........", // 1   b1 ends the south run
        ],
        "s 0 0 cj",
    );
    assert_eq!(moves(&before, &rules), sorted(&["a5b5ns"]));
    let after = play(&before, &rules, "a5b5ns");
    assert_eq!(after.score(Player::South), 6);
    assert_eq!(
        format_position(&after),
        "..........N/.........../.........../.b........./.........../b....+...../\
         .S.w......./b........../.........../.........../.b......... n 6 0 cj"
    );
}

#[test]
fn even_line_is_not_capturable_and_one_sided_line_prints_one_direction() {
    // RULES' example `w w K b` on rank 3 (then `. w`): b3 c3 are two whites
    // (even, not capturable), e3 is one black, ended by g3: `e` only.
    let rules = Rules::default();
    let before = position(
        [
            "..........N", // 11
            "...........", // 10
            "...........", // 9
            "...........", // 8
            "...........", // 7
            ".....+.....", // 6
            "...........", // 5
            "...b.......", // 4
            ".ww.b.w....", // 3   . w w K b . w
            "...........", // 2
            "..bSb......", // 1
        ],
        "s 0 0 cj",
    );
    assert_eq!(moves(&before, &rules), sorted(&["d1d3e"]));
    let after = play(&before, &rules, "d1d3e");
    assert_eq!(after.score(Player::South), 1);
    assert_eq!(
        format_position(&after).split('/').nth(8),
        Some(".wwS..w....")
    );
}

#[test]
fn different_colours_on_each_side_are_two_lines() {
    // c3 is one white, e3 one black: two lines, each capturable alone.
    let rules = Rules::default();
    let before = ambiguous_position();
    assert_eq!(moves(&before, &rules), sorted(&["d1d3e", "d1d3w"]));
    let took_white = play(&before, &rules, "d1d3w");
    assert_eq!(took_white.score(Player::South), 2);
    assert_eq!(took_white.stone_at(square("e3")), Some(Colour::Black));
    let took_black = play(&before, &rules, "d1d3e");
    assert_eq!(took_black.score(Player::South), 1);
    assert_eq!(took_black.stone_at(square("c3")), Some(Colour::White));
}

/// South's ka at d1 reaches d3, where c3 (white) and e3 (black) are two
/// separate lines: two moves share origin and landing point.
fn ambiguous_position() -> Position {
    position(
        [
            "..........N", // 11
            "...........", // 10
            "...........", // 9
            "...........", // 8
            "...........", // 7
            ".....+.....", // 6
            "...........", // 5
            "...b.......", // 4
            "..w.b......", // 3   . . w K b
            "...........", // 2
            "..bSb......", // 1
        ],
        "s 0 0 cj",
    )
}

fn square(name: &str) -> pasang::bitboard::Square {
    pasang::bitboard::Square::all()
        .find(|square| square.to_string() == name)
        .unwrap_or_else(|| panic!("no point {name}"))
}

// ---------------------------------------------------------------------------
// The other ka

/// The move-set cases of tests/data/rules/moves.txt (its head says the
/// format): the legal moves of each position under its rules.
#[test]
fn move_set_cases() {
    let cases = include_str!("data/rules/moves.txt");
    let mut count = 0;
    for (number, line) in cases.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("moves.txt:{}", number + 1);
        let [text, options, expected] = line.split(" | ").collect::<Vec<_>>()[..] else {
            panic!("{at}: not a case: {line}");
        };
        let position = accepted(text);
        let options: Vec<(&str, &str)> = match options {
            "default" => Vec::new(),
            options => options
                .split_whitespace()
                .map(|option| option.split_once('=').expect("NAME=VALUE"))
                .collect(),
        };
        let rules = rules_from(options, OptionSpelling::Field)
            .unwrap_or_else(|error| panic!("{at}: {error}"));
        let expected: Vec<&str> = match expected {
            "-" => Vec::new(),
            moves => moves.split_whitespace().collect(),
        };
        assert_eq!(moves(&position, &rules), sorted(&expected), "{at}");
        count += 1;
    }
    // Every case that the tests written out in code checked before.
    assert_eq!(count, 13, "cases read");
}

#[test]
fn hole_blocks_the_ka_under_wall_and_is_passed_over_but_never_stopped_on_under_open() {
    // Along file f: the ka on f4 reaches f5 only under `wall`; under `open`
    // it also reaches f7 and f8, but not f6 (e6 would be taken there).
    let along_file = position(
        [
            "..........N", // 11
            "...........", // 10
            ".....b.....", // 9   f9 stops the ka
            "w..........", // 8   taken from f8
            "......b....", // 7   taken from f7
            "....w+.....", // 6   taken from f6, were it a stop
            "....w......", // 5   taken from f5
            "....bSb....", // 4
            ".....b.....", // 3
            "...........", // 2
            "...........", // 1
        ],
        "s 0 0 cj",
    );
    assert_eq!(
        moves(&along_file, &centre(Centre::Wall)),
        sorted(&["f4f5w"])
    );
    assert_eq!(
        moves(&along_file, &centre(Centre::Open)),
        sorted(&["f4f5w", "f4f7e", "f4f8w"])
    );

    // Along rank 6: the ka on d6 reaches e6 only under `wall`; under `open`
    // it also reaches g6 and h6.
    let along_rank = position(
        [
            "..........N", // 11
            "...........", // 10
            "...........", // 9
            "...........", // 8
            "...bw.b....", // 7   e7 and g7 are taken from e6 and g6
            "..bS.+..b..", // 6   c6 and i6 stop the ka
            "...b...w...", // 5   h5 is taken from h6
            "...........", // 4
            "...........", // 3
            "...........", // 2
            "...........", // 1
        ],
        "s 0 0 cj",
    );
    assert_eq!(
        moves(&along_rank, &centre(Centre::Wall)),
        sorted(&["d6e6n"])
    );
    assert_eq!(
        moves(&along_rank, &centre(Centre::Open)),
        sorted(&["d6e6n", "d6g6n", "d6h6s"])
    );
}

#[test]
fn ka_entry_on_the_centre_file_respects_the_hole() {
    // South's passage is f; entering at f5 from e5 looks north along file
    // f: f7 is the only white under `open`, nothing under `wall`.
    let before = position(
        [
            "...........", // 11
            "...........", // 10
            "...........", // 9
            ".....b.....", // 8
            ".....w.....", // 7
            ".....+.....", // 6
            "....b......", // 5   e5 slides into f5 (taking nothing on rank 5)
            "...........", // 4
            "...........", // 3
            "...........", // 2
            "...........", // 1
        ],
        "s 0 0 fa",
    );
    assert_eq!(moves(&before, &centre(Centre::Wall)), sorted(&[]));
    assert_eq!(moves(&before, &centre(Centre::Open)), sorted(&["e5f5n"]));
}

// ---------------------------------------------------------------------------
// Phase 2: entering the ka

/// North to move in phase 2 with passage i (ranks 7-11 of file i empty).
/// Rank 10 has h10 w, j10 b, k10 w; k9 could only jump over South's ka on
/// j9; k8 could only jump over the empty j8. i3 is a white on file i, so
/// every entry at i10 may also take it (`s`).
fn entry_position() -> Position {
    position(
        [
            "...........", // 11
            ".......w.bw", // 10  . h10 w | i10 | j10 b  k10 w
            ".........Sw", // 9   k9 cannot jump a ka
            "..........w", // 8   k8 cannot jump an empty point
            "...........", // 7
            ".....+.....", // 6
            "...........", // 5
            "...........", // 4
            "........w..", // 3   i3: the file run south of i10
            "...........", // 2
            "...........", // 1
        ],
        "n 0 0 ci",
    )
}

#[test]
fn slide_entry_steps_one_point_sideways() {
    // h10 -> i10: east j10 is one black (k10 ends it).
    // j10 -> i10: h10 and k10 are one line of two whites: nothing.
    let before = entry_position();
    let rules = ka_entry(KaEntry::Slide);
    assert_eq!(
        moves(&before, &rules),
        sorted(&["h10i10e", "h10i10s", "j10i10s"])
    );
    // The picked stone (white h10) leaves unscored; j10 (black) scores 1.
    let after = play(&before, &rules, "h10i10e");
    assert_eq!(after.score(Player::North), 1);
    assert_eq!(
        format_position(&after).split('/').nth(1),
        Some("........N.w")
    );
    assert_eq!(after.ka(Player::North), Some(square("i10")));
}

#[test]
fn jump_entry_needs_a_stone_to_jump_over() {
    // k10 jumps over j10 (which stays): h10 and j10 are now lines of one.
    // k9 (over South's ka) and k8 (over an empty point) cannot jump.
    let before = entry_position();
    let rules = ka_entry(KaEntry::Jump);
    assert_eq!(
        moves(&before, &rules),
        sorted(&["k10i10e", "k10i10s", "k10i10w"])
    );
    // The jumped stone stays, the picked one (white k10) leaves unscored,
    // and only h10 (white) scores.
    let after = play(&before, &rules, "k10i10w");
    assert_eq!(after.score(Player::North), 2);
    assert_eq!(
        format_position(&after).split('/').nth(1),
        Some("........Nb.")
    );
}

#[test]
fn both_entry_allows_slides_and_jumps() {
    let before = entry_position();
    assert_eq!(
        moves(&before, &ka_entry(KaEntry::Both)),
        sorted(&[
            "h10i10e", "h10i10s", "j10i10s", "k10i10e", "k10i10s", "k10i10w"
        ])
    );
}

#[test]
fn occupied_passage_point_cannot_be_entered() {
    // North's passage is i. i11 holds South's ka and i7 a stone: neither
    // can be entered, by slide or jump. Only h9 -> i9 is left, taking i7.
    let before = position(
        [
            ".......wSbw", // 11  h11 / k11 (over j11) would enter the ka's point
            "...........", // 10
            ".......w...", // 9   h9 slides into i9
            "...........", // 8
            "......wwb..", // 7   h7 / g7 (over h7) would enter the stone's point
            ".....+.....", // 6
            "...........", // 5
            "...........", // 4
            "...........", // 3
            "...........", // 2
            "...........", // 1
        ],
        "n 0 0 ci",
    );
    for entry in [KaEntry::Slide, KaEntry::Both] {
        assert_eq!(moves(&before, &ka_entry(entry)), sorted(&["h9i9s"]));
    }
}

#[test]
fn south_slide_entry_with_both_directions_and_file() {
    // South's passage is c. From b3 into c3: a3 west (one white) and d3
    // east (one black, f3 ends it) are separate lines; north along file c,
    // c7 is one black (c8 ends it). From d3 (which leaves): a3 b3 and f3
    // are three whites, one line through the ka.
    let before = position(
        [
            "...........", // 11
            "...........", // 10
            "...........", // 9
            "..w........", // 8
            "..b........", // 7
            ".....+.....", // 6
            "...........", // 5
            "...........", // 4
            "ww.b.w.....", // 3
            "...........", // 2
            "...........", // 1
        ],
        "s 0 0 cj",
    );
    let rules = Rules::default();
    assert_eq!(
        moves(&before, &rules),
        sorted(&["b3c3e", "b3c3n", "b3c3w", "d3c3ew", "d3c3n"])
    );
    let after = play(&before, &rules, "b3c3w");
    assert_eq!(after.score(Player::South), 2);
    assert_eq!(
        format_position(&after).split('/').nth(8),
        Some("..Sb.w.....")
    );
    assert_eq!(after.side_to_move(), Player::North);
}

// ---------------------------------------------------------------------------
// Phase 1: North's first move

fn files_allowed_to_north(rules: &Rules, south_file: char) -> String {
    let position = play(&start(Pattern::One), rules, &south_file.to_string());
    moves(&position, rules).concat()
}

#[test]
fn north_passage_under_opposite() {
    let rules = Rules::default();
    for south in "abcde".chars() {
        assert_eq!(
            files_allowed_to_north(&rules, south),
            "ghijk",
            "after {south}"
        );
    }
    for south in "ghijk".chars() {
        assert_eq!(
            files_allowed_to_north(&rules, south),
            "abcde",
            "after {south}"
        );
    }
    assert_eq!(files_allowed_to_north(&rules, 'f'), "abcdeghijk");
}

#[test]
fn north_passage_under_any() {
    let rules = rules_with(KaEntry::Slide, SecondColumn::Any, Centre::Wall);
    let files = "abcdefghijk";
    for (index, south) in files.chars().enumerate() {
        let mirror = files.as_bytes()[10 - index] as char;
        let expected: String = files.chars().filter(|&file| file != mirror).collect();
        assert_eq!(
            files_allowed_to_north(&rules, south),
            expected,
            "after {south}"
        );
    }
}

#[test]
fn south_may_take_any_file_and_scores_its_five_points() {
    let rules = Rules::default();
    let start = start(Pattern::One);
    assert_eq!(moves(&start, &rules).concat(), "abcdefghijk");
    // Pattern 1, file f from rank 1 up is five blacks: 5 points.
    let after = play(&start, &rules, "f");
    assert_eq!(after.score(Player::South), 5);
    assert_eq!(after.all_stones().count(), 115);
}

#[test]
fn hand_set_passage_needs_at_least_one_stone() {
    // North to move after South's c, in a hand-set position where North's
    // half holds stones on files a, h and k only: a file with no stone in
    // the player's half is no move, and one stone is enough.
    let before = position(
        [
            "..........b", // 11
            "...........", // 10
            ".......w...", // 9
            "...........", // 8
            "w..........", // 7
            ".....+.....", // 6
            "wwwwwbbbbbb", // 5
            "...........", // 4
            "...........", // 3
            "...........", // 2
            "...........", // 1
        ],
        "n 8 0 c-",
    );
    assert_eq!(moves(&before, &Rules::default()).concat(), "hk");
    let any = rules_with(KaEntry::Slide, SecondColumn::Any, Centre::Wall);
    assert_eq!(moves(&before, &any).concat(), "ahk");
    let after = play(&before, &Rules::default(), "h");
    assert_eq!(after.score(Player::North), 2);
    assert_eq!(after.all_stones().count(), 13);
}

// ---------------------------------------------------------------------------
// End of the game

#[test]
fn suntuk_in_phase_two_loses_whatever_the_score() {
    // South's passage is c but files b and d (and a, e) hold no stone in
    // South's half: no entry is possible, under any Ka Entry.
    let before = position(
        [
            "w.........b", // 11
            "...........", // 10
            "...........", // 9
            "...........", // 8
            "...........", // 7
            ".....+.....", // 6
            "...........", // 5
            "...........", // 4
            "...........", // 3
            "...........", // 2
            "..........w", // 1
        ],
        "s 50 10 cj",
    );
    for entry in [KaEntry::Slide, KaEntry::Jump, KaEntry::Both] {
        let rules = ka_entry(entry);
        assert!(moves(&before, &rules).is_empty());
        assert_eq!(
            Status::of(&before, &rules),
            Status::Over {
                winner: Some(Player::North),
                reason: Reason::Suntuk,
                scores: [50, 10],
            }
        );
    }
    assert_eq!(
        illegal(&before, &Rules::default(), "b3c3n"),
        "the game is over: no legal move"
    );
}

#[test]
fn suntuk_in_phase_three_loses_whatever_the_score() {
    // South's ka in the corner, boxed in by a2 and b1.
    let boxed = position(
        [
            "...........", // 11
            "...........", // 10
            "...........", // 9
            "...........", // 8
            "...........", // 7
            ".....+.....", // 6
            "...........", // 5
            "..........N", // 4
            "...........", // 3
            "w..........", // 2
            "Sb.........", // 1
        ],
        "s 100 20 cj",
    );
    assert_eq!(
        Status::of(&boxed, &Rules::default()),
        Status::Over {
            winner: Some(Player::North),
            reason: Reason::Suntuk,
            scores: [100, 20],
        }
    );
    // A ka that can move but finds only even lines is stalemated too: every
    // rank and file it can reach holds two whites.
    let mobile = position(
        [
            "..w.w......", // 11
            "..w.w......", // 10
            "...........", // 9
            "...........", // 8
            "...........", // 7
            ".....+.....", // 6
            "..........S", // 5
            "...........", // 4
            "...........", // 3
            "...........", // 2
            "N..........", // 1
        ],
        "n 20 100 cj",
    );
    assert!(moves(&mobile, &Rules::default()).is_empty());
    assert_eq!(
        Status::of(&mobile, &Rules::default()),
        Status::Over {
            winner: Some(Player::South),
            reason: Reason::Suntuk,
            scores: [20, 100],
        }
    );
    assert!(matches!(
        parse_move(&mobile, &Rules::default(), "a1a10e"),
        Err(MoveError::Illegal { .. })
    ));
}

#[test]
fn last_stone_gone_ends_the_game_by_score() {
    // b3 is the last stone: taking it from a3 ends the game.
    let last_stone = |scores: &str| {
        position(
            [
                "..........N", // 11
                "...........", // 10
                "...........", // 9
                "...........", // 8
                "...........", // 7
                ".....+.....", // 6
                "...........", // 5
                "...........", // 4
                ".w.........", // 3
                "...........", // 2
                "S..........", // 1
            ],
            &format!("s {scores} cj"),
        )
    };
    let rules = Rules::default();
    let win = last_stone("10 11");
    assert_eq!(moves(&win, &rules), sorted(&["a1a3e", "a1b1n"]));
    assert_eq!(Status::of(&win, &rules), Status::InPlay);
    assert_eq!(
        Status::of(&play(&win, &rules, "a1a3e"), &rules),
        Status::Over {
            winner: Some(Player::South),
            reason: Reason::Score,
            scores: [12, 11],
        }
    );
    assert_eq!(
        Status::of(&play(&last_stone("9 11"), &rules, "a1b1n"), &rules),
        Status::Over {
            winner: None,
            reason: Reason::Score,
            scores: [11, 11],
        }
    );
    // With no stone left the game is over whoever is to move.
    for (rest, winner) in [
        ("s 30 40 cj", Some(Player::North)),
        ("n 30 40 cj", Some(Player::North)),
        ("n 41 40 cj", Some(Player::South)),
        ("s 40 40 cj", None),
    ] {
        let over = position(
            [
                "...........", // 11
                "...........", // 10
                "...........", // 9
                "...........", // 8
                "...........", // 7
                ".....+.....", // 6
                "...........", // 5
                "...........", // 4
                "...........", // 3
                "N..........", // 2
                "S..........", // 1
            ],
            rest,
        );
        match Status::of(&over, &rules) {
            Status::Over {
                winner: got,
                reason: Reason::Score,
                ..
            } => assert_eq!(got, winner, "{rest}"),
            other => panic!("{rest}: {other:?}"),
        }
    }
}

// ---------------------------------------------------------------------------
// Position strings

#[test]
fn position_strings_round_trip_along_random_games() {
    let mut rng = Xorshift(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    for rules in all_rules() {
        for _ in 0..4 {
            let mut position = start(rules.pattern);
            loop {
                let text = format_position(&position);
                let parsed = parse_position(&text)
                    .unwrap_or_else(|error| panic!("{text} does not parse: {error}"));
                assert_eq!(parsed, position, "{text}");
                assert_eq!(format_position(&parsed), text);
                checked += 1;
                let moves = legal_moves(&position, &rules);
                if moves.is_empty() {
                    break;
                }
                position = position.play(moves[rng.below(moves.len())]);
            }
        }
    }
    assert!(checked > 1000, "only {checked} positions checked");
}

/// The worked opening's final position: a valid string to spoil.
const VALID: &str = "wwwwwbbbb.w/bwwwwbbbb.w/bbwwwbbbw.w/bb.wwbbww.w/..S.wb....N/\
                     bb.bb+bbbb./ww.wwbwbbb./w..wbbwwbb./ww.bbbwwwb./ww.bbbwwww./\
                     wb.bbbwwwww s 14 20 cj";

/// `VALID` with field `index` replaced by `field`.
fn with_field(index: usize, field: &str) -> String {
    let mut fields: Vec<&str> = VALID.split(' ').collect();
    fields[index] = field;
    fields.join(" ")
}

/// The position `text` gives; fails with the error if there is none.
fn accepted(text: &str) -> Position {
    parse_position(text).unwrap_or_else(|error| panic!("refused {text:?}: {error}"))
}

/// The error for `text`, with its message containing every one of `words`.
fn rejected(text: &str, words: &[&str]) -> PositionError {
    let error = match parse_position(text) {
        Ok(position) => panic!("accepted {text:?} as {position:?}"),
        Err(error) => error,
    };
    let message = error.to_string();
    for word in words {
        assert!(
            message.contains(word),
            "message {message:?} for {text:?} does not mention {word:?}"
        );
    }
    error
}

/// The position-string cases of tests/data/rules/positions.txt (its head
/// says the format), as shakmaty keeps its cases: data a line, one runner.
#[test]
fn position_string_cases() {
    let cases = include_str!("data/rules/positions.txt");
    let mut count = 0;
    for (number, line) in cases.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("positions.txt:{}", number + 1);
        let parts: Vec<&str> = line.split(" | ").map(str::trim).collect();
        let text = match parts.get(1).copied() {
            Some("\"\"") => String::new(),
            Some(text) => text.replace("\\0", "\0"),
            None => panic!("{at}: no position string"),
        };
        match (parts[0], &parts[2..]) {
            ("round-trip", []) => assert_eq!(format_position(&accepted(&text)), text, "{at}"),
            ("accept", []) => {
                accepted(&text);
            }
            ("refuse", [words, error @ ..]) if error.len() <= 1 => {
                let words: Vec<&str> = words.split(';').map(str::trim).collect();
                let refused = format!("{:?}", rejected(&text, &words));
                if let [error] = error {
                    assert!(refused.starts_with(error), "{at}: {refused}");
                }
            }
            _ => panic!("{at}: not a case: {line}"),
        }
        count += 1;
    }
    // Every case that the tests written out in code checked before.
    assert_eq!(count, 75, "cases read");
}

#[test]
fn start_layouts_must_be_full_balanced_and_symmetric() {
    let start = Pattern::One.start_position_string();
    accepted(&start);
    accepted(&Pattern::Two.start_position_string());
    // Any other full, 60/60, symmetric layout is fine: the colours swapped.
    let swapped: String = start
        .split_once(' ')
        .unwrap()
        .0
        .chars()
        .map(|c| match c {
            'w' => 'b',
            'b' => 'w',
            other => other,
        })
        .collect();
    accepted(&format!("{swapped} s 0 0 --"));

    // a1 (white) emptied.
    let empty_point = start.replacen("wbbbbbwwwww s", ".bbbbbwwwww s", 1);
    assert!(matches!(
        rejected(&empty_point, &["start layout", "1 empty"]),
        PositionError::Parts(PartsError::StartLayout(_))
    ));
    // b1 turned white: 61/59.
    let unbalanced = start.replacen("wbbbbbwwwww s", "wwbbbbwwwww s", 1);
    rejected(&unbalanced, &["start layout", "61 white", "59 black"]);
    // a1 and b1 swapped: still 60/60 but no longer a half-turn image.
    let asymmetric = start.replacen("wbbbbbwwwww s", "bwbbbbwwwww s", 1);
    rejected(&asymmetric, &["start layout", "symmetric"]);
    // Only the half-turn matters: the mirror image of a symmetric layout is
    // symmetric too, so it is accepted.
    let mirrored: Vec<String> = start
        .split_once(' ')
        .unwrap()
        .0
        .split('/')
        .map(|rank| rank.chars().rev().collect())
        .collect();
    accepted(&format!("{} s 0 0 --", mirrored.join("/")));
    // Later positions may hold any stones.
    accepted(&empty_point.replace(" s 0 0 --", " n 2 0 c-"));
}

#[test]
fn hostile_input_never_panics() {
    let huge = "w".repeat(1 << 20);
    let mut inputs = vec![
        huge.clone(),
        format!("{huge} s 0 0 --"),
        format!("{} s 0 0 --", [huge.as_str(); 11].join("/")),
        "/".repeat(100_000),
        " ".repeat(100_000),
        "\0\0\0\0\0".to_string(),
        "\u{fffd}".repeat(121),
        format!("{} s 0 0 --", ["ééééééééééé"; 11].join("/")),
        with_field(2, &"9".repeat(100_000)),
        with_field(4, &"-".repeat(100_000)),
    ];
    // Random strings over the alphabet of position strings and moves.
    let alphabet: Vec<char> = "wbSN.+/ sn0123456789-acfjk\0é\t".chars().collect();
    let mut rng = Xorshift(42);
    for _ in 0..3000 {
        let length = rng.below(200);
        inputs.push(
            (0..length)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect(),
        );
    }
    // And the valid string with one character spoiled.
    for _ in 0..3000 {
        let mut chars: Vec<char> = VALID.chars().collect();
        let at = rng.below(chars.len());
        chars[at] = alphabet[rng.below(alphabet.len())];
        inputs.push(chars.into_iter().collect());
    }
    let rules = Rules::default();
    let game = parse_position(VALID).unwrap();
    for input in &inputs {
        if let Ok(position) = parse_position(input) {
            // Whatever is accepted prints back to something that parses.
            accepted(&format_position(&position));
        }
        let _ = parse_move(&game, &rules, input);
    }
}

// ---------------------------------------------------------------------------
// Move parsing

#[test]
fn moves_parse_in_canonical_and_short_forms() {
    let rules = Rules::default();
    let opening = play(&play(&start(Pattern::One), &rules, "c"), &rules, "j");
    // b4c4 has one legal capture, so the directions may be omitted.
    let short = parse_move(&opening, &rules, "b4c4").unwrap();
    assert_eq!(short.to_string(), "b4c4n");
    assert_eq!(parse_move(&opening, &rules, "b4c4n"), Ok(short));
    // Every generated move parses back to itself.
    for mv in legal_moves(&opening, &rules).iter() {
        assert_eq!(parse_move(&opening, &rules, &mv.to_string()), Ok(*mv));
    }
}

#[test]
fn ambiguous_short_form_is_rejected() {
    let rules = Rules::default();
    let before = ambiguous_position();
    match parse_move(&before, &rules, "d1d3") {
        Err(MoveError::Illegal { reason, .. }) => assert!(reason.contains("ambiguous"), "{reason}"),
        other => panic!("d1d3 gave {other:?}"),
    }
    assert_eq!(
        parse_move(&before, &rules, "d1d3e").unwrap().to_string(),
        "d1d3e"
    );
    assert_eq!(
        parse_move(&before, &rules, "d1d3w").unwrap().to_string(),
        "d1d3w"
    );
}

#[test]
fn malformed_and_illegal_moves_are_told_apart() {
    let rules = Rules::default();
    let before = ambiguous_position();
    let malformed = [
        "",
        "l",
        "z",
        "1",
        "d1",
        "d1d",
        "d0d3e",
        "d1d12e",
        "d1d3x",
        "d1d3ee",
        "d01d3e",
        "d1d3e ",
        "d1-d3",
        "d1d3ewnsx",
        "a10a11nsewnsew",
    ];
    for text in malformed {
        assert!(
            matches!(
                parse_move(&before, &rules, text),
                Err(MoveError::Malformed { .. })
            ),
            "{text:?} should be malformed"
        );
    }
    let illegal = [
        "d1d3ew", // the two runs have different colours
        "d1d3n",  // nothing lies north of d3 on the capture axis
        "d1d2",   // nothing to capture on rank 2
        "d1d5",   // d4 is in the way
        "d1e1",   // e1 is a stone
        "c1c3e",  // c1 is not the ka
        "c",      // passages are phase 1 only
    ];
    for text in illegal {
        match parse_move(&before, &rules, text) {
            Err(error @ MoveError::Illegal { .. }) => {
                assert!(error.to_string().starts_with("illegal move"), "{error}");
            }
            other => panic!("{text:?} gave {other:?}"),
        }
    }
    // A forbidden North passage is well-formed but illegal.
    let after_c = play(&start(Pattern::One), &rules, "c");
    assert!(matches!(
        parse_move(&after_c, &rules, "d"),
        Err(MoveError::Illegal { .. })
    ));
}
