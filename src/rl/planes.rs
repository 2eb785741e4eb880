//! The position as AlphaZero-style planes of 11 x 11 bytes, seen by the
//! side to move: row 0 is the mover's own edge (rank 1 for South, rank 11
//! for North) and column 0 its left (file a for South, file k for North),
//! so North sees the board turned as South does. Planes are stored
//! plane-major, then row, then column.
//!
//! | plane | what                                   | values |
//! |-------|----------------------------------------|--------|
//! | 0     | white stones                           | 0/1    |
//! | 1     | black stones                           | 0/1    |
//! | 2     | the mover's ka                         | 0/1    |
//! | 3     | the opponent's ka                      | 0/1    |
//! | 4     | the mover's passage (its five points)  | 0/1    |
//! | 5     | the opponent's passage                 | 0/1    |
//! | 6     | points of play (all but the hole)      | 0/1    |
//! | 7     | the mover's score, on every point      | 0-180  |
//! | 8     | the opponent's score, on every point   | 0-180  |
//! | 9-11  | the mover's phase: 1, 2, 3 (one-hot)   | 0/1    |
//! | 12    | stones left on the board, on every point | 0-120 |
//! | 13    | South to move (ones), North (zeros)    | 0/1    |
//! | 14    | rule Pattern 2                         | 0/1    |
//! | 15    | rule Ka Entry lets a stone slide (slide, both) | 0/1 |
//! | 16    | rule Ka Entry lets a stone jump (jump, both)   | 0/1 |
//! | 17    | rule Second Column any                 | 0/1    |
//! | 18    | rule Centre open                       | 0/1    |
//!
//! Every plane follows from the position alone, so a board made from a
//! position string, by a symmetry or by play gives the same planes. Plane
//! 12 was the ply once; the position string does not hold it, so it is the
//! stones left instead (the game's progress, which every board has).

use crate::bitboard::{SIZE, Square};
use crate::position::{Colour, Player, Position};
use crate::rules::{Centre, KaEntry, Pattern, Rules, SecondColumn};

/// Points of one plane.
pub const POINTS: usize = SIZE * SIZE;
/// The number of planes.
pub const PLANES: usize = 19;
/// Bytes of one observation.
pub const LEN: usize = PLANES * POINTS;

/// The planes' names, in order (docs and the Python module show them).
pub const NAMES: [&str; PLANES] = [
    "white stones",
    "black stones",
    "own ka",
    "opponent ka",
    "own passage",
    "opponent passage",
    "points of play",
    "own score",
    "opponent score",
    "phase 1",
    "phase 2",
    "phase 3",
    "stones left",
    "south to move",
    "pattern 2",
    "ka entry slide",
    "ka entry jump",
    "second column any",
    "centre open",
];

/// Where `square` lies in the planes of `side`'s view: row * 11 + column.
#[inline(always)]
pub fn view_index(square: Square, side: Player) -> usize {
    match side {
        Player::South => square.index(),
        Player::North => POINTS - 1 - square.index(),
    }
}

/// Writes the planes of `position` under `rules` into `out`, which holds
/// [`LEN`] bytes.
///
/// # Panics
///
/// When `out` is not [`LEN`] bytes long (a caller's bug).
pub fn write(position: &Position, rules: &Rules, out: &mut [u8]) {
    write_seen_by(position, rules, position.side_to_move(), out);
}

/// [`write`] seen by `viewer` (who may be the player not to move, as
/// PettingZoo's `observe` asks): the view, "own" and the phase are
/// `viewer`'s; plane 13 still says who is to move.
///
/// # Panics
///
/// When `out` is not [`LEN`] bytes long (a caller's bug).
pub fn write_seen_by(position: &Position, rules: &Rules, viewer: Player, out: &mut [u8]) {
    assert_eq!(out.len(), LEN, "an observation is {LEN} bytes");
    let side = viewer;
    let other = side.opponent();
    out[..6 * POINTS].fill(0);
    for (plane, colour) in [(0, Colour::White), (1, Colour::Black)] {
        for square in position.stones(colour) {
            out[plane * POINTS + view_index(square, side)] = 1;
        }
    }
    for (plane, player) in [(2, side), (3, other)] {
        if let Some(square) = position.ka(player) {
            out[plane * POINTS + view_index(square, side)] = 1;
        }
    }
    for (plane, player) in [(4, side), (5, other)] {
        if let Some(file) = position.passage(player) {
            for rank in player.half_ranks() {
                let square = Square::new(rank, file).expect("a passage lies on the board");
                out[plane * POINTS + view_index(square, side)] = 1;
            }
        }
    }
    let constant = |plane: usize, value: u8, out: &mut [u8]| {
        out[plane * POINTS..(plane + 1) * POINTS].fill(value);
    };
    constant(6, 1, out);
    out[6 * POINTS + view_index(Square::HOLE, side)] = 0;
    constant(7, position.score(side).min(255) as u8, out);
    constant(8, position.score(other).min(255) as u8, out);
    let phase = match (position.passage(side), position.ka(side)) {
        (None, _) => 1,
        (Some(_), None) => 2,
        (Some(_), Some(_)) => 3,
    };
    for number in 1..=3 {
        constant(8 + number, u8::from(number == phase), out);
    }
    constant(12, position.stone_count() as u8, out);
    constant(13, u8::from(position.side_to_move() == Player::South), out);
    constant(14, u8::from(rules.pattern == Pattern::Two), out);
    constant(15, u8::from(rules.ka_entry != KaEntry::Jump), out);
    constant(16, u8::from(rules.ka_entry != KaEntry::Slide), out);
    constant(17, u8::from(rules.second_column == SecondColumn::Any), out);
    constant(18, u8::from(rules.centre == Centre::Open), out);
}

/// The planes of `position` seen by `viewer`, as a new buffer (see
/// [`write_seen_by`]).
pub fn planes_seen_by(position: &Position, rules: &Rules, viewer: Player) -> Vec<u8> {
    let mut out = vec![0; LEN];
    write_seen_by(position, rules, viewer, &mut out);
    out
}

/// The planes of `position` as a new buffer (see [`write`]).
pub fn planes(position: &Position, rules: &Rules) -> Vec<u8> {
    let mut out = vec![0; LEN];
    write(position, rules, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::start_position;

    fn at(planes: &[u8], plane: usize, row: usize, column: usize) -> u8 {
        planes[plane * POINTS + row * SIZE + column]
    }

    #[test]
    fn planes_are_seen_by_the_side_to_move() {
        let rules = Rules {
            ka_entry: KaEntry::Both,
            centre: Centre::Open,
            ..Rules::default()
        };
        let mut position = start_position(Pattern::One);
        let start = planes(&position, &rules);
        assert_eq!(
            start[..POINTS].iter().map(|&b| u32::from(b)).sum::<u32>(),
            60
        );
        assert_eq!(at(&start, 0, 0, 0), 1); // a1 white
        assert_eq!(at(&start, 1, 0, 1), 1); // b1 black
        assert_eq!(at(&start, 6, 5, 5), 0); // the hole
        assert_eq!(at(&start, 9, 3, 3), 1); // phase 1
        assert_eq!(at(&start, 13, 0, 0), 1);
        assert_eq!((at(&start, 15, 0, 0), at(&start, 16, 0, 0)), (1, 1));
        assert_eq!((at(&start, 17, 0, 0), at(&start, 18, 0, 0)), (0, 1));
        for text in ["c", "j", "b4c4n"] {
            let mv = crate::notation::parse_move(&position, &rules, text).unwrap();
            position = position.play(mv);
        }
        // North to move: its view is the board turned, so its passage on
        // file j (ranks 7-11) is column 1 (k = 0), rows 0-4.
        let north = planes(&position, &rules);
        for row in 0..5 {
            assert_eq!(at(&north, 4, row, 1), 1);
            // South's passage c1-c5: rows 10-6, column 8 in North's view.
            assert_eq!(at(&north, 5, 10 - row, 8), 1);
        }
        // South's ka on c4: row 7, column 8.
        assert_eq!(at(&north, 3, 7, 8), 1);
        assert_eq!(north[2 * POINTS..3 * POINTS].iter().sum::<u8>(), 0);
        assert_eq!(at(&north, 10, 0, 0), 1); // North enters next: phase 2
        assert_eq!(at(&north, 13, 0, 0), 0);
        // 120 stones less 10 taken by the passages, 1 entered as a ka and
        // 3 it captured.
        assert_eq!(at(&north, 12, 4, 4), 106);
        assert_eq!(at(&start, 12, 0, 0), 120);
        assert_eq!(at(&north, 8, 0, 0) as u32, position.score(Player::South));
        // The same position seen by South, not to move: South's own view.
        let south = planes_seen_by(&position, &rules, Player::South);
        assert_eq!(at(&south, 2, 3, 2), 1); // its ka on c4
        assert_eq!(at(&south, 11, 0, 0), 1); // its phase: 3
        assert_eq!(at(&south, 13, 0, 0), 0); // North to move
        assert_eq!(at(&north, 7, 0, 0) as u32, position.score(Player::North));
        // A white stone of South's view at (r, f) is at (10-r, 10-f) in
        // North's.
        let south_view = planes(
            &position.play(crate::movegen::legal_moves(&position, &rules)[0]),
            &rules,
        );
        assert_eq!(south_view[13 * POINTS], 1);
    }
}
