//! Game records through the library's `record` module: one parser and one
//! writer for the engine and for Python. `pasang.records` (Python) builds
//! its `Game` on these functions.

use pyo3::prelude::*;

use pasang::record::{Mark, Record, RecordMove, RecordSyntax, ReplayError, read};

use crate::board::Board;
use crate::{InvalidPositionError, InvalidRulesError, RecordError};

pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(parse_records, module)?)?;
    module.add_function(wrap_pyfunction!(format_record, module)?)?;
    module.add_function(wrap_pyfunction!(record_board, module)?)?;
    module.add_function(wrap_pyfunction!(rule_tags, module)?)?;
    Ok(())
}

/// Tags as (name, value) pairs, in order.
type Tags = Vec<(String, String)>;
/// A move of a record: its text, its comment and its mark's suffix.
type MoveTuple = (String, Option<String>, Option<String>);
/// A record as plain data: tags, moves and the result token.
type RecordTuple = (Tags, Vec<MoveTuple>, String);

/// Where reading stopped: the line (from 1), the library's message, and
/// whether the text merely ended inside a record (more lines may complete
/// it) rather than breaking the format.
type Stop = (usize, String, bool);

/// The records of `text` as plain data, and what stopped the reading.
#[pyfunction]
fn parse_records(text: &str) -> (Vec<RecordTuple>, Option<Stop>) {
    match read(text) {
        Ok(records) => (records.into_iter().map(tuple_of).collect(), None),
        Err(error) => {
            let incomplete = matches!(
                error.fault,
                RecordSyntax::NoResult | RecordSyntax::UnclosedComment
            );
            (
                Vec::new(),
                Some((error.line, error.to_string(), incomplete)),
            )
        }
    }
}

fn tuple_of(record: Record) -> RecordTuple {
    let moves = record
        .moves
        .into_iter()
        .map(|mv| {
            (
                mv.text,
                mv.comment,
                mv.mark.map(|mark| mark.suffix().to_string()),
            )
        })
        .collect();
    (record.tags, moves, record.result.to_string())
}

/// The text of a record, as the engine writes it (ending with a blank
/// line). A mark must be one of `! ? !! ?? !? ?!`.
#[pyfunction]
fn format_record(tags: Tags, moves: Vec<MoveTuple>, result: String) -> PyResult<String> {
    let result = result
        .parse()
        .map_err(|error: pasang::record::GameResultError| {
            RecordError::new_err(error.to_string())
        })?;
    let mut record = Record {
        tags,
        moves: Vec::with_capacity(moves.len()),
        result,
    };
    for (text, comment, mark) in moves {
        let mark = match mark {
            None => None,
            Some(suffix) => Some(Mark::from_suffix(&suffix).ok_or_else(|| {
                RecordError::new_err(format!(
                    "'{suffix}' is not a mark (expected one of ! ? !! ?? !? ?!)"
                ))
            })?),
        };
        record.moves.push(RecordMove {
            text,
            comment,
            mark,
        });
    }
    Ok(record.to_string())
}

/// The board a record starts from: its rule tags and its `FEN` tag (or
/// the pattern's start).
#[pyfunction]
fn record_board(tags: Tags) -> PyResult<Board> {
    let record = Record {
        tags,
        ..Record::default()
    };
    match record.start() {
        Ok((rules, position)) => Ok(Board::new(rules, position)),
        Err(error @ ReplayError::Rules(_)) => Err(InvalidRulesError::new_err(error.to_string())),
        Err(error) => Err(InvalidPositionError::new_err(error.to_string())),
    }
}

/// The rule tags a record of `board`'s game carries, in the order the
/// engine writes them.
#[pyfunction]
fn rule_tags(board: &Board) -> Tags {
    let mut record = Record::default();
    record.push_rule_tags(&board.game_rules());
    record.tags
}
