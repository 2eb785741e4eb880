//! A child engine spoken to over pipes. A reader thread turns its output
//! into timestamped lines on a channel, so every wait for an answer has a
//! deadline and a silent or dead engine can never hang the caller; a
//! second one keeps the last lines of its stderr for diagnostics.

use std::collections::VecDeque;
use std::io::{BufReader, ErrorKind, Read, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::command::line;
use super::protocol::Protocol;
use super::spec::EngineSpec;
use crate::protocol::{
    BestMove, Command, IdField, InfoLine, LineRead, Reply, ReplyKind, read_line_bounded,
};

/// Longest output line kept whole; the rest of a longer line is dropped
/// so that a runaway engine cannot exhaust memory.
const MAX_LINE_BYTES: usize = 1 << 16;

/// Lines buffered between the reader thread and the runner. When full, the
/// reader stops reading and the engine blocks on its own output.
const CHANNEL_LINES: usize = 4096;

/// Lines of stderr kept (the last ones), for diagnostics.
const STDERR_LINES: usize = 20;

/// Why an engine could not be started.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The program could not be run.
    #[error("'{program}': {source}")]
    Program {
        /// The program as given.
        program: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The process came without the pipes asked for.
    #[error("no pipes to the process")]
    NoPipes,
    /// No thread to read its output.
    #[error("cannot start a reader thread: {0}")]
    ReaderThread(#[source] std::io::Error),
}

/// Why talking to an engine failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The program could not be started.
    #[error("cannot start: {0}")]
    Start(#[source] StartError),
    /// The process exited or closed its pipes.
    #[error("the engine process exited or closed its pipe")]
    Disconnected,
    /// The awaited answer (named) did not come before the deadline.
    #[error("no {0} in time")]
    Timeout(&'static str),
}

/// One line of engine output and when the reader thread received it.
#[derive(Clone, Debug)]
pub struct Line {
    /// The text without its line end.
    pub text: String,
    /// When it arrived: clocks stop here, not when the runner looks.
    pub at: Instant,
}

/// The engine's output up to the reply a wait was for, read once into
/// the protocol's typed replies: what the referee, the compliance check
/// and the board take from an engine.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The line that ended the wait, as written (for messages).
    pub text: String,
    /// That line read as a reply; `None` when malformed (a `bestmove`
    /// with no move, say).
    pub end: Option<Reply>,
    /// When it arrived: clocks stop here, not when the runner looks.
    pub at: Instant,
    /// The replies before it, oldest first.
    pub before: Vec<Reply>,
    /// The lines before it that are none of the protocol's replies (a
    /// malformed `option` line, say), for checks that look for them.
    pub unparsed: Vec<String>,
}

impl Answer {
    /// The `bestmove` that ended a search, if that is what ended the wait
    /// and it was well formed.
    pub fn best_move(&self) -> Option<&BestMove> {
        match &self.end {
            Some(Reply::BestMove(best)) => Some(best),
            _ => None,
        }
    }

    /// The search's final word: the last `info` line with a score.
    pub fn final_info(&self) -> Option<&InfoLine> {
        infos(&self.before).rev().find(|info| info.score.is_some())
    }
}

/// The `info` lines among `replies`, oldest first.
fn infos(replies: &[Reply]) -> impl DoubleEndedIterator<Item = &InfoLine> {
    replies.iter().filter_map(|reply| match reply {
        Reply::Info(info) => Some(info),
        _ => None,
    })
}

/// The engine's refusals (`info string error: ...`) among `replies`, each
/// without its prefix.
pub fn refusals(replies: &[Reply]) -> impl Iterator<Item = &str> {
    infos(replies).filter_map(InfoLine::error_message)
}

/// What the engine said in answer to `uci` (or `ugi`).
#[derive(Clone, Debug, Default)]
pub struct Identity {
    /// `id name`, if given.
    pub name: Option<String>,
    /// The names of the options it announced, in order.
    pub options: Vec<String>,
    /// Every reply before `uciok` (`ugiok`), for checks that want them.
    pub replies: Vec<Reply>,
    /// The lines before it that are none of the protocol's replies.
    pub unparsed: Vec<String>,
}

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
    /// Set once the output pipe has closed.
    closed: bool,
    protocol: Protocol,
    /// The last lines of its stderr.
    stderr: Arc<Mutex<VecDeque<String>>>,
}

impl EngineProcess {
    /// Starts the program of `spec` with piped stdin, stdout and stderr
    /// (of which the last lines are kept: not protocol, but what a crashed
    /// engine said last).
    pub fn spawn(spec: &EngineSpec) -> Result<EngineProcess, ClientError> {
        let mut attempt = 0;
        let mut child = loop {
            let result = std::process::Command::new(&spec.program)
                .args(&spec.args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn();
            match result {
                Ok(child) => break child,
                // A script written a moment ago may still be open for
                // writing in some process that forked meanwhile (a known
                // race on Linux); it clears within milliseconds.
                Err(error) if error.kind() == ErrorKind::ExecutableFileBusy && attempt < 20 => {
                    attempt += 1;
                    std::thread::sleep(Duration::from_millis(25));
                }
                Err(source) => {
                    return Err(ClientError::Start(StartError::Program {
                        program: spec.program.clone(),
                        source,
                    }));
                }
            }
        };
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ClientError::Start(StartError::NoPipes));
        };
        let (sender, receiver) = sync_channel(CHANNEL_LINES);
        let spawned = std::thread::Builder::new()
            .name(format!("read {}", spec.name))
            .spawn(move || read_lines(stdout, &sender));
        let kept = Arc::new(Mutex::new(VecDeque::new()));
        let stderr_kept = Arc::clone(&kept);
        let spawned = spawned.and_then(|_| {
            std::thread::Builder::new()
                .name(format!("stderr {}", spec.name))
                .spawn(move || keep_stderr(stderr, &stderr_kept))
        });
        if let Err(error) = spawned {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ClientError::Start(StartError::ReaderThread(error)));
        }
        Ok(EngineProcess {
            child,
            stdin,
            lines: receiver,
            closed: false,
            protocol: spec.protocol,
            stderr: kept,
        })
    }

    /// Sends `command` in the engine's protocol. A write error means the
    /// engine is gone.
    pub fn send(&mut self, command: &Command) -> Result<(), ClientError> {
        let line = line(command, self.protocol);
        log::debug!("> {line}");
        let result = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        result.map_err(|_| ClientError::Disconnected)
    }

    /// Sends `setoption` for each of `options`, in order.
    pub fn set_options(&mut self, options: &[(String, String)]) -> Result<(), ClientError> {
        options.iter().try_for_each(|(name, value)| {
            self.send(&Command::SetOption {
                name: name.clone(),
                value: Some(value.clone()),
            })
        })
    }

    /// The last lines the engine wrote to stderr, oldest first.
    pub fn stderr_tail(&self) -> Vec<String> {
        let kept = self.stderr.lock().unwrap_or_else(PoisonError::into_inner);
        kept.iter().cloned().collect()
    }

    /// The next output line, waiting at most until `deadline`.
    pub fn next_line(&mut self, deadline: Instant) -> Result<Line, ClientError> {
        if self.closed {
            return Err(ClientError::Disconnected);
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                log::debug!("< {}", line.text);
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(ClientError::Timeout("answer")),
            Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Err(ClientError::Disconnected)
            }
        }
    }

    /// Reads lines until a reply of `kind`, which it returns with the
    /// replies before it, all typed; a timeout names the wait by `kind`.
    pub fn wait_for(&mut self, kind: ReplyKind, deadline: Instant) -> Result<Answer, ClientError> {
        let (mut before, mut unparsed) = (Vec::new(), Vec::new());
        loop {
            let line = self.next_line(deadline).map_err(|error| match error {
                ClientError::Timeout(_) => ClientError::Timeout(kind.word()),
                other => other,
            })?;
            let reply = Reply::parse(&line.text);
            if ReplyKind::of(&line.text) == Some(kind) {
                return Ok(Answer {
                    text: line.text,
                    end: reply,
                    at: line.at,
                    before,
                    unparsed,
                });
            }
            match reply {
                Some(reply) => before.push(reply),
                None => unparsed.push(line.text),
            }
        }
    }

    /// `uci` answered by `uciok` (`ugi` by `ugiok`) within `timeout`: the
    /// handshake.
    pub fn handshake(&mut self, timeout: Duration) -> Result<Identity, ClientError> {
        let ok = self.protocol.ok();
        self.send(&Command::Uci)?;
        let answer = self.wait_for(ok, Instant::now() + timeout)?;
        let mut identity = Identity::default();
        for reply in &answer.before {
            match reply {
                Reply::Id(IdField::Name, name) => identity.name = Some(name.clone()),
                Reply::Option(option) => identity.options.push(option.name.clone()),
                _ => {}
            }
        }
        identity.replies = answer.before;
        identity.unparsed = answer.unparsed;
        Ok(identity)
    }

    /// `isready` answered by `readyok` within `timeout`; everything before
    /// it (late output of earlier commands) is returned and so discarded
    /// from the stream.
    pub fn ping(&mut self, timeout: Duration) -> Result<Vec<Reply>, ClientError> {
        self.send(&Command::IsReady)?;
        Ok(self
            .wait_for(ReplyKind::ReadyOk, Instant::now() + timeout)?
            .before)
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Asks the engine to quit, gives it `grace` to do so, then kills it.
    pub fn quit(mut self, grace: Duration) {
        let _ = self.send(&Command::Quit);
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if !self.is_running() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // Drop kills it.
    }
}

impl Drop for EngineProcess {
    /// Never leaves a process behind: kill (harmless if it already exited)
    /// and reap it. The reader thread then sees end of file and ends.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The stderr thread: keeps the last [`STDERR_LINES`] lines until the
/// stream ends.
fn keep_stderr(stderr: impl Read, kept: &Mutex<VecDeque<String>>) {
    for_each_line(stderr, |text| {
        let mut kept = kept.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.len() == STDERR_LINES {
            kept.pop_front();
        }
        kept.push_back(text);
        true
    });
}

/// The reader thread: forwards lines until end of output or until the
/// runner has dropped its end of the channel.
fn read_lines(stdout: impl Read, sender: &SyncSender<Line>) {
    for_each_line(stdout, |text| {
        let line = Line {
            text,
            at: Instant::now(),
        };
        sender.send(line).is_ok()
    });
}

/// Hands each line of `stream`, without its line end, to `take` until the
/// stream ends (or fails) or `take` says no more. A longer line keeps its
/// first [`MAX_LINE_BYTES`]: a verdict can still be read from it.
fn for_each_line(stream: impl Read, mut take: impl FnMut(String) -> bool) {
    let mut reader = BufReader::new(stream);
    let mut buffer = Vec::new();
    while let Ok(LineRead::Line | LineRead::TooLong) =
        read_line_bounded(&mut reader, &mut buffer, MAX_LINE_BYTES)
    {
        let text = String::from_utf8_lossy(&buffer)
            .trim_end_matches(['\r', '\n'])
            .to_string();
        if !take(text) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_and_the_next_line_kept() {
        let mut data = vec![b'x'; MAX_LINE_BYTES + 100];
        data.extend_from_slice(b"\nreadyok\r\n");
        let mut reader = BufReader::new(&data[..]);
        let mut buffer = Vec::new();
        let mut read =
            |buffer: &mut Vec<u8>| read_line_bounded(&mut reader, buffer, MAX_LINE_BYTES).unwrap();
        assert_eq!(read(&mut buffer), LineRead::TooLong);
        assert_eq!(buffer.len(), MAX_LINE_BYTES);
        assert_eq!(read(&mut buffer), LineRead::Line);
        assert_eq!(buffer, b"readyok\r");
        assert_eq!(read(&mut buffer), LineRead::End);
    }

    #[test]
    fn a_missing_program_is_a_spawn_error() {
        let spec: EngineSpec = "cmd=/nonexistent/engine-for-test".parse().unwrap();
        let error = EngineProcess::spawn(&spec).err().unwrap();
        assert!(matches!(
            error,
            ClientError::Start(StartError::Program { .. })
        ));
        assert!(
            error
                .to_string()
                .starts_with("cannot start: '/nonexistent/engine-for-test': "),
            "{error}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn silence_times_out_and_exit_disconnects() {
        // `cat` echoes: "isready" comes back but "readyok" never does.
        let spec: EngineSpec = "cmd=cat".parse().unwrap();
        let mut engine = EngineProcess::spawn(&spec).unwrap();
        let error = engine.ping(Duration::from_millis(100)).unwrap_err();
        assert!(matches!(error, ClientError::Timeout("readyok")));
        let spec: EngineSpec = "cmd=true".parse().unwrap();
        let mut engine = EngineProcess::spawn(&spec).unwrap();
        let error = engine
            .wait_for(ReplyKind::UciOk, Instant::now() + Duration::from_secs(5))
            .unwrap_err();
        assert!(matches!(error, ClientError::Disconnected));
    }

    #[cfg(unix)]
    #[test]
    fn stderr_is_kept_for_diagnostics() {
        let spec = EngineSpec {
            args: vec!["-c".into(), "echo first >&2; echo last >&2".into()],
            ..("cmd=sh".parse().unwrap())
        };
        let mut engine = EngineProcess::spawn(&spec).unwrap();
        let error = engine
            .wait_for(ReplyKind::UciOk, Instant::now() + Duration::from_secs(5))
            .unwrap_err();
        assert!(matches!(error, ClientError::Disconnected));
        // The stderr thread may still be at its last line.
        let deadline = Instant::now() + Duration::from_secs(5);
        while engine.stderr_tail().len() < 2 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(engine.stderr_tail(), ["first", "last"]);
    }
}
