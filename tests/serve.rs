//! `pasang serve` driven as people and their browsers would: raw
//! WebSocket clients that make rooms, sit, play, misbehave and come
//! back; the server killed with SIGKILL and started again on its data
//! folder; and the board page itself in headless Chromium, two players
//! and a spectator. Every client talks to 127.0.0.1 only.

mod common;

use common::browser::{Browser, chromium_or_skip};
use common::malay::{Mode, no_english_in_malay};
use common::serve::{
    Client, Server, data_folder, full_room, moves_seen, next_of, play_one, send, strings,
};

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tungstenite::Message;

#[test]
fn the_page_and_only_its_files_are_served_and_origins_are_checked() {
    let server = Server::start(&data_folder("files"), &[]);
    let page = server.http("GET /?mode=friend&room=new HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(
        page.contains("data-rooms"),
        "the page is marked a room server's"
    );
    for path in ["/Cargo.toml", "/../rooms.jsonl", "/games/", "/rooms.jsonl"] {
        let answer = server.http(&format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n"));
        assert!(answer.starts_with("HTTP/1.1 404"), "{path}: {answer}");
    }
    let upgrade = |origin: &str| {
        format!(
            "GET /ws HTTP/1.1\r\nHost: {}\r\nOrigin: {origin}\r\nUpgrade: websocket\r\n\
             Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
            server.address
        )
    };
    let foreign = server.http(&upgrade("http://evil.example"));
    assert!(foreign.starts_with("HTTP/1.1 403"), "{foreign}");
    let mut own = TcpStream::connect(&server.address).unwrap();
    own.write_all(upgrade(&format!("http://{}", server.address)).as_bytes())
        .unwrap();
    let mut head = [0u8; 12];
    own.read_exact(&mut head).unwrap();
    assert_eq!(&head, b"HTTP/1.1 101");

    // Behind a reverse proxy only the proxy's origin may open a room.
    let proxied = Server::start(
        &data_folder("proxied"),
        &["--origin", "https://pasang.example.org"],
    );
    let upgrade = upgrade("https://pasang.example.org").replace(&server.address, &proxied.address);
    let mut own = TcpStream::connect(&proxied.address).unwrap();
    own.write_all(upgrade.as_bytes()).unwrap();
    own.read_exact(&mut head).unwrap();
    assert_eq!(&head, b"HTTP/1.1 101");
    let direct = upgrade.replace(
        "https://pasang.example.org",
        &format!("http://{}", proxied.address),
    );
    assert!(proxied.http(&direct).starts_with("HTTP/1.1 403"));
}

#[test]
fn bad_clients_are_refused_and_the_room_stays_as_it_was() {
    let server = Server::start(&data_folder("refusals"), &[]);
    let (mut south, mut north) = full_room(&server, json!({"type": "create", "side": "south"}));
    let [_, north_state] = play_one(&mut south, &mut north, 0);
    let room = south.room.clone();
    let before = moves_seen(&server, &room);
    assert_eq!(before.0, strings(&north_state["moves"]));

    // Junk, a binary frame, a message of the wrong shape: typed refusals.
    for junk in [
        "not json",
        "{}",
        r#"{"type":"move"}"#,
        r#"{"type":"fly","to":"moon"}"#,
    ] {
        north.send_text(junk);
        assert_eq!(north.error()["kind"], "malformed", "{junk}");
    }
    north.socket.send(Message::binary(vec![0u8; 64])).unwrap();
    assert_eq!(north.error()["kind"], "binary");
    // Out of turn: South moved, so South may not; North's legal move from
    // South's socket is refused too.
    let legal = north_state["legal"][0]["move"].clone();
    south.send(json!({"type": "move", "move": legal}));
    assert_eq!(south.error()["kind"], "not_your_turn");
    // An illegal move and a stale ply.
    north.send(json!({"type": "move", "move": "a1a1"}));
    let refused = north.error();
    assert_eq!(refused["kind"], "illegal_move");
    // The rules core's typed reason rides beside the kind.
    assert!(
        refused["reason"].as_str().is_some_and(|r| !r.is_empty()),
        "{refused}"
    );
    north.send(json!({"type": "move", "move": legal, "ply": 1}));
    assert_eq!(north.error()["kind"], "stale_ply");
    // The room's code without the token: a spectator, who may not move.
    let mut stranger = Client::join(&server, &room, Some("not-the-token-at-all"));
    assert_eq!(stranger.seat, "spectator");
    assert_eq!(stranger.token, None);
    stranger.send(json!({"type": "move", "move": legal}));
    assert_eq!(stranger.error()["kind"], "spectator");
    stranger.send(json!({"type": "resign"}));
    assert_eq!(stranger.error()["kind"], "spectator");
    // A room that does not exist.
    let mut lost = server.socket();
    send(&mut lost, json!({"type": "join", "room": "no-such-room"}));
    assert_eq!(next_of(&mut lost, "error")["kind"], "no_such_room");
    // A 1 MiB frame closes that connection only.
    let mut big = Client::join(&server, &room, None);
    let huge = format!(r#"{{"type":"move","move":"{}"}}"#, "a".repeat(1 << 20));
    let _ = big.socket.send(Message::text(huge));
    let closed = loop {
        match big.socket.read() {
            Ok(Message::Close(_)) | Err(_) => break true,
            Ok(_) => continue,
        }
    };
    assert!(closed, "the oversized frame's connection is closed");
    // A burst: refused as too fast past the allowance; the server stays.
    let mut burst = Client::join(&server, &room, None);
    for _ in 0..300 {
        if burst
            .socket
            .send(Message::text(r#"{"type":"resign"}"#))
            .is_err()
        {
            break;
        }
    }
    let mut kinds = std::collections::BTreeSet::new();
    while let Ok(Message::Text(text)) = burst.socket.read() {
        let value: Value = serde_json::from_str(text.as_str()).unwrap();
        if value["type"] == "error" {
            kinds.insert(value["kind"].as_str().unwrap().to_string());
            if kinds.contains("too_fast") {
                break;
            }
        }
    }
    assert!(kinds.contains("too_fast"), "{kinds:?}");
    // Nothing changed.
    assert_eq!(moves_seen(&server, &room), before);

    // The game goes on; after a resignation no move is taken.
    north.send(json!({"type": "move", "move": legal, "ply": 2}));
    north.state_at(2);
    south.send(json!({"type": "resign"}));
    let over = loop {
        let state = south.state();
        if !state["over"].is_null() {
            break state;
        }
    };
    assert_eq!(over["over"]["reason"], "resignation");
    assert_eq!(over["over"]["winner"], "north");
    let mover = if over["side"] == "south" {
        &mut south
    } else {
        &mut north
    };
    mover.send(json!({"type": "move", "move": legal}));
    assert_eq!(mover.error()["kind"], "game_over");
    let (moves, over) = moves_seen(&server, &room);
    assert_eq!(moves.len(), 2);
    assert_eq!(over["reason"], "resignation");

    // The finished game's record replays.
    common::wait_until(Duration::from_secs(10), "the record", || {
        server.records().len() == 1
    });
    let text = std::fs::read_to_string(&server.records()[0]).unwrap();
    let records = pasang::record::read(&text).unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].tag("Termination"), Some("resignation"));
    assert_eq!(records[0].tag("Result"), Some("0-1"));
    assert_eq!(records[0].moves.len(), 2);
    records[0].replay().unwrap();
}

#[test]
fn a_killed_server_restarts_with_every_room_at_its_last_move() {
    let server = Server::start(&data_folder("restart"), &[]);
    let clock = json!({"type": "create", "side": "north", "clock": {"minutes": 5, "increment": 2}});
    let (mut south, mut north) = full_room(&server, clock);
    let (mut south2, mut north2) = full_room(&server, json!({"type": "create"}));
    let mut last = Value::Null;
    for ply in 0..6 {
        [last, _] = play_one(&mut south, &mut north, ply);
    }
    play_one(&mut south2, &mut north2, 0);
    let rooms = [
        (
            south.room.clone(),
            south.token.clone(),
            north.token.clone(),
            6,
        ),
        (
            south2.room.clone(),
            south2.token.clone(),
            north2.token.clone(),
            1,
        ),
    ];
    let left_before = [
        last["clock"]["south"].as_u64().unwrap(),
        last["clock"]["north"].as_u64().unwrap(),
    ];
    drop((south, north, south2, north2));

    let server = server.kill_and_restart();
    for (room, south_token, north_token, plies) in &rooms {
        let mut south = Client::join(&server, room, south_token.as_deref());
        assert_eq!(south.seat, "south", "the token keeps its seat");
        let state = south.state();
        assert_eq!(state["moves"].as_array().unwrap().len(), *plies);
        let mut north = Client::join(&server, room, north_token.as_deref());
        assert_eq!(north.seat, "north");
        let state = north.state();
        if *plies == 6 {
            // The clocks resume where the last move left them: South, to
            // move, lost nothing to the time the server was down.
            let left = &state["clock"];
            assert_eq!(left["north"].as_u64().unwrap(), left_before[1]);
            assert!(left["south"].as_u64().unwrap() <= left_before[0] + 50);
            assert!(left["south"].as_u64().unwrap() + 60_000 > left_before[0]);
        }
        // And the game goes on.
        let [state, _] = play_one(&mut south, &mut north, *plies);
        assert_eq!(state["moves"].as_array().unwrap().len(), plies + 1);
    }
}

/// A rematch offered before the server is killed still stands after the
/// restart: the other seat accepts it and the seats swap.
#[test]
fn a_rematch_offer_outlives_a_restart() {
    let server = Server::start(&data_folder("offer"), &[]);
    let (mut south, mut north) = full_room(&server, json!({"type": "create"}));
    play_one(&mut south, &mut north, 0);
    north.send(json!({"type": "resign"}));
    while south.state()["over"].is_null() {}
    south.send(json!({"type": "rematch"}));
    while next_of(&mut south.socket, "room")["rematch"] != json!([true, false]) {}
    let (room, north_token) = (north.room.clone(), north.token.clone());
    drop((south, north));

    let server = server.kill_and_restart();
    let mut socket = server.socket();
    send(
        &mut socket,
        json!({"type": "join", "room": room, "token": north_token}),
    );
    let seated = next_of(&mut socket, "room");
    assert_eq!(seated["seat"], "north");
    assert_eq!(seated["rematch"], json!([true, false]), "{seated}");
    send(&mut socket, json!({"type": "rematch"}));
    let swapped = loop {
        let message = next_of(&mut socket, "room");
        if message["game"] == 2 {
            break message;
        }
    };
    assert_eq!(swapped["seat"], "south", "{swapped}");
    assert_eq!(swapped["rematch"], json!([false, false]));
}

/// Players name themselves: both seats and the spectators see the names,
/// a spectator cannot name a seat, a name too long is refused, the names
/// come back after a restart, and the record is signed with them.
#[test]
fn players_names_reach_the_room_outlive_a_restart_and_sign_the_record() {
    let server = Server::start(&data_folder("names"), &[]);
    let (mut south, mut north) = full_room(&server, json!({"type": "create"}));
    let both = json!(["Ali", "Siti"]);
    let named = |client: &mut Client, names: &Value| loop {
        let message = next_of(&mut client.socket, "room");
        if &message["names"] == names {
            return message;
        }
    };
    south.send(json!({"type": "name", "name": "Ali"}));
    north.send(json!({"type": "name", "name": "  Siti "}));
    named(&mut south, &both);
    named(&mut north, &both);
    north.send(json!({"type": "name", "name": "x".repeat(41)}));
    assert_eq!(north.error()["kind"], "name");
    // What a newcomer is told first (the `room` message of its join).
    let seated = |server: &Server, room: &str, token: Option<&str>| {
        let mut socket = server.socket();
        send(
            &mut socket,
            json!({"type": "join", "room": room, "token": token}),
        );
        let message = next_of(&mut socket, "room");
        (socket, message)
    };
    let (mut watcher, seen) = seated(&server, &south.room, None);
    assert_eq!(
        (&seen["seat"], &seen["names"]),
        (&json!("spectator"), &both)
    );
    send(&mut watcher, json!({"type": "name", "name": "Eve"}));
    assert_eq!(next_of(&mut watcher, "error")["kind"], "spectator");
    play_one(&mut south, &mut north, 0);
    let (room, token) = (south.room.clone(), south.token.clone());
    drop((south, north, watcher));

    let server = server.kill_and_restart();
    let (mut south, seen) = seated(&server, &room, token.as_deref());
    assert_eq!((&seen["seat"], &seen["names"]), (&json!("south"), &both));
    send(&mut south, json!({"type": "resign"}));
    while next_of(&mut south, "state")["over"].is_null() {}
    let records = server.records();
    assert_eq!(records.len(), 1, "{records:?}");
    let record = std::fs::read_to_string(&records[0]).unwrap();
    assert!(record.contains("[South \"Ali\"]"), "{record}");
    assert!(record.contains("[North \"Siti\"]"), "{record}");
}

/// The clocks and the grace run on the server, end to end: in one room
/// the player to move sits on a one-minute clock and never moves, in
/// another a player leaves for good. About a minute later (the shortest
/// clock and the shortest `--grace`) the first loses on time and the
/// second by abandonment, each told to whoever is still there, each game
/// written once as a record that says why, and no move taken after.
#[test]
fn a_flag_falls_and_an_absent_player_loses_on_the_server() {
    // The server's time runs 60 times as fast: the minute's flag and the
    // minute's grace take a second each.
    let server = Server::start(&data_folder("flag"), &["--clock-speed", "60"]);
    let one_minute = json!({"type": "create", "clock": {"minutes": 1, "increment": 0}});
    let (mut south, mut north) = full_room(&server, one_minute);
    let (mut stays, mut leaves) = full_room(&server, json!({"type": "create"}));
    // A move in the room without a clock; then one player goes away.
    play_one(&mut stays, &mut leaves, 0);
    let leaver = leaves.seat.clone();
    drop(leaves);
    let started = std::time::Instant::now();
    let ended = |client: &mut Client| loop {
        let state = client.state();
        if !state["over"].is_null() {
            return state;
        }
    };

    let to_move = south.state_at(0)["side"].as_str().unwrap().to_string();
    let on_time = ended(&mut north);
    let waited = started.elapsed();
    assert_eq!(on_time["over"]["reason"], "time", "{on_time}");
    let winner = if to_move == "south" { "north" } else { "south" };
    assert_eq!(on_time["over"]["winner"], winner, "{on_time}");
    assert!(
        waited >= Duration::from_millis(900),
        "the flag fell after {waited:?}, before its minute (a second at 60 times)"
    );
    assert_eq!(ended(&mut south)["over"], on_time["over"]);
    assert_eq!(on_time["moves"].as_array().unwrap().len(), 0);

    let abandoned = ended(&mut stays);
    assert_eq!(abandoned["over"]["reason"], "abandonment", "{abandoned}");
    assert_eq!(abandoned["over"]["winner"], stays.seat, "{abandoned}");
    assert_ne!(stays.seat, leaver);

    // No move after the end, in either room.
    let mover = if to_move == "south" {
        &mut south
    } else {
        &mut north
    };
    mover.send(json!({"type": "move", "move": "a1a2n", "ply": 1}));
    assert_eq!(mover.error()["kind"], "game_over");
    stays.send(json!({"type": "move", "move": "a1a2n", "ply": 2}));
    assert_eq!(stays.error()["kind"], "game_over");

    // Each game is written once, with why it ended.
    let records: Vec<String> = server
        .records()
        .iter()
        .map(|path| std::fs::read_to_string(path).unwrap())
        .collect();
    assert_eq!(records.len(), 2, "{records:?}");
    let of_room = |room: &str| {
        let found: Vec<&String> = records
            .iter()
            .filter(|record| record.contains(&format!("[Room \"{room}\"]")))
            .collect();
        assert_eq!(found.len(), 1, "one record of room {room}: {records:?}");
        found[0].clone()
    };
    let clocked = of_room(&south.room);
    assert!(
        clocked.contains("[Termination \"time forfeit\"]"),
        "{clocked}"
    );
    assert!(clocked.contains("[TimeControl \"60+0\"]"), "{clocked}");
    let left = of_room(&stays.room);
    assert!(left.contains("[Termination \"disconnect\"]"), "{left}");
    let result = if stays.seat == "south" { "1-0" } else { "0-1" };
    assert!(left.contains(&format!("[Result \"{result}\"]")), "{left}");
}

/// Two Chromium pages play a whole game in a room, by clicks and typed
/// moves; a third watches and sees each move; one player reloads mid-game
/// and goes on in its seat; a spectator's typed move is refused.
#[test]
fn two_pages_play_a_whole_game_and_a_third_watches() {
    let Some(binary) = chromium_or_skip("two_pages_play_a_whole_game_and_a_third_watches") else {
        return;
    };
    let server = Server::start(&data_folder("pages"), &[]);
    let mut pages = [
        Browser::start(&binary),
        Browser::start(&binary),
        Browser::start(&binary),
    ];
    // South's browser kept its name from an earlier room.
    pages[0].call(
        "Page.navigate",
        json!({ "url": format!("http://{}/rules", server.address) }),
    );
    pages[0].wait_for(
        "location.pathname === '/rules' && document.readyState === 'complete'",
        20,
    );
    pages[0].eval("localStorage.setItem('pasang-player-name', 'Ali')");
    pages[0].open(&format!(
        "http://{}/?mode=friend&room=new&side=south&pattern=1",
        server.address
    ));
    pages[0].wait_for(
        "document.querySelector('#seat').dataset.seat === 'south'",
        20,
    );
    let link = pages[0].eval("document.querySelector('#room-link').value");
    let link = link.as_str().unwrap().to_string();
    assert!(link.contains("room="), "{link}");
    assert_eq!(
        pages[0].eval("location.href").as_str().unwrap(),
        link,
        "the creator's address is the room's"
    );
    pages[1].record_sockets();
    pages[2].record_sockets();
    pages[1].open(&link);
    pages[1].wait_for(
        "document.querySelector('#seat').dataset.seat === 'north'",
        20,
    );
    pages[2].open(&link);
    pages[2].wait_for(
        "document.querySelector('#seat').dataset.seat === 'spectator'",
        20,
    );
    // North names itself; everyone sees both names (South's came from its
    // browser), and the spectator has no name field.
    pages[1].eval(
        "(() => { const field = document.querySelector('#room-name'); field.value = 'Siti'; \
         field.dispatchEvent(new Event('change')); return true; })()",
    );
    for page in [0, 1, 2] {
        pages[page].wait_for(
            "document.querySelector('#room-players').textContent === 'South: Ali · North: Siti'",
            20,
        );
    }
    assert_eq!(
        pages[2].eval("document.querySelector('#room-name-field').hidden"),
        json!(true)
    );
    // The joiners' sockets name the room in their address, for a proxy
    // to route on (the creator's first one could not: it had no code).
    for page in [1, 2] {
        assert_eq!(
            pages[page].eval(
                "window.__sockets.at(-1).endsWith('/ws?room=' + new URL(document.querySelector('#room-link').value).searchParams.get('room'))"
            ),
            json!(true),
            "{}",
            pages[page].eval("window.__sockets")
        );
    }

    // Both players' tabs go to the background, where the turn is told by
    // a notification (the browser's own is replaced by one that records,
    // as if the person had allowed it).
    for page in &mut pages[..2] {
        page.eval(
            "(() => { window.__told = []; \
             window.Notification = class { constructor(title, options) { window.__told.push([title, options.body]); } \
               static get permission() { return 'granted'; } static requestPermission() { return Promise.resolve('granted'); } }; \
             Object.defineProperty(document, 'hidden', { configurable: true, get: () => true }); return true; })()",
        );
    }

    let plies = |page: &mut Browser| {
        page.eval("document.querySelectorAll('#moves > *').length")
            .as_u64()
            .unwrap()
    };
    let mut ply = 0;
    let mut reloaded = false;
    loop {
        if pages[0].eval("Boolean(document.querySelector('#board').dataset.over)") == json!(true) {
            break;
        }
        let side = pages[0]
            .eval("document.querySelector('#board').dataset.toMove")
            .as_str()
            .unwrap()
            .to_string();
        let mover = if side == "south" { 0 } else { 1 };
        pages[mover].wait_for(
            "Boolean(document.querySelector('#board').dataset.legal)",
            20,
        );
        if ply == 3 {
            // A spectator's try is refused, on the page, and changes nothing.
            let legal =
                pages[mover].eval("document.querySelector('#board').dataset.legal.split(' ')[0]");
            pages[2].type_and_enter("#move-input", legal.as_str().unwrap());
            pages[2].wait_for("!document.querySelector('#error').hidden", 10);
            assert_eq!(plies(&mut pages[2]), ply);
        }
        if ply == 8 && !reloaded {
            // North reloads mid-game and goes on in its seat.
            reloaded = true;
            pages[1].open(&link);
            pages[1].wait_for(
                "document.querySelector('#seat').dataset.seat === 'north' && document.querySelector('#board').dataset.toMove !== undefined",
                20,
            );
            assert_eq!(plies(&mut pages[1]), ply);
            continue;
        }
        if ply % 2 == 0 {
            let legal =
                pages[mover].eval("document.querySelector('#board').dataset.legal.split(' ')[0]");
            if ply == 0 {
                // What the page sends, read off its socket.
                pages[mover].eval(
                    "window.sentFrames = []; const original = WebSocket.prototype.send; \
                     WebSocket.prototype.send = function (data) { \
                     window.sentFrames.push(String(data)); return original.call(this, data); }; true",
                );
            }
            pages[mover].type_and_enter("#move-input", legal.as_str().unwrap());
            if ply == 0 {
                pages[mover].wait_for(
                    "window.sentFrames.some((f) => f.includes('\"type\":\"move\"'))",
                    10,
                );
                let sent = pages[mover]
                    .eval("window.sentFrames.find((f) => f.includes('\"type\":\"move\"'))");
                let sent: Value = serde_json::from_str(sent.as_str().unwrap()).unwrap();
                assert_eq!(sent["ply"], 1, "a room's move names its ply: {sent}");
            }
        } else {
            // Clicks, as a person plays: origin, target, or a line to choose.
            let before = ply;
            let mut clicks = 0;
            while plies(&mut pages[mover]) == before && clicks < 6 {
                // Nothing left to click: the move went, its state is coming.
                if !pages[mover].click_a_move()
                    && pages[mover].eval("!document.querySelector('#board').dataset.legal")
                        == json!(false)
                {
                    let seen = pages[mover].eval(
                        "JSON.stringify({error: document.querySelector('#error').textContent, state, room})",
                    );
                    panic!("nothing to click at ply {ply}: {seen}");
                }
                clicks += 1;
                let _ = pages[mover].eval("new Promise((r) => setTimeout(r, 50))");
            }
        }
        ply += 1;
        for page in pages.iter_mut() {
            page.wait_for(
                &format!("document.querySelectorAll('#moves > *').length === {ply}"),
                20,
            );
        }
        if ply == 1 {
            // The player now to move was told, in the page's words; the
            // other was not. The tabs come back to the foreground.
            let told = if pages[0].eval("document.querySelector('#board').dataset.toMove")
                == json!("south")
            {
                0
            } else {
                1
            };
            pages[told].wait_for("window.__told.length === 1", 10);
            assert_eq!(
                pages[told].eval("window.__told[0]"),
                json!(["Pasang", "Your move"])
            );
            assert_eq!(pages[1 - told].eval("window.__told.length"), json!(0));
            for page in &mut pages[..2] {
                page.eval("delete document.hidden");
            }
        }
        assert!(ply < 400, "a game ends");
    }
    for page in pages.iter_mut() {
        page.wait_for("Boolean(document.querySelector('#board').dataset.over)", 10);
    }
    assert!(ply > 10, "a whole game: {ply} plies");
    common::wait_until(Duration::from_secs(10), "the record", || {
        server.records().len() == 1
    });
    let text = std::fs::read_to_string(&server.records()[0]).unwrap();
    let record = &pasang::record::read(&text).unwrap()[0];
    assert_eq!(record.moves.len() as u64, ply);
    assert_eq!(record.tag("North"), Some("Siti"));
    assert_eq!(record.tag("South"), Some("Ali"));
    record.replay().unwrap();
}

/// "Malay everywhere" in rooms: the creator's page waiting for its friend,
/// a room refused for its clock, and a spectator's page of a game in play
/// with names and a clock, its typed move refused, show no sentence of the English table in Malay and
/// nothing word for word in both languages.
#[test]
fn rooms_show_no_english_in_malay() {
    let Some(binary) = chromium_or_skip("rooms_show_no_english_in_malay") else {
        return;
    };
    let server = Server::start(&data_folder("malay"), &[]);
    let clock = json!({"type": "create", "clock": {"minutes": 5, "increment": 3}});
    let (mut south, mut north) = full_room(&server, clock);
    south.send(json!({"type": "name", "name": "Ali"}));
    let [south_state, north_state] = play_one(&mut south, &mut north, 0);
    let legal = [south_state, north_state]
        .iter()
        .find_map(|state| state["legal"][0]["move"].as_str().map(str::to_string))
        .expect("the mover's legal moves");
    let modes = vec![
        Mode {
            name: "a new room",
            address: "?mode=friend&room=new&clock=5%2B3".into(),
            ready: "['south', 'north'].includes(document.querySelector('#seat').dataset.seat)",
            act: Box::new(|browser| {
                browser.wait_for("!document.querySelector('#room-note').hidden", 20);
            }),
        },
        Mode {
            name: "a room's clock refused",
            address: "?mode=friend&room=new&clock=500%2B0".into(),
            ready: "!document.querySelector('#error').hidden",
            act: Box::new(|_| {}),
        },
        Mode {
            name: "watching a room",
            address: format!("?mode=friend&room={}", south.room),
            ready: "document.querySelector('#seat').dataset.seat === 'spectator' && document.querySelector('#moves').children.length === 1 && document.querySelector('#room-players').textContent.includes('Ali')",
            act: Box::new(move |browser| {
                browser.type_and_enter("#move-input", &legal);
                browser.wait_for("!document.querySelector('#error').hidden", 10);
            }),
        },
    ];
    let mut browser = Browser::start(&binary);
    browser.viewport(1280, 900, false);
    let read = no_english_in_malay(&mut browser, &format!("http://{}/", server.address), &modes);
    assert!(read > 0);
    drop((south, north));
}

#[path = "common/rooms.rs"]
mod rooms;

/// The soak: simulated players play 1,000 games in 200 rooms at once
/// over loopback, dropping their connections at random; the server is
/// killed with SIGKILL once mid-way and started again on its data. Every
/// game ends with one record that replays its moves: none lost, none
/// duplicated. Long: run it with
/// `cargo test --release --test serve -- --ignored soak`.
#[test]
#[ignore]
fn soak_a_thousand_games_in_two_hundred_rooms_with_a_restart() {
    const ROOMS: usize = 200;
    const GAMES: usize = 5;
    let data = data_folder("soak");
    let address = format!("127.0.0.1:{}", common::serve::free_port());
    let start = |data: &Path| {
        let child = common::pasang()
            .args([
                "serve",
                "--listen",
                &address,
                "--max-per-address",
                "1000",
                "--data",
            ])
            .arg(data)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("pasang serve starts");
        common::wait_until(Duration::from_secs(30), "the server listens", || {
            TcpStream::connect(&address).is_ok()
        });
        child
    };
    let mut server = start(&data);
    let settings = std::sync::Arc::new(rooms::Settings {
        address: address.clone(),
        games: GAMES,
        think_ms: 0,
        disconnect_per_mille: 5,
        deadline: std::time::Instant::now() + Duration::from_secs(1200),
    });
    let finished = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let began = std::time::Instant::now();
    let threads: Vec<_> = (0..ROOMS)
        .map(|room| {
            let settings = std::sync::Arc::clone(&settings);
            let finished = std::sync::Arc::clone(&finished);
            std::thread::spawn(move || rooms::play_room(&settings, room as u64 + 1, &finished))
        })
        .collect();
    common::wait_until(Duration::from_secs(600), "a third of the games", || {
        finished.load(std::sync::atomic::Ordering::Relaxed) >= ROOMS * GAMES / 3
    });
    server.kill().unwrap();
    server.wait().unwrap();
    let mut server = start(&data);
    let outcomes: Vec<rooms::RoomOutcome> =
        threads.into_iter().map(|t| t.join().unwrap()).collect();
    let _ = server.kill();
    let _ = server.wait();
    let games: Vec<&rooms::SeenGame> = outcomes.iter().flat_map(|o| &o.games).collect();
    let failures: Vec<&String> = outcomes.iter().filter_map(|o| o.failure.as_ref()).collect();
    let reconnects: usize = outcomes.iter().map(|o| o.reconnects).sum();
    let moves: usize = games.iter().map(|g| g.moves.len()).sum();
    println!(
        "soak: {} games ({moves} moves) in {ROOMS} rooms, {reconnects} reconnections, one restart, {:.0} s",
        games.len(),
        began.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{failures:?}");
    assert_eq!(games.len(), ROOMS * GAMES);
    // Records lie in month folders, games/YYYY-MM/.
    let files: Vec<PathBuf> = std::fs::read_dir(data.join("games"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .flat_map(|month| std::fs::read_dir(month).unwrap())
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "pgn"))
        .collect();
    assert_eq!(
        files.len(),
        games.len(),
        "one record a game: none lost, none duplicated"
    );
    for game in games {
        let name = format!("{}-{}.pgn", game.room, game.number);
        let path = files
            .iter()
            .find(|path| {
                path.file_name()
                    .is_some_and(|n| n.to_string_lossy() == name)
            })
            .unwrap_or_else(|| panic!("no record {name}"));
        let text = std::fs::read_to_string(path).unwrap();
        let records = pasang::record::read(&text).unwrap();
        assert_eq!(records.len(), 1, "{}", path.display());
        let record = &records[0];
        let moves: Vec<&str> = record.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(moves, game.moves, "{}", path.display());
        record.replay().unwrap();
    }
    let _ = std::fs::remove_dir_all(&data);
}
