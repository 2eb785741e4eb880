//! One page connection: its WebSocket, its own engine process and the
//! [`Session`] between them. The engine is started when the page connects
//! and killed when the socket closes, whatever the reason.

use std::net::TcpStream;
use std::time::{Duration, Instant};

use tungstenite::protocol::{Role, WebSocketConfig};
use tungstenite::{Message, WebSocket};

use super::session::Session;
use crate::client::{ClientError, EngineProcess, EngineSpec};

/// Largest message the page may send (a loaded game record is the
/// largest); a larger one closes the connection.
pub const MAX_MESSAGE_BYTES: usize = 1 << 20;

/// How long the loop waits for the page before looking at the engine:
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
    let mut socket = WebSocket::from_raw_socket(stream, Role::Server, Some(config));
    let (mut engine, mut session) = match start_engine(spec) {
        Ok((engine, name, options)) => (Some(engine), Session::new(&name, options)),
        Err(error) => {
            let mut session = Session::new(&spec.name, Vec::new());
            session.on_engine_gone(&format!("'{}': {error}", spec.command_line()));
            log::warn!("{}: {error}", spec.name);
            (None, session)
        }
    };
    loop {
        if !send_all(&mut socket, session.take_page()) {
            break;
        }
        match socket.read() {
            Ok(Message::Text(text)) => session.on_page(text.as_str()),
            Ok(Message::Close(_)) => break,
            Ok(_) => {}
            Err(tungstenite::Error::Io(error))
                if matches!(
                    error.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            // Closed, reset, or a message over the limit: the page is gone.
            Err(_) => break,
        }
        if let Some(process) = engine.as_mut() {
            let commands = session.take_engine();
            let sent = commands
                .iter()
                .try_for_each(|command| process.send(command));
            let mut gone = sent.err();
            // What the engine has said so far, without waiting; at most
            // MAX_LINES_PER_TURN, so that a flood cannot starve the page.
            let mut lines_read = 0;
            while gone.is_none() && lines_read < MAX_LINES_PER_TURN {
                lines_read += 1;
                match process.next_line(Instant::now()) {
                    Ok(line) => session.on_engine(&line.text),
                    Err(ClientError::Timeout(_)) => break,
                    Err(error) => gone = Some(error),
                }
            }
            if let Some(error) = gone {
                let stderr = process.stderr_tail();
                if !stderr.is_empty() {
                    log::warn!(
                        "{} ({error}) last wrote to stderr: {}",
                        spec.name,
                        stderr.join(" | ")
                    );
                }
                session.on_engine_gone(&error.to_string());
                engine = None;
            }
        }
        session.tick(Instant::now());
        session.flush();
    }
    if let Some(process) = engine {
        process.quit(Duration::from_millis(200));
    }
}

/// Sends messages to the page; false when it is gone.
fn send_all(socket: &mut WebSocket<TcpStream>, messages: Vec<String>) -> bool {
    if messages.is_empty() {
        return true;
    }
    for message in messages {
        if socket.write(Message::text(message)).is_err() {
            return false;
        }
    }
    socket.flush().is_ok()
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
