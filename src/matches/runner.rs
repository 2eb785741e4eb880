//! Playing a match: the records file, the worker threads that play the
//! games, and the progress they share.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::config::MatchConfig;
use super::referee::{PlayedGame, Seat};
use super::resume::{MatchIdentity, Played, RecordFault};
use super::statistics::Decision;
use super::tally::Tally;
use super::{MatchError, referee};
use crate::client::EngineSpec;
use crate::protocol::options::RULE_OPTIONS;
use crate::record::{self, Record, Scoresheet};
use crate::schedule::openings;
use crate::schedule::shard::Shard;

/// Why the records file (`--out`) cannot be opened or resumed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RecordsFileError {
    /// A fresh file cannot be created.
    #[error("cannot create '{path}': {1}", path = .0.display())]
    Create(PathBuf, #[source] std::io::Error),
    /// The file to resume cannot be read.
    #[error("cannot read '{path}': {1}", path = .0.display())]
    Read(PathBuf, #[source] std::io::Error),
    /// The file to resume cannot be cut or appended to.
    #[error("cannot append to '{path}': {1}", path = .0.display())]
    Append(PathBuf, #[source] std::io::Error),
    /// A record (numbered from 1) cannot be counted again.
    #[error("cannot resume '{}': record {number}: {fault}", .path.display())]
    Record {
        path: PathBuf,
        number: usize,
        fault: RecordFault,
    },
    /// A record belongs to another match. (The identities are boxed: an
    /// error this rare should not make every `Result` it travels in
    /// hundreds of bytes long.)
    #[error(
        "cannot resume '{}': record {number} is of another match ({found}; this one is {expected})",
        .path.display()
    )]
    OtherMatch {
        path: PathBuf,
        number: usize,
        found: Box<MatchIdentity>,
        expected: Box<MatchIdentity>,
    },
    /// A record is of a pair outside this run's shard.
    #[error(
        "cannot resume '{}': record {number} is of pair {pair}, not of shard {shard}",
        .path.display()
    )]
    OtherShard {
        path: PathBuf,
        number: usize,
        pair: u64,
        shard: Shard,
    },
    /// A record repeats a game already in the file.
    #[error(
        "cannot resume '{}': record {number} repeats a game of pair {pair}",
        .path.display()
    )]
    Repeated {
        path: PathBuf,
        number: usize,
        pair: u64,
    },
}

impl MatchConfig {
    /// Opens the records file: created afresh, or with `--resume` (when it
    /// exists) cut after its last complete record and opened to append.
    /// Returns the writer and the games already recorded.
    fn open_records(
        &self,
        heading: &str,
    ) -> Result<(Option<BufWriter<File>>, Vec<Played>), RecordsFileError> {
        let Some(path) = &self.out else {
            return Ok((None, Vec::new()));
        };
        let shown = path.display();
        if !self.resume || !path.exists() {
            let file = File::create(path).map_err(|e| RecordsFileError::Create(path.clone(), e))?;
            return Ok((Some(BufWriter::new(file)), Vec::new()));
        }
        let text =
            std::fs::read_to_string(path).map_err(|e| RecordsFileError::Read(path.clone(), e))?;
        let prefix = record::read_prefix(&text);
        let mut keep = prefix.complete_bytes;
        for ending in ["\r\n", "\n"] {
            if text[keep..].starts_with(ending) {
                keep += ending.len();
                break;
            }
        }
        if let Some(error) = &prefix.error {
            eprintln!(
                "warning: '{shown}': {error}; the last {} bytes (a half-written record) are discarded",
                text.len() - keep
            );
        }
        let expected = self.identity(heading);
        let mut played: Vec<Played> = Vec::new();
        for (index, record) in prefix.records.iter().enumerate() {
            let number = index + 1;
            let game = Played::of(record).map_err(|fault| RecordsFileError::Record {
                path: path.clone(),
                number,
                fault,
            })?;
            if game.identity != expected {
                return Err(RecordsFileError::OtherMatch {
                    path: path.clone(),
                    number,
                    found: Box::new(game.identity),
                    expected: Box::new(expected),
                });
            }
            if let Some(shard) = self.shard.filter(|shard| !shard.has(game.pair)) {
                return Err(RecordsFileError::OtherShard {
                    path: path.clone(),
                    number,
                    pair: game.pair,
                    shard,
                });
            }
            if played.iter().any(|other| other.game() == game.game()) {
                return Err(RecordsFileError::Repeated {
                    path: path.clone(),
                    number,
                    pair: game.pair,
                });
            }
            played.push(game);
        }
        let mut file = OpenOptions::new()
            .append(true)
            .open(path)
            .and_then(|file| file.set_len(keep as u64).map(|()| file))
            .map_err(|e| RecordsFileError::Append(path.clone(), e))?;
        let kept = &text[..keep];
        if !kept.is_empty() && !kept.ends_with("\n\n") && !kept.ends_with("\r\n\r\n") {
            // Records are separated by a blank line.
            let separated = if kept.ends_with('\n') { "\n" } else { "\n\n" };
            file.write_all(separated.as_bytes())
                .map_err(|e| RecordsFileError::Append(path.clone(), e))?;
        }
        Ok((Some(BufWriter::new(file)), played))
    }

    /// Plays the match and prints the summary. Exit code 1 if a game
    /// failed.
    pub(super) fn play(self) -> Result<ExitCode, MatchError> {
        let first_seats = self.start_engines()?;
        let names = [self.engines[0].name.as_str(), self.engines[1].name.as_str()];
        let heading = self.heading();
        let (writer, played) = self
            .open_records(&heading)
            .map_err(MatchError::RecordsFile)?;
        let total = match (self.bounded, self.shard) {
            (true, Some(shard)) => format!(
                "shard {shard} of a {}-game match, {} games",
                self.games, self.planned
            ),
            (true, None) => format!("{} games", self.games),
            (false, _) => "until the SPRT decides".to_string(),
        };
        eprintln!(
            "Match {} vs {}: {total}, concurrency {}; {heading}",
            names[0], names[1], self.concurrency
        );
        let mut tally = Tally::default();
        let mut done = HashSet::new();
        for game in &played {
            tally.count(
                game.winner,
                game.termination,
                game.first_is_south,
                game.pair,
            );
            done.insert(game.game());
        }
        if let Some(path) = self.out.as_ref().filter(|_| self.resume) {
            eprintln!(
                "Resuming: {} games already in '{}' are kept and not played again",
                done.len(),
                path.display()
            );
        }

        let shared = Mutex::new(MatchState {
            tally,
            writer,
            failed: false,
            stopped_by_sprt: None,
        });
        let next = AtomicU64::new(0);
        let stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let mut first_seats = Some(first_seats);
            for worker in 0..self.concurrency {
                let seats = match first_seats.take() {
                    Some(seats) => seats,
                    None => self
                        .engines
                        .iter()
                        .zip(self.limits)
                        .map(|(spec, limits)| Seat::new(spec.clone(), limits))
                        .collect(),
                };
                let (config, shared, next, stop, done) = (&self, &shared, &next, &stop, &done);
                let spawned = std::thread::Builder::new()
                    .name(format!("match worker {worker}"))
                    .spawn_scoped(scope, move || config.work(seats, shared, next, done, stop));
                if let Err(error) = spawned {
                    eprintln!("warning: cannot start worker {worker}: {error}");
                }
            }
        });

        let progress = shared
            .into_inner()
            .unwrap_or_else(|poison| poison.into_inner());
        self.report(progress, names, &heading)
    }

    /// Starts each engine once before anything else, so that a wrong
    /// command fails at once and with a clear message; the processes go
    /// on to play the first worker's games. Warns of options an engine does
    /// not announce.
    fn start_engines(&self) -> Result<Vec<Seat>, MatchError> {
        let mut seats = Vec::new();
        for (spec, limits) in self.engines.iter().zip(self.limits) {
            let mut seat = Seat::new(spec.clone(), limits);
            let identity =
                seat.ensure_started(&self.settings)
                    .map_err(|error| MatchError::EngineStart {
                        name: spec.name.clone(),
                        command: spec.command_line(),
                        error,
                    })?;
            if let Some(identity) = identity {
                let announced = |name: &str| {
                    identity
                        .options
                        .iter()
                        .any(|o| o.eq_ignore_ascii_case(name))
                };
                let rules = RULE_OPTIONS.iter().map(|option| option.name);
                let wanted = spec.options.iter().map(|(name, _)| name.as_str());
                for name in wanted.chain(rules).filter(|name| !announced(name)) {
                    eprintln!(
                        "warning: {} does not announce an option '{name}'",
                        spec.name
                    );
                }
            }
            seats.push(seat);
        }
        Ok(seats)
    }

    /// The last status line and the summary, once the workers are done.
    fn report(
        &self,
        progress: MatchState,
        names: [&str; 2],
        heading: &str,
    ) -> Result<ExitCode, MatchError> {
        if let Some(mut writer) = progress.writer
            && writer.flush().is_err()
        {
            return Err(MatchError::RecordsUnwritten);
        }
        let total = self.bounded.then_some(self.planned);
        eprintln!("{}", progress.tally.status_line(total, self.sprt.as_ref()));
        let mut summary = progress.tally.summary(names, heading, self.sprt.as_ref());
        if let Some(decision) = progress.stopped_by_sprt {
            summary.push_str(&format!(
                "Stopped by the SPRT after {} games: {decision}\n",
                progress.tally.games()
            ));
        }
        print!("{summary}");
        let _ = std::io::stdout().flush();
        Ok(super::failed_if(progress.failed))
    }

    /// A worker: plays games until none are left or the match stops.
    /// `next` counts the games of this run handed out; games in `done`
    /// were played before (`--resume`).
    fn work(
        &self,
        mut seats: Vec<Seat>,
        shared: &Mutex<MatchState>,
        next: &AtomicU64,
        done: &HashSet<u64>,
        stop: &AtomicBool,
    ) {
        loop {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let job = next.fetch_add(1, Ordering::SeqCst);
            let game = match self.shard {
                Some(shard) => shard.game(job, self.games),
                None => Some(job).filter(|game| *game < self.games),
            };
            let Some(game) = game else {
                break;
            };
            if done.contains(&game) {
                continue;
            }
            let pair = (game / 2) as usize;
            let first_is_south = game % 2 == 0;
            let opening = match self.plan.opening(pair) {
                Ok(opening) => opening,
                Err(error) => {
                    eprintln!("error: game {}: {error}", game + 1);
                    let mut progress = shared.lock().unwrap_or_else(|p| p.into_inner());
                    progress.failed = true;
                    stop.store(true, Ordering::SeqCst);
                    break;
                }
            };
            let [first, second] = seats.as_mut_slice() else {
                break;
            };
            let order = if first_is_south {
                [first, second]
            } else {
                [second, first]
            };
            let names = [order[0].spec.name.clone(), order[1].spec.name.clone()];
            let Some(result) = referee::play(order, &opening, &self.settings, stop) else {
                break;
            };
            let finished = Finished {
                number: game + 1,
                record: self.record(game, &names, &opening, &result),
                names,
                result,
                pair: pair as u64,
                first_is_south,
            };
            let mut progress = shared.lock().unwrap_or_else(|p| p.into_inner());
            progress.finish(self, &finished, stop);
        }
        for seat in &mut seats {
            seat.shut_down();
        }
    }

    /// The record of a finished game.
    fn record(
        &self,
        game: u64,
        names: &[String; 2],
        opening: &openings::Opening,
        played: &PlayedGame,
    ) -> Record {
        let spec_of = |name: &str| self.engines.iter().find(|s| s.name == name);
        let options_of = |name: &str| spec_of(name).map_or(String::new(), EngineSpec::options_text);
        let mut setup_tags = vec![
            ("OpeningPlies", opening.game.len().to_string()),
            ("Seed", self.plan.seed.to_string()),
            ("RandomPlies", self.plan.random_plies.to_string()),
            ("First", self.engines[0].name.clone()),
        ];
        if self.bounded {
            setup_tags.push(("Games", self.games.to_string()));
        }
        setup_tags.push(("Conditions", self.heading()));
        let limits_of = |name: &str| {
            let index = usize::from(self.engines[0].name != name);
            self.limits[index]
        };
        let (south, north) = (limits_of(&names[0]), limits_of(&names[1]));
        if south == north {
            setup_tags.push(("TimeControl", south.describe()));
        } else {
            setup_tags.push(("SouthTimeControl", south.describe()));
            setup_tags.push(("NorthTimeControl", north.describe()));
        }
        Record::from_game(Scoresheet {
            numbering: vec![
                ("Round", (game + 1).to_string()),
                ("Pair", (game / 2).to_string()),
            ],
            players: names.clone(),
            player_tags: vec![
                ("SouthOptions", options_of(&names[0])),
                ("NorthOptions", options_of(&names[1])),
            ],
            // The opening's position string as given (a book line's).
            start: opening.start.clone(),
            setup_tags,
            result: played.result(),
            ending: Some(played.ending()),
            ply_count: true,
            ..Scoresheet::of_game("pasang match", &played.game, &played.comments)
        })
    }
}

/// A game just played, as a worker hands it over.
struct Finished {
    /// Its number, from 1.
    number: u64,
    /// The engines' names, South first.
    names: [String; 2],
    result: PlayedGame,
    /// The pair it belongs to (both games of a pair share an opening).
    pair: u64,
    /// Whether the first engine sat South.
    first_is_south: bool,
    record: Record,
}

/// What workers share: the score, the records file, and how it ended.
struct MatchState {
    tally: Tally,
    writer: Option<BufWriter<File>>,
    failed: bool,
    stopped_by_sprt: Option<Decision>,
}

impl MatchState {
    /// Counts a finished game, reports it, writes its record, and raises
    /// `stop` when the SPRT decides or the records cannot be written.
    fn finish(&mut self, config: &MatchConfig, game: &Finished, stop: &AtomicBool) {
        if self.stopped_by_sprt.is_some() {
            // Decided while this game was being played: not counted, so
            // the summary shows the state at the decision.
            return;
        }
        self.tally.add(&game.result, game.first_is_south, game.pair);
        eprintln!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            game.number,
            game.names[0],
            game.names[1],
            game.result.result(),
            game.result.detail
        );
        if let Some(writer) = self.writer.as_mut() {
            let written = write!(writer, "{}", game.record).and_then(|()| writer.flush());
            if let Err(error) = written {
                eprintln!("error: cannot write the game record: {error}");
                self.writer = None;
                self.failed = true;
                stop.store(true, Ordering::SeqCst);
            }
        }
        let games = self.tally.games();
        let total = config.bounded.then_some(config.planned);
        if games.is_multiple_of(config.report_every) && total != Some(games) {
            eprintln!("{}", self.tally.status_line(total, config.sprt.as_ref()));
        }
        if let Some(sprt) = &config.sprt {
            let (_, decision) = self.tally.sprt(sprt);
            if decision != Decision::Continue {
                self.stopped_by_sprt = Some(decision);
                stop.store(true, Ordering::SeqCst);
            }
        }
    }
}
