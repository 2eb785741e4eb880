//! The fixed action space: every move that can be legal in some position
//! under some rule set has one id, and no other id exists.
//!
//! - `0..11`: the passages on files a-k (a move of phase 1).
//! - From 11 on, every *ka triple* that can be legal, in increasing order
//!   of origin index (a1 = 0, b1 = 1, ..., k11 = 120), then landing point
//!   index, then direction set in the order n, s, ns, e, w, ew. A triple
//!   (origin, landing point, directions) can be legal when neither point
//!   is the hole and one of:
//!   - the points share a file and the set is e, w or ew (a ka move along
//!     a file captures along the landing rank): each direction named has
//!     a point beyond the landing point;
//!   - the points share a rank and the set is n, s or ns (a ka move or an
//!     entry along a rank capturing along the landing file): likewise;
//!   - the points share a rank that is not rank 6, they are one or two
//!     files apart, and the set is e, w or ew (a ka entry, which may
//!     capture along the rank it slides or jumps along): each direction
//!     away from the origin has a point beyond the landing point, and the
//!     direction towards it, for a slide, a point beyond the origin (the
//!     origin is empty once the stone has left; a jump's jumped stone
//!     stays and can start the run).
//!
//! Within one position the legal moves have different ids: a move is fixed
//! by its passage file or its triple (the captured stones follow from the
//! position), and an entry and a ka move are never legal together.
//! [`encode`] needs no position; [`decode`] finds the legal move of a
//! position with an id.

use std::sync::LazyLock;

use crate::bitboard::{SIZE, Square};
use crate::movegen::legal_moves;
use crate::moves::{Move, direction};
use crate::notation::{Syntax, parse_syntax};
use crate::position::Position;
use crate::rules::Rules;

/// The direction sets a move can capture in, in id order: n, s, ns, e,
/// w, ew (the nine others never occur: a line runs along one axis).
pub const DIRECTION_SETS: [u8; 6] = [
    direction::NORTH,
    direction::SOUTH,
    direction::NORTH | direction::SOUTH,
    direction::EAST,
    direction::WEST,
    direction::EAST | direction::WEST,
];

/// The passages' ids: one per file.
pub const PASSAGES: usize = SIZE;

const POINTS: usize = SIZE * SIZE;
const HOLE: usize = Square::HOLE.index();
/// No id: a triple that can never be legal.
const NONE: u16 = u16::MAX;

/// The number of ids: [`PASSAGES`] and every ka triple that can be legal.
pub const ACTIONS: usize = PASSAGES + count_triples();

/// Whether a step from (`rank`, `file`) towards `flag` stays on the board.
const fn has_beyond(rank: usize, file: usize, flag: u8) -> bool {
    match flag {
        direction::NORTH => rank + 1 < SIZE,
        direction::SOUTH => rank > 0,
        direction::EAST => file + 1 < SIZE,
        _ => file > 0,
    }
}

/// Whether each direction of `directions` within `flags` has a point
/// beyond (`rank`, `file`).
const fn each(directions: u8, rank: usize, file: usize, flags: u8) -> bool {
    let mut flag = direction::NORTH;
    while flag <= direction::WEST {
        if flags & directions & flag != 0 && !has_beyond(rank, file, flag) {
            return false;
        }
        flag <<= 1;
    }
    true
}

/// Whether the ka triple (`from`, `to`, direction set number `set`) is
/// legal in some position under some rule set (the module's rules).
const fn possible(from: usize, to: usize, set: usize) -> bool {
    if from == to || from == HOLE || to == HOLE || from >= POINTS || to >= POINTS {
        return false;
    }
    let (from_rank, from_file) = (from / SIZE, from % SIZE);
    let (rank, file) = (to / SIZE, to % SIZE);
    let directions = DIRECTION_SETS[set];
    let along_file = directions & (direction::NORTH | direction::SOUTH) != 0;
    if from_file == file {
        // A ka move along a file captures along the landing rank.
        return !along_file && each(directions, rank, file, direction::EAST | direction::WEST);
    }
    if from_rank != rank {
        return false;
    }
    if along_file {
        return each(directions, rank, file, direction::NORTH | direction::SOUTH);
    }
    // An entry capturing along its own rank.
    let distance = from_file.abs_diff(file);
    if rank == SIZE / 2 || distance > 2 {
        return false;
    }
    let towards_origin = if from_file > file {
        direction::EAST
    } else {
        direction::WEST
    };
    let mut ok = true;
    let mut flag = direction::EAST;
    while flag <= direction::WEST {
        if directions & flag != 0 {
            ok &= if flag == towards_origin && distance == 1 {
                has_beyond(from_rank, from_file, flag)
            } else {
                has_beyond(rank, file, flag)
            };
        }
        flag <<= 1;
    }
    ok
}

const fn count_triples() -> usize {
    let mut count = 0;
    let mut from = 0;
    while from < POINTS {
        let mut to = 0;
        while to < POINTS {
            let mut set = 0;
            while set < DIRECTION_SETS.len() {
                if possible(from, to, set) {
                    count += 1;
                }
                set += 1;
            }
            to += 1;
        }
        from += 1;
    }
    count
}

/// The number of a direction set in [`DIRECTION_SETS`], if it is one.
const fn set_number(directions: u8) -> Option<usize> {
    let mut set = 0;
    while set < DIRECTION_SETS.len() {
        if DIRECTION_SETS[set] == directions {
            return Some(set);
        }
        set += 1;
    }
    None
}

/// What an id stands for, without a position.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum ActionKind {
    /// The passage on this file (0 = a).
    Passage(usize),
    /// A ka entry or move: origin, landing point, direction flags.
    Ka {
        /// Where the stone or ka starts.
        from: Square,
        /// Where it lands.
        to: Square,
        /// The captured lines' [`direction`] flags.
        directions: u8,
    },
}

/// Both directions of the numbering, built once.
struct Table {
    /// Id by `(from * 121 + to) * 6 + set`, or [`NONE`].
    ids: Vec<u16>,
    /// The kinds by id.
    kinds: Vec<ActionKind>,
}

static TABLE: LazyLock<Table> = LazyLock::new(|| {
    let mut ids = vec![NONE; POINTS * POINTS * DIRECTION_SETS.len()];
    let mut kinds: Vec<ActionKind> = (0..PASSAGES).map(ActionKind::Passage).collect();
    for from in 0..POINTS {
        for to in 0..POINTS {
            for (set, &directions) in DIRECTION_SETS.iter().enumerate() {
                if possible(from, to, set) {
                    ids[(from * POINTS + to) * DIRECTION_SETS.len() + set] = kinds.len() as u16;
                    kinds.push(ActionKind::Ka {
                        from: Square::from_index_unchecked(from),
                        to: Square::from_index_unchecked(to),
                        directions,
                    });
                }
            }
        }
    }
    debug_assert_eq!(kinds.len(), ACTIONS);
    Table { ids, kinds }
});

/// Why an id or a move has no place in the action space, or an id no
/// legal move in a position.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum ActionError {
    /// An id past the last.
    #[error("action {0} is out of range: ids are 0 to {last}", last = ACTIONS - 1)]
    OutOfRange(i64),
    /// A move no position allows (its directions, or its points).
    #[error("move {0} is legal in no position, so it has no action id")]
    NeverLegal(String),
    /// Text that is not a move with its directions.
    #[error("'{text}' is not a move with its directions: {reason}")]
    Text {
        /// The text.
        text: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// An id with no legal move in the position.
    #[error("action {action} ({kind}) is not legal in this position")]
    Illegal {
        /// The id.
        action: usize,
        /// What it stands for, in the move notation.
        kind: String,
    },
}

/// The id of `mv` (see the module's documentation), with no position.
#[inline]
pub fn encode(mv: Move) -> Result<usize, ActionError> {
    if mv.is_passage() {
        return Ok(mv.passage_file());
    }
    let id = set_number(mv.directions()).map_or(NONE, |set| {
        TABLE.ids[(mv.from().index() * POINTS + mv.to().index()) * DIRECTION_SETS.len() + set]
    });
    if id == NONE {
        Err(ActionError::NeverLegal(mv.to_string()))
    } else {
        Ok(usize::from(id))
    }
}

/// The id of the move written `text` (`c`, `b1c1n`: a ka move with its
/// directions), with no position.
pub fn encode_text(text: &str) -> Result<usize, ActionError> {
    match parse_syntax(text) {
        Ok(Syntax::Passage(file)) => Ok(file),
        Ok(Syntax::Ka {
            from,
            to,
            directions: Some(directions),
        }) if directions != 0 => encode(Move::ka(from, to, directions, false, 0)),
        Ok(Syntax::Ka { .. }) => Err(ActionError::Text {
            text: text.to_string(),
            reason: "a ka move's id needs its directions (b1c1n)",
        }),
        Err(reason) => Err(ActionError::Text {
            text: text.to_string(),
            reason,
        }),
    }
}

/// What `action` stands for, with no position.
pub fn kind(action: i64) -> Result<ActionKind, ActionError> {
    usize::try_from(action)
        .ok()
        .and_then(|index| TABLE.kinds.get(index))
        .copied()
        .ok_or(ActionError::OutOfRange(action))
}

/// `action` in the move notation, with no position: `c`, `b1c1n`.
pub fn describe(action: i64) -> Result<String, ActionError> {
    Ok(match kind(action)? {
        ActionKind::Passage(file) => Move::passage(file).to_string(),
        ActionKind::Ka {
            from,
            to,
            directions,
        } => Move::ka(from, to, directions, false, 0).to_string(),
    })
}

/// The legal move of `position` with id `action`.
pub fn decode(action: i64, position: &Position, rules: &Rules) -> Result<Move, ActionError> {
    let kind = kind(action)?;
    let wanted = action as usize;
    legal_moves(position, rules)
        .iter()
        .copied()
        .find(|&mv| encode(mv) == Ok(wanted))
        .ok_or_else(|| ActionError::Illegal {
            action: wanted,
            kind: match kind {
                ActionKind::Passage(file) => Move::passage(file).to_string(),
                ActionKind::Ka {
                    from,
                    to,
                    directions,
                } => Move::ka(from, to, directions, false, 0).to_string(),
            },
        })
}

/// The ids of `position`'s legal moves, in the move generator's order.
pub fn legal_actions(position: &Position, rules: &Rules) -> Vec<usize> {
    legal_moves(position, rules)
        .iter()
        .filter_map(|&mv| encode(mv).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::notation::start_position;
    use crate::position::{Parts, Player};
    use crate::rules::{Centre, KaEntry, Pattern};
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn the_space_is_compact() {
        assert_eq!(TABLE.kinds.len(), ACTIONS);
        const { assert!(ACTIONS <= 12_000) };
        assert_eq!(ACTIONS, 7_291, "the documented count");
        for (id, kind) in TABLE.kinds.iter().enumerate() {
            let text = describe(id as i64).unwrap();
            match *kind {
                ActionKind::Passage(file) => assert_eq!(encode(Move::passage(file)), Ok(id)),
                ActionKind::Ka {
                    from,
                    to,
                    directions,
                } => assert_eq!(
                    encode(Move::ka(from, to, directions, true, 1)),
                    Ok(id),
                    "{text}"
                ),
            }
        }
        assert!(matches!(kind(-1), Err(ActionError::OutOfRange(-1))));
        assert!(kind(ACTIONS as i64).is_err());
    }

    /// Random games under every rule set: each legal move has an id, no
    /// two share one, and decoding gives the move back.
    #[test]
    fn legal_moves_have_distinct_ids_that_decode() {
        let mut rng = SmallRng::seed_from_u64(57);
        for rules in Rules::all() {
            for _ in 0..4 {
                let mut position = start_position(rules.pattern);
                loop {
                    let moves = legal_moves(&position, &rules);
                    if moves.is_empty() || !position.has_stones() {
                        break;
                    }
                    let mut ids: Vec<usize> = moves.iter().map(|&m| encode(m).unwrap()).collect();
                    for (&mv, &id) in moves.iter().zip(&ids) {
                        assert_eq!(decode(id as i64, &position, &rules), Ok(mv));
                        assert_eq!(describe(id as i64).unwrap(), mv.to_string());
                    }
                    ids.sort_unstable();
                    ids.dedup();
                    assert_eq!(ids.len(), moves.len());
                    position = position.play(moves[rng.random_range(0..moves.len())]);
                }
            }
        }
    }

    fn square(rank: usize, file: usize) -> Square {
        Square::new(rank, file).unwrap()
    }

    /// The points from `to` towards `flag`, nearest first, the hole left
    /// out (it is passed over under the open centre).
    fn ray(to: Square, flag: u8) -> Vec<Square> {
        let (dr, df): (isize, isize) = match flag {
            direction::NORTH => (1, 0),
            direction::SOUTH => (-1, 0),
            direction::EAST => (0, 1),
            _ => (0, -1),
        };
        let mut points = Vec::new();
        let (mut r, mut f) = (to.rank() as isize + dr, to.file() as isize + df);
        while (0..SIZE as isize).contains(&r) && (0..SIZE as isize).contains(&f) {
            let point = square(r as usize, f as usize);
            if point != Square::HOLE {
                points.push(point);
            }
            r += dr;
            f += df;
        }
        points
    }

    /// Whether some position with a few stones around the landing point
    /// makes `action` legal (under the open centre or the wall, both ka
    /// entries allowed).
    fn shown_legal(action: usize) -> bool {
        let ActionKind::Ka {
            from,
            to,
            directions,
        } = TABLE.kinds[action]
        else {
            return true;
        };
        let same_rank = from.rank() == to.rank();
        let near = same_rank && from.file().abs_diff(to.file()) <= 2 && to.rank() != SIZE / 2;
        let entry_only = same_rank && directions & (direction::EAST | direction::WEST) != 0;
        let flags: Vec<u8> = [
            direction::NORTH,
            direction::SOUTH,
            direction::EAST,
            direction::WEST,
        ]
        .into_iter()
        .filter(|&flag| directions & flag != 0)
        .collect();
        let jumped = (same_rank && from.file().abs_diff(to.file()) == 2)
            .then(|| square(to.rank(), (from.file() + to.file()) / 2));
        // Counts of white stones per direction named (1 or 2 each), and for
        // an entry the jumped stone white or black.
        for counts in [[1, 1], [1, 2], [2, 1], [2, 2]] {
            let mut white = Bitboard::from_bits(0);
            for (index, &flag) in flags.iter().enumerate() {
                let free = ray(to, flag)
                    .into_iter()
                    .filter(|&p| p != from && Some(p) != jumped);
                for point in free.take(counts[index]) {
                    white |= point.bitboard();
                }
            }
            let none = Bitboard::from_bits(0);
            if !entry_only && ka_move_legal(action, from, to, white, none) {
                return true;
            }
            if !near {
                continue;
            }
            for jumped_black in [false, true] {
                let (mut entry_white, mut entry_black) = (white | from.bitboard(), none);
                if let Some(point) = jumped {
                    if jumped_black {
                        entry_black |= point.bitboard();
                    } else {
                        entry_white |= point.bitboard();
                    }
                }
                if entry_legal(action, to, entry_white, entry_black) {
                    return true;
                }
            }
        }
        false
    }

    fn legal_under_some_rules(action: usize, parts: Parts) -> bool {
        let Ok(position) = Position::try_from(parts) else {
            return false;
        };
        [Centre::Wall, Centre::Open].into_iter().any(|centre| {
            let rules = Rules {
                centre,
                ka_entry: KaEntry::Both,
                ..Rules::default()
            };
            decode(action as i64, &position, &rules).is_ok()
        })
    }

    /// Phase 3, South to move with its ka on `from`; North's ka on the
    /// first point off every line involved.
    fn ka_move_legal(
        action: usize,
        from: Square,
        to: Square,
        white: Bitboard,
        black: Bitboard,
    ) -> bool {
        let other = Square::all().find(|p| {
            *p != Square::HOLE
                && p.rank() != from.rank()
                && p.file() != from.file()
                && p.rank() != to.rank()
                && p.file() != to.file()
        });
        legal_under_some_rules(
            action,
            Parts {
                stones: [white, black],
                ka: [Some(from), other],
                passage: [Some(0), Some(10)],
                scores: [0, 0],
                side: Player::South,
            },
        )
    }

    /// Phase 2: the owner of the landing point's half to move, with its
    /// passage on the landing file and the stone on `from`.
    fn entry_legal(action: usize, to: Square, white: Bitboard, black: Bitboard) -> bool {
        let south = to.rank() < SIZE / 2;
        let mover = if south { Player::South } else { Player::North };
        let other_file = if to.file() == 0 { 10 } else { 0 };
        let (passage, ka) = if south {
            ([Some(to.file()), Some(other_file)], [None, None])
        } else {
            (
                [Some(other_file), Some(to.file())],
                [Some(square(0, other_file)), None],
            )
        };
        legal_under_some_rules(
            action,
            Parts {
                stones: [white, black],
                ka,
                passage,
                scores: [0, 0],
                side: mover,
            },
        )
    }

    /// Every id is the legal move of some position: none is wasted.
    #[test]
    fn every_id_can_be_legal() {
        let never: Vec<String> = (PASSAGES..ACTIONS)
            .filter(|&action| !shown_legal(action))
            .map(|action| describe(action as i64).unwrap())
            .collect();
        assert!(
            never.is_empty(),
            "{} ids never legal: {never:?}",
            never.len()
        );
    }

    #[test]
    fn bad_ids_and_moves_are_refused() {
        let position = start_position(Pattern::One);
        let rules = Rules::default();
        assert!(decode(ACTIONS as i64, &position, &rules).is_err());
        let ka = encode(Move::ka(
            square(3, 1),
            square(3, 2),
            direction::NORTH,
            false,
            1,
        ))
        .unwrap();
        assert_eq!(
            decode(ka as i64, &position, &rules)
                .unwrap_err()
                .to_string(),
            format!("action {ka} (b4c4n) is not legal in this position")
        );
        // Along a file, capturing along the file: never legal.
        let never = Move::ka(square(3, 1), square(5, 1), direction::NORTH, false, 1);
        assert_eq!(encode(never), Err(ActionError::NeverLegal("b4b6n".into())));
    }
}
