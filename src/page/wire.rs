//! The page's wire types that both servers send: the board as the page
//! draws it, the clocks, the rule options it offers and the modes'
//! names. `pasang gui`'s session messages and the rooms' are built of
//! these; the page (`assets/app.js`) reads them by their field names.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize, Serializer};

use crate::position::Player;

/// A rule option as the page offers it: its field (the id of its select
/// and its key in `state.rules` and the `new` request), its values and
/// its default.
#[derive(Clone, Debug, PartialEq, Serialize)]
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
            })
            .collect()
    }
}

/// A mode's name in the page's messages, both ways: the `state`
/// message's `mode` and the `mode` request's.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
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
pub struct BoardState {
    /// The 121 points, a character each (as `d` shows them).
    pub board: String,
    /// The side to move.
    #[serde(serialize_with = "player")]
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
pub struct Over {
    /// The winner (none for a draw).
    #[serde(serialize_with = "optional_player")]
    pub winner: Option<Player>,
    /// Why it ended.
    pub reason: OverReason,
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize)]
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
pub struct ClockState {
    /// South's time left, ms.
    pub south: u64,
    /// North's time left, ms.
    pub north: u64,
    /// The running clock's side.
    #[serde(serialize_with = "optional_player")]
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
