//! One page connection: its WebSocket (a [`PageLink`]), its own engine
//! process (an [`EngineLink`]) and the [`Session`] between them, moved by
//! [`turn`]. The engine is started when the page connects and killed when
//! the socket closes, whatever the reason.

use std::net::TcpStream;
use std::time::{Duration, Instant};

use tungstenite::protocol::{Role, WebSocketConfig};
use tungstenite::{Message, WebSocket};

use crate::client::{ClientError, EngineProcess, EngineSpec};
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
    if stream.set_read_timeout(Some(POLL)).is_err() {
        return;
    }
    let _ = stream.set_nodelay(true);
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE_BYTES))
        .max_frame_size(Some(MAX_MESSAGE_BYTES));
    let socket = WebSocket::from_raw_socket(stream, Role::Server, Some(config));
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

/// The page's WebSocket as the session's [`PageLink`].
struct SocketPage(WebSocket<TcpStream>);

impl PageLink for SocketPage {
    /// Waits up to [`POLL`] for a message.
    fn receive(&mut self) -> Result<Option<String>, PageGone> {
        match self.0.read() {
            Ok(Message::Text(text)) => Ok(Some(text.as_str().to_string())),
            Ok(Message::Close(_)) => Err(PageGone),
            Ok(_) => Ok(None),
            Err(tungstenite::Error::Io(error))
                if matches!(
                    error.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                Ok(None)
            }
            // Closed, reset, or a message over the limit: the page is gone.
            Err(_) => Err(PageGone),
        }
    }

    fn send(&mut self, messages: Vec<String>) -> Result<(), PageGone> {
        for message in messages {
            self.0.write(Message::text(message)).map_err(|_| PageGone)?;
        }
        self.0.flush().map_err(|_| PageGone)
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
