//! Why a move is not legal, as a typed reason a page can word in its own
//! language: the rules core's account of a refusal, so that no page
//! carries a copy of the rules to explain one.
//!
//! [`why_illegal`] reads the position only to name the reason; whether a
//! move is legal is always the move generator's answer
//! ([`crate::notation::parse_move`]).

use serde::Serialize;

use crate::bitboard::{SIZE, Square};
use crate::movegen::legal_moves;
use crate::notation::{Syntax, parse_syntax};
use crate::position::{Phase, Player, Position};
use crate::rules::{Centre, KaEntry, Rules, SecondColumn};

/// Why a move text is refused, with what its words name. Written as a
/// `reason` code (lower case and `_`) and its fields.
#[derive(Clone, Debug, Eq, PartialEq, Serialize, thiserror::Error)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Illegal {
    /// Not a move in the notation at all.
    #[error("'{text}' is not a move: a file letter (c) or two points and directions (b4c4n)")]
    NotAMove {
        /// The text, shortened.
        text: String,
    },
    /// The game is over: nothing can be played.
    #[error("the game is over: no legal move")]
    GameOver,
    /// A ka move where the passage is to be taken first.
    #[error("first take a passage: a file letter, such as c")]
    PassageFirst,
    /// North's passage mirrors South's (second column `any`).
    #[error("file {file} mirrors South's file {south}, which Second Column: any forbids")]
    PassageMirror {
        /// The file asked for.
        file: char,
        /// South's file.
        south: char,
    },
    /// North may not take f after South's f.
    #[error("after South's middle file f, North takes any file but f")]
    PassageNotF,
    /// North's passage must be across the centre from South's.
    #[error("North takes a file on the other side of the centre from South's file {south}")]
    PassageOpposite {
        /// South's file.
        south: char,
    },
    /// A passage that captures nothing.
    #[error("file {file} of this half holds no line to take: a passage must capture")]
    PassageEmpty {
        /// The file asked for.
        file: char,
    },
    /// A passage where the passage is taken already.
    #[error("the passage is taken already: move a stone or the ka (b4c4n)")]
    PassageTaken,
    /// A ka entry that does not land on the passage, on its own rank, in
    /// the player's half.
    #[error("the ka enters on an empty point of the passage (file {file}), on its own rank")]
    EntryLands {
        /// The passage's file.
        file: char,
    },
    /// A move onto a point that is not empty.
    #[error("{point} is not empty")]
    NotEmpty {
        /// The point.
        #[serde(serialize_with = "point_name")]
        #[cfg_attr(test, ts(as = "String"))]
        point: Square,
    },
    /// A ka entry from a point with no stone.
    #[error("there is no stone on {from} to bring in")]
    EntryNoStone {
        /// The point.
        #[serde(serialize_with = "point_name")]
        #[cfg_attr(test, ts(as = "String"))]
        from: Square,
    },
    /// A jump where Ka Entry is `slide`.
    #[error(
        "under Ka Entry: slide only a stone next to the passage steps in; {from} is two files away"
    )]
    EntrySlideOnly {
        /// The point.
        #[serde(serialize_with = "point_name")]
        #[cfg_attr(test, ts(as = "String"))]
        from: Square,
    },
    /// A slide where Ka Entry is `jump`.
    #[error("under Ka Entry: jump the ka comes from two files away; {from} is next to the passage")]
    EntryJumpOnly {
        /// The point.
        #[serde(serialize_with = "point_name")]
        #[cfg_attr(test, ts(as = "String"))]
        from: Square,
    },
    /// A jump over an empty point.
    #[error("a jump goes over a stone, and {over} is empty")]
    EntryJumpEmpty {
        /// The point jumped over.
        #[serde(serialize_with = "point_name")]
        #[cfg_attr(test, ts(as = "String"))]
        over: Square,
    },
    /// An entry from further than the rules allow.
    #[error(
        "the ka comes from a file next to the passage, or two away where Ka Entry allows a jump"
    )]
    EntryTooFar,
    /// A move of something other than the player's ka.
    #[error("only the ka moves now: it stands on {ka}")]
    OnlyKa {
        /// Where the ka stands.
        #[serde(serialize_with = "point_name")]
        #[cfg_attr(test, ts(as = "String"))]
        ka: Square,
    },
    /// A ka move that is not along a rank or a file.
    #[error("the ka moves like a rook: along its rank or its file")]
    RookMove,
    /// A ka move through the walled hole.
    #[error("under Centre: wall the hole on f6 stops the ka, as the edge does")]
    HoleWall,
    /// A ka move that stops on the open hole.
    #[error("the ka may cross the open centre but not stop on it")]
    HoleStop,
    /// A ka move over a stone or the other ka.
    #[error("the ka cannot pass over or stop on {point}")]
    Blocked {
        /// The first point in the way.
        #[serde(serialize_with = "point_name")]
        #[cfg_attr(test, ts(as = "String"))]
        point: Square,
    },
    /// Several lines can be taken there: the directions must be named.
    #[error("from {to} several lines can be taken: add the directions ({moves})")]
    Ambiguous {
        /// The landing point.
        #[serde(serialize_with = "point_name")]
        #[cfg_attr(test, ts(as = "String"))]
        to: Square,
        /// The legal moves there, comma-separated.
        moves: String,
    },
    /// Not those directions: other lines can be taken there.
    #[error("from {to} no line can be taken that way; these can: {moves}")]
    OtherLines {
        /// The landing point.
        #[serde(serialize_with = "point_name")]
        #[cfg_attr(test, ts(as = "String"))]
        to: Square,
        /// The legal moves there, comma-separated.
        moves: String,
    },
    /// Only even lines there.
    #[error("from {to} every line across the move holds an even number of stones")]
    EvenLine {
        /// The landing point.
        #[serde(serialize_with = "point_name")]
        #[cfg_attr(test, ts(as = "String"))]
        to: Square,
    },
    /// Nothing at all to take there.
    #[error("from {to} there is nothing to take across the move, and every move must capture")]
    NoCapture {
        /// The landing point.
        #[serde(serialize_with = "point_name")]
        #[cfg_attr(test, ts(as = "String"))]
        to: Square,
    },
}

/// Why `text` is not a legal move of `position` under `rules`. Call it
/// for a text the move generator refused: for a legal one the answer
/// names no fault that holds.
pub fn why_illegal(position: &Position, rules: &Rules, text: &str) -> Illegal {
    let Ok(syntax) = parse_syntax(text) else {
        return Illegal::NotAMove {
            text: text.chars().take(24).collect(),
        };
    };
    let legal = legal_moves(position, rules);
    if legal.is_empty() {
        return Illegal::GameOver;
    }
    let side = position.side_to_move();
    match (position.phase(), syntax) {
        (Phase::Passage, Syntax::Passage(file)) => passage(position, rules, side, file),
        (Phase::Passage, Syntax::Ka { .. }) => Illegal::PassageFirst,
        (_, Syntax::Passage(_)) => Illegal::PassageTaken,
        (
            phase,
            Syntax::Ka {
                from,
                to,
                directions,
            },
        ) => {
            let path = if phase == Phase::KaEntry {
                entry(position, rules, side, from, to)
            } else {
                ka_move(position, rules, side, from, to)
            };
            if let Some(fault) = path {
                return fault;
            }
            let there: Vec<String> = legal
                .iter()
                .filter(|mv| !mv.is_passage() && mv.from() == from && mv.to() == to)
                .map(|mv| mv.to_string())
                .collect();
            match (there.is_empty(), directions) {
                (false, None) => Illegal::Ambiguous {
                    to,
                    moves: there.join(", "),
                },
                (false, Some(_)) => Illegal::OtherLines {
                    to,
                    moves: there.join(", "),
                },
                (true, _) => {
                    if stones_across(position, rules, phase, from, to) {
                        Illegal::EvenLine { to }
                    } else {
                        Illegal::NoCapture { to }
                    }
                }
            }
        }
    }
}

/// A point as its name (`d3`).
fn point_name<S: serde::Serializer>(point: &Square, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(point)
}

fn file_letter(file: usize) -> char {
    (b'a' + file as u8) as char
}

/// Whether `rank` (from 0) is in `side`'s half.
fn own_half(side: Player, rank: usize) -> bool {
    match side {
        Player::South => rank < SIZE / 2,
        Player::North => rank > SIZE / 2,
    }
}

fn passage(position: &Position, rules: &Rules, side: Player, file: usize) -> Illegal {
    let asked = file_letter(file);
    if side == Player::North
        && let Some(south) = position.passage(Player::South)
    {
        let centre = SIZE / 2;
        match rules.second_column {
            SecondColumn::Any if file == SIZE - 1 - south => {
                return Illegal::PassageMirror {
                    file: asked,
                    south: file_letter(south),
                };
            }
            SecondColumn::Opposite if south == centre && file == centre => {
                return Illegal::PassageNotF;
            }
            SecondColumn::Opposite
                if south != centre && (file == centre || (file < centre) == (south < centre)) =>
            {
                return Illegal::PassageOpposite {
                    south: file_letter(south),
                };
            }
            _ => {}
        }
    }
    Illegal::PassageEmpty { file: asked }
}

fn entry(
    position: &Position,
    rules: &Rules,
    side: Player,
    from: Square,
    to: Square,
) -> Option<Illegal> {
    let file = position.passage(side)?;
    if to.file() != file || to.rank() != from.rank() || !own_half(side, to.rank()) {
        return Some(Illegal::EntryLands {
            file: file_letter(file),
        });
    }
    if position.stone_at(to).is_some() || position.kas().contains(to) {
        return Some(Illegal::NotEmpty { point: to });
    }
    if position.stone_at(from).is_none() {
        return Some(Illegal::EntryNoStone { from });
    }
    let distance = from.file().abs_diff(to.file());
    match (distance, rules.ka_entry) {
        (2, KaEntry::Slide) => Some(Illegal::EntrySlideOnly { from }),
        (1, KaEntry::Jump) => Some(Illegal::EntryJumpOnly { from }),
        (2, _) => {
            let over = Square::new(to.rank(), (from.file() + to.file()) / 2)?;
            position
                .stone_at(over)
                .is_none()
                .then_some(Illegal::EntryJumpEmpty { over })
        }
        (1, _) => None,
        _ => Some(Illegal::EntryTooFar),
    }
}

fn ka_move(
    position: &Position,
    rules: &Rules,
    side: Player,
    from: Square,
    to: Square,
) -> Option<Illegal> {
    let ka = position.ka(side)?;
    if from != ka {
        return Some(Illegal::OnlyKa { ka });
    }
    if from == to || (from.file() != to.file() && from.rank() != to.rank()) {
        return Some(Illegal::RookMove);
    }
    let step = |a: usize, b: usize| (b as isize - a as isize).signum();
    let (df, dr) = (step(from.file(), to.file()), step(from.rank(), to.rank()));
    let (mut file, mut rank) = (from.file() as isize, from.rank() as isize);
    loop {
        file += df;
        rank += dr;
        let point = Square::new(rank as usize, file as usize)?;
        if point == Square::HOLE {
            if rules.centre == Centre::Wall {
                return Some(Illegal::HoleWall);
            }
            if point == to {
                return Some(Illegal::HoleStop);
            }
        } else if position.stone_at(point).is_some() || position.kas().contains(point) {
            return Some(Illegal::Blocked { point });
        }
        if point == to {
            return None;
        }
    }
}

/// Whether any stone lies along the capture axes of `to` (across the
/// move; both axes for an entry) before the edge, the walled hole or a
/// ka: stones there that give no move make only even lines.
fn stones_across(
    position: &Position,
    rules: &Rules,
    phase: Phase,
    from: Square,
    to: Square,
) -> bool {
    let along_rank = from.rank() == to.rank();
    let directions: &[(isize, isize)] = if phase == Phase::KaEntry {
        &[(0, 1), (0, -1), (1, 0), (-1, 0)]
    } else if along_rank {
        &[(0, 1), (0, -1)]
    } else {
        &[(1, 0), (-1, 0)]
    };
    directions.iter().any(|&(dr, df)| {
        let (mut rank, mut file) = (to.rank() as isize, to.file() as isize);
        loop {
            rank += dr;
            file += df;
            let Some(point) = (rank >= 0 && file >= 0)
                .then(|| Square::new(rank as usize, file as usize))
                .flatten()
            else {
                return false;
            };
            if point == from {
                continue;
            }
            if point == Square::HOLE {
                if rules.centre == Centre::Wall {
                    return false;
                }
                continue;
            }
            if position.kas().contains(point) {
                return false;
            }
            if position.stone_at(point).is_some() {
                return true;
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_move, parse_position, start_position};
    use crate::rules::Pattern;

    fn why(position: &str, rules: Rules, text: &str) -> Illegal {
        let position = parse_position(position).unwrap();
        assert!(
            parse_move(&position, &rules, text).is_err(),
            "{text} is illegal"
        );
        why_illegal(&position, &rules, text)
    }

    fn square(name: &str) -> Square {
        let file = (name.as_bytes()[0] - b'a') as usize;
        Square::new(name[1..].parse::<usize>().unwrap() - 1, file).unwrap()
    }

    #[test]
    fn reasons_name_the_fault_the_page_explained() {
        let rules = Rules::default();
        let start = crate::notation::format_position(&start_position(Pattern::One));
        assert_eq!(why(&start, rules, "b4c4n"), Illegal::PassageFirst);
        assert!(matches!(why(&start, rules, "x9"), Illegal::NotAMove { .. }));
        let json = serde_json::to_string(&Illegal::PassageFirst).unwrap();
        assert_eq!(json, r#"{"reason":"passage_first"}"#);
        // The rule book's first example: South's ka on d1.
        let example = "..........N/.........../.........../.........../.........../.....+...../.........../.........../w.w..wb..../.........../...S....... s 50 60 dk";
        assert_eq!(
            why(example, rules, "d1d1"),
            Illegal::RookMove,
            "a move nowhere"
        );
        assert_eq!(why(example, rules, "d1e2"), Illegal::RookMove);
        assert_eq!(
            why(example, rules, "d1b1"),
            Illegal::NoCapture { to: square("b1") }
        );
        assert_eq!(
            why(example, rules, "d1d3n"),
            Illegal::OtherLines {
                to: square("d3"),
                moves: "d1d3ew".into()
            }
        );
        assert_eq!(
            why(example, rules, "d1d5"),
            Illegal::NoCapture { to: square("d5") }
        );
        // A stone on d2 stands in the ka's way up file d.
        let blocked = "..........N/.........../.........../.........../.........../.....+...../.........../.........../w.w..wb..../...b......./...S....... s 50 60 dk";
        assert_eq!(
            why(blocked, rules, "d1d5"),
            Illegal::Blocked {
                point: square("d2")
            }
        );
        assert_eq!(
            why(example, rules, "c3c4"),
            Illegal::OnlyKa { ka: square("d1") }
        );
        // The second example: an even run of whites west of c5.
        let second = "..........N/.........../.........../.........../.........../.....+...../ww.b......./.........../.........../.........../..S........ s 50 60 ck";
        assert_eq!(
            why(second, rules, "c1c5w"),
            Illegal::OtherLines {
                to: square("c5"),
                moves: "c1c5e".into()
            }
        );
        // Passages and entries, after South's c.
        let mut position = start_position(Pattern::One);
        position = position.play(parse_move(&position, &rules, "c").unwrap());
        let after_c = crate::notation::format_position(&position);
        assert_eq!(
            why(&after_c, rules, "b"),
            Illegal::PassageOpposite { south: 'c' }
        );
        let any = Rules {
            second_column: SecondColumn::Any,
            ..rules
        };
        assert_eq!(
            why(&after_c, any, "i"),
            Illegal::PassageMirror {
                file: 'i',
                south: 'c'
            }
        );
        let north = crate::movegen::legal_moves(&position, &rules)[0];
        position = position.play(north);
        let entry = crate::notation::format_position(&position);
        assert_eq!(why(&entry, rules, "c"), Illegal::PassageTaken);
        assert_eq!(
            why(&entry, rules, "b4d4"),
            Illegal::EntryLands { file: 'c' }
        );
        assert_eq!(
            why(&entry, rules, "a4c4"),
            Illegal::EntrySlideOnly { from: square("a4") }
        );
        let jump = Rules {
            ka_entry: KaEntry::Jump,
            ..rules
        };
        assert_eq!(
            why(&entry, jump, "b4c4n"),
            Illegal::EntryJumpOnly { from: square("b4") }
        );
        let json = serde_json::to_string(&Illegal::Blocked {
            point: square("d3"),
        })
        .unwrap();
        assert_eq!(
            json, r#"{"reason":"blocked","point":"d3"}"#,
            "points by name"
        );
    }
}
