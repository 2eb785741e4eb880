//! Pasang, the traditional capture game of Brunei: rules, move generation,
//! search and the engine protocol.
//!
//! The layout follows the engine's architecture: [`bitboard`] (points and
//! sets), [`rules`] (options and layouts), [`position`] (state and moves
//! made by copy), [`zobrist`], [`moves`], [`movegen`], [`notation`],
//! [`outcome`], [`perft`].

pub mod bench;
pub mod bitboard;
pub mod build;
pub mod cli;
pub mod datagen;
pub mod engine;
pub mod eval;
pub mod matches;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod tt;
pub mod tune;
pub mod zobrist;
