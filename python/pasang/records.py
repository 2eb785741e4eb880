"""Game records, game by game, as python-chess's ``chess.pgn`` reads PGN.

The format is the engine's own (docs/records.md): tag pairs, a blank line,
the moves with move numbers, ``{comments}``, marks (``??``, ``$4``) and the
result token. Reading and writing go through the engine's own parser and
writer (``pasang.record`` in Rust), so a record reads here exactly as
``pasang annotate`` or the board reads it::

    >>> import pasang.records
    >>> with open("docs/review/match20.pgn") as handle:
    ...     game = pasang.records.read_game(handle)
    >>> game.headers["Result"], len(game.moves)
    ('1-0', 46)
"""

from typing import Dict, Iterator, List, Optional, TextIO, Tuple

from ._pasang import Board, Move, RecordError, format_record, parse_records, record_board, rule_tags

__all__ = ["Game", "GameMove", "read_game", "read_games", "write_game", "RecordError"]

#: The marks a move may carry, as their suffixes (docs/review.md).
MARKS = ("!", "?", "!!", "??", "!?", "?!")


class GameMove:
    """One move of a record: ``move``, its ``comment`` (None without one)
    and its ``mark`` (``"?!"``, ``"?"``, ``"??"``, ... or None)."""

    def __init__(self, move: Move, comment: Optional[str] = None, mark: Optional[str] = None) -> None:
        self.move = move
        self.comment = comment
        self.mark = mark

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameMove) and (self.move, self.comment, self.mark) == (
            other.move,
            other.comment,
            other.mark,
        )

    def __repr__(self) -> str:
        return "GameMove({!r}, comment={!r}, mark={!r})".format(self.move, self.comment, self.mark)


class Game:
    """One game record: ``headers`` (the tag pairs, in order), ``moves``
    (:class:`GameMove`) and ``result`` (``"1-0"`` South won, ``"0-1"``
    North won, ``"1/2-1/2"``, ``"*"`` unknown)."""

    def __init__(
        self,
        headers: Optional[Dict[str, str]] = None,
        moves: Optional[List[GameMove]] = None,
        result: str = "*",
    ) -> None:
        self.headers: Dict[str, str] = dict(headers or {})
        self.moves: List[GameMove] = list(moves or [])
        self.result = result

    @classmethod
    def from_board(cls, board: Board, headers: Optional[Dict[str, str]] = None) -> "Game":
        """The game of ``board``: its rule tags, its start as ``FEN``, the
        moves of its ``move_stack``, and its result (``*`` while in play)."""
        root = board.copy()
        while root.move_stack:
            root.pop()
        tags: Dict[str, str] = dict(headers or {})
        for name, value in rule_tags(board):
            tags.setdefault(name, value)
        tags.setdefault("FEN", root.fen())
        result = board.result()
        tags.setdefault("Result", result)
        return cls(tags, [GameMove(move) for move in board.move_stack], result)

    def add_move(self, move: Move, comment: Optional[str] = None, mark: Optional[str] = None) -> GameMove:
        """Appends a move (not checked here: :meth:`end` replays them)."""
        entry = GameMove(move, comment, mark)
        self.moves.append(entry)
        return entry

    def mainline_moves(self) -> List[Move]:
        """The moves, without comments and marks."""
        return [entry.move for entry in self.moves]

    def board(self) -> Board:
        """The board the game starts from: its rule tags and its ``FEN``
        tag (or the pattern's start)."""
        return record_board(list(self.headers.items()))

    def end(self) -> Board:
        """The board after every move, replayed and checked (an illegal
        move raises ``IllegalMoveError``)."""
        board = self.board()
        for entry in self.moves:
            board.push(entry.move)
        return board

    @property
    def accuracy(self) -> Tuple[Optional[float], Optional[float]]:
        """A reviewed game's accuracy of South and of North (0-100, the
        ``SouthAccuracy`` and ``NorthAccuracy`` tags that ``pasang
        annotate`` writes), None where the record has none."""

        def read(name: str) -> Optional[float]:
            try:
                return float(self.headers[name])
            except (KeyError, ValueError):
                return None

        return read("SouthAccuracy"), read("NorthAccuracy")

    def __str__(self) -> str:
        """The record's text, as the engine writes it."""
        moves = [(str(entry.move), entry.comment, entry.mark) for entry in self.moves]
        return format_record(list(self.headers.items()), moves, self.result or "*")

    def __repr__(self) -> str:
        return "<Game {} moves, result {}, headers {!r}>".format(len(self.moves), self.result, self.headers)


def _game_of(record: Tuple[List[Tuple[str, str]], List[Tuple[str, Optional[str], Optional[str]]], str]) -> Game:
    tags, moves, result = record
    entries = []
    for number, (text, comment, mark) in enumerate(moves, 1):
        try:
            move = Move.from_str(text)
        except ValueError as error:
            raise RecordError("ply {}: {}".format(number, error)) from None
        entries.append(GameMove(move, comment, mark))
    return Game(dict(tags), entries, result)


def read_game(handle: TextIO) -> Optional[Game]:
    """Reads the next game of an open record file; None at the end.

    A record that breaks the format raises :class:`RecordError` with the
    engine's message (its line counted from the record's first line).
    """
    text = ""
    while True:
        line = handle.readline()
        if not line:
            if not text.strip():
                return None
            _records, stop = parse_records(text)
            raise RecordError(stop[1] if stop else "the last record has no result")
        if not text.strip():
            if not line.strip():
                continue
            text = ""
        text += line
        if line.lstrip().startswith("["):
            # A tag line never ends a record.
            continue
        records, stop = parse_records(text)
        if records:
            return _game_of(records[0])
        if stop is not None and not stop[2]:
            raise RecordError(stop[1])


def read_games(handle: TextIO) -> Iterator[Game]:
    """Every game of an open record file, in order."""
    while True:
        game = read_game(handle)
        if game is None:
            return
        yield game


def write_game(game: Game, handle: TextIO) -> None:
    """Writes ``game``'s record (ending with a blank line) to ``handle``."""
    handle.write(str(game))
