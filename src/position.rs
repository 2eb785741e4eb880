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
            Player::South => Bitboard::from_bits((1u128 << (5 * SIZE)) - 1),
            Player::North => Bitboard::from_bits(((1u128 << (5 * SIZE)) - 1) << (6 * SIZE)),
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

impl Phase {
    /// The phase's number: 1 (passage), 2 (ka entry) or 3 (ka move).
    pub const fn number(self) -> u8 {
        match self {
            Phase::Passage => 1,
            Phase::KaEntry => 2,
            Phase::KaMove => 3,
        }
    }
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

/// Which way a line word runs.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
#[repr(usize)]
pub enum Axis {
    /// A rank: bit f is file f.
    Rank = 0,
    /// A file: bit r is rank r.
    File = 1,
}

/// Line words: per axis, per colour, per line, 11 bits.
type LineWords = [[[u16; SIZE]; 2]; 2];

/// A position. Every rank and every file is kept as an 11-bit word per
/// colour, so the line through any point is one load away for the
/// capture-line arithmetic; 121-bit sets are derived on demand. The kas and
/// the hole are entered in both colour words as blockers: a bit set in both
/// words is a blocker, a bit set in one a stone of that colour, so a capture
/// line needs no separate blocker word (the open centre takes the hole out
/// where it applies). The whole is 112 bytes, which keeps copy-make cheap.
#[derive(Copy, Clone, Eq, PartialEq, Hash)]
pub struct Position {
    lines: LineWords,
    stone_count: u8,
    /// Points of the stones on the board (at most 180), kept with the
    /// stone count: every leaf's evaluation reads it, and assembling the
    /// two 121-bit sets to count it was 4% of a middlegame search.
    material: u8,
    ka: [u8; 2],
    passage: [u8; 2],
    scores: [u16; 2],
    side: Player,
    key: u64,
}

const _: () = assert!(std::mem::size_of::<Position>() == 112);

/// The raw parts a position is built from; `Position::try_from` checks
/// them (the position-string parser builds every position through it).
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

/// Why parts do not make a position that can occur in a game.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum PartsError {
    /// A passage file past k.
    #[error("{player} passage file {file} is off the board; files are 0 (a) to 10 (k)")]
    PassageFile {
        /// Whose passage.
        player: Player,
        /// The file given.
        file: usize,
    },
    /// A stone on the hole.
    #[error("a stone on the hole f6")]
    StoneOnHole,
    /// A point in both colours' stones.
    #[error("{0} holds both a white and a black stone")]
    StoneOnStone(Square),
    /// A ka on the hole.
    #[error("{0} ka on the hole f6")]
    KaOnHole(Player),
    /// A ka on a stone.
    #[error("{player} ka on the stone at {square}")]
    KaOnStone {
        /// Whose ka.
        player: Player,
        /// Where.
        square: Square,
    },
    /// Both kas on one point.
    #[error("both kas on {0}")]
    KasTogether(Square),
    /// Scores plus the stones left exceed the 180 points of all stones.
    #[error("scores plus stones left make {0} points; all stones together are worth 180")]
    Points(u32),
    /// A passage/ka/side combination that cannot occur in play.
    #[error("impossible position: {0}")]
    Phase(#[from] ImpossiblePhase),
    /// A start layout (no passage taken) that is not full, not 60/60 or
    /// not symmetric.
    #[error("invalid start layout: {0}")]
    StartLayout(#[from] StartLayoutError),
}

/// Why the stones of a position with no passage taken are not a start
/// layout.
#[derive(Copy, Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum StartLayoutError {
    /// Points left empty.
    #[error("{empty} empty points; a start position fills all 120")]
    NotFull {
        /// How many of the 120 playable points are empty.
        empty: u32,
    },
    /// Not 60 stones of each colour.
    #[error("{white} white and {black} black stones; expected 60 of each")]
    Counts {
        /// White stones.
        white: u32,
        /// Black stones.
        black: u32,
    },
    /// A stone whose image under a half-turn about the centre is of the
    /// other colour.
    #[error("not symmetric under a half-turn: {white} is white but {black} is black")]
    NotSymmetric {
        /// A white stone.
        white: Square,
        /// Its half-turn image, black.
        black: Square,
    },
}

/// A combination of passages, kas and side to move that no game reaches:
/// South moves first, takes its passage first and enters its ka first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImpossiblePhase {
    /// No passage taken and North to move.
    #[error("no passage taken yet, so South is to move")]
    NorthFirst,
    /// A ka before any passage.
    #[error("a ka on the board before any passage is taken")]
    KaBeforePassages,
    /// North's passage without South's.
    #[error("North has a passage but South has none")]
    NorthPassageFirst,
    /// Only South's passage and South to move again.
    #[error("South has a passage and North none, so North is to move")]
    SouthTwice,
    /// A ka while North has no passage yet.
    #[error("a ka on the board before North has taken its passage")]
    KaBeforeNorthPassage,
    /// Both passages, no ka, and North to move.
    #[error("both passages taken and no ka, so South is to move")]
    NorthEntersFirst,
    /// North's ka without South's.
    #[error("North has a ka but South has none")]
    NorthKaFirst,
    /// Only South's ka and South to move again.
    #[error("only South has a ka, so North is to move")]
    SouthEntersTwice,
}

/// All 180 points of the stones of a start layout.
const ALL_POINTS: u32 = 180;

impl TryFrom<Parts> for Position {
    type Error = PartsError;

    /// Checks that the parts can occur in a game, in the order the
    /// position-string parser reports faults: the board, the phase, the
    /// start layout, the points.
    fn try_from(parts: Parts) -> Result<Position, PartsError> {
        let [white, black] = parts.stones;
        // A `Bitboard` holds no point past k11, so only the hole is off
        // the playable points.
        if (white | black).contains(Square::HOLE) {
            return Err(PartsError::StoneOnHole);
        }
        if let Some(square) = (white & black).into_iter().next() {
            return Err(PartsError::StoneOnStone(square));
        }
        for player in [Player::South, Player::North] {
            let index = player.index();
            if let Some(file) = parts.passage[index].filter(|file| *file >= SIZE) {
                return Err(PartsError::PassageFile { player, file });
            }
            if let Some(square) = parts.ka[index] {
                if square == Square::HOLE {
                    return Err(PartsError::KaOnHole(player));
                }
                if (white | black).contains(square) {
                    return Err(PartsError::KaOnStone { player, square });
                }
            }
        }
        if let [Some(south), Some(north)] = parts.ka
            && south == north
        {
            return Err(PartsError::KasTogether(south));
        }
        check_phase(parts.passage, parts.ka, parts.side)?;
        if parts.passage == [None, None] {
            check_start_layout(parts.stones)?;
        }
        // Captures move points from the board to a score, so no game holds
        // more than the 180 points all stones are worth.
        let total = parts.scores[0] as u32 + parts.scores[1] as u32 + points_of(&parts.stones);
        if total > ALL_POINTS {
            return Err(PartsError::Points(total));
        }
        Ok(Position::from_valid_parts(&parts))
    }
}

/// Checks that the passages, kas and side to move fit one phase of play.
fn check_phase(
    passage: [Option<usize>; 2],
    ka: [Option<Square>; 2],
    side: Player,
) -> Result<(), PartsError> {
    let kas = (ka[0].is_some(), ka[1].is_some());
    let fault = match (passage[0].is_some(), passage[1].is_some()) {
        (false, false) if side == Player::North => Some(ImpossiblePhase::NorthFirst),
        (false, false) if kas != (false, false) => Some(ImpossiblePhase::KaBeforePassages),
        (false, true) => Some(ImpossiblePhase::NorthPassageFirst),
        (true, false) if side == Player::South => Some(ImpossiblePhase::SouthTwice),
        (true, false) if kas != (false, false) => Some(ImpossiblePhase::KaBeforeNorthPassage),
        (true, true) => match (kas, side) {
            ((false, false), Player::North) => Some(ImpossiblePhase::NorthEntersFirst),
            ((false, true), _) => Some(ImpossiblePhase::NorthKaFirst),
            ((true, false), Player::South) => Some(ImpossiblePhase::SouthEntersTwice),
            _ => None,
        },
        _ => None,
    };
    fault.map_or(Ok(()), |what| Err(PartsError::Phase(what)))
}

/// Checks a start layout: all 120 points filled, 60 of each colour, and
/// unchanged by a half-turn about the centre.
fn check_start_layout(stones: [Bitboard; 2]) -> Result<(), StartLayoutError> {
    let filled = stones[0] | stones[1];
    if filled != Bitboard::PLAYABLE {
        let empty = (Bitboard::PLAYABLE & !filled).count();
        return Err(StartLayoutError::NotFull { empty });
    }
    let (white, black) = (stones[0].count(), stones[1].count());
    if white != 60 || black != 60 {
        return Err(StartLayoutError::Counts { white, black });
    }
    for square in stones[0] {
        let rotated = Square::from_index_unchecked(120 - square.index());
        if !stones[0].contains(rotated) {
            // Every point is filled, so a point not white is black.
            return Err(StartLayoutError::NotSymmetric {
                white: square,
                black: rotated,
            });
        }
    }
    Ok(())
}

impl Position {
    /// Builds a position from parts `Position::try_from` has checked.
    fn from_valid_parts(parts: &Parts) -> Position {
        let to_raw = |square: Option<Square>| square.map_or(NO_SQUARE, |s| s.index() as u8);
        let stones = parts.stones;
        let kas = [parts.ka[0], parts.ka[1]];
        let mut position = Position {
            lines: line_words(stones, kas),
            stone_count: (stones[0] | stones[1]).count() as u8,
            material: points_of(&stones) as u8,
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
            stones: [self.stones(Colour::White), self.stones(Colour::Black)],
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
            let stones = [Colour::White, Colour::Black][colour];
            for square in self.stones(stones) {
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

    /// Stones of one colour (rank-major), assembled from the rank words.
    #[inline]
    pub fn stones(&self, colour: Colour) -> Bitboard {
        let mut set = 0u128;
        for rank in 0..SIZE {
            set |= (self.stone_word(Axis::Rank, colour, rank) as u128) << (rank * SIZE);
        }
        Bitboard::from_bits(set)
    }

    /// Number of stones on the board.
    #[inline(always)]
    pub const fn stone_count(&self) -> u32 {
        self.stone_count as u32
    }

    /// Whether any stone is left.
    #[inline(always)]
    pub const fn has_stones(&self) -> bool {
        self.stone_count != 0
    }

    /// The stones of `colour` on rank or file `line` as an 11-bit word.
    #[inline(always)]
    pub const fn stone_word(&self, axis: Axis, colour: Colour, line: usize) -> u32 {
        let words = &self.lines[axis as usize];
        (words[colour as usize][line] & !words[1 - colour as usize][line]) as u32
    }

    /// The stones of `colour` on rank or file `line` with the blockers
    /// (both kas and the hole) as an 11-bit word: what the capture-line
    /// arithmetic reads.
    #[inline(always)]
    pub(crate) const fn line_word(&self, axis: Axis, colour: Colour, line: usize) -> u32 {
        self.lines[axis as usize][colour as usize][line] as u32
    }

    /// [`Position::line_word`] with no bounds check, for the landing points
    /// of move generation.
    ///
    /// # Safety
    ///
    /// `line < SIZE`.
    #[inline(always)]
    pub(crate) unsafe fn line_word_unchecked(
        &self,
        axis: Axis,
        colour: Colour,
        line: usize,
    ) -> u32 {
        debug_assert!(line < SIZE);
        // SAFETY: the caller keeps `line` on the board.
        unsafe { *self.lines[axis as usize][colour as usize].get_unchecked(line) as u32 }
    }

    /// All stones.
    #[inline]
    pub fn all_stones(&self) -> Bitboard {
        self.stones(Colour::White) | self.stones(Colour::Black)
    }

    /// Both kas (rank-major).
    #[inline]
    pub fn kas(&self) -> Bitboard {
        [self.ka(Player::South), self.ka(Player::North)]
            .iter()
            .flatten()
            .fold(Bitboard::EMPTY, |set, square| set | square.bitboard())
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

    /// `player`'s score minus the opponent's: the margin a game ending
    /// here would be won (positive) or lost by.
    #[inline(always)]
    pub const fn margin(&self, player: Player) -> i32 {
        self.score(player) as i32 - self.score(player.opponent()) as i32
    }

    /// South's score minus North's.
    #[inline(always)]
    pub const fn score_difference(&self) -> i32 {
        self.scores[0] as i32 - self.scores[1] as i32
    }

    /// Points of all stones still on the board.
    #[inline(always)]
    pub const fn material_left(&self) -> u32 {
        self.material as u32
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
        let bit = 1 << square.file();
        if self.stone_word(Axis::Rank, Colour::White, square.rank()) & bit != 0 {
            Some(Colour::White)
        } else if self.stone_word(Axis::Rank, Colour::Black, square.rank()) & bit != 0 {
            Some(Colour::Black)
        } else {
            None
        }
    }

    /// The position after `mv`, which must be legal here.
    #[inline]
    pub fn play(&self, mv: Move) -> Position {
        let mut child = *self;
        child.make(mv);
        child
    }

    /// Makes `mv` (legal here) in place. The search makes each child in
    /// its own slot this way rather than by [`Position::play`], whose
    /// result is copied once more (see `Position::make_unkeyed`).
    #[inline(always)]
    pub fn make(&mut self, mv: Move) {
        // The key has one account, `key_after`; the stones and the rest
        // follow from the unkeyed make.
        let key = self.key_after(mv);
        self.make_unkeyed(mv);
        self.key = key;
        debug_assert!(self.is_consistent(), "inconsistent after {mv}");
    }

    /// As [`Position::make`], with the key already known: `key` is
    /// `self.key_after(mv)`, computed earlier by the search.
    #[inline(always)]
    pub(crate) fn make_with_key(&mut self, mv: Move, key: u64) {
        debug_assert_eq!(key, self.key_after(mv));
        self.make_unkeyed(mv);
        self.key = key;
        debug_assert!(self.is_consistent(), "inconsistent after {mv}");
    }

    /// As [`Position::make`] but the key is left stale: for move-path
    /// counting and search leaves, which never read it. Children are made
    /// in their own slot: a child returned by value is copied once more,
    /// and that copy, read in wide loads right after the narrow stores of
    /// the move, stalls store forwarding.
    #[inline(always)]
    pub(crate) fn make_unkeyed(&mut self, mv: Move) {
        let side = self.side as usize;
        let capture = self.capture(mv);
        if mv.is_passage() {
            self.passage[side] = capture.line as u8;
        } else {
            let from = mv.from();
            if self.ka[side] == NO_SQUARE {
                if let Some(colour) = self.stone_at(from) {
                    // Ka entry: the picked stone leaves the board unscored.
                    self.remove_line(Axis::Rank, colour, from.rank(), 1 << from.file());
                }
            } else {
                self.toggle_blocker(from);
            }
            let to = mv.to();
            self.toggle_blocker(to);
            self.ka[side] = to.index() as u8;
        }
        for colour in [Colour::White, Colour::Black] {
            let word = capture.words[colour as usize];
            if word != 0 {
                self.remove_line(capture.axis, colour, capture.line, word);
            }
        }
        self.scores[side] += capture.points() as u16;
        self.side = self.side.opponent();
    }

    /// [`Position::make_unkeyed`] for a phase-3 move of `side`, whose ka
    /// stands on `from`: no passage, no entry to test for, and the side
    /// and the ka's point come from the caller, which knows them before it
    /// copies the position, so nothing of the fresh copy is read back
    /// before its words change. Move-path counting makes these below the
    /// first plies.
    #[inline(always)]
    pub(crate) fn make_ka_move_from(&mut self, mv: Move, side: Player, from: Square) {
        debug_assert!(side == self.side && self.ka(side) == Some(from) && !mv.is_passage());
        let mover = side as usize;
        let to = mv.to();
        self.toggle_blocker(from);
        self.toggle_blocker(to);
        self.ka[mover] = to.index() as u8;
        let (axis, line) = ka_capture_line(mv);
        let word = mv.line();
        let colour = if mv.captures_black() {
            Colour::Black
        } else {
            Colour::White
        };
        self.remove_line(axis, colour, line, word);
        self.scores[mover] += (colour.value() * word.count_ones()) as u16;
        self.side = side.opponent();
    }

    /// The stones `mv` (legal here) captures, without making it.
    #[inline(always)]
    pub fn capture(&self, mv: Move) -> Capture {
        if mv.is_passage() {
            let file = mv.passage_file();
            let half_word: u32 = match self.side {
                Player::South => 0x1f,
                Player::North => 0x7c0,
            };
            Capture {
                axis: Axis::File,
                line: file,
                words: [
                    self.stone_word(Axis::File, Colour::White, file) & half_word,
                    self.stone_word(Axis::File, Colour::Black, file) & half_word,
                ],
            }
        } else {
            let (axis, line) = ka_capture_line(mv);
            let words = if mv.captures_black() {
                [0, mv.line()]
            } else {
                [mv.line(), 0]
            };
            Capture { axis, line, words }
        }
    }

    /// The key of the position after `mv` (legal here), computed from the
    /// move alone: the search asks for its children's table entries
    /// before it makes them. Always inlined: a call per move of every
    /// interior node cost 3.7% of a middlegame search's instructions.
    #[inline(always)]
    pub fn key_after(&self, mv: Move) -> u64 {
        let side = self.side as usize;
        let capture = self.capture(mv);
        let mut key = self.key ^ KEYS.north_to_move ^ capture.key();
        if mv.is_passage() {
            key ^= KEYS.passage[side][mv.passage_file()];
        } else {
            let from = mv.from();
            if self.ka[side] == NO_SQUARE {
                if let Some(colour) = self.stone_at(from) {
                    key ^= KEYS.stone[colour as usize][from.index()];
                }
            } else {
                key ^= KEYS.ka[side][from.index()];
            }
            key ^= KEYS.ka[side][mv.to().index()];
        }
        let gained = capture.points() as i32;
        let difference = self.score_difference();
        let after = match self.side {
            Player::South => difference + gained,
            Player::North => difference - gained,
        };
        key ^ score_difference_key(difference) ^ score_difference_key(after)
    }

    /// Enters a ka at `square` in the words of its rank and file, both
    /// colours, or takes it out.
    #[inline(always)]
    fn toggle_blocker(&mut self, square: Square) {
        let (rank, file) = (square.rank(), square.file());
        for colour in 0..2 {
            self.lines[Axis::Rank as usize][colour][rank] ^= 1 << file;
            self.lines[Axis::File as usize][colour][file] ^= 1 << rank;
        }
    }

    /// Removes the stones of `word` (all of `colour`) from rank or file
    /// `line`, keeping both axes' words, the stone count and the material in step.
    #[inline(always)]
    fn remove_line(&mut self, axis: Axis, colour: Colour, line: usize, word: u32) {
        let c = colour as usize;
        debug_assert_eq!(self.lines[axis as usize][c][line] as u32 & word, word);
        self.lines[axis as usize][c][line] ^= word as u16;
        self.stone_count -= word.count_ones() as u8;
        self.material -= (colour.value() * word.count_ones()) as u8;
        let across = 1 - axis as usize;
        let mut rest = word;
        while rest != 0 {
            let offset = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            self.lines[across][c][offset] ^= 1 << line;
        }
    }

    /// Checks the invariants that the incremental updates maintain (used by
    /// debug assertions and tests).
    pub fn is_consistent(&self) -> bool {
        let stones = [self.stones(Colour::White), self.stones(Colour::Black)];
        let kas = [self.ka(Player::South), self.ka(Player::North)];
        self.lines == line_words(stones, kas)
            && self.stone_count() == self.all_stones().count()
            && self.material_left() == points_of(&stones)
            && (stones[0] & stones[1]).is_empty()
            && (self.all_stones() & self.kas()).is_empty()
            && (self.all_stones() | self.kas()) & !Bitboard::PLAYABLE == Bitboard::EMPTY
            && self.key == self.compute_key()
    }
}

/// The points of the stones in `stones` (white, black).
fn points_of(stones: &[Bitboard; 2]) -> u32 {
    Colour::White.value() * stones[0].count() + Colour::Black.value() * stones[1].count()
}

/// The index of the point at `offset` along rank or file `line`.
#[inline(always)]
const fn point_index(axis: Axis, line: usize, offset: usize) -> usize {
    match axis {
        Axis::Rank => line * SIZE + offset,
        Axis::File => offset * SIZE + line,
    }
}

/// What one move captures: stones of both colours (a passage may take
/// both; a ka move takes one colour) along one rank or file.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Capture {
    axis: Axis,
    line: usize,
    /// Captured stones per colour (white, black) as words along the line.
    words: [u32; 2],
}

impl Capture {
    /// Points scored: 2 per white stone, 1 per black.
    #[inline(always)]
    pub const fn points(&self) -> u32 {
        2 * self.words[0].count_ones() + self.words[1].count_ones()
    }

    /// Number of stones captured.
    #[inline(always)]
    pub const fn stones(&self) -> u32 {
        self.words[0].count_ones() + self.words[1].count_ones()
    }

    /// The captured points.
    pub fn points_taken(&self) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        for word in self.words {
            let mut rest = word;
            while rest != 0 {
                let offset = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let index = point_index(self.axis, self.line, offset);
                set |= Square::from_index_unchecked(index).bitboard();
            }
        }
        set
    }

    /// The XOR of the captured stones' Zobrist keys.
    #[inline(always)]
    fn key(&self) -> u64 {
        let mut key = 0;
        for (colour, word) in self.words.iter().enumerate() {
            let mut rest = *word;
            while rest != 0 {
                let offset = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                key ^= KEYS.stone[colour][point_index(self.axis, self.line, offset)];
            }
        }
        key
    }
}

/// The axis and line along which the ka move `mv` captures: the file or
/// the rank of its landing point.
#[inline(always)]
fn ka_capture_line(mv: Move) -> (Axis, usize) {
    let to = mv.to();
    if mv.captures_along_file() {
        (Axis::File, to.file())
    } else {
        (Axis::Rank, to.rank())
    }
}

/// The line words of two sets of points, with the kas and the hole
/// entered in both colours.
fn line_words(sets: [Bitboard; 2], kas: [Option<Square>; 2]) -> LineWords {
    let mut words = [[[0u16; SIZE]; 2]; 2];
    let mut enter = |colour: usize, square: Square| {
        words[Axis::Rank as usize][colour][square.rank()] |= 1 << square.file();
        words[Axis::File as usize][colour][square.file()] |= 1 << square.rank();
    };
    for square in kas.iter().flatten().copied().chain([Square::HOLE]) {
        enter(0, square);
        enter(1, square);
    }
    for (colour, set) in sets.iter().enumerate() {
        for square in *set {
            enter(colour, square);
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{play_moves, start_position};
    use crate::rules::Rules;

    /// A ka-move position: both passages taken, both kas on the board.
    fn middlegame() -> Position {
        let rules = Rules::default();
        let moves = ["c", "j", "b4c4n", "k7j7w", "c4c7ew", "j7k7s"];
        play_moves(start_position(rules.pattern), &rules, &moves, |_| {}).unwrap()
    }

    #[test]
    fn parts_of_a_position_build_it_again() {
        for position in [start_position(Rules::default().pattern), middlegame()] {
            assert_eq!(Position::try_from(position.parts()), Ok(position));
        }
    }

    #[test]
    fn parts_that_no_game_reaches_are_refused() {
        let valid = middlegame().parts();
        let ka = valid.ka[0].unwrap();
        let stone = valid.stones[0].into_iter().next().unwrap();
        let refused = |change: &dyn Fn(&mut Parts)| {
            let mut parts = valid.clone();
            change(&mut parts);
            Position::try_from(parts).unwrap_err()
        };
        assert_eq!(
            refused(&|parts| parts.passage[1] = Some(11)),
            PartsError::PassageFile {
                player: Player::North,
                file: 11
            }
        );
        assert_eq!(
            refused(&|parts| parts.stones[1] |= stone.bitboard()),
            PartsError::StoneOnStone(stone)
        );
        assert_eq!(
            refused(&|parts| parts.stones[0] |= Square::HOLE.bitboard()),
            PartsError::StoneOnHole
        );
        assert_eq!(
            refused(&|parts| parts.ka[1] = Some(Square::HOLE)),
            PartsError::KaOnHole(Player::North)
        );
        assert_eq!(
            refused(&|parts| parts.ka[1] = Some(stone)),
            PartsError::KaOnStone {
                player: Player::North,
                square: stone
            }
        );
        assert_eq!(
            refused(&|parts| parts.ka[1] = Some(ka)),
            PartsError::KasTogether(ka)
        );
        assert_eq!(
            refused(&|parts| parts.scores = [180, 0]),
            PartsError::Points(180 + middlegame().material_left())
        );
        assert_eq!(
            refused(&|parts| parts.ka[1] = None),
            PartsError::Phase(ImpossiblePhase::SouthEntersTwice)
        );
    }

    #[test]
    fn start_layout_faults_name_the_points_and_counts() {
        // The default start has a1 white, b1 black and (by symmetry) j11
        // black.
        let [a1, b1] = [0, 1].map(|file| Square::new(0, file).unwrap());
        let j11 = Square::new(10, 9).unwrap();
        let refused = |change: &dyn Fn(&mut [Bitboard; 2])| {
            let mut parts = start_position(Rules::default().pattern).parts();
            change(&mut parts.stones);
            Position::try_from(parts).unwrap_err()
        };
        let cases = [
            (
                refused(&|stones| stones[0] &= !a1.bitboard()),
                StartLayoutError::NotFull { empty: 1 },
                "invalid start layout: 1 empty points; a start position fills all 120",
            ),
            (
                refused(&|stones| {
                    stones[1] &= !b1.bitboard();
                    stones[0] |= b1.bitboard();
                }),
                StartLayoutError::Counts {
                    white: 61,
                    black: 59,
                },
                "invalid start layout: 61 white and 59 black stones; expected 60 of each",
            ),
            (
                refused(&|stones| {
                    stones[0] ^= a1.bitboard() | b1.bitboard();
                    stones[1] ^= a1.bitboard() | b1.bitboard();
                }),
                StartLayoutError::NotSymmetric {
                    white: b1,
                    black: j11,
                },
                "invalid start layout: not symmetric under a half-turn: b1 is white but j11 is black",
            ),
        ];
        for (error, fault, message) in cases {
            assert_eq!(error, PartsError::StartLayout(fault));
            assert_eq!(error.to_string(), message);
        }
    }
}
