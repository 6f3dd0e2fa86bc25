"""The review's winning chances, calibrated: the search's raw chance mapped to the frequency of
wins it stands for.

The search's value of an option is the mean result of its playouts (Red North's play to the
end of the game with MAST-guided random moves; Red Rising's stop after 8 turn starts and ask
the learned model): a win rate among semi-random continuations, not among the players'. The
map is a logistic in the raw chance's logit, ``sigmoid(slope * logit(p) + intercept)``, per
title, fitted on expert-vs-ismcts games and measured on others
(``bench/calibrate_review.py``, the README's **Is it right?**). A slope under 1 pulls
overconfident chances toward the middle. It is monotone, so the preferred option (the
expert's choice) and the order of the options do not change; marks are losses of the
calibrated chances.
"""

from __future__ import annotations

import math

from ..core import State

#: per title: (slope, intercept), from ``python bench/calibrate_review.py report`` (see the module doc)
MAPS: dict[str, tuple[float, float]] = {}
EDGE = 1e-3  # raw chances are clipped to [EDGE, 1 - EDGE] before the logit


def logit(p: float) -> float:
    p = min(max(p, EDGE), 1 - EDGE)
    return math.log(p / (1 - p))


def sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-min(max(z, -50.0), 50.0)))


def calibrated(game: str, p: float) -> float:
    """``p``, the search's raw chance in ``game``, calibrated (unchanged for a title without a map)."""
    m = MAPS.get(game)
    return p if m is None else sigmoid(m[0] * logit(p) + m[1])


def calibrate(state: State, p: float) -> float:
    return calibrated(state.game.name, p)
