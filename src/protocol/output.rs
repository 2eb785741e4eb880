//! The one writer all protocol output goes through: a line at a time,
//! locked, flushed after every line (pipes get no line buffering).

use std::collections::VecDeque;
use std::fs::File;
use std::io::Write;
use std::sync::{Arc, Mutex};

use super::Reply;

/// Replies kept as values for a reader in the same process (the board's
/// session in a browser), oldest first.
pub type ReplyQueue = Arc<Mutex<VecDeque<Reply>>>;

/// Where the lines go: text to a writer, or replies to a queue.
enum Sink {
    Text(Box<dyn Write + Send>),
    Replies(ReplyQueue),
}

/// A debug log file that could not be opened; the previous log stays.
#[derive(Debug, thiserror::Error)]
#[error("cannot open log file '{path}': {error}")]
pub struct LogFileError {
    /// The path asked for.
    pub path: String,
    /// Why it could not be opened.
    #[source]
    pub error: std::io::Error,
}

/// Serialised, flushed output, with an optional log of both directions.
pub struct Output {
    sink: Mutex<Sink>,
    log_file: Mutex<Option<File>>,
}

impl Output {
    /// Output to standard output.
    pub fn stdout() -> Output {
        Output::to(Box::new(std::io::stdout()))
    }

    /// Output to any writer (tests).
    pub fn to(writer: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Mutex::new(Sink::Text(writer)),
            log_file: Mutex::new(None),
        }
    }

    /// Output as typed replies to `queue`, with no text in between (the
    /// board's session with its engine in the same thread). Lines that
    /// are no reply of the protocol (`d`'s diagram, perft's counts) are
    /// not for such a reader and are left out.
    pub fn replies(queue: ReplyQueue) -> Output {
        Output {
            sink: Mutex::new(Sink::Replies(queue)),
            log_file: Mutex::new(None),
        }
    }

    /// Sends one line. A closed pipe is not an error worth dying for: the
    /// GUI is gone and `quit` or end of input follows.
    pub fn send(&self, line: &str) {
        log::debug!(">> {line}");
        self.log_line(">>", line);
        self.deliver(Out::Line(line));
    }

    /// Sends one reply: as its line to a writer, as itself to a queue.
    pub fn reply(&self, reply: Reply) {
        if log::log_enabled!(log::Level::Debug) || self.logs() {
            let line = reply.to_string();
            log::debug!(">> {line}");
            self.log_line(">>", &line);
        }
        self.deliver(Out::Reply(reply));
    }

    /// Hands `out` to the sink: written and flushed to a writer, or queued
    /// as a reply (a line that is none is not for a queue's reader).
    fn deliver(&self, out: Out<'_>) {
        let mut sink = self
            .sink
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        match &mut *sink {
            Sink::Text(writer) => {
                let _ = match out {
                    Out::Line(line) => writeln!(writer, "{line}"),
                    Out::Reply(reply) => writeln!(writer, "{reply}"),
                };
                let _ = writer.flush();
            }
            Sink::Replies(queue) => {
                let reply = match out {
                    Out::Line(line) => Reply::parse(line),
                    Out::Reply(reply) => Some(reply),
                };
                if let Some(reply) = reply {
                    queue
                        .lock()
                        .unwrap_or_else(|poison| poison.into_inner())
                        .push_back(reply);
                }
            }
        }
    }

    /// Whether a debug log file is open.
    pub(crate) fn logs(&self) -> bool {
        self.log_file
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .is_some()
    }

    /// Records an input line in the debug log.
    pub fn log_input(&self, line: &str) {
        log::debug!("<< {line}");
        self.log_line("<<", line);
    }

    /// Starts (or with `None`, stops) logging every line to `path`.
    pub fn set_log_file(&self, path: Option<&str>) -> Result<(), LogFileError> {
        let file = match path {
            Some(path) => Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|error| LogFileError {
                        path: path.to_string(),
                        error,
                    })?,
            ),
            None => None,
        };
        *self
            .log_file
            .lock()
            .unwrap_or_else(|poison| poison.into_inner()) = file;
        Ok(())
    }

    fn log_line(&self, direction: &str, line: &str) {
        let mut guard = self
            .log_file
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        if let Some(file) = guard.as_mut() {
            let now = crate::host::unix_time();
            let _ = writeln!(
                file,
                "{}.{:03} {direction} {line}",
                now.as_secs(),
                now.subsec_millis()
            );
        }
    }
}

/// What goes out: a line of text, or a reply. (It lives on the stack for
/// one call: boxing the reply would cost an allocation a line for
/// nothing.)
#[allow(clippy::large_enum_variant)]
enum Out<'a> {
    Line(&'a str),
    Reply(Reply),
}
