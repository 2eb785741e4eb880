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
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use super::admission::Admission;
use super::journal::{self, Entry, Journal};
use super::metrics::{ConnectionCounts, Metrics};
use super::protocol::{Presence, RequestError, RoomState, SeatName, ServerMessage};
use super::room::{Event, Room, RoomError, Side, short_id};
use crate::http::outbound::{Outbound, text_frame};
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

/// How pages reach this server: whom a page's socket is let in from (the
/// public origin behind a proxy, or else the host names this server
/// listens as) and the server's name, by which a proxy in front of
/// several routes a room.
#[derive(Clone, Debug, Default)]
pub struct Access {
    /// `--origin`: the only origin let in, where given.
    pub origin: Option<String>,
    /// Without `--origin`: the host names a page may use (its address,
    /// `localhost`, the loopback and, on a wildcard bind, the machine's
    /// addresses); empty lets any `Host` in.
    pub hosts: Vec<String>,
    /// `--server-id`: this server's name among several behind one proxy,
    /// the start of its rooms' codes.
    pub server_id: Option<String>,
}

/// What every connection shares.
pub struct Shared {
    pub(super) rooms: Mutex<HashMap<String, Arc<Mutex<Live>>>>,
    /// Rooms being opened (their `Open` on its way to the disk), counted
    /// against the limits with the open ones.
    opening: Mutex<usize>,
    journal: Journal,
    pub(super) records: PathBuf,
    /// Records a failed write held back: path and text, tried again by
    /// the ticker.
    unwritten: Mutex<Vec<(PathBuf, String)>>,
    pub(super) limits: Limits,
    pub(super) access: Access,
    pub(super) admission: Arc<Admission>,
    pub(super) metrics: Metrics,
    /// Set by SIGTERM: no change is taken any more.
    stopping: AtomicBool,
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
    /// When it was opened (or restored), server time ms.
    since: u64,
    /// Spectators last logged, to log each change once.
    spectators_logged: usize,
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

/// 128 random bits in letters and digits (22 characters): a room code
/// with no `-`, which `--server-id`'s codes use.
pub fn random_alphanumeric() -> String {
    const ALPHABET: &[u8; 62] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    // 62^22 > 2^128: 22 digits in base 62 hold every value.
    let mut bits: u128 = rand::random();
    (0..22)
        .map(|_| {
            let digit = (bits % 62) as usize;
            bits /= 62;
            ALPHABET[digit] as char
        })
        .collect()
}

/// 128 random bits, URL-safe base64 (22 characters): seat tokens.
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
        access: Access,
        time: ServerTime,
    ) -> Result<Shared, super::ServeError> {
        let records = data.join("games");
        std::fs::create_dir_all(&records)
            .map_err(|e| super::ServeError::Data(records.clone(), e))?;
        let metrics = Metrics::new();
        let Restored {
            rooms,
            compacted,
            unwritten,
        } = restore(data, &records, true)?;
        let now = time.now_ms();
        let live = rooms
            .into_iter()
            .map(|mut room| {
                room.resume(now);
                let code = room.code.clone();
                let live = Live {
                    room,
                    members: Vec::new(),
                    // Nobody is connected after a restart: the grace
                    // starts now, the time down is charged to no one.
                    away_since: [Some(now); 2],
                    empty_since: Some(now),
                    creator: None,
                    since: now,
                    spectators_logged: 0,
                };
                (code, Arc::new(Mutex::new(live)))
            })
            .collect();
        journal::rewrite(data, &compacted)?;
        let journal = Journal::open(data, &compacted, Some(metrics.journal_sync()))?;
        let admission = Arc::new(Admission::new(
            limits.max_connections,
            limits.per_address,
            limits.trusted_proxies.clone(),
        ));
        Ok(Shared {
            rooms: Mutex::new(live),
            opening: Mutex::new(0),
            journal,
            records,
            unwritten: Mutex::new(unwritten),
            limits,
            access,
            admission,
            metrics,
            stopping: AtomicBool::new(false),
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

    /// Refuses a change once the server is stopping.
    fn refuse_when_stopping(&self) -> Result<(), RequestError> {
        if self.stopping.load(Ordering::SeqCst) {
            return Err(RequestError::Restarting);
        }
        Ok(())
    }

    /// Whether the server takes moves now: not stopping, and the journal
    /// writing (the reason where not), for `/healthz`.
    pub(super) fn health(&self) -> Result<(), &'static str> {
        if self.stopping.load(Ordering::SeqCst) {
            Err("shutting down")
        } else if self.journal.is_failing() {
            Err("storage failing: the journal cannot be written")
        } else {
            Ok(())
        }
    }

    /// Opens a room made by `creator` with its `Open` event: within the
    /// limits, on disk first. The counts are checked and a place kept
    /// under the locks, and the journal's sync is waited for with none
    /// held: a slow disk delays this room only.
    pub(super) fn open_room(
        &self,
        room: Room,
        event: Event,
        creator: Option<IpAddr>,
    ) -> Result<Arc<Mutex<Live>>, RequestError> {
        self.refuse_when_stopping()?;
        {
            let rooms = lock(&self.rooms);
            let mut opening = lock(&self.opening);
            if rooms.len() + *opening >= self.limits.max_rooms {
                return Err(RequestError::TooManyRooms(self.limits.max_rooms));
            }
            if let Some(address) = creator {
                let mut by_address = lock(&self.rooms_by_address);
                let count = by_address.entry(address).or_default();
                if *count >= self.limits.rooms_per_address {
                    return Err(RequestError::RoomsPerAddress(self.limits.rooms_per_address));
                }
                *count += 1;
            }
            *opening += 1;
        }
        let rules = match &event {
            Event::Open { rules, clock, .. } => describe_settings(rules, clock.as_ref()),
            _ => String::new(),
        };
        let stored = self.journal.append(&Entry {
            at: self.time.now_ms(),
            room: room.code.clone(),
            event,
        });
        let mut rooms = lock(&self.rooms);
        *lock(&self.opening) -= 1;
        if let Err(error) = stored {
            drop(rooms);
            self.give_quota_back(creator);
            log::warn!("{error}");
            return Err(RequestError::Storage);
        }
        let code = room.code.clone();
        let live = Arc::new(Mutex::new(Live {
            room,
            members: Vec::new(),
            away_since: [None; 2],
            empty_since: None,
            creator,
            since: self.time.now_ms(),
            spectators_logged: 0,
        }));
        rooms.insert(code.clone(), Arc::clone(&live));
        drop(rooms);
        self.metrics.room_created();
        log::info!(
            "room {} made by {}: {rules}",
            short_id(&code),
            address_text(creator)
        );
        Ok(live)
    }

    /// The open room `code`.
    pub(super) fn find_room(&self, code: &str) -> Option<Arc<Mutex<Live>>> {
        lock(&self.rooms).get(code).cloned()
    }

    /// Gives a room's place in its creator's quota back.
    fn give_quota_back(&self, creator: Option<IpAddr>) {
        if let Some(address) = creator {
            let mut by_address = lock(&self.rooms_by_address);
            if let Some(count) = by_address.get_mut(&address) {
                *count -= 1;
                if *count == 0 {
                    by_address.remove(&address);
                }
            }
        }
    }

    /// Closes rooms (on disk first, in one sync for all of them), shuts
    /// their sockets and gives their creators' quotas back. The rooms'
    /// own locks are held (nobody is in them), the rooms' map's is not.
    fn close_rooms(&self, closing: &[MutexGuard<'_, Live>]) {
        if closing.is_empty() {
            return;
        }
        let at = self.time.now_ms();
        let entries: Vec<Entry> = closing
            .iter()
            .map(|live| Entry {
                at,
                room: live.room.code.clone(),
                event: Event::Close,
            })
            .collect();
        if let Err(error) = self.journal.append_all(&entries) {
            log::warn!("{error}");
            return;
        }
        for live in closing {
            for member in &live.members {
                member.outbound.shut_down();
            }
            lock(&self.rooms).remove(&live.room.code);
            self.give_quota_back(live.creator);
            log::info!(
                "room {} closed after {} game(s)",
                short_id(&live.room.code),
                live.room.number()
            );
        }
    }

    /// Stops taking changes (SIGTERM): every page is told the server is
    /// restarting, and each room's lock is taken once, so that a change
    /// on its way to the disk is finished (and acknowledged) before this
    /// returns. Every acknowledged move is then on disk: the journal
    /// syncs before it acknowledges.
    pub(super) fn stop(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        let rooms: Vec<Arc<Mutex<Live>>> = lock(&self.rooms).values().cloned().collect();
        let notice = ServerMessage::error(&RequestError::Restarting).to_json();
        for live in rooms {
            let live = lock(&live);
            for member in &live.members {
                member.outbound.text(&notice);
            }
        }
        // The writers have a moment to send the notice before the
        // process exits and the sockets close.
        std::thread::sleep(std::time::Duration::from_millis(200));
    }

    /// Each open room as `/rooms` lists it.
    pub(super) fn room_summaries(&self) -> Vec<RoomSummary> {
        let now = self.time.now_ms();
        let rooms: Vec<Arc<Mutex<Live>>> = lock(&self.rooms).values().cloned().collect();
        let mut summaries: Vec<RoomSummary> = rooms
            .iter()
            .map(|live| {
                let live = lock(live);
                let room = &live.room;
                RoomSummary {
                    id: short_id(&room.code),
                    names: room.names(),
                    game: room.number(),
                    ply: room.plies(),
                    over: room.finish().is_some(),
                    clocks_ms: room.has_clock().then(|| room.left_at(now)),
                    players: live.seated_members(),
                    spectators: live.spectator_count(),
                    age_seconds: now.saturating_sub(live.since) / 1000,
                }
            })
            .collect();
        summaries.sort_by(|a, b| b.age_seconds.cmp(&a.age_seconds).then(a.id.cmp(&b.id)));
        summaries
    }

    /// The metrics' text, with the rooms and connections counted now.
    pub(super) fn metrics_text(&self) -> String {
        let rooms: Vec<Arc<Mutex<Live>>> = lock(&self.rooms).values().cloned().collect();
        let mut counts = ConnectionCounts::default();
        for live in &rooms {
            let live = lock(live);
            counts.players += live.seated_members() as i64;
            counts.spectators += live.spectator_count() as i64;
        }
        let total = self.admission.connections() as i64;
        counts.before_upgrade = (total - counts.players - counts.spectators).max(0);
        self.metrics.encode(rooms.len(), counts)
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

/// One open room as `/rooms` lists it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct RoomSummary {
    /// The room's short id (as the logs name it).
    pub id: String,
    /// South's and North's names, where given.
    pub names: [Option<String>; 2],
    /// The game's number in the room, from 1.
    pub game: u32,
    /// Plies played in the game.
    pub ply: usize,
    /// Whether the game is over.
    pub over: bool,
    /// South's and North's time left, ms, where the room has a clock.
    pub clocks_ms: Option<[u64; 2]>,
    /// Connections seated.
    pub players: usize,
    /// Connections watching.
    pub spectators: usize,
    /// Seconds since the room was made, or since this server restored
    /// it.
    pub age_seconds: u64,
}

/// The open rooms a journal holds, as [`restore`] finds them.
pub(super) struct Restored {
    /// Every open room at its last stored event, in the order they were
    /// opened.
    pub(super) rooms: Vec<Room>,
    /// Their lines, what the journal is rewritten with.
    pub(super) compacted: Vec<Entry>,
    /// Records a failed write held back.
    pub(super) unwritten: Vec<(PathBuf, String)>,
}

/// Reads the journal in `data` and replays it: every open room at its
/// last stored event. Records of games the journal finished are written
/// to `records` where they are missing, unless `write` is false (`pasang
/// serve --check` writes nothing). A line whose event does not fit its
/// room (an edited move, a seat taken twice) is refused with its number,
/// as a line that is not JSON is: replaying past it would cut the game
/// short, and the rewrite would lose the later moves for good.
pub(super) fn restore(
    data: &Path,
    records: &Path,
    write: bool,
) -> Result<Restored, journal::JournalError> {
    let entries = journal::read_numbered(data)?;
    // A closed room's records were written before it closed: its lines
    // are skipped, not replayed (a journal the server was killed before
    // compacting may hold thousands of them).
    let closed: std::collections::HashSet<String> = entries
        .iter()
        .filter(|(_, entry)| matches!(entry.event, Event::Close))
        .map(|(_, entry)| entry.room.clone())
        .collect();
    let mut rooms: HashMap<String, Room> = HashMap::new();
    let mut kept: HashMap<String, Vec<Entry>> = HashMap::new();
    let mut order = Vec::new();
    let mut unwritten = Vec::new();
    let corrupt = |line: usize, why: String| journal::JournalError::Corrupt {
        path: data.join(journal::FILE_NAME),
        line,
        why,
    };
    for (line, entry) in entries {
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
            (event, Some(room)) => {
                if matches!(event, Event::Rematch) && write {
                    write_record(records, room, &mut unwritten);
                }
                room.apply(event, entry.at)
            }
            (_, None) => Err(RoomError::Journal(
                "an event for a room never opened".into(),
            )),
        };
        match applied {
            Ok(()) => kept.entry(entry.room.clone()).or_default().push(entry),
            Err(error) => {
                let room = short_id(&entry.room);
                return Err(corrupt(line, format!("room {room}: {error}")));
            }
        }
    }
    let mut open = Vec::new();
    let mut compacted = Vec::new();
    for code in order {
        let (Some(room), Some(entries)) = (rooms.remove(&code), kept.remove(&code)) else {
            continue;
        };
        if write {
            write_record(records, &room, &mut unwritten);
        }
        compacted.extend(entries);
        open.push(room);
    }
    Ok(Restored {
        rooms: open,
        compacted,
        unwritten,
    })
}

/// Writes a finished game's record as `games/YYYY-MM/CODE-N.pgn` (the
/// month, UTC, of its `Date`) unless it is there: written whole to a new
/// file and renamed, so a game has one record however often this runs.
/// One that cannot be written now is put in `unwritten`, to be tried
/// again.
fn write_record(folder: &Path, room: &Room, unwritten: &mut Vec<(PathBuf, String)>) {
    let Some(record) = room.record() else { return };
    let name = format!("{}-{}.pgn", room.code, room.number());
    if find_record(folder, &name).is_some()
        || unwritten.iter().any(|(held, _)| held.ends_with(&name))
    {
        return;
    }
    let month = record
        .tag("Date")
        .and_then(month_of)
        .unwrap_or_else(|| "undated".to_string());
    let path = folder.join(month).join(&name);
    let text = record.to_string();
    if let Err(error) = write_whole(&path, &text) {
        log::error!(
            "cannot write the record {}: {error}; trying again every few seconds",
            path.display()
        );
        unwritten.push((path, text));
    }
}

/// The month folder's name, `YYYY-MM`, of a record's `Date` (`YYYY.MM.DD`).
fn month_of(date: &str) -> Option<String> {
    let mut parts = date.split('.');
    let (year, month) = (parts.next()?, parts.next()?);
    let digits = |text: &str, n: usize| text.len() == n && text.bytes().all(|b| b.is_ascii_digit());
    (digits(year, 4) && digits(month, 2)).then(|| format!("{year}-{month}"))
}

/// The record file `name` (`CODE-N.pgn`) in the records folder: in a
/// month's folder, newest first, or at the top, where servers before the
/// month folders wrote it.
pub(super) fn find_record(folder: &Path, name: &str) -> Option<PathBuf> {
    let top = folder.join(name);
    if top.is_file() {
        return Some(top);
    }
    let mut months: Vec<PathBuf> = std::fs::read_dir(folder)
        .ok()?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.is_dir())
        .collect();
    months.sort();
    months
        .into_iter()
        .rev()
        .map(|month| month.join(name))
        .find(|path| path.is_file())
}

/// Writes `text` to a new file beside `path` (its folder made where
/// missing), syncs it and renames it.
fn write_whole(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
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
        address: Option<IpAddr>,
    ) {
        let seat = token.as_deref().and_then(|t| self.room.seat_of(t));
        self.members.push(Member {
            id,
            token,
            outbound,
            view: None,
        });
        if let Some(side) = seat {
            log::info!(
                "room {}: {} seat taken from {}",
                short_id(&self.room.code),
                Side::from(side).name(),
                address_text(address)
            );
        }
        refresh_presence(self, shared.time.now_ms());
        self.log_spectators();
        broadcast(shared, self);
    }

    /// Takes a connection out of the room's members and tells the others.
    pub(super) fn leave(&mut self, shared: &Shared, id: u64) {
        let seat = self
            .members
            .iter()
            .find(|member| member.id == id)
            .and_then(|member| member.token.as_deref())
            .and_then(|t| self.room.seat_of(t));
        self.members.retain(|member| member.id != id);
        if let Some(side) = seat {
            log::info!(
                "room {}: {} seat left",
                short_id(&self.room.code),
                Side::from(side).name()
            );
        }
        refresh_presence(self, shared.time.now_ms());
        self.log_spectators();
        let messages = self.room_messages(shared.grace_seconds());
        send_all(self, &messages);
    }

    /// Members seated in the room (a player may have several pages).
    fn seated_members(&self) -> usize {
        self.members.len() - self.spectator_count()
    }

    /// Members watching.
    fn spectator_count(&self) -> usize {
        self.members
            .iter()
            .filter(|member| self.seat_of_member(member).is_none())
            .count()
    }

    fn seat_of_member(&self, member: &Member) -> Option<Player> {
        member.token.as_deref().and_then(|t| self.room.seat_of(t))
    }

    /// Logs the spectators' count where it changed since last logged.
    fn log_spectators(&mut self) {
        let spectators = self.spectator_count();
        if spectators != self.spectators_logged {
            self.spectators_logged = spectators;
            log::info!(
                "room {}: {spectators} spectator(s)",
                short_id(&self.room.code)
            );
        }
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

    /// The `room` message for each member, in members' order. It is
    /// built once for each seat and once for all spectators (at most
    /// three times, however many watch), and only a seat's own message
    /// carries its token.
    fn room_messages(&self, grace: u64) -> Vec<crate::http::outbound::Frame> {
        let room = &self.room;
        let here = |side: Player| self.away_since[side.index()].is_none();
        let presence = Presence {
            south_taken: room.taken(Player::South),
            north_taken: room.taken(Player::North),
            south_here: here(Player::South),
            north_here: here(Player::North),
            spectators: self.spectator_count(),
        };
        let mut built: [Option<crate::http::outbound::Frame>; 3] = [None, None, None];
        self.members
            .iter()
            .map(|member| {
                let seat = self.seat_of_member(member);
                built[seat.map_or(2, Player::index)]
                    .get_or_insert_with(|| {
                        ROOM_MESSAGES_BUILT.fetch_add(1, Ordering::Relaxed);
                        text_frame(
                            &ServerMessage::Room {
                                room: room.code.clone(),
                                seat: SeatName::from(seat.map(Side::from)),
                                token: seat.and_then(|side| room.token(side)),
                                game: room.number(),
                                presence: presence.clone(),
                                rematch: room.rematch_offers(),
                                names: room.names(),
                                grace,
                            }
                            .to_json(),
                        )
                    })
                    .clone()
            })
            .collect()
    }
}

/// How many `room` messages have been built, for the test that a big
/// room builds each once.
static ROOM_MESSAGES_BUILT: AtomicU64 = AtomicU64::new(0);

/// The settings of a room as its log line says them: the rules that
/// differ from the defaults and the clock.
fn describe_settings(
    rules: &std::collections::BTreeMap<String, String>,
    clock: Option<&super::room::ClockControl>,
) -> String {
    let rules = if rules.is_empty() {
        "default rules".to_string()
    } else {
        rules
            .iter()
            .map(|(key, value)| format!("{key}={value}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    match clock {
        Some(clock) => format!("{rules}, clock {}+{}", clock.minutes, clock.increment),
        None => format!("{rules}, no clock"),
    }
}

/// A client's address as logs write it.
fn address_text(address: Option<IpAddr>) -> String {
    address.map_or_else(|| "an unknown address".to_string(), |ip| ip.to_string())
}

/// Stores `event`, applies it, writes the record of a game it ends, and
/// tells the room.
pub(super) fn commit(
    shared: &Shared,
    live: &mut Live,
    event: Event,
    now: u64,
) -> Result<(), RequestError> {
    shared.refuse_when_stopping()?;
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
    let id = short_id(&live.room.code);
    if rematch {
        live.away_since.swap(0, 1);
        log::info!("room {id}: rematch, game {}", live.room.number());
    }
    if !was_over && let Some(finish) = live.room.finish() {
        shared.record(&live.room);
        let termination = super::room::termination(finish.reason);
        shared.metrics.game_finished(termination);
        let result = match finish.winner {
            Some(Side::South) => "1-0",
            Some(Side::North) => "0-1",
            None => "1/2-1/2",
        };
        log::info!(
            "room {id}: game {} over: {result} ({termination}) after {} plies",
            live.room.number(),
            live.room.plies()
        );
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
fn send_all(live: &mut Live, messages: &[crate::http::outbound::Frame]) {
    let mut failed = Vec::new();
    for (member, message) in live.members.iter().zip(messages) {
        if !member.outbound.frame(message.clone()) {
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
    let mut states: [Option<crate::http::outbound::Frame>; 3] = [None, None, None];
    let mut failed = Vec::new();
    for (member, room_message) in live.members.iter().zip(rooms) {
        let seat = member.token.as_deref().and_then(|t| live.room.seat_of(t));
        // A member stepping through the finished game keeps its ply.
        if let Some((number, ply)) = member.view
            && number == live.room.number()
            && let Ok(state) = viewed_state(&live.room, seat, now, ply)
        {
            if !member.outbound.frame(room_message) || !member.outbound.text(&state) {
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
        if !member.outbound.frame(room_message) || !member.outbound.frame(state) {
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
    let mut closing = Vec::new();
    for live in &rooms {
        let mut guard = lock(live);
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
            closing.push(guard);
        }
    }
    // One sync closes them all: with a slow disk, a thousand rooms
    // closing together cost one sync, not a thousand in a row.
    shared.close_rooms(&closing);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{TcpListener, TcpStream};

    /// A queue over a loopback socket (its peer kept open, unread).
    fn outbound(listener: &TcpListener) -> (Outbound, TcpStream) {
        let stream = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (peer, _) = listener.accept().unwrap();
        (Outbound::start(Arc::new(stream)).unwrap(), peer)
    }

    #[test]
    fn no_lock_of_all_rooms_is_held_across_a_slow_sync() {
        let folder = std::env::temp_dir().join(format!("pasang-slow-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).unwrap();
        let limits = Limits {
            max_rooms: 10,
            rooms_per_address: 10,
            per_address: 10,
            max_connections: 10,
            grace_ms: 60_000,
            trusted_proxies: Vec::new(),
        };
        let shared = Arc::new(
            Shared::start(&folder, limits, Access::default(), ServerTime::new(1)).unwrap(),
        );
        let slow = std::time::Duration::from_secs(3);
        journal::SLOW_SYNC
            .lock()
            .unwrap()
            .push((folder.clone(), slow));
        let opener = Arc::clone(&shared);
        let opening = std::thread::spawn(move || {
            let open = Event::Open {
                rules: std::collections::BTreeMap::new(),
                clock: None,
                seat: Side::South,
                token: "t".into(),
            };
            let room = Room::open("slow", &open, 0).unwrap();
            opener.open_room(room, open, None).is_ok()
        });
        // Let the opener reach the journal, then ask what every page's
        // lookup asks: the rooms' lock is free while the disk is slow.
        std::thread::sleep(std::time::Duration::from_millis(500));
        let asked = Instant::now();
        assert!(shared.find_room("other").is_none());
        let _ = shared.room_count();
        assert!(
            asked.elapsed() < slow / 2,
            "the rooms' lock was held across the sync: {:?}",
            asked.elapsed()
        );
        assert!(opening.join().unwrap());
        assert!(shared.find_room("slow").is_some());
        journal::SLOW_SYNC.lock().unwrap().clear();
        let _ = std::fs::remove_dir_all(&folder);
    }

    #[test]
    fn a_rooms_message_is_built_once_a_seat_and_the_token_goes_to_its_seat_only() {
        let open = Event::Open {
            rules: std::collections::BTreeMap::new(),
            clock: None,
            seat: Side::South,
            token: "south-token".into(),
        };
        let mut room = Room::open("code", &open, 0).unwrap();
        let seat = Event::Seat {
            seat: Side::North,
            token: "north-token".into(),
        };
        room.apply(&seat, 0).unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut peers = Vec::new();
        let mut members = Vec::new();
        for (id, token) in [Some("south-token"), Some("north-token")]
            .into_iter()
            .chain(std::iter::repeat_n(None, 40))
            .enumerate()
        {
            let (queue, peer) = outbound(&listener);
            peers.push(peer);
            members.push(Member {
                id: id as u64,
                token: token.map(str::to_string),
                outbound: queue,
                view: None,
            });
        }
        let live = Live {
            room,
            members,
            away_since: [None; 2],
            empty_since: None,
            creator: None,
            since: 0,
            spectators_logged: 0,
        };
        let before = ROOM_MESSAGES_BUILT.load(Ordering::Relaxed);
        let messages = live.room_messages(60);
        let built = ROOM_MESSAGES_BUILT.load(Ordering::Relaxed) - before;
        assert_eq!(messages.len(), 42);
        assert!(built <= 3, "{built} messages built for 42 members");
        let text =
            |frame: &crate::http::outbound::Frame| String::from_utf8_lossy(frame).to_string();
        assert!(text(&messages[0]).contains("south-token"));
        assert!(!text(&messages[0]).contains("north-token"));
        assert!(text(&messages[1]).contains("north-token"));
        for spectator in &messages[2..] {
            assert!(!text(spectator).contains("-token"));
            assert!(Arc::ptr_eq(spectator, &messages[2]), "one frame for all");
        }
    }
}
