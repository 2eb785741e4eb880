//! How a subcommand fails. Every subcommand's `run` gives a [`CliError`];
//! [`super::run`] prints it after `error: ` and exits with code 1. The
//! kinds of failure (a file, the output, a bad position) are shared by
//! the subcommands, so one type says them all once.

use std::fmt;
use std::io;
use std::path::PathBuf;

use crate::datagen::DatagenError;
use crate::engine::EngineError;
use crate::eval::features::NAMES;
use crate::gui::GuiError;
use crate::matches::records::RecordError;
use crate::notation::{ListMoveError, PositionError};
use crate::protocol::LogFileError;
use crate::rules::OptionValueError;
use crate::tune::TuneError;

/// Why a base position and a move list give no game: the error of
/// [`super::Replay::new`].
#[derive(Clone, Debug, Eq, PartialEq)]
pub(crate) enum ReplayError {
    /// The position string does not parse.
    Position(PositionError),
    /// A move does not parse or is illegal where the list reaches it.
    Move(ListMoveError),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Position(error) => write!(f, "invalid position: {error}"),
            ReplayError::Move(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for ReplayError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReplayError::Position(error) => Some(error),
            ReplayError::Move(error) => Some(error),
        }
    }
}

/// Why a subcommand failed.
#[derive(Debug)]
pub(crate) enum CliError {
    /// `--fen` and `--moves` (or a record's start and moves) give no game.
    Replay(ReplayError),
    /// An input file cannot be read.
    Read(PathBuf, io::Error),
    /// An output file cannot be written.
    Write(PathBuf, io::Error),
    /// Standard output cannot be written.
    Output(io::Error),
    /// The terminal of `play` failed.
    Terminal(io::Error),
    /// A pool of this many threads cannot be started.
    Threads(usize, rayon::ThreadPoolBuildError),
    /// A records file does not parse.
    Records(PathBuf, RecordError),
    /// A records file has no game of this number (from 1).
    NoSuchGame {
        path: PathBuf,
        game: usize,
        /// The games it holds.
        count: usize,
    },
    /// A record's rule tags name no rule.
    RecordRules(OptionValueError),
    /// `--without` names a term the evaluation does not have.
    UnknownTerm(String),
    /// `--without` names the margin, which sets the scale of the fit.
    MarginLeftOut,
    /// A datagen file gives no samples to fit.
    Samples(PathBuf, TuneError),
    /// The fit failed.
    Tune(TuneError),
    /// `datagen` was given neither `--games` nor `--positions`.
    NoTarget,
    /// A datagen run failed.
    Datagen(DatagenError),
    /// Merging datagen shards failed.
    Pack(crate::datagen::packed::PackError),
    /// The engine refused a setting.
    Engine(EngineError),
    /// The protocol's log file cannot be opened.
    LogFile(LogFileError),
    /// The browser board cannot be served.
    Gui(GuiError),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Replay(error) => write!(f, "{error}"),
            CliError::Read(path, error) => write!(f, "cannot read '{}': {error}", path.display()),
            CliError::Write(path, error) => {
                write!(f, "cannot write '{}': {error}", path.display())
            }
            CliError::Output(error) => write!(f, "cannot write the output: {error}"),
            CliError::Terminal(error) => write!(f, "terminal input/output failed: {error}"),
            CliError::Threads(count, error) => write!(f, "cannot start {count} threads: {error}"),
            CliError::Records(path, error) => write!(f, "'{}': {error}", path.display()),
            CliError::NoSuchGame { path, game, count } => write!(
                f,
                "game {game} is not in '{}' ({count} games)",
                path.display()
            ),
            CliError::RecordRules(error) => write!(f, "{error}"),
            CliError::UnknownTerm(name) => write!(
                f,
                "unknown term '{name}' in --without; the terms are {}",
                NAMES.join(", ")
            ),
            CliError::MarginLeftOut => {
                f.write_str("the margin sets the scale and cannot be left out")
            }
            CliError::Samples(path, error) => write!(f, "'{}': {error}", path.display()),
            CliError::Tune(error) => write!(f, "{error}"),
            CliError::NoTarget => f.write_str("give --games or --positions"),
            CliError::Datagen(error) => write!(f, "{error}"),
            CliError::Pack(error) => write!(f, "{error}"),
            CliError::Engine(error) => write!(f, "{error}"),
            CliError::LogFile(error) => write!(f, "{error}"),
            CliError::Gui(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for CliError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CliError::Replay(error) => Some(error),
            CliError::Read(_, error)
            | CliError::Write(_, error)
            | CliError::Output(error)
            | CliError::Terminal(error) => Some(error),
            CliError::Threads(_, error) => Some(error),
            CliError::Records(_, error) => Some(error),
            CliError::RecordRules(error) => Some(error),
            CliError::Samples(_, error) | CliError::Tune(error) => Some(error),
            CliError::Datagen(error) => Some(error),
            CliError::Pack(error) => Some(error),
            CliError::Engine(error) => Some(error),
            CliError::LogFile(error) => Some(error),
            CliError::Gui(error) => Some(error),
            CliError::NoSuchGame { .. }
            | CliError::UnknownTerm(_)
            | CliError::MarginLeftOut
            | CliError::NoTarget => None,
        }
    }
}

impl From<ReplayError> for CliError {
    fn from(error: ReplayError) -> CliError {
        CliError::Replay(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_keep_their_wording() {
        let missing = || io::Error::from(io::ErrorKind::NotFound);
        let cases = [
            (
                CliError::Read("a.pgn".into(), missing()),
                format!("cannot read 'a.pgn': {}", missing()),
            ),
            (
                CliError::NoSuchGame {
                    path: "a.pgn".into(),
                    game: 3,
                    count: 2,
                },
                "game 3 is not in 'a.pgn' (2 games)".to_string(),
            ),
            (
                CliError::NoTarget,
                "give --games or --positions".to_string(),
            ),
            (
                CliError::MarginLeftOut,
                "the margin sets the scale and cannot be left out".to_string(),
            ),
        ];
        for (error, message) in cases {
            assert_eq!(error.to_string(), message);
        }
        let unknown = CliError::UnknownTerm("speed".into()).to_string();
        assert!(
            unknown.starts_with("unknown term 'speed' in --without; the terms are "),
            "{unknown}"
        );
    }
}
