"""The review's winning chances, calibrated: the search's raw chance mapped to the frequency of
wins it stands for.

The search's value of an option is the mean result of its playouts (Red North's play to the
end of the game with MAST-guided random moves; Red Rising's stop after 8 turn starts and ask
the learned model): a win rate among semi-random continuations, not among the players'. The
map is a logistic in the raw chance's logit, ``sigmoid(slope * logit(p) + intercept)``, per
title and, in a title played in rounds, per round (a Red North search from Spring plays
semi-random moves to the end of the game, and its chances say far less than the same
search's in Ragnarok), fitted on expert-vs-ismcts games and measured on others
(``bench/calibrate_review.py``, the README's **Is it right?**). A slope under 1 pulls
overconfident chances toward the middle; near 0, the raw chance says little and the
calibrated one is close to how often that seat wins there at all. It is monotone, so the preferred option (the
expert's choice) and the order of the options do not change; marks are losses of the
calibrated chances.
"""

from __future__ import annotations

import math

from ..core import State

#: per title and number of players, per round (``None``: a title without rounds): (slope,
#: intercept), printed by ``python bench/calibrate_review.py report`` (see the module doc)
MAPS: dict[tuple[str, int], dict[int | None, tuple[float, float]]] = {
    ("red-rising", 2): {None: (1.288, 0.079)},
    ("red-north", 2): {1: (0.05, 0.02), 2: (0.121, -0.388), 3: (0.545, 0.157)},
}
EDGE = 1e-3  # raw chances are clipped to [EDGE, 1 - EDGE] before the logit


def logit(p: float) -> float:
    p = min(max(p, EDGE), 1 - EDGE)
    return math.log(p / (1 - p))


def sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-min(max(z, -50.0), 50.0)))


def calibrated(game: str, players: int, rnd: int | None, p: float) -> float:
    """``p``, the search's raw chance in a ``players``-player ``game`` (in round ``rnd``),
    calibrated (unchanged where there is no map: the player counts not measured)."""
    m = MAPS.get((game, players), {}).get(rnd)
    return p if m is None else sigmoid(m[0] * logit(p) + m[1])


def calibrate(state: State, p: float) -> float:
    """``p``, a raw chance at ``state`` (a re-deal of the seat's view: its title and round)."""
    return calibrated(state.game.name, state.game.players, state.round_number(), p)
