"""Match scores with a 95% interval, as ``pasang match`` reports them: a
pentanomial interval over colour-swapped game pairs, or Wilson's over the
games when every pair scored alike (its variance is then zero and says
nothing). The baselines and the learning examples use it."""

import math
from typing import Sequence, Tuple

Z95 = 1.96


def score_interval(scores: Sequence[float]) -> Tuple[float, float, float, str]:
    """``(mean, low, high, kind)`` of game scores (1, 0.5 or 0), consecutive
    scores being the two games of a pair; ``kind`` is ``"pentanomial"``,
    ``"wilson"``, or ``"none"`` for no games."""
    games = len(scores)
    if not games:
        return 0.0, 0.0, 1.0, "none"
    mean = sum(scores) / games
    pairs = [scores[i] + scores[i + 1] for i in range(0, games - 1, 2)]
    if len(pairs) > 1 and len(set(pairs)) > 1:
        pair_mean = sum(pairs) / len(pairs)
        variance = sum((p - pair_mean) ** 2 for p in pairs) / (len(pairs) - 1)
        # A pair's score is twice a game's: halve its spread.
        half = Z95 * math.sqrt(variance / len(pairs)) / 2
        return mean, max(0.0, mean - half), min(1.0, mean + half), "pentanomial"
    _, low, high = wilson_interval(mean, games)
    return mean, low, high, "wilson"


def wilson_interval(score: float, games: int) -> Tuple[float, float, float]:
    """``(score, low, high)``: Wilson's 95% interval of a mean game score
    (a draw counts half) over ``games`` games, clamped to [0, 1]."""
    z2 = Z95 * Z95
    centre = (score + z2 / (2 * games)) / (1 + z2 / games)
    half = Z95 * math.sqrt(score * (1 - score) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return score, max(0.0, centre - half), min(1.0, centre + half)
