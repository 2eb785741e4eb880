//! `pasang bench`: the built-in benchmark, whose node total is the
//! search's signature (see [`crate::bench`]).

use std::io::Write;
use std::process::ExitCode;

use clap::Args;

use super::{CliError, Progress};

/// Arguments of `pasang bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth searched in each position.
    #[arg(default_value_t = crate::bench::DEFAULT_DEPTH)]
    depth: u32,
}

/// Runs `pasang bench`: one line per position, then the totals.
pub fn run(args: &BenchArgs) -> Result<ExitCode, CliError> {
    let progress = Progress::stderr();
    let count = crate::bench::positions().len();
    let mut done = 0;
    progress.show(&format!("bench depth {}: 0/{count} positions", args.depth));
    let mut failed = None;
    let signals = crate::search::Signals::default();
    let report = crate::bench::run(args.depth, &signals, 1, &mut |line| {
        progress.clear();
        let mut out = std::io::stdout().lock();
        if let Err(error) = writeln!(out, "{line}").and_then(|()| out.flush()) {
            failed.get_or_insert(error);
        }
        if line.starts_with("Position ") {
            done += 1;
            if done < count {
                progress.show(&format!(
                    "bench depth {}: {done}/{count} positions",
                    args.depth
                ));
            }
        }
    });
    progress.clear();
    let mut out = std::io::stdout().lock();
    for line in report.closing_lines() {
        if let Err(error) = writeln!(out, "{line}").and_then(|()| out.flush()) {
            failed.get_or_insert(error);
        }
    }
    match failed {
        Some(error) => Err(CliError::Output(error)),
        None => Ok(ExitCode::SUCCESS),
    }
}
