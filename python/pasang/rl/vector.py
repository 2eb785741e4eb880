"""Many games stepped at once in Rust: a ``gymnasium.vector.VectorEnv``
(docs/rl.md)."""

from typing import Any, Dict, Optional, Tuple

import numpy as np

from .._pasang import ACTIONS, OBSERVATION_PLANES, Batch, Board

try:
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector import VectorEnv as _VectorBase
except ImportError:  # pragma: no cover - gymnasium is in the [rl] extra
    spaces = None
    AutoresetMode = None
    _VectorBase = object

SIZE = 11


def random_legal_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal id of each row of ``masks`` (``N x ACTIONS``
    ``bool``, at least one true entry a row), as ``int64``: the fast way to
    pick from the masks in NumPy (docs/rl.md). One ``np.flatnonzero`` over
    the whole array finds every legal entry at once; each row then takes
    the entry at a random offset into its own run of them. The
    two-dimensional ``np.nonzero`` or a Python loop over the rows is many
    times slower."""
    games, actions = masks.shape
    flat = np.flatnonzero(masks)
    counts = np.bincount(flat // actions, minlength=games)
    if not counts.all():
        raise ValueError("a row of the masks has no legal action")
    starts = np.cumsum(counts) - counts
    picks = starts + (rng.random(games) * counts).astype(np.int64)
    return flat[picks] - np.arange(games, dtype=np.int64) * actions


class VectorEnv(_VectorBase):
    """``num_envs`` games under one rule set (``Board()``'s keyword
    arguments), stepped together in Rust with the GIL released, across
    rayon's threads: a ``gymnasium.vector.VectorEnv``.

    ``reset(seed=None, options=None)`` gives ``(obs, infos)`` and
    ``step(actions)`` gives ``(obs, rewards, terminations, truncations,
    infos)``: ``obs`` is a dict of ``observation`` (``num_envs x PLANES x
    11 x 11`` ``uint8``, seen by each game's side to move),
    ``action_mask`` (``num_envs x ACTIONS`` ``bool``) and ``to_play``
    (``uint8``: 0 South, 1 North, to move); ``single_observation_space``
    and ``single_action_space`` describe one game. ``rewards`` are the
    mover's: 1 for the move that won, -1 for one that lost, 0 otherwise.
    The autoreset mode is ``AutoresetMode.SAME_STEP`` (in ``metadata``):
    a game that ends starts again in the same step, its row of ``obs``
    showing the new game, its termination true. Games never truncate.
    ``reset(options={"reset_mask": mask})`` restarts only the games where
    ``mask`` is true, the others going on.

    ``seed`` fixes the games' random streams (for :meth:`sample`); the
    games themselves are deterministic. With ``copy=False`` the arrays
    returned are read-only views of the environment's own, overwritten by
    the next call (faster); by default they are copies. Pickling and
    ``copy.deepcopy`` give an independent environment that continues as
    this one would.
    """

    metadata: Dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP if AutoresetMode else "SAME_STEP"}

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
        self._started = False
        self._spaces()

    def _spaces(self) -> None:
        if spaces is None:  # pragma: no cover - depends on the environment
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
        """Every game to its start, or with ``options={"reset_mask":
        mask}`` (``num_envs`` ``bool``) only the games where ``mask`` is
        true: ``(obs, infos)``. ``seed`` reseeds the random streams of the
        games reset."""
        if seed is not None and not isinstance(seed, (int, np.integer)):
            raise ValueError("seed is one int for the whole batch, not {!r}".format(seed))
        if seed is not None and _VectorBase is not object:
            super().reset(seed=int(seed))
        seed = None if seed is None else int(seed)
        mask = (options or {}).get("reset_mask")
        if mask is None:
            self._batch.reset(seed, *self._outputs())
            self._started = True
            return self._obs(), {}
        mask = np.asarray(mask)
        if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
            raise ValueError("reset_mask must be a bool array of shape ({},)".format(self.num_envs))
        if not self._started:
            raise RuntimeError("call reset() without a mask first")
        self._batch.reset_games(mask.tolist(), seed, *self._outputs())
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

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""

    def __getstate__(self) -> Dict[str, Any]:
        state = dict(self.__dict__)
        state["_batch"] = self._batch.state() if self._started else None
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        batch_state = state.pop("_batch")
        self.__dict__.update(state)
        self._batch = Batch(self.num_envs, 0, **self.rules)
        rewards, terminations = self._rewards.copy(), self._terminations.copy()
        if batch_state is not None:
            self._batch.restore(batch_state, *self._outputs())
            # The last step's rewards and end flags, as the original holds them.
            self._rewards[:] = rewards
            self._terminations[:] = terminations

    def __len__(self) -> int:
        return self.num_envs

    def __repr__(self) -> str:
        return "VectorEnv({}, {})".format(self.num_envs, ", ".join("{}={!r}".format(k, v) for k, v in self.rules.items()))
