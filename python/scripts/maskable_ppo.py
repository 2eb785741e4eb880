"""sb3-contrib's MaskablePPO on the Gymnasium environment pasang/Pasang-v0
against the random opponent, with its learning curve.

The environment's ``action_masks()`` gives the legal ids, so the policy
only ever samples legal moves. The network is a small convolutional one
over the 19 planes (as ``float32``, the score planes divided by 180, the
stones-left plane by 120, as OpenSpiel's observer gives them), shared by the policy's 7,291 logits
and the value. The agent plays either colour, drawn each game.

Not part of CI. After ``pip install "./python[ppo]"`` (torch, sb3-contrib)::

    python python/scripts/maskable_ppo.py --minutes 5 --curve /tmp/ppo.json

Every ``--eval-every`` steps (and at the start and the end) the policy,
taking its most probable legal move, plays ``--eval-games`` games against
the random player, half with each colour, and the score prints with its
95% Wilson interval, beside the mean reward of the last 100 training
games. ``--curve FILE`` writes the points as JSON.
"""

import argparse
import json
import time

import gymnasium
import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from pasang.rl.gym_env import PasangEnv
from pasang.rl.stats import wilson_interval

SCALE = np.ones(19, np.float32)
SCALE[7:9] = 1 / 180  # the scores
SCALE[12] = 1 / 120  # the stones left


class Scaled(gymnasium.ObservationWrapper):
    """The planes as ``float32`` in [0, 1]. Left as ``uint8`` in [0, 255],
    stable-baselines3 takes them for an image: it divides them by 255 and,
    with 11 the smallest side, transposes them as channels-last."""

    def __init__(self, env):
        super().__init__(env)
        self.observation_space = spaces.Box(0.0, 1.0, env.observation_space.shape, dtype=np.float32)

    def observation(self, observation):
        return observation * SCALE[:, None, None]


class Planes(BaseFeaturesExtractor):
    """Two 3x3 convolutions over the planes, then one dense layer."""

    def __init__(self, observation_space, features_dim=256, channels=32):
        super().__init__(observation_space, features_dim)
        planes, height, width = observation_space.shape
        self.net = nn.Sequential(
            nn.Conv2d(planes, channels, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1),
            nn.ReLU(),
            nn.Flatten(),
            nn.Linear(channels * height * width, features_dim),
            nn.ReLU(),
        )

    def forward(self, observations):
        return self.net(observations)


def interval(wins, draws, games):
    """Score and its 95% Wilson interval (draws as half a win)."""
    return wilson_interval((wins + draws / 2) / games, games)


def evaluate(model, games, seed):
    """``games`` games against the random opponent, half with each colour,
    the policy taking its most probable legal move: (wins, draws, losses,
    illegal moves played: 0 while the mask is honoured). The games run side
    by side, the policy choosing for all of them in one batch a round."""
    envs = [Scaled(PasangEnv(opponent="random", agent=("south", "north")[game % 2])) for game in range(games)]
    observations = [env.reset(seed=seed + game)[0] for game, env in enumerate(envs)]
    tally, live = [0, 0, 0, 0], list(range(games))
    while live:
        masks = np.stack([envs[game].unwrapped.action_masks() for game in live])
        actions, _ = model.predict(np.stack([observations[game] for game in live]), action_masks=masks, deterministic=True)
        going = []
        for game, action in zip(live, actions):
            observations[game], reward, done, _, info = envs[game].step(int(action))
            tally[3] += bool(info.get("illegal_action"))
            if done:
                tally[0 if reward > 0 else 1 if reward == 0 else 2] += 1
            else:
                going.append(game)
        live = going
    return tuple(tally)


class Curve(BaseCallback):
    """Evaluates every ``every`` steps and stops after ``seconds``."""

    def __init__(self, every, games, seconds, steps, seed):
        super().__init__()
        self.every, self.games, self.seconds, self.steps, self.seed = every, games, seconds, steps, seed
        self.points, self.next, self.start, self.evaluating = [], every, time.perf_counter(), 0.0

    def point(self):
        t0 = time.perf_counter()
        w, d, l, illegal = evaluate(self.model, self.games, self.seed)
        self.evaluating += time.perf_counter() - t0
        score, low, high = interval(w, d, self.games)
        episodes = [info["r"] for info in self.model.ep_info_buffer] if self.model.ep_info_buffer else []
        learning = time.perf_counter() - self.start - self.evaluating
        point = {
            "steps": int(self.num_timesteps),
            "learning_seconds": round(learning, 1),
            "wins": w,
            "draws": d,
            "losses": l,
            "illegal": illegal,
            "score": round(score, 4),
            "low": round(low, 4),
            "high": round(high, 4),
            "training_mean_reward": round(float(np.mean(episodes)), 3) if episodes else None,
        }
        self.points.append(point)
        print(
            "{:>8,} steps ({:.0f} s learning, {:.0f} steps/s): vs random {}-{}-{}, {:.1%} [{:.1%}, {:.1%}]; "
            "training games' mean reward {}".format(
                point["steps"],
                learning,
                point["steps"] / max(learning, 1e-9),
                w,
                d,
                l,
                score,
                low,
                high,
                point["training_mean_reward"],
            ),
            flush=True,
        )

    def _on_training_start(self):
        self.point()

    def _on_step(self):
        if self.num_timesteps >= self.next:
            self.next += self.every
            self.point()
        if self.steps is not None and self.num_timesteps >= self.steps:
            return False
        return time.perf_counter() - self.start - self.evaluating < self.seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=5, help="learning time (evaluation not counted)")
    parser.add_argument("--steps", type=int, default=None, help="stop after this many environment steps, too")
    parser.add_argument("--envs", type=int, default=8, help="environments side by side")
    parser.add_argument("--n-steps", type=int, default=256, help="steps each environment plays a rollout")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--learning-rate", type=float, default=3e-4)
    parser.add_argument("--eval-every", type=int, default=10_000)
    parser.add_argument("--eval-games", type=int, default=200)
    # One: with two, on the shared two-core machine, PPO ran 11 steps/s
    # against 139-164 with one (the threads wait on each other).
    parser.add_argument("--threads", type=int, default=1, help="torch's threads")
    parser.add_argument("--curve", default=None, help="write the points as JSON to this file")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.minutes <= 0 or args.envs <= 0 or args.eval_games <= 0:
        parser.error("--minutes, --envs and --eval-games must be positive")

    torch.set_num_threads(args.threads)
    env = make_vec_env(
        PasangEnv,
        n_envs=args.envs,
        seed=args.seed,
        env_kwargs={"opponent": "random", "agent": "either"},
        wrapper_class=Scaled,
    )
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=args.batch,
        n_epochs=args.epochs,
        learning_rate=args.learning_rate,
        gamma=0.99,
        ent_coef=0.01,
        seed=args.seed,
        device="cpu",
        policy_kwargs={"features_extractor_class": Planes, "net_arch": []},
        verbose=0,
    )
    curve = Curve(args.eval_every, args.eval_games, args.minutes * 60, args.steps, 10_000 * args.seed)
    model.learn(total_timesteps=10**12, callback=curve)
    if curve.points[-1]["steps"] != curve.num_timesteps:
        curve.point()
    if args.curve:
        with open(args.curve, "w") as handle:
            json.dump({"settings": vars(args), "torch": torch.__version__, "points": curve.points}, handle, indent=1)


if __name__ == "__main__":
    main()
