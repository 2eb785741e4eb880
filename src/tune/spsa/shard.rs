//! One shard's part of an iteration, as a small text file, and the merge
//! of all shards' parts into the iteration's one update.
//!
//! `--shard K/N` plays the pairs of the current iteration whose global
//! number `i` has `i mod N = K - 1` (the scheme of `pasang match
//! --shard`), at the values the state file gives, and writes:
//!
//! ```text
//! first = 128
//! seed = 11
//! shard = 2/4
//! pairs = 2
//! wins = 1
//! draws = 0
//! losses = 3
//! ```
//!
//! The merge takes one file of every shard of the iteration the state is
//! at, sums them, and applies the update.

use std::path::{Path, PathBuf};

use super::state::{Batch, BatchResult, Run};
use crate::schedule::shard::Shard;

/// One shard's results of one iteration.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) struct ShardResult {
    /// The iteration's first pair (the state's `done` when it was played).
    pub first: u64,
    /// The run's seed (to tell runs apart).
    pub seed: u64,
    pub shard: Shard,
    pub result: BatchResult,
}

/// Why shards' results cannot be read or merged.
#[derive(Debug, thiserror::Error)]
pub(crate) enum MergeError {
    /// A file cannot be read.
    #[error("cannot read '{}': {error}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        error: std::io::Error,
    },
    /// A file is not a shard's results.
    #[error("'{}' line {line}: {why}", .path.display())]
    Malformed {
        path: PathBuf,
        line: usize,
        why: String,
    },
    /// A file lacks a key.
    #[error("'{}': '{key}' is missing", .path.display())]
    Missing { path: PathBuf, key: &'static str },
    /// A file is of another iteration or run.
    #[error(
        "'{}' is of the iteration from pair {found} (seed {seed}); the state is at pair {expected} (seed {expected_seed})",
        .path.display()
    )]
    OtherIteration {
        path: PathBuf,
        found: u64,
        seed: u64,
        expected: u64,
        expected_seed: u64,
    },
    /// Files of different shard counts.
    #[error("'{}' is shard {shard}, the first file's count is {count}", .path.display())]
    OtherCount {
        path: PathBuf,
        shard: Shard,
        count: u64,
    },
    /// A shard given twice.
    #[error("shard {0} is given twice")]
    Twice(Shard),
    /// Shards missing: no update until every shard is in.
    #[error("shards missing: {missing} of {count} (nothing updated)")]
    MissingShards { missing: String, count: u64 },
    /// A shard's pair count is not its share of the iteration.
    #[error("'{}' has {found} pairs; shard {shard} of this iteration has {expected}", .path.display())]
    WrongPairs {
        path: PathBuf,
        shard: Shard,
        found: u64,
        expected: u64,
    },
    /// No file given, or the run is over.
    #[error("{0}")]
    Nothing(&'static str),
}

impl ShardResult {
    /// The file's text.
    pub(crate) fn to_text(self) -> String {
        let r = self.result;
        format!(
            "# pasang SPSA shard results (merge with: pasang tune --spsa --state <state> --merge <files>)\n\
             first = {}\nseed = {}\nshard = {}\npairs = {}\nwins = {}\ndraws = {}\nlosses = {}\n",
            self.first, self.seed, self.shard, r.pairs, r.wins, r.draws, r.losses
        )
    }

    /// Reads the file at `path`.
    pub(crate) fn load(path: &Path) -> Result<ShardResult, MergeError> {
        let text = std::fs::read_to_string(path).map_err(|error| MergeError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        let malformed = |line: usize, why: String| MergeError::Malformed {
            path: path.to_path_buf(),
            line,
            why,
        };
        let mut numbers: [Option<u64>; 6] = [None; 6];
        let mut shard = None;
        const NUMBERS: [&str; 6] = ["first", "seed", "pairs", "wins", "draws", "losses"];
        for (number, raw) in text.lines().enumerate() {
            let line = number + 1;
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let Some((key, value)) = trimmed.split_once('=') else {
                return Err(malformed(line, "not 'key = value'".into()));
            };
            let (key, value) = (key.trim(), value.trim());
            if key == "shard" {
                shard = Some(
                    value
                        .parse::<Shard>()
                        .map_err(|error| malformed(line, error.to_string()))?,
                );
                continue;
            }
            let Some(slot) = NUMBERS.iter().position(|k| *k == key) else {
                return Err(malformed(
                    line,
                    format!("unknown key '{}'", crate::notation::shorten(key)),
                ));
            };
            numbers[slot] = Some(value.parse().map_err(|_| {
                malformed(
                    line,
                    format!(
                        "'{key}' value '{}' is not a whole number",
                        crate::notation::shorten(value)
                    ),
                )
            })?);
        }
        let get = |slot: usize| {
            numbers[slot].ok_or(MergeError::Missing {
                path: path.to_path_buf(),
                key: NUMBERS[slot],
            })
        };
        Ok(ShardResult {
            first: get(0)?,
            seed: get(1)?,
            shard: shard.ok_or(MergeError::Missing {
                path: path.to_path_buf(),
                key: "shard",
            })?,
            result: BatchResult {
                pairs: get(2)?,
                wins: get(3)?,
                draws: get(4)?,
                losses: get(5)?,
            },
        })
    }
}

/// How many of `batch`'s pairs `shard` plays.
pub(crate) fn pairs_of(batch: &Batch, shard: Shard) -> u64 {
    (batch.first..batch.first + batch.count)
        .filter(|pair| shard.has(*pair))
        .count() as u64
}

/// Sums the shards' files of the iteration `run` is at, checking that each
/// shard is there once, with its share of the pairs. Returns the batch and
/// its summed result, for [`Run::apply`].
pub(crate) fn merge(run: &Run, files: &[PathBuf]) -> Result<(Batch, BatchResult), MergeError> {
    let batch = run
        .next_batch()
        .ok_or(MergeError::Nothing("the run is over: nothing to merge"))?;
    let mut results: Vec<(PathBuf, ShardResult)> = Vec::new();
    for path in files {
        let result = ShardResult::load(path)?;
        if result.first != batch.first || result.seed != run.seed {
            return Err(MergeError::OtherIteration {
                path: path.clone(),
                found: result.first,
                seed: result.seed,
                expected: batch.first,
                expected_seed: run.seed,
            });
        }
        results.push((path.clone(), result));
    }
    let Some((_, first)) = results.first() else {
        return Err(MergeError::Nothing("no shard results to merge"));
    };
    let count = first.shard.count;
    let mut seen = vec![false; count as usize];
    let mut sum = BatchResult::default();
    for (path, result) in &results {
        if result.shard.count != count {
            return Err(MergeError::OtherCount {
                path: path.clone(),
                shard: result.shard,
                count,
            });
        }
        let slot = &mut seen[result.shard.index as usize];
        if *slot {
            return Err(MergeError::Twice(result.shard));
        }
        *slot = true;
        let expected = pairs_of(&batch, result.shard);
        if result.result.pairs != expected {
            return Err(MergeError::WrongPairs {
                path: path.clone(),
                shard: result.shard,
                found: result.result.pairs,
                expected,
            });
        }
        sum.add(result.result);
    }
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, seen)| !**seen)
        .map(|(index, _)| (index + 1).to_string())
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::MissingShards {
            missing: missing.join(", "),
            count,
        });
    }
    Ok((batch, sum))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::spsa::state::tests::{fake_result, sample_run};

    fn write(dir: &Path, name: &str, result: &ShardResult) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, result.to_text()).unwrap();
        path
    }

    /// Splits a made-up batch result among `count` shards by their pairs:
    /// the last shard's part carries the wins and losses, the others draw.
    fn split(run: &Run, count: u64) -> Vec<ShardResult> {
        let batch = run.next_batch().unwrap();
        let whole = fake_result(&batch);
        (0..count)
            .map(|index| {
                let shard = Shard { index, count };
                let pairs = pairs_of(&batch, shard);
                let result = if index + 1 == count {
                    BatchResult { pairs, ..whole }
                } else {
                    BatchResult {
                        pairs,
                        draws: 2 * pairs,
                        ..BatchResult::default()
                    }
                };
                ShardResult {
                    first: batch.first,
                    seed: run.seed,
                    shard,
                    result,
                }
            })
            .collect()
    }

    #[test]
    fn merged_shards_update_as_the_whole_batch() {
        let dir = std::env::temp_dir().join(format!("spsa-merge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut whole = sample_run(40, 8);
        let mut sharded = whole.clone();
        for _ in 0..5 {
            let batch = whole.next_batch().unwrap();
            let result = fake_result(&batch);
            whole.apply(&batch, result);
            let parts = split(&sharded, 3);
            let files: Vec<PathBuf> = parts
                .iter()
                .enumerate()
                .map(|(i, part)| write(&dir, &format!("s{i}.txt"), part))
                .collect();
            assert_eq!(ShardResult::load(&files[1]).unwrap(), parts[1]);
            let (batch, sum) = merge(&sharded, &files).unwrap();
            assert_eq!(sum.result(), result.result());
            sharded.apply(&batch, sum);
        }
        assert_eq!(sharded.tuned, whole.tuned);
        assert_eq!(sharded.done, whole.done);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn merge_refuses_what_is_not_one_whole_iteration() {
        let dir = std::env::temp_dir().join(format!("spsa-refuse-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let run = sample_run(40, 8);
        let parts = split(&run, 2);
        let a = write(&dir, "a.txt", &parts[0]);
        let b = write(&dir, "b.txt", &parts[1]);
        let error = merge(&run, std::slice::from_ref(&a)).unwrap_err();
        assert!(
            error.to_string().contains("shards missing: 2 of 2"),
            "{error}"
        );
        let error = merge(&run, &[a.clone(), a.clone()]).unwrap_err();
        assert!(matches!(error, MergeError::Twice(_)), "{error}");
        let mut later = parts[1];
        later.first = 8;
        let c = write(&dir, "c.txt", &later);
        let error = merge(&run, &[a.clone(), c]).unwrap_err();
        assert!(
            matches!(error, MergeError::OtherIteration { .. }),
            "{error}"
        );
        let mut short = parts[1];
        short.result.pairs -= 1;
        let d = write(&dir, "d.txt", &short);
        let error = merge(&run, &[a.clone(), d]).unwrap_err();
        assert!(matches!(error, MergeError::WrongPairs { .. }), "{error}");
        std::fs::write(dir.join("e.txt"), "first = 0\nshard = 1/2\nwins = x\n").unwrap();
        let error = merge(&run, &[dir.join("e.txt")]).unwrap_err();
        assert!(error.to_string().contains("'wins' value 'x'"), "{error}");
        assert!(merge(&run, &[a, b]).is_ok());
        assert!(matches!(merge(&run, &[]), Err(MergeError::Nothing(_))));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
