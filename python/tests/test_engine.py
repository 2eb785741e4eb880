"""The engine driver against the real binary, a dead engine and a silent
one, and the in-process search."""

import sys
import threading
import time

import pytest

import pasang
from pasang import Board, Move
from pasang.engine import (
    Cp,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    Limit,
    Mate,
    PovScore,
    SimpleEngine,
)

FINISHED = (
    ".........../.........../.........../.........../.........../.....+...../"
    ".........../.........../.........../.........../.........S. n 10 4 bc"
)


@pytest.fixture
def engine(engine_path):
    with SimpleEngine.popen(engine_path) as engine:
        yield engine
    assert engine.process.poll() is not None


def test_handshake_reads_id_and_options(engine):
    assert engine.id["name"].startswith("pasang")
    assert engine.options["Ka Entry"].var == ["slide", "jump", "both"]
    assert engine.options["Hash"].min == 1
    assert engine.options["Debug Log File"].default == ""


def test_play_returns_a_legal_move(engine):
    board = Board()
    result = engine.play(board, Limit(time=0.05))
    assert result.move in board.legal_moves
    board.push(result.move)
    assert engine.play(board, Limit(depth=3)).move in board.legal_moves


def test_the_moves_of_a_game_and_its_rules(engine):
    board = Board(ka_entry="jump", centre="open", pattern=2)
    while not board.is_game_over() and board.ply() < 12:
        result = engine.play(board, Limit(nodes=500))
        assert result.move in board.legal_moves
        board.push(result.move)
    assert len(board.move_stack) == board.ply()


def test_analyse_gives_score_depth_nodes_and_pv(engine):
    engine.configure({"UCI_ShowWDL": True})
    board = Board()
    info = engine.analyse(board, Limit(depth=5))
    assert info["depth"] == 5
    assert info["nodes"] > 0
    assert isinstance(info["score"], PovScore) and info["score"].turn == "south"
    assert info["score"].south() == -info["score"].north()
    assert sum(info["wdl"].south()) == 1000
    assert info["pv"][0] in board.legal_moves
    replay = board.copy()
    for move in info["pv"]:
        replay.push(move)


def test_multipv_gives_that_many_lines(engine):
    board = Board()
    lines = engine.analyse(board, Limit(depth=4), multipv=3)
    assert [line["multipv"] for line in lines] == [1, 2, 3]
    assert len({line["pv"][0] for line in lines}) == 3
    # Back to one line.
    assert isinstance(engine.analyse(board, Limit(depth=2)), dict)


def test_a_finished_game_has_no_move(engine):
    result = engine.play(Board(FINISHED), Limit(depth=3))
    assert result.move is None
    assert result.info["score"].relative == Mate(0)


def test_the_engine_search_in_process_matches_the_binary(engine):
    """``go nodes`` with one thread after ``ucinewgame`` is deterministic:
    the binary and pasang.search give the same move, line and count."""
    board = Board()
    board.push_str("c")
    board.push_str("j")
    info = engine.analyse(board, Limit(nodes=3000))
    found = pasang.search(board, Limit(nodes=3000))
    assert found.move == info["pv"][0]
    assert found.info["pv"] == info["pv"]
    assert found.info["nodes"] == info["nodes"]
    assert found.info["score"] == info["score"]


def test_configure_refuses_what_the_engine_refuses(engine):
    with pytest.raises(EngineError, match="out of range"):
        engine.configure({"Hash": 0})
    with pytest.raises(EngineError, match="does not support option"):
        engine.configure({"No Such Option": 1})
    engine.configure({"Hash": 8, "Threads": 1, "Clear Hash": None})
    assert engine.play(Board(), Limit(depth=2)).move is not None


def test_ugi(engine_path):
    with SimpleEngine.popen_ugi(engine_path) as engine:
        board = Board()
        result = engine.play(board, Limit(south_clock=2, north_clock=2, depth=4))
        assert result.move in board.legal_moves
        assert result.ponder is None


def test_a_dead_engine_raises_and_is_reaped(engine_path):
    engine = SimpleEngine.popen(engine_path)
    engine.process.kill()
    with pytest.raises(EngineTerminatedError, match="died"):
        engine.play(Board(), Limit(depth=3))
    assert engine.process.returncode is not None
    with pytest.raises(EngineTerminatedError):
        engine.play(Board(), Limit(depth=3))
    engine.quit()


def test_an_engine_that_exits_at_once(engine_path):
    with pytest.raises(EngineTerminatedError):
        SimpleEngine.popen([sys.executable, "-c", "pass"])
    with pytest.raises(FileNotFoundError):
        SimpleEngine.popen("/nonexistent/engine")


def test_an_engine_that_never_answers_times_out(engine_path):
    silent = [sys.executable, "-c", "import time; time.sleep(60)"]
    started = time.monotonic()
    with pytest.raises(EngineTimeoutError):
        SimpleEngine.popen(silent, timeout=0.5)
    assert time.monotonic() - started < 10


def test_a_search_that_dies_midway(engine_path):
    engine = SimpleEngine.popen(engine_path)
    killer = threading.Timer(0.3, engine.process.kill)
    killer.start()
    try:
        with pytest.raises(EngineTerminatedError):
            engine.analyse(Board(), Limit(time=30))
    finally:
        killer.cancel()
        engine.close()
    assert engine.process.returncode is not None


def test_search_needs_a_limit():
    with pytest.raises(ValueError):
        pasang.search(Board(), Limit())


def test_search_releases_the_gil():
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.001)

    thread = threading.Thread(target=count)
    thread.start()
    try:
        found = pasang.search(Board(), Limit(time=0.3))
    finally:
        done.set()
        thread.join()
    assert found.move in Board().legal_moves
    assert len(ticks) > 20


def test_score_objects():
    assert Cp(120).score() == 120 and Cp(120).mate() is None
    assert Mate(3).score(mate_score=10000) == 9997 and Mate(-2).is_mate()
    assert -Mate(0) == Mate(0)
    assert PovScore(Cp(50), "north").south() == Cp(-50)


def test_popen_of_a_missing_path_raises_file_not_found(tmp_path):
    """As python-chess: the operating system's own error, not a wrapper."""
    with pytest.raises(FileNotFoundError):
        SimpleEngine.popen_uci(str(tmp_path / "no-such-engine"))


def test_search_keeps_its_engine_and_stays_deterministic():
    """One engine serves every call (its table is not made again), and an
    emptied table makes a nodes-limited search repeat itself."""
    first = pasang.search(Board(), Limit(nodes=5000))
    searcher = pasang._searcher
    second = pasang.search(Board(), Limit(nodes=5000))
    assert pasang._searcher is searcher
    assert (first.move, first.info["nodes"]) == (second.move, second.info["nodes"])
    pasang.search(Board(), Limit(nodes=1000), hash=8)
    assert pasang._searcher is not searcher and pasang._searcher.hash == 8


def test_a_skill_level_is_the_engines_and_repeats_with_its_seed():
    searcher = pasang.Searcher()
    board = Board()
    moves = {searcher.search(board, nodes=20000, skill=0, seed=seed)[0] for seed in range(12)}
    assert len(moves) > 1
    again = [searcher.search(board, nodes=20000, skill=0, seed=5)[0] for _ in range(3)]
    assert len(set(again)) == 1
    # Level 0 searches to depth 1 (1 + 0/2): its lines are shallow.
    lines = searcher.search(board, nodes=20000, skill=0, seed=1)[2]
    assert all(line[1] <= 1 for line in lines)
    with pytest.raises(ValueError):
        searcher.search(board, nodes=1000, skill=21)


def test_stop_ends_a_search_from_another_thread():
    found = []
    thread = threading.Thread(target=lambda: found.append(pasang.search(Board(), Limit(time=60))))
    started = time.monotonic()
    thread.start()
    # Stop until the search has ended: a stop before it starts reaches
    # no later search, so it is sent again until one lands.
    while thread.is_alive():
        pasang.stop()
        thread.join(0.05)
        assert time.monotonic() - started < 30, "stop did not end the search"
    assert found and found[0].move in Board().legal_moves
    assert time.monotonic() - started < 30


def test_a_searcher_of_ones_own():
    searcher = pasang.Searcher(hash=4, threads=1)
    move, _ponder, lines, nodes = searcher.search(Board(), nodes=2000)
    assert move in Board().legal_moves and nodes > 0 and lines
    with pytest.raises(ValueError):
        pasang.Searcher(threads=0)
