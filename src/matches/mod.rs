//! `pasang match`: engine-vs-engine matches refereed by the project's own
//! rules, and `--compliance`, a step-by-step check of one engine.
//!
//! Engines are driven through the crate's `client` module; what each pair
//! starts from comes from [`crate::schedule::openings`], and which pairs a shard
//! plays from [`crate::schedule::shard`]. The parts: `referee` (one game, every move
//! checked, verdicts), `statistics` (Elo, LOS, SPRT), `tally` (the running
//! score and its reports), `resume` (records read back, for `--resume` and
//! `--merge`), `merge` and `compliance`. The match itself: `args` (the
//! command line), `config` (the arguments checked) and `runner` (the games
//! played on worker threads); game records live in [`crate::record`]. This
//! file chooses between match, merge and compliance check: `pasang match
//! compliance` and `pasang match merge` are subcommands of their own, and
//! the older flags `--compliance` and `--merge` do the same.

pub(crate) mod compliance;
pub(crate) mod merge;
pub(crate) mod referee;
pub(crate) mod resume;
pub(crate) mod statistics;
pub(crate) mod tally;

mod args;
mod config;
mod runner;

pub(crate) use args::MatchArgs;
use args::MatchTool;
use std::process::ExitCode;

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

/// Runs a match (or the compliance check, or a merge). Exit code 0 done,
/// 1 a game or step that failed (or pairs missing from a merge).
pub(crate) fn run(args: &MatchArgs) -> Result<ExitCode, MatchError> {
    match &args.tool {
        Some(MatchTool::Compliance(tool)) => return Ok(check_compliance(&tool.engines)),
        Some(MatchTool::Merge(tool)) => {
            return merge_shards(&tool.files, tool.sprt.as_deref(), tool.out.as_deref());
        }
        None => {}
    }
    if args.compliance {
        if args.engines.is_empty() {
            return Err(MatchError::ComplianceWithoutEngine);
        }
        return Ok(check_compliance(&args.engines));
    }
    if !args.merge.is_empty() {
        if !args.engines.is_empty() || args.shard.is_some() || args.resume {
            return Err(MatchError::MergeWithMatchFlags);
        }
        return merge_shards(&args.merge, args.sprt.as_deref(), args.out.as_deref());
    }
    MatchConfig::from_args(args)
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
fn check_compliance(engines: &[crate::client::EngineSpec]) -> ExitCode {
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
fn merge_shards(
    files: &[std::path::PathBuf],
    sprt: Option<&[String]>,
    out: Option<&std::path::Path>,
) -> Result<ExitCode, MatchError> {
    let sprt = sprt
        .map(|words| Sprt::parse(&words.join(" ")))
        .transpose()
        .map_err(MatchError::Sprt)?;
    merge::run(files, sprt.as_ref(), out)
}
