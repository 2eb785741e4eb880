//! The lines of a search, for the page: each `info` line with a score and
//! moves becomes an `info` message (the score from South's side, the
//! line's legal moves only), and only the newest per line is kept till
//! the next flush, so that a chatty engine cannot flood the page.

use std::collections::BTreeMap;

use super::Session;
use crate::client::{EngineScore, InfoLine};
use crate::notation::parse_move;
use crate::position::Player;
use crate::session::message::InfoMessage;

/// The newest line per `multipv` number since the last flush.
#[derive(Debug, Default)]
pub(super) struct Lines(BTreeMap<u64, InfoMessage>);

impl Lines {
    /// The lines kept, by number; none are kept after.
    pub(super) fn take(&mut self) -> Vec<InfoMessage> {
        std::mem::take(&mut self.0).into_values().collect()
    }

    /// Forgets the lines kept (a new search starts).
    pub(super) fn clear(&mut self) {
        self.0.clear();
    }
}

impl Session {
    /// Keeps an `info` line of the current search.
    pub(super) fn on_info(&mut self, info: &InfoLine) {
        let Some(search) = self.engine.search else {
            return;
        };
        if search.stopping || search.generation != self.generation {
            return;
        }
        // Only lines with a score and a line of moves are shown.
        if info.string.is_some() {
            return;
        }
        let Some(score) = info.score.filter(|_| !info.pv.is_empty()) else {
            return;
        };
        let multipv = info.multipv.unwrap_or(1);
        let (text, south) = describe(score, search.side);
        let message = InfoMessage {
            multipv,
            depth: info.depth.unwrap_or(0),
            nps: info.nps,
            score: text,
            south,
            pv: self.legal_line(&info.pv),
            side: search.side,
            ply: self.game.cursor(),
        };
        self.lines.0.insert(multipv, message);
    }

    /// The moves of a line that are legal from the shown position: a
    /// foreign engine's nonsense stops there.
    fn legal_line(&self, moves: &[String]) -> Vec<String> {
        let rules = self.game.rules();
        let mut position = self.game.shown();
        let mut line = Vec::new();
        for text in moves {
            let Ok(mv) = parse_move(&position, &rules, text) else {
                break;
            };
            line.push(mv.to_string());
            position = position.play(mv);
        }
        line
    }
}

/// A score as South sees it, as text (`+1.50`, `+#3`) and as a number for
/// the evaluation bar (mates as +-100,000).
pub(super) fn describe(score: EngineScore, side: Player) -> (String, i64) {
    let sign = if side == Player::South { 1 } else { -1 };
    match score {
        EngineScore::Centipoints(cp) => {
            let south = cp * sign;
            (format!("{:+.2}", south as f64 / 100.0), south)
        }
        EngineScore::Mate(moves) => {
            // `mate 0` is a finished game the side to move lost.
            let winning = moves > 0;
            let south_wins = winning == (side == Player::South);
            let text = format!("{}#{}", if south_wins { '+' } else { '-' }, moves.abs());
            (text, if south_wins { 100_000 } else { -100_000 })
        }
    }
}
