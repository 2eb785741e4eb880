"""The engine as a teacher: its value, score, win/draw/loss, best move and a
distribution over the legal actions of each position of a batch, from a
fixed node count (docs/rl.md)."""

from typing import NamedTuple, Sequence

import numpy as np

from .._pasang import ACTIONS, MATE, MATE_BOUND, Board, score_value, teach_positions

#: The table ``pasang datagen`` gives each search, in MiB: the default, so
#: that a position read back from a datagen file and taught again gets the
#: same answer.
DATAGEN_HASH = 4


class Teaching(NamedTuple):
    """What :func:`teach` found for N positions: ``values`` (N,)
    ``float32`` the value target in [-1, 1] for the side to move: +1 for a
    proven win, -1 for a proven loss (a mate score), else win minus loss of
    the engine's WDL model; ``scores`` (N,) ``int32`` the search's score on
    its internal scale: centipoints, or a mate beyond ``MATE_BOUND``
    (:func:`score_text` writes it as the protocol does); ``wdl`` (N, 3)
    its win/draw/loss probabilities; ``best_actions`` (N,) the id of its
    move (-1 where the game is over); ``policies`` (N, ACTIONS)
    ``float32``, a distribution over the legal ids (all zeros where the
    game is over)."""

    values: np.ndarray
    scores: np.ndarray
    wdl: np.ndarray
    best_actions: np.ndarray
    policies: np.ndarray


def score_text(score: int) -> str:
    """A score of :attr:`Teaching.scores` as the protocol writes it: ``cp
    N`` or ``mate n`` (PROTOCOL.md 5.2: a win p plies away is ``MATE - p``,
    ``mate (p+1)//2``; a loss p plies away ``-(MATE - p)``, ``mate
    -(p//2)``)."""
    score = int(score)
    if score >= MATE_BOUND:
        return "mate {}".format((MATE - score + 1) // 2)
    if score <= -MATE_BOUND:
        return "mate {}".format(-((MATE + score) // 2))
    return "cp {}".format(score)


def value_of_score(score: int) -> float:
    """The value target in [-1, 1] of a score of :attr:`Teaching.scores`
    (or ``pasang.learn.read_datagen``'s): +1 or -1 at a mate, else the
    engine's WDL model's win minus loss, as ``teach()`` gives it."""
    return score_value(int(score))


def teach(boards: Sequence[Board], nodes: int = 1000, temperature: float = 100.0, hash: int = DATAGEN_HASH) -> Teaching:
    """Searches each board for ``nodes`` nodes with every legal move as a
    line of its own (MultiPV), so each root move gets a score; the policy
    is the softmax of the scores divided by ``temperature`` centipoints
    (at 100, a move scored 100 centipoints higher gets e = 2.7 times the
    weight); the best move, the score and the value are the first line's.
    One thread, the table (``hash`` MiB) emptied before each board: the
    same call gives the same answer. Moves the search left without a line
    get the lowest score seen; a mate ranks above every centipoint score.
    It is the core's search (``pasang::rl::teacher::teach``), the one
    ``pasang datagen --policy`` writes with. The GIL is released
    meanwhile."""
    if temperature <= 0:
        raise ValueError("temperature must be positive")
    rows = teach_positions(list(boards), int(nodes), float(temperature), int(hash))
    n = len(rows)
    values = np.zeros(n, dtype=np.float32)
    scores = np.zeros(n, dtype=np.int32)
    wdl = np.zeros((n, 3), dtype=np.float32)
    best = np.full(n, -1, dtype=np.int64)
    policies = np.zeros((n, ACTIONS), dtype=np.float32)
    for index, (action, score, value, (win, draw, loss), weights) in enumerate(rows):
        best[index] = action
        scores[index] = score
        values[index] = value
        wdl[index] = (win / 1000.0, draw / 1000.0, loss / 1000.0)
        for legal, weight in weights:
            policies[index, legal] = weight
    return Teaching(values, scores, wdl, best, policies)
