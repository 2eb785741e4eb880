//! Training data by self-play: the engine plays itself at a fixed node
//! count or depth from seeded random openings under every rule set, and
//! every position it searched is written with its search score and the
//! game's result (see [`format`](mod@format) and docs/datagen.md).
//!
//! Game `i` depends only on the header (seed, limit, random plies) and
//! `i`: its rule set and opening come from a generator seeded by both, and
//! each search runs on one thread from an emptied table. Games are written
//! in index order whatever the number of threads, so the same flags give
//! the same file, and a resumed run continues it exactly.

pub mod format;
pub mod packed;

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng};

use crate::engine::Engine;
use crate::notation::format_position;
use crate::outcome::Status;
use crate::rl::teacher;
use crate::rules::Rules;
use crate::schedule::openings::{OpeningError, OpeningPlan};
use crate::search::{Limits, Silent};

pub use format::{DataRecord, DataResult, Header, Policy, SearchLimit};

/// Hash per game thread, in MiB: ample for searches of a few thousand
/// nodes, small enough to empty quickly before every game.
const HASH_MIB: usize = 4;

/// When a run stops.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Target {
    /// This many games in the file.
    Games(u64),
    /// At least this many positions in the file (whole games).
    Positions(u64),
}

/// A datagen run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The data file.
    pub out: PathBuf,
    /// What the file holds when the run ends.
    pub target: Target,
    /// Seed, search limit and random plies.
    pub header: Header,
    /// Games played at once, one search thread each.
    pub threads: usize,
    /// Continue an existing file instead of refusing to touch it.
    pub resume: bool,
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    /// The file exists and `--resume` was not given.
    #[error(
        "'{}' already exists: pass --resume to continue it, or choose another --out",
        .0.display()
    )]
    Exists(PathBuf),
    /// Reading or writing the file failed.
    #[error("'{}': {error}", path.display())]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// An existing file cannot be continued.
    #[error("cannot resume '{}': {error}", path.display())]
    Scan {
        path: PathBuf,
        error: format::ScanError,
    },
    /// The file was made with other settings than those given.
    #[error(
        "cannot resume '{}': it was made with '{}' but this run asks for '{}'",
        path.display(),
        file,
        given
    )]
    Mismatch {
        path: PathBuf,
        file: Box<Header>,
        given: Box<Header>,
    },
    /// No opening could be drawn for a game.
    #[error("game {game}: {error}")]
    Opening { game: u64, error: OpeningError },
    /// The search returned no move in a position in play.
    #[error("game {game}: the search found no move in {position}")]
    NoMove { game: u64, position: String },
}

/// One played game, ready to be written.
#[derive(Clone, Debug)]
pub struct DataGame {
    /// Its index in the file.
    pub index: u64,
    /// Its rules.
    pub rules: Rules,
    /// The random opening plies.
    pub plies: Vec<String>,
    /// The positions the engine searched, in order (mate scores left out
    /// unless the header keeps them).
    pub records: Vec<DataRecord>,
    /// How it ended.
    pub status: Status,
}

impl DataGame {
    /// The game's block: `# game`, one line per record, `# end`.
    pub fn block(&self) -> String {
        let mut text = String::with_capacity(200 * (self.records.len() + 2));
        text.push_str(&format!(
            "# game {} {} plies",
            self.index,
            format::rules_words(&self.rules)
        ));
        for ply in &self.plies {
            text.push(' ');
            text.push_str(ply);
        }
        text.push('\n');
        for record in &self.records {
            text.push_str(&record.to_string());
            text.push('\n');
        }
        text.push_str(&format!("# end {} {}\n", self.index, self.status));
        text
    }
}

/// The rule set of game `index`, drawn from the seed.
pub fn game_rules(seed: u64, index: u64) -> Rules {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(
        seed.wrapping_add(0xD1B5_4A32_D192_ED03) ^ index.wrapping_mul(0xA24B_AED4_963E_E407),
    );
    let sets = Rules::all();
    sets[(rng.next_u64() % sets.len() as u64) as usize]
}

/// An engine for datagen: one search thread, a small table.
pub fn new_engine() -> Engine {
    let mut engine = Engine::new();
    engine.set_hash(HASH_MIB).expect("a valid hash size");
    engine
}

/// Plays game `index` of a file with `header`, on `engine` (emptied
/// first, so the game does not depend on what the engine played before).
pub fn play_game(
    engine: &mut Engine,
    header: &Header,
    index: u64,
) -> Result<DataGame, DatagenError> {
    let rules = game_rules(header.seed, index);
    let plan = OpeningPlan {
        rule_sets: vec![rules],
        book: None,
        random_plies: header.random_plies as usize,
        seed: header.seed,
    };
    let opening = plan
        .opening(index as usize)
        .map_err(|error| DatagenError::Opening { game: index, error })?;
    engine.set_rules(rules);
    engine.new_game();
    let limits = match header.limit {
        SearchLimit::Nodes(nodes) => Limits {
            nodes: Some(nodes),
            ..Limits::default()
        },
        SearchLimit::Depth(depth) => Limits {
            depth: Some(depth),
            ..Limits::default()
        },
    };
    let mut position = opening.position();
    // Scores wait for the result; the side to move of each is kept in
    // its position.
    let mut searched = Vec::new();
    engine.set_multipv(1);
    let status = loop {
        let status = Status::of(&position, &rules);
        if status != Status::InPlay {
            break status;
        }
        let no_move = || DatagenError::NoMove {
            game: index,
            position: format_position(&position),
        };
        // The engine's own settings: its evaluation as it plays. With a
        // distribution to write, each position is the teacher's lesson
        // (every legal move a line, an emptied table: `pasang.rl.teach`'s
        // search), and the game goes on with the first line's move.
        let (mv, score, policy) = match header.policy {
            Some(temperature) => {
                let lesson = teacher::teach(engine, position, rules, &limits, temperature)
                    .ok_or_else(no_move)?;
                let (moves, weights): (Vec<_>, Vec<_>) = lesson.policy.iter().copied().unzip();
                (
                    lesson.best,
                    Some(lesson.score),
                    Some(Policy::new(&moves, &weights)),
                )
            }
            None => {
                engine.set_position(position);
                let result = engine.search(&limits, &Silent);
                let mv = result.best_move.ok_or_else(no_move)?;
                (mv, result.final_info.map(|info| info.score), None)
            }
        };
        match score {
            Some(score) if header.mates || !score.is_mate() => {
                searched.push((position, score.to_internal(), mv, policy));
            }
            _ => {}
        }
        position = position.play(mv);
    };
    let records = searched
        .into_iter()
        .map(|(position, score, played, policy)| {
            let side = position.side_to_move();
            DataRecord {
                position,
                rules,
                score,
                result: DataResult::of(&status, side).expect("the game is over"),
                margin: format::margin(&status, side),
                played: Some(played),
                policy,
            }
        })
        .collect();
    Ok(DataGame {
        index,
        rules,
        plies: opening.plies(),
        records,
        status,
    })
}

/// Where a run stands, for progress lines.
#[derive(Copy, Clone, Debug, Default)]
pub struct Report {
    /// Games in the file.
    pub games: u64,
    /// Positions in the file.
    pub positions: u64,
    /// Games written by this run.
    pub new_games: u64,
    /// Positions written by this run.
    pub new_positions: u64,
    /// Seconds since this run started.
    pub seconds: f64,
}

impl Report {
    /// Positions written per second by this run.
    pub fn positions_per_second(&self) -> f64 {
        self.new_positions as f64 / self.seconds.max(1e-9)
    }
}

/// The file being written: games wait here until every earlier one is
/// written.
struct Writer {
    file: File,
    path: PathBuf,
    waiting: BTreeMap<u64, DataGame>,
    report: Report,
    error: Option<DatagenError>,
}

impl Writer {
    /// Writes the games that are next in order; true once the target is
    /// reached.
    fn drain(&mut self, target: Target) -> bool {
        while let Some(game) = self.waiting.remove(&self.report.games) {
            if reached(target, &self.report) {
                break;
            }
            let block = game.block();
            if let Err(error) = self
                .file
                .write_all(block.as_bytes())
                .and_then(|()| self.file.flush())
            {
                self.error = Some(DatagenError::Io {
                    path: self.path.clone(),
                    error,
                });
                return true;
            }
            let positions = game.records.len() as u64;
            self.report.games += 1;
            self.report.positions += positions;
            self.report.new_games += 1;
            self.report.new_positions += positions;
        }
        reached(target, &self.report)
    }
}

fn reached(target: Target, report: &Report) -> bool {
    match target {
        Target::Games(games) => report.games >= games,
        Target::Positions(positions) => report.positions >= positions,
    }
}

/// Opens the file for a run: a new file with its header, or an existing
/// one cut after its last complete game (`--resume`). Returns the file,
/// positioned at its end, and what it holds.
fn open(config: &Config) -> Result<(File, Report), DatagenError> {
    let path = &config.out;
    let io = |error| DatagenError::Io {
        path: path.clone(),
        error,
    };
    let exists = path.exists();
    if exists && !config.resume && std::fs::metadata(path).map_err(io)?.len() > 0 {
        return Err(DatagenError::Exists(path.clone()));
    }
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(io)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(io)?;
    let text = String::from_utf8_lossy(&bytes);
    let scan = format::scan(&text).map_err(|error| DatagenError::Scan {
        path: path.clone(),
        error,
    })?;
    let mut report = Report::default();
    match scan.header {
        Some(header) if header != config.header => {
            return Err(DatagenError::Mismatch {
                path: path.clone(),
                file: Box::new(header),
                given: Box::new(config.header),
            });
        }
        Some(_) => {
            file.set_len(scan.keep as u64).map_err(io)?;
            file.seek(SeekFrom::Start(scan.keep as u64)).map_err(io)?;
            report.games = scan.games;
            report.positions = scan.positions;
        }
        None => {
            file.set_len(0).map_err(io)?;
            file.seek(SeekFrom::Start(0)).map_err(io)?;
            writeln!(file, "{}", config.header).map_err(io)?;
        }
    }
    Ok((file, report))
}

/// Runs datagen: plays games on `config.threads` threads and writes them
/// in order until the target is reached. `progress` is called after each
/// game written (under the writer's lock: keep it short).
pub fn run(config: &Config, progress: &(dyn Fn(&Report) + Sync)) -> Result<Report, DatagenError> {
    let (file, report) = open(config)?;
    let start = Instant::now();
    let writer = Mutex::new(Writer {
        file,
        path: config.out.clone(),
        waiting: BTreeMap::new(),
        report,
        error: None,
    });
    // Slots count this file's games; a shard's slot j is game
    // shard.index + j * shard.count.
    let target = match config.target {
        Target::Games(games) => Target::Games(config.header.games_of(games)),
        positions => positions,
    };
    let first = report.games;
    let next = AtomicU64::new(first);
    let stop = AtomicBool::new(reached(target, &report));
    let header = config.header;
    let work = || -> Result<(), DatagenError> {
        let mut engine = new_engine();
        loop {
            if stop.load(Ordering::SeqCst) {
                return Ok(());
            }
            let slot = next.fetch_add(1, Ordering::SeqCst);
            if let Target::Games(games) = target
                && slot >= games
            {
                return Ok(());
            }
            let game = play_game(&mut engine, &header, header.game_index(slot))?;
            let mut writer = writer.lock().unwrap_or_else(|p| p.into_inner());
            writer.waiting.insert(slot, game);
            let done = writer.drain(target);
            writer.report.seconds = start.elapsed().as_secs_f64();
            progress(&writer.report);
            if done {
                stop.store(true, Ordering::SeqCst);
            }
        }
    };
    let failures: Vec<DatagenError> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..config.threads.max(1))
            .map(|_| {
                std::thread::Builder::new()
                    .stack_size(16 << 20)
                    .spawn_scoped(scope, || {
                        let result = work();
                        if result.is_err() {
                            stop.store(true, Ordering::SeqCst);
                        }
                        result
                    })
            })
            .collect();
        handles
            .into_iter()
            .filter_map(|handle| match handle {
                Ok(handle) => handle.join().ok().and_then(Result::err),
                Err(error) => Some(DatagenError::Io {
                    path: PathBuf::from("<thread>"),
                    error,
                }),
            })
            .collect()
    });
    let mut writer = writer.into_inner().unwrap_or_else(|p| p.into_inner());
    if let Some(error) = writer.error.take() {
        return Err(error);
    }
    if let Some(error) = failures.into_iter().next() {
        return Err(error);
    }
    writer.report.seconds = start.elapsed().as_secs_f64();
    Ok(writer.report)
}

/// Reads every record of a datagen file (complete games only).
pub fn read(path: &Path) -> Result<Vec<DataRecord>, DatagenError> {
    let text = std::fs::read_to_string(path).map_err(|error| DatagenError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    let mut records = Vec::new();
    format::scan_games(&text, |_, game| records.extend(game)).map_err(|error| {
        DatagenError::Scan {
            path: path.to_path_buf(),
            error,
        }
    })?;
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;

    fn header() -> Header {
        Header {
            seed: 7,
            limit: SearchLimit::Nodes(200),
            random_plies: 4,
            shard: None,
            policy: None,
            mates: false,
        }
    }

    fn temp(name: &str) -> PathBuf {
        let path =
            std::env::temp_dir().join(format!("pasang-datagen-{}-{name}.txt", std::process::id()));
        let _ = std::fs::remove_file(&path);
        path
    }

    fn config(out: &Path, games: u64, threads: usize) -> Config {
        Config {
            out: out.to_path_buf(),
            target: Target::Games(games),
            header: header(),
            threads,
            resume: false,
        }
    }

    #[test]
    fn games_are_labelled_from_the_side_to_move() {
        let mut engine = new_engine();
        let game = play_game(&mut engine, &header(), 0).unwrap();
        assert!(!game.records.is_empty());
        assert_eq!(game.plies.len(), 4);
        let south = DataResult::of(&game.status, crate::position::Player::South).unwrap();
        for record in &game.records {
            assert_eq!(record.rules, game.rules);
            let side = record.position.side_to_move();
            let expected = if side == crate::position::Player::South {
                south
            } else {
                south.flipped()
            };
            assert_eq!(record.result, expected);
            assert_eq!(record.margin, format::margin(&game.status, side));
        }
    }

    #[test]
    fn with_a_temperature_every_record_carries_a_distribution_from_its_search() {
        let with_policy = Header {
            policy: Some("100".parse().unwrap()),
            ..header()
        };
        let mut engine = new_engine();
        let game = play_game(&mut engine, &with_policy, 0).unwrap();
        assert!(!game.records.is_empty());
        let mut spread = 0;
        for record in &game.records {
            let policy = record.policy.as_ref().expect("a distribution");
            let legal = legal_moves(&record.position, &record.rules);
            let total: f32 = policy.moves().iter().map(|&(_, weight)| weight).sum();
            assert!((total - 1.0).abs() < 0.01, "{policy}");
            assert!(
                policy
                    .moves()
                    .iter()
                    .all(|(mv, _)| legal.as_slice().contains(mv))
            );
            // The move played is the first line's: the best score, so the
            // heaviest weight (ties aside).
            let played = record.played.unwrap();
            let top = policy.moves()[0].1;
            let weight = policy.moves().iter().find(|(mv, _)| *mv == played);
            assert_eq!(weight.map(|&(_, weight)| weight), Some(top), "{policy}");
            spread += usize::from(policy.moves().len() > 1);
        }
        assert!(spread > 0, "some position has more than one likely move");
        // The same game again: the distribution is deterministic too; and
        // without the temperature the records have none.
        let again = play_game(&mut engine, &with_policy, 0).unwrap();
        assert_eq!(again.records, game.records);
        let plain = play_game(&mut engine, &header(), 0).unwrap();
        assert!(plain.records.iter().all(|record| record.policy.is_none()));
        // A file's block: version 2 lines, which the reader reads back.
        let block = game.block();
        let text = format!("{with_policy}\n{block}");
        let mut read_back = Vec::new();
        format::scan_games(&text, |_, records| read_back.extend(records)).unwrap();
        assert_eq!(read_back, game.records);
    }

    #[test]
    fn a_file_with_distributions_resumes_only_with_the_same_temperature() {
        let out = temp("policy");
        let mut first = config(&out, 1, 1);
        first.header.policy = Some("100".parse().unwrap());
        run(&first, &|_| {}).unwrap();
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(
            text.starts_with("# pasang datagen 2 seed 7 nodes 200 random-plies 4 policy 100\n")
        );
        for other in [None, Some("50".parse().unwrap())] {
            let mut resumed = config(&out, 2, 1);
            resumed.resume = true;
            resumed.header.policy = other;
            let refused = run(&resumed, &|_| {}).unwrap_err();
            assert!(
                matches!(refused, DatagenError::Mismatch { .. }),
                "{refused}"
            );
        }
        let mut resumed = first.clone();
        resumed.resume = true;
        resumed.target = Target::Games(2);
        assert_eq!(run(&resumed, &|_| {}).unwrap().games, 2);
        assert!(
            read(&out)
                .unwrap()
                .iter()
                .all(|record| record.policy.is_some())
        );
        let _ = std::fs::remove_file(out);
    }

    #[test]
    fn rule_sets_vary_with_the_game() {
        let sets: std::collections::HashSet<Rules> = (0..200).map(|i| game_rules(1, i)).collect();
        assert_eq!(sets.len(), 24);
        assert_eq!(game_rules(1, 5), game_rules(1, 5));
    }

    #[test]
    fn the_same_seed_gives_the_same_file_at_any_thread_count() {
        let (one, two) = (temp("one"), temp("two"));
        run(&config(&one, 4, 1), &|_| {}).unwrap();
        let report = run(&config(&two, 4, 2), &|_| {}).unwrap();
        assert_eq!(report.games, 4);
        let text = std::fs::read_to_string(&one).unwrap();
        assert_eq!(text, std::fs::read_to_string(&two).unwrap());
        assert_eq!(read(&one).unwrap().len() as u64, report.positions);
        let _ = std::fs::remove_file(one);
        let _ = std::fs::remove_file(two);
    }

    #[test]
    fn a_resumed_run_cuts_the_half_written_game_and_continues_exactly() {
        let (whole, cut) = (temp("whole"), temp("cut"));
        run(&config(&whole, 3, 1), &|_| {}).unwrap();
        run(&config(&cut, 2, 1), &|_| {}).unwrap();
        // Half of game 2, as an interrupted run leaves it.
        let full = std::fs::read_to_string(&whole).unwrap();
        let two = std::fs::read_to_string(&cut).unwrap();
        let half = &full[..two.len() + (full.len() - two.len()) / 2];
        std::fs::write(&cut, half).unwrap();

        // Without --resume the file is left alone.
        let refused = run(&config(&cut, 3, 1), &|_| {}).unwrap_err();
        assert!(matches!(refused, DatagenError::Exists(_)), "{refused}");
        // Other settings are refused too.
        let mut other = config(&cut, 3, 1);
        other.resume = true;
        other.header.seed = 8;
        let refused = run(&other, &|_| {}).unwrap_err();
        assert!(refused.to_string().contains("seed 7"), "{refused}");

        let mut resumed = config(&cut, 3, 1);
        resumed.resume = true;
        let report = run(&resumed, &|_| {}).unwrap();
        assert_eq!((report.games, report.new_games), (3, 1));
        assert_eq!(std::fs::read_to_string(&cut).unwrap(), full);
        let _ = std::fs::remove_file(whole);
        let _ = std::fs::remove_file(cut);
    }

    #[test]
    fn a_settings_mismatch_names_both_headers() {
        let error = DatagenError::Mismatch {
            path: PathBuf::from("data.txt"),
            file: Box::new(header()),
            given: Box::new(Header {
                shard: Some("2/3".parse().unwrap()),
                ..header()
            }),
        };
        assert_eq!(
            error.to_string(),
            "cannot resume 'data.txt': it was made with '# pasang datagen 1 seed 7 nodes 200 \
             random-plies 4' but this run asks for '# pasang datagen 1 seed 7 nodes 200 \
             random-plies 4 shard 2/3'"
        );
    }

    #[test]
    fn a_position_target_ends_after_the_game_that_reaches_it() {
        let out = temp("positions");
        let mut config = config(&out, 0, 2);
        config.target = Target::Positions(30);
        let report = run(&config, &|_| {}).unwrap();
        assert!(report.positions >= 30);
        let records = read(&out).unwrap();
        assert_eq!(records.len() as u64, report.positions);
        // Without the last game it was short of the target.
        let text = std::fs::read_to_string(&out).unwrap();
        let last = text.matches("# game ").count();
        assert_eq!(last as u64, report.games);
        let _ = std::fs::remove_file(out);
    }
}
