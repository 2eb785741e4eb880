//! `pasang perft`: move-path counts, optionally per root move.
//!
//! Output: with `--divide`, one `move: count` line per root move and a
//! blank line; always a last stdout line `Nodes searched: N`. Time and
//! speed go to stderr so the counts can be compared with `diff`.

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use clap::Args;
use rayon::prelude::*;

use super::{CliError, PositionArgs, Progress, RuleArgs};
use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::perft::perft;

/// Arguments of `pasang perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies.
    depth: u32,
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    rules: RuleArgs,
    /// Print the count below each root move.
    #[arg(long)]
    divide: bool,
    /// Threads sharing the root moves (1 to 256, as the `Threads` option).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=crate::engine::MAX_THREADS as u64))]
    threads: u64,
}

/// Runs `pasang perft`.
pub fn run(args: &PerftArgs) -> Result<ExitCode, CliError> {
    let rules = args.rules.rules();
    let replay = args.position.replay(&rules)?;
    let position = replay.current();
    let threads = args.threads as usize;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|error| CliError::Threads(threads, error))?;
    let progress = Progress::stderr();
    let start = Instant::now();
    let counts: Vec<(Move, u64)> = if args.depth == 0 {
        Vec::new()
    } else {
        let moves = legal_moves(&position, &rules);
        let done = AtomicUsize::new(0);
        let total_moves = moves.len();
        // Shallow counts finish before anyone could read a status.
        let report = args.depth >= 7;
        if report {
            progress.show(&format!("perft {}: 0/{total_moves} root moves", args.depth));
        }
        let count = |mv: &Move| {
            let leaves = perft(&position.play(*mv), &rules, args.depth - 1);
            let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
            if report {
                progress.show(&format!(
                    "perft {}: {finished}/{total_moves} root moves, {:.1} s",
                    args.depth,
                    start.elapsed().as_secs_f64()
                ));
            }
            (*mv, leaves)
        };
        if threads > 1 {
            pool.install(|| moves.as_slice().par_iter().map(count).collect())
        } else {
            moves.iter().map(count).collect()
        }
    };
    progress.clear();
    let total: u64 = if args.depth == 0 {
        1
    } else {
        counts.iter().map(|(_, count)| count).sum()
    };
    let elapsed = start.elapsed();
    let mut out = std::io::stdout().lock();
    let mut write = || -> std::io::Result<()> {
        if args.divide {
            for (mv, count) in &counts {
                writeln!(out, "{mv}: {count}")?;
            }
            writeln!(out)?;
        }
        writeln!(out, "Nodes searched: {total}")?;
        out.flush()
    };
    write().map_err(CliError::Output)?;
    let seconds = elapsed.as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.0} leaves/s",
        seconds,
        total as f64 / seconds.max(1e-9)
    );
    Ok(ExitCode::SUCCESS)
}
