"""Bot speed and strength.

Speed (default)::

    python bench/bench_bots.py                 # ISMCTS iterations/s (4p Red Rising and 2p
                                               # Red North mid-game), heuristic decisions/s
    python bench/bench_bots.py --seconds 5     # longer measurement per position
    python bench/bench_bots.py --profile       # cProfile of the 4p Red Rising search

Target: >= 1,000 ISMCTS iterations/s per core in a 4-player Red Rising mid-game.

Strength (``--strength``): N games of one bot spec against another, seats rotated
(game i puts bot A in seat i mod players, every other seat is bot B), seeds 0..N-1. It
prints bot A's win rate (win share: a shared victory counts 1/k) with a 95% Wilson
interval, the parity rate (1/players), and the mean scores of A and of the B seats.
Search budgets are given in iterations so that a result does not depend on how busy the
machine was: on this machine's cores one second is about 1,000 iterations in 4-player Red
Rising and about 7,000 in 2-player Red North (the speed table below).

The strength table (400 games each; the README shows it)::

    python bench/bench_bots.py --strength --game red-north --players 2 --a heuristic --b random --games 400
    python bench/bench_bots.py --strength --game red-rising --players 4 --a heuristic --b random --games 400
    redtable tournament red-north --players 2 --bots ismcts:1000it,heuristic --games 400 --seed 1 --workers 1 --json
    python bench/bench_bots.py --strength --game red-rising --players 4 --a ismcts:250it --b heuristic \\
        --games 400 --workers 2

====================  ================================  =====  =====  ============  ============  ===========
game                  A vs B                            games  A win  95% Wilson    parity        mean A / B
====================  ================================  =====  =====  ============  ============  ===========
red-north 2p          heuristic vs random                 400  0.868  0.831-0.897   0.500         11.4 / 5.6
red-rising 4p         heuristic vs 3 random               400  0.797  0.755-0.834   0.250         252.5 / 172.8
red-north 2p          ismcts:1000it vs heuristic          400  0.843  0.804-0.875   0.500         10.1 / 7.9
red-rising 4p         ismcts:250it vs 3 heuristic         400  0.583  0.534-0.630   0.250         282.9 / 240.2
====================  ================================  =====  =====  ============  ============  ===========

ismcts:1000it took 0.14 s per Red North decision, ismcts:250it about 0.23 s per Red
Rising decision: the 400-game rows are at a quarter or less of the one-second budget.
At the full one second per decision (``ismcts:7000it`` in Red North, ``ismcts:1000it`` in
Red Rising) the samples are smaller (a game of 4p Red Rising then takes a minute of
search per ISMCTS seat)::

    python bench/bench_bots.py --strength --game red-north --players 2 --a ismcts:7000it --b heuristic --games 70
    python bench/bench_bots.py --strength --game red-north --players 2 --a ismcts:7000it --b heuristic \\
        --games 40 --start 70
    python bench/bench_bots.py --strength --game red-rising --players 4 --a ismcts:1000it --b heuristic --games 36
    python bench/bench_bots.py --strength --game red-rising --players 4 --a ismcts:1000it --b heuristic \\
        --games 16 --start 36

(each pair of runs is one sample of consecutive seeds, pooled below)

====================  ================================  =====  =====  ============  ============  ===========
game                  A vs B                            games  A win  95% Wilson    parity        mean A / B
====================  ================================  =====  =====  ============  ============  ===========
red-north 2p          ismcts:7000it vs heuristic          110  0.855  0.777-0.908   0.500         10.3 / 7.9
red-rising 4p         ismcts:1000it vs 3 heuristic         52  0.673  0.538-0.785   0.250         282.6 / 231.8
====================  ================================  =====  =====  ============  ============  ===========

Earlier exploration of the playout policies (time budgets, fewer games, 2 cores shared
with other jobs, before the engine speed-ups below):

====================  ==========================================  =====  =====  ============  ==========
game                  A vs B                                      games  A win  95% Wilson    mean A / B
====================  ==========================================  =====  =====  ============  ==========
red-north 2p          ismcts:1s vs heuristic                         40  0.875  0.739-0.945   10.3 / 7.5
red-north 2p          ismcts:0.1s vs heuristic (random playout)      80  0.738  0.632-0.821    9.4 / 8.2
red-north 2p          ismcts:0.1s:playout=cutoff vs heuristic        80  0.600  0.490-0.700    9.3 / 7.8
red-rising 4p         ismcts:1s vs heuristic                         30  0.567  0.392-0.726   285 / 246
red-rising 4p         ismcts:0.5s vs heuristic (random playout)      60  0.717  0.592-0.815   286 / 240
red-rising 4p         ismcts:0.5s:horizon=32 vs heuristic            60  0.567  0.441-0.684   279 / 237
red-rising 4p         ismcts:0.5s:playout=greedy vs heuristic        60  0.392  0.278-0.518   275 / 247
red-rising 4p         ismcts:0.2s:playout=random vs heuristic        40  0.525  0.375-0.671   268 / 244
red-rising 4p         ismcts:0.2s:playout=greedy vs heuristic        40  0.450  0.307-0.602   278 / 243
red-rising 4p         ismcts:0.2s:playout=cutoff vs heuristic        40  0.275  0.161-0.428   253 / 245
====================  ==========================================  =====  =====  ============  ==========

Speed (2 cores, other jobs running; the engine speed-ups of the search copies measured
against the code before them, same conditions, ``python bench/bench_bots.py``):

==========================================  ==========  ==========
measurement                                 before      after
==========================================  ==========  ==========
ismcts red-rising 4p mid-game, random       593 it/s    1,078 it/s
ismcts red-rising 4p mid-game, greedy       3,188       3,855
ismcts red-rising 4p mid-game, cutoff       5,699       6,996
ismcts red-north 2p mid-game, random        7,155       7,397
heuristic red-rising 4p (decisions/s)       395         439
==========================================  ==========  ==========

Load-independent: ``valgrind --tool=callgrind`` counts 14.5 M instructions per 4p Red
Rising iteration before, 7.0 M after (300 iterations on the three bench positions). A
random playout is ~170 engine decisions (~4 µs each) plus the exact final scoring
(~150 µs, the Gray/Orange search); the determinization (``resample``) ~30 µs. Search
copies (``State.for_search``) keep no event log; the behaviour is unchanged
(``bench/fingerprint_engine.py``: same games, scores, logs, resamples and ISMCTS trees).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from redtable.bots import make_bot  # noqa: E402
from redtable.bots.heuristic import HeuristicBot  # noqa: E402
from redtable.bots.ismcts import ISMCTSBot  # noqa: E402
from redtable.core import (  # noqa: E402
    Rng,
    make_game,
    title,  # noqa: E402
)
from redtable.sim.stats import wilson_interval  # noqa: E402


def midgame(game_name: str, players: int, seed: int = 1, steps: int | None = None):
    """A mid-game position reached by random play, with the next decision a real choice."""
    st = make_game(game_name, players).new_initial_state(seed)
    rng = Rng(seed)
    steps = steps if steps is not None else (90 if game_name == "red-rising" else 18)
    for _ in range(steps):
        d = st.decision()
        st.apply(d.options[rng.below(len(d.options))])
    while len(st.decision().options) < 2 or (game_name == "red-rising" and st.decision().kind != "action"):
        d = st.decision()
        st.apply(d.options[rng.below(len(d.options))])
    return st


def bench_ismcts(game_name: str, players: int, seconds: float, positions: int = 3, playout: str | None = None) -> float:
    total_it = 0
    total_t = 0.0
    for s in range(positions):
        st = midgame(game_name, players, seed=s + 1)
        bot = ISMCTSBot(seed=s, seconds=seconds / positions, playout=playout)
        t0 = time.perf_counter()
        bot.choose(st)
        total_t += time.perf_counter() - t0
        total_it += bot.last_iterations
    return total_it / total_t


def bench_heuristic(game_name: str, players: int, games: int = 2) -> float:
    n = 0
    t = 0.0
    for g in range(games):
        st = make_game(game_name, players).new_initial_state(100 + g)
        bots = [HeuristicBot(seed=g * 10 + i) for i in range(players)]
        while True:
            d = st.decision()
            if d is None:
                break
            t0 = time.perf_counter()
            a = bots[d.player].choose(st)
            t += time.perf_counter() - t0
            n += 1
            st.apply(a)
    return n / t


def speed(args) -> None:
    for game_name, players in (("red-rising", 4), ("red-north", 2)):
        for playout in ("random", "greedy", "cutoff"):
            ips = bench_ismcts(game_name, players, args.seconds, playout=playout)
            default = " (default)" if playout == title(game_name).tuning("ismcts")["playout"] else ""
            print(f"ismcts {game_name} {players}p mid-game, playout={playout}{default}: {ips:,.0f} iterations/s")
    for game_name, players in (("red-rising", 4), ("red-north", 2)):
        dps = bench_heuristic(game_name, players)
        print(f"heuristic {game_name} {players}p: {dps:,.0f} decisions/s (whole games, all decisions)")


def profile(args) -> None:
    st = midgame("red-rising", 4)
    bot = ISMCTSBot(seed=0, iterations=args.iterations, playout=args.playout)
    pr = cProfile.Profile()
    pr.enable()
    bot.choose(st)
    pr.disable()
    pstats.Stats(pr).sort_stats("tottime").print_stats(25)


# ---------------------------------------------------------------------- strength
def play_match(job) -> dict:
    game_name, players, a_spec, b_spec, i = job
    game = make_game(game_name, players)
    st = game.new_initial_state(i)
    seat_a = i % players
    bots = [make_bot(a_spec if s == seat_a else b_spec, seed=i * 101 + s) for s in range(players)]
    t0 = time.perf_counter()
    while True:
        d = st.decision()
        if d is None:
            break
        st.apply(bots[d.player].choose(st))
    w = st.winners()
    sc = st.scores()
    return {
        "game": i,
        "seat_a": seat_a,
        "win_a": (1.0 / len(w)) if seat_a in w else 0.0,
        "score_a": sc[seat_a],
        "score_b": [sc[s] for s in range(players) if s != seat_a],
        "seconds": time.perf_counter() - t0,
    }


def strength(args) -> None:
    jobs = [(args.game, args.players, args.a, args.b, args.start + i) for i in range(args.games)]
    make_bot(args.a), make_bot(args.b)  # fail early on a bad spec
    t0 = time.perf_counter()
    results = []
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as ex:
            for r in ex.map(play_match, jobs):
                results.append(r)
                if args.verbose:
                    print(r, flush=True)
    else:
        for j in jobs:
            r = play_match(j)
            results.append(r)
            if args.verbose:
                print(r, flush=True)
    n = len(results)
    wins = sum(r["win_a"] for r in results)
    lo, hi = wilson_interval(wins, n)
    sa = sum(r["score_a"] for r in results) / n
    sb = sum(sum(r["score_b"]) for r in results) / (n * (args.players - 1))
    print(f"{args.game} {args.players}p, {n} games: {args.a} vs {args.b}")
    print(f"  {args.a} win rate {wins / n:.3f}  (95% Wilson {lo:.3f}-{hi:.3f}; parity {1 / args.players:.3f})")
    print(f"  mean score {args.a} {sa:.1f}, {args.b} {sb:.1f}   ({time.perf_counter() - t0:.0f} s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=3.0, help="search time per speed measurement")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--iterations", type=int, default=2000, help="iterations for --profile")
    ap.add_argument("--playout", default=None, help="playout for --profile (default: the game's)")
    ap.add_argument("--strength", action="store_true")
    ap.add_argument("--game", default="red-north")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--a", default="ismcts:1s")
    ap.add_argument("--b", default="heuristic")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--start", type=int, default=0, help="first game seed")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    if args.profile:
        profile(args)
    elif args.strength:
        strength(args)
    else:
        speed(args)


if __name__ == "__main__":
    main()
