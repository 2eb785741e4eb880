//! An evaluation from South's view, as a review shows it: a score in
//! points, a result proven by the search ("South wins by force in 7"), or
//! the result of a finished game.

use std::fmt;

use crate::eval::wdl::Wdl;
use crate::outcome::Status;
use crate::position::Player;
use crate::record::GameResult;
use crate::search::Score;

/// The value of a position from South's view.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Evaluation {
    /// 100 x the expected final point margin, South minus North.
    Centipoints(i32),
    /// `winner` wins by force in `moves` of its own moves (0: the loser's
    /// next move ends the game).
    Win {
        /// Who wins.
        winner: Player,
        /// The winner's moves still to play.
        moves: u32,
    },
    /// A draw proven by the search.
    Draw,
    /// The game is over: won by `Some(player)`, or drawn.
    Over(Option<Player>),
}

impl Evaluation {
    /// The evaluation of a search score, given from the view of
    /// `side_to_move`; `proven` says the score is the game's exact result
    /// (for a score in points: a draw).
    pub fn from_score(score: Score, side_to_move: Player, proven: bool) -> Evaluation {
        match score {
            Score::Centipoints(0) if proven => Evaluation::Draw,
            Score::Centipoints(cp) if side_to_move == Player::South => Evaluation::Centipoints(cp),
            Score::Centipoints(cp) => Evaluation::Centipoints(-cp),
            // `mate n`: the side to move wins with n moves of its own;
            // `mate -n`: it loses, and the winner plays n more moves (0
            // when the loser's own next move ends the game).
            Score::Mate(moves) if moves > 0 => Evaluation::Win {
                winner: side_to_move,
                moves: moves.unsigned_abs(),
            },
            Score::Mate(moves) => Evaluation::Win {
                winner: side_to_move.opponent(),
                moves: moves.unsigned_abs(),
            },
        }
    }

    /// The result of a finished game (`None` while it is in play).
    pub fn of_status(status: &Status) -> Option<Evaluation> {
        match status {
            Status::InPlay => None,
            Status::Over { winner, .. } => Some(Evaluation::Over(*winner)),
        }
    }

    /// `player`'s winning chances in percent: W + D/2 of `UCI_ShowWDL`'s
    /// model for a score, 100, 50 or 0 for a proven result.
    pub fn win_percent(self, player: Player) -> f64 {
        let south = match self {
            Evaluation::Centipoints(cp) => {
                let wdl = Wdl::of_centipoints(cp);
                (f64::from(wdl.win) + f64::from(wdl.draw) / 2.0) / 10.0
            }
            Evaluation::Win { winner, .. } | Evaluation::Over(Some(winner)) => {
                if winner == Player::South { 100.0 } else { 0.0 }
            }
            Evaluation::Draw | Evaluation::Over(None) => 50.0,
        };
        match player {
            Player::South => south,
            Player::North => 100.0 - south,
        }
    }

    /// Whether `player` wins by force, or has won.
    pub fn is_win_for(self, player: Player) -> bool {
        match self {
            Evaluation::Win { winner, .. } | Evaluation::Over(Some(winner)) => winner == player,
            _ => false,
        }
    }

    /// The short form records carry: `+1.25` (points, South's view),
    /// `+M7` (South wins by force in 7), `-M7` (North does), `=` (a draw
    /// by force), `1-0`, `0-1`, `1/2-1/2` (the game is over).
    pub fn token(self) -> String {
        match self {
            Evaluation::Centipoints(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
            Evaluation::Win { winner, moves } => {
                let sign = if winner == Player::South { '+' } else { '-' };
                format!("{sign}M{moves}")
            }
            Evaluation::Draw => "=".to_string(),
            Evaluation::Over(winner) => GameResult::decided(winner).to_string(),
        }
    }

    /// Reads [`Evaluation::token`]'s form back.
    pub fn from_token(token: &str) -> Option<Evaluation> {
        if token == "=" {
            return Some(Evaluation::Draw);
        }
        if let Some(winner) = token
            .parse::<GameResult>()
            .ok()
            .and_then(GameResult::winner)
        {
            return Some(Evaluation::Over(winner));
        }
        let (sign, rest) = match token.split_at_checked(1)? {
            ("+", rest) => (1, rest),
            ("-", rest) => (-1, rest),
            _ => return None,
        };
        if let Some(moves) = rest.strip_prefix('M') {
            let moves: u32 = moves.parse().ok()?;
            let winner = if sign > 0 {
                Player::South
            } else {
                Player::North
            };
            return Some(Evaluation::Win { winner, moves });
        }
        // Points with at most two decimals, read exactly as centipoints.
        let (whole, fraction) = rest.split_once('.').unwrap_or((rest, ""));
        if whole.is_empty()
            || fraction.len() > 2
            || !whole
                .bytes()
                .chain(fraction.bytes())
                .all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let whole: i32 = whole.parse().ok()?;
        let fraction: i32 = format!("{fraction:0<2}").parse().ok()?;
        Some(Evaluation::Centipoints(
            sign * whole.checked_mul(100)?.checked_add(fraction)?,
        ))
    }
}

/// In words: `+1.25`, `South wins by force in 7`, `South wins by force`
/// (in 0: the loser's last move ends the game), `drawn by force`, `South
/// has won`, `the game is drawn`.
impl fmt::Display for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let title = crate::outcome::player_title;
        match self {
            Evaluation::Centipoints(_) => f.write_str(&self.token()),
            Evaluation::Win { winner, moves: 0 } => write!(f, "{} wins by force", title(*winner)),
            Evaluation::Win { winner, moves } => {
                write!(f, "{} wins by force in {moves}", title(*winner))
            }
            Evaluation::Draw => f.write_str("drawn by force"),
            Evaluation::Over(Some(winner)) => write!(f, "{} has won", title(*winner)),
            Evaluation::Over(None) => f.write_str("the game is drawn"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_turn_to_south_view() {
        let south = Player::South;
        let north = Player::North;
        assert_eq!(
            Evaluation::from_score(Score::Centipoints(125), north, false),
            Evaluation::Centipoints(-125)
        );
        assert_eq!(
            Evaluation::from_score(Score::Mate(-3), north, true),
            Evaluation::Win {
                winner: south,
                moves: 3
            }
        );
        assert_eq!(
            Evaluation::from_score(Score::Mate(2), north, true),
            Evaluation::Win {
                winner: north,
                moves: 2
            }
        );
        assert_eq!(
            Evaluation::from_score(Score::Centipoints(0), south, true),
            Evaluation::Draw
        );
        assert_eq!(
            Evaluation::from_score(Score::Centipoints(0), south, false),
            Evaluation::Centipoints(0)
        );
    }

    #[test]
    fn tokens_round_trip_and_words_name_the_winner() {
        for evaluation in [
            Evaluation::Centipoints(0),
            Evaluation::Centipoints(125),
            Evaluation::Centipoints(-5),
            Evaluation::Centipoints(-1230),
            Evaluation::Win {
                winner: Player::South,
                moves: 7,
            },
            Evaluation::Win {
                winner: Player::North,
                moves: 0,
            },
            Evaluation::Draw,
            Evaluation::Over(Some(Player::South)),
            Evaluation::Over(Some(Player::North)),
            Evaluation::Over(None),
        ] {
            assert_eq!(
                Evaluation::from_token(&evaluation.token()),
                Some(evaluation)
            );
        }
        assert_eq!(Evaluation::Centipoints(-5).token(), "-0.05");
        assert_eq!(
            Evaluation::from_token("+1.5"),
            Some(Evaluation::Centipoints(150))
        );
        for bad in [
            "", "1.25", "+", "+1.234", "+x", "+M", "-Mx", "+1.-2", "book",
        ] {
            assert_eq!(Evaluation::from_token(bad), None, "{bad}");
        }
        let win = Evaluation::Win {
            winner: Player::South,
            moves: 7,
        };
        assert_eq!(win.to_string(), "South wins by force in 7");
        assert_eq!(Evaluation::Over(None).win_percent(Player::South), 50.0);
        assert!(Evaluation::Over(Some(Player::North)).is_win_for(Player::North));
        assert!(!Evaluation::Draw.is_win_for(Player::North));
        assert_eq!(win.win_percent(Player::North), 0.0);
        assert_eq!(Evaluation::Draw.win_percent(Player::North), 50.0);
        assert_eq!(
            Evaluation::from_score(Score::Mate(0), Player::North, true).to_string(),
            "South wins by force"
        );
        let even = Evaluation::Centipoints(0);
        assert_eq!(even.win_percent(Player::South), 50.0);
        let ahead = Evaluation::Centipoints(500);
        assert!(ahead.win_percent(Player::South) > 60.0);
        assert_eq!(
            ahead.win_percent(Player::South) + ahead.win_percent(Player::North),
            100.0
        );
    }
}
