"""What a review says, in the terminal's language (en/uk/pl, :mod:`redtable.i18n`).

The engine (:mod:`.engine`) emits data only: the actions as the record writes them, the
estimates and ``why`` (the facts the preferred option does better, :mod:`.consequences`).
The words are made here from that data (``why`` in the page's catalog, ``review.why.*``,
which the page's ``why.js`` words by the same rules): an option's label is the one the
terminal shows for it when the decision is offered (the game's renderer,
:mod:`redtable.play`, through the same catalogs and card names), and the sentence that
says what the preferred option would have done is a catalog sentence filled with those
labels and the estimates. The labels are rendered from the seat's own view at that step,
so they never name a card the seat could not see.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..core import State
from ..i18n import tr
from ..i18n.page import say
from .consequences import SAID
from .engine import DecisionReview

TOKENS = ("sovereign", "champion")  # facts that are a token held (a share of the plays), not a count


def percent(p: float) -> str:
    return f"{round(100 * p)}%"


def option_label(renderer, state: State, option: str) -> str:
    """The option's label (rich markup) as the terminal offers it to the deciding seat."""
    d = state.pending()
    return renderer.option_row(state, d, state.view(d.player), option)[0]


def mark_word(mark: str | None) -> str:
    return {"mistake": tr("mistake"), "blunder": tr("blunder")}.get(mark or "", "")


def consequence(c: Mapping[str, Any], lang: str | None = None) -> str:
    """One fact of a ``why`` (:mod:`.consequences`, as JSON) in words: what the preferred
    option would have done (the page's catalog, ``review.why.*``; the page words it the same)."""
    fact = c["fact"]
    if fact in TOKENS:
        if c["preferred"] >= 0.75 and c["taken"] <= 0.25:
            return say(f"review.why.{fact}_{'kept' if c['now'] >= 0.5 else 'taken'}", lang)
        return say(f"review.why.{fact}_more", lang, p=percent(c["preferred"]), q=percent(c["taken"]))
    return say(f"review.why.{fact}", lang, n=max(1, int(c["preferred"] - c["taken"] + 0.5)))


def why_words(why: Iterable[Mapping[str, Any]], lang: str | None = None) -> str | None:
    """The first facts of a ``why`` (at most two) in one phrase, in ``lang`` (default: the
    terminal's); None when there is none."""
    said = [consequence(c, lang) for c in list(why)[:SAID]]
    if not said:
        return None
    return said[0] if len(said) == 1 else say("review.why.and", lang, a=said[0], b=said[1])


def sentence(renderer, state: State, r: DecisionReview) -> str:
    """What the preferred option would have done (rich markup), for a decision whose
    preferred option differs from the one taken: its consequences the seat could know, when
    there are notable ones, and the chances."""
    what = why_words(c.to_json() for c in r.why)
    if what is not None:
        out = say(
            "review.why",
            preferred=option_label(renderer, state, r.preferred),
            taken=option_label(renderer, state, r.taken),
            what=what,
            better=percent(r.win_preferred),
            worse=percent(r.win_taken),
        )
        if r.vp_preferred is not None and r.vp_taken is not None and not any(c.fact == "vp" for c in r.why[:SAID]):
            out += " " + say("review.vp", vp_better=f"{r.vp_preferred:.1f}", vp_worse=f"{r.vp_taken:.1f}")
        return out
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
