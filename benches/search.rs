//! Search speed and transposition-table operations.
//! Run: `cargo bench --bench search`.

use criterion::{Criterion, criterion_group, criterion_main};
use pasang::notation::parse_position;
use pasang::rules::Rules;
use pasang::search::{Control, Limits, Searcher, Settings, Signals, Silent, Task};
use pasang::tt::{Bound, TranspositionTable};
use std::hint::black_box;

const MIDGAME: &str = "wwwwwbbbb.w/bwwwwbbbb.w/bbwwwbbbw.w/bb.wwbbww.w/..S.wb....N/bb.bb+bbbb./ww.wwbwbbb./w..wbbwwbb./ww.bbbwwwb./ww.bbbwwww./wb.bbbwwwww s 14 20 cj";

fn search_speed(c: &mut Criterion) {
    let rules = Rules::default();
    let position = parse_position(MIDGAME).unwrap();
    let limits = Limits {
        depth: Some(10),
        ..Limits::default()
    };
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function("depth 10 midgame, 1 thread", |b| {
        b.iter(|| {
            let searcher = Searcher::new(TranspositionTable::new(16));
            let signals = Signals::default();
            let task = Task {
                position: black_box(&position),
                rules: &rules,
                limits: &limits,
                settings: &Settings::default(),
            };
            let control = Control {
                signals: &signals,
                id: 1,
            };
            searcher.search(&task, control, &Silent).nodes
        })
    });
    group.finish();
}

fn table_operations(c: &mut Criterion) {
    let table = TranspositionTable::new(64);
    let keys: Vec<u64> = (1..=4096u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    c.bench_function("tt store 4096", |b| {
        b.iter(|| {
            for (i, &key) in keys.iter().enumerate() {
                table.store(key, None, i as i32, 5, Bound::Exact);
            }
        })
    });
    c.bench_function("tt probe 4096", |b| {
        b.iter(|| {
            keys.iter()
                .filter(|&&key| table.probe(black_box(key)).is_some())
                .count()
        })
    });
}

criterion_group!(benches, search_speed, table_operations);
criterion_main!(benches);
