//! `pasang serve` as the tests drive it: a server on a free port with
//! its data folder, and raw WebSocket clients that sit in its rooms.

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Child;

use serde_json::{Value, json};
use tungstenite::{Message, WebSocket, stream::MaybeTlsStream};

/// A raw room socket.
pub type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// A running `pasang serve` on a free port with its data folder, killed
/// (SIGKILL) when dropped.
pub struct Server {
    pub child: Child,
    pub address: String,
    pub data: PathBuf,
}

impl Server {
    pub fn start(data: &Path, extra: &[&str]) -> Server {
        let mut command = super::pasang();
        command.args(["serve", "--listen", "127.0.0.1:0", "--data"]);
        command.arg(data);
        command.args(extra);
        let (child, address) = super::start_server(command);
        Server {
            child,
            address,
            data: data.to_path_buf(),
        }
    }

    /// Kills the server outright (SIGKILL) and starts it again on the
    /// same data folder (on another port).
    pub fn kill_and_restart(mut self) -> Server {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
        Server::start(&self.data.clone(), &[])
    }

    pub fn socket(&self) -> Socket {
        super::websocket(&self.address)
    }

    /// The raw answer to `request`.
    pub fn http(&self, request: &str) -> String {
        super::http_answer(&self.address, request)
    }

    /// The records of the finished games, in `games/` and its month
    /// folders (`games/YYYY-MM/`).
    pub fn records(&self) -> Vec<PathBuf> {
        let games = self.data.join("games");
        let mut folders = vec![games.clone()];
        if let Ok(dir) = std::fs::read_dir(&games) {
            folders.extend(
                dir.map(|entry| entry.unwrap().path())
                    .filter(|path| path.is_dir()),
            );
        }
        let mut files: Vec<PathBuf> = folders
            .iter()
            .filter_map(|folder| std::fs::read_dir(folder).ok())
            .flat_map(|dir| {
                dir.map(|entry| entry.unwrap().path())
                    .filter(|path| path.extension().is_some_and(|e| e == "pgn"))
                    .collect::<Vec<_>>()
            })
            .collect();
        files.sort_by_key(|path| path.file_name().map(|name| name.to_os_string()));
        files
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A fresh data folder for one test.
pub fn data_folder(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("pasang-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    folder
}

pub fn send(socket: &mut Socket, message: Value) {
    socket.send(Message::text(message.to_string())).unwrap();
}

/// The next text message, whatever its kind.
pub fn next_of_any(socket: &mut Socket) -> Value {
    loop {
        if let Message::Text(text) = socket.read().expect("a message") {
            return serde_json::from_str(text.as_str()).unwrap();
        }
    }
}

/// The next message of `kind` (others are skipped).
pub fn next_of(socket: &mut Socket, kind: &str) -> Value {
    loop {
        let message = socket.read().expect("a message");
        if let Message::Text(text) = message {
            let value: Value = serde_json::from_str(text.as_str()).unwrap();
            if value["type"] == kind {
                return value;
            }
        }
    }
}

/// A player or a spectator in a room: its socket, seat and token, and
/// the last state it was sent.
pub struct Client {
    pub socket: Socket,
    pub room: String,
    pub seat: String,
    pub token: Option<String>,
    pub last: Value,
}

impl Client {
    pub fn create(server: &Server, message: Value) -> Client {
        let mut socket = server.socket();
        send(&mut socket, message);
        Client::seated(socket)
    }

    pub fn join(server: &Server, room: &str, token: Option<&str>) -> Client {
        let mut socket = server.socket();
        send(
            &mut socket,
            json!({"type": "join", "room": room, "token": token}),
        );
        Client::seated(socket)
    }

    pub fn seated(mut socket: Socket) -> Client {
        let room = next_of(&mut socket, "room");
        Client {
            socket,
            room: room["room"].as_str().unwrap().to_string(),
            seat: room["seat"].as_str().unwrap().to_string(),
            token: room["token"].as_str().map(str::to_string),
            last: Value::Null,
        }
    }

    /// The next state message.
    pub fn state(&mut self) -> Value {
        self.last = next_of(&mut self.socket, "state");
        self.last.clone()
    }

    /// The first state (the last one seen, or one to come) with `plies`
    /// moves.
    pub fn state_at(&mut self, plies: usize) -> Value {
        while self.last["moves"]
            .as_array()
            .is_none_or(|m| m.len() != plies)
        {
            self.state();
        }
        self.last.clone()
    }

    /// The next error message, skipping the others.
    pub fn error(&mut self) -> Value {
        next_of(&mut self.socket, "error")
    }

    pub fn send(&mut self, message: Value) {
        send(&mut self.socket, message);
    }

    pub fn send_text(&mut self, text: &str) {
        self.socket.send(Message::text(text.to_string())).unwrap();
    }
}

/// The room as a newcomer sees it: its moves and how it ended.
pub fn moves_seen(server: &Server, room: &str) -> (Vec<String>, Value) {
    let mut watcher = Client::join(server, room, None);
    assert_eq!(watcher.seat, "spectator");
    let state = watcher.state();
    (strings(&state["moves"]), state["over"].clone())
}

pub fn strings(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// A room with both seats taken: (south, north).
pub fn full_room(server: &Server, create: Value) -> (Client, Client) {
    let first = Client::create(server, create);
    let second = Client::join(server, &first.room, None);
    assert_ne!(first.seat, second.seat);
    assert_ne!(first.token, second.token);
    if first.seat == "south" {
        (first, second)
    } else {
        (second, first)
    }
}

/// The mover plays the first legal move it was sent, at ply `plies`;
/// both see it. Both players' states after it.
pub fn play_one(south: &mut Client, north: &mut Client, plies: usize) -> [Value; 2] {
    // A state with the moves and the players both seated.
    let ready = |client: &mut Client| loop {
        let state = client.state_at(plies);
        if state["over"].is_null()
            && state["side"] == client.seat
            && !state["legal"].as_array().unwrap().is_empty()
        {
            return state;
        }
        client.state();
    };
    let mover = if south.state_at(plies)["side"] == "south" {
        &mut *south
    } else {
        &mut *north
    };
    let state = ready(mover);
    let mv = state["legal"][0]["move"].clone();
    mover.send(json!({"type": "move", "move": mv, "ply": plies + 1}));
    let after = [south.state_at(plies + 1), north.state_at(plies + 1)];
    assert_eq!(after[0]["moves"], after[1]["moves"]);
    after
}

/// A free port on 127.0.0.1, so that a restarted server has the same
/// address.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}
