"""Pasang, the traditional capture game of Brunei, for Python.

The rules, game records and engines of the ``pasang`` engine, with
python-chess's names where they fit::

    >>> import pasang
    >>> board = pasang.Board()
    >>> board.push_str("c")
    Move.from_str('c')
    >>> len(board.legal_moves)
    10

- :class:`Board`, :class:`Move`, :class:`Outcome`: the rules (the engine's
  own move generator, compiled into the module);
- :mod:`pasang.records`: game records, read and written game by game;
- :mod:`pasang.engine`: any engine process that speaks the protocol
  (UCI or UGI), driven as python-chess drives chess engines;
- :func:`search`: the engine's search in this process.

Errors are exceptions named for what went wrong, all ``ValueError``
subclasses carrying the engine's own message: :class:`IllegalMoveError`,
:class:`InvalidMoveError`, :class:`InvalidPositionError`,
:class:`InvalidRulesError` and :class:`RecordError`.
"""

from typing import Any, Dict, List, Optional

from ._pasang import (
    Board,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRulesError,
    LegalMoves,
    Move,
    Outcome,
    RecordError,
)
from . import _pasang

__all__ = [
    "Board",
    "Move",
    "LegalMoves",
    "Outcome",
    "SearchResult",
    "search",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRulesError",
    "RecordError",
    "SOUTH",
    "NORTH",
]

#: The player who moves first (``Board.turn`` names players so).
SOUTH = "south"
#: The player who moves second.
NORTH = "north"


class SearchResult:
    """What :func:`search` found: ``move`` (None when the game is over),
    ``ponder`` (the expected reply, or None), ``info`` (the best line, as
    :meth:`pasang.engine.SimpleEngine.analyse` gives it) and ``lines``
    (every line, best first, when ``multipv`` asked for several)."""

    def __init__(self, move: Optional[Move], ponder: Optional[Move], lines: List[Dict[str, Any]]) -> None:
        self.move = move
        self.ponder = ponder
        self.lines = lines
        self.info = lines[0] if lines else {}

    def __repr__(self) -> str:
        return "<SearchResult move={} ponder={} info={!r}>".format(self.move, self.ponder, self.info)


def search(board: Board, limit: Any, *, multipv: int = 1, threads: int = 1, hash: int = 16) -> SearchResult:
    """Searches ``board`` with the engine's search, in this process.

    ``limit`` is a :class:`pasang.engine.Limit` (``time`` in seconds,
    ``depth`` in plies, ``nodes``; at least one). The GIL is released while
    the engine searches, so other Python threads run meanwhile. Each call
    uses a fresh engine with a ``hash`` MiB table and ``threads`` threads;
    with one thread a ``nodes`` limit gives the same result every time.
    """
    from .engine import _line_info

    time = getattr(limit, "time", None)
    movetime = None if time is None else max(1, int(round(time * 1000)))
    best, ponder, lines, _nodes = _pasang.search(
        board,
        depth=getattr(limit, "depth", None),
        nodes=getattr(limit, "nodes", None),
        movetime=movetime,
        multipv=multipv,
        threads=threads,
        hash=hash,
    )
    turn = board.turn
    infos = [_line_info(line, turn) for line in lines]
    return SearchResult(best, ponder, infos)
