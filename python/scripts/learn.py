"""An example that learns: a policy trained by self-play on
``pasang.rl.VectorEnv`` with NumPy alone, then measured against random
and against the engine (``pip install "./python[rl]"`` first; not part
of CI; docs/rl.md, "An example that learns"):

    python python/scripts/learn.py [--minutes 30] [--envs 256] [--seed 1]
        [--random-share 0.5] [--curve docs/img/learning-curve.svg] [--json FILE]

The policy is linear per action: the logit of action ``a`` in a position
is ``W[a] . x``, where ``x`` is the position's planes 0-5 (stones, kas,
passages, seen by the side to move) and its phase, side to move and rule
planes, as 0/1 features, and ``a`` is the action's id in the mover's view
(North's ids through :func:`pasang.rl.view_actions`, so one table serves
both sides). A softmax over the legal ids (the mask) gives the policy.

It learns by policy gradient (REINFORCE with a linear value as baseline,
Adam) on ``--envs`` games at once: in a ``--random-share`` of them it
plays one side against a uniformly random player, in the rest both sides
(self-play), sampling its moves; every ``--horizon`` plies the update
weighs each of its moves by its
return, the points it gained less the opponent's discounted return after
it (a zero-sum return, ``G_t = r_t - gamma * G_{t+1}``), where ``r_t`` is
the points the move captured (read from the score planes) over 20, plus
1 for a move that won and -1 for one that lost.

The training clock (``--minutes``) counts training only. At points along
the way (every ``--every`` seconds of training) the script plays the
policy, choosing its most likely legal action, in ``--random-games``
games against a uniformly random player and ``--engine-games`` against
the engine at 1,000 nodes (half as South, half as North), and at the end
draws the learning curve as an SVG (written by hand: no plotting library
needed) and prints the final score against random over ``--final-games``
(200) games, exiting 1 where it is under 70% (the issue's target).
"""

import argparse
import json
import os
import sys
import time

import numpy as np

import pasang
import pasang.rl as rl

A = rl.ACTIONS
VIEW = np.asarray(rl.view_actions())
# Planes used: 0-5 whole (stones, kas, passages), and one point of each
# scalar plane that carries phase, side to move and rules.
SPATIAL = (0, 1, 2, 3, 4, 5)
SCALAR = (9, 10, 11, 13, 14, 15, 16, 17, 18)
FEATURES = len(SPATIAL) * 121 + len(SCALAR) + 1


def features(observations):
    """``(N, FEATURES)`` ``float32`` from ``(N, 19, 11, 11)`` planes."""
    n = observations.shape[0]
    out = np.empty((n, FEATURES), dtype=np.float32)
    out[:, : len(SPATIAL) * 121] = observations[:, SPATIAL].reshape(n, -1)
    out[:, len(SPATIAL) * 121 : -1] = observations[:, SCALAR, 0, 0]
    out[:, -1] = 1.0
    return out


class Policy:
    """Logits ``W[view id] . x`` over the legal ids; a linear value
    ``v . x`` as the baseline."""

    def __init__(self, rng):
        self.W = np.zeros((A, FEATURES), dtype=np.float32)
        self.v = np.zeros(FEATURES, dtype=np.float32)
        self.rng = rng
        self.m = np.zeros_like(self.W)
        self.s = np.zeros_like(self.W)
        self.t = 0

    def legal(self, masks, to_play):
        """The legal (game, view id, id) triples, grouped by game, and
        each game's first index."""
        flat = np.flatnonzero(masks)
        games = flat // A
        ids = flat - games * A
        view = np.where(to_play[games] == 1, VIEW[ids], ids)
        counts = np.bincount(games, minlength=masks.shape[0])
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        return games, view, ids, starts

    def probabilities(self, x, games, view, starts):
        logits = np.empty(len(games), dtype=np.float32)
        step = 8192
        for begin in range(0, len(games), step):
            end = begin + step
            logits[begin:end] = np.einsum("ij,ij->i", self.W[view[begin:end]], x[games[begin:end]])
        top = np.maximum.reduceat(logits, starts)
        e = np.exp(logits - top[games])
        return e / np.add.reduceat(e, starts)[games]

    def act(self, observations, masks, to_play, greedy=False):
        """One action id per game (sampled, or the most likely), with
        what the update needs."""
        x = features(observations)
        games, view, ids, starts = self.legal(masks, to_play)
        p = self.probabilities(x, games, view, starts)
        n = masks.shape[0]
        ends = np.concatenate((starts[1:], [len(games)]))
        if greedy:
            noisy = p + self.rng.random(len(p)) * 1e-6  # ties at random
            chosen = starts + np.array([np.argmax(noisy[s:e]) for s, e in zip(starts, ends)])
        else:
            cumulative = np.cumsum(p, dtype=np.float64)
            before = cumulative[starts] - p[starts]
            chosen = np.searchsorted(cumulative, before + self.rng.random(n), side="right")
            chosen = np.minimum(np.maximum(chosen, starts), ends - 1)
        return ids[chosen], (x, games, view, p, chosen)

    def update(self, batch, advantages, returns, lr, value_lr=1e-3):
        """One policy-gradient step (Adam) on the moves of ``batch``."""
        x = np.concatenate([b[0] for b in batch])
        offset = 0
        games, view, coef = [], [], []
        for (bx, bgames, bview, p, chosen), adv in zip(batch, advantages):
            weight = -p * adv[bgames]
            weight[chosen] += adv
            games.append(bgames + offset)
            view.append(bview)
            coef.append(weight)
            offset += bx.shape[0]
        games = np.concatenate(games)
        view = np.concatenate(view)
        coef = np.concatenate(coef).astype(np.float32)
        order = np.argsort(view, kind="stable")
        view, games, coef = view[order], games[order], coef[order]
        unique, first = np.unique(view, return_index=True)
        gradient = np.zeros((len(unique), FEATURES), dtype=np.float32)
        step = 8192
        for begin in range(0, len(view), step):
            end = min(begin + step, len(view))
            part = coef[begin:end, None] * x[games[begin:end]]
            rows = np.searchsorted(unique, view[begin:end])
            boundaries = np.flatnonzero(np.diff(rows)) + 1
            sums = np.add.reduceat(part, np.concatenate(([0], boundaries)))
            gradient[rows[np.concatenate(([0], boundaries))]] += sums
        gradient /= x.shape[0]
        # Adam on the rows touched (the others' moments stay as they were).
        self.t += 1
        b1, b2 = 0.9, 0.999
        self.m[unique] = b1 * self.m[unique] + (1 - b1) * gradient
        self.s[unique] = b2 * self.s[unique] + (1 - b2) * gradient * gradient
        mhat = self.m[unique] / (1 - b1**self.t)
        shat = self.s[unique] / (1 - b2**self.t)
        self.W[unique] += lr * mhat / (np.sqrt(shat) + 1e-8)
        # The baseline: least squares, plain gradient steps.
        error = returns - x @ self.v
        self.v += value_lr * (x.T @ error) / x.shape[0]

    def value(self, x):
        return x @ self.v


def train_steps(env, policy, state, horizon, gamma, lr, against_random):
    """``horizon`` plies of every game, then one update. In the games
    ``against_random`` marks, the policy plays one side (South in even
    games, North in odd) and a uniformly random player the other; in the
    rest it plays both."""
    obs = state["obs"]
    n = env.num_envs
    learner_side = np.arange(n, dtype=np.uint8) % 2
    batch, rows_taken, rewards, dones = [], [], [], []
    for _ in range(horizon):
        rows = np.flatnonzero(~against_random | (obs["to_play"] == learner_side))
        action = env.sample()
        chosen, record = policy.act(obs["observation"][rows], obs["action_mask"][rows], obs["to_play"][rows])
        action[rows] = chosen
        mover_points = obs["observation"][:, 7, 0, 0].astype(np.float32)
        obs, reward, terminated, _truncated, _ = env.step(action)
        # The mover's new score is the opponent's score plane of the next
        # position; a finished game's row already shows a new game.
        gained = obs["observation"][:, 8, 0, 0].astype(np.float32) - mover_points
        gained = np.where(terminated, 0.0, gained)
        batch.append(record)
        rows_taken.append(rows)
        rewards.append(gained / 20.0 + reward)
        dones.append(terminated.copy())
    state["obs"] = obs
    returns = [None] * horizon
    following = np.zeros(n, dtype=np.float32)
    for t in reversed(range(horizon)):
        following = rewards[t] - gamma * np.where(dones[t], 0.0, following)
        returns[t] = following[rows_taken[t]].astype(np.float32)
    advantages = [g - policy.value(record[0]) for g, record in zip(returns, batch)]
    scale = np.std(np.concatenate(advantages)) + 1e-6
    advantages = [a / scale for a in advantages]
    policy.update(batch, advantages, np.concatenate(returns), lr)
    return sum(len(rows) for rows in rows_taken)


def play(policy, opponent, games, seed, rules):
    """The policy (its most likely action) against ``opponent``
    ("random", or an int: the engine at that many nodes), half the games
    as South: its score (win 1, draw 1/2) and W-D-L."""
    rng = np.random.default_rng(seed)
    boards = [pasang.Board(**rules) for _ in range(games)]
    sides = ["south" if i % 2 == 0 else "north" for i in range(games)]
    searcher = pasang.Searcher(threads=1) if opponent != "random" else None
    live = list(range(games))
    while live:
        mine = [i for i in live if boards[i].turn == sides[i]]
        if mine:
            obs = np.stack([rl.observation(boards[i]) for i in mine])
            masks = np.zeros((len(mine), A), dtype=bool)
            for row, i in enumerate(mine):
                masks[row, boards[i].legal_actions()] = True
            to_play = np.array([0 if boards[i].turn == "south" else 1 for i in mine], dtype=np.uint8)
            actions, _ = policy.act(obs, masks, to_play, greedy=True)
            for i, action in zip(mine, actions):
                boards[i].push_action(int(action))
        for i in live:
            board = boards[i]
            if board.is_game_over() or board.turn == sides[i]:
                continue
            if searcher is None:
                legal = board.legal_actions()
                board.push_action(legal[int(rng.integers(len(legal)))])
            else:
                board.push(searcher.search(board, nodes=opponent)[0])
        live = [i for i in live if not boards[i].is_game_over()]
    wins = draws = 0
    for board, side in zip(boards, sides):
        winner = board.outcome().winner
        wins += winner == side
        draws += winner is None
    return (wins + 0.5 * draws) / games, (wins, draws, games - wins - draws)


def svg(points, path, title):
    """The learning curve as an SVG: score against random and against the
    engine at 1,000 nodes, by training plies."""
    width, height, left, right, top, bottom = 640, 360, 60, 20, 40, 50
    steps = [p["plies"] for p in points]
    top_step = max(steps) or 1
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(step):
        return left + plot_w * step / top_step

    def y(score):
        return top + plot_h * (1 - score)

    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" '
        'font-family="sans-serif" font-size="12">'.format(width, height, width, height),
        '<rect width="100%" height="100%" fill="white"/>',
        '<text x="{}" y="20" text-anchor="middle" font-size="14">{}</text>'.format(width / 2, title),
    ]
    for tick in range(0, 101, 20):
        ty = y(tick / 100)
        out.append('<line x1="{}" y1="{:.1f}" x2="{}" y2="{:.1f}" stroke="#ddd"/>'.format(left, ty, width - right, ty))
        out.append('<text x="{}" y="{:.1f}" text-anchor="end">{}%</text>'.format(left - 6, ty + 4, tick))
    # Ticks 1, 2 or 5 times a power of ten apart, ten at most.
    unit = 10 ** max(0, int(np.floor(np.log10(top_step))) - 1)
    for factor in (1, 2, 5, 10, 20, 50):
        if top_step / (unit * factor) <= 10:
            unit *= factor
            break
    for k in range(0, int(top_step // unit) + 1):
        tx = x(k * unit)
        label = "{:g}M".format(k * unit / 1e6) if unit >= 1e5 else "{:g}".format(k * unit)
        out.append('<line x1="{:.1f}" y1="{}" x2="{:.1f}" y2="{}" stroke="#999"/>'.format(tx, height - bottom, tx, height - bottom + 4))
        out.append('<text x="{:.1f}" y="{}" text-anchor="middle">{}</text>'.format(tx, height - bottom + 18, label))
    out.append(
        '<text x="{}" y="{}" text-anchor="middle">training plies (moves of the policy)</text>'.format(
            left + plot_w / 2, height - 12
        )
    )
    out.append(
        '<text x="14" y="{}" text-anchor="middle" transform="rotate(-90 14 {})">score</text>'.format(
            top + plot_h / 2, top + plot_h / 2
        )
    )
    out.append('<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="black"/>'.format(left, top, left, height - bottom))
    out.append(
        '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="black"/>'.format(left, height - bottom, width - right, height - bottom)
    )
    target = y(0.7)
    out.append(
        '<line x1="{}" y1="{:.1f}" x2="{}" y2="{:.1f}" stroke="#2a7" stroke-dasharray="4 4"/>'.format(
            left, target, width - right, target
        )
    )
    for key, colour, name in (("random", "#c33", "against random"), ("engine", "#36c", "against the engine, 1,000 nodes")):
        coords = " ".join("{:.1f},{:.1f}".format(x(p["plies"]), y(p[key])) for p in points)
        out.append('<polyline points="{}" fill="none" stroke="{}" stroke-width="2"/>'.format(coords, colour))
        for p in points:
            out.append('<circle cx="{:.1f}" cy="{:.1f}" r="3" fill="{}"/>'.format(x(p["plies"]), y(p[key]), colour))
    legend_y = top + 14
    for i, (colour, name) in enumerate(
        (("#c33", "against random"), ("#36c", "against the engine at 1,000 nodes"), ("#2a7", "70%"))
    ):
        ly = legend_y + 16 * i
        dash = ' stroke-dasharray="4 4"' if name == "70%" else ""
        out.append(
            '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="2"{}/>'.format(
                left + 300, ly, left + 320, ly, colour, dash
            )
        )
        out.append('<text x="{}" y="{}">{}</text>'.format(left + 326, ly + 4, name))
    out.append("</svg>")
    with open(path, "w") as handle:
        handle.write("\n".join(out) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="training time (evaluation not counted)")
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--horizon", type=int, default=16)
    parser.add_argument("--gamma", type=float, default=0.5)
    parser.add_argument("--lr", type=float, default=0.002)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--random-share", type=float, default=0.5, help="share of the games played against a random player (the rest self-play)"
    )
    parser.add_argument("--every", type=float, default=120.0, help="seconds of training between measurements")
    parser.add_argument("--random-games", type=int, default=100)
    parser.add_argument("--engine-games", type=int, default=24)
    parser.add_argument("--final-games", type=int, default=200)
    parser.add_argument("--curve", help="write the learning curve here (SVG)")
    parser.add_argument("--json", help="write the measurements here")
    args = parser.parse_args()
    rules = {}
    env = rl.VectorEnv(args.envs, seed=args.seed, copy=True, **rules)
    obs, _ = env.reset()
    policy = Policy(np.random.default_rng(args.seed))
    state = {"obs": obs}
    against_random = np.arange(args.envs) < round(args.random_share * args.envs)
    points = []
    plies = 0
    trained = 0.0
    print(
        "# {} games at once, horizon {}, gamma {}, lr {}, seed {}; {} features x {} ids; load average {:.1f}".format(
            args.envs, args.horizon, args.gamma, args.lr, args.seed, FEATURES, A, os.getloadavg()[0]
        ),
        flush=True,
    )

    def measure():
        score, record = play(policy, "random", args.random_games, args.seed + 1000 + len(points), rules)
        engine, engine_record = play(policy, 1000, args.engine_games, args.seed + 2000 + len(points), rules)
        points.append({"plies": plies, "seconds": trained, "random": score, "engine": engine})
        print(
            "{:>10} plies {:7.1f} s: against random {:.1%} {}, against the engine (1,000 nodes) {:.1%} {}; load {:.1f}".format(
                plies, trained, score, record, engine, engine_record, os.getloadavg()[0]
            ),
            flush=True,
        )

    measure()
    next_measure = args.every
    while trained < args.minutes * 60:
        start = time.perf_counter()
        plies += train_steps(env, policy, state, args.horizon, args.gamma, args.lr, against_random)
        trained += time.perf_counter() - start
        if trained >= next_measure or trained >= args.minutes * 60:
            measure()
            next_measure += args.every
    final, record = play(policy, "random", args.final_games, args.seed + 99, rules)
    print(
        "final: {} plies in {:.0f} s of training; against random {:.1%} of {} games (W-D-L {}-{}-{})".format(
            plies, trained, final, args.final_games, *record
        ),
        flush=True,
    )
    if args.curve:
        svg(points, args.curve, "Learning curve of python/scripts/learn.py (seed {})".format(args.seed))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({"points": points, "final": final, "final_record": record, "args": vars(args)}, handle, indent=1)
    return 0 if final >= 0.7 else 1


if __name__ == "__main__":
    sys.exit(main())
