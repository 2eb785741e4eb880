//! Whether a game is over, who won and why.

use std::fmt;

use crate::movegen::count_moves;
use crate::position::{Player, Position};
use crate::rules::Rules;

/// Why a game ended.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Reason {
    /// No stone is left: the higher score wins.
    Score,
    /// The player to move had no legal move (suntuk) and lost.
    Suntuk,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::Score => "score",
            Reason::Suntuk => "suntuk",
        })
    }
}

/// The state of a game.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Status {
    /// The player to move has a legal move.
    InPlay,
    /// The game is over.
    Over {
        /// The winner; `None` for a draw.
        winner: Option<Player>,
        /// Why it ended.
        reason: Reason,
        /// Points captured by South and North.
        scores: [u32; 2],
    },
}

impl Status {
    /// The status of `position` under `rules`.
    pub fn of(position: &Position, rules: &Rules) -> Status {
        let scores = [position.score(Player::South), position.score(Player::North)];
        if !position.has_stones() {
            let winner = match scores[0].cmp(&scores[1]) {
                std::cmp::Ordering::Greater => Some(Player::South),
                std::cmp::Ordering::Less => Some(Player::North),
                std::cmp::Ordering::Equal => None,
            };
            Status::Over {
                winner,
                reason: Reason::Score,
                scores,
            }
        } else if count_moves(position, rules) == 0 {
            Status::Over {
                winner: Some(position.side_to_move().opponent()),
                reason: Reason::Suntuk,
                scores,
            }
        } else {
            Status::InPlay
        }
    }
}

/// The protocol's `result` line body: `none`, or `south|north|draw
/// score|suntuk <S>-<N>`.
impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::InPlay => f.write_str("none"),
            Status::Over {
                winner,
                reason,
                scores,
            } => {
                let who = winner.map_or("draw", Player::name);
                write!(f, "{who} {reason} {}-{}", scores[0], scores[1])
            }
        }
    }
}

/// "South" or "North".
pub(crate) fn player_title(player: Player) -> &'static str {
    match player {
        Player::South => "South",
        Player::North => "North",
    }
}

/// A sentence for a finished game: winner, reason and scores.
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
pub(crate) fn describe_result(status: &Status, side_to_move: Player) -> String {
    match status {
        Status::InPlay => "the game is not over".to_string(),
        Status::Over {
            winner,
            reason,
            scores,
        } => {
            let points = format!("South {} - North {}", scores[0], scores[1]);
            match (winner, reason) {
                (None, _) => format!("Draw: no stone is left and the scores are level ({points})"),
                (Some(player), Reason::Score) => format!(
                    "{} wins on points: no stone is left ({points})",
                    player_title(*player)
                ),
                (Some(player), Reason::Suntuk) => format!(
                    "{} wins: {} has no legal move (suntuk) ({points})",
                    player_title(*player),
                    player_title(side_to_move)
                ),
            }
        }
    }
}
