//! `pasang gui`: a board in the browser. A local web server hands out one
//! page (plain HTML, CSS and JavaScript embedded in the binary) and, for
//! each page that connects, starts an engine process of its own and talks
//! to it through the public protocol only.
//!
//! - `server`: `pasang gui`'s listener, one connection per page (the
//!   page's files and its WebSocket through [`crate::page`]);
//! - [`connection`]: one page's socket, its engine process, the loop;
//! - [`transport`]: a session's two ends as traits, the page's
//!   ([`transport::PageLink`]) and the engine's ([`transport::EngineLink`],
//!   a process or in-process alike), and the turn that moves what waits;
//! - [`in_process`]: the session with the engine in the same thread (the
//!   static page's Web Worker);
//! - [`request`]: the page's messages parsed into typed requests;
//! - [`message`]: the messages to the page, as types;
//! - [`session`]: the session as a state machine (modes, searches), with
//!   no I/O;
//! - [`mode`]: the board's modes (play, analyse, watch, review, friend);
//! - [`clock`]: the optional clock of play mode;
//! - [`review`]: review mode: a record file's games and a game's review.

pub mod clock;
#[cfg(feature = "cli")]
pub mod connection;
pub mod in_process;
pub mod message;
pub mod mode;
pub mod request;
pub mod review;
#[cfg(feature = "cli")]
mod server;
pub mod session;
pub mod transport;

#[cfg(feature = "cli")]
pub use server::{GuiError, GuiSettings, run};
