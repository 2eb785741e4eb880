"""The module's rules against the engine binary's perft, under all 24
rule sets: the counts come from the binary in the same run."""

import itertools
import random
import subprocess

import pytest

from pasang import Board

RULE_SETS = [
    dict(zip(("pattern", "ka_entry", "second_column", "centre"), values))
    for values in itertools.product(("1", "2"), ("slide", "jump", "both"), ("opposite", "any"), ("wall", "open"))
]


def native_perft(engine_path, board, depth):
    """``pasang perft`` of ``board``'s position under its rules."""
    command = [engine_path, "perft", str(depth), "--fen", board.fen()]
    for key, value in board.rules.items():
        command += ["--" + key.replace("_", "-"), value]
    output = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True).stdout
    last = output.strip().splitlines()[-1]
    assert last.startswith("Nodes searched: "), output
    return int(last.split(": ")[1])



@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: "/".join(rules.values()))
def test_perft_matches_the_engine(engine_path, rules, walk):
    board = Board(**rules)
    assert board.rules == rules
    assert board.perft(4) == native_perft(engine_path, board, 4)
    # Positions of a game played at random (seeded) from Python's own legal
    # moves: passages, ka entries and ka moves under these rules.
    rng = random.Random("/".join(rules.values()))
    for ply in range(1, 25):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
        if ply % 6 == 0 and not board.is_game_over():
            position = Board(board.fen(), **rules)
            assert position.perft(4) == native_perft(engine_path, position, 4)
            assert walk(position, 2) == position.perft(2)
