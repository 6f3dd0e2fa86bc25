"""Red Rising random-play speed: decisions/s, games/s (2 and 4 players) and clone time.

Run: python bench/bench_redrising.py [--games N]
Targets (one core): >= 50,000 decisions/s; 2-player games >= 230 games/s (10x a public
Python implementation's 12-23 games/s); a clone well under a millisecond.
"""

from __future__ import annotations

import argparse
import time

from redtable.core import Rng
from redtable.redrising.game import RedRising


def play_random(game, seed: int) -> int:
    st = game.new_initial_state(seed)
    rng = Rng(seed ^ 0x5EED)
    n = 0
    while True:
        d = st.dec
        if d is None:
            return n
        st.apply(d.options[rng.below(len(d.options))])
        n += 1


def bench_games(players: int, games: int) -> dict:
    game = RedRising(players)
    t0, c0 = time.perf_counter(), time.process_time()
    decisions = sum(play_random(game, s) for s in range(games))
    dt, ct = time.perf_counter() - t0, time.process_time() - c0
    # CPU time of this process: the rate of one core even when the machine is busy.
    return {
        "players": players,
        "games": games,
        "decisions": decisions,
        "decisions_per_second": decisions / ct,
        "games_per_second": games / ct,
        "wall_decisions_per_second": decisions / dt,
    }


def bench_clone(samples: int = 2000) -> float:
    game = RedRising(4)
    st = game.new_initial_state(1)
    rng = Rng(2)
    for _ in range(60):  # a mid-game position
        st.apply(st.legal_actions()[rng.below(len(st.legal_actions()))])
    t0 = time.perf_counter()
    for _ in range(samples):
        st.clone()
    return (time.perf_counter() - t0) / samples


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=400)
    args = ap.parse_args()
    for players in (2, 4):
        r = bench_games(players, args.games)
        print(
            f"red-rising {players}p: {r['decisions_per_second']:,.0f} decisions/s, "
            f"{r['games_per_second']:,.1f} games/s per CPU second "
            f"({r['games']} games, {r['decisions']} decisions; wall clock {r['wall_decisions_per_second']:,.0f}/s)"
        )
    print(f"red-rising clone (4p mid-game): {bench_clone() * 1e6:,.1f} µs")


if __name__ == "__main__":
    main()
