//! A socket's outbound side: a bounded queue of whole WebSocket frames
//! and one writer thread that drains it into the socket.
//!
//! Nobody else writes to a socket: a room's broadcast only queues (it
//! never blocks on a slow reader while it holds the room's lock), and a
//! socket that does not read its messages fills its queue and is shut
//! down, so that its page reconnects and the room goes on. A write that
//! fails or stalls past the socket's write timeout shuts it down too.

use std::io::Write;
use std::net::{Shutdown, TcpStream};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};

/// Frames a room socket may have waiting: a room sends two a change, so
/// this is many moves' worth for a reader that is merely slow.
pub const QUEUE_FRAMES: usize = 64;
/// Stack of a writer thread: it only copies bytes.
const STACK_BYTES: usize = 64 * 1024;

/// A WebSocket frame ready for the wire, shared by every socket it goes
/// to (a room's state is framed once for all its spectators).
pub type Frame = Arc<[u8]>;

/// The queue into one socket; cloned into the room it sits in.
#[derive(Clone)]
pub struct Outbound {
    queue: SyncSender<Frame>,
    stream: Arc<TcpStream>,
}

impl Outbound {
    /// Starts the writer thread of `stream`, with a room socket's queue.
    pub fn start(stream: Arc<TcpStream>) -> std::io::Result<Outbound> {
        Outbound::start_with(stream, QUEUE_FRAMES)
    }

    /// Starts the writer thread of `stream`, with room for `frames`
    /// frames waiting.
    pub fn start_with(stream: Arc<TcpStream>, frames: usize) -> std::io::Result<Outbound> {
        let (queue, frames) = mpsc::sync_channel(frames);
        let socket = Arc::clone(&stream);
        std::thread::Builder::new()
            .name("socket writer".into())
            .stack_size(STACK_BYTES)
            .spawn(move || write_loop(&socket, frames))?;
        Ok(Outbound { queue, stream })
    }

    /// Queues a text message; false (and the socket shut down) where the
    /// socket is gone or its queue is full.
    pub fn text(&self, text: &str) -> bool {
        self.frame(text_frame(text))
    }

    /// Queues a frame; false (and the socket shut down) where the socket
    /// is gone or its queue is full.
    pub fn frame(&self, frame: Frame) -> bool {
        match self.queue.try_send(frame) {
            Ok(()) => true,
            Err(TrySendError::Full(_)) => {
                log::warn!("a socket that does not read its messages is closed");
                self.shut_down();
                false
            }
            Err(TrySendError::Disconnected(_)) => {
                self.shut_down();
                false
            }
        }
    }

    /// Shuts the socket down both ways: its reader ends and its page sees
    /// the connection close (and reconnects).
    pub fn shut_down(&self) {
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}

/// Writes each frame as it comes; on a failed or stalled write shuts
/// the socket down and stops. Ends when every [`Outbound`] is dropped.
fn write_loop(stream: &TcpStream, frames: Receiver<Frame>) {
    let mut socket = stream;
    for frame in frames {
        if socket.write_all(&frame).is_err() {
            let _ = stream.shutdown(Shutdown::Both);
            return;
        }
    }
}

/// A server-to-client text frame (unmasked, final).
pub fn text_frame(text: &str) -> Frame {
    frame(0x1, text.as_bytes())
}

/// A server-to-client frame (unmasked, final) of `opcode`: the server
/// sends whole small frames only, so the header is written here rather
/// than through a WebSocket object each writer would have to own.
pub fn frame(opcode: u8, payload: &[u8]) -> Frame {
    let mut bytes = Vec::with_capacity(payload.len() + 10);
    bytes.push(0x80 | opcode);
    match payload.len() {
        n if n < 126 => bytes.push(n as u8),
        n if n < 65536 => {
            bytes.push(126);
            bytes.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            bytes.push(127);
            bytes.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    bytes.extend_from_slice(payload);
    bytes.into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::net::TcpListener;
    use std::time::Duration;

    #[test]
    fn frames_have_rfc_6455_headers() {
        assert_eq!(&*frame(0x1, b"hi"), b"\x81\x02hi");
        let long = frame(0x1, &[b'x'; 300]);
        assert_eq!(&long[..4], &[0x81, 126, 1, 44]);
        assert_eq!(long.len(), 304);
    }

    #[test]
    fn a_socket_that_never_reads_is_shut_down_without_blocking_the_sender() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, _) = listener.accept().unwrap();
        server
            .set_write_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let outbound = Outbound::start(Arc::new(server)).unwrap();
        // The client never reads: the kernel's buffers fill, the writer
        // blocks, the queue fills, and a send returns false at once.
        let big = frame(0x1, &[b'x'; 60_000]);
        let started = std::time::Instant::now();
        let mut sent = 0;
        while outbound.frame(Arc::clone(&big)) {
            sent += 1;
            assert!(sent < 10_000, "the queue is bounded");
        }
        assert!(started.elapsed() < Duration::from_secs(4), "never blocks");
        // The client sees its socket closed once it reads what came.
        let mut client = client;
        client
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut sink = vec![0u8; 1 << 20];
        loop {
            match client.read(&mut sink) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
    }
}
