//! The built-in benchmark: fixed positions from every phase, both
//! patterns and several rule sets, searched to a fixed depth on one
//! thread with a fresh table each. The node total is a signature of the
//! search: the same on every run and machine until the search changes.

use std::time::Instant;

use crate::engine::Engine;
use crate::notation::parse_position;
use crate::rules::{Centre, KaEntry, Pattern, Rules, SecondColumn};
use crate::search::{Limits, Settings, Signals, Silent};

/// Depth searched when none is given.
pub const DEFAULT_DEPTH: u32 = 9;

/// Rule set and position string of each benchmark position.
pub fn positions() -> Vec<(Rules, &'static str)> {
    POSITIONS
        .iter()
        .map(|(pattern, ka_entry, second_column, centre, fen)| {
            (
                Rules {
                    pattern: *pattern,
                    ka_entry: *ka_entry,
                    second_column: *second_column,
                    centre: *centre,
                },
                *fen,
            )
        })
        .collect()
}

type BenchPosition = (Pattern, KaEntry, SecondColumn, Centre, &'static str);

const POSITIONS: &[BenchPosition] = &[(
    Pattern::One,
    KaEntry::Slide,
    SecondColumn::Opposite,
    Centre::Wall,
    "wwwwwbbbbbw/bwwwwbbbbww/bbwwwbbbwww/bbbwwbbwwww/bbbbwbwwwww/bbbbb+bbbbb/wwwwwbwbbbb/wwwwbbwwbbb/wwwbbbwwwbb/wwbbbbwwwwb/wbbbbbwwwww s 0 0 --",
)];

/// What a benchmark run measured.
pub struct BenchReport {
    /// Nodes over all positions.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub milliseconds: u64,
}

/// Runs the benchmark at `depth`, sending each output line to `emit`.
pub fn run(depth: u32, emit: &mut dyn FnMut(&str)) -> BenchReport {
    let start = Instant::now();
    let mut nodes = 0;
    let all = positions();
    let settings = Settings::default();
    let limits = Limits {
        depth: Some(depth.max(1)),
        ..Limits::default()
    };
    for (index, (rules, fen)) in all.iter().enumerate() {
        let mut engine = Engine::new();
        engine.set_rules(*rules);
        let position = parse_position(fen).expect("bench positions are valid");
        engine
            .set_position(Some(fen), &[])
            .expect("bench positions are valid");
        let signals = Signals::default();
        let result = engine.search_with(&limits, &settings, &signals, 1, &Silent);
        nodes += result.nodes;
        let best = result
            .best_move
            .map_or_else(|| "(none)".to_string(), |mv| mv.to_string());
        emit(&format!(
            "Position {}/{} ({} stones): bestmove {best} nodes {}",
            index + 1,
            all.len(),
            position.all_stones().count(),
            result.nodes
        ));
    }
    let milliseconds = start.elapsed().as_millis() as u64;
    emit("===========================");
    emit(&format!("Total time (ms) : {milliseconds}"));
    emit(&format!("Nodes searched  : {nodes}"));
    emit(&format!(
        "Nodes/second    : {}",
        nodes * 1000 / milliseconds.max(1)
    ));
    BenchReport {
        nodes,
        milliseconds,
    }
}
