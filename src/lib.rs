//! Pasang, the traditional capture game of Brunei: rules, move generation,
//! search and the engine protocol.
//!
//! The layout follows the engine's architecture: [`bitboard`] (points and
//! sets), [`rules`] (options and layouts), [`position`] (state and moves
//! made by copy), `zobrist`, [`moves`], [`movegen`], [`notation`],
//! [`outcome`], [`perft`], then [`eval`], [`search`], [`tt`], the
//! [`engine`] facade, [`protocol`], [`record`] (game records), the [`cli`] tools, `client` (driving
//! an engine process over the protocol), [`matches`](mod@matches),
//! [`review`], [`puzzles`] and [`datagen`], `tune` (fitting the evaluation's weights)
//! and `gui` (a board in the browser that drives an engine through the
//! protocol).
//!
//! # The public API
//!
//! What is `pub` is what the `pasang` binary, the integration tests, the
//! benches and the fuzz targets use; everything else is `pub(crate)`, so
//! the dead-code lint sees it:
//!
//! - the game: [`rules::Rules`] and its options, [`position::Position`]
//!   with [`position::Player`], [`position::Colour`] and
//!   [`position::Phase`], [`bitboard::Bitboard`] and [`bitboard::Square`],
//!   [`moves::Move`], [`movegen::legal_moves`] and [`movegen::count_moves`],
//!   [`outcome::Status`], [`perft::perft`] and [`perft::divide`];
//! - text: [`notation::parse_position`], [`notation::format_position`] and
//!   [`notation::parse_move`] with their typed errors, and
//!   [`notation::canonical_move`] (a move's text without a position);
//! - the search: a [`search::Searcher`] (owning the
//!   [`tt::TranspositionTable`], the [`search::ProvenResults`] and its
//!   helper threads) with its [`search::Limits`], [`search::Settings`],
//!   [`search::Signals`] and a [`search::Listener`] (or
//!   [`search::Silent`]), giving a [`search::SearchResult`];
//! - the [`engine::Engine`] facade, typed (used by [`datagen`]);
//! - [`eval`], whose terms the tuner's tests count;
//! - [`protocol::Command`], the parsed protocol line (fuzzed);
//! - [`cli::run`], the binary's entry point, and [`svg`], the board's
//!   picture (which `show --svg` and the Python module draw);
//! - [`record`], reading match records, and the training-data
//!   format of [`datagen`];
//! - [`review`], the game review behind `pasang annotate` and the board's
//!   review mode;
//! - [`learn`], the course of the board's Learn mode, checked against
//!   the rules;
//! - [`rl`], the action ids, observation planes, symmetries and batched
//!   games that the Python module's learning environments wrap.

pub(crate) mod bench;
pub mod bitboard;
#[cfg(feature = "cli")]
pub mod cli;
pub(crate) mod client;
#[cfg(feature = "cli")]
pub mod datagen;
pub mod engine;
pub mod eval;
#[cfg(feature = "cli")]
pub(crate) mod gui;
pub mod host;
#[cfg(feature = "cli")]
pub mod http;
pub mod illegal;
pub mod learn;
#[cfg(feature = "cli")]
pub mod matches;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod outcome;
pub mod page;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod puzzles;
pub mod record;
pub mod review;
pub mod rl;
pub mod rules;
#[cfg(feature = "cli")]
pub mod schedule;
pub mod search;
#[cfg(feature = "cli")]
pub(crate) mod serve;
pub(crate) mod session;
#[cfg(feature = "cli")]
pub mod suite;
pub mod svg;
pub mod tt;

/// What the browser build (`web/`) runs beyond the engine: the board's
/// session with its engine in one thread, and the rules pages.
pub mod browser {
    pub use crate::page::rules_page::{
        page as rules_page, picture as rules_picture, spec as rules_spec,
    };
    pub use crate::session::in_process::InProcessBoard;
}
#[cfg(feature = "cli")]
pub(crate) mod tune;
pub(crate) mod version;
pub use version::VERSION;
pub(crate) mod zobrist;
