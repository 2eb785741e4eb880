//! The protocol as a GUI sees it: the real `pasang` binary runs as a
//! subprocess with piped stdin and stdout, and every test talks to it line
//! by line through the shared [`Session`] (tests/common), so every wait
//! has a deadline and no test can hang: a missing answer fails with the
//! transcript of the session (and the engine's stderr). Timeouts are
//! generous liveness bounds (`readyok` within 1 s, `bestmove` within 2 s of
//! `stop`); no test asserts a tight timing.

mod common;

use std::collections::BTreeSet;
use std::io::Write;
use std::ops::{Deref, DerefMut};
use std::process::Stdio;
use std::thread;
use std::time::{Duration, Instant};

use common::{Session, shorten};

// ---------------------------------------------------------------------------
// Fixtures

/// The start of pattern 1 (RULES.md).
const START_1: &str = "wwwwwbbbbbw/bwwwwbbbbww/bbwwwbbbwww/bbbwwbbwwww/bbbbwbwwwww/bbbbb+bbbbb/wwwwwbwbbbb/wwwwbbwwbbb/wwwbbbwwwbb/wwbbbbwwwwb/wbbbbbwwwww s 0 0 --";

/// The start of pattern 2 (RULES.md, rows from rank 11 down).
const START_2: &str = "bwwbbwwbwbb/bbwwbbwwbbw/wbbwwbbwbww/bwwbwwbbwwb/wwbbbwbwwbb/wbbww+wwbbw/bbwwbwbbbww/bwwbbwwbwwb/wwbwbbwwbbw/wbbwwbbwwbb/bbwbwwbbwwb s 0 0 --";

/// The worked opening of RULES.md and the position it reaches.
const OPENING: &str = "c j b4c4n k7j7w c4c7ew j7k7s";
const AFTER_OPENING: &str = "wwwwwbbbb.w/bwwwwbbbb.w/bbwwwbbbw.w/bb.wwbbww.w/..S.wb....N/bb.bb+bbbb./ww.wwbwbbb./w..wbbwwbb./ww.bbbwwwb./ww.bbbwwww./wb.bbbwwwww s 14 20 cj";
/// The legal moves after the worked opening, worked out by hand: the ka on
/// c7 takes b6-b8 (one line of three blacks around b7), d6 from d7, or the
/// three blacks east of c3 and of c2.
const AFTER_OPENING_MOVES: &[&str] = &["c7b7ns", "c7d7s", "c7c3e", "c7c2e"];

/// The position after `c j b4c4n k7j7w`: rich enough that searches run
/// long and are not proven quickly.
const MIDDLEGAME: &str = "position startpos moves c j b4c4n k7j7w";

/// No stones left, North to move (both passages and only South's ka is a
/// legal phase combination): South won 10-4, so the side to move has lost.
const OVER_NORTH_LOST: &str = ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../.........S. n 10 4 bc";
/// No stones left, South to move (both kas): South won 10-4.
const OVER_SOUTH_WON: &str = ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../.........SN s 10 4 bc";
/// No stones left, 7-7: a draw.
const OVER_DRAW: &str = ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../.........SN s 7 7 bc";
/// No stones left, North to move and ahead 9-7.
const OVER_NORTH_WON: &str = ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../.........SN n 7 9 bc";
/// South's ka on a1 is boxed in by the stone on a2 and North's ka on b1
/// while stones remain: South is suntuk and loses.
const SUNTUK: &str = ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../w........../SN........b s 50 60 ak";
/// A tiny endgame (four stones) that the search proves at once.
const TINY_ENDGAME: &str = "w.........b/.........../.........../.........../........b../.....+...../..w......../.........../.........../.........../S.........N s 60 58 ak";

// ---------------------------------------------------------------------------
// Timeouts (liveness bounds, not performance claims)

/// `readyok` while idle or during a search.
const READY: Duration = Duration::from_secs(1);
/// `bestmove` after `stop` or `ponderhit`.
const AFTER_STOP: Duration = Duration::from_secs(2);
/// Commands that do real work first (perft, bench, a table allocation, a
/// short search).
const WORK: Duration = Duration::from_secs(10);
/// How long a search that must wait for `stop` is watched for a premature
/// `bestmove`.
const WATCH: Duration = Duration::from_millis(300);

// ---------------------------------------------------------------------------
// The engine as a subprocess

/// The engine as a GUI speaks to it: a [`Session`] with the UCI manners
/// of these tests on top.
struct Engine {
    session: Session,
}

impl Deref for Engine {
    type Target = Session;

    fn deref(&self) -> &Session {
        &self.session
    }
}

impl DerefMut for Engine {
    fn deref_mut(&mut self) -> &mut Session {
        &mut self.session
    }
}

impl Engine {
    fn spawn() -> Engine {
        Engine::spawn_with_log(None)
    }

    /// Spawns with `RUST_LOG` set to `log` (or unset).
    fn spawn_with_log(log: Option<&str>) -> Engine {
        let mut command = common::pasang();
        if let Some(level) = log {
            command.env("RUST_LOG", level);
        }
        let mut engine = Engine {
            session: Session::spawn_command(command),
        };
        // The banner comes first, before any input.
        let banner = engine.expect_line("the banner", |_| true, WORK);
        let expected = format!("pasang {} by ", env!("CARGO_PKG_VERSION"));
        if !banner.starts_with(&expected) {
            engine.fail(&format!("the first line should be a banner, got: {banner}"));
        }
        engine
    }

    /// `isready` → `readyok` within `timeout`; returns the lines before it.
    fn sync_within(&mut self, timeout: Duration) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until("readyok", |line| line == "readyok", timeout);
        lines.pop();
        lines
    }

    /// Waits until every command sent so far has been carried out and
    /// returns the lines they printed. The barrier is `result`, which the
    /// engine thread answers in order with the other commands whatever the
    /// state of a search, so the barrier does not lean on the `isready`
    /// logic under test (see
    /// `isready_right_after_bestmove_waits_for_earlier_commands`).
    fn sync(&mut self) -> Vec<String> {
        self.send("result");
        let mut lines = self.read_until(
            "the result line (barrier)",
            |line| line.starts_with("result "),
            WORK,
        );
        lines.pop();
        lines
    }

    /// Sends `command` and checks that it prints nothing.
    fn send_silent(&mut self, command: &str) {
        self.send(command);
        let lines = self.sync();
        if !lines.is_empty() {
            self.fail(&format!("'{command}' should print nothing, got {lines:?}"));
        }
    }

    /// Sends `command` and expects exactly one `info string error:` line
    /// (checked by `check`) and nothing else.
    fn send_error(&mut self, command: &str, check: impl Fn(&str) -> bool) -> String {
        self.send(command);
        let lines = self.sync();
        if lines.len() != 1 || !lines[0].starts_with("info string error: ") || !check(&lines[0]) {
            self.fail(&format!(
                "'{}' should give one fitting 'info string error:' line, got {lines:?}",
                shorten(command, 80)
            ));
        }
        lines[0].clone()
    }

    /// Sends a malformed `go` line: it must give one `info string error:`
    /// naming the fault and start no search, so nothing else follows (no
    /// `bestmove`, even after a `stop`).
    fn send_malformed_go(&mut self, line: &[u8]) {
        let mut bytes = line.to_vec();
        bytes.push(b'\n');
        self.send_bytes(&bytes);
        let first = self.expect_line("the error line", |_| true, WORK);
        if !first.starts_with("info string error: ") || !first.ends_with("no search started") {
            self.fail(&format!(
                "a malformed go must report an error and start no search, got: {first}"
            ));
        }
        self.send("stop");
        let rest = self.sync();
        if !rest.is_empty() {
            self.fail(&format!("a malformed go started a search: {rest:?}"));
        }
    }

    /// The `uci` handshake; returns the lines before `uciok`.
    fn handshake(&mut self) -> Vec<String> {
        self.send("uci");
        let mut lines = self.read_until("uciok", |line| line == "uciok", READY);
        lines.pop();
        lines
    }

    /// The legal moves, from the `moves` extension.
    fn moves(&mut self) -> Vec<String> {
        self.send("moves");
        let line = self.expect_line(
            "a moves line",
            |line| line == "moves" || line.starts_with("moves "),
            READY,
        );
        line.split_whitespace()
            .skip(1)
            .map(str::to_string)
            .collect()
    }

    /// The `result` line.
    fn result(&mut self) -> String {
        self.send("result");
        self.expect_line("a result line", |line| line.starts_with("result "), READY)
    }

    /// The `d` diagram and details.
    fn display(&mut self) -> Vec<String> {
        self.send("d");
        self.sync()
    }

    /// The value of the `d` line starting with `label` (e.g. "Position: ").
    fn display_field(&mut self, label: &str) -> String {
        let lines = self.display();
        match lines.iter().find_map(|line| line.strip_prefix(label)) {
            Some(value) => value.to_string(),
            None => self.fail(&format!("'d' printed no '{label}' line: {lines:?}")),
        }
    }

    /// The current position string, from `d`.
    fn position_string(&mut self) -> String {
        self.display_field("Position: ")
    }

    /// Waits for the `bestmove` of a running search.
    fn bestmove(&mut self, timeout: Duration) -> Search {
        let lines = self.read_until("bestmove", |line| line.starts_with("bestmove"), timeout);
        Search::from_lines(lines)
    }

    /// Sends a `go` command and waits for its `bestmove`.
    fn go(&mut self, command: &str, timeout: Duration) -> Search {
        self.send(command);
        self.bestmove(timeout)
    }

    /// Runs a search and checks everything a GUI relies on: well-formed
    /// info lines, one final exact info line whose pv starts with the
    /// legal bestmove, nothing after the bestmove.
    fn go_checked(&mut self, command: &str, timeout: Duration) -> Search {
        let legal = self.moves();
        let search = self.go(command, timeout);
        if let Err(problem) = search.check(&legal) {
            self.fail(&format!("'{command}': {problem}"));
        }
        self.expect_quiet_after_bestmove();
        self.check_lines_are_legal(&search);
        search
    }

    /// Every reported pv is a legal sequence of moves from the current
    /// position, and the ponder move is legal after the bestmove. The
    /// current position is left as it was.
    fn check_lines_are_legal(&mut self, search: &Search) {
        let base = self.position_string();
        let mut pvs: Vec<Vec<String>> = search
            .reports()
            .into_iter()
            .filter_map(|info| info.pv)
            .collect();
        pvs.dedup();
        for pv in pvs {
            self.send(&format!("position fen {base} moves {}", pv.join(" ")));
            let lines = self.sync();
            if !lines.is_empty() {
                self.fail(&format!("pv {pv:?} is not a legal line: {lines:?}"));
            }
        }
        if let Some(ponder) = &search.ponder {
            self.send(&format!("position fen {base} moves {}", search.best));
            if !self.moves().contains(ponder) {
                self.fail(&format!(
                    "ponder move {ponder} is not legal after {}",
                    search.best
                ));
            }
        }
        self.send_silent(&format!("position fen {base}"));
    }

    /// Nothing about a finished search is printed after its bestmove.
    fn expect_quiet_after_bestmove(&mut self) {
        let after = self.sync();
        if !after.is_empty() {
            self.fail(&format!("output after bestmove: {after:?}"));
        }
    }
}

// ---------------------------------------------------------------------------
// Info lines and searches

#[derive(Clone, Debug, Default)]
struct Info {
    depth: Option<u32>,
    seldepth: Option<u32>,
    multipv: Option<u32>,
    /// `cp` or `mate`, its value, and `lowerbound`/`upperbound` if any.
    score: Option<(String, i64, Option<String>)>,
    nodes: Option<u64>,
    nps: Option<u64>,
    hashfull: Option<u32>,
    time: Option<u64>,
    currmove: Option<String>,
    pv: Option<Vec<String>>,
    string: Option<String>,
}

impl Info {
    /// Parses an `info` line; `Err` names what is malformed.
    fn parse(line: &str) -> Result<Info, String> {
        let tokens: Vec<&str> = line.split(' ').collect();
        if tokens.first() != Some(&"info") {
            return Err(format!("not an info line: {line}"));
        }
        let mut info = Info::default();
        let mut index = 1;
        fn number<T: std::str::FromStr>(value: Option<&&str>, key: &str) -> Result<T, String> {
            value
                .and_then(|text| text.parse().ok())
                .ok_or_else(|| format!("'{key}' without a valid number"))
        }
        while index < tokens.len() {
            let key = tokens[index];
            let value = tokens.get(index + 1);
            match key {
                "depth" => info.depth = Some(number(value, key)?),
                "seldepth" => info.seldepth = Some(number(value, key)?),
                "multipv" => info.multipv = Some(number(value, key)?),
                "nodes" => info.nodes = Some(number(value, key)?),
                "nps" => info.nps = Some(number(value, key)?),
                "hashfull" => info.hashfull = Some(number(value, key)?),
                "time" => info.time = Some(number(value, key)?),
                "currmovenumber" => {
                    let _: u32 = number(value, key)?;
                }
                "currmove" => {
                    info.currmove = Some(value.ok_or("'currmove' without a move")?.to_string())
                }
                "score" => {
                    let kind = value.ok_or("'score' without a kind")?;
                    if *kind != "cp" && *kind != "mate" {
                        return Err(format!("score kind '{kind}'"));
                    }
                    let amount: i64 = number(tokens.get(index + 2), kind)?;
                    let bound = tokens
                        .get(index + 3)
                        .filter(|word| **word == "lowerbound" || **word == "upperbound")
                        .map(|word| word.to_string());
                    index += if bound.is_some() { 4 } else { 3 };
                    info.score = Some((kind.to_string(), amount, bound));
                    continue;
                }
                "wdl" => {
                    let chances: Vec<u32> = (1..=3)
                        .map(|offset| number(tokens.get(index + offset), key))
                        .collect::<Result<_, _>>()?;
                    if chances.iter().sum::<u32>() != 1000 {
                        return Err(format!("wdl {chances:?} does not add up to 1000"));
                    }
                    index += 4;
                    continue;
                }
                "pv" => {
                    info.pv = Some(tokens[index + 1..].iter().map(|t| t.to_string()).collect());
                    break;
                }
                "string" => {
                    info.string = Some(tokens[index + 1..].join(" "));
                    break;
                }
                other => return Err(format!("unknown info field '{other}'")),
            }
            index += 2;
        }
        Ok(info)
    }

    /// A principal-variation report: every field a GUI shows.
    fn is_pv_report(&self) -> bool {
        self.pv.is_some()
    }

    fn check_pv_report(&self, line: &str) -> Result<(), String> {
        let complete = self.depth.is_some()
            && self.seldepth.is_some()
            && self.multipv.is_some()
            && self.score.is_some()
            && self.nodes.is_some()
            && self.nps.is_some()
            && self.hashfull.is_some_and(|permille| permille <= 1000)
            && self.time.is_some()
            && self.pv.as_ref().is_some_and(|pv| !pv.is_empty());
        if complete {
            Ok(())
        } else {
            Err(format!("incomplete pv info line: {line}"))
        }
    }

    fn exact(&self) -> bool {
        self.score.as_ref().is_some_and(|score| score.2.is_none())
    }
}

/// The output of one `go`, up to and including its `bestmove`.
#[derive(Debug)]
struct Search {
    /// The lines before `bestmove`.
    lines: Vec<String>,
    best: String,
    ponder: Option<String>,
}

impl Search {
    fn from_lines(mut lines: Vec<String>) -> Search {
        let last = lines.pop().expect("a bestmove line");
        let words: Vec<&str> = last.split_whitespace().collect();
        let (best, ponder) = match words.as_slice() {
            ["bestmove", best] => (best.to_string(), None),
            ["bestmove", best, "ponder", ponder] => (best.to_string(), Some(ponder.to_string())),
            _ => panic!("malformed bestmove line: {last}"),
        };
        Search {
            lines,
            best,
            ponder,
        }
    }

    /// The parsed principal-variation reports, in order.
    fn reports(&self) -> Vec<Info> {
        self.lines
            .iter()
            .filter_map(|line| Info::parse(line).ok())
            .filter(Info::is_pv_report)
            .collect()
    }

    /// The last line before `bestmove`, parsed.
    fn final_info(&self) -> Option<Info> {
        self.lines.last().and_then(|line| Info::parse(line).ok())
    }

    fn deepest(&self) -> u32 {
        self.reports()
            .iter()
            .filter_map(|info| info.depth)
            .max()
            .unwrap_or(0)
    }

    /// Checks a normal search (a position with legal moves).
    fn check(&self, legal: &[String]) -> Result<(), String> {
        for line in &self.lines {
            if line.starts_with("bestmove") {
                return Err(format!("two bestmoves: {line}"));
            }
            if line.starts_with("info string error") {
                return Err(format!("unexpected error: {line}"));
            }
            if !line.starts_with("info ") {
                continue;
            }
            let info = Info::parse(line)?;
            if info.is_pv_report() {
                info.check_pv_report(line)?;
                for mv in info.pv.iter().flatten().take(1) {
                    if !legal.contains(mv) {
                        return Err(format!("pv starts with an illegal move: {line}"));
                    }
                }
            } else if let Some(mv) = &info.currmove {
                if !legal.contains(mv) {
                    return Err(format!("currmove is not legal: {line}"));
                }
            }
        }
        if !legal.contains(&self.best) {
            return Err(format!("bestmove {} is not in {legal:?}", self.best));
        }
        let last = self.lines.last().ok_or("no info line before bestmove")?;
        let info = Info::parse(last)?;
        if !info.is_pv_report() || !info.exact() {
            return Err(format!(
                "the line before bestmove is not an exact pv report: {last}"
            ));
        }
        let pv = info.pv.clone().unwrap_or_default();
        if pv.first() != Some(&self.best) {
            return Err(format!(
                "final pv does not start with bestmove {}: {last}",
                self.best
            ));
        }
        if let Some(ponder) = &self.ponder {
            if pv.get(1) != Some(ponder) {
                return Err(format!(
                    "ponder move {ponder} is not the pv's second move: {last}"
                ));
            }
        }
        if info.multipv != Some(1) {
            return Err(format!("final info line is not multipv 1: {last}"));
        }
        Ok(())
    }
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|item| item.to_string()).collect()
}

fn set(items: &[String]) -> BTreeSet<String> {
    items.iter().cloned().collect()
}

/// The `Nodes searched: N` count of a perft, and its divide lines.
fn perft_output(engine: &mut Engine, command: &str) -> (Vec<(String, u64)>, u64) {
    engine.send(command);
    let lines = engine.read_until(
        "'Nodes searched:'",
        |line| line.starts_with("Nodes searched:"),
        WORK,
    );
    let total: u64 = lines
        .last()
        .and_then(|line| line.strip_prefix("Nodes searched: "))
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| engine.fail("malformed 'Nodes searched:' line"));
    let mut divide = Vec::new();
    for line in &lines[..lines.len() - 1] {
        if line.is_empty() {
            continue;
        }
        match line.split_once(": ").map(|(mv, n)| (mv, n.parse::<u64>())) {
            Some((mv, Ok(count))) => divide.push((mv.to_string(), count)),
            _ => engine.fail(&format!("unexpected perft line: {line}")),
        }
    }
    (divide, total)
}

/// The `Nodes searched  : N` count of a bench run.
fn bench_nodes(engine: &mut Engine, command: &str) -> u64 {
    engine.send(command);
    let lines = engine.read_until(
        "'Nodes/second    :'",
        |line| line.starts_with("Nodes/second"),
        WORK,
    );
    let last = lines.last().expect("the matching line");
    let nps = last
        .strip_prefix("Nodes/second    : ")
        .and_then(|n| n.parse::<u64>().ok());
    let nodes = lines.get(lines.len().wrapping_sub(2)).and_then(|line| {
        line.strip_prefix("Nodes searched  : ")
            .and_then(|n| n.parse::<u64>().ok())
    });
    match (nodes, nps) {
        (Some(nodes), Some(_)) if nodes > 0 => nodes,
        _ => engine.fail("bench does not end with 'Nodes searched  : N' and 'Nodes/second    : N'"),
    }
}

// ---------------------------------------------------------------------------
// Handshake, isready, options

#[test]
fn handshake_announces_identity_and_every_option() {
    let mut engine = Engine::spawn();
    let lines = engine.handshake();
    assert!(
        lines[0].starts_with("id name pasang"),
        "first line: {lines:?}"
    );
    assert!(lines[1].starts_with("id author "), "second line: {lines:?}");
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    assert_eq!(
        options.len(),
        lines.len() - 3,
        "only id, option and the build lines before uciok: {lines:?}"
    );
    let build = lines.last().expect("lines before uciok");
    assert!(
        build.starts_with(&format!("info string built for {}", std::env::consts::ARCH)),
        "last line before uciok names the build: {lines:?}"
    );
    let expected = [
        ("Hash", "spin"),
        ("Threads", "spin"),
        ("MultiPV", "spin"),
        ("Move Overhead", "spin"),
        ("Ponder", "check"),
        ("Clear Hash", "button"),
        ("Pattern", "combo"),
        ("Ka Entry", "combo"),
        ("Second Column", "combo"),
        ("Centre", "combo"),
    ];
    for (name, kind) in expected {
        let prefix = format!("option name {name} type {kind}");
        let count = options
            .iter()
            .filter(|line| **line == &prefix || line.starts_with(&format!("{prefix} ")))
            .count();
        assert_eq!(count, 1, "one '{prefix}' line expected in {options:?}");
    }
    let combo = |name: &str| -> String {
        options
            .iter()
            .find(|line| line.starts_with(&format!("option name {name} type combo")))
            .map(|line| line.to_string())
            .unwrap()
    };
    assert!(combo("Pattern").contains("default 1"));
    for value in ["var 1", "var 2"] {
        assert!(combo("Pattern").contains(value));
    }
    for value in ["default slide", "var slide", "var jump", "var both"] {
        assert!(combo("Ka Entry").contains(value));
    }
    for value in ["default opposite", "var opposite", "var any"] {
        assert!(combo("Second Column").contains(value));
    }
    for value in ["default wall", "var wall", "var open"] {
        assert!(combo("Centre").contains(value));
    }
    for line in options.iter().filter(|line| line.contains(" type spin")) {
        for field in [" default ", " min ", " max "] {
            assert!(line.contains(field), "spin option without{field}: {line}");
        }
    }

    // Repeated uci gives the same answer; the engine still works.
    let again = engine.handshake();
    assert_eq!(lines, again);
    assert!(engine.sync_within(READY).is_empty());
    engine.go_checked("go depth 2", WORK);
}

#[test]
fn isready_answers_readyok_and_debug_is_accepted() {
    let mut engine = Engine::spawn();
    for _ in 0..3 {
        assert!(engine.sync_within(READY).is_empty());
    }
    engine.send_silent("debug on");
    engine.send_silent("debug off");
    engine.send_error("debug maybe", |_| true);
    // While idle, readyok follows the output of the commands before it.
    engine.send("eval");
    engine.send("setoption name Hash value 32");
    engine.send("setoption name Hash value 0");
    let lines = engine.sync_within(WORK);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("info string eval"), "{lines:?}");
    assert!(lines[1].starts_with("info string error"), "{lines:?}");
}

/// UCI's `isready` is the GUI's barrier: once `readyok` arrives, every
/// command sent before it has been carried out (a GUI waits for it after
/// `setoption name Hash` before starting its clock). During a search the
/// reader thread answers at once, as it should; right after a `bestmove`
/// the search must already count as finished, or an `isready` sent then
/// overtakes the commands sent ahead of it (it did, about one time in ten,
/// until the engine counted the search done before printing `bestmove`).
#[test]
fn isready_right_after_bestmove_waits_for_earlier_commands() {
    let mut engine = Engine::spawn();
    for round in 0..300 {
        let command = if round % 2 == 0 {
            "go depth 1"
        } else {
            "go nodes 1"
        };
        engine.go(command, WORK);
        engine.send("eval");
        engine.send("isready");
        let first = engine.expect_line("a line", |_| true, WORK);
        if first == "readyok" {
            engine.fail(&format!(
                "round {round}: readyok came before the output of 'eval' sent ahead of it"
            ));
        }
        engine.expect_line("readyok", |line| line == "readyok", WORK);
    }
    for round in 0..100 {
        engine.send("go perft 1");
        engine.expect_line(
            "perft total",
            |line| line.starts_with("Nodes searched"),
            WORK,
        );
        engine.send("eval");
        engine.send("isready");
        let first = engine.expect_line("a line", |_| true, WORK);
        if first == "readyok" {
            engine.fail(&format!(
                "go perft, round {round}: readyok came before the output of 'eval' sent ahead of it"
            ));
        }
        engine.expect_line("readyok", |line| line == "readyok", WORK);
    }
}

#[test]
fn valid_option_values_are_accepted_silently() {
    let mut engine = Engine::spawn();
    for command in [
        "setoption name Hash value 1",
        "setoption name Hash value 64",
        "setoption name Threads value 2",
        "setoption name Threads value 1",
        "setoption name MultiPV value 2",
        "setoption name MultiPV value 1",
        "setoption name Move Overhead value 0",
        "setoption name Move Overhead value 50",
        "setoption name Ponder value true",
        "setoption name Ponder value false",
        "setoption name Clear Hash",
        "setoption name Pattern value 2",
        "setoption name Pattern value 1",
        "setoption name Ka Entry value jump",
        "setoption name Ka Entry value both",
        "setoption name Ka Entry value slide",
        "setoption name Second Column value any",
        "setoption name Second Column value opposite",
        "setoption name Centre value open",
        "setoption name Centre value wall",
    ] {
        engine.send_silent(command);
    }
    engine.send_silent("ucinewgame");
    engine.send_silent("position startpos");
    engine.go_checked("go depth 3", WORK);
}

#[test]
fn invalid_option_values_give_an_error_naming_the_option() {
    let mut engine = Engine::spawn();
    let cases = [
        ("Hash", "0"),
        ("Hash", "lots"),
        ("Hash", "99999999999"),
        ("Threads", "0"),
        ("Threads", "100000"),
        ("Threads", "two"),
        ("MultiPV", "0"),
        ("MultiPV", "1000"),
        ("Move Overhead", "-1"),
        ("Move Overhead", "99999999"),
        ("Ponder", "maybe"),
        ("Pattern", "3"),
        ("Ka Entry", "fly"),
        ("Second Column", "mirror"),
        ("Centre", "closed"),
    ];
    for (name, value) in cases {
        engine.send_error(&format!("setoption name {name} value {value}"), |line| {
            line.to_lowercase().contains(&name.to_lowercase())
        });
    }
    // Options that need a value, without one.
    for name in [
        "Hash", "Threads", "MultiPV", "Pattern", "Ka Entry", "Centre",
    ] {
        engine.send_error(&format!("setoption name {name}"), |line| {
            line.to_lowercase().contains(&name.to_lowercase())
        });
    }
    engine.send_error("setoption name No Such Option value 1", |line| {
        line.contains("No Such Option")
    });
    engine.send_error("setoption", |_| true);
    engine.send_error("setoption value 3", |_| true);
    engine.send_error("setoption name", |_| true);

    // Nothing changed: the defaults still hold and the engine still works.
    assert!(engine.display_field("Rules: ").contains("pattern 1"));
    assert_eq!(perft_output(&mut engine, "go perft 3").1, 850);
    let search = engine.go_checked("go depth 3", WORK);
    assert!(
        search.reports().iter().all(|info| info.multipv == Some(1)),
        "MultiPV stayed 1"
    );
}

#[test]
fn option_names_are_case_insensitive() {
    let mut engine = Engine::spawn();
    engine.send_silent("setoption name hash value 8");
    engine.send_silent("setoption name THREADS value 1");
    engine.send_silent("setoption name multipv value 2");
    engine.send_silent("setoption name move overhead value 20");
    engine.send_silent("setoption name clear hash");
    engine.send_silent("setoption name KA ENTRY value jump");
    engine.send_silent("position startpos");
    assert_eq!(perft_output(&mut engine, "go perft 3").1, 745);
    let search = engine.go_checked("go depth 2", WORK);
    assert!(
        search.reports().iter().any(|info| info.multipv == Some(2)),
        "lowercase multipv took effect: {:?}",
        search.lines
    );
}

#[test]
fn rule_options_apply_to_positions_set_afterwards() {
    let mut engine = Engine::spawn();
    engine.send_silent("position startpos");

    // Pattern: the current position is kept until a new one is set.
    engine.send_silent("setoption name Pattern value 2");
    assert_eq!(engine.position_string(), START_1);
    assert_eq!(perft_output(&mut engine, "go perft 3").1, 850);
    engine.send_silent("position startpos");
    assert_eq!(engine.position_string(), START_2);
    assert_eq!(perft_output(&mut engine, "go perft 3").1, 800);
    engine.send_silent("setoption name Pattern value 1");

    // The other rule options, each against RULES.md's perft table.
    for (option, value, depth, count) in [
        ("Ka Entry", "jump", 3, 745),
        ("Ka Entry", "both", 3, 1595),
        ("Second Column", "any", 2, 110),
        ("Centre", "open", 3, 950),
    ] {
        engine.send_silent(&format!("setoption name {option} value {value}"));
        engine.send_silent("position startpos");
        let (_, total) = perft_output(&mut engine, &format!("go perft {depth}"));
        assert_eq!(total, count, "{option} {value}, perft {depth}");
        let rules = engine.display_field("Rules: ");
        assert!(
            rules.contains(value),
            "'d' shows the rules in force: {rules}"
        );
        engine.go_checked("go depth 3", WORK);
        // Back to the default.
        let default = match option {
            "Ka Entry" => "slide",
            "Second Column" => "opposite",
            _ => "wall",
        };
        engine.send_silent(&format!("setoption name {option} value {default}"));
    }
    engine.send_silent("position startpos");
    assert_eq!(perft_output(&mut engine, "go perft 3").1, 850);
}

// ---------------------------------------------------------------------------
// Positions

#[test]
fn position_startpos_with_the_worked_opening() {
    let mut engine = Engine::spawn();
    assert_eq!(engine.position_string(), START_1, "the default position");
    assert_eq!(engine.result(), "result none");
    assert_eq!(engine.moves().len(), 11);

    engine.send_silent(&format!("position startpos moves {OPENING}"));
    let display = engine.display();
    let expected_lines = [
        format!("Position: {AFTER_OPENING}"),
        "Side to move: south".to_string(),
        "Scores: south 14 north 20".to_string(),
        "Status: none".to_string(),
    ];
    for expected in &expected_lines {
        assert!(
            display.contains(expected),
            "'d' lacks '{expected}': {display:#?}"
        );
    }
    assert!(display.iter().any(|line| line.starts_with("Phase: 3")));
    assert!(display.iter().any(|line| line.starts_with("Key: ")));
    // The diagram: rank 7 holds both kas, coordinates below.
    assert!(
        display
            .iter()
            .any(|line| line.split_whitespace().collect::<Vec<_>>()
                == ["7", ".", ".", "S", ".", "w", "b", ".", ".", ".", ".", "N"]),
        "rank 7 of the diagram: {display:#?}"
    );
    assert!(
        display
            .iter()
            .any(|line| line.split_whitespace().collect::<String>() == "abcdefghijk")
    );
    let moves = engine.moves();
    assert_eq!(set(&moves), set(&strings(AFTER_OPENING_MOVES)));
    assert_eq!(engine.result(), "result none");

    // The same position from its string: same moves, same key.
    let key = engine.display_field("Key: ");
    engine.send_silent(&format!("position fen {AFTER_OPENING}"));
    assert_eq!(engine.position_string(), AFTER_OPENING);
    assert_eq!(engine.display_field("Key: "), key);
    assert_eq!(set(&engine.moves()), set(&strings(AFTER_OPENING_MOVES)));

    // Moves after a position string; directions may be omitted when only
    // one line can be captured.
    engine.send_silent(&format!("position fen {AFTER_OPENING} moves c7d7"));
    let after = engine.position_string();
    assert!(after.ends_with(" n 15 20 cj"), "{after}");
    engine.send_silent(&format!("position fen {AFTER_OPENING} moves c7d7s"));
    assert_eq!(engine.position_string(), after);

    // A partial opening, and the North-to-move phases.
    engine.send_silent("position startpos moves c");
    let display = engine.display();
    assert!(display.contains(&"Side to move: north".to_string()));
    assert!(display.contains(&"Scores: south 8 north 0".to_string()));
    assert_eq!(engine.moves(), strings(&["g", "h", "i", "j", "k"]));
    engine.send_silent("position startpos moves");
    assert_eq!(engine.position_string(), START_1);
}

#[test]
fn bad_positions_and_illegal_moves_keep_the_previous_position() {
    let mut engine = Engine::spawn();
    engine.send_silent(&format!("position startpos moves {OPENING}"));
    let bad = [
        "position fen garbage".to_string(),
        "position fen".to_string(),
        "position".to_string(),
        "position sideways".to_string(),
        "position startpos moves c c".to_string(),
        "position startpos moves c j zz".to_string(),
        "position startpos moves c f".to_string(),
        "position startpos moves c j b1c1".to_string(),
        "position startpos moves c j b4c4x".to_string(),
        format!("position fen {AFTER_OPENING} moves c7c8e"),
        // A start layout with a11 turned black: 59 white, 61 black.
        format!("position fen bw{} s 0 0 --", &START_1[2..START_1.len() - 7]),
        // North to move before any passage.
        format!("position fen {} n 0 0 --", &START_1[..START_1.len() - 7]),
        // Scores beyond the points on the board.
        format!("position fen {} s 100 100 cj", &AFTER_OPENING[..AFTER_OPENING.len() - 11]),
        // Ten ranks.
        "position fen .........../.........../.........../.........../.........../.....+...../.........../.........../.........../........SN. s 7 7 bc".to_string(),
        // A hole out of place.
        "position fen .........../.........../.........../.........../.........../......+..../.........../.........../.........../.........../.........SN s 7 7 bc".to_string(),
        // Two South kas.
        "position fen S........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../.........SN s 7 7 bc".to_string(),
        // A bad side, a bad score, bad passages, too many fields.
        format!("position fen {} x 14 20 cj", &AFTER_OPENING[..AFTER_OPENING.len() - 11]),
        format!("position fen {} s 14 -1 cj", &AFTER_OPENING[..AFTER_OPENING.len() - 11]),
        format!("position fen {} s 14 20 cz", &AFTER_OPENING[..AFTER_OPENING.len() - 11]),
        format!("position fen {AFTER_OPENING} 7"),
    ];
    for command in &bad {
        engine.send_error(command, |_| true);
        assert_eq!(
            engine.position_string(),
            AFTER_OPENING,
            "position kept after '{command}'"
        );
        assert_eq!(set(&engine.moves()), set(&strings(AFTER_OPENING_MOVES)));
    }
    // An error names the offending move.
    let message = engine.send_error("position startpos moves c j b4c4n zz9", |_| true);
    assert!(message.contains("zz9"), "{message}");
    // Still usable.
    engine.go_checked("go depth 3", WORK);
}

#[test]
fn ucinewgame_keeps_working() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    engine.go_checked("go depth 5", WORK);
    engine.send_silent("ucinewgame");
    engine.send_silent("position startpos moves c");
    engine.go_checked("go depth 5", WORK);
    engine.send_silent("ucinewgame");
    engine.send_silent("ucinewgame");
    assert!(engine.sync_within(READY).is_empty());
}

// ---------------------------------------------------------------------------
// Searches

#[test]
fn go_depth_reports_every_field_and_one_bestmove() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    let search = engine.go_checked("go depth 6", WORK);
    let reports = search.reports();
    let depths: Vec<u32> = reports.iter().filter_map(|info| info.depth).collect();
    assert_eq!(depths.first(), Some(&1), "{:?}", search.lines);
    assert_eq!(search.deepest(), 6);
    assert!(
        depths.windows(2).all(|pair| pair[0] <= pair[1]),
        "depths never decrease: {depths:?}"
    );
    for info in &reports {
        assert!(info.seldepth.unwrap() >= 1);
        assert!(info.multipv == Some(1));
    }
    let nodes: Vec<u64> = reports.iter().filter_map(|info| info.nodes).collect();
    assert!(nodes.windows(2).all(|pair| pair[0] <= pair[1]), "{nodes:?}");

    // Searching again from the opening's end also works.
    engine.send_silent(&format!("position startpos moves {OPENING}"));
    let search = engine.go_checked("go depth 4", WORK);
    assert!(AFTER_OPENING_MOVES.contains(&search.best.as_str()));
}

#[test]
fn go_nodes_is_deterministic_with_one_thread() {
    let mut engine = Engine::spawn();
    engine.send_silent("setoption name Threads value 1");
    let mut results = Vec::new();
    for _ in 0..2 {
        engine.send_silent("ucinewgame");
        engine.send_silent(MIDDLEGAME);
        let search = engine.go_checked("go nodes 30000", WORK);
        let nodes = search.final_info().and_then(|info| info.nodes).unwrap();
        assert!(
            nodes <= 30000 + 4096,
            "a nodes limit is kept roughly: {nodes}"
        );
        results.push((search.best, nodes));
    }
    // A second process gives the same too.
    let mut other = Engine::spawn();
    other.send_silent(MIDDLEGAME);
    let search = other.go_checked("go nodes 30000", WORK);
    let nodes = search.final_info().and_then(|info| info.nodes).unwrap();
    results.push((search.best, nodes));
    assert!(
        results.windows(2).all(|pair| pair[0] == pair[1]),
        "same bestmove and node count every time: {results:?}"
    );
}

#[test]
fn go_movetime_ends() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    engine.go_checked("go movetime 200", Duration::from_millis(200) + WORK);
}

#[test]
fn go_with_clocks_ends_with_a_legal_move() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    engine.go_checked("go wtime 1000 btime 1000 winc 10 binc 10", WORK);
    engine.go_checked("go wtime 2000 btime 2000 movestogo 10", WORK);
    engine.go_checked("go stime 500 ntime 500 sinc 5 ninc 5", WORK);
    // A clock that ran out (GUIs may send negative times).
    engine.go_checked("go wtime -50 btime -50", WORK);
    engine.send_silent("position startpos moves c");
    engine.go_checked("go btime 600 wtime 600 binc 0 winc 0", WORK);
    engine.go_checked("go ntime 400 stime 400", WORK);
}

#[test]
fn clocks_are_read_for_the_side_to_move() {
    // With a tiny clock for the side to move and a huge one for the other,
    // the search must end soon: reading the wrong clock would spend
    // seconds. The bound is loose; it only tells the clocks apart.
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME); // South to move
    for command in ["go wtime 300 btime 600000", "go stime 300 ntime 600000"] {
        let start = Instant::now();
        engine.go_checked(command, WORK);
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "'{command}' took {:?}",
            start.elapsed()
        );
    }
    engine.send_silent("position startpos moves c j b4c4n"); // North to move
    for command in ["go wtime 600000 btime 300", "go stime 600000 ntime 300"] {
        let start = Instant::now();
        engine.go_checked(command, WORK);
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "'{command}' took {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn a_missing_own_clock_does_not_mean_unlimited_time() {
    // Only the other side's clock is given: a clocked game all the same,
    // not an endless search.
    let mut engine = Engine::spawn();
    engine.send_silent("position startpos moves c"); // North to move
    engine.go_checked("go wtime 500 winc 0", WORK);
    engine.send_silent(MIDDLEGAME); // South to move
    engine.go_checked("go btime 500", WORK);
}

#[test]
fn go_infinite_waits_for_stop_and_isready_is_answered_meanwhile() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    let legal = engine.moves();
    let start = Instant::now();
    engine.send("go infinite");
    let mut lines = engine.expect_none_within(
        "bestmove during go infinite",
        |line| line.starts_with("bestmove"),
        WATCH,
    );
    lines.extend(engine.sync_within(READY));
    lines.extend(engine.expect_none_within(
        "bestmove during go infinite",
        |line| line.starts_with("bestmove"),
        Duration::from_millis(100),
    ));
    // currmove lines only after the first second.
    if start.elapsed() < Duration::from_millis(900) {
        assert!(
            lines.iter().all(|line| !line.contains("currmove")),
            "currmove within the first second: {lines:?}"
        );
    }
    engine.send("stop");
    let mut search = engine.bestmove(AFTER_STOP);
    lines.append(&mut search.lines);
    search.lines = lines;
    if let Err(problem) = search.check(&legal) {
        engine.fail(&problem);
    }
    engine.expect_quiet_after_bestmove();
}

#[test]
fn stop_right_after_go_infinite_is_not_lost() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    let legal = engine.moves();
    for _ in 0..3 {
        engine.send("go infinite\nstop");
        let search = engine.bestmove(AFTER_STOP);
        if let Err(problem) = search.check(&legal) {
            engine.fail(&problem);
        }
        engine.expect_quiet_after_bestmove();
    }
}

#[test]
fn go_infinite_waits_for_stop_even_when_the_result_is_proven() {
    let mut engine = Engine::spawn();
    engine.send_silent(&format!("position fen {TINY_ENDGAME}"));
    let legal = engine.moves();
    engine.send("go infinite");
    let mut lines = engine.expect_none_within(
        "bestmove before stop",
        |line| line.starts_with("bestmove"),
        WATCH,
    );
    engine.send("stop");
    let mut search = engine.bestmove(AFTER_STOP);
    lines.append(&mut search.lines);
    search.lines = lines;
    if let Err(problem) = search.check(&legal) {
        engine.fail(&problem);
    }
}

#[test]
fn stop_while_idle_does_not_cut_short_the_next_search() {
    let mut engine = Engine::spawn();
    engine.send_silent("stop");
    let search = engine.go_checked("go depth 8", WORK);
    assert_eq!(search.deepest(), 8, "{:?}", search.lines);

    // Also after a finished search.
    engine.go_checked("go depth 2", WORK);
    engine.send_silent("stop");
    engine.send_silent("stop");
    let search = engine.go_checked("go depth 8", WORK);
    assert_eq!(search.deepest(), 8, "{:?}", search.lines);
}

#[test]
fn ponderhit_and_stop_with_nothing_running_are_harmless() {
    let mut engine = Engine::spawn();
    engine.send_silent("ponderhit");
    engine.send_silent("stop");
    engine.send_silent("ponderhit");
    engine.send_silent(MIDDLEGAME);
    engine.go_checked("go depth 4", WORK);
    engine.send_silent("ponderhit");

    // A ponderhit received while idle does not release a later ponder search.
    let legal = engine.moves();
    engine.send("go ponder depth 3");
    let mut lines = engine.expect_none_within(
        "bestmove while pondering",
        |line| line.starts_with("bestmove"),
        WATCH,
    );
    engine.send("ponderhit");
    let mut search = engine.bestmove(AFTER_STOP);
    lines.append(&mut search.lines);
    search.lines = lines;
    if let Err(problem) = search.check(&legal) {
        engine.fail(&problem);
    }
}

#[test]
fn go_ponder_then_ponderhit_gives_the_bestmove() {
    let mut engine = Engine::spawn();
    engine.send_silent("setoption name Ponder value true");
    engine.send_silent(MIDDLEGAME);
    let legal = engine.moves();
    engine.send("go ponder wtime 1000 btime 1000 winc 0 binc 0");
    let mut lines = engine.expect_none_within(
        "bestmove while pondering",
        |line| line.starts_with("bestmove"),
        WATCH,
    );
    lines.extend(engine.sync_within(READY));
    engine.send("ponderhit");
    // After the ponderhit the clock applies: 1 s for the game.
    let mut search = engine.bestmove(Duration::from_secs(1) + AFTER_STOP);
    lines.append(&mut search.lines);
    search.lines = lines;
    if let Err(problem) = search.check(&legal) {
        engine.fail(&problem);
    }
    engine.expect_quiet_after_bestmove();

    // stop also ends a ponder search.
    engine.send("go ponder wtime 1000 btime 1000");
    engine.expect_none_within(
        "bestmove while pondering",
        |line| line.starts_with("bestmove"),
        Duration::from_millis(100),
    );
    engine.send("stop");
    let search = engine.bestmove(AFTER_STOP);
    assert!(legal.contains(&search.best));
}

#[test]
fn go_searchmoves_restricts_the_root() {
    let mut engine = Engine::spawn();
    for _ in 0..2 {
        let search = engine.go_checked("go searchmoves c d depth 4", WORK);
        assert!(
            search.best == "c" || search.best == "d",
            "bestmove {}",
            search.best
        );
        let search = engine.go_checked("go depth 3 searchmoves k", WORK);
        assert_eq!(search.best, "k");
    }
    engine.send_silent(&format!("position startpos moves {OPENING}"));
    let search = engine.go_checked("go searchmoves c7d7s c7c2e depth 4", WORK);
    assert!(["c7d7s", "c7c2e"].contains(&search.best.as_str()));

    // An illegal searchmove is reported; all moves are searched.
    engine.send("go searchmoves zz depth 2");
    let search = engine.bestmove(WORK);
    assert!(
        search.lines[0].starts_with("info string error:"),
        "{:?}",
        search.lines
    );
    assert!(AFTER_OPENING_MOVES.contains(&search.best.as_str()));
}

#[test]
fn multipv_reports_several_lines_per_depth() {
    let mut engine = Engine::spawn();
    engine.send_silent("setoption name MultiPV value 3");
    engine.send_silent(MIDDLEGAME);
    let search = engine.go_checked("go depth 4", WORK);
    let reports = search.reports();
    // Every depth but the final repeat has lines 1, 2 and 3.
    for depth in 1..=4 {
        let lines: BTreeSet<u32> = reports
            .iter()
            .filter(|info| info.depth == Some(depth))
            .filter_map(|info| info.multipv)
            .collect();
        assert_eq!(
            lines,
            BTreeSet::from([1, 2, 3]),
            "depth {depth}: {:?}",
            search.lines
        );
    }
    // The three first moves differ within an iteration.
    let firsts: BTreeSet<String> = reports
        .iter()
        .filter(|info| info.depth == Some(4))
        .filter_map(|info| info.pv.as_ref().map(|pv| pv[0].clone()))
        .collect();
    assert_eq!(firsts.len(), 3, "{:?}", search.lines);
    assert_eq!(search.final_info().unwrap().multipv, Some(1));

    // More lines than moves: only as many lines as legal moves.
    engine.send_silent("setoption name MultiPV value 10");
    engine.send_silent(&format!("position startpos moves {OPENING}"));
    let search = engine.go_checked("go depth 3", WORK);
    let most = search
        .reports()
        .iter()
        .filter_map(|info| info.multipv)
        .max();
    assert_eq!(most, Some(4), "{:?}", search.lines);
}

#[test]
fn threads_and_hash_settings_search_normally() {
    let mut engine = Engine::spawn();
    engine.send_silent("setoption name Threads value 2");
    engine.send_silent("setoption name Hash value 4");
    engine.send_silent(MIDDLEGAME);
    engine.go_checked("go depth 7", WORK);
    engine.go_checked("go nodes 20000", WORK);
    engine.send("go infinite");
    engine.expect_none_within(
        "bestmove during go infinite",
        |line| line.starts_with("bestmove"),
        Duration::from_millis(150),
    );
    engine.send("stop");
    engine.bestmove(AFTER_STOP);
    engine.send_silent("setoption name Clear Hash");
    engine.send_silent("setoption name Threads value 1");
    engine.go_checked("go depth 4", WORK);
    // The most threads allowed, far more than cores.
    engine.send_silent("setoption name Threads value 256");
    engine.go_checked("go depth 4", WORK);
}

#[test]
fn debug_log_file_records_both_directions() {
    let path = std::env::temp_dir().join(format!("pasang-protocol-log-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let mut engine = Engine::spawn();
    engine.send_silent(&format!(
        "setoption name Debug Log File value {}",
        path.display()
    ));
    engine.send("isready");
    engine.expect_line("readyok", |line| line == "readyok", READY);
    engine.send_silent("setoption name Debug Log File value <empty>");
    let log = std::fs::read_to_string(&path).unwrap_or_default();
    let _ = std::fs::remove_file(&path);
    assert!(log.contains("<< isready"), "{log}");
    assert!(log.contains(">> readyok"), "{log}");
    engine.send_error(
        "setoption name Debug Log File value /no/such/directory/pasang.log",
        |_| true,
    );
}

#[test]
fn extreme_limits_give_legal_moves() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    engine.go_checked("go nodes 1", WORK);
    engine.go_checked("go movetime 0", WORK);
    engine.go_checked("go depth 1", WORK);
    engine.go_checked("go depth 0", WORK);
    engine.go_checked("go nodes 0", WORK);
    engine.go_checked("go wtime 0 btime 0", WORK);
    engine.go_checked("go depth 4294967295 nodes 5000", WORK);
    // depth 200 is clamped, and a small endgame is solved at once.
    engine.send_silent(&format!("position fen {TINY_ENDGAME}"));
    let search = engine.go_checked("go depth 200", WORK);
    let score = search.final_info().unwrap().score.unwrap();
    assert_eq!(score.0, "mate", "{:?}", search.lines);
    // depth 200 in a rich position: a legal move once stopped.
    engine.send_silent(MIDDLEGAME);
    let legal = engine.moves();
    engine.send("go depth 200");
    engine.expect_none_within(
        "bestmove of a deep search",
        |line| line.starts_with("bestmove"),
        Duration::from_millis(100),
    );
    engine.send("stop");
    let search = engine.bestmove(AFTER_STOP);
    if let Err(problem) = search.check(&legal) {
        engine.fail(&problem);
    }
}

#[test]
fn go_mate_finds_the_win() {
    let mut engine = Engine::spawn();
    engine.send_silent(&format!("position fen {TINY_ENDGAME}"));
    let search = engine.go_checked("go mate 2", WORK);
    let score = search.final_info().unwrap().score.unwrap();
    assert_eq!(
        (score.0.as_str(), score.1),
        ("mate", 2),
        "{:?}",
        search.lines
    );
}

#[test]
fn setoption_during_a_search_applies_afterwards() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    let legal = engine.moves();
    engine.send("go infinite");
    engine.expect_none_within(
        "bestmove",
        |line| line.starts_with("bestmove"),
        Duration::from_millis(100),
    );
    engine.send("setoption name MultiPV value 2");
    engine.send("setoption name Hash value 2");
    engine.send("setoption name Threads value 2");
    engine.send("setoption name Clear Hash");
    engine.send("position startpos moves c");
    engine.send("ucinewgame");
    engine.sync_within(READY);
    engine.send("stop");
    let search = engine.bestmove(AFTER_STOP);
    // The search ran on the old position to the end.
    assert!(legal.contains(&search.best), "{}", search.best);
    assert!(
        search.reports().iter().all(|info| info.multipv == Some(1)),
        "MultiPV changed mid-search: {:?}",
        search.lines
    );
    // Afterwards: the queued commands took effect, silently.
    assert!(engine.sync().is_empty());
    assert_eq!(engine.moves(), strings(&["g", "h", "i", "j", "k"]));
    engine.send_silent("position startpos moves c");
    let search = engine.go_checked("go depth 3", WORK);
    assert!(
        search.reports().iter().any(|info| info.multipv == Some(2)),
        "MultiPV 2 afterwards: {:?}",
        search.lines
    );
}

// ---------------------------------------------------------------------------
// Perft, bench, eval

#[test]
fn go_perft_divides_without_a_bestmove() {
    let mut engine = Engine::spawn();
    let (divide, total) = perft_output(&mut engine, "go perft 3");
    assert_eq!(total, 850);
    assert_eq!(divide.len(), 11);
    assert_eq!(divide.iter().map(|(_, count)| count).sum::<u64>(), 850);
    let moves = engine.moves();
    assert_eq!(
        set(&divide.iter().map(|(mv, _)| mv.clone()).collect::<Vec<_>>()),
        set(&moves)
    );
    let after = engine.sync();
    assert!(
        after.iter().all(|line| !line.starts_with("bestmove")),
        "go perft gives no bestmove: {after:?}"
    );
    assert!(after.is_empty(), "{after:?}");

    assert_eq!(perft_output(&mut engine, "perft 4").1, 12912);
    assert_eq!(perft_output(&mut engine, "perft 1").1, 11);
    assert_eq!(perft_output(&mut engine, "go perft 0").1, 1);
    engine.send_silent(&format!("position startpos moves {OPENING}"));
    assert_eq!(perft_output(&mut engine, "perft 1").1, 4);
    engine.send_error("perft", |_| true);
    engine.send_error("perft x", |_| true);
    engine.send_error("perft 1 2", |_| true);
}

#[test]
fn bench_node_count_is_reproducible() {
    let mut engine = Engine::spawn();
    let first = bench_nodes(&mut engine, "bench 6");
    assert!(engine.sync().is_empty(), "nothing after Nodes/second");
    let second = bench_nodes(&mut engine, "bench 6");
    // Bench leaves the engine's own state alone and uses one thread, even
    // with Threads 2 set.
    engine.send_silent("setoption name Threads value 2");
    let third = bench_nodes(&mut engine, "bench 6");
    let mut other = Engine::spawn();
    let fourth = bench_nodes(&mut other, "bench 6");
    assert_eq!([first, first, first], [second, third, fourth]);
    assert!(bench_nodes(&mut other, "bench 3") < first);
    assert_eq!(engine.position_string(), START_1);
    engine.send_error("bench x", |_| true);
    engine.send_error("bench 1 2", |_| true);
}

#[test]
fn eval_prints_an_info_string() {
    let mut engine = Engine::spawn();
    for position in [
        "position startpos".to_string(),
        MIDDLEGAME.to_string(),
        format!("position fen {OVER_NORTH_LOST}"),
    ] {
        engine.send_silent(&position);
        engine.send("eval");
        let lines = engine.sync();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with("info string "), "{lines:?}");
    }
    engine.send_error("eval now", |_| true);
}

// ---------------------------------------------------------------------------
// Finished games

/// `go` on a finished game: `info depth 0 score <score>` then
/// `bestmove (none)`, and the `result` line.
fn check_game_over(fen: &str, score: &str, result: &str) {
    let mut engine = Engine::spawn();
    engine.send_silent(&format!("position fen {fen}"));
    assert_eq!(engine.moves(), Vec::<String>::new());
    assert_eq!(engine.result(), result);
    assert_eq!(
        engine.display_field("Status: "),
        result.trim_start_matches("result ")
    );
    for command in [
        "go depth 5",
        "go nodes 1000",
        "go movetime 50",
        "go wtime 1000 btime 1000",
    ] {
        let search = engine.go(command, WORK);
        assert_eq!(search.best, "(none)", "{command}");
        assert_eq!(search.ponder, None);
        assert_eq!(
            search.lines,
            [format!("info depth 0 score {score}")],
            "{command}"
        );
        engine.expect_quiet_after_bestmove();
    }
    // Ponder: only after ponderhit.
    engine.send("go ponder wtime 1000 btime 1000");
    let mut lines = engine.expect_none_within(
        "bestmove before ponderhit",
        |line| line.starts_with("bestmove"),
        Duration::from_millis(100),
    );
    engine.send("ponderhit");
    lines.extend(engine.read_until("bestmove", |line| line.starts_with("bestmove"), AFTER_STOP));
    assert_eq!(
        lines,
        [
            format!("info depth 0 score {score}"),
            "bestmove (none)".to_string()
        ]
    );
    // Infinite: still only after stop.
    engine.send("go infinite");
    let mut lines = engine.expect_none_within(
        "bestmove before stop",
        |line| line.starts_with("bestmove"),
        Duration::from_millis(200),
    );
    engine.send("stop");
    lines.extend(engine.read_until("bestmove", |line| line.starts_with("bestmove"), AFTER_STOP));
    assert_eq!(
        lines,
        [
            format!("info depth 0 score {score}"),
            "bestmove (none)".to_string()
        ]
    );
    // No move is legal, so any move is an error and the position stays.
    engine.send_error(&format!("position fen {fen} moves a1a2n"), |_| true);
    assert_eq!(engine.result(), result);
}

#[test]
fn game_over_side_to_move_lost() {
    check_game_over(OVER_NORTH_LOST, "mate 0", "result south score 10-4");
}

#[test]
fn game_over_side_to_move_won_on_points() {
    check_game_over(OVER_SOUTH_WON, "cp 600", "result south score 10-4");
    check_game_over(OVER_NORTH_WON, "cp 200", "result north score 7-9");
}

#[test]
fn game_over_drawn() {
    check_game_over(OVER_DRAW, "cp 0", "result draw score 7-7");
}

#[test]
fn game_over_suntuk() {
    check_game_over(SUNTUK, "mate 0", "result north suntuk 50-60");
}

// ---------------------------------------------------------------------------
// Bad input

#[test]
fn unknown_and_malformed_commands_are_reported() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    let before = engine.position_string();
    for (command, echo) in [
        ("foo", "foo"),
        ("foo bar baz", "foo bar baz"),
        ("UCI", "UCI"),
        ("  xyzzy  ", "xyzzy"),
    ] {
        engine.send(command);
        let lines = engine.sync();
        assert_eq!(
            lines,
            [format!("info string unknown command: {echo}")],
            "'{command}'"
        );
    }
    for command in [
        "go depth",
        "go depth x",
        "go depth -3",
        "go nodes many",
        "go movetime",
        "go movetime -5",
        "go wtime",
        "go perft",
        "go depth 99999999999999",
        "go depth movetime 100",
    ] {
        engine.send_malformed_go(command.as_bytes());
        assert_eq!(engine.position_string(), before);
    }
    // An unknown word is skipped with a note; the search runs.
    let legal = engine.moves();
    engine.send("go sideways depth 2");
    let note = engine.expect_line("a note", |_| true, WORK);
    assert_eq!(note, "info string go: unknown word 'sideways' ignored");
    let search = engine.bestmove(WORK);
    assert!(legal.contains(&search.best), "{}", search.best);
    // `position startpos c j`: the error names the missing word.
    engine.send_error("position startpos c j", |line| line.contains("'moves'"));
    for command in [
        "uci now",
        "isready now",
        "ucinewgame please",
        "stop now",
        "moves c",
        "result now",
        "d 3",
    ] {
        engine.send_error(command, |_| true);
    }
    // None of that changed the position or left a search running.
    assert!(engine.sync().is_empty());
    assert_eq!(engine.position_string(), before);
    engine.go_checked("go depth 3", WORK);
}

#[test]
fn very_long_lines_and_binary_junk_do_not_crash() {
    let mut engine = Engine::spawn();
    engine.send_silent(&format!("position startpos moves {OPENING}"));

    // A 2 MB line.
    let mut long = vec![b'x'; 2 << 20];
    long.push(b'\n');
    engine.send_bytes(&long);
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("info string "),
        "{lines:?}"
    );

    // A 2 MB position command: rejected, the position stays.
    let mut long = b"position startpos moves".to_vec();
    while long.len() < 2 << 20 {
        long.extend_from_slice(b" c");
    }
    long.push(b'\n');
    engine.send_bytes(&long);
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("info string error"),
        "{lines:?}"
    );
    assert_eq!(engine.position_string(), AFTER_OPENING);

    // Half a megabyte of moves (under the line limit): an error, not a crash.
    let mut long = String::from("position startpos moves c j");
    while long.len() < 500_000 {
        long.push_str(" c7d7s");
    }
    engine.send_error(&long, |line| line.len() < 2000);
    assert_eq!(engine.position_string(), AFTER_OPENING);

    // Invalid UTF-8 and control characters.
    engine.send_bytes(b"\xff\xfe\xfd\n");
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("info string unknown command"),
        "{lines:?}"
    );
    engine.send_bytes(b"position fen \xc3\x28 \xa0\xa1 s 0 0 --\n");
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("info string error"),
        "{lines:?}"
    );
    engine.send_bytes(b"setoption name Hash\xff value 1\x00\n");
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && lines[0].starts_with("info string error"),
        "{lines:?}"
    );
    engine.send_malformed_go(b"go depth 3\xff");
    engine.send_bytes(b"\x00\x01\x02\x1b[2J\x7f\n");
    assert_eq!(engine.sync().len(), 1);
    engine.send_bytes(&[0x80; 10_000]);
    engine.send_bytes(b"\n");
    assert_eq!(engine.sync().len(), 1);
    let mut junk: Vec<u8> = (0..=255u8).cycle().take(100_000).collect();
    junk.push(b'\n');
    engine.send_bytes(&junk);
    engine.sync();

    // Still alive, still in the same position, still searching.
    assert_eq!(engine.position_string(), AFTER_OPENING);
    engine.go_checked("go depth 4", WORK);
    engine.send("quit");
    let status = engine.wait_exit(WORK);
    assert_eq!(status.code(), Some(0));
}

#[test]
fn crlf_line_endings_are_accepted() {
    let mut engine = Engine::spawn();
    engine.send_bytes(b"uci\r\n");
    engine.expect_line("uciok", |line| line == "uciok", READY);
    engine.send_bytes(b"isready\r\n");
    engine.expect_line("readyok", |line| line == "readyok", READY);
    engine.send_bytes(b"setoption name Ka Entry value jump\r\n");
    engine.send_bytes(b"position startpos\r\n");
    assert!(engine.sync().is_empty());
    assert_eq!(perft_output(&mut engine, "go perft 3").1, 745);
    engine.send_bytes(b"setoption name Ka Entry value slide\r\n");
    engine.send_bytes(format!("position startpos moves {OPENING}\r\n").as_bytes());
    assert!(engine.sync().is_empty());
    assert_eq!(engine.position_string(), AFTER_OPENING);
    engine.send_bytes(b"moves\r\n");
    let line = engine.expect_line("moves", |line| line.starts_with("moves"), READY);
    assert_eq!(
        set(&line
            .split_whitespace()
            .skip(1)
            .map(str::to_string)
            .collect::<Vec<_>>()),
        set(&strings(AFTER_OPENING_MOVES))
    );
    engine.send_bytes(b"go depth 3\r\n");
    let search = engine.bestmove(WORK);
    assert!(AFTER_OPENING_MOVES.contains(&search.best.as_str()));
    engine.send_bytes(b"quit\r\n");
    assert_eq!(engine.wait_exit(WORK).code(), Some(0));
}

// ---------------------------------------------------------------------------
// Exit

#[test]
fn quit_exits_with_code_zero() {
    let mut engine = Engine::spawn();
    engine.handshake();
    engine.send("quit");
    assert_eq!(engine.wait_exit(WORK).code(), Some(0));
    assert!(engine.remaining_output().is_empty());
}

#[test]
fn end_of_input_exits_with_code_zero() {
    let mut engine = Engine::spawn();
    engine.handshake();
    engine.close_stdin();
    assert_eq!(engine.wait_exit(WORK).code(), Some(0));
}

#[test]
fn quit_during_a_search_answers_its_bestmove_first() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    let legal = engine.moves();
    engine.send("go infinite");
    engine.expect_none_within(
        "bestmove",
        |line| line.starts_with("bestmove"),
        Duration::from_millis(100),
    );
    engine.send("quit");
    let search = engine.bestmove(AFTER_STOP);
    assert!(legal.contains(&search.best));
    assert_eq!(engine.wait_exit(AFTER_STOP).code(), Some(0));
    assert!(engine.remaining_output().is_empty());
}

#[test]
fn end_of_input_during_a_search_answers_its_bestmove_first() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    let legal = engine.moves();
    engine.send("go depth 100");
    engine.expect_none_within(
        "bestmove",
        |line| line.starts_with("bestmove"),
        Duration::from_millis(100),
    );
    engine.close_stdin();
    let search = engine.bestmove(AFTER_STOP);
    assert!(legal.contains(&search.best));
    assert_eq!(engine.wait_exit(AFTER_STOP).code(), Some(0));
    assert!(engine.remaining_output().is_empty());
}

#[test]
fn quit_with_queued_searches_answers_each() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    engine.send("go infinite\ngo depth 60\nquit");
    let first = engine.bestmove(AFTER_STOP);
    let second = engine.bestmove(AFTER_STOP);
    assert_ne!(first.best, "(none)");
    assert_ne!(second.best, "(none)");
    assert_eq!(engine.wait_exit(AFTER_STOP).code(), Some(0));
}

#[test]
fn a_closed_output_pipe_does_not_crash_the_engine() {
    // The GUI stops reading (or dies) while the engine still talks.
    let mut child = common::pasang()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the pasang binary starts");
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("piped stdin");
    stdin
        .write_all(b"uci\nisready\ngo depth 5\nd\nbench 2\ngo infinite\n")
        .expect("the engine reads its input");
    stdin.flush().expect("flush");
    thread::sleep(Duration::from_millis(200));
    let _ = stdin.write_all(b"stop\nquit\n");
    drop(stdin);
    let deadline = Instant::now() + WORK;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the engine did not exit after quit with its output closed");
        }
        thread::sleep(Duration::from_millis(5));
    };
    assert_eq!(status.code(), Some(0), "{status}");
}

#[test]
fn logging_goes_to_stderr_only_and_only_when_asked() {
    // Silent without RUST_LOG.
    let mut engine = Engine::spawn();
    engine.handshake();
    engine.go_checked("go depth 3", WORK);
    engine.send("quit");
    assert_eq!(engine.wait_exit(WORK).code(), Some(0));
    assert_eq!(engine.stderr_after_exit(), "", "stderr without RUST_LOG");

    // RUST_LOG=debug shows the lines in and out on stderr; stdout stays
    // pure protocol.
    let mut engine = Engine::spawn_with_log(Some("debug"));
    let lines = engine.handshake();
    assert!(lines.iter().all(|line| line.starts_with("id ")
        || line.starts_with("option ")
        || line.starts_with("info string built for ")));
    engine.send("isready");
    engine.expect_line("readyok", |line| line == "readyok", READY);
    engine.send("quit");
    assert_eq!(engine.wait_exit(WORK).code(), Some(0));
    assert!(engine.remaining_output().is_empty());
    let log = engine.stderr_after_exit();
    assert!(log.contains("isready"), "stderr: {log}");
    assert!(log.contains("readyok"), "stderr: {log}");
}

// ---------------------------------------------------------------------------
// Long commands: stop, quit, and a flood of input

/// A perft that runs for minutes unless stopped.
const LONG_PERFT: &str = "perft 14";

/// Reads a stopped perft's output: the `stopped` mark, a blank line and
/// `Nodes searched: N` last. Returns N.
fn stopped_perft(engine: &mut Engine) -> u64 {
    let lines = engine.read_until(
        "'Nodes searched:' after stop",
        |line| line.starts_with("Nodes searched:"),
        AFTER_STOP,
    );
    let n = lines.len();
    if n < 3 || lines[n - 3] != "info string stopped: partial count" || !lines[n - 2].is_empty() {
        engine.fail(&format!("a stopped perft ends badly: {lines:?}"));
    }
    lines[n - 1]
        .strip_prefix("Nodes searched: ")
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| engine.fail("malformed 'Nodes searched:' line"))
}

/// Reads a stopped bench's output: the `stopped` mark and its usual four
/// closing lines. Returns the node count.
fn stopped_bench(engine: &mut Engine) -> u64 {
    let lines = engine.read_until(
        "'Nodes/second' after stop",
        |line| line.starts_with("Nodes/second    : "),
        AFTER_STOP,
    );
    let n = lines.len();
    if n < 5
        || lines[n - 5] != "info string stopped: partial count"
        || !lines[n - 4].starts_with("=====")
        || !lines[n - 3].starts_with("Total time (ms) : ")
    {
        engine.fail(&format!("a stopped bench ends badly: {lines:?}"));
    }
    lines[n - 2]
        .strip_prefix("Nodes searched  : ")
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| engine.fail("malformed 'Nodes searched  :' line"))
}

#[test]
fn stop_ends_a_running_perft_with_its_partial_count() {
    let mut engine = Engine::spawn();
    for command in [LONG_PERFT, "go perft 14"] {
        engine.send(command);
        // Divide lines may come first; the total must wait for the stop.
        engine.expect_none_within(
            "a total before stop",
            |line| line.starts_with("Nodes searched"),
            WATCH,
        );
        // isready is answered at once while it runs.
        engine.send("isready");
        engine.expect_line("readyok", |line| line == "readyok", READY);
        engine.send("stop");
        let counted = stopped_perft(&mut engine);
        assert!(counted > 0, "{command}: counted nothing in {WATCH:?}");
        assert!(engine.sync().is_empty());
    }
    // The next perft runs in full.
    assert_eq!(perft_output(&mut engine, "perft 3").1, 850);
}

#[test]
fn stop_ends_a_running_bench_with_its_partial_count() {
    let mut engine = Engine::spawn();
    engine.send("bench 40");
    engine.expect_none_within(
        "bench totals before stop",
        |line| line.starts_with("Nodes searched"),
        WATCH,
    );
    engine.send("stop");
    stopped_bench(&mut engine);
    assert!(engine.sync().is_empty());
}

#[test]
fn stop_drops_the_long_commands_queued_behind_it() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    let legal = engine.moves();
    engine.send(&format!(
        "{LONG_PERFT}\nbench 40\ngo perft 14\ngo depth 60\nd\n{LONG_PERFT}"
    ));
    thread::sleep(WATCH);
    engine.send("stop");
    // The running perft ends with what it counted, the queued ones with
    // nothing; the queued search answers at once; `d` still runs.
    stopped_perft(&mut engine);
    assert_eq!(stopped_bench(&mut engine), 0);
    assert_eq!(stopped_perft(&mut engine), 0);
    let search = engine.bestmove(AFTER_STOP);
    assert!(legal.contains(&search.best), "{}", search.best);
    engine.expect_line(
        "the output of d",
        |line| line.starts_with("Status:"),
        AFTER_STOP,
    );
    assert_eq!(stopped_perft(&mut engine), 0);
    // A perft sent after the stop runs normally.
    assert_eq!(perft_output(&mut engine, "perft 1").1, legal.len() as u64);
}

#[test]
fn quit_and_end_of_input_end_any_long_command() {
    for command in [LONG_PERFT, "go perft 14", "bench 40", "go infinite"] {
        for end in ["quit", "quit now", "end of input"] {
            let mut engine = Engine::spawn();
            engine.send_silent(MIDDLEGAME);
            engine.send(command);
            engine.send(LONG_PERFT); // queued behind it
            thread::sleep(Duration::from_millis(200));
            if end == "end of input" {
                engine.close_stdin();
            } else {
                engine.send(end);
            }
            // Generous: the figure measured is a few milliseconds.
            let status = engine.wait_exit(Duration::from_secs(3));
            assert_eq!(status.code(), Some(0), "{command} then {end}");
        }
    }
}

/// VmHWM (peak resident memory) of a process in KiB, where /proc has it.
fn peak_memory_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_flood_of_input_during_a_search_is_bounded_and_stop_still_works() {
    let mut engine = Engine::spawn();
    engine.send_silent(MIDDLEGAME);
    let legal = engine.moves();
    engine.send("go infinite");
    // More lines than the queue holds, long ones among them.
    let mut flood = String::new();
    for index in 0..30_000 {
        flood.push_str(match index % 4 {
            0 => "bench\n",
            1 => "flood of junk with several words in it\n",
            2 => "position startpos moves c j b4c4n k7j7w\n",
            _ => "perft 12\n",
        });
    }
    engine.send_bytes(flood.as_bytes());
    engine.send("isready");
    // The report of dropped input comes at once, from the reader.
    let mut lines = engine.read_until("readyok", |line| line == "readyok", WORK);
    engine.send("stop");
    let search_lines = engine.read_until(
        "bestmove after the flood",
        |line| line.starts_with("bestmove"),
        WORK,
    );
    let search = Search::from_lines(
        search_lines
            .iter()
            .filter(|line| !line.starts_with("info string error"))
            .cloned()
            .collect(),
    );
    assert!(legal.contains(&search.best));
    lines.extend(search_lines);
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("info string error: ")
                && line.contains("dropped until there is room")),
        "no report of dropped input"
    );
    // The queued commands drain quickly; the dropped lines are counted.
    // The count goes in before the first line that fits again, or right
    // after it when that line had to wait for room: read past both.
    engine.send("d");
    let count_line = |line: &str| line.contains("input line(s) dropped while the queue was full");
    let mut lines = engine.read_until(
        "the count of dropped lines",
        |line| count_line(line),
        Duration::from_secs(30),
    );
    if !lines.iter().any(|line| line.starts_with("Status:")) {
        lines.extend(engine.read_until(
            "the end of the queue",
            |line| line.starts_with("Status:"),
            Duration::from_secs(30),
        ));
    }
    assert!(lines.iter().any(|line| count_line(line)));
    if let Some(peak) = peak_memory_kib(engine.pid()) {
        // Hash 16 MiB + 64 MiB, the bound of issue 20.
        assert!(peak < (16 + 64) * 1024, "peak resident memory {peak} KiB");
    }
    engine.go_checked("go depth 3", WORK);
}

#[test]
fn show_wdl_adds_win_draw_loss_in_per_mille() {
    let mut engine = Engine::spawn();
    let lines = engine.handshake();
    assert!(
        lines
            .iter()
            .any(|line| line == "option name UCI_ShowWDL type check default false"),
        "{lines:?}"
    );
    engine.send("position startpos moves c j b4c4n k7j7w");
    let plain = engine.go("go depth 3", WORK);
    assert!(plain.lines.iter().all(|line| !line.contains(" wdl ")));

    engine.send("setoption name UCI_ShowWDL value true");
    let shown = engine.go_checked("go depth 3", WORK);
    let reports: Vec<&String> = shown
        .lines
        .iter()
        .filter(|line| line.starts_with("info depth"))
        .collect();
    assert!(!reports.is_empty());
    for line in reports {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words
            .iter()
            .position(|word| *word == "wdl")
            .unwrap_or_else(|| panic!("no wdl in {line}"));
        assert_eq!(words[at - 3], "score", "wdl right after the score: {line}");
        let chances: Vec<u32> = words[at + 1..at + 4]
            .iter()
            .map(|word| word.parse().expect("per mille"))
            .collect();
        assert_eq!(chances.iter().sum::<u32>(), 1000, "{line}");
    }

    // A finished game's result is certain.
    engine.send("position fen .........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../.........S. n 10 4 bc");
    let over = engine.go("go depth 3", WORK);
    assert!(
        over.lines
            .iter()
            .any(|line| line == "info depth 0 score mate 0 wdl 0 0 1000"),
        "{:?}",
        over.lines
    );
    engine.send_error("setoption name UCI_ShowWDL value maybe", |_| true);
    engine.send("setoption name UCI_ShowWDL value false");
    engine.send("position startpos moves c j");
    let plain = engine.go("go depth 2", WORK);
    assert!(plain.lines.iter().all(|line| !line.contains(" wdl ")));
}
