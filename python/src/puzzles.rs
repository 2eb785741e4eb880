//! Puzzle files as the engine reads them: `pasang.puzzles` checks each
//! line with the library's reader (`pasang::puzzles::format`) and reads
//! rule options with the library's one table, so Python holds no second
//! copy of the format's rules or of the options' spellings.

use std::collections::BTreeMap;

use pyo3::prelude::*;

use pasang::puzzles::format::read_puzzles;
use pasang::rules::{OptionSpelling, RULE_OPTIONS, rules_from};

use crate::InvalidRulesError;

pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(puzzles_error, module)?)?;
    module.add_function(wrap_pyfunction!(rule_keywords, module)?)?;
    Ok(())
}

/// What is wrong with puzzle text, one line or a whole file, as the
/// engine's reader says it (the rules, the mistake, the solution, the
/// alternatives; in a file, an id used twice), or None for sound puzzles.
#[pyfunction]
fn puzzles_error(line: &str) -> Option<String> {
    read_puzzles(line).err().map(|error| error.to_string())
}

/// Rule options by protocol name (`Ka Entry`) as `Board()`'s keywords
/// (`ka_entry`), read by the library's parser: an unknown option or
/// value raises `InvalidRulesError` naming it.
#[pyfunction]
fn rule_keywords(options: BTreeMap<String, String>) -> PyResult<BTreeMap<&'static str, String>> {
    let rules = rules_from(&options, OptionSpelling::Name)
        .map_err(|error| InvalidRulesError::new_err(error.to_string()))?;
    Ok(RULE_OPTIONS
        .iter()
        .filter(|option| options.contains_key(option.name))
        .map(|option| (option.field, option.value(&rules)))
        .collect())
}
