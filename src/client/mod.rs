//! The client side of the protocol: the project's own code for driving an
//! engine (ours or another) over UCI or UGI, in the manner of
//! python-chess's engine module and fastchess's engine process. The
//! referee, the compliance check and the board all use it; none writes a
//! protocol line or reads an `info` line by itself.
//!
//! The parts: `protocol` (UCI or UGI: the words that differ), `spec`
//! (what `--engine` says: the command, a name, the options), `limits`
//! (time control and `go` limits of a match, and the wait they allow),
//! `command` (a [`crate::protocol::Command`] written as the line an
//! engine reads, the same type the engine parses) and `process` (a child engine over pipes: typed
//! commands, every wait bounded, stderr kept for diagnostics).

// Without the tools, only the board's session (which the browser build
// runs) uses the client, and not all of it.
#![cfg_attr(not(feature = "cli"), allow(dead_code))]

// The board's session (which the browser build runs too) needs only the
// writer and the parser of lines; processes and match limits are the
// native tools'.
mod command;
#[cfg(feature = "cli")]
mod limits;
#[cfg(feature = "cli")]
mod process;
mod protocol;
#[cfg(feature = "cli")]
mod spec;

pub(crate) use crate::protocol::{EngineScore, InfoLine};
#[cfg(test)]
pub(crate) use command::line;
#[cfg(feature = "cli")]
pub(crate) use command::rule_settings;
#[cfg(feature = "cli")]
pub(crate) use limits::{MatchLimits, TimeControl, TimeControlError};
#[cfg(feature = "cli")]
pub(crate) use process::{ClientError, EngineProcess, Identity, refusals};
#[cfg(feature = "cli")]
pub(crate) use protocol::Protocol;
#[cfg(feature = "cli")]
pub(crate) use spec::{EngineSpec, SpecError, distinct_names};
