"""The expert bot's strength tables: games against ``ismcts`` and OpenSpiel's ISMCTSBot at equal
search time per decision.

    python bench/bench_expert.py --table --seconds 1 --clock wall --workers 2   # the issue's 1 s tables
    python bench/bench_expert.py --table --units 24 --games 400 --workers 2 --out runs.jsonl   # the README's
    python bench/bench_expert.py --report runs.jsonl --rate 420                  # the table of saved games
    python bench/bench_expert.py --game red-north --a expert --b ismcts --games 100 --units 48
    python bench/bench_expert.py --calibrate                                     # the reference rate

Each row is N games of bot A against bot B in every other seat: game ``i`` is dealt from
seed ``i`` and puts A in seat ``i mod players`` (seats rotated), the bots seeded
``101 i + seat``. A's win rate counts a shared victory 1/k, with its 95% Wilson interval
(:func:`redtable.sim.stats.wilson_interval`) and the parity rate (1/players). Both search
bots get the same budget per decision (a spec without one gets ``--seconds``); forced
moves are played without asking. Rows against ``openspiel:ismcts`` (OpenSpiel's own
Python ISMCTSBot, random rollouts, ``uct_c`` 0.7; :mod:`redtable.envs.openspiel.bots`)
run on the OpenSpiel adapter, the others on the engine.

Budgets. ``--clock cpu`` (the default) counts a budget in CPU time of the game's process
(``time.process_time``), so that the other jobs of a shared machine do not shrink one
side's search; ``--clock wall`` is wall-clock time, what the server's presets use. The
machine-independent unit is the **reference iteration** (ref-it): the CPU time stock
``ismcts`` takes for one iteration on the reference positions (the three 4-player Red
Rising mid-games of ``bench_bots.midgame``, seeds 1-3). ``--calibrate`` measures the rate
(958 ref-it per CPU second on the machine of the first measurements, 420 on the one of the
README's table); ``--units N`` gives a budget of N ref-it
(N / rate seconds), and the tables print both. On another machine, the same ``--units``
gives the same amount of search relative to ``ismcts``, hence comparable rows.

The table printed (``--report``) has per row: games, A's wins, win rate, 95% Wilson
interval, parity, budget in seconds and ref-it, the measured seconds and search
iterations (simulations for OpenSpiel) per decision of A and B, and mean scores.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import types
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from redtable.bots import make_bot  # noqa: E402
from redtable.core import make_game  # noqa: E402
from redtable.sim.stats import wilson_interval  # noqa: E402
from redtable.sim.tournament import apply_budget  # noqa: E402

# the tables: (game, players, A, B)
TABLE = [
    ("red-rising", 2, "expert", "ismcts"),
    ("red-north", 2, "expert", "ismcts"),
    ("red-rising", 4, "expert", "ismcts"),
    ("red-rising", 2, "expert", "openspiel:ismcts"),
    ("red-north", 2, "expert", "openspiel:ismcts"),
]
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}


def with_budget(spec: str, seconds: float | None) -> str:
    """``spec`` with ``seconds`` as its budget when it is a search bot given none (the tournaments' rule)."""
    return spec if seconds is None else apply_budget([spec], f"{seconds:g}s")[0]


# ---------------------------------------------------------------------- the reference loop
def reference_rate(seconds: float = 3.0) -> float:
    """Stock ISMCTS iterations per CPU second on the reference positions: ref-it per second."""
    from bench_bots import midgame

    from redtable.bots.ismcts import ISMCTSBot

    done = 0
    spent = 0.0
    for s in range(3):
        st = midgame("red-rising", 4, seed=s + 1)
        bot = ISMCTSBot(seed=s, seconds=seconds / 3)
        bot.clock = time.process_time
        t0 = time.process_time()
        bot.choose(st)
        spent += time.process_time() - t0
        done += bot.last_iterations
    return done / spent


# ---------------------------------------------------------------------- one game
def _clocked(bot: Any, clock: Callable[[], float]) -> Any:
    if hasattr(bot, "clock"):
        bot.clock = clock
    return bot


def play_native(game_name: str, players: int, a: str, b: str, i: int, clock: Callable[[], float]) -> dict:
    """Game ``i`` on the engine: A in seat ``i mod players``, B in the others."""
    st = make_game(game_name, players).new_initial_state(i)
    seat_a = i % players
    bots = [_clocked(make_bot(a if s == seat_a else b, seed=i * 101 + s), clock) for s in range(players)]
    spent = [0.0] * players
    calls = [0] * players
    iters = [0] * players
    while True:
        d = st.decision()
        if d is None:
            break
        bot = bots[d.player]
        if len(d.options) == 1:
            st.apply(d.options[0])
            continue
        t0 = clock()
        act = bot.choose(st)
        spent[d.player] += clock() - t0
        calls[d.player] += 1
        iters[d.player] += getattr(bot, "last_iterations", 0)
        st.apply(act)
    w = st.winners()
    returns = [(1.0 / len(w)) if s in w else 0.0 for s in range(players)]
    return _result(i, seat_a, players, returns, st.scores(), spent, calls, iters)


def play_openspiel(game_name: str, players: int, a: str, b: str, i: int, seconds: float, clock_name: str) -> dict:
    """Game ``i`` on the OpenSpiel adapter (``openspiel:...`` bots against redtable's)."""
    import redtable.envs.openspiel as ros
    from redtable.envs.openspiel import bots as ros_bots

    clock = CLOCKS[clock_name]
    # OpenSpiel's timed bots and play_game read the module's ``time.perf_counter``: the same clock as ours
    ros_bots.time = types.SimpleNamespace(perf_counter=clock)  # type: ignore[assignment]
    game = ros.load(game_name, players=players)
    seat_a = i % players
    bots = []
    for s in range(players):
        spec = a if s == seat_a else b
        if spec.startswith("openspiel:"):
            bots.append(ros_bots.make_bot(spec, game, seed=i * 101 + s, seconds=seconds))
        else:
            bot = _clocked(make_bot(with_budget(spec, seconds), seed=i * 101 + s, game=game_name), clock)
            bots.append(ros_bots.RedtableBot(game, bot))
    r = ros_bots.play_game(game, bots, seed=i)
    return _result(i, seat_a, players, r.returns, r.scores, r.seconds, r.decisions, r.simulations)


def _result(i: int, seat_a: int, players: int, returns, scores, spent, calls, iters) -> dict:
    others = [s for s in range(players) if s != seat_a]
    return {
        "game": i,
        "seat_a": seat_a,
        "win_a": returns[seat_a],
        "score_a": scores[seat_a],
        "score_b": sum(scores[s] for s in others) / len(others),
        "sec_a": spent[seat_a],
        "dec_a": calls[seat_a],
        "it_a": iters[seat_a],
        "sec_b": sum(spent[s] for s in others),
        "dec_b": sum(calls[s] for s in others),
        "it_b": sum(iters[s] for s in others),
    }


def play_job(job: tuple) -> dict:
    game_name, players, a, b, i, seconds, clock_name = job
    if a.startswith("openspiel:") or b.startswith("openspiel:"):
        return play_openspiel(game_name, players, a, b, i, seconds, clock_name)
    clock = CLOCKS[clock_name]
    return play_native(game_name, players, with_budget(a, seconds), with_budget(b, seconds), i, clock)


# ---------------------------------------------------------------------- rows and the table
def run_row(
    game_name: str,
    players: int,
    a: str,
    b: str,
    games: int,
    start: int,
    seconds: float,
    clock_name: str,
    workers: int,
    out: Path | None,
    verbose: bool,
) -> list[dict]:
    """Play one row's games; each finished game is appended to ``out`` as a JSON line."""
    jobs = [(game_name, players, a, b, start + k, seconds, clock_name) for k in range(games)]
    results: list[dict] = []
    fh = out.open("a") if out else None
    try:
        pool = ProcessPoolExecutor(workers) if workers > 1 else None
        done = pool.map(play_job, jobs) if pool else map(play_job, jobs)
        for r in done:
            r = {"game_name": game_name, "players": players, "a": a, "b": b, "seconds": seconds,
                 "clock": clock_name, **r}  # fmt: skip
            results.append(r)
            if fh:
                fh.write(json.dumps(r) + "\n")
                fh.flush()
            if verbose:
                print(r, flush=True)
        if pool:
            pool.shutdown()
    finally:
        if fh:
            fh.close()
    return results


HEADER = (
    "| game | A vs B | games | A wins | A win rate | 95% Wilson | parity | budget s (clock) | budget ref-it "
    "| s/decision A / B | iterations/decision A / B | mean score A / B |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|"
)


def summarize(rows: list[dict], rate: float | None) -> str:
    """One markdown row of the table from a row's games."""
    r0 = rows[0]
    n = len(rows)
    players = r0["players"]
    wins = sum(r["win_a"] for r in rows)
    lo, hi = wilson_interval(wins, n)

    def per_decision(key: str, side: str) -> float:
        return sum(r[f"{key}_{side}"] for r in rows) / max(1, sum(r[f"dec_{side}"] for r in rows))

    budget = r0["seconds"]
    units = f"{budget * rate:.0f}" if rate else "-"
    vs = f"{r0['a']} vs {r0['b']}" if players == 2 else f"{r0['a']} vs {players - 1} {r0['b']}"
    return (
        f"| {r0['game_name']} {players}p | {vs} | {n} | {wins:g} | {wins / n:.1%} | {lo:.1%}–{hi:.1%} "
        f"| {1 / players:.0%} | {budget:g} ({r0.get('clock', 'cpu')}) | {units} "
        f"| {per_decision('sec', 'a'):.3f} / {per_decision('sec', 'b'):.3f} "
        f"| {per_decision('it', 'a'):.0f} / {per_decision('it', 'b'):.0f} "
        f"| {sum(r['score_a'] for r in rows) / n:.1f} / {sum(r['score_b'] for r in rows) / n:.1f} |"
    )


def report(files: list[Path], rate: float | None) -> None:
    """The table of the games saved in JSON-line files (rows pooled by game, bots and budget)."""
    rows: dict[tuple, dict[int, dict]] = {}
    for f in files:
        for line in f.read_text().splitlines():
            r = json.loads(line)
            key = (r["game_name"], r["players"], r["a"], r["b"], r["seconds"], r.get("clock", "cpu"))
            rows.setdefault(key, {})[r["game"]] = r  # a game played twice counts once
    print(HEADER)
    for games in rows.values():
        print(summarize([games[i] for i in sorted(games)], rate))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--table", action="store_true", help="play every row of the issue's tables")
    ap.add_argument("--game", default="red-north")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--a", default="expert")
    ap.add_argument("--b", default="ismcts")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--start", type=int, default=0, help="first game (seed) of the row")
    ap.add_argument("--seconds", type=float, default=None, help="budget per decision (default 0.05)")
    ap.add_argument("--units", type=float, default=None, help="budget per decision in ref-it (see --calibrate)")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    ap.add_argument("--rate", type=float, default=None, help="ref-it per CPU second (default: measured)")
    ap.add_argument("--calibrate", action="store_true", help="print the reference rate and exit")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None, help="append each game as a JSON line")
    ap.add_argument("--report", type=Path, nargs="+", default=None, help="print the table of saved games")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    if args.calibrate:
        print(f"reference rate: {reference_rate():.0f} ref-it (ISMCTS iterations) per CPU second")
        return
    if args.report is not None:
        report(args.report, args.rate)
        return
    if args.units is not None and args.seconds is not None:
        ap.error("give the budget as --seconds or as --units, not both")
    rate = args.rate or reference_rate()
    seconds = args.units / rate if args.units is not None else args.seconds or 0.05
    rows = TABLE if args.table else [(args.game, args.players, args.a, args.b)]
    print(HEADER)
    for game_name, players, a, b in rows:
        t0 = time.perf_counter()
        games = run_row(
            game_name, players, a, b, args.games, args.start, seconds, args.clock, args.workers, args.out, args.verbose
        )
        print(summarize(games, rate), f"({time.perf_counter() - t0:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
