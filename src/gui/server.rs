//! `pasang gui`'s server: the listener and one connection per page (the
//! native binary only; the static site runs the session in a Web Worker
//! instead).

use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::connection;
use crate::client::{EngineSpec, SpecError};
use crate::http::{self, HttpError, Route};
use crate::page::assets::PageServer;

/// Pages served at once; each runs an engine process.
pub const MAX_SESSIONS: usize = 8;

/// Time a client gets to send its request head.
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// Time a write may stall before its page is taken for gone.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// What `pasang gui` is told (by its command line, [`crate::cli`]).
#[derive(Clone, Debug)]
pub struct GuiSettings {
    /// Port to listen on (0: any free port).
    pub port: u16,
    /// Address to listen on.
    pub host: String,
    /// The engine every page drives, as `pasang match` spells one.
    pub engine: Option<String>,
    /// Whether to open the page in the default browser.
    pub open: bool,
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum GuiError {
    /// The `--engine` value does not parse.
    #[error("--engine: {0}")]
    Engine(#[from] SpecError),
    /// The program's own path, the default engine, is not known.
    #[error("--engine: cannot find this program: {0}")]
    OwnProgram(#[source] std::io::Error),
    /// The `--engine` value sets search limits.
    #[error("--engine: search limits are the page's to choose; give cmd= and option.<Name>= only")]
    Limits,
    /// The address cannot be listened on.
    #[error("cannot listen on {0}: {1}")]
    Bind(String, #[source] std::io::Error),
}

/// Runs the server until the process is killed.
pub fn run(args: &GuiSettings) -> Result<std::process::ExitCode, GuiError> {
    let spec = engine_spec(args.engine.as_deref())?;
    // An IPv6 address needs brackets before its port.
    let address = if args.host.contains(':') && !args.host.starts_with('[') {
        format!("[{}]:{}", args.host, args.port)
    } else {
        format!("{}:{}", args.host, args.port)
    };
    let listener = TcpListener::bind(&address).map_err(|e| GuiError::Bind(address.clone(), e))?;
    let local = listener
        .local_addr()
        .map_err(|e| GuiError::Bind(address.clone(), e))?;
    let url = format!("http://{local}/");
    println!(
        "pasang gui: open {url} (engine: {}; Ctrl-C stops)",
        spec.command_line()
    );
    if args.open {
        open_browser(&url);
    }
    serve(listener, Arc::new(spec));
    Ok(std::process::ExitCode::SUCCESS)
}

/// The engine of `--engine`, or this very program.
fn engine_spec(text: Option<&str>) -> Result<EngineSpec, GuiError> {
    let spec: EngineSpec = match text {
        Some(text) => text.parse()?,
        None => {
            let program = std::env::current_exe().map_err(GuiError::OwnProgram)?;
            let mut spec: EngineSpec = "cmd=pasang".parse().expect("a valid spec");
            spec.program = program.to_string_lossy().into_owned();
            spec
        }
    };
    if spec.limits != Default::default() {
        return Err(GuiError::Limits);
    }
    Ok(spec)
}

/// Accepts connections for ever, a thread each. Every request must
/// name this server in its `Host` by one of the names it listens as, as
/// `pasang serve`'s sockets must (DNS rebinding: a hostile name resolved
/// to this machine would start engines and read the pages here).
pub fn serve(listener: TcpListener, spec: Arc<EngineSpec>) {
    let sessions = Arc::new(AtomicUsize::new(0));
    let hosts: Arc<[String]> = match listener.local_addr() {
        Ok(local) => http::hosts::own_host_names(local).into(),
        Err(error) => {
            log::warn!("cannot read the listening address: {error}");
            return;
        }
    };
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let spec = Arc::clone(&spec);
        let sessions = Arc::clone(&sessions);
        let hosts = Arc::clone(&hosts);
        let spawned = std::thread::Builder::new()
            .name("gui connection".into())
            .spawn(move || handle(stream, &spec, &sessions, &hosts));
        if let Err(error) = spawned {
            log::warn!("cannot start a connection thread: {error}");
        }
    }
}

/// One HTTP connection: a file, an error, or a page session.
fn handle(mut stream: TcpStream, spec: &EngineSpec, sessions: &AtomicUsize, hosts: &[String]) {
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let request = http::read_head_within(&mut stream, HEAD_TIMEOUT).and_then(|head| {
        http::check_host(&head, hosts)?;
        http::parse_for(&head, PageServer::Sessions, None, hosts)
    });
    let result = match request {
        Ok(request) => match request.route {
            Route::File(kind, body) => {
                http::respond(&mut stream, (200, "OK"), kind, body, request.head_only)
            }
            Route::WebSocket { key, .. } => {
                let before = sessions.fetch_add(1, Ordering::SeqCst);
                let result = if before >= MAX_SESSIONS {
                    http::respond_error(&mut stream, &HttpError::Busy(MAX_SESSIONS))
                } else {
                    http::accept_websocket(&mut stream, &key)
                        .map(|()| connection::serve(stream, spec))
                };
                sessions.fetch_sub(1, Ordering::SeqCst);
                result
            }
        },
        Err(error) => http::respond_error(&mut stream, &error),
    };
    if let Err(error) = result {
        log::debug!("connection ended: {error}");
    }
}

/// Asks the desktop to open `url`; says so when it cannot.
fn open_browser(url: &str) {
    let command = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(target_os = "windows") {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    let started = std::process::Command::new(command.0)
        .args(&command.1)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(error) = started {
        eprintln!(
            "cannot open a browser ({}: {error}); open {url} yourself",
            command.0
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_engine_is_this_program() {
        let spec = engine_spec(None).unwrap();
        assert_eq!(
            spec.program,
            std::env::current_exe().unwrap().to_string_lossy()
        );
        let spec = engine_spec(Some("cmd=other --flag,option.Hash=32")).unwrap();
        assert_eq!(spec.args, ["--flag"]);
        assert_eq!(spec.options, [("Hash".to_string(), "32".to_string())]);
        let limits = engine_spec(Some("cmd=x,movetime=5"));
        assert!(matches!(limits, Err(GuiError::Limits)), "{limits:?}");
        let no_command = engine_spec(Some("name=x"));
        assert!(
            matches!(no_command, Err(GuiError::Engine(SpecError::MissingCommand))),
            "{no_command:?}"
        );
    }
}
