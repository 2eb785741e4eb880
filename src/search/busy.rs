//! Moves some search thread is busy with, so that the others put them off.
//!
//! Lazy SMP's threads walk the same tree; left alone, two threads often
//! search the same move of the same node at the same time, and one of them
//! wastes its effort. Following ABDADA (in the simplified form Tom Kerrigan
//! describes), a thread entering a later move of a node marks the child
//! position busy, and another thread reaching the same move while it is
//! marked searches its other moves first and comes back to it at the end,
//! when the table most likely holds the answer.

use std::sync::atomic::{AtomicU64, Ordering};

/// Sets per search thread. A thread marks at most one move per ply, about
/// 30 at once in the deepest searches, so this leaves most slots free.
const SETS_PER_THREAD: usize = 128;
/// Slots per set.
const WAYS: usize = 4;

/// Children whose remaining depth is below this are cheap to search twice:
/// they are neither marked nor put off.
pub(super) const MIN_DEPTH: i32 = 3;

/// A small shared table of the child positions being searched.
pub(super) struct BusyMoves {
    slots: Vec<[AtomicU64; WAYS]>,
    /// `slots.len() - 1` (the length is a power of two).
    mask: usize,
}

impl BusyMoves {
    /// A table for `threads` search threads.
    pub(super) fn new(threads: usize) -> BusyMoves {
        let sets = (threads * SETS_PER_THREAD).next_power_of_two();
        BusyMoves {
            slots: (0..sets).map(|_| Default::default()).collect(),
            mask: sets - 1,
        }
    }

    #[inline(always)]
    fn set(&self, key: u64) -> &[AtomicU64; WAYS] {
        &self.slots[key as usize & self.mask]
    }

    /// Whether another thread is searching the child with this key.
    #[inline]
    pub(super) fn is_busy(&self, key: u64) -> bool {
        self.set(key)
            .iter()
            .any(|slot| slot.load(Ordering::Relaxed) == key)
    }

    /// Marks the child with this key busy (a full set loses its first
    /// mark: a lost mark only costs a duplicated search).
    #[inline]
    pub(super) fn enter(&self, key: u64) {
        let set = self.set(key);
        for slot in set {
            if slot
                .compare_exchange(0, key, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
            {
                return;
            }
        }
        set[0].store(key, Ordering::Relaxed);
    }

    /// Clears the mark of the child with this key.
    #[inline]
    pub(super) fn leave(&self, key: u64) {
        for slot in self.set(key) {
            if slot
                .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
            {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_seen_until_cleared() {
        let busy = BusyMoves::new(2);
        assert!(!busy.is_busy(0x1234_5678));
        busy.enter(0x1234_5678);
        assert!(busy.is_busy(0x1234_5678));
        assert!(!busy.is_busy(0x1234_5679));
        busy.leave(0x1234_5678);
        assert!(!busy.is_busy(0x1234_5678));
    }

    #[test]
    fn a_full_set_keeps_the_newest_mark() {
        let busy = BusyMoves::new(2);
        let sets = busy.slots.len() as u64;
        let keys: Vec<u64> = (1..=5).map(|k| k * sets + 7).collect();
        for &key in &keys {
            busy.enter(key);
        }
        assert!(busy.is_busy(keys[4]));
        assert!(keys[1..4].iter().all(|&key| busy.is_busy(key)));
    }
}
