"""Pasang as an OpenSpiel game in Python: ``import pasang.rl.openspiel``
registers ``python_pasang`` with ``pyspiel.register_game``::

    import pyspiel, pasang.rl.openspiel
    game = pyspiel.load_game("python_pasang(ka_entry=jump)")
    state = game.new_initial_state()

Game parameters are the rule options: ``pattern`` (an int, 1 or 2: a
game string reads ``pattern=1`` back as an int), ``ka_entry``,
``second_column`` and ``centre`` (strings). Player 0 is South, player 1
North; actions are :data:`pasang.rl.ACTIONS` ids; returns are +1/-1/0 at
the end. The observer gives the planes of :func:`pasang.rl.observation`
seen by the player asked for, as ``float32`` in [0, 1]: the two score
planes divided by 180 and the stones-left plane by 120, as OpenSpiel's own games
scale their counters (chess's), so a network such as OpenSpiel's
AlphaZero models takes the tensor as it is. States pickle (a
``pasang.Board`` pickles) and serialise as their action history.
"""

from typing import Any, Dict, Optional

import numpy as np
import pyspiel

from .._pasang import ACTIONS, OBSERVATION_PLANES, Board, describe_action

__all__ = ["PasangGame", "PasangState"]

SIZE = 11
#: Every move captures at least one of the 120 stones.
MAX_GAME_LENGTH = 120
_PLAYERS = ("south", "north")
_DEFAULTS: Dict[str, Any] = {"pattern": 1, "ka_entry": "slide", "second_column": "opposite", "centre": "wall"}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_pasang",
    long_name="Python Pasang",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_DEFAULTS),
)
_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=ACTIONS,
    max_chance_outcomes=0,
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    max_game_length=MAX_GAME_LENGTH,
)


class PasangGame(pyspiel.Game):
    """The game, under the rule options of its parameters."""

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(_GAME_TYPE, _GAME_INFO, params or dict())
        values = dict(_DEFAULTS)
        values.update(self.get_parameters())
        self.rules = {key: str(values[key]) for key in _DEFAULTS}
        Board(**self.rules)  # refuses a bad value with InvalidRulesError

    def new_initial_state(self) -> "PasangState":
        return PasangState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError("observation parameters are not supported; passed {}".format(params))
        return PlanesObserver()


class PasangState(pyspiel.State):
    """A position of the game: a ``pasang.Board`` with its moves."""

    def __init__(self, game: PasangGame) -> None:
        super().__init__(game)
        self.board = Board(**game.rules)
        self._over = False

    def current_player(self) -> int:
        if self._over:
            return pyspiel.PlayerId.TERMINAL
        return _PLAYERS.index(self.board.turn)

    def _legal_actions(self, player: int):
        if self._over or player != _PLAYERS.index(self.board.turn):
            return []
        return sorted(self.board.legal_actions())

    def _apply_action(self, action: int) -> None:
        self.board.push_action(int(action))
        self._over = self.board.is_game_over()

    def _action_to_string(self, player: int, action: int) -> str:
        return describe_action(int(action))

    def is_terminal(self) -> bool:
        return self._over

    def returns(self):
        if not self._over:
            return [0.0, 0.0]
        winner = self.board.outcome().winner
        if winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == "south" else [-1.0, 1.0]

    def __str__(self) -> str:
        return self.board.fen()


#: What each plane is divided by in the observer: the raw counts of the
#: score planes (7, 8: 0-180) and the stones-left plane (12: 0-120) would feed a
#: network inputs a hundred times larger than the 0/1 planes.
_SCALE = np.ones((OBSERVATION_PLANES, 1, 1), np.float32)
_SCALE[7:9] = 1.0 / 180.0
_SCALE[12] = 1.0 / 120.0


class PlanesObserver:
    """The planes seen by a player, as OpenSpiel's observers give them:
    ``tensor`` (flat ``float32``, every value in [0, 1]) and
    ``dict["observation"]``, a ``(PLANES, 11, 11)`` view of it."""

    def __init__(self) -> None:
        shape = (OBSERVATION_PLANES, SIZE, SIZE)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": np.reshape(self.tensor, shape)}

    def set_from(self, state: PasangState, player: int) -> None:
        planes = np.frombuffer(state.board.observation(_PLAYERS[player]), dtype=np.uint8)
        self.dict["observation"][:] = planes.reshape(self.dict["observation"].shape) * _SCALE

    def string_from(self, state: PasangState, player: int) -> str:
        return "{} seen by {}".format(state.board.fen(), _PLAYERS[player])


pyspiel.register_game(_GAME_TYPE, PasangGame)
