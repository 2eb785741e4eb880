//! A page's socket after the upgrade, with the limits a client cannot
//! slip past. On a public server ([`PageSocket::open`]) every frame that reaches the server (text, binary, ping,
//! pong) takes a token from a message bucket, and every byte read takes
//! from a byte bucket that slows the reading, so a flood of empty frames
//! or pings costs the flooder time, not the server. A silent socket is
//! pinged, and closed when silent again. Everything the server sends goes
//! through the socket's [`Outbound`] queue, never a write on the reading
//! thread. `pasang serve`'s room sockets and rules sessions read through
//! it, and `pasang gui`'s page ([`PageSocket::open_local`]: one person's
//! own page, which may load a large record at once, so no rates, and a
//! short wait between looks at its engine).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tungstenite::protocol::{Role, WebSocketConfig};
use tungstenite::{Message, WebSocket};

use super::outbound::{self, Outbound};

/// A socket silent this long is pinged; silent twice, it is closed.
const IDLE: Duration = Duration::from_secs(30);
/// Messages a connection may send at once, and per second after that.
const BURST: f64 = 20.0;
const RATE: f64 = 10.0;
/// Messages dropped for speed before the connection is closed.
const MAX_DROPPED: u32 = 200;
/// Bytes a connection may send at once, and per second after that: many
/// times what the messages allowed above need.
const BYTE_BURST: f64 = 64.0 * 1024.0;
const BYTE_RATE: f64 = 32.0 * 1024.0;
/// tungstenite's read buffer: messages are small (its default, 128 KiB,
/// would cost that much a socket).
const READ_BUFFER: usize = 4096;

/// What the client sent next.
pub(crate) enum Incoming {
    /// A text message, within the rate.
    Text(String),
    /// A binary message, within the rate (no page sends one).
    Binary,
    /// A message over the rate, dropped; the caller may say so.
    TooFast,
    /// A message over the size limit: the socket is closed after the
    /// caller's last words (see [`PageSocket::close_too_large`]).
    TooLarge(String),
}

/// Frames a local page's socket may have waiting: a turn of its session
/// may send many engine lines at once.
const LOCAL_QUEUE_FRAMES: usize = 1024;

/// The socket is closed (or its client gone silent, or too fast).
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) struct Closed;

/// What one read of the socket found.
enum Found {
    /// A message for the caller.
    Message(Incoming),
    /// A ping or pong, answered by tungstenite.
    Control,
    /// Nothing within the socket's wait.
    Silent,
    /// The socket is closed.
    Closed,
}

/// The reading half of a page's socket, and its queue.
pub(crate) struct PageSocket {
    socket: WebSocket<ReadHalf>,
    outbound: Outbound,
    /// The message rate; None on a local page.
    messages: Option<Bucket>,
    dropped: u32,
}

impl PageSocket {
    /// Starts the socket's writer and reads messages of at most
    /// `max_message` bytes within a public server's rates, pinging a
    /// silent client; None if the writer could not start.
    pub(crate) fn open(stream: TcpStream, max_message: usize) -> Option<PageSocket> {
        PageSocket::start(stream, max_message, IDLE, true)
    }

    /// Starts the socket's writer and reads messages of at most
    /// `max_message` bytes with no rates, each read waiting at most
    /// `wait` ([`PageSocket::poll`]); None if the writer could not start.
    pub(crate) fn open_local(
        stream: TcpStream,
        max_message: usize,
        wait: Duration,
    ) -> Option<PageSocket> {
        PageSocket::start(stream, max_message, wait, false)
    }

    fn start(
        stream: TcpStream,
        max_message: usize,
        wait: Duration,
        rated: bool,
    ) -> Option<PageSocket> {
        let _ = stream.set_nodelay(true);
        let _ = stream.set_read_timeout(Some(wait));
        let stream = Arc::new(stream);
        let frames = if rated {
            outbound::QUEUE_FRAMES
        } else {
            LOCAL_QUEUE_FRAMES
        };
        let outbound = Outbound::start_with(Arc::clone(&stream), frames).ok()?;
        let config = WebSocketConfig::default()
            .read_buffer_size(READ_BUFFER)
            .write_buffer_size(0)
            .max_message_size(Some(max_message))
            .max_frame_size(Some(max_message));
        let half = ReadHalf {
            stream,
            outbound: outbound.clone(),
            bytes: rated.then(|| Bucket::full(BYTE_BURST)),
        };
        Some(PageSocket {
            socket: WebSocket::from_raw_socket(half, Role::Server, Some(config)),
            outbound,
            messages: rated.then(|| Bucket::full(BURST)),
            dropped: 0,
        })
    }

    /// The socket's outbound queue.
    pub(crate) fn outbound(&self) -> &Outbound {
        &self.outbound
    }

    /// The client's next message; None once the socket is closed, gone
    /// silent twice, or has sent too many messages too fast.
    pub(crate) fn next(&mut self) -> Option<Incoming> {
        let mut silent = 0;
        loop {
            match self.read() {
                Found::Message(message) => return Some(message),
                Found::Control => silent = 0,
                Found::Closed => return None,
                Found::Silent => {
                    silent += 1;
                    if silent >= 2 || !self.outbound.frame(outbound::frame(0x9, b"")) {
                        return None;
                    }
                }
            }
        }
    }

    /// The client's message if one came within the socket's wait.
    pub(crate) fn poll(&mut self) -> Result<Option<Incoming>, Closed> {
        match self.read() {
            Found::Message(message) => Ok(Some(message)),
            Found::Control | Found::Silent => Ok(None),
            Found::Closed => Err(Closed),
        }
    }

    /// Reads one frame, counted against the message rate.
    fn read(&mut self) -> Found {
        let message = match self.socket.read() {
            Ok(message) => message,
            Err(tungstenite::Error::Io(error))
                if matches!(
                    error.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return Found::Silent;
            }
            Err(tungstenite::Error::Capacity(error)) => {
                return Found::Message(Incoming::TooLarge(error.to_string()));
            }
            Err(_) => return Found::Closed,
        };
        // Pings and pongs count against the rate as every frame does.
        let within = self
            .messages
            .as_mut()
            .is_none_or(|bucket| bucket.try_take(RATE, BURST));
        if !within {
            self.dropped += 1;
            if self.dropped > MAX_DROPPED {
                return Found::Closed;
            }
        }
        match message {
            Message::Close(_) => Found::Closed,
            Message::Text(text) if within => Found::Message(Incoming::Text(text.to_string())),
            Message::Binary(_) if within => Found::Message(Incoming::Binary),
            Message::Text(_) | Message::Binary(_) => Found::Message(Incoming::TooFast),
            _ => Found::Control,
        }
    }

    /// How many messages were dropped for speed so far.
    pub(crate) fn dropped(&self) -> u32 {
        self.dropped
    }

    /// Closes the socket as too large (1009), after `last_words`.
    pub(crate) fn close_too_large(&self, last_words: &str) {
        self.outbound.text(last_words);
        self.close(1009);
    }

    /// Closes the socket with the close frame's `code`.
    pub(crate) fn close(&self, code: u16) {
        self.outbound
            .frame(outbound::frame(0x8, &code.to_be_bytes()));
    }
}

/// The reading half as tungstenite's stream: reads the socket, slowed
/// to the byte rate; what tungstenite writes itself (pongs, the close
/// reply) is queued whole.
struct ReadHalf {
    stream: Arc<TcpStream>,
    outbound: Outbound,
    /// The byte rate; None on a local page.
    bytes: Option<Bucket>,
}

impl Read for ReadHalf {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let read = (&*self.stream).read(buf)?;
        if let Some(wait) = self
            .bytes
            .as_mut()
            .and_then(|bucket| bucket.take(read as f64, BYTE_RATE, BYTE_BURST))
        {
            std::thread::sleep(wait.min(IDLE));
        }
        Ok(read)
    }
}

impl Write for ReadHalf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.outbound.frame(buf.into()) {
            Ok(buf.len())
        } else {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A token bucket: `level` tokens, filled at a rate up to a burst.
struct Bucket {
    level: f64,
    filled: Instant,
}

impl Bucket {
    fn full(burst: f64) -> Bucket {
        Bucket {
            level: burst,
            filled: Instant::now(),
        }
    }

    /// Takes `amount`; where the bucket goes below empty, how long until
    /// it is back at zero.
    fn take(&mut self, amount: f64, rate: f64, burst: f64) -> Option<Duration> {
        let now = Instant::now();
        let elapsed = now.duration_since(self.filled).as_secs_f64();
        self.filled = now;
        self.level = (self.level + elapsed * rate).min(burst) - amount;
        (self.level < 0.0).then(|| Duration::from_secs_f64(-self.level / rate))
    }

    /// Takes one token if there is one.
    fn try_take(&mut self, rate: f64, burst: f64) -> bool {
        if self.take(1.0, rate, burst).is_some() {
            self.level += 1.0;
            false
        } else {
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_refuse_past_the_burst_and_refill_at_the_rate() {
        let mut bucket = Bucket::full(3.0);
        assert!((0..3).all(|_| bucket.try_take(1.0, 3.0)));
        assert!(!bucket.try_take(1.0, 3.0));
        let mut bytes = Bucket::full(100.0);
        assert_eq!(bytes.take(50.0, 100.0, 100.0), None);
        let wait = bytes.take(150.0, 100.0, 100.0).expect("a wait");
        assert!(wait > Duration::from_millis(900) && wait <= Duration::from_secs(1));
    }
}
