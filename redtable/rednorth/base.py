"""The fields of a Red North position, and the card moves every part of the engine uses.

The state is split by concern into mixins over this base (:mod:`.turns`: the turn flow
and the Gods' invocation; :mod:`.rounds`: the Resolution and the next round's setup;
:mod:`.game`: setup, the protocol, copies and re-deals); the Gods' and Outposts' powers
are data (:mod:`.gods`, :mod:`.outposts`) built from the effects of :mod:`.effects`,
which act on this base. All fields are declared here, in one ``__slots__``, so that a
state stays a handful of ints and flat lists (cheap to clone).

Representation: hands, ``known`` and the discard pile are count vectors indexed by card
kind (:mod:`.cards`), the deck a list of kinds, a Party a list of slot ints
(:mod:`.party`), a Muster Group a ``(head, cards)`` tuple (head: a Hero kind, or
``GOD_HEAD + god``).
"""

from __future__ import annotations

from typing import Any

from ..core import Decision, Event, Rng, State


class RedNorthBase(State):
    """Fields and card moves shared by the engine's parts (see the module docstring)."""

    __slots__ = (
        "game",
        "P",
        "rng",
        "history",
        "events",
        "round",
        "phase",
        "actor",
        "sub",
        "queue",
        "in_play",
        "colours",
        "opts_pts",
        "owner",
        "first",
        "tiebreaker",
        "champion",
        "champion_out",
        "hands",
        "hand_n",
        "known",
        "parties",
        "glory",
        "vp",
        "god",
        "invoked",
        "passed",
        "deck",
        "discard",
        "muster",
        "set_aside",
        "total",
        "reports",
        "result",
        "_dec",
    )

    P: int
    rng: Rng
    round: int
    phase: int
    actor: int
    sub: int  # per phase: cards placed, Glory left, the drawn card, the flipped slot
    queue: list[int]  # Saga: opponents still to be shown a card
    in_play: tuple[bool, ...]  # per colour
    colours: tuple[int, ...]  # the Outposts in play, sorted
    opts_pts: tuple[int, ...]  # printed Raid Points per Outpost
    owner: list[int]  # controller per colour, -1: the centre
    first: int
    tiebreaker: int
    champion: int
    champion_out: bool
    hands: list[list[int]]
    hand_n: list[int]
    known: list[list[int]]  # per seat: cards publicly known to be among its hidden ones
    parties: list[list[int]]
    glory: list[int]
    vp: list[int]
    god: list[int]
    invoked: list[bool]
    passed: list[bool]
    deck: list[int]
    discard: list[int]
    muster: list[tuple[int, tuple[int, ...]]]
    set_aside: int  # the Spring Hero left unclaimed (for Thor), -1: none
    total: list[int]
    reports: list[dict[str, Any]]
    result: tuple[int, str] | None
    _dec: Decision | None

    # --------------------------------------------------------------- card moves
    def draw_pile(self, n: int) -> tuple[int, ...]:
        """Up to n cards off the deck (an empty deck yields fewer)."""
        deck = self.deck
        return tuple(deck.pop() for _ in range(min(n, len(deck))))

    def draw_cards(self, p: int, n: int) -> list[int]:
        """Draw up to n cards from the deck into p's hand, secretly (an empty deck yields fewer)."""
        deck = self.deck
        got = [deck.pop() for _ in range(min(n, len(deck)))]
        h = self.hands[p]
        for k in got:
            h[k] += 1
        self.hand_n[p] += len(got)
        return got

    def reveal_card(self, p: int, k: int) -> None:
        """Card k of p's hidden cards became public: it no longer counts as publicly known-hidden."""
        kn = self.known[p]
        if kn[k]:
            kn[k] -= 1

    def log_event(self, kind: str, data: dict[str, Any], to: tuple[int, ...] | None = None) -> None:
        """Append an event (``to``: the only seats that see it)."""
        self.events.append(Event(kind, data, to))

    # ------------------------------------------------ steps other parts go on to
    def _end_turn(self) -> None:
        """The actor's action is over: the next seat that has not passed, or the Resolution."""
        raise NotImplementedError  # pragma: no cover - defined by the turn flow (.turns)

    def _after_deploy(self, start: int = 0) -> None:
        """The Outposts' after-Deployment powers from colour ``start`` on, then the actions."""
        raise NotImplementedError  # pragma: no cover - defined by the turn flow (.turns)

    def _resolve(self) -> None:
        """Everybody passed: the Resolution, then the next round or the end."""
        raise NotImplementedError  # pragma: no cover - defined by the Resolution (.rounds)

    def _start_round(self) -> None:
        """Log the round and start its Deployment."""
        raise NotImplementedError  # pragma: no cover - defined by the turn flow (.turns)
