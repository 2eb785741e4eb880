//! The rule flags that tools cycling through rule sets share
//! (`pasang match`, `pasang openings`, `pasang tune --spsa`).

use std::str::FromStr;

use crate::rules::{Centre, KaEntry, Pattern, RULE_OPTIONS, Rules, SecondColumn};
use crate::schedule::openings::rule_sets;

/// The rule sets a tool cycles through, as comma lists of each rule's
/// values (`--ka-entry slide,jump`); every combination is one set.
#[derive(clap::Args, Debug, Clone)]
pub(super) struct RuleSetArgs {
    /// Start layouts, a comma list of 1 and 2.
    #[arg(long = RULE_OPTIONS[0].flag, value_delimiter = ',', default_value = RULE_OPTIONS[0].default, value_parser = Pattern::from_str)]
    pub(super) pattern: Vec<Pattern>,
    /// Ka entry rules, a comma list of slide, jump, both.
    #[arg(long = RULE_OPTIONS[1].flag, value_delimiter = ',', default_value = RULE_OPTIONS[1].default, value_parser = KaEntry::from_str)]
    pub(super) ka_entry: Vec<KaEntry>,
    /// North's passage rules, a comma list of opposite, any.
    #[arg(long = RULE_OPTIONS[2].flag, value_delimiter = ',', default_value = RULE_OPTIONS[2].default, value_parser = SecondColumn::from_str)]
    pub(super) second_column: Vec<SecondColumn>,
    /// Hole rules, a comma list of wall, open.
    #[arg(long = RULE_OPTIONS[3].flag, value_delimiter = ',', default_value = RULE_OPTIONS[3].default, value_parser = Centre::from_str)]
    pub(super) centre: Vec<Centre>,
}

impl RuleSetArgs {
    /// Every combination of the values given, as [`rule_sets`] orders them.
    pub(super) fn rule_sets(&self) -> Vec<Rules> {
        rule_sets(
            &self.pattern,
            &self.ka_entry,
            &self.second_column,
            &self.centre,
        )
    }
}
