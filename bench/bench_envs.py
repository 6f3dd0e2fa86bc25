"""Speed of the RL environments against the engine's own random play, in one run.

    python bench/bench_envs.py [--seconds S] [--seed N] [--players all] [--sizes 1,64,1024] [--json]

Per game (2 players unless ``--players all``):

* ``engine``: random play on the engine alone (no observation), decisions per second;
* ``aec``: the PettingZoo AEC env (``red_north_v0.env()`` / ``red_rising_v0.env()``,
  wrapped), every agent picking a random legal action from its mask; one step is one
  ``env.step()`` of a live agent, including ``last()`` (observation vector and mask);
* ``gym``: the Gymnasium single-agent env against random bots; a step is one
  ``env.step()`` of the learner, bots' moves included (``decisions/s`` counts them all);
* ``vec N``: ``gymnasium.make_vec(id, num_envs=N)``, learner steps per second summed over
  the N games (time inside ``step()`` only; the random policy over the masks is not
  counted); ``vec N x2``: the same with ``processes=2``, per wall-clock second and per
  CPU second of all three processes.

The single-process rates are per CPU second of this process (``time.process_time``): on a
shared machine they stay comparable when wall-clock time does not.
"""

from __future__ import annotations

import argparse
import json
import time

import gymnasium as gym
import numpy as np

from redtable.core import Rng, make_game
from redtable.envs import RedTableEnv, red_north_v0, red_rising_v0

MODULES = {"red-north": red_north_v0, "red-rising": red_rising_v0}
IDS = {"red-north": "redtable/RedNorth-v0", "red-rising": "redtable/RedRising-v0"}
COUNTS = {"red-rising": (2, 4, 6), "red-north": (2, 3, 4)}


def bench_engine(game: str, players: int, seconds: float, seed: int) -> dict:
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
    return {"env": "engine", "game": game, "players": players, "steps_per_s": steps / cpu, "games_per_s": games / cpu}


def bench_aec(game: str, players: int, seconds: float, seed: int) -> dict:
    env = MODULES[game].env(players=players)
    rng = Rng(seed)
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
        legal = obs["action_mask"].nonzero()[0]
        env.step(int(legal[rng.below(len(legal))]))
        steps += 1
    cpu = time.process_time() - t0
    return {"env": "aec", "game": game, "players": players, "steps_per_s": steps / cpu, "games_per_s": games / cpu}


def bench_gym(game: str, players: int, seconds: float, seed: int) -> dict:
    env = RedTableEnv(game, players=players, opponents="random")
    rng = Rng(seed)
    steps = games = decisions = 0
    t0 = time.process_time()
    env.reset(seed=seed)
    while True:
        legal = env.mask.nonzero()[0]
        _, _, term, trunc, _ = env.step(int(legal[rng.below(len(legal))]))
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
        "steps_per_s": steps / cpu,
        "decisions_per_s": decisions / cpu,
        "games_per_s": games / cpu,
    }


def random_legal(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row of a mask batch."""
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def bench_vec(game: str, players: int, seconds: float, seed: int, n: int, processes: int = 1) -> dict:
    envs = gym.make_vec(IDS[game], num_envs=n, players=players, processes=processes)
    vec = envs.unwrapped
    rng = np.random.default_rng(seed)
    _, infos = envs.reset(seed=seed)
    inside = 0.0
    batches = 0
    w0, c0 = time.perf_counter(), time.process_time()
    workers0 = sum(vec.worker_cpu())
    while time.process_time() - c0 < seconds and time.perf_counter() - w0 < 4 * seconds:
        actions = random_legal(rng, infos["action_mask"])
        t = time.process_time()
        _, _, _, _, infos = envs.step(actions)
        inside += time.process_time() - t
        batches += 1
    wall = time.perf_counter() - w0
    cpu = time.process_time() - c0 + sum(vec.worker_cpu()) - workers0
    envs.close()
    steps = batches * n
    row = {"env": f"vec {n}" + (f" x{processes}" if processes > 1 else ""), "game": game, "players": players}
    if processes > 1:
        row.update(steps_per_s=steps / wall, steps_per_cpu_s=steps / cpu)
    else:
        row.update(steps_per_s=steps / inside)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement (default 2)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", default="2", help="a player count, or 'all' (default 2)")
    ap.add_argument("--sizes", default="1,64,1024", help="batch sizes (default 1,64,1024)")
    ap.add_argument("--processes", type=int, default=2, help="worker processes of the last batch row (default 2)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    rows = []

    def show(r: dict) -> None:
        rows.append(r)
        if args.json:
            return
        extra = ""
        if "decisions_per_s" in r:
            extra = f"  ({r['decisions_per_s']:,.0f} decisions/s)"
        if "steps_per_cpu_s" in r:
            extra = f"  wall-clock; {r['steps_per_cpu_s']:,.0f} per CPU second of all processes"
        print(f"{r['game']:<10} {r['players']}p  {r['env']:<11} {r['steps_per_s']:>10,.0f} steps/s{extra}", flush=True)

    for game in ("red-north", "red-rising"):
        counts = COUNTS[game] if args.players == "all" else (int(args.players),)
        for players in counts:
            for fn in (bench_engine, bench_aec, bench_gym):
                show(fn(game, players, args.seconds, args.seed))
            for n in sizes:
                show(bench_vec(game, players, args.seconds, args.seed, n))
            if args.processes > 1:
                show(bench_vec(game, players, args.seconds, args.seed, max(sizes), args.processes))
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
