"""How fast the rules are from Python, against the engine's native perft.

    python python/benchmarks/speed.py [path/to/pasang]

Measures, on the positions of a perft(4) tree from the position after
``e g f5e5ew`` (ka moves, the phase most of a game is played in):

- ``len(board.legal_moves)`` per second, in positions (the moves
  generated and wrapped, not turned into Python objects);
- ``list(board.legal_moves)`` per second, in positions (each move a
  Python ``Move``);
- ``push(move)`` + ``pop()`` pairs per second;
- a perft(5) walk written in Python (legal_moves, push, pop), in leaves
  per second, against ``board.perft(5)`` (the engine's perft called from
  Python) and the binary's ``pasang perft 10`` on one thread (the rate it
  prints). perft counts the last ply's moves without playing them, so its
  rate is leaves, not positions visited.

Each figure is the best of five runs.
"""

import subprocess
import sys
import time
from typing import Callable, List

import pasang

ROOT_MOVES = ("e", "g", "f5e5ew")
DEPTH = 5
NATIVE_DEPTH = 10


def best_of(runs: int, work: Callable[[], int]) -> float:
    """The best rate (items per second) of ``runs`` runs of ``work``,
    which returns how many items it did."""
    best = 0.0
    for _ in range(runs):
        start = time.perf_counter()
        count = work()
        elapsed = time.perf_counter() - start
        best = max(best, count / elapsed)
    return best


def walk(board: pasang.Board, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += walk(board, depth - 1)
        board.pop()
    return total


def positions(board: pasang.Board, depth: int, into: List[pasang.Board]) -> None:
    into.append(board.copy(stack=False))
    if depth == 0:
        return
    for move in board.legal_moves:
        board.push(move)
        positions(board, depth - 1, into)
        board.pop()


def main() -> None:
    engine = sys.argv[1] if len(sys.argv) > 1 else "target/release/pasang"
    board = pasang.Board()
    for text in ROOT_MOVES:
        board.push_str(text)
    boards: List[pasang.Board] = []
    positions(board.copy(stack=False), 3, boards)
    pairs = [(b, list(b.legal_moves)) for b in boards]

    rounds = 50

    def count_legal() -> int:
        for _ in range(rounds):
            for b in boards:
                len(b.legal_moves)
        return rounds * len(boards)

    def list_legal() -> int:
        for _ in range(rounds):
            for b in boards:
                list(b.legal_moves)
        return rounds * len(boards)

    def push_pop() -> int:
        done = 0
        for _ in range(rounds // 10):
            for b, moves in pairs:
                for move in moves:
                    b.push(move)
                    b.pop()
                done += len(moves)
        return done

    nodes = board.perft(DEPTH)
    rates = {
        "len(board.legal_moves)": best_of(5, count_legal),
        "list(board.legal_moves)": best_of(5, list_legal),
        "push(move) + pop()": best_of(5, push_pop),
        "perft({}) walked in Python, leaves".format(DEPTH): best_of(3, lambda: walk(board, DEPTH)),
        "board.perft({}), leaves".format(DEPTH): best_of(5, lambda: board.perft(DEPTH)),
    }

    def native() -> float:
        command = [engine, "perft", str(NATIVE_DEPTH), "--moves", " ".join(ROOT_MOVES), "--threads", "1"]
        done = subprocess.run(command, check=True, capture_output=True, text=True)
        # "time 0.123 s, 45678901 leaves/s"
        return float(done.stderr.split(",")[-1].split()[0])

    rates["pasang perft {} (binary), leaves".format(NATIVE_DEPTH)] = max(native() for _ in range(3))
    print("{} positions, perft({}) = {} leaves".format(len(boards), DEPTH, nodes))
    for name, rate in rates.items():
        print("{:<40} {:>14,.0f} /s".format(name, rate))


if __name__ == "__main__":
    main()
