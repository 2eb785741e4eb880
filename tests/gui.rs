//! `pasang gui` driven as a person and a browser would: its HTTP answers
//! and WebSocket sessions straight, then the page itself in headless
//! Chromium over the DevTools protocol, clicking with real mouse events.
//! Without Chromium the browser tests say so and pass, except under
//! `CI=true`, where they fail.

mod common;

use common::browser::{Browser, chromium, chromium_or_skip};

use std::net::TcpStream;
use std::process::Child;
use std::time::{Duration, Instant};

use pasang::notation::{format_position, parse_move, parse_position};
use pasang::outcome::Status;
use pasang::rules::{Pattern, Rules};
use serde_json::{Value, json};
use tungstenite::{Message, WebSocket, stream::MaybeTlsStream};

/// A running `pasang gui` on a free port, stopped when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start() -> Server {
        Server::with_args(&[])
    }

    fn with_args(extra: &[&str]) -> Server {
        let mut command = common::pasang();
        command.args(["gui", "--port", "0"]);
        command.args(extra);
        let (child, address) = common::start_server(command);
        Server { child, address }
    }

    /// The raw answer to `request` (the whole text of it).
    fn http(&self, request: &str) -> String {
        common::http_answer(&self.address, request)
    }

    fn websocket(&self) -> WebSocket<MaybeTlsStream<TcpStream>> {
        common::websocket(&self.address)
    }

    /// The processes this server started (Linux only).
    #[cfg(target_os = "linux")]
    fn children(&self) -> usize {
        let tasks = format!("/proc/{}/task", self.child.id());
        std::fs::read_dir(tasks)
            .unwrap()
            .map(|task| {
                let path = task.unwrap().path().join("children");
                std::fs::read_to_string(path).unwrap_or_default()
            })
            .map(|text| text.split_whitespace().count())
            .sum()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The next message of `type_` (others are skipped).
fn next_of(socket: &mut WebSocket<MaybeTlsStream<TcpStream>>, type_: &str) -> Value {
    loop {
        match socket.read().expect("a message in time") {
            Message::Text(text) => {
                let value: Value = serde_json::from_str(text.as_str()).unwrap();
                if value["type"] == type_ {
                    return value;
                }
            }
            Message::Close(_) => panic!("closed while waiting for {type_}"),
            _ => {}
        }
    }
}

#[test]
fn http_answers_and_a_session_over_the_socket() {
    let server = Server::start();
    http_answers(&server);
    let mut socket = server.websocket();
    a_game_over_the_socket(&server, &mut socket);
    an_oversized_message_closes_the_session(&server, &mut socket);
}

/// The page, the rules and their pictures, and the errors.
fn http_answers(server: &Server) {
    let host = &server.address;
    let page = server.http(&format!(
        "GET /?mode=play&side=south HTTP/1.1\r\nHost: {host}\r\n\r\n"
    ));
    assert!(page.starts_with("HTTP/1.1 200 OK"), "{page}");
    assert!(page.contains("<svg id=\"board\""));
    let rules = server.http(&format!("GET /rules HTTP/1.1\r\nHost: {host}\r\n\r\n"));
    assert!(
        rules.contains("data-i18n=\"rulesBoardTitle\"") && rules.contains("href=\"/rules/spec\""),
        "{rules}"
    );
    let spec = server.http(&format!("GET /rules/spec HTTP/1.1\r\nHost: {host}\r\n\r\n"));
    assert!(
        spec.contains("<h2 id=\"the-board\">The board</h2>"),
        "{spec}"
    );
    for (request, status) in [
        ("GET /app.js HTTP/1.1\r\n\r\n", "200 OK"),
        ("GET /lessons.json HTTP/1.1\r\n\r\n", "200 OK"),
        ("GET /rules HTTP/1.1\r\n\r\n", "200 OK"),
        (
            "GET /rules/img/start-pattern-1.svg HTTP/1.1\r\n\r\n",
            "200 OK",
        ),
        (
            "GET /rules/img/players/entry-slide.svg HTTP/1.1\r\n\r\n",
            "200 OK",
        ),
        (
            "GET /rules/img/missing.svg HTTP/1.1\r\n\r\n",
            "404 Not Found",
        ),
        ("GET /missing HTTP/1.1\r\n\r\n", "404 Not Found"),
        ("DELETE / HTTP/1.1\r\n\r\n", "405 Method Not Allowed"),
        ("GET /ws HTTP/1.1\r\n\r\n", "400 Bad Request"),
        ("garbage\r\n\r\n", "400 Bad Request"),
    ] {
        let answer = server.http(request);
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status}")),
            "{request:?}: {answer}"
        );
    }
}

/// DNS rebinding: a page of a hostile name that resolves to this machine
/// gets neither the page nor a session (each would be its own origin's to
/// read), while the names the server listens as get both.
#[test]
fn a_foreign_host_is_refused_and_the_page_still_served() {
    let server = Server::start();
    let port = server.address.rsplit_once(':').unwrap().1;
    let get = |host: &str| server.http(&format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n"));
    for foreign in [format!("evil.example:{port}"), "evil.example".into()] {
        let answer = get(&foreign);
        assert!(answer.starts_with("HTTP/1.1 403 Forbidden"), "{answer}");
        assert!(
            answer.contains(&format!("this server is not {foreign}")),
            "{answer}"
        );
    }
    let socket = server.http(&format!(
        "GET /ws HTTP/1.1\r\nHost: evil.example:{port}\r\nOrigin: http://evil.example:{port}\r\n\
         Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    ));
    assert!(socket.starts_with("HTTP/1.1 403 Forbidden"), "{socket}");
    for own in [server.address.clone(), format!("localhost:{port}")] {
        let answer = get(&own);
        assert!(answer.starts_with("HTTP/1.1 200 OK"), "{own}: {answer}");
        assert!(answer.contains("<svg id=\"board\""));
    }
    // The page's own session still opens, by the server's own name (the
    // session itself is http_answers_and_a_session_over_the_socket's).
    let (_session, answer) = tungstenite::connect(format!("ws://localhost:{port}/ws"))
        .expect("a session by the name localhost");
    assert_eq!(answer.status(), 101);
}

/// Sends `value` to the session.
fn send(socket: &mut WebSocket<MaybeTlsStream<TcpStream>>, value: Value) {
    socket.send(Message::text(value.to_string())).unwrap();
}

/// A game against the engine, saved, taken back and loaded again.
#[cfg_attr(not(target_os = "linux"), allow(unused_variables))]
fn a_game_over_the_socket(server: &Server, socket: &mut WebSocket<MaybeTlsStream<TcpStream>>) {
    let hello = next_of(socket, "hello");
    assert!(hello["engine"].as_str().unwrap().starts_with("pasang"));
    let state = next_of(socket, "state");
    assert_eq!(state["engine_ok"], true);
    #[cfg(target_os = "linux")]
    assert_eq!(server.children(), 1, "one engine for the page");
    send(
        socket,
        json!({"type": "settings", "skill": 0, "movetime": 50}),
    );
    send(socket, json!({"type": "move", "move": "b4c4n"}));
    let error = next_of(socket, "error");
    assert!(
        error["message"].as_str().unwrap().contains("b4c4n"),
        "{error}"
    );
    send(socket, json!({"type": "move", "move": "c"}));
    // The engine answers as North; the server plays its move.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let state = next_of(socket, "state");
        if state["moves"].as_array().unwrap().len() == 2 {
            assert_eq!(state["status"], "South to move");
            break;
        }
        assert!(Instant::now() < deadline, "no engine move");
    }
    // Saved as a match record, loaded back.
    send(socket, json!({"type": "save"}));
    let record = next_of(socket, "record");
    let text = record["text"].as_str().unwrap().to_string();
    assert!(
        text.contains("[Event \"pasang gui\"]")
            && text.contains("[South \"Anonymous\"]")
            && text.contains("(skill ")
            && text.contains("1. c "),
        "{text}"
    );
    assert_eq!(pasang::record::read(&text).unwrap().len(), 1);
    send(socket, json!({"type": "takeback"}));
    let state = next_of(socket, "state");
    assert_eq!(state["moves"], json!([]));
    send(socket, json!({"type": "mode", "mode": "analyse"}));
    send(socket, json!({"type": "run", "on": false}));
    send(socket, json!({"type": "load", "text": text}));
    let loaded = loop {
        let state = next_of(socket, "state");
        if state["moves"].as_array().unwrap().len() == 2 {
            break state;
        }
    };
    assert_eq!(loaded["cursor"], 2);
}

/// A message over the limit closes the session, and its engine goes.
#[cfg_attr(not(target_os = "linux"), allow(unused_variables))]
fn an_oversized_message_closes_the_session(
    server: &Server,
    socket: &mut WebSocket<MaybeTlsStream<TcpStream>>,
) {
    let huge = "x".repeat(2 << 20);
    let _ = socket.send(Message::text(huge));
    let closed = (0..100).any(|_| match socket.read() {
        Ok(Message::Close(_)) | Err(_) => true,
        Ok(_) => false,
    });
    assert!(closed);
    #[cfg(target_os = "linux")]
    {
        let deadline = Instant::now() + Duration::from_secs(5);
        while server.children() > 0 {
            assert!(Instant::now() < deadline, "the engine outlived its page");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn an_engine_that_cannot_start_is_reported_to_the_page() {
    let server = Server::with_args(&["--engine", "cmd=/nonexistent/engine"]);
    let mut socket = server.websocket();
    let error = next_of(&mut socket, "error");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("/nonexistent/engine"), "{message}");
    let state = next_of(&mut socket, "state");
    assert_eq!(state["engine_ok"], false);
}

#[test]
fn bad_command_lines_are_refused() {
    let output = common::pasang()
        .args(["gui", "--engine", "cmd=x,movetime=5"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--engine"), "{stderr}");
}

// ---- the browser ----

/// Chromium's binary, if installed.
#[test]
fn the_page_in_a_real_browser() {
    let Some(binary) = chromium_or_skip("the_page_in_a_real_browser") else {
        return;
    };
    let started = Instant::now();
    let server = Server::start();
    let mut browser = Browser::start(&binary);
    let base = format!("http://{}/", server.address);
    the_start_and_a_clock(&mut browser, &base);
    phase_two_by_clicks(&mut browser, &base);
    let plies = a_whole_game_by_clicks(&mut browser, &base);
    analysis_and_watching(&mut browser, &base);
    println!(
        "the_page_in_a_real_browser: {plies} plies played, {:.1} s in all",
        started.elapsed().as_secs_f64()
    );
}

/// The start (121 points, 120 stones, no ka, within a 1200x900 window)
/// and a clock.
fn the_start_and_a_clock(browser: &mut Browser, base: &str) {
    // The start: 121 points, 120 stones, no ka, within a 1200x900 window.
    browser.open(&format!("{base}?mode=play&side=south"));
    browser.wait_for(
        "document.querySelector('#status').textContent === 'South to move'",
        10,
    );
    assert_eq!(
        browser.eval("document.querySelectorAll('[data-stone]').length"),
        120
    );
    assert_eq!(
        browser.eval("document.querySelectorAll('[data-ka]').length"),
        0
    );
    assert_eq!(
        browser.eval("document.querySelectorAll('[data-stone=white]').length"),
        60
    );
    assert_eq!(
        browser.eval(
            "(() => { const r = document.querySelector('#board').getBoundingClientRect();
              return r.right <= innerWidth && r.bottom <= innerHeight && r.width > 500; })()"
        ),
        true
    );

    // A clock: the person's runs, shown as minutes and seconds.
    browser.eval(
        "(() => { const c = document.querySelector('#clock'); c.value = '1+0';
           c.dispatchEvent(new Event('change')); })()",
    );
    browser.wait_for(
        "!document.querySelector('#clocks').hidden && /^(1:00|0:5\\d)$/.test(document.querySelector('#clock-south').textContent)",
        5,
    );
    assert_eq!(browser.text("#clock-north"), "1:00");
}

/// Phase 2 by clicks, a take-back and the board flipped.
fn phase_two_by_clicks(browser: &mut Browser, base: &str) {
    // Phase 2 by clicks: the stone, its landing point, and (where the
    // landing takes either of two lines) the line.
    browser.open(&format!("{base}?mode=play&side=south&moves=c%20j"));
    browser.wait_for("document.querySelector('#moves').children.length === 2", 10);
    assert!(browser.click("[data-point=b1].legal.origin"));
    browser.wait_for(
        "document.querySelector('[data-point=b1]').classList.contains('selected')",
        5,
    );
    assert!(browser.click("[data-point=c1].legal.target"));
    browser.wait_for("!document.querySelector('#choice').hidden", 5);
    assert_eq!(
        browser
            .eval("[...document.querySelectorAll('#choice [data-move]')].map(e => e.dataset.move)"),
        json!(["b1c1w", "b1c1e", "b1c1n"])
    );
    assert!(browser.click("#choice [data-move=b1c1e]"));
    browser.wait_for("document.querySelector('#moves').children.length >= 3", 10);
    assert_eq!(browser.text("#moves > :nth-child(3)"), "b1c1e");
    assert_eq!(
        browser.eval("document.querySelectorAll('[data-ka=south]').length"),
        1
    );

    // The engine answers; take back returns to the person's move.
    browser.wait_for("document.querySelector('#moves').children.length === 4", 20);
    assert!(browser.click("#takeback"));
    browser.wait_for("document.querySelector('#moves').children.length === 2", 5);
    // Flip: a1 goes from the bottom left to the top right.
    let a1 = "(() => { const r = document.querySelector('[data-point=a1]').getBoundingClientRect(); return [r.x, r.y]; })()";
    let before = browser.eval(a1);
    assert!(browser.click("#flip"));
    browser.wait_for(&format!("JSON.stringify({a1}) !== '{before}'"), 5);
    let after = browser.eval(a1);
    assert!(after[0].as_f64() > before[0].as_f64() && after[1].as_f64() < before[1].as_f64());
}

/// A whole game by clicks against a quick engine, checked move by move
/// and stepped through with the arrow keys: its length in plies.
fn a_whole_game_by_clicks(browser: &mut Browser, base: &str) -> usize {
    // A whole game by clicks against a quick engine.
    browser.open(&format!("{base}?mode=play&side=south&skill=0&movetime=50"));
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let status = browser.text("#status");
        // The person's own game: "You won", "You lost" or "You drew".
        if status.starts_with("You ") {
            break;
        }
        assert!(Instant::now() < deadline, "the game did not end: {status}");
        let clicked = browser.click_a_move();
        std::thread::sleep(Duration::from_millis(if clicked { 40 } else { 20 }));
    }
    let moves: Vec<String> = serde_json::from_value(
        browser.eval("[...document.querySelector('#moves').children].map(e => e.textContent)"),
    )
    .unwrap();
    assert!(moves.len() >= 10, "{moves:?}");
    // The list is a legal game whose end the status describes.
    let rules = Rules::default();
    let mut position = parse_position(&Pattern::One.start_position_string()).unwrap();
    for text in &moves {
        let mv = parse_move(&position, &rules, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(&mv.to_string(), text);
        position = position.play(mv);
    }
    let status = Status::of(&position, &rules);
    assert!(
        matches!(status, Status::Over { .. }),
        "{}",
        format_position(&position)
    );
    let shown = browser.text("#status");
    let scores = match status {
        Status::Over { scores, .. } => scores,
        Status::InPlay => unreachable!(),
    };
    assert!(
        shown.contains(&format!("South {} - North {}", scores[0], scores[1])),
        "{shown}"
    );
    assert_eq!(
        browser.eval("document.querySelectorAll('[data-stone]').length"),
        json!(position.stone_count())
    );
    // The arrow keys step through the game.
    browser.key("ArrowLeft");
    let before_last = moves.len() - 1;
    browser.wait_for(
        &format!("[...document.querySelector('#moves').children].findIndex(e => e.classList.contains('current')) === {}", before_last - 1),
        5,
    );
    browser.key("ArrowRight");
    browser.wait_for(
        &format!(
            "document.querySelector('#moves').children[{before_last}].classList.contains('current')"
        ),
        5,
    );

    moves.len()
}

/// Analysis of a position given in the address, and watching.
fn analysis_and_watching(browser: &mut Browser, base: &str) {
    // Analysis of a position given in the address shows a score and lines.
    let position = "wwwwwbbbb.w/bwwwwbbbb.w/bbwwwbbbw.w/bb.wwbbww.w/..S.wb....N/bb.bb+bbbb./ww.wwbwbbb./w..wbbwwbb./ww.bbbwwwb./ww.bbbwwww./wb.bbbwwwww s 14 20 cj";
    let encoded = position.replace('+', "%2B").replace(' ', "%20");
    browser.open(&format!("{base}?mode=analyse&position={encoded}&multipv=2"));
    browser.wait_for(
        "document.querySelector('#eval').textContent !== '' && document.querySelectorAll('#lines li').length === 2",
        20,
    );
    let line = browser.text("#lines li");
    assert!(line.contains("c7"), "{line}");
    assert_eq!(
        browser.eval("document.querySelectorAll('[data-ka]').length"),
        2
    );
    assert_eq!(
        browser.eval("document.querySelector('#fen').value"),
        position
    );
    assert!(browser.click("#run"));
    browser.wait_for("document.querySelector('#run').textContent === 'Start'", 5);
    // Watching: the engine plays both sides and shows a line.
    browser.open(&format!("{base}?mode=watch&skill=0&movetime=50"));
    browser.wait_for(
        "document.querySelector('#moves').children.length >= 6 && document.querySelectorAll('#lines li').length >= 1",
        20,
    );
}

/// A position's board as [`Browser::drawn_board`] reads it: a1 first.
fn board_of(position: &pasang::position::Position) -> String {
    let text = format_position(position);
    let ranks: Vec<&str> = text.split(' ').next().unwrap().split('/').collect();
    // The position string has rank 11 first.
    ranks.iter().rev().flat_map(|rank| rank.chars()).collect()
}

#[test]
fn the_board_fits_three_screens_and_a_game_is_reviewed() {
    let Some(binary) = chromium_or_skip("the_board_fits_three_screens_and_a_game_is_reviewed")
    else {
        return;
    };
    let server = Server::start();
    let mut browser = Browser::start(&binary);
    let base = format!("http://{}/", server.address);
    // A phone held upright, a tablet, a desktop: every point of the board
    // on screen, the board as large as the screen allows, no sideways
    // scrolling; the panel below the board on narrow screens, beside it
    // on the wide one.
    for (width, height, mobile, stacked) in [
        (360, 640, true, true),
        (768, 1024, true, true),
        (1440, 900, false, false),
    ] {
        the_board_fits(&mut browser, &base, (width, height), mobile, stacked);
    }
    a_file_of_two_games_is_reviewed(&mut browser, &base);
    wrong_addresses_are_said(&mut browser, &base);
}

/// On a screen of `width` by `height`: every point of the board on
/// screen, the board as large as the screen allows, no sideways
/// scrolling, the panel below the board if `stacked`, else beside it.
fn the_board_fits(
    browser: &mut Browser,
    base: &str,
    (width, height): (u32, u32),
    mobile: bool,
    stacked: bool,
) {
    browser.viewport(width, height, mobile);
    browser.open(&format!("{base}?mode=play&side=south&moves=c%20j"));
    let measured = browser.eval(
        "(() => {
           const points = [...document.querySelectorAll('[data-point]')];
           const boxes = points.map(g => g.getBoundingClientRect());
           const board = document.querySelector('#board').getBoundingClientRect();
           const panel = document.querySelector('#panel').getBoundingClientRect();
           const onScreen = r => r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5
             && r.bottom <= innerHeight + 0.5;
           const inside = boxes.filter(r => onScreen(r) && r.width > 0).length;
           // The first few points off the screen, for the message.
           const outside = points.filter((g, i) => !onScreen(boxes[i]))
             .slice(0, 3).map(g => g.dataset.point + ' ' + JSON.stringify(g.getBoundingClientRect()));
           return { inside, outside, smallest: Math.min(...boxes.map(r => Math.min(r.width, r.height))),
             board: board.width, innerWidth, innerHeight,
             scrollWidth: document.documentElement.scrollWidth,
             below: panel.top >= board.bottom - 0.5, beside: panel.left >= board.right - 0.5 };
         })()",
    );
    let what = format!("{width}x{height}: {measured}");
    assert_eq!(measured["innerWidth"], width, "{what}");
    assert_eq!(measured["inside"], 121, "{what}");
    assert!(
        measured["scrollWidth"].as_f64().unwrap() <= f64::from(width),
        "{what}"
    );
    // A point is a 60th of 740 units: at least 26 px even on the phone.
    let board = measured["board"].as_f64().unwrap();
    let short_side = f64::from(width.min(height));
    assert!(board >= 0.85 * short_side - 40.0, "{what}");
    assert!(
        measured["smallest"].as_f64().unwrap() >= board * 55.0 / 740.0,
        "{what}"
    );
    assert_eq!(measured["below"], stacked, "{what}");
    assert_eq!(measured["beside"], !stacked, "{what}");
    // Phase 2 needs the legal points: they are marked (once the engine's
    // state has come, which takes a while on a loaded machine) and on
    // screen.
    browser.wait_for(
        "document.querySelector('[data-point=b1].legal.origin') !== null",
        20,
    );
    assert!(browser.click("[data-point=b1].legal.origin"), "{what}");
    browser.wait_for(
        "document.querySelector('[data-point=b1]').classList.contains('selected')",
        5,
    );
}

/// Review: a file of two games; the second is picked, analysed, and a
/// click on the graph at a ply shows that ply's position.
fn a_file_of_two_games_is_reviewed(browser: &mut Browser, base: &str) {
    browser.viewport(1440, 900, false);
    let opening = ["c", "j", "b4c4n", "k7j7w", "c4c7ew", "j7k7s"];
    let rules = Rules::default();
    let mut positions = vec![parse_position(&Pattern::One.start_position_string()).unwrap()];
    for text in opening {
        let last = *positions.last().unwrap();
        positions.push(last.play(parse_move(&last, &rules, text).unwrap()));
    }
    let file = std::env::temp_dir().join(format!("pasang-review-{}.pgn", std::process::id()));
    std::fs::write(
        &file,
        "[Event \"first\"]\n[South \"Ann\"]\n[North \"Bob\"]\n[Result \"*\"]\n\n1. d k *\n\n\
         [Event \"second\"]\n[South \"Cid\"]\n[North \"Dee\"]\n[Result \"*\"]\n\n\
         1. c j 2. b4c4n k7j7w 3. c4c7ew j7k7s *\n",
    )
    .unwrap();
    browser.open(&format!("{base}?mode=review"));
    browser.wait_for(
        "document.querySelector('[data-mode=review]').classList.contains('active')",
        10,
    );
    browser.choose_file("input[type=file]", &file);
    browser.wait_for("document.querySelectorAll('[data-game]').length === 2", 10);
    let choice = browser.text("[data-game=\"2\"]");
    assert!(choice.contains("Cid") && choice.contains("Dee"), "{choice}");
    assert!(browser.click("[data-game=\"2\"]"));
    // Six plies and the start, searched at a fixed node count each
    // (about 200 ms).
    browser.wait_for(
        "document.querySelectorAll('[data-eval-graph] [data-ply]').length === 6 && !document.querySelector('#summary').hidden",
        60,
    );
    assert_eq!(
        browser.eval("[...document.querySelectorAll('#moves [data-ply]')].map(e => e.textContent)"),
        json!(opening)
    );
    let marks = browser.eval(
        "[...document.querySelectorAll('#moves [data-mark]')].every(e => ['?!', '?', '??'].includes(e.dataset.mark))",
    );
    assert_eq!(marks, true);
    for ply in [3, 1, 5] {
        assert!(browser.click(&format!("[data-eval-graph] [data-ply=\"{ply}\"]")));
        browser.wait_for(
            &format!(
                "document.querySelector('#moves [data-ply=\"{ply}\"]').classList.contains('current')"
            ),
            5,
        );
        assert_eq!(
            browser.drawn_board(),
            board_of(&positions[ply]),
            "ply {ply}"
        );
    }
    // The summary names the players; saving gives the annotated record.
    assert!(browser.text("#summary").contains("Cid"));
    assert_eq!(browser.text("#save"), "Save annotated record");
    let _ = std::fs::remove_file(&file);
}

/// A wrong address is said, and "analyze" is taken as the command line
/// takes it.
fn wrong_addresses_are_said(browser: &mut Browser, base: &str) {
    browser.open(&format!("{base}?mode=analyse&position=garbage"));
    browser.wait_for("!document.querySelector('#error').hidden", 10);
    let error = browser.text("#error");
    assert!(
        error.contains("position=garbage") && error.contains("invalid position"),
        "{error}"
    );
    browser.open(&format!("{base}?moves=c%20c"));
    browser.wait_for("!document.querySelector('#error').hidden", 10);
    let error = browser.text("#error");
    assert!(error.contains("move 2, 'c'"), "{error}");
    browser.open(&format!("{base}?mode=analyze"));
    browser.wait_for(
        "document.querySelector('[data-mode=analyse]').classList.contains('active')",
        10,
    );
    assert_eq!(
        browser.eval("document.querySelector('#error').hidden"),
        true
    );
    browser.open(&format!("{base}?mode=fly"));
    browser.wait_for("!document.querySelector('#error').hidden", 10);
    assert!(browser.text("#error").contains("mode=fly"));
    assert!(
        browser
            .eval("document.title")
            .as_str()
            .unwrap()
            .starts_with("Pasang")
    );
}

// ---- Learn mode and the typed move ----

/// Friend mode on a phone held upright (390 x 844): both sides played by
/// clicks and one move typed, with no engine move or analysis; a take
/// back of one ply; a reload that keeps the game; the share link opened
/// in a second browser (a profile of its own) at the game's last move;
/// and the link with a move altered, refused with the move at fault, the
/// board left usable.
#[test]
fn friend_mode_and_its_link_in_a_real_browser() {
    let name = "friend_mode_and_its_link_in_a_real_browser";
    let Some(binary) = chromium_or_skip(name) else {
        return;
    };
    let started = Instant::now();
    let server = Server::start();
    let mut browser = Browser::start(&binary);
    browser.viewport(390, 844, true);
    let base = format!("http://{}/", server.address);
    let moves = "document.querySelector('#moves').children.length";
    let friendly = "document.querySelector('#board').dataset.gameMode === 'friend' && !document.querySelector('#friend').hidden";
    browser.open(&format!("{base}?mode=friend"));
    browser.wait_for(friendly, 10);
    assert_eq!(
        browser.eval("import('/strings.js').then(({ STRINGS }) => Object.keys(STRINGS.en).filter((key) => !(key in STRINGS.ms)))"),
        json!([]),
        "every word in Malay too"
    );
    assert_eq!(browser.text("#status"), "South to move");
    // South and North by clicks, South typed, then both by clicks again.
    browser.click_move("c");
    browser.wait_for(&format!("{moves} === 1"), 5);
    assert_eq!(browser.text("#status"), "North to move");
    browser.click_move("j");
    browser.wait_for(&format!("{moves} === 2"), 5);
    browser.type_and_enter("#move-input", "b4c4n");
    browser.wait_for(&format!("{moves} === 3"), 5);
    for ply in 4..=5 {
        let deadline = Instant::now() + Duration::from_secs(10);
        while browser.eval(moves) != json!(ply) {
            assert!(Instant::now() < deadline, "no move by clicks at ply {ply}");
            browser.click_a_move();
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    assert_eq!(
        browser.eval("document.querySelector('#board').dataset.thinking === 'true' || document.querySelectorAll('#lines li').length > 0"),
        json!(false),
        "the engine neither moves nor analyses"
    );
    // Take back one ply: North's move to play again (the button is
    // below the board on a phone: scrolled to, as a person would).
    let scroll =
        |id: &str| format!("document.querySelector('#{id}').scrollIntoView({{block: 'center'}})");
    browser.eval(&scroll("takeback"));
    assert!(browser.click("#takeback"));
    browser.wait_for(&format!("{moves} === 4"), 5);
    assert_eq!(browser.text("#status"), "South to move");
    let played = browser
        .eval("[...document.querySelector('#moves').children].map((e) => e.textContent).join(' ')");
    let board = browser.drawn_board();
    // A reload keeps the game, in Friend mode.
    browser.eval("window.beforeReload = true");
    browser.call("Page.reload", json!({}));
    browser.wait_for(
        "!window.beforeReload && document.querySelectorAll('[data-point]').length === 121",
        10,
    );
    browser.wait_for(
        &format!("{friendly} && [...document.querySelector('#moves').children].map((e) => e.textContent).join(' ') === {played}"),
        10,
    );
    assert_eq!(browser.drawn_board(), board);
    // Share: the link holds the rules, the moves in full and the names.
    browser.eval(
        "(() => { const n = document.querySelector('#south-name'); n.value = 'Ali';
           n.dispatchEvent(new Event('change')); })()",
    );
    assert_eq!(browser.text("#status"), "South (Ali) to move");
    browser.eval(&scroll("share"));
    assert!(browser.click("#share"));
    browser.wait_for(
        "document.querySelector('#share-link').value.includes('south=Ali')",
        5,
    );
    let link = browser.eval("document.querySelector('#share-link').value");
    let link = link.as_str().unwrap().to_string();
    let query = browser.eval(&format!(
        "Object.fromEntries(new URL({link:?}).searchParams)"
    ));
    assert_eq!(query["mode"], "friend", "{link}");
    assert_eq!(query["moves"], played, "{link}");
    for (key, value) in [
        ("pattern", "1"),
        ("ka_entry", "slide"),
        ("second_column", "opposite"),
        ("centre", "wall"),
    ] {
        assert_eq!(query[key], value, "{link}");
    }
    // Opened in another browser: the game at its last move, South to move.
    drop(browser);
    let mut friend = Browser::start(&binary);
    friend.viewport(390, 844, true);
    friend.open(&link);
    friend.wait_for(
        &format!("{friendly} && [...document.querySelector('#moves').children].map((e) => e.textContent).join(' ') === {played}"),
        10,
    );
    assert_eq!(friend.drawn_board(), board);
    assert_eq!(friend.text("#status"), "South (Ali) to move");
    assert_eq!(
        friend.eval("document.querySelector('#south-name').value"),
        "Ali"
    );
    // The same link with its third move altered: refused, with the move
    // at fault; the board shows the two moves before it and takes moves.
    assert!(link.contains("b4c4n"), "{link}");
    friend.open(&link.replace("b4c4n", "a4c4n"));
    friend.wait_for(
        "document.querySelector('#error').textContent.includes(\"(move 3, 'a4c4n')\")",
        10,
    );
    friend.wait_for(&format!("{friendly} && {moves} === 2"), 5);
    println!("refused: {}", friend.text("#error"));
    friend.type_and_enter("#move-input", "b4c4n");
    friend.wait_for(&format!("{moves} === 3"), 5);
    println!("{name}: {:.1} s in all", started.elapsed().as_secs_f64());
}

/// Decodes standard base64 (DevTools sends pictures so).
fn base64_decode(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bytes = Vec::with_capacity(text.len() * 3 / 4);
    let (mut buffer, mut bits) = (0u32, 0);
    for c in text.bytes().filter(|&c| c != b'=') {
        let value = ALPHABET.iter().position(|&a| a == c).expect("base64") as u32;
        buffer = (buffer << 6) | value;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            bytes.push((buffer >> bits) as u8);
        }
    }
    bytes
}

/// The screenshots of docs/gui.md: the review of the second game of
/// docs/img/review-games.pgn at its first marked move, on a desktop
/// (1440 x 900) and a phone held upright (360 x 640, the whole page).
/// Run by hand: `cargo test --release --test gui -- --ignored review_screenshots`.
#[test]
#[ignore = "writes docs/img/review-*.png; run by hand"]
fn review_screenshots() {
    let binary = chromium().expect("Chromium (apt-get install chromium)");
    let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/img");
    let server = Server::start();
    let mut browser = Browser::start(&binary);
    browser.viewport(1440, 900, false);
    browser.open(&format!("http://{}/?mode=review", server.address));
    browser.choose_file("input[type=file]", &docs.join("review-games.pgn"));
    browser.wait_for("document.querySelectorAll('[data-game]').length === 2", 10);
    assert!(browser.click("[data-game=\"2\"]"));
    browser.wait_for("!document.querySelector('#summary').hidden", 120);
    let marked = browser.eval(
        "(() => { const e = document.querySelector('#moves [data-mark]'); return e ? Number(e.dataset.ply) : 0; })()",
    );
    let ply = marked.as_u64().filter(|&ply| ply > 0).unwrap_or(1);
    assert!(browser.click(&format!("[data-eval-graph] [data-ply=\"{ply}\"]")));
    browser.wait_for(
        &format!(
            "document.querySelector('#moves [data-ply=\"{ply}\"]').classList.contains('current')"
        ),
        5,
    );
    let shoot = |browser: &mut Browser, name: &str, width: u32, height: u32, mobile: bool| {
        browser.viewport(width, height, mobile);
        // The page has laid itself out again: the graph, redrawn on
        // resize, is as wide as its box.
        browser.wait_for(
            &format!(
                "innerWidth === {width} && (() => {{ const g = document.querySelector('#graph');
                   return g.viewBox.baseVal.width === Math.max(60, g.clientWidth || g.getBoundingClientRect().width); }})()"
            ),
            5,
        );
        let page_height = browser
            .eval("document.documentElement.scrollHeight")
            .as_f64()
            .unwrap();
        let shot = browser.call(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": true,
                   "clip": {"x": 0, "y": 0, "width": width, "height": page_height.max(f64::from(height)), "scale": 1}}),
        );
        let path = docs.join(name);
        std::fs::write(&path, base64_decode(shot["data"].as_str().unwrap())).unwrap();
        println!(
            "review_screenshots: {} ({width}x{height}, ply {ply})",
            path.display()
        );
    };
    shoot(&mut browser, "review-desktop.png", 1440, 900, false);
    shoot(&mut browser, "review-phone.png", 360, 640, true);
}
