//! A game's result: the token that ends a record's movetext and fills its
//! `Result` tag (`1-0`, `0-1`, `1/2-1/2`, `*`), read and written from one
//! table, with the [`Termination`] that says how a finished game ended.

use std::fmt;
use std::str::FromStr;

use super::Termination;
use crate::outcome::{Reason, Status};
use crate::position::Player;

/// How a game stands at the end of its record.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
pub enum GameResult {
    /// `1-0`: South won.
    SouthWins,
    /// `0-1`: North won.
    NorthWins,
    /// `1/2-1/2`: a draw.
    Draw,
    /// `*`: the game was left unfinished (or its result is unknown).
    #[default]
    Unfinished,
}

/// The tokens of [`GameResult`], in the order of its variants: the one
/// place they are spelled, read by both `Display` and `FromStr`.
const TOKENS: [(GameResult, &str); 4] = [
    (GameResult::SouthWins, "1-0"),
    (GameResult::NorthWins, "0-1"),
    (GameResult::Draw, "1/2-1/2"),
    (GameResult::Unfinished, "*"),
];

impl GameResult {
    /// The result of a finished game won by `winner` (`None`: a draw).
    pub fn decided(winner: Option<Player>) -> GameResult {
        match winner {
            Some(Player::South) => GameResult::SouthWins,
            Some(Player::North) => GameResult::NorthWins,
            None => GameResult::Draw,
        }
    }

    /// The result of a game whose last position has `status`:
    /// [`GameResult::Unfinished`] while it is in play.
    pub fn of_status(status: &Status) -> GameResult {
        match status {
            Status::InPlay => GameResult::Unfinished,
            Status::Over { winner, .. } => GameResult::decided(*winner),
        }
    }

    /// Who won a finished game: `Some(Some(player))` for a win,
    /// `Some(None)` for a draw, `None` while unfinished.
    pub fn winner(self) -> Option<Option<Player>> {
        match self {
            GameResult::SouthWins => Some(Some(Player::South)),
            GameResult::NorthWins => Some(Some(Player::North)),
            GameResult::Draw => Some(None),
            GameResult::Unfinished => None,
        }
    }

    /// The token, as records write it.
    pub fn as_str(self) -> &'static str {
        TOKENS[self as usize].1
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Text that is none of the four result tokens; keeps the text given.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("'{0}' is not a result (1-0, 0-1, 1/2-1/2 or *)")]
pub struct GameResultError(pub String);

impl FromStr for GameResult {
    type Err = GameResultError;

    fn from_str(text: &str) -> Result<GameResult, GameResultError> {
        TOKENS
            .iter()
            .find(|(_, token)| *token == text)
            .map(|(result, _)| *result)
            .ok_or_else(|| GameResultError(text.to_string()))
    }
}

impl From<Reason> for Termination {
    /// How the rules ended a game, as the `Termination` tag names it.
    fn from(reason: Reason) -> Termination {
        match reason {
            Reason::Score => Termination::Score,
            Reason::Suntuk => Termination::Suntuk,
        }
    }
}

/// How a finished game ended, as a record's `Termination`,
/// `TerminationDetail` and `Scores` tags tell it (match records carry all
/// three; the board's record of a game lost on time only the first).
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Ending {
    /// How it ended.
    pub termination: Termination,
    /// One human sentence, e.g. `North (b) loses on time (62 ms of 50 ms)`.
    pub detail: Option<String>,
    /// Points captured by South and North when it ended.
    pub scores: Option<[u32; 2]>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip() {
        for (result, token) in TOKENS {
            assert_eq!(result.to_string(), token);
            assert_eq!(token.parse::<GameResult>(), Ok(result));
        }
        assert_eq!(GameResult::decided(Some(Player::South)).as_str(), "1-0");
        assert_eq!(GameResult::decided(Some(Player::North)).as_str(), "0-1");
        assert_eq!(GameResult::decided(None).as_str(), "1/2-1/2");
        assert_eq!(GameResult::default().as_str(), "*");
        assert_eq!(
            "1-1".parse::<GameResult>().unwrap_err().to_string(),
            "'1-1' is not a result (1-0, 0-1, 1/2-1/2 or *)"
        );
        for winner in [Some(Player::South), Some(Player::North), None] {
            assert_eq!(GameResult::decided(winner).winner(), Some(winner));
        }
        assert_eq!(GameResult::Unfinished.winner(), None);
    }
}
