//! The board page's layer under both servers (`pasang gui`'s sessions
//! and `pasang serve`'s rooms), which import it and never each other:
//!
//! - [`assets`]: the page's files, embedded, and its HTML for each server;
//! - [`http`]: the little HTTP the page needs and the WebSocket upgrade;
//! - `outbound`: a socket's bounded queue of frames and its writer;
//! - [`wire`]: the types both servers send (the board, the clocks, the
//!   rule options, the modes' names);
//! - [`game`]: the game shown, checked by the rules core;
//! - [`rules_page`]: the rules page, from docs/rules.md.

pub mod assets;
pub mod game;
#[cfg(feature = "cli")]
pub mod http;
#[cfg(feature = "cli")]
pub(crate) mod outbound;
pub mod rules_page;
pub mod wire;
