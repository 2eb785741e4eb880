//! `pasang gui`: a board in the browser. A local web server hands out one
//! page (plain HTML, CSS and JavaScript embedded in the binary) and, for
//! each page that connects, starts an engine process of its own and talks
//! to it through the public protocol only; the page's game is a
//! [`crate::session::Session`].
//!
//! - `server`: `pasang gui`'s listener, one connection per page (the
//!   page's files and its WebSocket through [`crate::page`]);
//! - [`connection`]: one page's socket, its engine process, the loop.

pub mod connection;
mod server;

pub use server::{GuiError, GuiSettings, run};
