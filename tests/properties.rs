//! Properties that must hold in every position reached in play, checked
//! along random games under random rule options.
//!
//! Each case is one game: the options and the sequence of choices (each
//! taken modulo the number of legal moves) come from proptest, so a failure
//! shrinks to a short game. In every position visited, every legal move is
//! made and its child checked, not only the move followed.

use std::collections::HashSet;

use pasang::movegen::{count_ka_moves_of, count_moves, legal_moves};
use pasang::moves::Move;
use pasang::notation::{format_position, parse_move, parse_position};
use pasang::outcome::Status;
use pasang::position::{Colour, Phase, Player, Position};
use pasang::rules::{Centre, KaEntry, Pattern, Rules, SecondColumn};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

fn rules() -> impl Strategy<Value = Rules> {
    (
        prop_oneof![Just(Pattern::One), Just(Pattern::Two)],
        prop_oneof![
            Just(KaEntry::Slide),
            Just(KaEntry::Jump),
            Just(KaEntry::Both)
        ],
        prop_oneof![Just(SecondColumn::Opposite), Just(SecondColumn::Any)],
        prop_oneof![Just(Centre::Wall), Just(Centre::Open)],
    )
        .prop_map(|(pattern, ka_entry, second_column, centre)| Rules {
            pattern,
            ka_entry,
            second_column,
            centre,
        })
}

/// Long enough for nearly every game to end before the choices run out.
fn choices() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(any::<usize>(), 0..200)
}

/// Stones of each colour, as counts.
fn stone_counts(position: &Position) -> (u32, u32) {
    (
        position.stones(Colour::White).count(),
        position.stones(Colour::Black).count(),
    )
}

/// Plays `choices` from the start of `rules.pattern`, calling `visit` on
/// every position reached (the start included) until the game ends.
fn walk(
    rules: &Rules,
    choices: &[usize],
    mut visit: impl FnMut(&Position) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    let mut position = parse_position(&rules.pattern.start_position_string()).unwrap();
    visit(&position)?;
    for &choice in choices {
        let moves = legal_moves(&position, rules);
        if moves.is_empty() {
            break;
        }
        position = position.play(moves[choice % moves.len()]);
        visit(&position)?;
    }
    Ok(())
}

/// What making `mv` in `parent` did to the stones and the score must be
/// what the rules say that move does.
fn check_capture(parent: &Position, mv: Move, child: &Position) -> Result<(), TestCaseError> {
    let side = parent.side_to_move();
    let (white_before, black_before) = stone_counts(parent);
    let (white_after, black_after) = stone_counts(child);
    prop_assert!(white_after <= white_before && black_after <= black_before);
    let (mut white, mut black) = (white_before - white_after, black_before - black_after);
    match parent.phase() {
        Phase::Passage => {
            prop_assert!(mv.is_passage());
            prop_assert!(white + black >= 1, "{mv} takes nothing");
            prop_assert_eq!(child.passage(side), Some(mv.passage_file()));
        }
        phase => {
            prop_assert!(!mv.is_passage());
            if phase == Phase::KaEntry {
                // The picked stone leaves unscored.
                match parent.stone_at(mv.from()) {
                    Some(Colour::White) => white -= 1,
                    Some(Colour::Black) => black -= 1,
                    None => prop_assert!(false, "{mv} picks no stone"),
                }
                prop_assert_eq!(child.stone_at(mv.from()), None);
            } else {
                prop_assert_eq!(parent.ka(side), Some(mv.from()));
            }
            // One line, of one colour, odd.
            prop_assert!(white == 0 || black == 0, "{mv} takes both colours");
            prop_assert_eq!((white + black) % 2, 1, "{} takes an even line", mv);
            prop_assert_eq!(child.ka(side), Some(mv.to()));
            prop_assert_eq!(child.ka(side.opponent()), parent.ka(side.opponent()));
        }
    }
    prop_assert_eq!(
        child.score(side),
        parent.score(side) + 2 * white + black,
        "score gained by {}",
        mv
    );
    prop_assert_eq!(child.score(side.opponent()), parent.score(side.opponent()));
    prop_assert_eq!(child.side_to_move(), side.opponent());
    // What the position says a move captures, and the key it predicts.
    let capture = parent.capture(mv);
    prop_assert_eq!(capture.points(), 2 * white + black, "points of {}", mv);
    prop_assert_eq!(capture.stones(), white + black, "stones of {}", mv);
    prop_assert_eq!(
        capture.points_taken(),
        parent.all_stones() & !child.all_stones() & !mv_origin(parent, mv)
    );
    prop_assert_eq!(parent.key_after(mv), child.key(), "key after {}", mv);
    Ok(())
}

/// The point a ka entry picks its stone from (it leaves unscored), else
/// the empty set.
fn mv_origin(parent: &Position, mv: Move) -> pasang::bitboard::Bitboard {
    if parent.phase() == Phase::KaEntry {
        mv.from().bitboard()
    } else {
        pasang::bitboard::Bitboard::EMPTY
    }
}

/// Every property of one position and of each of its children.
fn check_position(position: &Position, rules: &Rules) -> Result<(), TestCaseError> {
    prop_assert_eq!(position.key(), position.compute_key());
    prop_assert!(position.is_consistent(), "{:?}", position);

    let moves = legal_moves(position, rules);
    prop_assert_eq!(count_moves(position, rules), moves.len() as u64);
    // The opponent's ka moves, counted in place, are the moves it would
    // have with the turn passed to it. Passing the turn makes a position of
    // a game only when both kas stand (before the side to move's ka is
    // entered it is an impossible one, which `Position::try_from` refuses).
    let side = position.side_to_move();
    let opponent = side.opponent();
    let counted = count_ka_moves_of(position, rules, opponent);
    match (position.ka(opponent), position.ka(side)) {
        (None, _) => prop_assert_eq!(counted, 0),
        (Some(_), Some(_)) => {
            let mut parts = position.parts();
            parts.side = opponent;
            let passed = Position::try_from(parts).map_err(|error| {
                TestCaseError::fail(format!("{position:?} with the turn passed: {error}"))
            })?;
            prop_assert_eq!(passed.phase(), Phase::KaMove);
            prop_assert_eq!(counted, count_moves(&passed, rules));
        }
        (Some(_), None) => {}
    }
    let distinct: HashSet<Move> = moves.iter().copied().collect();
    prop_assert_eq!(
        distinct.len(),
        moves.len(),
        "duplicate moves in {:?}",
        position
    );

    let has_stones = !position.all_stones().is_empty();
    let status = Status::of(position, rules);
    prop_assert_eq!(
        status == Status::InPlay,
        has_stones && !moves.is_empty(),
        "{:?}: {}",
        position,
        status
    );

    let snapshot = *position;
    let text = format_position(position);
    for &mv in moves.iter() {
        prop_assert_eq!(parse_move(position, rules, &mv.to_string()), Ok(mv));
        let child = position.play(mv);
        // Copy-make: the parent is untouched.
        prop_assert_eq!(*position, snapshot);
        prop_assert_eq!(format_position(position), text.clone());
        prop_assert_eq!(child.key(), child.compute_key(), "key after {}", mv);
        prop_assert!(child.is_consistent(), "inconsistent after {}", mv);
        check_capture(position, mv, &child)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_position_and_move_along_random_games(rules in rules(), choices in choices()) {
        walk(&rules, &choices, |position| check_position(position, &rules))?;
    }

    #[test]
    fn scores_and_material_left_account_for_every_stone(rules in rules(), choices in choices()) {
        // From a start position (180 points of stones) every point scored
        // is a stone gone; only the stones that became kas leave unscored,
        // each worth 1 or 2.
        walk(&rules, &choices, |position| {
            let entered = position.kas().count();
            let accounted = position.score(Player::South)
                + position.score(Player::North)
                + position.material_left();
            prop_assert!(accounted <= 180, "{:?}", position);
            let unscored = 180 - accounted;
            prop_assert!(
                entered <= unscored && unscored <= 2 * entered,
                "{:?}: {} points unaccounted with {} kas",
                position,
                unscored,
                entered
            );
            Ok(())
        })?;
    }
}
