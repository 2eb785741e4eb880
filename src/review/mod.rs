//! Game review: every position of a game searched, each move judged by
//! how much it lowered its mover's winning chances, and the game written
//! back as an annotated record (or JSON). `pasang annotate` and the
//! board's review mode are built on this module.
//!
//! # Use
//!
//! ```no_run
//! use std::ops::ControlFlow;
//! use pasang::record;
//! use pasang::review::{self, ReviewLimit, ReviewSettings};
//!
//! let text = std::fs::read_to_string("games.pgn").unwrap();
//! let settings = ReviewSettings {
//!     limit: ReviewLimit::Nodes(500_000),
//!     ..ReviewSettings::default()
//! };
//! let mut reviewer = review::Reviewer::new(&settings).unwrap();
//! for record in record::read(&text).unwrap() {
//!     let game = reviewer
//!         .annotate(&record, &mut |progress| {
//!             eprintln!("{}/{}", progress.done, progress.total);
//!             ControlFlow::Continue(())
//!         })
//!         .unwrap();
//!     print!("{}", game.to_record());
//!     println!("{}", game.to_json().to_line());
//! }
//! ```
//!
//! [`annotate_game`] does the same for one game with a reviewer of its
//! own; [`AnnotatedGame::from_record`] reads a record annotated before
//! without searching anything.
//!
//! # Definitions (docs/review.md)
//!
//! - **Winning chances** of a side: W + D/2 of `UCI_ShowWDL`'s model at the
//!   searched score, in percent; 100 or 0 for a proven win or loss, 50 for
//!   a proven draw.
//! - **Drop** of a move: the mover's winning chances before it (the search
//!   of the position it was played in) less those after it (the search of
//!   the position it led to), at least 0. A move the engine chose itself
//!   has no drop, whatever the two searches say.
//! - **Marks**: a drop of 5, 10 and 15 points or more is an inaccuracy
//!   `?!`, a mistake `?` and a blunder `??` (lichess's thresholds); a move
//!   in a position already lost (the mover's chances at most
//!   [`DECIDED_CHANCES`], or a proven loss) that keeps it lost, or already
//!   won that keeps it won, is at most an inaccuracy ([`mark_for_move`]).
//! - **The engine's move** is given only where it is strictly better than
//!   the move played by the same evaluations (a drop above 0): always for
//!   a marked move, never one rated no better than the move played.
//! - **Move accuracy**: 103.1668 x exp(-0.04354 x drop) - 3.1669, clamped
//!   to 0-100; **game accuracy** of a side: lichess's mean of the
//!   volatility-weighted mean and the harmonic mean of its moves'
//!   accuracies ([`game_accuracy`]).
//! - Opening plies a record calls `book` are evaluated but not judged: no
//!   mark, and not in the accuracy.
//!
//! By default each position gets a fixed node count ([`DEFAULT_NODES`]) on
//! one thread, so the same record always gets the same review.
//!
//! Positions are searched from the game's end back to its start, with one
//! table for the game: what a later position's search proved is at hand
//! for the earlier ones, so consecutive evaluations agree more.

mod accuracy;
mod analysis;
mod comment;
mod evaluation;
mod json;

use std::ops::ControlFlow;

use crate::engine::DEFAULT_HASH_MIB;
use crate::moves::Move;
use crate::notation::play_moves;
use crate::position::{Player, Position};
use crate::record::{Game, Mark, Record, RecordMove, ReplayError};
use crate::tt::TableError;

pub use accuracy::{
    BLUNDER_DROP, DECIDED_CHANCES, INACCURACY_DROP, JudgedMove, MISTAKE_DROP, chances_drop,
    game_accuracy, mark_for_drop, mark_for_move, move_accuracy,
};
pub use evaluation::Evaluation;
pub use json::{BestJson, EvalJson, PlyJson, ReviewJson, SideJson, StartJson, SummaryJson};

use analysis::{Analyser, PositionEval};

/// Tags an annotated record carries, replaced when a game is annotated
/// again.
pub const TAGS: [&str; 10] = [
    "Annotator",
    "StartEvaluation",
    "SouthAccuracy",
    "SouthInaccuracies",
    "SouthMistakes",
    "SouthBlunders",
    "NorthAccuracy",
    "NorthInaccuracies",
    "NorthMistakes",
    "NorthBlunders",
];

/// What bounds the search of each position.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum ReviewLimit {
    /// Milliseconds a position (the review then depends on the
    /// machine's speed and load: two runs can differ).
    Movetime(u64),
    /// Plies of iterative deepening (deterministic on one thread).
    Depth(u32),
    /// About this many nodes a position (deterministic on one thread).
    Nodes(u64),
}

impl std::fmt::Display for ReviewLimit {
    /// `movetime 100`, `depth 12`, `nodes 100000`: `go`'s words.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReviewLimit::Movetime(ms) => write!(f, "movetime {ms}"),
            ReviewLimit::Depth(depth) => write!(f, "depth {depth}"),
            ReviewLimit::Nodes(nodes) => write!(f, "nodes {nodes}"),
        }
    }
}

/// How a review searches.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct ReviewSettings {
    /// The limit of each position's search.
    pub limit: ReviewLimit,
    /// Search threads.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mib: usize,
}

/// Default limit of a review, in nodes a position: about 200 ms a
/// position on one thread of the development machine (2 shared cores),
/// and the same review of a record on every run, whatever the machine.
pub const DEFAULT_NODES: u64 = 1_000_000;

impl Default for ReviewSettings {
    /// [`DEFAULT_NODES`] a position, one thread, the engine's default
    /// table: deterministic.
    fn default() -> ReviewSettings {
        ReviewSettings {
            limit: ReviewLimit::Nodes(DEFAULT_NODES),
            threads: 1,
            hash_mib: DEFAULT_HASH_MIB,
        }
    }
}

/// How far a review has come, given to its progress callback after each
/// position searched (from the game's end back to its start).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct ReviewProgress {
    /// Positions evaluated so far.
    pub done: usize,
    /// Positions of the game (its plies + 1).
    pub total: usize,
    /// The position just evaluated: the one after this many plies (0: the
    /// start).
    pub ply: usize,
    /// Its evaluation (South's view), for a graph drawn as the review goes.
    pub eval: Evaluation,
}

/// Why a game cannot be reviewed (or read as annotated). `Display` names
/// the ply where there is one; the caller adds the game.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The record's rule tags, start or moves do not replay: `Display`
    /// names the tag, `FEN: ...` or `ply N: ...`.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// The table cannot be had.
    #[error("{0}")]
    Table(TableError),
    /// The progress callback asked to stop.
    #[error("the review was stopped")]
    Stopped,
    /// The record carries no annotation of this ply (0: no
    /// `StartEvaluation` tag), or one that does not read.
    #[error("{}", not_annotated(*ply))]
    NotAnnotated {
        /// The ply, from 1; 0 for the start.
        ply: usize,
    },
}

fn not_annotated(ply: usize) -> String {
    if ply == 0 {
        "not an annotated record: no StartEvaluation tag".to_string()
    } else {
        format!("ply {ply}: the comment is not an annotation")
    }
}

/// The engine's choice in a position, where it is strictly better than
/// the move played (the mover's winning chances drop by the move).
#[derive(Clone, Debug, PartialEq)]
pub struct BestMove {
    /// The move.
    pub mv: Move,
    /// The position's evaluation with it (South's view).
    pub eval: Evaluation,
    /// The engine's line, starting with the move.
    pub line: Vec<Move>,
}

/// One move of a reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyReview {
    /// The ply, from 1.
    pub ply: usize,
    /// Who played it.
    pub mover: Player,
    /// The move played.
    pub played: Move,
    /// The evaluation after it (South's view).
    pub eval: Evaluation,
    /// The depth of that evaluation's search (0: the game ended).
    pub depth: u32,
    /// South's winning chances after it, in percent (for a graph).
    pub south_win_percent: f64,
    /// How many points of winning chances the mover lost by it (0 or
    /// more).
    pub drop: f64,
    /// Its mark: `?!`, `?` or `??` (never another).
    pub mark: Option<Mark>,
    /// Its accuracy, 0-100 (`None` for a book ply, which is not judged).
    pub accuracy: Option<f64>,
    /// Whether the record calls it an opening (book) move.
    pub book: bool,
    /// The engine's choice where it is strictly better than the move
    /// played (`drop` above 0); always given for a marked move.
    pub best: Option<BestMove>,
}

/// One side's figures.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Game accuracy, 0-100 (`None`: no judged move).
    pub accuracy: Option<f64>,
    /// Moves marked `?!`.
    pub inaccuracies: u32,
    /// Moves marked `?`.
    pub mistakes: u32,
    /// Moves marked `??`.
    pub blunders: u32,
}

/// A reviewed game: the record it came from, each ply's judgement, and
/// each side's figures.
#[derive(Clone, Debug)]
pub struct AnnotatedGame {
    source: Record,
    start: Position,
    start_eval: Evaluation,
    start_depth: u32,
    annotator: String,
    plies: Vec<PlyReview>,
    south: SideSummary,
    north: SideSummary,
}

/// A record's game, every move checked ([`Game::from_record`]).
fn replay(record: &Record) -> Result<Game, ReviewError> {
    Ok(Game::from_record(record)?)
}

/// Reviews games one after another with one searcher (one table, one set
/// of threads).
pub struct Reviewer {
    analyser: Analyser,
    settings: ReviewSettings,
}

impl Reviewer {
    /// A reviewer with `settings`' table, threads and limit.
    pub fn new(settings: &ReviewSettings) -> Result<Reviewer, ReviewError> {
        Ok(Reviewer {
            analyser: Analyser::new(settings).map_err(ReviewError::Table)?,
            settings: settings.clone(),
        })
    }

    /// Reviews `record`: every position searched, from the end back, then
    /// every move judged. `progress` hears after each position; breaking
    /// from it stops the review with [`ReviewError::Stopped`]. A record
    /// whose start or moves do not replay is an error naming the ply,
    /// before anything is searched.
    pub fn annotate(
        &mut self,
        record: &Record,
        progress: &mut dyn FnMut(ReviewProgress) -> ControlFlow<()>,
    ) -> Result<AnnotatedGame, ReviewError> {
        let game = replay(record)?;
        self.analyser.new_game();
        let total = game.positions().len();
        // Searched from the end back, then put in the game's order.
        let mut evals = Vec::with_capacity(total);
        for index in (0..total).rev() {
            let found = self
                .analyser
                .evaluate(&game.positions()[index], &game.rules());
            let eval = found.eval;
            evals.push(found);
            if progress(ReviewProgress {
                done: evals.len(),
                total,
                ply: index,
                eval,
            })
            .is_break()
            {
                return Err(ReviewError::Stopped);
            }
        }
        evals.reverse();
        let books: Vec<bool> = record.moves.iter().map(is_book).collect();
        let annotator = format!(
            "pasang {} ({})",
            env!("CARGO_PKG_VERSION"),
            self.settings.limit
        );
        Ok(judge(record, &game, &evals, &books, annotator))
    }
}

/// Whether a record's move is an opening ply (`book` comment).
fn is_book(mv: &RecordMove) -> bool {
    mv.comment
        .as_deref()
        .and_then(|comment| comment.split_whitespace().next())
        == Some("book")
}

/// Reviews one game with a reviewer of its own (see
/// [`Reviewer::annotate`]).
pub fn annotate_game(
    record: &Record,
    settings: &ReviewSettings,
    progress: &mut dyn FnMut(ReviewProgress) -> ControlFlow<()>,
) -> Result<AnnotatedGame, ReviewError> {
    Reviewer::new(settings)?.annotate(record, progress)
}

/// Judges every move from the positions' evaluations.
fn judge(
    record: &Record,
    game: &Game,
    evals: &[PositionEval],
    books: &[bool],
    annotator: String,
) -> AnnotatedGame {
    let mut plies = Vec::with_capacity(game.moves().len());
    for (index, &played) in game.moves().iter().enumerate() {
        let (before, after) = (&evals[index], &evals[index + 1]);
        let mover = game.positions()[index].side_to_move();
        let agreed = before.line.first() == Some(&played);
        let drop = if agreed {
            0.0
        } else {
            chances_drop(before.eval, after.eval, mover)
        };
        let book = books[index];
        let mark = if book {
            None
        } else {
            mark_for_move(before.eval, after.eval, mover, drop)
        };
        // The engine's move only where it is strictly better than the
        // move played by the review's own evaluations (a drop above 0):
        // so always for a marked move, and never one rated no better.
        let best = (drop > 0.0 && !before.line.is_empty()).then(|| BestMove {
            mv: before.line[0],
            eval: before.eval,
            line: before.line.clone(),
        });
        plies.push(PlyReview {
            ply: index + 1,
            mover,
            played,
            eval: after.eval,
            depth: after.depth,
            south_win_percent: after.eval.win_percent(Player::South),
            drop,
            mark,
            accuracy: (!book).then(|| move_accuracy(drop)),
            book,
            best,
        });
    }
    let win_percents: Vec<f64> = evals
        .iter()
        .map(|eval| eval.eval.win_percent(Player::South))
        .collect();
    let summary = |side: Player| {
        let mine = || plies.iter().filter(move |ply| ply.mover == side);
        let judged: Vec<JudgedMove> = mine()
            .filter_map(|ply| {
                ply.accuracy.map(|accuracy| JudgedMove {
                    index: ply.ply - 1,
                    accuracy,
                })
            })
            .collect();
        let count = |mark: Mark| mine().filter(|ply| ply.mark == Some(mark)).count() as u32;
        SideSummary {
            accuracy: game_accuracy(&win_percents, &judged),
            inaccuracies: count(Mark::Inaccuracy),
            mistakes: count(Mark::Mistake),
            blunders: count(Mark::Blunder),
        }
    };
    let (south, north) = (summary(Player::South), summary(Player::North));
    AnnotatedGame {
        source: record.clone(),
        start: game.positions()[0],
        start_eval: evals[0].eval,
        start_depth: evals[0].depth,
        annotator,
        plies,
        south,
        north,
    }
}

/// An accuracy as records and JSON give it: one decimal.
fn round_accuracy(accuracy: f64) -> f64 {
    (accuracy * 10.0).round() / 10.0
}

impl AnnotatedGame {
    /// The record as it was given.
    pub fn source(&self) -> &Record {
        &self.source
    }

    /// The judged moves, in order.
    pub fn plies(&self) -> &[PlyReview] {
        &self.plies
    }

    /// The start position's evaluation (South's view) and its depth.
    pub fn start_eval(&self) -> (Evaluation, u32) {
        (self.start_eval, self.start_depth)
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// One side's accuracy and marks.
    pub fn summary(&self, side: Player) -> SideSummary {
        match side {
            Player::South => self.south,
            Player::North => self.north,
        }
    }

    /// Who annotated it: `pasang <version> (<limit>)`.
    pub fn annotator(&self) -> &str {
        &self.annotator
    }

    /// The annotated record: the source's tags (less earlier annotation
    /// tags), then `Annotator`, `StartEvaluation` and per side
    /// `<Side>Accuracy` (when the side has a judged move),
    /// `<Side>Inaccuracies`, `<Side>Mistakes` and `<Side>Blunders`; each
    /// move with its mark as a suffix and its annotation as the comment
    /// (docs/review.md).
    pub fn to_record(&self) -> Record {
        let mut record = self.header();
        record.moves = self
            .plies
            .iter()
            .zip(&self.source.moves)
            .map(|(ply, source)| RecordMove {
                text: source.text.clone(),
                comment: Some(comment::write(
                    ply.book,
                    ply.eval,
                    ply.depth,
                    ply.mark,
                    ply.best.as_ref(),
                )),
                mark: ply.mark,
            })
            .collect();
        record
    }

    /// [`AnnotatedGame::to_record`]'s tags and result, without moves.
    fn header(&self) -> Record {
        let mut record = Record {
            tags: self
                .source
                .tags
                .iter()
                .filter(|(name, _)| !TAGS.contains(&name.as_str()))
                .cloned()
                .collect(),
            moves: Vec::new(),
            result: self.source.result,
        };
        record.push_tag("Annotator", self.annotator.clone());
        let start = comment::write(false, self.start_eval, self.start_depth, None, None);
        record.push_tag("StartEvaluation", start);
        for (side, summary) in [("South", self.south), ("North", self.north)] {
            if let Some(accuracy) = summary.accuracy {
                record.push_tag(
                    &format!("{side}Accuracy"),
                    format!("{:.1}", round_accuracy(accuracy)),
                );
            }
            record.push_tag(
                &format!("{side}Inaccuracies"),
                summary.inaccuracies.to_string(),
            );
            record.push_tag(&format!("{side}Mistakes"), summary.mistakes.to_string());
            record.push_tag(&format!("{side}Blunders"), summary.blunders.to_string());
        }
        record
    }

    /// Reads a record [`AnnotatedGame::to_record`] wrote, without
    /// searching: the evaluations and lines come from its comments, and
    /// the marks and accuracies are worked out from them again as a review
    /// does. An error names the ply whose move or comment does not read.
    pub fn from_record(record: &Record) -> Result<AnnotatedGame, ReviewError> {
        let game = replay(record)?;
        let start = record
            .tag("StartEvaluation")
            .and_then(comment::parse)
            .ok_or(ReviewError::NotAnnotated { ply: 0 })?;
        let mut evals = vec![PositionEval {
            eval: start.eval,
            depth: start.depth,
            line: Vec::new(),
        }];
        let mut books = Vec::with_capacity(record.moves.len());
        for (index, mv) in record.moves.iter().enumerate() {
            let ply = index + 1;
            let parsed = mv
                .comment
                .as_deref()
                .and_then(comment::parse)
                .ok_or(ReviewError::NotAnnotated { ply })?;
            // The engine's line belongs to the position before the move.
            let before = &mut evals[index];
            before.line = match parsed.best {
                Some((_, line)) => {
                    let mut moves = Vec::with_capacity(line.len());
                    play_moves(game.positions()[index], &game.rules(), &line, |mv| {
                        moves.push(mv)
                    })
                    .map_err(|_| ReviewError::NotAnnotated { ply })?;
                    moves
                }
                // No line given: the engine played the move itself.
                None => vec![game.moves()[index]],
            };
            evals.push(PositionEval {
                eval: parsed.eval,
                depth: parsed.depth,
                line: Vec::new(),
            });
            books.push(parsed.book);
        }
        let annotator = record.tag("Annotator").unwrap_or("").to_string();
        let mut source = record.clone();
        source
            .tags
            .retain(|(name, _)| !TAGS.contains(&name.as_str()));
        Ok(judge(&source, &game, &evals, &books, annotator))
    }

    /// The review as one JSON object (docs/review.md), typed
    /// ([`ReviewJson`]): `tags`, `result`, `start`, `summary` (`south`,
    /// `north`) and `plies`, each ply with its `move`, `side`, `eval`,
    /// `depth`, `south_win_percent`, `drop`, `accuracy`, `mark`, `book` and
    /// `best` (`null`, or `move`, `eval` and `line`). An evaluation is
    /// `{"cp": 125, "text": "+1.25"}`, `{"winner": "south", "moves": 7,
    /// "text": "South wins by force in 7"}`, `{"draw": true, "text":
    /// "drawn by force"}` or, after the last move, `{"result": "1-0",
    /// "text": "South has won"}` ([`EvalJson`]).
    pub fn to_json(&self) -> ReviewJson {
        ReviewJson::from(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record of the start position and `moves`, with `book` comments on
    /// the first `book` plies.
    fn record(moves: &[&str], book: usize) -> Record {
        let mut record = Record::default();
        record.push_tag("South", "Ani");
        record.push_tag("North", "Bo");
        record.moves = moves
            .iter()
            .enumerate()
            .map(|(index, text)| RecordMove {
                text: text.to_string(),
                comment: (index < book).then(|| "book".to_string()),
                mark: None,
            })
            .collect();
        record.result = crate::record::GameResult::Unfinished;
        record
    }

    fn eval(game: &Game, index: usize, eval: Evaluation, line: &[&str]) -> PositionEval {
        let mut moves = Vec::new();
        play_moves(game.positions()[index], &game.rules(), line, |mv| {
            moves.push(mv)
        })
        .unwrap();
        PositionEval {
            eval,
            depth: 9,
            line: moves,
        }
    }

    #[test]
    fn moves_are_judged_by_drops_and_proofs() {
        let record = record(&["c", "j", "b4c4n", "k7j7w"], 0);
        let game = replay(&record).unwrap();
        let south_wins = |moves| Evaluation::Win {
            winner: Player::South,
            moves,
        };
        let evals = [
            eval(&game, 0, Evaluation::Centipoints(300), &["c"]),
            eval(&game, 1, Evaluation::Centipoints(-900), &["k"]),
            eval(&game, 2, south_wins(5), &["b5c5ew"]),
            eval(&game, 3, Evaluation::Centipoints(5000), &["i7j7ew"]),
            eval(&game, 4, south_wins(4), &[]),
        ];
        let review = judge(&record, &game, &evals, &[false; 4], "test".into());
        let plies = review.plies();
        let marks: Vec<Option<Mark>> = plies.iter().map(|ply| ply.mark).collect();
        assert_eq!(marks, [None, Some(Mark::Blunder), None, None]);
        // Ply 1: the engine would have played c, so the fall from +3.00
        // to -9.00 between the two searches is not held against it.
        assert_eq!(plies[0].drop, 0.0);
        assert_eq!(plies[0].best, None);
        assert_eq!(plies[0].accuracy, Some(move_accuracy(0.0)));
        // Ply 2: North's 72.8% gone to a forced loss.
        assert!((plies[1].drop - 72.8).abs() < 0.1, "{}", plies[1].drop);
        assert_eq!(plies[1].best.as_ref().unwrap().mv.to_string(), "k");
        assert_eq!(
            plies[1].best.as_ref().unwrap().eval,
            Evaluation::Centipoints(-900)
        );
        // Ply 3: a forced win given up for +50.00, still won; ply 4: a
        // forced loss walked into from +50.00, already lost. Neither is
        // marked (as lichess), but the engine's moves were better.
        assert!(plies[2].drop < 1.0 && plies[3].drop < 1.0);
        assert!(plies[2].best.is_some() && plies[3].best.is_some());
        let south = review.summary(Player::South);
        assert_eq!(
            (south.inaccuracies, south.mistakes, south.blunders),
            (0, 0, 0)
        );
        assert_eq!(review.summary(Player::North).blunders, 1);
        assert_eq!(plies[3].south_win_percent, 100.0);

        // Written and read back, the review is the same.
        let again = AnnotatedGame::from_record(&review.to_record()).unwrap();
        assert_eq!(again.plies(), review.plies());
        assert_eq!(again.summary(Player::North), review.summary(Player::North));
        assert_eq!(again.start_eval(), (Evaluation::Centipoints(300), 9));
        let text = review.to_record().to_string();
        assert!(text.contains(" j?? {"), "{text}");
        assert!(text.contains("2. b4c4n {"), "{text}");
        assert!(text.contains("[NorthBlunders \"1\"]"), "{text}");

        // Book plies are evaluated but not judged.
        let books = [true, true, false, false];
        let review = judge(&record, &game, &evals, &books, "test".into());
        assert_eq!(review.plies()[1].mark, None);
        assert_eq!(review.plies()[1].accuracy, None);
        assert_eq!(review.summary(Player::North).blunders, 0);
        let again = AnnotatedGame::from_record(&review.to_record()).unwrap();
        assert!(again.plies()[1].book && !again.plies()[2].book);
    }

    #[test]
    fn the_engine_move_is_given_only_where_strictly_better() {
        let record = record(&["c", "j", "b4c4n", "k7j7w"], 0);
        let game = replay(&record).unwrap();
        let south_wins = |moves| Evaluation::Win {
            winner: Player::South,
            moves,
        };
        // A won ending: c wins in 6 where the engine's d wins in 8 (the
        // review once wrote `{+M6 ... Best +M8 ...}`), and North's moves
        // are all lost: no better move, no mark.
        let won = [
            eval(&game, 0, south_wins(8), &["d"]),
            eval(&game, 1, south_wins(6), &["k"]),
            eval(&game, 2, south_wins(5), &["b5c5ew"]),
            eval(&game, 3, south_wins(4), &["i7j7ew"]),
            eval(&game, 4, south_wins(2), &[]),
        ];
        let review = judge(&record, &game, &won, &[false; 4], "test".into());
        for ply in review.plies() {
            assert_eq!(
                (ply.drop, ply.mark, &ply.best),
                (0.0, None, &None),
                "{ply:?}"
            );
        }
        let text = review.to_record().to_string();
        assert!(!text.contains("Best"), "{text}");

        // Points: c does better than the engine thought (no drop), j a
        // little worse (a better move, no mark), b4c4n throws away 16
        // points of South's chances and k7j7w 5.5 of North's (a draw by
        // force from -2.00).
        let points = [
            eval(&game, 0, Evaluation::Centipoints(300), &["d"]),
            eval(&game, 1, Evaluation::Centipoints(350), &["k"]),
            eval(&game, 2, Evaluation::Centipoints(400), &["b5c5ew"]),
            eval(&game, 3, Evaluation::Centipoints(-200), &["i7j7ew"]),
            eval(&game, 4, Evaluation::Draw, &[]),
        ];
        let review = judge(&record, &game, &points, &[false; 4], "test".into());
        let plies = review.plies();
        let marks: Vec<Option<Mark>> = plies.iter().map(|ply| ply.mark).collect();
        assert_eq!(
            marks,
            [None, None, Some(Mark::Blunder), Some(Mark::Inaccuracy)]
        );
        assert_eq!(plies[0].best, None);
        let best: Vec<String> = plies[1..]
            .iter()
            .map(|ply| ply.best.as_ref().unwrap().mv.to_string())
            .collect();
        assert_eq!(best, ["k", "b5c5ew", "i7j7ew"]);
        // The engine's move is named exactly where the drop, as JSON
        // gives it, is above 0.
        for ply in review.to_json().plies {
            assert_eq!(ply.best.is_none(), ply.drop == 0.0, "{ply:?}");
        }
        let again = AnnotatedGame::from_record(&review.to_record()).unwrap();
        assert_eq!(again.plies(), review.plies());
    }

    #[test]
    fn bad_records_name_the_ply() {
        let error = replay(&record(&["c", "c"], 0)).err().unwrap();
        assert!(matches!(
            &error,
            ReviewError::Replay(ReplayError::Ply(fault)) if fault.number == 2
        ));
        assert!(
            error.to_string().starts_with("ply 2: illegal move 'c'"),
            "{error}"
        );
        let plain = record(&["c"], 0);
        assert_eq!(
            AnnotatedGame::from_record(&plain)
                .err()
                .unwrap()
                .to_string(),
            "not an annotated record: no StartEvaluation tag"
        );
        let mut unreadable = plain.clone();
        unreadable.push_tag("StartEvaluation", "+0.10/3");
        unreadable.moves[0].comment = Some("+0.10/3 0.01s Best".into());
        assert_eq!(
            AnnotatedGame::from_record(&unreadable)
                .err()
                .unwrap()
                .to_string(),
            "ply 1: the comment is not an annotation"
        );
    }

    #[test]
    fn a_review_can_be_stopped_and_searches_every_position() {
        let settings = ReviewSettings {
            limit: ReviewLimit::Depth(2),
            ..ReviewSettings::default()
        };
        let record = record(&["c", "j"], 0);
        let mut seen = Vec::new();
        let review = annotate_game(&record, &settings, &mut |progress| {
            seen.push(progress);
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(seen.len(), 3);
        let steps: Vec<(usize, usize, usize)> = seen
            .iter()
            .map(|step| (step.done, step.total, step.ply))
            .collect();
        assert_eq!(steps, [(1, 3, 2), (2, 3, 1), (3, 3, 0)]);
        assert_eq!(seen[2].eval, review.start_eval().0);
        assert_eq!(review.plies().len(), 2);
        assert!(review.annotator().ends_with("(depth 2)"));
        let stopped = annotate_game(&record, &settings, &mut |_| ControlFlow::Break(()));
        assert!(matches!(stopped, Err(ReviewError::Stopped)));
    }
}
