//! The move type and the fixed-capacity list moves are generated into.

use std::fmt;
use std::mem::MaybeUninit;
use std::num::NonZeroU32;

use crate::bitboard::Square;

/// Directions in which captured stones lie, seen from the landing point.
pub mod direction {
    /// Towards rank 11.
    pub const NORTH: u8 = 1;
    /// Towards rank 1.
    pub const SOUTH: u8 = 2;
    /// Towards file k.
    pub const EAST: u8 = 4;
    /// Towards file a.
    pub const WEST: u8 = 8;
}

const FROM_SHIFT: u32 = 0;
const TO_SHIFT: u32 = 7;
const DIRECTIONS_SHIFT: u32 = 14;
const BLACK_LINE: u32 = 1 << 18;
const PASSAGE: u32 = 1 << 19;
const LINE_SHIFT: u32 = 20;

/// One move, packed into 32 bits: a passage (phase 1: the file), or a ka
/// move (phases 2 and 3: origin, landing point, the directions of the
/// captured stones, their colour, and the captured stones themselves as an
/// 11-bit word along the capture line, so making a move needs no search
/// along the line). Never zero, so `Option<Move>` is four bytes too.
#[derive(Copy, Clone, Eq, PartialEq, Hash)]
#[repr(transparent)]
pub struct Move(NonZeroU32);

const _: () = assert!(std::mem::size_of::<Option<Move>>() == 4);

impl Move {
    /// Phase 1: take the passage on `file` (0 = `a`).
    #[inline(always)]
    pub const fn passage(file: usize) -> Move {
        match NonZeroU32::new(PASSAGE | (file as u32) << TO_SHIFT) {
            Some(bits) => Move(bits),
            None => unreachable!(),
        }
    }

    /// Phases 2 and 3: from `from` to `to`, capturing the line in
    /// `directions` (a non-empty set of [`direction`] flags) whose stones
    /// are black when `black` is set. `line` holds the captured stones:
    /// bit i is offset i along the landing point's file (north/south
    /// captures) or rank (east/west captures).
    #[inline(always)]
    pub const fn ka(from: Square, to: Square, directions: u8, black: bool, line: u32) -> Move {
        let bits = (from.index() as u32) << FROM_SHIFT
            | (to.index() as u32) << TO_SHIFT
            | (directions as u32) << DIRECTIONS_SHIFT
            | if black { BLACK_LINE } else { 0 }
            | (line & 0x7ff) << LINE_SHIFT;
        match NonZeroU32::new(bits) {
            Some(bits) if directions != 0 => Move(bits),
            _ => panic!("a ka move captures in at least one direction"),
        }
    }

    /// Whether this is a phase-1 passage.
    #[inline(always)]
    pub const fn is_passage(self) -> bool {
        self.0.get() & PASSAGE != 0
    }

    /// The passage file of a phase-1 move.
    #[inline(always)]
    pub const fn passage_file(self) -> usize {
        (self.0.get() >> TO_SHIFT & 0x7f) as usize
    }

    /// Origin of a ka move.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0.get() >> FROM_SHIFT & 0x7f) as usize)
    }

    /// Landing point of a ka move.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0.get() >> TO_SHIFT & 0x7f) as usize)
    }

    /// The [`direction`] flags of the captured line.
    #[inline(always)]
    pub const fn directions(self) -> u8 {
        (self.0.get() >> DIRECTIONS_SHIFT & 0xf) as u8
    }

    /// Whether the captured line runs along the file (north/south).
    #[inline(always)]
    pub const fn captures_along_file(self) -> bool {
        self.directions() & (direction::NORTH | direction::SOUTH) != 0
    }

    /// Whether the captured stones are black.
    #[inline(always)]
    pub const fn captures_black(self) -> bool {
        self.0.get() & BLACK_LINE != 0
    }

    /// The captured stones of a ka move as a word along the capture line.
    #[inline(always)]
    pub const fn line(self) -> u32 {
        self.0.get() >> LINE_SHIFT
    }

    /// The raw 32 bits (for the transposition table).
    #[inline(always)]
    pub const fn bits(self) -> u32 {
        self.0.get()
    }

    /// The move with these raw bits, if they are non-zero. The caller
    /// checks legality before use (a table entry may be stale).
    #[inline(always)]
    pub const fn from_bits(bits: u32) -> Option<Move> {
        match NonZeroU32::new(bits) {
            Some(bits) => Some(Move(bits)),
            None => None,
        }
    }
}

/// Canonical notation: `c`, `b4c4n`, `c4c7ew`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_passage() {
            return write!(f, "{}", (b'a' + self.passage_file() as u8) as char);
        }
        write!(f, "{}{}", self.from(), self.to())?;
        let directions = self.directions();
        for (flag, letter) in [
            (direction::NORTH, "n"),
            (direction::SOUTH, "s"),
            (direction::EAST, "e"),
            (direction::WEST, "w"),
        ] {
            if directions & flag != 0 {
                f.write_str(letter)?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Most moves a position can have: 20 ka entries (5 passage points, 4
/// origins) with up to 4 lines each.
pub const MAX_MOVES: usize = 80;

/// A list of at most `N` copyable values on the stack. Slots past `len`
/// are never read, so they are left uninitialised (no clearing per node).
#[derive(Clone)]
pub struct StackList<T: Copy, const N: usize> {
    items: [MaybeUninit<T>; N],
    len: usize,
}

/// Moves of one position, on the stack.
pub type MoveList = StackList<Move, MAX_MOVES>;

impl<T: Copy, const N: usize> StackList<T, N> {
    /// An empty list.
    #[inline(always)]
    pub const fn new() -> StackList<T, N> {
        // Only the length is written: built as a whole value, the list was
        // cleared to zero by a memset at every search node (LLVM merged the
        // length's store with the undefined slots).
        let mut list = MaybeUninit::<StackList<T, N>>::uninit();
        // SAFETY: `len` is written before the value is used, and every
        // other field is `MaybeUninit`, valid uninitialised.
        unsafe {
            (&raw mut (*list.as_mut_ptr()).len).write(0);
            list.assume_init()
        }
    }

    /// Appends a value; callers never exceed `N` (for moves, the
    /// generator's proven bound [`MAX_MOVES`]).
    ///
    /// # Panics
    ///
    /// Past the capacity, which is a bug in the caller: debug builds say
    /// so, and the indexed store panics in any build rather than drop a
    /// value unseen.
    #[inline(always)]
    pub fn push(&mut self, item: T) {
        debug_assert!(self.len < N, "StackList::push past its capacity {N}");
        self.items[self.len] = MaybeUninit::new(item);
        self.len += 1;
    }

    /// Number of values.
    #[inline(always)]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline(always)]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The values as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: the first `len` slots were written by `push`, and
        // `MaybeUninit<T>` has the layout of `T`.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast::<T>(), self.len) }
    }

    /// The values as a mutable slice (for ordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as in `as_slice`; the borrow is unique.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr().cast::<T>(), self.len) }
    }
}

impl<T: Copy + PartialEq, const N: usize> StackList<T, N> {
    /// Whether `item` is in the list.
    pub fn contains(&self, item: T) -> bool {
        self.as_slice().contains(&item)
    }
}

impl<T: Copy, const N: usize> Default for StackList<T, N> {
    fn default() -> StackList<T, N> {
        StackList::new()
    }
}

impl<T: Copy, const N: usize> std::ops::Deref for StackList<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy, const N: usize> std::ops::DerefMut for StackList<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg_attr(
        debug_assertions,
        should_panic(expected = "StackList::push past its capacity 2")
    )]
    #[cfg_attr(not(debug_assertions), should_panic(expected = "index out of bounds"))]
    fn a_push_past_the_capacity_is_caught() {
        let mut list = StackList::<u8, 2>::new();
        for value in 0..3 {
            list.push(value);
        }
    }

    fn square(name: &str) -> Square {
        Square::all().find(|s| s.to_string() == name).unwrap()
    }

    #[test]
    fn packing_round_trips() {
        let mv = Move::ka(
            square("c4"),
            square("c7"),
            direction::EAST | direction::WEST,
            true,
            0b1011,
        );
        assert_eq!(mv.from(), square("c4"));
        assert_eq!(mv.to(), square("c7"));
        assert!(mv.captures_black());
        assert!(!mv.captures_along_file());
        assert!(!mv.is_passage());
        assert_eq!(mv.line(), 0b1011);
        assert_eq!(mv.to_string(), "c4c7ew");
        assert_eq!(Move::from_bits(mv.bits()), Some(mv));
        let passage = Move::passage(0);
        assert!(passage.is_passage());
        assert_eq!(passage.to_string(), "a");
    }
}
