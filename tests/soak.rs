//! A small soak: fast games between the engine with two threads and with
//! one, on a 1 MiB table so it is under pressure, refereed by
//! `pasang match`. Zero crashes, illegal moves, stalls and time losses.
//! The tests run in parallel on a small CI machine, where a process can
//! wait tens of milliseconds for a core, so the referee allows a 250 ms
//! margin here; the full soak (1000 games, no margin, quiet machine) is
//! run by hand: see docs/development.md, "Checks".

mod common;

#[test]
fn fast_games_threads_two_against_one_on_a_small_table() {
    let engine = common::PASANG;
    let output = common::pasang()
        .args([
            "match",
            "--engine",
            &format!("cmd={engine},name=two,option.Threads=2,option.Hash=1"),
            "--engine",
            &format!("cmd={engine},name=one,option.Threads=1,option.Hash=1"),
            "--movetime",
            "10",
            "--time-margin",
            "250",
            "--games",
            "8",
            "--random-plies",
            "4",
            "--seed",
            "7",
            "--ka-entry",
            "slide,both",
            "--centre",
            "wall,open",
        ])
        .output()
        .expect("pasang match runs");
    let summary = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{summary}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(summary.contains("Games: 8"), "{summary}");
    for side in ["two", "one"] {
        assert!(
            summary.contains(&format!(
                "Forfeits by {side}: loses on time 0, makes an illegal move 0, disconnects 0, connection stalls 0"
            )),
            "{summary}"
        );
    }
}
