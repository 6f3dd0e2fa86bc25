"""Train a masked PPO policy on a redtable game for a few CPU minutes, then evaluate it.

    pip install -e '.[rl]' sb3-contrib          # and a CPU build of torch
    python examples/train_masked_ppo.py --game red-north --players 2 --minutes 5 --eval-games 1000

The learner plays one seat (drawn at random each game) of :class:`redtable.envs.RedTableEnv`
against ``--opponent`` bots (default ``random``), with sb3-contrib's ``MaskablePPO``:
the environment's ``action_masks()`` keeps every sampled action legal. Reward: 1 for a
win, 0 otherwise, at the end of the game.

The evaluation plays ``--eval-games`` fresh games (seeds never used in training) with the
trained policy, greedy (most probable legal action) and sampled (as in training), and
prints each win rate with a 95% Wilson interval, next to the same measurement for a
uniformly random policy (the baseline the training must beat).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from redtable.sim.stats import wilson_interval


def evaluate(policy, game: str, players: int, opponent: str, games: int, seed: int) -> dict:
    """Play ``games`` games; ``policy(obs, mask, rng) -> action``. Returns wins and the interval."""
    from redtable.envs import RedTableEnv

    env = RedTableEnv(game, players=players, opponents=opponent, seat=None)
    rng = np.random.default_rng(seed)
    wins = 0.0
    obs, _ = env.reset(seed=seed)
    for _ in range(games):
        while True:
            obs, reward, term, trunc, info = env.step(policy(obs, env.action_masks(), rng))
            if term or trunc:
                wins += reward
                break
        obs, _ = env.reset()
    lo, hi = wilson_interval(wins, games)
    return {"games": games, "wins": wins, "win_rate": wins / games, "ci95": (lo, hi)}


def main() -> None:
    ap = argparse.ArgumentParser(description="Train MaskablePPO on a redtable game and evaluate it.")
    ap.add_argument("--game", default="red-north", choices=["red-north", "red-rising"])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponent", default="random", help="bot spec of the other seats (random, heuristic...)")
    ap.add_argument("--minutes", type=float, default=5.0, help="training time budget (wall clock)")
    ap.add_argument(
        "--timesteps", type=int, default=None, help="stop after this many learner steps instead (whichever comes first)"
    )
    ap.add_argument("--envs", type=int, default=4, help="parallel environments (in one process)")
    ap.add_argument("--eval-games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    ap.add_argument("--save", default=None, help="save the trained model to this path (.zip)")
    args = ap.parse_args()

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    from redtable.envs import RedTableEnv

    torch.set_num_threads(args.threads)

    def make(i: int):
        def thunk():
            return RedTableEnv(args.game, players=args.players, opponents=args.opponent, seat=None)

        return thunk

    venv = DummyVecEnv([make(i) for i in range(args.envs)])
    venv.seed(args.seed)

    class TimeBudget(BaseCallback):
        def __init__(self, seconds: float) -> None:
            super().__init__()
            self.seconds = seconds
            self.t0 = time.perf_counter()
            self.episodes = 0
            self.wins = 0.0
            self.recent: list[float] = []
            self.next_report = 60.0

        def _on_step(self) -> bool:
            for r, done in zip(self.locals["rewards"], self.locals["dones"], strict=True):
                if done:
                    self.episodes += 1
                    self.wins += float(r > 0)
                    self.recent = (self.recent + [float(r > 0)])[-500:]
            elapsed = time.perf_counter() - self.t0
            if elapsed >= self.next_report:
                self.next_report += 60.0
                rate = sum(self.recent) / max(1, len(self.recent))
                print(
                    f"  {elapsed / 60:4.1f} min  {self.num_timesteps:>8} steps  {self.episodes:>6} games  "
                    f"training win rate (last {len(self.recent)}) {rate:.3f}",
                    flush=True,
                )
            return elapsed < self.seconds

    model = MaskablePPO(
        "MlpPolicy",
        venv,
        seed=args.seed,
        verbose=0,
        n_steps=512,
        batch_size=256,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=0.995,
        gae_lambda=0.95,
        ent_coef=0.01,
        clip_range=0.2,
        policy_kwargs={"net_arch": [256, 256]},
        device="cpu",
    )
    print(
        f"training MaskablePPO on {args.game}, {args.players} players vs {args.opponent}, "
        f"{args.minutes:g} min, {args.envs} envs; obs {venv.observation_space.shape[0]}, "
        f"actions {venv.action_space.n}",
        flush=True,
    )
    budget = TimeBudget(args.minutes * 60)
    t0 = time.perf_counter()
    model.learn(total_timesteps=args.timesteps or 10**9, callback=budget)
    train_s = time.perf_counter() - t0
    print(
        f"trained {model.num_timesteps} steps ({budget.episodes} games) in {train_s / 60:.1f} min "
        f"({model.num_timesteps / train_s:.0f} steps/s)"
    )
    if args.save:
        model.save(args.save)

    def greedy(obs, mask, rng):
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    def sampled(obs, mask, rng):
        action, _ = model.predict(obs, action_masks=mask, deterministic=False)
        return int(action)

    def uniform(obs, mask, rng):
        legal = np.flatnonzero(mask)
        return int(legal[rng.integers(len(legal))])

    eval_seed = 10_000_000 + args.seed  # games never seen in training
    t0 = time.perf_counter()
    torch.manual_seed(eval_seed)
    for name, policy in (("greedy", greedy), ("sampled", sampled), ("random", uniform)):
        r = evaluate(policy, args.game, args.players, args.opponent, args.eval_games, eval_seed)
        lo, hi = r["ci95"]
        print(
            f"{name:>8} policy vs {args.opponent}: won {r['wins']:g}/{r['games']} = {r['win_rate']:.3f} "
            f"(95% CI {lo:.3f}-{hi:.3f})",
            flush=True,
        )
    print(f"evaluation took {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
