//! What the search reports while it runs, and to whom: the search never
//! prints, it calls a [`Listener`].

use crate::host::Instant;

use crate::moves::Move;

use super::Score;

/// One principal-variation report.
#[derive(Clone, Debug)]
pub struct Info {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based line number (MultiPV).
    pub multipv: usize,
    /// Score of the line.
    pub score: Score,
    /// Nodes searched so far, all threads.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Permille of the table in use.
    pub hashfull: u32,
    /// The line.
    pub pv: Vec<Move>,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// Receives the search's reports; called from the main search thread.
pub trait Listener: Sync {
    /// A principal variation, once per line per completed iteration.
    fn info(&self, info: &Info);
    /// The root move being searched (only after the first second).
    fn current_move(&self, _depth: u32, _mv: Move, _number: usize) {}
}

/// A listener that ignores everything.
pub struct Silent;

impl Listener for Silent {
    fn info(&self, _: &Info) {}
}

/// Milliseconds since `start`.
pub(super) fn elapsed_ms(start: Instant) -> u64 {
    start.elapsed().as_millis() as u64
}
