"""pasang.jax against the Rust core, move for move: at every position of
seeded random games the JAX state's legal-move mask equals pasang.rl's,
its observation equals pasang.rl's planes, and the end, the rewards, the
scores and the side to move equal pasang.Board's. 200 games over 4 rule
sets run here (one compile per rule set); the 10,000 games over all 24
rule sets run with ``PASANG_JAX_FULL=1`` (docs/rl.md gives the command).
Then the no-op after the end, illegal and out-of-range actions, the rule
errors, and jit/vmap/scan.

Without JAX the tests skip with a message, except under ``CI=true``,
where that fails."""

import itertools
import os
import random

import pytest

np = pytest.importorskip("numpy")


def _jax():
    try:
        import jax  # noqa: F401
        import chex  # noqa: F401
    except ImportError as error:
        message = 'jax or chex is not installed ({}): pip install "./python[jax]"'.format(error)
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    import jax

    import pasang.jax as pjax

    return jax, pjax


import pasang  # noqa: E402
import pasang.rl as rl  # noqa: E402

KEYS = ("pattern", "ka_entry", "second_column", "centre")
ALL_RULE_SETS = [
    dict(zip(KEYS, values))
    for values in itertools.product(("1", "2"), ("slide", "jump", "both"), ("opposite", "any"), ("wall", "open"))
]
#: The CI check's four rule sets: between them every value of every option.
CI_RULE_SETS = [
    dict(zip(KEYS, ("1", "slide", "opposite", "wall"))),
    dict(zip(KEYS, ("2", "jump", "any", "open"))),
    dict(zip(KEYS, ("1", "both", "any", "wall"))),
    dict(zip(KEYS, ("2", "slide", "opposite", "open"))),
]


def check_games(rules, games, seed):
    """Plays ``games`` seeded random games under ``rules`` in lockstep,
    one ``vmap``-ed JAX step a ply, and compares every position with the
    core's. Returns (positions compared, longest game in plies)."""
    jax, pjax = _jax()
    env = pjax.Env(**rules)
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(env.step))
    boards = [pasang.Board(**rules) for _ in range(games)]
    rngs = [random.Random(seed * 100_003 + game) for game in range(games)]
    state = init(jax.random.split(jax.random.PRNGKey(seed), games))
    ended_at = [None] * games
    compared = 0
    ply = 0
    while True:
        mask = np.asarray(state.legal_action_mask)
        obs = np.asarray(state.observation)
        terminated = np.asarray(state.terminated)
        rewards = np.asarray(state.rewards)
        player = np.asarray(state.current_player)
        score = np.asarray(state.score)
        plies = np.asarray(state.ply)
        assert not np.asarray(state.truncated).any()
        for game, board in enumerate(boards):
            if ended_at[game] is not None and ended_at[game] < ply:
                # Stepped after its end: a no-op with zero rewards.
                assert terminated[game] and not rewards[game].any()
                continue
            where = "{} game {} ply {}: {}".format(rules, game, ply, board.fen())
            over = board.is_game_over()
            assert bool(terminated[game]) == over, where
            assert (obs[game].transpose(2, 0, 1) == rl.observation(board)).all(), where
            assert player[game] == (0 if board.turn == "south" else 1), where
            assert tuple(score[game]) == tuple(board.scores), where
            assert plies[game] == board.ply(), where
            if over:
                assert mask[game].all(), where
                winner = board.outcome().winner
                expected = {"south": [1, -1], "north": [-1, 1], None: [0, 0]}[winner]
                assert list(rewards[game]) == expected, where
                ended_at[game] = ply
            else:
                legal = np.zeros(rl.ACTIONS, dtype=bool)
                legal[board.legal_actions()] = True
                assert (mask[game] == legal).all(), "{}: jax {} core {}".format(
                    where,
                    [rl.describe_action(int(a)) for a in np.flatnonzero(mask[game] & ~legal)],
                    [rl.describe_action(int(a)) for a in np.flatnonzero(legal & ~mask[game])],
                )
                assert not rewards[game].any(), where
            compared += 1
        if all(end is not None for end in ended_at):
            break
        actions = np.zeros(games, dtype=np.int32)
        for game, board in enumerate(boards):
            if ended_at[game] is None:
                actions[game] = rngs[game].choice(board.legal_actions())
                board.push_action(int(actions[game]))
        state = step(state, actions)
        ply += 1
    # One finished state crosses back to a board.
    last = jax.tree_util.tree_map(lambda leaf: leaf[0], state)
    assert env.to_board(last).fen() == boards[0].fen()
    return compared, max(ended_at)


def test_ci_games_agree_with_the_core():
    """200 seeded games over 4 rule sets (every value of every option)."""
    compared = 0
    for index, rules in enumerate(CI_RULE_SETS):
        count, _longest = check_games(rules, 50, seed=index)
        compared += count
    assert compared > 200 * 40


@pytest.mark.skipif(not os.environ.get("PASANG_JAX_FULL"), reason="10,000 games: set PASANG_JAX_FULL=1")
def test_ten_thousand_games_over_every_rule_set():
    """10,000 seeded games over all 24 rule sets (docs/rl.md)."""
    total, compared, longest = 10_000, 0, 0
    for index, rules in enumerate(ALL_RULE_SETS):
        games = total // 24 + (1 if index < total % 24 else 0)
        for start in range(0, games, 500):
            count, long = check_games(rules, min(500, games - start), seed=1000 + index * 100 + start)
            compared += count
            longest = max(longest, long)
    print("positions compared: {}, longest game: {} plies".format(compared, longest))


def test_from_board_and_to_board_cross_positions():
    jax, pjax = _jax()
    rules = CI_RULE_SETS[1]
    board = pasang.Board(**rules)
    rng = random.Random(5)
    while board.ply() < 12:
        board.push_action(rng.choice(board.legal_actions()))
        if board.is_game_over():
            board.pop()
            break
    assert board.ply() >= 6 and not board.is_game_over()
    env, state = pjax.from_board(board)
    assert env.rules == rules
    assert (np.asarray(state.observation).transpose(2, 0, 1) == rl.observation(board)).all()
    assert sorted(np.flatnonzero(np.asarray(state.legal_action_mask))) == sorted(board.legal_actions())
    assert int(state.ply) == board.ply()
    assert env.to_board(state).fen() == board.fen()
    # A board under other rules is refused, naming both.
    with pytest.raises(ValueError, match="not this environment's"):
        pjax.Env().from_board(board)
    # A batch is not one board.
    batch = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(0), 2))
    with pytest.raises(ValueError, match="one state"):
        env.to_board(batch)


def test_a_finished_game_steps_to_itself_with_zero_rewards():
    jax, pjax = _jax()
    env = pjax.Env()
    # South to move, no move (suntuk): already over.
    board = pasang.Board(
        ".........../.........../.........../.........../.........../.....+...../"
        ".........../.........../.........../w........../SN........b s 50 60 ak"
    )
    state = env.from_board(board)
    assert bool(state.terminated) and not np.asarray(state.rewards).any()
    after = jax.jit(env.step)(state, 0)
    assert bool(after.terminated) and not np.asarray(after.rewards).any()
    for a, b in zip(jax.tree_util.tree_leaves(after), jax.tree_util.tree_leaves(state)):
        assert (np.asarray(a) == np.asarray(b)).all()
    # A move that empties the board ends it with the scores' result.
    board = pasang.Board(
        ".....N...../.........../.........../.........../.........../.....+...../"
        ".........../.........../..........w/.........../S.......... s 60 50 ak"
    )
    state = env.from_board(board)
    action = board.legal_actions()[0]
    after = jax.jit(env.step)(state, action)
    board.push_action(action)
    assert board.outcome().winner == "south"
    assert bool(after.terminated) and list(np.asarray(after.rewards)) == [1.0, -1.0]
    again = jax.jit(env.step)(after, action)
    assert not np.asarray(again.rewards).any() and bool(again.terminated)


def test_an_illegal_or_out_of_range_action_loses_for_its_player():
    jax, pjax = _jax()
    env = pjax.Env()
    step = jax.jit(env.step)
    start = jax.jit(env.init)(jax.random.PRNGKey(0))
    ka_move = rl.encode("b4c4n")  # not legal before the passages
    for action in (ka_move, -1, rl.ACTIONS, 10**6):
        state = step(start, action)
        assert bool(state.terminated), action
        assert list(np.asarray(state.rewards)) == [-1.0, 1.0], action
        # The position is as it was.
        assert (np.asarray(state.observation) == np.asarray(start.observation)).all()
        assert not np.asarray(step(state, 0).rewards).any()
    # North's illegal move: North loses.
    state = step(start, 2)  # South takes file c
    state = step(state, 2)  # North may not take c under "opposite"
    assert list(np.asarray(state.rewards)) == [1.0, -1.0]


def test_unknown_rules_raise_before_tracing():
    _jax_module, pjax = _jax()
    with pytest.raises(ValueError, match=r"ka_entry \(Ka Entry\) must be one of slide, jump, both, not 'hop'"):
        pjax.Env(ka_entry="hop")
    with pytest.raises(ValueError, match="pattern .* must be one of 1, 2"):
        pjax.Env(pattern=3)
    with pytest.raises(ValueError, match="centre .* must be one of wall, open"):
        pjax.Env(centre="closed")
    with pytest.raises(TypeError):
        pjax.Env(colour="red")
    assert pjax.Env(pattern=2).rules["pattern"] == "2"


def test_jit_vmap_and_scan_play_whole_games():
    """A scan of random legal moves over a vmapped batch: every game ends
    within 110 plies (every move captures; the start holds 120 stones)."""
    jax, pjax = _jax()
    import jax.numpy as jnp

    env = pjax.Env(ka_entry="both", centre="open")
    batch = 16

    def play(state, key):
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(key, logits)
        state = env.step(state, action)
        return state, state.rewards

    @jax.jit
    def run(key):
        keys = jax.random.split(key, batch)
        state = jax.vmap(env.init)(keys)
        step_keys = jax.random.split(key, (111, batch))
        return jax.lax.scan(jax.vmap(play), state, step_keys)

    final, rewards = run(jax.random.PRNGKey(3))
    assert np.asarray(final.terminated).all()
    assert np.asarray(final.ply).max() <= 110
    # Each game paid its result once, zero-sum.
    totals = np.asarray(rewards).sum(axis=0)
    assert (totals.sum(axis=1) == 0).all() and (np.abs(totals).sum(axis=1) <= 2).all()


def test_the_span_arithmetic_matches_the_counted_table():
    jax, pjax = _jax()
    index = np.repeat(np.arange(11), 2048).astype(np.int32)
    blockers = np.tile(np.arange(2048), 11).astype(np.int32)
    table = pjax._spans()
    assert (np.asarray(pjax._span(index, blockers)) == table[index, blockers]).all()
    assert table[5, 0] == 0x7FF and table[5, 1 << 2 | 1 << 8] == 0b000_1111_1000


_COMPILED = {}


def _compiled(rules):
    """One Env and its jitted step per rule set, shared by the examples."""
    jax, pjax = _jax()
    key = tuple(sorted(rules.items()))
    if key not in _COMPILED:
        env = pjax.Env(**rules)
        _COMPILED[key] = (env, jax.jit(env.step))
    return _COMPILED[key]


def _agrees(state, board, where):
    over = board.is_game_over()
    assert bool(state.terminated) == over, where
    assert (np.asarray(state.observation).transpose(2, 0, 1) == rl.observation(board)).all(), where
    assert tuple(np.asarray(state.score)) == tuple(board.scores), where
    mask = np.asarray(state.legal_action_mask)
    if over:
        assert mask.all(), where
    else:
        assert sorted(np.flatnonzero(mask)) == sorted(board.legal_actions()), where


def test_random_reachable_positions_through_from_board():
    """Hypothesis: a position reached by a random playout (rule set, seed
    and length drawn), crossed with from_board, agrees with the core, and
    so does every child of up to four of its legal moves; to_board gives
    the position back."""
    _jax()
    try:
        import hypothesis
        from hypothesis import strategies as st
    except ImportError as error:
        message = "hypothesis is not installed ({}): pip install hypothesis".format(error)
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)

    @hypothesis.settings(max_examples=25, deadline=None, derandomize=True)
    @hypothesis.given(
        rules=st.sampled_from(CI_RULE_SETS),
        seed=st.integers(0, 2**32 - 1),
        plies=st.integers(0, 80),
        picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=4),
    )
    def check(rules, seed, plies, picks):
        env, step = _compiled(rules)
        rng = random.Random(seed)
        board = pasang.Board(**rules)
        while board.ply() < plies and not board.is_game_over():
            board.push_action(rng.choice(board.legal_actions()))
        state = env.from_board(board)
        _agrees(state, board, board.fen())
        assert env.to_board(state).fen() == board.fen()
        if board.is_game_over():
            return
        legal = board.legal_actions()
        for pick in picks:
            action = legal[pick % len(legal)]
            child = board.copy()
            child.push_action(action)
            after = step(state, action)
            _agrees(after, child, "{} then {}".format(board.fen(), rl.describe_action(action)))
            if child.is_game_over():
                winner = child.outcome().winner
                expected = {"south": [1, -1], "north": [-1, 1], None: [0, 0]}[winner]
                assert list(np.asarray(after.rewards)) == expected

    check()


def test_the_documents_jax_examples_run(root):
    """docs/rl.md's JAX section: its ``python`` blocks, as written."""
    _jax()
    import re

    text = (root / "docs" / "rl.md").read_text().split("\n## JAX\n")[1]
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 1
    namespace = {"__name__": "jax_walk_through"}
    exec(compile("\n".join(blocks), "docs/rl.md", "exec"), namespace)
    assert namespace["env"].rules["centre"] == "open" and int(namespace["state"].ply) == 1
