//! `pasang serve`: rooms where two people play each other in real time
//! on the board page, others watch, and no game is lost. It serves the
//! same page as `pasang gui` through the same HTTP ([`crate::page::http`])
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
mod socket;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, UdpSocket};
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

/// The host names a page may reach this server by when no `--origin`
/// names it: its address, `localhost` and the loopback addresses, and
/// on a wildcard bind this machine's own addresses.
fn own_host_names(local: SocketAddr) -> Vec<String> {
    let mut names: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "[::1]".into()];
    let bracketed = |ip: IpAddr| match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
    };
    for address in usable_addresses(local) {
        names.push(bracketed(address.ip()));
    }
    if local.ip().is_unspecified() {
        names.extend(machine_addresses().into_iter().map(bracketed));
        // The machine's own name, as a LAN's mDNS gives it too.
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
        let host = host.trim();
        if !host.is_empty() {
            names.push(host.to_string());
            names.push(format!("{host}.local"));
        }
    }
    names.sort();
    names.dedup();
    names
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

/// The addresses a person can open for a server listening on `local`:
/// `local` itself, or for an unspecified address the loopback first, then
/// this machine's other addresses of that family.
fn usable_addresses(local: SocketAddr) -> Vec<SocketAddr> {
    if !local.ip().is_unspecified() {
        return vec![local];
    }
    let v4 = local.is_ipv4();
    let loopback: IpAddr = if v4 {
        Ipv4Addr::LOCALHOST.into()
    } else {
        Ipv6Addr::LOCALHOST.into()
    };
    let mut shown = vec![SocketAddr::new(loopback, local.port())];
    for ip in machine_addresses() {
        let address = SocketAddr::new(ip, local.port());
        if ip.is_ipv4() == v4 && !ip.is_loopback() && !shown.contains(&address) {
            shown.push(address);
        }
    }
    shown
}

/// This machine's IPv4 addresses, without a crate for it: the one a
/// datagram to a documentation address would leave from (connecting a UDP
/// socket sends nothing), and on Linux the local addresses the kernel
/// lists in /proc/net/fib_trie.
fn machine_addresses() -> Vec<IpAddr> {
    let mut found = Vec::new();
    let outgoing = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))
        .and_then(|socket| {
            socket.connect((Ipv4Addr::new(192, 0, 2, 1), 9))?;
            socket.local_addr()
        })
        .map(|address| address.ip());
    if let Ok(ip) = outgoing
        && !ip.is_unspecified()
    {
        found.push(ip);
    }
    // "|-- 192.168.1.5" followed by "/32 host LOCAL" names a local address.
    let trie = std::fs::read_to_string("/proc/net/fib_trie").unwrap_or_default();
    let mut last: Option<IpAddr> = None;
    for line in trie.lines() {
        let line = line.trim();
        if let Some(ip) = line.strip_prefix("|-- ") {
            last = ip.parse().ok();
        } else if line.starts_with("/32 host LOCAL")
            && let Some(ip) = last
            && !found.contains(&ip)
        {
            found.push(ip);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unspecified_address_is_shown_as_usable_ones() {
        let shown = usable_addresses("0.0.0.0:8081".parse().unwrap());
        assert_eq!(shown[0], "127.0.0.1:8081".parse().unwrap());
        assert!(shown.iter().all(|a| !a.ip().is_unspecified()));
        let one = "192.168.1.5:80".parse().unwrap();
        assert_eq!(usable_addresses(one), vec![one]);
        let v6 = usable_addresses("[::]:80".parse().unwrap());
        assert_eq!(v6[0], "[::1]:80".parse().unwrap());
    }
}
