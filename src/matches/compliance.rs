//! `pasang match --compliance`: checks one engine's protocol manners step
//! by step and prints `PASS <step>` or `FAIL <step>: <why>` for each, for
//! anyone writing a Pasang engine or GUI.

use std::io::Write;
use std::time::{Duration, Instant};

use super::engine_process::{EngineError, EngineProcess};
use super::engine_spec::EngineSpec;
use crate::engine::start_position;
use crate::notation::{parse_move, parse_position};
use crate::position::Position;
use crate::rules::{Pattern, Rules};

/// The rule options a Pasang engine must offer (the runner sets them).
const RULE_OPTIONS: [(&str, &str); 4] = [
    ("Pattern", "1"),
    ("Ka Entry", "slide"),
    ("Second Column", "opposite"),
    ("Centre", "wall"),
];

/// The option types of the protocol.
const OPTION_TYPES: [&str; 5] = ["check", "spin", "combo", "button", "string"];

/// A finished game: no stones left, North to move (South won on points).
const FINISHED: &str = ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../.........S. n 10 4 bc";

/// Generous bounds: this checks manners, not speed.
const HANDSHAKE: Duration = Duration::from_secs(10);
const PING: Duration = Duration::from_secs(10);
const SEARCH: Duration = Duration::from_secs(10);
const GRACE: Duration = Duration::from_secs(1);

/// A `go` and what came back.
struct Searched {
    step: String,
    position: Position,
    best: Option<String>,
    final_info: Option<String>,
}

struct Checker {
    process: Option<EngineProcess>,
    /// Set when a search went unanswered even after `stop`: the engine is
    /// out of step, so later searches are not tried.
    unresponsive: bool,
    failures: usize,
    searches: Vec<Searched>,
}

impl Checker {
    fn report(&mut self, step: &str, outcome: Result<String, String>) {
        let mut out = std::io::stdout().lock();
        let _ = match outcome {
            Ok(detail) if detail.is_empty() => writeln!(out, "PASS {step}"),
            Ok(detail) => writeln!(out, "PASS {step} ({detail})"),
            Err(why) => {
                self.failures += 1;
                writeln!(out, "FAIL {step}: {why}")
            }
        };
        let _ = out.flush();
    }

    fn engine(&mut self) -> Result<&mut EngineProcess, String> {
        self.process
            .as_mut()
            .ok_or_else(|| "the engine is not running".to_string())
    }

    /// Sends `commands`, then pings; fails on a missing `readyok` or on an
    /// `info string error` in between.
    fn quiet_commands(&mut self, commands: &[String]) -> Result<String, String> {
        let engine = self.engine()?;
        for command in commands {
            engine.send(command).map_err(|e| e.to_string())?;
        }
        let started = Instant::now();
        let lines = engine.ping(PING).map_err(|e| e.to_string())?;
        if let Some(error) = lines.iter().find(|l| l.starts_with("info string error")) {
            return Err(format!("the engine complained: {error}"));
        }
        Ok(format!("readyok in {} ms", started.elapsed().as_millis()))
    }

    /// Sends `position` and `go`, then waits up to `wait` for `bestmove`;
    /// for `go infinite`, sends `stop` after `stop_after`, and a bestmove
    /// before it is a failure.
    fn search(
        &mut self,
        step: &str,
        position: (&str, Position),
        go: &str,
        wait: Duration,
        stop_after: Option<Duration>,
    ) {
        let outcome = self.try_search(step, position, go, wait, stop_after);
        self.report(step, outcome);
    }

    fn try_search(
        &mut self,
        step: &str,
        (command, position): (&str, Position),
        go: &str,
        wait: Duration,
        stop_after: Option<Duration>,
    ) -> Result<String, String> {
        if self.unresponsive {
            return Err("skipped: an earlier search was never answered".into());
        }
        let engine = self.engine()?;
        engine.send(command).map_err(|e| e.to_string())?;
        engine.ping(PING).map_err(|e| e.to_string())?;
        engine.send(go).map_err(|e| e.to_string())?;
        let mut start = Instant::now();
        let mut lines = Vec::new();
        if let Some(pause) = stop_after {
            match engine.wait_for("bestmove", start + pause, "bestmove") {
                Ok((line, _)) => {
                    return Err(format!("'{}' came before stop", line.text));
                }
                Err(EngineError::Timeout(_)) => {}
                Err(error) => return Err(error.to_string()),
            }
            engine.send("stop").map_err(|e| e.to_string())?;
            // From here on the time that matters is the answer to stop.
            start = Instant::now();
        }
        let deadline = Instant::now() + wait;
        let best = loop {
            match engine.next_line(deadline) {
                Ok(line) if line.text.split_whitespace().next() == Some("bestmove") => break line,
                Ok(line) => lines.push(line.text),
                Err(EngineError::Timeout(_)) => {
                    // Try to get it back in step for the next steps.
                    let answered = engine.send("stop").is_ok()
                        && engine
                            .wait_for("bestmove", Instant::now() + GRACE, "bestmove")
                            .is_ok();
                    self.unresponsive = !answered;
                    return Err(format!("no bestmove within {} ms", wait.as_millis()));
                }
                Err(error) => return Err(error.to_string()),
            }
        };
        let words: Vec<&str> = best.text.split_whitespace().collect();
        let final_info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info") && !l.starts_with("info string"))
            .cloned();
        self.searches.push(Searched {
            step: step.to_string(),
            position,
            best: words.get(1).map(|w| w.to_string()),
            final_info,
        });
        Ok(format!(
            "{} in {} ms",
            best.text,
            best.at.saturating_duration_since(start).as_millis()
        ))
    }
}

/// The position after `moves` from the pattern-1 start, with its
/// `position` command.
fn after(moves: &[&str]) -> Result<(String, Position), String> {
    let rules = Rules::default();
    let mut position = start_position(Pattern::One);
    for text in moves {
        let mv = parse_move(&position, &rules, text).map_err(|e| e.to_string())?;
        position = position.play(mv);
    }
    let command = if moves.is_empty() {
        "position startpos".to_string()
    } else {
        format!("position startpos moves {}", moves.join(" "))
    };
    Ok((command, position))
}

/// Checks `spec`'s engine; prints a line per step and returns whether all
/// passed.
pub fn check(spec: &EngineSpec) -> bool {
    let mut checker = Checker {
        process: None,
        unresponsive: false,
        failures: 0,
        searches: Vec::new(),
    };
    match EngineProcess::spawn(spec) {
        Ok(process) => {
            checker.process = Some(process);
            checker.report("start", Ok(spec.command_line()));
        }
        Err(error) => {
            checker.report("start", Err(error.to_string()));
            return false;
        }
    }

    // Handshake and options.
    let started = Instant::now();
    let identity = checker
        .engine()
        .and_then(|engine| engine.handshake(HANDSHAKE).map_err(|e| e.to_string()));
    let identity = match identity {
        Ok(identity) => {
            let outcome = match &identity.name {
                Some(name) => Ok(format!(
                    "{name}; uciok in {} ms",
                    started.elapsed().as_millis()
                )),
                None => Err("uciok came without an 'id name' line".to_string()),
            };
            checker.report("uci handshake", outcome);
            identity
        }
        Err(why) => {
            checker.report("uci handshake", Err(why));
            return false;
        }
    };
    let malformed: Vec<&String> = identity
        .lines
        .iter()
        .filter(|line| line.starts_with("option"))
        .filter(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let kind = words
                .iter()
                .position(|w| *w == "type")
                .and_then(|at| words.get(at + 1));
            words.get(1) != Some(&"name") || !kind.is_some_and(|k| OPTION_TYPES.contains(k))
        })
        .collect();
    let missing: Vec<&str> = RULE_OPTIONS
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| {
            !identity
                .options
                .iter()
                .any(|o| o.eq_ignore_ascii_case(name))
        })
        .collect();
    let outcome = if let Some(line) = malformed.first() {
        Err(format!("malformed option line '{line}'"))
    } else if !missing.is_empty() {
        Err(format!("rule options not offered: {}", missing.join(", ")))
    } else {
        Ok(format!("{} options", identity.options.len()))
    };
    checker.report("options", outcome);

    let outcome = checker.quiet_commands(&[]);
    checker.report("isready", outcome);
    // The engine's own options from its spec, then the rule options at
    // their defaults.
    let rule_commands: Vec<String> = spec
        .options
        .iter()
        .map(|(name, value)| (name.as_str(), value.as_str()))
        .chain(RULE_OPTIONS)
        .map(|(name, value)| format!("setoption name {name} value {value}"))
        .collect();
    let outcome = checker.quiet_commands(&rule_commands);
    checker.report("setoption", outcome);
    let outcome = checker.quiet_commands(&["ucinewgame".to_string()]);
    checker.report("ucinewgame", outcome);
    let outcome = checker.quiet_commands(&["position startpos".to_string()]);
    checker.report("position startpos", outcome);
    let start = Pattern::One.start_position_string();
    let outcome = checker.quiet_commands(&[format!("position fen {start} moves c j")]);
    checker.report("position fen with moves", outcome);

    // Searches, each in a position that shows whether the moves were
    // applied (phase 1, 2 and 3 positions).
    let positions = [
        after(&["c", "j"]),
        after(&[]),
        after(&["c", "j", "b4c4n", "k7j7w"]),
        after(&["c", "j", "b4c4n"]),
        after(&["c", "j", "b4c4n", "k7j7w", "c4c7ew"]),
    ];
    let mut ready = Vec::new();
    for position in positions {
        match position {
            Ok(p) => ready.push(p),
            Err(why) => {
                checker.report("internal positions", Err(why));
                return false;
            }
        }
    }
    let fen_command = format!("position fen {start} moves c j");
    checker.search(
        "go depth 3",
        (&fen_command, ready[0].1),
        "go depth 3",
        SEARCH,
        None,
    );
    checker.search(
        "go nodes 5000",
        (&ready[1].0, ready[1].1),
        "go nodes 5000",
        SEARCH,
        None,
    );
    checker.search(
        "go movetime 200",
        (&ready[2].0, ready[2].1),
        "go movetime 200",
        Duration::from_millis(200) + GRACE,
        None,
    );
    checker.search(
        "go wtime btime winc binc",
        (&ready[3].0, ready[3].1),
        "go wtime 2000 btime 2000 winc 50 binc 50",
        Duration::from_millis(2000) + GRACE,
        None,
    );
    checker.search(
        "go infinite, stop",
        (&ready[4].0, ready[4].1),
        "go infinite",
        GRACE,
        Some(Duration::from_millis(300)),
    );

    // What the searches answered.
    let rules = Rules::default();
    let illegal = checker.searches.iter().find_map(|s| {
        let best = s.best.as_deref().unwrap_or("");
        parse_move(&s.position, &rules, best)
            .err()
            .map(|e| format!("{}: bestmove '{best}': {e}", s.step))
    });
    let outcome = match (illegal, checker.searches.len()) {
        (_, 0) => Err("no bestmove to check".to_string()),
        (Some(why), _) => Err(why),
        (None, n) => Ok(format!("{n} of {n} legal")),
    };
    checker.report("bestmove legality", outcome);
    let bad_info = checker.searches.iter().find_map(|s| {
        let best = s.best.as_deref().unwrap_or("");
        let Some(info) = &s.final_info else {
            return Some(format!("{}: no info line before bestmove", s.step));
        };
        let words: Vec<&str> = info.split_whitespace().collect();
        let pv_first = words
            .iter()
            .position(|w| *w == "pv")
            .and_then(|at| words.get(at + 1));
        if !words.contains(&"score") {
            Some(format!(
                "{}: final info line has no score: '{info}'",
                s.step
            ))
        } else if pv_first != Some(&best) {
            Some(format!(
                "{}: final info line's pv does not start with bestmove {best}: '{info}'",
                s.step
            ))
        } else {
            None
        }
    });
    let outcome = match (bad_info, checker.searches.len()) {
        (_, 0) => Err("no search to check".to_string()),
        (Some(why), _) => Err(why),
        (None, _) => Ok(String::new()),
    };
    checker.report("final info line", outcome);

    // A finished game: nothing to play.
    let outcome = match parse_position(FINISHED) {
        Ok(position) => {
            let command = format!("position fen {FINISHED}");
            let before = checker.searches.len();
            let result = checker.try_search(
                "finished game",
                (&command, position),
                "go depth 3",
                SEARCH,
                None,
            );
            let best = checker.searches.get(before).and_then(|s| s.best.clone());
            checker.searches.truncate(before);
            result.and_then(|detail| {
                if best.as_deref() == Some("(none)") {
                    Ok(detail)
                } else {
                    Err(format!("expected 'bestmove (none)', got {detail}"))
                }
            })
        }
        Err(error) => Err(format!("internal position: {error}")),
    };
    checker.report("finished game: bestmove (none)", outcome);

    // Quit.
    let outcome = match checker.process.take() {
        Some(mut engine) => {
            let sent = engine.send("quit");
            let deadline = Instant::now() + Duration::from_secs(2);
            while engine.is_running() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
            if sent.is_ok() && !engine.is_running() {
                Ok(String::new())
            } else {
                Err("still running 2 s after quit".to_string())
            }
        }
        None => Err("the engine is not running".to_string()),
    };
    checker.report("quit", outcome);

    let mut out = std::io::stdout().lock();
    let _ = if checker.failures == 0 {
        writeln!(out, "All steps passed.")
    } else {
        writeln!(out, "{} step(s) failed.", checker.failures)
    };
    checker.failures == 0
}
