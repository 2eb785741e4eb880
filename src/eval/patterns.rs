//! Pattern tables: weights indexed by the contents of short lines of
//! points, beside the 20 terms (the recipe of Othello's engines, Logistello
//! and Edax: docs/strength.md).
//!
//! Every point of a line is one of four things, a base-4 digit: 0 empty,
//! 1 white, 2 black, 3 a blocker (the board's edge, the hole or a ka). A
//! line of [`LENGTH`] points is then an index below 4^LENGTH = [`CELLS`].
//! Two kinds of lines are read, in phase 3 of the side to move only:
//!
//! - **windows**: every run of [`LENGTH`] points along every rank and file
//!   (7 a line, 154 in all). The board's eight symmetries (mirrors and the
//!   swap of ranks and files) leave Pasang's phase 3 unchanged, so windows
//!   share a table by their line's distance from the middle line (0-5) and
//!   their offset from the nearer end (0-3): 24 tables. A window nearer the
//!   far end is read backwards, so it looks like its mirror image; the
//!   middle window is read in whichever direction gives the smaller index.
//! - **rays**: the [`LENGTH`] points out from each ka in each of its four
//!   directions, nearest first (past the edge: blockers). All four
//!   directions share a table; the side to move's ka has one, the
//!   opponent's another.
//!
//! Stones have colours but no owner, so windows say nothing of who owns
//! what: they weigh what a line offers whoever moves, from the side to
//! move's view, the way the tempo term does.
//!
//! There is one set of these 26 tables per stage of the game, by stones
//! left ([`STONES_PER_STAGE`] a stage). The tuner smooths neighbouring
//! stages towards each other, so one lookup a line serves the search.
//!
//! The weights live in a versioned file ([`Patterns::parse`],
//! [`Patterns::to_bytes`]) with the 20 terms' weights fitted with them:
//! the engine embeds one and the `EvalFile` option loads another.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use super::features::{ALL_POINTS, COUNT, Terms, add_opponent_terms, own_terms};
use super::weights::{SCALE, WEIGHTS};
use super::{moves_matter, opponent_sum_by, opponent_terms_max, weighted_by};
use crate::bitboard::{SIZE, Square};
use crate::movegen::{MoveProfile, ka_move_profile, move_profile};
use crate::position::{Axis, Colour, Player, Position};
use crate::rules::Rules;

/// The terms' weights are in 1/SCALE_OF_TERMS centipoint a unit (the
/// cells in whole centipoints).
pub const SCALE_OF_TERMS: i32 = SCALE;

/// Points in a window or a ray.
pub const LENGTH: usize = 5;
/// Cells of one table: 4^LENGTH.
pub const CELLS: usize = 1 << (2 * LENGTH);
/// Windows along one line.
const OFFSETS: usize = SIZE - LENGTH + 1;
/// Offset classes: 0 at either end to 3 in the middle.
const OFFSET_CLASSES: usize = OFFSETS.div_ceil(2);
/// Line classes: distance from the middle line, 0 to 5 (the edge).
const LINE_CLASSES: usize = SIZE.div_ceil(2);
/// Window tables of a stage.
pub const WINDOW_TABLES: usize = LINE_CLASSES * OFFSET_CLASSES;
/// The table of the side to move's ka's rays.
pub const OWN_RAYS: usize = WINDOW_TABLES;
/// The table of the opponent's ka's rays.
pub const OPPONENT_RAYS: usize = WINDOW_TABLES + 1;
/// Tables of a stage.
pub const TABLES: usize = WINDOW_TABLES + 2;
/// Cells of a stage.
pub const STAGE_CELLS: usize = TABLES * CELLS;
/// Stages of the game.
pub const STAGES: usize = 6;
/// Stones left per stage (the last stage takes the rest).
pub const STONES_PER_STAGE: u32 = 20;
/// All cells of a file.
pub const TOTAL_CELLS: usize = STAGES * STAGE_CELLS;
/// Most lines read in one position: the windows and eight rays.
pub const SLOTS: usize = 2 * SIZE * OFFSETS + 8;

// A stage's cell index fits a u16, which keeps the tuner's samples small.
const _: () = assert!(STAGE_CELLS <= u16::MAX as usize + 1);

/// `word` (11 bits) with bit i moved to bit 2i: half of a line's base-4
/// code (white words in the low bit of each digit, black in the high).
static SPREAD: [u32; 1 << SIZE] = spread_table(false);
/// The same with bit i moved to bit 2(10 - i): the line read backwards.
static SPREAD_BACKWARDS: [u32; 1 << SIZE] = spread_table(true);
/// Every window index read backwards.
static REVERSED: [u16; CELLS] = reversed_table();

const fn spread_table(backwards: bool) -> [u32; 1 << SIZE] {
    let mut table = [0; 1 << SIZE];
    let mut word = 0;
    while word < 1 << SIZE {
        let mut bit = 0;
        while bit < SIZE {
            if word & (1 << bit) != 0 {
                let at = if backwards { SIZE - 1 - bit } else { bit };
                table[word] |= 1 << (2 * at);
            }
            bit += 1;
        }
        word += 1;
    }
    table
}

const fn reversed_table() -> [u16; CELLS] {
    let mut table = [0; CELLS];
    let mut index = 0;
    while index < CELLS {
        let mut reversed = 0;
        let mut digit = 0;
        while digit < LENGTH {
            reversed |= ((index >> (2 * digit)) & 3) << (2 * (LENGTH - 1 - digit));
            digit += 1;
        }
        table[index] = reversed as u16;
        index += 1;
    }
    table
}

/// Past the edge every point is a blocker: digits of 3 above a line's 22
/// bits.
const PAST_THE_EDGE: u64 = !0 << (2 * SIZE);
/// The low digits of a code that make one window or ray.
const DIGITS: u64 = CELLS as u64 - 1;

/// The base-4 code of line `line` along `axis`, point 0 lowest. The line
/// words hold the kas and the hole in both colours: a blocker, digit 3.
#[inline(always)]
fn line_code(position: &Position, axis: Axis, line: usize, table: &[u32; 1 << SIZE]) -> u64 {
    let white = position.line_word(axis, Colour::White, line) as usize;
    let black = position.line_word(axis, Colour::Black, line) as usize;
    // Words have 11 bits: the lookups are in bounds.
    (table[white & ((1 << SIZE) - 1)] | table[black & ((1 << SIZE) - 1)] << 1) as u64
        | PAST_THE_EDGE
}

/// The stage of a position: by stones left.
#[inline(always)]
pub fn stage(position: &Position) -> usize {
    ((position.stone_count() / STONES_PER_STAGE) as usize).min(STAGES - 1)
}

/// Calls `visit` with the cell, within its stage, of every line the
/// position's pattern part reads (none before phase 3 of the side to
/// move).
#[inline(always)]
pub fn for_each_cell(position: &Position, mut visit: impl FnMut(usize)) {
    if !moves_matter(position) {
        return;
    }
    for axis in [Axis::Rank, Axis::File] {
        for line in 0..SIZE {
            let code = line_code(position, axis, line, &SPREAD);
            let class = line.min(SIZE - 1 - line) * OFFSET_CLASSES;
            for offset in 0..OFFSETS {
                let index = ((code >> (2 * offset)) & DIGITS) as usize;
                let index = match offset.cmp(&(OFFSETS / 2)) {
                    std::cmp::Ordering::Less => index,
                    std::cmp::Ordering::Equal => index.min(REVERSED[index] as usize),
                    std::cmp::Ordering::Greater => REVERSED[index] as usize,
                };
                let table = class + offset.min(OFFSETS - 1 - offset);
                visit(table * CELLS + index);
            }
        }
    }
    let side = position.side_to_move();
    for (player, table) in [(side, OWN_RAYS), (side.opponent(), OPPONENT_RAYS)] {
        let Some(ka) = position.ka(player) else {
            continue;
        };
        visit_rays(position, ka, table * CELLS, &mut visit);
    }
}

/// Visits the cells of the four rays out from `ka` in the ray table at
/// `base`.
#[inline(always)]
fn visit_rays(position: &Position, ka: Square, base: usize, visit: &mut impl FnMut(usize)) {
    let (rank, file) = (ka.rank(), ka.file());
    let along_rank = line_code(position, Axis::Rank, rank, &SPREAD);
    let back_rank = line_code(position, Axis::Rank, rank, &SPREAD_BACKWARDS);
    let along_file = line_code(position, Axis::File, file, &SPREAD);
    let back_file = line_code(position, Axis::File, file, &SPREAD_BACKWARDS);
    // Point p of a line is digit p forwards and digit 10 - p backwards; a
    // ray starts next to the ka.
    visit(base + ((along_rank >> (2 * (file + 1))) & DIGITS) as usize);
    visit(base + ((back_rank >> (2 * (SIZE - file))) & DIGITS) as usize);
    visit(base + ((along_file >> (2 * (rank + 1))) & DIGITS) as usize);
    visit(base + ((back_file >> (2 * (SIZE - rank))) & DIGITS) as usize);
}

/// Tables of a stage as the search reads them: one window table for
/// every line class and every offset, so no window is read backwards at a
/// leaf (the tables for the far offsets are the near ones' with their
/// indices reversed, made once on loading), and the two ray tables.
const SEARCH_WINDOW_TABLES: usize = LINE_CLASSES * OFFSETS;
/// Cells of a stage in the search's layout.
const SEARCH_STAGE_CELLS: usize = (SEARCH_WINDOW_TABLES + 2) * CELLS;

/// [`for_each_cell`] in the search's layout: the same lines, each at its
/// cell of [`Patterns::search_cells`].
#[inline(always)]
fn for_each_search_cell(position: &Position, windows: bool, mut visit: impl FnMut(usize)) {
    for axis in [Axis::Rank, Axis::File] {
        if !windows {
            break;
        }
        for line in 0..SIZE {
            let code = line_code(position, axis, line, &SPREAD);
            let base = line.min(SIZE - 1 - line) * OFFSETS * CELLS;
            for offset in 0..OFFSETS {
                visit(base + offset * CELLS + ((code >> (2 * offset)) & DIGITS) as usize);
            }
        }
    }
    let side = position.side_to_move();
    for (player, table) in [
        (side, SEARCH_WINDOW_TABLES),
        (side.opponent(), SEARCH_WINDOW_TABLES + 1),
    ] {
        let Some(ka) = position.ka(player) else {
            continue;
        };
        visit_rays(position, ka, table * CELLS, &mut visit);
    }
}

/// The stored cells laid out for the search ([`SEARCH_STAGE_CELLS`] a
/// stage).
fn search_layout(cells: &[i16]) -> Box<[i16]> {
    let mut out = vec![0i16; STAGES * SEARCH_STAGE_CELLS];
    for stage in 0..STAGES {
        let from = &cells[stage * STAGE_CELLS..][..STAGE_CELLS];
        let to = &mut out[stage * SEARCH_STAGE_CELLS..][..SEARCH_STAGE_CELLS];
        for line_class in 0..LINE_CLASSES {
            for offset in 0..OFFSETS {
                let table = line_class * OFFSET_CLASSES + offset.min(OFFSETS - 1 - offset);
                for index in 0..CELLS {
                    let stored = match offset.cmp(&(OFFSETS / 2)) {
                        std::cmp::Ordering::Less => index,
                        std::cmp::Ordering::Equal => index.min(REVERSED[index] as usize),
                        std::cmp::Ordering::Greater => REVERSED[index] as usize,
                    };
                    to[(line_class * OFFSETS + offset) * CELLS + index] =
                        from[table * CELLS + stored];
                }
            }
        }
        for ray in 0..2 {
            to[(SEARCH_WINDOW_TABLES + ray) * CELLS..][..CELLS]
                .copy_from_slice(&from[(OWN_RAYS + ray) * CELLS..][..CELLS]);
        }
    }
    out.into_boxed_slice()
}

/// The cells a position reads, with its stage: what the tuner stores of a
/// position.
#[derive(Copy, Clone, Debug)]
pub struct ActiveCells {
    /// The stage ([`stage`]).
    pub stage: u8,
    /// How many of `cells` are used.
    pub count: u8,
    /// Cells within the stage.
    pub cells: [u16; SLOTS],
}

impl ActiveCells {
    /// The cells of `position`.
    pub fn of(position: &Position) -> ActiveCells {
        let mut active = ActiveCells {
            stage: stage(position) as u8,
            count: 0,
            cells: [0; SLOTS],
        };
        for_each_cell(position, |cell| {
            active.cells[active.count as usize] = cell as u16;
            active.count += 1;
        });
        active
    }

    /// The cells used.
    pub fn used(&self) -> &[u16] {
        &self.cells[..self.count as usize]
    }
}

/// Magic bytes of a pattern file.
const MAGIC: &[u8; 8] = b"PSNGPATT";
/// The format version this engine reads.
pub const VERSION: u32 = 1;
/// Header: magic, then version, stages, tables, cells a table, terms
/// (five u32).
const HEADER_BYTES: usize = 8 + 5 * 4;

/// The pattern file built into the engine: the joint fit of terms and
/// tables to 5.25M positions of 3,000-node self-play (docs/strength.md,
/// "Pattern tables"), which plays even with the terms at equal nodes.
static EMBEDDED: &[u8] = include_bytes!("pasang.patterns");

/// A pattern file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum PatternError {
    /// The file cannot be read.
    #[error("cannot read pattern file '{path}': {error}")]
    Io {
        /// The path given.
        path: String,
        /// Why.
        error: std::io::Error,
    },
    /// The file does not start with the magic bytes.
    #[error("'{0}' is not a pasang pattern file (no PSNGPATT header)")]
    NotPatterns(String),
    /// Another version or shape than this engine reads.
    #[error("'{name}': {what}")]
    Unsupported {
        /// The file.
        name: String,
        /// What differs.
        what: String,
    },
    /// The file is cut short or too long.
    #[error("'{name}': {found} bytes, but its header describes {expected}")]
    Length {
        /// The file.
        name: String,
        /// Bytes the header implies.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
}

/// Whether `bytes` start like a pattern file (the `EvalFile` option reads
/// either kind of file).
pub fn is_pattern_file(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Whether the file at `path` starts like a pattern file (false when it
/// cannot be read: the caller's own load then says why).
pub fn starts_like_patterns(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0; MAGIC.len()];
    std::fs::File::open(path)
        .and_then(|mut file| file.read_exact(&mut head))
        .is_ok()
        && is_pattern_file(&head)
}

/// The 20 terms' weights and the pattern tables: an evaluation.
#[derive(Clone, Debug)]
pub struct Patterns {
    /// The terms' weights, 1/SCALE centipoint a unit.
    terms: [i32; COUNT],
    /// Every cell in centipoints, stage after stage.
    cells: Box<[i16]>,
    /// The same laid out for the search ([`search_layout`]).
    search_cells: Box<[i16]>,
    /// Whether any window cell is not zero: a file of rays alone costs
    /// the search no window lookups.
    windows: bool,
    /// [`super::OPPONENT_TERMS_MAX`] under these weights.
    opponent_max: [i32; ALL_POINTS as usize + 1],
    /// Where the weights came from.
    name: String,
}

/// How an evaluation by patterns splits, in centipoints.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct PatternParts {
    /// The 20 terms under the file's weights.
    pub terms: i32,
    /// The tables.
    pub tables: i32,
    /// Their sum.
    pub total: i32,
}

impl Patterns {
    /// The evaluation of `terms` (weights in 1/SCALE centipoint) and
    /// `cells` (centipoints, [`TOTAL_CELLS`] of them).
    pub fn new(terms: [i32; COUNT], cells: Vec<i16>, name: &str) -> Option<Patterns> {
        (cells.len() == TOTAL_CELLS).then(|| Patterns {
            terms,
            windows: (0..STAGES).any(|stage| {
                cells[stage * STAGE_CELLS..][..WINDOW_TABLES * CELLS]
                    .iter()
                    .any(|&cell| cell != 0)
            }),
            search_cells: search_layout(&cells),
            cells: cells.into_boxed_slice(),
            opponent_max: opponent_terms_max(&terms),
            name: name.to_string(),
        })
    }

    /// The 20 terms' own weights and empty tables: the evaluation without
    /// patterns.
    pub fn empty() -> Patterns {
        Patterns::new(WEIGHTS, vec![0; TOTAL_CELLS], "<no patterns>").expect("the right size")
    }

    /// Reads a pattern file's bytes; `name` names it in errors.
    pub fn parse(bytes: &[u8], name: &str) -> Result<Patterns, PatternError> {
        if bytes.len() < HEADER_BYTES || !is_pattern_file(bytes) {
            return Err(PatternError::NotPatterns(name.to_string()));
        }
        let field = |i: usize| {
            let at = 8 + 4 * i;
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let found = [field(0), field(1), field(2), field(3), field(4)];
        let expected = [
            VERSION,
            STAGES as u32,
            TABLES as u32,
            CELLS as u32,
            COUNT as u32,
        ];
        if found != expected {
            return Err(PatternError::Unsupported {
                name: name.to_string(),
                what: format!(
                    "version, stages, tables, cells, terms {found:?}; this engine reads {expected:?}"
                ),
            });
        }
        let length = HEADER_BYTES + 4 * COUNT + 2 * TOTAL_CELLS;
        if bytes.len() != length {
            return Err(PatternError::Length {
                name: name.to_string(),
                expected: length,
                found: bytes.len(),
            });
        }
        let body = &bytes[HEADER_BYTES..];
        let mut terms = [0; COUNT];
        for (term, chunk) in terms.iter_mut().zip(body.chunks_exact(4)) {
            *term = i32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        }
        // The search adds terms and cells in i32: keep every term's weight
        // within what no term can overflow (the largest term, margin x
        // left, is below 180 x 180).
        if let Some(term) = terms.iter().position(|w| w.unsigned_abs() > 1 << 20) {
            return Err(PatternError::Unsupported {
                name: name.to_string(),
                what: format!("term {term}'s weight {} is out of range", terms[term]),
            });
        }
        let cells = body[4 * COUNT..]
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
            .collect();
        Ok(Patterns::new(terms, cells, name).expect("the length was checked"))
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        for field in [
            VERSION,
            STAGES as u32,
            TABLES as u32,
            CELLS as u32,
            COUNT as u32,
        ] {
            bytes.extend_from_slice(&field.to_le_bytes());
        }
        for term in self.terms {
            bytes.extend_from_slice(&term.to_le_bytes());
        }
        for cell in self.cells.iter() {
            bytes.extend_from_slice(&cell.to_le_bytes());
        }
        bytes
    }

    /// Reads a pattern file.
    pub fn load(path: &Path) -> Result<Patterns, PatternError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|error| PatternError::Io {
            path: name.clone(),
            error,
        })?;
        Patterns::parse(&bytes, &name)
    }

    /// The pattern file built into the engine.
    pub fn embedded() -> Arc<Patterns> {
        static PATTERNS: OnceLock<Arc<Patterns>> = OnceLock::new();
        PATTERNS
            .get_or_init(|| {
                Arc::new(Patterns::parse(EMBEDDED, "<embedded>").expect("the embedded patterns"))
            })
            .clone()
    }

    /// Where the weights came from (a path, or `<embedded>`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The terms' weights, 1/SCALE centipoint a unit.
    pub fn terms(&self) -> &[i32; COUNT] {
        &self.terms
    }

    /// Every cell, stage after stage, in centipoints.
    pub fn cells(&self) -> &[i16] {
        &self.cells
    }

    /// The tables' sum over `position`, in centipoints (0 before phase 3
    /// of the side to move).
    #[inline]
    pub fn table_sum(&self, position: &Position) -> i32 {
        if !moves_matter(position) {
            return 0;
        }
        let stage = &self.search_cells[stage(position) * SEARCH_STAGE_CELLS..];
        let stage: &[i16; SEARCH_STAGE_CELLS] = stage[..SEARCH_STAGE_CELLS]
            .try_into()
            .expect("a whole stage");
        let mut sum = 0;
        // Every index is a table's start plus a masked 10-bit code, below
        // SEARCH_STAGE_CELLS: the compiler sees the array's length and
        // the masks, and keeps most bounds checks out.
        for_each_search_cell(position, self.windows, |cell| sum += stage[cell] as i32);
        sum
    }

    /// The tables' sum from the stored layout: what the tuner's model
    /// adds, for checking the search's layout against it.
    pub fn stored_table_sum(&self, position: &Position) -> i32 {
        let stage = &self.cells[stage(position) * STAGE_CELLS..][..STAGE_CELLS];
        let mut sum = 0;
        for_each_cell(position, |cell| sum += stage[cell] as i32);
        sum
    }

    /// The evaluation, or a bound of it at most `alpha` when the
    /// opponent's move terms could not lift it above `alpha`: as
    /// [`super::evaluate_above`], with the tables added.
    #[inline]
    pub fn evaluate_above(
        &self,
        position: &Position,
        rules: &Rules,
        own: MoveProfile,
        alpha: i32,
    ) -> i32 {
        let matter = moves_matter(position);
        let own_sum = weighted_by(&self.terms, &own_terms(position, own, matter));
        if !matter {
            return own_sum / SCALE;
        }
        let own_sum = own_sum + SCALE * self.table_sum(position);
        let left = position.material_left() as usize;
        let bound = (own_sum + self.opponent_max[left]) / SCALE;
        if bound <= alpha {
            return bound;
        }
        let opponent = ka_move_profile(position, rules, position.side_to_move().opponent());
        (own_sum + opponent_sum_by(&self.terms, opponent, left as i32)) / SCALE
    }

    /// The evaluation of `position` from scratch and its two parts.
    pub fn evaluate(&self, position: &Position, rules: &Rules) -> PatternParts {
        let own = move_profile(position, rules);
        let matter = moves_matter(position);
        let mut terms: Terms = own_terms(position, own, matter);
        if matter {
            let opponent = ka_move_profile(position, rules, position.side_to_move().opponent());
            add_opponent_terms(&mut terms, opponent, position.material_left() as i32);
        }
        let term_sum = weighted_by(&self.terms, &terms);
        let tables = if matter { self.table_sum(position) } else { 0 };
        // The terms' part is what the tables leave of the total, so the
        // parts add up exactly (the total rounds once, as in the search).
        let total = (term_sum + SCALE * tables) / SCALE;
        PatternParts {
            terms: total - tables,
            tables,
            total,
        }
    }
}

/// The player whose ka a ray table names, for tests and tools.
pub fn ray_owner(position: &Position, table: usize) -> Option<Player> {
    match table {
        OWN_RAYS => Some(position.side_to_move()),
        OPPONENT_RAYS => Some(position.side_to_move().opponent()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;
    use crate::movegen::legal_moves;
    use crate::notation::parse_position;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    /// Phase-3 positions along seeded random games under every rule set.
    fn positions() -> Vec<(Position, Rules)> {
        let mut random = SmallRng::seed_from_u64(38);
        let mut found = Vec::new();
        for rules in Rules::all() {
            let mut position = parse_position(&rules.pattern.start_position_string()).unwrap();
            loop {
                let moves = legal_moves(&position, &rules);
                if moves.is_empty() || !position.has_stones() {
                    break;
                }
                if moves_matter(&position) {
                    found.push((position, rules));
                }
                position = position.play(moves[random.random_range(0..moves.len())]);
            }
        }
        found
    }

    /// The position string with the board's ranks and files mapped by
    /// `map` (rank, file) -> (rank, file); the rest unchanged.
    fn transformed(position: &Position, map: impl Fn(usize, usize) -> (usize, usize)) -> Position {
        let text = crate::notation::format_position(position);
        let (board, rest) = text.split_once(' ').unwrap();
        let rows: Vec<Vec<char>> = board.split('/').map(|r| r.chars().collect()).collect();
        let mut out = vec![vec!['.'; SIZE]; SIZE];
        for (row, chars) in rows.iter().enumerate() {
            for (file, &c) in chars.iter().enumerate() {
                let rank = SIZE - 1 - row;
                let (r, f) = map(rank, file);
                out[SIZE - 1 - r][f] = c;
            }
        }
        let board: Vec<String> = out.into_iter().map(|r| r.into_iter().collect()).collect();
        parse_position(&format!("{} {rest}", board.join("/"))).unwrap()
    }

    fn random_patterns(seed: u64) -> Patterns {
        let mut random = SmallRng::seed_from_u64(seed);
        let cells = (0..TOTAL_CELLS)
            .map(|_| random.random_range(-500..=500))
            .collect();
        Patterns::new(WEIGHTS, cells, "random").unwrap()
    }

    /// The search's layout adds up what the stored tables do, with the
    /// windows and without them.
    #[test]
    fn the_search_layout_is_the_stored_tables() {
        let patterns = random_patterns(21);
        let mut cells = patterns.cells().to_vec();
        for stage in 0..STAGES {
            cells[stage * STAGE_CELLS..][..WINDOW_TABLES * CELLS].fill(0);
        }
        let rays = Patterns::new(WEIGHTS, cells, "rays").unwrap();
        assert!(patterns.windows && !rays.windows);
        for (position, _) in positions() {
            assert_eq!(
                patterns.table_sum(&position),
                patterns.stored_table_sum(&position)
            );
            assert_eq!(rays.table_sum(&position), rays.stored_table_sum(&position));
        }
    }

    #[test]
    fn every_position_reads_all_its_lines_within_the_stage() {
        for (position, _) in positions() {
            let active = ActiveCells::of(&position);
            let kas = [Player::South, Player::North]
                .iter()
                .filter(|&&p| position.ka(p).is_some())
                .count();
            assert_eq!(active.count as usize, SLOTS - 8 + 4 * kas);
            assert!(active.used().iter().all(|&c| (c as usize) < STAGE_CELLS));
        }
    }

    /// The tables' sum is the same in the mirror images of a position and
    /// with ranks and files swapped: the symmetries the tables share.
    #[test]
    fn the_tables_see_the_boards_symmetries() {
        let patterns = random_patterns(5);
        let last = SIZE - 1;
        let mut checked = 0;
        for (position, _) in positions().into_iter().step_by(7) {
            let sum = patterns.table_sum(&position);
            for map in [
                &(|r, f| (r, last - f)) as &dyn Fn(usize, usize) -> (usize, usize),
                &|r, f| (last - r, f),
                &|r, f| (f, r),
                &|r, f| (last - f, last - r),
            ] {
                let image = transformed(&position, map);
                assert_eq!(patterns.table_sum(&image), sum, "{position:?}");
                checked += 1;
            }
        }
        assert!(checked > 200);
    }

    /// Shifting one stone changes the sum: the tables do see the board
    /// (a check that the symmetry test is not passing on a constant).
    #[test]
    fn a_ray_reads_the_points_next_to_the_ka() {
        let text = "wwwwwbbbbbw/bwwwwbbbbww/bbwwwbbbwww/bbbwwbbwwww/bbbbwbwwwww/bbbbb+bbbbb/wwwwwbwbbbb/wwwwbbwwbbb/wwwbbbwwwbb/wwbbbbwwwwb/wbbbbbwwwww s 0 0 --";
        let start = parse_position(text).unwrap();
        // Before phase 3 nothing is read.
        assert_eq!(ActiveCells::of(&start).count, 0);
        let position = parse_position(
            "wwwwwbbbbbw/bwwwwbbbbww/bbwwwbbbwww/bbbwwbbwwww/bbbbwbwwwww/bbbbb+bbbbb/.wwwwbwbbbb/.wwwbbwwbbb/Sww.bbwwwbb/.wbbbbwwwwN/.bbbbbwwww. s 0 0 ak",
        )
        .unwrap();
        let active = ActiveCells::of(&position);
        let rays = &active.used()[SLOTS - 8..SLOTS - 4];
        // South's ka on a3 (rank 2, file 0): east w w . b b, west all
        // edge, north a4 and a5 empty then b b b, south a2 and a1 empty,
        // then the edge.
        let digits = |d: [usize; 5]| d.iter().rev().fold(0, |code, &x| code * 4 + x);
        assert_eq!(rays[0] as usize, OWN_RAYS * CELLS + digits([1, 1, 0, 2, 2]));
        assert_eq!(rays[1] as usize, OWN_RAYS * CELLS + digits([3; 5]));
        assert_eq!(rays[2] as usize, OWN_RAYS * CELLS + digits([0, 0, 2, 2, 2]));
        assert_eq!(rays[3] as usize, OWN_RAYS * CELLS + digits([0, 0, 3, 3, 3]));
        assert_eq!(ray_owner(&position, OWN_RAYS), Some(Player::South));
    }

    /// Empty tables and the engine's own weights give the engine's own
    /// evaluation, exactly and through the bounded path too.
    #[test]
    fn empty_tables_are_the_terms_alone() {
        let patterns = Patterns::empty();
        for (position, rules) in positions() {
            let total = evaluate(&position, &rules).total;
            assert_eq!(patterns.evaluate(&position, &rules).total, total);
            let own = move_profile(&position, &rules);
            assert_eq!(
                patterns.evaluate_above(&position, &rules, own, -crate::search::MATE),
                total
            );
        }
    }

    /// The bounded evaluation is exact above `alpha` and a bound between
    /// the total and `alpha` below it, with tables.
    #[test]
    fn bounded_evaluation_with_tables() {
        let patterns = random_patterns(9);
        for (position, rules) in positions().into_iter().step_by(3) {
            let parts = patterns.evaluate(&position, &rules);
            assert_eq!(parts.total, parts.terms + parts.tables);
            let own = move_profile(&position, &rules);
            for alpha in [
                parts.total - 300,
                parts.total - 1,
                parts.total,
                parts.total + 200,
            ] {
                let bounded = patterns.evaluate_above(&position, &rules, own, alpha);
                if parts.total > alpha {
                    assert_eq!(bounded, parts.total);
                } else {
                    assert!(bounded >= parts.total && bounded <= alpha);
                }
            }
        }
    }

    #[test]
    fn the_file_round_trips_and_bad_files_are_refused() {
        let patterns = random_patterns(3);
        let bytes = patterns.to_bytes();
        assert!(bytes.len() < 1 << 20, "{} bytes", bytes.len());
        let back = Patterns::parse(&bytes, "x").unwrap();
        assert_eq!(back.terms(), patterns.terms());
        assert_eq!(back.cells(), patterns.cells());
        assert!(matches!(
            Patterns::parse(b"PSNGNNUE and more bytes than a header has", "x"),
            Err(PatternError::NotPatterns(_))
        ));
        assert!(matches!(
            Patterns::parse(&bytes[..bytes.len() - 1], "x"),
            Err(PatternError::Length { .. })
        ));
        let mut other_version = bytes.clone();
        other_version[8] = 2;
        assert!(matches!(
            Patterns::parse(&other_version, "x"),
            Err(PatternError::Unsupported { .. })
        ));
        let mut wild_term = bytes.clone();
        wild_term[HEADER_BYTES + 3] = 0x40;
        assert!(matches!(
            Patterns::parse(&wild_term, "x"),
            Err(PatternError::Unsupported { .. })
        ));
        assert!(matches!(
            Patterns::load(Path::new("/nonexistent/pasang.patterns")),
            Err(PatternError::Io { .. })
        ));
        // The embedded file is one this engine reads.
        assert_eq!(Patterns::embedded().cells().len(), TOTAL_CELLS);
    }
}
