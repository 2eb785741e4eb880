"""Random-action steps per second of pasang.jax against pgx's chess and
othello, the same way in one run (``pip install "./python[jax]" pgx``
first):

    python python/benchmarks/jax_speed.py [--batches 256 1024 4096] [--seconds 2] [--runs 5]

For each game and batch size B: ``jax.jit`` of one function that picks a
uniformly random legal action for each of B games, steps them with
``jax.vmap(env.step)`` and starts a finished game again (pgx's
auto-reset), so every step is a real move. The pick is the same for every
game: one uniform draw a game and the legal id at that rank among the
mask's true entries (:func:`pick_rank`; ``--picker categorical`` draws a Gumbel number for
every id instead, as ``jax.random.categorical`` does: 7,291 draws a
Pasang step, 4,672 a chess one, which then cost more than the step). Steps per second = B x calls / seconds, the median of ``--runs``
runs of ``--seconds`` each; the games take turns within each round, so
drift in the machine's speed hits them alike, and the ratios are taken
round by round. The device is JAX's default: the same command measures a
GPU where JAX has one (it prints which).
"""

import argparse
import statistics
import time

import jax
import jax.numpy as jnp

import pasang.jax

PICKER = "rank"


def make_env(name):
    if name == "pasang":
        return pasang.jax.Env()
    import pgx

    return pgx.make(name)


def pick_rank(mask, key, width=128):
    """A uniformly random true index of ``mask``: one uniform draw, then
    the index of that rank among the true entries, counted in blocks of
    ``width`` (a running count over the blocks, then within the chosen
    one: two short scans where one over the whole mask costs as much as
    a Pasang step on a CPU)."""
    size = mask.shape[-1]
    blocks = -(-size // width)
    grid = jnp.pad(mask, (0, blocks * width - size)).reshape(blocks, width).astype(jnp.int32)
    ends = jnp.cumsum(grid.sum(axis=1))
    rank = jnp.minimum(jnp.floor(jax.random.uniform(key) * ends[-1]).astype(jnp.int32), ends[-1] - 1)
    block = jnp.sum(ends <= rank)
    before = jnp.where(block > 0, ends[jnp.maximum(block - 1, 0)], 0)
    within = jnp.sum(jnp.cumsum(grid[block]) <= rank - before)
    return block * width + within


def stepper(env, batch):
    """``(state, key) -> state``: one random legal move in each game, a
    finished game started again."""

    def one(state, key):
        pick, again = jax.random.split(key)
        mask = state.legal_action_mask
        if PICKER == "categorical":
            action = jax.random.categorical(pick, jnp.where(mask, 0.0, -jnp.inf))
        else:
            action = pick_rank(mask, pick)
        state = env.step(state, action)
        fresh = env.init(again)
        return jax.tree_util.tree_map(lambda a, b: jnp.where(state.terminated, a, b), fresh, state)

    def many(state, key):
        return jax.vmap(one)(state, jax.random.split(key, batch))

    return jax.jit(many)


def run(env, step, batch, seconds, key):
    """Steps a second over ``seconds`` (after the compile)."""
    state = jax.jit(jax.vmap(env.init))(jax.random.split(key, batch))
    state = step(state, key)
    jax.block_until_ready(state)
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        key, sub = jax.random.split(key)
        state = step(state, sub)
        calls += 1
        if calls % 8 == 0:
            jax.block_until_ready(state)
    jax.block_until_ready(state)
    return batch * calls / (time.perf_counter() - start)


def pick_rate(env, step, batch, seconds, key):
    """Picks a second alone, on the masks of games a few plies in: the
    part of the loop's time that is not the game's step."""
    state = jax.jit(jax.vmap(env.init))(jax.random.split(key, batch))
    for _ in range(4):
        state = step(state, key)
    mask = state.legal_action_mask
    if PICKER == "categorical":
        pick = jax.jit(jax.vmap(lambda m, k: jax.random.categorical(k, jnp.where(m, 0.0, -jnp.inf))))
    else:
        pick = jax.jit(jax.vmap(pick_rank))
    keys = jax.random.split(key, batch)
    jax.block_until_ready(pick(mask, keys))
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        jax.block_until_ready(pick(mask, keys))
        calls += 1
    return batch * calls / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batches", type=int, nargs="+", default=[256, 1024, 4096])
    parser.add_argument("--games", nargs="+", default=["pasang", "chess", "othello"])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--picker", choices=["rank", "categorical"], default="rank")
    args = parser.parse_args()
    global PICKER
    PICKER = args.picker
    device = jax.devices()[0]
    print("device: {} ({}), jax {}, picker {}".format(device.device_kind, device.platform, jax.__version__, PICKER))
    envs = {name: make_env(name) for name in args.games}
    print("| game | actions | batch | steps/s (median) | min - max | vs chess | picks alone/s |")
    print("|---|---:|---:|---:|---|---:|---:|")
    for batch in args.batches:
        steps = {}
        for name, env in envs.items():
            compile_start = time.perf_counter()
            steps[name] = stepper(env, batch)
            run(env, steps[name], batch, 0.0, jax.random.PRNGKey(0))
            print("# {} batch {}: compiled and warmed in {:.1f} s".format(
                name, batch, time.perf_counter() - compile_start), flush=True)
        rates = {name: [] for name in envs}
        for round_ in range(args.runs):
            for name, env in envs.items():
                rates[name].append(run(env, steps[name], batch, args.seconds, jax.random.PRNGKey(round_)))
        for name, env in envs.items():
            median = statistics.median(rates[name])
            ratio = ""
            if "chess" in rates and name != "chess":
                ratio = "{:.2f}x".format(statistics.median(a / b for a, b in zip(rates[name], rates["chess"])))
            picks = pick_rate(env, steps[name], batch, args.seconds, jax.random.PRNGKey(7))
            print(
                "| {} | {:,} | {:,} | {:,.0f} | {:,.0f} - {:,.0f} | {} | {:,.0f} |".format(
                    name, env.num_actions, batch, median, min(rates[name]), max(rates[name]), ratio, picks
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()
