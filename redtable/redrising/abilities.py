"""The shared card abilities, and the families of abilities in their order.

The vocabulary is in ``effects.py`` (and the turn-flow steps in ``engine.py``); each
ability below reads like the printed card. Families of cards live in the
``abilities_*`` modules; this module holds the shared blocks (:data:`SHARED`: the cards of
no family's) and names every family's :class:`~.ability_table.AbilityTable` in the
explicit order of :data:`FAMILIES` (a later family may override an earlier one's ability
for a card only where it says ``override=True``), which :mod:`.rules` compiles into the
game's rules value. Each ability is declared once; the families do not import this module.
"""

from __future__ import annotations

from . import abilities_gold, abilities_highcaste, abilities_lowcaste
from .ability_table import AbilityTable, card
from .board import INSTITUTE, JUPITER, LUNA, MARS
from .cards import BLUE, GOLD

SHARED = AbilityTable("abilities")
deploy = SHARED.deploy
end_of_game = SHARED.end_of_game

__all__ = ["FAMILIES", "SHARED", "card", "deploy", "end_of_game"]


# Blocks against stealing or banishing your cards: reveal, and the attempt fails.
SHARED.block_steal_banish("judge")  # Pax au Telemanus and The Howlers: abilities_gold.py

# Blocks against the Sovereign token being taken: banish the blocker, keep the token,
# then gain the top card of the deck.
SHARED.block_sovereign("martyr", ("draw_to_hand",))
SHARED.block_sovereign("justice", ("draw_to_hand",))

# Blue ships: advance if deployed on their location.
deploy("invictus", ("if", ("deployed_on", (MARS,)), ("advance", 1)))
deploy("morning-star", ("if", ("deployed_on", (JUPITER,)), ("advance", 1)))
deploy("quietus", ("if", ("deployed_on", (INSTITUTE,)), ("advance", 1)))
deploy("the-pax", ("if", ("deployed_on", (LUNA,)), ("advance", 1)))
deploy("pelus", ("seq", ("advance", 2), ("others_advance", 1)))
deploy("virga", ("seq", ("advance", 2), ("others_advance", 1)))

# Reds.
deploy("deanna", ("helium", 1))
deploy("uncle-narol", ("helium", 2))
# A deploy ability that cannot be used is ignored whole (rulebook note): with nothing to
# gain, Darrow stays where he was deployed.
deploy(
    "darrow",
    (
        "note_under",
        (
            "choose_card",
            "this",
            (("other", True), ("not_color", (GOLD,))),
            ("seq", ("gain_c",), ("unless", ("src_on_color", (GOLD,)), ("banish_self",))),
            False,
        ),
    ),
)


# Oranges: you may gain a card of some colours from this location; if you do, end your turn.
def _orange(slug: str, filt: tuple) -> None:
    deploy(slug, ("choose_card", "this", filt + (("other", True),), ("seq", ("gain_c",), ("end_turn",)), True))


_orange("cyther", (("color", (BLUE,)),))

# The shared blocks first, then each family (which may override them where it says so).
FAMILIES: tuple[AbilityTable, ...] = (
    SHARED,
    abilities_gold.ABILITIES,
    abilities_highcaste.ABILITIES,
    abilities_lowcaste.ABILITIES,
)
