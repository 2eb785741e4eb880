//! `pasang match --merge FILE...`: the summary of a match from the records
//! of its shards, as the whole match would have printed it. A game counted
//! twice is refused; pairs with a game missing are named. With `--out`, the
//! records of every shard go to one file in game order.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::MatchError;
use super::resume::{MatchIdentity, Played, RecordFault, ranges};
use super::statistics::Sprt;
use super::tally::Tally;
use crate::record::{Record, RecordError, read};

/// Why records cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A file cannot be read.
    #[error("cannot read '{}': {error}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        error: std::io::Error,
    },
    /// A file is not records text.
    #[error("'{}': {error}", .path.display())]
    Malformed {
        path: PathBuf,
        #[source]
        error: RecordError,
    },
    /// A record lacks what a merge needs.
    #[error("'{}', record {number}: {fault}", .path.display())]
    Record {
        path: PathBuf,
        /// The record's number in its file, from 1.
        number: usize,
        fault: RecordFault,
    },
    /// Records of another match.
    #[error(
        "'{}', record {number} is of another match ({found}; expected {expected})",
        .path.display()
    )]
    Mixed {
        path: PathBuf,
        number: usize,
        expected: Box<MatchIdentity>,
        found: Box<MatchIdentity>,
    },
    /// The same game twice.
    #[error(
        "pair {pair} counted twice: its game with the first engine as {} is in '{}' and in '{}'",
        if *.first_is_south { "South" } else { "North" },
        .first.display(),
        .second.display()
    )]
    Duplicate {
        pair: u64,
        /// Whether it is the game with the first engine as South.
        first_is_south: bool,
        first: PathBuf,
        second: PathBuf,
    },
    /// A pair number past the end of the match.
    #[error("'{}': pair {pair} is past the match's {pairs} pairs", .path.display())]
    PairOutOfRange {
        path: PathBuf,
        pair: u64,
        pairs: u64,
    },
    /// Not one record in the files.
    #[error("no game records in the files")]
    Empty,
}

/// The merged counts of a match.
#[derive(Clone, Debug)]
pub struct Merged {
    /// Which match.
    pub identity: MatchIdentity,
    /// Every game counted once.
    pub tally: Tally,
    /// Pairs of the match with no game in the files.
    pub missing: Vec<u64>,
    /// Pairs with one of their two games in the files.
    pub half: Vec<u64>,
    /// Every record, in game order.
    pub records: Vec<Record>,
}

/// Merges the records texts of `files` (path and text).
pub fn merge(files: &[(PathBuf, String)]) -> Result<Merged, MergeError> {
    let mut identity: Option<MatchIdentity> = None;
    let mut tally = Tally::default();
    // Game number -> the file it came from.
    let mut seen: HashMap<u64, &Path> = HashMap::new();
    let mut ordered: Vec<(u64, Record)> = Vec::new();
    for (path, text) in files {
        let records = read(text).map_err(|error| MergeError::Malformed {
            path: path.clone(),
            error,
        })?;
        for (index, record) in records.into_iter().enumerate() {
            let number = index + 1;
            let played = Played::of(&record).map_err(|fault| MergeError::Record {
                path: path.clone(),
                number,
                fault,
            })?;
            match &identity {
                Some(expected) if *expected != played.identity => {
                    return Err(MergeError::Mixed {
                        path: path.clone(),
                        number,
                        expected: Box::new(expected.clone()),
                        found: Box::new(played.identity),
                    });
                }
                Some(_) => {}
                None => identity = Some(played.identity.clone()),
            }
            if let Some(games) = played.identity.games
                && played.pair >= games / 2
            {
                return Err(MergeError::PairOutOfRange {
                    path: path.clone(),
                    pair: played.pair,
                    pairs: games / 2,
                });
            }
            if let Some(first) = seen.insert(played.game(), path) {
                return Err(MergeError::Duplicate {
                    pair: played.pair,
                    first_is_south: played.first_is_south,
                    first: first.to_path_buf(),
                    second: path.clone(),
                });
            }
            tally.count(
                played.winner,
                played.termination,
                played.first_is_south,
                played.pair,
            );
            ordered.push((played.game(), record));
        }
    }
    let identity = identity.ok_or(MergeError::Empty)?;
    let pairs = match identity.games {
        Some(games) => games / 2,
        // A match run until its SPRT decided: every pair up to the last.
        None => seen.keys().map(|game| game / 2 + 1).max().unwrap_or(0),
    };
    let (missing, half) = gaps(pairs, |game| seen.contains_key(&game));
    ordered.sort_by_key(|(game, _)| *game);
    Ok(Merged {
        identity,
        tally,
        missing,
        half,
        records: ordered.into_iter().map(|(_, record)| record).collect(),
    })
}

/// The pairs below `pairs` with neither game played, and those with one,
/// by whether game `g` was `played(g)`.
fn gaps(pairs: u64, played: impl Fn(u64) -> bool) -> (Vec<u64>, Vec<u64>) {
    let (mut missing, mut half) = (Vec::new(), Vec::new());
    for pair in 0..pairs {
        match [2 * pair, 2 * pair + 1]
            .into_iter()
            .filter(|&g| played(g))
            .count()
        {
            0 => missing.push(pair),
            1 => half.push(pair),
            _ => {}
        }
    }
    (missing, half)
}

impl Merged {
    /// The summary a whole match prints, then what is missing.
    pub fn summary(&self, sprt: Option<&Sprt>) -> String {
        let names = [
            self.identity.names[0].as_str(),
            self.identity.names[1].as_str(),
        ];
        let mut text = self.tally.summary(names, &self.identity.conditions, sprt);
        if !self.missing.is_empty() {
            text.push_str(&format!(
                "Missing pairs ({}): {}\n",
                self.missing.len(),
                ranges(&self.missing)
            ));
        }
        if !self.half.is_empty() {
            text.push_str(&format!(
                "Pairs with one game missing ({}): {}\n",
                self.half.len(),
                ranges(&self.half)
            ));
        }
        text
    }

    /// Whether every pair of the match is in.
    pub fn complete(&self) -> bool {
        self.missing.is_empty() && self.half.is_empty()
    }
}

/// Runs `--merge`: prints the summary and, given `out`, writes every record
/// there in game order. Exit code 0 all pairs in, 1 pairs missing.
pub fn run(
    paths: &[PathBuf],
    sprt: Option<&Sprt>,
    out: Option<&Path>,
) -> Result<ExitCode, MatchError> {
    let mut files = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|error| {
            MatchError::Merge(MergeError::Read {
                path: path.clone(),
                error,
            })
        })?;
        files.push((path.clone(), text));
    }
    let merged = merge(&files).map_err(MatchError::Merge)?;
    eprintln!(
        "Merged {} games from {} files",
        merged.tally.games(),
        files.len()
    );
    if let Some(path) = out {
        let text: String = merged.records.iter().map(Record::to_string).collect();
        std::fs::write(path, text).map_err(|error| MatchError::WriteMerged {
            path: path.to_path_buf(),
            error,
        })?;
    }
    print!("{}", merged.summary(sprt));
    Ok(super::failed_if(!merged.complete()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Record;

    /// The record text of game `game` (from 0) of a 6-game match between
    /// `a` and `b`: the first engine South in even games; South wins.
    fn record(game: u64, seed: &str) -> String {
        let mut record = Record::default();
        let (south, north) = if game.is_multiple_of(2) {
            ("a", "b")
        } else {
            ("b", "a")
        };
        for (name, value) in [
            ("Round", (game + 1).to_string()),
            ("Pair", (game / 2).to_string()),
            ("South", south.to_string()),
            ("North", north.to_string()),
            ("Seed", seed.to_string()),
            ("First", "a".to_string()),
            ("Games", "6".to_string()),
            ("Conditions", "depth=1".to_string()),
            ("Termination", "score".to_string()),
        ] {
            record.push_tag(name, value);
        }
        record.result = crate::record::GameResult::SouthWins;
        record.to_string()
    }

    fn file(name: &str, games: &[u64]) -> (PathBuf, String) {
        let text: String = games.iter().map(|&game| record(game, "1")).collect();
        (PathBuf::from(name), text)
    }

    #[test]
    fn shards_add_up_and_gaps_are_named() {
        let merged = merge(&[file("a", &[0, 1, 4]), file("b", &[3, 5])]).unwrap();
        assert_eq!(merged.tally.games(), 5);
        // South won every game: the first engine won the even ones.
        assert_eq!(
            (merged.tally.wins, merged.tally.losses),
            (2, 3),
            "{merged:?}"
        );
        assert_eq!(merged.tally.pairs, [0, 0, 2, 0, 0]);
        assert!(merged.half == vec![1] && merged.missing.is_empty());
        let rounds: Vec<&str> = merged
            .records
            .iter()
            .map(|r| r.tag("Round").unwrap())
            .collect();
        assert_eq!(rounds, ["1", "2", "4", "5", "6"]);
        assert!(!merged.complete());
        let summary = merged.summary(None);
        assert!(
            summary.starts_with("Results of a vs b (depth=1):\n"),
            "{summary}"
        );
        assert!(
            summary.ends_with("Pairs with one game missing (1): 1\n"),
            "{summary}"
        );
        let merged = merge(&[file("a", &[0, 1])]).unwrap();
        assert_eq!(merged.missing, vec![1, 2]);
        assert!(merged.summary(None).contains("Missing pairs (2): 1-2\n"));
        // Comment lines, as a person or a script may add them, are ignored.
        let (path, text) = file("c", &[0, 1, 2, 3, 4, 5]);
        let commented = format!("; shard 1/1, copied from node 7\n{text}; end\n");
        let merged = merge(&[(path, commented)]).unwrap();
        assert!(merged.complete());
        assert_eq!(merged.tally.games(), 6);
    }

    #[test]
    fn faults_are_refused_with_their_files() {
        let twice = merge(&[file("a", &[0, 1]), file("b", &[1])]).unwrap_err();
        assert_eq!(
            twice.to_string(),
            "pair 0 counted twice: its game with the first engine as North is in 'a' and in 'b'"
        );
        let other = (PathBuf::from("c"), record(2, "2"));
        let mixed = merge(&[file("a", &[0]), other]).unwrap_err();
        assert!(
            matches!(mixed, MergeError::Mixed { number: 1, .. }),
            "{mixed}"
        );
        let untagged = (PathBuf::from("d"), "[Round \"1\"]\n\n1-0\n".to_string());
        let error = merge(&[untagged]).unwrap_err();
        assert!(
            matches!(
                &error,
                MergeError::Record {
                    path,
                    number: 1,
                    fault: RecordFault::MissingTag("Pair")
                } if path == &PathBuf::from("d")
            ),
            "{error}"
        );
        let past = (PathBuf::from("e"), record(6, "1"));
        assert!(matches!(
            merge(&[past]).unwrap_err(),
            MergeError::PairOutOfRange {
                pair: 3,
                pairs: 3,
                ..
            }
        ));
        assert!(matches!(
            merge(&[file("f", &[])]).unwrap_err(),
            MergeError::Empty
        ));
        let bad = (PathBuf::from("g"), "1. c".to_string());
        assert!(matches!(
            merge(&[bad]).unwrap_err(),
            MergeError::Malformed { .. }
        ));
    }
}
