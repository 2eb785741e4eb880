"""python/scripts/az_jax.py at a toy size: one iteration of self-play and
training, the evaluation against random, greedy and the engine (every game
counted, the score inside its interval), the curve's JSON, and a resume
from the checkpoint that goes on to a second iteration.

A minute or two, mostly compiling. Needs the ``jax`` and ``az`` extras
(``pip install "./python[jax,az]"``), which CI does not install: without
them the test skips, saying so. docs/rl.md gives the 15-minute run.
"""

import json
import pathlib
import subprocess
import sys

import pytest

for module in ("jax", "chex", "mctx", "flax", "optax"):
    pytest.importorskip(module, reason='the learner needs the extras: pip install "./python[jax,az]"')

SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "scripts" / "az_jax.py"
TOY = "--batch 4 --plies 12 --simulations 2 --train-batch 16 --eval-games 4 --engine-games 2 --engine-nodes 50".split()
TOY += "--eval-simulations 2 --minutes 30".split()


def run(tmp_path, iterations):
    files = ["--checkpoint", str(tmp_path / "az.ckpt"), "--curve", str(tmp_path / "curve.json")]
    command = [sys.executable, str(SCRIPT), *TOY, "--iterations", str(iterations), *files]
    output = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert output.returncode == 0, output.stderr[-3000:]
    return output.stdout, json.loads((tmp_path / "curve.json").read_text())


def test_a_toy_run_learns_evaluates_and_resumes(tmp_path):
    out, curve = run(tmp_path, 1)
    assert "iteration 1 (" in out and "steps/s" in out and "games/s" in out
    labels = [(point["label"], point["opponent"]) for point in curve["evaluations"]]
    assert labels == [
        (label, opponent) for label in ("untrained", "final") for opponent in ("random", "greedy", "engine50")
    ]
    for point in curve["evaluations"]:
        assert point["wins"] + point["draws"] + point["losses"] == point["games"]
        assert point["low"] <= point["score"] <= point["high"]
    assert [rates["iteration"] for rates in curve["iterations"]] == [1]
    assert curve["iterations"][0]["selfplay_steps_per_s"] > 0

    out, curve = run(tmp_path, 2)
    assert "resumed from" in out and "at iteration 1" in out
    assert [rates["iteration"] for rates in curve["iterations"]] == [1, 2]
    assert curve["evaluations"][-1]["iteration"] == 2
