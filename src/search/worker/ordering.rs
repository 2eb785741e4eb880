//! Move ordering: the table's move first, then killers, then captures by
//! points and history; killers and history learn from each cutoff.

use super::{POINTS, Worker};
use crate::moves::Move;
use crate::position::Position;
use crate::search::params::index;

impl Worker<'_> {
    /// How early `mv` is tried at `ply` (higher first): the table's move,
    /// then the killers, then captures by points with history between
    /// equal captures.
    #[inline(always)]
    pub(super) fn order_score(
        &self,
        position: &Position,
        mv: Move,
        table_move: Option<Move>,
        ply: usize,
    ) -> i32 {
        if Some(mv) == table_move {
            1 << 30
        } else if Some(mv) == self.killers[ply][0] {
            1 << 26
        } else if Some(mv) == self.killers[ply][1] {
            (1 << 26) - 1
        } else {
            ((position.capture(mv).points() as i32) << 15) + self.history[self.history_index(mv)]
        }
    }

    #[inline(always)]
    fn history_index(&self, mv: Move) -> usize {
        mv.from().index() * POINTS + mv.to().index()
    }

    /// Killer and history updates after `mv` refuted the node; the moves
    /// tried before it lose history.
    pub(super) fn reward(&mut self, ply: usize, mv: Move, depth: i32, tried: &[Move]) {
        if self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
        // History values stay within `HistoryLimit` (16384), under the
        // 32768 of a captured point.
        let limit = self.params.get(index::HISTORY_LIMIT);
        let bonus = (depth * depth).min(limit / 4);
        let index = self.history_index(mv);
        let entry = &mut self.history[index];
        *entry += bonus - *entry * bonus / limit;
        for &other in tried {
            let index = self.history_index(other);
            let entry = &mut self.history[index];
            *entry -= bonus + *entry * bonus / limit;
        }
    }
}
