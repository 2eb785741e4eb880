//! `pasang tune` run as a user runs it: on a small datagen file, and on
//! files and flags it must refuse.

mod common;

use std::path::PathBuf;
use std::process::Output;

/// Runs `pasang` with `args` and no input.
fn pasang(args: &[&str]) -> Output {
    common::run(args, "")
}

fn temp(name: &str) -> PathBuf {
    let path =
        std::env::temp_dir().join(format!("pasang-tune-it-{}-{name}.txt", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn fits_a_datagen_file_and_prints_every_term() {
    let data = temp("data");
    let path = data.to_str().unwrap();
    let made = pasang(&[
        "datagen",
        "--out",
        path,
        "--games",
        "24",
        "--nodes",
        "300",
        "--threads",
        "2",
    ]);
    assert!(made.status.success(), "{made:?}");
    let output = pasang(&["tune", "--data", path, "--holdout", "4", "--l2", "0.001"]);
    let _ = std::fs::remove_file(&data);
    assert!(output.status.success(), "{output:?}");
    // 24 games are far too few for the fit to mean much, and it says so.
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(
        errors.contains("warning: ") && errors.contains("too few for a fit"),
        "{errors}"
    );
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("positions "), "{text}");
    assert!(lines[0].contains("held out"), "{text}");
    // The shipped weights measured on the same positions, their scale
    // fitted: a refit is judged against them.
    assert!(
        lines[1].starts_with("the shipped weights at their best scale: ")
            && lines[1].contains("(held out "),
        "{text}"
    );
    assert!(
        lines[2].starts_with("win model: P(win) = 1 / (1 + exp(-"),
        "{text}"
    );
    assert!(
        lines[3].starts_with("wdl model of the search scores: "),
        "{text}"
    );
    // One row per term after the header, the margin's at 100 centipoints.
    let rows: Vec<Vec<&str>> = lines[5..]
        .iter()
        .map(|line| line.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), pasang::eval::features::COUNT, "{text}");
    assert_eq!(rows[0][0], "margin");
    assert_eq!(rows[0][2], "100.000");
    assert_eq!(rows[0][3], "102400");
    for row in &rows {
        assert!(row[2].parse::<f64>().unwrap().is_finite(), "{text}");
    }
}

#[test]
fn bad_data_and_flags_are_clear_errors() {
    let output = pasang(&["tune", "--data", "/nonexistent/data.txt"]);
    assert_eq!(output.status.code(), Some(1));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("cannot read '/nonexistent/data.txt'"),
        "{error}"
    );

    let data = temp("bad");
    std::fs::write(
        &data,
        "# pasang datagen 1 seed 1 nodes 10 random-plies 4\nnot a record\n",
    )
    .unwrap();
    let output = pasang(&["tune", "--data", data.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains("line 2:"), "{error}");

    std::fs::write(&data, "# pasang datagen 1 seed 1 nodes 10 random-plies 4\n").unwrap();
    let output = pasang(&["tune", "--data", data.to_str().unwrap()]);
    let _ = std::fs::remove_file(&data);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no positions to fit"));

    let output = pasang(&["tune", "--data", "x", "--without", "wisdom"]);
    assert_eq!(output.status.code(), Some(1));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("unknown term 'wisdom'") && error.contains("own_moves"),
        "{error}"
    );

    let output = pasang(&["tune"]);
    assert_eq!(output.status.code(), Some(2), "clap's usage error");
}
