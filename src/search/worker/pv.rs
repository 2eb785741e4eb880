//! The triangular table of principal variations, one row per ply.

use super::Worker;
use crate::moves::Move;
use crate::search::MAX_PLY;

impl Worker<'_> {
    /// The line at `ply` becomes `mv` followed by the line of its child.
    #[inline(always)]
    pub(super) fn update_pv(&mut self, ply: usize, mv: Move) {
        let row = ply * (MAX_PLY + 1);
        let next_row = (ply + 1) * (MAX_PLY + 1);
        self.pv[row + ply] = mv;
        let next_len = self.pv_len[ply + 1].max(ply + 1);
        for later in ply + 1..next_len {
            self.pv[row + later] = self.pv[next_row + later];
        }
        self.pv_len[ply] = next_len;
    }
}
