"""An AlphaZero-style learner on pasang.jax, after pgx's AlphaZero example:
self-play with mctx's Gumbel MuZero policy and a small flax network, all
inside jit (the rules, the search and the network share the device),
training on the games, and an evaluation against a random player, a
greedy one (the move that takes the most points) and the engine.

Not part of CI. After ``pip install "./python[jax,az]"``::

    python python/scripts/az_jax.py --minutes 15 --checkpoint /tmp/az.ckpt
    python python/scripts/az_jax.py --minutes 15 --checkpoint /tmp/az.ckpt   # resumes
    python python/scripts/az_jax.py --evaluate-only --checkpoint /tmp/az.ckpt --eval-simulations 16

Each iteration prints its measured self-play steps, games and training
steps a second (so a run on an accelerator can be planned from them);
every ``--eval-every`` iterations, and at the end, the network playing
with ``--eval-simulations`` simulations scores against random and greedy
(``--eval-games`` each, half with each colour) with a 95% interval, and
against the engine at ``--engine-nodes`` nodes (``--engine-games``).
``--evaluate-only`` runs that evaluation alone: of ``--checkpoint`` (not
written) when given, else of the untrained network of ``--seed``, with the
seeds the run's own evaluation of that iteration used.
"""

import argparse
import json
import math
import os
import pickle
import random
import time

import jax
import jax.numpy as jnp
import mctx
import numpy as np
import optax
from flax import linen as nn

import pasang
import pasang.jax as pjax
from pasang.rl.stats import wilson_interval

SCALE = np.ones(pjax.OBSERVATION_PLANES, np.float32)
# The scores (planes 7, 8) by 30, not by their 180 maximum, so that a lead
# of ten points is a third, not a twentieth. (It did not make the value
# learn faster on a CPU: its loss stayed near 0.9 either way; docs/rl.md.)
SCALE[7:9] = 1 / 30
SCALE[12] = 1 / 120  # the stones left


class Net(nn.Module):
    """A small residual network: planes in, 7,291 logits and a value from
    the side to move's view out."""

    channels: int = 32
    blocks: int = 3

    @nn.compact
    def __call__(self, observation):
        x = observation.astype(jnp.float32) * SCALE
        x = nn.relu(nn.Conv(self.channels, (3, 3))(x))
        for _ in range(self.blocks):
            y = nn.relu(nn.Conv(self.channels, (3, 3))(x))
            x = nn.relu(x + nn.Conv(self.channels, (3, 3))(y))
        flat = x.reshape(x.shape[:-3] + (-1,))
        logits = nn.Dense(pjax.ACTIONS)(nn.relu(nn.Dense(128)(flat)))
        value = jnp.tanh(nn.Dense(1)(nn.relu(nn.Dense(64)(flat))))[..., 0]
        return logits, value


def make(args):
    env = pjax.Env()
    net = Net()

    def forward(params, observation, mask):
        logits, value = net.apply(params, observation)
        logits = jnp.where(mask, logits - logits.max(axis=-1, keepdims=True), -1e9)
        return logits, value

    def recurrent_fn(params, key, action, state):
        mover = state.current_player
        state = jax.vmap(env.step)(state, action)
        logits, value = forward(params, state.observation, state.legal_action_mask)
        reward = state.rewards[jnp.arange(action.shape[0]), mover]
        value = jnp.where(state.terminated, 0.0, value)
        discount = jnp.where(state.terminated, 0.0, -1.0)
        return mctx.RecurrentFnOutput(reward=reward, discount=discount, prior_logits=logits, value=value), state

    def search(params, key, state, simulations):
        logits, value = forward(params, state.observation, state.legal_action_mask)
        root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=state)
        return mctx.gumbel_muzero_policy(
            params,
            key,
            root,
            recurrent_fn,
            num_simulations=simulations,
            invalid_actions=~state.legal_action_mask,
        )

    @jax.jit
    def selfplay(params, key):
        """``--batch`` games played for ``--plies`` plies (finished games
        restart): observations, search policies, rewards to the mover,
        ends."""
        state = jax.vmap(env.init)(jax.random.split(key, args.batch))

        def ply(state, key):
            search_key, reset_key = jax.random.split(key)
            out = search(params, search_key, state, args.simulations)
            mover = state.current_player
            after = jax.vmap(env.step)(state, out.action)
            reward = after.rewards[jnp.arange(args.batch), mover]
            record = (state.observation, state.legal_action_mask, out.action_weights, reward, after.terminated)
            fresh = jax.vmap(env.init)(jax.random.split(reset_key, args.batch))
            after = jax.tree_util.tree_map(
                lambda a, b: jnp.where(after.terminated.reshape((-1,) + (1,) * (a.ndim - 1)), a, b), fresh, after
            )
            return after, record

        _, records = jax.lax.scan(ply, state, jax.random.split(key, args.plies))
        observations, masks, policies, rewards, ends = records
        # The value target from the mover's view: the reward of its move,
        # then minus the next mover's target, cut at each game's end.
        def back(next_value, item):
            reward, end = item
            value = reward + jnp.where(end, 0.0, -next_value)
            return value, value

        _, values = jax.lax.scan(back, jnp.zeros(args.batch), (rewards, ends), reverse=True)
        # Positions whose game had not ended by the last ply have no true
        # target: weight 0.
        done_after = jax.lax.cumsum(ends[::-1].astype(jnp.int32), axis=0)[::-1] > 0
        return observations, masks, policies, values, done_after, ends

    optimizer = optax.adam(args.learning_rate)

    @jax.jit
    def train_step(params, opt_state, observation, mask, policy, value, weight):
        def loss_fn(params):
            logits, predicted = forward(params, observation, mask)
            policy_loss = optax.softmax_cross_entropy(logits, policy).mean()
            value_loss = (weight * (predicted - value) ** 2).sum() / jnp.maximum(weight.sum(), 1)
            return policy_loss + value_loss, (policy_loss, value_loss)

        (loss, parts), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, parts

    @jax.jit
    def act(params, key, state):
        return search(params, key, state, args.eval_simulations).action

    return env, net, optimizer, selfplay, train_step, act


def interval(wins, draws, games):
    """Score and its 95% Wilson interval (draws as half a win)."""
    return wilson_interval((wins + draws / 2) / games, games)


def greedy_move(board, rng):
    best, moves = -1, []
    for move in board.legal_moves:
        before = board.scores[0 if board.turn == "south" else 1]
        board.push(move)
        gain = board.scores[1 if board.turn == "south" else 0] - before
        board.pop()
        if gain > best:
            best, moves = gain, [move]
        elif gain == best:
            moves.append(move)
    return rng.choice(moves)


def evaluate(env, act, params, opponent, games, seed, searcher=None, nodes=1000):
    """The network (with its small search) against ``opponent`` over
    ``games`` games, half with each colour: (wins, draws, losses).

    The games are played side by side: at each round every game where the
    network is to move gets its move from one batched search (padded to
    ``games`` states, so it compiles once), the others their opponent's
    move."""
    rng = random.Random(seed)
    key = jax.random.PRNGKey(seed)
    boards = [pasang.Board() for _ in range(games)]
    sides = ["south" if game % 2 == 0 else "north" for game in range(games)]
    while True:
        live = [game for game in range(games) if not boards[game].is_game_over()]
        if not live:
            break
        mine = [game for game in live if boards[game].turn == sides[game]]
        if mine:
            states = [env.from_board(boards[game]) for game in mine]
            states += states[:1] * (games - len(states))
            batch = jax.tree_util.tree_map(lambda *leaves: np.stack([np.asarray(leaf) for leaf in leaves]), *states)
            key, sub = jax.random.split(key)
            actions = np.asarray(act(params, sub, batch))
            for game, action in zip(mine, actions):
                boards[game].push_action(int(action))
        moved = set(mine)
        for game in live:
            if game in moved:
                continue
            board = boards[game]
            if opponent == "random":
                board.push(rng.choice(list(board.legal_moves)))
            elif opponent == "greedy":
                board.push(greedy_move(board, rng))
            else:
                board.push(searcher.search(board, nodes=nodes, seed=rng.randrange(1 << 30))[0])
    tally = [0, 0, 0]
    for board, side in zip(boards, sides):
        winner = board.outcome().winner
        tally[0 if winner == side else 1 if winner is None else 2] += 1
    return tuple(tally)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=15, help="learning time: self-play and training, not evaluation")
    parser.add_argument("--iterations", type=int, default=None, help="stop after this many iterations in all, too")
    parser.add_argument("--batch", type=int, default=64, help="self-play games side by side")
    parser.add_argument("--plies", type=int, default=96, help="plies each self-play batch plays")
    parser.add_argument("--simulations", type=int, default=8, help="self-play search simulations")
    parser.add_argument("--train-batch", type=int, default=256)
    parser.add_argument("--replay", type=int, default=4, help="self-play batches kept for training")
    parser.add_argument("--passes", type=float, default=2, help="training steps an iteration: passes over its new positions")
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--eval-minutes", type=float, default=5, help="evaluate after each this many minutes of learning")
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--eval-simulations", type=int, default=8)
    parser.add_argument("--engine-games", type=int, default=20)
    parser.add_argument("--engine-nodes", type=int, default=1000)
    parser.add_argument("--eval-against", default="random,greedy,engine", help="the opponents evaluated, comma-separated")
    parser.add_argument("--checkpoint", default=None)
    parser.add_argument("--curve", default=None, help="write the evaluations and rates as JSON to this file")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--evaluate-only", action="store_true", help="evaluate --checkpoint (or the untrained network) and stop"
    )
    args = parser.parse_args()
    if args.evaluate_only and args.checkpoint and not os.path.exists(args.checkpoint):
        parser.error("--evaluate-only: no checkpoint at {}".format(args.checkpoint))

    env, net, optimizer, selfplay, train_step, act = make(args)
    key = jax.random.PRNGKey(args.seed)
    params = net.init(key, jnp.zeros((1,) + env.observation_shape, jnp.uint8))
    opt_state = optimizer.init(params)
    iteration, seconds, curve = 0, 0.0, {"settings": vars(args), "evaluations": [], "iterations": []}
    if args.checkpoint and os.path.exists(args.checkpoint):
        with open(args.checkpoint, "rb") as handle:
            saved = pickle.load(handle)
        params, opt_state = saved["params"], saved["opt_state"]
        iteration, seconds, key = saved["iteration"], saved["seconds"], saved["key"]
        curve = saved.get("curve", curve)
        print("resumed from {} at iteration {} ({:.0f} s trained)".format(args.checkpoint, iteration, seconds))
    searcher = pasang.Searcher()

    def report(label):
        for opponent, games in (("random", args.eval_games), ("greedy", args.eval_games), ("engine", args.engine_games)):
            if games <= 0 or opponent not in args.eval_against.split(","):
                continue
            t0 = time.perf_counter()
            w, d, l = evaluate(env, act, params, opponent, games, 1000 + iteration, searcher, args.engine_nodes)
            score, low, high = interval(w, d, games)
            print(
                "eval {} iteration {} ({:.0f} s learning): vs {}: {}-{}-{}, {:.1%} [{:.1%}, {:.1%}] ({:.0f} s)".format(
                    label, iteration, seconds, opponent, w, d, l, score, low, high, time.perf_counter() - t0
                ),
                flush=True,
            )
            curve["evaluations"].append(
                {
                    "label": label,
                    "iteration": iteration,
                    "learning_seconds": round(seconds, 1),
                    "opponent": opponent if opponent != "engine" else "engine{}".format(args.engine_nodes),
                    "games": games,
                    "wins": w,
                    "draws": d,
                    "losses": l,
                    "score": round(score, 4),
                    "low": round(low, 4),
                    "high": round(high, 4),
                    "eval_simulations": args.eval_simulations,
                }
            )
        if args.curve:
            with open(args.curve, "w") as handle:
                json.dump(curve, handle, indent=1)

    if args.evaluate_only:
        report("evaluate-only")
        return
    if iteration == 0:
        report("untrained")
    replay = []
    next_eval = (math.floor(seconds / (args.eval_minutes * 60)) + 1) * args.eval_minutes * 60
    def learning():
        return seconds < args.minutes * 60 and (args.iterations is None or iteration < args.iterations)

    while learning():
        key, play_key = jax.random.split(key)
        t0 = time.perf_counter()
        observations, masks, policies, values, weights, ends = jax.block_until_ready(selfplay(params, play_key))
        t1 = time.perf_counter()
        fresh = [np.asarray(x).reshape((-1,) + x.shape[2:]) for x in (observations, masks, policies, values, weights)]
        finished = int(np.asarray(ends).sum())
        # A window of the last --replay batches: each position is trained
        # on about --passes x --replay times, so a slow self-play (two
        # shared cores) feeds more training steps.
        replay = (replay + [fresh])[-args.replay :]
        flat = [np.concatenate([batch[part] for batch in replay]) for part in range(len(fresh))]
        order = np.random.default_rng(iteration).permutation(len(flat[0]))
        wanted = max(1, int(args.passes * len(fresh[0]) / args.train_batch))
        steps, policy_loss, value_loss = 0, float("nan"), float("nan")
        while steps < wanted:
            begin = (steps * args.train_batch) % max(1, len(order) - args.train_batch + 1)
            pick = order[begin : begin + args.train_batch]
            params, opt_state, (policy_loss, value_loss) = train_step(
                params, opt_state, *(jnp.asarray(x[pick]) for x in flat)
            )
            steps += 1
        jax.block_until_ready(params)
        t2 = time.perf_counter()
        iteration += 1
        seconds += t2 - t0
        plies = args.batch * args.plies
        rates = {
            "iteration": iteration,
            "learning_seconds": round(seconds, 1),
            "selfplay_steps_per_s": round(plies / (t1 - t0), 1),
            "games_per_s": round(finished / (t1 - t0), 3),
            "training_steps_per_s": round(steps / max(t2 - t1, 1e-9), 2),
            "policy_loss": round(float(policy_loss), 4),
            "value_loss": round(float(value_loss), 4),
        }
        curve["iterations"].append(rates)
        print(
            "iteration {} ({:.0f} s learning): self-play {:,.0f} steps/s ({} plies, {} simulations each), "
            "{:.2f} games/s; training {:.1f} steps/s ({} steps of {}); loss policy {:.3f} value {:.3f}".format(
                iteration,
                seconds,
                rates["selfplay_steps_per_s"],
                plies,
                args.simulations,
                rates["games_per_s"],
                rates["training_steps_per_s"],
                steps,
                args.train_batch,
                rates["policy_loss"],
                rates["value_loss"],
            ),
            flush=True,
        )
        if args.checkpoint:
            with open(args.checkpoint, "wb") as handle:
                pickle.dump(
                    {
                        "params": jax.device_get(params),
                        "opt_state": jax.device_get(opt_state),
                        "iteration": iteration,
                        "seconds": seconds,
                        "key": jax.device_get(key),
                        "curve": curve,
                    },
                    handle,
                )
        if seconds >= next_eval and learning():
            report("during")
            next_eval += args.eval_minutes * 60
    report("final")


if __name__ == "__main__":
    main()
