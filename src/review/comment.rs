//! The comment an annotated record carries after each move, written and
//! read back:
//!
//! ```text
//! [book ]<eval>[/<depth>][ <result in words>.][ <Mark>.][ Best <eval>[ (<words>)]: <line>]
//! ```
//!
//! e.g. `-3.20/14 Blunder. Best +1.10: c2c5n k7k5w b3b5n` or
//! `+M7/20 South wins by force in 7.`; the evaluations are South's view
//! (see [`Evaluation::token`]), the line is the engine's from the position
//! before the move, given only where it differs from the move played.

use super::{BestMove, Evaluation};
use crate::moves::Move;
use crate::record::{GameResult, Mark};

/// What a comment says, its moves still as text.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Parsed {
    /// The ply was an opening (book) move.
    pub book: bool,
    /// The evaluation after the move.
    pub eval: Evaluation,
    /// The depth of its search (0: none, the game ended).
    pub depth: u32,
    /// The engine's choice and its evaluation, where given.
    pub best: Option<(Evaluation, Vec<String>)>,
}

/// The word a mark is written with in a comment.
fn mark_word(mark: Mark) -> Option<&'static str> {
    match mark {
        Mark::Inaccuracy => Some("Inaccuracy."),
        Mark::Mistake => Some("Mistake."),
        Mark::Blunder => Some("Blunder."),
        _ => None,
    }
}

/// An evaluation and its depth: `+1.25/14`, or `+M0` without a search.
fn eval_with_depth(eval: Evaluation, depth: u32) -> String {
    if depth == 0 {
        eval.token()
    } else {
        format!("{}/{depth}", eval.token())
    }
}

/// The sentence of a proven result: `South wins by force in 7.`.
fn result_sentence(eval: Evaluation) -> Option<String> {
    match eval {
        Evaluation::Centipoints(_) => None,
        other => {
            let words = other.to_string();
            let mut chars = words.chars();
            let first = chars.next()?.to_ascii_uppercase();
            Some(format!("{first}{}.", chars.as_str()))
        }
    }
}

/// The comment of one ply.
pub(super) fn write(
    book: bool,
    eval: Evaluation,
    depth: u32,
    mark: Option<Mark>,
    best: Option<&BestMove>,
) -> String {
    let mut parts = Vec::new();
    if book {
        parts.push("book".to_string());
    }
    parts.push(eval_with_depth(eval, depth));
    parts.extend(result_sentence(eval));
    parts.extend(mark.and_then(mark_word).map(str::to_string));
    if let Some(best) = best {
        let words = match best.eval {
            Evaluation::Centipoints(_) => String::new(),
            other => format!(" ({other})"),
        };
        let line: Vec<String> = best.line.iter().map(Move::to_string).collect();
        parts.push(format!(
            "Best {}{words}: {}",
            best.eval.token(),
            line.join(" ")
        ));
    }
    parts.join(" ")
}

/// Reads a comment [`write`] wrote; `None` if it is not one.
pub(super) fn parse(comment: &str) -> Option<Parsed> {
    let mut words = comment.split_whitespace().peekable();
    let book = words.next_if_eq(&"book").is_some();
    let first = words.next()?;
    let (token, depth) = match first.split_once('/') {
        // A drawn result holds a slash of its own.
        Some((token, depth)) if first != GameResult::Draw.as_str() => (token, depth.parse().ok()?),
        _ => (first, 0),
    };
    let eval = Evaluation::from_token(token)?;
    let mut best = None;
    while let Some(word) = words.next() {
        if word != "Best" {
            continue;
        }
        let token = words.next()?;
        let mut value = token.strip_suffix(':');
        if value.is_none() {
            // Words in brackets, up to the colon.
            value = Some(token);
            words.by_ref().find(|word| word.ends_with(':'))?;
        }
        let best_eval = Evaluation::from_token(value?)?;
        let line: Vec<String> = words.by_ref().map(str::to_string).collect();
        if line.is_empty() {
            return None;
        }
        best = Some((best_eval, line));
    }
    Some(Parsed {
        book,
        eval,
        depth,
        best,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Player;
    use crate::rules::Rules;

    #[test]
    fn comments_round_trip() {
        let position = crate::notation::start_position(Rules::default().pattern);
        let line: Vec<Move> = crate::movegen::legal_moves(&position, &Rules::default())
            .iter()
            .take(1)
            .copied()
            .collect();
        let texts: Vec<String> = line.iter().map(Move::to_string).collect();
        let win = Evaluation::Win {
            winner: Player::North,
            moves: 5,
        };
        for (book, eval, depth, mark, best_eval) in [
            (
                false,
                Evaluation::Centipoints(-320),
                14,
                Some(Mark::Blunder),
                Some(Evaluation::Centipoints(110)),
            ),
            (true, Evaluation::Centipoints(15), 9, None, None),
            (false, win, 20, None, Some(win)),
            (false, Evaluation::Draw, 12, None, None),
            (false, Evaluation::Over(None), 0, None, None),
            (false, Evaluation::Over(Some(Player::South)), 0, None, None),
            (
                false,
                Evaluation::Centipoints(0),
                3,
                Some(Mark::Inaccuracy),
                Some(Evaluation::Draw),
            ),
        ] {
            let best = best_eval.map(|eval| BestMove {
                mv: line[0],
                eval,
                line: line.clone(),
            });
            let text = write(book, eval, depth, mark, best.as_ref());
            let parsed = parse(&text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(
                parsed,
                Parsed {
                    book,
                    eval,
                    depth,
                    best: best_eval.map(|eval| (eval, texts.clone())),
                },
                "{text}"
            );
        }
        let blunder = write(
            false,
            Evaluation::Centipoints(-320),
            14,
            Some(Mark::Blunder),
            Some(&BestMove {
                mv: line[0],
                eval: Evaluation::Centipoints(110),
                line: line.clone(),
            }),
        );
        assert_eq!(
            blunder,
            format!("-3.20/14 Blunder. Best +1.10: {}", texts[0])
        );
        let forced = write(false, win, 20, None, None);
        assert_eq!(forced, "-M5/20 North wins by force in 5.");
        let drawn = write(false, Evaluation::Over(None), 0, None, None);
        assert_eq!(drawn, "1/2-1/2 The game is drawn.");
        for other in ["book", "+7.36/11 0.052s Best", "0.052s", "+1.00/x", ""] {
            assert_eq!(parse(other), None, "{other}");
        }
        // A match's comment reads as an evaluation with the time ignored;
        // the review reads records only where it wrote a start tag.
        assert!(parse("+7.36/11 0.052s").is_some());
    }
}
