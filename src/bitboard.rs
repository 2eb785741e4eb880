//! Points of the board and sets of points.
//!
//! The 11 x 11 board fits a `u128`: point (rank r, file f), both counted
//! from 0, is bit `r * 11 + f` ("rank-major"). Bits 121-127 are never set.
//! The hole at f6 is bit 60; it belongs to no player but it is a bit like
//! any other, so masks decide whether it counts.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// Width and height of the board.
pub const SIZE: usize = 11;
/// Number of points, hole included.
pub const POINT_COUNT: usize = SIZE * SIZE;

/// Rank and file of every index a `u8` can hold: a load is cheaper than the
/// division and remainder by 11 that move generation would otherwise do at
/// every landing point (indices past 120 are never read).
static RANK_OF: [u8; 256] = rank_file_table(true);
static FILE_OF: [u8; 256] = rank_file_table(false);

const fn rank_file_table(rank: bool) -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut index = 0;
    while index < 256 {
        table[index] = if rank { index / SIZE } else { index % SIZE } as u8;
        index += 1;
    }
    table
}

/// A point of the board, `0..121`, rank-major.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash)]
#[repr(transparent)]
pub struct Square(u8);

impl Square {
    /// The hole, f6: not a point of play.
    pub const HOLE: Square = Square(60);

    /// The point at `rank` and `file`, both from 0; `None` off the board.
    #[inline]
    pub const fn new(rank: usize, file: usize) -> Option<Square> {
        if rank < SIZE && file < SIZE {
            Some(Square((rank * SIZE + file) as u8))
        } else {
            None
        }
    }

    /// The point with this index; `None` past 120.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < POINT_COUNT {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The point with this index.
    ///
    /// Callers guarantee `index < 121` (it comes from a bit of a masked
    /// bitboard or from a table built over the board).
    #[inline(always)]
    pub const fn from_index_unchecked(index: usize) -> Square {
        debug_assert!(index < POINT_COUNT);
        Square(index as u8)
    }

    /// The index `0..121`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Rank from 0 (rank `1`) to 10 (rank `11`).
    #[inline(always)]
    pub const fn rank(self) -> usize {
        RANK_OF[self.0 as usize] as usize
    }

    /// File from 0 (`a`) to 10 (`k`).
    #[inline(always)]
    pub const fn file(self) -> usize {
        FILE_OF[self.0 as usize] as usize
    }

    /// A one-point set.
    #[inline(always)]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(1u128 << self.0)
    }

    /// Every point, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..POINT_COUNT as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file() as u8) as char,
            self.rank() + 1
        )
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A set of points, one bit each; bits 121-127 stay clear.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Default)]
#[repr(transparent)]
pub struct Bitboard(u128);

impl Bitboard {
    /// The set whose bit `r * 11 + f` is bit `r * 11 + f` of `bits`; bits
    /// past the board (121-127) are dropped, so every set stays on it.
    #[inline(always)]
    pub const fn from_bits(bits: u128) -> Bitboard {
        Bitboard(bits & Self::ALL.0)
    }

    /// The set as bits, rank-major.
    #[inline(always)]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// No point.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 121 points, hole included.
    pub const ALL: Bitboard = Bitboard((1u128 << POINT_COUNT) - 1);
    /// The 120 points of play.
    pub const PLAYABLE: Bitboard = Bitboard(Self::ALL.0 & !(1u128 << Square::HOLE.0));

    /// Number of points in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds `square`.
    #[inline(always)]
    pub const fn contains(self, square: Square) -> bool {
        self.0 >> square.0 & 1 != 0
    }

    /// The points of rank `rank` (from 0).
    #[inline(always)]
    pub const fn rank(rank: usize) -> Bitboard {
        Bitboard(0x7ff << (rank * SIZE))
    }

    /// The points of file `file` (from 0).
    #[inline(always)]
    pub const fn file(file: usize) -> Bitboard {
        Bitboard(FILE_A << file)
    }

    /// The 11 bits of rank `rank` as a line word, file `a` in bit 0.
    #[inline(always)]
    pub const fn rank_word(self, rank: usize) -> u32 {
        (self.0 >> (rank * SIZE)) as u32 & 0x7ff
    }
}

/// File `a`: bits 0, 11, 22, ... 110.
const FILE_A: u128 = {
    let mut mask = 0u128;
    let mut rank = 0;
    while rank < SIZE {
        mask |= 1u128 << (rank * SIZE);
        rank += 1;
    }
    mask
};

impl Iterator for Bitboard {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let index = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(Square::from_index_unchecked(index))
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let count = self.count() as usize;
        (count, Some(count))
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the 121 points (bits 121-127 stay clear).
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::ALL.0)
    }
}

impl BitAndAssign for Bitboard {
    #[inline(always)]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for Bitboard {
    #[inline(always)]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl BitXorAssign for Bitboard {
    #[inline(always)]
    fn bitxor_assign(&mut self, rhs: Bitboard) {
        self.0 ^= rhs.0;
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..SIZE).rev() {
            for file in 0..SIZE {
                let square = Square::new(rank, file).expect("on the board");
                f.write_str(if self.contains(square) { "x" } else { "." })?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_stay_on_the_board() {
        assert_eq!(Bitboard::from_bits(u128::MAX), Bitboard::ALL);
        assert_eq!(Bitboard::from_bits(u128::MAX).count(), 121);
        assert_eq!(Bitboard::from_bits(5).bits(), 5);
    }

    #[test]
    fn square_coordinates() {
        let hole = Square::new(5, 5).unwrap();
        assert_eq!(hole, Square::HOLE);
        assert_eq!(hole.to_string(), "f6");
        assert_eq!(Square::new(10, 0).unwrap().to_string(), "a11");
        assert_eq!(Square::new(11, 0), None);
        assert_eq!(Square::from_index(121), None);
    }

    #[test]
    fn masks_stay_within_the_board() {
        assert_eq!(Bitboard::ALL.count(), 121);
        assert_eq!(Bitboard::PLAYABLE.count(), 120);
        assert_eq!((!Bitboard::EMPTY).count(), 121);
        assert_eq!(Bitboard::file(10).count(), 11);
        assert!(Bitboard::file(5).contains(Square::HOLE));
        assert_eq!(Bitboard::rank(10).0 >> 121, 0);
    }

    #[test]
    fn iteration() {
        let set = Square::new(0, 3).unwrap().bitboard() | Square::new(7, 1).unwrap().bitboard();
        let squares: Vec<String> = set.map(|s| s.to_string()).collect();
        assert_eq!(squares, ["d1", "b8"]);
    }

    #[test]
    fn rank_words() {
        let board = Bitboard::rank(3);
        assert_eq!(board.rank_word(3), 0x7ff);
        assert_eq!(board.rank_word(2), 0);
    }
}
