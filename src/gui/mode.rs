//! What the page may be doing: the board's modes, shared by the page's
//! requests ([`super::request`]) and the session ([`super::session`]).

use crate::position::Player;

/// What the page may be doing.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Mode {
    /// A person plays `person`'s side against the engine.
    Play {
        /// The side the person plays.
        person: Player,
    },
    /// The engine analyses the shown position without end (while running).
    Analyse,
    /// The engine plays both sides (while running).
    Watch,
    /// The game is judged move by move ([`super::review`]) and stepped
    /// through; no move is played.
    Review,
}

impl Mode {
    /// The mode's name in the page's messages.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Play { .. } => "play",
            Mode::Analyse => "analyse",
            Mode::Watch => "watch",
            Mode::Review => "review",
        }
    }
}
