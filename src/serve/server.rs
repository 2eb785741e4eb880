//! `pasang serve`'s listener: every accepted socket counted
//! ([`super::admission`]) before a thread is started for it, the page's
//! files and the WebSocket upgrade through [`crate::http`] (the same
//! HTTP as `pasang gui`), the page's own questions (`/ws-check`,
//! `/record`), and the ticker thread.
//!
//! Threads, not an async runtime: each connection has a thread that
//! blocks reading its socket and one that writes its bounded outbound
//! queue ([`super::outbound`]); both cost nothing while they wait. See
//! docs/serve.md for the measured figures.

use std::collections::HashMap;
use std::net::{IpAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::admission::Ticket;
use super::live::{Shared, lock, tick};
use super::protocol;
use super::{connection, rules_session};
use crate::http::{self, HttpError, Route, Socket};
use crate::page::assets::PageServer;

/// Time a client gets to send its whole request head.
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// A write that cannot go out in this time drops that connection.
const WRITE_TIMEOUT: Duration = Duration::from_secs(5);
/// How often the ticker looks at the clocks and the absent.
const TICK: Duration = Duration::from_millis(100);
/// Ticks between tries at records a failed write held back.
const RECORD_RETRY_TICKS: u32 = 20;
/// Stack of a connection thread: it parses small JSON and replays no
/// deep recursion.
const STACK_BYTES: usize = 256 * 1024;
/// The longest wait after a failed accept (out of descriptors, say).
const MAX_ACCEPT_BACKOFF: Duration = Duration::from_secs(1);

/// Accepts connections for ever, a thread each, and runs the ticker.
/// Every accepted socket is counted before its thread starts; one over a
/// limit gets no thread of its own (the refuser answers it). A failed accept (out of
/// descriptors) waits a little longer each time, so the loop never
/// spins.
pub fn serve(listener: TcpListener, shared: Arc<Shared>) {
    let ticker = Arc::clone(&shared);
    let _ = std::thread::Builder::new()
        .name("ticker".into())
        .spawn(move || {
            let mut ticks = 0u32;
            loop {
                std::thread::sleep(TICK);
                tick(&ticker);
                ticks = ticks.wrapping_add(1);
                if ticks.is_multiple_of(RECORD_RETRY_TICKS) {
                    ticker.retry_records();
                }
            }
        });
    let refuser = Refuser::start();
    let mut backoff = Duration::ZERO;
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(stream) => {
                backoff = Duration::ZERO;
                stream
            }
            Err(error) => {
                backoff = (backoff * 2).clamp(Duration::from_millis(10), MAX_ACCEPT_BACKOFF);
                if backoff == MAX_ACCEPT_BACKOFF {
                    log::warn!("cannot accept a connection: {error}");
                }
                std::thread::sleep(backoff);
                continue;
            }
        };
        let peer = stream.peer_addr().ok().map(|address| address.ip());
        let ticket = match shared.admission.admit(peer) {
            Ok(ticket) => ticket,
            Err(error) => {
                let kind = refusal_kind(&error);
                shared.metrics.refused(kind);
                match peer {
                    Some(peer) => log::info!("refused {kind} from {peer}: {error}"),
                    None => log::info!("refused {kind} from an unknown address: {error}"),
                }
                refuser.refuse(stream, peer, error);
                continue;
            }
        };
        let shared = Arc::clone(&shared);
        let spawned = std::thread::Builder::new()
            .name("serve connection".into())
            .stack_size(STACK_BYTES)
            .spawn(move || handle(stream, &shared, ticket));
        if let Err(error) = spawned {
            log::warn!("cannot start a connection thread: {error}");
        }
    }
}

/// The kind a connection refused at the door is counted and logged as.
fn refusal_kind(error: &HttpError) -> &'static str {
    match error {
        HttpError::Busy(_) => "busy",
        HttpError::TooManyFromAddress(_) => "address",
        HttpError::Forbidden { .. } => "origin",
        HttpError::UnknownHost { .. } => "host",
        _ => "http",
    }
}

/// Answers sockets over a limit from a few threads: each gets a short
/// wait for its request (so that closing it does not reset the answer
/// away), the refusal, and the close. An address has at most
/// [`REFUSALS_PER_ADDRESS`] refusals waiting; its others are closed
/// unanswered, so one flooding address cannot delay another client's
/// refusal behind its own.
struct Refuser {
    queue: std::sync::mpsc::SyncSender<(TcpStream, Option<IpAddr>, HttpError)>,
    waiting: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// Refusals waiting for the refusers.
const REFUSALS_WAITING: usize = 256;
/// Refusals of one address waiting at once.
const REFUSALS_PER_ADDRESS: usize = 4;
/// Threads that answer refusals.
const REFUSERS: usize = 4;
/// How long a refuser waits for a refused client's request.
const REFUSAL_READ: Duration = Duration::from_millis(100);

impl Refuser {
    fn start() -> Refuser {
        let (queue, refusals) =
            std::sync::mpsc::sync_channel::<(TcpStream, Option<IpAddr>, HttpError)>(
                REFUSALS_WAITING,
            );
        let refusals = Arc::new(Mutex::new(refusals));
        let waiting: Arc<Mutex<HashMap<IpAddr, usize>>> = Arc::default();
        for _ in 0..REFUSERS {
            let refusals = Arc::clone(&refusals);
            let waiting = Arc::clone(&waiting);
            let _ = std::thread::Builder::new()
                .name("refuser".into())
                .stack_size(STACK_BYTES)
                .spawn(move || {
                    loop {
                        let next = lock(&refusals).recv();
                        let Ok((mut stream, peer, error)) = next else {
                            return;
                        };
                        let _ = stream.set_read_timeout(Some(REFUSAL_READ));
                        let _ = stream.set_write_timeout(Some(REFUSAL_READ));
                        let mut request = [0u8; 4096];
                        let _ = std::io::Read::read(&mut stream, &mut request);
                        let _ = http::respond_error(&mut stream, &error);
                        let _ = stream.shutdown(std::net::Shutdown::Write);
                        let _ = std::io::Read::read(&mut stream, &mut request);
                        drop(stream);
                        if let Some(peer) = peer {
                            release(&waiting, peer);
                        }
                    }
                });
        }
        Refuser { queue, waiting }
    }

    /// Refuses `stream` with `error`, or closes it where too many wait,
    /// in all or from its address.
    fn refuse(&self, stream: TcpStream, peer: Option<IpAddr>, error: HttpError) {
        if let Some(peer) = peer {
            let mut waiting = lock(&self.waiting);
            let count = waiting.entry(peer).or_default();
            if *count >= REFUSALS_PER_ADDRESS {
                return;
            }
            *count += 1;
        }
        if self.queue.try_send((stream, peer, error)).is_err()
            && let Some(peer) = peer
        {
            release(&self.waiting, peer);
        }
    }
}

/// One refusal of `peer` is answered.
fn release(waiting: &Mutex<HashMap<IpAddr, usize>>, peer: IpAddr) {
    let mut waiting = lock(waiting);
    if let Some(count) = waiting.get_mut(&peer) {
        *count -= 1;
        if *count == 0 {
            waiting.remove(&peer);
        }
    }
}

/// One HTTP connection: a file, an error, or a room's socket.
fn handle(mut stream: TcpStream, shared: &Shared, mut ticket: Ticket) {
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let head = http::read_head_within(&mut stream, HEAD_TIMEOUT);
    if let Ok(head) = &head
        && let Some(check) = protocol::check_request(head)
    {
        let answered = match check.route {
            protocol::OwnRoute::Check => ws_check(&mut stream, shared, &check, &ticket),
            protocol::OwnRoute::Record => record(&mut stream, shared, &check),
        };
        if let Err(error) = answered {
            log::debug!("connection ended: {error}");
        }
        return;
    }
    let request = head.and_then(|head| {
        http::parse_for(
            &head,
            PageServer::Rooms,
            shared.access.origin.as_deref(),
            &shared.access.hosts,
        )
    });
    let result = match request {
        Ok(request) => match request.route {
            Route::File(kind, body) => {
                http::respond(&mut stream, (200, "OK"), kind, body, request.head_only)
            }
            Route::WebSocket { key, socket } => match ticket.upgrade(request.real_ip) {
                Err(error) => http::respond_error(&mut stream, &error),
                Ok(()) => http::accept_websocket(&mut stream, &key).map(|()| match socket {
                    Socket::Main => connection::run(stream, shared, ticket.client()),
                    Socket::Rules => rules_session::run(stream),
                }),
            },
        },
        Err(error) => {
            if matches!(
                error,
                HttpError::Forbidden { .. } | HttpError::UnknownHost { .. }
            ) {
                let kind = refusal_kind(&error);
                shared.metrics.refused(kind);
                let client = ticket
                    .client()
                    .map_or("an unknown address".into(), |a| a.to_string());
                log::info!("refused {kind} from {client}: {error}");
            }
            http::respond_error(&mut stream, &error)
        }
    };
    if let Err(error) = result {
        log::debug!("connection ended: {error}");
    }
}

/// Answers `GET /ws-check?room=CODE` (see [`protocol::CheckAnswer`]):
/// what a page whose socket failed asks, since the browser hides the
/// status of a refused upgrade. Counts nothing and changes nothing.
fn ws_check(
    stream: &mut TcpStream,
    shared: &Shared,
    check: &protocol::CheckRequest,
    ticket: &Ticket,
) -> std::io::Result<()> {
    // Whether a socket from this client would be let in now (this
    // request's own place aside; one over a limit never gets this far,
    // and its page reads the 429 or 503 itself).
    let why = shared.admission.would_refuse(ticket);
    let answer = protocol::CheckAnswer {
        origin: protocol::expected_origin(shared.access.origin.as_deref(), check.host.as_deref()),
        admitted: why.is_none(),
        why,
        room: check
            .room
            .as_ref()
            .map(|code| lock(&shared.rooms).contains_key(code)),
        server: shared.access.server_id.clone(),
    };
    let body = serde_json::to_string(&answer).unwrap_or_default();
    let kind = "application/json; charset=utf-8";
    http::respond(stream, (200, "OK"), kind, &body, check.head_only)
}

/// Answers `GET /record?room=CODE&game=N`: the finished game's record
/// from the records folder (what a room's page saves), or 404.
fn record(
    stream: &mut TcpStream,
    shared: &Shared,
    check: &protocol::CheckRequest,
) -> std::io::Result<()> {
    let text = protocol::record_name(check.room.as_deref(), check.game.as_deref())
        .and_then(|name| super::live::find_record(&shared.records, &name))
        .and_then(|path| std::fs::read_to_string(path).ok());
    match text {
        Some(text) => http::respond(
            stream,
            (200, "OK"),
            "text/plain; charset=utf-8",
            &text,
            check.head_only,
        ),
        None => {
            let body = "no such record: a game's record is there once the game is over\n";
            http::respond(
                stream,
                (404, "Not Found"),
                "text/plain; charset=utf-8",
                body,
                false,
            )
        }
    }
}
