"""Pasang for learning agents: a fixed action space, observation planes,
the board's symmetries, batched games, and environments for PettingZoo,
Gymnasium and OpenSpiel (``pip install "./python[rl]"``; docs/rl.md)::

    >>> import pasang, pasang.rl
    >>> board = pasang.Board()
    >>> pasang.rl.ACTIONS
    7291
    >>> pasang.rl.observation(board).shape
    (19, 11, 11)
    >>> pasang.rl.decode(pasang.rl.encode("c"), board)
    Move.from_str('c')

- :data:`ACTIONS` ids: 0-10 the passages on files a-k, then every ka
  move or entry that can be legal, as (origin, landing point, captured
  directions); :func:`encode` needs no board, :func:`decode` finds the
  legal move with an id, :func:`push_action` plays it.
- :func:`observation`: :data:`PLANES` planes of 11 x 11 bytes seen by the
  side to move (North's turned), named in :data:`PLANE_NAMES`.
- :func:`symmetry_actions` and :func:`symmetry_planes`: the board's
  symmetries on ids and planes.
- :class:`VectorEnv`: many games stepped in Rust without the GIL.
- :mod:`pasang.rl.pasang_v0` (PettingZoo), ``pasang/Pasang-v0``
  (Gymnasium, registered on import when Gymnasium is installed) and
  :mod:`pasang.rl.openspiel` (OpenSpiel's ``python_pasang``).
"""

import functools
import itertools
from typing import Dict, List

try:
    import numpy as np
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError('pasang.rl needs NumPy: pip install "./python[rl]"') from error

from .._pasang import (
    ACTIONS,
    MATE,
    MATE_BOUND,
    OBSERVATION_PLANES as PLANES,
    PLANE_NAMES,
    Board,
    Move,
    action_triples,
    decode,
    describe_action,
    encode,
    rule_options,
    symmetry_board,
)
from .. import _pasang
from .vector import VectorEnv, random_legal_actions
from .teacher import Teaching, score_text, teach, value_of_score

__all__ = [
    "ACTIONS",
    "MATE",
    "MATE_BOUND",
    "PLANES",
    "PLANE_NAMES",
    "SIZE",
    "SYMMETRIES",
    "encode",
    "decode",
    "describe_action",
    "action_triples",
    "push_action",
    "legal_actions",
    "observation",
    "action_mask",
    "symmetry_actions",
    "symmetry_planes",
    "symmetry_board",
    "view_actions",
    "rule_sets",
    "VectorEnv",
    "random_legal_actions",
    "Teaching",
    "teach",
    "score_text",
    "value_of_score",
]

#: Points on a side of the board.
SIZE = 11
#: The board's symmetries by name (pasang::rl::symmetry).
SYMMETRIES = ("identity", "mirror", "half_turn", "flip")


def push_action(board: Board, action: int) -> Move:
    """Plays the legal move with id ``action`` on ``board`` and returns it
    (``IllegalMoveError`` when no legal move has it; the board is then
    unchanged)."""
    return board.push_action(int(action))


def legal_actions(board: Board) -> List[int]:
    """The ids of ``board``'s legal moves, in ascending order."""
    return sorted(board.legal_actions())


def observation(board: Board, viewer: "str | None" = None) -> "np.ndarray":
    """The planes of ``board`` as a ``(PLANES, 11, 11)`` ``uint8`` array,
    seen by ``viewer`` ("south" or "north"; the side to move by default)."""
    data = board.observation(viewer)
    return np.frombuffer(data, dtype=np.uint8).reshape(PLANES, SIZE, SIZE).copy()


def action_mask(board: Board, dtype=np.int8) -> "np.ndarray":
    """A ``(ACTIONS,)`` array, 1 at each legal move's id (``int8`` as
    PettingZoo's classic environments have it)."""
    mask = np.zeros(ACTIONS, dtype=dtype)
    mask[board.legal_actions()] = 1
    return mask


@functools.lru_cache(maxsize=None)
def _symmetry_map(name: str) -> "np.ndarray":
    array = np.array(_pasang.symmetry_actions(name), dtype=np.int64)
    array.setflags(write=False)
    return array


def symmetry_actions(name: str) -> "np.ndarray":
    """Symmetry ``name``'s map on ids: entry ``i`` is the image of id
    ``i`` (a read-only ``int64`` permutation, its own inverse). A policy
    ``p`` over ids maps as ``q[symmetry_actions(name)] = p``."""
    if name not in SYMMETRIES:
        raise ValueError("symmetry '{}' is not {}".format(name, ", ".join(SYMMETRIES)))
    return _symmetry_map(name)


def symmetry_planes(name: str, planes: "np.ndarray") -> "np.ndarray":
    """The planes of the image of the position ``planes`` shows (one
    observation ``(PLANES, 11, 11)`` or a batch ``(N, PLANES, 11, 11)``):
    the view turns with the side to move, so the mirror and the flip
    reflect the columns, and the half-turn and the flip, which swap the
    players, turn plane 13 (South to move) over."""
    if name not in SYMMETRIES:
        raise ValueError("symmetry '{}' is not {}".format(name, ", ".join(SYMMETRIES)))
    out = np.array(planes, copy=True)
    if name in ("mirror", "flip"):
        out = np.ascontiguousarray(out[..., ::-1])
    if name in ("half_turn", "flip"):
        out[..., 13, :, :] ^= 1
    return out


def view_actions() -> "np.ndarray":
    """The half-turn's map on ids: applied to North's ids it gives the
    ids of the moves as North's view (the turned board) shows them, so a
    policy head over the view can be shared by both sides."""
    return _symmetry_map("half_turn")


def rule_sets() -> List[Dict[str, str]]:
    """The 24 rule sets, as ``Board()`` keyword arguments."""
    options = rule_options()
    keys = [field for field, _name, _values, _default in options]
    values = [values for _field, _name, values, _default in options]
    return [dict(zip(keys, combination)) for combination in itertools.product(*values)]


try:
    import gymnasium as _gymnasium
except ImportError:  # pragma: no cover - depends on the environment
    pass
else:
    if "pasang/Pasang-v0" not in _gymnasium.registry:
        _gymnasium.register(id="pasang/Pasang-v0", entry_point="pasang.rl.gym_env:PasangEnv")
