"""Fit the bot presets' fixed ratings: tournaments among them, rated with OpenSkill, written to
``redtable/server/bot_ratings.json`` (the server ships it; ``redtable/server/ratings.py``).

    python bench/rate_bots.py                       # the shipped file: 72 games per title
    python bench/rate_bots.py --games 120 --workers 2
    python bench/rate_bots.py --add expert:1s --games 24 --workers 2   # one more preset, the others kept

Every title is played 2-player by the four presets (``random``, ``heuristic``,
``ismcts:0.2s``, ``ismcts:1s``) with ``redtable.sim``'s tournament: every pair meets with
the seats both ways (a 12-game rotation). A search preset's time budget is replaced by the
iterations it reaches in that time on one core (README, "Bots and how strong they are"),
so the games, and so the ratings, are the same on any machine and under any load.

The fit: every preset starts at OpenSkill's prior (mu 25, sigma 25/3) and the games are
rated in their order with Plackett-Luce, places from the result as the server takes them
(:func:`redtable.server.ratings.places_of`), exactly as a rated game on the server is.

``--add PRESET`` rates one more preset without playing the others again: it meets each
preset already in the file in ``--games / 4`` games (seats both ways), and only its own
rating moves, from the prior, against the others' fixed ratings: what the server does
when a person plays the presets. The others' entries are kept as they are.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from redtable.server.ratings import BOT_FILE, MODEL, ordinal, places_of, rate
from redtable.sim.tournament import tournament

PRESETS = ("random", "heuristic", "ismcts:0.2s", "ismcts:1s")
# the iterations ISMCTS reaches in the preset's time on one core (README: ~1,080/s in Red Rising, ~7,400/s in
# Red North);
# the expert's: ISMCTS's times the ratio of their iterations at equal CPU time in 2-player games
# (bench/bench_expert.py: 1.9 in Red Rising, its short playouts; 1.14 in Red North)
BUDGETS = {
    "red-rising": {"ismcts:0.2s": "ismcts:250it", "ismcts:1s": "ismcts:1000it", "expert:1s": "expert:1900it"},
    "red-north": {"ismcts:0.2s": "ismcts:1400it", "ismcts:1s": "ismcts:7000it", "expert:1s": "expert:8000it"},
}


def fit(title: str, games: int, seed: int, workers: int) -> dict:
    specs = [BUDGETS[title].get(p, p) for p in PRESETS]
    t0 = time.time()
    report = tournament(title, 2, specs, games, seed=seed, workers=workers)
    ratings = {p: (MODEL.mu, MODEL.sigma) for p in PRESETS}
    played = dict.fromkeys(PRESETS, 0)
    for seats, r in zip(report.seatings, report.results, strict=True):
        if r.summary is None:
            raise RuntimeError(f"{title} game {r.index} failed: {r.error}")
        who = [PRESETS[b] for b in seats]
        places = places_of({"scores": r.summary["scores"], "winners": r.summary["winners"]}, len(who))
        after = rate([ratings[p] for p in who], places)
        for p, new in zip(who, after, strict=True):
            ratings[p] = new
            played[p] += 1
    print(f"{title}: {games} games in {time.time() - t0:.0f} s", file=sys.stderr)
    return {
        p: {"mu": round(mu, 4), "sigma": round(sigma, 4), "ordinal": round(ordinal(mu, sigma), 4), "games": played[p]}
        for p, (mu, sigma) in ratings.items()
    }


def fit_added(title: str, preset: str, fixed: dict, games: int, seed: int, workers: int) -> dict:
    """``preset``'s rating from games against each preset of ``fixed`` (title's entries), kept fixed."""
    each = max(2, games // len(fixed)) // 2 * 2  # an even number: the seats both ways
    spec = BUDGETS[title].get(preset, preset)
    t0 = time.time()
    reports = {
        other: tournament(title, 2, [spec, BUDGETS[title].get(other, other)], each, seed=seed, workers=workers)
        for other in fixed
    }
    mu, sigma = MODEL.mu, MODEL.sigma
    played = 0
    for k in range(each):  # the opponents in turn, game by game
        for other, report in reports.items():
            seats, r = report.seatings[k], report.results[k]
            if r.summary is None:
                raise RuntimeError(f"{title} game {r.index} against {other} failed: {r.error}")
            theirs = (fixed[other]["mu"], fixed[other]["sigma"])
            teams = [(mu, sigma) if b == 0 else theirs for b in seats]
            places = places_of({"scores": r.summary["scores"], "winners": r.summary["winners"]}, 2)
            mu, sigma = rate(teams, places)[seats.index(0)]
            played += 1
    print(f"{title}: {preset}, {played} games in {time.time() - t0:.0f} s", file=sys.stderr)
    for other, report in reports.items():
        b = report.to_json()["bots"][0]
        won = f"{b['wins']:g} of {b['games']} won"
        print(f"  against {other}: {won}, {b['mean_decision_seconds']:.2f} s per decision", file=sys.stderr)
    return {"mu": round(mu, 4), "sigma": round(sigma, 4), "ordinal": round(ordinal(mu, sigma), 4), "games": played}


def add_preset(path: Path, preset: str, games: int, seed: int, workers: int) -> dict:
    """The file at ``path`` with ``preset`` rated against its presets (which are left as they are)."""
    out = json.loads(path.read_text())
    for title, presets in out["ratings"].items():
        fixed = {p: v for p, v in presets.items() if p != preset}
        presets[preset] = fit_added(title, preset, fixed, games, seed, workers)
        if preset in BUDGETS[title]:
            out["budgets"].setdefault(title, {})[preset] = BUDGETS[title][preset]
    out.setdefault("added", {})[preset] = f"python bench/rate_bots.py --add {preset} --games {games} --seed {seed}"
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=72, help="games per title (a multiple of 12 balances the seats)")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, default=BOT_FILE)
    ap.add_argument("--add", metavar="PRESET", default=None, help="rate one more preset against the file's, kept fixed")
    a = ap.parse_args()
    if a.add:
        added = add_preset(a.out, a.add, a.games, a.seed, a.workers)
        a.out.write_text(json.dumps(added, indent=2) + "\n")
        print(json.dumps({t: r[a.add] for t, r in added["ratings"].items()}, indent=2))
        return
    out = {
        "about": "fixed ratings of the bot presets (OpenSkill Plackett-Luce, defaults); see bench/rate_bots.py",
        "command": f"python bench/rate_bots.py --games {a.games} --seed {a.seed}",
        "model": "PlackettLuce (openskill defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300); ordinal = mu - 3 sigma",
        "games_per_title": a.games,
        "players": 2,
        "budgets": BUDGETS,
        "ratings": {title: fit(title, a.games, a.seed, a.workers) for title in ("red-rising", "red-north")},
    }
    a.out.write_text(json.dumps(out, indent=2) + "\n")
    print(json.dumps(out["ratings"], indent=2))


if __name__ == "__main__":
    main()
