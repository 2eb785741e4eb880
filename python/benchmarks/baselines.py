"""Reference win rates of simple players and the engine at Pasang, played
through the module (``pip install "./python[rl]"`` first; not part of CI):

    python python/benchmarks/baselines.py [--pairings all|ladder|NAME-NAME,...]
        [--games-per-rule-set 2] [--seed 1] [--jobs 1] [--json FILE]
    python python/benchmarks/baselines.py --table FILE
    python python/benchmarks/baselines.py --check FILE [--pairings K] [--jobs 1]

``--json`` writes the results with the module's version, the commit, each
player's settings, the seed and every game's score; ``--table`` prints
docs/rl.md's table from such a file; ``--check`` replays the K pairings of
the file that took the least time (all without ``--pairings``) and exits
1 unless each one's wins, draws and losses, game by game, equal the
recorded ones. The games are seeded, so at the same version they must;
a file of another version is refused, naming both.

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
import importlib.metadata
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


def version():
    """The installed module's version."""
    try:
        return importlib.metadata.version("pasang")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def settings(name):
    """What decides how player ``name`` plays, for the results file."""
    if name == "random":
        return {"player": "a uniformly random legal action", "draws": "numpy default_rng([seed, pairing, game])"}
    if name == "greedy":
        return {
            "player": "the legal move gaining the most points at once, ties at random",
            "draws": "numpy default_rng([seed, pairing, game])",
        }
    if name.startswith("mcts"):
        try:
            spiel = importlib.metadata.version("open_spiel")
        except importlib.metadata.PackageNotFoundError:
            spiel = "unknown"
        return {
            "player": "open_spiel.python.algorithms.mcts.MCTSBot on python_pasang",
            "simulations": int(name[4:]),
            "uct_c": 2,
            "evaluator": "RandomRolloutEvaluator(1)",
            "solve": True,
            "random_states": "two seeds drawn from numpy default_rng([seed, pairing, game])",
            "open_spiel": spiel,
        }
    return {
        "player": "pasang.Searcher(threads=1).search(board, nodes=N)",
        "nodes": int(name[6:]),
        "threads": 1,
        "hash_mib": 16,
        "table": "emptied before each move (deterministic)",
    }


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


def pairing_number(first, second):
    """The number a pairing's games are seeded with: its place in the
    list of ``all`` (so a run of some pairings plays the same games as a
    run of all of them), or 100 + 7 i + j for a pairing ``all`` lists the
    other way round (player i first, j second)."""
    ordered = list(itertools.combinations(PLAYERS, 2))
    if (first, second) in ordered:
        return ordered.index((first, second))
    return 100 + len(PLAYERS) * PLAYERS.index(first) + PLAYERS.index(second)


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


def play_pairings(chosen, numbers, games_per_rule_set, seed, jobs):
    """Plays each pairing of ``chosen`` (its seed number from
    ``numbers``): ``{number: (scores in game order, plies, seconds)}``."""
    rule_sets = rl.rule_sets()
    tasks = []
    for number, (first, second) in zip(numbers, chosen):
        index = 0
        for rules in rule_sets:
            for repeat in range(games_per_rule_set):
                tasks.append((number, index, first, second, rules, repeat % 2 == 0, seed))
                index += 1
    games = len(rule_sets) * games_per_rule_set
    results, plies, times = {}, {}, {}
    start = time.perf_counter()
    with multiprocessing.Pool(jobs) as pool:
        for pairing, index, score, length in pool.imap(play, tasks, chunksize=1):
            results.setdefault(pairing, {})[index] = score
            plies.setdefault(pairing, []).append(length)
            if len(results[pairing]) == games:
                times[pairing] = time.perf_counter()
    out = {}
    previous = start
    for number in numbers:
        scores = [results[number][i] for i in sorted(results[number])]
        out[number] = (scores, sum(plies[number]) / len(plies[number]), times[number] - previous)
        previous = times[number]
    return out


def wdl(scores):
    wins = sum(1 for s in scores if s == 1.0)
    draws = sum(1 for s in scores if s == 0.5)
    return wins, draws, len(scores) - wins - draws


def table(rows):
    """docs/rl.md's table of a results file's rows."""
    lines = [
        "| pairing (first vs second) | W-D-L | score | 95% interval | plies | seconds |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        lines.append(
            "| {} vs {} | {}-{}-{} | {:.1f}% | {:.1f}-{:.1f}%{} | {:.1f} | {:.1f} |".format(
                row["first"],
                row["second"],
                row["wins"],
                row["draws"],
                row["losses"],
                100 * row["score"],
                100 * row["low"],
                100 * row["high"],
                " w" if row["interval"] == "wilson" else "",
                row["plies"],
                row["seconds"],
            )
        )
    return "\n".join(lines)


def check(path, count, jobs):
    """Replays ``count`` recorded pairings of ``path`` (the quickest
    first): 0 if every game scored as recorded, else 1."""
    with open(path) as handle:
        recorded = json.load(handle)
    if recorded.get("version") != version():
        print(
            "{} was made with pasang {} but this is pasang {}: replay it at its version "
            "(docs/rl.md says what moved between versions)".format(path, recorded.get("version"), version()),
            file=sys.stderr,
        )
        return 1
    rows = sorted(recorded["rows"], key=lambda row: row["seconds"])[: count or None]
    played = play_pairings(
        [(row["first"], row["second"]) for row in rows],
        [row["pairing"] for row in rows],
        recorded["games_per_rule_set"],
        recorded["seed"],
        jobs,
    )
    failed = 0
    for row in rows:
        scores = played[row["pairing"]][0]
        same = scores == row["scores"]
        failed += not same
        print(
            "{} vs {}: {}-{}-{} replayed, {}-{}-{} recorded: {}".format(
                row["first"], row["second"], *wdl(scores), row["wins"], row["draws"], row["losses"],
                "same" if same else "DIFFERENT",
            ),
            flush=True,
        )
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--pairings", help="all (the default), ladder, or NAME-NAME,... from " + ", ".join(PLAYERS) + "; with --check, a count"
    )
    parser.add_argument("--games-per-rule-set", type=int, default=2, help="an even number (colours swapped)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--table", metavar="FILE", help="print docs/rl.md's table of a results file")
    parser.add_argument("--check", metavar="FILE", help="replay a results file's pairings (--pairings K of them)")
    args = parser.parse_args()
    if args.table:
        with open(args.table) as handle:
            print(table(json.load(handle)["rows"]))
        return 0
    if args.check:
        try:
            count = int(args.pairings) if args.pairings is not None else 0
        except ValueError:
            raise SystemExit("with --check, --pairings is a number of pairings") from None
        return check(args.check, count, args.jobs)
    if args.games_per_rule_set < 2 or args.games_per_rule_set % 2:
        raise SystemExit("--games-per-rule-set must be even and at least 2 (each pair swaps colours)")
    chosen = pairings(args.pairings or "all")
    numbers = [pairing_number(first, second) for first, second in chosen]
    if len(set(numbers)) != len(numbers):
        raise SystemExit("a pairing is named twice")
    revision = commit()
    load = os.getloadavg()[0]
    print(
        "# {} pairings x {} games, seed {}, {} job(s); pasang {}, commit {}, Python {}, {}; load average {:.1f}".format(
            len(chosen),
            len(rl.rule_sets()) * args.games_per_rule_set,
            args.seed,
            args.jobs,
            version(),
            revision,
            platform.python_version(),
            cpu(),
            load,
        ),
        flush=True,
    )
    start = time.perf_counter()
    played = play_pairings(chosen, numbers, args.games_per_rule_set, args.seed, args.jobs)
    rows = []
    for number, (first, second) in zip(numbers, chosen):
        scores, plies, seconds = played[number]
        wins, draws, losses = wdl(scores)
        mean, low, high, kind = score_interval(scores)
        rows.append(
            {
                "pairing": number,
                "first": first,
                "second": second,
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "score": mean,
                "low": low,
                "high": high,
                "interval": kind,
                "plies": plies,
                "seconds": seconds,
                "scores": scores,
            }
        )
    print(table(rows), flush=True)
    seconds = time.perf_counter() - start
    print("# {:.0f} s in all; load average {:.1f}".format(seconds, os.getloadavg()[0]))
    if args.json:
        record = {
            "version": version(),
            "commit": revision,
            "seed": args.seed,
            "seeds": "game i of a pairing draws from numpy default_rng([seed, p, i]), p the row's 'pairing': "
            "its place in the list of all pairings; games alternate colours, the first player South in even games",
            "games_per_rule_set": args.games_per_rule_set,
            "rule_sets": rl.rule_sets(),
            "players": {name: settings(name) for name in sorted(set(itertools.chain(*chosen)))},
            "interval": "95%: pentanomial over the game pairs, or Wilson's over the games where every pair "
            "scored alike (pasang.rl.stats.score_interval)",
            "python": platform.python_version(),
            "numpy": np.__version__,
            "machine": cpu(),
            "load_average": [load, os.getloadavg()[0]],
            "seconds": seconds,
            "rows": rows,
        }
        with open(args.json, "w") as out:
            json.dump(record, out, indent=1)
            out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
