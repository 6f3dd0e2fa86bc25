"""Train a small policy on the batched environment with numpy alone (no torch).

    python examples/train_batched_pg.py --game red-north --envs 64 --minutes 3

The learner plays one seat (drawn at random each game) of ``--envs`` games at once
(``gymnasium.make_vec("redtable/RedNorth-v0", num_envs=N)``) against random bots. The
policy is a one-hidden-layer network over the observation vector, a softmax over the
legal actions only (the mask from ``infos["action_mask"]``), trained by REINFORCE with a
running-mean baseline and Adam: every decision of a finished game is pushed towards its
action if the game was won (reward 1), away if it was lost. It prints the learning curve
(win rate of the last games played, sampling as in training) as it goes, then the win rate
of the trained policy (greedy) and of a uniformly random policy on fresh games.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import redtable.envs.gym_env  # noqa: F401 - registers the environment ids
from redtable.bots.train_policy import Learner

IDS = {"red-north": "redtable/RedNorth-v0", "red-rising": "redtable/RedRising-v0"}


class Policy(Learner):
    """The policy bot's learner (tanh hidden layer, masked softmax, Adam: redtable.bots.train_policy),
    acting on a batch of observations and stepping on the REINFORCE gradient."""

    def act(self, x: np.ndarray, mask: np.ndarray, rng: np.random.Generator, greedy: bool = False) -> np.ndarray:
        _, pi = self.forward(x, mask)
        if greedy:
            return pi.argmax(axis=1)
        u = rng.random(pi.shape[0])[:, None]
        return np.minimum((pi.cumsum(axis=1) < u).sum(axis=1), pi.shape[1] - 1)

    def update(self, x: np.ndarray, mask: np.ndarray, a: np.ndarray, adv: np.ndarray) -> None:
        self.step(x, mask, a, adv)  # ascends the mean of adv * log pi(a|x)


def evaluate(policy: Policy | None, game: str, players: int, games: int, seed: int, n: int) -> float:
    """Win rate over ``games`` fresh games (greedy policy; None: uniformly random)."""
    envs = gym.make_vec(IDS[game], num_envs=n, players=players, seat=None)
    rng = np.random.default_rng(seed)
    obs, infos = envs.reset(seed=seed)
    wins = done = 0
    while done < games:
        mask = infos["action_mask"]
        if policy is None:
            a = (rng.random(mask.shape) * mask).argmax(axis=1)
        else:
            a = policy.act(obs, mask, rng, greedy=True)
        obs, r, term, trunc, infos = envs.step(a)
        ended = term | trunc
        wins += int((r[ended] > 0).sum())
        done += int(ended.sum())
    envs.close()
    return wins / done


def main() -> None:
    ap = argparse.ArgumentParser(description="REINFORCE on the batched redtable environment (numpy only).")
    ap.add_argument("--game", default="red-north", choices=sorted(IDS))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--envs", type=int, default=64, help="games stepped together")
    ap.add_argument("--minutes", type=float, default=3.0, help="training budget (CPU minutes)")
    ap.add_argument("--games", type=int, default=None, help="stop after this many training games instead")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--batch", type=int, default=2048, help="decisions per update")
    ap.add_argument("--eval-games", type=int, default=1000)
    ap.add_argument("--report", type=int, default=1000, help="print the curve every this many games")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    envs = gym.make_vec(IDS[args.game], num_envs=args.envs, players=args.players, seat=None)
    F, A = envs.single_observation_space.shape[0], envs.single_action_space.n
    rng = np.random.default_rng(args.seed)
    policy = Policy(F, A, args.hidden, rng, args.lr)
    obs, infos = envs.reset(seed=args.seed)
    open_games: list[list[tuple[np.ndarray, np.ndarray, int]]] = [[] for _ in range(args.envs)]
    batch_x, batch_m, batch_a, batch_r = [], [], [], []
    baseline, games, recent = 0.5, 0, []
    t0 = time.process_time()
    next_report = args.report
    print(f"REINFORCE on {args.game}, {args.players} players vs random, {args.envs} games at once")
    print("  games  steps      cpu-s  win rate (last 1000, sampled)")
    steps = 0
    while True:
        mask = infos["action_mask"]
        a = policy.act(obs, mask, rng)
        for i in range(args.envs):
            open_games[i].append((obs[i], mask[i], int(a[i])))
        obs, r, term, trunc, infos = envs.step(a)
        steps += args.envs
        for i in np.flatnonzero(term | trunc):
            won = float(r[i] > 0)
            for x, m, act in open_games[i]:
                batch_x.append(x)
                batch_m.append(m)
                batch_a.append(act)
                batch_r.append(won)
            open_games[i] = []
            games += 1
            recent = (recent + [won])[-1000:]
            baseline = 0.99 * baseline + 0.01 * won
        if len(batch_a) >= args.batch:
            adv = np.array(batch_r, np.float32) - baseline
            policy.update(np.array(batch_x), np.array(batch_m), np.array(batch_a), adv)
            batch_x, batch_m, batch_a, batch_r = [], [], [], []
        if games >= next_report:
            next_report += args.report
            cpu = time.process_time() - t0
            print(f"{games:>7} {steps:>7} {cpu:>9.0f}  {sum(recent) / len(recent):.3f}", flush=True)
        if (args.games and games >= args.games) or time.process_time() - t0 > args.minutes * 60:
            break
    envs.close()
    print(f"trained on {games} games ({steps} decisions) in {time.process_time() - t0:.0f} CPU s")
    eval_seed = 10_000_000 + args.seed
    trained = evaluate(policy, args.game, args.players, args.eval_games, eval_seed, args.envs)
    uniform = evaluate(None, args.game, args.players, args.eval_games, eval_seed, args.envs)
    print(f"greedy trained policy wins {trained:.3f} of {args.eval_games} fresh games; random policy {uniform:.3f}")


if __name__ == "__main__":
    main()
