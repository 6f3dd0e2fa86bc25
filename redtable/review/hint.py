"""A hint while learning: the option the expert prefers at a seat's pending decision, and why.

The same search as a review's (:func:`~.engine.review_decision`: a fresh expert, from the
seat's information set only, deterministic for an iteration budget and a seed), answered as
data for the page to word: the preferred option and the seat's chance to win after it, and
the runner-up (the option with the most visits after it) with its chance, and what the preferred
option would do better than the runner-up that the seat can know (``why``, as a review's), so
that the sentence can say why ("it would have kept the Sovereign token: a 62% chance to win;
next best, Luna: 48%"). The chances are calibrated (:mod:`.calibration`). A decision with one
option needs no search: that option, with no estimate.
"""

from __future__ import annotations

from typing import Any

from ..bots.common import CanonicalRng, seed_of
from ..bots.expert import ExpertBot
from ..core import State
from .calibration import calibrate
from .consequences import compare, facts_of
from .engine import Budget, Forward


def hint(state: State, budget: Budget, seed: int = 0, step: int = 0) -> dict[str, Any]:
    """``{"preferred", "win", "second", "win_second", "why"}`` for ``state``'s pending decision
    (reads it only through ``decision()`` and ``resample`` of the deciding seat); ``why``: what
    the preferred option does better than the runner-up (:mod:`.consequences`)."""
    d = state.pending()
    if len(d.options) == 1:
        return {"preferred": d.options[0], "win": None, "second": None, "win_second": None, "why": []}
    bot = ExpertBot(seed=seed_of(seed, step), iterations=budget.iterations, seconds=budget.seconds)
    preferred = bot.choose(state)
    root = bot.last_root
    assert root is not None
    kids = root.children
    probe = state.resample(d.player, CanonicalRng(seed_of(seed, step, 2)))  # the seat's view, as a bot reads it

    def win(a: str) -> float:
        ch = kids[a]
        return round(calibrate(probe, ch.w / ch.n), 4) if ch.n else 0.0

    others = sorted((a for a in kids if a != preferred), key=lambda a: (-kids[a].n, d.options.index(a)))
    second = others[0] if others else None
    why: list[dict[str, Any]] = []
    if second is not None:
        forward = Forward(bot, state, d.player, budget, seed_of(seed, step, 3))
        now = facts_of(probe, d.player)
        if now is not None:
            why = [c.to_json() for c in compare(now, forward(second)[1], forward(preferred)[1])]
    return {
        "preferred": preferred,
        "win": win(preferred) if preferred in kids else None,
        "second": second,
        "win_second": win(second) if second is not None else None,
        "why": why,
    }
