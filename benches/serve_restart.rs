//! How long `pasang serve` takes from its start to listening, on data
//! folders as a long-running club server leaves them (not a test: it
//! measures). Each journal is made here with random legal games:
//!
//! - 10,000 finished games in rooms since closed, the journal as a
//!   server killed before compacting it would leave it (340,000 lines);
//! - 1,000 and 5,000 rooms with a game of 30 plies in play.
//!
//!     cargo bench --bench serve_restart
//!
//! Each folder is started three times; the median is printed. With
//! `PASANG_BASELINE=/path/to/an/older/pasang` each folder is timed on
//! that binary too, in the same run.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pasang::movegen::legal_moves;
use pasang::notation::parse_position;
use pasang::rules::Rules;

/// A small deterministic generator (xorshift), so every run builds the
/// same journals.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Up to `plies` random legal moves from the start, in full notation.
fn random_game(dice: &mut Dice, plies: usize) -> Vec<String> {
    let rules = Rules::default();
    let mut position = parse_position(&rules.pattern.start_position_string()).unwrap();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = legal_moves(&position, &rules);
        if legal.is_empty() {
            break;
        }
        let mv = legal[dice.below(legal.len())];
        moves.push(mv.to_string());
        position = position.play(mv);
    }
    moves
}

/// Writes a journal of `rooms` rooms, each a game of `plies` plies; a
/// finished room ends by resignation and is closed.
fn journal(folder: &Path, rooms: usize, plies: usize, finished: bool) {
    let _ = std::fs::remove_dir_all(folder);
    std::fs::create_dir_all(folder.join("games")).unwrap();
    let mut out =
        std::io::BufWriter::new(std::fs::File::create(folder.join("rooms.jsonl")).unwrap());
    let mut dice = Dice(0x9e37_79b9_7f4a_7c15);
    let mut at = 1_700_000_000_000u64;
    for room in 0..rooms {
        let code = format!("room{room:06}");
        let mut line = |event: String| {
            at += 1;
            writeln!(out, r#"{{"at":{at},"room":"{code}","event":{event}}}"#).unwrap();
        };
        line(format!(
            r#"{{"kind":"open","rules":{{}},"clock":null,"seat":"south","token":"s{room}"}}"#
        ));
        line(format!(
            r#"{{"kind":"seat","seat":"north","token":"n{room}"}}"#
        ));
        let moves = random_game(&mut dice, plies);
        for (index, mv) in moves.iter().enumerate() {
            line(format!(
                r#"{{"kind":"move","ply":{},"move":"{mv}","left":[0,0]}}"#,
                index + 1
            ));
        }
        if finished {
            line(r#"{"kind":"end","winner":"north","reason":"resignation"}"#.to_string());
            line(r#"{"kind":"close"}"#.to_string());
        }
    }
}

/// Seconds from starting the server on `folder` to its printed address.
fn time_to_listen(binary: &str, folder: &Path) -> Duration {
    let started = Instant::now();
    let mut server = Command::new(binary)
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(folder)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("pasang serve starts");
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let took = started.elapsed();
    assert!(line.contains("http://"), "the server started: {line:?}");
    let _ = server.kill();
    let _ = server.wait();
    took
}

fn main() {
    let base: PathBuf = std::env::temp_dir().join(format!("pasang-restart-{}", std::process::id()));
    let cases = [
        ("10,000 finished games, rooms closed", 10_000, 32, true),
        ("1,000 rooms in play (30 plies)", 1_000, 30, false),
        ("5,000 rooms in play (30 plies)", 5_000, 30, false),
    ];
    let mut binaries = vec![("this build", env!("CARGO_BIN_EXE_pasang").to_string())];
    if let Ok(baseline) = std::env::var("PASANG_BASELINE") {
        binaries.push(("baseline", baseline));
    }
    for (name, rooms, plies, finished) in cases {
        let folder = base.join(format!("{rooms}-{finished}"));
        journal(&folder, rooms, plies, finished);
        let bytes = std::fs::metadata(folder.join("rooms.jsonl")).unwrap().len();
        for (which, binary) in &binaries {
            let mut times: Vec<Duration> = (0..3)
                .map(|_| {
                    // Each start rewrites the journal: a fresh one each time.
                    journal(&folder, rooms, plies, finished);
                    time_to_listen(binary, &folder)
                })
                .collect();
            times.sort();
            println!(
                "{name}, journal {:.1} MB, {which}: listening after {:.2} s \
                 (median of 3; min {:.2}, max {:.2})",
                bytes as f64 / 1e6,
                times[1].as_secs_f64(),
                times[0].as_secs_f64(),
                times[2].as_secs_f64()
            );
        }
    }
    let _ = std::fs::remove_dir_all(&base);
}
