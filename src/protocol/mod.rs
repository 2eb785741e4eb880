//! The UCI-style protocol loop (UGI too, when a session starts with `ugi`:
//! see `ugi`).
//!
//! The calling thread reads input. It acts on `stop`, `ponderhit` and
//! `quit` itself, through [`Signals`], and answers `isready` itself while
//! a long command (`go`, `perft`, `bench`) is queued or running. Every
//! other command goes, in input order, through a bounded queue (see
//! `queue`) to the engine thread, which carries them out; an error about
//! a line comes out in its turn too.
//!
//! `stop` ends every long command sent before it: the running one prints
//! what it has (a perft or bench marked `info string stopped: partial
//! count`), and those still queued do no work and print only their
//! closing lines. `quit` and end of input do the same, then the queued
//! quick commands are carried out and the engine exits.

// Without the command line nothing calls the threaded loop (`run`) and
// what only it uses: the browser drives a `LineDriver` instead.
#![cfg_attr(not(feature = "cli"), allow(dead_code, unused_imports))]

mod ugi;

mod command;
mod info;
mod line_driver;
mod lines;
pub(crate) mod options;
mod output;
mod queue;
mod render;
mod reply;
mod setup;

use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

pub(crate) use command::position_arguments;
pub use command::{
    ArgumentError, Command, CommandError, GoParams, GoWarning, NumberProblem, PositionBase, Query,
};
pub use info::{EngineScore, InfoLine};
pub use line_driver::LineDriver;
pub(crate) use lines::{LineRead, read_line_bounded};
pub(crate) use output::LogFileError;
pub use output::{Output, ReplyQueue};
pub use reply::{BestMove, IdField, OptionLine, OptionType, Reply, ReplyKind};
pub(crate) use setup::set_position;
pub(crate) use setup::{OptionEffect, Refusal};

use crate::bench;
use crate::engine::Engine;
use crate::perft::divide_until;
use crate::search::{Control, Info, Limits, Listener, Signals};
use options::option_lines;
use queue::{JobQueue, PushError};

/// Longest input line read whole; longer lines are rejected (and skipped
/// to their end) without holding them in memory.
pub(crate) const MAX_LINE_BYTES: usize = 1 << 20;

/// Name, version and commit for `id name`: `pasang 0.2.0 (1a2b3c4)`.
pub(crate) const ENGINE_NAME: &str = concat!("pasang ", env!("PASANG_VERSION"));

/// The line printed when the loop starts, as Stockfish prints one.
pub(crate) const BANNER: &str = concat!(
    "pasang ",
    env!("PASANG_VERSION"),
    " by the pasang developers (type 'help' for the commands)"
);

/// Said once when input is first dropped behind a long command.
const QUEUE_FULL: &str = "info string error: the input queue is full behind a long command; \
     input other than stop, isready, ponderhit and quit is dropped until there is room";

/// What the queue charges for the count of dropped lines.
const SUMMARY_COST: usize = 128;

/// The line that marks a perft or bench cut short by `stop`.
pub(crate) const STOPPED: &str = "info string stopped: partial count";

/// The answer to `help`.
pub(crate) const HELP: &str = "\
Commands (PROTOCOL.md describes each; docs/rules.md the game):
  uci                         identify, list the options, answer uciok
  isready                     answer readyok once earlier commands are done
  setoption name <N> [value <V>]  set an option (see the uci answer)
  ucinewgame                  forget what earlier games taught the engine
  position startpos [moves <m>...]  the start, then moves
  position fen <position> [moves <m>...]  a position string, then moves
  go [depth N] [nodes N] [movetime MS] [wtime MS btime MS winc MS binc MS]
     [movestogo N] [mate N] [infinite] [ponder] [searchmoves <m>...]
                              search; ends with bestmove
  go perft N | perft N        count move paths; ends with Nodes searched
  bench [depth]               search the built-in positions
  stop                        end the running search, perft or bench
  ponderhit                   the pondered move was played
  d                           show the board and the position string
  moves                       list the legal moves
  result                      the game's result so far
  eval                        the static evaluation
  ugi                         the UGI handshake (answers ugiok; see PROTOCOL.md)
  uginewgame                  as ucinewgame
  query gameover|p1turn|result  UGI questions, answered by response <...>
  help                        this list
  quit                        exit";

/// A long command: it may run for a long time and `stop` ends it.
enum Long {
    Go(GoParams),
    Perft(u32),
    Bench(Option<u32>),
}

/// A job for the engine thread.
enum Job {
    Command(Command),
    /// A message to print in its turn (errors about the input line).
    Message(String),
    /// A long command and its id for [`Signals`].
    Long(Long, u64),
    IsReady,
    Quit,
}

/// Counters of long commands shared by the reader and the engine thread.
#[derive(Default)]
struct LongCommands {
    /// Ids handed out so far (the latest id).
    sent: AtomicU64,
    /// The latest id finished (counted before its closing line is sent).
    done: AtomicU64,
}

impl LongCommands {
    fn busy(&self) -> bool {
        self.sent.load(Ordering::SeqCst) > self.done.load(Ordering::SeqCst)
    }
}

/// Runs the protocol on any input, writing to `output`.
pub(crate) fn run(mut input: impl BufRead, output: Arc<Output>) -> i32 {
    output.send(BANNER);
    let signals = Arc::new(Signals::default());
    let long = Arc::new(LongCommands::default());
    let queue = Arc::new(JobQueue::<Job>::default());
    let engine_thread = {
        let output = Arc::clone(&output);
        let signals = Arc::clone(&signals);
        let long = Arc::clone(&long);
        let queue = Arc::clone(&queue);
        std::thread::Builder::new()
            .name("engine".into())
            .stack_size(16 << 20)
            .spawn(move || engine_loop(&queue, &output, &signals, &long))
            .expect("the engine thread starts")
    };

    let stopped = |id| signals.stopped(id);
    let mut line = Vec::new();
    // Lines dropped since the queue was last found full.
    let mut dropped: u64 = 0;
    loop {
        let read = read_line_bounded(&mut input, &mut line, MAX_LINE_BYTES);
        let text = match read {
            Ok(LineRead::End) | Err(_) => break,
            Ok(LineRead::TooLong) => {
                output.send(&too_long());
                continue;
            }
            Ok(LineRead::Line) => String::from_utf8_lossy(&line).into_owned(),
        };
        let text = text.trim_end_matches(['\r', '\n']);
        let job = match intake(text, &output, &signals, &long) {
            Intake::Done => continue,
            Intake::Quit => break,
            Intake::Job(job) => job,
        };
        let is_long = matches!(job, Job::Long(..));
        let cost = queue::cost(text);
        // The count of dropped lines goes in just before the first line
        // that fits again (or right after it, if it had to wait for room).
        let summary = |dropped: u64| {
            Job::Message(error_line(format!(
                "{dropped} input line(s) dropped while the queue was full"
            )))
        };
        if dropped > 0
            && queue.has_room(SUMMARY_COST + cost)
            && queue.push(summary(dropped), SUMMARY_COST, &stopped).is_ok()
        {
            dropped = 0;
        }
        match queue.push(job, cost, &stopped) {
            Ok(()) => {
                if is_long {
                    long.sent.fetch_add(1, Ordering::SeqCst);
                }
                if dropped > 0 && queue.push(summary(dropped), SUMMARY_COST, &stopped).is_ok() {
                    dropped = 0;
                }
            }
            Err(PushError::Full) => {
                if dropped == 0 {
                    output.send(QUEUE_FULL);
                }
                dropped += 1;
            }
            Err(PushError::Closed) => break,
        }
    }
    // Quit or end of input: stop every long command, running or queued,
    // let the engine thread carry out the quick ones still queued, exit.
    signals.stop(u64::MAX);
    queue.push_last(Job::Quit);
    let _ = engine_thread.join();
    0
}

/// The error for an input line longer than [`MAX_LINE_BYTES`].
fn too_long() -> String {
    error_line(format!("line longer than {MAX_LINE_BYTES} bytes ignored"))
}

/// What the reader made of one input line.
enum Intake {
    /// Handled at once (or empty): nothing to queue.
    Done,
    /// `quit`: the end of input.
    Quit,
    /// A job for the engine, in input order; the caller counts a long
    /// one as sent once it is queued.
    Job(Job),
}

/// The reader's part of one line: `stop`, `ponderhit` and (while a long
/// command is queued or running) `isready` act at once, as a GUI expects
/// of a searching engine; everything else becomes a job.
fn intake(text: &str, output: &Output, signals: &Signals, long: &LongCommands) -> Intake {
    output.log_input(text);
    match text.parse::<Command>() {
        Ok(command) => intake_command(command, output, signals, long),
        // Through the queue, so the error comes out in input order.
        Err(error) => Intake::Job(Job::Message(
            InfoLine::message(error.to_string()).to_string(),
        )),
    }
}

/// [`intake`] of a command already typed (a front end in the same
/// process sends no text).
fn intake_command(
    command: Command,
    output: &Output,
    signals: &Signals,
    long: &LongCommands,
) -> Intake {
    let sent = long.sent.load(Ordering::SeqCst);
    Intake::Job(match command {
        Command::Empty => return Intake::Done,
        Command::IsReady => {
            if long.busy() {
                output.reply(Reply::Done(ReplyKind::ReadyOk));
                return Intake::Done;
            }
            Job::IsReady
        }
        Command::Stop => {
            signals.stop(sent);
            return Intake::Done;
        }
        Command::PonderHit => {
            signals.ponderhit(sent);
            return Intake::Done;
        }
        Command::Quit => return Intake::Quit,
        Command::Go(params) => Job::Long(Long::Go(params), sent + 1),
        Command::Perft(depth) => Job::Long(Long::Perft(depth), sent + 1),
        Command::Bench(depth) => Job::Long(Long::Bench(depth), sent + 1),
        command => Job::Command(command),
    })
}

/// Prints search reports as `info` lines.
struct InfoPrinter<'a> {
    output: &'a Output,
    show_wdl: bool,
}

/// The `info` line of a report (with win/draw/loss chances when
/// `UCI_ShowWDL` is on).
pub(crate) fn info_line(info: &Info, show_wdl: bool) -> InfoLine {
    InfoLine {
        depth: Some(info.depth.into()),
        seldepth: Some(info.seldepth.into()),
        multipv: Some(info.multipv as u64),
        score: Some(info.score.into()),
        wdl: show_wdl.then(|| info.score.wdl()),
        nodes: Some(info.nodes),
        nps: Some(info.nps()),
        hashfull: Some(info.hashfull.into()),
        time: Some(info.time_ms),
        pv: info.pv.iter().map(ToString::to_string).collect(),
        ..InfoLine::default()
    }
}

/// `info string error: {message}`.
fn error_line(message: impl std::fmt::Display) -> String {
    InfoLine::error(message).to_string()
}

impl Listener for InfoPrinter<'_> {
    fn info(&self, info: &Info) {
        self.output
            .reply(Reply::Info(info_line(info, self.show_wdl)));
    }

    fn current_move(&self, depth: u32, mv: crate::moves::Move, number: usize) {
        let line = InfoLine {
            depth: Some(depth.into()),
            currmove: Some(mv.to_string()),
            currmovenumber: Some(number as u64),
            ..InfoLine::default()
        };
        self.output.reply(Reply::Info(line));
    }
}

/// The engine and what the protocol keeps beside it.
#[derive(Default)]
struct ProtocolSession {
    engine: Engine,
    /// Whether the session speaks UGI (set by `ugi`, cleared by `uci`):
    /// its `bestmove` lines then name no ponder move.
    ugi: bool,
    /// `UCI_ShowWDL`: add win/draw/loss chances to the `info` lines.
    show_wdl: bool,
}

fn engine_loop(queue: &JobQueue<Job>, output: &Output, signals: &Signals, long: &LongCommands) {
    let mut session = ProtocolSession::default();
    while let Some(job) = queue.pop() {
        if let Job::Long(_, id) = job {
            queue.set_long_running(Some(id));
        }
        let going_on = carry_out(&mut session, job, output, signals, long, &mut || {
            queue.set_long_running(None)
        });
        if !going_on {
            break;
        }
    }
}

/// Carries out one job; `false` for `Quit`. `finished_long` runs when a
/// long command has counted itself done, before its closing lines.
fn carry_out(
    session: &mut ProtocolSession,
    job: Job,
    output: &Output,
    signals: &Signals,
    long: &LongCommands,
    finished_long: &mut dyn FnMut(),
) -> bool {
    match job {
        Job::Quit => return false,
        Job::IsReady => output.reply(Reply::Done(ReplyKind::ReadyOk)),
        Job::Message(text) => output.send(&text),
        Job::Long(command, id) => {
            let closing = match command {
                Long::Go(params) => go(session, &params, id, output, signals),
                Long::Perft(depth) => perft(&session.engine, depth, id, output, signals),
                Long::Bench(depth) => bench(depth, id, output, signals),
            };
            // Counted done before its closing lines, so an `isready`
            // sent after them waits in the queue behind later commands.
            long.done.fetch_max(id, Ordering::SeqCst);
            finished_long();
            match closing {
                Closing::Replies(replies) => replies.into_iter().for_each(|r| output.reply(r)),
                Closing::Lines(lines) => lines.iter().for_each(|line| output.send(line)),
            }
        }
        Job::Command(command) => execute(session, command, output),
    }
    true
}

fn error(output: &Output, message: impl std::fmt::Display) {
    output.reply(Reply::Info(InfoLine::error(message)));
}

/// A long command's last lines, sent once it counts as done: a search's
/// `bestmove` (a reply), or perft's and bench's totals (text).
enum Closing {
    Replies(Vec<Reply>),
    Lines(Vec<String>),
}

/// The answer to `uci` (`ugi` when `ugi`): the engine's name and author,
/// its options, what it was built for, and `uciok` (`ugiok`).
fn handshake(ugi: bool) -> impl Iterator<Item = Reply> {
    let done = if ugi {
        ReplyKind::UgiOk
    } else {
        ReplyKind::UciOk
    };
    let built = format!("built for {}", crate::version::target());
    [
        Reply::Id(IdField::Name, ENGINE_NAME.into()),
        Reply::Id(IdField::Author, "the pasang developers".into()),
    ]
    .into_iter()
    .chain(option_lines().into_iter().map(Reply::Option))
    .chain([Reply::Info(InfoLine::message(built)), Reply::Done(done)])
}

fn execute(session: &mut ProtocolSession, command: Command, output: &Output) {
    let engine = &mut session.engine;
    match command {
        Command::Uci | Command::Ugi => {
            session.ugi = command == Command::Ugi;
            handshake(session.ugi).for_each(|reply| output.reply(reply));
        }
        Command::Query(query) => {
            output.reply(Reply::Response(ugi::answer(engine, query).to_string()))
        }
        Command::SetOption { name, value } => {
            match setup::set_option(engine, &name, value.as_deref()) {
                Ok(OptionEffect::None) => {}
                Ok(OptionEffect::ShowWdl(on)) => session.show_wdl = on,
                Ok(OptionEffect::LogFile(path)) => {
                    if let Err(message) = output.set_log_file(path.as_deref()) {
                        error(output, &message);
                    }
                }
                Err(message) => error(output, &message),
            }
        }
        Command::UciNewGame => engine.new_game(),
        Command::Position { base, moves } => {
            if let Err(message) = set_position(engine, &base, &moves) {
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
            for line in render::display(engine).lines() {
                output.send(line);
            }
        }
        Command::Eval => {
            let report = format!("eval {}", render::eval_report(engine));
            output.send(&InfoLine::message(report).to_string())
        }
        Command::Help => {
            for line in HELP.lines() {
                output.send(line);
            }
        }
        // Handled by the reader or as long commands.
        Command::Perft(_)
        | Command::Bench(_)
        | Command::IsReady
        | Command::Stop
        | Command::PonderHit
        | Command::Quit
        | Command::Go(_)
        | Command::Empty => {}
    }
}

/// Runs a perft of the current position, printing each root move's
/// count as it finishes; returns the closing lines.
fn perft(engine: &Engine, depth: u32, id: u64, output: &Output, signals: &Signals) -> Closing {
    let start = crate::host::Instant::now();
    let counted = divide_until(
        engine.position(),
        engine.game_rules(),
        depth,
        &|| signals.stopped(id),
        &mut |mv, count| output.send(&format!("{mv}: {count}")),
    );
    if counted.stopped {
        output.send(STOPPED);
    }
    output.send("");
    log::info!("perft {depth}: {} in {:?}", counted.total, start.elapsed());
    Closing::Lines(vec![format!("Nodes searched: {}", counted.total)])
}

/// Runs the benchmark; returns its closing lines.
fn bench(depth: Option<u32>, id: u64, output: &Output, signals: &Signals) -> Closing {
    let depth = depth.unwrap_or(bench::DEFAULT_DEPTH);
    let report = bench::run(depth, signals, id, &mut |line| output.send(line));
    if report.stopped {
        output.send(STOPPED);
    }
    Closing::Lines(report.closing_lines().to_vec())
}

/// Runs one `go`: a search, or a perft. Returns its closing line
/// (`bestmove`, or perft's `Nodes searched`).
fn go(
    session: &ProtocolSession,
    params: &GoParams,
    id: u64,
    output: &Output,
    signals: &Signals,
) -> Closing {
    for warning in &params.warnings {
        output.reply(Reply::Info(InfoLine::message(warning.to_string())));
    }
    let engine = &session.engine;
    if let Some(depth) = params.perft {
        return perft(engine, depth, id, output, signals);
    }
    let search_moves = match setup::search_moves(engine, &params.search_moves) {
        Ok(moves) => moves,
        Err(message) => {
            error(output, format!("{message}; searching all moves"));
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
    let show_wdl = session.show_wdl;
    if let Some((score, wdl)) = engine.final_score() {
        let line = InfoLine {
            depth: Some(0),
            score: Some(score.into()),
            wdl: show_wdl.then_some(wdl),
            ..InfoLine::default()
        };
        output.reply(Reply::Info(line));
        signals.wait_for_release(&limits, id);
        return Closing::Replies(vec![Reply::BestMove(BestMove::NONE)]);
    }
    let control = Control { signals, id };
    let result = engine.search_controlled(&limits, control, &InfoPrinter { output, show_wdl });
    let best = match (result.best_move, result.final_info) {
        (Some(best), Some(info)) => {
            output.reply(Reply::Info(info_line(&info, show_wdl)));
            BestMove {
                best: Some(best.to_string()),
                // UGI harnesses read a bestmove line of two words only.
                ponder: result
                    .ponder_move
                    .filter(|_| !session.ugi)
                    .map(|ponder| ponder.to_string()),
            }
        }
        _ => BestMove::NONE,
    };
    Closing::Replies(vec![Reply::BestMove(best)])
}

/// Reads all of `script` as protocol lines (unit tests). Its end is the
/// end of input: it stops any search, perft or bench still running, as
/// `quit` does.
#[cfg(test)]
pub(crate) fn run_script(script: &str) -> String {
    let buffer = Arc::new(std::sync::Mutex::new(Vec::new()));
    struct SharedBuffer(Arc<std::sync::Mutex<Vec<u8>>>);
    impl std::io::Write for SharedBuffer {
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
    let output = Arc::new(Output::to(Box::new(SharedBuffer(Arc::clone(&buffer)))));
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
            read_line_bounded(&mut input, &mut line, MAX_LINE_BYTES),
            Ok(LineRead::TooLong)
        ));
        assert!(matches!(
            read_line_bounded(&mut input, &mut line, MAX_LINE_BYTES),
            Ok(LineRead::Line)
        ));
        assert_eq!(line, b"uci");
        assert!(matches!(
            read_line_bounded(&mut input, &mut line, MAX_LINE_BYTES),
            Ok(LineRead::End)
        ));
    }

    /// The engine's `info` writer and the client's reader agree: every
    /// field the tools read comes back as written, with and without the
    /// win/draw/loss words, for scores in points and mates both ways.
    #[test]
    fn info_lines_parse_back_to_what_was_written() {
        use crate::client::{EngineScore, InfoLine};
        use crate::search::Score;
        let position = crate::notation::start_position(crate::rules::Pattern::One);
        let rules = crate::rules::Rules::default();
        let pv: Vec<crate::moves::Move> = ["c", "j", "b4c4n"]
            .iter()
            .scan(position, |at, text| {
                let mv = crate::notation::parse_move(at, &rules, text).ok()?;
                *at = at.play(mv);
                Some(mv)
            })
            .collect();
        for (score, expected) in [
            (Score::Centipoints(-37), EngineScore::Centipoints(-37)),
            (Score::Mate(3), EngineScore::Mate(3)),
            (Score::Mate(-2), EngineScore::Mate(-2)),
        ] {
            for (multipv, line) in [(1, pv.clone()), (2, Vec::new())] {
                let info = Info {
                    depth: 12,
                    seldepth: 19,
                    multipv,
                    score,
                    nodes: 123_456,
                    time_ms: 250,
                    hashfull: 17,
                    pv: line,
                };
                for show_wdl in [false, true] {
                    let written = info_line(&info, show_wdl).to_string();
                    let read = InfoLine::parse(&written).expect("an info line");
                    assert_eq!(read.to_string(), written);
                    assert_eq!(read.depth, Some(12), "{written}");
                    assert_eq!(read.multipv, Some(multipv as u64), "{written}");
                    assert_eq!(read.score, Some(expected), "{written}");
                    assert_eq!(read.nodes, Some(123_456), "{written}");
                    assert_eq!(read.nps, Some(info.nps()), "{written}");
                    let pv: Vec<String> = info.pv.iter().map(ToString::to_string).collect();
                    assert_eq!(read.pv, pv, "{written}");
                    assert_eq!(read.string, None, "{written}");
                }
            }
        }
        let message = InfoLine::parse("info string error: unknown command: x").unwrap();
        assert_eq!(message.string.as_deref(), Some("error: unknown command: x"));
    }

    /// Every line the engine sends in a session (the handshakes, options,
    /// reports, messages, errors, answers and best moves) parses as a
    /// [`Reply`] that writes back to the same line.
    #[test]
    fn every_reply_parses_back_to_itself() {
        let out = run_script(
            "uci\nugi\nsetoption name UCI_ShowWDL value true\nisready\n\
             position startpos moves c\ngo depth 5\nquery gameover\neval\nbogus\n\
             go depth 2 nodes x\nsetoption name Hash value 0\nquit\n",
        );
        let mut kinds = std::collections::HashSet::new();
        for line in out.lines().skip(1).filter(|line| !line.is_empty()) {
            let reply = Reply::parse(line).unwrap_or_else(|| panic!("not a reply: {line}"));
            assert_eq!(reply.to_string(), line);
            kinds.insert(std::mem::discriminant(&reply));
        }
        // id, option, uciok/ugiok/readyok, info, bestmove and response.
        assert_eq!(kinds.len(), 6, "{out}");
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
