//! The page's messages as typed requests: [`Incoming::read`] parses one
//! JSON message, once, into a [`Request`] whose fields are checked (types,
//! ranges, rule values), or says which field is wrong, with the tag an
//! error carries back. What needs the
//! session's state (a move's legality, whether it is the person's turn,
//! how many games the file open holds) the session checks when it acts.

use std::ops::RangeInclusive;
use std::time::Duration;

use serde::Deserialize;
use serde::de::IntoDeserializer;
use serde_json::Value;

use super::mode::Mode;
use crate::page::game::GameError;
use crate::page::wire::ModeName;
use crate::position::Player;
use crate::protocol::options::RULE_OPTIONS;
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

/// One message from the page.
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
    /// `pick`: open one game of the file open, counted from 1. `None`
    /// when the number is missing or not a whole number; the session
    /// checks it against the games the file holds.
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
    /// Not a JSON object with a known `type`.
    #[error("malformed message: {0}")]
    Malformed(#[source] Malformed),
    /// A field missing or out of range.
    #[error("bad '{field}': {problem}")]
    BadField {
        /// The field's name in the message.
        field: &'static str,
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

/// Why a message is not a JSON object with a known `type`.
#[derive(Debug, thiserror::Error)]
pub enum Malformed {
    /// Not JSON.
    #[error(transparent)]
    Json(serde_json::Error),
    /// No `type` string.
    #[error("no \"type\"")]
    NoType,
    /// A `type` the session does not know.
    #[error("unknown type '{0}'")]
    UnknownType(String),
}

/// What is wrong with one field of a message.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum FieldProblem {
    /// Required and left out.
    #[error("missing")]
    Missing,
    /// Not a JSON string.
    #[error("not a string")]
    NotString,
    /// Not a JSON boolean.
    #[error("not true or false")]
    NotBool,
    /// Not a whole number in the field's range.
    #[error("{value} is not a whole number from {min} to {max}")]
    OutOfRange {
        /// The value given.
        value: Value,
        /// The least accepted.
        min: u64,
        /// The most accepted.
        max: u64,
    },
    /// A `side` other than south or north.
    #[error("'{0}' is not south or north")]
    Side(String),
    /// A `mode` the board does not have.
    #[error("expected play, analyse (or analyze), watch, review or friend")]
    Mode,
    /// A game number past the games of the file open.
    #[error("the file open holds {0} games")]
    NoSuchGame(usize),
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
        match serde_json::from_str::<Value>(text) {
            Ok(message) => Incoming {
                tag: message["tag"]
                    .as_str()
                    .filter(|tag| !tag.is_empty())
                    .map(str::to_string),
                request: Request::from_message(&message),
            },
            Err(error) => Incoming {
                request: Err(RequestError::Malformed(Malformed::Json(error))),
                tag: None,
            },
        }
    }
}

impl Request {
    /// Parses one message from the page (as [`Incoming::read`], without
    /// the tag): the tests' shorthand.
    #[cfg(test)]
    pub fn parse(text: &str) -> Result<Request, RequestError> {
        Incoming::read(text).request
    }

    /// The request of a message read as JSON. Fields are checked in the
    /// order the refusals name them: the first wrong one is the one
    /// reported.
    fn from_message(message: &Value) -> Result<Request, RequestError> {
        let kind = message["type"]
            .as_str()
            .ok_or(RequestError::Malformed(Malformed::NoType))?;
        let kind =
            Kind::deserialize(kind.into_deserializer()).map_err(|_: serde::de::value::Error| {
                RequestError::Malformed(Malformed::UnknownType(kind.to_string()))
            })?;
        Ok(match kind {
            Kind::New => {
                let rules = rules_of(&message["rules"])?;
                let start = match &message["position"] {
                    Value::Null => None,
                    Value::String(text) if text.trim().is_empty() => None,
                    Value::String(text) => Some(text.clone()),
                    _ => return Err(bad("position", FieldProblem::NotString)),
                };
                Request::New { rules, start }
            }
            Kind::Move => Request::Move(string(message, "move")?.to_string()),
            // In range, so it fits a usize.
            Kind::Goto => Request::Goto(number(message, "ply", PLY_RANGE)? as usize),
            Kind::TakeBack => Request::TakeBack,
            Kind::Resign => Request::Resign,
            Kind::Mode => Request::Mode(mode_of(message)?),
            Kind::Settings => Request::Settings(Settings {
                skill: optional(message, "skill", SKILL_RANGE)?,
                movetime: optional(message, "movetime", MOVETIME_RANGE)?,
                multipv: optional(message, "multipv", MULTIPV_RANGE)?,
                clock_base: optional(message, "clock_minutes", CLOCK_MINUTES_RANGE)?
                    .map(|minutes| Duration::from_secs(60 * minutes)),
                clock_increment: optional(message, "clock_increment", CLOCK_INCREMENT_RANGE)?
                    .map(Duration::from_secs),
            }),
            Kind::Run => Request::Run(
                message["on"]
                    .as_bool()
                    .ok_or_else(|| bad("on", FieldProblem::NotBool))?,
            ),
            Kind::Load => {
                let text = string(message, "text")?.to_string();
                let review = match &message["review"] {
                    Value::Null => false,
                    value => value
                        .as_bool()
                        .ok_or_else(|| bad("review", FieldProblem::NotBool))?,
                };
                Request::Load { text, review }
            }
            Kind::Pick => Request::Pick(message["game"].as_u64()),
            Kind::Save => Request::Save,
            Kind::Names => Request::Names {
                south: player_name(message, "south")?,
                north: player_name(message, "north")?,
            },
        })
    }
}

/// A message's `type`, as the page names it.
#[derive(Copy, Clone, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Kind {
    New,
    Move,
    Goto,
    TakeBack,
    Resign,
    Mode,
    Settings,
    Run,
    Load,
    Pick,
    Save,
    Names,
}

/// The most characters of a player's name.
pub const NAME_CHARS: usize = 40;

/// An optional player's name: a string (left out: blank), without control
/// characters or the spaces around it, cut to [`NAME_CHARS`] characters.
fn player_name(message: &Value, field: &'static str) -> Result<String, RequestError> {
    match &message[field] {
        Value::Null => Ok(String::new()),
        Value::String(text) => Ok(text
            .chars()
            .filter(|c| !c.is_control())
            .collect::<String>()
            .trim()
            .chars()
            .take(NAME_CHARS)
            .collect::<String>()
            .trim_end()
            .to_string()),
        _ => Err(bad(field, FieldProblem::NotString)),
    }
}

/// A missing or bad field.
fn bad(field: &'static str, problem: FieldProblem) -> RequestError {
    RequestError::BadField { field, problem }
}

/// A required string.
fn string<'a>(message: &'a Value, field: &'static str) -> Result<&'a str, RequestError> {
    message[field]
        .as_str()
        .ok_or_else(|| bad(field, FieldProblem::NotString))
}

/// A required whole number in `range`.
fn number(
    message: &Value,
    field: &'static str,
    range: RangeInclusive<u64>,
) -> Result<u64, RequestError> {
    optional(message, field, range)?.ok_or_else(|| bad(field, FieldProblem::Missing))
}

/// An optional whole number in `range`.
fn optional(
    message: &Value,
    field: &'static str,
    range: RangeInclusive<u64>,
) -> Result<Option<u64>, RequestError> {
    match &message[field] {
        Value::Null => Ok(None),
        value => match value.as_u64() {
            Some(n) if range.contains(&n) => Ok(Some(n)),
            _ => Err(bad(
                field,
                FieldProblem::OutOfRange {
                    value: value.clone(),
                    min: *range.start(),
                    max: *range.end(),
                },
            )),
        },
    }
}

/// The mode of a `mode` message; play's side is South unless given.
fn mode_of(message: &Value) -> Result<Mode, RequestError> {
    let name =
        ModeName::deserialize(&message["mode"]).map_err(|_| bad("mode", FieldProblem::Mode))?;
    Ok(match name {
        ModeName::Play => Mode::Play {
            person: match message["side"].as_str() {
                Some("south") | None => Player::South,
                Some("north") => Player::North,
                Some(other) => return Err(bad("side", FieldProblem::Side(other.to_string()))),
            },
        },
        ModeName::Analyse => Mode::Analyse,
        ModeName::Watch => Mode::Watch,
        ModeName::Review => Mode::Review,
        ModeName::Friend => Mode::Friend,
    })
}

/// The rules of a `new` message (defaults for what is left out), each
/// option set as the protocol's `setoption` sets it.
fn rules_of(value: &Value) -> Result<Rules, RequestError> {
    let mut given = Vec::new();
    for option in &RULE_OPTIONS {
        let field = option.field;
        match &value[field] {
            Value::Null => {}
            Value::String(text) => given.push((field, text.as_str())),
            _ => return Err(bad(field, FieldProblem::NotString)),
        }
    }
    rules_from(given, OptionSpelling::Field).map_err(|error| match error {
        RulesError::Value { option, source } => bad(option, FieldProblem::Rule(source)),
        // Only the table's own fields are read above, so no name is
        // unknown or missing.
        RulesError::Unknown { .. } | RulesError::Missing(_) => bad("rules", FieldProblem::Missing),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Centre, Pattern};

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
    fn field_problem(text: &str) -> (&'static str, FieldProblem) {
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
        // The session judges these against the file open.
        for game in ["", r#","game":"2""#, r#","game":-1"#, r#","game":1.5"#] {
            let text = format!(r#"{{"type":"pick"{game}}}"#);
            assert_eq!(parsed(&text), Request::Pick(None), "{text}");
        }
        assert_eq!(parsed(r#"{"type":"save","tag":"x"}"#), Request::Save);
    }

    #[test]
    fn malformed_messages_say_so() {
        assert!(matches!(
            refused("not json"),
            RequestError::Malformed(Malformed::Json(_))
        ));
        for text in [r#"{"move":"c"}"#, r#"{"type":3}"#, "[1]"] {
            let error = refused(text);
            assert!(
                matches!(error, RequestError::Malformed(Malformed::NoType)),
                "{text}"
            );
            assert_eq!(error.to_string(), "malformed message: no \"type\"");
        }
        let error = refused(r#"{"type":"fly"}"#);
        assert!(
            matches!(&error, RequestError::Malformed(Malformed::UnknownType(kind)) if kind == "fly")
        );
        assert_eq!(error.to_string(), "malformed message: unknown type 'fly'");
    }

    #[test]
    fn bad_fields_are_named_with_their_problem() {
        let ply_range = FieldProblem::OutOfRange {
            value: (-1).into(),
            min: 0,
            max: u32::MAX.into(),
        };
        let cases = [
            (
                r#"{"type":"move","move":5}"#,
                "move",
                FieldProblem::NotString,
            ),
            (r#"{"type":"move"}"#, "move", FieldProblem::NotString),
            (
                r#"{"type":"new","position":5}"#,
                "position",
                FieldProblem::NotString,
            ),
            (
                r#"{"type":"new","rules":{"ka_entry":true}}"#,
                "ka_entry",
                FieldProblem::NotString,
            ),
            (r#"{"type":"goto"}"#, "ply", FieldProblem::Missing),
            (r#"{"type":"goto","ply":-1}"#, "ply", ply_range),
            (
                r#"{"type":"mode","mode":"fly"}"#,
                "mode",
                FieldProblem::Mode,
            ),
            (r#"{"type":"mode"}"#, "mode", FieldProblem::Mode),
            (
                r#"{"type":"names","south":7}"#,
                "south",
                FieldProblem::NotString,
            ),
            (r#"{"type":"run"}"#, "on", FieldProblem::NotBool),
            (
                r#"{"type":"load","review":true}"#,
                "text",
                FieldProblem::NotString,
            ),
            (
                r#"{"type":"load","text":"","review":"yes"}"#,
                "review",
                FieldProblem::NotBool,
            ),
        ];
        for (message, field, problem) in cases {
            assert_eq!(field_problem(message), (field, problem), "{message}");
        }
        let (field, problem) = field_problem(r#"{"type":"new","rules":{"centre":"x"}}"#);
        assert!(field == "centre" && matches!(problem, FieldProblem::Rule(_)));
    }

    #[test]
    fn refusals_say_what_was_wrong_in_data_and_in_words() {
        let error = refused(r#"{"type":"settings","skill":21}"#);
        assert!(matches!(
            &error,
            RequestError::BadField {
                field: "skill",
                problem: FieldProblem::OutOfRange {
                    min: 0,
                    max: 20,
                    ..
                },
            }
        ));
        assert_eq!(
            error.to_string(),
            "bad 'skill': 21 is not a whole number from 0 to 20"
        );
        let error = refused(r#"{"type":"mode","mode":"play","side":"east"}"#);
        assert!(
            matches!(&error, RequestError::BadField { problem: FieldProblem::Side(side), .. } if side == "east")
        );
        assert_eq!(
            error.to_string(),
            "bad 'side': 'east' is not south or north"
        );
        assert_eq!(
            refused(r#"{"type":"goto"}"#).to_string(),
            "bad 'ply': missing"
        );
        assert_eq!(
            refused(r#"{"type":"run","on":1}"#).to_string(),
            "bad 'on': not true or false"
        );
        assert_eq!(
            refused(r#"{"type":"move","move":null}"#).to_string(),
            "bad 'move': not a string"
        );
    }

    #[test]
    fn the_first_bad_field_is_the_one_reported() {
        // Settings in the order skill, movetime, multipv, clock.
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
                r#"{"type":"settings","clock_increment":1.5}"#,
                "clock_increment",
            ),
            // Rules before the position; the rule options in table order.
            (
                r#"{"type":"new","position":1,"rules":{"centre":1,"pattern":1}}"#,
                "pattern",
            ),
            (
                r#"{"type":"new","position":1,"rules":{"centre":"x"}}"#,
                "centre",
            ),
            (r#"{"type":"load","text":1,"review":1}"#, "text"),
            // A side is looked at only in play mode.
            (r#"{"type":"mode","mode":"fly","side":"east"}"#, "mode"),
        ] {
            assert_eq!(field_problem(text).0, field, "{text}");
        }
        assert_eq!(
            parsed(r#"{"type":"mode","mode":"watch","side":"east"}"#),
            Request::Mode(Mode::Watch)
        );
    }
}
