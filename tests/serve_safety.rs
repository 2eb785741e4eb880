//! `pasang serve` against what an admin does and what an attacker
//! tries: a second start on a port or a data folder in use, a full disk,
//! a records folder it cannot write, a corrupt journal, sockets that
//! trickle their heads or flood pings, one address filling the rooms,
//! and a client behind a trusted proxy. Every client talks to 127.0.0.1
//! only.

mod common;

use common::serve::{Client, Server, data_folder, full_room, moves_seen, play_one};

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

/// Every file under `folder`: its name, inode, length and bytes.
fn snapshot(folder: &Path) -> BTreeMap<String, (u64, u64, Vec<u8>)> {
    use std::os::unix::fs::MetadataExt;
    let mut files = BTreeMap::new();
    let mut stack = vec![folder.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let meta = std::fs::metadata(&path).unwrap();
            if meta.is_dir() {
                stack.push(path.clone());
            }
            let bytes = if meta.is_file() {
                std::fs::read(&path).unwrap()
            } else {
                Vec::new()
            };
            files.insert(path.display().to_string(), (meta.ino(), meta.len(), bytes));
        }
    }
    files
}

/// Runs `pasang serve` to its end (it must end by itself, refused).
fn serve_refused(args: &[&str]) -> (i32, String) {
    let mut command = common::pasang();
    command.arg("serve").args(args);
    let output = command
        .stdin(Stdio::null())
        .output()
        .expect("pasang serve runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_second_server_on_a_port_or_a_folder_in_use_changes_nothing_and_loses_nothing() {
    let data = data_folder("second");
    let server = Server::start(&data, &[]);
    let (mut south, mut north) = full_room(&server, json!({"type": "create"}));
    for ply in 0..4 {
        play_one(&mut south, &mut north, ply);
    }
    let before = snapshot(&data);
    let folder = data.to_str().unwrap();

    // The same command again: the port is taken first, and nothing of
    // the folder is read or written.
    let (code, said) = serve_refused(&["--listen", &server.address, "--data", folder]);
    assert_ne!(code, 0);
    assert!(said.contains("cannot listen on"), "{said}");
    assert_eq!(
        snapshot(&data),
        before,
        "a refused start touched the folder"
    );

    // Another port, the same folder: refused by the folder's lock.
    let (code, said) = serve_refused(&["--listen", "127.0.0.1:0", "--data", folder]);
    assert_ne!(code, 0);
    assert!(
        said.contains("in use by another pasang serve"),
        "names the folder's holder: {said}"
    );
    assert!(
        said.contains(&format!("process {}", server.child.id())),
        "{said}"
    );
    assert_eq!(
        snapshot(&data),
        before,
        "a refused start touched the folder"
    );

    // The running server goes on, and every move it acknowledged is
    // there after a SIGKILL and a restart.
    for ply in 4..10 {
        play_one(&mut south, &mut north, ply);
    }
    let room = south.room.clone();
    drop((south, north));
    let server = server.kill_and_restart();
    let (moves, _) = moves_seen(&server, &room);
    assert_eq!(moves.len(), 10, "every acknowledged move is kept");
}

#[test]
fn a_corrupt_journal_line_refuses_the_start_and_names_it() {
    let data = data_folder("corrupt");
    let server = Server::start(&data, &[]);
    let (mut south, mut north) = full_room(&server, json!({"type": "create"}));
    for ply in 0..8 {
        play_one(&mut south, &mut north, ply);
    }
    drop((south, north));
    drop(server);
    let journal = data.join("rooms.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    // The line of move 3 loses its closing brace: a bad byte, not a torn
    // end.
    let lines: Vec<&str> = text.lines().collect();
    let third = lines
        .iter()
        .position(|line| line.contains("\"ply\":3"))
        .unwrap();
    let mut broken: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    broken[third] = broken[third].replacen('}', "!", 1);
    let broken = broken.join("\n") + "\n";
    std::fs::write(&journal, &broken).unwrap();
    let folder = data.to_str().unwrap();
    let (code, said) = serve_refused(&["--listen", "127.0.0.1:0", "--data", folder]);
    assert_ne!(code, 0);
    assert!(said.contains(&format!("line {}", third + 1)), "{said}");
    assert_eq!(
        std::fs::read_to_string(&journal).unwrap(),
        broken,
        "the journal is left for the admin to mend"
    );
}

/// Whether this machine lets the test mount a small tmpfs (root, and a
/// kernel that allows it here).
fn mount_tmpfs(at: &Path, size: &str) -> bool {
    std::fs::create_dir_all(at).unwrap();
    Command::new("mount")
        .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
        .arg(at)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// Fills the filesystem of `folder` with a file until a write fails.
fn fill(folder: &Path) {
    let mut filler = std::fs::File::create(folder.join("filler")).unwrap();
    let block = vec![b'x'; 4096];
    while filler
        .write_all(&block)
        .and_then(|()| filler.sync_all())
        .is_ok()
    {}
}

#[test]
fn a_full_disk_refuses_moves_and_the_server_takes_them_again_once_there_is_room() {
    let mount = std::env::temp_dir().join(format!("pasang-full-{}", std::process::id()));
    if !mount_tmpfs(&mount, "2m") {
        // Mounting needs root; a machine that refuses it cannot fill a
        // disk without filling its own.
        eprintln!("a_full_disk_...: skipped: cannot mount a tmpfs here (needs root)");
        return;
    }
    let data = mount.join("data");
    let server = Server::start(&data, &["--max-rooms-per-address", "1000"]);
    let (mut south, mut north) = full_room(&server, json!({"type": "create"}));
    for ply in 0..2 {
        play_one(&mut south, &mut north, ply);
    }
    fill(&mount);
    // The journal's last page may still have room: new rooms (each an
    // `open` line of about 200 bytes; names are bounded a seat) go on
    // until one is refused with `storage`.
    let mut made = 0;
    let mut makers = Vec::new();
    loop {
        let mut maker = server.socket();
        common::serve::send(&mut maker, json!({"type": "create"}));
        let answer = loop {
            let message = common::serve::next_of_any(&mut maker);
            if message["type"] == "error" || message["type"] == "room" {
                break message;
            }
        };
        if answer["type"] == "error" {
            assert_eq!(answer["kind"], "storage", "{answer}");
            break;
        }
        makers.push(maker);
        made += 1;
        assert!(made < 200, "a full disk refuses a change");
    }
    // A move is refused too, and the room stays as it was.
    let plies = 2;
    let side = south.state_at(plies)["side"].clone();
    let mover = if side == "south" {
        &mut south
    } else {
        &mut north
    };
    let legal = mover.state_at(plies)["legal"][0]["move"].clone();
    mover.send(json!({"type": "move", "move": legal, "ply": plies + 1}));
    assert_eq!(mover.error()["kind"], "storage");
    // Room again: the same move goes through at once, no restart.
    std::fs::remove_file(mount.join("filler")).unwrap();
    mover.send(json!({"type": "move", "move": legal, "ply": plies + 1}));
    let after = mover.state_at(plies + 1);
    assert_eq!(after["moves"].as_array().unwrap().len(), plies + 1);
    let plies = plies + 1;
    play_one(&mut south, &mut north, plies);
    let room = south.room.clone();
    drop((south, north));
    let server = server.kill_and_restart();
    let (moves, _) = moves_seen(&server, &room);
    assert_eq!(moves.len(), plies + 1, "every acknowledged move is kept");
    drop(server);
    let _ = Command::new("umount").arg(&mount).status();
}

#[test]
fn a_record_that_cannot_be_written_is_said_and_written_once_it_can() {
    let data = data_folder("records");
    let log = std::env::temp_dir().join(format!("pasang-serve-log-{}", std::process::id()));
    let mut command = common::pasang();
    command
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(&data);
    let (child, address) =
        common::start_server_logging(command, std::fs::File::create(&log).unwrap());
    let server = Server {
        child,
        address,
        data: data.clone(),
    };
    // The records' folder is taken away (a file in its place): root may
    // write anywhere, so permissions would not stop it.
    let games = data.join("games");
    std::fs::remove_dir_all(&games).unwrap();
    std::fs::write(&games, "not a folder").unwrap();
    let (mut south, mut north) = full_room(&server, json!({"type": "create"}));
    play_one(&mut south, &mut north, 0);
    south.send(json!({"type": "resign"}));
    while south.state()["over"].is_null() {}
    common::wait_until(Duration::from_secs(10), "the warning", || {
        std::fs::read_to_string(&log).is_ok_and(|text| text.contains("cannot write the record"))
    });
    std::fs::remove_file(&games).unwrap();
    std::fs::create_dir(&games).unwrap();
    common::wait_until(Duration::from_secs(10), "the record, written late", || {
        server.records().len() == 1
    });
    let said = std::fs::read_to_string(&log).unwrap();
    assert!(said.contains("written at last"), "{said}");
}

#[test]
fn the_journal_is_the_owners_and_an_unchanged_name_is_not_stored() {
    use std::os::unix::fs::PermissionsExt;
    let data = data_folder("names");
    let server = Server::start(&data, &[]);
    let (mut south, _north) = full_room(&server, json!({"type": "create"}));
    let journal = data.join("rooms.jsonl");
    south.send(json!({"type": "name", "name": "Siti"}));
    while common::serve::next_of(&mut south.socket, "room")["names"][0] != "Siti" {}
    let lines = || std::fs::read_to_string(&journal).unwrap().lines().count();
    let stored = lines();
    for _ in 0..5 {
        south.send(json!({"type": "name", "name": "Siti"}));
    }
    // Answered after the names: a rematch in play is refused.
    south.send(json!({"type": "rematch"}));
    assert_eq!(south.error()["kind"], "in_play");
    assert_eq!(lines(), stored, "the same name again is not written");
    let mode = std::fs::metadata(&journal).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "the seat tokens are the owner's only");
}

#[test]
fn a_request_head_has_one_deadline_and_sockets_are_counted_before_their_heads() {
    let server = Server::start(&data_folder("heads"), &["--max-per-address", "4"]);
    // A byte every 2 s keeps each read inside its timeout: the whole
    // head's deadline (10 s) cuts it off all the same.
    let mut slow = TcpStream::connect(&server.address).unwrap();
    let started = Instant::now();
    let mut closed = false;
    for byte in b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaa" {
        if slow.write_all(&[*byte]).is_err() {
            closed = true;
            break;
        }
        std::thread::sleep(Duration::from_secs(2));
        if started.elapsed() > Duration::from_secs(16) {
            break;
        }
        let mut peek = [0u8; 64];
        slow.set_nonblocking(true).unwrap();
        let read = slow.read(&mut peek);
        slow.set_nonblocking(false).unwrap();
        if read.is_ok() {
            closed = true;
            break;
        }
    }
    assert!(closed, "the trickling head was cut off");
    assert!(started.elapsed() < Duration::from_secs(16));

    // Sockets that have sent nothing yet count against the address: past
    // its 4 room sockets and 16 more (a page's files), the next is
    // answered 429 at once.
    let idle: Vec<TcpStream> = (0..20)
        .map(|_| TcpStream::connect(&server.address).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let answer = server.http("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    drop(idle);
    common::wait_until(Duration::from_secs(5), "the places back", || {
        server
            .http("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            .starts_with("HTTP/1.1 200")
    });

    // A WebSocket request without a Host is refused (nothing to check
    // its Origin against).
    let answer = server.http(
        "GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
         Origin: http://evil.example\r\n\r\n",
    );
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(answer.contains("Host"), "{answer}");
}

#[test]
fn a_ping_flood_is_limited_as_messages_are() {
    use tungstenite::Message;
    let server = Server::start(&data_folder("pings"), &[]);
    let mut socket = server.socket();
    let mut closed = false;
    for _ in 0..400 {
        if socket.send(Message::Ping(Vec::new().into())).is_err() {
            closed = true;
            break;
        }
    }
    // The server closes a connection past 200 messages over its rate;
    // reading shows the close (or the socket fails).
    let started = Instant::now();
    while !closed && started.elapsed() < Duration::from_secs(20) {
        match socket.read() {
            Ok(Message::Close(_)) | Err(_) => closed = true,
            Ok(_) => {}
        }
    }
    assert!(closed, "a flood of pings closes its connection");
}

#[test]
fn one_address_cannot_fill_the_rooms_and_unjoined_rooms_close() {
    // 600 times as fast: the two minutes an unjoined room waits are 0.2 s.
    let server = Server::start(
        &data_folder("quota"),
        &["--max-rooms-per-address", "3", "--clock-speed", "600"],
    );
    let rooms: Vec<Client> = (0..3)
        .map(|_| Client::create(&server, json!({"type": "create"})))
        .collect();
    let mut fourth = server.socket();
    common::serve::send(&mut fourth, json!({"type": "create"}));
    let refused = common::serve::next_of(&mut fourth, "error");
    assert_eq!(refused["kind"], "rooms_per_address", "{refused}");
    // Their creators leave, nobody joined: the rooms close, and the
    // address may make rooms again.
    let codes: Vec<String> = rooms.iter().map(|room| room.room.clone()).collect();
    drop(rooms);
    common::wait_until(Duration::from_secs(10), "the quota back", || {
        let mut probe = server.socket();
        common::serve::send(&mut probe, json!({"type": "create"}));
        loop {
            let message = common::serve::next_of_any(&mut probe);
            match message["type"].as_str() {
                Some("room") => return true,
                Some("error") => return false,
                _ => {}
            }
        }
    });
    let mut probe = server.socket();
    common::serve::send(&mut probe, json!({"type": "join", "room": codes[0]}));
    assert_eq!(
        common::serve::next_of(&mut probe, "error")["kind"],
        "no_such_room",
        "the unjoined room is closed"
    );
}

#[test]
fn behind_a_trusted_proxy_each_client_counts_by_its_own_address() {
    let server = Server::start(
        &data_folder("proxy"),
        &["--max-per-address", "2", "--trusted-proxy", "127.0.0.1"],
    );
    let open = |real: &str| {
        let mut stream = TcpStream::connect(&server.address).unwrap();
        let head = format!(
            "GET /ws HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
             X-Real-IP: {real}\r\n\r\n",
            server.address
        );
        stream.write_all(head.as_bytes()).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut answer = [0u8; 12];
        stream.read_exact(&mut answer).unwrap();
        (stream, String::from_utf8_lossy(&answer).to_string())
    };
    let mut held = Vec::new();
    for _ in 0..2 {
        let (stream, status) = open("192.0.2.1");
        assert!(status.ends_with("101"), "{status}");
        held.push(stream);
    }
    let (_, status) = open("192.0.2.1");
    assert!(
        status.ends_with("429"),
        "the third from one client: {status}"
    );
    // Another client behind the same proxy is not held back by the first.
    let (stream, status) = open("2001:db8::1");
    assert!(status.ends_with("101"), "{status}");
    held.push(stream);
    // Its /64 is one address.
    let (stream, status) = open("2001:db8::2");
    assert!(status.ends_with("101"), "{status}");
    held.push(stream);
    let (_, status) = open("2001:db8::3");
    assert!(status.ends_with("429"), "one /64 counts as one: {status}");
}

#[test]
fn sockets_that_never_read_stall_neither_their_room_nor_any_clock() {
    use common::serve::{Socket, next_of, send};
    // Ten times as fast: the victim's one-minute flag is due after 6 s.
    let server = Server::start(
        &data_folder("stall"),
        &["--clock-speed", "10", "--max-per-address", "100"],
    );
    // The attacker's room: both seats its own, then 30 more sockets on
    // it (20 on South's token, 10 watching) that never read a byte.
    let (south, _north) = full_room(&server, json!({"type": "create"}));
    let token = south.token.clone().unwrap();
    let mut silent: Vec<Socket> = Vec::new();
    for i in 0..30 {
        let mut socket = server.socket();
        let seat = if i < 20 { Some(token.as_str()) } else { None };
        send(
            &mut socket,
            json!({"type": "join", "room": south.room, "token": seat}),
        );
        silent.push(socket);
    }
    // The victim's room, a one-minute game nobody moves in.
    let (mut victim, mut other) = full_room(
        &server,
        json!({"type": "create", "clock": {"minutes": 1, "increment": 0}}),
    );
    let started = Instant::now();
    // The attacker's seat sockets change South's name as fast as the
    // rate allows: every change goes to every socket of the room.
    let flood = std::thread::spawn(move || {
        for round in 0..20 {
            for (i, socket) in silent.iter_mut().take(20).enumerate() {
                let name = format!("n{round}-{i}");
                if socket
                    .send(tungstenite::Message::text(
                        json!({"type": "name", "name": name}).to_string(),
                    ))
                    .is_err()
                {
                    continue;
                }
            }
        }
        silent
    });
    let over = loop {
        let state = victim.state();
        if !state["over"].is_null() {
            break state;
        }
    };
    let took = started.elapsed();
    assert_eq!(over["over"]["reason"], "time", "{over}");
    assert!(
        took < Duration::from_secs(9),
        "the flag due after 6 s fell after {took:?}"
    );
    // The room's own players are still answered at once.
    other.send(json!({"type": "rematch"}));
    let answer = next_of(&mut other.socket, "room");
    assert_eq!(answer["rematch"].as_array().unwrap().len(), 2);
    // (That a socket whose queue is full is shut down, so that its page
    // reconnects, is outbound.rs's unit test.)
    drop(flood.join());
}

/// The server's CPU time so far (user and system), from /proc.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The fields after the command's closing parenthesis: utime and stime
    // are the 12th and 13th of them, in clock ticks (100 a second).
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .unwrap()
        .1
        .split_whitespace()
        .collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    ticks / 100.0
}

#[test]
fn a_low_descriptor_limit_lowers_the_cap_and_unfinished_heads_do_not_spin_the_server() {
    let data = data_folder("fds");
    let log = std::env::temp_dir().join(format!("pasang-serve-fds-log-{}", std::process::id()));
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg("ulimit -n 64 && exec \"$0\" serve --listen 127.0.0.1:0 --data \"$1\"")
        .arg(common::PASANG)
        .arg(&data)
        .env_remove("RUST_LOG");
    let (child, address) =
        common::start_server_logging(command, std::fs::File::create(&log).unwrap());
    let server = Server {
        child,
        address,
        data,
    };
    let said = std::fs::read_to_string(&log).unwrap();
    assert!(
        said.contains("--max-connections 4000 needs"),
        "says it lowered the cap: {said}"
    );
    // 80 heads that never end: more than the descriptors allow.
    let heads: Vec<TcpStream> = (0..80)
        .filter_map(|_| {
            let mut stream = TcpStream::connect(&server.address).ok()?;
            stream.write_all(b"GET / HTTP/1.1\r\n").ok()?;
            Some(stream)
        })
        .collect();
    let before = cpu_seconds(server.child.id());
    std::thread::sleep(Duration::from_secs(3));
    let used = cpu_seconds(server.child.id()) - before;
    assert!(used < 0.6, "the server spun: {used:.2} s of CPU in 3 s");
    // A person's request is answered (served, or refused in words), not
    // left to time out.
    let mut stream = TcpStream::connect(&server.address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(15)))
        .unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let mut answer = [0u8; 12];
    stream.read_exact(&mut answer).unwrap();
    assert!(answer.starts_with(b"HTTP/1.1 "), "{answer:?}");
    drop(heads);
}
