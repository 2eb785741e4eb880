"""Run by scripts/release.sh in a fresh virtual environment where the
x86_64 wheel was installed with its [rl] extras, with no cargo or rustc on
the PATH and the repository not the working folder: the module as a user
gets it. A game through pasang.Board, a search, and the learning
frameworks' own checks (PettingZoo's api_test, Gymnasium's check_env,
OpenSpiel's random_sim_test)."""

import random
import shutil

import pasang
from pasang.engine import Limit

assert shutil.which("cargo") is None and shutil.which("rustc") is None, "cargo or rustc is on the PATH"
assert "site-packages" in pasang.__file__, pasang.__file__

# A game of seeded random moves, to its end.
board = pasang.Board()
rng = random.Random(7)
while not board.is_game_over():
    board.push(rng.choice(list(board.legal_moves)))
assert board.outcome() is not None and board.result() != "*", board.result()
print("a game of {} plies: {}".format(len(board.move_stack), board.result()))

# A search in this process.
result = pasang.search(pasang.Board(), Limit(depth=6))
assert result.move is not None
print("pasang {}: at depth 6 from the start: {}".format(pasang.__version__, result.move))

from pettingzoo.test import api_test  # noqa: E402

from pasang.rl import pasang_v0  # noqa: E402

api_test(pasang_v0.env(), num_cycles=100)

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

check_env(gymnasium.make("pasang/Pasang-v0").unwrapped)

import pyspiel  # noqa: E402

import pasang.rl.openspiel  # noqa: E402,F401

pyspiel.random_sim_test(pyspiel.load_game("python_pasang"), num_sims=3, serialize=True, verbose=False)
print("api_test, check_env and random_sim_test pass")
