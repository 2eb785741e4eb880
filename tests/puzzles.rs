//! Puzzles: `pasang puzzles` run on a small record file as a user runs it
//! (the same file twice, and in shards), the shipped puzzles
//! (`src/puzzles/puzzles.jsonl`) held to the rules, Puzzle mode of the
//! board solved in headless Chromium, and (by hand) the shipped puzzles
//! searched again much deeper than the generator searched them.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::browser::{Browser, chromium_or_skip, http_get};
use pasang::movegen::legal_moves;
use pasang::notation::parse_position;
use pasang::puzzles::{PUZZLES_JSONL, Puzzle, read_puzzles};
use serde_json::json;

/// Twelve games of `pasang match` (strong 40,000 nodes against weak
/// 3,000), in which the generator finds puzzles at few nodes.
fn games_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/puzzle-games.rec")
}

/// A file of this test's own under the system's temporary folder.
fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("pasang-puzzles-{}-{name}", std::process::id()))
}

/// Runs `pasang puzzles` with `extra` flags into `out`; its puzzles.
fn make(out: &PathBuf, extra: &[&str]) -> Vec<Puzzle> {
    let games = games_file();
    let mut args = vec![
        "puzzles",
        "--out",
        out.to_str().unwrap(),
        "--nodes",
        "20000",
    ];
    args.extend_from_slice(extra);
    args.push(games.to_str().unwrap());
    let output = common::run(&args, "");
    assert_eq!(
        common::code(&output),
        0,
        "{}{}",
        common::stdout(&output),
        common::stderr(&output)
    );
    assert!(
        common::stdout(&output).contains(" puzzles to "),
        "{}",
        common::stdout(&output)
    );
    let text = std::fs::read_to_string(out).unwrap();
    let _ = std::fs::remove_file(out);
    read_puzzles(&text).unwrap_or_else(|error| panic!("{error}\n{text}"))
}

#[test]
fn the_same_games_give_the_same_puzzles_and_shards_make_the_whole() {
    let whole = make(&temp("whole"), &[]);
    assert!(!whole.is_empty(), "no puzzle in the test games");
    assert_eq!(make(&temp("again"), &[]), whole, "a second run differs");
    let mut union: Vec<Puzzle> = Vec::new();
    for shard in ["1/3", "2/3", "3/3"] {
        union.extend(make(&temp(&shard.replace('/', "-")), &["--shard", shard]));
    }
    let key = |p: &Puzzle| p.id.clone();
    let mut sorted_whole = whole.clone();
    sorted_whole.sort_by_key(key);
    union.sort_by_key(key);
    assert_eq!(
        union, sorted_whole,
        "the shards' puzzles are not the whole run's"
    );
    for puzzle in &whole {
        let moves = puzzle.solution().len();
        assert!(moves % 2 == 1 && moves <= 9, "{}", puzzle.to_line());
        assert!(puzzle.before.is_some() && puzzle.mistake.is_some());
    }
}

#[test]
fn bad_records_and_arguments_are_refused() {
    let bad = temp("bad.rec");
    let text = std::fs::read_to_string(games_file()).unwrap();
    // The first game's third ply replaced by a move that is not legal.
    let broken = text.replacen("2. e3f3e", "2. e3e9e", 1);
    assert_ne!(broken, text);
    std::fs::write(&bad, broken).unwrap();
    let out = temp("bad.jsonl");
    let output = common::run(
        &[
            "puzzles",
            "--out",
            out.to_str().unwrap(),
            bad.to_str().unwrap(),
        ],
        "",
    );
    let _ = std::fs::remove_file(&bad);
    let _ = std::fs::remove_file(&out);
    assert_eq!(common::code(&output), 1);
    let error = common::stderr(&output);
    assert!(error.contains("game 1: ply 3"), "{error}");
    let output = common::run(
        &["puzzles", "--out", "x.jsonl", "--shard", "4/3", "a.rec"],
        "",
    );
    assert_eq!(common::code(&output), 2);
    assert!(common::stderr(&output).contains("shard"));
}

/// `pasang puzzles --recheck` on shipped puzzles: those with alternatives
/// written as they are, and again with their alternatives taken away (the
/// check finds them again); a puzzle whose solution is another move's is
/// left out and named.
#[test]
fn recheck_keeps_sound_puzzles_and_finds_their_alternatives() {
    let shipped = read_puzzles(PUZZLES_JSONL).unwrap();
    let listed: Vec<&Puzzle> = shipped
        .iter()
        .filter(|p| !p.alternatives.is_empty())
        .take(3)
        .collect();
    assert_eq!(listed.len(), 3);
    let mut lines: Vec<String> = listed.iter().map(|p| p.to_line()).collect();
    let mut bare = listed[0].clone();
    bare.id = format!("{}-bare", bare.id);
    bare.alternatives.clear();
    lines.push(bare.to_line());
    // The solution replaced by an alternative: the deeper search plays
    // another move first.
    let mut other = listed[1].clone();
    other.id = format!("{}-other", other.id);
    other.moves = other.alternatives[0].clone();
    other.alternatives.clear();
    lines.push(other.to_line());
    let input = temp("recheck-in.jsonl");
    let out = temp("recheck-out.jsonl");
    std::fs::write(&input, lines.join("\n")).unwrap();
    let output = common::run(
        &[
            "puzzles",
            "--recheck",
            "--out",
            out.to_str().unwrap(),
            input.to_str().unwrap(),
        ],
        "",
    );
    let text = std::fs::read_to_string(&out).unwrap_or_default();
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(&out);
    let stdout = common::stdout(&output);
    assert_eq!(
        common::code(&output),
        0,
        "{stdout}{}",
        common::stderr(&output)
    );
    assert!(
        stdout.contains("Read 5 puzzles: 3 hold, 1 hold with alternatives, 1 left out"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("Left out {}: the deeper search plays", other.id)),
        "{stdout}"
    );
    let written = read_puzzles(&text).unwrap();
    assert_eq!(written.len(), 4);
    for (index, puzzle) in listed.iter().enumerate() {
        assert_eq!(&written[index], *puzzle);
    }
    assert_eq!(written[3].alternatives, listed[0].alternatives);
}

/// The rule set of a puzzle, as the page's filter names it.
fn rule_set(puzzle: &Puzzle) -> String {
    ["Pattern", "Ka Entry", "Second Column", "Centre"]
        .iter()
        .map(|name| puzzle.options[*name].clone())
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn every_shipped_puzzle_replays_by_the_rules() {
    let puzzles = read_puzzles(PUZZLES_JSONL).unwrap_or_else(|error| panic!("{error}"));
    let rule_sets: BTreeSet<String> = puzzles.iter().map(rule_set).collect();
    let mut themes: BTreeMap<&str, usize> = BTreeMap::new();
    for puzzle in &puzzles {
        // read_puzzles held each to the rules (Puzzle::check): the mistake
        // leads to the position, every move legal and in full, an odd
        // count, the game going on to the last.
        let moves = puzzle.solution().len();
        assert!(moves % 2 == 1, "{}", puzzle.id);
        assert!(!puzzle.themes.is_empty(), "{}", puzzle.id);
        assert!((600..=3000).contains(&puzzle.rating), "{}", puzzle.id);
        let position = parse_position(&puzzle.position).unwrap();
        let before = parse_position(puzzle.before.as_deref().unwrap()).unwrap();
        assert_ne!(before.side_to_move(), position.side_to_move());
        for theme in &puzzle.themes {
            *themes.entry(theme.as_str()).or_default() += 1;
        }
    }
    println!(
        "puzzles.jsonl: {} puzzles over {} rule sets; themes {themes:?}",
        puzzles.len(),
        rule_sets.len()
    );
    assert!(puzzles.len() >= 150, "{} puzzles", puzzles.len());
    assert!(rule_sets.len() >= 6, "{rule_sets:?}");
}

// ---- Puzzle mode in a real browser ----

/// A running `pasang gui` on a free port, stopped when dropped.
use common::Gui as Server;

/// Three shipped puzzles solved at 1280 x 900: the first and third by
/// clicks, the second typed; in each a wrong move first, refused ("Not
/// the move: try again.") with `#moves` and `data-state` as they were.
#[test]
fn three_puzzles_solved_in_a_real_browser() {
    puzzles_solved("three_puzzles_solved_in_a_real_browser", (1280, 900, false));
}

/// The same on a phone held upright (390 x 844). Run by hand:
/// `cargo test --release --test puzzles -- --ignored puzzles_on_a_phone`.
#[test]
#[ignore = "a second viewport; run by hand"]
fn puzzles_on_a_phone() {
    puzzles_solved("puzzles_on_a_phone", (390, 844, true));
}

/// Three puzzles of different rule sets with short solutions, first in
/// the file.
fn three_puzzles() -> Vec<Puzzle> {
    let mut chosen: Vec<Puzzle> = Vec::new();
    for puzzle in read_puzzles(PUZZLES_JSONL).unwrap() {
        if puzzle.solution().len() <= 3 && chosen.iter().all(|p| rule_set(p) != rule_set(&puzzle)) {
            chosen.push(puzzle);
        }
        if chosen.len() == 3 {
            break;
        }
    }
    assert_eq!(chosen.len(), 3, "three short puzzles of three rule sets");
    chosen
}

fn puzzles_solved(name: &str, (width, height, mobile): (u32, u32, bool)) {
    let Some(binary) = chromium_or_skip(name) else {
        return;
    };
    let started = Instant::now();
    let server = Server::start();
    assert_eq!(http_get(&server.address, "/puzzles.jsonl"), PUZZLES_JSONL);
    let mut browser = Browser::start(&binary);
    browser.viewport(width, height, mobile);
    let base = format!("http://{}/", server.address);
    // A puzzle the file does not have is said, and another one opened.
    browser.open(&format!("{base}?mode=puzzle&id=nope"));
    browser.wait_for(
        "document.querySelector('#error').textContent.includes(\"There is no puzzle 'nope'\") && document.querySelector('#puzzle').dataset.state === 'playing'",
        10,
    );
    for (number, puzzle) in three_puzzles().iter().enumerate() {
        browser.open(&format!("{base}?mode=puzzle&id={}", puzzle.id));
        wait_for_turn(&mut browser, puzzle, 1);
        // The mistake was played first: one move in the list.
        assert_eq!(
            browser.text("#moves > :nth-child(1)"),
            puzzle.mistake.clone().unwrap()
        );
        let solution = puzzle.solution();
        // A legal move that does not solve it (neither the solution's nor
        // an alternative): refused, nothing moves.
        let rules = puzzle.rules().unwrap();
        let position = parse_position(&puzzle.position).unwrap();
        let wrong = legal_moves(&position, &rules)
            .iter()
            .map(|mv| mv.to_string())
            .find(|mv| mv != solution[0] && !puzzle.alternatives.contains(mv))
            .expect("a first move is never forced");
        if number == 1 {
            browser.type_and_enter("#move-input", &wrong);
        } else {
            browser.click_move(&wrong);
        }
        browser.wait_for(
            "(document.querySelector('#puzzle-feedback.wrong') || {}).textContent === 'Not the move: try again.'",
            5,
        );
        assert_eq!(
            browser.eval("document.querySelector('#moves').children.length"),
            1
        );
        assert_eq!(
            browser.eval("document.querySelector('#puzzle').dataset.state"),
            "playing"
        );
        for (index, mv) in solution.iter().enumerate().step_by(2) {
            wait_for_turn(&mut browser, puzzle, 1 + index);
            if number == 1 {
                browser.type_and_enter("#move-input", mv);
            } else {
                browser.click_move(mv);
            }
        }
        browser.wait_for(
            &format!(
                "document.querySelector('#puzzle').dataset.state === 'solved' && document.querySelector('#moves').children.length === {}",
                1 + solution.len()
            ),
            10,
        );
        // The page played the replies: the list is the mistake and the solution.
        for (index, mv) in solution.iter().enumerate() {
            assert_eq!(
                browser.text(&format!("#moves > :nth-child({})", index + 2)),
                *mv
            );
        }
    }
    // Three first tries missed: the rating fell, the streak is 0, and the
    // record is kept in the browser.
    let kept = browser.eval("JSON.parse(localStorage.getItem('pasang-puzzles'))");
    assert_eq!(kept["streak"], json!(0), "{kept}");
    assert!(kept["rating"].as_i64().unwrap() < 1500, "{kept}");
    assert_eq!(kept["results"].as_object().unwrap().len(), 3, "{kept}");
    println!(
        "{name}: three puzzles at {width}x{height}, {:.1} s in all",
        started.elapsed().as_secs_f64()
    );
}

/// A shipped puzzle that lists `alternatives`: its other first move (not
/// the solution's) is taken as solving it, said in English and, with the
/// language switched, in Malay; the first try counts as solved.
#[test]
fn an_alternative_first_move_solves_the_puzzle() {
    let name = "an_alternative_first_move_solves_the_puzzle";
    let Some(binary) = chromium_or_skip(name) else {
        return;
    };
    let puzzle = read_puzzles(PUZZLES_JSONL)
        .unwrap()
        .into_iter()
        .find(|p| !p.alternatives.is_empty())
        .expect("a shipped puzzle with alternatives");
    let alternative = puzzle.alternatives.last().unwrap().clone();
    let solution = puzzle.solution()[0].to_string();
    let (_server, mut browser) = puzzle_on_a_phone(&binary, &puzzle);
    wait_for_turn(&mut browser, &puzzle, 1);
    browser.click_move(&alternative);
    let english = format!("Solved! That move wins too; the puzzle's line starts with {solution}.");
    browser.wait_for(
        &format!(
            "document.querySelector('#puzzle').dataset.state === 'solved'
               && document.querySelector('#moves').children.length === 2
               && (document.querySelector('#puzzle-feedback.right') || {{}}).textContent === {english:?}"
        ),
        10,
    );
    assert_eq!(browser.text("#moves > :nth-child(2)"), alternative);
    let kept = browser.eval("JSON.parse(localStorage.getItem('pasang-puzzles'))");
    assert_eq!(kept["results"][&puzzle.id], json!(1), "{kept}");
    assert_eq!(kept["streak"], json!(1), "{kept}");
    browser.eval(
        "(() => { const l = document.querySelector('#language'); l.value = 'ms'; l.dispatchEvent(new Event('change')); })()",
    );
    let malay = format!(
        "Berjaya diselesaikan! Langkah itu juga menang; penyelesaian teka-teki ini bermula dengan {solution}."
    );
    browser.wait_for(
        &format!(
            "(document.querySelector('#puzzle-feedback.right') || {{}}).textContent === {malay:?}"
        ),
        10,
    );
}

/// Fails before the players' issue: a one-move "find the win" said
/// "Solved!" and nothing of why the move wins. Now the page says what the
/// move took, the points, and what the puzzle's themes show in a
/// player's words ("no answer saves North", not the endgame search), on
/// a phone, in view without scrolling.
#[test]
fn a_one_move_win_says_why_it_wins() {
    let name = "a_one_move_win_says_why_it_wins";
    let Some(binary) = chromium_or_skip(name) else {
        return;
    };
    let puzzle = read_puzzles(PUZZLES_JSONL)
        .unwrap()
        .into_iter()
        .find(|p| {
            p.solution().len() == 1
                && p.themes.iter().any(|theme| theme == "endgame-proof")
                && !p.themes.iter().any(|theme| theme == "save")
        })
        .expect("a shipped one-move win proven by the endgame solve");
    let solution = puzzle.solution()[0].to_string();
    let (_server, mut browser) = puzzle_on_a_phone(&binary, &puzzle);
    let plies = 1 + usize::from(puzzle.mistake.is_some());
    wait_for_turn(&mut browser, &puzzle, plies - 1);
    browser.click_move(&solution);
    browser.wait_for(
        "document.querySelector('#puzzle').dataset.state === 'solved' && Boolean(document.querySelector('#puzzle-why'))",
        10,
    );
    let why = browser.text("#puzzle-why");
    assert!(why.starts_with(&solution), "{why}");
    assert!(why.contains("Points now: South "), "{why}");
    // In a player's words: no answer saves the loser, not the search.
    assert!(why.contains("no answer saves "), "{why}");
    assert!(!why.contains("search"), "{why}");
    let bottom =
        browser.eval("document.querySelector('#puzzle-why').getBoundingClientRect().bottom");
    assert!(
        bottom.as_f64().unwrap() <= 844.0,
        "#puzzle-why ends at y {bottom}"
    );
    browser.eval(
        "(() => { const l = document.querySelector('#language'); l.value = 'ms'; l.dispatchEvent(new Event('change')); })()",
    );
    browser.wait_for(
        "document.querySelector('#puzzle-why').textContent.includes('Mata sekarang')",
        10,
    );
    let why = browser.text("#puzzle-why");
    assert!(why.contains("tiada jawapan yang menyelamatkan "), "{why}");
    assert!(!why.contains("carian"), "{why}");
}

/// A `pasang gui` with `puzzle` open on a phone-sized page (390 x 844).
fn puzzle_on_a_phone(binary: &str, puzzle: &Puzzle) -> (Server, Browser) {
    let server = Server::start();
    let mut browser = Browser::start(binary);
    browser.viewport(390, 844, true);
    browser.open(&format!(
        "http://{}/?mode=puzzle&id={}",
        server.address, puzzle.id
    ));
    (server, browser)
}

/// Waits until `puzzle` is on the board, the person's turn, with `plies`
/// moves in the list.
fn wait_for_turn(browser: &mut Browser, puzzle: &Puzzle, plies: usize) {
    browser.wait_for(
        &format!(
            "(() => {{ const p = document.querySelector('#puzzle');
               return Boolean(p) && p.dataset.id === {:?} && p.dataset.state === 'playing'
                 && document.querySelector('#moves').children.length === {plies}; }})()",
            puzzle.id
        ),
        10,
    );
}

// ---- the deeper re-check ----

/// One line of a MultiPV search: its first move, win chance (w + d/2,
/// per mille) and, for `score mate N`, N.
struct Line {
    first: String,
    chance: f64,
    mate: Option<i64>,
}

impl Line {
    /// A proven win for the side to move (`score mate` above 0).
    fn wins(&self) -> bool {
        self.mate.is_some_and(|moves| moves > 0)
    }
}

/// The last complete pair of lines (multipv 1 and 2) and the bestmove of
/// `go nodes 3000000` from `puzzle`'s position (with its options), Threads
/// 1 and the default Hash; no pair where the position has one legal move.
fn deep_search(session: &mut common::Session, puzzle: &Puzzle) -> (Option<(Line, Line)>, String) {
    session.send("ucinewgame");
    for (name, value) in &puzzle.options {
        session.send(&format!("setoption name {name} value {value}"));
    }
    session.send(&format!("position fen {}", puzzle.position));
    session.send("go nodes 3000000");
    let lines = session.until_word("bestmove", Duration::from_secs(600));
    let parse = |line: &str| -> Option<(usize, Line)> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = |key: &str| words.iter().position(|w| *w == key);
        let multipv: usize = words.get(at("multipv")? + 1)?.parse().ok()?;
        let wdl = at("wdl")?;
        let w: f64 = words.get(wdl + 1)?.parse().ok()?;
        let d: f64 = words.get(wdl + 2)?.parse().ok()?;
        let score = at("score")?;
        let mate = match *words.get(score + 1)? {
            "mate" => Some(words.get(score + 2)?.parse().ok()?),
            _ => None,
        };
        let first = words.get(at("pv")? + 1)?.to_string();
        Some((
            multipv,
            Line {
                first,
                chance: w + d / 2.0,
                mate,
            },
        ))
    };
    let mut pair: Option<(Line, Line)> = None;
    let mut pending: Option<Line> = None;
    for line in &lines {
        match parse(line) {
            Some((1, first)) => pending = Some(first),
            Some((2, second)) => {
                if let Some(first) = pending.take() {
                    pair = Some((first, second));
                }
            }
            _ => {}
        }
    }
    let best = lines
        .last()
        .and_then(|line| line.split_whitespace().nth(1))
        .unwrap_or("")
        .to_string();
    (pair, best)
}

/// Why `puzzle` fails the contract (ISSUE-NOTES, "Learn"; docs/learn.md),
/// given its deep search: `None` when it holds. The solution's first move
/// must be the bestmove and the first line's; then either the first line
/// is a proven win and the second is not, or the first line's win chance
/// is at least 200 per mille above the second's. Two proven wins hold only
/// where the second line's first move is in `alternatives`. A position
/// with one legal move is no puzzle.
fn contract_fault(puzzle: &Puzzle, pair: Option<(Line, Line)>, best: &str) -> Option<String> {
    let rules = puzzle.rules().unwrap();
    let legal = legal_moves(&parse_position(&puzzle.position).unwrap(), &rules).len();
    if legal < 2 {
        return Some("one legal move: no puzzle".to_string());
    }
    let Some((first, second)) = pair else {
        return Some("no complete pair of lines".to_string());
    };
    let solution = puzzle.solution()[0];
    if best != solution || first.first != solution {
        return Some(format!(
            "solution {solution}, bestmove {best}, first line {}",
            first.first
        ));
    }
    let margin = first.chance - second.chance;
    match (first.wins(), second.wins()) {
        (true, false) => None,
        (true, true) if puzzle.alternatives.contains(&second.first) => None,
        (true, true) => Some(format!(
            "two proven wins: {solution} (mate {:?}) and {} (mate {:?}), not in alternatives {:?}",
            first.mate, second.first, second.mate, puzzle.alternatives
        )),
        _ if margin >= 200.0 => None,
        _ => Some(format!(
            "margin {margin} per mille over {} (solution {solution})",
            second.first
        )),
    }
}

/// The contract's re-check (ISSUE-NOTES, "Learn"), on a sample of the
/// shipped puzzles (every `PUZZLE_SAMPLE_STEP`-th, 5 by default): each
/// searched afresh from `position` (with its options) with MultiPV 2,
/// UCI_ShowWDL, 3,000,000 nodes, Threads 1 and the default Hash, and held
/// to [`contract_fault`]; 90% of the sample must hold. Run by hand (a
/// minute or less: a search that proves a mate stops early):
/// `cargo test --release --test puzzles -- --ignored --nocapture deeper`.
#[test]
#[ignore = "a deep search of each sampled puzzle; run by hand"]
fn shipped_puzzles_stand_a_deeper_search() {
    let step: usize = std::env::var("PUZZLE_SAMPLE_STEP")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(5)
        .max(1);
    let puzzles = read_puzzles(PUZZLES_JSONL).unwrap();
    let sample: Vec<&Puzzle> = puzzles.iter().step_by(step).collect();
    let mut session = common::Session::spawn();
    session.send("uci");
    session.until_word("uciok", Duration::from_secs(10));
    for option in [
        "Threads value 1",
        "MultiPV value 2",
        "UCI_ShowWDL value true",
    ] {
        session.send(&format!("setoption name {option}"));
    }
    let mut held = 0;
    let mut failures = Vec::new();
    for puzzle in &sample {
        let (pair, best) = deep_search(&mut session, puzzle);
        match contract_fault(puzzle, pair, &best) {
            None => held += 1,
            Some(fault) => failures.push(format!("{}: {fault}", puzzle.id)),
        }
    }
    let share = held as f64 / sample.len() as f64;
    println!(
        "deeper re-check: {held} of {} sampled puzzles hold ({:.1}%); failing: {failures:#?}",
        sample.len(),
        100.0 * share
    );
    assert!(share >= 0.9, "{failures:#?}");
}
