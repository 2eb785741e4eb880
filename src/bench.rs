//! The built-in benchmark: fixed positions from every phase, both
//! patterns and several rule sets, searched to a fixed depth on one
//! thread with a fresh table each. The node total is a signature of the
//! search: the same on every run and machine until the search changes.

use crate::host::Instant;

use crate::engine::Engine;
use crate::notation::parse_position;
use crate::rules::{Centre, KaEntry, Pattern, Rules, SecondColumn};
use crate::search::{Control, Limits, Signals, Silent};

/// Depth searched when none is given.
pub const DEFAULT_DEPTH: u32 = 12;

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

#[rustfmt::skip]
const POSITIONS: &[BenchPosition] = &[
    (Pattern::One, KaEntry::Slide, SecondColumn::Opposite, Centre::Wall, "wwwwwbbbbbw/bwwwwbbbbww/bbwwwbbbwww/bbbwwbbwwww/bbbbwbwwwww/bbbbb+bbbbb/wwwwwbwbbbb/wwwwbbwwbbb/wwwbbbwwwbb/wwbbbbwwwwb/wbbbbbwwwww s 0 0 --"),
    (Pattern::One, KaEntry::Slide, SecondColumn::Opposite, Centre::Wall, "wwwwwbbbb.w/bwwwwbbbb.w/bbwwwbbbw.w/bb.wwbbww.w/..S.wb....N/bb.bb+bbbb./ww.wwbwbbb./w..wbbwwbb./ww.bbbwwwb./ww.bbbwwww./wb.bbbwwwww s 14 20 cj"),
    (Pattern::One, KaEntry::Slide, SecondColumn::Opposite, Centre::Wall, "wwwwwbbbbbw/bwwwwbbbbww/bbwwwbbbwww/bbbwwbbwwww/bbbbwbwwwww/bbbbb+bbbbb/wwwww.wbbbb/wwwwb.wwbbb/wwwbb.wwwbb/wwbbb.wwwwb/wbbbb.wwwww n 5 0 f-"),
    (Pattern::One, KaEntry::Slide, SecondColumn::Opposite, Centre::Wall, "wwwwwbbbb.w/bwwwwbbbb.w/bbwwwbbbw.w/bbbwwbbww.w/bbbbwbwww.w/bbbbb+bbbbb/ww.wwbwbbbb/ww.wbbwwbbb/ww.bbbwwwbb/ww.bbbwwwwb/wb.bbbwwwww s 8 9 cj"),
    (Pattern::One, KaEntry::Slide, SecondColumn::Opposite, Centre::Wall, ".wwwwbbbbbw/.wwwwbbbbww/.bwwwbbbwww/.bbwwbbwwww/.bbbwbwwwww/bbbbb+bbbb./wwwwwbwbbb./wwwwbbwwbb./wwwbbbwwwb./wwbbbbwwww./wbbbbbwww.S n 7 6 ka"),
    (Pattern::One, KaEntry::Slide, SecondColumn::Opposite, Centre::Wall, ".wwwwbbbbbw/.wwwwbbbbww/..wwwbbbwww/..bwwbbwwww/.Nbbwbwwwww/..bbb+bbbbb/wwwwwbw.S../wwwwbb...bb/wwwbbbww.bb/wwbbbbww.wb/wbbbbbww.ww s 13 10 ia"),
    (Pattern::One, KaEntry::Slide, SecondColumn::Opposite, Centre::Wall, ".wwwwb..bbw/.wwww.N..ww/S.www...www/.bbwwb.wwww/....w..wwww/.bbbb+.bbbb/..wwwbwbbbb/..wwbbwwbbb/..wbbbwwwbb/..bbbbwwwwb/.bbbbbwwwww s 27 13 ag"),
    (Pattern::One, KaEntry::Slide, SecondColumn::Opposite, Centre::Wall, "wwwwwb...b./S........../..wwwb...../.bbww....N./.bbbwbw.w../.bbbb+bbbb./....wbwbbb./....bbwwbb./....bbwwwb./..b.bbwwww./......wwwww s 50 38 dk"),
    (Pattern::One, KaEntry::Slide, SecondColumn::Opposite, Centre::Wall, "..ww......w/.........ww/S........../...w.bbwwww/.....bwwwww/.b...+bbb.b/......N..../.........../..w......../..b.......b/.bb......ww s 74 55 fb"),
    (Pattern::Two, KaEntry::Slide, SecondColumn::Opposite, Centre::Wall, "bwwbbwwbwbb/bbwwbbwwbbw/wbbwwbbwbww/bwwbwwbbwwb/wwbbbwbwwbb/wbbww+wwbbw/bb.wbwbbbww/bw.bbwwbwwb/ww.wbbwwbbw/wb.wwbbwwbb/bb.bwwbbwwb n 8 0 c-"),
    (Pattern::Two, KaEntry::Slide, SecondColumn::Opposite, Centre::Wall, "bw.bbwwbwbb/bb.wbbwwbbw/wb.wwbbwbww/bw.bwwbbwwb/ww.bbwbwwbb/wbbww+wwbbw/bbwwb.bbbww/bwwbb.wbwwb/wwbwb.wwbbw/wbbww.bwwbb/bbwbw.bbwwb s 8 8 fc"),
    (Pattern::Two, KaEntry::Slide, SecondColumn::Opposite, Centre::Wall, "bww.bwwbwbb/bbw.bbwwbbw/wbb.wbbwbww/bww.wwbbwwb/wwb.bwbwwbb/wbbww+wwbbw/bbwwbwb.bww/bwwbbww.wwb/wwbwbbw.bbw/wbbwwbb.wbb/bbwbwwbS..b n 9 7 hd"),
    (Pattern::Two, KaEntry::Slide, SecondColumn::Opposite, Centre::Wall, ".wwbbwwbwbb/N.wwbbwwbbw/..bwwbbwbww/.wwbwwbbwwb/.wbbbwbwwbb/.bbww+wwbb./bbwwbwbbb../bwwbbwwbww./wwbwbbwwbb./wbbwwbbww.S/bbwbwwbbww. s 10 10 ka"),
    (Pattern::Two, KaEntry::Slide, SecondColumn::Opposite, Centre::Wall, "bwwbbww.N../bbwwbbww.../wbbwwbbw.w./bwwbwwbbww./wwbbbwbwwb./wbbww+wwbbw/bbwwS....ww/bww.....wwb/wwbw...wbbw/wbbww.bwwbb/bbwbw.bbwwb s 18 13 fk"),
    (Pattern::Two, KaEntry::Slide, SecondColumn::Opposite, Centre::Wall, "bww..wwbwbb/bbww.bwwbbw/wbb..bbwbww/bww.N...wwb/wwbb..bww.b/wbb..+ww.S./bb........./bww...wb.../wwbw..wwb../wbbwwbbww../bbwbwwbbww. s 27 26 ke"),
    (Pattern::One, KaEntry::Jump, SecondColumn::Any, Centre::Open, "wwwwwbbbbb./bwwwwbbbbw./bbwwwbbbww./bbbwwbbwww./bbbbwbwwww./bbbbb+bbb.b/wwwwwbwbb.b/wwwwbbwwb.b/wwwbbbw.wSb/wwbbbbwww.b/wbbbbbwww.w n 8 10 jk"),
    (Pattern::One, KaEntry::Jump, SecondColumn::Any, Centre::Open, "wwwwwbb.b../bwwwwbbbb../bbwwwbbbw.w/bbbwwbbN.../bbbbwbw.w.w/bbbbb+bbbbb/ww.wwbwbbbb/....bbwwbbb/ww.S..wwwbb/ww..bbwwwwb/w.....wwwww s 21 21 cj"),
    (Pattern::One, KaEntry::Jump, SecondColumn::Any, Centre::Open, "wwwww.b.bb./bwwww.b.bw./bbwww.b..w./bbbww.b..w./bbbbw...N../bbbbb+...../wwww......./wwww......./.....S...../ww..b....../........... n 50 48 hh"),
    (Pattern::Two, KaEntry::Both, SecondColumn::Opposite, Centre::Open, "bw.bbwwbwbb/bb.wbbwwbbw/wb.wwbbwbww/bw.bwwbbwwb/ww.bbwbwwbb/wbbww+wwbbw/bbwwbwb.bS./bwwbbwwbw.b/wwbwbbwwb.w/wbbwwbbww.b/bbwbwwbbw.b n 10 8 jc"),
    (Pattern::Two, KaEntry::Both, SecondColumn::Opposite, Centre::Open, "bwwbb..bwbb/bbwwb..wbbw/wbbwwb.wbww/bwwbww.bwwb/wwbbbw..wbb/wbb..+.Nbbw/..w.bwbbbww/b..bbwwbwwb/w.bwbbwwbbw/w..wwbbwwbb/bS.bwwbbwwb s 13 19 bg"),
    (Pattern::Two, KaEntry::Both, SecondColumn::Opposite, Centre::Open, "bww..N..wbb/bb....wwbbw/w......wbww/bww...bbwwb/ww.....wwbb/wbbw.+ww.bw/bbww.....ww/bww....bwwb/ww..S.....w/wbbww..wwbb/bbwbw.bbwwb n 32 27 fe"),
    (Pattern::One, KaEntry::Both, SecondColumn::Any, Centre::Wall, "wwwwwb.bbbw/bwwwwb.bbww/bbwwwb.bwww/bbbwwb.wwww/bbbbwb.wwww/bbbbb+bbbbb/wwwwwbwb.bb/wwwwbbww.bb/wwwbbb..Sbb/wwbbbbww.wb/wbbbbbww.ww n 10 6 ig"),
    (Pattern::One, KaEntry::Both, SecondColumn::Any, Centre::Wall, "wwww.bbbbbw/b....bbbbww/bbww....www/bbbw.b.wwww/....N.wwwww/bbbb.+bbb../wwwwwbwbb../wwwwbbww..S/wwwbbbwww../wwbbbbwww../wbbbbbwww.w s 13 25 je"),
];

/// What a benchmark run measured.
pub struct BenchReport {
    /// Nodes over all positions.
    pub nodes: u64,
    /// Time spent searching, in milliseconds.
    pub milliseconds: u64,
    /// Whether a stop ended the run before its last position.
    pub stopped: bool,
}

impl BenchReport {
    /// The closing lines: a rule, the time, `Nodes searched  : N` and
    /// `Nodes/second    : N`.
    pub fn closing_lines(&self) -> [String; 4] {
        [
            "===========================".to_string(),
            format!("Total time (ms) : {}", self.milliseconds),
            format!("Nodes searched  : {}", self.nodes),
            format!(
                "Nodes/second    : {}",
                self.nodes * 1000 / self.milliseconds.max(1)
            ),
        ]
    }
}

/// Runs the benchmark at `depth`, sending one line per position searched
/// to `emit`; the caller prints [`BenchReport::closing_lines`]. Search
/// `id` of `signals` stops it: the position being searched is cut short
/// (its nodes count) and the rest are skipped.
pub fn run(depth: u32, signals: &Signals, id: u64, emit: &mut dyn FnMut(&str)) -> BenchReport {
    // Only the searches are timed: setting up each position (a fresh
    // table, which the allocator may clear byte by byte) is not search speed.
    let mut searching = std::time::Duration::ZERO;
    let mut nodes = 0;
    let all = positions();
    let limits = Limits {
        depth: Some(depth.max(1)),
        ..Limits::default()
    };
    let mut stopped = false;
    for (index, (rules, fen)) in all.iter().enumerate() {
        if signals.stopped(id) {
            stopped = true;
            break;
        }
        let mut engine = Engine::new();
        engine.set_rules(*rules);
        let position = parse_position(fen).expect("bench positions are valid");
        engine.set_position(position);
        let start = Instant::now();
        let result = engine.search_controlled(&limits, Control { signals, id }, &Silent);
        searching += start.elapsed();
        nodes += result.nodes;
        if signals.stopped(id) {
            // Cut short: its nodes count, its move would mislead.
            stopped = true;
            break;
        }
        let best = result
            .best_move
            .map_or_else(|| "(none)".to_string(), |mv| mv.to_string());
        emit(&format!(
            "Position {}/{} ({} stones): bestmove {best} nodes {}",
            index + 1,
            all.len(),
            position.stone_count(),
            result.nodes
        ));
    }
    BenchReport {
        nodes,
        milliseconds: searching.as_millis() as u64,
        stopped,
    }
}
