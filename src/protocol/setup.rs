//! `setoption`, `position` and `searchmoves` carried out on the engine:
//! the text checked against the option table and the rules, then turned
//! into the engine's typed calls. On any error the engine's state stays
//! as it was.

use super::options::{OPTIONS, OptionId, OptionKind, REMOVED_OPTIONS, RULE_OPTIONS};

use crate::engine::Engine;
use crate::moves::Move;
use crate::notation::{
    ListMoveError, MoveError, PositionError, parse_move, parse_position, play_moves, shorten,
};
use crate::protocol::PositionBase;
use crate::rules::OptionValueError;
use crate::search::{ReferenceError, params};
use crate::tt::TableError;

/// Why the engine refused a `setoption`, a `position` or `searchmoves`.
/// `Display` gives the text the protocol sends after `info string error: `.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// No option has this name (as given).
    #[error("unknown option '{}'", shorten(.0))]
    UnknownOption(String),
    /// The option needs a value and got none.
    #[error("option '{option}' needs a value")]
    MissingValue {
        /// The option's name as announced.
        option: &'static str,
    },
    /// A spin option's value is not an integer.
    #[error("option '{option}' value '{}' is not an integer", shorten(.given))]
    NotAnInteger {
        /// The option's name as announced.
        option: &'static str,
        /// The value given.
        given: String,
    },
    /// A spin option's value is outside its range.
    #[error("option '{option}' value {given} is out of range {min}..{max}")]
    OutOfRange {
        /// The option's name as announced.
        option: &'static str,
        /// The value given.
        given: i64,
        /// The smallest value allowed.
        min: i64,
        /// The largest value allowed.
        max: i64,
    },
    /// A check option's value is neither `true` nor `false`.
    #[error("option '{option}' value '{}' is not true or false", shorten(.given))]
    NotABoolean {
        /// The option's name as announced.
        option: &'static str,
        /// The value given, in lower case.
        given: String,
    },
    /// An option earlier versions had and this one does not (the learned
    /// evaluations' switches and files).
    #[error(
        "option '{0}' was removed: the engine evaluates with its hand-fitted terms only (docs/strength.md)"
    )]
    RemovedOption(&'static str),
    /// `Hash`: the table could not be had; the previous size stays.
    #[error(transparent)]
    Table(#[from] TableError),
    /// `Reference Player`: not a reference player.
    #[error(transparent)]
    ReferencePlayer(#[from] ReferenceError),
    /// A rule option's value is not one of its values.
    #[error(transparent)]
    Rule(#[from] OptionValueError),
    /// The position string does not parse.
    #[error("invalid position: {0}")]
    Position(#[source] PositionError),
    /// A move of the `position` command's list does not parse or is
    /// illegal where it is played.
    #[error(transparent)]
    ListMove(#[from] ListMoveError),
    /// A move of `searchmoves` does not parse or is illegal.
    #[error("searchmoves: {0}")]
    SearchMove(#[source] MoveError),
}

/// What a `setoption` asks of the protocol beyond the engine's state.
#[derive(Debug, Eq, PartialEq)]
pub enum OptionEffect {
    /// Nothing more.
    None,
    /// `UCI_ShowWDL`: whether `info` lines carry win/draw/loss chances.
    ShowWdl(bool),
    /// Log protocol lines to this file (`None`: stop logging).
    LogFile(Option<String>),
}

/// Applies `setoption name <name> [value <value>]` to `engine`.
pub fn set_option(
    engine: &mut Engine,
    name: &str,
    value: Option<&str>,
) -> Result<OptionEffect, Refusal> {
    if let Some(index) = params::find(name) {
        return set_param(engine, index, value).map(|()| OptionEffect::None);
    }
    let Some((canonical, id, kind)) = OPTIONS
        .iter()
        .find(|(option, _, _)| option.eq_ignore_ascii_case(name.trim()))
    else {
        if let Some(removed) = REMOVED_OPTIONS
            .iter()
            .find(|option| option.eq_ignore_ascii_case(name.trim()))
        {
            return Err(Refusal::RemovedOption(removed));
        }
        return Err(Refusal::UnknownOption(name.to_string()));
    };
    let option: &'static str = canonical;
    let value = value.map(str::trim);
    // A string option: `<empty>`, its announced default, is no text.
    let text = value.filter(|v| !v.is_empty() && *v != "<empty>");
    let needed = || {
        value
            .filter(|v| !v.is_empty())
            .ok_or(Refusal::MissingValue { option })
    };
    let spin = || -> Result<i64, Refusal> {
        let OptionKind::Spin { min, max, .. } = *kind else {
            unreachable!("only spin options are read as numbers")
        };
        let text = needed()?;
        let number: i64 = text.parse().map_err(|_| Refusal::NotAnInteger {
            option,
            given: text.to_string(),
        })?;
        if (min..=max).contains(&number) {
            Ok(number)
        } else {
            Err(Refusal::OutOfRange {
                option,
                given: number,
                min,
                max,
            })
        }
    };
    let boolean = || match needed()?.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(Refusal::NotABoolean {
            option,
            given: other.to_string(),
        }),
    };
    // The ranges come from the table, so the numbers fit their types.
    match id {
        OptionId::Hash => engine.set_hash(spin()? as usize)?,
        OptionId::Threads => engine.set_threads(spin()? as usize),
        OptionId::MultiPv => engine.set_multipv(spin()? as usize),
        OptionId::MoveOverhead => engine.set_move_overhead(spin()? as u64),
        // The GUI says whether it may send `go ponder`; the engine ponders
        // only when asked, so the value is checked and kept nowhere.
        OptionId::Ponder => {
            boolean()?;
        }
        OptionId::ShowWdl => return Ok(OptionEffect::ShowWdl(boolean()?)),
        OptionId::ClearHash => engine.clear_hash(),
        OptionId::SkillLevel => engine.set_skill_level(spin()? as u8),
        OptionId::LimitStrength => engine.set_limit_strength(boolean()?),
        OptionId::Elo => engine.set_elo(spin()? as i32),
        OptionId::ReferencePlayer => engine.set_reference(needed()?.parse()?),
        OptionId::DebugLogFile => return Ok(OptionEffect::LogFile(text.map(str::to_string))),
        OptionId::Rule(index) => {
            let rule = &RULE_OPTIONS[*index];
            engine.choose_rules(rule.apply(*engine.rules(), needed()?)?);
        }
    }
    Ok(OptionEffect::None)
}

/// Sets the search's tunable constant `index`, a hidden spin option (see
/// [`crate::search::params`]).
fn set_param(engine: &mut Engine, index: usize, value: Option<&str>) -> Result<(), Refusal> {
    let tunable = &params::TUNABLES[index];
    let option = tunable.name;
    let text = value
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .ok_or(Refusal::MissingValue { option })?;
    let number: i64 = text.parse().map_err(|_| Refusal::NotAnInteger {
        option,
        given: text.to_string(),
    })?;
    let mut params = engine.settings().params;
    params.set(index, number).map_err(|_| Refusal::OutOfRange {
        option,
        given: number,
        min: i64::from(tunable.min),
        max: i64::from(tunable.max),
    })?;
    engine.set_params(params);
    Ok(())
}

/// Applies `position <base> [moves ...]` to `engine`, under the rules
/// chosen.
pub fn set_position(
    engine: &mut Engine,
    base: &PositionBase,
    moves: &[String],
) -> Result<(), Refusal> {
    let start = match base {
        PositionBase::StartPos => engine.start(),
        PositionBase::Fen(text) => parse_position(text).map_err(Refusal::Position)?,
    };
    let position = play_moves(start, engine.rules(), moves, |_| {})?;
    engine.set_position(position);
    Ok(())
}

/// The moves of `searchmoves`; an unknown or illegal one is an error.
pub fn search_moves(engine: &Engine, texts: &[String]) -> Result<Vec<Move>, Refusal> {
    texts
        .iter()
        .map(|text| {
            parse_move(engine.position(), engine.game_rules(), text).map_err(Refusal::SearchMove)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::MAX_HASH_MIB;

    /// The protocol sends these texts after `info string error: `: the
    /// error types must keep them word for word.
    #[test]
    fn errors_keep_the_protocol_text() {
        let mut engine = Engine::new();
        let option = |engine: &mut Engine, name: &str, value: Option<&str>| {
            set_option(engine, name, value).err().unwrap().to_string()
        };
        assert_eq!(
            option(&mut engine, "Bogus", Some("3")),
            "unknown option 'Bogus'"
        );
        assert_eq!(
            option(&mut engine, "hash", Some("abc")),
            "option 'Hash' value 'abc' is not an integer"
        );
        assert_eq!(
            option(&mut engine, "Hash", Some("0")),
            format!("option 'Hash' value 0 is out of range 1..{MAX_HASH_MIB}")
        );
        assert_eq!(
            option(&mut engine, "Hash", None),
            "option 'Hash' needs a value"
        );
        assert_eq!(
            option(&mut engine, "Ponder", Some("Maybe")),
            "option 'Ponder' value 'maybe' is not true or false"
        );
        assert_eq!(
            option(&mut engine, "Reference Player", Some("nope")),
            "option 'Reference Player' value 'nope' is not off, greedy or margin3"
        );
        assert_eq!(
            set_option(&mut engine, "uci_showwdl", Some("TRUE")).unwrap(),
            OptionEffect::ShowWdl(true)
        );
        let fen = PositionBase::Fen("garbage".into());
        let position = set_position(&mut engine, &fen, &[]).unwrap_err();
        assert!(matches!(position, Refusal::Position(_)));
        assert!(position.to_string().starts_with("invalid position: "));
        let list =
            set_position(&mut engine, &PositionBase::StartPos, &["zz9".to_string()]).unwrap_err();
        assert!(matches!(
            list,
            Refusal::ListMove(ListMoveError { number: 1, .. })
        ));
        assert!(list.to_string().starts_with("move 1 of the list: "));
        let search = search_moves(&engine, &["zz9".to_string()]).unwrap_err();
        assert!(search.to_string().starts_with("searchmoves: "));
    }

    #[test]
    fn rule_options_apply_to_the_next_position() {
        let mut engine = Engine::new();
        set_option(&mut engine, "pattern", Some("2")).unwrap();
        assert_eq!(engine.game_rules(), &crate::rules::Rules::default());
        set_position(&mut engine, &PositionBase::StartPos, &[]).unwrap();
        assert_eq!(engine.game_rules().pattern, crate::rules::Pattern::Two);
        let refused = set_option(&mut engine, "Centre", Some("sideways")).unwrap_err();
        assert!(
            matches!(&refused, Refusal::Rule(error) if error.given == "sideways"),
            "{refused:?}"
        );
        assert_eq!(engine.rules().pattern, crate::rules::Pattern::Two);
    }

    /// The learned evaluations' options are gone: setting one says so,
    /// names the option and leaves the engine as it was.
    #[test]
    fn removed_options_are_refused_by_name() {
        let mut engine = Engine::new();
        for (name, value) in [
            ("EvalFile", Some("/tmp/net.nnue")),
            ("use nnue", Some("true")),
            ("Use Patterns", Some("true")),
        ] {
            let refusal = set_option(&mut engine, name, value).unwrap_err();
            assert!(
                matches!(refusal, Refusal::RemovedOption(option) if option.eq_ignore_ascii_case(name)),
                "{refusal:?}"
            );
            assert!(refusal.to_string().contains("was removed"), "{refusal}");
        }
        let unknown = set_option(&mut engine, "Use Network", Some("true")).unwrap_err();
        assert!(matches!(unknown, Refusal::UnknownOption(_)), "{unknown:?}");
        assert_eq!(engine.settings().multipv, 1);
    }
}
