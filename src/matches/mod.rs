//! `pasang match`: engine-vs-engine matches refereed by the project's own
//! rules, and `--compliance`, a step-by-step check of one engine.
//!
//! Engines are driven through the crate's `client` module; what each pair
//! starts from comes from [`crate::schedule::openings`], and which pairs a shard
//! plays from [`crate::schedule::shard`]. The parts: `referee` (one game, every move
//! checked, verdicts), `statistics` (Elo, LOS, SPRT), `tally` (the running
//! score and its reports), `resume` (records read back, for `--resume` and
//! `--merge`), `merge` and `compliance`. The match itself: `config` (the settings
//! checked) and `runner` (the games played on worker threads); game
//! records live in [`crate::record`]. The command line that builds the
//! settings is `cli`'s.

pub(crate) mod compliance;
pub(crate) mod merge;
pub(crate) mod referee;
pub(crate) mod resume;
pub(crate) mod statistics;
pub(crate) mod tally;

mod config;
mod runner;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::client::EngineSpec;
pub(crate) use config::MatchSettings;
use config::{ConfigError, MatchConfig};
use statistics::Sprt;

/// Why `pasang match` cannot run: bad arguments, an engine that does not
/// start, records that cannot be opened, read or written.
#[derive(Debug, thiserror::Error)]
pub(crate) enum MatchError {
    /// `--compliance` without an engine to check.
    #[error("--compliance needs an --engine")]
    ComplianceWithoutEngine,
    /// `--merge` with the flags of a match.
    #[error("--merge takes records files, not --engine, --shard or --resume")]
    MergeWithMatchFlags,
    /// The arguments do not make a match.
    #[error(transparent)]
    Config(ConfigError),
    /// `--sprt` of a merge does not describe a test.
    #[error("--sprt: {0}")]
    Sprt(statistics::SprtError),
    /// Shards' records cannot be merged.
    #[error(transparent)]
    Merge(merge::MergeError),
    /// The merged records cannot be written.
    #[error("cannot write '{}': {error}", .path.display())]
    WriteMerged {
        path: std::path::PathBuf,
        #[source]
        error: std::io::Error,
    },
    /// An engine does not start or answer its handshake.
    #[error("engine {name} ({command}): {error}")]
    EngineStart {
        name: String,
        command: String,
        #[source]
        error: crate::client::ClientError,
    },
    /// The records file (`--out`) cannot be opened or resumed.
    #[error(transparent)]
    RecordsFile(runner::RecordsFileError),
    /// The records file could not be written to the end.
    #[error("cannot write the game records")]
    RecordsUnwritten,
}

impl MatchError {
    /// The process's exit code: 2 for what stopped the match before it
    /// began (as clap's usage errors), 1 for records lost on the way.
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            MatchError::RecordsUnwritten => 1,
            _ => 2,
        }
    }
}

/// Plays the match `settings` describe. Exit code 0 done, 1 a game that
/// failed.
pub(crate) fn play(settings: &MatchSettings) -> Result<ExitCode, MatchError> {
    MatchConfig::new(settings)
        .map_err(MatchError::Config)?
        .play()
}

/// Exit code 1 where something failed, else 0.
fn failed_if(failed: bool) -> ExitCode {
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `pasang match compliance` (`--compliance`): checks each engine in turn;
/// exit code 0 when all pass, 1 otherwise.
pub(crate) fn check_compliance(engines: &[EngineSpec]) -> ExitCode {
    let mut all = true;
    for spec in engines {
        println!("Compliance of {} ({}):", spec.name, spec.command_line());
        all &= compliance::check(spec);
    }
    failed_if(!all)
}

/// `pasang match merge` (`--merge`): the summary of the shards' records,
/// under the SPRT of `sprt` (its words) if given, written to `out` if
/// given.
pub(crate) fn merge_shards(
    files: &[PathBuf],
    sprt: Option<&str>,
    out: Option<&Path>,
) -> Result<ExitCode, MatchError> {
    let sprt = sprt
        .map(Sprt::parse)
        .transpose()
        .map_err(MatchError::Sprt)?;
    merge::run(files, sprt.as_ref(), out)
}
