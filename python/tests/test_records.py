"""Game records: read game by game, written back byte for byte, bad
records refused."""

import io

import pytest

import pasang
from pasang import Board, Move
from pasang.records import Game, GameMove, read_game, read_games, write_game

REVIEWED = """[Event "pasang match"]
[South "Ani"]
[North "Bo \\"the bold\\""]
[SouthAccuracy "97.5"]
[NorthAccuracy "64.2"]
[Result "1-0"]

1. c {book} j {book} 2. b4c4n?! {+1.20/8 Inaccuracy. Best +3.36: b5c5n} k7j7w??
$1 1-0

"""


def test_a_match_file_reads_game_by_game_and_writes_back(root):
    path = root / "docs" / "review" / "match20.pgn"
    with open(path) as handle:
        games = list(read_games(handle))
    assert len(games) == 20
    first = games[0]
    assert first.headers["Event"] == "pasang match"
    assert first.result == first.headers["Result"] == "1-0"
    assert first.moves[0] == GameMove(Move.from_str("h"), "book", None)
    end = first.end()
    assert end.result() == "1-0"
    assert len(end.move_stack) == int(first.headers["PlyCount"])
    for game in games:
        game.end()
    out = io.StringIO()
    for game in games:
        write_game(game, out)
    assert out.getvalue() == path.read_text()


def test_read_game_returns_none_at_the_end():
    handle = io.StringIO(REVIEWED + "\n\n" + REVIEWED)
    assert read_game(handle) is not None
    assert read_game(handle) is not None
    assert read_game(handle) is None
    assert read_game(io.StringIO("")) is None
    assert read_game(io.StringIO("\n\n")) is None


def test_marks_comments_and_accuracy():
    game = read_game(io.StringIO(REVIEWED))
    assert game.headers["North"] == 'Bo "the bold"'
    assert game.accuracy == (97.5, 64.2)
    assert [entry.mark for entry in game.moves] == [None, None, "?!", "!"]
    assert game.moves[2].comment == "+1.20/8 Inaccuracy. Best +3.36: b5c5n"
    assert game.mainline_moves()[3] == Move.from_str("k7j7w")
    again = read_game(io.StringIO(str(game)))
    assert again.moves == game.moves and again.headers == game.headers
    assert str(again) == str(game)
    assert Game().accuracy == (None, None)


def test_a_game_from_a_board_replays_to_it():
    board = Board(ka_entry="both", centre="open")
    for text in ("c", "j", "b4c4n", "k7j7w"):
        board.push_str(text)
    game = Game.from_board(board, {"Event": "test"})
    assert game.headers["KaEntry"] == "both" and game.headers["Centre"] == "open"
    assert game.headers["FEN"] == Board().fen()
    assert game.result == "*"
    game.moves[-1].comment = "a comment"
    game.moves[-1].mark = "??"
    text = str(game)
    assert "k7j7w?? {a comment} *" in text
    again = read_game(io.StringIO(text))
    assert again.end() == board
    assert again.board() == Board(ka_entry="both", centre="open")


@pytest.mark.parametrize(
    "text, message",
    [
        ('[Event "x"]\n\n1. c j 2. 3x *\n', "'3x' is neither a move nor a move number"),
        ('[Event x]\n\n1. c *\n', "a tag value must be in double quotes"),
        ('[Event "x"]\n\n$4 1. c *\n', "the mark '$4' follows no move"),
        ('[Event "x"]\n\n1. c j\n', "the last record has no result"),
        ('[Event "x"]\n\n1. c {never closed\n', "comment never closed"),
        ('[Event "x"]\n\n1. c zz *\n', "ply 2: malformed move 'zz'"),
    ],
)
def test_bad_records_raise(text, message):
    with pytest.raises(pasang.RecordError, match=message.replace("$", "\\$")) as raised:
        read_game(io.StringIO(text))
    assert isinstance(raised.value, ValueError)


def test_illegal_moves_and_bad_tags_raise_when_replayed():
    game = read_game(io.StringIO('[Event "x"]\n\n1. c c *\n'))
    with pytest.raises(pasang.IllegalMoveError):
        game.end()
    game = read_game(io.StringIO('[KaEntry "hop"]\n\n1. c *\n'))
    with pytest.raises(pasang.InvalidRulesError, match="Ka Entry"):
        game.board()
    game = read_game(io.StringIO('[FEN "nonsense"]\n\n1. c *\n'))
    with pytest.raises(pasang.InvalidPositionError, match="FEN: "):
        game.board()
    with pytest.raises(pasang.RecordError, match="not a mark"):
        str(Game(moves=[GameMove(Move.from_str("c"), mark="!!!")]))
