"""The game's statistics, as OpenSpiel's and pgx's game pages give them
(docs/rl.md, "Statistics"), seeded:

    python python/scripts/game_stats.py [--seed 1] [--random 100] [--greedy 20]
        [--engine1000 20] [--engine10000 4] [--json FILE]

Per rule set and overall: game length (plies; mean and quantiles), legal
moves a position (mean, maximum, distribution), the first player's
score (South moves first; a win 1, a draw 1/2) under random, greedy and
engine self-play at 1,000 and 10,000 nodes, how often each end happens
(points, suntuk, draw), and estimates of the state-space and game-tree
complexity with their method. The numbers after the players are games a
rule set. Random and greedy games start at the pattern's start; the
engine plays itself (``pasang.Searcher(threads=1)``, table emptied before
each move: deterministic) from 4 random plies, as ``pasang datagen``
does, or every game of a rule set would be the same one.
"""

import argparse
import json
import math
import statistics
import sys
import time

import numpy as np

import pasang
import pasang.rl as rl


def random_move(board, rng):
    legal = board.legal_actions()
    return legal[int(rng.integers(len(legal)))]


def greedy_move(board, rng):
    """The legal move gaining the mover the most points at once, ties at
    random (baselines.py's greedy)."""
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
    return best[int(rng.integers(len(best)))]


def play(rules, player, rng, searcher=None, nodes=0):
    """One game: (plies, legal moves at each position, outcome)."""
    board = pasang.Board(**rules)
    counts = []
    opening = 4 if searcher is not None else 0
    while not board.is_game_over():
        legal = board.legal_actions()
        counts.append(len(legal))
        if len(board.move_stack) < opening or player == "random":
            board.push_action(legal[int(rng.integers(len(legal)))])
        elif player == "greedy":
            board.push_action(greedy_move(board, rng))
        else:
            board.push(searcher.search(board, nodes=nodes)[0])
    return len(board.move_stack), counts, board.outcome()


def summary(lengths, counts, scores, ends):
    lengths = np.array(lengths)
    counts = np.array(counts)
    return {
        "games": len(lengths),
        "length_mean": float(lengths.mean()),
        "length_quantiles": {q: float(np.quantile(lengths, q / 100)) for q in (5, 25, 50, 75, 95)},
        "length_min": int(lengths.min()),
        "length_max": int(lengths.max()),
        "legal_mean": float(counts.mean()),
        "legal_max": int(counts.max()),
        "legal_log10_mean": float(np.log10(counts).mean()),
        "first_player_score": float(np.mean(scores)),
        "ends": {end: ends.count(end) / len(ends) for end in sorted(set(ends))},
    }


def state_space():
    """log10 of an upper bound on the positions: stones on the 120 points
    (the centre holds none at the start, the hole), at most 60 of each
    colour, times each ka's square (121 or not yet, both sides), the side
    to move, each side's points (0 to 180: at most 181 values each) and
    passages (11 files or none, each side)."""
    total = 0
    for white in range(61):
        for black in range(61):
            total += math.comb(120, white) * math.comb(120 - white, black)
    return math.log10(total) + 2 * math.log10(122) + math.log10(2) + 2 * math.log10(181) + 2 * math.log10(12)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--random", type=int, default=100, help="random games a rule set")
    parser.add_argument("--greedy", type=int, default=20, help="greedy games a rule set")
    parser.add_argument("--engine1000", type=int, default=20, help="engine games a rule set at 1,000 nodes")
    parser.add_argument("--engine10000", type=int, default=4, help="engine games a rule set at 10,000 nodes")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    searcher = pasang.Searcher(threads=1)
    players = [("random", args.random, 0), ("greedy", args.greedy, 0), ("engine1000", args.engine1000, 1000),
               ("engine10000", args.engine10000, 10000)]
    results = {"seed": args.seed, "players": {}, "rule_sets": {}}
    start = time.perf_counter()
    histogram = {}
    for number, (player, games, nodes) in enumerate(players):
        pooled = ([], [], [], [])
        began = time.perf_counter()
        for index, rules in enumerate(rl.rule_sets()):
            rng = np.random.default_rng([args.seed, number, index])
            lengths, counts, scores, ends = [], [], [], []
            for _ in range(games):
                plies, legal, outcome = play(rules, player, rng, searcher if nodes else None, nodes)
                lengths.append(plies)
                counts.extend(legal)
                scores.append(0.5 if outcome.winner is None else float(outcome.winner == "south"))
                ends.append("draw" if outcome.winner is None else outcome.termination)
            if games:
                key = "{pattern} {ka_entry} {second_column} {centre}".format(**rules)
                results["rule_sets"].setdefault(key, {})[player] = summary(lengths, counts, scores, ends)
                for pool, part in zip(pooled, (lengths, counts, scores, ends)):
                    pool.extend(part)
        if games:
            results["players"][player] = summary(*pooled)
            results["players"][player]["seconds"] = time.perf_counter() - began
            if player == "random":
                histogram = {str(k): int(v) for k, v in zip(*np.unique(pooled[1], return_counts=True))}
    results["legal_histogram_random"] = histogram
    results["state_space_log10"] = state_space()
    for player, figures in results["players"].items():
        figures["game_tree_log10"] = figures["length_mean"] * figures["legal_log10_mean"]
    results["seconds"] = time.perf_counter() - start
    print("# seed {}; games a rule set: random {}, greedy {}, engine1000 {}, engine10000 {}; {:.0f} s".format(
        args.seed, args.random, args.greedy, args.engine1000, args.engine10000, results["seconds"]))
    print("| play | games | plies: mean [5%, 50%, 95%] (min-max) | legal moves: mean, max | first player's score | ends | game tree, log10 |")
    print("|---|---|---|---|---|---|---|")
    for player, f in results["players"].items():
        q = f["length_quantiles"]
        ends = ", ".join("{} {:.1%}".format(end, share) for end, share in f["ends"].items())
        print("| {} | {} | {:.1f} [{:.0f}, {:.0f}, {:.0f}] ({}-{}) | {:.1f}, {} | {:.1%} | {} | {:.0f} |".format(
            player, f["games"], f["length_mean"], q[5], q[50], q[95], f["length_min"], f["length_max"],
            f["legal_mean"], f["legal_max"], f["first_player_score"], ends, f["game_tree_log10"]))
    print("\n| rule set | random: plies, legal mean | random: first player | engine1000: plies, first player |")
    print("|---|---|---|---|")
    for key, by_player in results["rule_sets"].items():
        r, e = by_player.get("random"), by_player.get("engine1000")
        print("| {} | {:.1f}, {:.1f} | {:.1%} | {} |".format(
            key, r["length_mean"], r["legal_mean"], r["first_player_score"],
            "{:.1f}, {:.1%}".format(e["length_mean"], e["first_player_score"]) if e else "-"))
    print("\nstate space <= 10^{:.1f}".format(results["state_space_log10"]))
    print("legal moves a position under random play (count: positions): {}".format(histogram))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=1)
            out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
