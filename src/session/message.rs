//! The board's messages to the page, as types: [`PageMessage`] is every
//! message the session sends (over the WebSocket or out of the Web
//! Worker), written as JSON by serde. The page (`assets/app.js`) reads
//! them by their `type` and field names, which the unit tests here pin.
//!
//! The page's messages to the board are the other way's types,
//! [`super::request::Request`].

use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::page::wire::{BoardState, ClockState, ModeName, RuleChoice};
use crate::position::Player;
use crate::review::ReviewJson;

/// One message for the page; its `type` field names the variant.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum PageMessage {
    /// The session has started, with this engine.
    Hello {
        /// The engine's name, as it gave it.
        engine: String,
        /// The rule options the page offers, from the one table that
        /// spells them ([`crate::rules::RULE_OPTIONS`]).
        rules: Vec<RuleChoice>,
    },
    /// Everything the page draws.
    State(Box<StateMessage>),
    /// A request refused, or the engine or the review failing.
    Error(ErrorMessage),
    /// The engine starts to search the position after `ply`.
    Search {
        /// Why it searches.
        purpose: SearchPurpose,
        /// The side to move there (the scores to come are its view).
        #[serde(serialize_with = "player")]
        #[cfg_attr(test, ts(as = "crate::page::wire::SideName"))]
        side: Player,
        /// The ply searched.
        ply: usize,
    },
    /// One line of the engine's search.
    Info(InfoMessage),
    /// A record of the game, answering `save`.
    Record {
        /// The record's text.
        text: String,
        /// Whether it is the review's annotated record (left out if not).
        #[serde(skip_serializing_if = "is_false")]
        #[cfg_attr(test, ts(optional, as = "Option<bool>"))]
        annotated: bool,
    },
    /// The games of the record file open, for the page's picker.
    Games {
        /// Each game of the file.
        games: Vec<GameEntry>,
        /// The game on the board (from 1), once one is chosen.
        chosen: Option<usize>,
    },
    /// How far the review of the game has come.
    Review(Box<ReviewMessage>),
}

impl PageMessage {
    /// An `error` message of `kind` with `message`, untagged.
    pub fn error(kind: ErrorKind, message: impl Into<String>) -> PageMessage {
        PageMessage::Error(ErrorMessage {
            message: message.into(),
            kind,
            tag: None,
        })
    }

    /// The message as the JSON text the page reads.
    pub fn to_json(&self) -> String {
        // These types have string keys only, so serde_json cannot fail on
        // them; should it ever, the page hears why instead of nothing.
        serde_json::to_string(self).unwrap_or_else(|error| {
            let why = Value::String(format!("cannot write a message: {error}"));
            format!(r#"{{"type":"error","message":{why}}}"#)
        })
    }
}

/// The `error` message.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ErrorMessage {
    /// What went wrong, in the session's (English) words.
    pub message: String,
    /// What kind of refusal or failure it is: the page words it in its
    /// own language from this (the `kind` field and its values).
    #[serde(flatten)]
    pub kind: ErrorKind,
    /// The tag of the request refused (the part of the page's address it
    /// came from), if it had one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub tag: Option<String>,
}

/// The kind of an `error` message, written as its `kind` field (snake
/// case) with the values the page's words need beside it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ErrorKind {
    /// A message the session cannot read (a fault of the page).
    Malformed,
    /// A field of a message missing or out of range.
    BadField {
        /// The field's name in the message.
        field: String,
    },
    /// A position string that does not parse or cannot occur.
    BadPosition,
    /// A move that is not a move, or not legal where it was sent.
    IllegalMove {
        /// The move as sent.
        #[serde(rename = "move")]
        notation: String,
        /// Why, as the rules core names it: a `reason` code and what its
        /// words need.
        #[serde(flatten)]
        why: crate::illegal::Illegal,
    },
    /// A move sent after the game ended.
    GameOver,
    /// A ply outside the game.
    NoSuchPly {
        /// The ply asked for.
        ply: usize,
    },
    /// Record text that does not read or replay.
    BadRecord,
    /// A move sent while it is the engine's turn in play.
    EnginesTurn,
    /// A move or take-back sent in review mode.
    Reviewing,
    /// A mode or a review that needs an engine, on a server that runs
    /// none.
    NoEngine {
        /// The mode asked for (`review` for a record's review).
        mode: &'static str,
    },
    /// The engine stopped, or played a move the game refuses.
    Engine,
    /// The review's searches failed.
    Review,
}

/// Why the engine searches, in the `search` message.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum SearchPurpose {
    /// For a move to play (play and watch modes).
    Move,
    /// Analysis of the shown position.
    Analyse,
}

/// The `state` message: the game as the page draws it ([`BoardState`])
/// with the session's mode and settings.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StateMessage {
    /// The game.
    #[serde(flatten)]
    pub board: BoardState,
    /// The mode's name.
    pub mode: ModeName,
    /// The person's side in play mode.
    #[serde(serialize_with = "optional_player")]
    #[cfg_attr(test, ts(as = "Option<crate::page::wire::SideName>"))]
    pub person: Option<Player>,
    /// Whether analysis or watching runs.
    pub running: bool,
    /// The engine's skill level in play.
    pub skill: u64,
    /// Time per engine move without a clock, ms.
    pub movetime: u64,
    /// Lines shown in analysis.
    pub multipv: u64,
    /// Whether the engine can be asked to search.
    pub engine_ok: bool,
    /// The clocks, if play has one.
    pub clock: Option<ClockState>,
    /// Whether the engine is searching for a move.
    pub thinking: bool,
}

/// The `info` message: one line of the engine's search.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct InfoMessage {
    /// The line's number (1 the best).
    pub multipv: u64,
    /// The depth searched.
    pub depth: u64,
    /// Nodes per second, if the engine said.
    pub nps: Option<u64>,
    /// The score as South sees it (`+1.50`, `-#2`).
    pub score: String,
    /// The score for the evaluation bar (mates as +-100,000).
    pub south: i64,
    /// The line's legal moves.
    pub pv: Vec<String>,
    /// The side to move in the searched position.
    #[serde(serialize_with = "player")]
    #[cfg_attr(test, ts(as = "crate::page::wire::SideName"))]
    pub side: Player,
    /// The ply searched.
    pub ply: usize,
}

/// One game of a record file, in the `games` message.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct GameEntry {
    /// Its number, from 1.
    pub game: usize,
    /// Who played South.
    pub south: Option<String>,
    /// Who played North.
    pub north: Option<String>,
    /// The event.
    pub event: Option<String>,
    /// Its result token.
    pub result: &'static str,
    /// Its length in plies.
    pub plies: usize,
    /// Whether it carries a review.
    pub annotated: bool,
}

/// The `review` message.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ReviewMessage {
    /// The players' names.
    pub players: Players,
    /// The game's result token.
    pub result: &'static str,
    /// Whether the search still runs.
    pub running: bool,
    /// Positions searched.
    pub done: usize,
    /// Positions to search.
    pub total: usize,
    /// While it runs, what is known of each position (per ply from 0).
    pub partial: Option<Vec<Option<Standing>>>,
    /// Once done, the review as `pasang annotate --json` gives it (that
    /// command's own JSON, [`crate::review::ReviewJson`]).
    pub game: Option<ReviewJson>,
}

/// South's and North's names from a record's tags.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Players {
    /// South's.
    pub south: Option<String>,
    /// North's.
    pub north: Option<String>,
}

/// What is known of one position of a running review.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Standing {
    /// South's winning chances, percent to a tenth.
    pub win: f64,
    /// The evaluation in words (English).
    pub text: String,
    /// The evaluation as `pasang annotate --json` gives it, for the page
    /// to word in its language.
    pub eval: crate::review::EvalJson,
}

fn is_false(value: &bool) -> bool {
    !value
}

/// A side as the page names it.
fn player<S: Serializer>(side: &Player, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(side.name())
}

fn optional_player<S: Serializer>(side: &Option<Player>, serializer: S) -> Result<S::Ok, S::Error> {
    match side {
        Some(side) => serializer.serialize_str(side.name()),
        None => serializer.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::wire::{MovePlace, MoveState, Over, OverReason};
    use std::collections::BTreeMap;

    fn wire(message: PageMessage) -> Value {
        serde_json::from_str(&message.to_json()).unwrap()
    }

    /// Each message type's JSON, key by key, as the page reads it.
    #[test]
    fn the_wire_form_of_each_message_is_pinned() {
        let hello = PageMessage::Hello {
            engine: "pasang".into(),
            rules: RuleChoice::all(),
        };
        assert!(
            hello.to_json().starts_with(
                r#"{"type":"hello","engine":"pasang","rules":[{"field":"pattern","values":["1","2"],"default":"1","name":"Pattern","words":{"en":"Pattern","ms":"Corak"},"value_words":[{"en":"1","ms":"1"},{"en":"2","ms":"2"}]},{"field":"ka_entry","#
            ),
            "{}",
            hello.to_json()
        );
        assert_eq!(
            PageMessage::error(ErrorKind::Engine, "no").to_json(),
            r#"{"type":"error","message":"no","kind":"engine"}"#
        );
        let tagged = PageMessage::Error(ErrorMessage {
            message: "no".into(),
            kind: ErrorKind::IllegalMove {
                notation: "x".into(),
                why: crate::illegal::Illegal::PassageFirst,
            },
            tag: Some("moves=x".into()),
        });
        assert_eq!(
            tagged.to_json(),
            r#"{"type":"error","message":"no","kind":"illegal_move","move":"x","reason":"passage_first","tag":"moves=x"}"#
        );
        let field = PageMessage::error(
            ErrorKind::BadField {
                field: "skill".into(),
            },
            "no",
        );
        assert_eq!(
            field.to_json(),
            r#"{"type":"error","message":"no","kind":"bad_field","field":"skill"}"#
        );
        let search = PageMessage::Search {
            purpose: SearchPurpose::Analyse,
            side: Player::North,
            ply: 3,
        };
        assert_eq!(
            search.to_json(),
            r#"{"type":"search","purpose":"analyse","side":"north","ply":3}"#
        );
        let info = PageMessage::Info(InfoMessage {
            multipv: 2,
            depth: 5,
            nps: None,
            score: "-#2".into(),
            south: -100_000,
            pv: vec!["j".into()],
            side: Player::South,
            ply: 1,
        });
        assert_eq!(
            info.to_json(),
            r#"{"type":"info","multipv":2,"depth":5,"nps":null,"score":"-#2","south":-100000,"pv":["j"],"side":"south","ply":1}"#
        );
        let record = |annotated| PageMessage::Record {
            text: "1. c *".into(),
            annotated,
        };
        assert_eq!(
            record(false).to_json(),
            r#"{"type":"record","text":"1. c *"}"#
        );
        assert_eq!(
            record(true).to_json(),
            r#"{"type":"record","text":"1. c *","annotated":true}"#
        );
    }

    #[test]
    fn the_wire_form_of_games_and_review_is_pinned() {
        let games = PageMessage::Games {
            games: vec![GameEntry {
                game: 1,
                south: Some("Ann".into()),
                north: None,
                event: Some("a".into()),
                result: "*",
                plies: 2,
                annotated: false,
            }],
            chosen: None,
        };
        assert_eq!(
            games.to_json(),
            r#"{"type":"games","games":[{"game":1,"south":"Ann","north":null,"event":"a","result":"*","plies":2,"annotated":false}],"chosen":null}"#
        );
        let review = PageMessage::Review(Box::new(ReviewMessage {
            players: Players {
                south: Some("Ann".into()),
                north: Some("Bob".into()),
            },
            result: "1-0",
            running: true,
            done: 1,
            total: 3,
            partial: Some(vec![
                None,
                Some(Standing {
                    win: 52.5,
                    text: "+0.10".into(),
                    eval: crate::review::EvalJson::Centipoints {
                        cp: 10,
                        text: "+0.10".into(),
                    },
                }),
            ]),
            game: None,
        }));
        assert_eq!(
            review.to_json(),
            r#"{"type":"review","players":{"south":"Ann","north":"Bob"},"result":"1-0","running":true,"done":1,"total":3,"partial":[null,{"win":52.5,"text":"+0.10","eval":{"cp":10,"text":"+0.10"}}],"game":null}"#
        );
    }

    #[test]
    fn the_wire_form_of_the_state_is_pinned() {
        let step = MoveState {
            notation: "b4c4n".into(),
            captures: vec!["c6".into()],
            points: 1,
            place: MovePlace::Step {
                from: "b4".into(),
                to: "c4".into(),
            },
        };
        let passage = MoveState {
            notation: "c".into(),
            captures: Vec::new(),
            points: 0,
            place: MovePlace::Passage { file: 2 },
        };
        let state = PageMessage::State(Box::new(StateMessage {
            board: BoardState {
                board: "w+b".into(),
                side: Player::South,
                phase: 2,
                scores: [11, 9],
                position: "p".into(),
                start: "s".into(),
                moves: vec!["c".into()],
                cursor: 1,
                legal: vec![step],
                last: Some(passage),
                over: Some(Over {
                    winner: None,
                    reason: OverReason::Points,
                }),
                status: "Drawn".into(),
                rules: BTreeMap::from([("centre", "open".to_string())]),
            },
            mode: ModeName::Play,
            person: Some(Player::North),
            running: true,
            skill: 5,
            movetime: 1000,
            multipv: 3,
            engine_ok: true,
            clock: Some(ClockState {
                south: 60_000,
                north: 59_000,
                running: Some(Player::South),
                minutes: 1,
                increment: 2,
            }),
            thinking: false,
        }));
        assert_eq!(
            state.to_json(),
            concat!(
                r#"{"type":"state","board":"w+b","side":"south","phase":2,"scores":[11,9],"#,
                r#""position":"p","start":"s","moves":["c"],"cursor":1,"#,
                r#""legal":[{"move":"b4c4n","captures":["c6"],"points":1,"from":"b4","to":"c4"}],"#,
                r#""last":{"move":"c","captures":[],"points":0,"file":2},"#,
                r#""over":{"winner":null,"reason":"points"},"status":"Drawn","rules":{"centre":"open"},"#,
                r#""mode":"play","person":"north","running":true,"skill":5,"movetime":1000,"multipv":3,"#,
                r#""engine_ok":true,"clock":{"south":60000,"north":59000,"running":"south","minutes":1,"increment":2},"#,
                r#""thinking":false}"#
            )
        );
        assert_eq!(
            wire(PageMessage::Hello {
                engine: "x".into(),
                rules: Vec::new()
            })["type"],
            "hello"
        );
    }
}
