"""The ``policy`` preset's strength: its win rate against other bots, with a 95% interval.

    python bench/bench_policy.py [--games 40] [--players 2] [--titles red-north,red-rising]
                                 [--opponents heuristic,ismcts:30it,expert:30it] [--workers 1] [--json]

Game ``i`` against an opponent is dealt from seed ``i`` with the policy on seat
``i % players`` (so each side deals and leads equally often) and the opponents seeded by
the game: the same arguments give the same table. The interval is Wilson's score interval
for a proportion. ``ms/move`` is each side's mean CPU time per decision (per CPU second of
the process that played the game): the policy is one forward pass; the search bots get an
iteration budget (``ismcts:30it``, ``expert:30it`` by default, a few milliseconds a move),
the smallest at which they still search, as "equal time" is not possible at the policy's
speed (well under a millisecond).
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor

from redtable.bots import make_bot
from redtable.core import make_game
from redtable.sim.stats import wilson_interval


def one_game(job: tuple[str, int, str, int]) -> tuple[float, float, int, float, int]:
    """(policy's win share, its CPU seconds, its decisions, the opponents' CPU seconds, their decisions)."""
    game, players, opponent, i = job
    st = make_game(game, players).new_initial_state(i)
    me = i % players
    bots = [make_bot("policy" if s == me else opponent, seed=1000 * i + s, game=game) for s in range(players)]
    cpu = [0.0, 0.0]
    moves = [0, 0]
    while (d := st.decision()) is not None:
        side = 0 if d.player == me else 1
        t = time.process_time()
        move = bots[d.player].choose(st)
        cpu[side] += time.process_time() - t
        moves[side] += 1
        st.apply(move)
    winners = st.winners()
    share = 1.0 / len(winners) if me in winners else 0.0
    return share, cpu[0], moves[0], cpu[1], moves[1]


def bench(game: str, players: int, opponent: str, games: int, workers: int) -> dict:
    jobs = [(game, players, opponent, i) for i in range(games)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(one_game, jobs))
    else:
        results = [one_game(j) for j in jobs]
    wins = sum(r[0] for r in results)
    lo, hi = wilson_interval(wins, games)
    return {
        "game": game,
        "players": players,
        "opponent": opponent,
        "games": games,
        "wins": wins,
        "win_rate": wins / games,
        "ci95": [lo, hi],
        "policy_ms_per_move": 1000 * sum(r[1] for r in results) / max(1, sum(r[2] for r in results)),
        "opponent_ms_per_move": 1000 * sum(r[3] for r in results) / max(1, sum(r[4] for r in results)),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games per title and opponent")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--titles", default="red-north,red-rising")
    ap.add_argument("--opponents", default="random,heuristic,ismcts:30it,expert:30it")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = []
    if not args.json:
        head = f"{'title':<11} {'opponent':<13} {'games':>5}  {'policy wins':>11}  {'95% interval':>13}"
        print(head + "  ms/move (policy, opponent)")
    for game in args.titles.split(","):
        for opponent in args.opponents.split(","):
            r = bench(game, args.players, opponent, args.games, args.workers)
            rows.append(r)
            if not args.json:
                lo, hi = r["ci95"]
                print(
                    f"{game:<11} {opponent:<13} {r['games']:>5}  {r['win_rate']:>11.1%}  {lo:>6.0%} - {hi:<4.0%}"
                    f"  {r['policy_ms_per_move']:.2f}, {r['opponent_ms_per_move']:.1f}",
                    flush=True,
                )
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
