//! Position strings and move notation: parsing with errors that name the
//! fault, and the canonical printed forms.

use crate::bitboard::{Bitboard, SIZE, Square};
use crate::movegen::legal_moves;
use crate::moves::{Move, direction};
use crate::position::{Parts, PartsError, Player, Position};
use crate::rules::{Pattern, Rules};

/// What is wrong with a position string or layout.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum PositionError {
    /// Not five space-separated fields.
    #[error(
        "position string has {0} {field}; expected 5: <ranks> <side> <south score> <north score> <passages>",
        field = if *.0 == 1 { "field" } else { "fields" }
    )]
    FieldCount(usize),
    /// Not 11 ranks separated by `/`.
    #[error("board has {0} {rank}; expected 11 separated by '/'", rank = if *.0 == 1 { "rank" } else { "ranks" })]
    RankCount(usize),
    /// A rank (1-11) that is not 11 characters long.
    #[error("rank {rank} has {length} points; expected 11")]
    RankLength { rank: usize, length: usize },
    /// A character that is not `w b . S N +`.
    #[error("invalid character '{}' at {square}; expected one of w b . S N +", character.escape_debug())]
    BadCharacter { square: Square, character: char },
    /// Something other than `+` on f6, the hole.
    #[error("hole: f6 must be '+', found '{found}'")]
    HoleFilled { found: char },
    /// A `+` on a point that is not the hole.
    #[error("hole: '+' at {0}; the hole is at f6 only")]
    HoleElsewhere(Square),
    /// More than one ka for a player.
    #[error("more than one '{0}' ka on the board")]
    TwoKas(char),
    /// Side field not `s` or `n`.
    #[error("side to move '{}' is not 's' or 'n'", .0.escape_debug())]
    Side(String),
    /// A score that is not an integer from 0 to 180.
    #[error("{player} score '{}' is not an integer from 0 to 180", text.escape_debug())]
    Score { player: Player, text: String },
    /// Passage field malformed.
    #[error("passages '{}' must be two characters, each a file a-k or '-'", .0.escape_debug())]
    Passages(String),
    /// Well-formed fields that make no position of a game (a phase that
    /// cannot occur, too many points, a start layout that is not one).
    #[error(transparent)]
    Parts(#[from] PartsError),
}

/// Parses a position string (see the protocol documentation).
pub fn parse_position(text: &str) -> Result<Position, PositionError> {
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    if fields.len() != 5 {
        return Err(PositionError::FieldCount(fields.len()));
    }
    let (stones, ka) = parse_board(fields[0])?;
    let side = match fields[1] {
        "s" => Player::South,
        "n" => Player::North,
        other => return Err(PositionError::Side(shorten(other))),
    };
    let mut scores = [0u16; 2];
    for (index, player) in [Player::South, Player::North].into_iter().enumerate() {
        let text = fields[2 + index];
        scores[index] = text
            .parse::<u16>()
            .ok()
            .filter(|score| *score <= 180 && text.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| PositionError::Score {
                player,
                text: shorten(text),
            })?;
    }
    let passage = parse_passages(fields[4])?;
    Ok(Position::try_from(Parts {
        stones,
        ka,
        passage,
        scores,
        side,
    })?)
}

/// A piece of input as an error message quotes it: at most 60 characters
/// (then `...`), control characters shown as `?`, so a huge or binary
/// line cannot flood or garble the output.
pub(crate) fn shorten(text: &str) -> String {
    const LIMIT: usize = 60;
    let printable = |part: &str| -> String {
        part.chars()
            .map(|c| if c.is_control() { '?' } else { c })
            .collect()
    };
    match text.char_indices().nth(LIMIT) {
        Some((cut, _)) => format!("{}...", printable(&text[..cut])),
        None => printable(text),
    }
}

type Board = ([Bitboard; 2], [Option<Square>; 2]);

fn parse_board(text: &str) -> Result<Board, PositionError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != SIZE {
        return Err(PositionError::RankCount(ranks.len()));
    }
    let mut stones = [Bitboard::EMPTY; 2];
    let mut ka = [None; 2];
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = SIZE - 1 - row;
        let length = rank_text.chars().count();
        if length != SIZE {
            return Err(PositionError::RankLength {
                rank: rank + 1,
                length,
            });
        }
        for (file, character) in rank_text.chars().enumerate() {
            let square = Square::new(rank, file).expect("11 x 11 checked above");
            let is_hole = square == Square::HOLE;
            match character {
                '+' if is_hole => {}
                '+' => {
                    return Err(PositionError::HoleElsewhere(square));
                }
                _ if is_hole && "wb.SN".contains(character) => {
                    return Err(PositionError::HoleFilled { found: character });
                }
                'w' => stones[0] |= square.bitboard(),
                'b' => stones[1] |= square.bitboard(),
                '.' => {}
                'S' | 'N' => {
                    let player = usize::from(character == 'N');
                    if ka[player].is_some() {
                        return Err(PositionError::TwoKas(character));
                    }
                    ka[player] = Some(square);
                }
                other => {
                    return Err(PositionError::BadCharacter {
                        square,
                        character: other,
                    });
                }
            }
        }
    }
    Ok((stones, ka))
}

fn parse_passages(text: &str) -> Result<[Option<usize>; 2], PositionError> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 {
        return Err(PositionError::Passages(shorten(text)));
    }
    let mut passage = [None; 2];
    for (index, byte) in bytes.iter().enumerate() {
        passage[index] = match byte {
            b'-' => None,
            b'a'..=b'k' => Some((byte - b'a') as usize),
            _ => return Err(PositionError::Passages(shorten(text))),
        };
    }
    Ok(passage)
}

/// The position string of `position`.
pub fn format_position(position: &Position) -> String {
    let mut text = String::with_capacity(140);
    for rank in (0..SIZE).rev() {
        for file in 0..SIZE {
            let square = Square::new(rank, file).expect("on the board");
            text.push(board_char(position, square));
        }
        if rank > 0 {
            text.push('/');
        }
    }
    let side = match position.side_to_move() {
        Player::South => 's',
        Player::North => 'n',
    };
    let passage = |player| {
        position
            .passage(player)
            .map_or('-', |f| (b'a' + f as u8) as char)
    };
    format!(
        "{text} {side} {} {} {}{}",
        position.score(Player::South),
        position.score(Player::North),
        passage(Player::South),
        passage(Player::North)
    )
}

/// The position-string character of one point.
pub(crate) fn board_char(position: &Position, square: Square) -> char {
    if square == Square::HOLE {
        '+'
    } else if position.ka(Player::South) == Some(square) {
        'S'
    } else if position.ka(Player::North) == Some(square) {
        'N'
    } else {
        match position.stone_at(square) {
            Some(crate::position::Colour::White) => 'w',
            Some(crate::position::Colour::Black) => 'b',
            None => '.',
        }
    }
}

/// What is wrong with a move.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in the notation.
    #[error("malformed move '{}': {reason}", text.escape_debug())]
    Malformed { text: String, reason: &'static str },
    /// Well-formed but not legal in this position.
    #[error("illegal move '{}': {reason}", text.escape_debug())]
    Illegal { text: String, reason: String },
}

/// A move of a list that does not parse, or is illegal where the list
/// reaches it.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("move {number} of the list: {error}")]
pub struct ListMoveError {
    /// Which move of the list, from 1.
    pub number: usize,
    /// What is wrong with it.
    #[source]
    pub error: MoveError,
}

/// The start position of a built-in pattern.
pub fn start_position(pattern: Pattern) -> Position {
    parse_position(&pattern.start_position_string()).expect("built-in layouts are valid")
}

/// Plays the move texts `moves` from `position` under `rules`, checking
/// each, and gives `each` every move played: the position reached, or the
/// first bad move. The one account of "a base and a move list" that the
/// protocol, the command line, match records and opening books share.
pub fn play_moves<S: AsRef<str>>(
    mut position: Position,
    rules: &Rules,
    moves: &[S],
    mut each: impl FnMut(Move),
) -> Result<Position, ListMoveError> {
    for (index, text) in moves.iter().enumerate() {
        let mv = parse_move(&position, rules, text.as_ref()).map_err(|error| ListMoveError {
            number: index + 1,
            error,
        })?;
        each(mv);
        position = position.play(mv);
    }
    Ok(position)
}

/// The syntax of a move, before it is matched against the legal moves.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(crate) enum Syntax {
    Passage(usize),
    Ka {
        from: Square,
        to: Square,
        directions: Option<u8>,
    },
}

fn parse_square(bytes: &[u8]) -> Option<(Square, usize)> {
    let file = bytes.first()?.checked_sub(b'a').filter(|f| *f < 11)? as usize;
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 2 || bytes[1] == b'0' {
        return None;
    }
    let rank: usize = std::str::from_utf8(&bytes[1..1 + digits])
        .ok()?
        .parse()
        .ok()?;
    Some((Square::new(rank.checked_sub(1)?, file)?, 1 + digits))
}

pub(crate) fn parse_syntax(text: &str) -> Result<Syntax, &'static str> {
    let lower = text.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    if bytes.is_empty() {
        return Err("empty");
    }
    if bytes.len() == 1 {
        return match bytes[0] {
            b'a'..=b'k' => Ok(Syntax::Passage((bytes[0] - b'a') as usize)),
            _ => Err("a passage is one file letter a-k"),
        };
    }
    if bytes.len() > 10 {
        return Err("too long");
    }
    let (from, used) = parse_square(bytes).ok_or("origin is not a point a1-k11")?;
    let (to, used_to) =
        parse_square(&bytes[used..]).ok_or("landing point is not a point a1-k11")?;
    let rest = &bytes[used + used_to..];
    if rest.is_empty() {
        return Ok(Syntax::Ka {
            from,
            to,
            directions: None,
        });
    }
    let mut directions = 0;
    for byte in rest {
        let flag = match byte {
            b'n' => direction::NORTH,
            b's' => direction::SOUTH,
            b'e' => direction::EAST,
            b'w' => direction::WEST,
            _ => return Err("directions are letters n, s, e, w"),
        };
        if directions & flag != 0 {
            return Err("a direction is repeated");
        }
        directions |= flag;
    }
    Ok(Syntax::Ka {
        from,
        to,
        directions: Some(directions),
    })
}

/// The canonical text of a move written without a position: lower case,
/// directions in the order `n s e w` (`B4C4N` gives `b4c4n`, `c4c7we`
/// gives `c4c7ew`); directions left out stay out. Checks the syntax only:
/// whether the move is legal needs a position ([`parse_move`]).
pub fn canonical_move(text: &str) -> Result<String, MoveError> {
    let syntax = parse_syntax(text).map_err(|reason| MoveError::Malformed {
        text: shorten(text),
        reason,
    })?;
    Ok(match syntax {
        Syntax::Passage(file) => ((b'a' + file as u8) as char).to_string(),
        Syntax::Ka {
            from,
            to,
            directions: Some(directions),
        } => Move::ka(from, to, directions, false, 0).to_string(),
        Syntax::Ka { from, to, .. } => format!("{from}{to}"),
    })
}

/// Parses `text` as a legal move of `position`. Directions may be omitted
/// when exactly one legal move has that origin and landing point.
pub fn parse_move(position: &Position, rules: &Rules, text: &str) -> Result<Move, MoveError> {
    let shown = shorten(text);
    let syntax = parse_syntax(text).map_err(|reason| MoveError::Malformed {
        text: shown.clone(),
        reason,
    })?;
    let legal = legal_moves(position, rules);
    let illegal = |reason: String| MoveError::Illegal {
        text: shown.clone(),
        reason,
    };
    if legal.is_empty() {
        return Err(illegal("the game is over: no legal move".to_string()));
    }
    match syntax {
        Syntax::Passage(file) => legal
            .iter()
            .copied()
            .find(|mv| mv.is_passage() && mv.passage_file() == file)
            .ok_or_else(|| {
                illegal(if legal[0].is_passage() {
                    "that passage is not allowed here".to_string()
                } else {
                    "passages are taken only on a player's first move".to_string()
                })
            }),
        Syntax::Ka {
            from,
            to,
            directions,
        } => {
            let mut candidates = legal
                .iter()
                .copied()
                .filter(|mv| !mv.is_passage() && mv.from() == from && mv.to() == to);
            let first = candidates
                .clone()
                .next()
                .ok_or_else(|| illegal(format!("no legal move goes from {from} to {to}")))?;
            match directions {
                Some(directions) => candidates
                    .find(|mv| mv.directions() == directions)
                    .ok_or_else(|| {
                        illegal(format!("no capturable line in those directions from {to}"))
                    }),
                None if candidates.count() == 1 => Ok(first),
                None => Err(illegal(format!(
                    "ambiguous: several lines can be captured from {to}; add the directions"
                ))),
            }
        }
    }
}

/// A position shows as its position string (here rather than in
/// `position`, which knows nothing of notation).
impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&format_position(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Pattern;

    /// The counts in the refusals read as English: one field, two fields.
    #[test]
    fn counts_in_refusals_agree_with_their_nouns() {
        let one = parse_position("x").unwrap_err();
        assert_eq!(one, PositionError::FieldCount(1));
        assert!(
            one.to_string()
                .starts_with("position string has 1 field; expected 5"),
            "{one}"
        );
        let three = parse_position("x n 0").unwrap_err().to_string();
        assert!(
            three.starts_with("position string has 3 fields;"),
            "{three}"
        );
        let rank = parse_position("x n 0 0 -").unwrap_err().to_string();
        assert!(rank.starts_with("board has 1 rank;"), "{rank}");
    }

    #[test]
    fn start_positions_parse_and_print_back() {
        for pattern in [Pattern::One, Pattern::Two] {
            let text = pattern.start_position_string();
            let position = parse_position(&text).unwrap();
            assert_eq!(format_position(&position), text);
        }
    }

    /// The start position string with `character` on `square`.
    fn start_with(square: Square, character: char) -> String {
        let text = Pattern::One.start_position_string();
        let (board, rest) = text.split_once(' ').unwrap();
        let mut ranks: Vec<Vec<char>> = board.split('/').map(|r| r.chars().collect()).collect();
        ranks[SIZE - 1 - square.rank()][square.file()] = character;
        let ranks: Vec<String> = ranks.into_iter().map(String::from_iter).collect();
        format!("{} {rest}", ranks.join("/"))
    }

    #[test]
    fn hole_faults_name_what_is_there() {
        let k1 = Square::new(0, 10).unwrap();
        let filled = parse_position(&start_with(Square::HOLE, 'w')).unwrap_err();
        assert_eq!(filled, PositionError::HoleFilled { found: 'w' });
        assert_eq!(filled.to_string(), "hole: f6 must be '+', found 'w'");
        let elsewhere = parse_position(&start_with(k1, '+')).unwrap_err();
        assert_eq!(elsewhere, PositionError::HoleElsewhere(k1));
        assert_eq!(
            elsewhere.to_string(),
            "hole: '+' at k1; the hole is at f6 only"
        );
    }

    #[test]
    fn canonical_move_texts() {
        assert_eq!(canonical_move("C").unwrap(), "c");
        assert_eq!(canonical_move("C4C7WE").unwrap(), "c4c7ew");
        assert_eq!(canonical_move("b4c4").unwrap(), "b4c4");
        assert!(matches!(
            canonical_move("zz"),
            Err(MoveError::Malformed { .. })
        ));
    }

    #[test]
    fn move_syntax() {
        assert_eq!(parse_syntax("c"), Ok(Syntax::Passage(2)));
        for (text, reason) in [
            ("l", "a passage is one file letter a-k"),
            ("a0a1n", "origin is not a point a1-k11"),
            ("a12a1n", "origin is not a point a1-k11"),
            ("a1a2nn", "a direction is repeated"),
            ("a1a2x", "directions are letters n, s, e, w"),
            ("a1", "landing point is not a point a1-k11"),
        ] {
            assert_eq!(parse_syntax(text), Err(reason), "{text}");
        }
        assert!(matches!(
            parse_syntax("a10a11e"),
            Ok(Syntax::Ka {
                directions: Some(direction::EAST),
                ..
            })
        ));
    }
}
