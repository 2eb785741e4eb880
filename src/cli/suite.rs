//! `pasang suite`: the trap suite (see [`crate::suite`] and
//! docs/strength.md). `pasang suite FILE --nodes N` runs an engine
//! through a suite; `pasang suite --make --out FILE RECORD...` mines one
//! from game records.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::{CliError, Progress};
use crate::client::EngineSpec;
use crate::record;
use crate::schedule::shard::Shard;
use crate::suite::make::{Budgets, Miner};
use crate::suite::solve::{Solver, Tally, part_names};
use crate::suite::{Entry, Half, line_of};

/// The file format, after the flags in `--help`.
const FORMAT: &str = "\
A suite file has one JSON object a line: id, half (tune|test), kind
(avoid: the game's move walked into a forced loss, find another; win: a
forced win the game's search did not report, find it and prove it),
options (every rule option), position, line (the forced line), plies (its
length), solutions, traps, suntuk. docs/strength.md has the details.";

/// Which entries to run.
#[derive(Copy, Clone, Debug, Eq, PartialEq, ValueEnum)]
enum Which {
    /// Every entry.
    All,
    /// The tuning half.
    Tune,
    /// The held-out half.
    Test,
}

/// Arguments of `pasang suite`.
#[derive(Args, Debug)]
#[command(after_help = FORMAT)]
pub struct SuiteArgs {
    /// Suite files to run (or, with --make, record files to mine).
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Nodes per position when running a suite.
    #[arg(long, value_name = "N", default_value_t = 250_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// The engine to run (as `pasang match --engine`; by default this
    /// program, Threads 1 and Hash 16).
    #[arg(long, value_name = "SPEC")]
    engine: Option<String>,
    /// Which entries to run.
    #[arg(long, value_enum, default_value_t = Which::All)]
    half: Which,
    /// Print each entry's outcome.
    #[arg(long)]
    verbose: bool,
    /// Mine a suite from record files instead of running one.
    #[arg(long, requires = "out")]
    make: bool,
    /// The suite file --make writes.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// --make: nodes of the deep search that proves positions won or lost.
    #[arg(long, value_name = "N", default_value_t = Budgets::default().deep,
          value_parser = clap::value_parser!(u64).range(1..))]
    deep: u64,
    /// --make: nodes of each root move's search when sorting the moves.
    #[arg(long, value_name = "N", default_value_t = Budgets::default().per_move,
          value_parser = clap::value_parser!(u64).range(1..))]
    per_move: u64,
    /// --make: mine only shard K of N of the games (game i, from 0 over
    /// all files, when i mod N = K-1).
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
}

/// Runs `pasang suite`.
pub fn run(args: &SuiteArgs) -> Result<ExitCode, CliError> {
    if args.make { make(args) } else { solve(args) }
}

/// The records of `path`.
fn records(path: &PathBuf) -> Result<Vec<record::Record>, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| CliError::Read(path.clone(), e))?;
    record::read(&text).map_err(|e| CliError::Records(path.clone(), e))
}

/// `--make`: mines every record of every file (or the shard's) into the
/// `--out` file, in game order.
fn make(args: &SuiteArgs) -> Result<ExitCode, CliError> {
    let out = args.out.clone().ok_or(CliError::SuiteNeedsOut)?;
    let mut miner = Miner::new(Budgets {
        deep: args.deep,
        per_move: args.per_move,
        ..Budgets::default()
    });
    let progress = Progress::stderr();
    let mut text = format!(
        "# pasang suite --make --deep {} --per-move {}{}\n",
        args.deep,
        args.per_move,
        args.shard
            .map_or(String::new(), |shard| format!(" --shard {shard}"))
    );
    let mut index = 0u64;
    let mut made = 0usize;
    // Both games of a self-play pair, or two games through one line, meet
    // the same position: it is kept once.
    let mut seen = std::collections::HashSet::new();
    for path in &args.files {
        let name = path
            .file_name()
            .map_or_else(String::new, |name| name.to_string_lossy().into_owned());
        for (number, record) in records(path)?.iter().enumerate() {
            let game = index;
            index += 1;
            if args.shard.is_some_and(|shard| !shard.has(game)) {
                continue;
            }
            progress.show(&format!("{name} game {}: {made} positions", number + 1));
            // Both games of a pair share an opening: one half holds both.
            let pair = record
                .tag("Pair")
                .and_then(|pair| pair.parse::<u64>().ok())
                .unwrap_or(number as u64 / 2);
            let half = if pair % 2 == 0 {
                Half::Tune
            } else {
                Half::Test
            };
            for entry in miner.entries(record, &format!("{name}:{}", number + 1), half) {
                if !seen.insert((entry.position.clone(), entry.options.clone())) {
                    continue;
                }
                made += 1;
                let _ = writeln!(text, "{}", line_of(&entry));
            }
        }
    }
    progress.clear();
    std::fs::write(&out, text).map_err(|e| CliError::Write(out.clone(), e))?;
    let noun = if made == 1 { "position" } else { "positions" };
    eprintln!(
        "{made} {noun} from {index} games written to {}",
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The engine a run uses: `--engine`, or this program.
fn engine_spec(args: &SuiteArgs) -> Result<EngineSpec, CliError> {
    let text = match &args.engine {
        Some(text) => text.clone(),
        None => {
            let program = std::env::current_exe().map_err(CliError::OwnProgram)?;
            format!(
                "cmd={},name=pasang,option.Threads=1,option.Hash=16",
                program.display()
            )
        }
    };
    text.parse().map_err(CliError::Engine)
}

/// Runs the engine through the suite files and prints the tallies.
fn solve(args: &SuiteArgs) -> Result<ExitCode, CliError> {
    let mut entries: Vec<Entry> = Vec::new();
    for path in &args.files {
        let text = std::fs::read_to_string(path).map_err(|e| CliError::Read(path.clone(), e))?;
        let read = crate::suite::read(&text).map_err(|e| CliError::Suite(path.clone(), e))?;
        entries.extend(read.into_iter().filter(|entry| match args.half {
            Which::All => true,
            Which::Tune => entry.half == Half::Tune,
            Which::Test => entry.half == Half::Test,
        }));
    }
    let spec = engine_spec(args)?;
    let mut solver = Solver::start(&spec).map_err(CliError::Solve)?;
    let progress = Progress::stderr();
    let mut total = Tally::default();
    let mut parts: Vec<(&'static str, Tally)> = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        progress.show(&format!(
            "position {} of {}: {}",
            index + 1,
            entries.len(),
            total.describe()
        ));
        let outcome = solver.solve(entry, args.nodes).map_err(CliError::Solve)?;
        if args.verbose {
            println!(
                "{} {}: {} ({})",
                entry.id,
                if outcome.solved { "solved" } else { "missed" },
                outcome.best.as_deref().unwrap_or("no move"),
                outcome
                    .nodes_to_solve
                    .map_or("-".to_string(), |nodes| format!("{nodes} nodes"))
            );
        }
        total.add(&outcome);
        for name in part_names(entry) {
            match parts.iter_mut().find(|(part, _)| *part == name) {
                Some((_, tally)) => tally.add(&outcome),
                None => {
                    let mut tally = Tally::default();
                    tally.add(&outcome);
                    parts.push((name, tally));
                }
            }
        }
    }
    progress.clear();
    solver.quit();
    parts.sort_by_key(|(name, _)| *name);
    println!("Suite: {} at {} nodes", spec.name, args.nodes);
    for (name, tally) in &parts {
        println!("  {name}: {}", tally.describe());
    }
    println!("Total: {}", total.describe());
    Ok(ExitCode::SUCCESS)
}
