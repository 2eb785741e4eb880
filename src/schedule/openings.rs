//! What each game pair starts from: a rule set (cycling through every
//! combination of the rule flags' values), a start position (a built-in
//! pattern's start or a line of an openings file) and opening plies (from
//! the file, then seeded random legal plies).
//!
//! Pair `p` takes rule set `p mod R` and book line `(p div R) mod B`, so
//! the first `R × B` pairs play every line under every rule set. Random
//! plies depend only on the seed and the pair number, never on which
//! worker plays the pair: a match is reproducible at any concurrency.

use std::fmt;
use std::path::Path;

use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng};

use crate::movegen::legal_moves;
use crate::notation::{MoveError, PositionError, parse_position};
use crate::outcome::Status;
use crate::position::Position;
use crate::record::Game;
use crate::rules::{Centre, KaEntry, Pattern, Rules, SecondColumn};

/// Attempts at drawing random plies that leave a game in play before
/// giving up (a dead end within a few plies is rare, so this is ample).
const RANDOM_ATTEMPTS: usize = 1000;

/// The start of one game pair.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The rules both games of the pair are played and refereed under.
    pub rules: Rules,
    /// The position string the game starts from (the record's `FEN`).
    pub start: String,
    /// The game so far: the start and the plies played from it before the
    /// engines take over (a book line's, then the random ones), each
    /// checked; its position has a legal move for the side to move.
    pub game: Game,
}

impl Opening {
    /// The plies played before the engines take over, as the engine
    /// writes them.
    pub fn plies(&self) -> Vec<String> {
        self.game.moves().iter().map(ToString::to_string).collect()
    }

    /// The position the engines take over.
    pub fn position(&self) -> Position {
        self.game.current()
    }
}

/// One line of an openings file: a position string, optionally followed
/// by `moves` and plies.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct BookLine {
    /// Line number in the file (for errors).
    pub line: usize,
    /// The position string.
    pub position: String,
    /// Plies after it, as written.
    pub moves: Vec<String>,
}

/// Where a pair's start comes from, as errors name it.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum OpeningOrigin {
    /// A line of the openings file (its number in the file, from 1).
    BookLine(usize),
    /// A built-in pattern's start.
    Pattern(Pattern),
}

impl fmt::Display for OpeningOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningOrigin::BookLine(line) => write!(f, "openings line {line}"),
            OpeningOrigin::Pattern(pattern) => write!(f, "pattern {pattern}"),
        }
    }
}

/// Why a pair's opening cannot be built. `Display` gives the text the
/// match and datagen print.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum OpeningError {
    /// The start position does not parse.
    #[error("{origin}: {error}")]
    Start {
        /// Where the start comes from.
        origin: OpeningOrigin,
        /// What is wrong with it.
        #[source]
        error: PositionError,
    },
    /// A book ply does not parse or is illegal under the pair's rules.
    #[error("{origin} under rules {}: {error}", describe(.rules))]
    BookMove {
        /// The book line.
        origin: OpeningOrigin,
        /// The pair's rules.
        rules: Rules,
        /// What is wrong with the ply.
        #[source]
        error: MoveError,
    },
    /// The start (after any book plies) is already a finished game.
    #[error("{origin}: the game is already over under rules {}", describe(.rules))]
    GameOver {
        /// Where the start comes from.
        origin: OpeningOrigin,
        /// The pair's rules.
        rules: Rules,
    },
    /// No draw of this many random plies left the game in play.
    #[error("no {0} random plies leave the game in play")]
    RandomPlies(usize),
}

/// Every combination of the given rule values, in a fixed order (the
/// pattern varies slowest, the centre fastest); duplicates are dropped.
pub fn rule_sets(
    patterns: &[Pattern],
    ka_entries: &[KaEntry],
    second_columns: &[SecondColumn],
    centres: &[Centre],
) -> Vec<Rules> {
    let mut sets = Vec::new();
    for &pattern in patterns {
        for &ka_entry in ka_entries {
            for &second_column in second_columns {
                for &centre in centres {
                    let rules = Rules {
                        pattern,
                        ka_entry,
                        second_column,
                        centre,
                    };
                    if !sets.contains(&rules) {
                        sets.push(rules);
                    }
                }
            }
        }
    }
    sets
}

/// Parses an openings file: one position string per line, optionally
/// followed by ` moves <ply> <ply> ...`; blank lines and lines starting
/// with `#` are skipped. Positions are checked here; plies are checked
/// against each rule set when an opening is built.
pub fn parse_book(text: &str) -> Result<Vec<BookLine>, BookError> {
    let mut lines = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = trimmed.split_whitespace().collect();
        let (position, moves) = match words.iter().position(|w| *w == "moves") {
            Some(at) => (&words[..at], &words[at + 1..]),
            None => (&words[..], &[][..]),
        };
        let position = position.join(" ");
        parse_position(&position).map_err(|error| BookError::Position { number, error })?;
        lines.push(BookLine {
            line: number,
            position,
            moves: moves.iter().map(|m| m.to_string()).collect(),
        });
    }
    if lines.is_empty() {
        return Err(BookError::Empty);
    }
    Ok(lines)
}

/// Reads and parses an openings file.
pub fn load_book(path: &Path) -> Result<Vec<BookLine>, BookFileError> {
    let text = std::fs::read_to_string(path).map_err(|error| BookFileError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    parse_book(&text).map_err(|error| BookFileError::Parse {
        path: path.to_path_buf(),
        error,
    })
}

/// What is wrong with openings file text.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum BookError {
    /// A line's position string does not parse.
    #[error("line {number}: {error}")]
    Position {
        /// The line's number, from 1.
        number: usize,
        /// What is wrong with it.
        #[source]
        error: PositionError,
    },
    /// The text has no position.
    #[error("no position in the file")]
    Empty,
}

/// Why an openings file cannot be had.
#[derive(Debug, thiserror::Error)]
pub enum BookFileError {
    /// The file cannot be read.
    #[error("cannot read openings file '{}': {error}", .path.display())]
    Read {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        #[source]
        error: std::io::Error,
    },
    /// The file's text is not an openings file.
    #[error("openings file '{}': {error}", .path.display())]
    Parse {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong with it.
        #[source]
        error: BookError,
    },
}

/// How the openings of a match are made.
#[derive(Clone, Debug)]
pub struct OpeningPlan {
    /// The rule sets pairs cycle through (at least one).
    pub rule_sets: Vec<Rules>,
    /// Book lines, or `None` to start from each rule set's pattern.
    pub book: Option<Vec<BookLine>>,
    /// Random legal plies played after the start (and any book plies).
    pub random_plies: usize,
    /// Seed of the random plies.
    pub seed: u64,
}

impl OpeningPlan {
    /// How many pairs it takes to visit every rule set with every line.
    pub fn cycle(&self) -> usize {
        self.rule_sets.len().max(1) * self.book.as_ref().map_or(1, Vec::len).max(1)
    }

    /// The opening of pair `pair`.
    pub fn opening(&self, pair: usize) -> Result<Opening, OpeningError> {
        let sets = self.rule_sets.len().max(1);
        let rules = self.rule_sets.get(pair % sets).copied().unwrap_or_default();
        let (start, book_moves, origin): (String, &[String], OpeningOrigin) = match &self.book {
            Some(book) if !book.is_empty() => {
                let line = &book[(pair / sets) % book.len()];
                (
                    line.position.clone(),
                    &line.moves,
                    OpeningOrigin::BookLine(line.line),
                )
            }
            _ => (
                rules.pattern.start_position_string(),
                &[],
                OpeningOrigin::Pattern(rules.pattern),
            ),
        };
        let position =
            parse_position(&start).map_err(|error| OpeningError::Start { origin, error })?;
        let mut game = Game::new(rules, position);
        game.play_all(book_moves)
            .map_err(|fault| OpeningError::BookMove {
                origin,
                rules,
                error: fault.error,
            })?;
        if game.status() != Status::InPlay {
            return Err(OpeningError::GameOver { origin, rules });
        }
        if self.random_plies > 0 {
            let (random, _) = self.random_plies(&game.current(), &rules, pair)?;
            game.play_all(&random)
                .map_err(|fault| OpeningError::BookMove {
                    origin,
                    rules,
                    error: fault.error,
                })?;
        }
        Ok(Opening { rules, start, game })
    }

    /// Draws `random_plies` legal plies from `from` that leave the game in
    /// play, seeded by the match seed and the pair number.
    fn random_plies(
        &self,
        from: &Position,
        rules: &Rules,
        pair: usize,
    ) -> Result<(Vec<String>, Position), OpeningError> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(
            self.seed ^ (pair as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        'attempt: for _ in 0..RANDOM_ATTEMPTS {
            let mut position = *from;
            let mut plies = Vec::with_capacity(self.random_plies);
            for _ in 0..self.random_plies {
                let moves = legal_moves(&position, rules);
                if moves.is_empty() {
                    continue 'attempt;
                }
                // A plain modulo keeps the sequence a fixed function of
                // the seed across library versions; its bias is nil for
                // lists this short.
                let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
                plies.push(mv.to_string());
                position = position.play(mv);
            }
            if Status::of(&position, rules) == Status::InPlay {
                return Ok((plies, position));
            }
        }
        Err(OpeningError::RandomPlies(self.random_plies))
    }
}

/// Rules as `pattern/ka entry/second column/centre`, e.g. `1/slide/opposite/wall`.
pub fn describe(rules: &Rules) -> String {
    format!(
        "{}/{}/{}/{}",
        rules.pattern, rules.ka_entry, rules.second_column, rules.centre
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(random_plies: usize, seed: u64) -> OpeningPlan {
        OpeningPlan {
            rule_sets: vec![Rules::default()],
            book: None,
            random_plies,
            seed,
        }
    }

    #[test]
    fn rule_sets_are_the_cartesian_product() {
        let sets = rule_sets(
            &[Pattern::One, Pattern::Two],
            &[KaEntry::Slide, KaEntry::Jump, KaEntry::Slide],
            &[SecondColumn::Opposite],
            &[Centre::Wall, Centre::Open],
        );
        assert_eq!(sets.len(), 8);
        assert_eq!(sets[0], Rules::default());
        assert_eq!(sets[1].centre, Centre::Open);
        assert_eq!(sets[7].pattern, Pattern::Two);
        assert_eq!(describe(&sets[7]), "2/jump/opposite/open");
    }

    #[test]
    fn random_plies_are_legal_and_reproducible() {
        let a = plan(4, 1).opening(3).unwrap();
        let b = plan(4, 1).opening(3).unwrap();
        let c = plan(4, 1).opening(4).unwrap();
        assert_eq!(a.plies().len(), 4);
        assert_eq!(a.plies(), b.plies());
        assert_ne!(a.plies(), c.plies(), "pairs get different openings");
        // Replaying the plies from the start reaches the same position.
        let rules = Rules::default();
        let start = parse_position(&a.start).unwrap();
        let position = crate::notation::play_moves(start, &rules, &a.plies(), |_| {}).unwrap();
        assert_eq!(position, a.position());
        assert_eq!(plan(0, 1).opening(0).unwrap().plies().len(), 0);
    }

    #[test]
    fn book_lines_cycle_under_every_rule_set() {
        let start = Pattern::One.start_position_string();
        let text = format!("# comment\n\n{start} moves c j\n{start}\n");
        let book = parse_book(&text).unwrap();
        assert_eq!(book.len(), 2);
        assert_eq!(book[0].line, 3);
        let plan = OpeningPlan {
            rule_sets: rule_sets(
                &[Pattern::One],
                &[KaEntry::Slide],
                &[SecondColumn::Opposite],
                &[Centre::Wall, Centre::Open],
            ),
            book: Some(book),
            random_plies: 0,
            seed: 0,
        };
        assert_eq!(plan.cycle(), 4);
        let openings: Vec<Opening> = (0..4).map(|p| plan.opening(p).unwrap()).collect();
        assert_eq!(openings[0].plies(), vec!["c", "j"]);
        assert_eq!(openings[1].plies(), vec!["c", "j"]);
        assert_eq!(openings[1].rules.centre, Centre::Open);
        assert!(openings[2].plies().is_empty());
    }

    #[test]
    fn bad_books_are_errors() {
        assert_eq!(parse_book("").err(), Some(BookError::Empty));
        assert!(
            parse_book("not a position")
                .unwrap_err()
                .to_string()
                .starts_with("line 1:")
        );
        let start = Pattern::One.start_position_string();
        let plan = OpeningPlan {
            rule_sets: vec![Rules::default()],
            book: Some(parse_book(&format!("{start} moves c c")).unwrap()),
            random_plies: 0,
            seed: 0,
        };
        assert!(
            plan.opening(0)
                .unwrap_err()
                .to_string()
                .contains("openings line 1")
        );
    }
}
