"""OpenSpiel's AlphaZero on ``python_pasang``: self-play with OpenSpiel's
own model (``model_nnx``), ``AlphaZeroEvaluator`` and ``MCTSBot`` for a
bounded time, then the trained AlphaZero MCTS bot against a random player
and against plain MCTS (random rollouts) at equal simulations.

Not part of CI. After ``pip install "./python[rl,az]"`` (the ``az`` extra
adds jax, flax, optax and chex)::

    python python/scripts/alphazero.py --minutes 15 --seed 1

OpenSpiel's driver, ``alpha_zero.alpha_zero(config)``, runs a learner, N
actor and M evaluator processes, each loading JAX; on two cores those
processes only take turns, so this runs the same pieces in one process:
OpenSpiel's ``_play_game`` (the actors' self-play, with their Dirichlet
noise and temperature), its replay buffer and training input, and its
``Model.update``, with the learner's schedule (after every
``replay_buffer_size / replay_buffer_reuse`` new states, as many batches
as the buffer holds). Values are player 0's (South's), as OpenSpiel's
learner trains them; the evaluator gives ``[v, -v]``.

docs/rl.md records a run.
"""

import argparse
import json
import os
import sys
import tempfile
import time
import warnings

import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx

warnings.filterwarnings("ignore", message=".*nnx.*")

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.algorithms.alpha_zero import alpha_zero  # noqa: E402
from open_spiel.python.algorithms.alpha_zero import evaluator as evaluator_lib  # noqa: E402
from open_spiel.python.algorithms.alpha_zero import model_nnx  # noqa: E402
from open_spiel.python.algorithms.alpha_zero import replay_buffer as buffer_lib  # noqa: E402
from open_spiel.python.algorithms.alpha_zero import utils  # noqa: E402
from open_spiel.python.utils import file_logger  # noqa: E402

import pasang.rl.openspiel  # noqa: E402,F401  (registers python_pasang)
from pasang.rl.stats import score_interval  # noqa: E402


class RandomBot(pyspiel.Bot):
    """A uniformly random legal action, from a seeded NumPy generator."""

    def __init__(self, seed):
        pyspiel.Bot.__init__(self)
        self._rng = np.random.default_rng(seed)

    def step(self, state):
        return int(self._rng.choice(state.legal_actions()))

    def restart_at(self, state):
        pass


def make_config(args, game, path):
    """OpenSpiel's AlphaZero config (its field names and meanings)."""
    return alpha_zero.Config(
        game=str(game),
        path=path,
        learning_rate=args.learning_rate,
        weight_decay=1e-4,
        decouple_weight_decay=False,
        train_batch_size=args.batch,
        replay_buffer_size=args.buffer,
        replay_buffer_reuse=args.reuse,
        max_steps=0,
        checkpoint_freq=0,
        actors=1,
        evaluators=0,
        evaluation_window=0,
        eval_levels=1,
        uct_c=2.0,
        max_simulations=args.simulations,
        policy_alpha=1.0,
        policy_epsilon=0.25,
        temperature=1.0,
        temperature_drop=10,
        nn_model=args.model,
        nn_width=args.width,
        nn_depth=args.depth,
        observation_shape=game.observation_tensor_shape(),
        output_size=game.num_distinct_actions(),
        verbose=False,
        quiet=True,
    )


class JitModel(model_nnx.Model):
    """OpenSpiel's model with its ``inference`` compiled: the same network
    and masked softmax as ``Model.inference``, which runs them eagerly op
    by op (about 7 ms a call here against well under 1 ms compiled, and
    MCTS calls it once a simulation). Training is OpenSpiel's own,
    already compiled, ``update``."""

    def _compiled(self):
        if getattr(self, "_infer", None) is None:
            graphdef = self._state.graphdef

            @jax.jit
            def infer(params, batch_stats, observation, legals_mask):
                network = nnx.merge(graphdef, params, batch_stats)
                network.eval()
                logits, value = network(observation)
                logits = jnp.where(legals_mask, logits, jnp.finfo(jnp.float32).min)
                return value, jax.nn.softmax(logits)

            self._infer = infer
        return self._infer

    def inference(self, observation, legals_mask):
        value, policy = self._compiled()(
            self._state.params,
            self._state.batch_stats,
            np.asarray(observation, dtype=np.float32),
            np.asarray(legals_mask, dtype=bool),
        )
        return float(value), np.asarray(policy)


def build(config, seed):
    """OpenSpiel's model (compiled inference) and evaluator for the config."""
    model = JitModel.build_model(
        config.nn_model,
        config.observation_shape,
        config.output_size,
        config.nn_width,
        config.nn_depth,
        config.weight_decay,
        config.learning_rate,
        None,  # no checkpoints: the model stays in this process
        seed=seed,
    )
    return model, evaluator_lib.AlphaZeroEvaluator(game_of(config), model)


def game_of(config):
    return pyspiel.load_game(config.game)


def train(config, model, az_evaluator, seconds, logger, log):
    """Self-play and learning until `seconds` have passed; returns the
    learner's figures."""
    game = game_of(config)
    bots = [alpha_zero._init_bot(config, game, az_evaluator, False) for _ in range(2)]
    buffer = buffer_lib.Buffer(config.replay_buffer_size)
    learn_every = config.replay_buffer_size // config.replay_buffer_reuse
    start = time.time()
    games = states = updates = fresh = 0
    outcomes = [0, 0, 0]
    losses = None
    while time.time() - start < seconds:
        trajectory = alpha_zero._play_game(
            logger, games, game, bots, config.temperature, config.temperature_drop
        )
        games += 1
        outcome = trajectory.returns[0]
        outcomes[0 if outcome > 0 else 1 if outcome < 0 else 2] += 1
        for s in trajectory.states:
            buffer.append(
                utils.TrainInput(
                    observation=np.asarray(s.observation, dtype=np.float32),
                    legals_mask=np.asarray(s.legals_mask, dtype=bool),
                    policy=np.asarray(s.policy, dtype=np.float32),
                    value=np.asarray(outcome, dtype=np.float32),
                )
            )
        states += len(trajectory.states)
        fresh += len(trajectory.states)
        if fresh < learn_every:
            continue
        fresh = 0
        step_losses = []
        for _ in range(len(buffer) // config.train_batch_size):
            step_losses.append(model.update(buffer.sample(config.train_batch_size)))
        updates += len(step_losses)
        if step_losses:
            losses = sum(step_losses, utils.Losses(policy=0, value=0, l2=0)) / len(step_losses)
        # The weights changed: the evaluator's cached answers are stale
        # (OpenSpiel's actors clear it when they load a checkpoint).
        az_evaluator._cache.clear()
        log(
            "{:6.0f} s: {} games, {} states, {} updates of {}, South/North/draw {}/{}/{}, {}".format(
                time.time() - start, games, states, updates, config.train_batch_size, *outcomes, losses
            )
        )
    return {
        "seconds": round(time.time() - start, 1),
        "games": games,
        "states": states,
        "updates": updates,
        "outcomes_south_north_draw": outcomes,
        "losses": None if losses is None else str(losses),
    }


def match(game, make_first, make_second, games, log, name):
    """`games` games, the two players swapping colours each game; the
    first player's scores (1, 1/2, 0) in game order."""
    scores = []
    for index in range(games):
        first, second = make_first(index), make_second(index)
        bots = [first, second] if index % 2 == 0 else [second, first]
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        returns = state.returns()[index % 2]
        scores.append(1.0 if returns > 0 else 0.0 if returns < 0 else 0.5)
    mean, low, high, kind = score_interval(scores)
    log(
        "{}: {:.1f}% ({}-{}-{}), 95% interval {:.1f}-{:.1f}% ({})".format(
            name,
            100 * mean,
            scores.count(1.0),
            scores.count(0.5),
            scores.count(0.0),
            100 * low,
            100 * high,
            kind,
        )
    )
    return {
        "games": games,
        "wins": scores.count(1.0),
        "draws": scores.count(0.5),
        "losses": scores.count(0.0),
        "score": mean,
        "interval": [low, high],
        "interval_kind": kind,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=15.0, help="training time (default 15)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--simulations", type=int, default=50, help="MCTS simulations a move, both in self-play and in the matches")
    parser.add_argument("--model", default="mlp", choices=["mlp", "conv2d", "resnet"])
    parser.add_argument("--width", type=int, default=128)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--buffer", type=int, default=4096, help="replay buffer size")
    parser.add_argument("--reuse", type=int, default=4, help="learn after buffer/reuse new states")
    parser.add_argument("--games", type=int, default=40, help="games of each match (even: colours swap)")
    parser.add_argument("--rules", default="", help='game parameters, e.g. "(ka_entry=both)"')
    parser.add_argument("--json", help="write the figures here as JSON")
    args = parser.parse_args()

    np.random.seed(args.seed)  # OpenSpiel's _play_game and MCTS draw from np.random
    game = pyspiel.load_game("python_pasang" + args.rules)

    def log(text):
        print(text, flush=True)

    with tempfile.TemporaryDirectory(prefix="az-pasang-") as path:
        config = make_config(args, game, path)
        model, az_evaluator = build(config, args.seed)
        log(
            "python_pasang{}: observation {}, {} actions; {}({}, {}), {} variables; {} simulations".format(
                args.rules,
                game.observation_tensor_shape(),
                game.num_distinct_actions(),
                args.model,
                args.width,
                args.depth,
                model.num_trainable_variables,
                args.simulations,
            )
        )
        with file_logger.FileLogger(path, "selfplay", quiet=True) as logger:
            training = train(config, model, az_evaluator, 60 * args.minutes, logger, log)

        def az_bot(_index):
            return alpha_zero._init_bot(config, game, az_evaluator, True)

        def mcts_bot(index):
            return mcts.MCTSBot(
                game,
                config.uct_c,
                args.simulations,
                mcts.RandomRolloutEvaluator(1, np.random.RandomState(args.seed * 1000 + index)),
                solve=True,
            )

        start = time.time()
        results = {
            "random": match(game, az_bot, lambda i: RandomBot(args.seed * 1000 + i), args.games, log, "AlphaZero vs random"),
            "mcts": match(game, az_bot, mcts_bot, args.games, log, "AlphaZero vs MCTS at {} simulations".format(args.simulations)),
        }
        log("matches took {:.0f} s".format(time.time() - start))
    figures = {"args": vars(args), "training": training, "matches": results}
    if args.json:
        with open(args.json, "w") as out:
            json.dump(figures, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
