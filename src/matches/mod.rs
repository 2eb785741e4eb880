//! `pasang match`: engine-vs-engine matches refereed by the project's own
//! rules (runner, referee, statistics).

use clap::Args;

/// Arguments of `pasang match`.
#[derive(Args, Debug)]
pub struct MatchArgs {}

/// Runs a match; returns the process exit code.
pub fn run(_args: &MatchArgs) -> i32 {
    eprintln!("error: pasang match is not built yet");
    2
}
