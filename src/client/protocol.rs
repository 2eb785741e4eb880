//! The two dialects an engine may speak: the words in which they differ.

use std::fmt;

use crate::protocol::ReplyKind;

/// The protocol an engine speaks: UCI (the default) or UGI.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub enum Protocol {
    /// `uci`/`uciok`, `ucinewgame`, `wtime`/`btime`.
    #[default]
    Uci,
    /// `ugi`/`ugiok`, `uginewgame`, `p1time`/`p2time`, `query`, and a
    /// `bestmove` line of exactly two words.
    Ugi,
}

impl Protocol {
    /// The handshake command.
    pub fn hello(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Ugi => "ugi",
        }
    }

    /// The handshake's last answer.
    pub fn ok(self) -> ReplyKind {
        match self {
            Protocol::Uci => ReplyKind::UciOk,
            Protocol::Ugi => ReplyKind::UgiOk,
        }
    }

    /// The command that starts a new game.
    pub fn new_game(self) -> &'static str {
        match self {
            Protocol::Uci => "ucinewgame",
            Protocol::Ugi => "uginewgame",
        }
    }

    /// The words of South's and North's clocks and increments in `go`
    /// (player 1 is South).
    pub fn clock_words(self) -> [&'static str; 4] {
        match self {
            Protocol::Uci => ["wtime", "btime", "winc", "binc"],
            Protocol::Ugi => ["p1time", "p2time", "p1inc", "p2inc"],
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.hello())
    }
}
