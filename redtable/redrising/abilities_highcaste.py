"""Abilities of the high castes: Yellows, Greens, Silvers, Whites and Coppers (deploy,
block and end-of-game), and the deploy abilities of the Grays and Oranges.

Everything is effect data built from the shared vocabulary (``effects.py``) plus the
small primitives of :mod:`.highcaste_steps`, all named ``highcaste_*``. The Gray / Orange
end-of-game "treat this card as ..." choices belong to the scoring code and are not
declared here.
"""

from __future__ import annotations

from .ability_table import AbilityTable, card
from .board import INSTITUTE, JUPITER, LUNA, MARS
from .cards import (
    BLUE,
    BROWN,
    COPPER,
    GOLD,
    GRAY,
    GREEN,
    OBSIDIAN,
    ORANGE,
    PINK,
    RED,
    SILVER,
    VIOLET,
    WHITE,
    YELLOW,
)
from .highcaste_steps import H

# ====================================================================== the cards
ABILITIES = AbilityTable("abilities_highcaste")  # compiled into the rules by rules.py
deploy = ABILITIES.deploy
end_of_game = ABILITIES.end_of_game

# --- Yellows
REVEAL_UNDER = (H + "reveal_under", 2)
deploy("dr-virany", ("if", ("deployed_on", (MARS,)), REVEAL_UNDER))
end_of_game(
    "dr-virany",
    (
        H + "choose_banished",
        (("either", ((("name", (card("victra"), card("sevro"), card("fitchner"))),), (("color", (RED,)),))),),
        (H + "gain_c",),
        True,
        None,
    ),
)
deploy("group-counselor", (H + "choose_banished", (), (H + "to_deck",), True, 3))
SWAP_ANY = (H + "swap", ())
deploy("hypnotist", (H + "each_player", SWAP_ANY, True, (H + "can_swap", ())))
end_of_game("hypnotist", (H + "swap", (("other", True),)))
deploy("pathologist", ("bottom", ("banish_c",)))
deploy(
    "psychologist",
    (
        H + "choose_banished",
        (),
        (H + "place_c", "any", (H + "choose_banished", (), (H + "place_c", "dest"), True, 1)),
        True,
        1,
    ),
)
end_of_game("psychologist", ("if", (H + "fewest_cards",), (H + "random_banished", (H + "gain_c",))))
deploy("researcher", (H + "random_banished", (H + "place_c", "bottom_here")))
NON_GOLD = (("not_color", (GOLD,)),)
IS_GOLD = (("color", (GOLD,)),)
deploy(
    "surgeon",
    (
        "may",
        (H + "choose_hand", NON_GOLD, ("banish_c",), False),
        (H + "all", (H + "hand_has", NON_GOLD, 1), (H + "banished_has", IS_GOLD)),
        (H + "choose_banished", IS_GOLD, (H + "gain_c",), False, 1),
    ),
)
end_of_game("surgeon", (H + "choose_banished", IS_GOLD, (H + "gain_c",), False, 1))

# --- Greens
deploy(
    "codebreaker",
    (
        "note_under",
        (
            "seq",
            (H + "deck_bottom", ("unless", ("c_color", (GOLD, SILVER)), ("gain_c",))),
            ("unless", ("src_on_color", (GOLD, SILVER)), ("banish_self",)),
        ),
    ),
)
deploy("dataport-specialist", ("if", ("deployed_on", (JUPITER,)), REVEAL_UNDER))
deploy("developer", ("choose_card", "this", (("other", True),), ("seq", ("gain_c",), ("end_turn",)), True))
deploy("firewall-expert", (H + "facedown_others", 3))
deploy("hacker", ("top_of_deck", (H + "choose_one", ("banish", ("banish_c",)), ("place", (H + "place_c", "another")))))
end_of_game("hacker", ("top_of_deck", (H + "bind_value", ("points", "value"))))
deploy("holo-designer", ("if", ("deployed_on", (LUNA,)), REVEAL_UNDER))
deploy(
    "online-gambler",
    (
        H + "name_colors",
        3,
        (),
        ("top_of_deck", ("if", (H + "c_named",), ("seq", ("gain_c",), ("banish_self",)), ("banish_c",))),
    ),
)
end_of_game("online-gambler", (H + "name_colors", 1, (GOLD,), (H + "reveal_gain_colors", 7)))


# --- Silvers (trades: at most once per turn)
def _may_trade(effect: tuple, possible: tuple, then: tuple | None = None) -> tuple:
    return ("may", (H + "trade", effect), (H + "all", (H + "can_trade",)) + possible, then)


deploy(
    "banker",
    _may_trade(
        (H + "pay", 3, ("choose_card", "this", (("other", True),), ("gain_c",), False)),
        ((H + "at_least", "helium", 3), (H + "any_card", "this", (("other", True),))),
        ("banish_self",),
    ),
)
end_of_game(
    "banker",
    (
        "may",
        (H + "pay", 3, ("choose_card", "any_top", (), ("gain_c",), False)),
        (H + "all", (H + "at_least", "helium", 3), (H + "any_card", "any_top", ())),
    ),
)
deploy("ceo", _may_trade(("regress", 1), ((H + "at_least", "fleet", 1),), ("helium", 2)))
deploy("investor", ("choose_color", (SILVER,), (H + "count_gain", "here", "bound", "helium")))
end_of_game("investor", ("choose_color", (SILVER,), (H + "count_gain", MARS, "bound", "helium")))
deploy("loan-shark", (H + "trade_once", ("choose_opponent", (H + "loan_shark",), False)))
deploy("quicksilver", (H + "steal_helium_most",))
deploy(
    "sponsor",
    _may_trade((H + "pay", 1, ("influence", 2)), ((H + "at_least", "helium", 1), (H + "can_place_influence",))),
)
deploy("stock-broker", _may_trade(("lose_influence", 1), ((H + "at_least", "influence", 1),), ("helium", 2)))

# --- Whites (Judge, Justice and Martyr's blocks are wired in abilities.py)
deploy("magistrate", ("if", ("has_sovereign",), ("helium", 1)))
deploy("orator", ("if", ("has_sovereign",), ("influence", 1)))
deploy("priestess", ("if", ("has_sovereign",), ("advance", 1)))
deploy("seer", ("if", ("has_sovereign",), ("top_of_deck", (H + "place_c", "another"))))
end_of_game("justice", ("if", ("has_sovereign",), (H + "at", LUNA, ("choose_card", "this", (), ("gain_c",), False))))
end_of_game("martyr", ("if", ("has_sovereign",), (H + "at", MARS, ("choose_card", "this", (), ("gain_c",), False))))

# --- Coppers
deploy("administrator", ("if", ("deployed_on", (INSTITUTE,)), REVEAL_UNDER))
AUCTION = (("helium", ("helium", 1)), ("advance", ("advance", 1)), ("influence", ("influence", 1)))
deploy("auctioneer", ("choose_opponent", (H + "split",) + AUCTION, False))
end_of_game("auctioneer", (H + "choose_one",) + AUCTION)
deploy(
    "bondilus",
    (
        "if",
        ("deployed_on", (MARS,)),
        ("choose_card", "this", (("other", True), ("not_color", (GOLD,))), ("banish_c",), False),
    ),
)
_CAN_INFLUENCE = (H + "can_place_influence",)
deploy(
    "diplomat",
    (
        "choose_opponent",
        ("seq", ("may", ("influence", 1), _CAN_INFLUENCE), (H + "as_q", ("may", ("influence", 1), _CAN_INFLUENCE))),
        False,
    ),
)
deploy("lawyer", ("influence", 1))
deploy("politician", ("may", (H + "reveal_hand", (GOLD,), 2), (H + "hand_has", IS_GOLD, 2), ("influence", 2)))
deploy("timony", (H + "count_gain", INSTITUTE, (GOLD,), "influence"))


# --- Grays: move a card of their colours under this card; you may gain it, then end your turn.
def _gray(slug: str, colors: tuple, other: bool = False) -> None:
    filt = (("color", colors),) + ((("other", True),) if other else ())
    deploy(
        slug,
        (
            "choose_card",
            "any",
            filt,
            ("seq", ("move_c", "under_src"), ("may", ("gain_c",), None, ("end_turn",))),
            False,
        ),
    )


_gray("bridge", (PINK, VIOLET))
_gray("colonel-valentin", (GOLD,))
_gray("danto", (COPPER, WHITE))
_gray("holiday", (ORANGE, BLUE))
_gray("sun-hwa", (OBSIDIAN, GREEN))
_gray("trigg", (GRAY, YELLOW), other=True)
_gray("ugly-dan", (RED, BROWN))


# --- Oranges: you may gain a card of some colours from this location; if you do, end your turn.
def _orange(slug: str, colors: tuple, other: bool = False) -> None:
    filt = (("color", colors),) + ((("other", True),) if other else ())
    deploy(slug, ("choose_card", "this", filt, ("seq", ("gain_c",), ("end_turn",)), True))


_orange("aegis-craftsman", (GOLD,))
_orange("artificer", (GOLD, ORANGE), other=True)
_orange("gravboot-cobbler", (GOLD, GRAY))
_orange("pulse-armorer", (GRAY,))
_orange("pulse-fist-engineer", (OBSIDIAN,))
_orange("razor-designer", (GOLD,))
# Cyther (a Blue) is already encoded in abilities.py and is right.
