//! `pasang datagen`: self-play training data (see [`crate::datagen`] and
//! docs/datagen.md).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::Args;

use super::{CliError, Progress};
use crate::datagen::{Config, Header, Report, SearchLimit, Target};
use crate::rl::teacher::Temperature;
use crate::schedule::shard::Shard;

/// The file format, after the flags in `--help`.
const FORMAT: &str = "\
File format (text, one line per searched position; docs/datagen.md has more):
  # pasang datagen 3 seed <S> nodes <N>|depth <D> random-plies <K> [policy <T>] [shard <K>/<N>]
  # game <i> <pattern> <ka entry> <second column> <centre> plies <ply>...
  <position string> | <pattern> <ka entry> <second column> <centre> | <score> | <w|d|l> <margin> | <move played>
  ...
  # end <i> <south|north|draw> <score|suntuk> <S>-<N>
The side to move is the position string's second field. <score> is the
search's score in centipoints (100 x expected point margin), or 'mate n'
for a proven result (PROTOCOL.md 5.2), and w/d/l and <margin> (own points
minus the opponent's at the end) the game's result, all from the side to
move's view. Positions of the random plies are left out, and with
--skip-mates those with a mate score too (the header then says version 1,
or 2 with --policy, as older files do). Games are written whole and in order;
game i depends only on the header and i, so the same flags give the same
file at any --threads, and --resume continues it exactly. --merge writes
the packed binary format instead (docs/datagen.md), without the
distribution. With --policy T the header ends in 'policy <T>' (before
any shard), each position is searched from an emptied table, as
pasang.rl.teach searches it, and each line gains a sixth
field, ' | <move>:<weight> ...': the legal moves' softmax weights at
temperature T centipoints, four decimals, heaviest first, those that
round to 0 left out.";

/// Arguments of `pasang datagen`.
#[derive(Args, Debug)]
#[command(after_help = FORMAT)]
#[command(group(clap::ArgGroup::new("target").required(true).args(["games", "positions", "merge"])))]
pub struct DatagenArgs {
    /// The data file (created; with --resume, continued).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Stop when the file holds this many games.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
    /// Stop when the file holds at least this many positions (the game
    /// that reaches it is written whole).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    positions: Option<u64>,
    /// Nodes per search (the default limit: 5000).
    #[arg(long, value_name = "N", conflicts_with = "depth",
          value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Depth per search, instead of a node count.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    depth: Option<u32>,
    /// Games played at once, one search thread each.
    #[arg(long, value_name = "T", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// Seed of each game's rule set and random opening (pasang match
    /// takes its default seed from the clock).
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Random legal plies from the pattern's start before the engine
    /// plays (not written; pasang match's default is 0).
    #[arg(long, value_name = "K", default_value_t = 4,
          value_parser = clap::value_parser!(u32).range(0..=60))]
    random_plies: u32,
    /// Continue FILE: keep its complete games, drop a half-written last
    /// one, and play on from the next game (seed, limit and random plies
    /// must be those of the file).
    #[arg(long)]
    resume: bool,
    /// Make only shard K of N: the games whose index i (from 0) has
    /// i mod N = K - 1 (with --games, of the whole run's games).
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Also write, per position, a distribution over the legal moves: the
    /// search is MultiPV over every legal move and each root move's score
    /// goes through a softmax at temperature T centipoints (a move T
    /// higher weighs e times more). Format version 2: a sixth field.
    #[arg(long, value_name = "T", conflicts_with = "merge")]
    policy: Option<Temperature>,
    /// Leave out the positions whose score is a mate (a proven win or
    /// loss), as files of format versions 1 and 2 do; by default they are
    /// kept with their score as 'mate n' (format version 3).
    #[arg(long, conflicts_with = "merge")]
    skip_mates: bool,
    /// Merge these text files (shards) into one packed file at --out,
    /// positions shuffled by --seed; the same game twice is refused.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["games", "positions", "shard", "resume"])]
    merge: Vec<PathBuf>,
}

/// Default nodes per search.
pub const DEFAULT_NODES: u64 = 5000;

/// Seconds between progress lines when stderr is not a terminal.
const QUIET_INTERVAL: Duration = Duration::from_secs(30);

fn status_line(report: &Report, target: Target) -> String {
    let (games, positions) = match target {
        Target::Games(total) => (
            format!("{}/{total}", report.games),
            report.positions.to_string(),
        ),
        Target::Positions(total) => (
            report.games.to_string(),
            format!("{}/{total}", report.positions),
        ),
    };
    format!(
        "Games {games}, positions {positions}, {:.0} positions/s",
        report.positions_per_second()
    )
}

/// Runs `pasang datagen`.
pub fn run(args: &DatagenArgs) -> Result<ExitCode, CliError> {
    if !args.merge.is_empty() {
        let start = Instant::now();
        let report = crate::datagen::packed::merge(&args.merge, &args.out, args.seed)
            .map_err(CliError::Pack)?;
        println!(
            "Merged {} games, {} positions from {} files into '{}' (shuffled with seed {}) in {:.1} s",
            report.games,
            report.positions,
            args.merge.len(),
            args.out.display(),
            args.seed,
            start.elapsed().as_secs_f64()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let limit = match args.depth {
        Some(depth) => SearchLimit::Depth(depth),
        None => SearchLimit::Nodes(args.nodes.unwrap_or(DEFAULT_NODES)),
    };
    let target = match (args.games, args.positions) {
        (Some(games), _) => Target::Games(games),
        (None, Some(positions)) => Target::Positions(positions),
        (None, None) => return Err(CliError::NoTarget),
    };
    let config = Config {
        out: args.out.clone(),
        target,
        header: Header {
            seed: args.seed,
            limit,
            random_plies: args.random_plies,
            shard: args.shard,
            policy: args.policy,
            mates: !args.skip_mates,
        },
        threads: args.threads as usize,
        resume: args.resume,
    };
    let progress = Progress::stderr();
    let last_line = Mutex::new(Instant::now());
    let report = crate::datagen::run(&config, &|report| {
        let line = status_line(report, target);
        if progress.enabled() {
            progress.show(&line);
        } else {
            let mut last = last_line.lock().unwrap_or_else(|p| p.into_inner());
            if last.elapsed() >= QUIET_INTERVAL {
                *last = Instant::now();
                eprintln!("{line}");
            }
        }
    })
    .map_err(CliError::Datagen)?;
    progress.clear();
    eprintln!("{}", status_line(&report, target));
    println!(
        "Wrote {} games and {} positions this run in {:.1} s ({:.0} positions/s); '{}' holds {} games and {} positions",
        report.new_games,
        report.new_positions,
        report.seconds,
        report.positions_per_second(),
        config.out.display(),
        report.games,
        report.positions
    );
    Ok(ExitCode::SUCCESS)
}
