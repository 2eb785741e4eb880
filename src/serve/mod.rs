//! `pasang serve`: rooms where two people play each other in real time
//! on the board page, others watch, and no game is lost. It serves the
//! same page as `pasang gui` through the same HTTP ([`crate::http`])
//! and plays no engine moves.
//!
//! - [`room`]: a room as a plain value, changed only by events;
//! - [`journal`]: the events on disk, append-only, synced before anyone
//!   is told, compacted as rooms close;
//! - [`folder`]: the data folder, held by one server at a time;
//! - [`protocol`]: the messages of the room's WebSocket, as types;
//! - `admission`: who may connect, counted in all and by address;
//! - `outbound`: each socket's bounded queue and writer thread;
//! - `connection`: one socket's reading, its rate limits, its requests;
//! - `live`: the open rooms in memory, each change through the journal, the
//!   records, and the ticker's round of clocks, absences and closing;
//! - `server`: the listener, the refusals, the page's files and
//!   questions, and the ticker thread;
//! - [`metrics`] and `admin`: what an admin reads on `--admin-listen`
//!   (`/healthz`, `/metrics`, `/rooms`), never on the players' port;
//! - [`check`]: `pasang serve --check`, a data folder verified without
//!   serving or writing.
//!
//! docs/serve.md is the user's guide and the protocol's reference.

mod admin;
mod admission;
pub mod check;
mod connection;
pub mod folder;
pub mod journal;
mod live;
pub mod metrics;
pub mod protocol;
pub mod room;
mod rules_session;
mod server;

use std::net::{IpAddr, TcpListener};

use crate::http::hosts::{own_host_names, usable_addresses};
use std::path::PathBuf;
use std::sync::Arc;

use live::{Limits, ServerTime};

/// What `pasang serve` is told (by its command line, [`crate::cli`]):
/// where to listen, its data folder and its limits.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Address and port to listen on.
    pub listen: String,
    /// Folder of the rooms' journal and the finished games' records.
    pub data: PathBuf,
    /// The page's origin behind a reverse proxy.
    pub origin: Option<String>,
    /// Seconds a player may be away from a game in play before losing it.
    pub grace: u64,
    /// Rooms open at once.
    pub max_rooms: u64,
    /// Room sockets at once from one address.
    pub max_per_address: u64,
    /// Connections at once in all.
    pub max_connections: u64,
    /// Rooms open at once made from one address.
    pub max_rooms_per_address: u64,
    /// Reverse proxies whose `X-Real-IP` names the client.
    pub trusted_proxy: Vec<IpAddr>,
    /// How many times as fast the server's time runs (tests).
    pub clock_speed: u64,
    /// This server's name among several behind one proxy.
    pub server_id: Option<String>,
    /// The admin's address (`/healthz`, `/metrics`, `/rooms`), if any.
    pub admin_listen: Option<String>,
}

/// A new room's code: 128 random bits in letters and digits, after the
/// server's id (`--server-id`) and a dash where it has one (`a-...`), so
/// that a proxy in front of several servers routes the room by its code.
/// Without an id the code has no dash, so it never looks like another
/// server's.
pub fn new_room_code(server_id: Option<&str>) -> String {
    match server_id {
        Some(id) => format!("{id}-{}", live::random_alphanumeric()),
        None => live::random_alphanumeric(),
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address cannot be listened on.
    #[error("cannot listen on {0}: {1}")]
    Bind(String, #[source] std::io::Error),
    /// The data folder cannot be made or written.
    #[error("data folder {0}: {1}")]
    Data(PathBuf, #[source] std::io::Error),
    /// The journal cannot be read or written.
    #[error(transparent)]
    Journal(#[from] journal::JournalError),
    /// The data folder is another server's, or cannot be held.
    #[error(transparent)]
    Folder(#[from] folder::FolderError),
    /// The signal handler cannot be installed.
    #[error("cannot catch SIGTERM: {0}")]
    Signal(String),
}

/// Takes the port (and the admin's), holds the data folder, restores
/// the rooms, then serves until SIGTERM or Ctrl-C: every page is told
/// the server is restarting, moves stop being taken, and the process
/// exits 0 with every acknowledged move on disk. A second server on a
/// port or a data folder in use stops before it reads or writes
/// anything there.
pub fn run(args: &Settings) -> Result<std::process::ExitCode, ServeError> {
    let listener =
        TcpListener::bind(&args.listen).map_err(|e| ServeError::Bind(args.listen.clone(), e))?;
    let local = listener
        .local_addr()
        .map_err(|e| ServeError::Bind(args.listen.clone(), e))?;
    let admin = match &args.admin_listen {
        Some(address) => {
            Some(TcpListener::bind(address).map_err(|e| ServeError::Bind(address.clone(), e))?)
        }
        None => None,
    };
    let folder = folder::DataFolder::hold(&args.data)?;
    let limits = Limits {
        max_rooms: args.max_rooms as usize,
        rooms_per_address: args.max_rooms_per_address as usize,
        per_address: args.max_per_address as usize,
        max_connections: descriptors::fit_connections(args.max_connections as usize),
        grace_ms: args.grace * 1000,
        trusted_proxies: args.trusted_proxy.clone(),
    };
    // Without --origin a page's socket is let in only by the names this
    // server listens as (DNS rebinding: a hostile name that resolves to
    // this machine must not reach the rooms).
    let hosts = if args.origin.is_some() {
        Vec::new()
    } else {
        own_host_names(local)
    };
    let shared = Arc::new(live::Shared::start(
        folder.path(),
        limits.clone(),
        live::Access {
            origin: args.origin.clone(),
            hosts,
            server_id: args.server_id.clone(),
        },
        ServerTime::new(args.clock_speed),
    )?);
    let stopping = Arc::clone(&shared);
    ctrlc::set_handler(move || {
        stopping.stop();
        log::info!("stopped: every acknowledged move is on disk");
        std::process::exit(0);
    })
    .map_err(|error| ServeError::Signal(error.to_string()))?;
    // An unspecified address (0.0.0.0, ::) is no address to open: the
    // first line names this machine's loopback, the next ones the
    // addresses others on the network can use. Behind a proxy the
    // public origin is the address to open.
    let shown = usable_addresses(local);
    match &args.origin {
        Some(origin) => println!(
            "pasang serve: open {}/ (behind the proxy, which reaches http://{local}/; rooms: {} \
             open, data in {}; Ctrl-C stops)",
            origin.trim_end_matches('/'),
            shared.room_count(),
            args.data.display()
        ),
        None => println!(
            "pasang serve: open http://{}/ (rooms: {} open, data in {}; Ctrl-C stops)",
            shown[0],
            shared.room_count(),
            args.data.display()
        ),
    }
    for other in &shown[1..] {
        println!("pasang serve: on this network: http://{other}/");
    }
    let admin_address = admin.as_ref().and_then(|a| a.local_addr().ok());
    if let Some(address) = admin_address {
        println!("pasang serve: admin on http://{address}/ (/healthz, /metrics, /rooms)");
    }
    log::info!(
        "started: pasang {} (built for {}) on {local}{}, data in {}, {} rooms open; limits: {} \
         rooms, {} rooms an address, {} connections, {} an address, grace {} s",
        crate::version::VERSION,
        crate::version::target(),
        admin_address.map_or(String::new(), |a| format!(", admin on {a}")),
        args.data.display(),
        shared.room_count(),
        limits.max_rooms,
        limits.rooms_per_address,
        limits.max_connections,
        limits.per_address,
        args.grace,
    );
    if let Some(admin) = admin {
        admin::start(admin, Arc::clone(&shared));
    }
    server::serve(listener, shared);
    drop(folder);
    Ok(std::process::ExitCode::SUCCESS)
}

/// The process's descriptor limit against the connections it may hold.
mod descriptors {
    /// Descriptors kept for the listener, the journal, records and the
    /// standard streams.
    const SPARE: usize = 32;

    /// Raises the soft limit on open descriptors to what `connections`
    /// need (one each), as far as the hard limit allows; where it does
    /// not, the connections that fit, said loudly. Never refuses to
    /// start.
    pub fn fit_connections(connections: usize) -> usize {
        let needed = (connections + SPARE) as u64;
        match raise_to(needed) {
            Ok(limit) if limit >= needed => connections,
            Ok(limit) => {
                let fit = (limit as usize).saturating_sub(SPARE).max(1);
                log::warn!(
                    "--max-connections {connections} needs {needed} open files, but the limit is \
                     {limit}: serving at most {fit} connections (raise `ulimit -n` for more)"
                );
                fit
            }
            Err(error) => {
                log::warn!("cannot read the open-file limit ({error}); --max-connections as given");
                connections
            }
        }
    }

    /// The soft limit after raising it towards `wanted`.
    #[cfg(unix)]
    // `rlim_t` is u64 on Linux but not on every Unix.
    #[allow(clippy::unnecessary_cast)]
    fn raise_to(wanted: u64) -> std::io::Result<u64> {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit read and write the struct given.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let current = limit.rlim_cur as u64;
        if current >= wanted {
            return Ok(current);
        }
        let target = wanted.min(limit.rlim_max as u64);
        let raised = libc::rlimit {
            rlim_cur: target as libc::rlim_t,
            rlim_max: limit.rlim_max,
        };
        // SAFETY: as above.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } != 0 {
            return Ok(current);
        }
        Ok(target)
    }

    #[cfg(not(unix))]
    fn raise_to(wanted: u64) -> std::io::Result<u64> {
        Ok(wanted)
    }
}
