//! `pasang match --compliance`: checks one engine's protocol manners step
//! by step and prints `PASS <step>` or `FAIL <step>: <why>` for each, for
//! anyone writing a Pasang engine or GUI. A UGI engine (`proto=ugi`) is
//! checked in UGI's words, with its queries and its two-word `bestmove`.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::client::{
    ClientError, EngineProcess, EngineSpec, Identity, InfoLine, Protocol, refusals, rule_settings,
};
use crate::notation::{
    ListMoveError, MoveError, PositionError, parse_move, parse_position, play_moves, start_position,
};
use crate::position::Position;
use crate::protocol::options::RULE_OPTIONS;
use crate::protocol::{BestMove, Command, GoParams, PositionBase, Query, Reply, ReplyKind};
use crate::rules::{Pattern, Rules};

/// A finished game: no stones left, North to move (South won on points).
const FINISHED: &str = ".........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../.........S. n 10 4 bc";

/// Generous bounds: this checks manners, not speed.
const HANDSHAKE: Duration = Duration::from_secs(10);
const PING: Duration = Duration::from_secs(10);
const SEARCH: Duration = Duration::from_secs(10);
const GRACE: Duration = Duration::from_secs(1);

/// Why a step failed: the text after `FAIL <step>: `.
#[derive(Debug, thiserror::Error)]
enum StepFailure {
    /// Talking to the engine failed.
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error("the engine is not running")]
    NotRunning,
    #[error("skipped: an earlier search was never answered")]
    Skipped,
    /// An `info string error` before `readyok`.
    #[error("the engine complained: {0}")]
    Complained(String),
    /// The `bestmove` line that came before `stop`.
    #[error("'{0}' came before stop")]
    BeforeStop(String),
    #[error("no bestmove within {0} ms")]
    NoBestmove(u128),
    /// The checker's own position is wrong (a bug here, not the engine's).
    #[error("internal position: {0}")]
    InternalMoves(#[from] ListMoveError),
    #[error("internal position: {0}")]
    InternalPosition(#[from] PositionError),
    /// The handshake's last word came without a name.
    #[error("{0} came without an 'id name' line")]
    NoName(&'static str),
    #[error("malformed option line '{0}'")]
    MalformedOption(String),
    /// The rule options missing, joined by commas.
    #[error("rule options not offered: {0}")]
    RuleOptionsMissing(String),
    #[error("no bestmove to check")]
    NoBestmoveToCheck,
    #[error("no search to check")]
    NoSearchToCheck,
    /// A fault in one search step's answer.
    #[error("{step}: {fault}")]
    InStep { step: String, fault: AnswerFault },
    /// The answer to a finished game (the detail of the answer).
    #[error("expected 'bestmove (none)', got {0}")]
    NotNone(String),
    #[error("still running 2 s after quit")]
    StillRunning,
    /// A query that went unanswered.
    #[error("query {query} after position {position}: {error}")]
    QueryUnanswered {
        query: &'static str,
        position: String,
        error: ClientError,
    },
    /// A query answered wrongly.
    #[error("query {query} after position {position}: '{got}', expected '{expected}'")]
    QueryWrong {
        query: &'static str,
        position: String,
        got: String,
        expected: String,
    },
}

/// What is wrong with one search's answer.
#[derive(Debug, thiserror::Error)]
enum AnswerFault {
    #[error("bestmove '{best}': {error}")]
    Illegal { best: String, error: MoveError },
    #[error("no info line before bestmove")]
    NoInfo,
    #[error("final info line has no score: '{0}'")]
    NoScore(String),
    #[error("final info line's pv does not start with bestmove {best}: '{info}'")]
    PvNotBest { best: String, info: String },
    #[error("a bestmove line of {0} words")]
    Words(usize),
}

/// A step's outcome: the detail of a pass, or why it failed.
type Outcome = Result<String, StepFailure>;

/// A `go` and what came back.
struct Searched {
    step: String,
    position: Position,
    /// The `bestmove` read (`None`: malformed).
    best: Option<BestMove>,
    /// Words on the `bestmove` line (its shape, which UGI fixes).
    words: usize,
    final_info: Option<InfoLine>,
}

struct Checker {
    process: Option<EngineProcess>,
    /// Set when a search went unanswered even after `stop`: the engine is
    /// out of step, so later searches are not tried.
    unresponsive: bool,
    failures: usize,
    searches: Vec<Searched>,
    protocol: Protocol,
}

impl Checker {
    fn report(&mut self, step: &str, outcome: Outcome) {
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

    fn engine(&mut self) -> Result<&mut EngineProcess, StepFailure> {
        self.process.as_mut().ok_or(StepFailure::NotRunning)
    }

    /// Sends `commands`, then pings; fails on a missing `readyok` or on an
    /// `info string error` in between.
    fn quiet_commands(&mut self, commands: &[Command]) -> Outcome {
        let engine = self.engine()?;
        for command in commands {
            engine.send(command)?;
        }
        let started = Instant::now();
        let replies = engine.ping(PING)?;
        if let Some(error) = refusals(&replies).next() {
            return Err(StepFailure::Complained(InfoLine::error(error).to_string()));
        }
        Ok(format!("readyok in {} ms", started.elapsed().as_millis()))
    }

    /// Sends `position` and `go`, then waits up to `wait` for `bestmove`;
    /// for `go infinite`, sends `stop` after `stop_after`, and a bestmove
    /// before it is a failure.
    fn search(
        &mut self,
        step: &str,
        position: (Command, Position),
        go: GoParams,
        wait: Duration,
        stop_after: Option<Duration>,
    ) {
        let outcome = self.try_search(step, position, go, wait, stop_after);
        self.report(step, outcome);
    }

    fn try_search(
        &mut self,
        step: &str,
        (command, position): (Command, Position),
        go: GoParams,
        wait: Duration,
        stop_after: Option<Duration>,
    ) -> Outcome {
        if self.unresponsive {
            return Err(StepFailure::Skipped);
        }
        let engine = self.engine()?;
        engine.send(&command)?;
        engine.ping(PING)?;
        engine.send(&Command::Go(go))?;
        let mut start = Instant::now();
        if let Some(pause) = stop_after {
            match engine.wait_for(ReplyKind::BestMove, start + pause) {
                Ok(answer) => return Err(StepFailure::BeforeStop(answer.text)),
                Err(ClientError::Timeout(_)) => {}
                Err(error) => return Err(error.into()),
            }
            engine.send(&Command::Stop)?;
            // From here on the time that matters is the answer to stop.
            start = Instant::now();
        }
        let answer = match engine.wait_for(ReplyKind::BestMove, Instant::now() + wait) {
            Ok(answer) => answer,
            Err(ClientError::Timeout(_)) => {
                // Try to get it back in step for the next steps.
                let answered = engine.send(&Command::Stop).is_ok()
                    && engine
                        .wait_for(ReplyKind::BestMove, Instant::now() + GRACE)
                        .is_ok();
                self.unresponsive = !answered;
                return Err(StepFailure::NoBestmove(wait.as_millis()));
            }
            Err(error) => return Err(error.into()),
        };
        // The last info line that is not a message: the search's final
        // word, which must carry a score and a pv.
        let final_info = answer.before.iter().rev().find_map(|reply| match reply {
            Reply::Info(info) if info.string.is_none() => Some(info.clone()),
            _ => None,
        });
        self.searches.push(Searched {
            step: step.to_string(),
            position,
            best: answer.best_move().cloned(),
            words: answer.text.split_whitespace().count(),
            final_info,
        });
        Ok(format!(
            "{} in {} ms",
            answer.text,
            answer.at.saturating_duration_since(start).as_millis()
        ))
    }
}

/// One search step: the position (pattern-1 start plus `moves`, sent as
/// `startpos` or as a position string), the `go`, and the waits.
struct SearchStep {
    name: &'static str,
    moves: &'static [&'static str],
    /// Send the position as `position fen <start> moves ...`.
    as_fen: bool,
    go: fn() -> GoParams,
    /// The wait for `bestmove` (after `stop` when `stop_after` is set).
    wait: Duration,
    /// For `go infinite`: send `stop` after this long.
    stop_after: Option<Duration>,
}

/// The searches, each in a position that shows whether the moves were
/// applied (a phase-1, -2 or -3 move is legal only in its own phase).
const SEARCH_STEPS: [SearchStep; 5] = [
    SearchStep {
        name: "go depth 3",
        moves: &["c", "j"],
        as_fen: true,
        go: || GoParams {
            depth: Some(3),
            ..GoParams::default()
        },
        wait: SEARCH,
        stop_after: None,
    },
    SearchStep {
        name: "go nodes 5000",
        moves: &[],
        as_fen: false,
        go: || GoParams {
            nodes: Some(5000),
            ..GoParams::default()
        },
        wait: SEARCH,
        stop_after: None,
    },
    SearchStep {
        name: "go movetime 200",
        moves: &["c", "j", "b4c4n", "k7j7w"],
        as_fen: false,
        go: || GoParams {
            movetime: Some(200),
            ..GoParams::default()
        },
        wait: Duration::from_millis(200 + 1000),
        stop_after: None,
    },
    SearchStep {
        name: "go wtime btime winc binc",
        moves: &["c", "j", "b4c4n"],
        as_fen: false,
        go: || GoParams {
            time: [Some(2000), Some(2000)],
            increment: [Some(50), Some(50)],
            ..GoParams::default()
        },
        wait: Duration::from_millis(2000 + 1000),
        stop_after: None,
    },
    SearchStep {
        name: "go infinite, stop",
        moves: &["c", "j", "b4c4n", "k7j7w", "c4c7ew"],
        as_fen: false,
        go: || GoParams {
            infinite: true,
            ..GoParams::default()
        },
        wait: GRACE,
        stop_after: Some(Duration::from_millis(300)),
    },
];

impl SearchStep {
    /// The `position` command and the position it sets.
    fn position(&self) -> Result<(Command, Position), StepFailure> {
        let rules = Rules::default();
        let position = play_moves(start_position(Pattern::One), &rules, self.moves, |_| {})?;
        let base = if self.as_fen {
            PositionBase::Fen(Pattern::One.start_position_string())
        } else {
            PositionBase::StartPos
        };
        let moves = self.moves.iter().map(|mv| mv.to_string()).collect();
        Ok((Command::Position { base, moves }, position))
    }
}

/// Checks `spec`'s engine; prints a line per step and returns whether all
/// passed.
pub fn check(spec: &EngineSpec) -> bool {
    let mut checker = Checker {
        process: None,
        unresponsive: false,
        failures: 0,
        searches: Vec::new(),
        protocol: spec.protocol,
    };
    if checker.start(spec) {
        checker.commands(spec);
        for step in &SEARCH_STEPS {
            let name = in_words_of(spec.protocol, step.name);
            match step.position() {
                Ok(position) => {
                    checker.search(&name, position, (step.go)(), step.wait, step.stop_after);
                }
                Err(why) => checker.report(&name, Err(why)),
            }
        }
        checker.answers();
        checker.finished_game();
        if spec.protocol == Protocol::Ugi {
            checker.ugi_manners();
        }
        checker.quit();
    }
    let mut out = std::io::stdout().lock();
    let _ = if checker.failures == 0 {
        writeln!(out, "All steps passed.")
    } else {
        writeln!(out, "{} step(s) failed.", checker.failures)
    };
    checker.failures == 0
}

impl Checker {
    /// Start, handshake and options; false if there is no engine to check
    /// further.
    fn start(&mut self, spec: &EngineSpec) -> bool {
        match EngineProcess::spawn(spec) {
            Ok(process) => {
                self.process = Some(process);
                self.report("start", Ok(spec.command_line()));
            }
            Err(error) => {
                self.report("start", Err(error.into()));
                return false;
            }
        }
        let started = Instant::now();
        let step = format!("{} handshake", spec.protocol.hello());
        let ok = spec.protocol.ok().word();
        let identity = self
            .engine()
            .and_then(|engine| Ok(engine.handshake(HANDSHAKE)?));
        let identity = match identity {
            Ok(identity) => identity,
            Err(why) => {
                self.report(&step, Err(why));
                return false;
            }
        };
        let outcome = match &identity.name {
            Some(name) => Ok(format!(
                "{name}; {ok} in {} ms",
                started.elapsed().as_millis()
            )),
            None => Err(StepFailure::NoName(ok)),
        };
        self.report(&step, outcome);
        self.report("options", options_outcome(&identity));
        true
    }

    /// The steps that set things up without searching.
    fn commands(&mut self, spec: &EngineSpec) {
        let outcome = self.quiet_commands(&[]);
        self.report("isready", outcome);
        // The engine's own options from its spec, then the rule options
        // at their defaults.
        let setoptions: Vec<Command> = spec
            .options
            .iter()
            .map(|(name, value)| Command::SetOption {
                name: name.clone(),
                value: Some(value.clone()),
            })
            .chain(rule_settings(&Rules::default()))
            .collect();
        let outcome = self.quiet_commands(&setoptions);
        self.report("setoption", outcome);
        let start = Pattern::One.start_position_string();
        for (step, command) in [
            (self.protocol.new_game(), Command::UciNewGame),
            (
                "position startpos",
                Command::Position {
                    base: PositionBase::StartPos,
                    moves: Vec::new(),
                },
            ),
            (
                "position fen with moves",
                Command::Position {
                    base: PositionBase::Fen(start),
                    moves: vec!["c".into(), "j".into()],
                },
            ),
        ] {
            let outcome = self.quiet_commands(&[command]);
            self.report(step, outcome);
        }
    }

    /// Whether the searches' answers were legal and came after a proper
    /// final info line.
    fn answers(&mut self) {
        let rules = Rules::default();
        let illegal = self.searches.iter().find_map(|s| {
            let best = s.best.as_ref().map_or("", BestMove::text);
            parse_move(&s.position, &rules, best)
                .err()
                .map(|error| StepFailure::InStep {
                    step: s.step.clone(),
                    fault: AnswerFault::Illegal {
                        best: best.to_string(),
                        error,
                    },
                })
        });
        let outcome = match (illegal, self.searches.len()) {
            (_, 0) => Err(StepFailure::NoBestmoveToCheck),
            (Some(why), _) => Err(why),
            (None, n) => Ok(format!("{n} of {n} legal")),
        };
        self.report("bestmove legality", outcome);
        let bad_info = self.searches.iter().find_map(|s| {
            final_info_fault(s).map(|fault| StepFailure::InStep {
                step: s.step.clone(),
                fault,
            })
        });
        let outcome = match (bad_info, self.searches.len()) {
            (_, 0) => Err(StepFailure::NoSearchToCheck),
            (Some(why), _) => Err(why),
            (None, _) => Ok(String::new()),
        };
        self.report("final info line", outcome);
    }

    /// A finished game must be answered with `bestmove (none)`.
    fn finished_game(&mut self) {
        let outcome = match parse_position(FINISHED) {
            Ok(position) => {
                let command = Command::Position {
                    base: PositionBase::Fen(FINISHED.to_string()),
                    moves: Vec::new(),
                };
                let before = self.searches.len();
                let go = GoParams {
                    depth: Some(3),
                    ..GoParams::default()
                };
                let result =
                    self.try_search("finished game", (command, position), go, SEARCH, None);
                let none = self
                    .searches
                    .get(before)
                    .and_then(|s| s.best.as_ref())
                    .is_some_and(|best| best.best.is_none());
                // Not a search whose move or info line is judged above.
                self.searches.truncate(before);
                result.and_then(|detail| {
                    if none {
                        Ok(detail)
                    } else {
                        Err(StepFailure::NotNone(detail))
                    }
                })
            }
            Err(error) => Err(error.into()),
        };
        self.report("finished game: bestmove (none)", outcome);
    }

    /// `quit` must end the process within 2 s.
    fn quit(&mut self) {
        let outcome = match self.process.take() {
            Some(mut engine) => {
                let sent = engine.send(&Command::Quit);
                let deadline = Instant::now() + Duration::from_secs(2);
                while engine.is_running() && Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(5));
                }
                if sent.is_ok() && !engine.is_running() {
                    Ok(String::new())
                } else {
                    Err(StepFailure::StillRunning)
                }
            }
            None => Err(StepFailure::NotRunning),
        };
        self.report("quit", outcome);
    }
}

/// A step's name or `go` line in the words of `protocol`: UGI's clocks
/// are `p1time`, `p2time`, `p1inc`, `p2inc`.
fn in_words_of(protocol: Protocol, text: &str) -> String {
    let uci = Protocol::Uci.clock_words();
    let words = protocol.clock_words();
    text.split(' ')
        .map(|word| match uci.iter().position(|w| *w == word) {
            Some(at) => words[at],
            None => word,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Positions the UGI queries are asked in: the `position` argument and the
/// right answers to `gameover`, `p1turn` and `result`.
const QUERIES: [(&str, [&str; 3]); 3] = [
    ("startpos", ["false", "true", "none"]),
    ("startpos moves c", ["false", "false", "none"]),
    // FINISHED: no stone left, North to move, South won on points.
    ("fen FINISHED", ["true", "false", "p1win"]),
];

impl Checker {
    /// UGI's own manners: the queries, and `bestmove` lines of exactly two
    /// words (cutegames reads no other).
    fn ugi_manners(&mut self) {
        let outcome = self.try_queries();
        self.report("query gameover, p1turn, result", outcome);
        let long = self
            .searches
            .iter()
            .find(|s| s.words != 2)
            .map(|s| StepFailure::InStep {
                step: s.step.clone(),
                fault: AnswerFault::Words(s.words),
            });
        let outcome = match (long, self.searches.len()) {
            (_, 0) => Err(StepFailure::NoBestmoveToCheck),
            (Some(why), _) => Err(why),
            (None, n) => Ok(format!("{n} of {n}")),
        };
        self.report("bestmove of two words", outcome);
    }

    fn try_queries(&mut self) -> Outcome {
        if self.unresponsive {
            return Err(StepFailure::Skipped);
        }
        let engine = self.engine()?;
        let mut asked = 0;
        for (position, answers) in QUERIES {
            let position = position.replace("FINISHED", FINISHED);
            // The engine's own parser makes the command of the text.
            let command = format!("position {position}")
                .parse::<Command>()
                .expect("the checker's positions parse");
            engine.send(&command)?;
            for (asking, right) in Query::ALL.into_iter().zip(answers) {
                let query = asking.word();
                engine.send(&Command::Query(asking))?;
                let answer = engine
                    .wait_for(ReplyKind::Response, Instant::now() + PING)
                    .map_err(|error| StepFailure::QueryUnanswered {
                        query,
                        position: position.clone(),
                        error,
                    })?;
                let expected = format!("response {right}");
                if answer.text.split_whitespace().collect::<Vec<_>>().join(" ") != expected {
                    return Err(StepFailure::QueryWrong {
                        query,
                        position,
                        got: answer.text,
                        expected,
                    });
                }
                asked += 1;
            }
        }
        Ok(format!("{asked} of {asked} right"))
    }
}

/// The `options` step: well-formed option lines, and the rule options.
fn options_outcome(identity: &Identity) -> Outcome {
    // An `option` line that parses is an `OptionLine` among the replies;
    // one that does not is left among the lines that are no reply.
    let malformed = identity
        .unparsed
        .iter()
        .find(|line| line.split_whitespace().next() == Some("option"));
    let missing: Vec<&str> = RULE_OPTIONS
        .iter()
        .map(|option| option.name)
        .filter(|name| {
            !identity
                .options
                .iter()
                .any(|o| o.eq_ignore_ascii_case(name))
        })
        .collect();
    if let Some(line) = malformed {
        Err(StepFailure::MalformedOption(line.clone()))
    } else if !missing.is_empty() {
        Err(StepFailure::RuleOptionsMissing(missing.join(", ")))
    } else {
        Ok(format!("{} options", identity.options.len()))
    }
}

/// What is wrong with a search's final info line, if anything: it must
/// have a score and a pv starting with the bestmove.
fn final_info_fault(search: &Searched) -> Option<AnswerFault> {
    let best = search.best.as_ref().map_or("", BestMove::text);
    let Some(info) = &search.final_info else {
        return Some(AnswerFault::NoInfo);
    };
    if info.score.is_none() {
        Some(AnswerFault::NoScore(info.to_string()))
    } else if info.pv.first().map(String::as_str) != Some(best) {
        Some(AnswerFault::PvNotBest {
            best: best.to_string(),
            info: info.to_string(),
        })
    } else {
        None
    }
}
