//! The UCI-style protocol loop (UGI too, when a session starts with `ugi`:
//! see [`ugi`]).
//!
//! The calling thread reads input; it answers `isready` during a search,
//! and passes `stop`, `ponderhit` and `quit` on through [`Signals`] at
//! once. Every other command goes, in order, to the engine thread, which
//! runs searches. Commands that arrive during a search therefore take
//! effect after its `bestmove`.

mod ugi;

mod command;
mod output;

use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Duration;

pub use command::{Command, CommandError, GoParams, PositionBase, Query, shorten};
pub use output::Output;

use crate::bench;
use crate::engine::{Engine, OptionEffect, option_lines};
use crate::outcome::Status;
use crate::perft::divide;
use crate::search::{Info, Limits, Listener, Signals};

/// Longest input line read whole; longer lines are rejected (and skipped
/// to their end) without holding them in memory.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Name and version for `id name`.
pub const ENGINE_NAME: &str = concat!("pasang ", env!("CARGO_PKG_VERSION"));

/// A command for the engine thread, with the id of its search if a `go`.
enum Job {
    Command(Command),
    /// A message to print in its turn (errors about the input line).
    Message(String),
    Go(GoParams, u64),
    IsReady,
    Quit,
}

/// Counters shared by the reader and the engine thread.
#[derive(Default)]
struct Searches {
    /// Ids handed to `go` commands so far (the latest id).
    sent: AtomicU64,
    /// `go` commands answered with `bestmove`.
    done: AtomicU64,
}

impl Searches {
    fn busy(&self) -> bool {
        self.sent.load(Ordering::SeqCst) > self.done.load(Ordering::SeqCst)
    }
}

/// Runs the protocol on standard input and output; returns the exit code.
pub fn run_stdio() -> i32 {
    run(std::io::stdin().lock(), Arc::new(Output::stdout()))
}

/// Runs the protocol on any input, writing to `output`.
pub fn run(mut input: impl BufRead, output: Arc<Output>) -> i32 {
    let signals = Arc::new(Signals::default());
    let searches = Arc::new(Searches::default());
    let (sender, receiver) = mpsc::channel::<Job>();
    let engine_thread = {
        let output = Arc::clone(&output);
        let signals = Arc::clone(&signals);
        let searches = Arc::clone(&searches);
        std::thread::Builder::new()
            .name("engine".into())
            .stack_size(16 << 20)
            .spawn(move || engine_loop(receiver, &output, &signals, &searches))
            .expect("the engine thread starts")
    };

    let mut line = Vec::new();
    loop {
        let read = read_line_bounded(&mut input, &mut line);
        let text = match read {
            Ok(LineRead::End) | Err(_) => break,
            Ok(LineRead::TooLong) => {
                output.send(&format!(
                    "info string error: line longer than {MAX_LINE_BYTES} bytes ignored"
                ));
                continue;
            }
            Ok(LineRead::Line) => String::from_utf8_lossy(&line).into_owned(),
        };
        let text = text.trim_end_matches(['\r', '\n']);
        output.log_input(text);
        let job = match text.parse::<Command>() {
            Ok(Command::Empty) => continue,
            Ok(Command::IsReady) => {
                if searches.busy() {
                    output.send("readyok");
                    continue;
                }
                Job::IsReady
            }
            Ok(Command::Stop) => {
                signals.stop(searches.sent.load(Ordering::SeqCst));
                continue;
            }
            Ok(Command::PonderHit) => {
                signals.ponderhit(searches.sent.load(Ordering::SeqCst));
                continue;
            }
            Ok(Command::Quit) => break,
            Ok(Command::Go(params)) => {
                let id = searches.sent.fetch_add(1, Ordering::SeqCst) + 1;
                Job::Go(params, id)
            }
            Ok(command) => Job::Command(command),
            // Through the queue, so the error comes out in input order.
            Err(error) => Job::Message(format!("info string {error}")),
        };
        if sender.send(job).is_err() {
            break;
        }
    }
    // Quit or end of input: stop any search, let the engine finish its
    // queue (each pending go answers at once), then exit.
    signals.stop(u64::MAX);
    let _ = sender.send(Job::Quit);
    let _ = engine_thread.join();
    0
}

enum LineRead {
    Line,
    TooLong,
    End,
}

/// Reads one line into `line` (without its newline), never holding more
/// than [`MAX_LINE_BYTES`].
fn read_line_bounded(input: &mut impl BufRead, line: &mut Vec<u8>) -> std::io::Result<LineRead> {
    line.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(if !any {
                LineRead::End
            } else if too_long {
                LineRead::TooLong
            } else {
                LineRead::Line
            });
        }
        any = true;
        let (chunk, found_newline) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (&buffer[..at], true),
            None => (buffer, false),
        };
        if !too_long {
            if line.len() + chunk.len() > MAX_LINE_BYTES {
                too_long = true;
                line.clear();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let used = chunk.len() + usize::from(found_newline);
        input.consume(used);
        if found_newline {
            return Ok(if too_long {
                LineRead::TooLong
            } else {
                LineRead::Line
            });
        }
    }
}

/// Prints search reports as `info` lines.
struct InfoPrinter<'a> {
    output: &'a Output,
}

/// The `info` line of a report.
pub fn info_line(info: &Info) -> String {
    let bound = match info.bound {
        Some(true) => " lowerbound",
        Some(false) => " upperbound",
        None => "",
    };
    let pv: Vec<String> = info.pv.iter().map(ToString::to_string).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {}{bound} nodes {} nps {} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score,
        info.nodes,
        info.nps(),
        info.hashfull,
        info.time_ms,
        pv.join(" ")
    )
}

impl Listener for InfoPrinter<'_> {
    fn info(&self, info: &Info) {
        self.output.send(&info_line(info));
    }

    fn current_move(&self, depth: u32, mv: crate::moves::Move, number: usize) {
        self.output.send(&format!(
            "info depth {depth} currmove {mv} currmovenumber {number}"
        ));
    }
}

fn engine_loop(
    receiver: mpsc::Receiver<Job>,
    output: &Output,
    signals: &Signals,
    searches: &Searches,
) {
    let mut engine = Engine::new();
    while let Ok(job) = receiver.recv() {
        match job {
            Job::Quit => break,
            Job::IsReady => output.send("readyok"),
            Job::Message(text) => output.send(&text),
            Job::Go(params, id) => {
                let bestmove = go(&engine, &params, id, output, signals);
                searches.done.fetch_max(id, Ordering::SeqCst);
                if let Some(line) = bestmove {
                    output.send(&line);
                }
            }
            Job::Command(command) => execute(&mut engine, command, output),
        }
    }
}

fn error(output: &Output, message: &str) {
    output.send(&format!("info string error: {message}"));
}

fn execute(engine: &mut Engine, command: Command, output: &Output) {
    match command {
        Command::Uci | Command::Ugi => {
            engine.set_ugi(command == Command::Ugi);
            output.send(&format!("id name {ENGINE_NAME}"));
            output.send("id author the pasang developers");
            for line in option_lines() {
                output.send(&line);
            }
            output.send(&format!("info string built for {}", crate::build::target()));
            output.send(if command == Command::Ugi {
                "ugiok"
            } else {
                "uciok"
            });
        }
        Command::Query(query) => output.send(&format!("response {}", ugi::answer(engine, query))),
        Command::SetOption { name, value } => match engine.set_option(&name, value.as_deref()) {
            Ok(OptionEffect::None) => {}
            Ok(OptionEffect::LogFile(path)) => {
                if let Err(message) = output.set_log_file(path.as_deref()) {
                    error(output, &message);
                }
            }
            Err(message) => error(output, &message),
        },
        Command::UciNewGame => engine.new_game(),
        Command::Position { base, moves } => {
            let fen = match &base {
                PositionBase::StartPos => None,
                PositionBase::Fen(text) => Some(text.as_str()),
            };
            if let Err(message) = engine.set_position(fen, &moves) {
                error(output, &message);
            }
        }
        Command::Debug(_) => {}
        Command::Moves => {
            let moves: Vec<String> = engine
                .legal_moves()
                .iter()
                .map(ToString::to_string)
                .collect();
            if moves.is_empty() {
                output.send("moves");
            } else {
                output.send(&format!("moves {}", moves.join(" ")));
            }
        }
        Command::Result => output.send(&format!("result {}", engine.status())),
        Command::Display => {
            for line in engine.display().lines() {
                output.send(line);
            }
        }
        Command::Eval => output.send(&format!("info string eval {}", engine.eval_report())),
        Command::Perft(depth) => output.send(&perft(engine, depth, output)),
        Command::Bench(depth) => {
            let report = bench::run(depth.unwrap_or(bench::DEFAULT_DEPTH), &mut |line| {
                output.send(line)
            });
            let _ = report;
        }
        // Handled by the reader; never queued.
        Command::IsReady
        | Command::Stop
        | Command::PonderHit
        | Command::Quit
        | Command::Go(_)
        | Command::Empty => {}
    }
}

/// Prints the divide lines and returns the closing `Nodes searched` line.
fn perft(engine: &Engine, depth: u32, output: &Output) -> String {
    let start = std::time::Instant::now();
    let counts = divide(engine.position(), engine.game_rules(), depth, false);
    for (mv, count) in &counts {
        output.send(&format!("{mv}: {count}"));
    }
    let total: u64 = if depth == 0 {
        1
    } else {
        counts.iter().map(|(_, count)| count).sum()
    };
    output.send("");
    log::info!("perft {depth}: {total} in {:?}", start.elapsed());
    format!("Nodes searched: {total}")
}

/// Runs one `go`: a search, or a perft. Returns its last line (`bestmove`,
/// or perft's `Nodes searched`) for the caller to send once the `go`
/// counts as done, so an `isready` sent after it is queued behind earlier
/// commands.
fn go(
    engine: &Engine,
    params: &GoParams,
    id: u64,
    output: &Output,
    signals: &Signals,
) -> Option<String> {
    for warning in &params.warnings {
        output.send(&format!("info string {warning}"));
    }
    if let Some(depth) = params.perft {
        return Some(perft(engine, depth, output));
    }
    let search_moves = match engine.parse_moves(&params.search_moves) {
        Ok(moves) => moves,
        Err(message) => {
            error(output, &format!("{message}; searching all moves"));
            Vec::new()
        }
    };
    let limits = Limits {
        depth: params.depth,
        nodes: params.nodes,
        movetime: params.movetime,
        time: params.time,
        increment: [
            params.increment[0].unwrap_or(0),
            params.increment[1].unwrap_or(0),
        ],
        moves_to_go: params.moves_to_go,
        infinite: params.infinite,
        ponder: params.ponder,
        mate: params.mate,
        search_moves,
    };
    if let Status::Over { winner, scores, .. } = engine.status() {
        let side = engine.position().side_to_move();
        let score = match winner {
            None => "cp 0".to_string(),
            Some(player) if player == side => {
                let margin = scores[side.index()] as i64 - scores[side.opponent().index()] as i64;
                format!("cp {}", 100 * margin)
            }
            Some(_) => "mate 0".to_string(),
        };
        output.send(&format!("info depth 0 score {score}"));
        wait_for_release(&limits, signals, id);
        return Some("bestmove (none)".to_string());
    }
    let result = engine.search(&limits, signals, id, &InfoPrinter { output });
    Some(match (result.best_move, result.final_info) {
        (Some(best), Some(info)) => {
            output.send(&info_line(&info));
            // UGI harnesses read a bestmove line of two words only.
            match result.ponder_move.filter(|_| !engine.ugi()) {
                Some(ponder) => format!("bestmove {best} ponder {ponder}"),
                None => format!("bestmove {best}"),
            }
        }
        _ => "bestmove (none)".to_string(),
    })
}

/// Infinite and ponder searches answer only after `stop` or `ponderhit`.
fn wait_for_release(limits: &Limits, signals: &Signals, id: u64) {
    while !signals.stopped(id)
        && (limits.infinite || (limits.ponder && !signals.ponderhit_received(id)))
    {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Reads all of `input` as protocol lines (tests and tools).
pub fn run_script(script: &str) -> String {
    let buffer = Arc::new(std::sync::Mutex::new(Vec::new()));
    struct Shared(Arc<std::sync::Mutex<Vec<u8>>>);
    impl std::io::Write for Shared {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .unwrap_or_else(|poison| poison.into_inner())
                .extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let output = Arc::new(Output::to(Box::new(Shared(Arc::clone(&buffer)))));
    let mut bytes = script.as_bytes();
    run(&mut bytes, output);
    let collected = buffer.lock().unwrap_or_else(|poison| poison.into_inner());
    String::from_utf8_lossy(&collected).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_skipped_whole() {
        let mut data = vec![b'x'; MAX_LINE_BYTES + 10];
        data.extend_from_slice(b"\nuci\n");
        let mut input = &data[..];
        let mut line = Vec::new();
        assert!(matches!(
            read_line_bounded(&mut input, &mut line),
            Ok(LineRead::TooLong)
        ));
        assert!(matches!(
            read_line_bounded(&mut input, &mut line),
            Ok(LineRead::Line)
        ));
        assert_eq!(line, b"uci");
        assert!(matches!(
            read_line_bounded(&mut input, &mut line),
            Ok(LineRead::End)
        ));
    }

    #[test]
    fn script_round_trip() {
        let out = run_script("uci\nisready\nposition startpos moves c\nmoves\nquit\n");
        assert!(out.contains("uciok"));
        assert!(out.contains("readyok"));
        assert!(out.contains("moves g h i j k"));
    }

    #[test]
    fn finished_games_answer_bestmove_none() {
        let out = run_script(
            "position fen .........../.........../.........../.........../.........../.....+...../.........../.........../.........../.........../.........S. n 10 4 bc\ngo depth 3\n",
        );
        // North to move, no stones: South won on points, so North has lost.
        assert!(out.contains("info depth 0 score mate 0"), "{out}");
        assert!(out.contains("bestmove (none)"));
    }
}
