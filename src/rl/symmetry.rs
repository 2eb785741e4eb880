//! The board's symmetries, as maps on positions, action ids and the
//! planes of [`super::planes`].
//!
//! The rules do not change when the board is mirrored left to right
//! (files a and k swap, the hole stays): [`Symmetry::Mirror`] maps every
//! position to one with the same value. Turning the board a half-turn and
//! swapping the players' roles ([`Symmetry::HalfTurn`]) maps a position
//! to the one the other player sees; it is a symmetry of the positions
//! where both kas are on the board (before, South's moving first tells
//! the two apart). [`Symmetry::Flip`] is the two together (ranks
//! reflected, players swapped). The planes, seen by the side to move,
//! are the same for a position and its half-turn but for plane 13 (South
//! to move); the action ids are absolute, so a policy over the view's
//! points maps North's ids through [`Symmetry::HalfTurn`].

use std::sync::LazyLock;

use crate::bitboard::{Bitboard, SIZE, Square};
use crate::moves::{Move, direction};
use crate::position::{Parts, PartsError, Player, Position};

use super::action::{ACTIONS, ActionKind, encode, kind};
use super::planes::{LEN, PLANES, POINTS};

/// One symmetry of the board.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Symmetry {
    /// Nothing moves.
    Identity,
    /// Files reflected (a and k swap).
    Mirror,
    /// A half-turn about the hole, the players' roles swapped.
    HalfTurn,
    /// Ranks reflected, the players' roles swapped.
    Flip,
}

impl Symmetry {
    /// All four.
    pub const ALL: [Symmetry; 4] = [
        Symmetry::Identity,
        Symmetry::Mirror,
        Symmetry::HalfTurn,
        Symmetry::Flip,
    ];

    const fn reflects_files(self) -> bool {
        matches!(self, Symmetry::Mirror | Symmetry::HalfTurn)
    }

    /// Whether South and North trade places.
    pub const fn swaps_players(self) -> bool {
        matches!(self, Symmetry::HalfTurn | Symmetry::Flip)
    }

    /// The image of a point.
    pub fn square(self, square: Square) -> Square {
        let file = if self.reflects_files() {
            SIZE - 1 - square.file()
        } else {
            square.file()
        };
        let rank = if self.swaps_players() {
            SIZE - 1 - square.rank()
        } else {
            square.rank()
        };
        Square::new(rank, file).expect("a point's image is a point")
    }

    /// The image of a set of capture directions.
    pub const fn directions(self, directions: u8) -> u8 {
        let mut set = directions;
        if self.reflects_files() {
            set = swap(set, direction::EAST, direction::WEST);
        }
        if self.swaps_players() {
            set = swap(set, direction::NORTH, direction::SOUTH);
        }
        set
    }

    /// The image of an action id (a permutation of `0..ACTIONS`; an id
    /// out of range maps to itself).
    pub fn action(self, action: usize) -> usize {
        TABLES[self as usize]
            .get(action)
            .map_or(action, |&id| usize::from(id))
    }

    fn computed_action(self, action: usize) -> usize {
        match kind(action as i64).expect("an id in range") {
            ActionKind::Passage(file) => {
                if self.reflects_files() {
                    SIZE - 1 - file
                } else {
                    file
                }
            }
            ActionKind::Ka {
                from,
                to,
                directions,
            } => encode(Move::ka(
                self.square(from),
                self.square(to),
                self.directions(directions),
                false,
                0,
            ))
            .expect("the ids' rules are symmetric"),
        }
    }

    /// The image of a position, or why it is none that a game reaches
    /// (a half-turn before both kas are entered).
    pub fn position(self, position: &Position) -> Result<Position, PartsError> {
        let parts = position.parts();
        let map_set = |set: Bitboard| {
            set.into_iter().fold(Bitboard::from_bits(0), |out, square| {
                out | self.square(square).bitboard()
            })
        };
        let map_file = |file: usize| {
            if self.reflects_files() {
                SIZE - 1 - file
            } else {
                file
            }
        };
        let mut ka = parts.ka.map(|ka| ka.map(|square| self.square(square)));
        let mut passage = parts.passage.map(|passage| passage.map(map_file));
        let mut scores = parts.scores;
        let mut side = parts.side;
        if self.swaps_players() {
            ka.swap(0, 1);
            passage.swap(0, 1);
            scores.swap(0, 1);
            side = side.opponent();
        }
        Position::try_from(Parts {
            stones: parts.stones.map(map_set),
            ka,
            passage,
            scores,
            side,
        })
    }

    /// The image of one observation's planes (the planes of the image of
    /// the position they show): `planes` and `out` are [`LEN`] bytes.
    ///
    /// # Panics
    ///
    /// When a buffer is not [`LEN`] bytes long.
    pub fn planes(self, planes: &[u8], out: &mut [u8]) {
        assert!(
            planes.len() == LEN && out.len() == LEN,
            "an observation is {LEN} bytes"
        );
        // The view turns with the side to move, so only the mirror moves
        // points in it; a swap of players turns "South to move" over.
        let mirrored = matches!(self, Symmetry::Mirror | Symmetry::Flip);
        for plane in 0..PLANES {
            for row in 0..SIZE {
                let at = plane * POINTS + row * SIZE;
                let (from, to) = (&planes[at..at + SIZE], &mut out[at..at + SIZE]);
                to.copy_from_slice(from);
                if mirrored {
                    to.reverse();
                }
            }
        }
        if self.swaps_players() {
            for byte in &mut out[13 * POINTS..14 * POINTS] {
                *byte ^= 1;
            }
        }
    }

    /// The player who stands where `player` stood.
    pub const fn player(self, player: Player) -> Player {
        if self.swaps_players() {
            player.opponent()
        } else {
            player
        }
    }
}

/// `set` with flags `a` and `b` traded.
const fn swap(set: u8, a: u8, b: u8) -> u8 {
    let mut out = set & !(a | b);
    if set & a != 0 {
        out |= b;
    }
    if set & b != 0 {
        out |= a;
    }
    out
}

/// The action maps, by symmetry.
static TABLES: LazyLock<[Vec<u16>; 4]> = LazyLock::new(|| {
    Symmetry::ALL.map(|symmetry| {
        (0..ACTIONS)
            .map(|action| symmetry.computed_action(action) as u16)
            .collect()
    })
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use crate::notation::start_position;
    use crate::outcome::Status;
    use crate::position::Phase;
    use crate::rl::action::legal_actions;
    use crate::rl::planes::planes;
    use crate::rules::Rules;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn each_map_on_ids_is_a_permutation_and_its_own_inverse() {
        for symmetry in Symmetry::ALL {
            let mut seen = vec![false; ACTIONS];
            for action in 0..ACTIONS {
                let image = symmetry.action(action);
                assert!(!seen[image]);
                seen[image] = true;
                assert_eq!(symmetry.action(image), action);
            }
        }
        assert_eq!(Symmetry::Mirror.action(0), 10);
    }

    fn sorted(mut ids: Vec<usize>) -> Vec<usize> {
        ids.sort_unstable();
        ids
    }

    /// Seeded random games under every rule set: at each position, each
    /// symmetry that applies maps the legal ids onto the image's legal ids
    /// and the planes onto the image's planes; the game replayed through
    /// it ends with the mapped result.
    #[test]
    fn symmetries_map_legal_moves_to_legal_moves_and_keep_the_result() {
        let mut rng = SmallRng::seed_from_u64(57);
        let mut half_turns = 0;
        for rules in Rules::all() {
            for _ in 0..3 {
                let mut position = start_position(rules.pattern);
                let mut images: Vec<Option<Position>> = Symmetry::ALL
                    .iter()
                    .map(|symmetry| symmetry.position(&position).ok())
                    .collect();
                loop {
                    for (index, symmetry) in Symmetry::ALL.into_iter().enumerate() {
                        if images[index].is_none() && position.phase() == Phase::KaMove {
                            // A half-turn applies once both kas are in.
                            images[index] = symmetry.position(&position).ok();
                        }
                        let Some(image) = images[index] else { continue };
                        assert_eq!(symmetry.position(&position).unwrap(), image);
                        let mapped: Vec<usize> = legal_actions(&position, &rules)
                            .into_iter()
                            .map(|id| symmetry.action(id))
                            .collect();
                        assert_eq!(sorted(mapped), sorted(legal_actions(&image, &rules)));
                        let mut out = vec![0; LEN];
                        symmetry.planes(&planes(&position, &rules), &mut out);
                        assert_eq!(out, planes(&image, &rules), "{symmetry:?}");
                    }
                    let moves = legal_moves(&position, &rules);
                    let status = Status::of(&position, &rules);
                    if let Status::Over { winner, scores, .. } = status {
                        for (index, symmetry) in Symmetry::ALL.into_iter().enumerate() {
                            let Some(image) = images[index] else { continue };
                            half_turns += usize::from(symmetry == Symmetry::HalfTurn);
                            let Status::Over {
                                winner: image_winner,
                                scores: image_scores,
                                ..
                            } = Status::of(&image, &rules)
                            else {
                                panic!("{symmetry:?}: the image's game is not over");
                            };
                            assert_eq!(image_winner, winner.map(|w| symmetry.player(w)));
                            let mut expected = scores;
                            if symmetry.swaps_players() {
                                expected.swap(0, 1);
                            }
                            assert_eq!(image_scores, expected);
                        }
                        break;
                    }
                    let mv = moves[rng.random_range(0..moves.len())];
                    let id = crate::rl::action::encode(mv).unwrap();
                    for (index, symmetry) in Symmetry::ALL.into_iter().enumerate() {
                        if let Some(image) = images[index] {
                            let image_move = crate::rl::action::decode(
                                symmetry.action(id) as i64,
                                &image,
                                &rules,
                            )
                            .unwrap();
                            images[index] = Some(image.play(image_move));
                        }
                    }
                    position = position.play(mv);
                }
            }
        }
        assert!(half_turns > 0);
    }
}
