//! The options the engine announces, in one table: names, kinds, ranges
//! and defaults, and the `option` lines of the `uci` answer. The rule
//! options are the table of [`crate::rules::RULE_OPTIONS`] (each with its
//! protocol name, record tag, page field and flag, and how it reads and
//! sets the rules): the engine's `setoption` and every client that sets
//! an engine's rules use it.

use super::reply::{OptionLine, OptionType};
use crate::engine::{DEFAULT_HASH_MIB, MAX_MULTIPV, MAX_THREADS};
pub(crate) use crate::rules::RULE_OPTIONS;
use crate::search::{Reference, skill};
use crate::tt::MAX_HASH_MIB;

/// The kind and range of an option, as `uci` announces it.
pub(crate) enum OptionKind {
    /// An integer in a range.
    Spin { default: i64, min: i64, max: i64 },
    /// On or off.
    Check { default: bool },
    /// An action.
    Button,
    /// One of a fixed set of words.
    Combo {
        default: &'static str,
        values: &'static [&'static str],
    },
    /// Free text (empty by default).
    Text,
}

/// Which option a line names: what `setoption` matches on, so that each
/// option's name is written once, in [`OPTIONS`].
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(crate) enum OptionId {
    Hash,
    Threads,
    MultiPv,
    MoveOverhead,
    Ponder,
    ShowWdl,
    ClearHash,
    /// The rule option of this entry of [`RULE_OPTIONS`].
    Rule(usize),
    SkillLevel,
    LimitStrength,
    Elo,
    ReferencePlayer,
    DebugLogFile,
}

/// Every option: name, identity and kind, in the order `uci` announces
/// them.
pub(crate) const OPTIONS: &[(&str, OptionId, OptionKind)] = &[
    (
        "Hash",
        OptionId::Hash,
        OptionKind::Spin {
            default: DEFAULT_HASH_MIB as i64,
            min: 1,
            max: MAX_HASH_MIB as i64,
        },
    ),
    (
        "Threads",
        OptionId::Threads,
        OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS as i64,
        },
    ),
    (
        "MultiPV",
        OptionId::MultiPv,
        OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV as i64,
        },
    ),
    (
        "Move Overhead",
        OptionId::MoveOverhead,
        OptionKind::Spin {
            default: 10,
            min: 0,
            max: 5000,
        },
    ),
    (
        "Ponder",
        OptionId::Ponder,
        OptionKind::Check { default: false },
    ),
    (
        "UCI_ShowWDL",
        OptionId::ShowWdl,
        OptionKind::Check { default: false },
    ),
    ("Clear Hash", OptionId::ClearHash, OptionKind::Button),
    rule_entry(0),
    rule_entry(1),
    rule_entry(2),
    rule_entry(3),
    (
        "Skill Level",
        OptionId::SkillLevel,
        OptionKind::Spin {
            default: skill::MAX_LEVEL as i64,
            min: 0,
            max: skill::MAX_LEVEL as i64,
        },
    ),
    (
        "UCI_LimitStrength",
        OptionId::LimitStrength,
        OptionKind::Check { default: false },
    ),
    (
        "UCI_Elo",
        OptionId::Elo,
        OptionKind::Spin {
            default: skill::elo_range().1 as i64,
            min: skill::elo_range().0 as i64,
            max: skill::elo_range().1 as i64,
        },
    ),
    (
        "Reference Player",
        OptionId::ReferencePlayer,
        OptionKind::Combo {
            default: "off",
            values: Reference::NAMES,
        },
    ),
    ("Debug Log File", OptionId::DebugLogFile, OptionKind::Text),
];

/// Options that earlier versions announced and this one no longer has:
/// a line that sets one is told so, not merely that the name is unknown.
/// The two learned evaluations they switched on were taken out of the
/// build (docs/strength.md names the commits that hold them).
pub(crate) const REMOVED_OPTIONS: &[&str] = &["Use NNUE", "Use Patterns", "EvalFile"];

/// The `option` lines of the `uci` answer.
pub(crate) fn option_lines() -> Vec<OptionLine> {
    OPTIONS
        .iter()
        .map(|(name, _, kind)| {
            let (kind, default, range, values) = match *kind {
                OptionKind::Spin { default, min, max } => (
                    OptionType::Spin,
                    Some(default.to_string()),
                    Some((min, max)),
                    &[][..],
                ),
                OptionKind::Check { default } => {
                    (OptionType::Check, Some(default.to_string()), None, &[][..])
                }
                OptionKind::Button => (OptionType::Button, None, None, &[][..]),
                OptionKind::Combo { default, values } => {
                    (OptionType::Combo, Some(default.to_string()), None, values)
                }
                OptionKind::Text => (OptionType::String, Some("<empty>".into()), None, &[][..]),
            };
            OptionLine {
                name: name.to_string(),
                kind,
                default,
                range,
                values: values.iter().map(ToString::to_string).collect(),
            }
        })
        .collect()
}

/// Entry `index` of [`RULE_OPTIONS`] in [`OPTIONS`].
const fn rule_entry(index: usize) -> (&'static str, OptionId, OptionKind) {
    let option = &RULE_OPTIONS[index];
    (
        option.name,
        OptionId::Rule(index),
        OptionKind::Combo {
            default: option.default,
            values: option.values,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The defaults `uci` announces are the engine's own at start.
    #[test]
    fn spin_defaults_are_the_engines() {
        let engine = crate::engine::Engine::new();
        let settings = engine.settings();
        let default = |name: &str| {
            OPTIONS
                .iter()
                .find_map(|(option, _, kind)| match kind {
                    OptionKind::Spin { default, .. } if *option == name => Some(*default),
                    _ => None,
                })
                .unwrap()
        };
        assert_eq!(default("Threads"), settings.threads as i64);
        assert_eq!(default("MultiPV"), settings.multipv as i64);
        assert_eq!(default("Move Overhead"), settings.move_overhead as i64);
        assert_eq!(default("Skill Level"), i64::from(settings.skill_level));
    }

    #[test]
    fn each_option_has_its_own_identity() {
        for (index, (name, id, _)) in OPTIONS.iter().enumerate() {
            let same = OPTIONS
                .iter()
                .skip(index + 1)
                .find(|(_, other, _)| other == id);
            assert!(same.is_none(), "{name} shares its identity");
            if let OptionId::Rule(rule) = id {
                assert_eq!(*name, RULE_OPTIONS[*rule].name);
            }
        }
    }
}
