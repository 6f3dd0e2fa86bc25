"""Tournaments: several bots play many games with rotated seats (the `redtable tournament` command).

Seat rotation
-------------
With ``n`` bots and ``P`` seats, game ``index`` is seated by :func:`seating`, a fixed
schedule that repeats every :func:`rotation_period` games:

* ``n <= P`` (at least as many seats as bots): the bots fill the seats cyclically — seat
  ``s`` gets bot ``(s + r) mod n`` — and ``r`` runs over ``0..n-1``, so in every ``n`` games
  each bot sits in each seat exactly once. With ``n < P`` a bot holds several seats of one
  game; each seat it holds counts as one game played by that bot.
* ``n > P`` (more bots than seats): every combination of ``P`` of the ``n`` bots (in
  lexicographic order) plays ``P`` games in a row, rotating its members through the seats.
  Each bot plays ``C(n-1, P-1)`` games per cycle in each seat and meets every other bot.
* When three or more bots share a table, the second half of the period repeats the
  first with the bots in reverse order, so each bot sits after each other bot as often as
  before it (turn order matters in both games).

The period is ``n * d`` or ``C(n, P) * P * d`` games (``d`` = 2 with reversal, else 1); with
``K`` a multiple of it every bot plays every seat equally often, and with ``n <= P`` a
multiple of ``n`` already balances the seats. Seating depends only on the game index, and
each game's seed only on ``(seed, index)``, so a tournament's results are the same for any
number of workers.

Win rate, confidence interval and Elo are in :mod:`redtable.sim.stats`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from ..core import InvalidOptions, make_game
from .simulate import GameResult, play_one
from .stats import elo_ratings, pairwise_outcomes, shared_wins, wilson_interval

# Bots whose spec takes a search budget as its second field: "ismcts:0.5s", "ismcts:2000it:c=0.5".
SEARCH_BOTS = ("ismcts", "expert")
_BUDGET = re.compile(r"^(?:(?:\d+(?:\.\d*)?|\.\d+)(?:s|ms)|\d+it)$")


def check_budget(budget: str) -> str:
    """A search budget per decision: time (``0.5s``, ``250ms``) or iterations (``2000it``)."""
    b = budget.strip().lower()
    if not _BUDGET.match(b) or float(re.sub(r"[a-z]+$", "", b)) <= 0:
        raise InvalidOptions(
            f"bad budget {budget!r}; expected time per decision like '0.5s' or '250ms', or iterations like '2000it'"
        )
    return b


def apply_budget(specs: list[str], budget: str | None) -> list[str]:
    """Give ``budget`` to the search bots (``ismcts``) whose spec has none of its own.

    A spec is ``name[:budget][:key=value...]``: ``ismcts`` becomes ``ismcts:0.5s`` and
    ``ismcts:c=0.5`` becomes ``ismcts:0.5s:c=0.5``; ``ismcts:2000it`` and non-search bots
    are left alone.
    """
    if budget is None:
        return list(specs)
    budget = check_budget(budget)
    out = []
    for spec in specs:
        fields = spec.split(":")
        if fields[0].strip().lower() in SEARCH_BOTS and (len(fields) == 1 or "=" in fields[1]):
            spec = ":".join([fields[0], budget, *fields[1:]])
        out.append(spec)
    return out


def _lineups(n: int, players: int) -> tuple[list[tuple[int, ...]], int]:
    base = [tuple(range(n))] if n <= players else list(combinations(range(n), players))
    return base, 2 if len(base[0]) >= 3 else 1


def rotation_period(n: int, players: int) -> int:
    """Games after which the seating schedule repeats (every bot then played every seat equally)."""
    base, directions = _lineups(n, players)
    return len(base) * len(base[0]) * directions


def seating(n: int, players: int, index: int) -> list[int]:
    """The bot (an index into the bot list) in each seat of game ``index``."""
    if n < 1:
        raise ValueError("a tournament needs at least one bot")
    base, directions = _lineups(n, players)
    m = len(base[0])
    half = len(base) * m
    g = index % (half * directions)
    lineup = base[(g % half) // m]
    if g >= half:
        lineup = lineup[::-1]
    r = g % m
    return [lineup[(s + r) % m] for s in range(players)]


@dataclass(slots=True, frozen=True)
class TournamentTask:
    """Play game ``index`` of a tournament (picklable, for :func:`~redtable.sim.parallel.run_games`)."""

    game: str
    players: int
    options: dict
    seed: int
    specs: tuple[str, ...]

    def __call__(self, index: int) -> tuple[list[int], GameResult]:
        seats = seating(len(self.specs), self.players, index)
        r = play_one(self.game, self.players, self.options, index, self.seed, [self.specs[b] for b in seats])
        return seats, r


def display_names(specs: list[str]) -> list[str]:
    """Bot names for the report: the spec, with ``#2``, ``#3``... for repeated specs."""
    seen: dict[str, int] = {}
    out = []
    for s in specs:
        seen[s] = seen.get(s, 0) + 1
        out.append(s if seen[s] == 1 else f"{s}#{seen[s]}")
    return out


@dataclass(slots=True)
class TournamentReport:
    game: str
    players: int
    games: int
    seed: int
    specs: list[str]
    seatings: list[list[int]] = field(default_factory=list)
    results: list[GameResult] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        n = len(self.specs)
        played = [0] * n
        wins = [0.0] * n
        score = [0.0] * n
        spent = [0.0] * n
        calls = [0] * n
        by_seat = [[0] * self.players for _ in range(n)]
        outcomes: list[tuple[int, int, float]] = []
        errors = []
        for seats, r in zip(self.seatings, self.results, strict=True):
            for s, b in enumerate(seats):
                spent[b] += r.decision_seconds[s] if r.decision_seconds else 0.0
                calls[b] += r.decision_counts[s] if r.decision_counts else 0
            if r.summary is None:
                errors.append({"game": r.index, "seed": r.seed, "bots": r.bots, "error": r.error})
                continue
            scores, winners = r.summary["scores"], r.summary["winners"]
            credit = shared_wins(self.players, winners)
            for s, b in enumerate(seats):
                played[b] += 1
                wins[b] += credit[s]
                score[b] += scores[s]
                by_seat[b][s] += 1
            outcomes.extend(pairwise_outcomes(seats, scores, winners))
        elo = elo_ratings(n, outcomes)
        bots = []
        for b, name in enumerate(display_names(self.specs)):
            lo, hi = wilson_interval(wins[b], played[b])
            bots.append(
                {
                    "name": name,
                    "win_rate": round(wins[b] / played[b], 4) if played[b] else 0.0,
                    "ci95": [round(lo, 4), round(hi, 4)],
                    "elo": round(elo[b], 1),
                    "mean_score": round(score[b] / played[b], 3) if played[b] else 0.0,
                    "mean_decision_seconds": round(spent[b] / calls[b], 8) if calls[b] else 0.0,
                    "games": played[b],
                    "wins": round(wins[b], 4),
                    "games_by_seat": by_seat[b],
                    "decisions": calls[b],
                }
            )
        out: dict[str, Any] = {
            "games": self.games,
            "bots": bots,
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "rotation_period": rotation_period(n, self.players),
            "errors": len(errors),
            "seconds": round(self.seconds, 4),
        }
        if errors:
            out["error_details"] = errors[:20]
        return out


def tournament(
    game_name: str,
    players: int,
    bots: list[str],
    games: int,
    seed: int = 0,
    options: dict | None = None,
    budget: str | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    backend: str = "local",
) -> TournamentReport:
    """Play ``games`` games between ``bots`` (specs for ``make_bot``) with rotated seats."""
    from ..bots import make_bot
    from .parallel import run_games

    options = options or {}
    make_game(game_name, players, **options)  # validate before starting
    if not bots:
        raise InvalidOptions("a tournament needs at least one bot")
    specs = apply_budget(bots, budget)
    for s in specs:
        make_bot(s)  # an unknown bot or a bad spec fails here, not in a worker
    report = TournamentReport(game_name, players, games, seed, specs)
    task = TournamentTask(game_name, players, options, seed, tuple(specs))
    t0 = time.perf_counter()
    pairs = run_games(task, range(games), workers, backend, progress=progress)
    report.seconds = time.perf_counter() - t0
    report.seatings = [p[0] for p in pairs]
    report.results = [p[1] for p in pairs]
    return report


__all__ = [
    "SEARCH_BOTS",
    "TournamentReport",
    "TournamentTask",
    "apply_budget",
    "check_budget",
    "display_names",
    "rotation_period",
    "seating",
    "tournament",
]
