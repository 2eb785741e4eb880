"""python/benchmarks/baselines.py's results file and its replay: a seeded
pairing written with ``--json`` replays to the same games with
``--check``, a changed record fails the check, and a file of another
version is refused. Random against greedy only: a second, in CI. The
recorded baselines of docs/rl.md replay in an ignored test
(tests/python.rs, ``the_recorded_baselines_replay``)."""

import json
import subprocess
import sys

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pyspiel", reason='the baselines play through OpenSpiel: pip install "./python[rl]"')


def baselines(root, *args):
    return subprocess.run(
        [sys.executable, str(root / "python" / "benchmarks" / "baselines.py"), *args],
        capture_output=True,
        text=True,
    )


def test_a_results_file_names_what_decides_the_games_and_replays(root, tmp_path):
    results = tmp_path / "baselines.json"
    run = baselines(root, "--pairings", "random-greedy", "--json", str(results))
    assert run.returncode == 0, run.stderr
    record = json.loads(results.read_text())
    for key in ("version", "commit", "seed", "games_per_rule_set", "players", "rows"):
        assert key in record
    assert set(record["players"]) == {"random", "greedy"}
    (row,) = record["rows"]
    assert row["wins"] + row["draws"] + row["losses"] == len(row["scores"]) == 48
    assert 0 <= row["low"] <= row["score"] <= row["high"] <= 1
    table = baselines(root, "--table", str(results))
    assert "| random vs greedy | {}-{}-{} |".format(row["wins"], row["draws"], row["losses"]) in table.stdout

    check = baselines(root, "--check", str(results), "--pairings", "1")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "same" in check.stdout

    row["scores"][0] = 1.0 - row["scores"][0]
    results.write_text(json.dumps(record))
    check = baselines(root, "--check", str(results), "--pairings", "1")
    assert check.returncode == 1 and "DIFFERENT" in check.stdout

    record["version"] = "0.0.0-other"
    results.write_text(json.dumps(record))
    check = baselines(root, "--check", str(results))
    assert check.returncode == 1 and "made with pasang 0.0.0-other" in check.stderr
