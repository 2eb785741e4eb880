//! `pasang tune --spsa`: tunes the search's constants by SPSA in game
//! pairs at fixed nodes or under a clock (see [`crate::tune::spsa`] and
//! docs/spsa.md). One state file holds a run; the command starts it
//! (`--new`), continues it, plays one shard of the current iteration
//! (`--shard`, `--results`), or merges the shards into the iteration's
//! update (`--merge`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use clap::Args;

use super::CliError;
use super::rule_sets::RuleSetArgs;
use crate::client::TimeControl;
use crate::rules::Rules;
use crate::schedule::shard::Shard;
use crate::search::TUNABLES;
use crate::search::params::find;
use crate::tune::spsa::play::{PlayError, Players};
use crate::tune::spsa::shard::{MergeError, ShardResult, merge, pairs_of};
use crate::tune::spsa::state::{GameLimit, Run, StateError, StateFileError, append_log};
use crate::tune::spsa::{R_END, Schedule, Tuned};

/// Why `pasang tune --spsa` failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SpsaError {
    /// `--spsa` without `--state`.
    #[error("--spsa needs --state FILE")]
    NoState,
    /// `--new` over an existing state.
    #[error("'{}' exists: continue it without --new, or give another --state", .0.display())]
    Exists(PathBuf),
    /// No state to continue.
    #[error("'{}' does not exist: start a run with --new", .0.display())]
    NoSuchState(PathBuf),
    /// `--params` names no tunable.
    #[error("unknown search parameter '{0}' in --params; the parameters are {names}",
            names = TUNABLES.iter().map(|t| t.name).collect::<Vec<_>>().join(", "))]
    UnknownParam(String),
    /// `--shard` without `--results`, or the reverse.
    #[error("--shard and --results go together")]
    ShardWithoutResults,
    /// The state file cannot be read.
    #[error(transparent)]
    State(#[from] StateFileError),
    /// The state, the log or the results cannot be written, or a new run's
    /// numbers do not make one.
    #[error(transparent)]
    Write(#[from] StateError),
    /// The games could not be played.
    #[error(transparent)]
    Play(#[from] PlayError),
    /// The shards cannot be merged.
    #[error(transparent)]
    Merge(#[from] MergeError),
}

/// The flags of `pasang tune --spsa`.
#[derive(Args, Debug)]
pub struct SpsaArgs {
    /// The run's state file (read, and rewritten after every iteration).
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// The log, one line per iteration (default: the state's path with
    /// `.log` added).
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Start a run at --state (which must not exist) with the flags below.
    #[arg(long)]
    new: bool,
    /// New run: the engine's command line (default: this program).
    #[arg(long, value_name = "CMD")]
    engine: Option<String>,
    /// New run: nodes per move.
    #[arg(long, value_name = "N", default_value_t = 5000,
          value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// New run: a clock per side instead of fixed nodes,
    /// <seconds>+<increment> (e.g. 1+0.1), for the time-use factors; a
    /// loss on time counts as a result.
    #[arg(long, value_name = "TC", conflicts_with = "nodes",
          value_parser = |text: &str| text.parse::<TimeControl>())]
    tc: Option<TimeControl>,
    /// New run with --tc: milliseconds an engine may exceed its time
    /// before losing on time (as `pasang match --time-margin`).
    #[arg(long, value_name = "MS", default_value_t = 30, requires = "tc")]
    time_margin: u64,
    /// New run: game pairs in all (N of the schedule).
    #[arg(long, value_name = "N", default_value_t = 2000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pairs: u64,
    /// New run: pairs per iteration (one perturbation, one update).
    #[arg(long, value_name = "N", default_value_t = 8,
          value_parser = clap::value_parser!(u64).range(1..))]
    batch: u64,
    /// New run: the constants to tune, comma-separated; `search` (the
    /// default) is every constant fixed-node games can tune, `time` the
    /// time-use factors (for --tc), `all` both.
    #[arg(
        long,
        value_name = "NAMES",
        value_delimiter = ',',
        default_value = "search"
    )]
    params: Vec<String>,
    /// New run: the learning rate at the run's end (fishtest's r_end).
    #[arg(long, value_name = "R", default_value_t = R_END)]
    r_end: f64,
    /// New run: random legal plies after each rule set's start.
    #[arg(long, value_name = "K", default_value_t = 2,
          value_parser = clap::value_parser!(u64).range(0..=60))]
    random_plies: u64,
    /// New run: the seed of the openings and of the perturbations.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    rules: RuleSetArgs,
    /// Games played at the same time.
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=64))]
    concurrency: u64,
    /// Stop after this many iterations (the state is kept; run again to go
    /// on).
    #[arg(long, value_name = "N")]
    iterations: Option<u64>,
    /// Play only shard K of N of the current iteration's pairs, writing
    /// the results to --results (the state is not changed).
    #[arg(long, value_name = "K/N", conflicts_with_all = ["merge", "new", "iterations"])]
    shard: Option<Shard>,
    /// Where --shard writes its results.
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// Merge every shard's results of the current iteration into its
    /// update.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["new", "iterations"])]
    merge: Vec<PathBuf>,
}

/// Runs `pasang tune --spsa`.
pub fn run(args: &SpsaArgs) -> Result<ExitCode, CliError> {
    run_spsa(args).map_err(CliError::Spsa)
}

fn run_spsa(args: &SpsaArgs) -> Result<ExitCode, SpsaError> {
    let path = args.state.as_deref().ok_or(SpsaError::NoState)?;
    let log = args.log.clone().unwrap_or_else(|| {
        let mut log = path.as_os_str().to_owned();
        log.push(".log");
        PathBuf::from(log)
    });
    if args.shard.is_some() != args.results.is_some() {
        return Err(SpsaError::ShardWithoutResults);
    }
    if args.new {
        return start_run(args, path);
    }
    if !path.exists() {
        return Err(SpsaError::NoSuchState(path.to_path_buf()));
    }
    let mut run = Run::load(path)?;
    if !args.merge.is_empty() {
        let (batch, sum) = merge(&run, &args.merge)?;
        let line = run.apply(&batch, sum);
        run.save(path)?;
        append_log(&log, &run.log_header(), &line)?;
        println!("{line}");
        return Ok(ExitCode::SUCCESS);
    }
    let mut players = Players::new(&run, args.concurrency as usize);
    let done = match (args.shard, &args.results) {
        (Some(shard), Some(results)) => play_shard(&run, &mut players, shard, results),
        _ => play_batches(&mut run, &mut players, args, path, &log),
    };
    players.shut_down();
    done
}

/// `--new`: writes a new run's state file at `path`.
fn start_run(args: &SpsaArgs, path: &Path) -> Result<ExitCode, SpsaError> {
    if path.exists() {
        return Err(SpsaError::Exists(path.to_path_buf()));
    }
    let run = new_run(args)?;
    run.save(path)?;
    println!(
        "New SPSA run '{}': {} pairs in iterations of {}, {}, {} rule sets, {} random plies, seed {}; tuning {}",
        path.display(),
        run.schedule.pairs,
        run.batch,
        run.limit,
        run.rule_sets().len(),
        run.random_plies,
        run.seed,
        run.values_text(" ", "")
    );
    Ok(ExitCode::SUCCESS)
}

/// `--shard I/N --results FILE`: plays this machine's share of the next
/// batch and writes its result for `--merge`.
fn play_shard(
    run: &Run,
    players: &mut Players,
    shard: Shard,
    results: &Path,
) -> Result<ExitCode, SpsaError> {
    let Some(batch) = run.next_batch() else {
        println!("The run is over: {} pairs played", run.done);
        return Ok(ExitCode::SUCCESS);
    };
    let result = players.play(run, &batch, Some(shard), &AtomicBool::new(false))?;
    debug_assert_eq!(result.pairs, pairs_of(&batch, shard));
    let shard_result = ShardResult {
        first: batch.first,
        seed: run.seed,
        shard,
        result,
    };
    write_file(results, &shard_result.to_text())?;
    println!(
        "Shard {shard} of pairs {}-{}: {} pairs, plus W-D-L {}-{}-{}",
        batch.first + 1,
        batch.first + batch.count,
        result.pairs,
        result.wins,
        result.draws,
        result.losses
    );
    Ok(ExitCode::SUCCESS)
}

/// Plays the run's batches (up to `--iterations`), saving the state and
/// logging a line after each.
fn play_batches(
    run: &mut Run,
    players: &mut Players,
    args: &SpsaArgs,
    path: &Path,
    log: &Path,
) -> Result<ExitCode, SpsaError> {
    let stop = AtomicBool::new(false);
    eprintln!(
        "SPSA run '{}': {} of {} pairs played; {}, concurrency {}",
        path.display(),
        run.done,
        run.schedule.pairs,
        run.limit,
        args.concurrency
    );
    let mut iterations = 0;
    while let Some(batch) = run.next_batch() {
        if args.iterations.is_some_and(|most| iterations >= most) {
            break;
        }
        let result = players.play(run, &batch, None, &stop)?;
        let line = run.apply(&batch, result);
        run.save(path)?;
        append_log(log, &run.log_header(), &line)?;
        eprintln!("{line}");
        iterations += 1;
    }
    let [w, d, l] = run.totals;
    println!(
        "SPSA: {} of {} pairs played (plus W-D-L {w}-{d}-{l}); values: {}",
        run.done,
        run.schedule.pairs,
        run.values_text(" ", "")
    );
    println!("As --engine fields: {}", run.values_text(",", "option."));
    Ok(ExitCode::SUCCESS)
}

/// A new run from the flags.
fn new_run(args: &SpsaArgs) -> Result<Run, SpsaError> {
    let mut indices: Vec<usize> = Vec::new();
    for name in &args.params {
        let chosen: Vec<usize> = match name.trim() {
            "search" => (0..TUNABLES.len())
                .filter(|i| TUNABLES[*i].search)
                .collect(),
            "time" => (0..TUNABLES.len())
                .filter(|i| !TUNABLES[*i].search)
                .collect(),
            "all" => (0..TUNABLES.len()).collect(),
            one => vec![find(one).ok_or_else(|| SpsaError::UnknownParam(one.to_string()))?],
        };
        for index in chosen {
            if !indices.contains(&index) {
                indices.push(index);
            }
        }
    }
    let engine = match &args.engine {
        Some(engine) => engine.clone(),
        None => this_program(),
    };
    let sets = args.rules.rule_sets();
    let run = Run {
        engine,
        limit: match args.tc {
            Some(control) => GameLimit::Clock {
                control,
                margin_ms: args.time_margin,
            },
            None => GameLimit::Nodes(args.nodes),
        },
        random_plies: args.random_plies as usize,
        seed: args.seed,
        patterns: distinct(&sets, |rules| rules.pattern),
        ka_entries: distinct(&sets, |rules| rules.ka_entry),
        second_columns: distinct(&sets, |rules| rules.second_column),
        centres: distinct(&sets, |rules| rules.centre),
        schedule: Schedule::fishtest(args.pairs, args.r_end),
        batch: args.batch,
        done: 0,
        totals: [0; 3],
        tuned: indices
            .into_iter()
            .map(|index| Tuned {
                index,
                value: f64::from(TUNABLES[index].default),
                c_end: f64::from(TUNABLES[index].step),
            })
            .collect(),
    };
    run.check()?;
    Ok(run)
}

/// This program's path, for a run that tunes the engine it is.
fn this_program() -> String {
    std::env::current_exe()
        .ok()
        .and_then(|path| path.to_str().map(str::to_string))
        .unwrap_or_else(|| "pasang".to_string())
}

fn write_file(path: &Path, text: &str) -> Result<(), SpsaError> {
    std::fs::write(path, text).map_err(|error| {
        SpsaError::Write(StateError::Write {
            path: path.to_path_buf(),
            error,
        })
    })
}

/// Each value of one rule option among `sets`, once, in their order.
fn distinct<T: PartialEq>(sets: &[Rules], value: fn(&Rules) -> T) -> Vec<T> {
    let mut values = Vec::new();
    for rules in sets {
        let one = value(rules);
        if !values.contains(&one) {
            values.push(one);
        }
    }
    values
}
