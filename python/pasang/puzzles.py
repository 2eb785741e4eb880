"""Puzzles as ``pasang puzzles`` writes them and the board's Puzzle mode
reads them: ``puzzles.jsonl``, a JSON object a line (docs/learn.md)::

    >>> import io, pasang.puzzles
    >>> line = ('{"id": "p1", "options": {"Pattern": "1", "Ka Entry": "slide", '
    ...         '"Second Column": "opposite", "Centre": "wall"}, '
    ...         '"position": "wwwwwbbbbbw/bwwwwbbbbww/bbwwwbbbwww/bbbwwbbwwww/bbbbwbwwwww/'
    ...         'bbbbb+bbbbb/wwwwwbwbbbb/wwwwbbwwbbb/wwwbbbwwwbb/wwbbbbwwwwb/wbbbbbwwwww s 0 0 --", '
    ...         '"moves": "c", "themes": ["opening"], "rating": 1500}')
    >>> puzzle = pasang.puzzles.read_puzzles(io.StringIO(line))[0]
    >>> puzzle.id, str(puzzle.moves[0]), puzzle.board().turn
    ('p1', 'c', 'south')

Each puzzle is held to the rules as it is read: its options are rule
options, its mistake (``before`` and ``mistake``, where given) leads to its
``position``, and its solution (``moves``: the solver's move, the reply,
..., the solver's move) is legal move by move, an odd count. An optional
``alternatives`` lists other first moves proven to win, which solve the
puzzle too: each must be another legal move in ``position``. A line that
is not is refused with :class:`PuzzleError`, naming the line.
"""

import json
from typing import IO, Dict, List, NamedTuple, Optional, Tuple, Union

from ._pasang import Board, Move, puzzles_error, rule_keywords

__all__ = ["Puzzle", "PuzzleError", "read_puzzles"]


class PuzzleError(ValueError):
    """A line of a puzzle file that is not a puzzle, or breaks the rules."""


class Puzzle(NamedTuple):
    """One puzzle: ``id``, ``options`` (protocol names to values),
    ``position`` (the solver to move), ``moves`` (the solution, as
    :class:`pasang.Move`), ``themes``, ``rating``, where known
    ``before`` (the position before the opponent's mistake) and
    ``mistake`` (that move), and ``alternatives``: other first moves
    proven to win, which solve it too (often none)."""

    id: str
    options: Dict[str, str]
    position: str
    moves: List[Move]
    themes: List[str]
    rating: int
    before: Optional[str]
    mistake: Optional[Move]
    alternatives: Tuple[Move, ...] = ()

    def rules(self) -> Dict[str, str]:
        """The options as :class:`pasang.Board`'s keywords."""
        return _keywords(self.options)

    def board(self) -> Board:
        """A board at ``position`` under the puzzle's rules."""
        return Board(self.position, **self.rules())

    def before_board(self) -> Optional[Board]:
        """A board at ``before`` (None when the file gives none)."""
        return None if self.before is None else Board(self.before, **self.rules())


def _keywords(options: Dict[str, str]) -> Dict[str, str]:
    # The engine's one table of rule options reads them.
    try:
        return rule_keywords(dict(options))
    except ValueError as error:
        raise PuzzleError(str(error)) from error


def _puzzle(line: str) -> Puzzle:
    # The engine's reader holds the line to the format and the rules; what
    # it passes is read into Python's types here.
    wrong = puzzles_error(line)
    if wrong is not None:
        raise PuzzleError(wrong)
    fields = json.loads(line)
    rules = _keywords(fields["options"])
    board = Board(fields["position"], **rules)
    mistake = None
    if fields.get("before") is not None:
        mistake = Board(fields["before"], **rules).push_str(fields["mistake"])
    alternatives = tuple(Board(fields["position"], **rules).push_str(text) for text in fields.get("alternatives", []))
    moves = [board.push_str(text) for text in fields["moves"].split()]
    return Puzzle(
        id=str(fields["id"]),
        options=dict(fields["options"]),
        position=fields["position"],
        moves=moves,
        themes=list(fields["themes"]),
        rating=int(fields["rating"]),
        before=fields.get("before"),
        mistake=mistake,
        alternatives=alternatives,
    )


def read_puzzles(source: Union[str, "IO[str]"]) -> List[Puzzle]:
    """The puzzles of a file (a path, or a text file object), each held to
    the rules; :class:`PuzzleError` names the first line that is not a
    puzzle."""
    if isinstance(source, str):
        with open(source, encoding="utf-8") as file:
            return read_puzzles(file)
    puzzles = []
    lines = list(source)
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            puzzles.append(_puzzle(line))
        except PuzzleError as error:
            raise PuzzleError("line {}: {}".format(number, error)) from error
    # What only the whole file shows: an id used twice.
    wrong = puzzles_error("".join(line if line.endswith("\n") else line + "\n" for line in lines))
    if wrong is not None:
        raise PuzzleError(wrong)
    return puzzles
