//! The little HTTP the page needs: `GET` of its embedded files (and the
//! course of Learn mode, `/lessons.json`, and Puzzle mode's
//! `/puzzles.jsonl`), the rules pages (`/rules` for players, `/rules/spec`
//! the specification, with their pictures; [`super::rules_page`]) and the
//! WebSocket upgrade at
//! `/ws`. Requests are parsed by `httparse` (the
//! parser under hyper and tungstenite) from a bounded head; anything else
//! gets a plain error response, and every plain response closes the
//! connection, so no request body or pipelining needs handling.

use std::io::{Read, Write};
use std::net::TcpStream;

/// Longest request head read; browsers send well under 2 KiB.
pub const MAX_HEAD_BYTES: usize = 16 * 1024;
/// Most header lines parsed.
const MAX_HEADERS: usize = 64;

use super::assets::{self, LESSONS_JSON, PUZZLES_JSONL, PageServer, STYLE_CSS};

/// What a request asks for.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Route {
    /// An embedded file: its content type and text.
    File(&'static str, &'static str),
    /// A page's WebSocket, with the client's key.
    WebSocket {
        /// The client's `Sec-WebSocket-Key`.
        key: String,
        /// Which of the server's sockets it is.
        socket: Socket,
    },
}

/// The sockets a page may open.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Socket {
    /// `/ws`: `pasang gui`'s session with its engine, or `pasang serve`'s
    /// rooms.
    Main,
    /// `/session` (`pasang serve` only): a session with the rules and no
    /// engine, for Learn, Puzzles and friend games on one device.
    Rules,
}

/// Why a request is refused, with the status it is answered with.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    /// 400: the head does not parse, or a WebSocket request lacks a part.
    #[error("bad request: {0}")]
    BadRequest(#[source] BadRequest),
    /// 403: a WebSocket opened by a page of another site.
    #[error("forbidden: a page from {origin} may not open a session")]
    Forbidden {
        /// The `Origin` the browser named.
        origin: String,
    },
    /// 404.
    #[error("no such page: {path}")]
    NotFound {
        /// The path asked for.
        path: String,
    },
    /// 405: a method other than GET or HEAD.
    #[error("method {method} not allowed: only GET and HEAD")]
    MethodNotAllowed {
        /// The method asked for.
        method: String,
    },
    /// 413: a request with a body.
    #[error("request bodies are not accepted")]
    PayloadTooLarge,
    /// 431: the head is longer than [`MAX_HEAD_BYTES`].
    #[error("request head longer than {MAX_HEAD_BYTES} bytes")]
    HeadTooLarge,
    /// 503: too many pages are open.
    #[error("{0} pages are open already; close one")]
    Busy(usize),
    /// 429: too many connections from one address (`pasang serve`).
    #[error("{0} connections from your address are open already; close one")]
    TooManyFromAddress(usize),
    /// 403: a WebSocket asked for by a host name this server does not
    /// listen as (DNS rebinding: a hostile name resolved to this
    /// machine).
    #[error("forbidden: this server is not {host}; open it by its own address")]
    UnknownHost {
        /// The `Host` the request named.
        host: String,
    },
}

/// What is wrong with a request answered 400.
#[derive(Debug, thiserror::Error)]
pub enum BadRequest {
    /// The client closed the connection before the blank line.
    #[error("connection closed in the head")]
    Closed,
    /// Reading the head failed.
    #[error(transparent)]
    Read(std::io::Error),
    /// The head ends before its blank line.
    #[error("incomplete request head")]
    Incomplete,
    /// `httparse` refused the head.
    #[error(transparent)]
    Parse(httparse::Error),
    /// A request to `/ws` that is not a WebSocket upgrade.
    #[error("/ws takes WebSocket requests only")]
    NotWebSocket,
    /// A WebSocket version other than 13.
    #[error("WebSocket version 13 is needed")]
    WebSocketVersion,
    /// A WebSocket request without its key.
    #[error("no Sec-WebSocket-Key")]
    NoWebSocketKey,
    /// A WebSocket request without `Host` (and no `--origin` to check
    /// its `Origin` against).
    #[error("a WebSocket request needs a Host header")]
    NoHost,
    /// The head did not arrive in time.
    #[error("the request head did not arrive within {0:?}")]
    TooSlow(std::time::Duration),
}

impl HttpError {
    /// The status line's code and reason.
    pub fn status(&self) -> (u16, &'static str) {
        match self {
            HttpError::BadRequest(_) => (400, "Bad Request"),
            HttpError::Forbidden { .. } | HttpError::UnknownHost { .. } => (403, "Forbidden"),
            HttpError::NotFound { .. } => (404, "Not Found"),
            HttpError::MethodNotAllowed { .. } => (405, "Method Not Allowed"),
            HttpError::PayloadTooLarge => (413, "Payload Too Large"),
            HttpError::HeadTooLarge => (431, "Request Header Fields Too Large"),
            HttpError::Busy(_) => (503, "Service Unavailable"),
            HttpError::TooManyFromAddress(_) => (429, "Too Many Requests"),
        }
    }
}

/// A parsed request: method, path (without the query) and what it asks.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Request {
    /// `GET` or `HEAD`.
    pub head_only: bool,
    /// What to answer with.
    pub route: Route,
    /// The client's address as a reverse proxy names it (`X-Real-IP`),
    /// to be believed only from a trusted proxy.
    pub real_ip: Option<std::net::IpAddr>,
}

/// Reads a request head (up to the blank line) from `stream`, at most
/// [`MAX_HEAD_BYTES`]. Bytes after the head are not read: a client may
/// send WebSocket frames only after the answer.
pub fn read_head(stream: &mut impl Read) -> Result<Vec<u8>, HttpError> {
    let mut head = Vec::with_capacity(1024);
    let mut byte = [0u8; 1];
    // Byte by byte: the head is short, and nothing past it is consumed.
    while !head.ends_with(b"\r\n\r\n") {
        if head.len() >= MAX_HEAD_BYTES {
            return Err(HttpError::HeadTooLarge);
        }
        match stream.read(&mut byte) {
            Ok(0) => {
                return Err(HttpError::BadRequest(BadRequest::Closed));
            }
            Ok(_) => head.push(byte[0]),
            Err(error) => return Err(HttpError::BadRequest(BadRequest::Read(error))),
        }
    }
    Ok(head)
}

/// Reads a request head from a socket as [`read_head`] does, the whole
/// head within `limit` (a client that sends a byte now and then is cut
/// off at the deadline, not kept as long as it trickles).
pub fn read_head_within(
    stream: &mut std::net::TcpStream,
    limit: std::time::Duration,
) -> Result<Vec<u8>, HttpError> {
    let deadline = std::time::Instant::now() + limit;
    let mut reader = DeadlineReader { stream, deadline };
    read_head(&mut reader).map_err(|error| match error {
        HttpError::BadRequest(BadRequest::Read(e))
            if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) =>
        {
            HttpError::BadRequest(BadRequest::TooSlow(limit))
        }
        other => other,
    })
}

/// A socket read with each read's timeout set to what is left before a
/// deadline.
struct DeadlineReader<'a> {
    stream: &'a mut std::net::TcpStream,
    deadline: std::time::Instant,
}

impl Read for DeadlineReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self
            .deadline
            .saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        self.stream.read(buf)
    }
}

/// Parses a request head and routes it.
pub fn parse(head: &[u8]) -> Result<Request, HttpError> {
    parse_for(head, PageServer::Sessions, None, &[])
}

/// Parses a request head and routes it; a WebSocket's `Origin` must be
/// `origin` where one is given (a server behind a reverse proxy, reached
/// as `https://...`), else this server as the `Host` header names it,
/// and that host's name (without its port) one of `hosts` unless `hosts`
/// is empty.
pub fn parse_for(
    head: &[u8],
    server: PageServer,
    origin: Option<&str>,
    hosts: &[String],
) -> Result<Request, HttpError> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    match request.parse(head) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => {
            return Err(HttpError::BadRequest(BadRequest::Incomplete));
        }
        Err(error) => return Err(HttpError::BadRequest(BadRequest::Parse(error))),
    }
    let method = request.method.unwrap_or("");
    let head_only = match method {
        "GET" => false,
        "HEAD" => true,
        other => {
            return Err(HttpError::MethodNotAllowed {
                method: other.to_string(),
            });
        }
    };
    let header = |name: &str| {
        request
            .headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .map(|h| String::from_utf8_lossy(h.value).trim().to_string())
    };
    let has_body =
        header("content-length").is_some_and(|v| v != "0") || header("transfer-encoding").is_some();
    if has_body {
        return Err(HttpError::PayloadTooLarge);
    }
    let target = request.path.unwrap_or("/");
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let route = match path {
        "/ws" | "/session" => websocket_route(path, server, &header, origin, hosts)?,
        other => file_route(other, server)?,
    };
    let real_ip = header("x-real-ip").and_then(|value| value.trim().parse().ok());
    Ok(Request {
        head_only,
        route,
        real_ip,
    })
}

/// The embedded file at `path`, or why there is none.
fn file_route(path: &str, server: PageServer) -> Result<Route, HttpError> {
    let not_found = || HttpError::NotFound {
        path: path.to_string(),
    };
    Ok(match path {
        "/" | "/index.html" => Route::File("text/html; charset=utf-8", assets::index(server)),
        "/style.css" => Route::File("text/css; charset=utf-8", STYLE_CSS),
        "/lessons.json" => Route::File("application/json; charset=utf-8", LESSONS_JSON),
        "/puzzles.jsonl" => Route::File("application/jsonl; charset=utf-8", PUZZLES_JSONL),
        "/rules" => Route::File("text/html; charset=utf-8", super::rules_page::page()),
        "/rules/spec" => Route::File("text/html; charset=utf-8", super::rules_page::spec()),
        other if other.ends_with(".js") => Route::File(
            "text/javascript; charset=utf-8",
            assets::script(&other[1..]).ok_or_else(not_found)?,
        ),
        other if other.starts_with("/rules/") => Route::File(
            "image/svg+xml",
            super::rules_page::picture(&other["/rules/".len()..]).ok_or_else(not_found)?,
        ),
        _ => return Err(not_found()),
    })
}

/// A page's WebSocket at `path` (`/ws`, or `/session` on a room server),
/// if its upgrade is sound and its `Origin` is `origin`, or else this
/// server as its `Host` names it (a host of `hosts` unless that is
/// empty).
fn websocket_route(
    path: &str,
    server: PageServer,
    header: &impl Fn(&str) -> Option<String>,
    origin: Option<&str>,
    hosts: &[String],
) -> Result<Route, HttpError> {
    let socket = if path == "/ws" {
        Socket::Main
    } else if server == PageServer::Rooms {
        Socket::Rules
    } else {
        return Err(HttpError::NotFound {
            path: path.to_string(),
        });
    };
    let upgrade = header("upgrade").unwrap_or_default();
    if !upgrade.eq_ignore_ascii_case("websocket") {
        return Err(HttpError::BadRequest(BadRequest::NotWebSocket));
    }
    if header("sec-websocket-version").as_deref() != Some("13") {
        return Err(HttpError::BadRequest(BadRequest::WebSocketVersion));
    }
    let key =
        header("sec-websocket-key").ok_or(HttpError::BadRequest(BadRequest::NoWebSocketKey))?;
    // A page of another site must not start engines here: the browser
    // names the page's origin, which must be this server.
    let allowed = match (origin, header("host")) {
        (Some(allowed), _) => allowed.trim_end_matches('/').to_string(),
        (None, Some(host)) => {
            if !hosts.is_empty()
                && !hosts
                    .iter()
                    .any(|h| h.eq_ignore_ascii_case(host_name(&host)))
            {
                return Err(HttpError::UnknownHost { host });
            }
            format!("http://{host}")
        }
        // Without a Host there is nothing to check the Origin against:
        // refused, not let through.
        (None, None) => return Err(HttpError::BadRequest(BadRequest::NoHost)),
    };
    if let Some(given) = header("origin")
        && given != allowed
    {
        return Err(HttpError::Forbidden { origin: given });
    }
    Ok(Route::WebSocket { key, socket })
}

/// The name part of a `Host` header: without its port, an IPv6 address
/// in its brackets.
pub fn host_name(host: &str) -> &str {
    if host.starts_with('[') {
        return host.split_inclusive(']').next().unwrap_or(host);
    }
    host.rsplit_once(':').map_or(host, |(name, _)| name)
}

/// Refuses a request whose `Host` names none of `hosts` (DNS rebinding:
/// a hostile name resolved to this machine, whose page would read this
/// server's pages as its own), for a server that checks every request
/// and not only its WebSockets. A head without a `Host` passes (no
/// browser sends one), as does one that does not parse ([`parse_for`]
/// answers it), and every head where `hosts` is empty.
pub fn check_host(head: &[u8], hosts: &[String]) -> Result<(), HttpError> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    if hosts.is_empty() || request.parse(head).is_err() {
        return Ok(());
    }
    let host = request
        .headers
        .iter()
        .find(|h| h.name.eq_ignore_ascii_case("host"))
        .map(|h| String::from_utf8_lossy(h.value).trim().to_string());
    match host {
        Some(host)
            if !hosts
                .iter()
                .any(|h| h.eq_ignore_ascii_case(host_name(&host))) =>
        {
            Err(HttpError::UnknownHost { host })
        }
        _ => Ok(()),
    }
}

/// Writes a whole response and flushes it; errors mean the client left.
pub fn respond(
    stream: &mut TcpStream,
    status: (u16, &str),
    content_type: &str,
    body: &str,
    head_only: bool,
) -> std::io::Result<()> {
    let (code, reason) = status;
    let head = format!(
        "HTTP/1.1 {code} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    if !head_only {
        stream.write_all(body.as_bytes())?;
    }
    stream.flush()
}

/// Writes the error's response: its status and a one-line text.
pub fn respond_error(stream: &mut TcpStream, error: &HttpError) -> std::io::Result<()> {
    let body = format!("{error}\n");
    respond(
        stream,
        error.status(),
        "text/plain; charset=utf-8",
        &body,
        false,
    )
}

/// Accepts a WebSocket upgrade (RFC 6455's 101 answer).
pub fn accept_websocket(stream: &mut TcpStream, key: &str) -> std::io::Result<()> {
    let accept = tungstenite::handshake::derive_accept_key(key.as_bytes());
    let head = format!(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Accept: {accept}\r\n\r\n"
    );
    stream.write_all(head.as_bytes())?;
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(text: &str) -> Result<Request, HttpError> {
        let head = read_head(&mut text.as_bytes())?;
        parse(&head)
    }

    #[test]
    fn the_page_and_its_files_are_served() {
        let page = request("GET /?mode=play&side=south HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        assert!(
            matches!(page.route, Route::File(kind, body) if kind.starts_with("text/html") && body.contains("app.js"))
        );
        let script = request("HEAD /app.js HTTP/1.1\r\n\r\n").unwrap();
        assert!(script.head_only);
        let rules = request("GET /rules HTTP/1.1\r\n\r\n").unwrap();
        assert!(
            matches!(rules.route, Route::File(kind, body) if kind.starts_with("text/html") && body.contains("rulesIntro"))
        );
        let spec = request("GET /rules/spec HTTP/1.1\r\n\r\n").unwrap();
        assert!(
            matches!(spec.route, Route::File(kind, body) if kind.starts_with("text/html") && body.contains("The rules of Pasang"))
        );
        let picture = request("GET /rules/img/worked-opening.svg HTTP/1.1\r\n\r\n").unwrap();
        assert!(matches!(picture.route, Route::File("image/svg+xml", _)));
        let players = request("GET /rules/img/players/passage.svg HTTP/1.1\r\n\r\n").unwrap();
        assert!(matches!(players.route, Route::File("image/svg+xml", _)));
    }

    #[test]
    fn websocket_requests_are_checked() {
        let good = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nOrigin: http://127.0.0.1:8080\r\n\
                    Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\
                    Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";
        assert_eq!(
            request(good).unwrap().route,
            Route::WebSocket {
                key: "dGhlIHNhbXBsZSBub25jZQ==".into(),
                socket: Socket::Main,
            }
        );
        // A rules session is pasang serve's only: pasang gui's /ws is its
        // session already.
        let session = good.replace("GET /ws", "GET /session");
        assert!(matches!(request(&session), Err(HttpError::NotFound { .. })));
        let rooms = parse_for(session.as_bytes(), PageServer::Rooms, None, &[]).unwrap();
        assert!(matches!(
            rooms.route,
            Route::WebSocket {
                socket: Socket::Rules,
                ..
            }
        ));
        // DNS rebinding: a hostile name resolved to this machine, its
        // page's Origin matching its Host, is refused where the server
        // knows the names it listens as; its own names are let in.
        let own: Vec<String> = ["localhost", "127.0.0.1", "[::1]"].map(String::from).into();
        let rebound = good
            .replace("Host: 127.0.0.1:8080", "Host: evil.example:8080")
            .replace(
                "Origin: http://127.0.0.1:8080",
                "Origin: http://evil.example:8080",
            );
        assert!(matches!(
            parse_for(rebound.as_bytes(), PageServer::Rooms, None, &own),
            Err(HttpError::UnknownHost { host }) if host == "evil.example:8080"
        ));
        assert!(parse_for(good.as_bytes(), PageServer::Rooms, None, &own).is_ok());
        let by_name = good
            .replace("Host: 127.0.0.1:8080", "Host: LOCALHOST:8080")
            .replace(
                "Origin: http://127.0.0.1:8080",
                "Origin: http://LOCALHOST:8080",
            );
        assert!(parse_for(by_name.as_bytes(), PageServer::Rooms, None, &own).is_ok());
        assert_eq!(host_name("[::1]:8080"), "[::1]");
        assert_eq!(host_name("example.org"), "example.org");
        let foreign = good.replace(
            "Origin: http://127.0.0.1:8080",
            "Origin: http://evil.example",
        );
        let refused = request(&foreign).unwrap_err();
        assert!(
            matches!(&refused, HttpError::Forbidden { origin } if origin == "http://evil.example")
        );
        assert_eq!(
            refused.to_string(),
            "forbidden: a page from http://evil.example may not open a session"
        );
        let plain = "GET /ws HTTP/1.1\r\nHost: x\r\n\r\n";
        let refused = request(plain).unwrap_err();
        assert!(matches!(
            refused,
            HttpError::BadRequest(BadRequest::NotWebSocket)
        ));
        assert_eq!(
            refused.to_string(),
            "bad request: /ws takes WebSocket requests only"
        );
    }

    #[test]
    fn a_foreign_host_is_refused_where_the_server_checks_every_request() {
        let own: Vec<String> = ["localhost", "127.0.0.1"].map(String::from).into();
        let page = |host: &str| format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n");
        assert!(check_host(page("127.0.0.1:8080").as_bytes(), &own).is_ok());
        assert!(check_host(page("LocalHost").as_bytes(), &own).is_ok());
        assert!(matches!(
            check_host(page("evil.example:8080").as_bytes(), &own),
            Err(HttpError::UnknownHost { host }) if host == "evil.example:8080"
        ));
        assert!(check_host(page("evil.example").as_bytes(), &[]).is_ok());
        assert!(check_host(b"GET / HTTP/1.1\r\n\r\n", &own).is_ok());
    }

    #[test]
    fn bad_requests_get_their_status() {
        let cases = [
            ("POST / HTTP/1.1\r\n\r\n", 405),
            ("GET /etc/passwd HTTP/1.1\r\n\r\n", 404),
            ("GET /rules/../Cargo.toml HTTP/1.1\r\n\r\n", 404),
            ("GET / HTTP/1.1\r\nContent-Length: 5\r\n\r\n", 413),
            ("\x01\x02 nonsense\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\n", 400),
        ];
        for (text, status) in cases {
            assert_eq!(request(text).unwrap_err().status().0, status, "{text:?}");
        }
        let long = format!(
            "GET / HTTP/1.1\r\nX: {}\r\n\r\n",
            "a".repeat(MAX_HEAD_BYTES)
        );
        assert!(matches!(request(&long), Err(HttpError::HeadTooLarge)));
    }

    #[test]
    fn the_accept_key_is_rfc_6455s() {
        // The example of RFC 6455, section 1.3.
        assert_eq!(
            tungstenite::handshake::derive_accept_key(b"dGhlIHNhbXBsZSBub25jZQ=="),
            "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
        );
    }
}
