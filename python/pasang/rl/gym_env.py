"""Pasang as a one-agent Gymnasium environment, ``pasang/Pasang-v0``
(registered by ``import pasang.rl``)::

    import gymnasium, pasang.rl
    env = gymnasium.make("pasang/Pasang-v0", opponent="random")
    observation, info = env.reset(seed=42)

The agent plays ``agent`` ("south", the default, "north", or "either":
drawn each episode) against ``opponent``: ``"random"`` (a uniform legal
move drawn from the environment's seeded ``np_random``, so a seeded
episode repeats), an ``int``, the engine searching that many nodes (one
thread, deterministic), or ``"skill:N"``, the engine at Skill Level N
(0-20) as docs/search.md describes it (the engine's own level, through
``Searcher.search(skill=N, seed=...)``), its random error seeded from
``np_random`` so that a seeded episode repeats too; each search is
capped at :data:`SKILL_NODES` nodes. The observation is the planes seen by the
agent; ``info["action_mask"]`` (``int8``) marks the legal ids. The reward
is +1/-1/0 when the game ends. An illegal action ends the episode as a
loss (terminated, reward -1), as Gymnasium's checker steps unmasked
actions. Rule options are ``pasang.Board``'s keyword arguments.
:meth:`PasangEnv.action_masks` gives the legal ids as a ``bool`` array,
the method sb3-contrib's ``MaskablePPO`` calls. The environment pickles
and deep-copies, an engine opponent too: the copy continues as the
original would (the engine's table is emptied before every search, so it
carries nothing between moves).
"""

from typing import Any, Optional, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from .._pasang import ACTIONS, OBSERVATION_PLANES, Board, Searcher
from .draw import draw

SIZE = 11
#: The node cap of a Skill Level opponent's search.
SKILL_NODES = 100_000
#: Full strength (the engine's ``Skill Level`` runs 0-20).
MAX_SKILL = 20


def skill_of(opponent: Any) -> Optional[int]:
    """The Skill Level of ``"skill:N"``, or None for another opponent."""
    if not (isinstance(opponent, str) and opponent.startswith("skill:")):
        return None
    text = opponent[len("skill:") :]
    if not text.isdigit() or not 0 <= int(text) <= MAX_SKILL:
        raise ValueError("a Skill Level opponent is 'skill:N' with N from 0 to 20, not {!r}".format(opponent))
    return int(text)


class PasangEnv(gymnasium.Env):
    """See the module's documentation."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        opponent: Union[str, int] = "random",
        agent: str = "south",
        render_mode: Optional[str] = None,
        **rules: Any,
    ) -> None:
        self._skill = skill_of(opponent)
        if opponent != "random" and self._skill is None and not (isinstance(opponent, int) and opponent > 0):
            raise ValueError("opponent is 'random', a positive node count or 'skill:N', not {!r}".format(opponent))
        if agent not in ("south", "north", "either"):
            raise ValueError("agent is 'south', 'north' or 'either', not {!r}".format(agent))
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError("render_mode {!r} is not one of {}".format(render_mode, self.metadata["render_modes"]))
        self.render_mode = render_mode
        self.opponent = opponent
        self.agent = agent
        self.board = Board(**rules)
        self.observation_space = spaces.Box(0, 255, (OBSERVATION_PLANES, SIZE, SIZE), dtype=np.uint8)
        self.action_space = spaces.Discrete(ACTIONS)
        self._searcher = None if opponent == "random" else Searcher(threads=1)
        self._side = "south"

    def _observe(self):
        planes = np.frombuffer(self.board.observation(self._side), dtype=np.uint8)
        mask = np.zeros(ACTIONS, dtype=np.int8)
        if not self.board.is_game_over():
            mask[self.board.legal_actions()] = 1
        return planes.reshape(OBSERVATION_PLANES, SIZE, SIZE).copy(), {"action_mask": mask}

    def action_masks(self) -> np.ndarray:
        """The legal ids of the agent's position (``ACTIONS`` ``bool``; all
        false once the game is over): what ``MaskablePPO`` asks for."""
        mask = np.zeros(ACTIONS, dtype=bool)
        if not self.board.is_game_over():
            mask[self.board.legal_actions()] = True
        return mask

    def __getstate__(self):
        # The engine is a handle on native memory; a copy gets its own.
        state = dict(self.__dict__)
        state["_searcher"] = None
        return state

    def __setstate__(self, state) -> None:
        self.__dict__.update(state)
        if self.opponent != "random":
            self._searcher = Searcher(threads=1)

    def _reward(self) -> float:
        winner = self.board.outcome().winner
        return 0.0 if winner is None else (1.0 if winner == self._side else -1.0)

    def _opponent_moves(self) -> None:
        while not self.board.is_game_over() and self.board.turn != self._side:
            if self._searcher is None:
                legal = self.board.legal_actions()
                self.board.push_action(legal[int(self.np_random.integers(len(legal)))])
            elif self._skill is not None:
                self.board.push(self._skill_move())
            else:
                move = self._searcher.search(self.board, nodes=self.opponent)[0]
                self.board.push(move)

    def _skill_move(self):
        """The engine's move at the Skill Level, its random error seeded
        from ``np_random``."""
        seed = int(self.np_random.integers(2**63))
        return self._searcher.search(self.board, nodes=SKILL_NODES, skill=self._skill, seed=seed)[0]

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        self.board.reset()
        if self.agent == "either":
            self._side = ("south", "north")[int(self.np_random.integers(2))]
        else:
            self._side = self.agent
        self._opponent_moves()
        return self._observe()

    def step(self, action):
        legal = self.board.legal_actions()
        if int(action) not in legal:
            observation, info = self._observe()
            info["illegal_action"] = True
            return observation, -1.0, True, False, info
        self.board.push_action(int(action))
        self._opponent_moves()
        observation, info = self._observe()
        if self.board.is_game_over():
            return observation, self._reward(), True, False, info
        return observation, 0.0, False, False, info

    def render(self):
        if self.render_mode == "ansi":
            return str(self.board)
        if self.render_mode == "rgb_array":
            return draw(self.board)
        return None
