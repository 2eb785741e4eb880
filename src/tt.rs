//! The transposition table: a fixed array of clusters of lock-free
//! entries shared by all search threads.
//!
//! Each entry is two relaxed atomics, `key ^ data` and `data` (the XOR
//! technique): a torn write from a racing thread makes the check fail,
//! so a probe sees either a whole entry or none. Moves read from the table
//! are still checked for legality by the search before use.

use std::alloc::Layout;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::moves::Move;

/// What kind of bound a stored score is.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Bound {
    /// The true score is at most this (fail low).
    Upper = 1,
    /// The true score is at least this (fail high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

/// A probe's result.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Entry {
    /// Best or refuting move, if one was stored (check before use).
    pub best_move: Option<Move>,
    /// Stored score (mate scores relative to the stored node).
    pub score: i32,
    /// Depth the score was searched to.
    pub depth: i32,
    /// Bound kind.
    pub bound: Bound,
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const CLUSTER_SIZE: usize = 4;

#[repr(C, align(64))]
struct Cluster {
    slots: [Slot; CLUSTER_SIZE],
}

const _: () = assert!(std::mem::size_of::<Cluster>() == 64);

/// Largest table the `Hash` option allows, in MiB.
#[cfg(not(target_arch = "wasm32"))]
pub const MAX_HASH_MIB: usize = 32768;
/// Largest table the `Hash` option allows, in MiB: in a browser, what a
/// page can ask of a 32-bit memory without crowding out the rest.
#[cfg(target_arch = "wasm32")]
pub const MAX_HASH_MIB: usize = 256;

/// Zeroed memory for the clusters, aligned to cache lines by hand.
///
/// The system allocator zeroes over-aligned requests by writing every byte;
/// a 16-byte-aligned zeroed request is served by fresh pages the system
/// zeroes itself, and one write a page then maps them all at once, outside
/// any search.
struct ClusterMemory {
    base: NonNull<u8>,
    layout: Layout,
    clusters: NonNull<Cluster>,
    len: usize,
}

// SAFETY: the memory is owned exclusively by this value and only reached
// through `&[Cluster]`, whose atomics make shared access sound.
unsafe impl Send for ClusterMemory {}
// SAFETY: as above: all access goes through atomics.
unsafe impl Sync for ClusterMemory {}

impl ClusterMemory {
    fn zeroed(len: usize) -> Option<ClusterMemory> {
        let align = std::mem::align_of::<Cluster>();
        let bytes = len
            .checked_mul(std::mem::size_of::<Cluster>())?
            .checked_add(align)?;
        let layout = Layout::from_size_align(bytes, 16).ok()?;
        // SAFETY: `layout` has a non-zero size.
        let base = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        advise_huge_pages(base.as_ptr(), bytes);
        // Map every page now, not inside the first searches: left to the
        // search, a fresh table's page faults made the first `go movetime
        // 100` after a new table take 179 ms at Hash 64 and 290 ms at 256.
        for page in (0..bytes).step_by(4096) {
            // SAFETY: `page < bytes`, inside the allocation; the memory is
            // zero already, and a volatile write of zero keeps it so while
            // the compiler cannot drop it.
            unsafe { base.as_ptr().add(page).write_volatile(0) };
        }
        let offset = base.as_ptr().align_offset(align);
        // SAFETY: `offset < align`, and `align` spare bytes were requested,
        // so the aligned start and `len` clusters after it are inside the
        // allocation.
        let start = unsafe { base.as_ptr().add(offset) };
        Some(ClusterMemory {
            base,
            layout,
            clusters: NonNull::new(start.cast::<Cluster>())?,
            len,
        })
    }

    fn as_slice(&self) -> &[Cluster] {
        // SAFETY: `clusters` is aligned for `Cluster` and points at `len`
        // clusters inside the live allocation; all-zero bytes are valid
        // clusters (atomics of 0).
        unsafe { std::slice::from_raw_parts(self.clusters.as_ptr(), self.len) }
    }
}

/// Asks the kernel to back the table with huge pages where it can: probes
/// land anywhere in the table, and with 4 KiB pages most of them also miss
/// the TLB (measured: 14% less time for an endgame solve with Hash 256).
/// Only a hint, and only on Linux.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, bytes: usize) {
    const MADV_HUGEPAGE: i32 = 14;
    const HUGE_PAGE: usize = 2 << 20;
    unsafe extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    // madvise wants an aligned start: advise the whole huge pages inside.
    let offset = start.align_offset(HUGE_PAGE);
    if offset < bytes && bytes - offset >= HUGE_PAGE {
        let len = (bytes - offset) / HUGE_PAGE * HUGE_PAGE;
        // SAFETY: the range lies inside the live allocation; the advice
        // changes no contents, and a refusal is harmless.
        unsafe {
            madvise(start.add(offset).cast(), len, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *mut u8, _bytes: usize) {}

impl Drop for ClusterMemory {
    fn drop(&mut self) {
        // SAFETY: `base` came from `alloc_zeroed` with this very layout.
        unsafe { std::alloc::dealloc(self.base.as_ptr(), self.layout) }
    }
}

/// The table.
pub struct TranspositionTable {
    memory: ClusterMemory,
    generation: AtomicU8,
}

// data layout: move 32 | score 16 | depth 8 | bound 2 | generation 6
fn pack(best_move: Option<Move>, score: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let mv = best_move.map_or(0, Move::bits) as u64;
    let score = (score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    let depth = depth.clamp(0, 255) as u64;
    mv | score << 32 | depth << 48 | (bound as u64) << 56 | ((generation & 0x3f) as u64) << 58
}

fn unpack(data: u64) -> Option<(Entry, u8)> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some((
        Entry {
            best_move: Move::from_bits(data as u32),
            score: (data >> 32) as u16 as i16 as i32,
            depth: ((data >> 48) & 0xff) as i32,
            bound,
        },
        ((data >> 58) & 0x3f) as u8,
    ))
}

/// Why a table of the size asked for cannot be had.
#[derive(Clone, Copy, Debug, Eq, PartialEq, thiserror::Error)]
pub enum TableError {
    /// The size (MiB) is outside 1 to [`MAX_HASH_MIB`].
    #[error("Hash must be from 1 to {MAX_HASH_MIB} MiB, got {0}")]
    SizeOutOfRange(usize),
    /// The system would not give this many MiB.
    #[error("cannot allocate {0} MiB for the hash table")]
    OutOfMemory(usize),
}

impl TranspositionTable {
    /// A table of `mib` MiB (1 to [`MAX_HASH_MIB`]).
    ///
    /// # Panics
    /// When the memory cannot be had; [`TranspositionTable::try_new`]
    /// reports that as an error instead.
    pub fn new(mib: usize) -> TranspositionTable {
        TranspositionTable::try_new(mib).expect("transposition table allocation")
    }

    /// A table of `mib` MiB, or an error naming the problem. The memory is
    /// requested zeroed and every page is mapped before this returns, so
    /// the whole table is resident from the start and no search pays for
    /// its page faults.
    pub fn try_new(mib: usize) -> Result<TranspositionTable, TableError> {
        if !(1..=MAX_HASH_MIB).contains(&mib) {
            return Err(TableError::SizeOutOfRange(mib));
        }
        let count = (mib << 20) / std::mem::size_of::<Cluster>();
        let memory = ClusterMemory::zeroed(count).ok_or(TableError::OutOfMemory(mib))?;
        Ok(TranspositionTable {
            memory,
            generation: AtomicU8::new(0),
        })
    }

    /// Size in bytes.
    pub(crate) fn size_bytes(&self) -> usize {
        self.memory.len * std::mem::size_of::<Cluster>()
    }

    /// Empties every entry (not meant to run during a search). The memory
    /// is given back and requested anew, zeroed, and mapped again as
    /// [`TranspositionTable::try_new`] maps it (64 MiB took 7 ms here).
    pub(crate) fn clear(&mut self) {
        let mib = self.size_bytes() >> 20;
        // Free the old table before asking for the new one, so the peak
        // stays at one table.
        *self = TranspositionTable::try_new(1).expect("a 1 MiB table");
        if mib > 1 {
            *self = TranspositionTable::try_new(mib).unwrap_or_else(|_| {
                // Got it before, so this is unexpected; keep a small table.
                TranspositionTable::new(1)
            });
        }
    }

    /// Starts a new search: older entries become cheaper to replace.
    pub(crate) fn new_search(&self) {
        let next = self.generation.load(Ordering::Relaxed).wrapping_add(1) & 0x3f;
        self.generation.store(next, Ordering::Relaxed);
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> &Cluster {
        let clusters = self.memory.as_slice();
        let index = ((key as u128 * clusters.len() as u128) >> 64) as usize;
        &clusters[index]
    }

    /// Starts loading `key`'s cluster into the cache, for a probe soon
    /// after (a hint; it does nothing on processors without one).
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch never faults and changes nothing the program
        // can see; the address is inside the table anyway.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>((self.cluster(key) as *const Cluster).cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for slot in &self.cluster(key).slots {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.check.load(Ordering::Relaxed) ^ data == key {
                return unpack(data).map(|(entry, _)| entry);
            }
        }
        None
    }

    /// Stores a result, replacing the same key or the least valuable
    /// entry of the cluster (shallow and old first).
    #[inline]
    pub fn store(&self, key: u64, best_move: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed);
        let cluster = self.cluster(key);
        let mut victim = &cluster.slots[0];
        let mut victim_worth = i32::MAX;
        for slot in &cluster.slots {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            let Some((old, old_generation)) = unpack(data) else {
                victim = slot;
                break;
            };
            if check ^ data == key {
                // Keep a deeper result of this search unless the new one is exact.
                if old.depth > depth + 2 && old_generation == generation && bound != Bound::Exact {
                    return;
                }
                let best_move = best_move.or(old.best_move);
                let data = pack(best_move, score, depth, bound, generation);
                slot.check.store(key ^ data, Ordering::Relaxed);
                slot.data.store(data, Ordering::Relaxed);
                return;
            }
            let age = (generation.wrapping_sub(old_generation) & 0x3f) as i32;
            let worth = old.depth - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        let data = pack(best_move, score, depth, bound, generation);
        victim.check.store(key ^ data, Ordering::Relaxed);
        victim.data.store(data, Ordering::Relaxed);
    }

    /// Permille of a sample of entries written in the current search.
    pub(crate) fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let clusters = self.memory.as_slice();
        let sample = clusters.len().min(250);
        let mut used = 0;
        for cluster in &clusters[..sample] {
            for slot in &cluster.slots {
                if let Some((_, entry_generation)) = unpack(slot.data.load(Ordering::Relaxed))
                    && entry_generation == generation
                {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * CLUSTER_SIZE).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Square;

    /// Resident memory of this process in KiB, from /proc.
    #[cfg(target_os = "linux")]
    fn resident_kib() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status
            .lines()
            .find(|line| line.starts_with("VmRSS:"))
            .unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    /// A new table is resident in full before any search touches it, and
    /// again after a clear: its page faults are paid when it is made, not
    /// during the first moves. 256 MiB, far more than other tests running
    /// alongside allocate or free, so their memory cannot decide it.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_new_table_is_resident_before_any_search() {
        let before = resident_kib();
        let mut table = TranspositionTable::new(256);
        let grown = resident_kib().saturating_sub(before);
        assert!(
            grown >= 200 * 1024,
            "the new table made {grown} KiB resident"
        );
        table.clear();
        let after_clear = resident_kib().saturating_sub(before);
        assert!(
            after_clear >= 200 * 1024,
            "after a clear, {after_clear} KiB resident"
        );
        assert_eq!(table.probe(1), None);
    }

    #[test]
    fn stores_and_probes() {
        let mut table = TranspositionTable::new(1);
        let mv = Move::ka(
            Square::from_index(3).unwrap(),
            Square::from_index(4).unwrap(),
            1,
            false,
            1,
        );
        table.store(42, Some(mv), -1234, 7, Bound::Lower);
        let entry = table.probe(42).unwrap();
        assert_eq!(entry.best_move, Some(mv));
        assert_eq!(entry.score, -1234);
        assert_eq!(entry.depth, 7);
        assert_eq!(entry.bound, Bound::Lower);
        assert_eq!(table.probe(43), None);
        table.clear();
        assert_eq!(table.probe(42), None);
    }

    #[test]
    fn hashfull_counts_this_search() {
        let table = TranspositionTable::new(1);
        assert_eq!(table.hashfull(), 0);
        for key in 0..100_000u64 {
            table.store(
                key.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                None,
                0,
                1,
                Bound::Exact,
            );
        }
        assert!(table.hashfull() > 500);
        table.new_search();
        assert_eq!(table.hashfull(), 0);
    }

    #[test]
    fn size_follows_the_option() {
        assert_eq!(TranspositionTable::new(2).size_bytes(), 2 << 20);
        assert_eq!(
            TranspositionTable::try_new(0).err(),
            Some(TableError::SizeOutOfRange(0))
        );
        assert_eq!(
            TranspositionTable::try_new(MAX_HASH_MIB + 1).err(),
            Some(TableError::SizeOutOfRange(MAX_HASH_MIB + 1))
        );
    }
}
