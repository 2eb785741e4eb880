//! The room protocol: each message a page sends ([`ClientMessage`],
//! parsed once, strictly, by serde) and each the server sends
//! ([`ServerMessage`]), as JSON text frames on the WebSocket `/ws`.
//! docs/serve.md shows each one.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::room::{ClockControl, RoomError, Side};
use crate::page::wire::ModeName;
use crate::page::wire::{BoardState, ClockState, RuleChoice};
use crate::rules::RulesError;

/// Largest message a page may send, bytes; a larger one closes the
/// connection (the room is untouched).
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// A side asked for when creating a room.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum SideChoice {
    /// South, who moves first.
    South,
    /// North.
    North,
    /// Either, drawn by the server.
    Random,
}

/// A message from a page.
#[derive(Clone, Debug, Eq, PartialEq, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum ClientMessage {
    /// Makes a room and sits in it.
    Create {
        /// Rule options by page field (missing ones keep the default).
        #[serde(default)]
        #[cfg_attr(test, ts(optional, as = "Option<BTreeMap<String, String>>"))]
        rules: BTreeMap<String, String>,
        /// The clock, or none.
        #[serde(default)]
        #[cfg_attr(test, ts(optional))]
        clock: Option<ClockControl>,
        /// The creator's seat.
        #[serde(default = "random_side")]
        #[cfg_attr(test, ts(optional, as = "Option<SideChoice>"))]
        side: SideChoice,
    },
    /// Enters a room: with a seat's token, to that seat; without, to the
    /// free seat or to watch.
    Join {
        /// The room's code.
        room: String,
        /// A seat token kept from before.
        #[serde(default)]
        #[cfg_attr(test, ts(optional))]
        token: Option<String>,
    },
    /// Plays a move (for the ply given, if any: a move sent twice is
    /// refused the second time).
    Move {
        /// The move in the project's notation.
        #[serde(rename = "move")]
        notation: String,
        /// The ply it makes, from 1.
        #[serde(default)]
        #[cfg_attr(test, ts(optional))]
        ply: Option<usize>,
    },
    /// Resigns the game (braces: so that a field is refused, as in the
    /// other messages).
    Resign {},
    /// Offers (or accepts) a rematch with the seats swapped.
    Rematch {},
    /// Names the seat's player (at most 40 characters; empty takes the
    /// name back), for the others to see and for the record.
    Name {
        /// The name.
        name: String,
    },
    /// Shows this connection the finished game at a ply (0 is the start),
    /// to step through it in the room; the others' view does not change.
    Goto {
        /// The ply to show.
        ply: usize,
    },
}

fn random_side() -> SideChoice {
    SideChoice::Random
}

/// Why a page's message is refused; the room stays as it was.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    /// Not JSON, or not one of the messages.
    #[error("not a message of the room protocol: {0}")]
    Malformed(String),
    /// A binary frame.
    #[error("the room protocol is JSON text")]
    Binary,
    /// More messages than the rate allows.
    #[error("too many messages; slow down")]
    TooFast,
    /// A room code that is no open room.
    #[error("there is no room {0}")]
    NoSuchRoom(String),
    /// A second create or join on one connection.
    #[error("this connection is in a room already")]
    AlreadyInRoom,
    /// A move, resignation or rematch before create or join.
    #[error("create or join a room first")]
    NotInRoom,
    /// The server holds as many rooms as it may.
    #[error("the server holds {0} rooms, as many as it may; try later")]
    TooManyRooms(usize),
    /// The creator's address has as many rooms open as it may.
    #[error("{0} rooms made from your address are open already; finish one first")]
    RoomsPerAddress(usize),
    /// The room refused it.
    #[error(transparent)]
    Room(#[from] RoomError),
    /// The journal could not store it; nothing changed.
    #[error("the server cannot store the game now; try again")]
    Storage,
    /// The server is stopping (SIGTERM) to restart: nothing changed, and
    /// the page reconnects by itself when it is back.
    #[error("the server is restarting; this page reconnects by itself when it is back")]
    Restarting,
}

impl RequestError {
    /// The error's kind as the protocol names it.
    pub fn kind(&self) -> &'static str {
        match self {
            RequestError::Malformed(_) => "malformed",
            RequestError::Binary => "binary",
            RequestError::TooFast => "too_fast",
            RequestError::NoSuchRoom(_) => "no_such_room",
            RequestError::AlreadyInRoom => "already_in_room",
            RequestError::NotInRoom => "not_in_room",
            RequestError::TooManyRooms(_) => "too_many_rooms",
            RequestError::RoomsPerAddress(_) => "rooms_per_address",
            RequestError::Room(error) => error.kind(),
            RequestError::Storage => "storage",
            RequestError::Restarting => "restarting",
        }
    }
}

/// Parses a page's text message.
pub fn parse(text: &str) -> Result<ClientMessage, RequestError> {
    serde_json::from_str(text).map_err(|error| RequestError::Malformed(error.to_string()))
}

/// The seat a connection holds, as the protocol writes it.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum SeatName {
    /// South's seat.
    South,
    /// North's seat.
    North,
    /// Watching.
    Spectator,
}

impl From<Option<Side>> for SeatName {
    fn from(side: Option<Side>) -> SeatName {
        match side {
            Some(Side::South) => SeatName::South,
            Some(Side::North) => SeatName::North,
            None => SeatName::Spectator,
        }
    }
}

/// Who is in the room now.
#[derive(Clone, Debug, Eq, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Presence {
    /// Whether South's seat is taken.
    pub south_taken: bool,
    /// Whether North's seat is taken.
    pub north_taken: bool,
    /// Whether South's player is connected.
    pub south_here: bool,
    /// Whether North's player is connected.
    pub north_here: bool,
    /// Spectators connected.
    pub spectators: usize,
}

/// A message to a page.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ServerMessage {
    /// The rule options, as `pasang gui`'s session greets the page.
    Hello {
        /// No engine plays in a room.
        engine: String,
        /// The rule options the page offers.
        rules: Vec<RuleChoice>,
    },
    /// The room as this connection sees it.
    Room {
        /// The room's code.
        room: String,
        /// This connection's seat.
        seat: SeatName,
        /// The seat's token (to the seat's own connection only).
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        token: Option<String>,
        /// The game's number in the room, from 1.
        game: u32,
        /// Who is here.
        presence: Presence,
        /// Rematch offers: South's, North's.
        rematch: [bool; 2],
        /// The players' names where given: South's, North's.
        names: [Option<String>; 2],
        /// The grace an absent player has, seconds.
        grace: u64,
    },
    /// The game, as the board draws it (the fields of `pasang gui`'s
    /// `state`).
    State(Box<RoomState>),
    /// A message refused.
    Error {
        /// The kind of refusal (`not_your_turn`, `spectator`, ...).
        kind: &'static str,
        /// What was wrong, in words.
        message: String,
        /// Why a move is illegal, as the rules core names it (a `reason`
        /// code and its fields), for an `illegal_move`.
        #[serde(flatten, skip_serializing_if = "Option::is_none")]
        // ts-rs flattens no Option: wire.d.ts's `RoomError` adds it.
        #[cfg_attr(test, ts(skip))]
        why: Option<crate::illegal::Illegal>,
        /// Which rule choice was refused, for a `rules` error, so that
        /// the page can name it in its own words.
        #[serde(flatten, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(skip))]
        rule: Option<RuleRefusal>,
    },
}

/// A rule choice a room refused: the page's field name, the value given
/// and, for a value the option does not take, the values it does.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RuleRefusal {
    /// The option as the page names it (`pattern`, `ka_entry`, ...).
    pub option: String,
    /// The value given (absent when the option itself is unknown).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub value: Option<String>,
    /// The values the option takes (empty when it is unknown).
    pub expected: Vec<&'static str>,
}

impl RuleRefusal {
    fn of(error: &RulesError) -> RuleRefusal {
        match error {
            RulesError::Unknown { given, .. } => RuleRefusal {
                option: given.clone(),
                value: None,
                expected: Vec::new(),
            },
            RulesError::Value { option, source } => RuleRefusal {
                option: (*option).to_string(),
                value: Some(source.given.clone()),
                expected: source.expected.to_vec(),
            },
            RulesError::Missing(option) => RuleRefusal {
                option: (*option).to_string(),
                value: None,
                expected: Vec::new(),
            },
        }
    }
}

/// The `state` message of a room: the board, the mode `friend`, the
/// seat as `person`, the clocks. A room has no engine, so the engine's
/// part of `pasang gui`'s state (its settings, whether it runs) is not
/// there at all.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RoomState {
    /// The game.
    #[serde(flatten)]
    pub board: BoardState,
    /// Always `friend`.
    pub mode: ModeName,
    /// The connection's seat (none for a spectator).
    pub person: Option<Side>,
    /// The clocks, if the room has one.
    pub clock: Option<ClockState>,
}

impl ServerMessage {
    /// The `error` message of `error`.
    pub fn error(error: &RequestError) -> ServerMessage {
        let why = match error {
            RequestError::Room(RoomError::IllegalMove { why, .. }) => Some(why.clone()),
            _ => None,
        };
        let rule = match error {
            RequestError::Room(RoomError::Rules(error)) => Some(RuleRefusal::of(error)),
            _ => None,
        };
        ServerMessage::Error {
            kind: error.kind(),
            message: error.to_string(),
            why,
            rule,
        }
    }

    /// The message as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|error| {
            let why = serde_json::Value::String(format!("cannot write a message: {error}"));
            format!(r#"{{"type":"error","kind":"internal","message":{why}}}"#)
        })
    }
}

/// What a room server answers beside the page's files and `/ws`.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum OwnRoute {
    /// `/ws-check`: what a page asks when its socket failed, since a
    /// browser hides the HTTP status of a refused upgrade.
    Check,
    /// `/record?room=CODE&game=N`: a finished game's record.
    Record,
}

/// A request for one of [`OwnRoute`]s.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct CheckRequest {
    /// Which.
    pub route: OwnRoute,
    /// Whether only the head is asked for.
    pub head_only: bool,
    /// The `Host` header, if any.
    pub host: Option<String>,
    /// The `room` argument, if any.
    pub room: Option<String>,
    /// The `game` argument, if any.
    pub game: Option<String>,
}

/// Reads a request head as a request for one of [`OwnRoute`]s; `None`
/// for any other request (or one that does not parse: the page's server
/// answers it).
pub fn check_request(head: &[u8]) -> Option<CheckRequest> {
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut request = httparse::Request::new(&mut headers);
    if !matches!(request.parse(head), Ok(httparse::Status::Complete(_))) {
        return None;
    }
    let head_only = match request.method? {
        "GET" => false,
        "HEAD" => true,
        _ => return None,
    };
    let target = request.path?;
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let route = match path {
        "/ws-check" => OwnRoute::Check,
        "/record" => OwnRoute::Record,
        _ => return None,
    };
    let host = request
        .headers
        .iter()
        .find(|h| h.name.eq_ignore_ascii_case("host"))
        .map(|h| String::from_utf8_lossy(h.value).trim().to_string());
    // Room codes are URL-safe: no decoding is needed, and a code that
    // needs it is no room's.
    let argument = |name: &str| {
        query
            .split('&')
            .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
            .map(str::to_string)
    };
    Some(CheckRequest {
        route,
        head_only,
        host,
        room: argument("room"),
        game: argument("game"),
    })
}

/// The file name of a finished game's record, `CODE-N.pgn`, if `room`
/// can be a room's code (URL-safe letters, at most 64) and `game` a
/// game's number: nothing else reaches the disk.
pub fn record_name(room: Option<&str>, game: Option<&str>) -> Option<String> {
    let room = room?;
    let safe = (1..=64).contains(&room.len())
        && room
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    let game: u32 = game?.parse().ok()?;
    (safe && game > 0).then(|| format!("{room}-{game}.pgn"))
}

/// The origin a page's socket must come from: `--origin` where given,
/// else this server as the `Host` header names it (as
/// [`crate::http::parse_with_origin`] checks it).
pub fn expected_origin(origin: Option<&str>, host: Option<&str>) -> Option<String> {
    match (origin, host) {
        (Some(origin), _) => Some(origin.trim_end_matches('/').to_string()),
        (None, Some(host)) => Some(format!("http://{host}")),
        (None, None) => None,
    }
}

/// The answer to `GET /ws-check?room=CODE`: whether a socket from the
/// asking address would be let in now, and the origin its page must have.
#[derive(Clone, Debug, Eq, PartialEq, Serialize)]
pub struct CheckAnswer {
    /// The origin a page's socket must come from (`http://HOST` as this
    /// request reached the server, or `--origin`).
    pub origin: Option<String>,
    /// Whether a socket from this address would be admitted now.
    pub admitted: bool,
    /// Why not: `address` (too many from this address, 429), `busy` (too
    /// many in all, 503).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<&'static str>,
    /// Whether the room asked about is open on this server (none when no
    /// room was asked about).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub room: Option<bool>,
    /// This server's id (`--server-id`), if it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_check_request_is_read_and_others_are_left() {
        let check = check_request(b"GET /ws-check?room=a-XY_z HTTP/1.1\r\nHost: h:81\r\n\r\n");
        assert_eq!(
            check,
            Some(CheckRequest {
                route: OwnRoute::Check,
                head_only: false,
                host: Some("h:81".into()),
                room: Some("a-XY_z".into()),
                game: None,
            })
        );
        let record = check_request(b"GET /record?room=a-X&game=2 HTTP/1.1\r\n\r\n").unwrap();
        assert_eq!(record.route, OwnRoute::Record);
        assert_eq!(
            record_name(record.room.as_deref(), record.game.as_deref()).as_deref(),
            Some("a-X-2.pgn")
        );
        for (room, game) in [
            ("../x", "1"),
            ("a", "0"),
            ("a", "x"),
            ("a.b", "1"),
            ("", "1"),
        ] {
            assert_eq!(record_name(Some(room), Some(game)), None, "{room} {game}");
        }
        assert_eq!(
            check_request(b"GET /ws-check HTTP/1.1\r\n\r\n")
                .unwrap()
                .room,
            None
        );
        for other in [
            &b"GET / HTTP/1.1\r\nHost: h\r\n\r\n"[..],
            b"POST /ws-check HTTP/1.1\r\n\r\n",
            b"GET /ws-checks HTTP/1.1\r\n\r\n",
            b"junk",
        ] {
            assert_eq!(check_request(other), None);
        }
        assert_eq!(
            expected_origin(None, Some("h:81")).as_deref(),
            Some("http://h:81")
        );
        assert_eq!(
            expected_origin(Some("https://x.org/"), Some("h")).as_deref(),
            Some("https://x.org")
        );
    }

    #[test]
    fn messages_parse_strictly() {
        assert_eq!(
            parse(r#"{"type":"move","move":"b4c4n","ply":3}"#).unwrap(),
            ClientMessage::Move {
                notation: "b4c4n".into(),
                ply: Some(3)
            }
        );
        assert_eq!(
            parse(r#"{"type":"create","clock":{"minutes":5,"increment":3},"side":"north"}"#)
                .unwrap(),
            ClientMessage::Create {
                rules: BTreeMap::new(),
                clock: Some(ClockControl {
                    minutes: 5,
                    increment: 3
                }),
                side: SideChoice::North
            }
        );
        for junk in [
            "",
            "null",
            "{}",
            r#"{"type":"move"}"#,
            r#"{"type":"move","move":"c","extra":1}"#,
            r#"{"type":"resign","x":1}"#,
            r#"{"type":"create","side":"east"}"#,
        ] {
            let error = parse(junk).unwrap_err();
            assert_eq!(error.kind(), "malformed", "{junk}");
        }
    }

    #[test]
    fn errors_are_written_with_their_kind() {
        let message = ServerMessage::error(&RequestError::Room(RoomError::NotYourTurn));
        assert_eq!(
            message.to_json(),
            r#"{"type":"error","kind":"not_your_turn","message":"it is not your turn"}"#
        );
    }

    #[test]
    fn a_refused_rule_choice_is_named_with_the_values_it_takes() {
        let rules = BTreeMap::from([("pattern".to_string(), "3".to_string())]);
        let error = super::super::room::rules_of(&rules).unwrap_err();
        let json = ServerMessage::error(&RequestError::Room(error)).to_json();
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["kind"], "rules");
        assert_eq!(value["option"], "pattern");
        assert_eq!(value["value"], "3");
        assert_eq!(value["expected"], serde_json::json!(["1", "2"]));
        let unknown = BTreeMap::from([("colour".to_string(), "red".to_string())]);
        let error = super::super::room::rules_of(&unknown).unwrap_err();
        let json = ServerMessage::error(&RequestError::Room(error)).to_json();
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["option"], "colour");
        assert!(value.get("value").is_none(), "{json}");
    }
}
