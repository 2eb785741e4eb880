//! The page's wire types: the board as the page draws it, the clocks,
//! the rule options it offers and the modes' names, which both servers
//! send, and [`SessionMessage`], every message the page sends a session
//! (`pasang gui`'s, or the Web Worker's), read once here by [`read`].
//! `pasang gui`'s session messages and the rooms' are built of these; the
//! page reads them by their field names, and `assets/wire.d.ts` declares
//! them for its type checker (written from these types by
//! `cargo test --lib wire_d_ts`, see [`tests`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::position::Player;

/// A rule option as the page offers it: its field (the id of its select
/// and its key in `state.rules` and the `new` request), its values and
/// its default.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RuleChoice {
    /// The page field, e.g. `ka_entry`.
    pub field: &'static str,
    /// Its values, as the protocol writes them.
    pub values: &'static [&'static str],
    /// The value it has unless chosen.
    pub default: &'static str,
    /// The protocol's option name, e.g. `Ka Entry`, as lessons and
    /// puzzles name their options (the page maps them to fields by it).
    pub name: &'static str,
    /// Its name in English and Malay.
    pub words: crate::rules::Words,
    /// Each value's words, in the order of `values`.
    pub value_words: &'static [crate::rules::Words],
}

impl RuleChoice {
    /// Every rule option, in the protocol's order.
    pub fn all() -> Vec<RuleChoice> {
        crate::rules::RULE_OPTIONS
            .iter()
            .map(|option| RuleChoice {
                field: option.field,
                values: option.values,
                default: option.default,
                name: option.name,
                words: option.words,
                value_words: option.value_words,
            })
            .collect()
    }
}

/// A message from the page to a session. On the wire it is a JSON object
/// whose `type` names the variant (lowercase) beside the variant's fields
/// and an optional `tag`; no other field is accepted.
///
/// serde reads it in its external form (`{"goto": {"ply": 3}}`), which
/// [`read`] makes of the wire form: serde buffers an internally tagged
/// enum's fields before it reads them, and loses their path, so
/// serde_path_to_error could not name a bad field.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(tag = "type"))]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum SessionMessage {
    /// A new game: rule options by page field (the others keep their
    /// default), from `position` (a position string; left out or blank:
    /// the rules' start).
    New {
        /// Rule options by page field (`ka_entry`, ...).
        #[serde(default)]
        #[cfg_attr(test, ts(optional, as = "Option<BTreeMap<String, String>>"))]
        rules: BTreeMap<String, String>,
        /// The start position.
        #[cfg_attr(test, ts(optional))]
        position: Option<String>,
    },
    /// Plays a move, in the project's notation.
    Move {
        /// The move.
        #[serde(rename = "move")]
        notation: String,
    },
    /// Shows the position after this many plies.
    Goto {
        /// The ply.
        ply: u64,
    },
    /// Takes back the last move (braces: a field is refused, as in the
    /// other messages).
    TakeBack {},
    /// The person (in play) or the side to move (in a friend game)
    /// resigns.
    Resign {},
    /// Switches mode; play takes the person's side (South unless given;
    /// the other modes ignore it).
    Mode {
        /// The mode.
        mode: ModeName,
        /// The person's side in play.
        #[cfg_attr(test, ts(optional))]
        side: Option<SideName>,
    },
    /// Changes the settings given and keeps the others (`null` as left
    /// out).
    Settings {
        /// The engine's skill level, 0 to 20.
        #[cfg_attr(test, ts(optional))]
        skill: Option<u64>,
        /// Time per engine move without a clock, 10 to 60,000 ms.
        #[cfg_attr(test, ts(optional))]
        movetime: Option<u64>,
        /// Lines shown in analysis, 1 to 5.
        #[cfg_attr(test, ts(optional))]
        multipv: Option<u64>,
        /// The clock's minutes per side, 0 (no clock) to 180.
        #[cfg_attr(test, ts(optional))]
        clock_minutes: Option<u64>,
        /// The clock's increment, 0 to 60 seconds.
        #[cfg_attr(test, ts(optional))]
        clock_increment: Option<u64>,
    },
    /// Starts (true) or stops (false) analysis or watching.
    Run {
        /// Whether it runs.
        on: bool,
    },
    /// Opens a record file's text, to review it if `review`.
    Load {
        /// The file's text.
        text: String,
        /// Whether to review it.
        #[serde(default)]
        #[cfg_attr(test, ts(optional, as = "Option<bool>"))]
        review: bool,
    },
    /// Opens one game of the file open, from 1 (the session checks it
    /// against the games the file holds).
    Pick {
        /// The game's number.
        #[cfg_attr(test, ts(optional))]
        game: Option<u64>,
    },
    /// Asks for the game's record.
    Save {},
    /// The players' names a record of a friend game carries (left out or
    /// blank: unknown).
    Names {
        /// South's player.
        #[cfg_attr(test, ts(optional))]
        south: Option<String>,
        /// North's player.
        #[cfg_attr(test, ts(optional))]
        north: Option<String>,
    },
}

/// A side as the page names it in its messages.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum SideName {
    /// `south`.
    South,
    /// `north`.
    North,
}

impl From<SideName> for Player {
    fn from(side: SideName) -> Player {
        match side {
            SideName::South => Player::South,
            SideName::North => Player::North,
        }
    }
}

/// A page's message as it arrives: the message and the `tag` the page
/// may give it (the part of its address the message came from), which an
/// error answering it carries back.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Inbound {
    /// The tag, if given and not blank.
    #[cfg_attr(test, ts(optional))]
    pub tag: Option<String>,
    /// The message.
    #[cfg_attr(test, ts(flatten))]
    pub message: SessionMessage,
}

/// Why a page's message is not a [`SessionMessage`].
#[derive(Debug, thiserror::Error)]
pub enum WireError {
    /// Not JSON.
    #[error(transparent)]
    Json(serde_json::Error),
    /// Not an object with a `type` string.
    #[error("no \"type\"")]
    NoType,
    /// A `type` that names no message.
    #[error("unknown type '{0}'")]
    UnknownType(String),
    /// A field that no message of its type has.
    #[error("{0}")]
    UnknownField(String),
    /// A field missing or of the wrong type (its name, serde's words).
    #[error("bad '{field}': {problem}")]
    Field {
        /// The field's name (a rule option's, for one of `rules`).
        field: String,
        /// What is wrong with it, in serde's words.
        problem: String,
    },
}

/// Reads one message from the page, once: the message, or why it is
/// none; and its tag, which an error answering it carries back, read
/// wherever the message has a `tag` string.
pub fn read(text: &str) -> (Option<String>, Result<SessionMessage, WireError>) {
    let mut fields = match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(fields)) => fields,
        Ok(_) => return (None, Err(WireError::NoType)),
        Err(error) => return (None, Err(WireError::Json(error))),
    };
    let tag = match fields.remove("tag") {
        None | Some(Value::Null) => None,
        Some(Value::String(tag)) => Some(tag).filter(|tag| !tag.is_empty()),
        Some(_) => {
            let problem = "not a string".to_string();
            let field = "tag".to_string();
            return (None, Err(WireError::Field { field, problem }));
        }
    };
    let Some(Value::String(kind)) = fields.remove("type") else {
        return (tag, Err(WireError::NoType));
    };
    // serde's external form of the same message: {"kind": {fields}}.
    let external = Value::Object(Map::from_iter([(kind.clone(), Value::Object(fields))]));
    let message =
        serde_path_to_error::deserialize(external).map_err(|error| wire_error(error, &kind));
    (tag, message)
}

/// A serde error as the field it names: the last of its path (a rule
/// option's name for one of `rules`), or, at the message's own level, the
/// field serde's words name.
fn wire_error(error: serde_path_to_error::Error<serde_json::Error>, kind: &str) -> WireError {
    use serde_path_to_error::Segment;
    let path: Vec<&Segment> = error.path().iter().collect();
    let problem = error.inner().to_string();
    // serde names a missing or unknown field in its words (`missing
    // field `ply``), at the variant's level or at the unknown field.
    if problem.starts_with("unknown field `") {
        return WireError::UnknownField(problem);
    }
    match path.as_slice() {
        // Above the variant: only the variant's name can be wrong.
        [] => WireError::UnknownType(kind.to_string()),
        [.., Segment::Map { key }] => WireError::Field {
            field: key.clone(),
            problem,
        },
        _ => match named_in(&problem, "missing field `") {
            Some(field) => WireError::Field {
                field,
                problem: "missing".into(),
            },
            None => WireError::UnknownField(problem),
        },
    }
}

/// The name serde quotes after `prefix` in `words`.
fn named_in(words: &str, prefix: &str) -> Option<String> {
    let rest = words.strip_prefix(prefix)?;
    Some(rest[..rest.find('`')?].to_string())
}

/// A mode's name in the page's messages, both ways: the `state`
/// message's `mode` and the `mode` request's.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum ModeName {
    /// `play`.
    Play,
    /// `analyse` (the command line's American `analyze` is read too).
    #[serde(alias = "analyze")]
    Analyse,
    /// `watch`.
    Watch,
    /// `review`.
    Review,
    /// `friend`.
    Friend,
}

impl ModeName {
    /// The mode's name as the page and the protocol spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            ModeName::Play => "play",
            ModeName::Analyse => "analyse",
            ModeName::Watch => "watch",
            ModeName::Review => "review",
            ModeName::Friend => "friend",
        }
    }
}

/// The game as the page draws it (from [`super::game::Game::state`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct BoardState {
    /// The 121 points, a character each (as `d` shows them).
    pub board: String,
    /// The side to move.
    #[serde(serialize_with = "player")]
    #[cfg_attr(test, ts(as = "crate::page::wire::SideName"))]
    pub side: Player,
    /// The phase (1, 2 or 3).
    pub phase: u8,
    /// South's and North's points.
    pub scores: [u32; 2],
    /// The shown position's string.
    pub position: String,
    /// The start position's string.
    pub start: String,
    /// Every move of the game.
    pub moves: Vec<String>,
    /// The ply on view.
    pub cursor: usize,
    /// The moves the page may offer (none when they are not the
    /// person's, or the game is over).
    pub legal: Vec<MoveState>,
    /// The move that led to the shown position.
    pub last: Option<MoveState>,
    /// How the game ended, if it did.
    pub over: Option<Over>,
    /// The status in words ("South to move", the result).
    pub status: String,
    /// Each rule option's value by its page field.
    pub rules: BTreeMap<&'static str, String>,
}

/// A move as the page needs it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MoveState {
    /// Its notation.
    #[serde(rename = "move")]
    pub notation: String,
    /// The points whose stones it takes.
    pub captures: Vec<String>,
    /// The points it scores.
    pub points: u32,
    /// Where it goes.
    #[serde(flatten)]
    pub place: MovePlace,
}

/// Where a move goes: a file for a passage, points otherwise.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(untagged)]
pub enum MovePlace {
    /// A passage onto the board at `file`.
    Passage {
        /// The file, from 0.
        file: usize,
    },
    /// A stone moved from one point to another.
    Step {
        /// The point left.
        from: String,
        /// The point reached.
        to: String,
    },
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Over {
    /// The winner (none for a draw).
    #[serde(serialize_with = "optional_player")]
    #[cfg_attr(test, ts(as = "Option<crate::page::wire::SideName>"))]
    pub winner: Option<Player>,
    /// Why it ended.
    pub reason: OverReason,
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum OverReason {
    /// On points, the stones all placed or taken.
    Points,
    /// Suntuk: the side to move cannot move.
    Suntuk,
    /// A clock ran out.
    Time,
    /// The loser resigned (a room of `pasang serve`).
    Resignation,
    /// The loser left a room's game for longer than its grace.
    Abandonment,
}

/// The clocks of play mode.
#[derive(Clone, Debug, Eq, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ClockState {
    /// South's time left, ms.
    pub south: u64,
    /// North's time left, ms.
    pub north: u64,
    /// The running clock's side.
    #[serde(serialize_with = "optional_player")]
    #[cfg_attr(test, ts(as = "Option<crate::page::wire::SideName>"))]
    pub running: Option<Player>,
    /// The time control's minutes per side.
    pub minutes: u64,
    /// Its increment, seconds.
    pub increment: u64,
}

/// A side as the page names it.
fn player<S: Serializer>(side: &Player, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(side.name())
}

/// A side or none, as the page names it.
pub(crate) fn optional_player<S: Serializer>(
    side: &Option<Player>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match side {
        Some(side) => serializer.serialize_str(side.name()),
        None => serializer.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ts_rs::{Config, TS};

    /// The page's wire.d.ts: every message both ways, the session's and
    /// the room's, declared from the Rust types.
    fn declarations() -> String {
        // Numbers are JSON numbers: the page reads a u64 as a number.
        let cfg = Config::new().with_large_int("number");
        let mut text = String::from(
            "// The page's messages, both ways, as the Rust types write and read them.\n\
             // Written by `cargo test --lib wire_d_ts` (src/page/wire.rs) with\n\
             // PASANG_WRITE_WIRE_TS=1; do not edit: a test fails when it is stale.\n",
        );
        macro_rules! declare {
            ($($type:ty),* $(,)?) => {$(
                text.push_str("\nexport ");
                text.push_str(&<$type as TS>::decl(&cfg));
                text.push('\n');
            )*};
        }
        use crate::review::{BestJson, EvalJson, PlyJson, ReviewJson, StartJson};
        use crate::review::{SideJson, SummaryJson};
        use crate::serve::protocol::{ClientMessage, Presence, RoomState, RuleRefusal};
        use crate::serve::protocol::{SeatName, ServerMessage, SideChoice};
        use crate::serve::room::{ClockControl, Side};
        use crate::session::message::{ErrorKind, ErrorMessage, GameEntry, InfoMessage};
        use crate::session::message::{PageMessage, Players, ReviewMessage, SearchPurpose};
        use crate::session::message::{Standing, StateMessage};
        declare!(
            // The page to a session.
            Inbound,
            SessionMessage,
            SideName,
            ModeName,
            // A session to the page.
            PageMessage,
            StateMessage,
            ErrorMessage,
            ErrorKind,
            crate::illegal::Illegal,
            SearchPurpose,
            InfoMessage,
            GameEntry,
            ReviewMessage,
            Players,
            Standing,
            ReviewJson,
            PlyJson,
            BestJson,
            StartJson,
            SummaryJson,
            SideJson,
            EvalJson,
            // Both servers' parts.
            RuleChoice,
            crate::rules::Words,
            BoardState,
            MoveState,
            MovePlace,
            Over,
            OverReason,
            ClockState,
            // The page to a room.
            ClientMessage,
            SideChoice,
            ClockControl,
            // A room to the page.
            ServerMessage,
            SeatName,
            Side,
            Presence,
            RuleRefusal,
            RoomState,
        );
        // A room's `error` flattens an optional `Illegal` and
        // `RuleRefusal` (`ServerMessage::Error`'s `why` and `rule`), which
        // ts-rs cannot declare.
        text.push_str(
            "\n/** A room's `error` with what its kind carries beside: an `illegal_move`'s \
             `reason` and fields, a `rules` refusal's option. */\n\
             export type RoomError = Extract<ServerMessage, { type: \"error\" }> \
             & (Illegal | {}) & (RuleRefusal | {});\n",
        );
        text
    }

    #[test]
    fn a_message_is_read_with_its_tag_or_refused_naming_its_field() {
        let (tag, message) = read(r#"{"ply":4,"tag":"ply=4","type":"goto"}"#);
        assert_eq!(tag.as_deref(), Some("ply=4"));
        assert_eq!(message.unwrap(), SessionMessage::Goto { ply: 4 });
        assert_eq!(
            read(r#"{"type":"mode","mode":"play","side":"north"}"#)
                .1
                .unwrap(),
            SessionMessage::Mode {
                mode: ModeName::Play,
                side: Some(SideName::North)
            }
        );
        let field = |text: &str| match read(text).1 {
            Err(WireError::Field { field, .. }) => field,
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(field(r#"{"type":"goto","ply":true}"#), "ply");
        assert_eq!(field(r#"{"type":"goto"}"#), "ply");
        assert_eq!(field(r#"{"type":"new","rules":{"centre":3}}"#), "centre");
        assert!(matches!(
            read(r#"{"type":"resign","now":true}"#).1,
            Err(WireError::UnknownField(words)) if words.starts_with("unknown field `now`")
        ));
        assert!(matches!(
            read(r#"{"type":"Goto","ply":1}"#).1,
            Err(WireError::UnknownType(kind)) if kind == "Goto"
        ));
    }

    /// The committed wire.d.ts is the one the types write: run with
    /// PASANG_WRITE_WIRE_TS=1 to write it anew after changing them.
    #[test]
    fn wire_d_ts_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/page/assets/wire.d.ts");
        let written = declarations();
        if std::env::var_os("PASANG_WRITE_WIRE_TS").is_some() {
            std::fs::write(path, &written).unwrap();
        }
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == written,
            "src/page/assets/wire.d.ts is stale: write it anew with \
             PASANG_WRITE_WIRE_TS=1 cargo test --release --lib wire_d_ts"
        );
    }
}
