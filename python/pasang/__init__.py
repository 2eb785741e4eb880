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
- :func:`search` and :func:`stop`: the engine's search in this process
  (one engine, kept between calls; :class:`Searcher` for one of your own).

``__version__`` is the engine's version and the commit it was built from,
as ``pasang --version`` says it: ``"0.2.0 (1a2b3c4)"`` (the version alone
from a build without git, such as the sdist's);
``importlib.metadata.version("pasang")`` gives the package's ``"0.2.0"``.

Errors are exceptions named for what went wrong, all ``ValueError``
subclasses carrying the engine's own message: :class:`IllegalMoveError`,
:class:`InvalidMoveError`, :class:`InvalidPositionError`,
:class:`InvalidRulesError` and :class:`RecordError`.
"""

import threading
from typing import TYPE_CHECKING, List, Optional

from ._pasang import (
    __version__,
    Board,
    Searcher,
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
    "Searcher",
    "search",
    "stop",
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

    def __init__(self, move: Optional[Move], ponder: Optional[Move], lines: "List[InfoDict]") -> None:
        self.move = move
        self.ponder = ponder
        self.lines = lines
        self.info: "InfoDict" = lines[0] if lines else {}

    def __repr__(self) -> str:
        return "<SearchResult move={} ponder={} info={!r}>".format(self.move, self.ponder, self.info)


# The engine `search` keeps between calls, made at the first and again
# only when a call asks for another table size or thread count.
_searcher: Optional[Searcher] = None
_searcher_lock = threading.Lock()


def _searcher_for(hash: int, threads: int) -> Searcher:
    global _searcher
    with _searcher_lock:
        if _searcher is None or _searcher.hash != hash or _searcher.threads != threads:
            _searcher = Searcher(hash=hash, threads=threads)
        return _searcher


def search(
    board: Board,
    limit: "Limit",
    *,
    multipv: int = 1,
    threads: int = 1,
    hash: int = 16,
    clear: bool = True,
) -> SearchResult:
    """Searches ``board`` with the engine's search, in this process.

    ``limit`` is a :class:`pasang.engine.Limit` (``time`` in seconds,
    ``depth`` in plies, ``nodes``; at least one). The GIL is released while
    the engine searches, so other Python threads run meanwhile, and one of
    them may end it with :func:`stop`. The engine (a ``hash`` MiB table,
    ``threads`` threads) is kept between calls; its table is emptied first
    unless ``clear`` is false, so with one thread a ``nodes`` limit gives
    the same result every time.
    """
    from .engine import _line_info

    time = limit.time
    movetime = None if time is None else max(1, int(round(time * 1000)))
    best, ponder, lines, _nodes = _searcher_for(hash, threads).search(
        board,
        depth=limit.depth,
        nodes=limit.nodes,
        movetime=movetime,
        multipv=multipv,
        clear=clear,
    )
    turn = board.turn
    infos = [_line_info(line, turn) for line in lines]
    return SearchResult(best, ponder, infos)


def stop() -> None:
    """Stops the :func:`search` running now in another thread: it returns
    its best move so far at once. Nothing happens when none runs."""
    with _searcher_lock:
        searcher = _searcher
    if searcher is not None:
        searcher.stop()


if TYPE_CHECKING:
    from .engine import InfoDict, Limit
