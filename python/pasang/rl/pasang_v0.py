"""Pasang as a PettingZoo AEC environment, in the manner of
``pettingzoo.classic`` (docs/rl.md)::

    from pasang.rl import pasang_v0
    env = pasang_v0.env()
    env.reset(seed=42)

Agents ``"player_0"`` (South, who moves first) and ``"player_1"``
(North), as the classic environments name them. Each observation is a
dict: ``observation``, the planes of :func:`pasang.rl.observation` seen by
the observing agent (``uint8``, ``(PLANES, 11, 11)``), and
``action_mask``, 1 at the ids of the legal moves (``int8``, all zeros for
the agent not to move). Rewards are +1/-1/0 at the end. Rule options are
``pasang.Board``'s keyword arguments: ``pasang_v0.env(ka_entry="jump")``.
``render_mode`` is ``"ansi"`` (the board as text) or ``"rgb_array"`` (a
drawing of the board).
"""

from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .._pasang import ACTIONS, OBSERVATION_PLANES, Board
from .draw import draw

__all__ = ["env", "raw_env"]

SIZE = 11
#: The agents, South's first.
_AGENTS = ("player_0", "player_1")
_SIDES = {"player_0": "south", "player_1": "north"}
_AGENT_OF = {side: agent for agent, side in _SIDES.items()}


def env(render_mode: Optional[str] = None, **rules: Any) -> AECEnv:
    """The environment with PettingZoo's classic wrappers: an illegal
    move ends the game with -1 for its player, actions out of range are
    refused, and the call order is enforced."""
    environment = raw_env(render_mode=render_mode, **rules)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    environment = wrappers.OrderEnforcingWrapper(environment)
    return environment


class raw_env(AECEnv):
    """The bare environment (see the module's documentation)."""

    metadata = {
        "render_modes": ["ansi", "rgb_array"],
        "name": "pasang_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, render_mode: Optional[str] = None, **rules: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError("render_mode {!r} is not one of {}".format(render_mode, self.metadata["render_modes"]))
        self.render_mode = render_mode
        self.board = Board(**rules)
        self.rules: Dict[str, str] = self.board.rules
        self.agents = list(_AGENTS)
        self.possible_agents = self.agents[:]
        observation = spaces.Dict(
            {
                "observation": spaces.Box(0, 255, (OBSERVATION_PLANES, SIZE, SIZE), dtype=np.uint8),
                "action_mask": spaces.Box(0, 1, (ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {agent: observation for agent in self.agents}
        self.action_spaces = {agent: spaces.Discrete(ACTIONS) for agent in self.agents}
        self.rewards = {agent: 0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: Dict[str, dict] = {agent: {} for agent in self.agents}
        self.agent_selection = _AGENTS[0]

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        planes = np.frombuffer(self.board.observation(_SIDES[agent]), dtype=np.uint8)
        mask = np.zeros(ACTIONS, dtype=np.int8)
        if agent == self.agent_selection and not self.board.is_game_over():
            mask[self.board.legal_actions()] = 1
        return {"observation": planes.reshape(OBSERVATION_PLANES, SIZE, SIZE).copy(), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        del options
        if seed is not None:
            for index, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + index)
        self.board.reset()
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = _AGENT_OF[self.board.turn]

    def step(self, action: int) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        mover = self.agent_selection
        self.board.push_action(int(action))
        self._cumulative_rewards[mover] = 0
        if self.board.is_game_over():
            winner = self.board.outcome().winner
            for agent in self.agents:
                self.rewards[agent] = 0 if winner is None else (1 if _SIDES[agent] == winner else -1)
                self.terminations[agent] = True
        else:
            self.rewards = {agent: 0 for agent in self.agents}
        self.agent_selection = _AGENT_OF[self.board.turn]
        self._accumulate_rewards()
        if self.render_mode is not None:
            self.render()

    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.render_mode == "ansi":
            return str(self.board)
        return draw(self.board)

    def close(self) -> None:
        pass
