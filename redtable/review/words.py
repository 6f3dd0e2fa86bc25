"""What a review says, in the terminal's language (en/uk/pl, :mod:`redtable.i18n`).

The engine (:mod:`.engine`) emits data only: the actions as the record writes them and
the estimates. The words are made here from that data: an option's label is the one the
terminal shows for it when the decision is offered (the game's renderer,
:mod:`redtable.play`, through the same catalogs and card names), and the sentence that
says what the preferred option would have done is a catalog sentence filled with those
labels and the estimates. The labels are rendered from the seat's own view at that step,
so they never name a card the seat could not see.
"""

from __future__ import annotations

from ..core import State
from ..i18n import tr
from .engine import DecisionReview


def percent(p: float) -> str:
    return f"{round(100 * p)}%"


def option_label(renderer, state: State, option: str) -> str:
    """The option's label (rich markup) as the terminal offers it to the deciding seat."""
    d = state.pending()
    return renderer.option_row(state, d, state.view(d.player), option)[0]


def mark_word(mark: str | None) -> str:
    return {"mistake": tr("mistake"), "blunder": tr("blunder")}.get(mark or "", "")


def sentence(renderer, state: State, r: DecisionReview) -> str:
    """What the preferred option would have done (rich markup), for a decision whose
    preferred option differs from the one taken."""
    out = tr(
        "Better: {preferred}, a {better} chance to win instead of {worse} after {taken}.",
        preferred=option_label(renderer, state, r.preferred),
        taken=option_label(renderer, state, r.taken),
        better=percent(r.win_preferred),
        worse=percent(r.win_taken),
    )
    if r.vp_preferred is not None and r.vp_taken is not None:
        out += " " + tr(
            "At this round's Resolution: {vp_better} VP expected instead of {vp_worse}.",
            vp_better=f"{r.vp_preferred:.1f}",
            vp_worse=f"{r.vp_taken:.1f}",
        )
    return out
