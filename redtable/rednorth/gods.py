"""The eight Gods (Summer Muster Groups; invoked once, in Ragnarok).

Each God is data: its slug (the action string ``invoke:<slug>`` and ``pass:<slug>``), its
name, and its power as printed. The engine's behaviour for each power lives in
:mod:`redtable.rednorth.game` (``_invoke_*``), keyed by the same index; the numbers used
by both (cards drawn, Glory, VP) are the constants here, so the text cannot drift.
"""

from __future__ import annotations

from dataclasses import dataclass

THOR, LOKI, ODIN, FREYA, NORNIR, TYR, SAGA, HEL = range(8)
NGODS = 8

LOKI_GLORY = 2
ODIN_VP = 2
FREYA_DRAW = 1
TYR_DRAW = 4


@dataclass(slots=True, frozen=True)
class God:
    index: int
    slug: str
    name: str
    text: str


GODS: tuple[God, ...] = (
    God(THOR, "thor", "Thor",
        "Retrieve the Hero card discarded as part of the leftover Muster Group at the end of "
        "the Spring round, and add it to your hand."),
    God(LOKI, "loki", "Loki",
        f"Take {LOKI_GLORY} Glory tokens from the supply and immediately place them on any cards "
        "in your Party, face-up or face-down. Glory tokens may not be placed on Jarls."),
    God(ODIN, "odin", "Odin", f"Gain {ODIN_VP} VP."),
    God(FREYA, "freya", "Freya",
        f"Draw {FREYA_DRAW} card from the deck, look at it secretly, and place it face-down at "
        "either end of your Raiding Party."),
    God(NORNIR, "nornir", "Nornir",
        "Retrieve all Glory tokens from all cards in your Raiding Party. You may replay them "
        "later this round individually, as regular actions."),
    God(TYR, "tyr", "Tyr", f"Draw {TYR_DRAW} cards from the deck and add them to your hand."),
    God(SAGA, "saga", "Saga",
        "Turn 1 card of your choice in each opponent's Raiding Party face-up. Skip players who "
        "have no face-down cards in their Party."),
    God(HEL, "hel", "Hel",
        "Search the discard pile for any 1 Jarl or Raider card and place it face-up anywhere in "
        "your Raiding Party, even between other cards."),
)
GOD_OF_SLUG = {g.slug: g.index for g in GODS}
