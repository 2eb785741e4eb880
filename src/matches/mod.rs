//! `pasang match`: engine-vs-engine matches refereed by the project's own
//! rules, and `--compliance`, a step-by-step check of one engine.
//!
//! The parts: `engine_spec` (what `--engine` says), `limits` (time
//! control and `go` limits), `engine_process` (a child engine over
//! pipes, every wait bounded), `openings` (rule sets, start positions
//! and opening plies per game pair), `referee` (one game, every move
//! checked, verdicts), `statistics` (Elo, LOS, SPRT), `tally` (the
//! running score and its reports), [`records`] (game records written with
//! `--out` and read back), `shard` (`--shard` and `--resume`), `merge`
//! (`--merge`) and `compliance`. This file holds the command line and
//! runs the games on worker threads.

pub(crate) mod compliance;
pub(crate) mod engine_process;
pub(crate) mod engine_spec;
pub(crate) mod limits;
pub(crate) mod merge;
pub(crate) mod openings;
pub mod records;
pub(crate) mod referee;
pub(crate) mod shard;
pub(crate) mod statistics;
pub(crate) mod tally;

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::Args;

use self::engine_spec::{EngineSpec, distinct_names};
use self::limits::{Limits, TimeControl};
use self::openings::{OpeningPlan, describe, load_book, rule_sets};
use self::records::{Record, utc_date};
use self::referee::{GameResult, Seat, Settings, rule_options};
use self::shard::{Played, Shard};
use self::statistics::{Decision, Sprt};
use self::tally::Tally;
use crate::rules::{Centre, KaEntry, Pattern, SecondColumn};

/// Arguments of `pasang match`.
#[derive(Args, Debug)]
pub(crate) struct MatchArgs {
    /// An engine: cmd=<command>[,name=<n>][,option.<Name>=<value>...]
    /// [,tc=..][,movetime=..][,depth=..][,nodes=..] (twice for a match,
    /// once or more with --compliance). Limits given here replace the
    /// match's limits for this engine.
    #[arg(long = "engine", value_name = "SPEC", value_parser = parse_spec)]
    pub engines: Vec<EngineSpec>,
    /// Check each engine's protocol manners step by step instead of
    /// playing a match.
    #[arg(long)]
    pub compliance: bool,
    /// Clock per player: <seconds>+<increment>, e.g. 10+0.1.
    #[arg(long, value_name = "TC", value_parser = parse_tc)]
    pub tc: Option<TimeControl>,
    /// Fixed time per move, in milliseconds. Each engine keeps its own
    /// margin out of it: pasang's `Move Overhead` (10 ms by default), so
    /// `--movetime 10` leaves pasang about 1 ms of search; for moves that
    /// short give each pasang `option.Move Overhead=0`.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Fixed search depth.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Fixed node count per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Games to play, rounded up to whole pairs (default 2, or unbounded
    /// with --sprt).
    #[arg(long)]
    pub games: Option<u64>,
    /// Games played at once, each by its own pair of engine processes.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Start layouts, a comma list of 1 and 2.
    #[arg(long, value_delimiter = ',', default_value = "1", value_parser = Pattern::from_str)]
    pub pattern: Vec<Pattern>,
    /// Ka entry rules, a comma list of slide, jump, both.
    #[arg(long, value_delimiter = ',', default_value = "slide", value_parser = KaEntry::from_str)]
    pub ka_entry: Vec<KaEntry>,
    /// North's passage rules, a comma list of opposite, any.
    #[arg(long, value_delimiter = ',', default_value = "opposite", value_parser = SecondColumn::from_str)]
    pub second_column: Vec<SecondColumn>,
    /// Hole rules, a comma list of wall, open.
    #[arg(long, value_delimiter = ',', default_value = "wall", value_parser = Centre::from_str)]
    pub centre: Vec<Centre>,
    /// A file of start positions: one position string per line,
    /// optionally followed by `moves <ply>...`.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Random legal plies played from each opening before the engines
    /// take over (the same plies for both games of a pair).
    #[arg(long, default_value_t = 0, value_name = "K")]
    pub random_plies: usize,
    /// Seed of the random plies (default: taken from the clock and
    /// printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Sequential test: elo0=<a> elo1=<b> [alpha=<x>] [beta=<y>]; the
    /// match stops when a bound is crossed.
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Write a record of every game to this file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Play only shard K of N: the game pairs whose index i (from 0) has
    /// i mod N = K-1, with the openings the whole match gives them.
    /// Needs --seed and --games.
    #[arg(long, value_name = "K/N", value_parser = Shard::from_str)]
    pub shard: Option<Shard>,
    /// Keep the games already in the --out file (dropping a half-written
    /// last record), skip them, and append the rest.
    #[arg(long)]
    pub resume: bool,
    /// Print the summary of the records in these files (the shards of one
    /// match) instead of playing; with --out, write all their records to
    /// one file in game order.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    pub merge: Vec<PathBuf>,
    /// Milliseconds an engine may exceed its time before losing on time.
    #[arg(long, default_value_t = 0, value_name = "MS")]
    pub time_margin: u64,
    /// Longest wait for a bestmove when neither --tc nor --movetime bounds
    /// it, in seconds (exceeding it loses on time).
    #[arg(long, default_value_t = 300, value_name = "S")]
    pub move_timeout: u64,
    /// Longest wait for readyok, in milliseconds (exceeding it: the
    /// connection stalls).
    #[arg(long, default_value_t = 10_000, value_name = "MS")]
    pub ping_timeout: u64,
    /// Print a status line every N games (and at the end).
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub report_every: u64,
}

fn parse_spec(text: &str) -> Result<EngineSpec, String> {
    text.parse::<EngineSpec>()
        .map_err(|error| error.to_string())
}

fn parse_tc(text: &str) -> Result<TimeControl, String> {
    text.parse()
}

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
    if args.compliance {
        if args.engines.is_empty() {
            return usage_error("--compliance needs an --engine");
        }
        let mut all = true;
        for spec in &args.engines {
            println!("Compliance of {} ({}):", spec.name, spec.command_line());
            all &= compliance::check(spec);
        }
        return if all { 0 } else { 1 };
    }
    if !args.merge.is_empty() {
        if !args.engines.is_empty() || args.shard.is_some() || args.resume {
            return usage_error("--merge takes records files, not --engine, --shard or --resume");
        }
        let sprt = match &args.sprt {
            Some(words) => match Sprt::parse(&words.join(" ")) {
                Ok(sprt) => Some(sprt),
                Err(error) => return usage_error(&format!("--sprt: {error}")),
            },
            None => None,
        };
        return merge::run(&args.merge, sprt.as_ref(), args.out.as_deref());
    }
    let config = match Config::from_args(args) {
        Ok(config) => config,
        Err(message) => return usage_error(&message),
    };
    config.play()
}

/// Everything a match needs, checked.
struct Config {
    engines: [EngineSpec; 2],
    /// Each engine's limits.
    limits: [Limits; 2],
    settings: Settings,
    games: u64,
    /// Games this run plays: `games`, or the shard's part of them.
    planned: u64,
    concurrency: usize,
    plan: OpeningPlan,
    sprt: Option<Sprt>,
    out: Option<PathBuf>,
    /// The part of the match this run plays (`None`: all of it).
    shard: Option<Shard>,
    /// Keep and skip the games already in `out`.
    resume: bool,
    report_every: u64,
    /// Whether `games` was bounded by the user (for progress lines).
    bounded: bool,
}

impl Config {
    fn from_args(args: &MatchArgs) -> Result<Config, String> {
        let [first, second] = args.engines.as_slice() else {
            return Err(format!(
                "a match needs exactly two --engine options ({} given)",
                args.engines.len()
            ));
        };
        let mut engines = [first.clone(), second.clone()];
        distinct_names(&mut engines);
        let global = Limits {
            clock: args.tc,
            movetime: args.movetime,
            depth: args.depth,
            nodes: args.nodes,
        };
        // An engine's own limits replace the match's for it.
        let limits = engines.each_ref().map(|spec| {
            if spec.limits.is_empty() {
                global
            } else {
                spec.limits
            }
        });
        if limits.iter().any(Limits::is_empty) {
            return Err(
                "no limit: give --tc, --movetime, --depth or --nodes (or tc=, movetime=, depth=, nodes= in each --engine)"
                    .into(),
            );
        }
        if args.movetime == Some(0) || args.nodes == Some(0) || args.depth == Some(0) {
            return Err("--movetime, --depth and --nodes must be above 0".into());
        }
        let sprt = match &args.sprt {
            Some(words) => Some(Sprt::parse(&words.join(" ")).map_err(|e| format!("--sprt: {e}"))?),
            None => None,
        };
        let games = match (args.games, sprt) {
            (Some(0), _) => return Err("--games must be at least 1".into()),
            (Some(n), _) => n.saturating_add(n % 2),
            (None, Some(_)) => u64::MAX - 1,
            (None, None) => 2,
        };
        if args.concurrency == 0 {
            return Err("--concurrency must be at least 1".into());
        }
        if let Some(shard) = args.shard {
            // Every shard must make the same openings: never a seed from
            // the clock, never a match of unknown length.
            if args.seed.is_none() || args.games.is_none() {
                return Err(format!(
                    "--shard {shard} needs --seed and --games, so that every shard plays the openings of the same match"
                ));
            }
            if sprt.is_some() {
                return Err(
                    "--shard with --sprt: an SPRT is judged over all the pairs; give --sprt to --merge"
                        .into(),
                );
            }
        }
        if args.resume && args.out.is_none() {
            return Err("--resume needs --out, the records file to resume".into());
        }
        let book = match &args.openings {
            Some(path) => Some(load_book(path)?),
            None => None,
        };
        let seed = args.seed.unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        });
        let plan = OpeningPlan {
            rule_sets: rule_sets(
                &args.pattern,
                &args.ka_entry,
                &args.second_column,
                &args.centre,
            ),
            book,
            random_plies: args.random_plies,
            seed,
        };
        // Build one full cycle of openings now, so that a bad book line
        // or rule combination stops the match before it starts.
        let pairs = games / 2;
        let planned = args.shard.map_or(games, |shard| shard.games(games));
        for pair in 0..(plan.cycle() as u64).min(pairs) {
            plan.opening(pair as usize)?;
        }
        let settings = Settings {
            time_margin: Duration::from_millis(args.time_margin),
            move_ceiling: Duration::from_secs(args.move_timeout.max(1)),
            ping_timeout: Duration::from_millis(args.ping_timeout.max(1)),
            ..Settings::default()
        };
        Ok(Config {
            engines,
            limits,
            settings,
            games,
            planned,
            concurrency: args.concurrency.min(planned.clamp(1, 1 << 16) as usize),
            plan,
            sprt,
            out: args.out.clone(),
            shard: args.shard,
            resume: args.resume,
            report_every: args.report_every.max(1),
            bounded: args.games.is_some() || sprt.is_none(),
        })
    }

    /// The limits: one text when both engines share them, else each
    /// engine's after its name.
    fn describe_limits(&self) -> String {
        if self.limits[0] == self.limits[1] {
            self.limits[0].describe()
        } else {
            format!(
                "{} {}, {} {}",
                self.engines[0].name,
                self.limits[0].describe(),
                self.engines[1].name,
                self.limits[1].describe()
            )
        }
    }

    /// One line describing the match's conditions.
    fn heading(&self) -> String {
        let rules: Vec<String> = self.plan.rule_sets.iter().map(describe).collect();
        let openings = match &self.plan.book {
            Some(book) => format!("{} openings", book.len()),
            None => "pattern start".to_string(),
        };
        let random = if self.plan.random_plies > 0 {
            format!(
                " + {} random plies (seed {})",
                self.plan.random_plies, self.plan.seed
            )
        } else {
            String::new()
        };
        format!(
            "{}; rules {}; {openings}{random}",
            self.describe_limits(),
            rules.join(", ")
        )
    }

    /// What a records file of this match says about the match.
    fn identity(&self, heading: &str) -> shard::MatchIdentity {
        shard::MatchIdentity {
            names: self.engines.each_ref().map(|spec| spec.name.clone()),
            conditions: heading.to_string(),
            seed: self.plan.seed.to_string(),
            games: self.bounded.then_some(self.games),
        }
    }

    /// Opens the records file: created afresh, or with `--resume` (when it
    /// exists) cut after its last complete record and opened to append.
    /// Returns the writer and the games already recorded.
    fn open_records(
        &self,
        heading: &str,
    ) -> Result<(Option<BufWriter<File>>, Vec<Played>), String> {
        let Some(path) = &self.out else {
            return Ok((None, Vec::new()));
        };
        let shown = path.display();
        if !self.resume || !path.exists() {
            let file = File::create(path).map_err(|e| format!("cannot create '{shown}': {e}"))?;
            return Ok((Some(BufWriter::new(file)), Vec::new()));
        }
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("cannot read '{shown}': {e}"))?;
        let prefix = records::read_prefix(&text);
        let mut keep = prefix.complete_bytes;
        for ending in ["\r\n", "\n"] {
            if text[keep..].starts_with(ending) {
                keep += ending.len();
                break;
            }
        }
        if let Some(error) = &prefix.error {
            eprintln!(
                "warning: '{shown}': {error}; the last {} bytes (a half-written record) are discarded",
                text.len() - keep
            );
        }
        let expected = self.identity(heading);
        let mut played: Vec<Played> = Vec::new();
        for (index, record) in prefix.records.iter().enumerate() {
            let number = index + 1;
            let game = Played::of(record)
                .map_err(|fault| format!("cannot resume '{shown}': record {number}: {fault}"))?;
            if game.identity != expected {
                return Err(format!(
                    "cannot resume '{shown}': record {number} is of another match ({}; this one is {expected})",
                    game.identity
                ));
            }
            if let Some(shard) = self.shard.filter(|shard| !shard.has(game.pair)) {
                return Err(format!(
                    "cannot resume '{shown}': record {number} is of pair {}, not of shard {shard}",
                    game.pair
                ));
            }
            if played.iter().any(|other| other.game() == game.game()) {
                return Err(format!(
                    "cannot resume '{shown}': record {number} repeats a game of pair {}",
                    game.pair
                ));
            }
            played.push(game);
        }
        let mut file = OpenOptions::new()
            .append(true)
            .open(path)
            .and_then(|file| file.set_len(keep as u64).map(|()| file))
            .map_err(|e| format!("cannot append to '{shown}': {e}"))?;
        let kept = &text[..keep];
        if !kept.is_empty() && !kept.ends_with("\n\n") && !kept.ends_with("\r\n\r\n") {
            // Records are separated by a blank line.
            let separated = if kept.ends_with('\n') { "\n" } else { "\n\n" };
            file.write_all(separated.as_bytes())
                .map_err(|e| format!("cannot append to '{shown}': {e}"))?;
        }
        Ok((Some(BufWriter::new(file)), played))
    }

    /// Plays the match and prints the summary; returns the exit code.
    fn play(self) -> i32 {
        // Start each engine once before anything else, so that a wrong
        // command fails at once and with a clear message; the processes
        // go on to play the first worker's games.
        let mut first_seats = Vec::new();
        for (spec, limits) in self.engines.iter().zip(self.limits) {
            let mut seat = Seat::new(spec.clone(), limits);
            match seat.ensure_started(&self.settings) {
                Ok(Some(identity)) => {
                    let announced = |name: &str| {
                        identity
                            .options
                            .iter()
                            .any(|o| o.eq_ignore_ascii_case(name))
                    };
                    let rules = rule_options(&self.plan.rule_sets[0]).map(|(name, _)| name);
                    let wanted = spec.options.iter().map(|(name, _)| name.as_str());
                    for name in wanted.chain(rules).filter(|name| !announced(name)) {
                        eprintln!(
                            "warning: {} does not announce an option '{name}'",
                            spec.name
                        );
                    }
                }
                Ok(None) => {}
                Err(error) => {
                    return usage_error(&format!(
                        "engine {} ({}): {error}",
                        spec.name,
                        spec.command_line()
                    ));
                }
            }
            first_seats.push(seat);
        }
        let names = [self.engines[0].name.as_str(), self.engines[1].name.as_str()];
        let heading = self.heading();
        let (writer, played) = match self.open_records(&heading) {
            Ok(opened) => opened,
            Err(message) => return usage_error(&message),
        };
        let total = match (self.bounded, self.shard) {
            (true, Some(shard)) => format!(
                "shard {shard} of a {}-game match, {} games",
                self.games, self.planned
            ),
            (true, None) => format!("{} games", self.games),
            (false, _) => "until the SPRT decides".to_string(),
        };
        eprintln!(
            "Match {} vs {}: {total}, concurrency {}; {heading}",
            names[0], names[1], self.concurrency
        );
        let mut tally = Tally::default();
        let mut done = HashSet::new();
        for game in &played {
            tally.count(
                game.winner,
                game.termination,
                game.first_is_south,
                game.pair,
            );
            done.insert(game.game());
        }
        if let Some(path) = self.out.as_ref().filter(|_| self.resume) {
            eprintln!(
                "Resuming: {} games already in '{}' are kept and not played again",
                done.len(),
                path.display()
            );
        }

        let shared = Mutex::new(Progress {
            tally,
            writer,
            failed: false,
            stopped_by_sprt: None,
        });
        let next = AtomicU64::new(0);
        let stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let mut first_seats = Some(first_seats);
            for worker in 0..self.concurrency {
                let seats = match first_seats.take() {
                    Some(seats) => seats,
                    None => self
                        .engines
                        .iter()
                        .zip(self.limits)
                        .map(|(spec, limits)| Seat::new(spec.clone(), limits))
                        .collect(),
                };
                let (config, shared, next, stop, done) = (&self, &shared, &next, &stop, &done);
                let spawned = std::thread::Builder::new()
                    .name(format!("match worker {worker}"))
                    .spawn_scoped(scope, move || config.work(seats, shared, next, done, stop));
                if let Err(error) = spawned {
                    eprintln!("warning: cannot start worker {worker}: {error}");
                }
            }
        });

        let progress = shared
            .into_inner()
            .unwrap_or_else(|poison| poison.into_inner());
        if let Some(mut writer) = progress.writer {
            if writer.flush().is_err() {
                eprintln!("error: cannot write the game records");
                return 1;
            }
        }
        let total = self.bounded.then_some(self.planned);
        eprintln!("{}", progress.tally.status_line(total, self.sprt.as_ref()));
        let mut summary = progress.tally.summary(names, &heading, self.sprt.as_ref());
        if let Some(decision) = progress.stopped_by_sprt {
            summary.push_str(&format!(
                "Stopped by the SPRT after {} games: {decision}\n",
                progress.tally.games()
            ));
        }
        print!("{summary}");
        let _ = std::io::stdout().flush();
        if progress.failed { 1 } else { 0 }
    }

    /// A worker: plays games until none are left or the match stops.
    /// `next` counts the games of this run handed out; games in `done`
    /// were played before (`--resume`).
    fn work(
        &self,
        mut seats: Vec<Seat>,
        shared: &Mutex<Progress>,
        next: &AtomicU64,
        done: &HashSet<u64>,
        stop: &AtomicBool,
    ) {
        loop {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let job = next.fetch_add(1, Ordering::SeqCst);
            let game = match self.shard {
                Some(shard) => shard.game(job, self.games),
                None => Some(job).filter(|game| *game < self.games),
            };
            let Some(game) = game else {
                break;
            };
            if done.contains(&game) {
                continue;
            }
            let pair = (game / 2) as usize;
            let first_is_south = game % 2 == 0;
            let opening = match self.plan.opening(pair) {
                Ok(opening) => opening,
                Err(error) => {
                    eprintln!("error: game {}: {error}", game + 1);
                    let mut progress = shared.lock().unwrap_or_else(|p| p.into_inner());
                    progress.failed = true;
                    stop.store(true, Ordering::SeqCst);
                    break;
                }
            };
            let [first, second] = seats.as_mut_slice() else {
                break;
            };
            let order = if first_is_south {
                [first, second]
            } else {
                [second, first]
            };
            let names = [order[0].spec.name.clone(), order[1].spec.name.clone()];
            let Some(result) = referee::play(order, &opening, &self.settings, stop) else {
                break;
            };
            let finished = Finished {
                number: game + 1,
                record: self.record(game, &names, &opening, &result),
                names,
                result,
                pair: pair as u64,
                first_is_south,
            };
            let mut progress = shared.lock().unwrap_or_else(|p| p.into_inner());
            progress.finish(self, &finished, stop);
        }
        for seat in &mut seats {
            seat.shut_down();
        }
    }

    /// The record of a finished game.
    fn record(
        &self,
        game: u64,
        names: &[String; 2],
        opening: &openings::Opening,
        result: &GameResult,
    ) -> Record {
        let spec_of = |name: &str| self.engines.iter().find(|s| s.name == name);
        let mut record = Record::default();
        record.push_tag("Event", "pasang match");
        record.push_tag("Date", utc_date());
        record.push_tag("Round", (game + 1).to_string());
        record.push_tag("Pair", (game / 2).to_string());
        record.push_tag("South", names[0].clone());
        record.push_tag("North", names[1].clone());
        record.push_tag(
            "SouthOptions",
            spec_of(&names[0]).map_or(String::new(), EngineSpec::options_text),
        );
        record.push_tag(
            "NorthOptions",
            spec_of(&names[1]).map_or(String::new(), EngineSpec::options_text),
        );
        let rules = opening.rules;
        record.push_tag("Pattern", rules.pattern.to_string());
        record.push_tag("KaEntry", rules.ka_entry.to_string());
        record.push_tag("SecondColumn", rules.second_column.to_string());
        record.push_tag("Centre", rules.centre.to_string());
        record.push_tag("FEN", opening.start.clone());
        record.push_tag("OpeningPlies", opening.plies.len().to_string());
        record.push_tag("Seed", self.plan.seed.to_string());
        record.push_tag("RandomPlies", self.plan.random_plies.to_string());
        record.push_tag("First", self.engines[0].name.clone());
        if self.bounded {
            record.push_tag("Games", self.games.to_string());
        }
        record.push_tag("Conditions", self.heading());
        let limits_of = |name: &str| {
            let index = usize::from(self.engines[0].name != name);
            self.limits[index]
        };
        let (south, north) = (limits_of(&names[0]), limits_of(&names[1]));
        if south == north {
            record.push_tag("TimeControl", south.describe());
        } else {
            record.push_tag("SouthTimeControl", south.describe());
            record.push_tag("NorthTimeControl", north.describe());
        }
        record.push_tag("Result", result.result_token());
        record.push_tag("Termination", result.termination.to_string());
        record.push_tag("TerminationDetail", result.detail.clone());
        record.push_tag(
            "Scores",
            format!("{}-{}", result.scores[0], result.scores[1]),
        );
        record.push_tag("PlyCount", result.moves.len().to_string());
        record.moves = result.moves.clone();
        record.result = result.result_token().to_string();
        record
    }
}

/// A game just played, as a worker hands it over.
struct Finished {
    /// Its number, from 1.
    number: u64,
    /// The engines' names, South first.
    names: [String; 2],
    result: GameResult,
    /// The pair it belongs to (both games of a pair share an opening).
    pair: u64,
    /// Whether the first engine sat South.
    first_is_south: bool,
    record: Record,
}

/// What workers share: the score, the records file, and how it ended.
struct Progress {
    tally: Tally,
    writer: Option<BufWriter<File>>,
    failed: bool,
    stopped_by_sprt: Option<Decision>,
}

impl Progress {
    /// Counts a finished game, reports it, writes its record, and raises
    /// `stop` when the SPRT decides or the records cannot be written.
    fn finish(&mut self, config: &Config, game: &Finished, stop: &AtomicBool) {
        if self.stopped_by_sprt.is_some() {
            // Decided while this game was being played: not counted, so
            // the summary shows the state at the decision.
            return;
        }
        self.tally.add(&game.result, game.first_is_south, game.pair);
        eprintln!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            game.number,
            game.names[0],
            game.names[1],
            game.result.result_token(),
            game.result.detail
        );
        if let Some(writer) = self.writer.as_mut() {
            let written = write!(writer, "{}", game.record).and_then(|()| writer.flush());
            if let Err(error) = written {
                eprintln!("error: cannot write the game record: {error}");
                self.writer = None;
                self.failed = true;
                stop.store(true, Ordering::SeqCst);
            }
        }
        let games = self.tally.games();
        let total = config.bounded.then_some(config.planned);
        if games % config.report_every == 0 && total != Some(games) {
            eprintln!("{}", self.tally.status_line(total, config.sprt.as_ref()));
        }
        if let Some(sprt) = &config.sprt {
            let (_, decision) = self.tally.sprt(sprt);
            if decision != Decision::Continue {
                self.stopped_by_sprt = Some(decision);
                stop.store(true, Ordering::SeqCst);
            }
        }
    }
}
