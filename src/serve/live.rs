//! The open rooms in memory: each room with the connections sitting in
//! it, the journal every change goes through first, the records of
//! finished games, and the ticker's round (flags, absences, rooms to
//! close).
//!
//! A change is made by the thread that read its request, holding only
//! its room's lock (and waiting for the journal's group commit), and the
//! news is queued for each socket of the room ([`Outbound`]): nobody
//! writes to a socket under a room's lock, so a socket that never reads
//! slows nobody else.

use std::collections::HashMap;
use std::io::Write;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use super::admission::Admission;
use super::journal::{self, Entry, Journal};
use super::protocol::{Presence, RequestError, RoomState, SeatName, ServerMessage};
use super::room::{Event, Room, RoomError, Side};
use crate::page::outbound::{Outbound, text_frame};
use crate::page::wire::ModeName;
use crate::position::Player;

/// A room with nobody in it, and no move yet, is closed after this.
const ROOM_IDLE_MS: u64 = 30 * 60 * 1000;
/// A room whose game is over (its record written) and that nobody is in
/// is closed after this: it leaves the journal, so a restart reads only
/// rooms that may still change.
const FINISHED_IDLE_MS: u64 = 10 * 60 * 1000;
/// A room whose second seat nobody took is closed after its creator has
/// been gone this long.
const UNJOINED_MS: u64 = 2 * 60 * 1000;

/// The server's limits.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Rooms open at once.
    pub max_rooms: usize,
    /// Rooms open at once made from one address.
    pub rooms_per_address: usize,
    /// Connections at once from one address.
    pub per_address: usize,
    /// Connections at once in all.
    pub max_connections: usize,
    /// How long a player may be away before losing, ms.
    pub grace_ms: u64,
    /// Reverse proxies whose `X-Real-IP` is believed.
    pub trusted_proxies: Vec<IpAddr>,
}

/// The server's time, ms since the Unix epoch: read from the wall clock
/// once at start and moved on by the monotonic clock after that, so a
/// step of the system clock cannot flag a game or end one by absence.
/// Tests may run it faster (`--clock-speed`) to see a minute's clock
/// fall in a second.
pub struct ServerTime {
    wall_at_start: u64,
    started: Instant,
    speed: u64,
}

impl ServerTime {
    /// The time from now on, `speed` times as fast as real time.
    pub fn new(speed: u64) -> ServerTime {
        ServerTime {
            wall_at_start: crate::host::unix_time().as_millis() as u64,
            started: Instant::now(),
            speed: speed.max(1),
        }
    }

    /// Now, ms.
    pub fn now_ms(&self) -> u64 {
        let elapsed = self.started.elapsed().as_millis() as u64;
        self.wall_at_start + elapsed.saturating_mul(self.speed)
    }
}

/// What every connection shares.
pub struct Shared {
    pub(super) rooms: Mutex<HashMap<String, Arc<Mutex<Live>>>>,
    journal: Journal,
    pub(super) records: PathBuf,
    /// Records a failed write held back: path and text, tried again by
    /// the ticker.
    unwritten: Mutex<Vec<(PathBuf, String)>>,
    pub(super) limits: Limits,
    pub(super) origin: Option<String>,
    pub(super) admission: Arc<Admission>,
    /// Rooms open by the address that made them.
    rooms_by_address: Mutex<HashMap<IpAddr, usize>>,
    next_id: AtomicU64,
    pub(super) time: ServerTime,
}

/// A room in memory: the room and who is connected to it.
pub(super) struct Live {
    pub(super) room: Room,
    members: Vec<Member>,
    /// Since when each seat's player has had no connection.
    away_since: [Option<u64>; 2],
    /// Since when nobody has been connected.
    empty_since: Option<u64>,
    /// The address that made it (counted against its quota).
    creator: Option<IpAddr>,
}

/// A connection in a room.
struct Member {
    id: u64,
    token: Option<String>,
    outbound: Outbound,
    /// The ply this member steps to in a finished game, with the game's
    /// number (a rematch ends the view).
    view: Option<(u32, usize)>,
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

pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    /// Restores the rooms of the journal in `data` (every room at its
    /// last stored event, clocks resumed now), rewrites the journal with
    /// the open rooms only, and opens it for appending. The caller holds
    /// the folder ([`super::folder::DataFolder`]) and the port already.
    pub fn start(
        data: &Path,
        limits: Limits,
        origin: Option<String>,
        time: ServerTime,
    ) -> Result<Shared, super::ServeError> {
        let records = data.join("games");
        std::fs::create_dir_all(&records)
            .map_err(|e| super::ServeError::Data(records.clone(), e))?;
        let entries = journal::read(data)?;
        // A closed room's records were written before it closed: its
        // lines are skipped, not replayed (a journal the server was
        // killed before compacting may hold thousands of them).
        let closed: std::collections::HashSet<String> = entries
            .iter()
            .filter(|entry| matches!(entry.event, Event::Close))
            .map(|entry| entry.room.clone())
            .collect();
        let now = time.now_ms();
        let mut rooms: HashMap<String, Room> = HashMap::new();
        let mut kept: HashMap<String, Vec<Entry>> = HashMap::new();
        let mut order = Vec::new();
        let mut unwritten = Vec::new();
        for entry in entries {
            if closed.contains(&entry.room) {
                continue;
            }
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
                        write_record(&records, room, &mut unwritten);
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
            write_record(&records, &room, &mut unwritten);
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
                    creator: None,
                })),
            );
        }
        journal::rewrite(data, &compacted)?;
        let journal = Journal::open(data, &compacted)?;
        let admission = Arc::new(Admission::new(
            limits.max_connections,
            limits.per_address,
            limits.trusted_proxies.clone(),
        ));
        Ok(Shared {
            rooms: Mutex::new(live),
            journal,
            records,
            unwritten: Mutex::new(unwritten),
            limits,
            origin,
            admission,
            rooms_by_address: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(0),
            time,
        })
    }

    /// The number of rooms open.
    pub fn room_count(&self) -> usize {
        lock(&self.rooms).len()
    }

    /// A new connection's id.
    pub(super) fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// The grace, seconds, as the room message says it.
    pub(super) fn grace_seconds(&self) -> u64 {
        self.limits.grace_ms / 1000
    }

    /// Opens a room made by `creator` with its `Open` event: within the
    /// limits, on disk first.
    pub(super) fn open_room(
        &self,
        room: Room,
        event: Event,
        creator: Option<IpAddr>,
    ) -> Result<Arc<Mutex<Live>>, RequestError> {
        // The counts are checked and the room added under the rooms'
        // lock; the journal is written first.
        let mut rooms = lock(&self.rooms);
        if rooms.len() >= self.limits.max_rooms {
            return Err(RequestError::TooManyRooms(self.limits.max_rooms));
        }
        let mut by_address = lock(&self.rooms_by_address);
        if let Some(address) = creator
            && by_address.get(&address).copied().unwrap_or(0) >= self.limits.rooms_per_address
        {
            return Err(RequestError::RoomsPerAddress(self.limits.rooms_per_address));
        }
        self.journal
            .append(&Entry {
                at: self.time.now_ms(),
                room: room.code.clone(),
                event,
            })
            .map_err(|error| {
                log::warn!("{error}");
                RequestError::Storage
            })?;
        if let Some(address) = creator {
            *by_address.entry(address).or_default() += 1;
        }
        let code = room.code.clone();
        let live = Arc::new(Mutex::new(Live {
            room,
            members: Vec::new(),
            away_since: [None; 2],
            empty_since: None,
            creator,
        }));
        rooms.insert(code, Arc::clone(&live));
        Ok(live)
    }

    /// The open room `code`.
    pub(super) fn find_room(&self, code: &str) -> Option<Arc<Mutex<Live>>> {
        lock(&self.rooms).get(code).cloned()
    }

    /// Closes a room (on disk first) and gives its creator's quota back.
    fn close_room(&self, live: &Live) {
        let entry = Entry {
            at: self.time.now_ms(),
            room: live.room.code.clone(),
            event: Event::Close,
        };
        if self.journal.append(&entry).is_err() {
            return;
        }
        for member in &live.members {
            member.outbound.shut_down();
        }
        lock(&self.rooms).remove(&live.room.code);
        if let Some(address) = live.creator {
            let mut by_address = lock(&self.rooms_by_address);
            if let Some(count) = by_address.get_mut(&address) {
                *count -= 1;
                if *count == 0 {
                    by_address.remove(&address);
                }
            }
        }
    }

    /// Writes a finished game's record, or keeps it for the ticker to
    /// try again (said loudly: a game must not end with no record).
    fn record(&self, room: &Room) {
        let mut unwritten = lock(&self.unwritten);
        write_record(&self.records, room, &mut unwritten);
    }

    /// Tries the records a failed write held back again.
    pub(super) fn retry_records(&self) {
        let mut unwritten = lock(&self.unwritten);
        unwritten.retain(|(path, text)| match write_whole(path, text) {
            Ok(()) => {
                log::warn!("written at last: {}", path.display());
                false
            }
            Err(_) => true,
        });
    }
}

/// Writes a finished game's record as `games/CODE-N.pgn` unless it is
/// there: written whole to a new file and renamed, so a game has one
/// record however often this runs. One that cannot be written now is
/// put in `unwritten`, to be tried again.
fn write_record(folder: &Path, room: &Room, unwritten: &mut Vec<(PathBuf, String)>) {
    let Some(record) = room.record() else { return };
    let path = folder.join(format!("{}-{}.pgn", room.code, room.number()));
    if path.exists() || unwritten.iter().any(|(held, _)| *held == path) {
        return;
    }
    let text = record.to_string();
    if let Err(error) = write_whole(&path, &text) {
        log::error!(
            "cannot write the record {}: {error}; trying again every few seconds",
            path.display()
        );
        unwritten.push((path, text));
    }
}

/// Writes `text` to a new file beside `path`, syncs it and renames it.
fn write_whole(path: &Path, text: &str) -> std::io::Result<()> {
    let new = path.with_extension("pgn.new");
    let written = std::fs::File::create(&new)
        .and_then(|mut file| {
            file.write_all(text.as_bytes())?;
            file.sync_all()
        })
        .and_then(|()| std::fs::rename(&new, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&new);
    }
    written
}

impl Live {
    /// Joins a connection to the room's members and tells everyone.
    pub(super) fn enter(
        &mut self,
        shared: &Shared,
        id: u64,
        token: Option<String>,
        outbound: Outbound,
    ) {
        self.members.push(Member {
            id,
            token,
            outbound,
            view: None,
        });
        refresh_presence(self, shared.time.now_ms());
        broadcast(shared, self);
    }

    /// Takes a connection out of the room's members and tells the others.
    pub(super) fn leave(&mut self, shared: &Shared, id: u64) {
        self.members.retain(|member| member.id != id);
        refresh_presence(self, shared.time.now_ms());
        let messages = self.room_messages(shared.grace_seconds());
        send_all(self, &messages);
    }

    /// Shows a member the finished game at `ply` (the game's end is its
    /// last ply); the others' view does not change.
    pub(super) fn view(&mut self, shared: &Shared, id: u64, ply: usize) -> Result<(), RoomError> {
        let now = shared.time.now_ms();
        let Some(member) = self.members.iter_mut().find(|member| member.id == id) else {
            return Ok(());
        };
        let seat = member.token.as_deref().and_then(|t| self.room.seat_of(t));
        let state = viewed_state(&self.room, seat, now, ply)?;
        member.view = Some((self.room.number(), ply));
        member.outbound.text(&state);
        Ok(())
    }

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

/// Stores `event`, applies it, writes the record of a game it ends, and
/// tells the room.
pub(super) fn commit(
    shared: &Shared,
    live: &mut Live,
    event: Event,
    now: u64,
) -> Result<(), RequestError> {
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
        shared.record(&live.room);
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

/// Queues each member its message (in members' order); a member whose
/// queue is full or whose socket is gone is dropped (and shut down).
fn send_all(live: &mut Live, messages: &[String]) {
    let mut failed = Vec::new();
    for (member, message) in live.members.iter().zip(messages) {
        if !member.outbound.text(message) {
            failed.push(member.id);
        }
    }
    if !failed.is_empty() {
        live.members.retain(|member| !failed.contains(&member.id));
    }
}

/// Queues for every member of the room where it stands and the game.
/// Queuing never waits: nothing is written to a socket here, under the
/// room's lock.
pub(super) fn broadcast(shared: &Shared, live: &mut Live) {
    let now = shared.time.now_ms();
    let rooms = live.room_messages(shared.grace_seconds());
    // One state per seat, framed once: the mover's carries the legal
    // moves.
    let mut states: [Option<crate::page::outbound::Frame>; 3] = [None, None, None];
    let mut failed = Vec::new();
    for (member, room_message) in live.members.iter().zip(rooms) {
        let seat = member.token.as_deref().and_then(|t| live.room.seat_of(t));
        // A member stepping through the finished game keeps its ply.
        if let Some((number, ply)) = member.view
            && number == live.room.number()
            && let Ok(state) = viewed_state(&live.room, seat, now, ply)
        {
            if !member.outbound.text(&room_message) || !member.outbound.text(&state) {
                failed.push(member.id);
            }
            continue;
        }
        let slot = seat.map_or(2, Player::index);
        let state = states[slot]
            .get_or_insert_with(|| {
                let (board, clock) = live.room.board(seat, now);
                text_frame(
                    &ServerMessage::State(Box::new(RoomState {
                        board,
                        mode: ModeName::Friend,
                        person: seat.map(Side::from),
                        clock,
                    }))
                    .to_json(),
                )
            })
            .clone();
        if !member.outbound.text(&room_message) || !member.outbound.frame(state) {
            failed.push(member.id);
        }
    }
    if !failed.is_empty() {
        live.members.retain(|member| !failed.contains(&member.id));
        refresh_presence(live, now);
    }
}

/// The `state` of the finished game at `ply`, as `seat` sees it.
fn viewed_state(
    room: &Room,
    seat: Option<Player>,
    now: u64,
    ply: usize,
) -> Result<String, RoomError> {
    let (board, clock) = room.board_at(seat, now, ply)?;
    Ok(ServerMessage::State(Box::new(RoomState {
        board,
        mode: ModeName::Friend,
        person: seat.map(Side::from),
        clock,
    }))
    .to_json())
}

/// The ticker's round: flags, the absent past the grace, rooms to
/// close. It holds one room's lock at a time, never while writing to a
/// socket.
pub(super) fn tick(shared: &Shared) {
    let now = shared.time.now_ms();
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
        let empty_for = guard
            .empty_since
            .map_or(0, |since| now.saturating_sub(since));
        let finished = guard.room.finish().is_some();
        let unstarted = guard.room.plies() == 0;
        let unjoined = !guard.room.is_full() && guard.room.number() == 1;
        if (finished && empty_for >= FINISHED_IDLE_MS)
            || (unstarted && empty_for >= ROOM_IDLE_MS)
            || (unjoined && empty_for >= UNJOINED_MS)
        {
            shared.close_room(&guard);
        }
    }
}
