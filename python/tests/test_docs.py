"""docs/python.md's walk-through runs as written: its ``python`` blocks,
in order, in a fresh folder, with the engine under test and the
repository's record file."""

import re

import pytest


def test_the_walk_through_runs(engine_path, root, tmp_path, monkeypatch, capsys):
    pytest.importorskip("numpy")  # the section on learning uses it
    text = (root / "docs" / "python.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 6
    code = "\n".join(blocks)
    code = code.replace('"target/release/pasang"', repr(engine_path))
    code = code.replace('"docs/review/match20.pgn"', repr(str(root / "docs" / "review" / "match20.pgn")))
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "docs/python.md", "exec"), {"__name__": "walk_through"})
    printed = capsys.readouterr().out
    assert "south 1" in printed and "IllegalMoveError" in printed
    assert (tmp_path / "reviewed.pgn").exists()
    import pasang.learn

    assert "shape (5, 11, 11)" in text and "({},)".format(pasang.learn.ACTIONS) in text
