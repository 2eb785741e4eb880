//! The replies a tool waits for, written by the engine and read by the
//! client from the same definitions: the words that end a handshake, an
//! `isready`, a search and a UGI query, and the `bestmove` line itself.
//! (`info` lines have one writer here and one parser in the client, held
//! together by a round-trip test.)

use std::fmt;

/// A line a tool waits for, by its first word.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum ReplyKind {
    /// `uciok`: the UCI handshake is done.
    UciOk,
    /// `ugiok`: the UGI handshake is done.
    UgiOk,
    /// `readyok`: the earlier commands are done.
    ReadyOk,
    /// `bestmove ...`: the search is over.
    BestMove,
    /// `response ...`: the answer to a UGI `query`.
    Response,
}

impl ReplyKind {
    /// Every kind, in the order above.
    pub const ALL: [ReplyKind; 5] = [
        ReplyKind::UciOk,
        ReplyKind::UgiOk,
        ReplyKind::ReadyOk,
        ReplyKind::BestMove,
        ReplyKind::Response,
    ];

    /// The line's first word.
    pub const fn word(self) -> &'static str {
        match self {
            ReplyKind::UciOk => "uciok",
            ReplyKind::UgiOk => "ugiok",
            ReplyKind::ReadyOk => "readyok",
            ReplyKind::BestMove => "bestmove",
            ReplyKind::Response => "response",
        }
    }

    /// The kind of `line`, if it is one of these.
    pub fn of(line: &str) -> Option<ReplyKind> {
        let first = line.split_whitespace().next()?;
        ReplyKind::ALL.into_iter().find(|kind| kind.word() == first)
    }
}

/// The word that stands for no move in `bestmove (none)`.
const NO_MOVE: &str = "(none)";

/// A `bestmove` line: the move (none when the game is over) and the move
/// the engine expects in reply, if it names one.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct BestMove {
    /// The move, as the engine wrote it; `None` for `(none)`.
    pub best: Option<String>,
    /// The `ponder` move, if any.
    pub ponder: Option<String>,
}

impl BestMove {
    /// `bestmove (none)`: no move, the game is over.
    pub const NONE: BestMove = BestMove {
        best: None,
        ponder: None,
    };

    /// The line parsed, or `None` if it is not a `bestmove` line with a
    /// move (or `(none)`).
    pub fn parse(line: &str) -> Option<BestMove> {
        let mut words = line.split_whitespace();
        if words.next() != Some(ReplyKind::BestMove.word()) {
            return None;
        }
        let best = words.next()?;
        let ponder = match (words.next(), words.next()) {
            (Some("ponder"), Some(reply)) => Some(reply.to_string()),
            _ => None,
        };
        Some(BestMove {
            best: (best != NO_MOVE).then(|| best.to_string()),
            ponder,
        })
    }
}

impl fmt::Display for BestMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}",
            ReplyKind::BestMove.word(),
            self.best.as_deref().unwrap_or(NO_MOVE)
        )?;
        if let Some(ponder) = &self.ponder {
            write!(f, " ponder {ponder}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_replies_read_back() {
        for kind in ReplyKind::ALL {
            assert_eq!(ReplyKind::of(kind.word()), Some(kind));
            assert_eq!(ReplyKind::of(&format!("{} x y", kind.word())), Some(kind));
        }
        assert_eq!(ReplyKind::of("info depth 1"), None);
        assert_eq!(ReplyKind::of(""), None);
        for best in [
            BestMove {
                best: Some("b4c4n".into()),
                ponder: Some("k7j7w".into()),
            },
            BestMove {
                best: Some("c".into()),
                ponder: None,
            },
            BestMove {
                best: None,
                ponder: None,
            },
        ] {
            let line = best.to_string();
            assert_eq!(ReplyKind::of(&line), Some(ReplyKind::BestMove));
            assert_eq!(BestMove::parse(&line), Some(best), "{line}");
        }
        assert_eq!(
            BestMove::parse("bestmove (none)").unwrap().to_string(),
            "bestmove (none)"
        );
        assert_eq!(BestMove::parse("bestmove"), None);
        assert_eq!(BestMove::parse("readyok"), None);
    }
}
