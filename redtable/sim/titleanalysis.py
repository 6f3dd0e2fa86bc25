"""What the balance analysis (:mod:`.analyze`) needs to know of a title: the generic
:class:`Analysis` (a title's ``analysis`` part by default) and the tallies it is built of.

A title with more to say subclasses :class:`Analysis` (``analysis_redrising.py``,
``analysis_rednorth.py``): its scorepad rows, its measures of a game's length, the
per-game facts counted by player count (how Red North's games were decided), the groups
of players whose win rates are compared (Red Rising's houses), the extra columns of
``players.csv`` and its own sections of ``report.json`` (cards, Gods, Outposts). The
generic one knows only what the protocol's ``summary()`` gives: scores, winners and the
number of decisions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from .stats import wilson_interval


def rounded(x: float, digits: int = 6) -> float:
    return round(x, digits)


class Tally:
    """Win credit over player-games: ``n``, ``wins`` (shared), ``expected`` (sum of 1/P)."""

    __slots__ = ("n", "wins", "expected", "values")

    def __init__(self) -> None:
        self.n = 0
        self.wins = 0.0
        self.expected = 0.0
        self.values: list[float] = []

    def add(self, credit: float, players: int, value: float | None = None) -> None:
        self.n += 1
        self.wins += credit
        self.expected += 1.0 / players
        if value is not None:
            self.values.append(value)

    def json(self) -> dict[str, Any]:
        lo, hi = wilson_interval(self.wins, self.n)
        return {
            "n": self.n,
            "wins": rounded(self.wins),
            "win_rate": rounded(self.wins / self.n) if self.n else None,
            "ci95": [rounded(lo), rounded(hi)],
            "expected": rounded(self.expected / self.n) if self.n else None,
        }

    def mean_value(self) -> float | None:
        return rounded(math.fsum(self.values) / len(self.values), 4) if self.values else None


def tallies(keys: Iterable) -> dict:
    return {k: Tally() for k in keys}


class Analysis:
    """The analysis of any title (see the module docstring); ``summary`` is a finished
    game's ``State.summary()``."""

    #: how the report names the first player of turn order ("Turn-order position 0 is the
    #: first player ...")
    first_player_words = "of the game"
    #: the per-game facts of the summary counted by player count (and written in games.csv)
    counted: tuple[str, ...] = ()
    #: the groups of :meth:`player_groups`, in the order of ``win_rates``
    groups: tuple[str, ...] = ()
    #: the length measures drawn in the length chart (all but these are drawn)
    undrawn_lengths: tuple[str, ...] = ()

    def first_player(self, summary: dict) -> int:
        """The seat at turn-order position 0."""
        return int(summary.get("first", 0))

    def score_rows(self) -> tuple[str, ...]:
        return ("total",)

    def score_values(self, summary: dict, players: int) -> list[dict[str, float]]:
        """Each seat's values in :meth:`score_rows`."""
        return [{"total": float(summary["scores"][p])} for p in range(players)]

    def length_measures(self) -> tuple[str, ...]:
        return ("decisions", "decisions_per_player", *self.extra_lengths())

    def extra_lengths(self) -> tuple[str, ...]:
        return ()

    def lengths(self, summary: dict) -> dict[str, float]:
        """The measures of :meth:`extra_lengths` of one game."""
        return {}

    def player_groups(self, summary: dict, seat: int) -> dict[str, str]:
        """The seat's group of each of :attr:`groups`, whose win rates are compared
        (``win_rates["by_<group>"]``)."""
        return {}

    def player_columns(self, summary: dict, seat: int) -> dict[str, Any]:
        """Extra columns of a seat's row in players.csv."""
        return {}

    def sections(self, ok: list[dict]) -> dict[str, list[dict]]:
        """The title's own sections of report.json over the finished games' records."""
        return {}


__all__ = ["Analysis", "Tally", "rounded", "tallies"]
