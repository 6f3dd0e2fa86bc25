"""The review's winning chances, calibrated: the search's raw chance mapped to the frequency of
wins it stands for.

The search's value of an option is the mean result of its playouts (Red North's play to the
end of the game with MAST-guided random moves; Red Rising's stop after 8 turn starts and ask
the learned model): a win rate among semi-random continuations, not among the players'. The
map is a logistic in the raw chance's logit, ``sigmoid(slope * logit(p) + intercept)``, per
title and number of players (those measured: 2) and, in a title played in rounds, per round,
fitted on 200 expert-vs-ismcts games and measured on 200 others (``bench/calibrate_review.py``,
the README's **Is it right?**: 4 sampled decisions a game, 200 iterations per decision).

* Red Rising (301 games): the raw chances are already calibrated (slope 1.08; Brier 0.159
  raw and calibrated, the constant 1/2 scores 0.25).
* Red North (400 games): the raw chances are overconfident and, in Spring and Summer, no
  better than a coin (Brier 0.261 and 0.291): random play to the end does not fight back, so
  an early lead looks safe. The slopes of Spring and Summer are held at the floor (0.05: the
  order of the options is kept, the chance is about the base rate and the marks are few),
  Ragnarok's is 0.54; Brier 0.231 raw, 0.215 calibrated.

The map is monotone, so the preferred option (the expert's choice) and the order of the options
do not change; marks are losses of the calibrated chances. It was fitted at 200 iterations a
decision: a review at the server's default 0.2 s searches more (about 1,500 iterations in Red
North), where the raw chances may say more than the map lets them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..core import State

EDGE = 1e-3  # raw chances are clipped to [EDGE, 1 - EDGE] before the logit


def logit(p: float) -> float:
    p = min(max(p, EDGE), 1 - EDGE)
    return math.log(p / (1 - p))


def sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-min(max(z, -50.0), 50.0)))


def calibrated(game: str, players: int, rnd: int | None, p: float) -> float:
    """``p``, the search's raw chance in a ``players``-player ``game`` (in round ``rnd``),
    calibrated (unchanged where there is no map: the player counts not measured)."""
    m = maps(game).get(players, {}).get(rnd)
    return p if m is None else sigmoid(m[0] * logit(p) + m[1])


def maps(game: str) -> Mapping[int, Mapping[int | None, tuple[float, float]]]:
    """The title's maps per number of players and round (its ``review_calibration``: the numbers
    ``python bench/calibrate_review.py report`` prints), none for a title not measured."""
    from ..core.registry import title

    return title(game).review_calibration


def calibrate(state: State, p: float) -> float:
    """``p``, a raw chance at ``state`` (a re-deal of the seat's view: its title and round)."""
    return calibrated(state.game.name, state.game.players, state.round_number(), p)


# ------------------------------------------------------------------ measuring (bench/*review*.py)
BINS = 10  # the reliability table's bins of predicted chance


def brier(preds: list[tuple[float, float]]) -> float:
    """The mean squared error of ``(predicted chance, outcome)`` pairs (0: perfect; 1/4: always 1/2
    in a game of two)."""
    return sum((p - o) ** 2 for p, o in preds) / max(1, len(preds))


def reliability(preds: list[tuple[float, float]]) -> list[dict[str, Any]]:
    """The reliability table: per tenth of predicted chance, how many decisions, their mean
    prediction and the mean outcome (calibrated: the two agree)."""
    rows = []
    for b in range(BINS):
        lo, hi = b / BINS, (b + 1) / BINS
        got = [(p, o) for p, o in preds if lo <= p < hi or (b == BINS - 1 and p == 1.0)]
        if got:
            rows.append(
                {
                    "bin": f"{lo:.1f}–{hi:.1f}",
                    "decisions": len(got),
                    "predicted": round(sum(p for p, _ in got) / len(got), 3),
                    "observed": round(sum(o for _, o in got) / len(got), 3),
                }
            )
    return rows
