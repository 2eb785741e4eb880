//! The puzzle file, `puzzles.jsonl`: one JSON object a line, read by the
//! board page, the Python module and the tests, written by
//! `pasang puzzles` (docs/learn.md).
//!
//! A line: `id`, `options` (every rule option by protocol name),
//! `position` (the solver to move), `moves` (the solution, space
//! separated: solver, reply, ..., solver), `themes`, `rating`, and where
//! known `before` (the position before the opponent's mistake) and
//! `mistake` (that move), which the page plays first, and `alternatives`
//! (the other first moves proven to win, which the page also takes).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::notation::{MoveError, PositionError, format_position, parse_move, parse_position};
use crate::outcome::Status;
use crate::position::Position;
use crate::rules::{OptionSpelling, RULE_OPTIONS, Rules, RulesError, rules_from_all};

/// The shipped puzzles: `src/puzzles/puzzles.jsonl`.
pub const PUZZLES_JSONL: &str = include_str!("puzzles.jsonl");

/// The most solver moves a puzzle asks for.
pub const MAX_SOLVER_MOVES: usize = 5;

/// One puzzle, a line of the file.
#[derive(Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    /// URL-safe and unique in its file.
    pub id: String,
    /// Every rule option by protocol name (`Ka Entry`), protocol values.
    pub options: BTreeMap<String, String>,
    /// The position the solver moves in.
    pub position: String,
    /// The solution, space separated, in full notation: an odd count.
    pub moves: String,
    /// Tags such as `suntuk` or `big-capture` (docs/learn.md lists them).
    pub themes: Vec<String>,
    /// Difficulty, on the page's puzzle-rating scale.
    pub rating: i32,
    /// The position before the opponent's mistake.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    /// The opponent's mistake, which leads from `before` to `position`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mistake: Option<String>,
    /// Other first moves proven to win, which solve the puzzle too (a
    /// deeper search found more than one win; docs/learn.md).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<String>,
}

/// What is wrong with a puzzle line.
#[derive(Debug, thiserror::Error)]
pub enum PuzzleError {
    /// Not a JSON object of the format.
    #[error("line {line}: not a puzzle: {reason}")]
    Json {
        /// Line number, from 1.
        line: usize,
        /// serde's words.
        reason: String,
    },
    /// An id that is empty or not URL-safe.
    #[error("puzzle '{0}': the id must be letters, digits, '-' or '_'")]
    Id(String),
    /// The same id twice.
    #[error("puzzle '{0}': the id is used twice")]
    DuplicateId(String),
    /// Its rule options: one that is none, one missing, or a value an
    /// option does not take.
    #[error("puzzle '{id}': {source}")]
    Rules {
        /// The puzzle.
        id: String,
        /// What is wrong.
        source: RulesError,
    },
    /// A position string that does not parse.
    #[error("puzzle '{id}': {field}: {source}")]
    Position {
        /// The puzzle.
        id: String,
        /// `position` or `before`.
        field: &'static str,
        /// Why.
        source: PositionError,
    },
    /// A move that is not legal where it is played.
    #[error("puzzle '{id}': move {index} ({text}): {source}")]
    Move {
        /// The puzzle.
        id: String,
        /// 0 for the mistake, then from 1 along the solution.
        index: usize,
        /// The move as written.
        text: String,
        /// Why.
        source: MoveError,
    },
    /// A move written otherwise than the engine writes it.
    #[error("puzzle '{id}': '{text}' is not written in full ('{full}')")]
    NotCanonical {
        /// The puzzle.
        id: String,
        /// As written.
        text: String,
        /// As the engine writes it.
        full: String,
    },
    /// An even number of moves (or none): the solver must move last.
    #[error("puzzle '{id}': {count} moves; the solution has an odd count, from 1 to 9")]
    MoveCount {
        /// The puzzle.
        id: String,
        /// Moves given.
        count: usize,
    },
    /// `mistake` does not lead from `before` to `position`, or only one
    /// of the two is given.
    #[error("puzzle '{0}': 'before' and 'mistake' must both lead to 'position'")]
    Mistake(String),
    /// An alternative that is not another legal first move, or is given
    /// twice.
    #[error("puzzle '{id}': alternative '{text}': {reason}")]
    Alternative {
        /// The puzzle.
        id: String,
        /// The move as written.
        text: String,
        /// Why.
        reason: String,
    },
    /// The game ends before the solution does.
    #[error("puzzle '{id}': the game is over after move {index}, before the solution ends")]
    OverEarly {
        /// The puzzle.
        id: String,
        /// The move after which it ends.
        index: usize,
    },
}

impl Puzzle {
    /// The puzzle's rules: every option given, each a rule option.
    pub fn rules(&self) -> Result<Rules, PuzzleError> {
        rules_from_all(&self.options, OptionSpelling::Name).map_err(|source| PuzzleError::Rules {
            id: self.id.clone(),
            source,
        })
    }

    /// The solution's moves as written.
    pub fn solution(&self) -> Vec<&str> {
        self.moves.split_whitespace().collect()
    }

    /// Holds the puzzle to the rules: a URL-safe id, every rule option,
    /// the mistake leading to `position`, and each move of the solution
    /// legal, in full notation, an odd count, the game going on until the
    /// last; each alternative another legal first move, in full, once.
    /// Returns the position after the solution.
    pub fn check(&self) -> Result<Position, PuzzleError> {
        let id = || self.id.clone();
        let id_ok = !self.id.is_empty()
            && self
                .id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !id_ok {
            return Err(PuzzleError::Id(id()));
        }
        let rules = self.rules()?;
        let start = parse_position(&self.position).map_err(|source| PuzzleError::Position {
            id: id(),
            field: "position",
            source,
        })?;
        match (&self.before, &self.mistake) {
            (None, None) => {}
            (Some(before), Some(mistake)) => {
                let before = parse_position(before).map_err(|source| PuzzleError::Position {
                    id: id(),
                    field: "before",
                    source,
                })?;
                let after = play_checked(&before, &rules, mistake, 0, &self.id)?;
                if format_position(&after) != format_position(&start) {
                    return Err(PuzzleError::Mistake(id()));
                }
            }
            _ => return Err(PuzzleError::Mistake(id())),
        }
        let moves = self.solution();
        if moves.len().is_multiple_of(2) || moves.len() > 2 * MAX_SOLVER_MOVES - 1 {
            return Err(PuzzleError::MoveCount {
                id: id(),
                count: moves.len(),
            });
        }
        for (index, text) in self.alternatives.iter().enumerate() {
            let reason = if moves.first() == Some(&text.as_str()) {
                Some("the solution's first move".to_string())
            } else if self.alternatives[..index].contains(text) {
                Some("given twice".to_string())
            } else {
                play_checked(&start, &rules, text, 1, &self.id)
                    .err()
                    .map(|error| error.to_string())
            };
            if let Some(reason) = reason {
                return Err(PuzzleError::Alternative {
                    id: id(),
                    text: text.clone(),
                    reason,
                });
            }
        }
        let mut position = start;
        for (index, text) in moves.iter().enumerate() {
            if index > 0 && Status::of(&position, &rules) != Status::InPlay {
                return Err(PuzzleError::OverEarly { id: id(), index });
            }
            position = play_checked(&position, &rules, text, index + 1, &self.id)?;
        }
        Ok(position)
    }

    /// The line as the file holds it.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Plays `text` in `position`: legal and in full notation.
fn play_checked(
    position: &Position,
    rules: &Rules,
    text: &str,
    index: usize,
    id: &str,
) -> Result<Position, PuzzleError> {
    let mv = parse_move(position, rules, text).map_err(|source| PuzzleError::Move {
        id: id.to_string(),
        index,
        text: text.to_string(),
        source,
    })?;
    if mv.to_string() != text {
        return Err(PuzzleError::NotCanonical {
            id: id.to_string(),
            text: text.to_string(),
            full: mv.to_string(),
        });
    }
    Ok(position.play(mv))
}

/// Reads a puzzle file: every non-blank line a puzzle, each checked
/// ([`Puzzle::check`]), ids unique.
pub fn read_puzzles(text: &str) -> Result<Vec<Puzzle>, PuzzleError> {
    let mut puzzles: Vec<Puzzle> = Vec::new();
    let mut ids = std::collections::BTreeSet::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let puzzle: Puzzle = serde_json::from_str(line).map_err(|error| PuzzleError::Json {
            line: number + 1,
            reason: error.to_string(),
        })?;
        puzzle.check()?;
        if !ids.insert(puzzle.id.clone()) {
            return Err(PuzzleError::DuplicateId(puzzle.id));
        }
        puzzles.push(puzzle);
    }
    Ok(puzzles)
}

/// Every rule option of `rules` by protocol name, as a puzzle gives them.
pub fn options_of(rules: &Rules) -> BTreeMap<String, String> {
    RULE_OPTIONS
        .iter()
        .map(|option| (option.name.to_string(), option.value(rules)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::start_position;
    use crate::rules::Pattern;

    fn sample() -> Puzzle {
        let rules = Rules::default();
        let before = start_position(Pattern::One);
        let after = before.play(parse_move(&before, &rules, "c").unwrap());
        Puzzle {
            id: "p-1".to_string(),
            options: options_of(&rules),
            position: format_position(&after),
            moves: "j".to_string(),
            themes: vec!["opening".to_string()],
            rating: 1500,
            before: Some(format_position(&before)),
            mistake: Some("c".to_string()),
            alternatives: Vec::new(),
        }
    }

    #[test]
    fn a_line_reads_back_and_checks() {
        let puzzle = sample();
        let line = puzzle.to_line();
        assert_eq!(read_puzzles(&line).unwrap(), vec![puzzle.clone()]);
        assert!(puzzle.check().is_ok());
        assert!(!line.contains("alternatives"), "{line}");
    }

    #[test]
    fn alternatives_are_written_read_and_held_to_the_rules() {
        let mut puzzle = sample();
        let start = parse_position(&puzzle.position).unwrap();
        let rules = Rules::default();
        let others: Vec<String> = crate::movegen::legal_moves(&start, &rules)
            .iter()
            .map(|mv| mv.to_string())
            .filter(|mv| mv != "j")
            .take(2)
            .collect();
        assert_eq!(others.len(), 2);
        puzzle.alternatives = others.clone();
        let line = puzzle.to_line();
        assert!(
            line.contains(&format!("\"alternatives\":[\"{}\"", others[0])),
            "{line}"
        );
        assert_eq!(read_puzzles(&line).unwrap(), vec![puzzle.clone()]);
        puzzle.alternatives = vec![others[0].clone(), others[0].clone()];
        assert!(matches!(
            puzzle.check(),
            Err(PuzzleError::Alternative { .. })
        ));
    }

    #[test]
    fn faults_are_named() {
        let mut even = sample();
        even.moves = "j b4c4n".to_string();
        assert!(matches!(
            even.check(),
            Err(PuzzleError::MoveCount { count: 2, .. })
        ));
        let mut illegal = sample();
        illegal.moves = "f".to_string();
        assert!(matches!(
            illegal.check(),
            Err(PuzzleError::Move { index: 1, .. })
        ));
        let mut id = sample();
        id.id = "a b".to_string();
        assert!(matches!(id.check(), Err(PuzzleError::Id(_))));
        let mut option = sample();
        option.options.remove("Centre");
        assert!(matches!(
            option.check(),
            Err(PuzzleError::Rules {
                source: crate::rules::RulesError::Missing("Centre"),
                ..
            })
        ));
        let mut mistake = sample();
        mistake.mistake = Some("d".to_string());
        assert!(matches!(mistake.check(), Err(PuzzleError::Mistake(_))));
        let mut alternative = sample();
        alternative.alternatives = vec!["j".to_string()];
        assert!(matches!(
            alternative.check(),
            Err(PuzzleError::Alternative { .. })
        ));
        alternative.alternatives = vec!["f".to_string()];
        assert!(matches!(
            alternative.check(),
            Err(PuzzleError::Alternative { .. })
        ));
        let twice = format!("{}\n{}\n", sample().to_line(), sample().to_line());
        assert!(matches!(
            read_puzzles(&twice),
            Err(PuzzleError::DuplicateId(_))
        ));
        assert!(matches!(
            read_puzzles("{\"id\": 1}"),
            Err(PuzzleError::Json { line: 1, .. })
        ));
    }
}
