//! `pasang serve`'s command line: its flags, checked, given to the room
//! server as [`crate::serve::Settings`].

use std::net::IpAddr;
use std::path::PathBuf;

use clap::Args;

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
    /// This server's name among several behind one reverse proxy: 1 to
    /// 16 lowercase letters and digits. New rooms' codes start with it
    /// and a dash (`a-...`), so the proxy routes a room to its server.
    #[arg(long, value_name = "ID", value_parser = parse_server_id)]
    server_id: Option<String>,
    /// The admin's address: /healthz, /metrics (Prometheus) and /rooms,
    /// never on the players' port. Off unless given; keep it on
    /// loopback, such as 127.0.0.1:9464.
    #[arg(long, value_name = "ADDR:PORT")]
    admin_listen: Option<String>,
    /// How log lines are written to stderr: text, or json (one object a
    /// line, for log shippers). The level is info unless RUST_LOG says.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// Verifies the data folder (the journal, the records, the lock)
    /// without serving and without writing, then exits: 0 when sound,
    /// 1 with the line at fault.
    #[arg(long)]
    pub check: bool,
}

/// How `pasang serve` writes its log.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Eq, PartialEq)]
pub enum LogFormat {
    /// `[time LEVEL target] message`, env_logger's lines.
    Text,
    /// One JSON object a line: time, level, target, message.
    Json,
}

/// Checks `--server-id`: short, and safe in an address and a regular
/// expression of the proxy's.
fn parse_server_id(text: &str) -> Result<String, String> {
    let good = (1..=16).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    if good {
        Ok(text.to_string())
    } else {
        Err(format!(
            "'{text}' is not a server id: use 1 to 16 lowercase letters and digits (such as a, b, s1)"
        ))
    }
}

impl ServeArgs {
    /// The server's settings from the flags.
    pub fn settings(&self) -> crate::serve::Settings {
        crate::serve::Settings {
            listen: self.listen.clone(),
            data: self.data.clone(),
            origin: self.origin.clone(),
            grace: self.grace,
            max_rooms: self.max_rooms,
            max_per_address: self.max_per_address,
            max_connections: self.max_connections,
            max_rooms_per_address: self.max_rooms_per_address,
            trusted_proxy: self.trusted_proxy.clone(),
            clock_speed: self.clock_speed,
            server_id: self.server_id.clone(),
            admin_listen: self.admin_listen.clone(),
        }
    }

    /// The data folder.
    pub fn data(&self) -> &std::path::Path {
        &self.data
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_ids_are_short_and_url_safe() {
        assert_eq!(parse_server_id("a").unwrap(), "a");
        assert_eq!(parse_server_id("s12").unwrap(), "s12");
        for bad in ["", "A", "a-b", "a/b", "seventeen-letters", "é"] {
            let error = parse_server_id(bad).unwrap_err();
            assert!(error.contains("server id"), "{bad}: {error}");
        }
    }
}
