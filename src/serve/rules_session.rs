//! A socket of `/session`: a board session with the rules and no engine
//! ([`Session::without_engine`]), for the pages of `pasang serve` that
//! need only the rules: Learn, Puzzles and friend games on one device.
//! It reads through a [`PageSocket`], with a room socket's limits, and
//! sends through its outbound queue; the session refuses the modes that
//! need an engine. With no engine and no clock (play mode is refused),
//! the session changes only when the page speaks: each message is
//! answered, and nothing waits on a timer.

use std::net::TcpStream;

use crate::http::socket::{Incoming, PageSocket};
use crate::session::Session;

/// The largest message a rules session takes: a position, a move, a
/// friend game's names. (A record file goes to a session with an
/// engine, which this server does not run.)
const MAX_MESSAGE_BYTES: usize = 16 * 1024;

/// Serves one upgraded `/session` socket until it closes.
pub fn run(stream: TcpStream) {
    let Some(mut socket) = PageSocket::open(stream, MAX_MESSAGE_BYTES) else {
        return;
    };
    let mut session = Session::without_engine();
    while send(&socket, &mut session) {
        match socket.next() {
            Some(Incoming::Text(text)) => session.on_page(&text),
            // What the session would not read anyway: a binary frame, or
            // a message over the rate (dropped, as a room's).
            Some(Incoming::Binary | Incoming::TooFast) => {}
            Some(Incoming::TooLarge(error)) => {
                let words = serde_json::json!({
                    "type": "error",
                    "kind": "malformed",
                    "message": format!("{error}; a message has at most {MAX_MESSAGE_BYTES} bytes"),
                });
                socket.close_too_large(&words.to_string());
                return;
            }
            None => return,
        }
    }
}

/// Queues what the session has to say; false once the socket is gone.
fn send(socket: &PageSocket, session: &mut Session) -> bool {
    session
        .take_page()
        .iter()
        .all(|message| socket.outbound().text(message))
}
