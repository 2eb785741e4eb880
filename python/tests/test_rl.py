"""pasang.rl: the action space against its documented rule (written here
again in Python), the planes and symmetries, pickling, the batched games,
the teacher, and each framework's own tests of its environment (PettingZoo
``api_test``/``seed_test``, Gymnasium ``check_env``, OpenSpiel
``random_sim_test`` with serialisation) under the default rules and
others. A framework that is not installed skips its tests with a message,
except under ``CI=true``, where that fails."""

import importlib
import itertools
import os
import pickle
import random
import subprocess

import pytest

np = pytest.importorskip("numpy")

import pasang  # noqa: E402
import pasang.rl as rl  # noqa: E402
from pasang import Board  # noqa: E402

OTHER_RULES = {"pattern": "2", "ka_entry": "both", "second_column": "any", "centre": "open"}


def framework(name):
    """The module ``name`` of a framework, or a skip saying how to get it
    (a failure under CI=true)."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        message = '{} is not installed ({}): pip install "./python[rl]"'.format(name, error)
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


# -- The action space -------------------------------------------------------

N, S, E, W = 1, 2, 4, 8
SETS = [N, S, N | S, E, W, E | W]
HOLE = 60


def beyond(rank, file, flag):
    return {N: rank < 10, S: rank > 0, E: file < 10, W: file > 0}[flag]


def documented(origin, to, directions):
    """docs/rl.md's rule for a ka triple that can be legal."""
    if origin == to or HOLE in (origin, to):
        return False
    (fr, ff), (r, f) = divmod(origin, 11), divmod(to, 11)
    flags = [flag for flag in (N, S, E, W) if directions & flag]
    along_file = directions & (N | S)
    if ff == f:
        return not along_file and all(beyond(r, f, flag) for flag in flags)
    if fr != r:
        return False
    if along_file:
        return all(beyond(r, f, flag) for flag in flags)
    distance = abs(ff - f)
    if r == 5 or distance > 2:
        return False
    towards = E if ff > f else W
    return all(
        beyond(fr, ff, flag) if flag == towards and distance == 1 else beyond(r, f, flag) for flag in flags
    )


def test_the_ids_follow_the_documented_rule():
    table = [(-1, file, 0) for file in range(11)]
    for origin, to, directions in itertools.product(range(121), range(121), SETS):
        if documented(origin, to, directions):
            table.append((origin, to, directions))
    assert rl.action_triples() == table
    assert rl.ACTIONS == len(table) == 7291
    assert rl.describe_action(0) == "a" and rl.describe_action(11) == "a1b1n"


def test_every_legal_move_has_its_own_id_under_every_rule_set():
    for rules in rl.rule_sets():
        board = Board(**rules)
        rng = random.Random(str(rules))
        while not board.is_game_over():
            moves = list(board.legal_moves)
            ids = [rl.encode(move) for move in moves]
            assert len(set(ids)) == len(moves)
            assert ids == board.legal_actions()
            assert (rl.action_mask(board).nonzero()[0] == sorted(ids)).all()
            for move, action in zip(moves, ids):
                assert rl.decode(action, board) == move
                assert rl.encode(str(move)) == action
                assert rl.describe_action(action) == str(move)
            rl.push_action(board, rng.choice(ids))


def test_bad_ids_and_moves_raise():
    board = Board()
    with pytest.raises(pasang.IllegalMoveError):
        rl.decode(rl.encode("b4c4n"), board)
    with pytest.raises(ValueError, match="out of range"):
        rl.decode(rl.ACTIONS, board)
    with pytest.raises(ValueError, match="legal in no position"):
        rl.encode("b4b6n")
    with pytest.raises(ValueError, match="needs its directions"):
        rl.encode("b4c4")
    with pytest.raises(pasang.IllegalMoveError):
        board.push_action(rl.encode("b4c4n"))
    assert board.ply() == 0
    assert board.push_action(2) == pasang.Move.from_str("c")


# -- Planes and symmetries --------------------------------------------------


def random_boards(count, seed=57, **rules):
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = Board(**rules)
        for _ in range(rng.randrange(0, 40)):
            if board.is_game_over():
                break
            board.push(rng.choice(list(board.legal_moves)))
        boards.append(board)
    return boards


def test_planes_are_seen_by_the_side_to_move():
    board = Board(**OTHER_RULES)
    planes = rl.observation(board)
    assert planes.shape == (rl.PLANES, 11, 11) and planes.dtype == np.uint8
    assert len(rl.PLANE_NAMES) == rl.PLANES
    assert planes[0].sum() == 60 and planes[1].sum() == 60 and planes[6].sum() == 120
    assert planes[9].all() and planes[13].all()
    assert planes[14:19].all()  # pattern 2, slide and jump, any, open
    board = Board()
    for text in ("c", "j", "b4c4n"):
        board.push_str(text)
    north = rl.observation(board)
    assert north[3, 7, 8] == 1  # South's ka on c4, turned
    # Plane 12: the stones left (120 less 10 in the passages, 1 entered
    # as a ka and 3 captured).
    assert north[12].min() == north[12].max() == 106 and not north[13].any()
    south = rl.observation(board, "south")
    assert south[2, 3, 2] == 1 and south[11].all()


def test_symmetries_map_legal_moves_planes_and_results():
    for rules in ({}, OTHER_RULES):
        for board in random_boards(40, **rules):
            for name in rl.SYMMETRIES:
                try:
                    image = rl.symmetry_board(name, board)
                except ValueError:
                    assert name in ("half_turn", "flip") and board.phase < 3
                    continue
                mapping = rl.symmetry_actions(name)
                assert sorted(mapping[board.legal_actions()]) == sorted(image.legal_actions())
                assert (mapping[mapping] == np.arange(rl.ACTIONS)).all()
                # All 19 planes of the image: none depends on the path.
                expected = rl.symmetry_planes(name, rl.observation(board))
                assert (rl.observation(image) == expected).all()
                # Played out the same way, the game keeps its result.
                rng = random.Random(name)
                mirror = board.copy()
                while not mirror.is_game_over():
                    action = rng.choice(mirror.legal_actions())
                    mirror.push_action(action)
                    image.push_action(int(mapping[action]))
                assert image.is_game_over()
                swap = {"south": "north", "north": "south", None: None}
                winner = mirror.outcome().winner
                if name in ("half_turn", "flip"):
                    winner = swap[winner]
                assert image.outcome().winner == winner


ALL_RULE_SETS = [
    dict(zip(("pattern", "ka_entry", "second_column", "centre"), values))
    for values in itertools.product(("1", "2"), ("slide", "jump", "both"), ("opposite", "any"), ("wall", "open"))
]


def test_planes_are_the_same_whatever_path_made_the_board():
    """Issue 67: a board played from the start, one rebuilt from its
    position string and a symmetry's image give the same planes (plane 12
    is the stones left, not the ply), over seeded games and every rule
    set."""
    assert len(ALL_RULE_SETS) == 24
    compared = 0
    for index, rules in enumerate(ALL_RULE_SETS):
        for board in random_boards(6, seed=100 + index, **rules):
            planes = rl.observation(board)
            assert (rl.observation(Board(board.fen(), **rules)) == planes).all()
            assert (planes[12] == planes[0].sum() + planes[1].sum()).all()
            for name in rl.SYMMETRIES:
                try:
                    image = rl.symmetry_board(name, board)
                except ValueError:
                    continue
                assert (rl.symmetry_planes(name, planes) == rl.observation(image)).all(), (name, board.fen())
                compared += 1
    assert compared > 24 * 6


def test_boards_pickle():
    board = Board(ka_entry="jump")
    for text in ("c", "j"):
        board.push_str(text)
    again = pickle.loads(pickle.dumps(board))
    assert again == board and again.move_stack == board.move_stack and again.rules == board.rules
    assert again.pop() == pasang.Move.from_str("j")


# -- The batched games ------------------------------------------------------


def test_vector_env_agrees_with_boards():
    env = rl.VectorEnv(16, seed=3, **OTHER_RULES)
    obs, infos = env.reset(seed=5)
    assert obs["observation"].shape == (16, rl.PLANES, 11, 11)
    assert obs["action_mask"].shape == (16, rl.ACTIONS) and obs["action_mask"].dtype == bool
    boards = [Board(**OTHER_RULES) for _ in range(16)]
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(200):
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in obs["action_mask"]])
        obs, rewards, terminations, truncations, infos = env.step(actions)
        assert not truncations.any()
        for index, board in enumerate(boards):
            mover = board.turn
            board.push_action(int(actions[index]))
            if board.is_game_over():
                ended += 1
                assert terminations[index]
                winner = board.outcome().winner
                assert rewards[index] == (0 if winner is None else (1 if winner == mover else -1))
                boards[index] = board = Board(**OTHER_RULES)
            else:
                assert not terminations[index] and rewards[index] == 0
            assert (obs["observation"][index, :12] == rl.observation(board)[:12]).all()
            assert (np.flatnonzero(obs["action_mask"][index]) == sorted(board.legal_actions())).all()
            assert obs["to_play"][index] == ("south", "north").index(board.turn)
    assert ended > 16


def test_vector_env_refuses_bad_actions_and_repeats_with_a_seed():
    env = rl.VectorEnv(4, seed=9, copy=False)
    obs, _ = env.reset()
    with pytest.raises(pasang.IllegalMoveError, match="game 0"):
        env.step(np.array([rl.ACTIONS - 1, 0, 0, 0]))
    with pytest.raises(ValueError):
        env.step(np.zeros(3, dtype=np.int64))
    assert not obs["observation"].flags.writeable

    def run():
        env = rl.VectorEnv(4, seed=9)
        env.reset()
        seen = []
        for _ in range(60):
            actions = env.sample()
            seen.append(actions)
            env.step(actions)
        return np.array(seen)

    assert (run() == run()).all()


def test_vector_env_is_a_gymnasium_vector_env():
    """The shape Gymnasium's vector API promises: the base class, one
    game's spaces, the autoreset mode, and RecordEpisodeStatistics counting
    every game's length and return."""
    gymnasium = framework("gymnasium")
    from gymnasium.vector import AutoresetMode
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    env = rl.VectorEnv(8, seed=2)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert env.single_action_space == gymnasium.spaces.Discrete(rl.ACTIONS)
    assert env.single_observation_space["observation"].shape == (rl.PLANES, 11, 11)
    assert env.single_observation_space["action_mask"].n == rl.ACTIONS
    wrapped = RecordEpisodeStatistics(env)
    obs, infos = wrapped.reset(seed=3)
    assert obs in env.observation_space
    rng = np.random.default_rng(0)
    lengths = np.zeros(8, dtype=int)
    episodes = []
    for _ in range(400):
        actions = rl.random_legal_actions(obs["action_mask"], rng)
        assert all(obs["action_mask"][row, action] for row, action in enumerate(actions))
        obs, rewards, terminations, truncations, infos = wrapped.step(actions)
        lengths += 1
        if terminations.any():
            assert (infos["episode"]["l"][terminations] == lengths[terminations]).all()
            episodes += list(infos["episode"]["l"][terminations])
            lengths[terminations] = 0
    assert len(episodes) >= 8
    wrapped.close()
    with pytest.raises(ValueError, match="no legal action"):
        rl.random_legal_actions(np.zeros((2, rl.ACTIONS), dtype=bool), rng)


def test_vector_env_resets_the_games_a_mask_names():
    env = rl.VectorEnv(6, seed=4)
    obs, _ = env.reset()
    for _ in range(7):
        obs = env.step(env.sample())[0]
    before = [env.board(index).fen() for index in range(6)]
    mask = np.array([True, False, False, True, False, False])
    obs, _ = env.reset(options={"reset_mask": mask})
    start = Board()
    for index in range(6):
        fen = env.board(index).fen()
        assert fen == (start.fen() if mask[index] else before[index])
        assert (np.flatnonzero(obs["action_mask"][index]) == sorted(env.board(index).legal_actions())).all()
    with pytest.raises(ValueError, match="reset_mask"):
        env.reset(options={"reset_mask": np.ones(5, dtype=bool)})


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_vector_env_copies_continue_identically(how):
    import copy

    env = rl.VectorEnv(5, seed=8, **OTHER_RULES)
    env.reset()
    for _ in range(33):
        env.step(env.sample())
    twin = pickle.loads(pickle.dumps(env)) if how == "pickle" else copy.deepcopy(env)

    def run(env):
        seen = []
        for _ in range(150):
            obs, rewards, terminations, _, _ = env.step(env.sample())
            seen.append((obs["observation"].copy(), obs["action_mask"].copy(), rewards.copy(), terminations.copy()))
        return seen

    assert repr(twin) == repr(env)
    ours, theirs = run(env), run(twin)
    for a, b in zip(ours, theirs):
        assert all((x == y).all() for x, y in zip(a, b))
    # Independent: stepping one leaves the other where it was.
    env.step(env.sample())
    assert any(env.board(i).fen() != twin.board(i).fen() for i in range(5))


@pytest.mark.parametrize("opponent", ["random", 60])
def test_gymnasium_env_copies_continue_identically_and_masks_actions(opponent):
    gymnasium = framework("gymnasium")
    import copy

    env = gymnasium.make("pasang/Pasang-v0", opponent=opponent, agent="either")
    observation, info = env.reset(seed=6)
    mask = env.unwrapped.action_masks()
    assert mask.dtype == bool and (mask == info["action_mask"].astype(bool)).all()
    rng = random.Random(1)
    for _ in range(5):
        observation, *_ = env.step(rng.choice(np.flatnonzero(env.unwrapped.action_masks()).tolist()))
    twins = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]

    def run(env, seed):
        rng, seen, done = random.Random(seed), [], False
        while not done:
            action = rng.choice(np.flatnonzero(env.unwrapped.action_masks()).tolist())
            observation, reward, done, _, _ = env.step(action)
            seen.append((action, observation.tobytes(), reward))
        return seen

    expected = run(env, 2)
    for twin in twins:
        assert run(twin, 2) == expected
    assert not env.unwrapped.action_masks().any()


# -- The teacher -------------------------------------------------------------


def test_the_teacher_gives_values_moves_and_distributions():
    boards = random_boards(4, seed=2)
    first = rl.teach(boards, nodes=300)
    again = rl.teach(boards, nodes=300)
    assert (first.best_actions == again.best_actions).all() and (first.policies == again.policies).all()
    for index, board in enumerate(boards):
        if board.is_game_over():
            assert first.best_actions[index] == -1
            continue
        legal = board.legal_actions()
        assert first.best_actions[index] in legal
        assert abs(first.policies[index].sum() - 1) < 1e-5
        assert set(np.flatnonzero(first.policies[index])) <= set(legal)
        assert abs(first.wdl[index].sum() - 1) < 0.01


def test_the_teachers_values_are_proven_at_a_mate_and_in_range_elsewhere():
    boards = random_boards(30, seed=5)
    taught = rl.teach(boards, nodes=300)
    assert taught.values.dtype == np.float32 and taught.scores.dtype == np.int32
    assert (np.abs(taught.values) <= 1).all()
    for value, score, wdl in zip(taught.values, taught.scores, taught.wdl):
        text = rl.score_text(score)
        if text.startswith("mate "):
            assert value == (1.0 if int(text.split()[1]) > 0 else -1.0)
        else:
            assert abs(value - (wdl[0] - wdl[2])) < 1e-6
    assert rl.score_text(rl.MATE - 5) == "mate 3"
    assert rl.score_text(-(rl.MATE - 4)) == "mate -2"
    assert rl.score_text(-(rl.MATE - 1)) == "mate 0"
    assert rl.score_text(-250) == "cp -250"


def _datagen_lines(engine_path, path, games, nodes, seed):
    """The positions of a ``pasang datagen --policy 100`` file: (board,
    score field, move played, {action: weight})."""
    subprocess.run(
        [engine_path, "datagen", "--out", str(path), "--games", str(games), "--nodes", str(nodes),
         "--policy", "100", "--seed", str(seed)],
        check=True,
        capture_output=True,
    )
    rows = []
    for line in path.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        fen, rules, score, _result, played, policy = line.split(" | ")
        board = Board(fen, **dict(zip(("pattern", "ka_entry", "second_column", "centre"), rules.split())))
        weights = {}
        for entry in policy.split():
            move, weight = entry.split(":")
            weights[board.action_of(board.parse_move(move))] = float(weight)
        rows.append((board, score, board.action_of(board.parse_move(played)), weights))
    return rows


def test_the_teacher_and_datagen_give_the_same_lessons(engine_path, tmp_path):
    """Positions read back from ``pasang datagen --policy`` and taught again
    at the same nodes on one thread: the same best move, score and
    distribution (within the file's four decimals), mates kept with their
    proven value, over 200 positions."""
    rows = _datagen_lines(engine_path, tmp_path / "lessons.txt", games=6, nodes=500, seed=11)
    assert len(rows) >= 200
    rows = rows[:200]
    taught = rl.teach([board for board, *_ in rows], nodes=500)
    mates = 0
    for index, (board, score, played, weights) in enumerate(rows):
        assert taught.best_actions[index] == played
        text = rl.score_text(taught.scores[index])
        assert text == (score if score.startswith("mate") else "cp " + score)
        dense = np.zeros(rl.ACTIONS)
        for action, weight in weights.items():
            dense[action] = weight
        assert np.abs(dense - taught.policies[index]).max() <= 1e-4
        if score.startswith("mate"):
            mates += 1
            assert abs(taught.values[index]) == 1.0
    assert mates > 0


def test_a_forced_win_in_three_is_worth_one_to_both(engine_path, tmp_path):
    """A position whose search proves a win in three of its own moves
    (``mate 3`` in the datagen file) has value +1 from the file and from
    the teacher, and ``pasang tune`` is not misled by it."""
    import pasang.learn as learn

    path = tmp_path / "mates.txt"
    rows = _datagen_lines(engine_path, path, games=4, nodes=1000, seed=3)
    wins = [index for index, (_board, score, *_rest) in enumerate(rows) if score == "mate 3"]
    assert wins, "seed 3's games hold a proven win in 3"
    batch = next(learn.read_datagen(str(path), batch_size=len(rows)))
    taught = rl.teach([rows[index][0] for index in wins], nodes=1000)
    for slot, index in enumerate(wins):
        assert rl.score_text(batch.scores[index]) == "mate 3"
        assert taught.values[slot] == 1.0
        assert rl.score_text(taught.scores[slot]) == "mate 3"


def test_the_teachers_softmax_is_the_cores():
    """``root_policy`` (the code of ``pasang datagen --policy``): weights
    e^(score / T), normalised, over exactly the legal ids; unscored moves
    get the lowest score; mates outrank centipoints; bad input is named."""
    from pasang._pasang import root_policy

    board = pasang.Board()
    moves = list(board.legal_moves)
    scored = [(moves[0], ("cp", 200)), (moves[1], ("cp", 100)), (moves[2], ("cp", 0))]
    weights = dict(root_policy(board, scored, 100.0))
    assert sorted(weights) == sorted(board.legal_actions())
    assert abs(sum(weights.values()) - 1) < 1e-9
    ids = [rl.encode(mv) for mv in moves[:3]]
    assert abs(weights[ids[0]] / weights[ids[1]] - np.e) < 1e-9
    assert abs(weights[ids[1]] / weights[ids[2]] - np.e) < 1e-9
    assert weights[rl.encode(moves[5])] == weights[ids[2]]  # unscored: the floor
    mate = dict(root_policy(board, [(moves[4], ("mate", 3))] + scored, 1000.0))
    assert mate[rl.encode(moves[4])] > 0.99
    with pytest.raises(ValueError, match="positive number of centipoints"):
        root_policy(board, scored, 0.0)
    with pytest.raises(ValueError, match="'cp' or 'mate'"):
        root_policy(board, [(moves[0], ("points", 1))], 100.0)


# -- The frameworks' own tests ----------------------------------------------


@pytest.mark.parametrize("rules", [{}, OTHER_RULES], ids=["default", "other"])
def test_pettingzoo_api_and_seed_tests(rules):
    framework("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from pasang.rl import pasang_v0

    api_test(pasang_v0.env(**rules), num_cycles=300)
    seed_test(lambda **kwargs: pasang_v0.env(**rules, **kwargs), num_cycles=300)
    env = pasang_v0.env(render_mode="rgb_array", **rules)
    env.reset(seed=1)
    assert env.render().shape == (264, 264, 3)


def test_pettingzoo_rewards_match_the_boards_result():
    framework("pettingzoo")
    from pasang.rl import pasang_v0

    for seed in range(6):
        env = pasang_v0.env()
        env.reset(seed=seed)
        rng = random.Random(seed)
        played = []
        totals = {agent: 0 for agent in env.possible_agents}
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            totals[agent] += reward
            if termination or truncation:
                env.step(None)
                continue
            action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
            played.append(action)
            env.step(action)
        board = Board()
        for action in played:
            rl.decode(action, board)
            board.push_action(action)
        result = board.result()
        expected = {"1-0": (1, -1), "0-1": (-1, 1), "1/2-1/2": (0, 0)}[result]
        assert (totals["player_0"], totals["player_1"]) == expected


@pytest.mark.parametrize("rules", [{}, OTHER_RULES], ids=["default", "other"])
def test_gymnasium_check_env(rules):
    gymnasium = framework("gymnasium")
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("pasang/Pasang-v0", **rules)
    check_env(env.unwrapped)

    def episode(seed):
        env = gymnasium.make("pasang/Pasang-v0", agent="either", **rules)
        observation, info = env.reset(seed=seed)
        rng = random.Random(seed)
        actions, done, reward = [], False, 0
        while not done:
            action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
            actions.append(action)
            observation, reward, done, truncated, info = env.step(action)
        return actions, reward

    assert episode(4) == episode(4)


def test_gymnasium_engine_opponent_and_illegal_actions():
    gymnasium = framework("gymnasium")
    env = gymnasium.make("pasang/Pasang-v0", opponent=50, agent="north")
    observation, info = env.reset(seed=0)
    assert observation[13].sum() == 0  # South (the engine) has moved
    observation, reward, terminated, truncated, info = env.step(rl.ACTIONS - 1)
    assert terminated and reward == -1 and info["illegal_action"]


@pytest.mark.parametrize("params", ["", "(ka_entry=both,pattern=2,second_column=any,centre=open)"], ids=["default", "other"])
def test_openspiel_random_sim_test(params):
    pyspiel = framework("pyspiel")
    import pasang.rl.openspiel  # noqa: F401

    game = pyspiel.load_game("python_pasang" + params)
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()
    assert pyspiel.load_game(str(game)).get_parameters() == game.get_parameters()
    assert state.action_to_string(state.legal_actions()[0]).endswith(("n", "s", "e", "w")) or len(
        state.action_to_string(state.legal_actions()[0])
    ) == 1


def test_openspiel_mcts_beats_random():
    pyspiel = framework("pyspiel")
    import pasang.rl.openspiel  # noqa: F401
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("python_pasang")
    rng = np.random.RandomState(7)
    wins = 0
    for game_index in range(2):
        bot = mcts.MCTSBot(game, 2, 60, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        state = game.new_initial_state()
        mcts_player = game_index % 2
        while not state.is_terminal():
            if state.current_player() == mcts_player:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        wins += state.returns()[mcts_player] > 0
    assert wins >= 1


def test_the_documents_examples_run(root):
    """docs/rl.md's ``python`` blocks, in order, as written."""
    for name in ("pettingzoo", "gymnasium", "pyspiel"):
        framework(name)
    import re

    # The JAX section's blocks need jax: test_jax.py runs them.
    text = (root / "docs" / "rl.md").read_text().split("\n## JAX\n")[0]
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 5
    namespace = {"__name__": "rl_walk_through"}
    exec(compile("\n".join(blocks), "docs/rl.md", "exec"), namespace)
    assert namespace["state"].legal_actions() and namespace["obs"]["action_mask"].shape == (1024, rl.ACTIONS)


def test_gymnasium_skill_level_opponent():
    gymnasium = framework("gymnasium")

    def first_moves(opponent):
        moves = []
        for seed in range(8):
            env = gymnasium.make("pasang/Pasang-v0", opponent=opponent, agent="north")
            env.reset(seed=seed)
            moves.append(str(env.unwrapped.board.peek()))
        return moves

    # Level 0 errs by up to 800 centipoints among its four best lines,
    # drawn from the seeded np_random: the seed decides, and repeats.
    weak = first_moves("skill:0")
    assert len(set(weak)) > 1 and weak == first_moves("skill:0")
    assert len(set(first_moves("skill:20"))) == 1

    def episode(seed):
        env = gymnasium.make("pasang/Pasang-v0", opponent="skill:2", agent="either", ka_entry="both")
        observation, info = env.reset(seed=seed)
        rng = random.Random(seed)
        actions, done, reward = [], False, 0
        while not done:
            action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
            actions.append(action)
            observation, reward, done, truncated, info = env.step(action)
        return actions, reward, env.unwrapped.board.move_stack

    assert episode(3) == episode(3)
    for bad in ("skill:21", "skill:x", "skill", 0, "engine"):
        with pytest.raises(ValueError, match="opponent"):
            gymnasium.make("pasang/Pasang-v0", opponent=bad)


def test_score_interval_is_pentanomial_over_pairs_and_wilson_when_pairs_agree():
    from pasang.rl.stats import score_interval

    # Pairs scoring 2, 1, 1, 0 (won-won, won-lost, drawn-drawn, lost-lost).
    mean, low, high, kind = score_interval([1, 1, 1, 0, 0.5, 0.5, 0, 0])
    assert kind == "pentanomial" and mean == 0.5
    # Pair scores' spread: variance 2/3 over 4 pairs, halved to a game's.
    half = 1.96 * (2 / 3 / 4) ** 0.5 / 2
    assert low == pytest.approx(0.5 - half) and high == pytest.approx(0.5 + half)
    # Every pair 1-1: no spread among pairs, so Wilson's over the games.
    mean, low, high, kind = score_interval([1, 0] * 10)
    assert (mean, kind) == (0.5, "wilson")
    assert low == pytest.approx(0.2993, abs=1e-4) and high == pytest.approx(0.7007, abs=1e-4)
    mean, low, high, kind = score_interval([1] * 6)
    assert (mean, kind) == (1.0, "wilson")
    assert low == pytest.approx(0.6097, abs=1e-4) and high == pytest.approx(1.0)
    assert score_interval([]) == (0.0, 0.0, 1.0, "none")
