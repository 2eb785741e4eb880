"""Reference win rates of simple players and the engine at Pasang, played
through the module (``pip install "./python[rl]"`` first; not part of CI):

    python python/benchmarks/baselines.py [--pairings all|ladder|NAME-NAME,...]
        [--games-per-rule-set 2] [--seed 1] [--jobs 1] [--json FILE]

The players (docs/rl.md, "Baselines"):

- ``random``: a uniformly random legal action.
- ``greedy``: the legal move that gains the mover the most points at once
  (its score after the move less its score before), ties broken at random;
  a passage (phase 1) gains the stones of its file.
- ``mcts100``, ``mcts400``: OpenSpiel's ``MCTSBot`` on ``python_pasang``
  (``import pasang.rl.openspiel``) with that many simulations, UCT
  constant 2, one random rollout per leaf (``RandomRolloutEvaluator``),
  ``solve=True``: the settings of OpenSpiel's own ``mcts`` example.
- ``engine1000``, ``engine10000``, ``engine100000``: the engine through
  ``pasang.Searcher(threads=1)``, ``search(board, nodes=N)`` with the table
  emptied before each move (deterministic).

Each pairing plays ``--games-per-rule-set`` games under each of the 24
rule sets (:func:`pasang.rl.rule_sets`), the two players swapping colours
from one game to the next: 48 games by default. The random players draw
from NumPy generators seeded by (``--seed``, pairing, game), so a run
repeats. ``all`` is every pairing of the seven players (21); ``ladder``
is each player against random plus each neighbour on the list above.

The table gives the first player's wins, draws and losses, its score
(a win 1, a draw 1/2) and a 95% interval: from the game pairs (the two
games of a rule set, colours swapped) as a pentanomial, or, where every
pair scored the same (no spread to measure), Wilson's interval on the
games (marked ``w``).
"""

import argparse
import itertools
import json
import multiprocessing
import os
import platform
import subprocess
import sys
import time

import numpy as np

import pasang
import pasang.rl as rl
from pasang.rl.stats import score_interval

PLAYERS = ("random", "greedy", "mcts100", "mcts400", "engine1000", "engine10000", "engine100000")


class Random:
    """A uniformly random legal action."""

    def __init__(self, rng):
        self.rng = rng

    def action(self, state):
        legal = state.board.legal_actions()
        return legal[int(self.rng.integers(len(legal)))]


class Greedy:
    """The move that gains the most points at once, ties at random."""

    def __init__(self, rng):
        self.rng = rng

    def action(self, state):
        board = state.board.copy(stack=False)
        mover = 0 if board.turn == "south" else 1
        before = board.scores[mover]
        best, gain = [], -1
        for action in board.legal_actions():
            board.push_action(action)
            now = board.scores[mover] - before
            board.pop()
            if now > gain:
                best, gain = [action], now
            elif now == gain:
                best.append(action)
        return best[int(self.rng.integers(len(best)))]


class Mcts:
    """OpenSpiel's MCTSBot with random rollouts."""

    def __init__(self, rng, game, simulations):
        from open_spiel.python.algorithms import mcts

        seeds = rng.integers(2**31, size=2)
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seeds[0]))
        self.bot = mcts.MCTSBot(
            game, 2, simulations, evaluator, random_state=np.random.RandomState(seeds[1]), solve=True
        )

    def action(self, state):
        return self.bot.step(state)


class Engine:
    """The engine at a fixed node count, one thread."""

    def __init__(self, nodes):
        self.nodes = nodes
        self.searcher = pasang.Searcher(threads=1)

    def action(self, state):
        move = self.searcher.search(state.board, nodes=self.nodes)[0]
        return rl.encode(move)


def make(name, rng, game):
    if name == "random":
        return Random(rng)
    if name == "greedy":
        return Greedy(rng)
    if name.startswith("mcts"):
        return Mcts(rng, game, int(name[4:]))
    if name.startswith("engine"):
        return Engine(int(name[6:]))
    raise ValueError("unknown player {!r}: one of {}".format(name, ", ".join(PLAYERS)))


def game_string(rules):
    """``python_pasang``'s game string for a rule set (pattern an int)."""
    parts = []
    for key, value in rules.items():
        parts.append("{}={}".format(key, int(value) if key == "pattern" else value))
    return "python_pasang({})".format(",".join(parts))


def play(task):
    """One game: ``(pairing, game index, first, second, rules, first is
    South, seed)`` -> the first player's score (1, 0.5, 0) and the plies."""
    import pyspiel
    import pasang.rl.openspiel  # noqa: F401  registers python_pasang

    pairing, index, first, second, rules, first_south, seed = task
    game = pyspiel.load_game(game_string(rules))
    rng = np.random.default_rng([seed, pairing, index])
    players = [make(first, rng, game), make(second, rng, game)]
    south, north = (players[0], players[1]) if first_south else (players[1], players[0])
    state = game.new_initial_state()
    while not state.is_terminal():
        mover = south if state.current_player() == 0 else north
        state.apply_action(int(mover.action(state)))
    winner = state.board.outcome().winner
    if winner is None:
        score = 0.5
    else:
        score = 1.0 if (winner == "south") == first_south else 0.0
    return pairing, index, score, state.board.ply()


def pairings(text):
    if text == "all":
        return list(itertools.combinations(PLAYERS, 2))
    if text == "ladder":
        out = [(name, "random") for name in PLAYERS[1:]]
        out += [(PLAYERS[i + 1], PLAYERS[i]) for i in range(1, len(PLAYERS) - 1)]
        return out
    out = []
    for item in text.split(","):
        first, _, second = item.partition("-")
        for name in (first, second):
            if name not in PLAYERS:
                raise SystemExit("unknown player {!r}: one of {}".format(name, ", ".join(PLAYERS)))
        out.append((first, second))
    return out


def commit():
    try:
        here = os.path.dirname(os.path.abspath(__file__))
        return subprocess.run(
            ["git", "-C", here, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def cpu():
    """The processor's name and the cores this process may use."""
    name = platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    name = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "{}, {} cores".format(name, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairings", default="all", help="all, ladder, or NAME-NAME,... from " + ", ".join(PLAYERS))
    parser.add_argument("--games-per-rule-set", type=int, default=2, help="an even number (colours swapped)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    if args.games_per_rule_set < 2 or args.games_per_rule_set % 2:
        raise SystemExit("--games-per-rule-set must be even and at least 2 (each pair swaps colours)")
    chosen = pairings(args.pairings)
    rule_sets = rl.rule_sets()
    tasks = []
    for number, (first, second) in enumerate(chosen):
        index = 0
        for rules in rule_sets:
            for repeat in range(args.games_per_rule_set):
                tasks.append((number, index, first, second, rules, repeat % 2 == 0, args.seed))
                index += 1
    print(
        "# {} pairings x {} games, seed {}, {} job(s); commit {}, Python {}, {}; load average {:.1f}".format(
            len(chosen),
            len(rule_sets) * args.games_per_rule_set,
            args.seed,
            args.jobs,
            commit(),
            platform.python_version(),
            cpu(),
            os.getloadavg()[0],
        ),
        flush=True,
    )
    start = time.perf_counter()
    results = {}
    plies = {}
    times = {}
    per_pairing_start = {}
    with multiprocessing.Pool(args.jobs) as pool:
        for pairing, index, score, length in pool.imap(play, tasks, chunksize=1):
            per_pairing_start.setdefault(pairing, time.perf_counter())
            results.setdefault(pairing, {})[index] = score
            plies.setdefault(pairing, []).append(length)
            if len(results[pairing]) == len(rule_sets) * args.games_per_rule_set:
                times[pairing] = time.perf_counter()
    print("| pairing (first vs second) | W-D-L | score | 95% interval | plies | seconds |")
    print("|---|---|---|---|---|---|")
    rows = []
    previous = start
    for number, (first, second) in enumerate(chosen):
        scores = [results[number][i] for i in sorted(results[number])]
        wins = sum(1 for s in scores if s == 1.0)
        draws = sum(1 for s in scores if s == 0.5)
        losses = len(scores) - wins - draws
        mean, low, high, kind = score_interval(scores)
        seconds = times[number] - previous
        previous = times[number]
        print(
            "| {} vs {} | {}-{}-{} | {:.1f}% | {:.1f}-{:.1f}%{} | {:.1f} | {:.1f} |".format(
                first,
                second,
                wins,
                draws,
                losses,
                100 * mean,
                100 * low,
                100 * high,
                " w" if kind == "wilson" else "",
                sum(plies[number]) / len(plies[number]),
                seconds,
            ),
            flush=True,
        )
        rows.append(
            {
                "first": first,
                "second": second,
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "score": mean,
                "low": low,
                "high": high,
                "interval": kind,
                "scores": scores,
            }
        )
    print("# {:.0f} s in all; load average {:.1f}".format(time.perf_counter() - start, os.getloadavg()[0]))
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"seed": args.seed, "commit": commit(), "rows": rows}, out, indent=1)


if __name__ == "__main__":
    sys.exit(main())
