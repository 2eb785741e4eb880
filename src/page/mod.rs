//! The page wing: the board page under both servers (`pasang gui`'s
//! sessions and `pasang serve`'s rooms), which import it and never each
//! other, and serve it through the server wing, [`crate::http`]:
//!
//! - [`assets`]: the page's files, embedded, and its HTML for each server;
//! - [`wire`]: the types both servers send (the board, the clocks, the
//!   rule options, the modes' names);
//! - [`game`]: the game shown, checked by the rules core;
//! - [`rules_page`]: the rules page, from docs/rules.md.

pub mod assets;
pub mod game;
pub mod rules_page;
pub mod wire;
