"""Is the review right? Calibration of its winning chances, and how often it flags each bot.

    python bench/bench_review.py --games 400 --workers 2              # the README's tables
    python bench/bench_review.py --game red-rising --players 2 --games 100

1. **Calibration.** ``--games`` games of ``expert`` against ``ismcts`` (seats rotated: game
   ``i`` is dealt from seed ``i`` and puts the expert in seat ``i mod players``), each bot at
   ``--bot-budget`` per decision. Every seat of every game is reviewed (``--review-budget``
   per decision, the review's seed ``i``), and each decision's ``win_before`` is a prediction
   of that seat's result (1 for a win, 1/k for a victory shared by k, else 0). Printed: the
   Brier score (the mean squared error of the predictions; a coin says 0.25 in a 2-player
   game), the same for the constant prediction 1/players, and the reliability table (per
   tenth of predicted chance: decisions, mean prediction, observed frequency). Also how often
   the review's preferred option is the option the expert itself played in the game (the
   in-game expert keeps its tree and MAST statistics between decisions, so it is not the
   review's fresh search; the two agree most where the choice is clear).
2. **Mistake rates.** ``--games`` games with one ``random``, one ``heuristic`` and one
   ``expert`` seat (``--mix``; seats rotated), every seat reviewed: per bot, its decisions,
   the share marked mistake (more than 5 points lost) and blunder (more than 15). A sanity
   check: the expert should be flagged least, random most.

Iteration budgets make every number exact for a given command (any ``--workers``). Every
decision of every game is reviewed here; the README's tables, at the issue's 400 games, come
from ``bench/calibrate_review.py``, which reviews a few decisions drawn at random per game and
fits the calibration of the chances. This bench reviews with the raw chances.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from redtable.bots import make_bot  # noqa: E402
from redtable.core import GameRecord, make_game  # noqa: E402
from redtable.review import Budget, review_record  # noqa: E402
from redtable.review.calibration import brier, reliability  # noqa: E402


def play(game: str, specs: list[str], seed: int) -> tuple[GameRecord, list[float]]:
    """One game, seat ``p`` played by ``specs[p]`` (seeded ``101 seed + p``): its record and returns."""
    st = make_game(game, len(specs)).new_initial_state(seed)
    bots = [make_bot(s, seed=101 * seed + p, game=game) for p, s in enumerate(specs)]
    while not st.is_terminal():
        d = st.pending()
        st.apply(d.options[0] if len(d.options) == 1 else bots[d.player].choose(st))
    return GameRecord.of(st, seed), st.returns()


def calibration_game(args: dict[str, Any], i: int) -> dict[str, Any]:
    n = args["players"]
    specs = [f"ismcts:{args['bot_budget']}"] * n
    specs[i % n] = f"expert:{args['bot_budget']}"
    record, result = play(args["game"], specs, i)
    budget = Budget.parse(args["review_budget"])
    preds: list[tuple[float, float]] = []
    agree = {"expert": [0, 0], "ismcts": [0, 0]}
    for seat in range(n):
        for d in review_record(record, seat, budget, seed=i, calibrated=False).decisions:
            preds.append((d.win_before, result[seat]))
            row = agree[specs[seat].split(":")[0]]
            row[0] += d.preferred == d.taken
            row[1] += 1
    return {"preds": preds, "agree": agree}


def mistakes_game(args: dict[str, Any], i: int) -> dict[str, list[int]]:
    mix = args["mix"]
    n = len(mix)
    kinds = [mix[(p + i) % n] for p in range(n)]
    specs = [k if k in ("random", "heuristic") else f"{k}:{args['bot_budget']}" for k in kinds]
    record, _ = play(args["game"], specs, 10_000 + i)
    budget = Budget.parse(args["review_budget"])
    out: dict[str, list[int]] = {}
    for seat in range(n):
        row = out.setdefault(kinds[seat], [0, 0, 0])  # decisions, mistakes, blunders
        for d in review_record(record, seat, budget, seed=i, calibrated=False).decisions:
            row[0] += 1
            row[1] += d.mark == "mistake"
            row[2] += d.mark == "blunder"
    return out


def run(fn, args: dict[str, Any], games: int, workers: int) -> list[Any]:
    if workers <= 1:
        return [fn(args, i) for i in range(games)]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(fn, [args] * games, range(games)))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="red-north")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=40, help="games of each part (calibration, mistake rates)")
    ap.add_argument("--bot-budget", default="200it", help="per decision of the playing expert and ismcts")
    ap.add_argument("--review-budget", default="200it", help="per reviewed decision")
    ap.add_argument("--mix", default="random,heuristic,expert", help="the bots of the mistake-rate games")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the numbers as JSON")
    a = ap.parse_args(argv)
    args = {
        "game": a.game,
        "players": a.players,
        "bot_budget": a.bot_budget,
        "review_budget": a.review_budget,
        "mix": [m.strip() for m in a.mix.split(",")],
    }
    t0 = time.perf_counter()
    cal = run(calibration_game, args, a.games, a.workers)
    preds = [x for g in cal for x in g["preds"]]
    agree = {k: [sum(g["agree"][k][j] for g in cal) for j in (0, 1)] for k in ("expert", "ismcts")}
    mis = run(mistakes_game, args, a.games, a.workers)
    rates: dict[str, list[int]] = {}
    for g in mis:
        for k, row in g.items():
            acc = rates.setdefault(k, [0, 0, 0])
            for j in range(3):
                acc[j] += row[j]
    out = {
        "game": a.game,
        "players": a.players,
        "games": a.games,
        "bot_budget": a.bot_budget,
        "review_budget": a.review_budget,
        "decisions": len(preds),
        "brier": round(brier(preds), 4),
        "brier_constant": round(brier([(1 / a.players, o) for _, o in preds]), 4),
        "reliability": reliability(preds),
        "agreement": {k: round(v[0] / v[1], 3) if v[1] else None for k, v in agree.items()},
        "mistake_rates": {
            k: {"decisions": v[0], "mistake": round(v[1] / max(1, v[0]), 3), "blunder": round(v[2] / max(1, v[0]), 3)}
            for k, v in rates.items()
        },
        "seconds": round(time.perf_counter() - t0, 1),
    }
    if a.json:
        print(json.dumps(out))
        return out
    print(
        f"{a.game} {a.players}p, {a.games} expert-vs-ismcts games (bots {a.bot_budget}, review {a.review_budget}): "
        f"{len(preds)} decisions; Brier {out['brier']} (constant 1/{a.players}: {out['brier_constant']})"
    )
    print("\n| predicted | decisions | mean predicted | observed |\n|---|---|---|---|")
    for r in out["reliability"]:
        print(f"| {r['bin']} | {r['decisions']} | {r['predicted']} | {r['observed']} |")
    print(f"\npreferred = the option played: expert {out['agreement']['expert']}, ismcts {out['agreement']['ismcts']}")
    print(f"\n{a.games} games of {', '.join(args['mix'])}:\n")
    print("| bot | decisions | mistakes | blunders |\n|---|---|---|---|")
    for k, v in out["mistake_rates"].items():
        print(f"| {k} | {v['decisions']} | {100 * v['mistake']:.1f}% | {100 * v['blunder']:.1f}% |")
    print(f"\n{out['seconds']} s")
    return out


if __name__ == "__main__":
    main()
