"""OpenSpiel's AlphaZero tooling takes ``python_pasang``: its JAX model
(``model_nnx``) built from the game's observation shape and action count,
its ``AlphaZeroEvaluator`` guiding ``MCTSBot`` searches, and one training
step (``Model.update``) on a tiny batch of what those searches found.

Seconds, not minutes. Needs the ``az`` extra (jax, flax, optax, chex:
``pip install "./python[rl,az]"``), which CI does not install: without it
the test skips, saying so. python/scripts/alphazero.py trains for real.
"""

import importlib
import warnings

import numpy as np
import pytest


def _alphazero():
    """OpenSpiel's AlphaZero modules, or a skip naming what is missing."""
    modules = {}
    for name in ("pyspiel", "jax", "flax", "optax", "chex"):
        try:
            modules[name] = importlib.import_module(name)
        except ImportError as error:
            pytest.skip(
                '{} is not installed ({}): OpenSpiel\'s AlphaZero needs pip install "./python[rl,az]"'.format(
                    name, error
                )
            )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from open_spiel.python.algorithms import mcts
        from open_spiel.python.algorithms.alpha_zero import evaluator, model_nnx, utils
    import pasang.rl.openspiel  # noqa: F401

    return modules["pyspiel"], mcts, evaluator, model_nnx, utils


def test_openspiels_alphazero_model_evaluator_and_mcts_take_python_pasang():
    pyspiel, mcts, evaluator_lib, model_nnx, utils = _alphazero()
    game = pyspiel.load_game("python_pasang(ka_entry=both)")
    shape = game.observation_tensor_shape()
    assert shape == [19, 11, 11]
    model = model_nnx.Model.build_model(
        "mlp", shape, game.num_distinct_actions(), 16, 1, 1e-4, 1e-2, None, seed=3
    )
    evaluator = evaluator_lib.AlphaZeroEvaluator(game, model)
    bot = mcts.MCTSBot(
        game,
        2.0,
        6,
        evaluator,
        solve=False,
        child_selection_fn=mcts.SearchNode.puct_value,
        random_state=np.random.RandomState(5),
    )

    state = game.new_initial_state()
    samples = []
    for _ in range(4):
        legal = state.legal_actions()
        # The evaluator's prior: a distribution over exactly the legal ids.
        prior = evaluator.prior(state)
        assert sorted(action for action, _ in prior) == legal
        assert abs(sum(p for _, p in prior) - 1.0) < 1e-4
        value = evaluator.evaluate(state)
        assert value.shape == (2,) and value[0] == -value[1] and -1.0 <= value[0] <= 1.0

        root = bot.mcts_search(state)
        policy = np.zeros(game.num_distinct_actions(), np.float32)
        for child in root.children:
            policy[child.action] = child.explore_count
        assert policy.sum() == 6 - 1  # the root's own visit expands it
        policy /= policy.sum()
        observation = np.asarray(state.observation_tensor(), np.float32)
        assert observation.min() >= 0.0 and observation.max() <= 1.0
        samples.append(
            utils.TrainInput(
                observation=observation,
                legals_mask=np.asarray(state.legal_actions_mask(), bool),
                policy=policy,
                value=np.float32(0.5),
            )
        )
        action = root.best_child().action
        assert action in legal
        state.apply_action(action)

    # One training step on the batch: finite losses, and the network moves.
    batch = utils.TrainInput.stack(samples)
    observation = samples[0].observation
    mask = samples[0].legals_mask
    before_value, before_policy = model.inference(observation, mask)
    losses = model.update(batch)
    for loss in (losses.policy, losses.value, losses.l2):
        assert np.isfinite(float(loss))
    assert float(losses.policy) > 0.0
    after_value, after_policy = model.inference(observation, mask)
    assert not np.allclose(np.asarray(before_policy), np.asarray(after_policy)) or float(before_value) != float(
        after_value
    )
    # The policy stays on the legal ids after the update.
    assert float(np.asarray(after_policy)[~mask].sum()) == 0.0
