//! `pasang serve`'s server: the listener (the page's files and the
//! WebSocket upgrade through [`crate::gui::http`], the same HTTP as
//! `pasang gui`), one thread per connection reading its socket, the open
//! rooms in memory, the journal, and a ticker thread that lets flags fall
//! and ends games whose player stayed away past the grace.
//!
//! Threads, not an async runtime: a connection's thread blocks on its
//! socket and costs nothing while it waits; a move is answered by the
//! thread that read it, which holds only its room's lock (and waits for
//! the journal's group commit), and writes the new state straight into
//! every socket of the room. A few hundred rooms are a thousand threads
//! with small stacks, which Linux schedules well; see docs/serve.md for
//! the measured figures.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{IpAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tungstenite::protocol::{Role, WebSocketConfig};
use tungstenite::{Message, WebSocket};

use super::journal::{self, Entry, Journal};
use super::protocol::{
    self, ClientMessage, MAX_MESSAGE_BYTES, Presence, RequestError, RoomState, SeatName,
    ServerMessage, SideChoice,
};
use super::room::{Event, Room, RoomError, Side};
use crate::gui::http::{self, HttpError, Route};
use crate::gui::message::RuleChoice;
use crate::gui::mode::ModeName;
use crate::position::Player;

/// Time a client gets to send its request head.
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// A socket silent this long is pinged; silent twice, it is closed.
const IDLE: Duration = Duration::from_secs(30);
/// A write that cannot go out in this time drops that connection.
const WRITE_TIMEOUT: Duration = Duration::from_secs(5);
/// How often the ticker looks at the clocks and the absent.
const TICK: Duration = Duration::from_millis(100);
/// A room with nobody in it, and no game in play, is closed after this.
const ROOM_IDLE_MS: u64 = 30 * 60 * 1000;
/// Messages a connection may send at once, and per second after that.
const BURST: f64 = 20.0;
const RATE: f64 = 10.0;
/// Messages dropped for speed before the connection is closed.
const MAX_DROPPED: u32 = 200;
/// Stack of a connection thread: it parses small JSON and replays no
/// deep recursion.
const STACK_BYTES: usize = 256 * 1024;

/// The server's limits.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Rooms open at once.
    pub max_rooms: usize,
    /// Connections at once from one address.
    pub per_address: usize,
    /// Connections at once in all.
    pub max_connections: usize,
    /// How long a player may be away before losing, ms.
    pub grace_ms: u64,
}

/// What every connection shares.
pub struct Shared {
    rooms: Mutex<HashMap<String, Arc<Mutex<Live>>>>,
    journal: Journal,
    records: PathBuf,
    limits: Limits,
    origin: Option<String>,
    index: String,
    addresses: Mutex<HashMap<IpAddr, usize>>,
    connections: AtomicUsize,
    next_id: AtomicU64,
}

/// A room in memory: the room and who is connected to it.
struct Live {
    room: Room,
    members: Vec<Member>,
    /// Since when each seat's player has had no connection.
    away_since: [Option<u64>; 2],
    /// Since when nobody has been connected.
    empty_since: Option<u64>,
}

/// A connection in a room.
struct Member {
    id: u64,
    token: Option<String>,
    writer: Writer,
}

/// The writing half of a socket: whole frames under a lock, so that the
/// room's broadcasts and the reader's own answers never interleave.
#[derive(Clone)]
struct Writer(Arc<Mutex<TcpStream>>);

impl Writer {
    fn send(&self, text: &str) -> std::io::Result<()> {
        self.raw(&frame(0x1, text.as_bytes()))
    }

    fn raw(&self, bytes: &[u8]) -> std::io::Result<()> {
        let mut stream = self.0.lock().unwrap_or_else(|e| e.into_inner());
        stream.write_all(bytes)
    }
}

/// A server-to-client WebSocket frame (unmasked, final) of `opcode`.
fn frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
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
    bytes
}

/// The reading half as tungstenite's stream: reads the socket; what
/// tungstenite writes itself (pongs, the close reply) goes through the
/// [`Writer`]'s lock whole.
struct ReadHalf {
    stream: TcpStream,
    writer: Writer,
}

impl Read for ReadHalf {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.stream.read(buf)
    }
}

impl Write for ReadHalf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.writer.raw(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    crate::host::unix_time().as_millis() as u64
}

/// 128 random bits, URL-safe base64 (22 characters): room codes and
/// seat tokens.
pub fn random_code() -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let bits: u128 = rand::random();
    (0..22)
        .map(|i| ALPHABET[((bits >> (6 * i)) & 63) as usize] as char)
        .collect()
}

impl Shared {
    /// Restores the rooms of the journal in `data` (every room at its
    /// last stored event, clocks resumed now), rewrites the journal with
    /// the open rooms only, and opens it for appending.
    pub fn start(
        data: &Path,
        limits: Limits,
        origin: Option<String>,
    ) -> Result<Shared, super::ServeError> {
        let records = data.join("games");
        std::fs::create_dir_all(&records)
            .map_err(|e| super::ServeError::Data(records.clone(), e))?;
        let entries = journal::read(data)?;
        let now = now_ms();
        let mut rooms: HashMap<String, Room> = HashMap::new();
        let mut kept: HashMap<String, Vec<Entry>> = HashMap::new();
        let mut order = Vec::new();
        for entry in entries {
            let applied = match (&entry.event, rooms.get_mut(&entry.room)) {
                (Event::Open { .. }, None) => {
                    Room::open(&entry.room, &entry.event, entry.at).map(|room| {
                        rooms.insert(entry.room.clone(), room);
                        order.push(entry.room.clone());
                    })
                }
                (Event::Close, Some(_)) => {
                    rooms.remove(&entry.room);
                    kept.remove(&entry.room);
                    continue;
                }
                (event, Some(room)) => {
                    if matches!(event, Event::Rematch) {
                        write_record(&records, room);
                    }
                    room.apply(event, entry.at)
                }
                (_, None) => continue,
            };
            match applied {
                Ok(()) => kept.entry(entry.room.clone()).or_default().push(entry),
                Err(error) => log::warn!("journal: room {}: {error}", entry.room),
            }
        }
        let mut live = HashMap::new();
        let mut compacted = Vec::new();
        for code in order {
            let (Some(mut room), Some(entries)) = (rooms.remove(&code), kept.remove(&code)) else {
                continue;
            };
            write_record(&records, &room);
            room.resume(now);
            compacted.extend(entries);
            live.insert(
                code,
                Arc::new(Mutex::new(Live {
                    room,
                    members: Vec::new(),
                    // Nobody is connected after a restart: the grace
                    // starts now, the time down is charged to no one.
                    away_since: [Some(now); 2],
                    empty_since: Some(now),
                })),
            );
        }
        journal::rewrite(data, &compacted)?;
        let journal = Journal::open(data)?;
        // The page knows it came from a room server by this mark.
        let index = http::INDEX_HTML.replacen("<html ", "<html data-rooms=\"\" ", 1);
        Ok(Shared {
            rooms: Mutex::new(live),
            journal,
            records,
            limits,
            origin,
            index,
            addresses: Mutex::new(HashMap::new()),
            connections: AtomicUsize::new(0),
            next_id: AtomicU64::new(0),
        })
    }

    /// The number of rooms open.
    pub fn room_count(&self) -> usize {
        lock(&self.rooms).len()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// Writes a finished game's record as `games/CODE-N.pgn` unless it is
/// there: written whole to a new file and renamed, so a game has one
/// record however often this runs.
fn write_record(folder: &Path, room: &Room) {
    let Some(record) = room.record() else { return };
    let path = folder.join(format!("{}-{}.pgn", room.code, room.number()));
    if path.exists() {
        return;
    }
    let new = path.with_extension("pgn.new");
    let written = std::fs::File::create(&new)
        .and_then(|mut file| {
            file.write_all(record.to_string().as_bytes())?;
            file.sync_all()
        })
        .and_then(|()| std::fs::rename(&new, &path));
    if let Err(error) = written {
        log::warn!("cannot write {}: {error}", path.display());
    }
}

/// Accepts connections for ever, a thread each, and runs the ticker.
pub fn serve(listener: TcpListener, shared: Arc<Shared>) {
    let ticker = Arc::clone(&shared);
    let _ = std::thread::Builder::new()
        .name("ticker".into())
        .spawn(move || {
            loop {
                std::thread::sleep(TICK);
                tick(&ticker);
            }
        });
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let shared = Arc::clone(&shared);
        let spawned = std::thread::Builder::new()
            .name("serve connection".into())
            .stack_size(STACK_BYTES)
            .spawn(move || handle(stream, &shared));
        if let Err(error) = spawned {
            log::warn!("cannot start a connection thread: {error}");
        }
    }
}

/// One HTTP connection: a file, an error, or a room's socket.
fn handle(mut stream: TcpStream, shared: &Shared) {
    let _ = stream.set_read_timeout(Some(HEAD_TIMEOUT));
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let head = http::read_head(&mut stream);
    if let Ok(head) = &head
        && let Some(check) = protocol::check_request(head)
    {
        let answered = match check.route {
            protocol::OwnRoute::Check => ws_check(&mut stream, shared, &check),
            protocol::OwnRoute::Record => record(&mut stream, shared, &check),
        };
        if let Err(error) = answered {
            log::debug!("connection ended: {error}");
        }
        return;
    }
    let request = head.and_then(|head| http::parse_with_origin(&head, shared.origin.as_deref()));
    let result = match request {
        Ok(request) => match request.route {
            Route::File(kind, body) => {
                let body = if std::ptr::eq(body, http::INDEX_HTML) {
                    shared.index.as_str()
                } else {
                    body
                };
                http::respond(&mut stream, (200, "OK"), kind, body, request.head_only)
            }
            Route::WebSocket { key } => {
                let address = stream.peer_addr().map(|a| a.ip()).ok();
                match admit(shared, address) {
                    Err(error) => http::respond_error(&mut stream, &error),
                    Ok(()) => {
                        let result = http::accept_websocket(&mut stream, &key)
                            .map(|()| connection(stream, shared));
                        release(shared, address);
                        result
                    }
                }
            }
        },
        Err(error) => http::respond_error(&mut stream, &error),
    };
    if let Err(error) = result {
        log::debug!("connection ended: {error}");
    }
}

/// Counts a new socket in, or refuses it: too many from its address, or
/// in all.
fn admit(shared: &Shared, address: Option<IpAddr>) -> Result<(), HttpError> {
    let limits = &shared.limits;
    if shared.connections.fetch_add(1, Ordering::SeqCst) >= limits.max_connections {
        shared.connections.fetch_sub(1, Ordering::SeqCst);
        return Err(HttpError::Busy(limits.max_connections));
    }
    if let Some(address) = address {
        let mut addresses = lock(&shared.addresses);
        let count = addresses.entry(address).or_default();
        if *count >= limits.per_address {
            drop(addresses);
            shared.connections.fetch_sub(1, Ordering::SeqCst);
            return Err(HttpError::TooManyFromAddress(limits.per_address));
        }
        *count += 1;
    }
    Ok(())
}

/// Answers `GET /ws-check?room=CODE` (see [`protocol::CheckAnswer`]):
/// what a page whose socket failed asks, since the browser hides the
/// status of a refused upgrade. Counts nothing and changes nothing.
fn ws_check(
    stream: &mut TcpStream,
    shared: &Shared,
    check: &protocol::CheckRequest,
) -> std::io::Result<()> {
    let address = stream.peer_addr().map(|a| a.ip()).ok();
    let limits = &shared.limits;
    let why = if shared.connections.load(Ordering::SeqCst) >= limits.max_connections {
        Some("busy")
    } else if address.is_some_and(|a| {
        lock(&shared.addresses).get(&a).copied().unwrap_or(0) >= limits.per_address
    }) {
        Some("address")
    } else {
        None
    };
    let answer = protocol::CheckAnswer {
        origin: protocol::expected_origin(shared.origin.as_deref(), check.host.as_deref()),
        admitted: why.is_none(),
        why,
        room: check
            .room
            .as_ref()
            .map(|code| lock(&shared.rooms).contains_key(code)),
        server: super::server_id(),
    };
    let body = serde_json::to_string(&answer).unwrap_or_default();
    let kind = "application/json; charset=utf-8";
    http::respond(stream, (200, "OK"), kind, &body, check.head_only)
}

/// Answers `GET /record?room=CODE&game=N`: the finished game's record
/// from the records folder (what a room's page saves), or 404.
fn record(
    stream: &mut TcpStream,
    shared: &Shared,
    check: &protocol::CheckRequest,
) -> std::io::Result<()> {
    let text = protocol::record_name(check.room.as_deref(), check.game.as_deref())
        .and_then(|name| std::fs::read_to_string(shared.records.join(name)).ok());
    match text {
        Some(text) => http::respond(
            stream,
            (200, "OK"),
            "text/plain; charset=utf-8",
            &text,
            check.head_only,
        ),
        None => {
            let body = "no such record: a game's record is there once the game is over\n";
            http::respond(
                stream,
                (404, "Not Found"),
                "text/plain; charset=utf-8",
                body,
                false,
            )
        }
    }
}

fn release(shared: &Shared, address: Option<IpAddr>) {
    shared.connections.fetch_sub(1, Ordering::SeqCst);
    if let Some(address) = address {
        let mut addresses = lock(&shared.addresses);
        if let Some(count) = addresses.get_mut(&address) {
            *count -= 1;
            if *count == 0 {
                addresses.remove(&address);
            }
        }
    }
}

/// What a connection holds: its id, writer, and room once in one.
struct Connection {
    id: u64,
    writer: Writer,
    room: Option<(Arc<Mutex<Live>>, Option<String>)>,
    /// The rate limit's bucket and when it was last filled.
    bucket: f64,
    filled: Instant,
    dropped: u32,
    /// The grace, seconds, as the room message says it.
    grace: u64,
}

/// Serves one upgraded socket until it closes.
fn connection(stream: TcpStream, shared: &Shared) {
    let _ = stream.set_nodelay(true);
    let _ = stream.set_read_timeout(Some(IDLE));
    let Ok(write_stream) = stream.try_clone() else {
        return;
    };
    let writer = Writer(Arc::new(Mutex::new(write_stream)));
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE_BYTES))
        .max_frame_size(Some(MAX_MESSAGE_BYTES));
    let half = ReadHalf {
        stream,
        writer: writer.clone(),
    };
    let mut socket = WebSocket::from_raw_socket(half, Role::Server, Some(config));
    let mut this = Connection {
        id: shared.next_id.fetch_add(1, Ordering::Relaxed),
        writer,
        room: None,
        bucket: BURST,
        filled: Instant::now(),
        dropped: 0,
        grace: shared.limits.grace_ms / 1000,
    };
    let hello = ServerMessage::Hello {
        engine: String::new(),
        rules: RuleChoice::all(),
    };
    if this.writer.send(&hello.to_json()).is_err() {
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
                if silent >= 2 || this.writer.raw(&frame(0x9, b"")).is_err() {
                    break;
                }
                continue;
            }
            Err(tungstenite::Error::Capacity(error)) => {
                // Too large: said, then closed (the room never saw it).
                let refusal = ServerMessage::Error {
                    kind: "too_large",
                    message: format!("{error}; a message has at most {MAX_MESSAGE_BYTES} bytes"),
                };
                let _ = this.writer.send(&refusal.to_json());
                let _ = this.writer.raw(&frame(0x8, &1009u16.to_be_bytes()));
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
            _ => Ok(()),
        };
        match result {
            Ok(()) => {}
            Err(RequestError::TooFast) if this.dropped > 1 => {
                if this.dropped > MAX_DROPPED {
                    break;
                }
            }
            Err(error) => {
                if this
                    .writer
                    .send(&ServerMessage::error(&error).to_json())
                    .is_err()
                {
                    break;
                }
            }
        }
    }
    this.leave();
}

impl Connection {
    /// Takes a message from the bucket, or refuses it as too fast.
    fn limit_rate(&mut self) -> Result<(), RequestError> {
        let now = Instant::now();
        let elapsed = now.duration_since(self.filled).as_secs_f64();
        self.filled = now;
        self.bucket = (self.bucket + elapsed * RATE).min(BURST);
        if self.bucket >= 1.0 {
            self.bucket -= 1.0;
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
                let now = now_ms();
                let room = Room::open(&code, &event, now)?;
                let live = {
                    // The count is checked and the room added under one
                    // lock; the journal is written first.
                    let mut rooms = lock(&shared.rooms);
                    if rooms.len() >= shared.limits.max_rooms {
                        return Err(RequestError::TooManyRooms(shared.limits.max_rooms));
                    }
                    shared
                        .journal
                        .append(&Entry {
                            at: now,
                            room: code.clone(),
                            event,
                        })
                        .map_err(|_| RequestError::Storage)?;
                    let live = Arc::new(Mutex::new(Live {
                        room,
                        members: Vec::new(),
                        away_since: [None; 2],
                        empty_since: None,
                    }));
                    rooms.insert(code, Arc::clone(&live));
                    live
                };
                self.enter(shared, live, Some(token));
                Ok(())
            }
            ClientMessage::Join { room, token } => {
                if self.room.is_some() {
                    return Err(RequestError::AlreadyInRoom);
                }
                let live = lock(&shared.rooms)
                    .get(&room)
                    .cloned()
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
                            commit(shared, &mut guard, event, now_ms())?;
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
            ClientMessage::Name { name } => self.act(shared, |room, seat, _| {
                room.check_name(seat, &name).map(Some)
            }),
        }
    }

    /// Joins the room's members and tells everyone.
    fn enter(&mut self, shared: &Shared, live: Arc<Mutex<Live>>, token: Option<String>) {
        {
            let mut guard = lock(&live);
            guard.members.push(Member {
                id: self.id,
                token: token.clone(),
                writer: self.writer.clone(),
            });
            refresh_presence(&mut guard, now_ms());
            broadcast(shared, &mut guard);
        }
        self.room = Some((live, token));
    }

    /// A request of the seat in its room: the room's flag first, then the
    /// check, the journal, the change and the news.
    fn act(
        &mut self,
        shared: &Shared,
        check: impl FnOnce(&mut Room, Option<Player>, u64) -> Result<Option<Event>, RoomError>,
    ) -> Result<(), RequestError> {
        let (live, token) = self.room.as_ref().ok_or(RequestError::NotInRoom)?;
        let mut guard = lock(live);
        let now = now_ms();
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
    fn leave(&mut self) {
        if let Some((live, _)) = self.room.take() {
            let mut guard = lock(&live);
            guard.members.retain(|member| member.id != self.id);
            refresh_presence(&mut guard, now_ms());
            let messages = guard.room_messages(self.grace);
            send_all(&mut guard, &messages);
        }
    }
}

/// Stores `event`, applies it, writes the record of a game it ends, and
/// tells the room.
fn commit(shared: &Shared, live: &mut Live, event: Event, now: u64) -> Result<(), RequestError> {
    let rematch = matches!(event, Event::Rematch);
    let was_over = live.room.finish().is_some();
    shared
        .journal
        .append(&Entry {
            at: now,
            room: live.room.code.clone(),
            event: event.clone(),
        })
        .map_err(|error| {
            log::warn!("{error}");
            RequestError::Storage
        })?;
    live.room.apply(&event, now)?;
    if rematch {
        live.away_since.swap(0, 1);
    }
    if !was_over && live.room.finish().is_some() {
        write_record(&shared.records, &live.room);
    }
    broadcast(shared, live);
    Ok(())
}

/// Notes who is away since when.
fn refresh_presence(live: &mut Live, now: u64) {
    for side in [Player::South, Player::North] {
        let here = live.members.iter().any(|member| {
            member
                .token
                .as_deref()
                .is_some_and(|token| live.room.seat_of(token) == Some(side))
        });
        let away = &mut live.away_since[side.index()];
        if here {
            *away = None;
        } else if away.is_none() {
            *away = Some(now);
        }
    }
    if live.members.is_empty() {
        live.empty_since.get_or_insert(now);
    } else {
        live.empty_since = None;
    }
}

impl Live {
    /// The `room` message for each member.
    fn room_messages(&self, grace: u64) -> Vec<String> {
        let room = &self.room;
        let here = |side: Player| self.away_since[side.index()].is_none();
        let presence = Presence {
            south_taken: room.taken(Player::South),
            north_taken: room.taken(Player::North),
            south_here: here(Player::South),
            north_here: here(Player::North),
            spectators: self
                .members
                .iter()
                .filter(|member| {
                    member
                        .token
                        .as_deref()
                        .and_then(|t| room.seat_of(t))
                        .is_none()
                })
                .count(),
        };
        self.members
            .iter()
            .map(|member| {
                let seat = member.token.as_deref().and_then(|t| room.seat_of(t));
                ServerMessage::Room {
                    room: room.code.clone(),
                    seat: SeatName::from(seat.map(Side::from)),
                    token: seat.and(member.token.clone()),
                    game: room.number(),
                    presence: presence.clone(),
                    rematch: room.rematch_offers(),
                    names: room.names(),
                    grace,
                }
                .to_json()
            })
            .collect()
    }
}

/// Sends each member its message (in members' order); a member whose
/// socket fails is dropped.
fn send_all(live: &mut Live, messages: &[String]) {
    let mut failed = Vec::new();
    for (member, message) in live.members.iter().zip(messages) {
        if member.writer.send(message).is_err() {
            failed.push(member.id);
        }
    }
    if !failed.is_empty() {
        live.members.retain(|member| !failed.contains(&member.id));
    }
}

/// Tells every member of the room where it stands and the game.
fn broadcast(shared: &Shared, live: &mut Live) {
    let now = now_ms();
    let grace = shared.limits.grace_ms / 1000;
    let rooms = live.room_messages(grace);
    // One state per seat: the mover's carries the legal moves.
    let mut states: [Option<String>; 3] = [None, None, None];
    let mut messages = Vec::with_capacity(live.members.len());
    for (member, room_message) in live.members.iter().zip(rooms) {
        let seat = member.token.as_deref().and_then(|t| live.room.seat_of(t));
        let slot = seat.map_or(2, Player::index);
        let state = states[slot]
            .get_or_insert_with(|| {
                let (board, clock) = live.room.board(seat, now);
                ServerMessage::State(Box::new(RoomState {
                    board,
                    mode: ModeName::Friend,
                    person: seat.map(Side::from),
                    clock,
                    running: false,
                    thinking: false,
                    engine_ok: false,
                    skill: 0,
                    movetime: 0,
                    multipv: 1,
                }))
                .to_json()
            })
            .clone();
        messages.push((room_message, state));
    }
    let mut failed = Vec::new();
    for (member, (room_message, state)) in live.members.iter().zip(&messages) {
        if member.writer.send(room_message).is_err() || member.writer.send(state).is_err() {
            failed.push(member.id);
        }
    }
    if !failed.is_empty() {
        live.members.retain(|member| !failed.contains(&member.id));
        refresh_presence(live, now);
    }
}

/// The ticker's round: flags, the absent past the grace, idle rooms.
fn tick(shared: &Shared) {
    let now = now_ms();
    let rooms: Vec<Arc<Mutex<Live>>> = lock(&shared.rooms).values().cloned().collect();
    for live in rooms {
        let mut guard = lock(&live);
        if let Some(flag) = guard.room.flag(now) {
            let _ = commit(shared, &mut guard, flag, now);
        }
        let away = [Player::South, Player::North]
            .into_iter()
            .filter_map(|side| {
                let since = guard.away_since[side.index()]?;
                (now.saturating_sub(since) >= shared.limits.grace_ms).then_some((since, side))
            })
            .min_by_key(|(since, _)| *since);
        if let Some((_, side)) = away
            && let Some(event) = guard.room.abandon(side)
        {
            let _ = commit(shared, &mut guard, event, now);
        }
        let idle = guard
            .empty_since
            .is_some_and(|since| now.saturating_sub(since) >= ROOM_IDLE_MS);
        let quiet = guard.room.finish().is_some() || guard.room.plies() == 0;
        if idle && quiet {
            let entry = Entry {
                at: now,
                room: guard.room.code.clone(),
                event: Event::Close,
            };
            if shared.journal.append(&entry).is_ok() {
                lock(&shared.rooms).remove(&guard.room.code);
            }
        }
    }
}
