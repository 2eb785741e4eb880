//! One room socket after the upgrade: its reading thread parses each
//! message and acts on its room, within the limits of its
//! [`PageSocket`]; everything it sends goes through its [`Outbound`]
//! queue.

use std::net::{IpAddr, TcpStream};
use std::sync::{Arc, Mutex};

use super::live::{Live, Shared, broadcast, commit, lock, random_code};
use super::protocol::{
    self, ClientMessage, MAX_MESSAGE_BYTES, RequestError, ServerMessage, SideChoice,
};
use super::room::{Event, Room, RoomError, Side};
use crate::http::outbound::Outbound;
use crate::http::socket::{Incoming, PageSocket};
use crate::page::wire::RuleChoice;
use crate::position::Player;

/// What a connection holds: its id, queue, address, and room once in one.
struct Connection {
    id: u64,
    outbound: Outbound,
    address: Option<IpAddr>,
    room: Option<(Arc<Mutex<Live>>, Option<String>)>,
}

/// Serves one upgraded socket until it closes. `address` is the client's
/// (counted for its rooms' quota).
pub fn run(stream: TcpStream, shared: &Shared, address: Option<IpAddr>) {
    let Some(mut socket) = PageSocket::open(stream, MAX_MESSAGE_BYTES) else {
        return;
    };
    let mut this = Connection {
        id: shared.next_id(),
        outbound: socket.outbound().clone(),
        address,
        room: None,
    };
    let hello = ServerMessage::Hello {
        engine: String::new(),
        rules: RuleChoice::all(),
    };
    if !this.outbound.text(&hello.to_json()) {
        return;
    }
    while let Some(incoming) = socket.next() {
        let read = std::time::Instant::now();
        let result = match incoming {
            Incoming::Text(text) => protocol::parse(&text).and_then(|message| {
                let is_move = matches!(message, ClientMessage::Move { .. });
                let handled = this.handle(shared, message);
                if is_move && handled.is_ok() {
                    shared.metrics.move_accepted(read.elapsed());
                }
                handled
            }),
            Incoming::Binary => Err(RequestError::Binary),
            // Said once; a client that goes on is not answered.
            Incoming::TooFast if socket.dropped() > 1 => Ok(()),
            Incoming::TooFast => Err(RequestError::TooFast),
            Incoming::TooLarge(error) => {
                // Said, then closed (the room never saw it).
                let refusal = ServerMessage::Error {
                    kind: "too_large",
                    message: format!("{error}; a message has at most {MAX_MESSAGE_BYTES} bytes"),
                    why: None,
                    rule: None,
                };
                refused(shared, "too_large", address, &refusal_text(&refusal));
                socket.close_too_large(&refusal.to_json());
                break;
            }
        };
        if let Err(error) = result {
            refused(shared, error.kind(), address, &error.to_string());
            if !this.outbound.text(&ServerMessage::error(&error).to_json()) {
                break;
            }
        }
    }
    this.leave(shared);
}

/// Counts a refusal and logs it with the client's address: the lines an
/// admin's fail2ban reads (`refused KIND from ADDRESS: why`).
fn refused(shared: &Shared, kind: &str, address: Option<IpAddr>, why: &str) {
    shared.metrics.refused(kind);
    match address {
        Some(address) => log::info!("refused {kind} from {address}: {why}"),
        None => log::info!("refused {kind} from an unknown address: {why}"),
    }
}

fn refusal_text(message: &ServerMessage) -> String {
    match message {
        ServerMessage::Error { message, .. } => message.clone(),
        _ => String::new(),
    }
}

impl Connection {
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
                let code = super::new_room_code(shared.access.server_id.as_deref());
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
                self.act(shared, |room, seat, now| room.check_name(seat, &name, now))
            }
            ClientMessage::Goto { ply } => {
                let (live, _) = self.room.as_ref().ok_or(RequestError::NotInRoom)?;
                Ok(lock(live).view(shared, self.id, ply)?)
            }
        }
    }

    /// Joins the room's members and tells everyone.
    fn enter(&mut self, shared: &Shared, live: Arc<Mutex<Live>>, token: Option<String>) {
        lock(&live).enter(
            shared,
            self.id,
            token.clone(),
            self.outbound.clone(),
            self.address,
        );
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
