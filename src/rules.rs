//! The traditional rule choices, as one value, and the built-in layouts.

use std::fmt;
use std::str::FromStr;

/// Which built-in start layout `startpos` means.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
pub enum Pattern {
    /// The first traditional layout.
    #[default]
    One,
    /// The second traditional layout, with its common misprint corrected.
    Two,
}

/// Which stones may become the ka in phase 2.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
pub enum KaEntry {
    /// A stone next to the passage steps sideways into it.
    #[default]
    Slide,
    /// A stone two files away jumps over the stone between.
    Jump,
    /// Either.
    Both,
}

/// Which files North may take as its passage.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
pub enum SecondColumn {
    /// On the other side of the centre from South's (any but f after f).
    #[default]
    Opposite,
    /// Any file but the mirror of South's.
    Any,
}

/// How the hole at f6 behaves.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
pub enum Centre {
    /// Ends capture runs and blocks the ka, as the edge does.
    #[default]
    Wall,
    /// Always empty: runs and kas pass over it, but no ka stops on it.
    Open,
}

/// The full set of rule options a game is played under.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
pub struct Rules {
    /// Start layout of `startpos`.
    pub pattern: Pattern,
    /// Ka entry in phase 2.
    pub ka_entry: KaEntry,
    /// North's passage restriction.
    pub second_column: SecondColumn,
    /// The hole's behaviour.
    pub centre: Centre,
}

/// A name in the page's two languages: English and (standard) Malay.
#[derive(Copy, Clone, Debug, Eq, PartialEq, serde::Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Words {
    /// English.
    pub en: &'static str,
    /// Malay.
    pub ms: &'static str,
}

/// Words the same in both languages (a number).
const fn same(both: &'static str) -> Words {
    Words { en: both, ms: both }
}

/// Words in English and Malay.
const fn words(en: &'static str, ms: &'static str) -> Words {
    Words { en, ms }
}

/// One rule option, spelled once for every place it appears: the
/// protocol's option (`setoption name Ka Entry value jump`), the game
/// record's tag (`[KaEntry "jump"]`), the board page's field
/// (`"ka_entry": "jump"`) and the command line's flag (`--ka-entry jump`),
/// with its values and how it reads and sets [`Rules`].
pub struct RuleOption {
    /// The protocol's option name, as announced and set: `Ka Entry`.
    pub name: &'static str,
    /// The game record's tag: `KaEntry`.
    pub tag: &'static str,
    /// The board page's field: `ka_entry`.
    pub field: &'static str,
    /// The command line's flag, without its dashes: `ka-entry`.
    pub flag: &'static str,
    /// Its values, in the order announced.
    pub values: &'static [&'static str],
    /// Its value under the default rules.
    pub default: &'static str,
    /// Its name in the page's two languages.
    pub words: Words,
    /// Each value's words, in the order of `values`.
    pub value_words: &'static [Words],
    get: fn(&Rules) -> String,
    set: fn(&mut Rules, &str) -> Result<(), OptionValueError>,
}

impl RuleOption {
    /// Its value under `rules`.
    pub fn value(&self, rules: &Rules) -> String {
        (self.get)(rules)
    }

    /// `rules` with this option set to `value`.
    pub fn apply(&self, rules: Rules, value: &str) -> Result<Rules, OptionValueError> {
        let mut rules = rules;
        (self.set)(&mut rules, value)?;
        Ok(rules)
    }
}

/// The rule options, in the order the protocol announces them, records
/// write their tags and [`Rules::all`] varies them (the first slowest).
pub const RULE_OPTIONS: [RuleOption; 4] = [
    RuleOption {
        name: "Pattern",
        tag: "Pattern",
        field: "pattern",
        flag: "pattern",
        values: Pattern::NAMES,
        default: "1",
        words: words("Pattern", "Corak"),
        value_words: &[same("1"), same("2")],
        get: |rules| rules.pattern.to_string(),
        set: |rules, value| {
            rules.pattern = value.parse()?;
            Ok(())
        },
    },
    RuleOption {
        name: "Ka Entry",
        tag: "KaEntry",
        field: "ka_entry",
        flag: "ka-entry",
        values: KaEntry::NAMES,
        default: "slide",
        words: words("Ka entry", "Kemasukan ka"),
        value_words: &[
            words("slide", "gelongsor"),
            words("jump", "lompat"),
            words("both", "kedua-duanya"),
        ],
        get: |rules| rules.ka_entry.to_string(),
        set: |rules, value| {
            rules.ka_entry = value.parse()?;
            Ok(())
        },
    },
    RuleOption {
        name: "Second Column",
        tag: "SecondColumn",
        field: "second_column",
        flag: "second-column",
        values: SecondColumn::NAMES,
        default: "opposite",
        words: words("Second column", "Lajur kedua"),
        value_words: &[words("opposite", "bertentangan"), words("any", "mana-mana")],
        get: |rules| rules.second_column.to_string(),
        set: |rules, value| {
            rules.second_column = value.parse()?;
            Ok(())
        },
    },
    RuleOption {
        name: "Centre",
        tag: "Centre",
        field: "centre",
        flag: "centre",
        values: Centre::NAMES,
        default: "wall",
        words: words("Centre", "Tengah"),
        value_words: &[words("wall", "dinding"), words("open", "terbuka")],
        get: |rules| rules.centre.to_string(),
        set: |rules, value| {
            rules.centre = value.parse()?;
            Ok(())
        },
    },
];

impl Rules {
    /// Every rule set (24: both patterns, three ka entries, two
    /// second-column rules, two centres), varying the options in the
    /// order of [`RULE_OPTIONS`], the first slowest: pattern 1 with ka
    /// entry slide, second column opposite and centre wall first, then
    /// centre open, and so on.
    pub fn all() -> Vec<Rules> {
        RULE_OPTIONS
            .iter()
            .fold(vec![Rules::default()], |sets, option| {
                sets.into_iter()
                    .flat_map(|rules| {
                        option
                            .values
                            .iter()
                            .filter_map(move |value| option.apply(rules, value).ok())
                    })
                    .collect()
            })
    }
}

/// A rule option value that does not parse; names the option and the
/// values it takes, in the style of every option-value error
/// (`option 'Ka Entry' value 'hop' is not slide, jump or both`, as
/// `option 'Hash' value 0 is out of range 1..32768`).
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("option '{option}' value '{given}' is not {}", one_of(.expected))]
pub struct OptionValueError {
    /// The option's name as the protocol spells it.
    pub option: &'static str,
    /// What was given.
    pub given: String,
    /// The accepted values.
    pub expected: &'static [&'static str],
}

/// A list of choices in words: `1 or 2`, `slide, jump or both`.
pub fn one_of(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [only] => (*only).to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// Parsing and printing of an option value, case-insensitive on input.
macro_rules! option_value {
    ($type:ty, $index:literal, $( $variant:path => $name:literal ),+ ) => {
        impl $type {
            /// The protocol's name of each value, in order.
            pub const NAMES: &'static [&'static str] = &[$($name),+];
        }

        impl FromStr for $type {
            type Err = OptionValueError;
            fn from_str(text: &str) -> Result<Self, OptionValueError> {
                let lower = text.trim().to_ascii_lowercase();
                $( if lower == $name { return Ok($variant); } )+
                Err(OptionValueError {
                    option: RULE_OPTIONS[$index].name,
                    given: text.to_string(),
                    expected: <$type>::NAMES,
                })
            }
        }

        impl fmt::Display for $type {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(match self { $( $variant => $name ),+ })
            }
        }
    };
}

// Each with its entry of RULE_OPTIONS, which names the option.
option_value!(Pattern, 0, Pattern::One => "1", Pattern::Two => "2");
option_value!(KaEntry, 1, KaEntry::Slide => "slide", KaEntry::Jump => "jump", KaEntry::Both => "both");
option_value!(SecondColumn, 2, SecondColumn::Opposite => "opposite", SecondColumn::Any => "any");
option_value!(Centre, 3, Centre::Wall => "wall", Centre::Open => "open");

impl Pattern {
    /// The layout, rank 11 first, as RULES gives it (`+` the hole).
    pub const fn layout(self) -> [&'static str; 11] {
        match self {
            Pattern::One => [
                "wwwwwbbbbbw",
                "bwwwwbbbbww",
                "bbwwwbbbwww",
                "bbbwwbbwwww",
                "bbbbwbwwwww",
                "bbbbb+bbbbb",
                "wwwwwbwbbbb",
                "wwwwbbwwbbb",
                "wwwbbbwwwbb",
                "wwbbbbwwwwb",
                "wbbbbbwwwww",
            ],
            // The printed form shows d1 white; d1 black is the only
            // one-point fix that is 60/60 and symmetric under rotation.
            Pattern::Two => [
                "bwwbbwwbwbb",
                "bbwwbbwwbbw",
                "wbbwwbbwbww",
                "bwwbwwbbwwb",
                "wwbbbwbwwbb",
                "wbbww+wwbbw",
                "bbwwbwbbbww",
                "bwwbbwwbwwb",
                "wwbwbbwwbbw",
                "wbbwwbbwwbb",
                "bbwbwwbbwwb",
            ],
        }
    }

    /// The start position string of this layout.
    pub fn start_position_string(self) -> String {
        format!("{} s 0 0 --", self.layout().join("/"))
    }
}

/// Which of a rule option's spellings a caller reads its names in
/// ([`RuleOption`]'s `name`, `field`, `flag` or `tag`).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum OptionSpelling {
    /// The protocol's name: `Ka Entry`.
    Name,
    /// The board page's and JSON files' field: `ka_entry`.
    Field,
    /// The command line's flag: `ka-entry`.
    Flag,
    /// The game record's tag: `KaEntry`.
    Tag,
}

impl RuleOption {
    /// This option's name in `spelling`.
    pub fn spelled(&self, spelling: OptionSpelling) -> &'static str {
        match spelling {
            OptionSpelling::Name => self.name,
            OptionSpelling::Field => self.field,
            OptionSpelling::Flag => self.flag,
            OptionSpelling::Tag => self.tag,
        }
    }
}

/// Why a set of rule options does not make rules.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum RulesError {
    /// A name that is no rule option in that spelling.
    #[error("there is no rule option '{given}' (the options are {known})")]
    Unknown {
        /// The name given.
        given: String,
        /// The options' names in the spelling read, comma-separated.
        known: String,
    },
    /// A value the option does not take.
    #[error("rule option '{option}': {source}")]
    Value {
        /// The option, in the spelling read.
        option: &'static str,
        /// What is wrong with the value.
        #[source]
        source: OptionValueError,
    },
    /// An option left out where every one is needed.
    #[error("rule option '{0}' is missing")]
    Missing(&'static str),
}

/// The rules `options` set (each a name in `spelling` and a value),
/// the others at their defaults: the one reading of rule options that
/// files, messages and bindings share.
pub fn rules_from<K: AsRef<str>, V: AsRef<str>>(
    options: impl IntoIterator<Item = (K, V)>,
    spelling: OptionSpelling,
) -> Result<Rules, RulesError> {
    let mut rules = Rules::default();
    for (name, value) in options {
        let option = rule_option(name.as_ref(), spelling)?;
        rules = option
            .apply(rules, value.as_ref())
            .map_err(|source| RulesError::Value {
                option: option.spelled(spelling),
                source,
            })?;
    }
    Ok(rules)
}

/// The rule option `name` names in `spelling`, or why none does.
pub fn rule_option(
    name: &str,
    spelling: OptionSpelling,
) -> Result<&'static RuleOption, RulesError> {
    RULE_OPTIONS
        .iter()
        .find(|option| option.spelled(spelling) == name)
        .ok_or_else(|| RulesError::Unknown {
            given: name.to_string(),
            known: RULE_OPTIONS
                .iter()
                .map(|option| option.spelled(spelling))
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// As [`rules_from`], with every option required (a file that records
/// the rules in full, such as the puzzles').
pub fn rules_from_all<K: AsRef<str>, V: AsRef<str>>(
    options: impl IntoIterator<Item = (K, V)>,
    spelling: OptionSpelling,
) -> Result<Rules, RulesError> {
    let options: Vec<(K, V)> = options.into_iter().collect();
    for option in &RULE_OPTIONS {
        let name = option.spelled(spelling);
        if !options.iter().any(|(given, _)| given.as_ref() == name) {
            return Err(RulesError::Missing(name));
        }
    }
    rules_from(options, spelling)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_option_has_words_for_itself_and_each_value() {
        for option in &RULE_OPTIONS {
            assert_eq!(
                option.value_words.len(),
                option.values.len(),
                "{}",
                option.name
            );
            assert!(option.values.contains(&option.default), "{}", option.name);
            for words in std::iter::once(&option.words).chain(option.value_words) {
                assert!(
                    !words.en.is_empty() && !words.ms.is_empty(),
                    "{}",
                    option.name
                );
            }
        }
    }

    #[test]
    fn values_parse_case_insensitively_and_print_back() {
        assert_eq!("Jump".parse::<KaEntry>(), Ok(KaEntry::Jump));
        assert_eq!(" OPEN ".parse::<Centre>(), Ok(Centre::Open));
        assert_eq!("2".parse::<Pattern>(), Ok(Pattern::Two));
        for name in SecondColumn::NAMES {
            assert_eq!(name.parse::<SecondColumn>().unwrap().to_string(), *name);
        }
    }

    #[test]
    fn defaults_are_the_default_rules_and_values_round_trip() {
        let rules = Rules::default();
        for option in &RULE_OPTIONS {
            assert_eq!(option.value(&rules), option.default, "{}", option.name);
            for value in option.values {
                let set = option.apply(rules, value).unwrap();
                assert_eq!(option.value(&set), *value);
            }
            let error = option.apply(rules, "nonsense").unwrap_err();
            assert_eq!(error.option, option.name);
        }
    }

    #[test]
    fn all_rule_sets_are_the_24_in_the_order_of_the_options() {
        let all = Rules::all();
        assert_eq!(all.len(), 24);
        assert_eq!(
            all.iter().collect::<std::collections::HashSet<_>>().len(),
            24
        );
        assert_eq!(all[0], Rules::default());
        assert_eq!(all[1].centre, Centre::Open);
        assert_eq!(all[2].second_column, SecondColumn::Any);
        assert_eq!(all[4].ka_entry, KaEntry::Jump);
        assert_eq!(all[12].pattern, Pattern::Two);
        assert_eq!(
            all[23],
            Rules {
                pattern: Pattern::Two,
                ka_entry: KaEntry::Both,
                second_column: SecondColumn::Any,
                centre: Centre::Open
            }
        );
    }

    #[test]
    fn bad_values_name_the_option_and_the_choices() {
        let error = "hop".parse::<KaEntry>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "option 'Ka Entry' value 'hop' is not slide, jump or both"
        );
        assert_eq!(
            "3".parse::<Pattern>().unwrap_err().to_string(),
            "option 'Pattern' value '3' is not 1 or 2"
        );
    }

    #[test]
    fn layouts_have_sixty_of_each_colour() {
        for pattern in [Pattern::One, Pattern::Two] {
            let text: String = pattern.layout().concat();
            assert_eq!(text.matches('w').count(), 60);
            assert_eq!(text.matches('b').count(), 60);
        }
    }

    #[test]
    fn rule_options_are_read_once_in_any_spelling() {
        let jump = Rules {
            ka_entry: KaEntry::Jump,
            ..Rules::default()
        };
        assert_eq!(
            rules_from([("Ka Entry", "jump")], OptionSpelling::Name),
            Ok(jump)
        );
        assert_eq!(
            rules_from([("ka_entry", "jump")], OptionSpelling::Field),
            Ok(jump)
        );
        assert_eq!(
            rules_from([("ka-entry", "jump")], OptionSpelling::Flag),
            Ok(jump)
        );
        assert_eq!(
            rules_from([("KaEntry", "jump")], OptionSpelling::Tag),
            Ok(jump)
        );
        let unknown = rules_from([("ka entry", "jump")], OptionSpelling::Field).unwrap_err();
        assert_eq!(
            unknown.to_string(),
            "there is no rule option 'ka entry' (the options are pattern, ka_entry, second_column, centre)"
        );
        assert!(matches!(
            rules_from([("centre", "shut")], OptionSpelling::Field),
            Err(RulesError::Value {
                option: "centre",
                ..
            })
        ));
        assert_eq!(
            rules_from_all([("pattern", "1")], OptionSpelling::Field),
            Err(RulesError::Missing("ka_entry"))
        );
    }
}
