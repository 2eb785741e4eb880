"""The shipped sample of the data set ``pasang-selfplay-v1``
(python/data/pasang-selfplay-v1/): its Parquet columns as the card names
them, every row a position of ``pasang.Board`` whose move, policy, value
and result agree with the board and the game; and its card's checksums.
With pyarrow (in CI); through Hugging Face's ``datasets`` where that is
installed (not in CI: the test skips, saying so)."""

import hashlib
import os

import pytest

np = pytest.importorskip("numpy")

import pasang  # noqa: E402
import pasang.rl as rl  # noqa: E402

COLUMNS = ["position", "pattern", "ka_entry", "second_column", "centre", "ply", "move", "result", "value", "policy"]


def folder(root):
    return root / "python" / "data" / "pasang-selfplay-v1"


def shards(root):
    return sorted((folder(root) / "data").glob("*.parquet"))


def check_rows(rows):
    """Every row against a board of its position and rules; the rows of a
    game (consecutive plies) share its result, flipped with the side."""
    previous = None
    rule_sets = set()
    for row in rows:
        rules = {key: row[key] for key in ("pattern", "ka_entry", "second_column", "centre")}
        rule_sets.add(tuple(rules.values()))
        board = pasang.Board(row["position"], **rules)
        assert not board.is_game_over()
        legal = set(board.legal_actions())
        assert row["move"] in legal
        policy = {entry["action"]: entry["probability"] for entry in row["policy"]}
        assert set(policy) <= legal and abs(sum(policy.values()) - 1) < 0.01
        assert policy.get(row["move"]) == max(policy.values())
        assert -1 <= row["value"] <= 1 and row["result"] in (-1, 0, 1)
        if previous is not None and row["ply"] == previous["ply"] + 1:
            before = pasang.Board(previous["position"], **rules)
            before.push_action(previous["move"])
            assert before.fen() == row["position"]
            same_side = before.turn == pasang.Board(previous["position"], **rules).turn
            assert row["result"] == (previous["result"] if same_side else -previous["result"])
        previous = row
    return rule_sets


def test_the_sample_loads_with_pyarrow_and_agrees_with_the_board(root):
    pq = pytest.importorskip("pyarrow.parquet")
    paths = shards(root)
    assert paths, "python/data/pasang-selfplay-v1/data/ holds the sample"
    table = pq.read_table([str(path) for path in paths]) if len(paths) > 1 else pq.read_table(str(paths[0]))
    assert table.column_names == COLUMNS
    assert 1000 <= table.num_rows <= 10_000
    assert sum(os.path.getsize(path) for path in paths) <= 5 * 1024 * 1024
    rule_sets = check_rows(table.to_pylist())
    assert len(rule_sets) == 24


def test_the_cards_checksums_and_row_count_are_the_files(root):
    card = (folder(root) / "README.md").read_text()
    for path in shards(root):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        assert "{}  data/{}".format(digest, path.name) in card


def test_the_sample_loads_through_datasets(root, monkeypatch):
    datasets = pytest.importorskip("datasets", reason="Hugging Face's datasets is not installed (not in CI): pip install datasets")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    data = datasets.load_dataset("parquet", data_files=[str(path) for path in shards(root)], split="train")
    assert data.column_names == COLUMNS
    check_rows(data.select(range(min(500, len(data)))))
