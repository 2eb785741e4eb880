//! The rule flags, one per option of the core's table
//! ([`RULE_OPTIONS`]): its flag, default, values and English words make
//! each flag, so a new option needs no change here. [`RuleArgs`] takes
//! one value each (the subcommands that read positions); [`RuleSetArgs`]
//! comma lists, every combination one rule set (`pasang match`, `pasang
//! openings`, `pasang tune --spsa`).

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

use crate::rules::{OptionSpelling, RULE_OPTIONS, RuleOption, Rules, one_of, rules_from};

/// The rule options every subcommand that reads positions takes.
#[derive(Debug, Clone, Default)]
pub(crate) struct RuleArgs {
    rules: Rules,
}

impl RuleArgs {
    /// The rules these flags select.
    pub fn rules(&self) -> Rules {
        self.rules
    }
}

/// The rule sets a tool cycles through, as comma lists of each rule's
/// values (`--ka-entry slide,jump`); every combination is one set.
#[derive(Debug, Clone)]
pub(super) struct RuleSetArgs {
    sets: Vec<Rules>,
}

impl RuleSetArgs {
    /// Every combination of the values given, the table's first option
    /// varying slowest (as [`crate::schedule::openings::rule_sets`] and
    /// [`Rules::all`] order them), each once.
    pub(super) fn rule_sets(&self) -> Vec<Rules> {
        self.sets.clone()
    }
}

/// The flag of `option`: one value, or with `list` a comma list.
fn flag(option: &'static RuleOption, list: bool) -> Arg {
    let values = one_of(option.values);
    let arg = Arg::new(option.field)
        .long(option.flag)
        .value_name(option.field.to_uppercase())
        .default_value(option.default)
        // The table's own reading: case-insensitive, naming the values
        // taken when refused.
        .value_parser(move |text: &str| {
            option
                .apply(Rules::default(), text)
                .map(|_| text.trim().to_ascii_lowercase())
        });
    if list {
        arg.help(format!("{}: a comma list of {values}", option.words.en))
            .value_delimiter(',')
            .action(ArgAction::Append)
    } else {
        arg.help(format!("{}: {values}", option.words.en))
            .action(ArgAction::Set)
    }
}

/// The values given for `option` (its default if none).
fn given<'a>(matches: &'a ArgMatches, option: &RuleOption) -> Vec<&'a str> {
    match matches.get_many::<String>(option.field) {
        Some(values) => values.map(String::as_str).collect(),
        None => vec![option.default],
    }
}

/// A rule value refused after parsing (the parser checks each first).
fn invalid(error: impl std::fmt::Display) -> clap::Error {
    clap::Error::raw(clap::error::ErrorKind::ValueValidation, error)
}

impl FromArgMatches for RuleArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let options = RULE_OPTIONS
            .iter()
            .filter_map(|option| Some((option.field, *given(matches, option).last()?)));
        let rules = rules_from(options, OptionSpelling::Field).map_err(invalid)?;
        Ok(RuleArgs { rules })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for RuleArgs {
    fn augment_args(command: Command) -> Command {
        command.args(RULE_OPTIONS.iter().map(|option| flag(option, false)))
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

impl FromArgMatches for RuleSetArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut sets = vec![Rules::default()];
        for option in &RULE_OPTIONS {
            let values = given(matches, option);
            sets = sets
                .iter()
                .flat_map(|rules| values.iter().map(|value| option.apply(*rules, value)))
                .collect::<Result<_, _>>()
                .map_err(invalid)?;
        }
        let mut distinct: Vec<Rules> = Vec::with_capacity(sets.len());
        for rules in sets {
            if !distinct.contains(&rules) {
                distinct.push(rules);
            }
        }
        Ok(RuleSetArgs { sets: distinct })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for RuleSetArgs {
    fn augment_args(command: Command) -> Command {
        command.args(RULE_OPTIONS.iter().map(|option| flag(option, true)))
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Centre, KaEntry, Pattern};
    use crate::schedule::openings::rule_sets;

    #[derive(clap::Parser)]
    struct One {
        #[command(flatten)]
        rules: RuleArgs,
    }

    #[derive(clap::Parser)]
    struct Lists {
        #[command(flatten)]
        rules: RuleSetArgs,
    }

    fn one(args: &[&str]) -> Result<Rules, clap::Error> {
        let args = std::iter::once("pasang").chain(args.iter().copied());
        <One as clap::Parser>::try_parse_from(args).map(|one| one.rules.rules())
    }

    fn lists(args: &[&str]) -> Vec<Rules> {
        let args = std::iter::once("pasang").chain(args.iter().copied());
        <Lists as clap::Parser>::try_parse_from(args)
            .unwrap()
            .rules
            .rule_sets()
    }

    #[test]
    fn each_option_of_the_table_is_a_flag_with_its_default() {
        assert_eq!(one(&[]).unwrap(), Rules::default());
        let rules = one(&["--pattern", "2", "--ka-entry", "JUMP", "--centre", "open"]).unwrap();
        assert_eq!(rules.pattern, Pattern::Two);
        assert_eq!(rules.ka_entry, KaEntry::Jump);
        assert_eq!(rules.centre, Centre::Open);
        let refused = one(&["--ka-entry", "hop"]).unwrap_err().to_string();
        assert!(
            refused.contains("option 'Ka Entry' value 'hop' is not slide, jump or both"),
            "{refused}"
        );
        let help = <One as clap::CommandFactory>::command()
            .render_help()
            .to_string();
        for option in &RULE_OPTIONS {
            assert!(help.contains(&format!("--{}", option.flag)), "{help}");
            assert!(help.contains(option.words.en), "{help}");
        }
    }

    #[test]
    fn comma_lists_make_every_combination_in_the_schedule_order() {
        assert_eq!(lists(&[]), vec![Rules::default()]);
        assert_eq!(
            lists(&[
                "--pattern",
                "1,2",
                "--ka-entry",
                "slide,jump,slide",
                "--centre",
                "open"
            ]),
            rule_sets(
                &[Pattern::One, Pattern::Two],
                &[KaEntry::Slide, KaEntry::Jump],
                &[Rules::default().second_column],
                &[Centre::Open],
            )
        );
        let all: Vec<&str> = vec![
            "--pattern",
            "1,2",
            "--ka-entry",
            "slide,jump,both",
            "--second-column",
            "opposite,any",
            "--centre",
            "wall,open",
        ];
        assert_eq!(lists(&all), Rules::all());
    }
}
