//! The trap suite: positions where a forced result (above all a suntuk)
//! lies a known number of plies ahead and the engine at match speed
//! missed it, mined from the project's own game records ([`make`]) and
//! solved by any engine over the protocol at a fixed node count
//! ([`solve`]). Chess engines test their mate and king-danger search the
//! same way, against Win at Chess and mate-in-N collections.
//!
//! A suite file is JSON, one entry a line (see [`Entry`] and
//! docs/strength.md).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::notation::{PositionError, parse_move, parse_position};
use crate::position::Position;
use crate::rules::{OptionSpelling, RULE_OPTIONS, Rules, RulesError, rules_from};

pub mod make;
pub mod solve;

/// What the side to move must do.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Not lost yet, but the move played in the game walks into a forced
    /// loss: find a move that does not.
    Avoid,
    /// A forced win lies ahead that the game's search did not report:
    /// find it (a winning move, with the win proven).
    Win,
}

/// Which half of the suite an entry belongs to: positions are tuned on,
/// or held out to judge the tuning. Both games of a pair (which share an
/// opening) fall in the same half.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Half {
    /// Positions a change may be tuned on.
    Tune,
    /// Positions held out.
    Test,
}

/// One suite position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Where it comes from: `<file>:<game from 1>:<ply from 0>`.
    pub id: String,
    /// The tuning or the held-out half.
    pub half: Half,
    /// Avoid a forced loss, or find a forced win.
    pub kind: Kind,
    /// Every rule option, by protocol name.
    pub options: BTreeMap<String, String>,
    /// The position, as `position fen` takes it.
    pub position: String,
    /// The forced line the game's search missed, from `position`: the
    /// trap move and its refutation for [`Kind::Avoid`], the winning line
    /// for [`Kind::Win`]; space-separated.
    pub line: String,
    /// How many plies from `position` the forced result lies (the moves
    /// of `line` up to the end of the game).
    pub plies: u32,
    /// The moves that solve it: every move not proven to lose
    /// ([`Kind::Avoid`]), or every move proven to keep the win
    /// ([`Kind::Win`]).
    pub solutions: Vec<String>,
    /// The moves proven to lose (the game's move among them), for
    /// [`Kind::Avoid`]; empty for [`Kind::Win`].
    pub traps: Vec<String>,
    /// Whether the loss is (or the win is) a suntuk, not points.
    pub suntuk: bool,
}

/// Why a suite line cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum EntryError {
    /// Not a JSON entry.
    #[error("line {line}: not a suite entry: {source}")]
    Json {
        line: usize,
        source: serde_json::Error,
    },
    /// A rule option that is none of the engine's, or a value it does
    /// not take.
    #[error("line {line}: {source}")]
    Rules { line: usize, source: RulesError },
    /// A position string that does not parse.
    #[error("line {line}: {source}")]
    Position { line: usize, source: PositionError },
    /// A solution that is no legal move of the position.
    #[error("line {line}: solution '{text}' is no legal move")]
    Solution { line: usize, text: String },
    /// An entry without a solution.
    #[error("line {line}: the entry has no solution")]
    Unsolvable { line: usize },
}

impl Entry {
    /// The entry's rules.
    pub fn rules(&self) -> Result<Rules, RulesError> {
        rules_from(&self.options, OptionSpelling::Name)
    }

    /// The entry's position.
    pub fn parsed_position(&self) -> Result<Position, PositionError> {
        parse_position(&self.position)
    }
}

/// Every rule option of `rules`, by protocol name.
pub fn options_of(rules: &Rules) -> BTreeMap<String, String> {
    RULE_OPTIONS
        .iter()
        .map(|option| (option.name.to_string(), option.value(rules)))
        .collect()
}

/// Reads a suite file: one entry a line (blank lines and `#` comments
/// skipped), each checked: its rules, its position, its solutions legal.
pub fn read(text: &str) -> Result<Vec<Entry>, EntryError> {
    let mut entries = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let entry: Entry =
            serde_json::from_str(raw).map_err(|source| EntryError::Json { line, source })?;
        let rules = entry
            .rules()
            .map_err(|source| EntryError::Rules { line, source })?;
        let position = entry
            .parsed_position()
            .map_err(|source| EntryError::Position { line, source })?;
        if entry.solutions.is_empty() {
            return Err(EntryError::Unsolvable { line });
        }
        for text in entry.solutions.iter().chain(&entry.traps) {
            if parse_move(&position, &rules, text).is_err() {
                return Err(EntryError::Solution {
                    line,
                    text: text.clone(),
                });
            }
        }
        entries.push(entry);
    }
    Ok(entries)
}

/// One entry as a suite line (without its line end).
pub fn line_of(entry: &Entry) -> String {
    serde_json::to_string(entry).expect("an entry is plain data")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::start_position;
    use crate::notation::format_position;

    fn entry() -> Entry {
        let rules = Rules::default();
        Entry {
            id: "t.rec:1:0".into(),
            half: Half::Tune,
            kind: Kind::Avoid,
            options: options_of(&rules),
            position: format_position(&start_position(rules.pattern)),
            line: "c j".into(),
            plies: 2,
            solutions: vec!["c".into()],
            traps: vec!["b".into()],
            suntuk: true,
        }
    }

    #[test]
    fn entries_round_trip_through_a_line() {
        let entry = entry();
        let read = read(&line_of(&entry)).expect("the line reads back");
        assert_eq!(read, vec![entry]);
    }

    #[test]
    fn a_bad_entry_names_its_line_and_fault() {
        let mut entry = entry();
        entry.solutions = vec!["a1a2n".into()];
        let text = format!("# comment\n\n{}\n", line_of(&entry));
        let error = read(&text).expect_err("an illegal solution is refused");
        assert!(
            matches!(&error, EntryError::Solution { line: 3, text } if text == "a1a2n"),
            "{error}"
        );
        let mut entry = self::entry();
        entry.options.insert("Centre".into(), "middle".into());
        let error = read(&line_of(&entry)).expect_err("a bad rule value is refused");
        assert!(
            matches!(error, EntryError::Rules { line: 1, .. }),
            "{error}"
        );
        let error = read("{not json").expect_err("junk is refused");
        assert!(matches!(error, EntryError::Json { line: 1, .. }), "{error}");
    }
}
