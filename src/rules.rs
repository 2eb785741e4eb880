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
    ($type:ty, $option:literal, $( $variant:path => $name:literal ),+ ) => {
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
                    option: $option,
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

option_value!(Pattern, "Pattern", Pattern::One => "1", Pattern::Two => "2");
option_value!(KaEntry, "Ka Entry", KaEntry::Slide => "slide", KaEntry::Jump => "jump", KaEntry::Both => "both");
option_value!(SecondColumn, "Second Column", SecondColumn::Opposite => "opposite", SecondColumn::Any => "any");
option_value!(Centre, "Centre", Centre::Wall => "wall", Centre::Open => "open");

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
