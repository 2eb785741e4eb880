"""The rules through python-chess's names, and bad input."""

import copy
import random
import re

import pytest

import pasang
from pasang import Board, Move

FINISHED = (
    ".........../.........../.........../.........../.........../.....+...../"
    ".........../.........../.........../.........../.........S. n 10 4 bc"
)


def test_start_and_first_moves():
    board = Board()
    assert board.turn == pasang.SOUTH
    assert board.phase == 1
    assert board.scores == (0, 0)
    assert [str(move) for move in board.legal_moves] == list("abcdefghijk")
    assert board.push_str("c") == Move.from_str("c")
    assert board.turn == pasang.NORTH
    board.push(Move.from_str("j"))
    assert board.phase == 2
    assert board.push_str("B4C4N") == Move.from_str("b4c4n")
    assert board.scores == (11, 9)
    assert board.move_stack == [Move.from_str(text) for text in ("c", "j", "b4c4n")]
    assert board.peek() == Move.from_str("b4c4n")
    assert board.ply() == 3


def test_fen_round_trips_and_matches_the_start():
    board = Board()
    assert Board(board.fen()) == board
    assert board.fen().endswith(" s 0 0 --")
    assert Board(pattern=2).fen() != board.fen()
    assert Board(pattern="2") == Board(pattern=2)


def test_pop_restores_the_position():
    board = Board()
    start = board.fen()
    for text in ("c", "j", "b4c4n", "k7j7w"):
        board.push_str(text)
    for _ in range(4):
        board.pop()
    assert board.fen() == start
    assert board.move_stack == []
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()


def test_legal_moves_is_list_like():
    board = Board()
    board.push_str("c")
    moves = board.legal_moves
    assert len(moves) == moves.count() == len(list(moves))
    assert Move.from_str("j") in moves
    assert Move.from_str("c") not in moves
    assert "j" not in moves  # moves, not text
    assert moves[0] == list(moves)[0] and moves[-1] == list(moves)[-1]
    with pytest.raises(IndexError):
        moves[len(moves)]
    assert repr(moves).startswith("<LegalMoves (")


def test_moves_compare_by_canonical_text():
    assert Move.from_str("C4C7WE") == Move.from_str("c4c7ew")
    assert str(Move.from_str("c4c7we")) == "c4c7ew"
    assert hash(Move.from_str("b4c4n")) == hash(Move.from_str("B4C4N"))
    assert repr(Move.from_str("c")) == "Move.from_str('c')"
    assert Move.from_str("c").is_passage and not Move.from_str("b4c4n").is_passage
    assert Move.from_uci("c").uci() == "c"


def test_a_move_without_directions_is_resolved_where_unique():
    board = Board()
    board.push_str("c")
    board.push_str("j")
    assert board.push_str("b4c4") == Move.from_str("b4c4n")
    board.pop()
    with pytest.raises(pasang.IllegalMoveError, match="ambiguous"):
        board.push_str("b1c1")


@pytest.mark.parametrize(
    "before, text, error, message",
    [
        ("c j", "zz", pasang.InvalidMoveError, "malformed move 'zz': origin is not a point a1-k11"),
        ("c j", "", pasang.InvalidMoveError, "malformed move '': empty"),
        ("c j", "l", pasang.InvalidMoveError, "a passage is one file letter a-k"),
        ("c j", "b4c4s", pasang.IllegalMoveError, "no capturable line in those directions from c4"),
        ("", "b4c4n", pasang.IllegalMoveError, "illegal move 'b4c4n': no legal move goes from b4 to c4"),
        ("c", "f", pasang.IllegalMoveError, "illegal move 'f': that passage is not allowed here"),
        ("c j", "d", pasang.IllegalMoveError, "passages are taken only on a player's first move"),
    ],
)
def test_bad_moves_raise_and_leave_the_board(before, text, error, message):
    board = Board()
    for played in before.split():
        board.push_str(played)
    state = (board.fen(), board.move_stack)
    with pytest.raises(error) as raised:
        board.push_str(text)
    assert message in str(raised.value)
    assert isinstance(raised.value, ValueError)
    assert (board.fen(), board.move_stack) == state


def test_an_illegal_move_object_raises():
    board = Board()
    with pytest.raises(pasang.IllegalMoveError):
        board.push(Move.from_str("b4c4n"))
    assert board.move_stack == []
    with pytest.raises(TypeError):
        board.push("c")
    assert not board.is_legal(Move.from_str("b4c4n"))
    assert board.is_legal(Move.from_str("c"))


@pytest.mark.parametrize(
    "fen, message",
    [
        ("", "position string has 0 fields"),
        ("x s 0 0 --", "board has 1 rank;"),
        (Board().fen().replace(" s ", " x "), "side to move 'x' is not 's' or 'n'"),
        (Board().fen().replace(" 0 0 ", " 0 999 "), "score '999'"),
        (Board().fen().replace("+", "w"), "hole: f6 must be '+'"),
    ],
)
def test_bad_position_strings_raise(fen, message):
    with pytest.raises(pasang.InvalidPositionError, match=re.escape(message)):
        Board(fen)
    board = Board()
    board.push_str("c")
    with pytest.raises(pasang.InvalidPositionError):
        board.set_fen(fen)
    assert board.move_stack == [Move.from_str("c")]


def test_bad_rule_options_raise_with_the_engine_message():
    with pytest.raises(pasang.InvalidRulesError, match="option 'Ka Entry' value 'hop' is not slide, jump or both"):
        Board(ka_entry="hop")
    with pytest.raises(pasang.InvalidRulesError, match="Pattern"):
        Board(pattern=3)
    with pytest.raises(TypeError):
        Board(colour="white")
    rules = Board(ka_entry="JUMP", centre="open").rules
    assert rules == {"pattern": "1", "ka_entry": "jump", "second_column": "opposite", "centre": "open"}


def test_garbage_never_crashes():
    rng = random.Random(7)
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789/+.SNwb -\x00\u00e9"
    board = Board()
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 30)))
        with pytest.raises(ValueError):
            Board(text)
        try:
            board.push_str(text)
        except ValueError:
            pass
        else:
            board.pop()
        try:
            Move.from_str(text)
        except ValueError:
            pass
    assert board.fen() == Board().fen()


def test_finished_game_and_outcome():
    board = Board(FINISHED)
    assert board.is_game_over()
    outcome = board.outcome()
    assert (outcome.winner, outcome.termination, outcome.scores) == ("south", "score", (10, 4))
    assert outcome.result() == board.result() == "1-0"
    assert len(board.legal_moves) == 0
    with pytest.raises(pasang.IllegalMoveError, match="the game is over"):
        board.push_str("k1k2w")
    assert Board().outcome() is None and Board().result() == "*"


def test_copy_equality_and_hash():
    board = Board()
    board.push_str("c")
    same = board.copy()
    assert same == board and hash(same) == hash(board)
    assert same.move_stack == board.move_stack
    assert board.copy(stack=False).move_stack == []
    same.push_str("j")
    assert same != board and board.move_stack == [Move.from_str("c")]
    assert copy.copy(board) == board and copy.deepcopy(board) == board
    assert Board() != Board(centre="open")
    assert len({Board(), Board(), Board(pattern=2)}) == 2


def test_svg_and_text():
    board = Board()
    board.push_str("c")
    svg = board._repr_svg_()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "<title>Pasang position</title>" in svg
    assert str(board).splitlines()[0].startswith("11 ")
    assert repr(Board()) == "Board('{}')".format(Board().fen())
    assert "centre='open'" in repr(Board(centre="open"))



def test_a_python_walk_counts_what_perft_counts(walk):
    board = Board()
    for text in ("e", "g", "f5e5ew"):
        board.push_str(text)
    fen = board.fen()
    assert walk(board, 3) == board.perft(3)
    assert board.fen() == fen


def test_push_uci_is_push_str():
    board = Board()
    assert board.push_uci("c") == Move.from_str("c")
    assert board.move_stack == [Move.from_str("c")]
    with pytest.raises(ValueError):
        board.push_uci("zz9")
    assert board.ply() == 1


def test_rule_options_come_from_the_engine_table():
    from pasang import _pasang
    from pasang.engine import RULE_OPTIONS

    options = _pasang.rule_options()
    assert [field for field, *_ in options] == list(Board().rules)
    assert RULE_OPTIONS == {field: name for field, name, _values, _default in options}
    for field, _name, values, default in options:
        assert default in values
        assert Board(**{field: values[-1]}).rules[field] == values[-1]
    with pytest.raises(TypeError, match="colour"):
        Board(colour="blue")
    assert repr(Board(pattern=2, centre="open")).endswith(
        "pattern=2, ka_entry='slide', second_column='opposite', centre='open')"
    )
