"""The board and its moves as NumPy arrays, for learning (NumPy needed:
``pip install numpy``)::

    >>> import pasang, pasang.learn
    >>> board = pasang.Board()
    >>> pasang.learn.board_array(board).shape
    (5, 11, 11)
    >>> int(pasang.learn.action_mask(board).sum())
    11

- :func:`board_array`: planes of 0/1 (``uint8``), ``[plane, rank, file]``
  with rank 1 and file a first: white stones, black stones, South's ka,
  North's ka, and a plane of ones when South is to move. The scores and
  the phase are ``board.scores`` and ``board.phase``.
- :func:`action_mask`: the legal moves over the fixed action space of
  :mod:`pasang.rl` (:data:`ACTIONS` ids: 0-10 the passages on files a-k,
  then every ka entry or move that can be legal; docs/rl.md).
  :func:`action_of` and :func:`move_of` convert. The old numbering of
  36,311 moves is gone.
- :func:`read_datagen`: the positions of a ``pasang datagen`` text file
  (docs/datagen.md) in batches of arrays; :func:`read_packed` the same of
  the packed file ``pasang datagen --merge`` writes. With
  ``observations=True`` each batch also holds the 19 planes of
  :func:`pasang.rl.observation`, as the environments give them.
"""

import struct
from typing import IO, Iterator, List, NamedTuple, Optional, Union

try:
    import numpy as np
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError("pasang.learn needs NumPy: pip install numpy") from error

from ._pasang import (
    ACTIONS,
    MATE as _MATE,
    OBSERVATION_PLANES,
    PLANES,
    Board,
    Move,
    datagen_rule_sets,
    rule_options,
)

__all__ = [
    "ACTIONS",
    "PLANES",
    "board_array",
    "action_mask",
    "action_of",
    "move_of",
    "Batch",
    "read_datagen",
    "read_packed",
    "read_packed_records",
]

SIZE = 11


def board_array(board: Board) -> "np.ndarray":
    """The position as a ``(5, 11, 11)`` array of 0 and 1 (``uint8``)."""
    return np.frombuffer(board.planes(), dtype=np.uint8).reshape(PLANES, SIZE, SIZE).copy()


def action_mask(board: Board) -> "np.ndarray":
    """A ``bool`` array of :data:`ACTIONS` entries, true for each legal
    move's number."""
    mask = np.zeros(ACTIONS, dtype=bool)
    mask[board.legal_actions()] = True
    return mask


def action_of(board: Board, move: Move) -> int:
    """The number of a legal move of ``board`` (``IllegalMoveError``
    otherwise)."""
    return board.action_of(move)


def move_of(board: Board, action: int) -> Move:
    """The legal move of ``board`` numbered ``action``
    (``IllegalMoveError`` when there is none, ``ValueError`` for an id out
    of range)."""
    return board.move_of_action(int(action))


class Batch(NamedTuple):
    """Positions of a datagen file: ``boards`` (N, 5, 11, 11) ``uint8`` as
    :func:`board_array`; ``scores`` (N,) the search's score for the side
    to move on its internal scale: centipoints, or a mate beyond
    ``pasang.rl.MATE_BOUND`` (files of format version 3 keep mates:
    ``pasang.rl.score_text`` writes one as ``mate n``); ``results`` (N,) the game's result for the side to move,
    1 won, 0.5 drawn, 0 lost; ``margins`` (N,) the game's final point
    margin for the side to move; ``fens`` the position strings (None for
    a packed file, which does not keep them); ``rules`` each position's
    rules (``Board`` keyword arguments); ``points`` (N, 2) ``int32`` the
    points each side had (South's, North's); ``actions`` (N,) ``int64``
    the move played as its action id (:mod:`pasang.rl`), -1 where the
    file does not record it: the policy target; ``policies`` (N,
    ACTIONS) ``float32`` the engine's distribution over the legal ids
    (``pasang datagen --policy``), rows of zeros where a line has none,
    or None when no line of the batch has one (and for packed files);
    ``observations`` (N, 19, 11, 11) ``uint8`` the planes of
    :func:`pasang.rl.observation` (seen by the side to move, as the
    environments give them) when the reader was asked for them
    (``observations=True``), else None."""

    boards: "np.ndarray"
    scores: "np.ndarray"
    results: "np.ndarray"
    margins: "np.ndarray"
    fens: Optional[List[str]]
    rules: List[dict]
    points: "np.ndarray"
    actions: "np.ndarray"
    policies: Optional["np.ndarray"] = None
    observations: Optional["np.ndarray"] = None


_RESULT = {"w": 1.0, "d": 0.5, "l": 0.0}
#: ``Board.rules``' keys, in the order the engine writes rule sets.
_RULE_KEYS = tuple(field for field, _name, _values, _default in rule_options())


def _observation(board: Board) -> "np.ndarray":
    """The 19 planes of :func:`pasang.rl.observation`."""
    return np.frombuffer(board.observation(None), dtype=np.uint8).reshape(OBSERVATION_PLANES, SIZE, SIZE)


def read_datagen(
    source: Union[str, IO[str]], batch_size: int = 1024, observations: bool = False
) -> Iterator[Batch]:
    """The positions of a ``pasang datagen`` text file (a path or an open
    file), ``batch_size`` at a time (the last batch may be shorter). A line
    that is not a position of the format raises ``ValueError`` naming it.
    With ``observations=True`` each batch's ``observations`` holds the
    environments' 19 planes."""
    if isinstance(source, str):
        with open(source) as handle:
            yield from read_datagen(handle, batch_size, observations)
        return
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    rows: list = []
    planes: list = []
    for number, line in enumerate(source, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split(" | ")
        try:
            fen, rules_text, score, outcome, *played = fields
            if len(played) > 2:
                raise ValueError("{} fields, not 4 to 6".format(len(fields)))
            rules = dict(zip(_RULE_KEYS, rules_text.split()))
            result, margin = outcome.split()
            board = Board(fen, **rules)
            action = board.action_of(board.parse_move(played[0])) if played else -1
            policy = _policy(board, played[1]) if len(played) == 2 else None
            points = board.scores
            rows.append(
                (board_array(board), _score(score), _RESULT[result], int(margin), fen, rules, points, action, policy)
            )
        except (ValueError, KeyError) as error:
            raise ValueError("line {}: not a datagen position ({})".format(number, error)) from None
        if observations:
            planes.append(_observation(board))
        if len(rows) == batch_size:
            yield _batch(rows, planes)
            rows, planes = [], []
    if rows:
        yield _batch(rows, planes)


def _score(field: str) -> int:
    """The third field: centipoints, or ``mate n`` on the search's scale
    (``pasang::search::Score::to_internal``)."""
    words = field.split()
    if len(words) == 2 and words[0] == "mate":
        moves = int(words[1])
        if moves > 0:
            return _MATE - (2 * moves - 1)
        return -(_MATE - max(1, -2 * moves))
    return int(field)


def _policy(board: Board, field: str) -> list:
    """The sixth field, ``<move>:<weight> ...``, as (id, weight) pairs."""
    pairs = []
    for word in field.split():
        text, weight = word.split(":")
        pairs.append((board.action_of(board.parse_move(text)), float(weight)))
    if not pairs:
        raise ValueError("an empty move distribution")
    return pairs


def _batch(rows: list, planes: list) -> Batch:
    boards, scores, results, margins, fens, rules, points, actions, policy_rows = zip(*rows)
    policies = None
    if any(row is not None for row in policy_rows):
        policies = np.zeros((len(rows), ACTIONS), dtype=np.float32)
        for index, row in enumerate(policy_rows):
            for action, weight in row or ():
                policies[index, action] = weight
    return Batch(
        np.stack(boards),
        np.array(scores, dtype=np.int32),
        np.array(results, dtype=np.float32),
        np.array(margins, dtype=np.int32),
        list(fens),
        list(rules),
        np.array(points, dtype=np.int32).reshape(len(rows), 2),
        np.array(actions, dtype=np.int64),
        policies,
        np.stack(planes) if planes else None,
    )


# The packed format, versions 1 and 2 (docs/datagen.md; 2 may hold mates): a 32-byte header, then
# 48-byte little-endian records.
_MAGIC = b"PSNGDAT\0"
_RECORD = np.dtype(
    [
        ("white", "u1", 16),
        ("black", "u1", 16),
        ("ka", "u1", 2),
        ("passage", "u1", 2),
        ("points", "u1", 2),
        ("side", "u1"),
        ("rules", "u1"),
        ("score", "<i2"),
        ("result", "u1"),
        ("zero", "u1"),
        ("margin", "<i2"),
        ("played", "<u2"),
    ]
)
_NO_KA = 255


def read_packed_records(path: str) -> "np.ndarray":
    """All records of a packed datagen file (``pasang datagen --merge``) as
    one NumPy structured array, fields as docs/datagen.md names them
    (``white``, ``black``: 16 bytes of little-endian point bits each;
    ``ka``, ``passage``, ``points``: South's then North's; ``side``,
    ``rules``, ``score``, ``result``, ``margin``, ``played``: the move
    played's action id plus one, 0 where not recorded): what a trainer moves to
    its device whole. A file that is not of the format raises
    ``ValueError``."""
    with open(path, "rb") as handle:
        head = handle.read(32)
        if len(head) < 32:
            raise ValueError("{}: too short for a packed datagen file".format(path))
        magic, version, size, count, _seed = struct.unpack("<8sIIQQ", head)
        if magic != _MAGIC or version not in (1, 2) or size != _RECORD.itemsize:
            raise ValueError("{}: not a packed datagen file of version 1 or 2".format(path))
        records = np.fromfile(handle, dtype=_RECORD, count=count)
    if len(records) != count:
        raise ValueError("{}: {} records announced, {} found".format(path, count, len(records)))
    return records


def _packed_fen(record) -> str:
    """The position string of one packed record (docs/rules.md)."""
    points = SIZE * SIZE
    white = np.unpackbits(record["white"], bitorder="little")[:points]
    black = np.unpackbits(record["black"], bitorder="little")[:points]
    cells = np.where(white == 1, "w", np.where(black == 1, "b", "."))
    cells[SIZE * (SIZE // 2) + SIZE // 2] = "+"
    for ka, letter in zip(record["ka"], "SN"):
        if ka != _NO_KA:
            cells[ka] = letter
    ranks = "/".join("".join(cells[rank * SIZE : (rank + 1) * SIZE]) for rank in reversed(range(SIZE)))
    passages = "".join("-" if file == _NO_KA else "abcdefghijk"[file] for file in record["passage"])
    return "{} {} {} {} {}".format(
        ranks, "sn"[record["side"]], record["points"][0], record["points"][1], passages
    )


def read_packed(path: str, batch_size: int = 1024, observations: bool = False) -> Iterator[Batch]:
    """The positions of a packed datagen file (``pasang datagen --merge``
    writes one, shuffled), ``batch_size`` at a time, as :func:`read_datagen`
    gives them but without the position strings (the points each side
    had, and the move played, are kept). With ``observations=True`` each
    batch's ``observations`` holds the environments' 19 planes (made from
    each record's position, which holds everything they need). A file
    that is not of the format raises ``ValueError``."""
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    records = read_packed_records(path)
    rule_sets = [dict(zip(_RULE_KEYS, values)) for values in datagen_rule_sets()]
    if len(records) and int(records["rules"].max()) >= len(rule_sets):
        raise ValueError("{}: a rule-set index out of range".format(path))
    points = SIZE * SIZE
    for start in range(0, len(records), batch_size):
        chunk = records[start : start + batch_size]
        n = len(chunk)
        boards = np.zeros((n, PLANES, points), dtype=np.uint8)
        boards[:, 0] = np.unpackbits(chunk["white"], axis=1, bitorder="little")[:, :points]
        boards[:, 1] = np.unpackbits(chunk["black"], axis=1, bitorder="little")[:, :points]
        for plane, player in ((2, 0), (3, 1)):
            ka = chunk["ka"][:, player]
            entered = np.flatnonzero(ka != _NO_KA)
            boards[entered, plane, ka[entered]] = 1
        boards[chunk["side"] == 0, 4] = 1
        planes = None
        if observations:
            planes = np.stack(
                [
                    _observation(Board(_packed_fen(record), **rule_sets[record["rules"]]))
                    for record in chunk
                ]
            )
        yield Batch(
            boards.reshape(n, PLANES, SIZE, SIZE),
            chunk["score"].astype(np.int32),
            chunk["result"].astype(np.float32) / 2,
            chunk["margin"].astype(np.int32),
            None,
            [rule_sets[index] for index in chunk["rules"]],
            chunk["points"].astype(np.int32),
            chunk["played"].astype(np.int64) - 1,
            None,
            planes,
        )
