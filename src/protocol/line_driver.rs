//! The protocol on one thread, a line at a time: the engine in a browser,
//! where no thread reads input beside the search.
//!
//! It keeps the native loop's two halves apart. [`LineDriver::input`] is
//! the reader: it acts on `stop`, `ponderhit`, `quit` and (while a long
//! command runs) `isready` at once and queues the rest; [`LineDriver::run`]
//! is the engine: it carries out what is queued, in order. In the browser
//! the search pauses every few milliseconds (see `host`), the page calls
//! `input` with what arrived meanwhile, and `run` goes on where it was, so
//! a `stop` is heard within a pause's interval.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;

use super::{
    BANNER, Command, Intake, Job, LongCommands, MAX_LINE_BYTES, Output, ProtocolSession,
    QUEUE_FULL, carry_out, intake, intake_command, too_long,
};
use crate::search::Signals;

/// Lines taken but not yet carried out, beyond which input is refused
/// (a page that floods a searching engine).
const MAX_PENDING: usize = 4096;

/// The protocol driven by calls rather than by a reader thread.
pub struct LineDriver {
    output: Output,
    signals: Signals,
    long: LongCommands,
    pending: RefCell<VecDeque<Job>>,
    session: RefCell<ProtocolSession>,
    quit: Cell<bool>,
}

impl LineDriver {
    /// A driver writing to `output`; prints the banner, as the native
    /// engine does when it starts.
    pub fn new(output: Output) -> LineDriver {
        output.send(BANNER);
        LineDriver {
            output,
            signals: Signals::default(),
            long: LongCommands::default(),
            pending: RefCell::new(VecDeque::new()),
            session: RefCell::new(ProtocolSession::default()),
            quit: Cell::new(false),
        }
    }

    /// Takes one input line (without its line end). `stop`, `ponderhit`,
    /// `quit` and, while a long command is queued or running, `isready`
    /// act at once; every other line waits for [`LineDriver::run`]. After
    /// `quit`, input is ignored.
    pub fn input(&self, text: &str) {
        if self.quit.get() {
            return;
        }
        if text.len() > MAX_LINE_BYTES {
            self.output.send(&too_long());
            return;
        }
        let text = text.trim_end_matches(['\r', '\n']);
        self.take(intake(text, &self.output, &self.signals, &self.long));
    }

    /// Takes one command, typed: as [`LineDriver::input`] takes its line,
    /// with no text to write and read again (the board's session in the
    /// same thread).
    pub fn command(&self, command: Command) {
        if self.quit.get() {
            return;
        }
        if self.output.logs() || log::log_enabled!(log::Level::Debug) {
            // The command as its value: it came as no text.
            self.output.log_input(&format!("{command:?}"));
        }
        self.take(intake_command(
            command,
            &self.output,
            &self.signals,
            &self.long,
        ));
    }

    /// Queues what the intake made of a command, or quits.
    fn take(&self, intake: Intake) {
        match intake {
            Intake::Done => {}
            Intake::Quit => {
                // As at the end of native input: every long command
                // stops, the quick ones queued still run, then the end.
                self.quit.set(true);
                self.signals.stop(u64::MAX);
                self.pending.borrow_mut().push_back(Job::Quit);
            }
            Intake::Job(job) => {
                let mut pending = self.pending.borrow_mut();
                if pending.len() >= MAX_PENDING {
                    self.output.send(QUEUE_FULL);
                    return;
                }
                if matches!(job, Job::Long(..)) {
                    self.long
                        .sent
                        .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                }
                pending.push_back(job);
            }
        }
    }

    /// Carries out the queued lines in order, and those that arrive while
    /// it runs. Returns `false` once `quit` has been carried out (the
    /// engine has ended), `true` when the queue is empty. A call made
    /// while another is running (from a pause) returns `true` at once:
    /// the running one carries on.
    pub fn run(&self) -> bool {
        let Ok(mut session) = self.session.try_borrow_mut() else {
            return true;
        };
        loop {
            // The queue is borrowed only to take a job: input goes on
            // arriving while the job runs.
            let Some(job) = self.pending.borrow_mut().pop_front() else {
                return true;
            };
            if !carry_out(
                &mut session,
                job,
                &self.output,
                &self.signals,
                &self.long,
                &mut || {},
            ) {
                return false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Shared {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn driver() -> (LineDriver, Arc<Mutex<Vec<u8>>>) {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let output = Output::to(Box::new(Shared(Arc::clone(&buffer))));
        (LineDriver::new(output), buffer)
    }

    fn text(buffer: &Arc<Mutex<Vec<u8>>>) -> String {
        String::from_utf8_lossy(&buffer.lock().unwrap()).into_owned()
    }

    #[test]
    fn lines_run_in_order_and_quit_ends() {
        let (driver, buffer) = driver();
        for line in [
            "uci",
            "position startpos moves c",
            "moves",
            "bad",
            "isready",
        ] {
            driver.input(line);
        }
        assert!(driver.run());
        driver.input("quit");
        driver.input("uci");
        assert!(!driver.run());
        let out = text(&buffer);
        assert!(out.starts_with(BANNER), "{out}");
        let uciok = out.find("uciok").unwrap();
        let moves = out.find("moves g h i j k").unwrap();
        let error = out.find("info string unknown command: bad").unwrap();
        let ready = out.find("readyok").unwrap();
        assert!(uciok < moves && moves < error && error < ready, "{out}");
        assert_eq!(
            out.matches("uciok").count(),
            1,
            "input after quit is ignored"
        );
    }

    #[test]
    fn a_search_runs_to_its_depth_the_same_each_time() {
        let search = || {
            let (driver, buffer) = driver();
            for line in ["ucinewgame", "position startpos", "go depth 5"] {
                driver.input(line);
            }
            assert!(driver.run());
            text(&buffer)
                .lines()
                .filter(|line| line.starts_with("bestmove") || line.contains(" nodes "))
                .map(|line| line.split(" nps ").next().unwrap_or(line).to_string())
                .collect::<Vec<_>>()
        };
        let first = search();
        assert!(first.last().unwrap().starts_with("bestmove "), "{first:?}");
        assert!(
            first.iter().any(|line| line.starts_with("info depth 5 ")),
            "{first:?}"
        );
        assert_eq!(first, search());
    }
}
