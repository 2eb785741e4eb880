//! `pasang match`: the command line, as clap reads it, turned into the
//! plain settings of [`crate::matches`]; and the choice between a match,
//! a merge and a compliance check (`pasang match compliance` and `pasang
//! match merge` are subcommands of their own, and the older flags
//! `--compliance` and `--merge` do the same).

use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;
use std::time::Duration;

use clap::{Args, Subcommand};

use super::rule_sets::RuleSetArgs;
use crate::client::{EngineSpec, MatchLimits, SpecError, TimeControl, TimeControlError};
use crate::matches::{self, MatchError, MatchSettings};
use crate::schedule::shard::Shard;

/// Arguments of `pasang match`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub(super) struct MatchArgs {
    /// The match's other tools; without one, a match is played.
    #[command(subcommand)]
    tool: Option<MatchTool>,
    /// An engine: cmd=<command>[,name=<n>][,proto=uci|ugi]
    /// [,option.<Name>=<value>...][,tc=..][,movetime=..][,depth=..]
    /// [,nodes=..] (twice for a match, once or more with --compliance).
    /// proto=ugi drives a UGI engine (uci by default). Limits given here
    /// replace the match's limits for this engine.
    #[arg(long = "engine", value_name = "SPEC", value_parser = parse_spec)]
    engines: Vec<EngineSpec>,
    /// Check each engine's protocol manners step by step instead of
    /// playing a match (as `pasang match compliance`).
    #[arg(long)]
    compliance: bool,
    /// Clock per player: <seconds>+<increment>, e.g. 10+0.1.
    #[arg(long, value_name = "TC", value_parser = parse_tc)]
    tc: Option<TimeControl>,
    /// Fixed time per move, in milliseconds. Each engine keeps its own
    /// margin out of it: pasang's `Move Overhead` (10 ms by default), so
    /// `--movetime 10` leaves pasang about 1 ms of search; for moves that
    /// short give each pasang `option.Move Overhead=0`.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Fixed search depth.
    #[arg(long)]
    depth: Option<u32>,
    /// Fixed node count per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Games to play, rounded up to whole pairs (default 2, or unbounded
    /// with --sprt).
    #[arg(long)]
    games: Option<u64>,
    /// Games played at once, each by its own pair of engine processes.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// The rule sets the pairs cycle through.
    #[command(flatten)]
    rules: RuleSetArgs,
    /// A file of start positions: one position string per line,
    /// optionally followed by `moves <ply>...`.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Random legal plies played from each opening before the engines
    /// take over (the same plies for both games of a pair; datagen's
    /// default is 4).
    #[arg(long, default_value_t = 0, value_name = "K")]
    random_plies: usize,
    /// Seed of the random plies (default: taken from the clock and
    /// printed; datagen's default is 1).
    #[arg(long)]
    seed: Option<u64>,
    /// Sequential test: elo0=<a> elo1=<b> [alpha=<x>] [beta=<y>]; the
    /// match stops when a bound is crossed.
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
    /// Write a record of every game to this file.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Play only shard K of N: the game pairs whose index i (from 0) has
    /// i mod N = K-1, with the openings the whole match gives them.
    /// Needs --seed and --games.
    #[arg(long, value_name = "K/N", value_parser = Shard::from_str)]
    shard: Option<Shard>,
    /// Keep the games already in the --out file (dropping a half-written
    /// last record), skip them, and append the rest.
    #[arg(long)]
    resume: bool,
    /// Print the summary of the records in these files (the shards of one
    /// match) instead of playing; with --out, write all their records to
    /// one file in game order (as `pasang match merge`).
    #[arg(long, num_args = 1.., value_name = "FILE")]
    merge: Vec<PathBuf>,
    /// Milliseconds an engine may exceed its time before losing on time
    /// (30 by default, so that the scheduling delays of a busy machine do
    /// not cost games; 0 for none).
    #[arg(long, default_value_t = 30, value_name = "MS")]
    time_margin: u64,
    /// Longest wait for a bestmove when neither --tc nor --movetime bounds
    /// it, in seconds (exceeding it loses on time).
    #[arg(long, default_value_t = 300, value_name = "S")]
    move_timeout: u64,
    /// Longest wait for readyok, in milliseconds (exceeding it: the
    /// connection stalls).
    #[arg(long, default_value_t = 10_000, value_name = "MS")]
    ping_timeout: u64,
    /// Print a status line every N games (and at the end).
    #[arg(long, default_value_t = 10, value_name = "N")]
    report_every: u64,
}

/// The tools of `pasang match` beside the match itself.
#[derive(Subcommand, Debug)]
pub(super) enum MatchTool {
    /// Checks each engine's protocol manners step by step (the same as
    /// pasang match --compliance).
    Compliance(ComplianceArgs),
    /// Prints the summary of the records of one match's shards; with
    /// --out, writes all their records to one file in game order (the
    /// same as pasang match --merge).
    Merge(MergeArgs),
}

/// Arguments of `pasang match compliance`.
#[derive(Args, Debug)]
pub(super) struct ComplianceArgs {
    /// An engine to check, as `pasang match --engine` takes it; once or
    /// more.
    #[arg(long = "engine", value_name = "SPEC", value_parser = parse_spec, required = true)]
    engines: Vec<EngineSpec>,
}

/// Arguments of `pasang match merge`.
#[derive(Args, Debug)]
pub(super) struct MergeArgs {
    /// The records files of the shards.
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Sequential test of the merged games: elo0=<a> elo1=<b>
    /// [alpha=<x>] [beta=<y>].
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
    /// Write all the records to this file, in game order.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Runs a match (or the compliance check, or a merge). Exit code 0 done,
/// 1 a game or step that failed (or pairs missing from a merge).
pub(super) fn run(args: &MatchArgs) -> Result<ExitCode, MatchError> {
    match &args.tool {
        Some(MatchTool::Compliance(tool)) => return Ok(matches::check_compliance(&tool.engines)),
        Some(MatchTool::Merge(tool)) => {
            let sprt = tool.sprt.as_ref().map(|words| words.join(" "));
            return matches::merge_shards(&tool.files, sprt.as_deref(), tool.out.as_deref());
        }
        None => {}
    }
    if args.compliance {
        if args.engines.is_empty() {
            return Err(MatchError::ComplianceWithoutEngine);
        }
        return Ok(matches::check_compliance(&args.engines));
    }
    if !args.merge.is_empty() {
        if !args.engines.is_empty() || args.shard.is_some() || args.resume {
            return Err(MatchError::MergeWithMatchFlags);
        }
        let sprt = args.sprt.as_ref().map(|words| words.join(" "));
        return matches::merge_shards(&args.merge, sprt.as_deref(), args.out.as_deref());
    }
    matches::play(&args.settings())
}

impl MatchArgs {
    /// The match the flags ask for, unchecked.
    fn settings(&self) -> MatchSettings {
        MatchSettings {
            engines: self.engines.clone(),
            limits: MatchLimits {
                clock: self.tc,
                movetime: self.movetime,
                depth: self.depth,
                nodes: self.nodes,
            },
            games: self.games,
            concurrency: self.concurrency,
            rule_sets: self.rules.rule_sets(),
            openings: self.openings.clone(),
            random_plies: self.random_plies,
            seed: self.seed,
            sprt: self.sprt.as_ref().map(|words| words.join(" ")),
            out: self.out.clone(),
            shard: self.shard,
            resume: self.resume,
            time_margin: Duration::from_millis(self.time_margin),
            move_timeout: Duration::from_secs(self.move_timeout.max(1)),
            ping_timeout: Duration::from_millis(self.ping_timeout.max(1)),
            report_every: self.report_every,
        }
    }
}

fn parse_spec(text: &str) -> Result<EngineSpec, SpecError> {
    text.parse()
}

fn parse_tc(text: &str) -> Result<TimeControl, TimeControlError> {
    text.parse()
}
