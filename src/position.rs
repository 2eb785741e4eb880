//! The state of a game: stones, kas, scores, passages, side to move, and
//! its Zobrist key; moves are made by copy (`play` returns the child).

use std::fmt;

use crate::bitboard::{Bitboard, SIZE, Square};
use crate::moves::Move;
use crate::zobrist::{KEYS, score_difference_key};

/// One of the two players.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Player {
    /// Moves first, owns ranks 1-5.
    South = 0,
    /// Owns ranks 7-11.
    North = 1,
}

impl Player {
    /// The other player.
    #[inline(always)]
    pub const fn opponent(self) -> Player {
        match self {
            Player::South => Player::North,
            Player::North => Player::South,
        }
    }

    /// 0 for South, 1 for North.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The ranks (from 0) of this player's half.
    #[inline(always)]
    pub const fn half_ranks(self) -> std::ops::RangeInclusive<usize> {
        match self {
            Player::South => 0..=4,
            Player::North => 6..=10,
        }
    }

    /// The points of this player's half.
    #[inline(always)]
    pub const fn half(self) -> Bitboard {
        match self {
            Player::South => Bitboard((1u128 << (5 * SIZE)) - 1),
            Player::North => Bitboard(((1u128 << (5 * SIZE)) - 1) << (6 * SIZE)),
        }
    }

    /// Lower-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Player::South => "south",
            Player::North => "north",
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A stone's colour.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Colour {
    /// Worth 2 points.
    White = 0,
    /// Worth 1 point.
    Black = 1,
}

impl Colour {
    /// Points scored for capturing one stone of this colour.
    #[inline(always)]
    pub const fn value(self) -> u32 {
        match self {
            Colour::White => 2,
            Colour::Black => 1,
        }
    }
}

/// What the player to move does this turn.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Phase {
    /// Take a passage.
    Passage,
    /// Enter the ka.
    KaEntry,
    /// Move the ka.
    KaMove,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Passage => "1 (passage)",
            Phase::KaEntry => "2 (ka entry)",
            Phase::KaMove => "3 (ka move)",
        })
    }
}

const NO_SQUARE: u8 = u8::MAX;

/// A position. Stones are kept twice, rank-major and file-major, so that
/// both the rank and the file through a point are 11-bit words one shift
/// away.
#[derive(Copy, Clone, Eq, PartialEq, Hash)]
pub struct Position {
    stones: [Bitboard; 2],
    stones_by_file: [Bitboard; 2],
    kas: Bitboard,
    kas_by_file: Bitboard,
    ka: [u8; 2],
    passage: [u8; 2],
    scores: [u16; 2],
    side: Player,
    key: u64,
}

/// The raw parts a position is built from; [`Position::from_parts`] checks
/// nothing, the position-string parser does.
#[derive(Clone, Debug)]
pub struct Parts {
    /// Stones by colour (white, black).
    pub stones: [Bitboard; 2],
    /// Kas by player.
    pub ka: [Option<Square>; 2],
    /// Passage files by player.
    pub passage: [Option<usize>; 2],
    /// Scores by player.
    pub scores: [u16; 2],
    /// Player to move.
    pub side: Player,
}

impl Position {
    /// Builds a position from already validated parts.
    pub fn from_parts(parts: &Parts) -> Position {
        let to_raw = |square: Option<Square>| square.map_or(NO_SQUARE, |s| s.index() as u8);
        let kas = parts
            .ka
            .iter()
            .flatten()
            .fold(Bitboard::EMPTY, |set, square| set | square.bitboard());
        let mut position = Position {
            stones: parts.stones,
            stones_by_file: [parts.stones[0].transpose(), parts.stones[1].transpose()],
            kas,
            kas_by_file: kas.transpose(),
            ka: [to_raw(parts.ka[0]), to_raw(parts.ka[1])],
            passage: [
                parts.passage[0].map_or(NO_SQUARE, |f| f as u8),
                parts.passage[1].map_or(NO_SQUARE, |f| f as u8),
            ],
            scores: parts.scores,
            side: parts.side,
            key: 0,
        };
        position.key = position.compute_key();
        position
    }

    /// The parts of this position.
    pub fn parts(&self) -> Parts {
        Parts {
            stones: self.stones,
            ka: [self.ka(Player::South), self.ka(Player::North)],
            passage: [self.passage(Player::South), self.passage(Player::North)],
            scores: self.scores,
            side: self.side,
        }
    }

    /// The key computed from scratch (the incremental one must equal it).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for colour in 0..2 {
            for square in self.stones[colour] {
                key ^= KEYS.stone[colour][square.index()];
            }
        }
        for player in [Player::South, Player::North] {
            if let Some(square) = self.ka(player) {
                key ^= KEYS.ka[player.index()][square.index()];
            }
            if let Some(file) = self.passage(player) {
                key ^= KEYS.passage[player.index()][file];
            }
        }
        if self.side == Player::North {
            key ^= KEYS.north_to_move;
        }
        key ^ score_difference_key(self.score_difference())
    }

    /// Zobrist key: stones, kas, passages, side and score difference.
    #[inline(always)]
    pub const fn key(&self) -> u64 {
        self.key
    }

    /// Player to move.
    #[inline(always)]
    pub const fn side_to_move(&self) -> Player {
        self.side
    }

    /// Stones of one colour (rank-major).
    #[inline(always)]
    pub const fn stones(&self, colour: Colour) -> Bitboard {
        self.stones[colour as usize]
    }

    /// Stones of one colour in file-major order (bit `file * 11 + rank`).
    #[inline(always)]
    pub const fn stones_by_file(&self, colour: Colour) -> Bitboard {
        self.stones_by_file[colour as usize]
    }

    /// All stones.
    #[inline(always)]
    pub const fn all_stones(&self) -> Bitboard {
        Bitboard(self.stones[0].0 | self.stones[1].0)
    }

    /// Both kas (rank-major).
    #[inline(always)]
    pub const fn kas(&self) -> Bitboard {
        self.kas
    }

    /// Both kas in file-major order.
    #[inline(always)]
    pub const fn kas_by_file(&self) -> Bitboard {
        self.kas_by_file
    }

    /// A player's ka, once entered.
    #[inline(always)]
    pub const fn ka(&self, player: Player) -> Option<Square> {
        let raw = self.ka[player as usize];
        if raw == NO_SQUARE {
            None
        } else {
            Some(Square::from_index_unchecked(raw as usize))
        }
    }

    /// A player's passage file, once taken.
    #[inline(always)]
    pub const fn passage(&self, player: Player) -> Option<usize> {
        let raw = self.passage[player as usize];
        if raw == NO_SQUARE {
            None
        } else {
            Some(raw as usize)
        }
    }

    /// Points a player has captured.
    #[inline(always)]
    pub const fn score(&self, player: Player) -> u32 {
        self.scores[player as usize] as u32
    }

    /// South's score minus North's.
    #[inline(always)]
    pub const fn score_difference(&self) -> i32 {
        self.scores[0] as i32 - self.scores[1] as i32
    }

    /// Points of all stones still on the board.
    #[inline(always)]
    pub const fn material_left(&self) -> u32 {
        2 * self.stones[0].count() + self.stones[1].count()
    }

    /// What the player to move does.
    #[inline(always)]
    pub const fn phase(&self) -> Phase {
        let side = self.side as usize;
        if self.passage[side] == NO_SQUARE {
            Phase::Passage
        } else if self.ka[side] == NO_SQUARE {
            Phase::KaEntry
        } else {
            Phase::KaMove
        }
    }

    /// The colour of the stone on `square`, if any.
    #[inline]
    pub const fn stone_at(&self, square: Square) -> Option<Colour> {
        if self.stones[0].contains(square) {
            Some(Colour::White)
        } else if self.stones[1].contains(square) {
            Some(Colour::Black)
        } else {
            None
        }
    }

    /// The same stones with `side` to move (the evaluation uses it to count
    /// the opponent's moves); the key follows.
    #[inline]
    pub fn with_side_to_move(&self, side: Player) -> Position {
        let mut position = *self;
        if side != self.side {
            position.side = side;
            position.key ^= KEYS.north_to_move;
        }
        position
    }

    /// The position after `mv`, which must be legal here.
    #[inline]
    pub fn play(&self, mv: Move) -> Position {
        let mut child = *self;
        let side = self.side as usize;
        let mut gained = 0;
        if mv.is_passage() {
            let file = mv.passage_file();
            let stretch = Bitboard::file(file) & self.side.half();
            for colour in [Colour::White, Colour::Black] {
                let taken = self.stones[colour as usize] & stretch;
                gained += taken.count() * colour.value();
                child.remove_stones(colour, taken);
            }
            child.passage[side] = file as u8;
            child.key ^= KEYS.passage[side][file];
        } else {
            let from = mv.from();
            let to = mv.to();
            if self.ka[side] == NO_SQUARE {
                // Ka entry: the picked stone leaves the board unscored.
                if let Some(colour) = self.stone_at(from) {
                    child.remove_stones(colour, from.bitboard());
                }
            } else {
                child.kas ^= from.bitboard();
                child.kas_by_file.0 ^= 1u128 << from.transposed_index();
                child.key ^= KEYS.ka[side][from.index()];
            }
            child.kas |= to.bitboard();
            child.kas_by_file.0 |= 1u128 << to.transposed_index();
            child.ka[side] = to.index() as u8;
            child.key ^= KEYS.ka[side][to.index()];

            let colour = if mv.captures_black() {
                Colour::Black
            } else {
                Colour::White
            };
            let taken = if mv.captures_along_file() {
                Bitboard::spread(mv.line(), to.file())
            } else {
                Bitboard((mv.line() as u128) << (to.rank() * SIZE))
            };
            gained = taken.count() * colour.value();
            child.remove_stones(colour, taken);
        }
        child.key ^= score_difference_key(self.score_difference());
        child.scores[side] += gained as u16;
        child.key ^= score_difference_key(child.score_difference());
        child.side = self.side.opponent();
        child.key ^= KEYS.north_to_move;
        debug_assert!(child.is_consistent(), "inconsistent after {mv}");
        child
    }

    #[inline(always)]
    fn remove_stones(&mut self, colour: Colour, taken: Bitboard) {
        let colour = colour as usize;
        debug_assert_eq!(self.stones[colour] & taken, taken);
        self.stones[colour] ^= taken;
        for square in taken {
            self.stones_by_file[colour].0 ^= 1u128 << square.transposed_index();
            self.key ^= KEYS.stone[colour][square.index()];
        }
    }

    /// Checks the invariants that the incremental updates maintain (used by
    /// debug assertions and tests).
    pub fn is_consistent(&self) -> bool {
        let kas_ok = self.kas
            == [self.ka(Player::South), self.ka(Player::North)]
                .iter()
                .flatten()
                .fold(Bitboard::EMPTY, |set, s| set | s.bitboard());
        kas_ok
            && self.stones_by_file[0] == self.stones[0].transpose()
            && self.stones_by_file[1] == self.stones[1].transpose()
            && self.kas_by_file == self.kas.transpose()
            && (self.stones[0] & self.stones[1]).is_empty()
            && (self.all_stones() & self.kas).is_empty()
            && (self.all_stones() | self.kas) & !Bitboard::PLAYABLE == Bitboard::EMPTY
            && self.key == self.compute_key()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::notation::format_position(self))
    }
}
