//! Legal move generation and bulk counting for all three phases.
//!
//! Capture lines are found on 11-bit line words: at a landing point, the
//! white line is the white stones inside the span that reaches out to the
//! nearest black stone or blocker (a ka, the walled hole, the edge) on
//! each side, and the black line likewise. Each is a legal capture when it
//! holds an odd number of stones. This follows RULES directly: a run of one
//! colour starts at the first stone met and ends at the first stone of the
//! other colour or a blocker, and two runs of one colour on both sides of
//! the ka form one line, which is exactly what the span collects.

use crate::bitboard::{SIZE, Square};
use crate::moves::{Move, MoveList, direction};
use crate::position::{Axis, Colour, Phase, Player, Position};
use crate::rules::{Centre, KaEntry, Rules, SecondColumn};

/// Bits strictly between the nearest bit of `blockers` below `index` and
/// the nearest above (the edges count as blockers): one load from
/// [`SPANS`], which every capture-line test makes twice.
#[inline(always)]
fn span(index: u32, blockers: u32) -> u32 {
    SPANS[index as usize][blockers as usize & LINE_MASK] as u32
}

/// [`span`] without the mask that keeps a wider `blockers` inside the
/// table: the capture-line test of every landing point takes it.
///
/// # Safety
///
/// `blockers` is below `1 << SIZE`, as every line word of a position is.
#[inline(always)]
unsafe fn span_unchecked(index: u32, blockers: u32) -> u32 {
    debug_assert!(blockers < 1 << SIZE);
    let row = &SPANS[index as usize];
    // SAFETY: the caller keeps `blockers` below the row's length.
    unsafe { *row.get_unchecked(blockers as usize) as u32 }
}

const LINE_MASK: usize = (1 << SIZE) - 1;

/// [`span`] for every index and blocker word, built at compile time
/// (45 KiB; the entries a game reaches stay in cache).
static SPANS: [[u16; 1 << SIZE]; SIZE] = {
    let mut table = [[0u16; 1 << SIZE]; SIZE];
    let mut index = 0;
    while index < SIZE {
        let mut blockers = 0;
        while blockers < 1 << SIZE {
            table[index][blockers] = computed_span(index as u32, blockers as u32) as u16;
            blockers += 1;
        }
        index += 1;
    }
    table
};

/// The span by bit arithmetic, for building the table.
const fn computed_span(index: u32, blockers: u32) -> u32 {
    let above = (blockers | 1 << SIZE) >> (index + 1);
    let upper = index + 1 + above.trailing_zeros();
    // Shifted up one with a sentinel in bit 0, so "none below" needs no branch.
    let below = (blockers << 1 | 1) & ((2 << index) - 1);
    let lower = 31 - below.leading_zeros();
    ((1 << upper) - 1) & !((1 << lower) - 1)
}

/// The white and black capture lines through `index` of one line, from
/// its two colour words with the blockers in both (as the position keeps
/// them): a blocker bit is in the other colour's word, so no span reaches
/// past it, and in neither line.
#[inline(always)]
fn capture_lines(white: u32, black: u32, index: u32) -> (u32, u32) {
    debug_assert!(white | black < 1 << SIZE);
    let white = white & LINE_MASK as u32;
    let black = black & LINE_MASK as u32;
    // SAFETY: both words were just masked to 11 bits.
    unsafe {
        (
            white & span_unchecked(index, black),
            black & span_unchecked(index, white),
        )
    }
}

/// [`capture_lines`] of words taken from a position, which are 11 bits
/// wide: no mask.
///
/// # Safety
///
/// `white` and `black` are below `1 << SIZE`.
#[inline(always)]
unsafe fn capture_lines_of_words(white: u32, black: u32, index: u32) -> (u32, u32) {
    // SAFETY: the caller's words are 11 bits wide.
    unsafe {
        (
            white & span_unchecked(index, black),
            black & span_unchecked(index, white),
        )
    }
}

/// The mask that takes the hole out of the words of line `line` under
/// `Centre` open (runs and ka moves pass over it there); all ones
/// otherwise, the hole being a blocker in the position's words.
#[inline(always)]
fn open_mask<const OPEN: bool>(line: usize) -> u32 {
    if OPEN && line == 5 { !(1 << 5) } else { !0 }
}

/// The colour words of rank or file `line`, blockers included, with the
/// hole taken out under `Centre` open.
#[inline(always)]
fn words<const OPEN: bool>(position: &Position, axis: Axis, line: usize) -> (u32, u32) {
    let mask = open_mask::<OPEN>(line);
    (
        position.line_word(axis, Colour::White, line) & mask,
        position.line_word(axis, Colour::Black, line) & mask,
    )
}

/// [`words`] of a landing point's line, with no bounds check.
///
/// # Safety
///
/// `line < SIZE` (a bit index of an 11-bit word).
#[inline(always)]
unsafe fn words_unchecked<const OPEN: bool>(
    position: &Position,
    axis: Axis,
    line: usize,
) -> (u32, u32) {
    let mask = open_mask::<OPEN>(line);
    // SAFETY: the caller keeps `line` on the board.
    unsafe {
        (
            position.line_word_unchecked(axis, Colour::White, line) & mask,
            position.line_word_unchecked(axis, Colour::Black, line) & mask,
        )
    }
}

/// Receives every (origin, landing point, capture axis) with its two
/// candidate lines; the generator and the counter are its two kinds.
trait Visitor {
    fn lines(&mut self, from: Square, to: Square, along_file: bool, index: u32, lines: (u32, u32));
    fn passage(&mut self, file: usize);
    /// The number of points a ka may stop on along one axis, before the
    /// lines at each of them.
    #[inline(always)]
    fn landing_points(&mut self, _count: u32) {}
}

struct Generator<'a>(&'a mut MoveList);

impl Visitor for Generator<'_> {
    #[inline(always)]
    fn lines(&mut self, from: Square, to: Square, along_file: bool, index: u32, lines: (u32, u32)) {
        let (above, below) = if along_file {
            (direction::NORTH, direction::SOUTH)
        } else {
            (direction::EAST, direction::WEST)
        };
        for (line, black) in [(lines.0, false), (lines.1, true)] {
            if line.count_ones() & 1 == 1 {
                let mut directions = 0;
                if line >> index != 0 {
                    directions |= above;
                }
                if line & ((1 << index) - 1) != 0 {
                    directions |= below;
                }
                self.0.push(Move::ka(from, to, directions, black, line));
            }
        }
    }

    #[inline(always)]
    fn passage(&mut self, file: usize) {
        self.0.push(Move::passage(file));
    }
}

struct Counter(u64);

impl Visitor for Counter {
    #[inline(always)]
    fn lines(&mut self, _: Square, _: Square, _: bool, _: u32, lines: (u32, u32)) {
        self.0 += ((lines.0.count_ones() & 1) + (lines.1.count_ones() & 1)) as u64;
    }

    #[inline(always)]
    fn passage(&mut self, _: usize) {
        self.0 += 1;
    }
}

/// What the evaluation reads of one side's moves: how many there are and
/// the most points a single one of them takes.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct MoveProfile {
    /// Number of legal moves.
    pub moves: u32,
    /// Points of the richest capture among them (0 for passages, which
    /// the evaluation does not weigh).
    pub best: u32,
    /// Points where the ka may stop, capturing or not (0 before phase 3):
    /// how free it is.
    pub reach: u32,
}

/// Builds a [`MoveProfile`]: the richest capture is kept as a set of
/// capture sizes (bit p: some move takes p points), which costs two shifts
/// and two ORs per landing point where a running maximum of the two
/// lines' points cost two multiplications and two comparisons.
#[derive(Default)]
struct Profiler {
    moves: u32,
    capture_sizes: u32,
    reach: u32,
}

impl Profiler {
    #[inline(always)]
    fn profile(&self) -> MoveProfile {
        MoveProfile {
            moves: self.moves,
            // Bit 0 stands for "no capture": 0 points.
            best: 31 - (self.capture_sizes | 1).leading_zeros(),
            reach: self.reach,
        }
    }
}

impl Visitor for Profiler {
    #[inline(always)]
    fn lines(&mut self, _: Square, _: Square, _: bool, _: u32, lines: (u32, u32)) {
        let white = lines.0.count_ones();
        let black = lines.1.count_ones();
        let white_odd = white & 1;
        let black_odd = black & 1;
        self.moves += white_odd + black_odd;
        // A white stone is worth 2 points, a black one 1; even lines are
        // no capture and count nothing (the shifted bit is 0).
        self.capture_sizes |= (white_odd << (2 * white)) | (black_odd << black);
    }

    #[inline(always)]
    fn landing_points(&mut self, count: u32) {
        self.reach += count;
    }

    #[inline(always)]
    fn passage(&mut self, _: usize) {
        self.moves += 1;
    }
}

/// The [`MoveProfile`] of the side to move, in any phase.
#[inline]
pub fn move_profile(position: &Position, rules: &Rules) -> MoveProfile {
    let mut profiler = Profiler::default();
    visit(position, rules, &mut profiler);
    profiler.profile()
}

/// The [`MoveProfile`] of `side`'s ka moves as if it were to move (empty
/// before its ka is entered).
#[inline]
pub fn ka_move_profile(position: &Position, rules: &Rules, side: Player) -> MoveProfile {
    let mut profiler = Profiler::default();
    ka_moves(position, rules, side, &mut profiler);
    profiler.profile()
}

/// Number of ka moves `side` would have if it were to move (0 before its
/// ka is entered): the evaluation's count of the opponent's moves, with
/// no copy of the position to flip the side.
#[inline]
pub fn count_ka_moves_of(position: &Position, rules: &Rules, side: Player) -> u64 {
    let mut counter = Counter(0);
    ka_moves(position, rules, side, &mut counter);
    counter.0
}

/// Appends every legal move of `position` to `list`.
pub(crate) fn generate_moves(position: &Position, rules: &Rules, list: &mut MoveList) {
    visit(position, rules, &mut Generator(list));
}

/// The legal moves of `position`.
pub fn legal_moves(position: &Position, rules: &Rules) -> MoveList {
    let mut list = MoveList::new();
    generate_moves(position, rules, &mut list);
    list
}

/// Number of legal moves, counted without making a list.
#[inline]
pub fn count_moves(position: &Position, rules: &Rules) -> u64 {
    let mut counter = Counter(0);
    visit(position, rules, &mut counter);
    counter.0
}

/// Appends the moves of the ka on `from`, which belongs to the side to
/// move, to `list`, the hole open when `OPEN`: move-path counting's
/// generator below the first plies, with no phase to dispatch on and the
/// ka's point known to the caller.
#[inline(always)]
pub(crate) fn generate_ka_moves_from<const OPEN: bool>(
    position: &Position,
    from: Square,
    list: &mut MoveList,
) {
    debug_assert_eq!(position.ka(position.side_to_move()), Some(from));
    ka_moves_at::<OPEN>(position, from.rank(), from.file(), &mut Generator(list));
}

/// Number of moves of the ka on `rank` and `file`, which belongs to the
/// side to move: the children of one position all count the same ka,
/// whose point the loop over them knows before it makes any.
#[inline(always)]
pub(crate) fn count_ka_moves_at<const OPEN: bool>(
    position: &Position,
    rank: usize,
    file: usize,
) -> u64 {
    debug_assert_eq!(
        position.ka(position.side_to_move()),
        Square::new(rank, file)
    );
    let mut counter = Counter(0);
    ka_moves_at::<OPEN>(position, rank, file, &mut counter);
    counter.0
}

#[inline(always)]
fn visit(position: &Position, rules: &Rules, visitor: &mut impl Visitor) {
    match position.phase() {
        Phase::Passage => passages(position, rules, visitor),
        Phase::KaEntry => ka_entries(position, rules, visitor),
        Phase::KaMove => ka_moves(position, rules, position.side_to_move(), visitor),
    }
}

/// Whether North may take `file` after South took `south_file`.
pub(crate) fn north_may_take(rules: &Rules, south_file: usize, file: usize) -> bool {
    match rules.second_column {
        SecondColumn::Opposite => match south_file {
            0..=4 => file >= 6,
            5 => file != 5,
            _ => file <= 4,
        },
        SecondColumn::Any => file != SIZE - 1 - south_file,
    }
}

fn passages(position: &Position, rules: &Rules, visitor: &mut impl Visitor) {
    let side = position.side_to_move();
    let half_word = match side {
        Player::South => 0x1f,
        Player::North => 0x7c0,
    };
    let south_file = position.passage(Player::South);
    for file in 0..SIZE {
        // Blockers are in both words: the stones are in exactly one.
        let stones = position.line_word(Axis::File, Colour::White, file)
            ^ position.line_word(Axis::File, Colour::Black, file);
        if stones & half_word == 0 {
            continue;
        }
        if side == Player::North
            && let Some(south_file) = south_file
            && !north_may_take(rules, south_file, file)
        {
            continue;
        }
        visitor.passage(file);
    }
}

#[inline(always)]
fn ka_entries(position: &Position, rules: &Rules, visitor: &mut impl Visitor) {
    match rules.centre {
        Centre::Wall => ka_entries_in::<false>(position, rules, visitor),
        Centre::Open => ka_entries_in::<true>(position, rules, visitor),
    }
}

#[inline(always)]
fn ka_entries_in<const OPEN: bool>(position: &Position, rules: &Rules, visitor: &mut impl Visitor) {
    let side = position.side_to_move();
    let Some(passage) = position.passage(side) else {
        return;
    };
    let (file_white, file_black) = words::<OPEN>(position, Axis::File, passage);
    let (slide, jump) = match rules.ka_entry {
        KaEntry::Slide => (true, false),
        KaEntry::Jump => (false, true),
        KaEntry::Both => (true, true),
    };
    let p = passage as u32;
    for rank in side.half_ranks() {
        // No half rank is rank 6: the hole never enters here.
        let rank_white = position.line_word(Axis::Rank, Colour::White, rank);
        let rank_black = position.line_word(Axis::Rank, Colour::Black, rank);
        if (rank_white | rank_black) >> p & 1 != 0 {
            continue; // the passage point is not empty
        }
        let rank_stones = rank_white ^ rank_black;
        let to = Square::from_index_unchecked(rank * SIZE + passage);
        let file_lines = capture_lines(file_white, file_black, rank as u32);
        let mut origins = 0u32;
        if slide {
            origins |= rank_stones & (0b101 << p >> 1);
        }
        if jump {
            // A stone two files away, with a stone (not a ka) between.
            let far = 0b1_0001u32 << p >> 2;
            let near_west = (rank_stones << 1) & (1 << p);
            let near_east = (rank_stones >> 1) & (1 << p);
            let allowed = (near_west >> 2) | (near_east << 2);
            origins |= rank_stones & far & allowed;
        }
        origins &= 0x7ff;
        while origins != 0 {
            let origin = origins.trailing_zeros();
            origins &= origins - 1;
            let from = Square::from_index_unchecked(rank * SIZE + origin as usize);
            let picked = !(1u32 << origin);
            let rank_lines = capture_lines(rank_white & picked, rank_black & picked, p);
            visitor.lines(from, to, false, p, rank_lines);
            visitor.lines(from, to, true, rank as u32, file_lines);
        }
    }
}

#[inline(always)]
fn ka_moves(position: &Position, rules: &Rules, side: Player, visitor: &mut impl Visitor) {
    match rules.centre {
        Centre::Wall => ka_moves_in::<false>(position, side, visitor),
        Centre::Open => ka_moves_in::<true>(position, side, visitor),
    }
}

/// The ka moves of `side`, the hole open when `OPEN`. Both kas and the
/// hole are blockers in the position's words, so a landing point costs
/// two loads and two span lookups; the moving ka's own rank and file are
/// never a capture line, and its own bit in the word it moves along is
/// outside every span (a span never counts its own index as a blocker).
#[inline(always)]
fn ka_moves_in<const OPEN: bool>(position: &Position, side: Player, visitor: &mut impl Visitor) {
    if let Some(from) = position.ka(side) {
        ka_moves_at::<OPEN>(position, from.rank(), from.file(), visitor);
    }
}

/// [`ka_moves_in`] of the ka on `rank` and `file`.
#[inline(always)]
fn ka_moves_at<const OPEN: bool>(
    position: &Position,
    rank: usize,
    file: usize,
    visitor: &mut impl Visitor,
) {
    let from = Square::from_index_unchecked(rank * SIZE + file);
    let (white, black) = words::<OPEN>(position, Axis::Rank, rank);
    // The ka may pass over the open hole but never stop on it.
    let mut targets = span(file as u32, white | black)
        & !(1 << file)
        & open_mask::<OPEN>(rank)
        & LINE_MASK as u32;
    visitor.landing_points(targets.count_ones());
    // Along the rank: capture along the file of the landing point.
    while targets != 0 {
        let target_file = targets.trailing_zeros() as usize;
        targets &= targets - 1;
        // SAFETY: a bit of an 11-bit word is a file of the board, and the
        // position's words are 11 bits wide.
        let lines = unsafe {
            let (white, black) = words_unchecked::<OPEN>(position, Axis::File, target_file);
            capture_lines_of_words(white, black, rank as u32)
        };
        let to = Square::from_index_unchecked(rank * SIZE + target_file);
        visitor.lines(from, to, true, rank as u32, lines);
    }
    // Along the file: capture along the rank of the landing point.
    let (white, black) = words::<OPEN>(position, Axis::File, file);
    let mut targets = span(rank as u32, white | black)
        & !(1 << rank)
        & open_mask::<OPEN>(file)
        & LINE_MASK as u32;
    visitor.landing_points(targets.count_ones());
    while targets != 0 {
        let target_rank = targets.trailing_zeros() as usize;
        targets &= targets - 1;
        // SAFETY: as above, for ranks.
        let lines = unsafe {
            let (white, black) = words_unchecked::<OPEN>(position, Axis::Rank, target_rank);
            capture_lines_of_words(white, black, file as u32)
        };
        let to = Square::from_index_unchecked(target_rank * SIZE + file);
        visitor.lines(from, to, false, file as u32, lines);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn span_reaches_to_the_nearest_blockers() {
        assert_eq!(span(5, 0), 0x7ff);
        assert_eq!(span(5, 1 << 2 | 1 << 8), 0b000_1111_1000);
        assert_eq!(span(0, 1 << 1), 0b1);
        assert_eq!(span(10, 1 << 9), 1 << 10);
        assert_eq!(span(10, 0), 0x7ff);
    }

    #[test]
    fn lines_follow_the_rule_book_examples() {
        // `w . w K . w b`, ka at 3: one line of three whites.
        let (white, black) = capture_lines(0b010_0101, 0b100_0000, 3);
        assert_eq!(white.count_ones(), 3);
        assert_eq!(black.count_ones(), 0);
        // `w w K b`: two whites (even), one black.
        let (white, black) = capture_lines(0b0011, 0b1000, 2);
        assert_eq!(white.count_ones(), 2);
        assert_eq!(black.count_ones(), 1);
    }

    /// Along random games the profile agrees with the move list: as many
    /// moves, the richest capture among them, and one reach per distinct
    /// landing point of the ka.
    #[test]
    fn profiles_agree_with_the_move_list() {
        use rand::rngs::SmallRng;
        use rand::{RngExt, SeedableRng};
        let mut random = SmallRng::seed_from_u64(5);
        let mut checked = 0;
        for game in 0..30 {
            let rules = Rules {
                centre: if game % 2 == 0 {
                    Centre::Wall
                } else {
                    Centre::Open
                },
                ..Rules::default()
            };
            let mut position =
                crate::notation::parse_position(&rules.pattern.start_position_string()).unwrap();
            loop {
                let moves = legal_moves(&position, &rules);
                let profile = move_profile(&position, &rules);
                assert_eq!(profile.moves as usize, moves.len());
                if position.phase() == Phase::KaMove {
                    let best = moves.iter().map(|&mv| position.capture(mv).points()).max();
                    assert_eq!(profile.best, best.unwrap_or(0));
                    let side = position.side_to_move();
                    assert_eq!(ka_move_profile(&position, &rules, side), profile);
                    assert!(
                        profile.reach as usize
                            >= moves
                                .iter()
                                .map(|mv| mv.to())
                                .collect::<std::collections::HashSet<_>>()
                                .len()
                    );
                    checked += 1;
                } else {
                    assert_eq!(profile.reach, 0, "reach is a phase-3 term");
                }
                if moves.is_empty() || !position.has_stones() {
                    break;
                }
                position = position.play(moves[random.random_range(0..moves.len())]);
            }
        }
        assert!(checked > 500);
    }

    #[test]
    fn north_restrictions() {
        let opposite = Rules::default();
        assert!(north_may_take(&opposite, 2, 9));
        assert!(!north_may_take(&opposite, 2, 3));
        assert!(!north_may_take(&opposite, 2, 5));
        assert!(north_may_take(&opposite, 5, 0));
        assert!(!north_may_take(&opposite, 5, 5));
        let any = Rules {
            second_column: SecondColumn::Any,
            ..Rules::default()
        };
        assert!(north_may_take(&any, 2, 3));
        assert!(!north_may_take(&any, 2, 8));
        assert!(!north_may_take(&any, 5, 5));
    }
}
