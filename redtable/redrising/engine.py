"""Red Rising turn flow as a stack machine of small steps.

A turn is a program that sometimes needs an answer. The state keeps a stack of
frames ``(handler, node, ctx)``: ``node`` is an effect tuple such as
``("bonus", MARS)`` and ``ctx`` a small dict (acting player, source card, deploy
location, bound values). Running the stack pops frames and executes them until a
handler needs a choice; that frame goes back on the stack and its
:class:`Decision` is what the state offers. ``apply`` pops it again with the
answer. Frames and their ctx are never mutated, so a clone copies the stack list
shallowly.

Card abilities (``abilities.py``, compiled into :mod:`.rules`) are effect tuples built
from the same vocabulary, registered in :data:`OPS` with :func:`op`, so a card is data,
not code.

The engine is split by concern, as Red North's is: :mod:`.state` (the fields, setup, copy,
the machine, card and token moves), :mod:`.flow` (the turn flow's steps), :mod:`.hidden`
(re-deals and tripwires), :mod:`.views` (views, summaries, descriptions); this module makes
:class:`RRState` of them, with the outcome of a game (scores, winners, the final position)
and the search copy (:class:`SearchRRState`). The public names of the parts are importable
from here.
"""

from __future__ import annotations

from typing import Any

from ..core import Event
from .board import (
    HOUSE_NAMES,
)
from .flow import STEPS
from .hidden import HiddenInfo
from .state import (
    LOAN_SHARK,
    NO_ONLY,
    OPS,
    WINDOW_KINDS,
    YES_NO,
    Handler,
    RRStateBase,
    Turn,
    gainable,
    op,
    seat_id,
    seat_of,
)
from .views import Views

__all__ = [
    "LOAN_SHARK",
    "NO_ONLY",
    "OPS",
    "STEPS",
    "WINDOW_KINDS",
    "YES_NO",
    "Handler",
    "RRState",
    "RRStateBase",
    "SearchRRState",
    "Turn",
    "gainable",
    "op",
    "seat_id",
    "seat_of",
]


class RRState(Views, HiddenInfo, RRStateBase):
    """A Red Rising position (:mod:`.state`), with its views (:mod:`.views`), hidden
    information (:mod:`.hidden`) and outcome."""

    __slots__ = ()

    def for_search(self) -> RRState:
        """This state (a determinization) as a search copy: from now on it and its clones
        keep no event log (only the "points" events the scoring reads). Nothing else
        changes: a search copy plays exactly as the original would."""
        self.__class__ = SearchRRState
        if self.phase == "play":  # "points" come from end-of-game abilities only
            self.events = []
        else:
            self.events = [e for e in self.events if e.kind == "points"]
        return self

    # ------------------------------------------------------------------ protocol
    def scores(self) -> list[float]:
        return [float(s.total) for s in self.final] if self.final else [0.0] * self.n

    def winners(self) -> list[int]:
        return list(self.final_winners) if self.final_winners is not None else []

    def final_position(self):
        from .scoring import FinalPlayer, FinalPosition

        extra = self.extra_points
        players = [
            FinalPlayer(
                hand=list(self.hands[p]),
                fleet=self.fleet[p],
                helium=self.helium[p],
                influence=self.influence[p],
                sovereign=self.sovereign == p,
                extra_points=extra[p],
                name=f"p{p} {HOUSE_NAMES[self.houses[p]]}",
            )
            for p in range(self.n)
        ]
        jupiter, mars, luna, institute = (list(loc) for loc in self.locs)
        return FinalPosition(
            players=players,
            locations=(jupiter, mars, luna, institute),
            banished=list(self.banished),
            neutral_influence=self.neutral,
            face_down_on_locations=frozenset(self.facedown),
        )

    @property
    def extra_points(self) -> list[int]:
        pts = [0] * self.n
        for e in self.events:
            if e.kind == "points":
                pts[e.data["player"]] += e.data["points"]
        return pts


class SearchRRState(RRState):
    """A search bot's private copy (:meth:`RRState.for_search`): it logs nothing but the
    "points" events (end-of-game ability points, read by the scoring). Views, replays and
    summaries of real games are never built from one."""

    __slots__ = ()
    quiet = True

    def log(self, kind: str, to: tuple[int, ...] | None = None, **data: Any) -> None:
        if kind == "points":
            self.events.append(Event(kind, data, to))
