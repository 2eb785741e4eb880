//! `pasang puzzles`: puzzles from game records (see [`crate::puzzles`]
//! and docs/learn.md).

use std::io::BufWriter;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use super::{CliError, Progress};
use crate::puzzles::generate::{CHECK_NODES, Counts, DEFAULT_NODES};
use crate::puzzles::{Source, recheck, run as find};
use crate::schedule::shard::Shard;

/// The file format, after the flags in `--help`.
const FORMAT: &str = "\
File format (puzzles.jsonl, a JSON object a line; docs/learn.md has more):
  {\"id\": ..., \"options\": {\"Pattern\": \"1\", ...}, \"position\": ..., \"moves\": \"<solver> <reply> ... <solver>\",
   \"themes\": [...], \"rating\": N, \"before\": ..., \"mistake\": ..., \"alternatives\": [...]}
A puzzle starts after the opponent's mistake (from 'before', the move
'mistake'); at each of the solver's turns one move keeps the win (or
saves the game) by a clear margin. Each puzzle's first move must then
stand a MultiPV 2 search of --check-nodes: the best move, and a proven
win while the second line is not, or 200 per mille of win chance above
it; where the second line is a proven win too, every other first move
proven to win is listed in 'alternatives' (the page takes them; more
than two drop the puzzle). The same records and flags give the same
file; --shard K/N makes the puzzles of the games whose index i (from 0,
over the files in order) has i mod N = K - 1. With --recheck the files are puzzle files, held to that
check: those that stand it are written (with 'alternatives' where
needed), the others named and left out.";

/// Arguments of `pasang puzzles`.
#[derive(Args, Debug)]
#[command(after_help = FORMAT)]
pub struct PuzzlesArgs {
    /// The puzzle file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Nodes of each solver's search (the scan of a game's positions
    /// searches an eighth of it).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_NODES,
          value_parser = clap::value_parser!(u64).range(100..))]
    nodes: u64,
    /// Nodes of the deeper check of each puzzle's first move.
    #[arg(long, value_name = "N", default_value_t = CHECK_NODES,
          value_parser = clap::value_parser!(u64).range(1000..))]
    check_nodes: u64,
    /// The files are puzzle files, re-checked (no records read).
    #[arg(long, conflicts_with_all = ["nodes", "shard"])]
    recheck: bool,
    /// Only shard K of N of the games.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Game records (as pasang match, play, datagen's records and the
    /// board write them); with --recheck, puzzle files.
    #[arg(value_name = "RECORD_FILE", required = true)]
    records: Vec<PathBuf>,
}

fn status_line(counts: &Counts, seconds: f64) -> String {
    format!(
        "Games {}, moves {}, mistakes {}, candidates {}, unique {}, checked {}, puzzles {} in {:.0} s",
        counts.games,
        counts.moves,
        counts.mistakes,
        counts.candidates,
        counts.unique,
        counts.checked,
        counts.puzzles,
        seconds
    )
}

/// Runs `pasang puzzles`.
pub fn run(args: &PuzzlesArgs) -> Result<ExitCode, CliError> {
    let mut sources = Vec::new();
    for path in &args.records {
        let text =
            std::fs::read_to_string(path).map_err(|error| CliError::Read(path.clone(), error))?;
        sources.push(Source {
            path: path.clone(),
            text,
        });
    }
    let file = std::fs::File::create(&args.out)
        .map_err(|error| CliError::Write(args.out.clone(), error))?;
    let mut out = BufWriter::new(file);
    let start = Instant::now();
    let progress = Progress::stderr();
    if args.recheck {
        let mut count = 0;
        let found = recheck(
            &sources,
            args.check_nodes,
            &mut out,
            &mut |puzzle, verdict| {
                count += 1;
                if progress.enabled() {
                    progress.show(&format!("Puzzle {count}: {} {verdict:?}", puzzle.id));
                }
            },
        )
        .map_err(CliError::Puzzles)?;
        progress.clear();
        for (id, why) in &found.dropped {
            println!("Left out {id}: {why}");
        }
        println!(
            "Read {} puzzles: {} hold, {} hold with alternatives, {} left out; wrote {} to '{}' in {:.0} s",
            found.read,
            found.held,
            found.alternatives,
            found.dropped.len(),
            found.held + found.alternatives,
            args.out.display(),
            start.elapsed().as_secs_f64()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let counts = find(
        &sources,
        args.nodes,
        args.check_nodes,
        args.shard,
        &mut out,
        &mut |counts| {
            if progress.enabled() {
                progress.show(&status_line(counts, start.elapsed().as_secs_f64()));
            }
        },
    )
    .map_err(CliError::Puzzles)?;
    progress.clear();
    let seconds = start.elapsed().as_secs_f64();
    println!("{}", status_line(&counts, seconds));
    println!(
        "Wrote {} puzzles to '{}' ({:.0} puzzles/hour)",
        counts.puzzles,
        args.out.display(),
        counts.puzzles as f64 * 3600.0 / seconds.max(0.001)
    );
    Ok(ExitCode::SUCCESS)
}
