"""Balance analytics over many bot games (the numbers behind `redtable analyze`).

:func:`collect` plays the games through :func:`~redtable.sim.parallel.run_games` (so it
spreads over ``--workers`` and any registered backend) and returns one plain record per
game; :func:`analyze` turns the records into a JSON-able dict of numbers, which
:mod:`redtable.sim.report` writes out as JSON, CSV, PNG charts and an HTML page.

Which games are played
----------------------
``games`` games are played **at each player count** in ``player_counts`` (so adding a
player count never thins out the others). Game ``i`` at ``P`` players is exactly game
``i`` of ``redtable simulate GAME --players P --seed SEED --bots BOTS``: same seed
(:func:`~redtable.sim.simulate.game_seed`), same bots per seat (``bots`` repeated
cyclically over the seats), so any game of a report can be replayed and saved with
``simulate --save-games``.

What the numbers mean
---------------------
* Win rates count a tie for first between ``k`` players as ``1/k`` win each
  (:func:`~redtable.sim.stats.shared_wins`); a unit is one player in one game (a
  *player-game*). Every rate comes with its 95% Wilson interval and with ``expected``,
  the fair share: the mean of ``1/P`` over the same player-games (``1/P`` at one player
  count; a mix when several counts are pooled as ``players == "all"``).
* ``turn_order`` is the position after the first player (0 = first player): Red
  Rising's first player of the game, Red North's first player of Spring. Seats are dealt
  houses and turn order at random, so ``turn_order`` is usually the seat effect to read.
* Score distributions are over player-games, per scorepad row: ``std`` is the sample
  standard deviation, the quartiles interpolate linearly (like ``numpy.percentile``).
* Games that raised an engine error are counted in ``games.errors`` and listed in
  ``errors``, and left out of everything else.

Determinism: records come back sorted by game, every sum runs in game order, and
timings are kept out of the numbers (see :class:`Collection`), so the same settings give
byte-identical ``report.json`` for any number of workers or backend.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core import make_game, title
from .analysis_rednorth import RN_ROWS
from .simulate import GameResult, play_one
from .stats import shared_wins
from .titleanalysis import Analysis, Tally
from .titleanalysis import rounded as _r

SCHEMA = 1


# ----------------------------------------------------------------------------- playing


@dataclass(slots=True, frozen=True)
class AnalyzeTask:
    """Play game ``g`` of an analysis (picklable, for :func:`~redtable.sim.parallel.run_games`).

    Game ``g`` is game ``g % games`` at ``player_counts[g // games]`` players.
    """

    game: str
    player_counts: tuple[int, ...]
    games: int
    options: dict
    seed: int
    bots: tuple[str, ...] | None = None

    def locate(self, g: int) -> tuple[int, int]:
        return self.player_counts[g // self.games], g % self.games

    def __call__(self, g: int) -> dict[str, Any]:
        players, index = self.locate(g)
        r = play_one(self.game, players, self.options, index, self.seed, list(self.bots) if self.bots else None)
        return record_of(r, players)


def record_of(r: GameResult, players: int) -> dict[str, Any]:
    """The plain record of one game, as :func:`analyze` reads it."""
    return {
        "players": players,
        "index": r.index,
        "seed": r.seed,
        "bots": list(r.bots),
        "decisions": r.decisions,
        "decision_counts": list(r.decision_counts),
        "summary": r.summary,
        "error": r.error,
        "seconds": r.seconds,
    }


@dataclass(slots=True)
class Collection:
    """The records of an analysis run; ``seconds``, ``workers`` and ``backend`` are run info, not numbers."""

    game: str
    player_counts: list[int]
    games: int
    seed: int
    bots: list[str]
    options: dict
    records: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    workers: int = 1
    backend: str = "local"

    def run_info(self) -> dict[str, Any]:
        n = len(self.records)
        play = sum(r.get("seconds", 0.0) for r in self.records)
        return {
            "seconds": round(self.seconds, 3),
            "workers": self.workers,
            "backend": self.backend,
            "games": n,
            "games_per_second": round(n / self.seconds, 2) if self.seconds else 0.0,
            "cpu_seconds_playing": round(play, 3),
        }


def collect(
    game: str,
    player_counts: Sequence[int],
    games: int,
    seed: int,
    bots: Sequence[str] | None = None,
    options: dict | None = None,
    *,
    workers: int = 1,
    backend: str = "local",
    progress: Callable[[int], None] | None = None,
) -> Collection:
    """Play ``games`` games at each of ``player_counts`` (see the module doc)."""
    from .parallel import run_games

    options = dict(options or {})
    counts = sorted(set(player_counts))
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if not counts:
        raise ValueError("at least one player count is needed")
    for p in counts:
        make_game(game, p, **options)  # an unknown game, a bad count or option fails here
    specs = list(bots) if bots else ["random"]
    task = AnalyzeTask(game, tuple(counts), games, options, seed, tuple(specs))
    out = Collection(game, counts, games, seed, specs, options, workers=workers, backend=backend)
    t0 = time.perf_counter()
    out.records = run_games(task, range(games * len(counts)), workers, backend, progress=progress)
    out.seconds = time.perf_counter() - t0
    return out


# ----------------------------------------------------------------------------- statistics


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (``numpy.percentile``'s default)."""
    n = len(sorted_values)
    if n == 0:
        raise ValueError("quantile of no values")
    pos = (n - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, n - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def describe(values: Iterable[float]) -> dict[str, Any]:
    """``n, mean, std`` (sample), ``min, q1, median, q3, max`` of ``values`` (None when empty)."""
    v = sorted(float(x) for x in values)
    n = len(v)
    if not n:
        return {"n": 0, "mean": None, "std": None, "min": None, "q1": None, "median": None, "q3": None, "max": None}
    mean = math.fsum(v) / n
    std = math.sqrt(math.fsum((x - mean) ** 2 for x in v) / (n - 1)) if n > 1 else 0.0
    return {
        "n": n,
        "mean": _r(mean, 4),
        "std": _r(std, 4),
        "min": _r(v[0], 4),
        "q1": _r(quantile(v, 0.25), 4),
        "median": _r(quantile(v, 0.5), 4),
        "q3": _r(quantile(v, 0.75), 4),
        "max": _r(v[-1], 4),
    }


# ----------------------------------------------------------------------------- per-game facts


def analysis_of(game: str) -> Analysis:
    """The title's analysis (its ``analysis`` part, :mod:`.titleanalysis`)."""
    return title(game).load("analysis")()


def _turn_order(an: Analysis, summary: dict, seat: int, players: int) -> int:
    return (seat - an.first_player(summary)) % players


def score_row_names(game: str) -> tuple[str, ...]:
    """The scorepad rows of ``game`` (its analysis's ``score_rows``)."""
    return analysis_of(game).score_rows()


def length_measures(game: str) -> tuple[str, ...]:
    """Game length measures: decisions per game and per player, and the title's own (Red
    Rising's turns and rounds, Red North's rounds)."""
    return analysis_of(game).length_measures()


def _lengths(an: Analysis, rec: dict) -> dict[str, float]:
    players = rec["players"]
    out = {"decisions": float(rec["decisions"]), "decisions_per_player": rec["decisions"] / players}
    out.update(an.lengths(rec["summary"]))
    return out


# ----------------------------------------------------------------------------- analysis


def analyze(col: Collection) -> dict[str, Any]:
    """The report's numbers (JSON-able, deterministic; no timings)."""
    game = col.game
    an = analysis_of(game)
    g = make_game(game, col.player_counts[0], **col.options)
    ok = [r for r in col.records if r["summary"] is not None]
    counts = col.player_counts
    keys: list = list(counts) + (["all"] if len(counts) > 1 else [])
    distinct_bots = list(dict.fromkeys(col.bots))

    seat: dict[Any, dict[Any, Any]] = {k: {} for k in keys}
    order: dict[Any, dict[Any, Any]] = {k: {} for k in keys}
    groups: dict[str, dict[Any, dict[Any, Any]]] = {name: {k: {} for k in keys} for name in an.groups}
    bot: dict[Any, dict[Any, Any]] = {k: {} for k in keys}
    per_count: dict = {
        k: {"games": 0, "finished": 0, "errors": 0, "tied": 0, "winning": [], "margin": [], "counted": {}} for k in keys
    }
    row_names = an.score_rows()
    row_values: dict = {}
    length_values: dict = {}

    for rec in col.records:
        P = rec["players"]
        for k in (P, "all"):
            if k in per_count:
                per_count[k]["games"] += 1
                per_count[k]["errors" if rec["summary"] is None else "finished"] += 1
    for rec in ok:
        P, s = rec["players"], rec["summary"]
        credit = shared_wins(P, s["winners"])
        rows = an.score_values(s, P)
        scores = [float(x) for x in s["scores"]]
        top = sorted(scores, reverse=True)
        lengths = _lengths(an, rec)
        for k in (P, "all"):
            if k not in per_count:
                continue
            pc = per_count[k]
            pc["tied"] += len(s["winners"]) > 1
            pc["winning"].append(max(scores[w] for w in s["winners"]))
            pc["margin"].append(top[0] - top[1] if P > 1 else 0.0)
            for fact in an.counted:
                seen = pc["counted"].setdefault(fact, {})
                seen[s[fact]] = seen.get(s[fact], 0) + 1
            for name, v in lengths.items():
                length_values.setdefault(k, {}).setdefault(name, []).append(v)
        for p in range(P):
            t = _turn_order(an, s, p, P)
            grouped = an.player_groups(s, p)
            for k in (P, "all"):
                if k not in per_count:
                    continue
                seat[k].setdefault(p, Tally()).add(credit[p], P)
                order[k].setdefault(t, Tally()).add(credit[p], P)
                for name, grp in grouped.items():
                    groups[name][k].setdefault(grp, Tally()).add(credit[p], P)
                bot[k].setdefault(rec["bots"][p], Tally()).add(credit[p], P)
                for name, v in rows[p].items():
                    row_values.setdefault(k, {}).setdefault(name, []).append(v)

    def table(d: dict, label: str, sort_key=None) -> list[dict]:
        out = []
        for k in keys:
            groups = sorted(d[k], key=sort_key) if sort_key else list(d[k])
            for grp in groups:
                out.append({"players": k, label: grp, **d[k][grp].json()})
        return out

    win_rates: dict[str, Any] = {
        "by_seat": table(seat, "seat", int),
        "by_turn_order": table(order, "turn_order", int),
    }
    for name, by in groups.items():
        win_rates[f"by_{name}"] = table(by, name, str)
    if len(distinct_bots) > 1:
        win_rates["by_bot"] = table(bot, "bot", distinct_bots.index)

    games_by_count = []
    for k in keys:
        pc = per_count[k]
        row = {
            "players": k,
            "games": pc["games"],
            "finished": pc["finished"],
            "errors": pc["errors"],
            "tied_games": pc["tied"],
            "tie_rate": _r(pc["tied"] / pc["finished"]) if pc["finished"] else None,
            "winning_score": describe(pc["winning"]),
            "winning_margin": describe(pc["margin"]),
        }
        for fact in an.counted:
            row[fact] = dict(sorted(pc["counted"].get(fact, {}).items()))
        games_by_count.append(row)

    numbers: dict[str, Any] = {
        "schema": SCHEMA,
        "game": game,
        "title": g.title,
        "settings": {
            "player_counts": counts,
            "games_per_player_count": col.games,
            "seed": col.seed,
            "bots": col.bots,
            "options": col.options,
        },
        "games": {
            "total": len(col.records),
            "finished": len(ok),
            "errors": len(col.records) - len(ok),
            "by_player_count": games_by_count,
        },
        "win_rates": win_rates,
        "scores": {
            "rows": list(row_names),
            "stats": [
                {"players": k, "row": name, **describe(row_values.get(k, {}).get(name, []))}
                for k in keys
                for name in row_names
            ],
        },
        "length": {
            "measures": list(an.length_measures()),
            "stats": [
                {"players": k, "measure": m, **describe(vals)}
                for k in keys
                for m, vals in length_values.get(k, {}).items()
            ],
        },
    }
    numbers.update(an.sections(ok))
    numbers["errors"] = [
        {"players": r["players"], "game": r["index"], "seed": r["seed"], "bots": r["bots"], "error": r["error"]}
        for r in col.records
        if r["summary"] is None
    ]
    return numbers


def raw_rows(col: Collection) -> tuple[list[dict], list[dict]]:
    """One row per finished game and one per player-game (for ``games.csv`` / ``players.csv``)."""
    an = analysis_of(col.game)
    row_names = an.score_rows()
    games_rows, players_rows = [], []
    for rec in col.records:
        s = rec["summary"]
        if s is None:
            continue
        P = rec["players"]
        credit = shared_wins(P, s["winners"])
        rows = an.score_values(s, P)
        lengths = _lengths(an, rec)
        gr = {
            "players": P,
            "game": rec["index"],
            "seed": rec["seed"],
            "bots": " ".join(rec["bots"]),
            **{k: (_r(v, 4) if k == "decisions_per_player" else int(v)) for k, v in lengths.items()},
            "winners": " ".join(str(w) for w in s["winners"]),
            "scores": " ".join(f"{x:g}" for x in s["scores"]),
        }
        for fact in an.counted:
            gr[fact] = s[fact]
        games_rows.append(gr)
        for p in range(P):
            pr = {
                "players": P,
                "game": rec["index"],
                "seed": rec["seed"],
                "seat": p,
                "turn_order": _turn_order(an, s, p, P),
                "bot": rec["bots"][p],
            }
            pr.update(an.player_columns(s, p))
            pr["win"] = _r(credit[p])
            pr.update({name: rows[p][name] for name in row_names})
            players_rows.append(pr)
    return games_rows, players_rows


__all__ = [
    "AnalyzeTask",
    "Collection",
    "RN_ROWS",
    "SCHEMA",
    "analyze",
    "collect",
    "describe",
    "quantile",
    "raw_rows",
    "record_of",
]
