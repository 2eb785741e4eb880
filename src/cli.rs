//! The command line: subcommands and the rule flags they share.

use std::io::Write;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};

use crate::notation::parse_position;
use crate::perft::divide;
use crate::position::Position;
use crate::rules::{Centre, KaEntry, Pattern, Rules, SecondColumn};

/// Pasang engine: speaks a UCI-style protocol on stdin/stdout when run
/// without a subcommand.
#[derive(Parser, Debug)]
#[command(name = "pasang", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Counts move paths to a depth (move generator check and speed).
    Perft(PerftArgs),
    /// Searches the built-in positions to a fixed depth on one thread.
    Bench(BenchArgs),
    /// Plays engine-vs-engine matches refereed by the rules.
    Match(crate::matches::MatchArgs),
}

/// The rule options every subcommand takes.
#[derive(Args, Debug, Clone)]
pub struct RuleArgs {
    /// Start layout: 1 or 2.
    #[arg(long, default_value = "1", value_parser = parse_value::<Pattern>)]
    pub pattern: Pattern,
    /// Ka entry: slide, jump or both.
    #[arg(long, default_value = "slide", value_parser = parse_value::<KaEntry>)]
    pub ka_entry: KaEntry,
    /// North's passage: opposite or any.
    #[arg(long, default_value = "opposite", value_parser = parse_value::<SecondColumn>)]
    pub second_column: SecondColumn,
    /// The hole: wall or open.
    #[arg(long, default_value = "wall", value_parser = parse_value::<Centre>)]
    pub centre: Centre,
}

impl RuleArgs {
    /// The rules these flags select.
    pub fn rules(&self) -> Rules {
        Rules {
            pattern: self.pattern,
            ka_entry: self.ka_entry,
            second_column: self.second_column,
            centre: self.centre,
        }
    }

    /// The position given by `--fen`, or the pattern's start.
    pub fn position(&self, fen: Option<&str>) -> Result<Position, String> {
        let text = fen
            .map(str::to_string)
            .unwrap_or_else(|| self.pattern.start_position_string());
        parse_position(&text).map_err(|error| format!("invalid position: {error}"))
    }
}

fn parse_value<T: std::str::FromStr>(text: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    text.parse::<T>().map_err(|error| error.to_string())
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Depth searched in each position.
    #[arg(default_value_t = crate::bench::DEFAULT_DEPTH)]
    depth: u32,
}

#[derive(Args, Debug)]
struct PerftArgs {
    /// Depth in plies.
    depth: u32,
    /// Start from this position string instead of the pattern's start.
    #[arg(long)]
    fen: Option<String>,
    #[command(flatten)]
    rules: RuleArgs,
    /// Print the count below each root move.
    #[arg(long)]
    divide: bool,
    /// Threads sharing the root moves.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// Parses the command line, runs it and returns the exit code.
pub fn run() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        None => return crate::protocol::run_stdio(),
        Some(Command::Perft(args)) => run_perft(&args),
        Some(Command::Bench(args)) => {
            crate::bench::run(args.depth, &mut |line| println!("{line}"));
            Ok(())
        }
        Some(Command::Match(args)) => return crate::matches::run(&args),
    };
    match result {
        Ok(()) => 0,
        Err(message) => {
            eprintln!("error: {message}");
            1
        }
    }
}

fn run_perft(args: &PerftArgs) -> Result<(), String> {
    let rules = args.rules.rules();
    let position = args.rules.position(args.fen.as_deref())?;
    let threads = args.threads.clamp(1, 1024);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|error| format!("cannot start {threads} threads: {error}"))?;
    let start = Instant::now();
    let counts = pool.install(|| divide(&position, &rules, args.depth, threads > 1));
    let total: u64 = if args.depth == 0 {
        1
    } else {
        counts.iter().map(|(_, count)| count).sum()
    };
    let elapsed = start.elapsed();
    let mut out = std::io::stdout().lock();
    if args.divide {
        for (mv, count) in &counts {
            writeln!(out, "{mv}: {count}").map_err(|e| e.to_string())?;
        }
        writeln!(out).map_err(|e| e.to_string())?;
    }
    writeln!(out, "Nodes searched: {total}").map_err(|e| e.to_string())?;
    out.flush().map_err(|e| e.to_string())?;
    let seconds = elapsed.as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.0} leaves/s",
        seconds,
        total as f64 / seconds.max(1e-9)
    );
    Ok(())
}
