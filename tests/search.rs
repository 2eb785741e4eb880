//! The search against an exhaustive solver on small endgames (20 stones or
//! fewer, so the suite stays fast), and its limits and safety.
//!
//! Endgames come from seeded random games under the default rules; a plain
//! negamax to the end of the game, memoised by key, gives their exact
//! values, and the engine's proven results must agree.

use std::collections::HashMap;

use pasang::movegen::legal_moves;
use pasang::moves::Move;
use pasang::position::{Phase, Position};
use pasang::rules::Rules;
use pasang::search::{
    Control, Limits, MATE, MATE_BOUND, Score, SearchResult, Searcher, Settings, Signals, Silent,
    Task,
};
use pasang::tt::{Bound, TranspositionTable};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// Exact value for the side to move in the engine's convention: a win
/// ending `p` plies from now is `MATE - p`, a loss `-(MATE - p)`, a draw 0.
/// With `suntuk_only`, a game ended by the last capture counts as a draw,
/// so a win means a forced suntuk.
fn solve(
    position: &Position,
    rules: &Rules,
    suntuk_only: bool,
    memo: &mut HashMap<u64, i32>,
) -> i32 {
    if let Some(&value) = memo.get(&position.key()) {
        return value;
    }
    let side = position.side_to_move();
    let value = if !position.has_stones() {
        let margin = position.score(side) as i32 - position.score(side.opponent()) as i32;
        if suntuk_only {
            0
        } else {
            MATE * margin.signum()
        }
    } else {
        let moves = legal_moves(position, rules);
        if moves.is_empty() {
            -MATE
        } else {
            moves
                .iter()
                .map(|&mv| {
                    let child = -solve(&position.play(mv), rules, suntuk_only, memo);
                    // One ply further from the end.
                    child - child.signum() * i32::from(child.abs() >= MATE_BOUND)
                })
                .max()
                .expect("moves exist")
        }
    };
    memo.insert(position.key(), value);
    value
}

/// Positions in phase 3 with at most `max_stones` stones, from seeded
/// random games.
fn endgames(seed: u64, games: usize, max_stones: u32) -> Vec<Position> {
    let rules = Rules::default();
    let mut rng = SmallRng::seed_from_u64(seed);
    let start = pasang::engine::start_position(rules.pattern);
    let mut found = Vec::new();
    for _ in 0..games {
        let mut position = start;
        loop {
            let moves = legal_moves(&position, &rules);
            if moves.is_empty() {
                break;
            }
            if position.phase() == Phase::KaMove && position.stone_count() <= max_stones {
                found.push(position);
            }
            position = position.play(moves[rng.random_range(0..moves.len())]);
        }
    }
    found
}

/// Searches with `searcher`'s table and an empty store of proven results,
/// so that each search proves on its own.
fn run(
    position: &Position,
    limits: &Limits,
    settings: &Settings,
    searcher: &Searcher,
) -> SearchResult {
    searcher.proven().clear();
    search_with(searcher, position, limits, settings)
}

/// Searches deep with `searcher`'s proven results and a fresh small table.
fn run_with_fresh_table(position: &Position, searcher: &mut Searcher) -> SearchResult {
    searcher.set_table(TranspositionTable::new(1));
    search_with(searcher, position, &deep(), &Settings::default())
}

/// One search of `position` under the default rules, stopped by its limits.
fn search_with(
    searcher: &Searcher,
    position: &Position,
    limits: &Limits,
    settings: &Settings,
) -> SearchResult {
    let task = Task {
        position,
        rules: &Rules::default(),
        limits,
        settings,
    };
    let signals = Signals::default();
    searcher.search(
        &task,
        Control {
            signals: &signals,
            id: 1,
        },
        &Silent,
    )
}

/// A searcher with a table of `mib` MiB.
fn new_searcher(mib: usize) -> Searcher {
    Searcher::new(TranspositionTable::new(mib))
}

fn deep() -> Limits {
    Limits {
        depth: Some(60),
        ..Limits::default()
    }
}

fn score_of(result: &SearchResult) -> Score {
    result.final_info.as_ref().expect("a line").score
}

#[test]
fn proven_results_match_the_exhaustive_solver() {
    let rules = Rules::default();
    let mut memo = HashMap::new();
    let positions = endgames(1, 12, 14);
    assert!(positions.len() >= 30, "only {} endgames", positions.len());
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    for position in positions.iter().step_by(2) {
        let exact = solve(position, &rules, false, &mut memo);
        let searcher = new_searcher(4);
        let result = run(position, &deep(), &Settings::default(), &searcher);
        assert!(result.proven, "not proven: {position:?}");
        assert_eq!(
            score_of(&result),
            Score::from_internal(exact),
            "{position:?}"
        );
        // The move played keeps the exact value.
        let child = position.play(result.best_move.expect("a move"));
        let after = -solve(&child, &rules, false, &mut memo);
        assert_eq!(after.signum(), exact.signum(), "{position:?}");
        match exact.signum() {
            1 => wins += 1,
            -1 => losses += 1,
            _ => draws += 1,
        }
    }
    assert!(
        wins > 0 && losses > 0,
        "wins {wins} losses {losses} draws {draws}"
    );
}

/// Without a depth limit the search solves endgames to the end of the game
/// with null windows: the outcome must be exact, a win or loss is never
/// claimed sooner than the shortest one, and the move keeps the outcome.
#[test]
fn solved_endgames_match_the_exhaustive_solver() {
    check_solved_endgames(&Settings::default());
}

/// As above with two threads, where the helper solves and hands its result
/// to the main thread, which only iterates.
#[test]
fn two_threads_solve_endgames_exactly() {
    check_solved_endgames(&Settings {
        threads: 2,
        ..Settings::default()
    });
}

fn check_solved_endgames(settings: &Settings) {
    let rules = Rules::default();
    let mut memo = HashMap::new();
    let positions: Vec<Position> = endgames(5, 16, 18)
        .into_iter()
        .filter(|position| position.stone_count() >= 16)
        .collect();
    assert!(positions.len() >= 12, "only {} endgames", positions.len());
    let mut solved_past_the_depth = 0;
    for position in positions.iter().step_by(positions.len() / 12).take(12) {
        let exact = solve(position, &rules, false, &mut memo);
        let searcher = new_searcher(4);
        let result = run(position, &Limits::default(), settings, &searcher);
        assert!(result.proven, "not proven: {position:?}");
        let info = result.final_info.as_ref().expect("a line");
        match (info.score, Score::from_internal(exact)) {
            (Score::Mate(found), Score::Mate(shortest)) => {
                assert_eq!(found.signum(), shortest.signum(), "{position:?}");
                assert!(found.abs() >= shortest.abs(), "{position:?}");
                // The iterations alone prove only lines within their depth.
                if 2 * found.abs() - 1 > info.depth as i32 {
                    solved_past_the_depth += 1;
                }
            }
            (found, exact) => assert_eq!(found, exact, "{position:?}"),
        }
        let child = position.play(result.best_move.expect("a move"));
        let after = -solve(&child, &rules, false, &mut memo);
        assert_eq!(after.signum(), exact.signum(), "{position:?}");
    }
    // With one thread the solve is deterministic. With two, whether the
    // helper's solve lands before the iterations reach the same depth is a
    // race that a loaded machine loses now and then (seen in CI-like runs):
    // only the exact results above are checked there.
    if settings.threads == 1 {
        assert!(
            solved_past_the_depth >= 3,
            "the solver ran {solved_past_the_depth} times"
        );
    }
}

/// Two threads put off each other's moves; every move must still be
/// searched, so the proven results stay exact.
#[test]
fn two_threads_prove_the_same_results() {
    let rules = Rules::default();
    let mut memo = HashMap::new();
    let settings = Settings {
        threads: 2,
        ..Settings::default()
    };
    for position in endgames(3, 12, 14).iter().take(10) {
        let exact = solve(position, &rules, false, &mut memo);
        let searcher = new_searcher(4);
        let result = run(position, &deep(), &settings, &searcher);
        assert!(result.proven, "not proven: {position:?}");
        assert_eq!(
            score_of(&result),
            Score::from_internal(exact),
            "{position:?}"
        );
    }
}

#[test]
fn finds_forced_suntuk_in_one_two_and_three_moves() {
    let rules = Rules::default();
    let mut exact_memo = HashMap::new();
    let mut suntuk_memo = HashMap::new();
    let mut seen = [false; 3];
    for position in endgames(2, 40, 16) {
        let exact = solve(&position, &rules, false, &mut exact_memo);
        let suntuk = solve(&position, &rules, true, &mut suntuk_memo);
        // Winning by suntuk is the fastest win here.
        if suntuk < MATE_BOUND || suntuk != exact {
            continue;
        }
        let moves = (MATE - suntuk + 1) / 2;
        if !(1..=3).contains(&moves) || seen[moves as usize - 1] {
            continue;
        }
        seen[moves as usize - 1] = true;
        let searcher = new_searcher(4);
        let result = run(&position, &deep(), &Settings::default(), &searcher);
        assert_eq!(score_of(&result), Score::Mate(moves), "{position:?}");
        let child = position.play(result.best_move.unwrap());
        assert_eq!(
            -solve(&child, &rules, false, &mut exact_memo) - 1,
            exact,
            "{position:?}"
        );
    }
    assert_eq!(
        seen, [true; 3],
        "suntuk wins in 1, 2 and 3 moves were all found"
    );
}

#[test]
fn prefers_a_winning_line_over_a_bigger_capture() {
    let rules = Rules::default();
    let mut memo = HashMap::new();
    let mut checked = 0;
    for position in endgames(3, 40, 16) {
        let exact = solve(&position, &rules, false, &mut memo);
        if exact < MATE_BOUND {
            continue;
        }
        let side = position.side_to_move();
        let moves = legal_moves(&position, &rules);
        let greedy = moves
            .iter()
            .copied()
            .max_by_key(|&mv| position.play(mv).score(side))
            .unwrap();
        let greedy_value = -solve(&position.play(greedy), &rules, false, &mut memo);
        if greedy_value > 0 {
            continue; // the biggest capture wins too
        }
        let searcher = new_searcher(4);
        let result = run(&position, &deep(), &Settings::default(), &searcher);
        let chosen = -solve(
            &position.play(result.best_move.unwrap()),
            &rules,
            false,
            &mut memo,
        );
        assert!(chosen > 0, "played a non-winning move in {position:?}");
        checked += 1;
        if checked == 5 {
            break;
        }
    }
    assert!(
        checked > 0,
        "no position where the biggest capture fails to win"
    );
}

const MIDGAME: &str = "wwwwwbbbb.w/bwwwwbbbb.w/bbwwwbbbw.w/bb.wwbbww.w/..S.wb....N/bb.bb+bbbb./ww.wwbwbbb./w..wbbwwbb./ww.bbbwwwb./ww.bbbwwww./wb.bbbwwwww s 14 20 cj";

fn midgame() -> Position {
    pasang::notation::parse_position(MIDGAME).unwrap()
}

#[test]
fn depth_limit_is_exact() {
    let searcher = new_searcher(4);
    for depth in [1, 4, 9] {
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let result = run(&midgame(), &limits, &Settings::default(), &searcher);
        assert_eq!(result.final_info.unwrap().depth, depth);
    }
}

#[test]
fn node_limit_is_honoured_and_deterministic() {
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let first = run(&midgame(), &limits, &Settings::default(), &new_searcher(4));
    let second = run(&midgame(), &limits, &Settings::default(), &new_searcher(4));
    assert!(
        first.nodes >= 20_000 && first.nodes <= 20_000 + 1024,
        "{}",
        first.nodes
    );
    assert_eq!(first.nodes, second.nodes);
    assert_eq!(first.best_move, second.best_move);
    // One node still yields a legal move with an exact score (depth 1 always completes).
    let tiny = Limits {
        nodes: Some(1),
        ..Limits::default()
    };
    let result = run(&midgame(), &tiny, &Settings::default(), &new_searcher(1));
    assert!(legal_moves(&midgame(), &Rules::default()).contains(result.best_move.unwrap()));
}

/// Moves of other positions, stored under this position's keys, must never
/// come back as a best move: table moves are checked against the legal
/// moves before use.
#[test]
fn stale_and_colliding_table_entries_never_yield_illegal_moves() {
    let rules = Rules::default();
    let position = midgame();
    let foreign: Vec<Move> = endgames(4, 4, 120)
        .iter()
        .flat_map(|p| legal_moves(p, &rules).to_vec())
        .collect();
    let searcher = new_searcher(1);
    let settings = Settings {
        threads: 2,
        ..Settings::default()
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        let table = searcher.table();
        let foreign = &foreign;
        let stop_ref = &stop;
        // A thread hammers the table with junk under colliding keys: the
        // root's and its children's, and a sweep of others.
        scope.spawn(move || {
            let mut keys: Vec<u64> = legal_moves(&position, &rules)
                .iter()
                .map(|&mv| position.play(mv).key())
                .collect();
            keys.push(position.key());
            let mut i = 0usize;
            while !stop_ref.load(std::sync::atomic::Ordering::Relaxed) {
                let key = if i.is_multiple_of(3) {
                    keys[i % keys.len()]
                } else {
                    (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                };
                let mv = foreign[i % foreign.len()];
                table.store(
                    key,
                    Some(mv),
                    (i % 2000) as i32 - 1000,
                    (i % 40) as i32,
                    Bound::Exact,
                );
                i += 1;
            }
        });
        for depth in [3, 6, 9] {
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let result = run(&position, &limits, &settings, &searcher);
            let info = result.final_info.unwrap();
            // The whole pv must be playable.
            let mut walk = position;
            for &mv in &info.pv {
                assert!(
                    legal_moves(&walk, &rules).contains(mv),
                    "illegal {mv} in pv"
                );
                walk = walk.play(mv);
            }
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
}

/// A proof kept in the store of proven results is reused by a later search
/// even after the table is gone, with the same exact result.
#[test]
fn proven_results_outlive_the_table() {
    let mut checked = 0;
    let (mut first_total, mut second_total) = (0, 0);
    for position in endgames(5, 40, 20) {
        let mut searcher = new_searcher(1);
        let first = run_with_fresh_table(&position, &mut searcher);
        // Only proofs big enough for the store to keep them.
        if first.nodes < 50_000 {
            continue;
        }
        let second = run_with_fresh_table(&position, &mut searcher);
        assert!(first.proven && second.proven, "{position:?}");
        // The first result is checked against the solver elsewhere.
        assert_eq!(score_of(&second), score_of(&first), "{position:?}");
        assert!(!searcher.proven().is_empty());
        assert!(second.nodes <= first.nodes, "{position:?}");
        (first_total, second_total) = (first_total + first.nodes, second_total + second.nodes);
        checked += 1;
        if checked == 5 {
            break;
        }
    }
    assert_eq!(checked, 5, "too few large endgames");
    // Proofs of the root's own children are reused; the iterations before
    // their depth is reached are searched again (with ProbCut's shallow
    // searches, 0.59 of the first search's nodes at its introduction).
    assert!(
        second_total * 3 < first_total * 2,
        "{first_total} then {second_total} nodes"
    );
}
