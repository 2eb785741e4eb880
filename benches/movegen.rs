//! Move generation and perft speed. Run: `cargo bench --bench movegen`.

use criterion::{Criterion, criterion_group, criterion_main};
use pasang::movegen::{count_moves, legal_moves};
use pasang::notation::parse_position;
use pasang::perft::perft;
use pasang::rules::Rules;
use std::hint::black_box;

/// The position after the rule book's six-move worked opening (phase 3).
const MIDGAME: &str = "wwwwwbbbb.w/bwwwwbbbb.w/bbwwwbbbw.w/bb.wwbbww.w/..S.wb....N/bb.bb+bbbb./ww.wwbwbbb./w..wbbwwbb./ww.bbbwwwb./ww.bbbwwww./wb.bbbwwwww s 14 20 cj";

fn movegen(c: &mut Criterion) {
    let rules = Rules::default();
    let midgame = parse_position(MIDGAME).unwrap();
    let start = parse_position(&rules.pattern.start_position_string()).unwrap();
    c.bench_function("legal_moves midgame", |b| {
        b.iter(|| legal_moves(black_box(&midgame), &rules).len())
    });
    c.bench_function("count_moves midgame", |b| {
        b.iter(|| count_moves(black_box(&midgame), &rules))
    });
    c.bench_function("play midgame", |b| {
        let moves = legal_moves(&midgame, &rules);
        b.iter(|| {
            moves
                .iter()
                .map(|&mv| black_box(&midgame).play(mv).key())
                .fold(0, |a, k| a ^ k)
        })
    });
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.bench_function("perft 7 start", |b| {
        b.iter(|| perft(black_box(&start), &rules, 7))
    });
    group.bench_function("perft 5 midgame", |b| {
        b.iter(|| perft(black_box(&midgame), &rules, 5))
    });
    group.finish();
}

criterion_group!(benches, movegen);
criterion_main!(benches);
