//! A match's configuration: the arguments checked and combined into what
//! the runner needs, and how the match describes itself.

use std::path::PathBuf;
use std::time::Duration;

use super::referee::RefereeSettings;
use super::resume;
use super::statistics::{Sprt, SprtError};
use crate::client::{EngineSpec, MatchLimits, distinct_names};
use crate::rules::Rules;
use crate::schedule::openings::{BookFileError, OpeningError, OpeningPlan, describe, load_book};
use crate::schedule::shard::Shard;

/// A match as its caller asks for it, before it is checked: plain values,
/// which the command line (`cli`) builds from its flags. The flags' names
/// appear in [`ConfigError`]'s messages because the command line is the
/// one caller.
#[derive(Clone, Debug)]
pub(crate) struct MatchSettings {
    /// The two engines.
    pub engines: Vec<EngineSpec>,
    /// The limits of an engine whose spec gives none.
    pub limits: MatchLimits,
    /// Games to play (rounded up to whole pairs); `None`: 2, or unbounded
    /// under an SPRT.
    pub games: Option<u64>,
    /// Games played at once.
    pub concurrency: usize,
    /// The rule sets the pairs cycle through.
    pub rule_sets: Vec<Rules>,
    /// A file of start positions.
    pub openings: Option<PathBuf>,
    /// Random legal plies played from each opening.
    pub random_plies: usize,
    /// Seed of the random plies (`None`: from the clock).
    pub seed: Option<u64>,
    /// The sequential test's words (`elo0=0 elo1=10 ...`).
    pub sprt: Option<String>,
    /// Where every game's record is written.
    pub out: Option<PathBuf>,
    /// The part of the match this run plays.
    pub shard: Option<Shard>,
    /// Keep and skip the games already in `out`.
    pub resume: bool,
    /// Time an engine may exceed its clock before losing on time.
    pub time_margin: Duration,
    /// Longest wait for a bestmove that no clock bounds.
    pub move_timeout: Duration,
    /// Longest wait for readyok.
    pub ping_timeout: Duration,
    /// A status line every this many games.
    pub report_every: u64,
}

/// Why the arguments do not make a match. `Display` gives the message
/// printed before the usage exit.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ConfigError {
    /// Not exactly two `--engine` options; the number given.
    #[error("a match needs exactly two --engine options ({0} given)")]
    EngineCount(usize),
    /// An engine has no limit of its own and the match gives none.
    #[error(
        "no limit: give --tc, --movetime, --depth or --nodes (or tc=, movetime=, depth=, nodes= in each --engine)"
    )]
    NoLimit,
    /// `--movetime`, `--depth` or `--nodes` is 0.
    #[error("--movetime, --depth and --nodes must be above 0")]
    ZeroLimit,
    /// `--sprt` does not describe a test.
    #[error("--sprt: {0}")]
    Sprt(#[source] SprtError),
    /// `--games 0`.
    #[error("--games must be at least 1")]
    NoGames,
    /// `--concurrency 0`.
    #[error("--concurrency must be at least 1")]
    NoConcurrency,
    /// `--shard` without `--seed` or `--games`: the shards would not play
    /// the same match.
    #[error(
        "--shard {0} needs --seed and --games, so that every shard plays the openings of the same match"
    )]
    ShardUnpinned(Shard),
    /// `--shard` with `--sprt`.
    #[error("--shard with --sprt: an SPRT is judged over all the pairs; give --sprt to --merge")]
    ShardWithSprt,
    /// `--resume` without `--out`.
    #[error("--resume needs --out, the records file to resume")]
    ResumeWithoutOut,
    /// The openings file cannot be had.
    #[error(transparent)]
    Book(BookFileError),
    /// An opening of the first cycle cannot be made.
    #[error(transparent)]
    Opening(OpeningError),
}

/// Everything a match needs, checked.
pub(super) struct MatchConfig {
    pub(super) engines: [EngineSpec; 2],
    /// Each engine's limits.
    pub(super) limits: [MatchLimits; 2],
    pub(super) settings: RefereeSettings,
    pub(super) games: u64,
    /// Games this run plays: `games`, or the shard's part of them.
    pub(super) planned: u64,
    pub(super) concurrency: usize,
    pub(super) plan: OpeningPlan,
    pub(super) sprt: Option<Sprt>,
    pub(super) out: Option<PathBuf>,
    /// The part of the match this run plays (`None`: all of it).
    pub(super) shard: Option<Shard>,
    /// Keep and skip the games already in `out`.
    pub(super) resume: bool,
    pub(super) report_every: u64,
    /// Whether `games` was bounded by the user (for progress lines).
    pub(super) bounded: bool,
}

impl MatchConfig {
    /// Checks `args` and combines them into a match.
    pub(super) fn new(args: &MatchSettings) -> Result<MatchConfig, ConfigError> {
        let [first, second] = args.engines.as_slice() else {
            return Err(ConfigError::EngineCount(args.engines.len()));
        };
        let mut engines = [first.clone(), second.clone()];
        distinct_names(&mut engines);
        let limits = engine_limits(args, &engines)?;
        let sprt = match &args.sprt {
            Some(words) => Some(Sprt::parse(words).map_err(ConfigError::Sprt)?),
            None => None,
        };
        let games = match (args.games, sprt) {
            (Some(0), _) => return Err(ConfigError::NoGames),
            (Some(n), _) => n.saturating_add(n % 2),
            (None, Some(_)) => u64::MAX - 1,
            (None, None) => 2,
        };
        check_running(args, sprt.is_some())?;
        let book = match &args.openings {
            Some(path) => Some(load_book(path).map_err(ConfigError::Book)?),
            None => None,
        };
        let seed = args
            .seed
            .unwrap_or_else(|| crate::host::unix_time().as_nanos() as u64);
        let plan = OpeningPlan {
            rule_sets: args.rule_sets.clone(),
            book,
            random_plies: args.random_plies,
            seed,
        };
        // Build one full cycle of openings now, so that a bad book line
        // or rule combination stops the match before it starts.
        let pairs = games / 2;
        let planned = args.shard.map_or(games, |shard| shard.games(games));
        for pair in 0..(plan.cycle() as u64).min(pairs) {
            plan.opening(pair as usize).map_err(ConfigError::Opening)?;
        }
        let settings = RefereeSettings {
            time_margin: args.time_margin,
            move_ceiling: args.move_timeout,
            ping_timeout: args.ping_timeout,
            ..RefereeSettings::default()
        };
        Ok(MatchConfig {
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
    pub(super) fn describe_limits(&self) -> String {
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
    pub(super) fn heading(&self) -> String {
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
    pub(super) fn identity(&self, heading: &str) -> resume::MatchIdentity {
        resume::MatchIdentity {
            names: self.engines.each_ref().map(|spec| spec.name.clone()),
            conditions: heading.to_string(),
            seed: self.plan.seed.to_string(),
            games: self.bounded.then_some(self.games),
        }
    }
}

/// Each engine's limits: its own where its spec gives some, else the
/// match's; every engine must have one, and none may be zero.
fn engine_limits(
    args: &MatchSettings,
    engines: &[EngineSpec; 2],
) -> Result<[MatchLimits; 2], ConfigError> {
    let global = args.limits;
    let limits = engines.each_ref().map(|spec| {
        if spec.limits.is_empty() {
            global
        } else {
            spec.limits
        }
    });
    if limits.iter().any(MatchLimits::is_empty) {
        return Err(ConfigError::NoLimit);
    }
    if global.movetime == Some(0) || global.nodes == Some(0) || global.depth == Some(0) {
        return Err(ConfigError::ZeroLimit);
    }
    Ok(limits)
}

/// How the match runs: some concurrency; a shard with its seed and
/// length pinned and no SPRT; --resume with --out.
fn check_running(args: &MatchSettings, sprt: bool) -> Result<(), ConfigError> {
    if args.concurrency == 0 {
        return Err(ConfigError::NoConcurrency);
    }
    if let Some(shard) = args.shard {
        // Every shard must make the same openings: never a seed from
        // the clock, never a match of unknown length.
        if args.seed.is_none() || args.games.is_none() {
            return Err(ConfigError::ShardUnpinned(shard));
        }
        if sprt {
            return Err(ConfigError::ShardWithSprt);
        }
    }
    if args.resume && args.out.is_none() {
        return Err(ConfigError::ResumeWithoutOut);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_keep_their_wording() {
        assert_eq!(
            ConfigError::EngineCount(1).to_string(),
            "a match needs exactly two --engine options (1 given)"
        );
        let shard: Shard = "2/3".parse().unwrap();
        assert_eq!(
            ConfigError::ShardUnpinned(shard).to_string(),
            "--shard 2/3 needs --seed and --games, so that every shard plays the openings of the same match"
        );
        assert_eq!(
            ConfigError::ResumeWithoutOut.to_string(),
            "--resume needs --out, the records file to resume"
        );
    }
}
