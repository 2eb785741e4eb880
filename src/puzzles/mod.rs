//! Puzzles: positions from games where one move wins (or saves the game),
//! found as lichess-puzzler finds them, and their file format.
//!
//! [`format`] is the file, `puzzles.jsonl`, a JSON object a line, which
//! the board's Puzzle mode, the Python module and the tests read; with the
//! `cli` feature, [`generate`] finds puzzles in game records and [`run`]
//! writes them for `pasang puzzles`, and [`recheck`] holds a puzzle file
//! to the deeper check for `pasang puzzles --recheck` (docs/learn.md).

pub mod format;
#[cfg(feature = "cli")]
pub mod generate;

pub use format::{MAX_SOLVER_MOVES, PUZZLES_JSONL, Puzzle, PuzzleError, options_of, read_puzzles};

#[cfg(feature = "cli")]
pub use run::{PuzzlesError, Source, run};

#[cfg(feature = "cli")]
mod run {
    use std::io::Write;
    use std::path::PathBuf;

    use super::format::PuzzleError;
    use super::generate::{Counts, Generator};
    use crate::record::{self, Game, RecordError, ReplayError};
    use crate::schedule::shard::Shard;

    /// A record file's name and text.
    pub struct Source {
        /// Where it was read, for errors.
        pub path: PathBuf,
        /// Its text.
        pub text: String,
    }

    /// Why `pasang puzzles` stopped.
    #[derive(Debug, thiserror::Error)]
    pub enum PuzzlesError {
        /// A record file does not parse.
        #[error("'{path}': {source}", path = .path.display())]
        Records {
            /// The file.
            path: PathBuf,
            /// Where and why.
            source: RecordError,
        },
        /// A game does not replay under its rules.
        #[error("'{path}', game {game}: {source}", path = .path.display())]
        Replay {
            /// The file.
            path: PathBuf,
            /// The game's number in the file, from 1.
            game: usize,
            /// Why.
            source: ReplayError,
        },
        /// A puzzle file does not read.
        #[error("'{path}': {source}", path = .path.display())]
        Puzzles {
            /// The file.
            path: PathBuf,
            /// Where and why (boxed: a puzzle's fault is large).
            source: Box<PuzzleError>,
        },
        /// The output cannot be written.
        #[error("cannot write the puzzles: {0}")]
        Write(#[source] std::io::Error),
    }

    /// Finds the puzzles of every game of `sources` (of `shard`'s games
    /// only, numbering games from 0 over the files in order) with `nodes`
    /// a search, each checked by a search of `check_nodes`, writes each
    /// game's as lines to `out`, and tells `progress` the counts after
    /// each game.
    pub fn run(
        sources: &[Source],
        nodes: u64,
        check_nodes: u64,
        shard: Option<Shard>,
        out: &mut dyn Write,
        progress: &mut dyn FnMut(&Counts),
    ) -> Result<Counts, PuzzlesError> {
        // Every game replayed first: a bad record fails before the work.
        let mut games = Vec::new();
        let mut index = 0u64;
        for source in sources {
            let records = record::read(&source.text).map_err(|error| PuzzlesError::Records {
                path: source.path.clone(),
                source: error,
            })?;
            for (number, record) in records.iter().enumerate() {
                let mine = shard.is_none_or(|shard| shard.has(index));
                index += 1;
                if !mine {
                    continue;
                }
                let game = Game::from_record(record).map_err(|error| PuzzlesError::Replay {
                    path: source.path.clone(),
                    game: number + 1,
                    source: error,
                })?;
                games.push(game);
            }
        }
        let mut generator = Generator::new(nodes, check_nodes);
        let mut counts = Counts::default();
        // A position found again (the same start after a few plies) is
        // written once, as first found.
        let mut ids = std::collections::BTreeSet::new();
        for game in &games {
            let (puzzles, mut found) = generator.game(game);
            for puzzle in &puzzles {
                if !ids.insert(puzzle.id.clone()) {
                    found.puzzles -= 1;
                    continue;
                }
                writeln!(out, "{}", puzzle.to_line()).map_err(PuzzlesError::Write)?;
            }
            out.flush().map_err(PuzzlesError::Write)?;
            counts += found;
            progress(&counts);
        }
        Ok(counts)
    }
}

#[cfg(feature = "cli")]
pub use recheck::{Rechecked, recheck};

#[cfg(feature = "cli")]
mod recheck {
    use std::io::Write;

    use super::generate::{Generator, Verdict};
    use super::run::{PuzzlesError, Source};
    use super::{Puzzle, read_puzzles};

    /// What `pasang puzzles --recheck` found.
    #[derive(Clone, Debug, Default, Eq, PartialEq)]
    pub struct Rechecked {
        /// Puzzles read.
        pub read: u64,
        /// Written as they were.
        pub held: u64,
        /// Written with `alternatives` (the deeper search found other
        /// forced wins).
        pub alternatives: u64,
        /// Left out: each id and why.
        pub dropped: Vec<(String, String)>,
    }

    /// Holds every puzzle of `sources` (puzzle files) to the deeper check
    /// ([`Generator::check`] with `check_nodes`), in order: one that holds
    /// is written to `out` as it is, one that holds with other forced wins
    /// with them as `alternatives`, and one that fails is left out.
    /// `progress` hears each puzzle's id and verdict.
    pub fn recheck(
        sources: &[Source],
        check_nodes: u64,
        out: &mut dyn Write,
        progress: &mut dyn FnMut(&Puzzle, &Verdict),
    ) -> Result<Rechecked, PuzzlesError> {
        let mut puzzles = Vec::new();
        for source in sources {
            puzzles.extend(
                read_puzzles(&source.text).map_err(|error| PuzzlesError::Puzzles {
                    path: source.path.clone(),
                    source: Box::new(error),
                })?,
            );
        }
        let mut generator = Generator::new(0, check_nodes);
        let mut found = Rechecked::default();
        for mut puzzle in puzzles {
            found.read += 1;
            let verdict = generator.check(&puzzle);
            progress(&puzzle, &verdict);
            match verdict {
                Verdict::Holds => found.held += 1,
                Verdict::Alternatives(moves) => {
                    found.alternatives += 1;
                    puzzle.alternatives = moves;
                }
                Verdict::Fails(why) => {
                    found.dropped.push((puzzle.id.clone(), why));
                    continue;
                }
            }
            writeln!(out, "{}", puzzle.to_line()).map_err(PuzzlesError::Write)?;
        }
        out.flush().map_err(PuzzlesError::Write)?;
        Ok(found)
    }
}
