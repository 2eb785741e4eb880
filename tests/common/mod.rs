//! What the integration tests share: the `pasang` binary as a command, a
//! run to completion, and a line-by-line session with a running engine.
//!
//! Each test file is its own crate and uses only part of this module, so
//! the parts a file leaves unused would each warn as dead code there.
#![allow(dead_code)]

pub mod browser;
pub mod malay;
pub mod protocol;
pub mod serve;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How long [`Session::remaining_output`] waits for each further line of
/// an engine that has exited or is about to.
const AFTER_EXIT: Duration = Duration::from_secs(1);

/// The path of the binary under test, for tests that hand it to another
/// program (a shell, or `pasang match` as an engine to run).
pub const PASANG: &str = env!("CARGO_BIN_EXE_pasang");

/// The binary under test, with `RUST_LOG` removed so that a developer's
/// environment cannot add log lines to what the tests read.
pub fn pasang() -> Command {
    let mut command = Command::new(PASANG);
    command.env_remove("RUST_LOG");
    command
}

/// Whether the tests run under CI: `CI` set to anything but empty, `0` or
/// `false` (CI services set `CI=true`).
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !matches!(value.as_str(), "" | "0" | "false"))
}

/// For a test that needs `tool`, which this machine lacks: under CI the
/// test fails, so a green CI run means that every test ran; on a
/// developer's machine it is skipped with a message on stderr (straight
/// there: libtest swallows the output of a passing test). `install` says
/// how to get the tool.
pub fn missing_tool(test: &str, tool: &str, install: &str) {
    let message = format!("{test}: {tool} is not installed ({install})");
    assert!(
        !under_ci(),
        "{message}; under CI (CI={}) a test may not skip",
        std::env::var("CI").unwrap_or_default()
    );
    let _ = writeln!(std::io::stderr(), "skipped {message}");
}

/// Waits until `condition` holds, checking it every few milliseconds, for
/// at most `timeout`; past that the test fails, saying that `what` did not
/// happen. For a test that would otherwise sleep and hope: it goes on as
/// soon as the thing it waits for is there, and says so when it never is.
pub fn wait_until(timeout: Duration, what: &str, mut condition: impl FnMut() -> bool) {
    let deadline = Instant::now() + timeout;
    while !condition() {
        assert!(
            Instant::now() < deadline,
            "timed out after {timeout:?}: {what} did not happen"
        );
        thread::sleep(Duration::from_millis(5));
    }
}

/// Runs `pasang` with `args` to the end, feeding it `input` on stdin.
pub fn run(args: &[&str], input: &str) -> Output {
    let mut child = pasang()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the pasang binary starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    // A process that exits without reading its input closes the pipe;
    // that is not a failure of the test.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().expect("the pasang binary runs")
}

/// The standard output of a finished run, as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

/// The standard error of a finished run, as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

/// The exit code of a finished run, which must have exited normally.
pub fn code(output: &Output) -> i32 {
    output.status.code().expect("the binary exits normally")
}

/// Whether `line` matches `pattern`, in which each `wildcard` stands for
/// any text (none included).
pub fn matches_pattern(pattern: &str, wildcard: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split(wildcard).collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    // The two ends are anchored first, so that the middle parts are looked
    // for only in the text between them and cannot overlap either end.
    if !line.starts_with(first) || !line[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// `text` cut to `limit` characters, saying how long it was, so that a
/// failure message stays readable after a test sent a megabyte.
pub fn shorten(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((cut, _)) => format!("{}... [{} bytes]", &text[..cut], text.len()),
        None => text.to_string(),
    }
}

/// A running `pasang` with piped stdin, stdout and stderr, spoken to line
/// by line.
///
/// A reader thread feeds the output lines into a channel, so every wait
/// has a deadline and no test can hang: a missing answer fails the test
/// with the transcript of the session and the engine's stderr. Dropping a
/// session kills the engine if it still runs.
pub struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Both directions, for failure messages.
    transcript: Vec<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// The thread collecting stderr; it ends when the engine does.
    stderr_thread: Option<thread::JoinHandle<()>>,
}

impl Session {
    /// Starts the binary with no arguments and `RUST_LOG` unset.
    pub fn spawn() -> Session {
        Session::spawn_command(pasang())
    }

    /// Starts `command` (usually [`pasang`], adjusted) with its standard
    /// streams piped to the session.
    pub fn spawn_command(mut command: Command) -> Session {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the pasang binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            // Bytes, not `lines()`: output that is not UTF-8 must reach
            // the test as a line it can fail on, not end the reader.
            let mut reader = BufReader::new(stdout);
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match reader.read_until(b'\n', &mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&buffer);
                        let line = text.trim_end_matches(['\n', '\r']).to_string();
                        if sender.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let stderr_thread = {
            let mut pipe = child.stderr.take().expect("piped stderr");
            let stderr = Arc::clone(&stderr);
            thread::spawn(move || {
                let mut chunk = [0u8; 4096];
                while let Ok(read) = pipe.read(&mut chunk) {
                    if read == 0 {
                        break;
                    }
                    stderr.lock().unwrap().extend_from_slice(&chunk[..read]);
                }
            })
        };
        let stdin = child.stdin.take();
        Session {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
            stderr,
            stderr_thread: Some(stderr_thread),
        }
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Both directions so far, `> ` to the engine and `< ` from it.
    pub fn transcript(&self) -> String {
        self.transcript.join("\n")
    }

    /// Fails the test with `message`, the end of the transcript and stderr.
    pub fn fail(&mut self, message: &str) -> ! {
        let exit = match self.child.try_wait() {
            Ok(Some(status)) => format!("engine exited: {status}"),
            Ok(None) => "engine still running".to_string(),
            Err(error) => format!("engine state unknown: {error}"),
        };
        let from = self.transcript.len().saturating_sub(80);
        let transcript: Vec<String> = self.transcript[from..]
            .iter()
            .map(|line| shorten(line, 200))
            .collect();
        let stderr = String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned();
        panic!(
            "{message}\n{exit}\n--- transcript (> to engine, < from engine) ---\n{}\n--- stderr ---\n{}",
            transcript.join("\n"),
            shorten(&stderr, 4000)
        );
    }

    /// Sends `line` and its line end.
    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {}", shorten(line, 200)));
        self.write(format!("{line}\n").as_bytes());
    }

    /// Sends `bytes` as they are: no line end added, any encoding.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.transcript.push(format!(
            "> [{} raw bytes] {}",
            bytes.len(),
            shorten(&String::from_utf8_lossy(bytes), 80)
        ));
        self.write(bytes);
    }

    fn write(&mut self, bytes: &[u8]) {
        let result = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(bytes).and_then(|()| stdin.flush()),
            None => panic!("stdin already closed"),
        };
        if let Err(error) = result {
            self.fail(&format!("writing to the engine failed: {error}"));
        }
    }

    /// Closes stdin: end of input.
    pub fn close_stdin(&mut self) {
        self.transcript.push("> [end of input]".to_string());
        self.stdin = None;
    }

    /// The next line within `timeout`.
    pub fn recv(&mut self, timeout: Duration) -> Result<String, RecvTimeoutError> {
        let line = self.lines.recv_timeout(timeout)?;
        self.transcript.push(format!("< {line}"));
        Ok(line)
    }

    /// Lines up to and including the first that matches `predicate`;
    /// `what` names it when it does not come within `timeout`.
    pub fn read_until(
        &mut self,
        what: &str,
        predicate: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Ok(line) => {
                    let done = predicate(&line);
                    lines.push(line);
                    if done {
                        return lines;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.fail(&format!("no {what} within {timeout:?}"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.fail(&format!("output ended before {what}"))
                }
            }
        }
    }

    /// Lines up to and including the first whose first word is `word`.
    pub fn until_word(&mut self, word: &str, timeout: Duration) -> Vec<String> {
        self.read_until(
            word,
            |line| line.split_whitespace().next() == Some(word),
            timeout,
        )
    }

    /// The first line that matches `predicate`.
    pub fn expect_line(
        &mut self,
        what: &str,
        predicate: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> String {
        self.read_until(what, predicate, timeout)
            .pop()
            .expect("read_until returns the matching line")
    }

    /// Lines that arrive within `period`; fails (naming `what`) if one is a
    /// `bestmove`: the search must still be running.
    pub fn expect_no_bestmove_within(&mut self, what: &str, period: Duration) -> Vec<String> {
        self.expect_none_within(what, |line| line.starts_with("bestmove"), period)
    }

    /// Lines that arrive within `period`; fails if one matches `forbidden`.
    pub fn expect_none_within(
        &mut self,
        what: &str,
        forbidden: impl Fn(&str) -> bool,
        period: Duration,
    ) -> Vec<String> {
        let deadline = Instant::now() + period;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return lines;
            }
            match self.recv(left) {
                Ok(line) => {
                    if forbidden(&line) {
                        self.fail(&format!("unexpected {what}: {line}"));
                    }
                    lines.push(line);
                }
                Err(RecvTimeoutError::Timeout) => return lines,
                Err(RecvTimeoutError::Disconnected) => {
                    self.fail(&format!("output ended while watching for {what}"))
                }
            }
        }
    }

    /// Waits for the process to end.
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status,
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                Ok(None) => self.fail(&format!("the engine did not exit within {timeout:?}")),
                Err(error) => self.fail(&format!("waiting for the engine failed: {error}")),
            }
        }
    }

    /// Sends `quit` and waits up to `timeout` for a clean exit.
    pub fn quit(mut self, timeout: Duration) {
        self.send("quit");
        let status = self.wait_exit(timeout);
        if !status.success() {
            self.fail(&format!("the engine exited with {status} after quit"));
        }
    }

    /// Everything the engine wrote to stderr, once it has exited.
    pub fn stderr_after_exit(&mut self) -> String {
        if let Some(handle) = self.stderr_thread.take() {
            let _ = handle.join();
        }
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// The rest of the output after the process ended.
    pub fn remaining_output(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        while let Ok(line) = self.recv(AFTER_EXIT) {
            lines.push(line);
        }
        lines
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // A failed test must not leave its engine running.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// The raw answer of the server at `address` to `request` (the whole
/// text of it, the server closing the connection); a server that does
/// not answer within 20 s fails the test rather than hang it.
pub fn http_answer(address: &str, request: &str) -> String {
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    stream
        .read_to_string(&mut answer)
        .unwrap_or_else(|error| panic!("no whole answer from {address} in 20 s: {error}"));
    answer
}

/// A WebSocket client of `ws://ADDRESS/ws` (every test's server is on
/// 127.0.0.1), whose reads give up after 20 s rather than hang a test.
pub fn websocket(
    address: &str,
) -> tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>> {
    let (socket, _) = tungstenite::connect(format!("ws://{address}/ws")).unwrap();
    if let tungstenite::stream::MaybeTlsStream::Plain(stream) = socket.get_ref() {
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
    }
    socket
}

/// A running `pasang gui` on a free port, killed when dropped.
#[allow(dead_code)]
pub struct Gui {
    pub child: Child,
    pub address: String,
}

#[allow(dead_code)]
impl Gui {
    pub fn start() -> Gui {
        let mut command = pasang();
        command.args(["gui", "--port", "0"]);
        let (child, address) = start_server(command);
        Gui { child, address }
    }
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts a server of the binary (`pasang gui --port 0`, `pasang serve
/// --listen 127.0.0.1:0`, ...) and reads the address it prints on its
/// first line: the running child and its `host:port`.
pub fn start_server(command: Command) -> (Child, String) {
    start_server_logging(command, Stdio::null())
}

/// As [`start_server`], with the server's stderr (its log) to `log`.
pub fn start_server_logging(mut command: Command, log: impl Into<Stdio>) -> (Child, String) {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()
        .expect("the server starts");
    // The first line is read on a thread, so that a server that never
    // prints fails the test in 30 s instead of hanging it.
    let stdout = child.stdout.take().expect("its stdout is piped");
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let mut line = String::new();
        let mut reader = BufReader::new(stdout);
        let _ = reader.read_line(&mut line);
        let _ = sender.send(line);
        // Later lines (addresses on a LAN) are read and dropped, so that
        // the server never blocks on a full pipe.
        let mut rest = String::new();
        while reader.read_line(&mut rest).is_ok_and(|n| n > 0) {
            rest.clear();
        }
    });
    let line = match receiver.recv_timeout(Duration::from_secs(30)) {
        Ok(line) => line,
        Err(_) => {
            let _ = child.kill();
            panic!("the server printed no address in 30 s");
        }
    };
    let address = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    (child, address)
}
