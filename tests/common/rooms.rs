//! Simulated players of `pasang serve`, for the soak (tests/serve.rs,
//! ignored) and the load benchmark (benches/serve.rs): a thread a room,
//! its two players on raw WebSocket clients to 127.0.0.1 only, playing
//! random legal moves after a simulated think, dropping and taking back
//! their connection at random, and offering a rematch after each game.
//! Everything is bounded by a deadline.
#![allow(dead_code)]

use std::net::TcpStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::{Message, WebSocket, stream::MaybeTlsStream};

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// What the simulated players of one room do.
pub struct Settings {
    /// The server, `127.0.0.1:PORT` (loopback only).
    pub address: String,
    /// Games each room plays.
    pub games: usize,
    /// The most a player thinks before a move, ms (uniform from 0).
    pub think_ms: u64,
    /// Chance per move, per mille, that a player drops its connection
    /// and comes back with its token.
    pub disconnect_per_mille: u64,
    /// When everything stops, finished or not.
    pub deadline: Instant,
}

/// A game as the players saw it end.
#[derive(Clone, Debug)]
pub struct SeenGame {
    /// The room's code.
    pub room: String,
    /// The game's number in the room.
    pub number: u64,
    /// Its moves.
    pub moves: Vec<String>,
    /// Its `over` field.
    pub over: Value,
}

/// What a room's players did.
#[derive(Debug, Default)]
pub struct RoomOutcome {
    /// The games finished.
    pub games: Vec<SeenGame>,
    /// From sending a move to the mover's state with it, where no
    /// reconnection came between.
    pub latencies: Vec<Duration>,
    /// Connections dropped on purpose or lost, and made again.
    pub reconnects: usize,
    /// Why the room stopped early, if it did.
    pub failure: Option<String>,
}

/// A tiny xorshift: the players' dice, seeded per room.
pub struct Dice(u64);

impl Dice {
    pub fn new(seed: u64) -> Dice {
        Dice(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

struct Player {
    socket: Option<Socket>,
    room: String,
    token: Option<String>,
    seat: String,
    game: u64,
    state: Value,
}

/// Why a wait ended without its condition.
enum Interrupt {
    /// The connection was made again: views are fresh, start over.
    Reconnected,
    /// The server refused a message: start over.
    Refused(String),
    /// The deadline passed.
    Deadline,
}

fn connect(address: &str, deadline: Instant) -> Result<Socket, Interrupt> {
    loop {
        if Instant::now() > deadline {
            return Err(Interrupt::Deadline);
        }
        if let Ok((socket, _)) = tungstenite::connect(format!("ws://{address}/ws")) {
            if let MaybeTlsStream::Plain(stream) = socket.get_ref() {
                let _ = stream.set_read_timeout(Some(Duration::from_secs(20)));
            }
            return Ok(socket);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

impl Player {
    /// Reads messages until `done` holds of this player's view; a lost
    /// connection is made again (and said).
    fn until(
        &mut self,
        settings: &Settings,
        mut done: impl FnMut(&Player) -> bool,
    ) -> Result<(), Interrupt> {
        while !done(self) {
            if Instant::now() > settings.deadline {
                return Err(Interrupt::Deadline);
            }
            let Some(socket) = self.socket.as_mut() else {
                self.rejoin(settings)?;
                return Err(Interrupt::Reconnected);
            };
            match socket.read() {
                Ok(Message::Text(text)) => {
                    let value: Value = serde_json::from_str(text.as_str()).unwrap_or(Value::Null);
                    match value["type"].as_str() {
                        Some("state") => self.state = value,
                        Some("room") => {
                            self.seat = value["seat"].as_str().unwrap_or("").to_string();
                            self.game = value["game"].as_u64().unwrap_or(0);
                            if let Some(token) = value["token"].as_str() {
                                self.token = Some(token.to_string());
                            }
                            self.room = value["room"].as_str().unwrap_or("").to_string();
                        }
                        Some("error") => {
                            return Err(Interrupt::Refused(value["kind"].to_string()));
                        }
                        _ => {}
                    }
                }
                Ok(_) => {}
                Err(_) => {
                    self.socket = None;
                }
            }
        }
        Ok(())
    }

    /// Joins the room again with the seat's token.
    fn rejoin(&mut self, settings: &Settings) -> Result<(), Interrupt> {
        loop {
            let mut socket = connect(&settings.address, settings.deadline)?;
            let join = json!({"type": "join", "room": self.room, "token": self.token});
            if socket.send(Message::text(join.to_string())).is_err() {
                continue;
            }
            self.socket = Some(socket);
            self.state = Value::Null;
            self.game = 0;
            match self.until(settings, |p| p.game > 0 && !p.state.is_null()) {
                Ok(()) => return Ok(()),
                Err(Interrupt::Deadline) => return Err(Interrupt::Deadline),
                // Lost again while joining: try again.
                Err(_) => continue,
            }
        }
    }

    fn send(&mut self, message: Value) {
        if let Some(socket) = self.socket.as_mut()
            && socket.send(Message::text(message.to_string())).is_err()
        {
            self.socket = None;
        }
    }

    fn drop_connection(&mut self) {
        if let Some(mut socket) = self.socket.take() {
            let _ = socket.close(None);
        }
    }

    fn plies(&self) -> usize {
        self.state["moves"].as_array().map_or(0, Vec::len)
    }

    /// Where the player's view stands: game, plies, over.
    fn key(&self) -> (u64, usize, bool) {
        (self.game, self.plies(), !self.state["over"].is_null())
    }
}

/// Plays `settings.games` games in one new room; `finished` counts every
/// room's finished games as they end.
pub fn play_room(settings: &Settings, seed: u64, finished: &AtomicUsize) -> RoomOutcome {
    let mut outcome = RoomOutcome::default();
    match run(settings, seed, finished, &mut outcome) {
        Ok(()) => {}
        Err(Interrupt::Deadline) => outcome.failure = Some("deadline".into()),
        Err(_) => outcome.failure = Some("interrupted".into()),
    }
    outcome
}

fn run(
    settings: &Settings,
    seed: u64,
    finished: &AtomicUsize,
    outcome: &mut RoomOutcome,
) -> Result<(), Interrupt> {
    let mut dice = Dice::new(seed);
    let mut first = Player {
        socket: Some(connect(&settings.address, settings.deadline)?),
        room: String::new(),
        token: None,
        seat: String::new(),
        game: 0,
        state: Value::Null,
    };
    first.send(json!({"type": "create", "side": "random"}));
    first.until(settings, |p| p.game > 0 && !p.state.is_null())?;
    let mut second = Player {
        socket: None,
        room: first.room.clone(),
        token: None,
        seat: String::new(),
        game: 0,
        state: Value::Null,
    };
    // The second player comes by the link: no token yet.
    match second.until(settings, |_| false) {
        Err(Interrupt::Reconnected) => {}
        Err(other) => return Err(other),
        Ok(()) => unreachable!("the condition never holds"),
    }
    let mut players = [first, second];
    loop {
        // Both views at the same point (the one behind reads on).
        let step = sync(settings, &mut players);
        match step {
            Ok(()) => {}
            Err(Interrupt::Deadline) => return Err(Interrupt::Deadline),
            Err(Interrupt::Refused(kind)) => {
                if kind.contains("too_fast") {
                    std::thread::sleep(Duration::from_millis(200));
                }
                continue;
            }
            Err(Interrupt::Reconnected) => {
                outcome.reconnects += 1;
                continue;
            }
        }
        let (game, plies, over) = players[0].key();
        if over {
            let seen = outcome.games.last().is_some_and(|g| g.number == game);
            if !seen {
                outcome.games.push(SeenGame {
                    room: players[0].room.clone(),
                    number: game,
                    moves: players[0].state["moves"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|m| m.as_str().unwrap_or("").to_string())
                        .collect(),
                    over: players[0].state["over"].clone(),
                });
                finished.fetch_add(1, Ordering::Relaxed);
            }
            if outcome.games.len() >= settings.games {
                for player in &mut players {
                    player.drop_connection();
                }
                return Ok(());
            }
            for player in &mut players {
                player.send(json!({"type": "rematch"}));
            }
            for player in &mut players {
                match player.until(settings, |p| p.game > game && p.plies() == 0) {
                    Ok(()) | Err(Interrupt::Refused(_)) => {}
                    Err(Interrupt::Reconnected) => outcome.reconnects += 1,
                    Err(Interrupt::Deadline) => return Err(Interrupt::Deadline),
                }
            }
            continue;
        }
        let side = players[0].state["side"].as_str().unwrap_or("").to_string();
        let mover = usize::from(players[1].seat == side);
        let legal = players[mover].state["legal"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if legal.is_empty() {
            // The seat's state without moves: the opponent not yet seated.
            match players[mover].until(settings, |p| {
                p.state["legal"].as_array().is_some_and(|l| !l.is_empty())
            }) {
                Err(Interrupt::Deadline) => return Err(Interrupt::Deadline),
                _ => continue,
            }
        }
        let mv = legal[dice.below(legal.len() as u64) as usize]["move"].clone();
        if settings.think_ms > 0 {
            std::thread::sleep(Duration::from_millis(dice.below(settings.think_ms + 1)));
        }
        if dice.below(1000) < settings.disconnect_per_mille {
            let who = dice.below(2) as usize;
            players[who].drop_connection();
            outcome.reconnects += 1;
            continue;
        }
        let sent = Instant::now();
        players[mover].send(json!({"type": "move", "move": mv, "ply": plies + 1}));
        match players[mover].until(settings, |p| p.game != game || p.plies() > plies) {
            Ok(()) => outcome.latencies.push(sent.elapsed()),
            Err(Interrupt::Deadline) => return Err(Interrupt::Deadline),
            Err(Interrupt::Reconnected) => outcome.reconnects += 1,
            Err(Interrupt::Refused(kind)) => {
                if kind.contains("too_fast") {
                    std::thread::sleep(Duration::from_millis(200));
                }
            }
        }
    }
}

/// Reads on the player behind until both views match.
fn sync(settings: &Settings, players: &mut [Player; 2]) -> Result<(), Interrupt> {
    for player in players.iter_mut() {
        if player.socket.is_none() {
            player.rejoin(settings)?;
            return Err(Interrupt::Reconnected);
        }
    }
    loop {
        let keys = [players[0].key(), players[1].key()];
        if keys[0] == keys[1] {
            return Ok(());
        }
        let behind = usize::from(keys[1] < keys[0]);
        let target = keys[1 - behind];
        players[behind].until(settings, |p| p.key() >= target)?;
    }
}
