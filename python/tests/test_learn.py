"""The board as arrays and the fixed action numbering (NumPy needed: the
tests skip without it)."""

import itertools
import random
import subprocess

import pytest

np = pytest.importorskip("numpy")

import pasang  # noqa: E402
import pasang.learn as learn  # noqa: E402
from pasang import Board, Move  # noqa: E402


def test_board_array_planes():
    board = Board()
    array = learn.board_array(board)
    assert array.shape == (5, 11, 11) and array.dtype == np.uint8
    assert array[0].sum() == 60 and array[1].sum() == 60
    assert array[2].sum() == 0 and array[3].sum() == 0
    assert array[4].all()
    assert array[0, 0, 0] == 1 and array[1, 0, 1] == 1  # a1 white, b1 black
    assert array[0, 5, 5] == 0 and array[1, 5, 5] == 0  # the hole
    for text in ("c", "j", "b4c4n"):
        board.push_str(text)
    array = learn.board_array(board)
    assert array[2, 3, 2] == 1 and array[2].sum() == 1  # South's ka on c4
    assert not array[4].any()  # North to move


def test_actions_number_every_legal_move_once():
    for values in itertools.product(("1", "2"), ("slide", "jump", "both"), ("opposite", "any"), ("wall", "open")):
        rules = dict(zip(("pattern", "ka_entry", "second_column", "centre"), values))
        board = Board(**rules)
        rng = random.Random(str(values))
        while not board.is_game_over():
            moves = list(board.legal_moves)
            actions = board.legal_actions()
            assert len(set(actions)) == len(moves)
            assert all(0 <= action < learn.ACTIONS for action in actions)
            mask = learn.action_mask(board)
            assert mask.sum() == len(moves)
            for move, action in zip(moves, actions):
                assert learn.action_of(board, move) == action
                assert learn.move_of(board, action) == move
            board.push(rng.choice(moves))


def test_actions_out_of_place_raise():
    board = Board()
    assert learn.action_of(board, Move.from_str("c")) == 2
    with pytest.raises(pasang.IllegalMoveError):
        learn.move_of(board, learn.ACTIONS - 1)
    with pytest.raises(pasang.IllegalMoveError):
        learn.action_of(board, Move.from_str("b4c4n"))
    with pytest.raises(ValueError, match="out of range"):
        learn.move_of(board, -1)


def test_read_datagen_in_batches(engine_path, tmp_path):
    data = tmp_path / "data.txt"
    subprocess.run(
        [engine_path, "datagen", "--out", str(data), "--games", "2", "--nodes", "300"],
        check=True,
        capture_output=True,
    )
    lines = [line for line in data.read_text().splitlines() if line and not line.startswith("#")]
    batches = list(learn.read_datagen(str(data), batch_size=10))
    assert sum(len(batch.fens) for batch in batches) == len(lines)
    assert all(len(batch.fens) == 10 for batch in batches[:-1])
    first = batches[0]
    assert first.boards.shape == (10, 5, 11, 11)
    assert set(first.results.tolist()) <= {0.0, 0.5, 1.0}
    for index in range(len(first.fens)):
        board = Board(first.fens[index], **first.rules[index])
        assert (learn.board_array(board) == first.boards[index]).all()
        # The move played, a legal move, and the points.
        assert first.actions[index] in board.legal_actions()
        assert tuple(first.points[index]) == board.scores
    bad = tmp_path / "bad.txt"
    bad.write_text("# pasang datagen 1\nnot a position | 1 slide opposite wall | 0 | w 0\n")
    with pytest.raises(ValueError, match="line 2"):
        list(learn.read_datagen(str(bad)))


def test_read_datagen_gives_the_move_distributions_of_policy_files(engine_path, tmp_path):
    """``pasang datagen --policy 100`` (format version 3): ``policies``
    holds each line's distribution over the legal ids, the move played the
    heaviest; a version-1 file has none."""
    data = tmp_path / "policy.txt"
    subprocess.run(
        [engine_path, "datagen", "--out", str(data), "--games", "2", "--nodes", "300", "--policy", "100"],
        check=True,
        capture_output=True,
    )
    assert data.read_text().startswith("# pasang datagen 3 ")
    rows = 0
    for batch in learn.read_datagen(str(data), batch_size=16):
        assert batch.policies.shape == (len(batch.fens), learn.ACTIONS)
        for index in range(len(batch.fens)):
            board = Board(batch.fens[index], **batch.rules[index])
            policy = batch.policies[index]
            assert abs(policy.sum() - 1) < 0.01
            assert set(np.flatnonzero(policy)) <= set(board.legal_actions())
            assert policy[batch.actions[index]] == policy.max()
            rows += 1
    assert rows > 20
    plain = tmp_path / "plain.txt"
    subprocess.run(
        [engine_path, "datagen", "--out", str(plain), "--games", "1", "--nodes", "300"],
        check=True,
        capture_output=True,
    )
    assert all(batch.policies is None for batch in learn.read_datagen(str(plain)))


def test_the_packed_file_holds_what_the_text_holds(engine_path, tmp_path):
    text = tmp_path / "data.txt"
    packed = tmp_path / "data.bin"
    subprocess.run(
        [engine_path, "datagen", "--out", str(text), "--games", "3", "--nodes", "300", "--seed", "5"],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [engine_path, "datagen", "--merge", str(text), "--out", str(packed), "--seed", "5"],
        check=True,
        capture_output=True,
    )

    def rows(batches):
        out = []
        for batch in batches:
            for index in range(len(batch.scores)):
                out.append(
                    (
                        batch.boards[index].tobytes(),
                        int(batch.scores[index]),
                        float(batch.results[index]),
                        int(batch.margins[index]),
                        tuple(sorted(batch.rules[index].items())),
                        tuple(batch.points[index]),
                        int(batch.actions[index]),
                    )
                )
        return sorted(out)

    from_text = rows(learn.read_datagen(str(text), batch_size=7))
    from_packed = list(learn.read_packed(str(packed), batch_size=7))
    assert all(batch.fens is None for batch in from_packed)
    assert len(from_text) > 20
    assert rows(from_packed) == from_text
    assert all((batch.actions >= 0).all() for batch in from_packed)
    # The environments' 19 planes (issue 67): from the text, each the
    # planes of its position string's board; from the packed file (which
    # keeps no string), the same planes, position for position.
    assert all(batch.observations is None for batch in from_packed)
    text_planes = {}
    for batch in learn.read_datagen(str(text), batch_size=7, observations=True):
        assert batch.observations.shape == (len(batch.scores), 19, 11, 11)
        for fen, rules, planes in zip(batch.fens, batch.rules, batch.observations):
            board = pasang.Board(fen, **rules)
            assert (planes == np.frombuffer(board.observation(None), np.uint8).reshape(19, 11, 11)).all()
            text_planes[(planes.tobytes())] = text_planes.get(planes.tobytes(), 0) + 1
    packed_planes = {}
    for batch in learn.read_packed(str(packed), batch_size=7, observations=True):
        for planes in batch.observations:
            packed_planes[planes.tobytes()] = packed_planes.get(planes.tobytes(), 0) + 1
    assert packed_planes == text_planes
    # The whole file as one array, as the trainer reads it: the same
    # positions, scores and results as the batches.
    records = learn.read_packed_records(str(packed))
    assert len(records) == len(from_text)
    assert list(records["score"]) == [int(s) for b in from_packed for s in b.scores]
    assert list(records["result"] / 2) == [float(r) for b in from_packed for r in b.results]
    white = np.unpackbits(records["white"], axis=1, bitorder="little")[:, :121]
    assert (white == np.concatenate([b.boards[:, 0].reshape(-1, 121) for b in from_packed])).all()
    (tmp_path / "bad.bin").write_bytes(b"NOTDATA!" + bytes(40))
    with pytest.raises(ValueError, match="not a packed datagen file"):
        list(learn.read_packed(str(tmp_path / "bad.bin")))
    with pytest.raises(ValueError, match="not a packed datagen file"):
        learn.read_packed_records(str(tmp_path / "bad.bin"))


def test_the_shipped_sample_has_policy_targets(root):
    """python/tests/data/datagen-sample.bin: 24 games at 1000 nodes, seed
    57, made by ``python/scripts/dataset.sh /tmp/sample 24 1000 2 57``."""
    path = root / "python" / "tests" / "data" / "datagen-sample.bin"
    batches = list(learn.read_packed(str(path), batch_size=500))
    assert sum(len(batch.scores) for batch in batches) == 923
    for batch in batches:
        assert ((batch.actions >= 0) & (batch.actions < learn.ACTIONS)).all()
        assert (batch.points >= 0).all() and (batch.points <= 180).all()
