//! One room socket after the upgrade: its reading thread parses each
//! message, limits how fast it comes, and acts on its room; everything
//! it sends goes through its [`Outbound`] queue.
//!
//! Limits a client cannot slip past: every frame that reaches the
//! server (text, binary, ping, pong) takes a token from the message
//! bucket, and every byte read takes from a byte bucket that slows the
//! reading, so a flood of empty frames or pings costs the flooder time,
//! not the server.

use std::io::{Read, Write};
use std::net::{IpAddr, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tungstenite::protocol::{Role, WebSocketConfig};
use tungstenite::{Message, WebSocket};

use super::live::{Live, Shared, broadcast, commit, lock, random_code};
use super::protocol::{
    self, ClientMessage, MAX_MESSAGE_BYTES, RequestError, ServerMessage, SideChoice,
};
use super::room::{Event, Room, RoomError, Side};
use crate::page::outbound::{self, Outbound};
use crate::page::wire::RuleChoice;
use crate::position::Player;

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
/// tungstenite's read buffer: messages are at most 4 KiB (its default,
/// 128 KiB, would cost that much a socket).
const READ_BUFFER: usize = 4096;

/// The reading half as tungstenite's stream: reads the socket, slowed
/// to the byte rate; what tungstenite writes itself (pongs, the close
/// reply) is queued whole.
struct ReadHalf {
    stream: Arc<TcpStream>,
    outbound: Outbound,
    bytes: Bucket,
}

impl Read for ReadHalf {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let read = (&*self.stream).read(buf)?;
        if let Some(wait) = self.bytes.take(read as f64, BYTE_RATE, BYTE_BURST) {
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

/// What a connection holds: its id, queue, address, and room once in one.
struct Connection {
    id: u64,
    outbound: Outbound,
    address: Option<IpAddr>,
    room: Option<(Arc<Mutex<Live>>, Option<String>)>,
    messages: Bucket,
    dropped: u32,
}

/// Serves one upgraded socket until it closes. `address` is the client's
/// (counted for its rooms' quota).
pub fn run(stream: TcpStream, shared: &Shared, address: Option<IpAddr>) {
    let _ = stream.set_nodelay(true);
    let _ = stream.set_read_timeout(Some(IDLE));
    let stream = Arc::new(stream);
    let Ok(outbound) = Outbound::start(Arc::clone(&stream)) else {
        return;
    };
    let config = WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .max_message_size(Some(MAX_MESSAGE_BYTES))
        .max_frame_size(Some(MAX_MESSAGE_BYTES));
    let half = ReadHalf {
        stream: Arc::clone(&stream),
        outbound: outbound.clone(),
        bytes: Bucket::full(BYTE_BURST),
    };
    let mut socket = WebSocket::from_raw_socket(half, Role::Server, Some(config));
    let mut this = Connection {
        id: shared.next_id(),
        outbound,
        address,
        room: None,
        messages: Bucket::full(BURST),
        dropped: 0,
    };
    let hello = ServerMessage::Hello {
        engine: String::new(),
        rules: RuleChoice::all(),
    };
    if !this.outbound.text(&hello.to_json()) {
        return;
    }
    let mut silent = 0;
    loop {
        let message = match socket.read() {
            Ok(message) => message,
            Err(tungstenite::Error::Io(error))
                if matches!(
                    error.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                silent += 1;
                if silent >= 2 || !this.outbound.frame(outbound::frame(0x9, b"")) {
                    break;
                }
                continue;
            }
            Err(tungstenite::Error::Capacity(error)) => {
                // Too large: said, then closed (the room never saw it).
                let refusal = ServerMessage::Error {
                    kind: "too_large",
                    message: format!("{error}; a message has at most {MAX_MESSAGE_BYTES} bytes"),
                    why: None,
                };
                this.outbound.text(&refusal.to_json());
                this.outbound
                    .frame(outbound::frame(0x8, &1009u16.to_be_bytes()));
                break;
            }
            Err(_) => break,
        };
        silent = 0;
        let result = match message {
            Message::Text(text) => this.limit_rate().and_then(|()| {
                let message = protocol::parse(text.as_str())?;
                this.handle(shared, message)
            }),
            Message::Binary(_) => this.limit_rate().and(Err(RequestError::Binary)),
            Message::Close(_) => break,
            // Pings and pongs count against the rate as every frame does.
            _ => this.limit_rate(),
        };
        match result {
            Ok(()) => {}
            Err(RequestError::TooFast) if this.dropped > 1 => {
                if this.dropped > MAX_DROPPED {
                    break;
                }
            }
            Err(error) => {
                if !this.outbound.text(&ServerMessage::error(&error).to_json()) {
                    break;
                }
            }
        }
    }
    this.leave(shared);
}

impl Connection {
    /// Takes a message from the bucket, or refuses it as too fast.
    fn limit_rate(&mut self) -> Result<(), RequestError> {
        if self.messages.try_take(RATE, BURST) {
            Ok(())
        } else {
            self.dropped += 1;
            Err(RequestError::TooFast)
        }
    }

    fn handle(&mut self, shared: &Shared, message: ClientMessage) -> Result<(), RequestError> {
        match message {
            ClientMessage::Create { rules, clock, side } => {
                if self.room.is_some() {
                    return Err(RequestError::AlreadyInRoom);
                }
                let side = match side {
                    SideChoice::South => Side::South,
                    SideChoice::North => Side::North,
                    SideChoice::Random => {
                        if rand::random::<bool>() {
                            Side::South
                        } else {
                            Side::North
                        }
                    }
                };
                let code = super::new_room_code();
                let token = random_code();
                let event = Event::Open {
                    rules,
                    clock,
                    seat: side,
                    token: token.clone(),
                };
                let room = Room::open(&code, &event, shared.time.now_ms())?;
                let live = shared.open_room(room, event, self.address)?;
                self.enter(shared, live, Some(token));
                Ok(())
            }
            ClientMessage::Join { room, token } => {
                if self.room.is_some() {
                    return Err(RequestError::AlreadyInRoom);
                }
                let live = shared
                    .find_room(&room)
                    .ok_or(RequestError::NoSuchRoom(room))?;
                let token = {
                    let mut guard = lock(&live);
                    let held = token.filter(|token| guard.room.seat_of(token).is_some());
                    match (held, guard.room.free_seat()) {
                        (Some(token), _) => Some(token),
                        (None, Some(free)) => {
                            let token = random_code();
                            let event = Event::Seat {
                                seat: free.into(),
                                token: token.clone(),
                            };
                            commit(shared, &mut guard, event, shared.time.now_ms())?;
                            Some(token)
                        }
                        (None, None) => None,
                    }
                };
                self.enter(shared, live, token);
                Ok(())
            }
            ClientMessage::Move { notation, ply } => self.act(shared, |room, seat, now| {
                room.check_move(seat, &notation, ply, now).map(Some)
            }),
            ClientMessage::Resign {} => {
                self.act(shared, |room, seat, _| room.check_resign(seat).map(Some))
            }
            ClientMessage::Rematch {} => self.act(shared, |room, seat, _| room.check_rematch(seat)),
            ClientMessage::Name { name } => {
                self.act(shared, |room, seat, _| room.check_name(seat, &name))
            }
        }
    }

    /// Joins the room's members and tells everyone.
    fn enter(&mut self, shared: &Shared, live: Arc<Mutex<Live>>, token: Option<String>) {
        lock(&live).enter(shared, self.id, token.clone(), self.outbound.clone());
        self.room = Some((live, token));
    }

    /// A request of the seat in its room: the room's flag first, then the
    /// check, the journal, the change and the news. A request that
    /// changes nothing (a name the seat has already) is not stored.
    fn act(
        &mut self,
        shared: &Shared,
        check: impl FnOnce(&mut Room, Option<Player>, u64) -> Result<Option<Event>, RoomError>,
    ) -> Result<(), RequestError> {
        let (live, token) = self.room.as_ref().ok_or(RequestError::NotInRoom)?;
        let mut guard = lock(live);
        let now = shared.time.now_ms();
        if let Some(flag) = guard.room.flag(now) {
            commit(shared, &mut guard, flag, now)?;
        }
        let seat = token.as_deref().and_then(|token| guard.room.seat_of(token));
        match check(&mut guard.room, seat, now)? {
            Some(event) => commit(shared, &mut guard, event, now),
            None => {
                broadcast(shared, &mut guard);
                Ok(())
            }
        }
    }

    /// Leaves the room, if in one, and tells the others.
    fn leave(&mut self, shared: &Shared) {
        if let Some((live, _)) = self.room.take() {
            lock(&live).leave(shared, self.id);
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
