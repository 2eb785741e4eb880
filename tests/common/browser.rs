//! Headless Chromium driven over the DevTools protocol, with real mouse
//! events: the board page of `pasang gui` (tests/gui.rs) and the static
//! site (tests/web.rs).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::{Message, WebSocket, stream::MaybeTlsStream};

pub fn chromium() -> Option<String> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|name| {
            Command::new(name)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|status| status.success())
        })
        .map(str::to_string)
}

/// Chromium's binary for test `name`; without one the test is skipped
/// with a message, except under `CI=true`, where it fails.
pub fn chromium_or_skip(name: &str) -> Option<String> {
    let binary = chromium();
    if binary.is_none() {
        super::missing_tool(
            name,
            "Chromium",
            "apt-get install chromium chromium-driver; .ci/run installs it when it can",
        );
    }
    binary
}

/// Headless Chromium with one page, driven over the DevTools protocol.
pub struct Browser {
    process: KillOnDrop,
    profile: std::path::PathBuf,
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
}

impl Browser {
    pub fn start(binary: &str) -> Browser {
        // A profile of its own: the tests of this file run at once.
        static BROWSERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let number = BROWSERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let profile =
            std::env::temp_dir().join(format!("pasang-gui-test-{}-{number}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let mut child = Command::new(binary)
            .args([
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--remote-debugging-port=0",
                "--window-size=1200,900",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        // "DevTools listening on ws://127.0.0.1:<port>/devtools/browser/<id>"
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        // Chromium goes whatever happens below.
        let guard = KillOnDrop(child);
        let mut port = None;
        let mut line = String::new();
        while port.is_none() && stderr.read_line(&mut line).unwrap_or(0) > 0 {
            if let Some(rest) = line.split("ws://127.0.0.1:").nth(1) {
                port = rest.split('/').next().map(str::to_string);
            }
            line.clear();
        }
        let port = port.expect("chromium prints its DevTools address");
        // Keep draining stderr so that Chromium never blocks on it.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        let list = http_get(&format!("127.0.0.1:{port}"), "/json/list");
        let targets: Value = serde_json::from_str(&list).unwrap();
        let page = targets
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["type"] == "page")
            .expect("a page target");
        let url = page["webSocketDebuggerUrl"].as_str().unwrap();
        let (socket, _) = tungstenite::connect(url).unwrap();
        Browser {
            process: guard,
            profile,
            socket,
            next_id: 0,
        }
    }

    /// Calls a DevTools method and returns its result.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let answer = self.try_call(method, params);
        assert!(answer["error"].is_null(), "{method}: {answer}");
        answer["result"].clone()
    }

    /// Calls a DevTools method and returns its whole answer, an error
    /// included.
    fn try_call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let message = json!({"id": id, "method": method, "params": params});
        self.socket
            .send(Message::text(message.to_string()))
            .unwrap();
        loop {
            let Message::Text(text) = self.socket.read().unwrap() else {
                continue;
            };
            let value: Value = serde_json::from_str(text.as_str()).unwrap();
            if value["id"] == id {
                return value;
            }
        }
    }

    /// The value of a JavaScript expression in the page (a promise's, once
    /// it settles: the page's modules are read with `import()`).
    pub fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        assert!(
            result["exceptionDetails"].is_null(),
            "{expression}: {result}"
        );
        result["result"]["value"].clone()
    }

    /// As [`Browser::eval`], but a page that navigates away while the
    /// expression runs (a click that changed the address) reads as null,
    /// for [`Browser::wait_for`] to ask again on the next page.
    #[allow(dead_code)]
    fn eval_across_navigation(&mut self, expression: &str) -> Value {
        let answer = self.try_call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        let error = answer["error"]["message"].as_str().unwrap_or("");
        if error.contains("navigated or closed") || error.contains("context") {
            return Value::Null;
        }
        assert!(answer["error"].is_null(), "Runtime.evaluate: {answer}");
        let result = &answer["result"];
        assert!(
            result["exceptionDetails"].is_null(),
            "{expression}: {result}"
        );
        result["result"]["value"].clone()
    }

    /// From the next page on, the address of every WebSocket the page
    /// opens is kept in `window.__sockets`, as the browser saw it.
    #[allow(dead_code)]
    pub fn record_sockets(&mut self) {
        self.call("Page.enable", json!({}));
        self.call(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": "window.__sockets = []; const Socket = window.WebSocket; \
                window.WebSocket = class extends Socket { constructor(url, protocols) { \
                super(url, protocols); window.__sockets.push(this.url); } };"}),
        );
    }

    pub fn open(&mut self, url: &str) {
        self.call("Page.navigate", json!({"url": url}));
        self.wait_for(
            "document.querySelectorAll('[data-point]').length === 121",
            10,
        );
    }

    /// Waits until `condition` is true in the page.
    pub fn wait_for(&mut self, condition: &str, seconds: u64) {
        let deadline = Instant::now() + Duration::from_secs(seconds);
        while self.eval_across_navigation(condition) != json!(true) {
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {condition}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until `condition` is true in a lesson, going on after each
    /// right move (its words stay until the player presses Next).
    #[allow(dead_code)]
    pub fn wait_going_on(&mut self, condition: &str, seconds: u64) {
        let deadline = Instant::now() + Duration::from_secs(seconds);
        while self.eval(condition) != json!(true) {
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {condition}"
            );
            self.eval("(() => { const next = document.querySelector('#lesson-next'); if (next) next.click(); return true; })()");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// A real left click at the centre of the first element `selector`
    /// finds; false if there is none.
    pub fn click(&mut self, selector: &str) -> bool {
        let centre = self.eval(&format!(
            "(() => {{ const e = document.querySelector({selector:?}); if (!e) return null;
               e.scrollIntoView({{ block: 'nearest', inline: 'nearest' }});
               const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        let Some([x, y]) = centre.as_array().map(|a| [a[0].clone(), a[1].clone()]) else {
            return false;
        };
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
        true
    }

    /// Plays `mv` by clicks: a passage by a point of its column in the
    /// mover's half; a ka move by its origin (unless it is the only one, and
    /// chosen already), its landing point and, if asked, its line.
    pub fn click_move(&mut self, mv: &str) {
        if mv.len() == 1 {
            let north = self.eval("document.querySelector('#board').dataset.toMove === 'north'")
                == json!(true);
            assert!(self.click(&format!("[data-point={mv}{}]", if north { 8 } else { 3 })));
            return;
        }
        let split = mv[1..].find(|c: char| c.is_ascii_alphabetic()).unwrap() + 1;
        let from = &mv[..split];
        let rest = &mv[split..];
        let to_len = 1 + rest[1..].chars().take_while(char::is_ascii_digit).count();
        let to = &rest[..to_len];
        let selected =
            format!("document.querySelector('[data-point={from}]').classList.contains('selected')");
        if self.eval(&selected) != json!(true) {
            assert!(self.click(&format!("[data-point={from}]")), "{mv}");
            self.wait_for(&selected, 5);
        }
        assert!(self.click(&format!("[data-point={to}]")), "{mv}");
        if self.eval("!document.querySelector('#choice').hidden") == json!(true) {
            assert!(self.click(&format!("#choice [data-move={mv}]")), "{mv}");
        }
    }

    /// One click of a person playing by clicks: where one landing takes
    /// two lines the page asks which; else a target plays, an origin picks
    /// the stone to move. False when nothing could be clicked.
    pub fn click_a_move(&mut self) -> bool {
        self.click("#choice:not([hidden]) [data-move]")
            || self.click("[data-point].legal.target")
            || self.click("[data-point].legal")
    }

    pub fn key(&mut self, key: &str) {
        for kind in ["keyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": match key { "ArrowLeft" => 37, _ => 39 }}),
            );
        }
    }

    /// Types `text` into the input `selector` (its value replaced) and
    /// presses Enter there, as a person at the keyboard does.
    pub fn type_and_enter(&mut self, selector: &str, text: &str) {
        self.eval(&format!(
            "(() => {{ const e = document.querySelector({selector:?}); e.focus(); e.select(); }})()"
        ));
        self.call("Input.insertText", json!({"text": text}));
        let enter = json!({"key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13});
        let mut down = enter.clone();
        down["type"] = json!("keyDown");
        down["text"] = json!("\r");
        let mut up = enter;
        up["type"] = json!("keyUp");
        self.call("Input.dispatchKeyEvent", down);
        self.call("Input.dispatchKeyEvent", up);
    }

    /// Sets the viewport to `width` x `height` CSS pixels, as a phone
    /// (`mobile`: the page's viewport meta counts) or a desktop window.
    pub fn viewport(&mut self, width: u32, height: u32, mobile: bool) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}),
        );
    }

    /// Makes the screen a touch screen (its main pointer a finger, as
    /// CSS's `pointer: coarse` sees it); clicks still land as before.
    #[allow(dead_code)]
    pub fn touch(&mut self) {
        self.call(
            "Emulation.setTouchEmulationEnabled",
            json!({"enabled": true, "maxTouchPoints": 5}),
        );
    }

    /// Chooses `path` in the file input `selector`, as a person would in
    /// the file dialog (the page gets its `change` event).
    pub fn choose_file(&mut self, selector: &str, path: &std::path::Path) {
        let root = self.call("DOM.getDocument", json!({}))["root"]["nodeId"].clone();
        let node = self.call(
            "DOM.querySelector",
            json!({"nodeId": root, "selector": selector}),
        )["nodeId"]
            .clone();
        self.call(
            "DOM.setFileInputFiles",
            json!({"nodeId": node, "files": [path.to_string_lossy()]}),
        );
    }

    /// The board as drawn: a character per point (`w`, `b`, `S`, `N`,
    /// `+`, `.`), a1 first, read from the SVG's shapes.
    pub fn drawn_board(&mut self) -> String {
        let value = self.eval(
            "[...document.querySelectorAll('[data-point]')].map(g => {
               const stone = g.querySelector('[data-stone]'), ka = g.querySelector('[data-ka]');
               if (stone) return stone.dataset.stone === 'white' ? 'w' : 'b';
               if (ka) return ka.dataset.ka === 'south' ? 'S' : 'N';
               return g.querySelector('.hole') ? '+' : '.';
             }).join('')",
        );
        value.as_str().unwrap_or_default().to_string()
    }

    pub fn text(&mut self, selector: &str) -> String {
        let value = self.eval(&format!("document.querySelector({selector:?}).textContent"));
        value.as_str().unwrap_or_default().to_string()
    }
}

/// A child process killed when dropped, until handed on.
pub struct KillOnDrop(pub Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Browser {
    /// Asks Chromium to close, so that it reaps its own helper processes
    /// (killed outright they would linger as zombies), then makes sure.
    fn drop(&mut self) {
        let close = json!({"id": 0, "method": "Browser.close"}).to_string();
        let _ = self.socket.send(Message::text(close));
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline && matches!(self.process.0.try_wait(), Ok(None)) {
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.process.0.kill();
        let _ = self.process.0.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// A body fetched with a bare GET (read to its Content-Length: the
/// DevTools server keeps the connection open).
pub fn http_get(address: &str, path: &str) -> String {
    let stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut writer = stream.try_clone().unwrap();
    write!(writer, "GET {path} HTTP/1.1\r\nHost: {address}\r\n\r\n").unwrap();
    let mut reader = BufReader::new(stream);
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    String::from_utf8(body).unwrap()
}
