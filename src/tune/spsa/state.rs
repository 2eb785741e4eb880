//! An SPSA run as a small text file: what it plays (the engine, the nodes
//! or the clock, the openings), its schedule, how far it got and the
//! current values. It is written after every batch (to a temporary file,
//! then renamed, so a stop never leaves half a file), and a run resumes
//! from it. The log gets one line per batch.
//!
//! The format, one `key = value` a line (`#` starts a comment), then one
//! `param <name> <value> <c_end>` line per tuned constant:
//!
//! ```text
//! engine = target/release/pasang
//! nodes = 5000
//! ...
//! param FutilityMargin1 75 10
//! ```

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use super::{Schedule, Tuned, perturbed, signs, update};
use crate::client::TimeControl;
use crate::rules::{Centre, KaEntry, Pattern, Rules, SecondColumn};
use crate::schedule::openings::rule_sets;
use crate::search::TUNABLES;
use crate::search::params::find;

/// What bounds the moves of a run's games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum GameLimit {
    /// A fixed node count a move: the games do not depend on the load.
    Nodes(u64),
    /// A clock per side, for the time-use factors; an engine loses on
    /// time only past `margin_ms`, as with `pasang match --time-margin`.
    Clock {
        control: TimeControl,
        margin_ms: u64,
    },
}

impl std::fmt::Display for GameLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameLimit::Nodes(nodes) => write!(f, "{nodes} nodes a move"),
            GameLimit::Clock { control, margin_ms } => {
                write!(f, "{control} a game (time margin {margin_ms} ms)")
            }
        }
    }
}

/// A run: its settings, schedule, progress and values.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Run {
    /// The engine's command line (program and arguments).
    pub engine: String,
    /// Nodes per move, or the clock.
    pub limit: GameLimit,
    /// Random plies after each rule set's start.
    pub random_plies: usize,
    /// Seed of the openings and of the signs.
    pub seed: u64,
    /// The rule values whose every combination the pairs cycle through.
    pub patterns: Vec<Pattern>,
    pub ka_entries: Vec<KaEntry>,
    pub second_columns: Vec<SecondColumn>,
    pub centres: Vec<Centre>,
    /// N, α, γ, A, r_end.
    pub schedule: Schedule,
    /// Pairs per iteration.
    pub batch: u64,
    /// Pairs played so far.
    pub done: u64,
    /// The plus engine's wins, draws and losses so far.
    pub totals: [u64; 3],
    /// The tuned constants.
    pub tuned: Vec<Tuned>,
}

/// One iteration: its pairs (global numbers `first..first + count`), the
/// k of its gains, and the signs of its perturbation.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Batch {
    pub first: u64,
    pub count: u64,
    pub k: u64,
    pub signs: Vec<f64>,
    /// `(name, plus, minus)` for every tuned constant.
    pub values: Vec<(&'static str, i32, i32)>,
}

/// What an iteration's games gave the plus engine.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub(crate) struct BatchResult {
    pub pairs: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl BatchResult {
    /// Wins minus losses: R of the update.
    pub(crate) fn result(&self) -> i64 {
        self.wins as i64 - self.losses as i64
    }

    /// Adds another (a shard's) result.
    pub(crate) fn add(&mut self, other: BatchResult) {
        self.pairs += other.pairs;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

/// Why a state file cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StateError {
    /// The file cannot be read.
    #[error("cannot read '{}': {error}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        error: std::io::Error,
    },
    /// The file cannot be written.
    #[error("cannot write '{}': {error}", .path.display())]
    Write {
        path: PathBuf,
        #[source]
        error: std::io::Error,
    },
    /// A line is neither `key = value` nor a `param` line.
    #[error("line {line}: '{text}' is not 'key = value' or 'param <name> <value> <c_end>'")]
    Syntax { line: usize, text: String },
    /// An unknown key.
    #[error("line {line}: unknown key '{key}'")]
    UnknownKey { line: usize, key: String },
    /// A key given twice.
    #[error("line {line}: '{key}' given twice")]
    Twice { line: usize, key: String },
    /// A value that does not read as its key's.
    #[error("line {line}: '{key}' value '{value}' is invalid: {why}")]
    Value {
        line: usize,
        key: String,
        value: String,
        why: String,
    },
    /// A `param` line names no tunable constant.
    #[error("line {line}: unknown search parameter '{name}'")]
    UnknownParam { line: usize, name: String },
    /// A key the run needs is absent.
    #[error("'{0}' is missing")]
    Missing(&'static str),
    /// No constant is tuned.
    #[error("no 'param' line: nothing to tune")]
    NoParams,
    /// The run's numbers do not make a run.
    #[error("{0}")]
    Invalid(&'static str),
}

/// A [`StateError`] with the file it is about.
#[derive(Debug, thiserror::Error)]
#[error("'{}': {error}", .path.display())]
pub(crate) struct StateFileError {
    pub path: PathBuf,
    #[source]
    pub error: StateError,
}

impl Run {
    /// The rule sets the pairs cycle through.
    pub(crate) fn rule_sets(&self) -> Vec<Rules> {
        rule_sets(
            &self.patterns,
            &self.ka_entries,
            &self.second_columns,
            &self.centres,
        )
    }

    /// Whether every pair has been played.
    pub(crate) fn finished(&self) -> bool {
        self.done >= self.schedule.pairs
    }

    /// The next iteration, `None` once the run is done.
    pub(crate) fn next_batch(&self) -> Option<Batch> {
        if self.finished() {
            return None;
        }
        let count = self.batch.min(self.schedule.pairs - self.done);
        let k = self.done + 1;
        let signs = signs(self.seed, self.done, self.tuned.len());
        let values = perturbed(&self.tuned, &self.schedule, &signs, k);
        Some(Batch {
            first: self.done,
            count,
            k,
            signs,
            values,
        })
    }

    /// Applies the iteration's result: the update, the progress, and the
    /// log line that says so.
    pub(crate) fn apply(&mut self, batch: &Batch, result: BatchResult) -> String {
        update(
            &mut self.tuned,
            &self.schedule,
            &batch.signs,
            batch.k,
            result.result(),
        );
        self.done = batch.first + batch.count;
        self.totals[0] += result.wins;
        self.totals[1] += result.draws;
        self.totals[2] += result.losses;
        let mut line = format!(
            "{}-{} {}-{}-{} {:+} |",
            batch.first + 1,
            batch.first + batch.count,
            result.wins,
            result.draws,
            result.losses,
            result.result()
        );
        for t in &self.tuned {
            let _ = write!(line, " {:.2}", t.value);
        }
        line
    }

    /// The log's first line: what the columns of [`Run::apply`]'s lines
    /// are.
    pub(crate) fn log_header(&self) -> String {
        let names: Vec<&str> = self.tuned.iter().map(Tuned::name).collect();
        format!(
            "# pairs, the plus engine's W-D-L, R | the values after the update: {}",
            names.join(" ")
        )
    }

    /// The values as `Name=value` words (θ rounded), for `--engine`'s
    /// `option.` fields or `setoption`.
    pub(crate) fn values_text(&self, separator: &str, prefix: &str) -> String {
        self.tuned
            .iter()
            .map(|t| format!("{prefix}{}={}", t.name(), t.value.round() as i64))
            .collect::<Vec<_>>()
            .join(separator)
    }

    /// The file's text.
    pub(crate) fn to_text(&self) -> String {
        let list = |values: Vec<String>| values.join(",");
        let mut text = String::from(
            "# pasang SPSA run (docs/spsa.md); continue it with: pasang tune --spsa --state <this file>\n",
        );
        let s = &self.schedule;
        let _ = write!(
            text,
            "engine = {}\n{}random-plies = {}\nseed = {}\n\
             pattern = {}\nka-entry = {}\nsecond-column = {}\ncentre = {}\n\
             pairs = {}\nbatch = {}\nalpha = {}\ngamma = {}\nA = {}\nr-end = {}\n\
             done = {}\nwins = {}\ndraws = {}\nlosses = {}\n",
            self.engine,
            match self.limit {
                GameLimit::Nodes(nodes) => format!("nodes = {nodes}\n"),
                GameLimit::Clock { control, margin_ms } =>
                    format!("tc = {control}\ntime-margin = {margin_ms}\n"),
            },
            self.random_plies,
            self.seed,
            list(self.patterns.iter().map(ToString::to_string).collect()),
            list(self.ka_entries.iter().map(ToString::to_string).collect()),
            list(
                self.second_columns
                    .iter()
                    .map(ToString::to_string)
                    .collect()
            ),
            list(self.centres.iter().map(ToString::to_string).collect()),
            s.pairs,
            self.batch,
            s.alpha,
            s.gamma,
            s.big_a,
            s.r_end,
            self.done,
            self.totals[0],
            self.totals[1],
            self.totals[2],
        );
        text.push_str("# param <name> <value> <c_end>\n");
        for t in &self.tuned {
            let _ = writeln!(text, "param {} {} {}", t.name(), t.value, t.c_end);
        }
        text
    }

    /// Reads a state file's text.
    pub(crate) fn parse(text: &str) -> Result<Run, StateError> {
        let (fields, tuned) = Fields::read(text)?;
        let engine = fields.get("engine")?.1.to_string();
        if engine.is_empty() {
            return Err(StateError::Invalid("'engine' is empty"));
        }
        // A fixed-node run has `nodes`; a clock run has `tc` and
        // `time-margin` instead.
        let limit = match (fields.get("nodes"), fields.get("tc")) {
            (Ok(_), Err(_)) => GameLimit::Nodes(fields.value("nodes")?),
            (Err(_), Ok(_)) => GameLimit::Clock {
                control: fields.value("tc")?,
                margin_ms: fields.value("time-margin")?,
            },
            (Ok(_), Ok(_)) => {
                return Err(StateError::Invalid(
                    "'nodes' and 'tc' both given: a run plays one of them",
                ));
            }
            (Err(_), Err(_)) => return Err(StateError::Missing("nodes")),
        };
        let run = Run {
            engine,
            limit,
            random_plies: fields.value("random-plies")?,
            seed: fields.value("seed")?,
            patterns: fields.list("pattern")?,
            ka_entries: fields.list("ka-entry")?,
            second_columns: fields.list("second-column")?,
            centres: fields.list("centre")?,
            schedule: Schedule {
                pairs: fields.value("pairs")?,
                alpha: fields.value("alpha")?,
                gamma: fields.value("gamma")?,
                big_a: fields.value("A")?,
                r_end: fields.value("r-end")?,
            },
            batch: fields.value("batch")?,
            done: fields.value("done")?,
            totals: [
                fields.value("wins")?,
                fields.value("draws")?,
                fields.value("losses")?,
            ],
            tuned,
        };
        run.check()?;
        Ok(run)
    }

    /// Whether the numbers make a run.
    pub(crate) fn check(&self) -> Result<(), StateError> {
        let s = &self.schedule;
        if self.limit == GameLimit::Nodes(0) {
            return Err(StateError::Invalid("'nodes' must be above 0"));
        }
        if s.pairs == 0 || self.batch == 0 {
            return Err(StateError::Invalid("'pairs' and 'batch' must be above 0"));
        }
        if self.done > s.pairs {
            return Err(StateError::Invalid("'done' is past 'pairs'"));
        }
        let finite = [s.alpha, s.gamma, s.big_a, s.r_end]
            .iter()
            .all(|x| x.is_finite() && *x >= 0.0);
        if !finite {
            return Err(StateError::Invalid(
                "'alpha', 'gamma', 'A' and 'r-end' must be numbers of 0 or more",
            ));
        }
        for (i, t) in self.tuned.iter().enumerate() {
            if self.tuned[..i].iter().any(|other| other.index == t.index) {
                return Err(StateError::Invalid("a parameter is tuned twice"));
            }
        }
        Ok(())
    }

    /// Reads the state file at `path`.
    pub(crate) fn load(path: &Path) -> Result<Run, StateFileError> {
        let wrap = |error| StateFileError {
            path: path.to_path_buf(),
            error,
        };
        let text = std::fs::read_to_string(path).map_err(|error| {
            wrap(StateError::Read {
                path: path.to_path_buf(),
                error,
            })
        })?;
        Run::parse(&text).map_err(wrap)
    }

    /// Writes the state to `path`: a temporary file beside it, then a
    /// rename, so a stop leaves the old state or the new, never half.
    pub(crate) fn save(&self, path: &Path) -> Result<(), StateError> {
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(".tmp");
        let temporary = PathBuf::from(temporary);
        std::fs::write(&temporary, self.to_text())
            .and_then(|()| std::fs::rename(&temporary, path))
            .map_err(|error| StateError::Write {
                path: path.to_path_buf(),
                error,
            })
    }
}

const KEYS: [&str; 20] = [
    "engine",
    "nodes",
    "tc",
    "time-margin",
    "random-plies",
    "seed",
    "pattern",
    "ka-entry",
    "second-column",
    "centre",
    "pairs",
    "batch",
    "alpha",
    "gamma",
    "A",
    "r-end",
    "done",
    "wins",
    "draws",
    "losses",
];

/// `<name> <value> <c_end>` of a `param` line.
fn param_line(line: usize, rest: &str) -> Result<Tuned, StateError> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let [name, value, c_end] = words[..] else {
        return Err(StateError::Syntax {
            line,
            text: crate::notation::shorten(&format!("param {rest}")),
        });
    };
    let index = find(name).ok_or_else(|| StateError::UnknownParam {
        line,
        name: crate::notation::shorten(name),
    })?;
    let tunable = &TUNABLES[index];
    let number = |key: &str, text: &str| -> Result<f64, StateError> {
        text.parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| StateError::Value {
                line,
                key: format!("param {name} {key}"),
                value: crate::notation::shorten(text),
                why: "not a finite number".into(),
            })
    };
    let value = number("value", value)?;
    let c_end = number("c_end", c_end)?;
    if value < f64::from(tunable.min) || value > f64::from(tunable.max) {
        return Err(StateError::Value {
            line,
            key: format!("param {name} value"),
            value: value.to_string(),
            why: format!("out of range {}..{}", tunable.min, tunable.max),
        });
    }
    if c_end <= 0.0 {
        return Err(StateError::Value {
            line,
            key: format!("param {name} c_end"),
            value: c_end.to_string(),
            why: "must be above 0".into(),
        });
    }
    Ok(Tuned {
        index,
        value,
        c_end,
    })
}

/// Appends `line` to the log at `path`, after `header` if the log is new.
pub(crate) fn append_log(path: &Path, header: &str, line: &str) -> Result<(), StateError> {
    use std::io::Write;
    let new = !path.exists();
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut file| {
            if new {
                writeln!(file, "{header}")?;
            }
            writeln!(file, "{line}")
        })
        .map_err(|error| StateError::Write {
            path: path.to_path_buf(),
            error,
        })
}

/// A state file's `key = value` lines: each known key once, with its
/// line number for the errors.
struct Fields(Vec<(&'static str, usize, String)>);

impl Fields {
    /// The fields and the tuned parameters (`param` lines) of a state
    /// file's text; comments and blank lines aside.
    fn read(text: &str) -> Result<(Fields, Vec<Tuned>), StateError> {
        let mut fields: Vec<(&'static str, usize, String)> = Vec::new();
        let mut tuned: Vec<Tuned> = Vec::new();
        for (number, raw) in text.lines().enumerate() {
            let line = number + 1;
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            if let Some(rest) = trimmed.strip_prefix("param ") {
                tuned.push(param_line(line, rest)?);
                continue;
            }
            let Some((key, value)) = trimmed.split_once('=') else {
                return Err(StateError::Syntax {
                    line,
                    text: crate::notation::shorten(trimmed),
                });
            };
            let key = key.trim();
            let Some(known) = KEYS.iter().find(|k| **k == key) else {
                return Err(StateError::UnknownKey {
                    line,
                    key: crate::notation::shorten(key),
                });
            };
            if fields.iter().any(|(k, _, _)| k == known) {
                return Err(StateError::Twice {
                    line,
                    key: key.to_string(),
                });
            }
            fields.push((known, line, value.trim().to_string()));
        }
        if tuned.is_empty() {
            return Err(StateError::NoParams);
        }
        Ok((Fields(fields), tuned))
    }

    /// The line and text of `key`'s value.
    fn get(&self, key: &'static str) -> Result<(usize, &str), StateError> {
        self.0
            .iter()
            .find(|(k, _, _)| *k == key)
            .map(|(_, line, value)| (*line, value.as_str()))
            .ok_or(StateError::Missing(key))
    }

    /// `key`'s value, parsed.
    fn value<T: FromStr>(&self, key: &'static str) -> Result<T, StateError>
    where
        T::Err: std::fmt::Display,
    {
        let (line, value) = self.get(key)?;
        parse_value(key, line, value)
    }

    /// `key`'s value as a comma list, each parsed.
    fn list<T: FromStr>(&self, key: &'static str) -> Result<Vec<T>, StateError>
    where
        T::Err: std::fmt::Display,
    {
        let (line, value) = self.get(key)?;
        value
            .split(',')
            .map(|word| parse_value(key, line, word.trim()))
            .collect()
    }
}

/// One value of `key` on `line`, parsed, or why it does not parse.
fn parse_value<T: FromStr>(key: &str, line: usize, value: &str) -> Result<T, StateError>
where
    T::Err: std::fmt::Display,
{
    value.parse().map_err(|error: T::Err| StateError::Value {
        line,
        key: key.to_string(),
        value: crate::notation::shorten(value),
        why: error.to_string(),
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::tune::spsa::R_END;

    /// A run of `pairs` pairs in batches of `batch` over three constants.
    pub(crate) fn sample_run(pairs: u64, batch: u64) -> Run {
        let tuned = ["FutilityMargin1", "NarrowMoves", "AspirationDelta"]
            .iter()
            .map(|name| {
                let index = find(name).unwrap();
                Tuned {
                    index,
                    value: f64::from(TUNABLES[index].default),
                    c_end: f64::from(TUNABLES[index].step),
                }
            })
            .collect();
        Run {
            engine: "target/release/pasang".into(),
            limit: GameLimit::Nodes(2000),
            random_plies: 2,
            seed: 11,
            patterns: vec![Pattern::One, Pattern::Two],
            ka_entries: vec![KaEntry::Slide, KaEntry::Jump, KaEntry::Both],
            second_columns: vec![SecondColumn::Opposite, SecondColumn::Any],
            centres: vec![Centre::Wall, Centre::Open],
            schedule: Schedule::fishtest(pairs, R_END * 5.0),
            batch,
            done: 0,
            totals: [0; 3],
            tuned,
        }
    }

    /// A made-up result for a batch, a fixed function of its values: the
    /// plus engine wins more the closer its FutilityMargin1 is to 100.
    pub(crate) fn fake_result(batch: &Batch) -> BatchResult {
        let (_, plus, minus) = batch.values[0];
        let better = (plus - 100).abs() < (minus - 100).abs();
        let pairs = batch.count;
        let wins = if better { pairs + pairs / 2 } else { pairs / 2 };
        BatchResult {
            pairs,
            wins,
            draws: pairs / 4,
            losses: 2 * pairs - wins - pairs / 4,
        }
    }

    #[test]
    fn the_text_reads_back_as_the_same_run() {
        let mut run = sample_run(100, 8);
        let batch = run.next_batch().unwrap();
        run.apply(&batch, fake_result(&batch));
        let text = run.to_text();
        assert_eq!(Run::parse(&text).unwrap(), run);
        assert!(text.contains("pattern = 1,2\n"), "{text}");
        assert!(text.contains("param FutilityMargin1 "), "{text}");
    }

    #[test]
    fn a_clock_run_reads_back_and_says_its_limit() {
        let mut run = sample_run(100, 8);
        run.limit = GameLimit::Clock {
            control: "1+0.1".parse().unwrap(),
            margin_ms: 30,
        };
        let text = run.to_text();
        assert!(text.contains("tc = 1+0.1\ntime-margin = 30\n"), "{text}");
        assert!(!text.contains("nodes ="), "{text}");
        assert_eq!(Run::parse(&text).unwrap(), run);
        assert_eq!(run.limit.to_string(), "1+0.1 a game (time margin 30 ms)");
        assert_eq!(sample_run(10, 2).limit.to_string(), "2000 nodes a move");
        let cases = [
            (text.replace("tc = 1+0.1", "tc = fast"), "'tc' value 'fast'"),
            (
                text.replace("time-margin = 30\n", ""),
                "'time-margin' is missing",
            ),
            (
                text.replace("tc = 1+0.1", "tc = 0+1"),
                "'0+1' gives no time",
            ),
            (
                text.clone() + "nodes = 5000\n",
                "'nodes' and 'tc' both given",
            ),
        ];
        for (bad, expected) in cases {
            let error = Run::parse(&bad).unwrap_err().to_string();
            assert!(error.contains(expected), "{error} lacks {expected}");
        }
    }

    #[test]
    fn a_resumed_run_ends_where_an_unbroken_one_does() {
        let mut whole = sample_run(100, 8);
        while let Some(batch) = whole.next_batch() {
            whole.apply(&batch, fake_result(&batch));
        }
        let mut broken = sample_run(100, 8);
        let directory = std::env::temp_dir().join(format!("spsa-resume-{}", std::process::id()));
        std::fs::create_dir_all(&directory).unwrap();
        let path = directory.join("run.spsa");
        for _ in 0..5 {
            let batch = broken.next_batch().unwrap();
            broken.apply(&batch, fake_result(&batch));
            broken.save(&path).unwrap();
            broken = Run::load(&path).unwrap();
        }
        while let Some(batch) = broken.next_batch() {
            broken.apply(&batch, fake_result(&batch));
        }
        std::fs::remove_dir_all(&directory).unwrap();
        assert_eq!(broken, whole);
        assert_eq!(whole.done, 100);
        // The last batch is the 4 pairs left.
        assert_eq!(whole.totals.iter().sum::<u64>(), 200);
        // The made-up gradient pulls FutilityMargin1 from 75 toward 100.
        assert!(whole.tuned[0].value > 80.0, "{}", whole.tuned[0].value);
    }

    #[test]
    fn bad_files_are_named_errors() {
        let good = sample_run(10, 2).to_text();
        let cases: [(String, &str); 8] = [
            (
                good.replace("nodes = 2000", "nodes = many"),
                "'nodes' value 'many'",
            ),
            (good.replace("nodes = 2000\n", ""), "'nodes' is missing"),
            (good.clone() + "nodes = 5\n", "'nodes' given twice"),
            (good.clone() + "speed = 5\n", "unknown key 'speed'"),
            (good.clone() + "just words\n", "is not 'key = value'"),
            (
                with_line(&good, "param NarrowMoves ", "param NarrowMoves 30 1"),
                "out of range 0..8",
            ),
            (
                good.replace("param NarrowMoves", "param Wideness"),
                "unknown search parameter 'Wideness'",
            ),
            (
                good.replace("pattern = 1,2", "pattern = 1,3"),
                "'pattern' value '3'",
            ),
        ];
        for (text, expected) in cases {
            let error = Run::parse(&text).unwrap_err().to_string();
            assert!(error.contains(expected), "{error} lacks {expected}");
        }
        let no_params: String = good
            .lines()
            .filter(|l| !l.starts_with("param"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(matches!(Run::parse(&no_params), Err(StateError::NoParams)));
        let past = good.replace("done = 0", "done = 11");
        assert!(matches!(Run::parse(&past), Err(StateError::Invalid(_))));
    }

    /// `text` with its line that starts with `start` replaced by `line`
    /// (whatever value the default build gives it).
    fn with_line(text: &str, start: &str, line: &str) -> String {
        text.lines()
            .map(|l| if l.starts_with(start) { line } else { l })
            .map(|l| format!("{l}\n"))
            .collect()
    }
}
