//! `pasang show`: a position as a terminal diagram, or as an SVG picture.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::{CliError, PositionArgs, RuleArgs, describe_result, player_title};
use crate::bitboard::Square;
use crate::movegen::count_moves;
use crate::moves::Move;
use crate::notation::{board_char, format_position};
use crate::outcome::Status;
use crate::position::{Player, Position};
use crate::review::AnnotatedGame;
use crate::rules::Rules;

/// Arguments of `pasang show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    rules: RuleArgs,
    /// Also write the board as an SVG picture to this file ('-': write the
    /// SVG to stdout instead of the diagram).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Replay a game from a record file instead (`pasang match --out`,
    /// `play --record`, `pasang annotate`): its rules and start position
    /// replace --fen, --moves and the rule flags; an annotated record's
    /// review of the last move shown and each side's accuracy are shown.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "moves"])]
    record: Option<PathBuf>,
    /// With --record: which game of the file, from 1.
    #[arg(long, default_value_t = 1, requires = "record")]
    game: usize,
    /// With --record: show the position after this many plies (default: the
    /// end of the game).
    #[arg(long, requires = "record")]
    ply: Option<usize>,
}

/// The rules, start and moves of game `game` (from 1) of a record file,
/// truncated to `ply` plies, with a description of the game: a title
/// line, and for an annotated record the accuracy and marks of each side
/// and the review of the last move shown (otherwise its comment, if any).
fn from_record(
    path: &std::path::Path,
    game: usize,
    ply: Option<usize>,
) -> Result<(Rules, crate::record::Game, String), CliError> {
    let text =
        std::fs::read_to_string(path).map_err(|error| CliError::Read(path.to_owned(), error))?;
    let records =
        crate::record::read(&text).map_err(|error| CliError::Records(path.to_owned(), error))?;
    let record = game
        .checked_sub(1)
        .and_then(|index| records.get(index))
        .ok_or_else(|| CliError::NoSuchGame {
            path: path.to_owned(),
            game,
            count: records.len(),
        })?;
    let rules = record.rules().map_err(CliError::RecordRules)?;
    let moves: Vec<String> = record
        .moves
        .iter()
        .take(ply.unwrap_or(usize::MAX))
        .map(|mv| mv.text.clone())
        .collect();
    let replay = crate::record::Game::from_moves(&rules, record.tag("FEN"), &moves)?;
    let mut title = format!(
        "Game {game}: {} (South) vs {} (North), {} {}, after {} of {} plies",
        record.tag("South").unwrap_or("?"),
        record.tag("North").unwrap_or("?"),
        record.result,
        record.tag("Termination").unwrap_or(""),
        moves.len(),
        record.moves.len()
    );
    title.push_str(&review_text(record, moves.len()));
    Ok((rules, replay, title))
}

/// For an annotated record, each side's figures and the review of ply
/// `shown` (from 1; 0 shows none); for another, the comment of that ply.
/// Empty, or lines each starting with a newline.
fn review_text(record: &crate::record::Record, shown: usize) -> String {
    let mut text = String::new();
    let Ok(review) = AnnotatedGame::from_record(record) else {
        if let Some(mv) = shown
            .checked_sub(1)
            .and_then(|index| record.moves.get(index))
        {
            let mark = mv.mark.map_or("", |mark| mark.suffix());
            if let Some(comment) = &mv.comment {
                let _ = write!(text, "\nPly {shown}: {}{mark} {{{comment}}}", mv.text);
            }
        }
        return text;
    };
    for side in [Player::South, Player::North] {
        let summary = review.summary(side);
        let accuracy = summary
            .accuracy
            .map_or_else(|| "-".to_string(), |a| format!("{a:.1}"));
        let _ = write!(
            text,
            "\n{} accuracy {accuracy}; inaccuracies (?!) {}, mistakes (?) {}, blunders (??) {}",
            player_title(side),
            summary.inaccuracies,
            summary.mistakes,
            summary.blunders
        );
    }
    if let Some(ply) = shown
        .checked_sub(1)
        .and_then(|index| review.plies().get(index))
    {
        let mark = ply.mark.map_or("", |mark| mark.suffix());
        let _ = write!(
            text,
            "\nPly {}: {}{mark} by {}, evaluation {}",
            ply.ply,
            ply.played,
            player_title(ply.mover),
            ply.eval
        );
        if ply.depth > 0 {
            let _ = write!(text, " (depth {})", ply.depth);
        }
        if let Some(best) = &ply.best {
            let line: Vec<String> = best.line.iter().map(ToString::to_string).collect();
            let _ = write!(
                text,
                "\nBest was {} ({}): {}",
                best.mv,
                best.eval,
                line.join(" ")
            );
        }
    }
    text
}

/// Runs `pasang show`.
pub fn run(args: &ShowArgs) -> Result<ExitCode, CliError> {
    let (rules, replay) = match &args.record {
        Some(path) => {
            let (rules, replay, title) = from_record(path, args.game, args.ply)?;
            println!("{title}");
            (rules, replay)
        }
        None => {
            let rules = args.rules.rules();
            (rules, args.position.replay(&rules)?)
        }
    };
    let position = replay.current();
    let last = replay.last();
    if let Some(path) = &args.svg {
        let picture = crate::svg::render(&position, last);
        if path.as_os_str() == "-" {
            print!("{picture}");
            return Ok(ExitCode::SUCCESS);
        }
        std::fs::write(path, picture).map_err(|error| CliError::Write(path.clone(), error))?;
        eprintln!("SVG written to {}", path.display());
    }
    let mut text = board_text(&position, last);
    text.push_str(&details(&position, &rules, last));
    let _ = writeln!(
        text,
        "Rules: pattern {}, ka entry {}, second column {}, centre {}",
        rules.pattern, rules.ka_entry, rules.second_column, rules.centre
    );
    let _ = writeln!(text, "Position: {}", format_position(&position));
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}

/// The board with coordinates on all sides, rank 11 at the top, in the
/// position-string characters (`w b . S N +`); the landing point of the
/// last move is bracketed.
pub fn board_text(position: &Position, last: Option<(Position, Move)>) -> String {
    board_text_from(position, last, Player::South)
}

/// [`board_text`] as `viewer` sees it: their own half at the bottom
/// (for North, rank 1 at the top and file k on the left).
pub fn board_text_from(
    position: &Position,
    last: Option<(Position, Move)>,
    viewer: Player,
) -> String {
    let landing = last.and_then(|(_, mv)| (!mv.is_passage()).then(|| mv.to()));
    let north = viewer == Player::North;
    let files = if north {
        "     k j i h g f e d c b a\n"
    } else {
        "     a b c d e f g h i j k\n"
    };
    let mut text = String::from(files);
    for row in (0..11).rev() {
        let rank = if north { 10 - row } else { row };
        let _ = write!(text, " {:>2} ", rank + 1);
        let mut previous_marked = false;
        for column in 0..11 {
            let file = if north { 10 - column } else { column };
            let square = Square::new(rank, file).expect("rank and file are on the board");
            let marked = landing == Some(square);
            text.push(if marked {
                '['
            } else if previous_marked {
                ']'
            } else {
                ' '
            });
            text.push(board_char(position, square));
            previous_marked = marked;
        }
        text.push(if previous_marked { ']' } else { ' ' });
        let _ = writeln!(text, " {}", rank + 1);
    }
    text.push_str(files);
    text
}

/// Scores, the last move, and who is to move or how the game ended.
pub fn details(position: &Position, rules: &Rules, last: Option<(Position, Move)>) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "Scores: South {} - North {}",
        position.score(Player::South),
        position.score(Player::North)
    );
    if let Some((before, mv)) = last {
        let mover = before.side_to_move();
        let gained = position.score(mover) - before.score(mover);
        let points = super::points_taken(&before, mv);
        let _ = writeln!(
            text,
            "Last move: {mv} by {} (+{gained}: {})",
            player_title(mover),
            points.join(" ")
        );
    }
    let status = Status::of(position, rules);
    match status {
        Status::InPlay => {
            let _ = writeln!(
                text,
                "To move: {}, phase {}, {} legal moves",
                player_title(position.side_to_move()),
                position.phase(),
                count_moves(position, rules)
            );
        }
        Status::Over { .. } => {
            let _ = writeln!(
                text,
                "Game over: {}",
                describe_result(&status, position.side_to_move())
            );
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Game;

    #[test]
    fn games_replay_from_records() {
        let path = std::env::temp_dir().join(format!("pasang-show-{}.pgn", std::process::id()));
        std::fs::write(
            &path,
            "[Event \"pasang match\"]\n[South \"a\"]\n[North \"b\"]\n[Result \"*\"]\n\n1. c j 2. b4c4n k7j7w *\n\n",
        )
        .unwrap();
        let (_, replay, title) = from_record(&path, 1, Some(3)).unwrap();
        assert_eq!(replay.moves().len(), 3);
        assert!(title.contains("after 3 of 4 plies"), "{title}");
        let missing = from_record(&path, 2, None).err();
        assert!(
            matches!(
                missing,
                Some(CliError::NoSuchGame {
                    game: 2,
                    count: 1,
                    ..
                })
            ),
            "{missing:?}"
        );
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn annotated_records_show_their_review() {
        let text = "[Event \"x\"]\n[StartEvaluation \"+3.08/8\"]\n\n\
            1. c {+2.47/8 Best +3.08: a k} j {+2.64/8} 2. b4c4n?! {-0.45/8 Inaccuracy. Best +2.64: b5c5ew i7j7ew} *\n";
        let record = &crate::record::read(text).unwrap()[0];
        let review = review_text(record, 3);
        assert!(
            review.contains("\nSouth accuracy 7")
                && review.contains("; inaccuracies (?!) 1, mistakes (?) 0, blunders (??) 0"),
            "{review}"
        );
        assert!(review.contains("\nNorth accuracy "), "{review}");
        assert!(
            review.contains("\nPly 3: b4c4n?! by South, evaluation -0.45 (depth 8)\nBest was b5c5ew (+2.64): b5c5ew i7j7ew"),
            "{review}"
        );
        // A record without a review shows the ply's comment.
        let plain = "[Event \"x\"]\n\n1. c {book} j {+0.10/3 0.1s} *\n";
        let record = &crate::record::read(plain).unwrap()[0];
        assert_eq!(review_text(record, 2), "\nPly 2: j {+0.10/3 0.1s}");
        assert_eq!(review_text(record, 0), "");
    }

    #[test]
    fn the_landing_point_is_bracketed() {
        let rules = Rules::default();
        let moves: Vec<String> = ["c", "j", "b4c4n"].map(String::from).to_vec();
        let replay = Game::from_moves(&rules, None, &moves).unwrap();
        let text = board_text(&replay.current(), replay.last());
        let rank4 = text.lines().find(|line| line.starts_with("  4 ")).unwrap();
        assert_eq!(rank4, "  4  w .[S]w b b w w b b b  4");
        let (before, mv) = replay.last().unwrap();
        let taken = before.capture(mv).points_taken();
        let names: Vec<String> = taken.into_iter().map(|point| point.to_string()).collect();
        assert_eq!(names, ["c6", "c7", "c8"]);
    }
}
