//! `pasang annotate`: reviews the games of record files with the engine
//! and writes them back annotated (or as JSON), with a progress bar on a
//! terminal. See docs/review.md.
//!
//! A game that cannot be reviewed (its text does not parse, a move is
//! illegal) is reported on stderr with its file, number and ply, and
//! left out; the others are reviewed, and the exit code is 1 at the end.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use serde::Serialize;

use super::{CliError, Progress, SearchResources};
use crate::position::Player;
use crate::record::{self, Record, RecordError};
use crate::review::{
    AnnotatedGame, DEFAULT_NODES, ReviewJson, ReviewLimit, ReviewProgress, ReviewSettings, Reviewer,
};

/// Arguments of `pasang annotate`.
#[derive(Args, Debug)]
#[command(after_help = "\
Each game is searched position by position and written back with, after
each move, its evaluation from South's view, the engine's choice where it
is better than the move played (with its line), and a mark: ?! inaccuracy,
? mistake, ?? blunder for a drop of 5, 10 or 15 points in the mover's
winning chances (at most ?! in a game already lost or won that stays so).
Header tags give each side's accuracy and marks.

By default each position is searched 1000000 nodes on one thread (about
200 ms on the development machine): the same record always gets the same
review. --movetime depends on the machine and its load, and more threads
make any limit vary from run to run.

Exit status: 0 if every game was annotated, 1 if any could not be (each
is reported on stderr with its file, game and ply), 2 for usage errors.")]
pub struct AnnotateArgs {
    /// Record files: `pasang match --out`, `play --record` or the board's
    /// save.
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Write the annotated games to this file instead of stdout (a
    /// summary of each game then goes to stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Search each position this many milliseconds (the review then
    /// varies from run to run).
    #[arg(long, value_name = "MS", conflicts_with_all = ["depth", "nodes"],
          value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Search each position to this depth.
    #[arg(long, conflicts_with = "nodes", value_parser = clap::value_parser!(u32).range(1..=127))]
    depth: Option<u32>,
    /// Search about this many nodes a position (the default, 1000000,
    /// when no limit is given): the same review on every run.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    #[command(flatten)]
    resources: SearchResources,
    /// Write one JSON object per game and line instead of records.
    #[arg(long)]
    json: bool,
    /// Write only the marked moves (?!, ?, ??): a line for each, with its
    /// game, ply, player and annotation, instead of the records; with
    /// --json, each game's object keeps only its marked plies.
    #[arg(long)]
    marked: bool,
}

impl AnnotateArgs {
    fn settings(&self) -> ReviewSettings {
        let limit = match (self.movetime, self.depth, self.nodes) {
            (_, Some(depth), _) => ReviewLimit::Depth(depth),
            (_, _, Some(nodes)) => ReviewLimit::Nodes(nodes),
            (Some(movetime), _, _) => ReviewLimit::Movetime(movetime),
            (None, None, None) => ReviewLimit::Nodes(DEFAULT_NODES),
        };
        ReviewSettings {
            limit,
            threads: self.resources.threads as usize,
            hash_mib: self.resources.hash as usize,
        }
    }
}

/// One game read from a file, or why it could not be.
struct GameInFile {
    file: PathBuf,
    /// Its number in the file, from 1.
    number: usize,
    record: Result<Record, RecordError>,
}

/// One line of `--json`: the review's object with, before its keys, the
/// file and the game's number in it (all keys in alphabetical order, as
/// docs/review.md says).
#[derive(Serialize)]
struct GameJson {
    /// The file, as given.
    file: String,
    /// The game's number in it, from 1.
    game: usize,
    /// The review ([`AnnotatedGame::to_json`]).
    #[serde(flatten)]
    review: ReviewJson,
}

/// Each player's figures over the games, by name.
#[derive(Default)]
struct Totals {
    games: u32,
    accuracy_sum: f64,
    accuracy_games: u32,
    inaccuracies: u32,
    mistakes: u32,
    blunders: u32,
}

/// Runs `pasang annotate`: exit code 1 if any game failed.
pub fn run(args: &AnnotateArgs) -> Result<ExitCode, CliError> {
    let (games, mut failed) = read_games(&args.files);
    let mut out: Box<dyn Write> = match &args.out {
        Some(path) => match std::fs::File::create(path) {
            Ok(file) => Box::new(std::io::BufWriter::new(file)),
            Err(error) => return Err(CliError::Write(path.clone(), error)),
        },
        None => Box::new(std::io::stdout().lock()),
    };
    let settings = args.settings();
    let mut reviewer = Reviewer::new(&settings).map_err(CliError::Review)?;
    let progress = Progress::stderr();
    let started = Instant::now();
    let mut totals: BTreeMap<String, Totals> = BTreeMap::new();
    let mut annotated = 0usize;
    let count = games.len();
    for (index, game) in games.iter().enumerate() {
        let name = format!("'{}': game {}", game.file.display(), game.number);
        let record = match &game.record {
            Ok(record) => record,
            Err(error) => {
                progress.clear();
                eprintln!("error: {name}: {error}");
                failed += 1;
                continue;
            }
        };
        let result = reviewer.annotate(record, &mut |step: ReviewProgress| {
            progress.show(&bar(index + 1, count, step, started));
            ControlFlow::Continue(())
        });
        progress.clear();
        let review = match result {
            Ok(review) => review,
            Err(error) => {
                eprintln!("error: {name}: {error}");
                failed += 1;
                continue;
            }
        };
        annotated += 1;
        add_totals(&mut totals, &review);
        if let Err(error) = write_review(&mut out, args, game, &review) {
            if error.kind() == std::io::ErrorKind::BrokenPipe {
                return Ok(super::failed_if(failed > 0));
            }
            return Err(CliError::Output(error));
        }
        if args.out.is_some() {
            println!("{}", game_line(game, &review));
        }
    }
    drop(out);
    let summary = totals_text(&totals);
    if args.out.is_some() {
        print!("{summary}");
    } else {
        eprint!("{summary}");
    }
    eprintln!(
        "Annotated {annotated} of {count} games in {:.1} s ({})",
        started.elapsed().as_secs_f64(),
        settings.limit
    );
    if failed > 0 {
        eprintln!("{failed} failed");
    }
    Ok(super::failed_if(failed > 0))
}

/// Every game of `files`, each read on its own (a broken record is that
/// game's error), and how many files could not be read (each said on
/// stderr).
fn read_games(files: &[std::path::PathBuf]) -> (Vec<GameInFile>, usize) {
    let mut failed = 0usize;
    let mut games = Vec::new();
    for file in files {
        match std::fs::read_to_string(file) {
            Ok(text) => games.extend(record::read_each(&text).into_iter().enumerate().map(
                |(index, record)| GameInFile {
                    file: file.clone(),
                    number: index + 1,
                    record,
                },
            )),
            Err(error) => {
                eprintln!("error: {}", CliError::Read(file.clone(), error));
                failed += 1;
            }
        }
    }
    (games, failed)
}

/// Writes a game's review: its JSON line (with the file and the game's
/// number) or its annotated record; then flushes.
fn write_review(
    out: &mut dyn Write,
    args: &AnnotateArgs,
    game: &GameInFile,
    review: &AnnotatedGame,
) -> std::io::Result<()> {
    if args.json {
        let mut review = review.to_json();
        if args.marked {
            review.keep_marked();
        }
        let line = GameJson {
            file: game.file.display().to_string(),
            game: game.number,
            review,
        };
        let line = serde_json::to_string(&line).map_err(std::io::Error::other)?;
        writeln!(out, "{line}")?;
    } else if args.marked {
        write!(out, "{}", marked_lines(game, review))?;
    } else {
        write!(out, "{}", review.to_record())?;
    }
    out.flush()
}

/// The progress line: game, a bar of the positions searched, time.
fn bar(game: usize, games: usize, step: ReviewProgress, started: Instant) -> String {
    const WIDTH: usize = 30;
    let filled = WIDTH * step.done / step.total.max(1);
    format!(
        "game {game}/{games} [{}{}] {}/{} positions, {:.0} s",
        "#".repeat(filled),
        ".".repeat(WIDTH - filled),
        step.done,
        step.total,
        started.elapsed().as_secs_f64()
    )
}

/// One line per game: each side's name, accuracy and marks.
fn game_line(game: &GameInFile, review: &AnnotatedGame) -> String {
    let record = review.source();
    let mut line = format!("Game {} {}:", game.number, record.result);
    for side in [Player::South, Player::North] {
        let summary = review.summary(side);
        let title = crate::outcome::player_title(side);
        let accuracy = summary
            .accuracy
            .map_or_else(|| "-".to_string(), |a| format!("{a:.1}"));
        let _ = write!(
            line,
            " {} ({title}) accuracy {accuracy}, ?! {} ? {} ?? {};",
            record.tag(title).unwrap_or("?"),
            summary.inaccuracies,
            summary.mistakes,
            summary.blunders
        );
    }
    line.pop();
    line
}

/// A line for each marked move of a game: file, game, ply, player, and
/// the move as the annotated record writes it (number, move, mark and
/// comment), e.g. `'games.pgn': game 2: ply 24: North (Bo): 12...
/// j11g11s?? {+11.40/13 Blunder. Best +4.12: j11b11s k4k7w ...}`.
fn marked_lines(game: &GameInFile, review: &AnnotatedGame) -> String {
    let record = review.to_record();
    let north_first = review.start().side_to_move() == Player::North;
    let mut text = String::new();
    for (ply, mv) in review.plies().iter().zip(&record.moves) {
        let Some(mark) = ply.mark else { continue };
        let title = crate::outcome::player_title(ply.mover);
        let player = match review.source().tag(title) {
            Some(name) => format!("{title} ({name})"),
            None => title.to_string(),
        };
        // Numbered as in the record: `12.` for the first move of a
        // number, `12...` for the second.
        let index = ply.ply - 1 + usize::from(north_first);
        let dots = if index % 2 == 0 { "." } else { "..." };
        let _ = write!(
            text,
            "'{}': game {}: ply {}: {player}: {}{dots} {}{mark}",
            game.file.display(),
            game.number,
            ply.ply,
            index / 2 + 1,
            mv.text,
        );
        if let Some(comment) = &mv.comment {
            let _ = write!(text, " {{{comment}}}");
        }
        text.push('\n');
    }
    text
}

fn add_totals(totals: &mut BTreeMap<String, Totals>, review: &AnnotatedGame) {
    for side in [Player::South, Player::North] {
        let name = review
            .source()
            .tag(crate::outcome::player_title(side))
            .unwrap_or("?")
            .to_string();
        let summary = review.summary(side);
        let entry = totals.entry(name).or_default();
        entry.games += 1;
        if let Some(accuracy) = summary.accuracy {
            entry.accuracy_sum += accuracy;
            entry.accuracy_games += 1;
        }
        entry.inaccuracies += summary.inaccuracies;
        entry.mistakes += summary.mistakes;
        entry.blunders += summary.blunders;
    }
}

/// Each player's games, mean accuracy and marks over all games.
fn totals_text(totals: &BTreeMap<String, Totals>) -> String {
    let mut text = String::new();
    for (name, total) in totals {
        let accuracy = if total.accuracy_games == 0 {
            "-".to_string()
        } else {
            format!(
                "{:.1}",
                total.accuracy_sum / f64::from(total.accuracy_games)
            )
        };
        let _ = writeln!(
            text,
            "{name}: {} game{}, mean accuracy {accuracy}, inaccuracies {}, mistakes {}, blunders {}",
            total.games,
            if total.games == 1 { "" } else { "s" },
            total.inaccuracies,
            total.mistakes,
            total.blunders
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_gives_the_default_node_count() {
        use clap::{Args as _, Command};
        let help = AnnotateArgs::augment_args(Command::new("annotate"))
            .render_long_help()
            .to_string();
        let nodes = DEFAULT_NODES.to_string();
        assert!(help.contains(&format!("searched {nodes} nodes")), "{help}");
        assert!(help.contains(&format!("default, {nodes},")), "{help}");
    }

    #[test]
    fn the_bar_fills_with_the_positions() {
        let start = Instant::now();
        let step = ReviewProgress {
            done: 5,
            total: 10,
            ply: 5,
            eval: crate::review::Evaluation::Centipoints(0),
        };
        let half = bar(2, 5, step, start);
        assert!(
            half.starts_with("game 2/5 [###############...............] 5/10 positions"),
            "{half}"
        );
    }
}
