"""Red North random-play speed: decisions/s and games/s for 2-4 players, on one core.

    python bench/bench_rednorth.py [--games N] [--seed S] [--profile]

Each game is played through the public protocol only (``decision()`` then ``apply()``),
picking a uniformly random option with the core Rng, as the random bot does. Also times
``clone()`` and ``resample()`` on mid-game states (what a search bot does most).
Targets: at least 50,000 decisions/s and 1,000 two-player games/s.

Rates are per CPU second of this process (``time.process_time``), i.e. on one core, so other
load on the machine does not distort them much; the wall-clock rate is printed alongside.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from redtable.core import Rng, make_game


def play_random(game, seed: int, rng: Rng) -> int:
    state = game.new_initial_state(seed)
    below = rng.below
    while True:
        d = state.decision()
        if d is None:
            return len(state.history)
        opts = d.options
        state.apply(opts[below(len(opts))])


def bench_play(players: int, games: int, seed: int) -> dict:
    game = make_game("red-north", players)
    rng = Rng(seed)
    decisions = 0
    w0, c0 = time.perf_counter(), time.process_time()
    for i in range(games):
        decisions += play_random(game, seed * 100_003 + i, rng)
    cpu = time.process_time() - c0
    wall = time.perf_counter() - w0
    return {
        "players": players,
        "games": games,
        "decisions": decisions,
        "cpu_seconds": cpu,
        "decisions_per_s": decisions / cpu,
        "games_per_s": games / cpu,
        "wall_decisions_per_s": decisions / wall,
    }


def bench_clone(players: int, seed: int, n: int = 20_000) -> tuple[float, float]:
    game = make_game("red-north", players)
    state = game.new_initial_state(seed)
    rng = Rng(seed)
    for _ in range(40):  # somewhere in the middle of the game
        d = state.decision()
        state.apply(d.options[rng.below(len(d.options))])
    t0 = time.process_time()
    for _ in range(n):
        state.clone()
    clone_us = (time.process_time() - t0) / n * 1e6
    p = state.decision().player
    m = n // 10
    t0 = time.process_time()
    for _ in range(m):
        state.resample(p, rng)
    resample_us = (time.process_time() - t0) / m * 1e6
    return clone_us, resample_us


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000, help="games per player count")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true", help="cProfile the 2-player run instead")
    args = ap.parse_args()
    if args.profile:
        cProfile.runctx(
            "bench_play(2, args.games, args.seed)",
            globals(),
            {"args": args, "bench_play": bench_play},
            "/tmp/bench_rednorth.prof",
        )
        pstats.Stats("/tmp/bench_rednorth.prof").sort_stats("tottime").print_stats(20)
        return
    print(f"Red North random play, {args.games} games per player count, seed {args.seed}")
    print(
        f"{'players':>7} {'decisions/s':>12} {'games/s':>9} {'decisions/game':>15} {'clone us':>9} "
        f"{'resample us':>12} {'wall decisions/s':>17}"
    )
    for players in (2, 3, 4):
        r = bench_play(players, args.games, args.seed)
        clone_us, resample_us = bench_clone(players, args.seed)
        print(
            f"{players:>7} {r['decisions_per_s']:>12,.0f} {r['games_per_s']:>9,.0f} "
            f"{r['decisions'] / r['games']:>15.1f} {clone_us:>9.2f} {resample_us:>12.2f} "
            f"{r['wall_decisions_per_s']:>17,.0f}"
        )


if __name__ == "__main__":
    main()
