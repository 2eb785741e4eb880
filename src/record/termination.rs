//! The `Termination` tag: how a game ended, as records name it.

use std::fmt;
use std::str::FromStr;

/// How a game ended.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Termination {
    /// No stone left: the higher score won, or equal scores drew.
    Score,
    /// The side to move had no legal move and lost.
    Suntuk,
    /// The loser ran out of time.
    TimeForfeit,
    /// The loser played an illegal move.
    IllegalMove,
    /// The loser's process exited or closed its pipe.
    Disconnect,
    /// The loser did not answer `isready` (or `uci`) in time.
    Stall,
    /// The loser resigned (a game of `pasang serve`).
    Resignation,
}

impl Termination {
    /// Every termination, in the order reports list them.
    pub const ALL: [Termination; 7] = [
        Termination::Score,
        Termination::Suntuk,
        Termination::TimeForfeit,
        Termination::IllegalMove,
        Termination::Disconnect,
        Termination::Stall,
        Termination::Resignation,
    ];

    /// The forfeits, in the order summaries list them.
    pub const FORFEITS: [Termination; 4] = [
        Termination::TimeForfeit,
        Termination::IllegalMove,
        Termination::Disconnect,
        Termination::Stall,
    ];

    /// The verdict as fastchess words it, after the loser's name.
    pub fn verdict(self) -> &'static str {
        match self {
            Termination::Score => "loses on points",
            Termination::Suntuk => "is stalemated (suntuk)",
            Termination::TimeForfeit => "loses on time",
            Termination::IllegalMove => "makes an illegal move",
            Termination::Disconnect => "disconnects",
            Termination::Stall => "connection stalls",
            Termination::Resignation => "resigns",
        }
    }
}

impl fmt::Display for Termination {
    /// The `Termination` tag's value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Termination::Score => "score",
            Termination::Suntuk => "suntuk",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Disconnect => "disconnect",
            Termination::Stall => "stall",
            Termination::Resignation => "resignation",
        })
    }
}

/// A termination name that is none of [`Termination::ALL`]; keeps the
/// text given.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("unknown termination '{0}'")]
pub struct TerminationError(pub String);

impl FromStr for Termination {
    type Err = TerminationError;

    fn from_str(text: &str) -> Result<Termination, TerminationError> {
        Termination::ALL
            .into_iter()
            .find(|t| t.to_string() == text)
            .ok_or_else(|| TerminationError(text.to_string()))
    }
}
