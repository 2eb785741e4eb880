//! `pasang serve`: rooms where two people play each other in real time
//! on the board page, others watch, and no game is lost. It serves the
//! same page as `pasang gui` through the same HTTP ([`crate::gui::http`])
//! and plays no engine moves.
//!
//! - [`room`]: a room as a plain value, changed only by events;
//! - [`journal`]: the events on disk, append-only, synced before anyone
//!   is told;
//! - [`protocol`]: the messages of the room's WebSocket, as types;
//! - `server`: the listener, the connections, the rooms in memory and
//!   the ticker of clocks and absences.
//!
//! docs/serve.md is the user's guide and the protocol's reference.

pub mod journal;
pub mod protocol;
pub mod room;
mod server;

use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use server::Limits;

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
    /// Connections at once in all.
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    max_connections: u64,
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
}

/// Restores the rooms, then serves until the process is killed.
pub fn run(args: &ServeArgs) -> Result<std::process::ExitCode, ServeError> {
    std::fs::create_dir_all(&args.data).map_err(|e| ServeError::Data(args.data.clone(), e))?;
    let limits = Limits {
        max_rooms: args.max_rooms as usize,
        per_address: args.max_per_address as usize,
        max_connections: args.max_connections as usize,
        grace_ms: args.grace * 1000,
    };
    let shared = server::Shared::start(&args.data, limits, args.origin.clone())?;
    let listener =
        TcpListener::bind(&args.listen).map_err(|e| ServeError::Bind(args.listen.clone(), e))?;
    let local = listener
        .local_addr()
        .map_err(|e| ServeError::Bind(args.listen.clone(), e))?;
    println!(
        "pasang serve: open http://{local}/ (rooms: {} open, data in {}; Ctrl-C stops)",
        shared.room_count(),
        args.data.display()
    );
    server::serve(listener, Arc::new(shared));
    Ok(std::process::ExitCode::SUCCESS)
}
