//! The board's review mode: the games of an opened record file, and the
//! review of the game on the board by [`crate::review`], worked out on a
//! thread of its own so that the page stays live. A record that carries
//! annotations already is read as it is, with no search.
//!
//! The review searches with this program's own engine, in-process, whatever
//! `--engine` the page plays against: the judgements are `pasang annotate`'s.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

use super::message::{GameEntry, PageMessage, Players, ReviewMessage, Standing};
use crate::position::Player;
use crate::record::Record;
use crate::review::{
    AnnotatedGame, DEFAULT_NODES, Evaluation, ReviewError, ReviewLimit, ReviewProgress,
    ReviewSettings, annotate_game,
};

/// Table size of a review's search, in MiB (one per page under review);
/// otherwise it searches as `pasang annotate` does by default: a fixed
/// node count a position ([`DEFAULT_NODES`], about 200 ms) on one thread,
/// so a record always gets the same review (a 60-ply game takes about
/// 12 s).
const REVIEW_HASH_MIB: usize = 16;

/// The games of a file the page opened, and which one is on the board.
#[derive(Debug)]
pub struct OpenedFile {
    records: Vec<Record>,
    chosen: Option<usize>,
}

impl OpenedFile {
    /// A file of `records` (at least one), none chosen yet.
    pub fn new(records: Vec<Record>) -> OpenedFile {
        OpenedFile {
            records,
            chosen: None,
        }
    }

    /// Whether a game of the file has been chosen.
    pub fn is_chosen(&self) -> bool {
        self.chosen.is_some()
    }

    /// How many games the file holds.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Game `number` (from 1), if there is one.
    pub fn game(&self, number: usize) -> Option<&Record> {
        self.records.get(number.checked_sub(1)?)
    }

    /// Makes game `number` (from 1) the chosen one; false if there is none.
    pub fn choose(&mut self, number: usize) -> bool {
        let exists = self.game(number).is_some();
        if exists {
            self.chosen = Some(number);
        }
        exists
    }

    /// The `games` message: each game's number, players, result and
    /// length, for the page's picker.
    pub fn games_message(&self) -> PageMessage {
        let tag = |record: &Record, name| record.tag(name).map(str::to_string);
        let games = self
            .records
            .iter()
            .enumerate()
            .map(|(index, record)| GameEntry {
                game: index + 1,
                south: tag(record, "South"),
                north: tag(record, "North"),
                event: tag(record, "Event"),
                result: record.result.as_str(),
                plies: record.moves.len(),
                annotated: record.tag("StartEvaluation").is_some(),
            })
            .collect();
        PageMessage::Games {
            games,
            chosen: self.chosen,
        }
    }
}

/// What a review thread says.
enum ReviewUpdate {
    Progress(ReviewProgress),
    Done(Box<Result<AnnotatedGame, ReviewFailure>>),
}

/// Why a review of the board ended without an annotated game.
#[derive(Debug, thiserror::Error)]
pub enum ReviewFailure {
    /// No thread could be started for it.
    #[error("cannot start the review: {0}")]
    Start(#[source] std::io::Error),
    /// The review itself failed (a record it cannot replay, say).
    #[error(transparent)]
    Review(#[from] ReviewError),
    /// The review's thread ended without an answer.
    #[error("the review stopped without an answer")]
    Vanished,
}

/// Where a review stands.
#[derive(Debug)]
enum Stage {
    /// The search runs; `done` of `total` positions are searched, and
    /// `standings` holds what is known of each (South's winning chances
    /// and the evaluation's words), for a graph drawn as it goes.
    Running {
        reports: Receiver<ReviewUpdate>,
        stop: Arc<AtomicBool>,
        done: usize,
        total: usize,
        standings: Vec<Option<(f64, Evaluation)>>,
    },
    /// Every move judged.
    Done(Box<AnnotatedGame>),
}

impl std::fmt::Debug for ReviewUpdate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReviewUpdate::Progress(progress) => write!(f, "Progress({progress:?})"),
            ReviewUpdate::Done(_) => f.write_str("Done"),
        }
    }
}

#[cfg(target_arch = "wasm32")]
thread_local! {
    /// The review waiting to run, in a browser (one thread, no spawn).
    static DEFERRED_JOB: std::cell::RefCell<Option<Box<dyn FnOnce()>>> =
        const { std::cell::RefCell::new(None) };
}

/// Keeps `job` for [`run_deferred_job`] (a newer review replaces an older
/// one that never started: its page is gone).
#[cfg(target_arch = "wasm32")]
fn defer_job(job: Box<dyn FnOnce()>) {
    DEFERRED_JOB.with(|slot| *slot.borrow_mut() = Some(job));
}

/// Runs the review that waits, if any, to its end (its searches pause for
/// the page). Called with the session free; a call made during one of
/// those pauses finds nothing to run.
#[cfg(target_arch = "wasm32")]
pub(crate) fn run_deferred_job() -> bool {
    let job = DEFERRED_JOB.with(|slot| slot.borrow_mut().take());
    match job {
        Some(job) => {
            job();
            true
        }
        None => false,
    }
}

/// The review of one game: running, or done.
#[derive(Debug)]
pub struct GameReview {
    /// The moves of the game reviewed: a review belongs to them only.
    moves: Vec<String>,
    /// The record reviewed (names, result, tags).
    record: Record,
    stage: Stage,
}

impl GameReview {
    /// The review a record carries already, if it is an annotated one.
    pub fn from_annotated(record: &Record, moves: Vec<String>) -> Option<GameReview> {
        let annotated = AnnotatedGame::from_record(record).ok()?;
        Some(GameReview {
            moves,
            record: record.clone(),
            stage: Stage::Done(Box::new(annotated)),
        })
    }

    /// Starts reviewing `record` (whose moves are `moves`) on a thread.
    pub fn start(record: Record, moves: Vec<String>) -> GameReview {
        let (sender, reports) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        let total = moves.len() + 1;
        let settings = ReviewSettings {
            limit: ReviewLimit::Nodes(DEFAULT_NODES),
            threads: 1,
            hash_mib: REVIEW_HASH_MIB,
        };
        let job_record = record.clone();
        let job_stop = Arc::clone(&stop);
        let job = move || {
            let mut progress = |progress: ReviewProgress| {
                // A page that is gone no longer hears: stop too.
                let heard = sender.send(ReviewUpdate::Progress(progress)).is_ok();
                if heard && !job_stop.load(Ordering::Relaxed) {
                    ControlFlow::Continue(())
                } else {
                    ControlFlow::Break(())
                }
            };
            let result =
                annotate_game(&job_record, &settings, &mut progress).map_err(ReviewFailure::from);
            let _ = sender.send(ReviewUpdate::Done(Box::new(result)));
        };
        #[cfg(not(target_arch = "wasm32"))]
        let spawned = std::thread::Builder::new()
            .name("gui review".into())
            .spawn(job);
        // No threads in a browser: the review waits for the one that holds
        // the session (`InProcessBoard`) to run it once the session is
        // free, so that while its searches pause for the page (see `host`)
        // the session reads its progress and the page hears it.
        #[cfg(target_arch = "wasm32")]
        let spawned = {
            defer_job(Box::new(job));
            Ok::<(), std::io::Error>(())
        };
        let stage = match spawned {
            Ok(_) => Stage::Running {
                reports,
                stop,
                done: 0,
                total,
                standings: vec![None; total],
            },
            Err(error) => {
                let (sender, reports) = channel();
                let _ = sender.send(ReviewUpdate::Done(Box::new(Err(ReviewFailure::Start(
                    error,
                )))));
                Stage::Running {
                    reports,
                    stop,
                    done: 0,
                    total,
                    standings: Vec::new(),
                }
            }
        };
        GameReview {
            moves,
            record,
            stage,
        }
    }

    /// Whether this is the review of a game of `moves`.
    pub fn is_of(&self, moves: &[String]) -> bool {
        self.moves == moves
    }

    /// Whether the search still runs.
    pub fn running(&self) -> bool {
        matches!(self.stage, Stage::Running { .. })
    }

    /// Takes in what the thread said since the last look. `Ok(true)`:
    /// something changed (the page should hear); an error: the review
    /// failed, and is over.
    pub fn poll(&mut self) -> Result<bool, ReviewFailure> {
        let mut changed = false;
        loop {
            let Stage::Running {
                reports,
                done,
                total,
                standings,
                ..
            } = &mut self.stage
            else {
                return Ok(changed);
            };
            match reports.try_recv() {
                Ok(ReviewUpdate::Progress(progress)) => {
                    *done = progress.done;
                    *total = progress.total;
                    if let Some(standing) = standings.get_mut(progress.ply) {
                        let win = progress.eval.win_percent(Player::South);
                        *standing = Some((win, progress.eval));
                    }
                    changed = true;
                }
                Ok(ReviewUpdate::Done(result)) => {
                    self.stage = Stage::Done(Box::new((*result)?));
                    return Ok(true);
                }
                Err(TryRecvError::Empty) => return Ok(changed),
                Err(TryRecvError::Disconnected) => {
                    return Err(ReviewFailure::Vanished);
                }
            }
        }
    }

    /// The annotated record, once the review is done.
    pub fn annotated_record(&self) -> Option<Record> {
        match &self.stage {
            Stage::Done(game) => Some(game.to_record()),
            Stage::Running { .. } => None,
        }
    }

    /// The `review` message: the players and result, how far the search
    /// has come with each position searched so far (`partial`: per ply
    /// from 0, South's `win` percent and the evaluation's `text`, or
    /// null), and once done the whole review as `pasang annotate --json`
    /// gives it (`game`).
    pub fn message(&self) -> PageMessage {
        let (running, done, total, partial, game) = match &self.stage {
            Stage::Running {
                done,
                total,
                standings,
                ..
            } => {
                let partial = standings
                    .iter()
                    .map(|standing| {
                        standing.as_ref().map(|&(win, eval)| Standing {
                            win: (win * 10.0).round() / 10.0,
                            text: eval.to_string(),
                            eval: eval.into(),
                        })
                    })
                    .collect();
                (true, *done, *total, Some(partial), None)
            }
            Stage::Done(game) => {
                let total = self.moves.len() + 1;
                (false, total, total, None, Some(game.to_json()))
            }
        };
        let tag = |name| self.record.tag(name).map(str::to_string);
        PageMessage::Review(Box::new(ReviewMessage {
            players: Players {
                south: tag("South"),
                north: tag("North"),
            },
            result: self.record.result.as_str(),
            running,
            done,
            total,
            partial,
            game,
        }))
    }
}

impl Drop for GameReview {
    /// A review no longer wanted stops after the position it searches.
    fn drop(&mut self) {
        if let Stage::Running { stop, .. } = &self.stage {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record;
    use crate::review::ReviewJson;
    use serde_json::Value;

    /// A message as the page reads it.
    fn wire(message: PageMessage) -> Value {
        serde_json::from_str(&message.to_json()).unwrap()
    }

    const TWO_GAMES: &str = "[Event \"a\"]\n[South \"Ann\"]\n[North \"Bob\"]\n[Result \"*\"]\n\n1. c j *\n\n\
                             [Event \"b\"]\n[South \"Cid\"]\n[North \"Dee\"]\n[Result \"*\"]\n\n1. d *\n";

    #[test]
    fn a_file_of_games_offers_each() {
        let mut file = OpenedFile::new(record::read(TWO_GAMES).unwrap());
        assert_eq!(file.len(), 2);
        let message = wire(file.games_message());
        assert_eq!(message["games"][1]["south"], "Cid");
        assert_eq!(message["games"][0]["plies"], 2);
        assert_eq!(message["chosen"], Value::Null);
        assert_eq!(file.game(2).unwrap().moves.len(), 1);
        assert!(file.choose(2));
        assert_eq!(wire(file.games_message())["chosen"], 2);
        assert!(!file.choose(0) && !file.choose(3) && file.game(3).is_none());
    }

    #[test]
    fn a_review_runs_to_its_end_and_says_so() {
        let record = record::read(TWO_GAMES).unwrap().remove(0);
        let moves = vec!["c".to_string(), "j".to_string()];
        let mut review = GameReview::start(record, moves.clone());
        assert!(review.is_of(&moves) && review.running());
        assert_eq!(wire(review.message())["total"], 3);
        let mut partial = Vec::new();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while review.running() {
            assert!(std::time::Instant::now() < deadline, "no end");
            review.poll().unwrap();
            if review.running() {
                partial = wire(review.message())["partial"]
                    .as_array()
                    .unwrap()
                    .clone();
                // The positions are searched from the end back: a known
                // one is followed by known ones only.
                let known: Vec<bool> = partial.iter().map(|p| !p.is_null()).collect();
                assert!(known.windows(2).all(|k| !k[0] || k[1]), "{partial:?}");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let message = wire(review.message());
        assert_eq!(message["done"], 3);
        // What is known of a position is its winning chances.
        if let Some(last) = partial.last() {
            assert!(last.is_null() || last["win"].is_number(), "{partial:?}");
        }
        assert_eq!(message["players"]["south"], "Ann");
        assert_eq!(message["game"]["plies"].as_array().unwrap().len(), 2);
        // The page's `game` is the review's own JSON, and reads back as it.
        let game: ReviewJson = serde_json::from_value(message["game"].clone()).unwrap();
        assert_eq!(game.plies.len(), 2);
        assert_eq!(game.summary.south.name.as_deref(), Some("Ann"));
        // Written out, it reads back as annotated, with no search.
        let text = review.annotated_record().unwrap().to_string();
        let again = record::read(&text).unwrap().remove(0);
        let read = GameReview::from_annotated(&again, moves).unwrap();
        assert!(!read.running());
        assert_eq!(
            wire(read.message())["game"]["plies"],
            message["game"]["plies"]
        );
    }
}
