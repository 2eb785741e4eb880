//! Proven results: exact game values (or proven bounds) of positions whose
//! whole subtree reached the end of the game, kept beside the
//! transposition table.
//!
//! Pasang positions never repeat (every move captures), so a proven result
//! holds for the rest of the game whatever the depth asked. The table
//! keeps such results too, but it is a fixed array: deep endgame searches
//! and later moves of the game overwrite them. This store only grows, so a
//! proof made once is never searched again until `ucinewgame`, `Clear Hash`
//! or a rule change. To keep it small and its locks out of the hot path,
//! only subtrees of at least [`MIN_SUBTREE_NODES`] nodes are stored, and
//! only nodes at least [`MIN_PROBE_DEPTH`] from the horizon look it up.

use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};

use dashmap::DashMap;

use crate::moves::Move;
use crate::tt::Bound;

/// Smallest proven subtree (in nodes) worth a store entry.
pub(super) const MIN_SUBTREE_NODES: u64 = 1024;
/// Smallest remaining depth at which the store is consulted.
pub(super) const MIN_PROBE_DEPTH: i32 = 4;
/// Entries kept at most (about 40 MiB); past it, new proofs are not stored.
const CAPACITY: usize = 1 << 20;

/// A proven result, its score relative to the stored position (mate
/// scores count plies from it, as in the table).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(crate) struct Proof {
    /// Score or bound.
    pub score: i32,
    /// Whether the score is exact or a proven bound.
    pub bound: Bound,
    /// The move that achieved it, if any.
    pub best_move: Option<Move>,
}

/// Zobrist keys are already uniformly random: they are their own hash.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ byte as u64;
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// The shared store of proven results, keyed by position key.
///
/// A growing map fits here: a lock-free fixed array of the same capacity
/// (2^21 slots of atomics, zeroed pages mapped on first write) was
/// measured at 1.10x the bench's time and 1.8x the time of the endgame
/// tests, its scattered slots faulting in a page per proof.
#[derive(Default)]
pub struct ProvenResults {
    map: DashMap<u64, Proof, BuildHasherDefault<KeyHasher>>,
    /// Entries stored, kept beside the map: `DashMap::len` read-locks
    /// every shard.
    len: AtomicUsize,
}

impl ProvenResults {
    /// An empty store.
    pub fn new() -> ProvenResults {
        ProvenResults::default()
    }

    /// The proof stored for `key`, if any.
    #[inline]
    pub(crate) fn get(&self, key: u64) -> Option<Proof> {
        self.map.get(&key).map(|entry| *entry)
    }

    /// Stores a proof; an exact result is never replaced by a bound.
    pub(crate) fn insert(&self, key: u64, proof: Proof) {
        if self.len.load(Ordering::Relaxed) >= CAPACITY {
            return;
        }
        self.map
            .entry(key)
            .and_modify(|stored| {
                if stored.bound != Bound::Exact {
                    *stored = proof;
                }
            })
            .or_insert_with(|| {
                self.len.fetch_add(1, Ordering::Relaxed);
                proof
            });
    }

    /// Number of stored proofs.
    pub fn len(&self) -> usize {
        self.len.load(Ordering::Relaxed)
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets everything (new game, rule change, `Clear Hash`).
    pub fn clear(&self) {
        self.map.clear();
        self.len.store(0, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_results_are_kept_over_bounds() {
        let store = ProvenResults::new();
        let bound = Proof {
            score: 100,
            bound: Bound::Lower,
            best_move: None,
        };
        let exact = Proof {
            score: 300,
            bound: Bound::Exact,
            best_move: None,
        };
        store.insert(7, bound);
        assert_eq!(store.get(7), Some(bound));
        store.insert(7, exact);
        store.insert(7, bound);
        assert_eq!(store.get(7), Some(exact));
        assert_eq!(store.len(), 1);
        store.clear();
        assert!(store.is_empty());
        assert_eq!(store.get(7), None);
    }
}
