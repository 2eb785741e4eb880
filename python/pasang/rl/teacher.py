"""The engine as a teacher: its value, win/draw/loss, best move and a
distribution over the legal actions of each position of a batch, from a
fixed node count (docs/rl.md)."""

from typing import List, NamedTuple, Sequence

import numpy as np

from .._pasang import ACTIONS, Board, Searcher, encode, root_policy


class Teaching(NamedTuple):
    """What :func:`teach` found for N positions: ``values`` (N,) the
    engine's score in centipoints for the side to move; ``wdl`` (N, 3) its
    win/draw/loss probabilities; ``best_actions`` (N,) the id of its move
    (-1 where the game is over); ``policies`` (N, ACTIONS) ``float32``, a
    distribution over the legal ids (all zeros where the game is over)."""

    values: np.ndarray
    wdl: np.ndarray
    best_actions: np.ndarray
    policies: np.ndarray


def teach(boards: Sequence[Board], nodes: int = 1000, temperature: float = 100.0, hash: int = 16) -> Teaching:
    """Searches each board for ``nodes`` nodes with every legal move as a
    line of its own (MultiPV), so each root move gets a score; the policy
    is the softmax of the scores divided by ``temperature`` centipoints
    (at 100, a move scored 100 centipoints higher gets e = 2.7 times the
    weight); the best move and the value are the first line's. One thread, the
    table emptied before each board: the same call gives the same answer.
    Moves the search left without a line get the lowest score seen; a
    mate ranks above every centipoint score. The softmax is the core's
    (``pasang::rl::teacher``), as ``pasang datagen --policy`` writes it."""
    if temperature <= 0:
        raise ValueError("temperature must be positive")
    searcher = Searcher(hash=hash, threads=1)
    n = len(boards)
    values = np.zeros(n, dtype=np.int32)
    wdl = np.zeros((n, 3), dtype=np.float32)
    best = np.full(n, -1, dtype=np.int64)
    policies = np.zeros((n, ACTIONS), dtype=np.float32)
    for index, board in enumerate(boards):
        legal: List[int] = board.legal_actions()
        move, _ponder, lines, _nodes = searcher.search(board, nodes=int(nodes), multipv=max(1, len(legal)))
        if not lines:
            continue
        _multipv, _depth, _sel, (kind, score), (win, draw, loss), _n, _t, _pv = lines[0]
        values[index] = score
        wdl[index] = (win / 1000.0, draw / 1000.0, loss / 1000.0)
        if move is None or not legal:
            continue
        best[index] = encode(move)
        # Each line's first move and score through the core's softmax, the
        # code `pasang datagen --policy` writes with.
        scored = [(line[7][0], line[3]) for line in lines if line[7]]
        for action, weight in root_policy(board, scored, float(temperature)):
            policies[index, action] = weight
    return Teaching(values, wdl, best, policies)
