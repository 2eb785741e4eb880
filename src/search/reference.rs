//! Reference players for measuring strength: a 1-ply greedy player (takes
//! the biggest capture) and a 3-ply alpha-beta on the point margin alone.
//! They are what the engine's strength targets are stated against.

use std::fmt;
use std::str::FromStr;

use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;

/// Which player answers `go`.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub enum Reference {
    /// The engine's own search.
    #[default]
    Off,
    /// The move that captures the most points (first in move order on ties).
    Greedy,
    /// Alpha-beta to 3 plies, scoring the point margin and exact game ends.
    Margin3,
}

impl Reference {
    /// The option's values.
    pub const NAMES: &'static [&'static str] = &["off", "greedy", "margin3"];
}

/// A `Reference Player` value that names no reference player.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error(
    "option 'Reference Player' value '{given}' is not {}",
    crate::rules::one_of(Reference::NAMES)
)]
pub struct ReferenceError {
    /// The value given, trimmed and in lower case.
    pub given: String,
}

impl FromStr for Reference {
    type Err = ReferenceError;
    fn from_str(text: &str) -> Result<Reference, ReferenceError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "off" => Ok(Reference::Off),
            "greedy" => Ok(Reference::Greedy),
            "margin3" => Ok(Reference::Margin3),
            other => Err(ReferenceError {
                given: other.to_string(),
            }),
        }
    }
}

impl fmt::Display for Reference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Reference::NAMES[*self as usize])
    }
}

/// The chosen move, its score (centipoints for the side to move) and the
/// nodes visited; `None` without a legal move.
pub fn choose(
    reference: Reference,
    position: &Position,
    rules: &Rules,
) -> Option<(Move, i32, u64)> {
    let moves = legal_moves(position, rules);
    let side = position.side_to_move();
    let margin_after = |child: &Position| 100 * child.margin(side);
    match reference {
        Reference::Off => None,
        Reference::Greedy => moves
            .iter()
            .map(|&mv| (mv, margin_after(&position.play(mv))))
            .fold(None, |best: Option<(Move, i32)>, (mv, score)| match best {
                Some((_, best_score)) if best_score >= score => best,
                _ => Some((mv, score)),
            })
            .map(|(mv, score)| (mv, score, moves.len() as u64)),
        Reference::Margin3 => {
            let mut nodes = 0;
            let mut best: Option<(Move, i32)> = None;
            let mut alpha = -INFINITE;
            for &mv in moves.iter() {
                let score =
                    -alpha_beta(&position.play(mv), rules, 2, -INFINITE, -alpha, &mut nodes);
                if best.is_none_or(|(_, best_score)| score > best_score) {
                    best = Some((mv, score));
                    alpha = alpha.max(score);
                }
            }
            best.map(|(mv, score)| (mv, score, nodes))
        }
    }
}

const INFINITE: i32 = 1_000_000;
const WIN: i32 = 100_000;

fn alpha_beta(
    position: &Position,
    rules: &Rules,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    let side = position.side_to_move();
    let margin = position.margin(side);
    if !position.has_stones() {
        return WIN * margin.signum();
    }
    let moves = legal_moves(position, rules);
    if moves.is_empty() {
        return -WIN;
    }
    if depth == 0 {
        return 100 * margin;
    }
    let mut best = -INFINITE;
    for &mv in moves.iter() {
        let score = -alpha_beta(&position.play(mv), rules, depth - 1, -beta, -alpha, nodes);
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;

    #[test]
    fn greedy_takes_the_biggest_capture() {
        let rules = Rules::default();
        let start = parse_position(&rules.pattern.start_position_string()).unwrap();
        let (mv, score, _) = choose(Reference::Greedy, &start, &rules).unwrap();
        // Files a and k... every South file: the best takes the most points.
        let best = legal_moves(&start, &rules)
            .iter()
            .map(|&m| start.play(m).score(crate::position::Player::South))
            .max()
            .unwrap();
        assert_eq!(start.play(mv).score(crate::position::Player::South), best);
        assert_eq!(score, 100 * best as i32);
        assert!(choose(Reference::Margin3, &start, &rules).is_some());
        assert_eq!("MARGIN3".parse::<Reference>(), Ok(Reference::Margin3));
    }
}
