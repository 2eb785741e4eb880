//! The protocol as a GUI sees it, shared by the `protocol_*` test files:
//! the real `pasang` binary runs as a subprocess with piped stdin and
//! stdout, and every test talks to it line by line through [`Session`], so
//! every wait has a deadline and no test can hang: a missing answer fails
//! with the transcript of the session (and the engine's stderr). Timeouts
//! are generous liveness bounds (`readyok` within 1 s, `bestmove` within
//! 2 s of `stop`); no test asserts how long anything took.

use std::collections::BTreeSet;
use std::ops::{Deref, DerefMut};
use std::time::Duration;

use super::{Session, shorten};

// ---------------------------------------------------------------------------
// Fixtures

/// The start of pattern 1 (RULES.md).
pub const START_1: &str = "wwwwwbbbbbw/bwwwwbbbbww/bbwwwbbbwww/bbbwwbbwwww/bbbbwbwwwww/bbbbb+bbbbb/wwwwwbwbbbb/wwwwbbwwbbb/wwwbbbwwwbb/wwbbbbwwwwb/wbbbbbwwwww s 0 0 --";

/// The start of pattern 2 (RULES.md, rows from rank 11 down).
pub const START_2: &str = "bwwbbwwbwbb/bbwwbbwwbbw/wbbwwbbwbww/bwwbwwbbwwb/wwbbbwbwwbb/wbbww+wwbbw/bbwwbwbbbww/bwwbbwwbwwb/wwbwbbwwbbw/wbbwwbbwwbb/bbwbwwbbwwb s 0 0 --";

/// The worked opening of RULES.md and the position it reaches.
pub const OPENING: &str = "c j b4c4n k7j7w c4c7ew j7k7s";
pub const AFTER_OPENING: &str = "wwwwwbbbb.w/bwwwwbbbb.w/bbwwwbbbw.w/bb.wwbbww.w/..S.wb....N/bb.bb+bbbb./ww.wwbwbbb./w..wbbwwbb./ww.bbbwwwb./ww.bbbwwww./wb.bbbwwwww s 14 20 cj";
/// The legal moves after the worked opening, worked out by hand: the ka on
/// c7 takes b6-b8 (one line of three blacks around b7), d6 from d7, or the
/// three blacks east of c3 and of c2.
pub const AFTER_OPENING_MOVES: &[&str] = &["c7b7ns", "c7d7s", "c7c3e", "c7c2e"];

/// The position after `c j b4c4n k7j7w`: rich enough that searches run
/// long and are not proven quickly.
pub const MIDDLEGAME: &str = "position startpos moves c j b4c4n k7j7w";

/// No stones left, North to move (both passages and only South's ka is a
/// legal phase combination): South won 10-4, so the side to move has lost.
pub const OVER_NORTH_LOST: &str = ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../.........S. n 10 4 bc";
/// No stones left, South to move (both kas): South won 10-4.
pub const OVER_SOUTH_WON: &str = ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../.........SN s 10 4 bc";
/// No stones left, 7-7: a draw.
pub const OVER_DRAW: &str = ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../.........SN s 7 7 bc";
/// No stones left, North to move and ahead 9-7.
pub const OVER_NORTH_WON: &str = ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../.........SN n 7 9 bc";
/// South's ka on a1 is boxed in by the stone on a2 and North's ka on b1
/// while stones remain: South is suntuk and loses.
pub const SUNTUK: &str = ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../w........../SN........b s 50 60 ak";
/// A tiny endgame (four stones) that the search proves at once.
pub const TINY_ENDGAME: &str = "w.........b/.........../.........../.........../........b../.....+...../..w......../.........../.........../.........../S.........N s 60 58 ak";

// ---------------------------------------------------------------------------
// Timeouts (liveness bounds, not performance claims)

/// `readyok` while idle or during a search.
pub const READY: Duration = Duration::from_secs(1);
/// `bestmove` after `stop` or `ponderhit`.
pub const AFTER_STOP: Duration = Duration::from_secs(2);
/// Commands that do real work first (perft, bench, a table allocation, a
/// short search).
pub const WORK: Duration = Duration::from_secs(10);
/// How long a search that must wait for `stop` is watched for a premature
/// `bestmove`.
pub const WATCH: Duration = Duration::from_millis(300);

// ---------------------------------------------------------------------------
// The engine as a subprocess

/// The engine as a GUI speaks to it: a [`Session`] with the UCI manners
/// of these tests on top.
pub struct Engine {
    pub session: Session,
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
    pub fn spawn() -> Engine {
        Engine::spawn_with_log(None)
    }

    /// Spawns with `RUST_LOG` set to `log` (or unset).
    pub fn spawn_with_log(log: Option<&str>) -> Engine {
        let mut command = super::pasang();
        if let Some(level) = log {
            command.env("RUST_LOG", level);
        }
        let mut engine = Engine {
            session: Session::spawn_command(command),
        };
        // The banner comes first, before any input.
        let banner = engine.expect_line("the banner", |_| true, WORK);
        // `pasang 0.2.0 (1a2b3c4) by ...`: the version line, then who.
        let expected = format!("pasang {}", env!("CARGO_PKG_VERSION"));
        if !banner.starts_with(&expected) || !banner.contains(" by the pasang developers") {
            engine.fail(&format!("the first line should be a banner, got: {banner}"));
        }
        engine
    }

    /// `isready` → `readyok` within `timeout`; returns the lines before it.
    pub fn sync_within(&mut self, timeout: Duration) -> Vec<String> {
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
    pub fn sync(&mut self) -> Vec<String> {
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
    pub fn send_silent(&mut self, command: &str) {
        self.send(command);
        let lines = self.sync();
        if !lines.is_empty() {
            self.fail(&format!("'{command}' should print nothing, got {lines:?}"));
        }
    }

    /// Sends `command` and expects exactly one `info string error:` line
    /// (checked by `check`) and nothing else.
    pub fn send_error(&mut self, command: &str, check: impl Fn(&str) -> bool) -> String {
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
    pub fn send_malformed_go(&mut self, line: &[u8]) {
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
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("uci");
        let mut lines = self.read_until("uciok", |line| line == "uciok", READY);
        lines.pop();
        lines
    }

    /// The legal moves, from the `moves` extension.
    pub fn moves(&mut self) -> Vec<String> {
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
    pub fn result(&mut self) -> String {
        self.send("result");
        self.expect_line("a result line", |line| line.starts_with("result "), READY)
    }

    /// The `d` diagram and details.
    pub fn display(&mut self) -> Vec<String> {
        self.send("d");
        self.sync()
    }

    /// The value of the `d` line starting with `label` (e.g. "Position: ").
    pub fn display_field(&mut self, label: &str) -> String {
        let lines = self.display();
        match lines.iter().find_map(|line| line.strip_prefix(label)) {
            Some(value) => value.to_string(),
            None => self.fail(&format!("'d' printed no '{label}' line: {lines:?}")),
        }
    }

    /// The current position string, from `d`.
    pub fn position_string(&mut self) -> String {
        self.display_field("Position: ")
    }

    /// Waits for the `bestmove` of a running search.
    pub fn bestmove(&mut self, timeout: Duration) -> Search {
        let lines = self.read_until("bestmove", |line| line.starts_with("bestmove"), timeout);
        Search::from_lines(lines)
    }

    /// Sends `command` (a search that must not end by itself), checks that
    /// no `bestmove` comes while it is watched (`what` names the failure),
    /// then sends `release` (`stop` or `ponderhit`) and checks the whole
    /// search as a GUI would against the moves `legal`.
    pub fn go_until_released(
        &mut self,
        command: &str,
        what: &str,
        release: &str,
        legal: &[String],
    ) -> Search {
        self.send(command);
        let mut lines = self.expect_no_bestmove_within(what, WATCH);
        self.send(release);
        let mut search = self.bestmove(AFTER_STOP);
        lines.append(&mut search.lines);
        search.lines = lines;
        if let Err(problem) = search.check(legal) {
            self.fail(&problem);
        }
        search
    }

    /// Sends a `go` command and waits for its `bestmove`.
    pub fn go(&mut self, command: &str, timeout: Duration) -> Search {
        self.send(command);
        self.bestmove(timeout)
    }

    /// Runs a search and checks everything a GUI relies on: well-formed
    /// info lines, one final exact info line whose pv starts with the
    /// legal bestmove, nothing after the bestmove.
    pub fn go_checked(&mut self, command: &str, timeout: Duration) -> Search {
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
    pub fn check_lines_are_legal(&mut self, search: &Search) {
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
    pub fn expect_quiet_after_bestmove(&mut self) {
        let after = self.sync();
        if !after.is_empty() {
            self.fail(&format!("output after bestmove: {after:?}"));
        }
    }
}

// ---------------------------------------------------------------------------
// Info lines and searches

#[derive(Clone, Debug, Default)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<u32>,
    /// `cp` or `mate`, its value, and `lowerbound`/`upperbound` if any.
    pub score: Option<(String, i64, Option<String>)>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<u32>,
    pub time: Option<u64>,
    pub currmove: Option<String>,
    pub pv: Option<Vec<String>>,
    pub string: Option<String>,
}

impl Info {
    /// Parses an `info` line; `Err` names what is malformed.
    pub fn parse(line: &str) -> Result<Info, String> {
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
    pub fn is_pv_report(&self) -> bool {
        self.pv.is_some()
    }

    pub fn check_pv_report(&self, line: &str) -> Result<(), String> {
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

    pub fn exact(&self) -> bool {
        self.score.as_ref().is_some_and(|score| score.2.is_none())
    }
}

/// The output of one `go`, up to and including its `bestmove`.
#[derive(Debug)]
pub struct Search {
    /// The lines before `bestmove`.
    pub lines: Vec<String>,
    pub best: String,
    pub ponder: Option<String>,
}

impl Search {
    pub fn from_lines(mut lines: Vec<String>) -> Search {
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
    pub fn reports(&self) -> Vec<Info> {
        self.lines
            .iter()
            .filter_map(|line| Info::parse(line).ok())
            .filter(Info::is_pv_report)
            .collect()
    }

    /// The last line before `bestmove`, parsed.
    pub fn final_info(&self) -> Option<Info> {
        self.lines.last().and_then(|line| Info::parse(line).ok())
    }

    pub fn deepest(&self) -> u32 {
        self.reports()
            .iter()
            .filter_map(|info| info.depth)
            .max()
            .unwrap_or(0)
    }

    /// Checks a normal search (a position with legal moves).
    pub fn check(&self, legal: &[String]) -> Result<(), String> {
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
            } else if let Some(mv) = &info.currmove
                && !legal.contains(mv)
            {
                return Err(format!("currmove is not legal: {line}"));
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
        if let Some(ponder) = &self.ponder
            && pv.get(1) != Some(ponder)
        {
            return Err(format!(
                "ponder move {ponder} is not the pv's second move: {last}"
            ));
        }
        if info.multipv != Some(1) {
            return Err(format!("final info line is not multipv 1: {last}"));
        }
        Ok(())
    }
}

pub fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|item| item.to_string()).collect()
}

pub fn set(items: &[String]) -> BTreeSet<String> {
    items.iter().cloned().collect()
}

/// The `Nodes searched: N` count of a perft, and its divide lines.
pub fn perft_output(engine: &mut Engine, command: &str) -> (Vec<(String, u64)>, u64) {
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
pub fn bench_nodes(engine: &mut Engine, command: &str) -> u64 {
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
