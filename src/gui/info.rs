//! The `info` lines of an engine's search, as far as the page shows them:
//! which line, its depth, its score and its moves.

use crate::position::Player;

/// A score as the engine reports it, from the side to move's view.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Score {
    /// Hundredths of a point.
    Centipoints(i64),
    /// Moves of the side to move until the game is decided (negative:
    /// lost).
    Mate(i64),
}

impl Score {
    /// The score as South sees it, as text (`+1.50`, `+#3`) and as a
    /// number for the evaluation bar (mates as +-100,000).
    pub fn describe(self, side: Player) -> (String, i64) {
        let sign = if side == Player::South { 1 } else { -1 };
        match self {
            Score::Centipoints(cp) => {
                let south = cp * sign;
                (format!("{:+.2}", south as f64 / 100.0), south)
            }
            Score::Mate(moves) => {
                // `mate 0` is a finished game the side to move lost.
                let winning = moves > 0;
                let south_wins = winning == (side == Player::South);
                let text = format!("{}#{}", if south_wins { '+' } else { '-' }, moves.abs());
                (text, if south_wins { 100_000 } else { -100_000 })
            }
        }
    }
}

/// The parts of an `info` line the page shows.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Info {
    /// Which line (1 is the best).
    pub multipv: u64,
    /// The depth searched.
    pub depth: u64,
    /// The score, from the side to move's view.
    pub score: Score,
    /// The line, as the engine wrote it.
    pub pv: Vec<String>,
    /// The search's speed in nodes per second, if given.
    pub nps: Option<u64>,
}

impl Info {
    /// An `info` line with a score and a line; `None` for the others
    /// (`info string`, progress without a line).
    pub fn parse(line: &str) -> Option<Info> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut info = Info {
            multipv: 1,
            depth: 0,
            score: Score::Centipoints(0),
            pv: Vec::new(),
            nps: None,
        };
        let mut scored = false;
        let mut index = 1;
        while index < words.len() {
            let next = words.get(index + 1).copied().unwrap_or("");
            match words[index] {
                "string" => return None,
                "depth" => info.depth = next.parse().ok()?,
                "multipv" => info.multipv = next.parse().ok()?,
                "nps" => info.nps = next.parse().ok(),
                "score" => {
                    let value = words.get(index + 2)?.parse().ok()?;
                    info.score = match next {
                        "cp" => Score::Centipoints(value),
                        "mate" => Score::Mate(value),
                        _ => return None,
                    };
                    scored = true;
                    index += 1;
                }
                "pv" => {
                    info.pv = words[index + 1..].iter().map(|w| w.to_string()).collect();
                    break;
                }
                _ => {
                    index += 1;
                    continue;
                }
            }
            index += 2;
        }
        (scored && !info.pv.is_empty()).then_some(info)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_parse() {
        let info = Info::parse(
            "info depth 7 seldepth 9 multipv 2 score cp -35 upperbound nodes 99 pv c j",
        )
        .unwrap();
        assert_eq!(info.depth, 7);
        assert_eq!(info.multipv, 2);
        assert_eq!(info.score, Score::Centipoints(-35));
        assert_eq!(info.pv, ["c", "j"]);
        assert_eq!(info.nps, None);
        let info = Info::parse("info depth 9 score cp 5 nodes 900 nps 45000 pv c").unwrap();
        assert_eq!(info.nps, Some(45000));
        assert_eq!(Info::parse("info string pv c score cp 1"), None);
        assert_eq!(Info::parse("info depth x score cp 1 pv c"), None);
        assert_eq!(Info::parse("info depth 3 nodes 5"), None);
        assert_eq!(Score::Mate(0).describe(Player::North).0, "+#0");
    }
}
