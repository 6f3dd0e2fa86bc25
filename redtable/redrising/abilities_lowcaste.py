"""Deploy abilities of the low castes: Reds, Browns, Pinks, Violets, Blues and Obsidians.

Each ability is effect data built from the shared vocabulary (``effects.py``) plus the
few ``lowcaste_*`` primitives defined here (each with its text renderer), so the text a
player reads is rendered from the same data that runs. None of these 42 cards has a
block or an end-of-game ability.

Context keys used by the primitives below, on top of the shared ones (``p``, ``src``,
``loc``, ``c``, ``q``): ``origin`` (where a moved card came from, Masseuse).
"""

from __future__ import annotations

from ..core import Decision
from . import effects
from .ability_table import AbilityTable
from .board import INSTITUTE, JUPITER, LOCATION_NAMES, LOCATION_OF_NAME, LUNA, MARS
from .cards import (
    BLUE,
    BROWN,
    BY_SLUG,
    COLOR,
    COLOR_NAMES,
    COPPER,
    GOLD,
    GRAY,
    GREEN,
    OBSIDIAN,
    ORANGE,
    PINK,
    RED,
    SILVER,
    SLUG,
    VIOLET,
    WHITE,
    YELLOW,
)
from .effects import (
    TEXT,
    colors_text,
    cond,
    filter_text,
    if_you_do,
    matches,
    parse_pos,
    pos_id,
    render,
    scope_positions,
)
from .engine import RRState, op, seat_id, seat_of
from .words import prompt_context

card = BY_SLUG.__getitem__


def _low(s: str) -> str:
    return s[:1].lower() + s[1:]


def _reveal_from_hand(st: RRState, q: int, cards: list[int], why: str) -> None:
    """``q`` shows ``cards`` (from their hand) to everybody; they stay in the hand (one public
    "reveal" event per card, like the deck's revealed cards)."""
    for c in cards:
        for k in st.known:
            k.add(c)
        st.log("reveal", player=q, card=SLUG[c], source="hand", reason=why)


# ============================================================================ players
PLAYER_GROUPS = {"neighbours": "Each neighboring player", "opponents": "Each opponent"}


@op("lowcaste_each")
def _each(st: RRState, node, ctx, answer):
    """node = ("lowcaste_each", who, then, targeting): run ``then`` once per player of a group,
    bound as ``q``, in clockwise order from your left.

    who: "opponents" (everybody else) or "neighbours" (the players to your left and to your
    right: one player in a 2-player game). ``targeting`` marks abilities that make those
    players banish (Arlus): under the multiplayer variant only opponents holding more cards
    than their starting hand are affected.
    """
    _, who, then, targeting = node
    p = ctx["p"]
    if who == "neighbours":
        group = [(p + 1) % st.n]
        if st.right_of(p) not in group:
            group.append(st.right_of(p))
    else:
        group = st.opponents(p)
    if targeting:
        allowed = st.targetable(p)
        group = [q for q in group if q in allowed]
    for q in reversed(group):
        st.push(then, dict(ctx, q=q))
    return None


@op("lowcaste_against_q")
def _against_q(st: RRState, node, ctx, answer):
    """Run node[1] as an attempt against player ``q``'s cards (steal or banish): if ``q`` holds
    Judge, Pax au Telemanus or The Howlers they may reveal it to block (engine ``attempt``)."""
    st.push(("attempt", "q", node[1]), ctx)
    return None


TEXT["lowcaste_against_q"] = lambda node: render(node[1])


# The texts of the per-player steps below have no subject: "lowcaste_each" provides it.
TEXT["lowcaste_each"] = lambda node: f"{PLAYER_GROUPS[node[1]]} {render(node[2])}"


@op("lowcaste_q_reveals_random")
def _q_reveals_random(st: RRState, node, ctx, answer):
    """Player ``q`` reveals a random card of their hand (st.rng), bound as ``c`` for node[1]."""
    q = ctx["q"]
    hand = st.hands[q]
    if not hand:
        return None
    c = hand[st.rng.below(len(hand))]
    _reveal_from_hand(st, q, [c], "random")
    st.push(node[1], dict(ctx, c=c))
    return None


TEXT["lowcaste_q_reveals_random"] = lambda node: "reveals a random card from their hand. " + render(node[1])


@op("lowcaste_q_reveals")
def _q_reveals(st: RRState, node, ctx, answer):
    """node = ("lowcaste_q_reveals", colors, otherwise): player ``q`` must reveal a card of one
    of ``colors`` from their hand (their choice when they hold several); if they can't,
    ``otherwise`` runs."""
    _, colors, otherwise = node
    q = ctx["q"]
    fits = [c for c in st.hands[q] if COLOR[c] in colors]
    if not fits:
        st.log("cannot_reveal", player=q, colors=[COLOR_NAMES[c] for c in colors], card=SLUG[ctx["src"]])
        st.push(otherwise, ctx)
        return None
    if answer is None:
        return Decision(
            q,
            "reveal",
            tuple(SLUG[c] for c in fits),
            {
                "card": SLUG[ctx["src"]],
                "by": ctx["p"],
                "colors": [COLOR_NAMES[c] for c in colors],
            },
        )
    _reveal_from_hand(st, q, [BY_SLUG[answer]], "must_reveal")
    return None


TEXT["lowcaste_q_reveals"] = lambda node: (
    f"must reveal {filter_text((('color', node[1]),))}. " + if_you_do(render(node[2]), "If they can't")
)


@op("lowcaste_q_loses_helium")
def _q_loses_helium(st: RRState, node, ctx, answer):
    st.lose_helium(ctx["q"], node[1])


TEXT["lowcaste_q_loses_helium"] = lambda node: f"They lose {node[1]} Helium."


RESOURCES = {"helium": "Helium", "influence": "Influence on the Institute", "fleet": "a Fleet Track position above 0"}


def _resource(st: RRState, what: str, p: int) -> int:
    return {"helium": st.helium, "influence": st.influence, "fleet": st.fleet}[what][p]


@op("lowcaste_choose_opponent_with")
def _choose_opponent_with(st: RRState, node, ctx, answer):
    """node = ("lowcaste_choose_opponent_with", resource, then): choose an opponent who has
    some of ``resource`` (helium / influence / fleet), bound as ``q``; skipped if none has."""
    _, what, then = node
    p = ctx["p"]
    if answer is None:
        opps = [q for q in st.opponents(p) if _resource(st, what, q) > 0]
        if not opps:
            return None
        return Decision(p, "choose_opponent", tuple(seat_id(q) for q in opps), {"card": SLUG[ctx["src"]]})
    st.push(then, dict(ctx, q=seat_of(answer)))
    return None


TEXT["lowcaste_choose_opponent_with"] = lambda node: (
    f"Choose an opponent who has {RESOURCES[node[1]]}. {render(node[2])}"
)


# ============================================================================ your hand
@op("lowcaste_reveal_hand")
def _reveal_hand(st: RRState, node, ctx, answer):
    """node = ("lowcaste_reveal_hand", colors, at_least, then): if you hold ``at_least`` cards
    of ``colors``, reveal them all, then run ``then`` (Dancer)."""
    _, colors, at_least, then = node
    p = ctx["p"]
    fits = [c for c in st.hands[p] if COLOR[c] in colors and c != ctx.get("src")]
    if len(fits) < at_least:
        return None
    _reveal_from_hand(st, p, fits, SLUG[ctx["src"]])
    st.push(then, ctx)
    return None


TEXT["lowcaste_reveal_hand"] = lambda node: (
    f"If you have {node[2]} or more other {colors_text(node[1])}s, reveal them to {_low(render(node[3]))}"
)


@op("lowcaste_may_banish_from_hand")
def _may_banish_from_hand(st: RRState, node, ctx, answer):
    """node = ("lowcaste_may_banish_from_hand", colors, then): you may banish a card of
    ``colors`` from your hand; if you do, ``then`` runs (Mickey the Carver)."""
    _, colors, then = node
    p = ctx["p"]
    fits = [c for c in st.hands[p] if COLOR[c] in colors]
    if not fits:
        return None
    if answer is None:
        return Decision(
            p, "banish_from_hand", tuple(SLUG[c] for c in fits) + ("none",), prompt_context(st, node, ctx, "none")
        )
    if answer == "none":
        return None
    c = BY_SLUG[answer]
    st.hands[p].remove(c)
    st.banish(c, p, "hand")
    st.push(then, ctx)
    return None


TEXT["lowcaste_may_banish_from_hand"] = lambda node: (
    f"You may banish {filter_text((('color', node[1]),))} from your hand. " + if_you_do(render(node[2]))
)


# ============================================================================ the deck
@op("lowcaste_dig")
def _dig(st: RRState, node, ctx, answer):
    """node = ("lowcaste_dig", colors): reveal cards from the top of the deck until one of
    ``colors``; gain it; the other revealed cards go to the bottom of the deck in an order
    you choose. The revealed cards stay on the deck while you order them."""
    colors = node[1]
    p = ctx["p"]
    others: list[int] = []
    found = -1
    for c in reversed(st.deck):
        st.log("reveal", card=SLUG[c], source="deck", by=p)
        for k in st.known:
            k.add(c)
        if COLOR[c] in colors:
            found = c
            break
        others.append(c)
    if found >= 0:
        st.deck.remove(found)
        st.take_to_hand(p, found, "deck_revealed")
    else:
        st.log("not_found", player=p, colors=[COLOR_NAMES[c] for c in colors], card=SLUG[ctx["src"]])
    if others:
        st.push(("lowcaste_to_bottom", tuple(others)), ctx)
    return None


TEXT["lowcaste_dig"] = lambda node: (
    f"Reveal cards from the deck until you find {filter_text((('color', node[1]),))}. "
    "Gain it and place the revealed cards at the bottom of the deck in any order."
)


@op("lowcaste_to_bottom")
def _to_bottom(st: RRState, node, ctx, answer):
    """node = ("lowcaste_to_bottom", cards): put these (revealed) deck cards under the deck one
    at a time, in the order you choose: each one you pick becomes the new bottom card."""
    p = ctx["p"]
    cards = [c for c in node[1] if c in st.deck]
    if not cards:
        return None
    if answer is None:
        if len(cards) > 1:
            return Decision(
                p,
                "bottom_order",
                tuple(SLUG[c] for c in cards),
                {
                    "card": SLUG[ctx["src"]],
                },
            )
        answer = SLUG[cards[0]]
    c = BY_SLUG[answer]
    st.deck.remove(c)
    st.deck.insert(0, c)
    st.log("deck_bottom", player=p, card=SLUG[c])
    rest = tuple(x for x in cards if x != c)
    if rest:
        st.push(("lowcaste_to_bottom", rest), ctx)
    return None


TEXT["lowcaste_to_bottom"] = lambda node: "Place the revealed cards at the bottom of the deck in any order."


@op("lowcaste_deploy_c")
def _deploy_c(st: RRState, node, ctx, answer):
    """Deploy the bound card (the deck's top card or a card on a location) face up on a
    location other than the one this ability's card was deployed to; its deploy ability
    triggers as usual (Calliope)."""
    c = ctx["c"]
    if st.deck and st.deck[-1] == c:
        source = "deck"
    else:
        loc = st.location_of(c)
        if loc < 0:
            return None
        source = LOCATION_NAMES[loc]
    st.push(("deploy", c, source, ctx.get("loc", -1)), {"p": ctx["p"]})
    return None


TEXT["lowcaste_deploy_c"] = lambda node: "Deploy that card face-up on another location."


# ============================================================================ giving
@op("lowcaste_give_self_right")
def _give_self_right(st: RRState, node, ctx, answer):
    """Give this card (from its location) to the player on your right: it joins their hand."""
    src, p = ctx["src"], ctx["p"]
    loc = st.location_of(src)
    if loc < 0:
        return None
    q = st.right_of(p)
    st.locs[loc].remove(src)
    st.log("give", player=p, to_player=q, card=SLUG[src], source=LOCATION_NAMES[loc])
    st.take_to_hand(q, src, LOCATION_NAMES[loc])
    return None


TEXT["lowcaste_give_self_right"] = lambda node: "Give this card to the player to your right."

_MORE_TEXT = {
    "influence": "you have more Influence on the Institute than the player to your right",
    "helium": "you have more Helium than the player to your right",
    "fleet": "you're further on the Fleet Track than the player to your right",
}
cond("lowcaste_more_than_right", lambda c: _MORE_TEXT[c[1]])(
    lambda st, c, ctx: _resource(st, c[1], ctx["p"]) > _resource(st, c[1], st.right_of(ctx["p"]))
)


# ============================================================================ locations
cond("lowcaste_src_alone", lambda c: "it was the only other card on this location")(
    lambda st, c, ctx: any(loc == [ctx["src"]] for loc in st.locs)
)


@op("lowcaste_banish_here")
def _banish_here(st: RRState, node, ctx, answer):
    """node = ("lowcaste_banish_here", colors, each, most): banish this card and every card at
    its location; run ``each`` once per banished card of ``colors`` (at most ``most`` times).
    A face-down card is banished face up, so its real colour counts."""
    _, colors, each, most = node
    src = ctx["src"]
    loc = st.location_of(src)
    if loc < 0:
        loc = ctx.get("loc", -1)
    if loc < 0:
        return None
    counted = 0
    pile = st.locs[loc]
    name = LOCATION_NAMES[loc]
    while pile:
        c = pile.pop()
        st.banish(c, ctx["p"], name)
        counted += COLOR[c] in colors
    st.push_all([each] * min(counted, most), ctx)
    return None


TEXT["lowcaste_banish_here"] = lambda node: (
    f"Banish this card and all cards at this location. For each {colors_text(node[1])} banished, "
    f"{_low(render(node[2])).rstrip('.')} (max {node[3]})."
)


@op("lowcaste_note_origin")
def _note_origin(st: RRState, node, ctx, answer):
    """Remember the location the bound card lies on now as ``origin``, then run node[1]."""
    loc = st.location_of(ctx["c"])
    if loc >= 0:
        st.push(node[1], dict(ctx, origin=loc))
    return None


TEXT["lowcaste_note_origin"] = lambda node: render(node[1])


@op("lowcaste_origin_bonus")
def _origin_bonus(st: RRState, node, ctx, answer):
    """Gain the bonus of the location the bound card came from (Masseuse)."""
    if ctx.get("origin", -1) >= 0:
        st.push(("bonus", ctx["origin"]), ctx)
    return None


TEXT["lowcaste_origin_bonus"] = lambda node: "Gain the original location bonus for that card."


@op("lowcaste_move_c_onto_src")
def _move_c_onto_src(st: RRState, node, ctx, answer):
    """Move the bound card from its location to directly on top of this card (Theodora)."""
    c, src = ctx["c"], ctx["src"]
    cur, dest = st.location_of(c), st.location_of(src)
    if cur < 0 or dest < 0 or c == src:
        return None
    st.locs[cur].remove(c)
    pile = st.locs[dest]
    pile.insert(pile.index(src) + 1, c)
    st.log(
        "move",
        player=ctx["p"],
        card=SLUG[c] if c not in st.facedown else None,
        source=LOCATION_NAMES[cur],
        location=LOCATION_NAMES[dest],
        over=SLUG[src],
    )
    return None


TEXT["lowcaste_move_c_onto_src"] = lambda node: "Move that card on top of this card."

DESTINATIONS = {
    "another": "another location",
    "different": "a different location",
    "another_no_same_color": "another location where there are no cards with the same color as it",
}


def destinations(st: RRState, c: int, dest: str, ctx: dict) -> list[int]:
    """Locations the card ``c`` may be moved to under a destination rule.

    "another": not the ability's location (nor the card's own); "different": not the card's
    own; "another_no_same_color": "another", holding no card of the card's colour (face-down
    cards are colourless: they share no colour, and a face-down card may go to any of them).
    """
    cur = st.location_of(c)
    here = ctx.get("loc", -1)
    col = st.color(c)
    out = []
    for loc in range(4):
        if loc == cur or (dest != "different" and loc == here):
            continue
        if dest == "another_no_same_color" and col >= 0 and any(st.color(x) == col for x in st.locs[loc]):
            continue
        out.append(loc)
    return out


@op("lowcaste_move_card")
def _move_card(st: RRState, node, ctx, answer):
    """node = ("lowcaste_move_card", scope, filter, dest, then): choose a card (scope and
    filter as in choose_card) that has somewhere to go under ``dest``, then move it."""
    _, scope, filt, dest, then = node
    if answer is None:
        opts = tuple(
            pos_id(loc, i)
            for loc, i in scope_positions(st, scope, ctx)
            if matches(st, st.locs[loc][i], filt, ctx) and destinations(st, st.locs[loc][i], dest, ctx)
        )
        if not opts:
            return None
        return Decision(ctx["p"], "choose_card", opts, prompt_context(st, node, ctx))
    loc, i = parse_pos(answer)
    st.push(("lowcaste_move_c", dest, then), dict(ctx, c=st.locs[loc][i]))
    return None


TEXT["lowcaste_move_card"] = lambda node: (
    f"Move {filter_text(node[2])} {effects.SCOPES[node[1]]} to the top of {DESTINATIONS[node[3]]}."
    + (" " + render(node[4]) if node[4] is not None else "")
)


@op("lowcaste_move_c")
def _move_c(st: RRState, node, ctx, answer):
    """node = ("lowcaste_move_c", dest, then): move the bound card to the top of a location
    allowed by ``dest`` (see :func:`destinations`), then run ``then`` (or None)."""
    _, dest, then = node
    c = ctx["c"]
    cur = st.location_of(c)
    if cur < 0:
        return None
    if answer is None:
        opts = tuple(LOCATION_NAMES[loc] for loc in destinations(st, c, dest, ctx))
        if not opts:
            return None
        return Decision(
            ctx["p"], "move_location", opts, {"card": SLUG[ctx["src"]], "moving": pos_id(cur, st.locs[cur].index(c))}
        )
    to = LOCATION_OF_NAME[answer]
    st.locs[cur].remove(c)
    st.locs[to].append(c)
    st.log(
        "move",
        player=ctx["p"],
        card=SLUG[c] if c not in st.facedown else None,
        source=LOCATION_NAMES[cur],
        location=answer,
    )
    if then is not None:
        st.push(then, ctx)
    return None


TEXT["lowcaste_move_c"] = lambda node: (
    f"Move that card to the top of {DESTINATIONS[node[1]]}." + (" " + render(node[2]) if node[2] is not None else "")
)

TOPMOST_SCOPES = {"other": "any other location", "any": "any location"}


@op("lowcaste_choose_topmost")
def _choose_topmost(st: RRState, node, ctx, answer):
    """node = ("lowcaste_choose_topmost", scope, filter, then): choose, on one of the locations
    of ``scope`` ("other": not this one; "any"), the topmost card matching ``filter`` (which
    may lie under non-matching cards), bound as ``c``. Skipped if there is none."""
    _, scope, filt, then = node
    here = ctx.get("loc", -1)
    if answer is None:
        opts = []
        for loc in range(4):
            if scope == "other" and loc == here:
                continue
            for i in range(len(st.locs[loc]) - 1, -1, -1):
                if matches(st, st.locs[loc][i], filt, ctx):
                    opts.append(pos_id(loc, i))
                    break
        if not opts:
            return None
        return Decision(ctx["p"], "choose_card", tuple(opts), prompt_context(st, node, ctx))
    loc, i = parse_pos(answer)
    st.push(then, dict(ctx, c=st.locs[loc][i]))
    return None


TEXT["lowcaste_choose_topmost"] = lambda node: render(node[3]).replace(
    "that card", f"the top {filter_text(node[2], article=False)} card from {TOPMOST_SCOPES[node[1]]}", 1
)


# ============================================================================ the cards
ABILITIES = AbilityTable("abilities_lowcaste")  # compiled into the rules by rules.py
deploy = ABILITIES.deploy


def _if_on(colors: tuple[int, ...], effect: tuple) -> tuple:
    """ "If deployed directly on top of a <colors>, <effect on that card>" (the Browns)."""
    return ("note_under", ("if", ("src_on_color", colors), ("under", effect)))


def _then(*effects_: tuple) -> tuple:
    return effects_[0] if len(effects_) == 1 else ("seq",) + effects_


# ---------------------------------------------------------------- Reds
deploy(
    "arlus",
    (
        "lowcaste_each",
        "neighbours",
        (
            "lowcaste_q_reveals_random",
            (
                "seq",
                ("if", ("c_color", (GOLD,)), ("lowcaste_against_q", ("banish_c",))),
                ("if", ("c_color", (RED,)), ("banish_self",)),
            ),
        ),
        True,
    ),
)
deploy("dancer", ("seq", ("helium", 1), ("lowcaste_reveal_hand", (RED,), 2, ("helium", 2))))
# Darrow, Deanna and Uncle Narol are encoded in abilities.py and read as printed:
#   Darrow: gain any other non-Gold from this location; banish him unless deployed on a Gold.
deploy("eo", ("lowcaste_each", "opponents", ("lowcaste_q_reveals", (RED,), ("lowcaste_q_loses_helium", 1)), False))
deploy("harmony", ("lowcaste_choose_opponent_with", "helium", ("lowcaste_q_loses_helium", 1)))

# ---------------------------------------------------------------- Browns
deploy("artisan-chef", _if_on((GOLD,), ("seq", ("move_c", "another"), ("influence", 1))))
deploy("gardener", _if_on((VIOLET, PINK), ("seq", ("move_c", "another"), ("helium", 1))))
deploy("janitor", _if_on((GREEN, YELLOW, BLUE), ("seq", ("move_c", "another"), ("advance", 1))))
deploy("mess-hall-cook", _if_on((GRAY, ORANGE), ("seq", ("move_c", "another"), ("advance", 1))))
deploy("nanny", _if_on((SILVER, WHITE, COPPER), ("seq", ("move_c", "another"), ("helium", 1))))
deploy("modjob", _if_on((RED, BROWN), ("deploy_c",)))
deploy("assassin", ("under", ("seq", ("banish_c",), ("if", ("c_color", (GOLD,)), ("influence", 1)))))

# ---------------------------------------------------------------- Pinks
deploy("calliope", ("top_of_deck", ("lowcaste_deploy_c",)))
deploy(
    "conversationalist",
    (
        "choose_card",
        "other_top",
        (),
        ("seq", ("move_c", "under_src"), ("if", ("c_color", (WHITE,)), ("gain_c",))),
        False,
    ),
)
deploy("evey", ("lowcaste_banish_here", (GOLD,), ("influence", 1), 3))
deploy("garden-trained-rose", ("under", ("seq", ("move_c", "another"), ("if", ("c_color", (SILVER,)), ("helium", 1)))))
deploy(
    "masseuse",
    (
        "choose_card",
        "other_top",
        (),
        ("lowcaste_note_origin", ("seq", ("move_c", "other_than_its"), ("lowcaste_origin_bonus",))),
        False,
    ),
)
deploy(
    "matteo",
    (
        "choose_card",
        "this",
        (("other", True),),
        ("seq", ("move_c", "another"), ("if", ("c_color", (PINK,)), ("influence", 1))),
        False,
    ),
)
deploy(
    "theodora",
    (
        "bottom",
        (
            "may",
            ("lowcaste_move_c_onto_src",),
            None,
            ("if", ("c_color", (GOLD, RED)), ("seq", ("gain_c",), ("end_turn",))),
        ),
    ),
)

# ---------------------------------------------------------------- Violets
deploy("4d-painter", ("lowcaste_move_card", "this", (), "another_no_same_color", None))
for _slug, _what in (("holo-host", "influence"), ("reporter", "helium"), ("vlogger", "fleet")):
    deploy(
        _slug,
        (
            "if",
            ("lowcaste_more_than_right", _what),
            ("seq", ("lowcaste_give_self_right",), ("draw_to_hand", 2), ("end_turn",)),
        ),
    )
deploy("mickey-the-carver", ("lowcaste_may_banish_from_hand", (RED,), ("lowcaste_dig", (GOLD,))))
deploy("musician", ("choose_card", "this", (("parity", 0),), ("move_c", "another"), False))
deploy("zanzibar", ("choose_card", "this", (("parity", 1),), ("move_c", "another"), False))

# ---------------------------------------------------------------- Blues
# Invictus, Morning Star, Quietus, The Pax, Pelus and Virga are encoded in abilities.py and
# read as printed.
deploy(
    "orion",
    (
        "if",
        ("deployed_on", (MARS, LUNA, INSTITUTE)),
        ("choose_card", "this", (("other", True), ("color", (BLUE,))), ("deploy_c", JUPITER), False),
    ),
)

# ---------------------------------------------------------------- Obsidians
deploy(
    "alfrun",
    (
        "choose_card",
        "this",
        (("name", (card("nero"), card("jopho"))),),
        ("seq", ("gain_c",), ("regain_self",), ("end_turn",)),
        True,
    ),
)
deploy(
    "jopho",
    (
        "choose_card",
        "this",
        (("name", (card("alfrun"), card("nero"))),),
        ("seq", ("gain_c",), ("regain_self",), ("end_turn",)),
        True,
    ),
)
deploy(
    "alia-snowsparrow",
    (
        "lowcaste_choose_topmost",
        "other",
        (("not_color", (GOLD,)),),
        ("seq", ("banish_c",), ("if", ("c_not_color", (GRAY, OBSIDIAN)), ("helium", 1))),
    ),
)
deploy("helga", ("under", ("seq", ("banish_c",), ("if", ("lowcaste_src_alone",), ("helium", 1)))))
deploy(
    "ragnar",
    (
        "choose_card",
        "other_top",
        (),
        ("seq", ("banish_c",), ("if", ("c_color", (GOLD, GRAY)), ("influence", 1))),
        False,
    ),
)
deploy("sefi", ("choose_card", "this", (("other", True), ("color", (OBSIDIAN,))), ("gain_c",), False))
deploy(
    "stained",
    (
        "choose_card",
        "this",
        (("other", True),),
        ("seq", ("banish_c",), ("if", ("c_color", (OBSIDIAN,)), ("influence", 1))),
        False,
    ),
)

LOWCASTE = tuple(
    BY_SLUG[s]
    for s in (
        "arlus",
        "dancer",
        "darrow",
        "deanna",
        "eo",
        "harmony",
        "uncle-narol",
        "artisan-chef",
        "assassin",
        "gardener",
        "janitor",
        "mess-hall-cook",
        "modjob",
        "nanny",
        "calliope",
        "conversationalist",
        "evey",
        "garden-trained-rose",
        "masseuse",
        "matteo",
        "theodora",
        "4d-painter",
        "holo-host",
        "mickey-the-carver",
        "musician",
        "reporter",
        "vlogger",
        "zanzibar",
        "invictus",
        "morning-star",
        "orion",
        "pelus",
        "quietus",
        "the-pax",
        "virga",
        "alfrun",
        "alia-snowsparrow",
        "helga",
        "jopho",
        "ragnar",
        "sefi",
        "stained",
    )
)
