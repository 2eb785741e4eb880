//! `pasang serve`: rooms where two people play each other in real time
//! on the board page, others watch, and no game is lost. It serves the
//! same page as `pasang gui` through the same HTTP ([`crate::gui::http`])
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
//! - `server`: the listener, the rooms in memory and the ticker of
//!   clocks, absences and closing rooms.
//!
//! docs/serve.md is the user's guide and the protocol's reference.

mod admission;
mod connection;
pub mod folder;
pub mod journal;
mod outbound;
pub mod protocol;
pub mod room;
mod server;

use std::net::{IpAddr, TcpListener};
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use server::{Limits, ServerTime};

/// Arguments of `pasang serve`.
#[derive(Args, Debug)]
#[command(after_help = "\
Open the printed address: Friend mode there makes a room and gives its
link (/?mode=friend&room=new, with the page's rule keys, &clock=M+S and
&side=south|north|random). The second person to open the link plays; later
ones watch. Every move is on disk before anyone sees it; finished games are
written as records to DIR/games. See docs/serve.md.")]
pub struct ServeArgs {
    /// Address and port to listen on (port 0: any free port; the address
    /// is printed). The default serves this machine only.
    #[arg(long, default_value = "127.0.0.1:8081", value_name = "ADDR:PORT")]
    listen: String,
    /// Folder of the rooms' journal and the finished games' records.
    #[arg(long, default_value = "pasang-rooms", value_name = "DIR")]
    data: PathBuf,
    /// The page's origin when a reverse proxy serves it, such as
    /// https://pasang.example.org; by default the address it was reached by.
    #[arg(long, value_name = "URL")]
    origin: Option<String>,
    /// Seconds a player may be away from a game in play before losing it.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(60..=86_400))]
    grace: u64,
    /// Rooms open at once.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    max_rooms: u64,
    /// Connections at once from one address.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    max_per_address: u64,
    /// Connections at once in all (each takes one file descriptor: the
    /// server raises its descriptor limit to fit, or lowers this and
    /// says so).
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    max_connections: u64,
    /// Rooms open at once made from one address (a club behind one
    /// address makes many).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    max_rooms_per_address: u64,
    /// A reverse proxy's address whose `X-Real-IP` header names the
    /// client: the per-address limits then count clients, not the proxy.
    /// May be given more than once.
    #[arg(long, value_name = "IP")]
    trusted_proxy: Vec<IpAddr>,
    /// Runs the server's time this many times as fast (clocks, the grace,
    /// closing rooms): for tests, which see a minute's flag fall in a
    /// second.
    #[arg(long, default_value_t = 1, hide = true, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    clock_speed: u64,
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
}

/// Takes the port, holds the data folder, restores the rooms, then
/// serves until the process is killed. A second server on a port or a
/// data folder in use stops before it reads or writes anything there.
pub fn run(args: &ServeArgs) -> Result<std::process::ExitCode, ServeError> {
    let listener =
        TcpListener::bind(&args.listen).map_err(|e| ServeError::Bind(args.listen.clone(), e))?;
    let local = listener
        .local_addr()
        .map_err(|e| ServeError::Bind(args.listen.clone(), e))?;
    let folder = folder::DataFolder::hold(&args.data)?;
    let limits = Limits {
        max_rooms: args.max_rooms as usize,
        rooms_per_address: args.max_rooms_per_address as usize,
        per_address: args.max_per_address as usize,
        max_connections: descriptors::fit_connections(args.max_connections as usize),
        grace_ms: args.grace * 1000,
        trusted_proxies: args.trusted_proxy.clone(),
    };
    let shared = server::Shared::start(
        folder.path(),
        limits,
        args.origin.clone(),
        ServerTime::new(args.clock_speed),
    )?;
    println!(
        "pasang serve: open http://{local}/ (rooms: {} open, data in {}; Ctrl-C stops)",
        shared.room_count(),
        args.data.display()
    );
    server::serve(listener, Arc::new(shared));
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
