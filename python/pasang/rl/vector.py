"""Many games stepped at once in Rust, in the shape of Gymnasium's vector
API (docs/rl.md)."""

from typing import Any, Dict, Optional, Tuple

import numpy as np

from .._pasang import ACTIONS, OBSERVATION_PLANES, Batch, Board

SIZE = 11


class VectorEnv:
    """``num_envs`` games under one rule set (``Board()``'s keyword
    arguments), stepped together in Rust with the GIL released, across
    rayon's threads.

    ``reset(seed=None)`` gives ``(obs, infos)`` and ``step(actions)`` gives
    ``(obs, rewards, terminations, truncations, infos)``, as Gymnasium's
    vector environments do: ``obs`` is a dict of ``observation``
    (``num_envs x PLANES x 11 x 11`` ``uint8``, seen by each game's side to
    move), ``action_mask`` (``num_envs x ACTIONS`` ``bool``) and
    ``to_play`` (``uint8``: 0 South, 1 North, to move). ``rewards`` are the
    mover's: 1 for the move that won, -1 for one that lost, 0 otherwise.
    A game that ends starts again in the same step (Gymnasium's
    ``SAME_STEP`` autoreset): its row of ``obs`` shows the new game, its
    termination is true. Games never truncate.

    ``seed`` fixes the games' random streams (for :meth:`sample`); the
    games themselves are deterministic. With ``copy=False`` the arrays
    returned are read-only views of the environment's own, overwritten by
    the next call (faster); by default they are copies.
    """

    metadata: Dict[str, Any] = {"autoreset_mode": "SAME_STEP"}

    def __init__(self, num_envs: int, *, seed: Optional[int] = None, copy: bool = True, **rules: Any) -> None:
        if int(num_envs) < 1:
            raise ValueError("num_envs must be at least 1")
        self.num_envs = int(num_envs)
        self.rules = Board(**rules).rules
        self.copy = copy
        self._batch = Batch(self.num_envs, 0 if seed is None else int(seed), **rules)
        n = self.num_envs
        self._observations = np.zeros((n, OBSERVATION_PLANES, SIZE, SIZE), dtype=np.uint8)
        self._masks = np.zeros((n, ACTIONS), dtype=bool)
        self._rewards = np.zeros(n, dtype=np.float32)
        self._terminations = np.zeros(n, dtype=bool)
        self._truncations = np.zeros(n, dtype=bool)
        self._to_play = np.zeros(n, dtype=np.uint8)
        self._actions = np.zeros(n, dtype=np.int64)
        self._started = False
        self._spaces()
        if self.metadata.get("autoreset_mode") == "SAME_STEP":
            try:
                from gymnasium.vector import AutoresetMode

                self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}
            except ImportError:  # pragma: no cover - depends on the environment
                pass

    def _spaces(self) -> None:
        try:
            from gymnasium import spaces
        except ImportError:  # pragma: no cover - depends on the environment
            return
        shape = (OBSERVATION_PLANES, SIZE, SIZE)
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 255, shape, dtype=np.uint8),
                "action_mask": spaces.MultiBinary(ACTIONS),
                "to_play": spaces.Discrete(2),
            }
        )
        self.single_action_space = spaces.Discrete(ACTIONS)
        n = self.num_envs
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 255, (n,) + shape, dtype=np.uint8),
                "action_mask": spaces.MultiBinary((n, ACTIONS)),
                "to_play": spaces.MultiDiscrete([2] * n),
            }
        )
        self.action_space = spaces.MultiDiscrete([ACTIONS] * n)

    def _outputs(self) -> Tuple[np.ndarray, ...]:
        return (self._observations, self._masks, self._rewards, self._terminations, self._to_play)

    def _view(self, array: np.ndarray) -> np.ndarray:
        if self.copy:
            return array.copy()
        view = array.view()
        view.setflags(write=False)
        return view

    def _obs(self) -> Dict[str, np.ndarray]:
        return {
            "observation": self._view(self._observations),
            "action_mask": self._view(self._masks),
            "to_play": self._view(self._to_play),
        }

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        """Every game to its start: ``(obs, infos)``."""
        del options
        self._batch.reset(None if seed is None else int(seed), *self._outputs())
        self._started = True
        return self._obs(), {}

    def step(self, actions):
        """Plays one action id per game: ``(obs, rewards, terminations,
        truncations, infos)``. An action no legal move of its game has
        raises ``IllegalMoveError`` naming the game, and nothing moves."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError("actions must have shape ({},), not {}".format(self.num_envs, actions.shape))
        if actions.dtype != np.int64 or not actions.flags.c_contiguous:
            actions = np.ascontiguousarray(actions, dtype=np.int64)
        self._batch.step(actions, *self._outputs())
        return (
            self._obs(),
            self._view(self._rewards),
            self._view(self._terminations),
            self._view(self._truncations),
            {},
        )

    def sample(self) -> np.ndarray:
        """A random legal action id per game (``int64``), drawn in Rust
        from each game's seeded stream: faster than choosing from the
        masks in NumPy."""
        if not self._started:
            raise RuntimeError("call reset() before sample()")
        out = np.empty(self.num_envs, dtype=np.int64)
        self._batch.sample(out)
        return out

    def board(self, index: int) -> Board:
        """Game ``index``'s position as a board (no move stack)."""
        return self._batch.board(int(index))

    def close(self) -> None:
        """Nothing to release; for the vector API."""

    def __len__(self) -> int:
        return self.num_envs

    def __repr__(self) -> str:
        return "VectorEnv({}, {})".format(self.num_envs, ", ".join("{}={!r}".format(k, v) for k, v in self.rules.items()))
