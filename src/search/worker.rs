//! One search thread and its state; what it does is cut by concern into
//! the submodules: `iterate` (iterative deepening), `root` (the root moves
//! and aspiration windows), `negamax` (the search below the root),
//! `ordering` (killers and history), `pv` (the principal variation table),
//! `clock` (when to stop) and `solve` (the endgame solve).

mod clock;
mod iterate;
mod negamax;
mod ordering;
mod pv;
mod root;
mod solve;

use super::{MAX_PLY, Params, Shared};
use crate::moves::Move;
use crate::position::Position;
use clock::Deadline;

/// Depth stored for results whose whole subtree reached the end of the
/// game: exact whatever depth later asks for them.
const PROVEN_DEPTH: i32 = 250;
const POINTS: usize = crate::bitboard::POINT_COUNT;

struct RootMove {
    mv: Move,
    score: i32,
    pv: Vec<Move>,
    /// Whether the move's last search reached the end of the game on
    /// every line.
    proven: bool,
    /// Nodes searched under the move so far, over every iteration.
    effort: u64,
}

/// A search thread's state. The main thread (index 0) also keeps time and
/// reports.
pub(super) struct Worker<'a> {
    index: usize,
    shared: &'a Shared<'a>,
    root: Position,
    nodes: u64,
    seldepth: usize,
    /// Leaves scored by the evaluation (not by the end of the game) or by
    /// an unproven table entry; unchanged over a subtree means it is proven.
    horizon_hits: u64,
    stopped: bool,
    /// Set while the main thread searches depth 1, which always completes
    /// so that every search has a move with an exact score.
    must_complete: bool,
    deadline: Deadline,
    pondering: bool,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    history: Vec<i32>,
    pv: Vec<Move>,
    pv_len: [usize; MAX_PLY + 1],
    root_moves: Vec<RootMove>,
    /// The last (depth, move number) sent as `currmove`.
    announced: (u32, usize),
    /// Node count at which an endgame solve pauses (see `solve`).
    solve_limit: u64,
    /// Set when `solve_limit` stopped the search, not a limit of the search.
    solve_paused: bool,
    /// Whether the search may prune on the evaluation; off while solving,
    /// whose results must be exact.
    selective: bool,
    /// The tunable constants, copied so that reading one is one load.
    params: Params,
}

impl<'a> Worker<'a> {
    pub(super) fn new(index: usize, shared: &'a Shared<'a>, root: Position) -> Worker<'a> {
        let limits = shared.limits;
        let budget = limits.budget(
            root.side_to_move(),
            root.stone_count(),
            shared.settings.move_overhead,
            &shared.settings.params,
        );
        Worker {
            index,
            shared,
            root,
            nodes: 0,
            seldepth: 0,
            horizon_hits: 0,
            stopped: false,
            must_complete: false,
            deadline: Deadline {
                budget,
                from: shared.start,
            },
            pondering: limits.ponder && !limits.infinite,
            killers: [[None; 2]; MAX_PLY + 1],
            history: vec![0; POINTS * POINTS],
            pv: vec![Move::passage(0); (MAX_PLY + 1) * (MAX_PLY + 1)],
            pv_len: [0; MAX_PLY + 1],
            root_moves: Vec::new(),
            announced: (0, 0),
            solve_limit: u64::MAX,
            solve_paused: false,
            selective: true,
            params: shared.settings.params,
        }
    }

    fn is_main(&self) -> bool {
        self.index == 0
    }
}
