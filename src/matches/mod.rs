//! `pasang match`: engine-vs-engine matches refereed by the project's own
//! rules, and `--compliance`, a step-by-step check of one engine.
//!
//! Engines are driven through the crate's `client` module. The parts: `openings` (rule sets, start positions
//! and opening plies per game pair), `referee` (one game, every move
//! checked, verdicts), `statistics` (Elo, LOS, SPRT), `tally` (the
//! running score and its reports), `shard` (`--shard` and `--resume`), `merge`
//! (`--merge`) and `compliance`. The match itself: `args` (the command
//! line), `config` (the arguments checked) and `runner` (the games played
//! on worker threads); game records live in
//! [`crate::record`]. This file chooses between match, merge and
//! compliance check: `pasang match compliance` and `pasang match merge`
//! are subcommands of their own, and the older flags `--compliance` and
//! `--merge` do the same.

pub(crate) mod compliance;
pub(crate) mod merge;
pub(crate) mod openings;
pub(crate) mod referee;
pub(crate) mod shard;
pub(crate) mod statistics;
pub(crate) mod tally;

mod args;
mod config;
mod runner;

pub(crate) use args::MatchArgs;
use args::MatchTool;
use config::MatchConfig;
use statistics::Sprt;

/// Exit code for bad arguments, as clap uses.
const USAGE_ERROR: i32 = 2;

fn usage_error(message: &str) -> i32 {
    eprintln!("error: {message}");
    USAGE_ERROR
}

/// Runs a match (or the compliance check); returns the process exit code:
/// 0 done, 1 a failure while running (or a failed compliance step), 2 bad
/// arguments or an engine that cannot be started.
pub(crate) fn run(args: &MatchArgs) -> i32 {
    match &args.tool {
        Some(MatchTool::Compliance(tool)) => return check_compliance(&tool.engines),
        Some(MatchTool::Merge(tool)) => {
            return merge_shards(&tool.files, tool.sprt.as_deref(), tool.out.as_deref());
        }
        None => {}
    }
    if args.compliance {
        if args.engines.is_empty() {
            return usage_error("--compliance needs an --engine");
        }
        return check_compliance(&args.engines);
    }
    if !args.merge.is_empty() {
        if !args.engines.is_empty() || args.shard.is_some() || args.resume {
            return usage_error("--merge takes records files, not --engine, --shard or --resume");
        }
        return merge_shards(&args.merge, args.sprt.as_deref(), args.out.as_deref());
    }
    let config = match MatchConfig::from_args(args) {
        Ok(config) => config,
        Err(error) => return usage_error(&error.to_string()),
    };
    config.play()
}

/// `pasang match compliance` (`--compliance`): checks each engine in turn;
/// 0 when all pass, 1 otherwise.
fn check_compliance(engines: &[crate::client::EngineSpec]) -> i32 {
    let mut all = true;
    for spec in engines {
        println!("Compliance of {} ({}):", spec.name, spec.command_line());
        all &= compliance::check(spec);
    }
    if all { 0 } else { 1 }
}

/// `pasang match merge` (`--merge`): the summary of the shards' records,
/// under the SPRT of `sprt` (its words) if given, written to `out` if
/// given.
fn merge_shards(
    files: &[std::path::PathBuf],
    sprt: Option<&[String]>,
    out: Option<&std::path::Path>,
) -> i32 {
    let sprt = match sprt {
        Some(words) => match Sprt::parse(&words.join(" ")) {
            Ok(sprt) => Some(sprt),
            Err(error) => return usage_error(&format!("--sprt: {error}")),
        },
        None => None,
    };
    merge::run(files, sprt.as_ref(), out)
}
