"""Pasang's rules in JAX, as a pgx-style environment (``pip install
"./python[jax]"``; docs/rl.md, section JAX)::

    import jax, pasang.jax
    env = pasang.jax.Env(centre="open")           # the four rule options
    state = jax.jit(env.init)(jax.random.PRNGKey(0))
    state = jax.jit(env.step)(state, 3)            # the passage on file d

Code written for pgx's environments and mctx takes ``Env(...)`` in place
of ``pgx.make(...)``: ``init(key)`` and ``step(state, action, key=None)``
are pure functions of fixed shapes (no shape or Python branch depends on
the position), so ``jax.jit``, ``jax.vmap`` and ``jax.lax.scan`` compile
them. The action ids (7,291) and the 19 observation planes are
:mod:`pasang.rl`'s: a policy trained on one serves the other, and
``python/tests/test_jax.py`` checks every position of seeded games
against the Rust core.

As in pgx:

- ``current_player`` is 0 for South, who moves first, 1 for North;
- ``rewards`` (2,) by player: +1/-1, 0 for a draw, at the step that ends
  the game, else 0;
- stepping a terminated state returns it with zero rewards;
- an illegal action (or one outside ``0..7291``) cannot raise under jit:
  it ends the game at once as a loss for the player who played it (-1 to
  it, +1 to the other); the position is left as it was;
- at a terminated state ``legal_action_mask`` is all true (pgx's choice,
  so a policy normalised over it never divides by zero).

Every move captures at least one stone, so a game ends within its stones'
count of plies (110 from a start position): ``truncated`` stays false.
"""

from __future__ import annotations

import dataclasses
from typing import Dict, Optional, Tuple, Union

try:
    import jax
    import jax.numpy as jnp
    import numpy as np
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError('pasang.jax needs JAX: pip install "./python[jax]"') from error

from ._pasang import ACTIONS, OBSERVATION_PLANES, Board, action_triples, rule_options

__all__ = ["Env", "State", "ACTIONS", "OBSERVATION_PLANES", "from_board", "to_board"]

SIZE = 11
POINTS = SIZE * SIZE
HOLE = POINTS // 2
#: An index past the points: "no point" in the tables (a passage's origin).
EDGE = POINTS
NORTH, SOUTH, EAST, WEST = 1, 2, 4, 8
# -- Static tables, from the core's action table -----------------------------


def _tables() -> Dict[str, np.ndarray]:
    triples = action_triples()
    assert len(triples) == ACTIONS
    t: Dict[str, np.ndarray] = {
        name: np.zeros(ACTIONS, dtype=np.int32)
        for name in (
            "passage",
            "file",
            "frm",
            "to",
            "set",
            "ka_move",
            "entry",
            "middle",
            "distance",
            "line",
            "index",
            "clear",
            "move_axis",
        )
    }
    sets = [NORTH, SOUTH, NORTH | SOUTH, EAST, WEST, EAST | WEST]
    for action, (frm, to, directions) in enumerate(triples):
        if frm < 0:
            t["passage"][action] = 1
            t["file"][action] = to
            t["to"][action] = EDGE
            t["frm"][action] = EDGE
            t["middle"][action] = EDGE
            continue
        t["frm"][action], t["to"][action] = frm, to
        t["set"][action] = sets.index(directions)
        along_file_capture = directions & (NORTH | SOUTH) != 0
        (fr, ff), (r, f) = divmod(frm, SIZE), divmod(to, SIZE)
        # The capture line in the words of Env._words: rank r is word r
        # (bit = file), file f word 11 + f (bit = rank).
        t["line"][action], t["index"][action] = (SIZE + f, r) if along_file_capture else (r, f)
        t["move_axis"][action] = 1 if ff == f else 0
        dist = abs(f - ff) + abs(r - fr)
        # A ka move captures across its move.
        t["ka_move"][action] = int((ff == f) != along_file_capture)
        near = fr == r and 1 <= dist <= 2 and r != SIZE // 2
        t["entry"][action] = int(near)
        t["distance"][action] = dist if near else 0
        t["middle"][action] = fr * SIZE + (ff + f) // 2 if near and dist == 2 else EDGE
        if near and not along_file_capture:
            # An entry reading its own rank: the origin is empty once the
            # stone has left.
            t["clear"][action] = 1 << ff
    return t


_T = _tables()


def _half_file_points() -> np.ndarray:
    """``[player, file]``: the points of ``player``'s half on ``file``."""
    table = np.zeros((2, SIZE, POINTS), dtype=bool)
    for file in range(SIZE):
        for rank in range(5):
            table[0, file, rank * SIZE + file] = True
            table[1, file, (SIZE - 1 - rank) * SIZE + file] = True
    return table


_HALF = _half_file_points()


def _spans() -> np.ndarray:
    """``[index, blockers]``: the bits strictly between the nearest bit of
    ``blockers`` below ``index`` and the nearest above, the edges counting
    as blockers and ``index`` itself never one (the core's ``SPANS``),
    by counting: the reference :func:`_span` is tested against."""
    table = np.zeros((SIZE, 1 << SIZE), dtype=np.int32)
    for index in range(SIZE):
        for blockers in range(1 << SIZE):
            upper = index + 1
            while upper < SIZE and not blockers >> upper & 1:
                upper += 1
            lower = index - 1
            while lower >= 0 and not blockers >> lower & 1:
                lower -= 1
            table[index, blockers] = ((1 << upper) - 1) & ~((1 << (lower + 1)) - 1)
    return table



def _span(index, blockers):
    """:func:`_spans`'s entry by bit arithmetic, as the core builds its
    table (a look-up per id in a 22,528-entry table ran no faster)."""
    above = (blockers | (1 << SIZE)) >> (index + 1)
    upper = index + 1 + jax.lax.population_count((above & -above) - 1)
    below = ((blockers << 1) | 1) & ((2 << index) - 1)
    lower = 31 - jax.lax.clz(below)
    return ((1 << upper) - 1) & ~((1 << lower) - 1)

_PLAY = np.ones(POINTS, dtype=np.uint8)
_PLAY[HOLE] = 0


# -- The rule options --------------------------------------------------------

#: (keyword, protocol name, values, default) of each rule option.
_OPTIONS = [(field, name, list(values), default) for field, name, values, default in rule_options()]


def _rules(options: Dict[str, object]) -> Dict[str, str]:
    known = {field for field, _name, _values, _default in _OPTIONS}
    unknown = sorted(set(options) - known)
    if unknown:
        raise ValueError(
            "unknown rule option {}: the options are {}".format(", ".join(unknown), ", ".join(sorted(known)))
        )
    rules = {}
    for field, name, values, default in _OPTIONS:
        value = options.get(field)
        value = default if value is None else str(value)
        if value not in values:
            raise ValueError(
                "{} ({}) must be one of {}, not {!r}".format(field, name, ", ".join(values), options.get(field))
            )
        rules[field] = value
    return rules


# -- The state ---------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class State:
    """One game's state, a pytree of fixed shapes (batched by ``vmap``).

    pgx's fields: ``current_player`` (0 South, 1 North: the side to move),
    ``observation`` (11, 11, 19) ``uint8``, the planes of
    :func:`pasang.rl.observation` seen by the side to move, channels last;
    ``legal_action_mask`` (7291,) ``bool``; ``rewards`` (2,) ``float32`` by
    player; ``terminated``; ``truncated`` (always false). Then ``score``
    (2,) the points of South and North, and ``ply`` the plies played
    since the start (or since the board given to ``from_board``, plus its
    own move count). Fields starting with ``_`` are the position."""

    current_player: jax.Array
    observation: jax.Array
    legal_action_mask: jax.Array
    rewards: jax.Array
    terminated: jax.Array
    truncated: jax.Array
    score: jax.Array
    ply: jax.Array
    _white: jax.Array
    _black: jax.Array
    _ka: jax.Array
    _passage: jax.Array

    def replace(self, **changes) -> "State":
        """A copy with ``changes``, as pgx's states have it."""
        return dataclasses.replace(self, **changes)

    @property
    def env_id(self) -> str:
        return "pasang"


jax.tree_util.register_dataclass(
    State,
    data_fields=[field.name for field in dataclasses.fields(State)],
    meta_fields=[],
)


# -- The environment ---------------------------------------------------------


class Env:
    """Pasang under one rule set, as a pgx environment: ``init(key)``,
    ``step(state, action, key=None)``, ``num_players``, ``num_actions``,
    ``observation_shape``, ``id``. The rule options are the protocol's
    (``pattern`` ``"1"``/``"2"``, ``ka_entry``, ``second_column``,
    ``centre``: docs/rules.md), static configuration: each rule set
    compiles once. An unknown option or value raises ``ValueError``
    naming the option and its values, before anything is traced."""

    id = "pasang"
    version = "v1"
    num_players = 2
    num_actions = ACTIONS
    observation_shape = (SIZE, SIZE, OBSERVATION_PLANES)

    def __init__(
        self,
        pattern: Union[int, str, None] = None,
        ka_entry: Optional[str] = None,
        second_column: Optional[str] = None,
        centre: Optional[str] = None,
    ) -> None:
        self.rules = _rules(
            {"pattern": pattern, "ka_entry": ka_entry, "second_column": second_column, "centre": centre}
        )
        self._slide = self.rules["ka_entry"] in ("slide", "both")
        self._jump = self.rules["ka_entry"] in ("jump", "both")
        self._any_column = self.rules["second_column"] == "any"
        self._open = self.rules["centre"] == "open"
        rule_planes = [
            self.rules["pattern"] == "2",
            self._slide,
            self._jump,
            self._any_column,
            self._open,
        ]
        self._rule_planes = np.array(rule_planes, dtype=np.uint8)
        self._from_parts = None  # from_board's compiled builder, made on first use
        start = Board(**self.rules)
        self._start = _parse(start.fen())
        # The start state, computed once: init returns it as constants, so
        # a reset inside a jitted loop costs no move generation.
        self._start_state = jax.tree_util.tree_map(np.asarray, jax.jit(self._compute_start)())

    def __repr__(self) -> str:
        return "pasang.jax.Env({})".format(", ".join("{}={!r}".format(k, v) for k, v in self.rules.items()))

    # -- pgx's API --

    def init(self, key: jax.Array) -> State:
        """The start position of the rule set's pattern (``key`` is taken
        as pgx's ``init`` takes it; the start has no chance)."""
        del key
        return jax.tree_util.tree_map(jnp.asarray, self._start_state)

    def _compute_start(self) -> State:
        white, black, ka, passage, scores, side = (jnp.asarray(part) for part in self._start)
        return self._finish(white, black, ka, passage, scores, side, jnp.int32(0), jnp.zeros(2, jnp.float32))

    def step(self, state: State, action, key: Optional[jax.Array] = None) -> State:
        """The state after ``action`` (an id of :data:`ACTIONS`). A
        terminated state comes back with zero rewards; an illegal id ends
        the game as a loss for its player."""
        del key
        action = jnp.asarray(action, dtype=jnp.int32)
        in_range = (action >= 0) & (action < ACTIONS)
        safe = jnp.where(in_range, action, 0)
        legal = in_range & state.legal_action_mask[safe]
        played = self._play(state, safe)
        mover = state.current_player
        loss = jnp.where(jnp.arange(2) == mover, -1.0, 1.0).astype(jnp.float32)
        penalised = state.replace(
            rewards=loss,
            terminated=jnp.bool_(True),
            legal_action_mask=jnp.ones(ACTIONS, dtype=bool),
        )
        after = jax.tree_util.tree_map(lambda a, b: jnp.where(legal, a, b), played, penalised)
        idle = state.replace(rewards=jnp.zeros(2, jnp.float32))
        return jax.tree_util.tree_map(lambda a, b: jnp.where(state.terminated, a, b), idle, after)

    def observe(self, state: State, player_id=None) -> jax.Array:
        """The observation of ``state`` (seen by the side to move, as
        ``state.observation``; ``player_id`` is taken for pgx's signature
        and must be the side to move or None)."""
        del player_id
        return state.observation

    # -- Crossing to pasang.Board --

    def from_board(self, board: Board) -> State:
        """The state of ``board``'s position (its rules must be this
        environment's: ``ValueError`` otherwise). ``ply`` is the board's
        ply count; a finished board gives a terminated state with zero
        rewards."""
        if dict(board.rules) != self.rules:
            raise ValueError("the board's rules {} are not this environment's {}".format(board.rules, self.rules))
        if self._from_parts is None:
            self._from_parts = jax.jit(
                lambda white, black, ka, passage, scores, side, ply: self._finish(
                    white, black, ka, passage, scores, side, ply, jnp.zeros(2, jnp.float32)
                )
            )
        return self._from_parts(*_parse(board.fen()), np.int32(board.ply()))

    def to_board(self, state: State) -> Board:
        """``state``'s position as a ``pasang.Board`` under this
        environment's rules (one state, not a batch: ``ValueError``)."""
        white = np.asarray(state._white)
        if white.shape != (POINTS,):
            raise ValueError("to_board takes one state, not a batch of shape {}".format(white.shape[:-1]))
        return Board(
            _format(
                white,
                np.asarray(state._black),
                np.asarray(state._ka),
                np.asarray(state._passage),
                np.asarray(state.score),
                int(state.current_player),
            ),
            **self.rules,
        )

    # -- The rules as array code --

    def _words(self, white, black, ka):
        """The 11-bit words of the 11 ranks (bit = file) then the 11 files
        (bit = rank), white and black, with the blockers (both kas, the
        walled hole) in both words, as the core keeps them: a span
        between blockers is then one table look-up."""
        points = jnp.arange(POINTS)
        blockers = (points == ka[0]) | (points == ka[1])
        if not self._open:
            blockers = blockers | (points == HOLE)

        def words(grid):
            grid = grid.reshape(SIZE, SIZE).astype(jnp.int32)
            by_rank = (grid << jnp.arange(SIZE)[None, :]).sum(axis=1)
            by_file = (grid << jnp.arange(SIZE)[:, None]).sum(axis=0)
            return jnp.concatenate([by_rank, by_file])

        return words(white | blockers), words(black | blockers)

    @staticmethod
    def _lines(white_word, black_word, index):
        """The white and black capture lines through ``index`` of one
        line's words (docs/rules.md, capture lines): the stones of a colour
        between the nearest stones of the other colour or blockers."""
        white = white_word & _span(index, black_word)
        black = black_word & _span(index, white_word)
        return white, black

    @staticmethod
    def _line_code(line, index):
        """1 for a line of stones above ``index`` only (north or east), 2
        below only, 3 both sides; 0 for an even line (not a capture)."""
        above = (line >> (index + 1)) != 0
        below = (line & ((1 << index) - 1)) != 0
        odd = (jax.lax.population_count(line) & 1) == 1
        return jnp.where(odd, above.astype(jnp.int32) + 2 * below.astype(jnp.int32), 0)

    def _mask(self, white, black, ka, passage, side):
        """The legal moves of the side to move, over the action ids."""
        white_words, black_words = self._words(white, black, ka)
        # Each action's capture line: the landing point's rank or file,
        # an entry's origin taken out of its rank.
        keep = ~_T["clear"]
        white_line, black_line = self._lines(
            white_words[_T["line"]] & keep, black_words[_T["line"]] & keep, _T["index"]
        )
        wanted = _T["set"] % 3 + 1
        line_ok = (self._line_code(white_line, _T["index"]) == wanted) | (
            self._line_code(black_line, _T["index"]) == wanted
        )
        own_ka, own_passage = ka[side], passage[side]
        phase1 = own_passage < 0
        phase2 = ~phase1 & (own_ka < 0)
        phase3 = ~phase1 & ~phase2
        stones = white | black
        # Phase 1: a file of the own half holding a stone; North's choice
        # limited by Second Column.
        files = np.arange(SIZE)
        has_stone = (jnp.asarray(_HALF)[side] & stones[None, :]).any(axis=1)
        south_file = passage[0]
        if self._any_column:
            north_ok = files != SIZE - 1 - south_file
        else:
            north_ok = jnp.where(
                south_file <= 4, files >= 6, jnp.where(south_file == 5, files != 5, files <= 4)
            )
        north_ok = north_ok | (south_file < 0)
        file_ok = has_stone & ((side == 0) | north_ok)
        passage_ok = phase1 & file_ok[np.minimum(_T["file"], SIZE - 1)] & (_T["passage"] == 1)
        # Phase 2: a stone of the own half steps or jumps along its rank
        # onto an empty point of the passage.
        stone_cell = jnp.concatenate([stones, jnp.zeros(1, dtype=bool)])
        to_rank, to_file = np.divmod(np.minimum(_T["to"], POINTS - 1), SIZE)
        in_half = jnp.where(side == 0, to_rank < 5, to_rank > 5)
        ka_here = (ka[0] == _T["to"]) | (ka[1] == _T["to"])
        empty_to = ~stone_cell[_T["to"]] & ~ka_here
        kind = (_T["distance"] == 1) & self._slide | (_T["distance"] == 2) & self._jump
        middle_ok = (_T["distance"] != 2) | stone_cell[_T["middle"]]
        entry_ok = (
            phase2
            & (_T["entry"] == 1)
            & (to_file == own_passage)
            & in_half
            & empty_to
            & stone_cell[_T["frm"]]
            & kind
            & middle_ok
            & line_ok
        )
        # Phase 3: the ka slides over empty points (over the open hole, but
        # never onto it) and captures across its move.
        ka_at = jnp.maximum(own_ka, 0)
        ka_rank, ka_file = ka_at // SIZE, ka_at % SIZE
        occupied = white_words | black_words
        along_rank = _span(ka_file, occupied[ka_rank]) & ~(1 << ka_file)
        along_file = _span(ka_rank, occupied[SIZE + ka_file]) & ~(1 << ka_rank)
        reach = jnp.where(
            _T["move_axis"] == 0, (along_rank >> to_file) & 1, (along_file >> to_rank) & 1
        )
        move_ok = (
            phase3
            & (_T["frm"] == own_ka)
            & (_T["ka_move"] == 1)
            & (reach == 1)
            & (_T["to"] != HOLE)
            & line_ok
        )
        return passage_ok | entry_ok | move_ok

    def _play(self, state: State, action) -> State:
        """``state`` after the legal ``action``."""
        side = state.current_player
        white, black, ka, passage = state._white, state._black, state._ka, state._passage
        t = {name: jnp.asarray(table)[action] for name, table in _T.items()}
        is_passage = t["passage"] == 1
        # A passage takes the stones of the own half of its file.
        half = jnp.asarray(_HALF)[side, jnp.minimum(t["file"], SIZE - 1)]
        # A ka entry or move takes the line whose directions it names.
        white_words, black_words = self._words(white, black, ka)
        keep = ~t["clear"]
        white_line, black_line = self._lines(
            white_words[t["line"]] & keep, black_words[t["line"]] & keep, t["index"]
        )
        wanted = t["set"] % 3 + 1
        line = jnp.where(self._line_code(white_line, t["index"]) == wanted, white_line, black_line)
        bits = ((line >> jnp.arange(SIZE)) & 1) == 1
        ids = jnp.arange(SIZE)
        rank_line = t["line"] < SIZE
        grid = jnp.where(
            rank_line,
            (ids[:, None] == t["line"]) & bits[None, :],
            (ids[None, :] == t["line"] - SIZE) & bits[:, None],
        ).reshape(POINTS)
        taken = jnp.where(is_passage, half, grid)
        gained = 2 * (taken & white).sum() + (taken & black).sum()
        entering = ~is_passage & (ka[side] < 0)
        origin = jnp.arange(POINTS) == t["frm"]
        white = white & ~taken & ~(origin & entering)
        black = black & ~taken & ~(origin & entering)
        ka = jnp.where(is_passage, ka, ka.at[side].set(t["to"]))
        passage = jnp.where(is_passage, passage.at[side].set(t["file"]), passage)
        score = state.score.at[side].add(gained.astype(jnp.int32))
        return self._finish(white, black, ka, passage, score, 1 - side, state.ply + 1, None)

    def _finish(self, white, black, ka, passage, score, side, ply, rewards) -> State:
        """The full state of a position: its mask, observation and end.
        ``rewards`` None: the position was just reached by a move, so a
        game that ends here pays its result."""
        side = jnp.asarray(side, jnp.int32)
        mask = self._mask(white, black, ka, passage, side)
        no_stones = ~(white | black).any()
        stuck = ~mask.any()
        terminated = no_stones | stuck
        south_wins = jnp.where(no_stones, jnp.sign(score[0] - score[1]), jnp.where(side == 0, -1, 1))
        result = jnp.stack([south_wins, -south_wins]).astype(jnp.float32)
        if rewards is None:
            rewards = jnp.where(terminated, result, jnp.zeros(2, jnp.float32))
        mask = mask | terminated
        return State(
            current_player=side,
            observation=self._observation(white, black, ka, passage, score, side),
            legal_action_mask=mask,
            rewards=rewards,
            terminated=terminated,
            truncated=jnp.bool_(False),
            score=score.astype(jnp.int32),
            ply=jnp.asarray(ply, jnp.int32),
            _white=white,
            _black=black,
            _ka=ka.astype(jnp.int32),
            _passage=passage.astype(jnp.int32),
        )

    def _observation(self, white, black, ka, passage, score, side):
        """The 19 planes of pasang.rl, seen by ``side``, channels last."""
        other = 1 - side
        points = jnp.arange(POINTS)

        def ka_plane(player):
            return (points == ka[player]).astype(jnp.uint8)

        def passage_plane(player):
            return jnp.where(
                passage[player] >= 0,
                jnp.asarray(_HALF)[player, jnp.maximum(passage[player], 0)],
                False,
            ).astype(jnp.uint8)

        def constant(value):
            return jnp.full(POINTS, value, dtype=jnp.uint8)

        phase = jnp.where(passage[side] < 0, 1, jnp.where(ka[side] < 0, 2, 3))
        planes = [
            white.astype(jnp.uint8),
            black.astype(jnp.uint8),
            ka_plane(side),
            ka_plane(other),
            passage_plane(side),
            passage_plane(other),
            jnp.asarray(_PLAY),
            constant(score[side]),
            constant(score[other]),
            constant(phase == 1),
            constant(phase == 2),
            constant(phase == 3),
            constant((white | black).sum()),
            constant(side == 0),
        ] + [constant(value) for value in self._rule_planes]
        planes = jnp.stack(planes)
        # North sees the board turned: its view's point i is point 120 - i.
        planes = jnp.where(side == 1, planes[:, ::-1], planes)
        return planes.reshape(OBSERVATION_PLANES, SIZE, SIZE).transpose(1, 2, 0)



# -- Position strings --------------------------------------------------------


def _parse(fen: str) -> Tuple[np.ndarray, ...]:
    """A position string's white and black stones, kas and passages (-1
    none), scores and side to move, as arrays."""
    ranks, side, south, north, passages = fen.split()
    white = np.zeros(POINTS, dtype=bool)
    black = np.zeros(POINTS, dtype=bool)
    ka = np.full(2, -1, dtype=np.int32)
    for row, text in enumerate(ranks.split("/")):
        rank = SIZE - 1 - row
        for file, char in enumerate(text):
            point = rank * SIZE + file
            if char == "w":
                white[point] = True
            elif char == "b":
                black[point] = True
            elif char in "SN":
                ka["SN".index(char)] = point
    passage = np.array([-1 if c == "-" else "abcdefghijk".index(c) for c in passages], dtype=np.int32)
    scores = np.array([int(south), int(north)], dtype=np.int32)
    return white, black, ka, passage, scores, np.int32("sn".index(side))


def _format(white, black, ka, passage, scores, side) -> str:
    cells = np.where(white, "w", np.where(black, "b", "."))
    cells[HOLE] = "+"
    for player, letter in enumerate("SN"):
        if ka[player] >= 0:
            cells[ka[player]] = letter
    ranks = "/".join("".join(cells[rank * SIZE : (rank + 1) * SIZE]) for rank in reversed(range(SIZE)))
    passages = "".join("-" if p < 0 else "abcdefghijk"[p] for p in passage)
    return "{} {} {} {} {}".format(ranks, "sn"[side], int(scores[0]), int(scores[1]), passages)


def from_board(board: Board) -> Tuple[Env, State]:
    """``board``'s rule set as an :class:`Env` and its position as a
    :class:`State`."""
    env = Env(**board.rules)
    return env, env.from_board(board)


def to_board(env: Env, state: State) -> Board:
    """``state`` as a ``pasang.Board`` under ``env``'s rules."""
    return env.to_board(state)
