"""Speed of the RL environments: environment steps per second, on one core.

    python bench/bench_envs.py [--seconds S] [--seed N] [--json]

For each game and player count:

* ``aec``: the PettingZoo AEC env (``red_rising_v0`` / ``red_north_v0``, wrapped as by
  ``env()``), every agent picking a uniformly random action from its mask; one step is
  one ``env.step()`` of a live agent, which includes ``last()`` (the observation vector
  and the mask).
* ``gym``: the Gymnasium single-agent env (:class:`redtable.envs.RedTableEnv`) against
  random bots; one step is one ``env.step()`` of the learner (the bots' moves in between
  are included in its time), and ``decisions/s`` counts every decision of the game.
* ``raw``: random play on the engine alone (no observation), for reference.

Rates are per CPU second of this process (``time.process_time``).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from redtable.core import Rng, make_game
from redtable.envs import RedTableEnv, red_north_v0, red_rising_v0

MODULES = {"red-rising": red_rising_v0, "red-north": red_north_v0}
COUNTS = {"red-rising": (2, 4, 6), "red-north": (2, 3, 4)}


def bench_aec(game: str, players: int, seconds: float, seed: int) -> dict:
    env = MODULES[game].env(players=players)
    rng = np.random.default_rng(seed)
    steps = games = 0
    t0 = time.process_time()
    env.reset(seed=seed)
    while True:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            if not env.agents:
                games += 1
                if time.process_time() - t0 >= seconds:
                    break
                env.reset()
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    cpu = time.process_time() - t0
    return {
        "env": "aec",
        "game": game,
        "players": players,
        "steps": steps,
        "games": games,
        "steps_per_s": steps / cpu,
        "games_per_s": games / cpu,
    }


def bench_gym(game: str, players: int, seconds: float, seed: int) -> dict:
    env = RedTableEnv(game, players=players, opponents="random")
    rng = np.random.default_rng(seed)
    steps = games = decisions = 0
    t0 = time.process_time()
    env.reset(seed=seed)
    while True:
        legal = np.flatnonzero(env.action_masks())
        _, _, term, trunc, _ = env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
        if term or trunc:
            games += 1
            decisions += len(env.game_state.history)
            if time.process_time() - t0 >= seconds:
                break
            env.reset()
    cpu = time.process_time() - t0
    return {
        "env": "gym",
        "game": game,
        "players": players,
        "steps": steps,
        "games": games,
        "steps_per_s": steps / cpu,
        "decisions_per_s": decisions / cpu,
        "games_per_s": games / cpu,
    }


def bench_raw(game: str, players: int, seconds: float, seed: int) -> dict:
    g = make_game(game, players)
    rng = Rng(seed)
    steps = games = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        st = g.new_initial_state(seed + games)
        while (d := st.decision()) is not None:
            st.apply(d.options[rng.below(len(d.options))])
            steps += 1
        games += 1
    cpu = time.process_time() - t0
    return {
        "env": "raw",
        "game": game,
        "players": players,
        "steps": steps,
        "games": games,
        "steps_per_s": steps / cpu,
        "games_per_s": games / cpu,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement (default 2)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    args = ap.parse_args()
    rows = []
    for game in ("red-north", "red-rising"):
        for players in COUNTS[game]:
            for fn in (bench_raw, bench_aec, bench_gym):
                rows.append(fn(game, players, args.seconds, args.seed))
                if not args.json:
                    r = rows[-1]
                    extra = f"  ({r['decisions_per_s']:,.0f} decisions/s)" if "decisions_per_s" in r else ""
                    print(
                        f"{game:<10} {players}p  {r['env']:<4} {r['steps_per_s']:>9,.0f} steps/s  "
                        f"{r['games_per_s']:>7,.1f} games/s{extra}",
                        flush=True,
                    )
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
