"""Is the review right, at the issue's scale: calibration on sampled decisions, and mistake rates.

    # collect (slow; rows are appended to the JSONL file as games finish, a rerun resumes)
    nice -n 10 python bench/calibrate_review.py collect --game red-north --games 400 --out rn.jsonl
    nice -n 10 python bench/calibrate_review.py collect --game red-north --part mistakes --games 200 --out rn.jsonl
    # the README's tables (and the fitted map of redtable/review/calibration.py)
    python bench/calibrate_review.py report rn.jsonl

Reviewing every decision of 400 games does not fit a shared 2-core machine, so each game
contributes a few decisions drawn at random (``--per-game``, seeded by the game), reviewed
exactly as ``redtable review`` reviews them (:func:`redtable.review.review_decision`, a fresh
expert from the deciding seat's information set) at ``--review-budget`` per decision.

* ``--part calibration``: games of ``expert`` against ``ismcts`` (``--players`` seats, both at
  ``--bot-budget``; game ``i`` is dealt from seed ``i`` and puts the expert in seat
  ``i mod players``). Each sampled decision's raw ``win_before`` predicts the deciding seat's
  result (1 for a win, 1/k for a victory shared by k, else 0). The row also records whether
  the review's preferred option is the move the bot played, and the choice of a second
  fresh expert at the same budget with another seed (how reproducible "the expert's own
  choice at that budget" is).
* ``--part mistakes``: games of ``--mix`` (seats rotated); ``--per-seat`` sampled decisions of
  every seat, each marked mistake or blunder as the review marks it.

``report`` reads the rows; the calibration games with an even index fit the map from the
search's raw chance to a calibrated one (:mod:`redtable.review.calibration`: a logistic in
the logit of the raw chance), the odd ones measure it: the Brier score and reliability table
of the raw and of the calibrated chances on the measured half (and of the constant
1/players), and the fitted slope and intercept. Mistake rates are given with the raw and
with the calibrated chances (a mark is a loss of more than 5 or 15 points of chances).
Iteration budgets make every row exact for a given command.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from redtable.bots.common import seed_of  # noqa: E402
from redtable.bots.expert import ExpertBot  # noqa: E402
from redtable.core import make_game  # noqa: E402
from redtable.review import Budget, decision_steps, mark_of, review_decision  # noqa: E402
from redtable.review.calibration import brier, reliability  # noqa: E402


def _play(game: str, specs: list[str], seed: int):
    from bench_review import play  # noqa: PLC0415  (the same games as bench_review.py)

    return play(game, specs, seed)


def _review_rows(a: dict[str, Any], record, result, kinds: list[str], picks: list[int], gi: int) -> list[dict]:
    budget = Budget.parse(a["review_budget"])
    st = make_game(record.game, record.players, **record.options).new_initial_state(record.seed)
    rows = []
    want = set(picks)
    for i, act in enumerate(record.actions):
        if i in want:
            d = st.pending()
            r = review_decision(st, act, budget, gi, i, calibrated=False)
            other = ExpertBot(seed=seed_of(gi, i, 7), iterations=budget.iterations, seconds=budget.seconds)
            rows.append(
                {
                    "part": a["part"],
                    "game": record.game,
                    "players": record.players,
                    "i": gi,
                    "step": i,
                    "steps": len(record.actions),
                    "seat": d.player,
                    "bot": kinds[d.player],
                    "options": len(d.options),
                    "round": st.round_number(),
                    "win_before": r.win_before,
                    "win_taken": r.win_taken,
                    "win_preferred": r.win_preferred,
                    "played": act == r.preferred,
                    "again": other.choose(st) == r.preferred,
                    "outcome": result[d.player],
                    "bot_budget": a["bot_budget"],
                    "review_budget": a["review_budget"],
                }
            )
        st.apply(act)
    return rows


def calibration_game(a: dict[str, Any], i: int) -> list[dict]:
    n = a["players"]
    kinds = ["ismcts"] * n
    kinds[i % n] = "expert"
    record, result = _play(a["game"], [f"{k}:{a['bot_budget']}" for k in kinds], i)
    steps = sorted(x for s in range(n) for x in decision_steps(record, s))
    picks = random.Random(i).sample(steps, min(a["per_game"], len(steps)))
    return _review_rows(a, record, result, kinds, picks, i)


def mistakes_game(a: dict[str, Any], i: int) -> list[dict]:
    """Game ``i`` of the mix: with as many seats as bots, every bot (seats rotated); with fewer
    (``--players``), the pairs of the mix in turn, seats swapped every other round of pairs."""
    mix = a["mix"]
    n = a["players"] if a["players"] < len(mix) else len(mix)
    kinds = [mix[(p + i) % len(mix)] for p in range(n)]
    if n < len(mix) and (i // len(mix)) % 2:
        kinds.reverse()
    specs = [k if k in ("random", "heuristic") else f"{k}:{a['bot_budget']}" for k in kinds]
    record, result = _play(a["game"], specs, 10_000 + i)
    rng = random.Random(10_000 + i)
    picks = []
    for s in range(n):
        steps = decision_steps(record, s)
        picks += rng.sample(steps, min(a["per_seat"], len(steps)))
    return _review_rows(a, record, result, kinds, picks, 10_000 + i)


def collect(a: argparse.Namespace) -> None:
    args = {
        "part": a.part,
        "game": a.game,
        "players": a.players,
        "bot_budget": a.bot_budget,
        "review_budget": a.review_budget,
        "per_game": a.per_game,
        "per_seat": a.per_seat,
        "mix": [m.strip() for m in a.mix.split(",")],
    }
    out = Path(a.out)
    done = set()
    if out.exists():
        for line in out.read_text().splitlines():
            r = json.loads(line)
            if r["part"] == a.part and r["game"] == a.game and r["players"] == a.players:
                done.add(r["i"])
    base = 10_000 if a.part == "mistakes" else 0
    todo = [i for i in range(a.games) if base + i not in done]
    if a.reverse:  # a second collector on the same file: from the other end (the report drops repeats)
        todo.reverse()
    fn = calibration_game if a.part == "calibration" else mistakes_game
    t0 = time.perf_counter()
    with ProcessPoolExecutor(a.workers) as pool, out.open("a") as f:
        for k, rows in enumerate(pool.map(fn, [args] * len(todo), todo)):
            for r in rows:
                f.write(json.dumps(r) + "\n")
            f.flush()
            if (k + 1) % 20 == 0:
                print(f"{a.game} {a.part}: {k + 1}/{len(todo)} games, {time.perf_counter() - t0:.0f} s", flush=True)


# ---------------------------------------------------------------- report


def logit(p: float) -> float:
    p = min(max(p, 1e-3), 1 - 1e-3)
    return math.log(p / (1 - p))


def sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-min(max(z, -50.0), 50.0)))


MIN_SLOPE = 0.05  # the map keeps the order of the options (a slope fitted lower is held here)


def fit_logistic(xs: list[float], ys: list[float], l2: float = 1e-3) -> tuple[float, float]:
    """``(slope, intercept)`` of ``P(y) = sigmoid(slope x + intercept)`` by Newton's method on
    the log-loss (``y`` may be 1/2 for a shared win); the slope is at least ``MIN_SLOPE`` (a
    lower one is held there and the intercept fitted alone)."""
    s, b = _newton(xs, ys, l2)
    if s >= MIN_SLOPE:
        return s, b
    s, b = MIN_SLOPE, 0.0
    for _ in range(50):
        g = sum(sigmoid(s * x + b) - y for x, y in zip(xs, ys, strict=True))
        h = sum(sigmoid(s * x + b) * (1 - sigmoid(s * x + b)) for x in xs)
        if h <= 0:
            break
        b -= g / h
        if abs(g / h) < 1e-10:
            break
    return s, b


def _newton(xs: list[float], ys: list[float], l2: float) -> tuple[float, float]:
    s, b = 1.0, 0.0
    for _ in range(50):
        gs = gb = hss = hsb = hbb = 0.0
        for x, y in zip(xs, ys, strict=True):
            p = sigmoid(s * x + b)
            gs += (p - y) * x
            gb += p - y
            w = p * (1 - p)
            hss += w * x * x
            hsb += w * x
            hbb += w
        gs += l2 * s
        hss += l2
        det = hss * hbb - hsb * hsb
        if det <= 0:
            break
        ds = (hbb * gs - hsb * gb) / det
        db = (hss * gb - hsb * gs) / det
        s, b = s - ds, b - db
        if abs(ds) + abs(db) < 1e-10:
            break
    return s, b


def _rate(marks: list[str | None], which: str) -> float:
    return round(sum(m == which for m in marks) / max(1, len(marks)), 3)


def calibration_numbers(cal: list[dict]) -> dict[str, Any]:
    """Fit the maps on the even games, measure on the odd ones (see the module doc)."""
    fit = [r for r in cal if r["i"] % 2 == 0]
    test = [r for r in cal if r["i"] % 2 == 1]
    rounds = sorted({r["round"] for r in cal}, key=lambda x: -1 if x is None else x)
    maps = {}  # per round (None: a title without rounds)
    for rnd in rounds:
        mine = [r for r in fit if r["round"] == rnd]
        maps[rnd] = fit_logistic([logit(r["win_before"]) for r in mine], [r["outcome"] for r in mine])

    def cal_p(p: float, rnd: int | None) -> float:
        s, b = maps[rnd]
        return sigmoid(s * logit(p) + b)

    raw = [(r["win_before"], r["outcome"]) for r in test]
    fixed = [(cal_p(r["win_before"], r["round"]), r["outcome"]) for r in test]
    n = cal[0]["players"]
    by_round = {}
    for rnd in rounds:
        t = [r for r in test if r["round"] == rnd]
        by_round[str(rnd)] = {
            "decisions": len(t),
            "raw": round(brier([(r["win_before"], r["outcome"]) for r in t]), 4),
            "calibrated": round(brier([(cal_p(r["win_before"], rnd), r["outcome"]) for r in t]), 4),
        }
    return {
        "games": len({r["i"] for r in cal}),
        "decisions": len(cal),
        "fit_games": len({r["i"] for r in fit}),
        "test_games": len({r["i"] for r in test}),
        "test_decisions": len(test),
        "bot_budget": cal[0]["bot_budget"],
        "review_budget": cal[0]["review_budget"],
        "maps": {rnd: (round(v[0], 3), round(v[1], 3)) for rnd, v in maps.items()},
        "brier_raw": round(brier(raw), 4),
        "brier_calibrated": round(brier(fixed), 4),
        "brier_constant": round(brier([(1 / n, o) for _, o in raw]), 4),
        "by_round": by_round,
        "reliability_raw": reliability(raw),
        "reliability_calibrated": reliability(fixed),
        "played": {
            k: round(sum(r["played"] for r in cal if r["bot"] == k) / max(1, sum(r["bot"] == k for r in cal)), 3)
            for k in ("expert", "ismcts")
        },
        "again": round(sum(r["again"] for r in cal) / len(cal), 3),
    }


def mistake_numbers(mis: list[dict], maps: dict | None) -> dict[str, Any]:
    """Per bot: its sampled decisions and the share marked, with the raw chances and (``maps``)
    the calibrated ones."""
    rates: dict[str, Any] = {}
    for k in dict.fromkeys(r["bot"] for r in mis):
        mine = [r for r in mis if r["bot"] == k]
        row: dict[str, Any] = {"decisions": len(mine)}
        for name in ("raw", "calibrated"):
            if name == "calibrated" and maps is None:
                continue
            marks = []
            for r in mine:
                wp, wt = r["win_preferred"], r["win_taken"]
                if maps is not None and name == "calibrated":
                    s, b = maps.get(r["round"], (1.0, 0.0))  # a round no calibration game reached: raw
                    wp, wt = (sigmoid(s * logit(x) + b) for x in (wp, wt))
                marks.append(mark_of(max(0.0, wp - wt)))
            row[name] = {"mistake": _rate(marks, "mistake"), "blunder": _rate(marks, "blunder")}
        rates[k] = row
    return {
        "games": len({r["i"] for r in mis}),
        "review_budget": mis[0]["review_budget"],
        "bot_budget": mis[0]["bot_budget"],
        "rates": rates,
    }


def report(a: argparse.Namespace) -> dict[str, Any]:
    rows = list(
        {
            (r["part"], r["game"], r["players"], r["i"], r["step"]): r
            for f in a.files
            for r in map(json.loads, Path(f).read_text().splitlines())
        }.values()
    )
    out: dict[str, Any] = {}
    for game, players in sorted({(r["game"], r["players"]) for r in rows}):
        mine = [r for r in rows if r["game"] == game and r["players"] == players]
        cal = [r for r in mine if r["part"] == "calibration"]
        mis = [r for r in mine if r["part"] == "mistakes"]
        res: dict[str, Any] = {}
        if cal:
            res["calibration"] = calibration_numbers(cal)
        if mis:
            res["mistakes"] = mistake_numbers(mis, res["calibration"]["maps"] if cal else None)
        out[f"{game} {players}p"] = res
    if a.json:
        print(json.dumps({k: _jsonable(v) for k, v in out.items()}, indent=1))
        return out
    for name, res in out.items():
        _print_group(name, res)
    return out


def _jsonable(x: Any) -> Any:
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    return x


def _print_group(name: str, res: dict[str, Any]) -> None:
    c = res.get("calibration")
    if c:
        print(
            f"## {name}: {c['games']} expert-vs-ismcts games (both bots {c['bot_budget']} a decision), "
            f"{c['decisions']} sampled decisions reviewed at {c['review_budget']}; "
            f"maps fitted on {c['fit_games']} games, measured on {c['test_games']} ({c['test_decisions']} decisions)\n"
        )
        print(f"Brier: raw {c['brier_raw']}, calibrated {c['brier_calibrated']}, constant {c['brier_constant']}")
        for rnd, v in c["by_round"].items():
            if rnd != "None":
                print(f"  round {rnd}: {v['decisions']} decisions, raw {v['raw']}, calibrated {v['calibrated']}")
        print(f"{name.split()[0]}'s title.py: review_calibration={{{name.split()[1][:-1]}: {c['maps']}}}")
        head = ("predicted", "raw: decisions", "mean predicted", "observed", "calibrated: decisions")
        print("\n| " + " | ".join((*head, "mean predicted", "observed")) + " |")
        print("|---|---|---|---|---|---|---|")
        rr = {r["bin"]: r for r in c["reliability_raw"]}
        cc = {r["bin"]: r for r in c["reliability_calibrated"]}
        for b in sorted(set(rr) | set(cc)):
            x, y = rr.get(b), cc.get(b)
            left = f"{x['decisions']} | {x['predicted']:.2f} | {x['observed']:.2f}" if x else "0 | | "
            right = f"{y['decisions']} | {y['predicted']:.2f} | {y['observed']:.2f}" if y else "0 | | "
            print(f"| {b} | {left} | {right} |")
        print(
            f"\nThe review's preferred option is the move played by the expert {100 * c['played']['expert']:.1f}%"
            f" of the time, by ismcts {100 * c['played']['ismcts']:.1f}%; a second expert search at the same"
            f" budget (another seed) chooses it {100 * c['again']:.1f}% of the time."
        )
    m = res.get("mistakes")
    if m:
        bots = ", ".join(m["rates"])
        print(f"\n{name}: {m['games']} games of {bots} (review {m['review_budget']})\n")
        print("| bot | decisions | mistakes | blunders | mistakes (calibrated) | blunders (calibrated) |")
        print("|---|---|---|---|---|---|")
        for k, v in m["rates"].items():
            cv = v.get("calibrated")
            tail = f"{100 * cv['mistake']:.1f}% | {100 * cv['blunder']:.1f}%" if cv else "| "
            raw = f"{100 * v['raw']['mistake']:.1f}% | {100 * v['raw']['blunder']:.1f}%"
            print(f"| {k} | {v['decisions']} | {raw} | {tail} |")
    print()


def main(argv: list[str] | None = None) -> Any:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect", help="play and review games, appending rows to --out")
    c.add_argument("--part", choices=("calibration", "mistakes"), default="calibration")
    c.add_argument("--game", default="red-north")
    c.add_argument("--players", type=int, default=2)
    c.add_argument("--games", type=int, default=400)
    c.add_argument("--per-game", type=int, default=4, help="sampled decisions per calibration game")
    c.add_argument("--per-seat", type=int, default=3, help="sampled decisions per seat of a mistakes game")
    c.add_argument("--bot-budget", default="50it")
    c.add_argument("--review-budget", default="200it")
    c.add_argument("--mix", default="random,heuristic,expert")
    c.add_argument("--workers", type=int, default=2)
    c.add_argument("--out", required=True)
    c.add_argument("--reverse", action="store_true", help="play the games from the last one down")
    r = sub.add_parser("report", help="fit and measure from the rows")
    r.add_argument("files", nargs="+")
    r.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    return collect(a) if a.cmd == "collect" else report(a)


if __name__ == "__main__":
    main()
