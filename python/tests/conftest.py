"""Shared fixtures: the engine binary the tests drive, and a move-path
count walked from Python.

The binary is named by ``--engine PATH`` or the environment variable
``PASANG_ENGINE`` (tests/python.rs passes the one cargo built); otherwise
``target/release/pasang`` of the repository. Tests that need it skip
when there is none.
"""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def pytest_addoption(parser):
    parser.addoption("--engine", default=None, help="path of the pasang engine binary")


@pytest.fixture(scope="session")
def engine_path(request):
    path = request.config.getoption("--engine") or os.environ.get("PASANG_ENGINE")
    if path is None:
        path = str(ROOT / "target" / "release" / "pasang")
    if not os.path.exists(path):
        pytest.skip("no engine binary at {} (build it, or pass --engine)".format(path))
    return path


@pytest.fixture(scope="session")
def root():
    return ROOT


def walk_paths(board, depth):
    """Move paths counted from Python: legal_moves, push and pop."""
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += walk_paths(board, depth - 1)
        board.pop()
    return total


@pytest.fixture(scope="session")
def walk():
    """A perft walked from Python, to hold against ``board.perft``."""
    return walk_paths
