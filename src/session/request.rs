//! The page's messages as checked requests: [`Incoming::read`] reads one
//! message, once, as the wire's [`SessionMessage`] (which names a field
//! of the wrong type) and checks its values (ranges, rule values) into a
//! [`Request`], or says which field is wrong, with the tag an error
//! carries back. What needs the session's state (a move's legality,
//! whether it is the person's turn, how many games the file open holds)
//! the session checks when it acts.

use std::ops::RangeInclusive;
use std::time::Duration;

use super::mode::Mode;
use crate::page::game::GameError;
use crate::page::wire::{self, ModeName, SessionMessage, WireError};
use crate::rules::{OptionSpelling, RulesError, rules_from};
use crate::rules::{OptionValueError, Rules};

/// Bounds of the settings the page may choose.
const MOVETIME_RANGE: RangeInclusive<u64> = 10..=60_000;
const SKILL_RANGE: RangeInclusive<u64> = 0..=20;
const MULTIPV_RANGE: RangeInclusive<u64> = 1..=5;
/// Clock minutes (0: no clock) and increment seconds.
const CLOCK_MINUTES_RANGE: RangeInclusive<u64> = 0..=180;
const CLOCK_INCREMENT_RANGE: RangeInclusive<u64> = 0..=60;
/// Plies the page may go to (the game checks that the ply exists).
const PLY_RANGE: RangeInclusive<u64> = 0..=u32::MAX as u64;

/// One message from the page, checked.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Request {
    /// `new`: a new game under `rules`, from `start` (a position string)
    /// or the rules' start position.
    New {
        /// The rules (defaults for the options left out).
        rules: Rules,
        /// The start position, unless left out or blank.
        start: Option<String>,
    },
    /// `move`: play a move, as text the game parses.
    Move(String),
    /// `goto`: show the position after this many plies.
    Goto(usize),
    /// `takeback`: take back the last move.
    TakeBack,
    /// `resign`: the person (in play) or the side to move (in a friend
    /// game) resigns.
    Resign,
    /// `mode`: switch to a mode (play takes the person's side).
    Mode(Mode),
    /// `settings`: change the settings given, keep the others.
    Settings(Settings),
    /// `run`: start (true) or stop (false) analysis or watching.
    Run(bool),
    /// `load`: open a record file.
    Load {
        /// The file's text.
        text: String,
        /// Whether to review it (switch to review mode).
        review: bool,
    },
    /// `pick`: open one game of the file open, counted from 1; `None`
    /// when the number is left out. The session checks it against the
    /// games the file holds.
    Pick(Option<u64>),
    /// `save`: send the game's record.
    Save,
    /// `names`: the players' names a record of a friend game carries
    /// (blank: unknown), cleaned by [`player_name`].
    Names {
        /// South's player.
        south: String,
        /// North's player.
        north: String,
    },
}

/// A `settings` message's values, each in its range; `None` for a value
/// left out.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Settings {
    /// The engine's skill level in play and watch modes.
    pub skill: Option<u64>,
    /// Time per engine move without a clock, ms.
    pub movetime: Option<u64>,
    /// Lines shown in analysis.
    pub multipv: Option<u64>,
    /// The clock's time per side (zero: no clock), whole minutes.
    pub clock_base: Option<Duration>,
    /// The clock's increment per move, whole seconds.
    pub clock_increment: Option<Duration>,
}

/// Why a message from the page was refused.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    /// Not a JSON object with a known `type` and only its fields.
    #[error("malformed message: {0}")]
    Malformed(#[source] WireError),
    /// A field missing, of the wrong type or out of range.
    #[error("bad '{field}': {problem}")]
    BadField {
        /// The field's name in the message (a rule option's page field
        /// for one of `rules`).
        field: String,
        /// What is wrong with it.
        #[source]
        problem: FieldProblem,
    },
    /// The game refused it (an illegal move, a bad position, ...).
    #[error(transparent)]
    Game(#[from] GameError),
    /// A move sent while it is the engine's turn in play mode.
    #[error("it is the engine's turn")]
    EnginesTurn,
    /// A move or take-back sent in review mode.
    #[error(
        "a review steps through the game as it was played: switch to Analyse to try other moves"
    )]
    Reviewing,
    /// A mode or a review that needs an engine, asked of a session that
    /// has none (`pasang serve`'s).
    #[error("this server runs no engine: it has no {0}")]
    NoEngine(&'static str),
}

/// What is wrong with one field of a message.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum FieldProblem {
    /// Left out, or not of the field's type, in serde's words.
    #[error("{0}")]
    Type(String),
    /// A whole number outside the field's range.
    #[error("{value} is not a whole number from {min} to {max}")]
    OutOfRange {
        /// The value given.
        value: u64,
        /// The least accepted.
        min: u64,
        /// The most accepted.
        max: u64,
    },
    /// A game number past the games of the file open.
    #[error("the file open holds {0} games")]
    NoSuchGame(usize),
    /// A rule option the rules do not have.
    #[error("there is no such rule option")]
    NoSuchOption,
    /// A rule option's value.
    #[error(transparent)]
    Rule(OptionValueError),
}

/// One message from the page as read, once: its request, or why it is
/// refused, and its tag.
#[derive(Debug)]
pub struct Incoming {
    /// The request, checked.
    pub request: Result<Request, RequestError>,
    /// The part of the page's address the request came from, if the page
    /// tagged it (not blank): an error answering it carries the tag back.
    pub tag: Option<String>,
}

impl Incoming {
    /// Reads one message from the page.
    pub fn read(text: &str) -> Incoming {
        let (tag, message) = wire::read(text);
        let request = match message {
            Ok(message) => Request::checked(message),
            Err(WireError::Field { field, problem }) => Err(RequestError::BadField {
                field,
                problem: FieldProblem::Type(problem),
            }),
            Err(error) => Err(RequestError::Malformed(error)),
        };
        Incoming { request, tag }
    }
}

impl Request {
    /// Parses one message from the page (as [`Incoming::read`], without
    /// the tag): the tests' shorthand.
    #[cfg(test)]
    pub fn parse(text: &str) -> Result<Request, RequestError> {
        Incoming::read(text).request
    }

    /// The request of a message read from the wire, its values checked
    /// in the order of its fields: the first wrong one is the one
    /// reported.
    fn checked(message: SessionMessage) -> Result<Request, RequestError> {
        Ok(match message {
            SessionMessage::New { rules, position } => Request::New {
                rules: rules_of(&rules)?,
                start: position.filter(|text| !text.trim().is_empty()),
            },
            SessionMessage::Move { notation } => Request::Move(notation),
            // In range, so it fits a usize.
            SessionMessage::Goto { ply } => {
                Request::Goto(in_range("ply", ply, PLY_RANGE)? as usize)
            }
            SessionMessage::TakeBack {} => Request::TakeBack,
            SessionMessage::Resign {} => Request::Resign,
            SessionMessage::Mode { mode, side } => Request::Mode(match mode {
                ModeName::Play => Mode::Play {
                    person: side.map_or(crate::position::Player::South, Into::into),
                },
                ModeName::Analyse => Mode::Analyse,
                ModeName::Watch => Mode::Watch,
                ModeName::Review => Mode::Review,
                ModeName::Friend => Mode::Friend,
            }),
            SessionMessage::Settings {
                skill,
                movetime,
                multipv,
                clock_minutes,
                clock_increment,
            } => Request::Settings(Settings {
                skill: optional("skill", skill, SKILL_RANGE)?,
                movetime: optional("movetime", movetime, MOVETIME_RANGE)?,
                multipv: optional("multipv", multipv, MULTIPV_RANGE)?,
                clock_base: optional("clock_minutes", clock_minutes, CLOCK_MINUTES_RANGE)?
                    .map(|minutes| Duration::from_secs(60 * minutes)),
                clock_increment: optional(
                    "clock_increment",
                    clock_increment,
                    CLOCK_INCREMENT_RANGE,
                )?
                .map(Duration::from_secs),
            }),
            SessionMessage::Run { on } => Request::Run(on),
            SessionMessage::Load { text, review } => Request::Load { text, review },
            SessionMessage::Pick { game } => Request::Pick(game),
            SessionMessage::Save {} => Request::Save,
            SessionMessage::Names { south, north } => Request::Names {
                south: player_name(south.as_deref()),
                north: player_name(north.as_deref()),
            },
        })
    }
}

/// The most characters of a player's name.
pub const NAME_CHARS: usize = 40;

/// A player's name (left out: blank), without control characters or the
/// spaces around it, cut to [`NAME_CHARS`] characters.
fn player_name(name: Option<&str>) -> String {
    name.unwrap_or_default()
        .chars()
        .filter(|c| !c.is_control())
        .collect::<String>()
        .trim()
        .chars()
        .take(NAME_CHARS)
        .collect::<String>()
        .trim_end()
        .to_string()
}

/// A whole number checked against `range`.
fn in_range(field: &str, value: u64, range: RangeInclusive<u64>) -> Result<u64, RequestError> {
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(RequestError::BadField {
            field: field.to_string(),
            problem: FieldProblem::OutOfRange {
                value,
                min: *range.start(),
                max: *range.end(),
            },
        })
    }
}

/// An optional whole number checked against `range`.
fn optional(
    field: &str,
    value: Option<u64>,
    range: RangeInclusive<u64>,
) -> Result<Option<u64>, RequestError> {
    value.map(|value| in_range(field, value, range)).transpose()
}

/// The rules of a `new` message (defaults for what is left out), each
/// option read by the core's table as the protocol's `setoption` reads
/// it.
fn rules_of(given: &std::collections::BTreeMap<String, String>) -> Result<Rules, RequestError> {
    rules_from(given, OptionSpelling::Field).map_err(|error| match error {
        RulesError::Value { option, source } => RequestError::BadField {
            field: option.to_string(),
            problem: FieldProblem::Rule(source),
        },
        RulesError::Unknown { given, .. } => RequestError::BadField {
            field: given,
            problem: FieldProblem::NoSuchOption,
        },
        // rules_from requires no option.
        RulesError::Missing(option) => RequestError::BadField {
            field: option.to_string(),
            problem: FieldProblem::NoSuchOption,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Centre, Pattern};

    use crate::position::Player;

    fn parsed(text: &str) -> Request {
        Request::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn refused(text: &str) -> RequestError {
        match Request::parse(text) {
            Ok(request) => panic!("{text}: parsed as {request:?}"),
            Err(error) => error,
        }
    }

    /// The field and problem of a refusal for a bad field.
    fn field_problem(text: &str) -> (String, FieldProblem) {
        match refused(text) {
            RequestError::BadField { field, problem } => (field, problem),
            other => panic!("{text}: {other}"),
        }
    }

    #[test]
    fn each_message_type_is_parsed() {
        assert_eq!(
            parsed(r#"{"type":"new"}"#),
            Request::New {
                rules: Rules::default(),
                start: None
            }
        );
        let Request::New { rules, start } =
            parsed(r#"{"type":"new","rules":{"pattern":"2","centre":"open"},"position":" x "}"#)
        else {
            panic!("not new");
        };
        assert_eq!(rules.pattern, Pattern::Two);
        assert_eq!(rules.centre, Centre::Open);
        assert_eq!(rules.ka_entry, Rules::default().ka_entry);
        assert_eq!(start.as_deref(), Some(" x "));
        assert_eq!(
            parsed(r#"{"type":"new","position":"  "}"#),
            parsed(r#"{"type":"new"}"#),
            "a blank position is the rules' start"
        );
        assert_eq!(
            parsed(r#"{"type":"move","move":"b4c4n"}"#),
            Request::Move("b4c4n".into())
        );
        assert_eq!(parsed(r#"{"type":"goto","ply":7}"#), Request::Goto(7));
        assert_eq!(parsed(r#"{"type":"takeback"}"#), Request::TakeBack);
        assert_eq!(parsed(r#"{"type":"resign"}"#), Request::Resign);
        assert_eq!(
            parsed(r#"{"type":"mode","mode":"play"}"#),
            Request::Mode(Mode::Play {
                person: Player::South
            })
        );
        assert_eq!(
            parsed(r#"{"type":"mode","mode":"play","side":"north"}"#),
            Request::Mode(Mode::Play {
                person: Player::North
            })
        );
        assert_eq!(
            parsed(r#"{"type":"mode","mode":"analyze"}"#),
            Request::Mode(Mode::Analyse)
        );
        assert_eq!(
            parsed(r#"{"type":"mode","mode":"watch"}"#),
            Request::Mode(Mode::Watch)
        );
        assert_eq!(
            parsed(r#"{"type":"mode","mode":"review"}"#),
            Request::Mode(Mode::Review)
        );
        assert_eq!(
            parsed(r#"{"type":"mode","mode":"friend"}"#),
            Request::Mode(Mode::Friend)
        );
        assert_eq!(
            parsed(r#"{"type":"names","south":"  Ali\n ","north":null}"#),
            Request::Names {
                south: "Ali".into(),
                north: String::new()
            },
            "names are cleaned; a missing one is blank"
        );
        let Request::Names { south, .. } = parsed(&format!(
            r#"{{"type":"names","south":"{}"}}"#,
            "x".repeat(100)
        )) else {
            panic!("names")
        };
        assert_eq!(south.chars().count(), NAME_CHARS);
        assert_eq!(
            parsed(r#"{"type":"settings"}"#),
            Request::Settings(Settings::default())
        );
        assert_eq!(
            parsed(
                r#"{"type":"settings","skill":0,"movetime":60000,"multipv":5,"clock_minutes":3,"clock_increment":2}"#
            ),
            Request::Settings(Settings {
                skill: Some(0),
                movetime: Some(60_000),
                multipv: Some(5),
                clock_base: Some(Duration::from_secs(180)),
                clock_increment: Some(Duration::from_secs(2)),
            })
        );
        assert_eq!(parsed(r#"{"type":"run","on":false}"#), Request::Run(false));
        assert_eq!(
            parsed(r#"{"type":"load","text":"1. c j *"}"#),
            Request::Load {
                text: "1. c j *".into(),
                review: false
            }
        );
        assert_eq!(
            parsed(r#"{"type":"load","text":"","review":true}"#),
            Request::Load {
                text: String::new(),
                review: true
            }
        );
        assert_eq!(
            parsed(r#"{"type":"pick","game":2}"#),
            Request::Pick(Some(2))
        );
        // The session judges the number against the file open.
        assert_eq!(parsed(r#"{"type":"pick"}"#), Request::Pick(None));
        for game in [r#""2""#, "-1", "1.5"] {
            let text = format!(r#"{{"type":"pick","game":{game}}}"#);
            assert_eq!(field_problem(&text).0, "game", "{text}");
        }
        assert_eq!(parsed(r#"{"type":"save","tag":"x"}"#), Request::Save);
    }

    #[test]
    fn malformed_messages_say_so() {
        assert!(matches!(
            refused("not json"),
            RequestError::Malformed(WireError::Json(_))
        ));
        for text in [r#"{"move":"c"}"#, r#"{"type":3}"#, "[1]", "null"] {
            let error = refused(text);
            assert!(
                matches!(error, RequestError::Malformed(WireError::NoType)),
                "{text}"
            );
            assert_eq!(error.to_string(), "malformed message: no \"type\"");
        }
        let error = refused(r#"{"type":"fly"}"#);
        assert!(
            matches!(&error, RequestError::Malformed(WireError::UnknownType(kind)) if kind == "fly")
        );
        assert_eq!(error.to_string(), "malformed message: unknown type 'fly'");
    }

    #[test]
    fn a_field_no_message_of_its_type_has_is_refused() {
        for text in [
            r#"{"type":"move","move":"c","ply":1}"#,
            r#"{"type":"takeback","move":"c"}"#,
            r#"{"type":"new","rules":{},"colour":"red"}"#,
        ] {
            let error = refused(text);
            assert!(
                matches!(&error, RequestError::Malformed(WireError::UnknownField(_))),
                "{text}: {error}"
            );
            assert!(error.to_string().contains("unknown field"), "{error}");
        }
        // A tag is every message's, and a blank one is none.
        let incoming = Incoming::read(r#"{"tag":"mode=play","type":"takeback"}"#);
        assert_eq!(incoming.tag.as_deref(), Some("mode=play"));
        assert_eq!(incoming.request.unwrap(), Request::TakeBack);
        let incoming = Incoming::read(r#"{"type":"move","tag":"","move":1}"#);
        assert_eq!(incoming.tag, None);
        assert!(incoming.request.is_err());
        // The tag comes back with a refusal of the rest.
        assert_eq!(
            Incoming::read(r#"{"type":"fly","tag":"x"}"#).tag.as_deref(),
            Some("x")
        );
        let (field, _) = field_problem(r#"{"type":"save","tag":7}"#);
        assert_eq!(field, "tag");
    }

    #[test]
    fn bad_fields_are_named_with_their_problem() {
        let cases = [
            (r#"{"type":"move","move":5}"#, "move"),
            (r#"{"type":"move"}"#, "move"),
            (r#"{"type":"new","position":5}"#, "position"),
            (r#"{"type":"new","rules":{"ka_entry":true}}"#, "ka_entry"),
            (r#"{"type":"new","rules":[1]}"#, "rules"),
            (r#"{"type":"goto"}"#, "ply"),
            (r#"{"type":"goto","ply":-1}"#, "ply"),
            (r#"{"type":"goto","ply":"3"}"#, "ply"),
            (r#"{"type":"mode","mode":"fly"}"#, "mode"),
            (r#"{"type":"mode"}"#, "mode"),
            (r#"{"type":"mode","mode":"watch","side":"east"}"#, "side"),
            (r#"{"type":"names","south":7}"#, "south"),
            (r#"{"type":"run"}"#, "on"),
            (r#"{"type":"load","review":true}"#, "text"),
            (r#"{"type":"load","text":"","review":"yes"}"#, "review"),
            (
                r#"{"type":"settings","clock_increment":1.5}"#,
                "clock_increment",
            ),
        ];
        for (message, field) in cases {
            let (named, problem) = field_problem(message);
            assert_eq!(named, field, "{message}");
            assert!(
                matches!(problem, FieldProblem::Type(_)),
                "{message}: {problem}"
            );
        }
        assert_eq!(
            refused(r#"{"type":"goto"}"#).to_string(),
            "bad 'ply': missing"
        );
        let (field, problem) = field_problem(r#"{"type":"new","rules":{"centre":"x"}}"#);
        assert!(field == "centre" && matches!(problem, FieldProblem::Rule(_)));
        let (field, problem) = field_problem(r#"{"type":"new","rules":{"colour":"red"}}"#);
        assert!(field == "colour" && problem == FieldProblem::NoSuchOption);
    }

    #[test]
    fn refusals_say_what_was_wrong_in_data_and_in_words() {
        let error = refused(r#"{"type":"settings","skill":21}"#);
        assert!(matches!(
            &error,
            RequestError::BadField {
                field,
                problem: FieldProblem::OutOfRange {
                    value: 21,
                    min: 0,
                    max: 20,
                },
            } if field == "skill"
        ));
        assert_eq!(
            error.to_string(),
            "bad 'skill': 21 is not a whole number from 0 to 20"
        );
        for (text, words) in [
            (
                r#"{"type":"mode","mode":"play","side":"east"}"#,
                "bad 'side': unknown variant `east`, expected `south` or `north`",
            ),
            (
                r#"{"type":"run","on":1}"#,
                "bad 'on': invalid type: integer `1`, expected a boolean",
            ),
            (
                r#"{"type":"move","move":null}"#,
                "bad 'move': invalid type: null, expected a string",
            ),
        ] {
            assert_eq!(refused(text).to_string(), words);
        }
    }

    #[test]
    fn the_first_bad_field_is_the_one_reported() {
        // Values out of range in the order skill, movetime, multipv,
        // clock; a value of the wrong type before any range is looked at.
        for (text, field) in [
            (r#"{"type":"settings","skill":21,"multipv":0}"#, "skill"),
            (
                r#"{"type":"settings","multipv":0,"movetime":5}"#,
                "movetime",
            ),
            (
                r#"{"type":"settings","clock_increment":61,"multipv":9}"#,
                "multipv",
            ),
            (
                r#"{"type":"settings","clock_increment":61,"clock_minutes":181}"#,
                "clock_minutes",
            ),
            (
                r#"{"type":"settings","skill":21,"clock_increment":1.5}"#,
                "clock_increment",
            ),
            // Rule values after the position's type.
            (
                r#"{"type":"new","position":1,"rules":{"centre":"x"}}"#,
                "position",
            ),
            (
                r#"{"type":"new","position":"","rules":{"pattern":"9","centre":"x"}}"#,
                "centre",
            ),
        ] {
            assert_eq!(field_problem(text).0, field, "{text}");
        }
        assert_eq!(
            parsed(r#"{"type":"mode","mode":"watch","side":"north"}"#),
            Request::Mode(Mode::Watch)
        );
    }
}
