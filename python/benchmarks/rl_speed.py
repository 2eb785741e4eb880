"""Random-action steps per second of pasang.rl's batched games, against
OpenSpiel's C++ othello and chess played out at random from Python, in
one run on one machine (``pip install "./python[rl]"`` first):

    python python/benchmarks/rl_speed.py [--envs 1024] [--seconds 2] [--runs 5]

Rows (each the median of ``--runs`` runs of ``--seconds`` seconds):

- ``VectorEnv, default, random_legal_actions``: ``VectorEnv(envs)`` as a
  user makes it (``copy=True``), each step's actions from
  ``pasang.rl.random_legal_actions(obs["action_mask"], rng)``, the picker
  docs/rl.md shows: the default path.
- ``VectorEnv, NumPy picks``: ``VectorEnv(envs, copy=False)``; each step
  picks a uniformly random true entry of every row of
  ``obs["action_mask"]`` in NumPy (``np.flatnonzero``, one draw per row)
  and calls ``step``: the planes and masks written, the picking counted;
  read-only views instead of copies.
- ``VectorEnv, Rust picks``: actions from ``env.sample()`` (drawn in Rust
  from each game's seeded stream) instead.
- ``  of which NumPy picking`` and ``  of which step``: where the time of
  the ``copy=False`` row goes, per 1,024 games.
- ``pasang_v0 (PettingZoo)``: one AEC environment played out at random
  (``np.flatnonzero`` of the mask, ``random.choice``).
- ``pyspiel othello`` / ``pyspiel chess``: ``state.apply_action(
  random.choice(state.legal_actions()))`` until the game ends, a new game
  then: plies per second, the rate the issue compares against.

The last lines give each pasang row as a ratio to othello's.
"""

import argparse
import random
import statistics
import time

import numpy as np

import pasang.rl as rl


def timed(seconds, work):
    """Runs ``work()`` (which returns steps done) until ``seconds`` pass:
    steps per second."""
    steps = 0
    start = time.perf_counter()
    while True:
        steps += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def pick(mask, rng):
    """A uniformly random true entry of each row of ``mask``:
    ``pasang.rl.random_legal_actions`` (the flat indices of the true
    entries by ``np.flatnonzero`` on the contiguous mask, their rows, one
    draw per row; the two-dimensional ``np.nonzero`` was 250 times
    slower)."""
    return rl.random_legal_actions(mask, rng)


def vector(envs, copy, rust_picks):
    env = rl.VectorEnv(envs, seed=1, copy=copy)
    obs, _ = env.reset()
    rng = np.random.default_rng(1)
    state = {"obs": obs}

    def work():
        actions = env.sample() if rust_picks else pick(state["obs"]["action_mask"], rng)
        state["obs"] = env.step(actions)[0]
        return envs

    return work


def parts(envs, seconds):
    """Seconds per call of the NumPy picking and of ``step`` alone."""
    env = rl.VectorEnv(envs, seed=1, copy=False)
    obs, _ = env.reset()
    rng = np.random.default_rng(1)
    picking = stepping = 0.0
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        t0 = time.perf_counter()
        actions = pick(obs["action_mask"], rng)
        t1 = time.perf_counter()
        obs = env.step(actions)[0]
        t2 = time.perf_counter()
        picking += t1 - t0
        stepping += t2 - t1
        calls += 1
    return picking / calls, stepping / calls


def petting_zoo():
    from pasang.rl import pasang_v0

    env = pasang_v0.env()
    env.reset(seed=1)
    rng = random.Random(1)

    def work():
        env.reset()
        plies = 0
        for _agent in env.agent_iter():
            observation, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            plies += 1
        return plies

    return work


def spiel(name):
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(1)

    def work():
        state = game.new_initial_state()
        plies = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
        return plies

    return work


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rows = [
        ("VectorEnv({}), default, random_legal_actions".format(args.envs), lambda: vector(args.envs, True, False)),
        ("VectorEnv({}), NumPy picks".format(args.envs), lambda: vector(args.envs, False, False)),
        ("VectorEnv({}), Rust picks".format(args.envs), lambda: vector(args.envs, False, True)),
        ("pasang_v0 (PettingZoo), NumPy picks", petting_zoo),
        ("pyspiel othello from Python", lambda: spiel("othello")),
        ("pyspiel chess from Python", lambda: spiel("chess")),
    ]
    rates = {}
    # Rounds in turn, so a machine's slow spell touches every row alike.
    samples = {name: [] for name, _ in rows}
    makers = dict(rows)
    works = {}
    for name, make in rows:
        try:
            works[name] = make()
        except ImportError as error:
            print("{}: skipped ({})".format(name, error))
    for _ in range(args.runs):
        for name in works:
            samples[name].append(timed(args.seconds, works[name]))
    print("{:<44} {:>14}  (median of {} runs of {} s)".format("steps (plies) per second", "median", args.runs, args.seconds))
    for name in works:
        rates[name] = statistics.median(samples[name])
        low, high = min(samples[name]), max(samples[name])
        print("{:<44} {:>14,.0f}  [{:,.0f} - {:,.0f}]".format(name, rates[name], low, high))
    picking, stepping = parts(args.envs, args.seconds)
    scale = 1024 / args.envs
    print("  of which NumPy picking: {:.2f} ms, step: {:.2f} ms per 1,024 games".format(picking * 1e3 * scale, stepping * 1e3 * scale))
    othello = rates.get("pyspiel othello from Python")
    if othello:
        for name in works:
            if not name.startswith("pyspiel othello"):
                print("{:<44} {:>8.2f} x othello".format(name, rates[name] / othello))
    del makers


if __name__ == "__main__":
    main()
