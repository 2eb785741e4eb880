"""sb3-contrib's MaskablePPO trains on pasang/Pasang-v0 through its
``action_masks()`` (python/scripts/maskable_ppo.py, a few thousand steps):
every evaluation game is counted, and no illegal move is ever played.

Ignored unless ``PASANG_PPO=1``, and it needs the ``ppo`` extra (torch,
sb3-contrib: ``pip install "./python[ppo]"``), which CI does not install.
docs/rl.md gives the command and the longer run's curve.
"""

import json
import os
import pathlib
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not os.environ.get("PASANG_PPO"), reason="a few thousand PPO steps: set PASANG_PPO=1")

SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "scripts" / "maskable_ppo.py"


def test_maskable_ppo_trains_through_the_mask(tmp_path):
    pytest.importorskip("sb3_contrib", reason='MaskablePPO needs the extra: pip install "./python[ppo]"')
    curve_file = tmp_path / "ppo.json"
    options = "--steps 3000 --envs 4 --n-steps 256 --batch 128 --eval-every 1024 --eval-games 6 --minutes 20"
    command = [sys.executable, str(SCRIPT), *options.split(), "--curve", str(curve_file)]
    output = subprocess.run(command, capture_output=True, text=True, timeout=1200)
    assert output.returncode == 0, output.stderr[-3000:]
    points = json.loads(curve_file.read_text())["points"]
    assert points[0]["steps"] == 0 and points[-1]["steps"] >= 3000
    assert len(points) >= 4
    for point in points:
        assert point["wins"] + point["draws"] + point["losses"] == 6
        assert point["illegal"] == 0
        assert point["low"] <= point["score"] <= point["high"]
    assert points[-1]["training_mean_reward"] is not None
