"""The puzzle file: the shipped puzzles read and replayed, the doctest of
the module, and lines that are not puzzles refused."""

import doctest
import io
import json

import pytest

import pasang
import pasang.puzzles as puzzles


@pytest.fixture(scope="module")
def shipped(root):
    return puzzles.read_puzzles(str(root / "src" / "puzzles" / "puzzles.jsonl"))


def test_the_shipped_puzzles_replay(shipped):
    assert len(shipped) >= 150
    for puzzle in shipped:
        assert len(puzzle.moves) % 2 == 1
        board = puzzle.board()
        before = puzzle.before_board()
        assert before is not None and before.turn != board.turn
        before.push(puzzle.mistake)
        assert before.fen() == puzzle.position
        for move in puzzle.moves:
            assert board.is_legal(move)
            board.push(move)
        assert str(puzzle.moves[0]) in {str(move) for move in puzzle.board().legal_moves}


def test_the_module_example_runs():
    failures, tried = doctest.testmod(puzzles)
    assert tried > 0 and failures == 0


def test_lines_that_are_not_puzzles_are_refused(shipped):
    line = json.loads(json.dumps(shipped[0]._asdict(), default=str))
    line["moves"] = " ".join(line["moves"])
    good = json.dumps(line)
    assert puzzles.read_puzzles(io.StringIO(good + "\n"))[0].id == shipped[0].id
    # From before the mistake: the mistake and the solver's move, two moves.
    even = {key: line[key] for key in ("id", "options", "themes", "rating")}
    even.update(position=line["before"], moves="{} {}".format(line["mistake"], line["moves"].split()[0]))
    wrong_rules = dict(line, options=dict(line["options"], Colour="red"))
    not_legal = dict(line, moves="f")
    for bad, words in ((even, "line 2: .*2 moves"), (wrong_rules, "Colour"), (not_legal, "line 2")):
        with pytest.raises(puzzles.PuzzleError, match=words):
            puzzles.read_puzzles(io.StringIO(good + "\n" + json.dumps(bad) + "\n"))
    with pytest.raises(ValueError):
        puzzles.read_puzzles(io.StringIO("{not json\n"))
    with pytest.raises(puzzles.PuzzleError, match="used twice"):
        puzzles.read_puzzles(io.StringIO(good + "\n" + good + "\n"))
    assert isinstance(puzzles.PuzzleError("x"), ValueError) and pasang.Board is not None


def test_alternatives_are_other_legal_first_moves(shipped):
    listed = [puzzle for puzzle in shipped if puzzle.alternatives]
    assert listed, "no shipped puzzle lists alternatives"
    for puzzle in listed:
        legal = {str(move) for move in puzzle.board().legal_moves}
        others = {str(move) for move in puzzle.alternatives}
        assert others <= legal and str(puzzle.moves[0]) not in others
    assert all(puzzle.alternatives == () for puzzle in shipped if puzzle not in listed)
    line = json.loads(json.dumps(listed[0]._asdict(), default=str))
    line["moves"] = " ".join(line["moves"])
    assert puzzles.read_puzzles(io.StringIO(json.dumps(line)))[0] == listed[0]
    first = line["moves"].split()[0]
    for bad, words in ((first, "solution's first move"), ("f", "alternative 'f'"), (line["alternatives"] * 2, "twice")):
        wrong = dict(line, alternatives=bad if isinstance(bad, list) else [bad])
        with pytest.raises(puzzles.PuzzleError, match=words):
            puzzles.read_puzzles(io.StringIO(json.dumps(wrong)))
