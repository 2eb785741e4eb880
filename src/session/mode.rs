//! What the page may be doing: the board's modes, shared by the page's
//! requests ([`super::request`]) and the session ([`super`]).

use crate::page::wire::ModeName;
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
    /// Two people play each other on one board (pass and play, or by a
    /// link after each move): both sides' moves are the page's, and the
    /// engine neither moves nor analyses.
    Friend,
}

impl Mode {
    /// The mode's name in the page's messages.
    pub fn name(self) -> ModeName {
        match self {
            Mode::Play { .. } => ModeName::Play,
            Mode::Analyse => ModeName::Analyse,
            Mode::Watch => ModeName::Watch,
            Mode::Review => ModeName::Review,
            Mode::Friend => ModeName::Friend,
        }
    }
}
