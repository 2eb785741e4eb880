//! One page connection: its WebSocket (the server wing's socket, as a
//! [`PageLink`]), its own engine
//! process (an [`EngineLink`]) and the [`Session`] between them, moved by
//! [`turn`]. The engine is started when the page connects and killed when
//! the socket closes, whatever the reason.

use std::net::TcpStream;
use std::time::{Duration, Instant};

use crate::client::{ClientError, EngineProcess, EngineSpec};
use crate::http::socket::{Incoming, PageSocket};
use crate::protocol::{BestMove, Command, Reply, ReplyKind};
use crate::session::Session;
use crate::session::transport::{EngineGone, EngineLink, PageGone, PageLink, turn};

/// Largest message the page may send (a loaded game record is the
/// largest); a larger one closes the connection.
pub const MAX_MESSAGE_BYTES: usize = 1 << 20;

/// How long a turn waits for the page before looking at the engine:
/// the latency of engine output on the page.
const POLL: Duration = Duration::from_millis(25);

/// Engine lines handled between two looks at the page.
const MAX_LINES_PER_TURN: usize = 1000;

/// Time the engine gets to answer `uci` and `isready` at the start.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// Serves one page on an upgraded `stream` until it goes.
pub fn serve(stream: TcpStream, spec: &EngineSpec) {
    // A read that times out lets the loop look at the engine; tungstenite
    // keeps a partly read frame across such a timeout.
    let Some(socket) = PageSocket::open_local(stream, MAX_MESSAGE_BYTES, POLL) else {
        return;
    };
    let (mut engine, mut session) = match start_engine(spec) {
        Ok((process, name, options)) => (
            Some(ProcessEngine {
                process,
                gone: None,
            }),
            Session::new(&name, options),
        ),
        Err(error) => {
            let mut session = Session::new(&spec.name, Vec::new());
            session.on_engine_gone(&format!("'{}': {error}", spec.command_line()));
            log::warn!("{}: {error}", spec.name);
            (None, session)
        }
    };
    let mut page = SocketPage(socket);
    // Turns till the page goes.
    while let Ok(done) = turn(&mut session, &mut page, engine.as_mut(), MAX_LINES_PER_TURN) {
        // A gone engine is dropped (killed, if it still runs).
        if let Some(error) = done.engine_gone
            && let Some(gone) = engine.take()
        {
            let stderr = gone.process.stderr_tail();
            if !stderr.is_empty() {
                log::warn!(
                    "{} ({error}) last wrote to stderr: {}",
                    spec.name,
                    stderr.join(" | ")
                );
            }
        }
    }
    if let Some(engine) = engine {
        engine.process.quit(Duration::from_millis(200));
    }
}

/// The page's engine process as the session's [`EngineLink`].
struct ProcessEngine {
    process: EngineProcess,
    /// Why it went, found while reading lines that are handed over first.
    gone: Option<EngineGone>,
}

impl EngineLink for ProcessEngine {
    fn send(&mut self, command: &Command) -> Result<(), EngineGone> {
        self.process
            .send(command)
            .map_err(|error| EngineGone(Box::new(error)))
    }

    fn receive(&mut self, max: usize) -> Result<Vec<Reply>, EngineGone> {
        if let Some(gone) = self.gone.take() {
            return Err(gone);
        }
        // Read once, here, into the protocol's replies; the rest of the
        // engine's lines (a foreign engine's chatter) are not the board's.
        let mut lines = Vec::new();
        while lines.len() < max {
            match self.process.next_line(Instant::now()) {
                Ok(line) => lines.extend(reply_of(&line.text)),
                Err(ClientError::Timeout(_)) => break,
                // The lines before the end are the session's first.
                Err(error) if !lines.is_empty() => {
                    self.gone = Some(EngineGone(Box::new(error)));
                    break;
                }
                Err(error) => return Err(EngineGone(Box::new(error))),
            }
        }
        Ok(lines)
    }
}

/// An engine process's line as the session takes it: the reply it is, a
/// `bestmove` that does not parse as the empty move (which the session
/// refuses, so a search still ends), and `None` for anything else.
fn reply_of(line: &str) -> Option<Reply> {
    Reply::parse(line).or_else(|| {
        (ReplyKind::of(line) == Some(ReplyKind::BestMove)).then(|| {
            Reply::BestMove(BestMove {
                best: Some(String::new()),
                ponder: None,
            })
        })
    })
}

/// The page's WebSocket, the server wing's socket with its bounded
/// outbound queue, as the session's [`PageLink`].
struct SocketPage(PageSocket);

impl PageLink for SocketPage {
    /// Waits up to [`POLL`] for a message.
    fn receive(&mut self) -> Result<Option<String>, PageGone> {
        match self.0.poll().map_err(|_| PageGone)? {
            Some(Incoming::Text(text)) => Ok(Some(text)),
            // A message over the limit: the page is gone.
            Some(Incoming::TooLarge(_)) => {
                self.0.close(1009);
                Err(PageGone)
            }
            Some(Incoming::Binary | Incoming::TooFast) | None => Ok(None),
        }
    }

    /// Queues the messages; a page that does not read them fills its
    /// queue and is gone.
    fn send(&mut self, messages: Vec<String>) -> Result<(), PageGone> {
        for message in messages {
            if !self.0.outbound().text(&message) {
                return Err(PageGone);
            }
        }
        Ok(())
    }
}

/// Starts the engine and shakes hands: the process, its name and the
/// options it announced.
fn start_engine(spec: &EngineSpec) -> Result<(EngineProcess, String, Vec<String>), ClientError> {
    let mut engine = EngineProcess::spawn(spec)?;
    let identity = engine.handshake(HANDSHAKE)?;
    engine.set_options(&spec.options)?;
    engine.ping(HANDSHAKE)?;
    let name = identity.name.unwrap_or_else(|| spec.name.clone());
    // Options fixed on the command line are not the page's to change.
    let mut options = identity.options;
    options.retain(|option| {
        !spec
            .options
            .iter()
            .any(|(fixed, _)| fixed.eq_ignore_ascii_case(option))
    });
    Ok((engine, name, options))
}
