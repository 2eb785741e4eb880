//! How a subcommand fails. Every subcommand's `run` gives a [`CliError`];
//! [`super::run`] prints it after `error: ` and exits with code 1. The
//! kinds of failure (a file, the output, a bad position) are shared by
//! the subcommands, so one type says them all once.

use std::io;
use std::path::PathBuf;

use crate::datagen::DatagenError;
use crate::eval::features::NAMES;
use crate::gui::GuiError;
use crate::matches::MatchError;
use crate::protocol::LogFileError;
use crate::record::RecordError;
use crate::review::ReviewError;
use crate::tt::TableError;
use crate::tune::TuneError;

/// Why a subcommand failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    /// `--fen` and `--moves` (or a record's start and moves) give no game.
    #[error(transparent)]
    Replay(#[from] crate::record::StartMovesError),
    /// An input file cannot be read.
    #[error("cannot read '{path}': {1}", path = .0.display())]
    Read(PathBuf, #[source] io::Error),
    /// An output file cannot be written.
    #[error("cannot write '{path}': {1}", path = .0.display())]
    Write(PathBuf, #[source] io::Error),
    /// Standard output cannot be written.
    #[error("cannot write the output: {0}")]
    Output(#[source] io::Error),
    /// The terminal of `play` failed.
    #[error("terminal input/output failed: {0}")]
    Terminal(#[source] io::Error),
    /// A pool of this many threads cannot be started.
    #[error("cannot start {0} threads: {1}")]
    Threads(usize, #[source] rayon::ThreadPoolBuildError),
    /// A records file does not parse.
    #[error("'{path}': {1}", path = .0.display())]
    Records(PathBuf, #[source] RecordError),
    /// A records file has no game of this number (from 1).
    #[error("game {game} is not in '{}' ({count} games)", .path.display())]
    NoSuchGame {
        path: PathBuf,
        game: usize,
        /// The games it holds.
        count: usize,
    },
    /// A record's rule tags name no rule.
    #[error(transparent)]
    RecordRules(crate::rules::RulesError),
    /// `--without` names a term the evaluation does not have.
    #[error("unknown term '{0}' in --without; the terms are {names}", names = NAMES.join(", "))]
    UnknownTerm(String),
    /// `--without` names the margin, which sets the scale of the fit.
    #[error("the margin sets the scale and cannot be left out")]
    MarginLeftOut,
    /// A datagen file gives no samples to fit.
    #[error("'{path}': {1}", path = .0.display())]
    Samples(PathBuf, #[source] TuneError),
    /// The fit failed.
    #[error(transparent)]
    Tune(TuneError),
    /// `tune --spsa` failed.
    #[error(transparent)]
    Spsa(super::spsa::SpsaError),
    /// `datagen` was given neither `--games` nor `--positions`.
    #[error("give --games or --positions")]
    NoTarget,
    /// A datagen run failed.
    #[error(transparent)]
    Datagen(DatagenError),
    /// `puzzles` failed.
    #[error(transparent)]
    Puzzles(crate::puzzles::PuzzlesError),
    /// Merging datagen shards failed.
    #[error(transparent)]
    Pack(crate::datagen::packed::PackError),
    /// The reviewer cannot be set up.
    #[error(transparent)]
    Review(ReviewError),
    /// The engine's table cannot be had at the size asked for.
    #[error(transparent)]
    Table(TableError),
    /// The protocol's log file cannot be opened.
    #[error(transparent)]
    LogFile(LogFileError),
    /// The browser board cannot be served.
    #[error(transparent)]
    Gui(GuiError),
    /// The room server cannot be served.
    #[error(transparent)]
    Serve(crate::serve::ServeError),
    /// `pasang serve --check` found a fault in the data folder.
    #[error(transparent)]
    ServeCheck(crate::serve::check::CheckError),
    /// `pasang match` cannot run.
    #[error(transparent)]
    Match(MatchError),
    /// A suite file that cannot be used.
    #[error("'{path}': {1}", path = .0.display())]
    Suite(PathBuf, #[source] crate::suite::EntryError),
    /// `pasang suite --make` without `--out`.
    #[error("--make writes its suite to the --out file: give --out")]
    SuiteNeedsOut,
    /// The suite's engine failed.
    #[error(transparent)]
    Solve(crate::suite::solve::SolveError),
    /// An `--engine` that does not parse.
    #[error("--engine: {0}")]
    Engine(crate::client::SpecError),
    /// This program's own path is unknown.
    #[error("cannot find this program's own path: {0}")]
    OwnProgram(#[source] io::Error),
}

impl CliError {
    /// The process's exit code for this failure: 1, or what the match
    /// tool says of its own.
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            CliError::Match(error) => error.exit_code(),
            _ => 1,
        }
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
