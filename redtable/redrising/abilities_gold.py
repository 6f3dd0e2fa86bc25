"""The 21 Golds: deploy abilities and blocks, as effect data.

Golds have no end-of-game abilities. Pax au Telemanus and The Howlers only block (an
opponent's attempt to steal or banish your cards: the ``attempt`` step); every other Gold
has a deploy ability below, built from the shared vocabulary of ``effects.py`` plus a few
primitives defined here (prefixed ``gold_``).

Readings taken where the text leaves room (see also the tests):

* "Gain X. Banish <this card> unless ..." (Cassius, Lysander, Octavia, Romulus, Victra,
  Mustang) is one ability: when nothing can be gained the ability is impossible and is
  ignored, so the card stays deployed (as the shared Cassius encoding already did).
* "That card is a Gold" looks at the card as it lay: a face-down card is colourless, so it
  is not a Gold even if its face turns out to be one once gained.
* Aja / Antonia: the card banishes itself once an opponent was chosen, even when that
  opponent blocks or holds no card; with the multiplayer variant and no opponent to choose,
  the ability does not trigger at all and the card stays.
* Roque: the attempt to banish the opponent's card (which The Howlers, Pax au Telemanus or
  Judge can block) comes when the named card is selected; Roque is banished on a match
  whether or not the opponent blocks. The named and the selected card are seen only by the
  two players involved.
* Tactus: "if you do" means a card was actually stolen: a block (or an empty hand) leaves
  Tactus deployed and the turn goes on.
"""

from __future__ import annotations

from ..core import Decision
from .ability_table import AbilityTable
from .board import INSTITUTE, LOCATION_NAMES, LOCATION_OF_NAME, LOCATION_TITLES, LUNA
from .cards import BLUE, BY_SLUG, GOLD, RED, SLUG
from .effects import (
    SAME_CARD_STEPS,
    SCOPES,
    TEXT,
    cond,
    filter_text,
    gain_blocked,
    if_you_do,
    matches,
    names_text,
    render,
    scope_positions,
)
from .engine import YES_NO, RRState, op
from .words import prompt_context


def _lower(s: str) -> str:
    return s[:1].lower() + s[1:]


def _plural(filt: tuple) -> str:
    noun = filter_text(filt, article=False)
    return noun + "s"


# ============================================================================ new primitives
@op("gold_note_c")
def _gold_note_c(st: RRState, node, ctx, answer):
    """node = ("gold_note_c", then): remember the bound card's colour as it lies now (``c_col``).

    A face-down card is colourless (-1): gaining it later does not make it "a Gold".
    """
    if "c" in ctx:
        st.push(node[1], dict(ctx, c_col=st.color(ctx["c"])))
    return None


TEXT["gold_note_c"] = lambda node: render(node[1])
SAME_CARD_STEPS.add("gold_note_c")


def _c_color(st: RRState, ctx: dict) -> int:
    return ctx["c_col"] if "c_col" in ctx else st.color(ctx["c"])


cond("gold_c_color", lambda c: f"that card is {filter_text((('color', c[1]),))}")(
    lambda st, c, ctx: "c" in ctx and _c_color(st, ctx) in c[1]
)
cond("gold_c_not_color", lambda c: f"that card is not {filter_text((('color', c[1]),))}")(
    lambda st, c, ctx: "c" in ctx and _c_color(st, ctx) not in c[1]
)


@op("gold_bottom_of")
def _gold_bottom_of(st: RRState, node, ctx, answer):
    """node = ("gold_bottom_of", location, then): bind the bottom card of a named location
    (skipped when the location is empty or its bottom card is the source card, and when
    ``then`` would gain that card while it may not be gained now)."""
    loc = st.locs[node[1]]
    if loc and loc[0] != ctx.get("src") and not gain_blocked(st, loc[0], node[2]):
        st.push(node[2], dict(ctx, c=loc[0]))
    return None


TEXT["gold_bottom_of"] = lambda node: render(node[2]).replace(
    "that card", f"the bottom card on {LOCATION_TITLES[node[1]]} (if it's not this card)", 1
)


@op("gold_draw")
def _gold_draw(st: RRState, node, ctx, answer):
    """node = ("gold_draw", then): gain the deck's top card, bind it, run ``then``.

    With an empty deck nothing is gained and ``then`` (the price of the gain) is skipped.
    """
    card = st.draw()
    if card < 0:
        return None
    st.take_to_hand(ctx["p"], card, "deck")
    st.push(node[1], dict(ctx, c=card))
    return None


TEXT["gold_draw"] = lambda node: "Gain the top card of the deck. " + render(node[1])


@op("gold_gain_banished")
def _gold_gain_banished(st: RRState, node, ctx, answer):
    """node = ("gold_gain_banished", filter, then): gain a matching card from the banished
    pile (public), bind it as ``c`` and run ``then``; skipped when none matches."""
    _, filt, then = node
    p = ctx["p"]
    if answer is None:
        opts = tuple(SLUG[c] for c in st.banished if matches(st, c, filt, ctx))
        if not opts:
            return None
        return Decision(p, "choose_banished", opts, prompt_context(st, node, ctx))
    card = BY_SLUG[answer]
    st.banished.remove(card)
    st.take_to_hand(p, card, "banished")
    st.push(then, dict(ctx, c=card, c_col=st.color(card)))
    return None


TEXT["gold_gain_banished"] = lambda node: f"Gain 1 banished {filter_text(node[1], article=False)}. " + render(node[2])


@op("gold_banish_all")
def _gold_banish_all(st: RRState, node, ctx, answer):
    """node = ("gold_banish_all", scope, filter, then): banish every matching card in the scope
    (see effects.SCOPES), then run ``then`` with ``gold_count`` = how many were banished."""
    _, scope, filt, then = node
    cards = [st.locs[loc][i] for loc, i in scope_positions(st, scope, ctx) if matches(st, st.locs[loc][i], filt, ctx)]
    for card in cards:
        loc = st.location_of(card)
        st.locs[loc].remove(card)
        st.banish(card, ctx["p"], LOCATION_NAMES[loc])
    if then is not None:
        st.push(then, dict(ctx, gold_count=len(cards)))
    return None


def _banish_all_text(node):
    out = f"Banish all {_plural(node[2])} {SCOPES[node[1]]}."
    return out + (" " + render(node[3]) if node[3] is not None else "")


TEXT["gold_banish_all"] = _banish_all_text

cond("gold_count_at_least", lambda c: f"this banishes {c[1]} or more {_plural(c[2])}")(
    lambda st, c, ctx: ctx.get("gold_count", 0) >= c[1]
)


@op("gold_helium_per")
def _gold_helium_per(st: RRState, node, ctx, answer):
    """node = ("gold_helium_per", scope, filter): gain 1 Helium per matching card in the scope."""
    _, scope, filt = node
    n = sum(1 for loc, i in scope_positions(st, scope, ctx) if matches(st, st.locs[loc][i], filt, ctx))
    if n:
        st.gain_helium(ctx["p"], n)
    return None


TEXT["gold_helium_per"] = lambda node: (
    f"Gain 1 Helium for each {filter_text(node[2], article=False)} "
    + {"this": "at this location", "any": "on all locations"}.get(node[1], node[1])
    + "."
)


@op("gold_move_under_all")
def _gold_move_under_all(st: RRState, node, ctx, answer):
    """Move every card under the source card, in the same order, onto the top of another
    location (not the deploy location)."""
    src = ctx["src"]
    cur = st.location_of(src)
    if cur < 0:
        return None
    idx = st.locs[cur].index(src)
    if idx == 0:
        return None
    here = ctx.get("loc", -1)
    if answer is None:
        opts = tuple(LOCATION_NAMES[loc] for loc in range(4) if loc != here and loc != cur)
        if not opts:
            return None
        return Decision(ctx["p"], "move_location", opts, {"card": SLUG[src], "moving": idx})
    dest = LOCATION_OF_NAME[answer]
    moving = st.locs[cur][:idx]
    del st.locs[cur][:idx]
    for card in moving:
        st.locs[dest].append(card)
        st.log(
            "move",
            player=ctx["p"],
            card=SLUG[card] if card not in st.facedown else None,
            source=LOCATION_NAMES[cur],
            location=answer,
        )
    return None


TEXT["gold_move_under_all"] = lambda node: (
    "Move all cards under this card from this location to the top of another location in the same order."
)


# ---------------------------------------------------------------------------- opponents' hands
def _can_target(st: RRState, ctx: dict) -> bool:
    return bool(st.targetable(ctx["p"]))


def _target_has_cards(st: RRState, ctx: dict) -> bool:
    return any(st.hands[q] for q in st.targetable(ctx["p"]))


cond("gold_can_target", lambda c: "an opponent can be chosen")(lambda st, c, ctx: _can_target(st, ctx))
cond("gold_target_has_cards", lambda c: "an opponent you may choose holds a card")(
    lambda st, c, ctx: _target_has_cards(st, ctx)
)


@op("gold_opp_banish")
def _gold_opp_banish(st: RRState, node, ctx, answer):
    """The bound opponent ``q`` banishes 1 card of their choice from their hand (none: skipped)."""
    q, p = ctx["q"], ctx["p"]
    hand = st.hands[q]
    if answer is None:
        if not hand:
            return None
        return Decision(q, "banish_from_hand", tuple(SLUG[c] for c in hand), {"card": SLUG[ctx["src"]], "attacker": p})
    card = BY_SLUG[answer]
    hand.remove(card)
    st.banish(card, q, "hand")
    for k in st.known:
        k.add(card)
    return None


TEXT["gold_opp_banish"] = lambda node: "They banish 1 of their cards."


@op("gold_steal")
def _gold_steal(st: RRState, node, ctx, answer):
    """node = ("gold_steal", then): the bound opponent ``q`` gives you 1 card of their choice;
    ``then`` runs only if a card was stolen. Only the two players see which card."""
    q, p = ctx["q"], ctx["p"]
    hand = st.hands[q]
    if answer is None:
        if not hand:
            return None
        return Decision(q, "steal_choice", tuple(SLUG[c] for c in hand), {"card": SLUG[ctx["src"]], "thief": p})
    card = BY_SLUG[answer]
    hand.remove(card)
    st.hands[p].append(card)
    st.known[p].add(card)
    st.log("steal", player=p, victim=q, card_by=SLUG[ctx["src"]])
    st.log("steal_seen", to=(p, q), player=p, victim=q, card=SLUG[card])
    if len(node) > 1 and node[1] is not None:
        st.push(node[1], dict(ctx, c=card))
    return None


TEXT["gold_steal"] = lambda node: (
    "Steal 1 card from them (they choose the card)."
    + (" " + if_you_do(render(node[1])) if len(node) > 1 and node[1] is not None else "")
)


@op("gold_look_hand")
def _gold_look_hand(st: RRState, node, ctx, answer):
    """node = ("gold_look_hand", then): look at opponent ``q``'s hand (shown only to you);
    skipped, with ``then``, when that hand is empty."""
    q, p = ctx["q"], ctx["p"]
    hand = st.hands[q]
    if not hand:
        return None
    st.log("look_hand", player=p, target=q)
    st.log("hand_seen", to=(p,), player=p, target=q, cards=[SLUG[c] for c in hand])
    st.known[p].update(hand)
    st.push(node[1], ctx)
    return None


TEXT["gold_look_hand"] = lambda node: "Look at their hand, " + _lower(render(node[1]))


@op("gold_name_card")
def _gold_name_card(st: RRState, node, ctx, answer):
    """node = ("gold_name_card", then): name a card of opponent ``q``'s hand (bound as ``named``)."""
    q, p = ctx["q"], ctx["p"]
    if answer is None:
        opts = tuple(SLUG[c] for c in st.hands[q])
        if not opts:
            return None
        return Decision(p, "name_card", opts, {"card": SLUG[ctx["src"]], "target": q})
    st.log("name_card", to=(p, q), player=p, target=q, card=answer)
    st.push(node[1], dict(ctx, named=BY_SLUG[answer]))
    return None


TEXT["gold_name_card"] = lambda node: "Name a card, " + _lower(render(node[1]))


@op("gold_random_pick")
def _gold_random_pick(st: RRState, node, ctx, answer):
    """node = ("gold_random_pick", then): select a random card of ``q``'s hand (st.rng), bind it
    as ``c``; the two players involved see which card."""
    q, p = ctx["q"], ctx["p"]
    hand = st.hands[q]
    if not hand:
        return None
    card = hand[st.rng.below(len(hand))]
    st.log("random_pick", player=p, target=q)
    st.log("random_pick_seen", to=(p, q), player=p, target=q, card=SLUG[card])
    st.known[p].add(card)
    st.push(node[1], dict(ctx, c=card))
    return None


TEXT["gold_random_pick"] = lambda node: "then randomly select a card from their hand. " + render(node[1])

cond("gold_picked_named", lambda c: "you select the named card")(
    lambda st, c, ctx: "c" in ctx and ctx["c"] == ctx.get("named")
)


@op("gold_reveal_instead")
def _gold_reveal_instead(st: RRState, node, ctx, answer):
    """node = ("gold_reveal_instead", cards, instead, default): if you hold one of ``cards``
    you may reveal it (it stays in your hand) to run ``instead``; otherwise ``default`` runs.
    Not offered when ``instead`` would gain the bound card while it may not be gained now."""
    _, cards, instead, default = node
    p = ctx["p"]
    held = [c for c in st.hands[p] if c in cards]
    if not held or ("c" in ctx and gain_blocked(st, ctx["c"], instead)):
        st.push(default, ctx)
        return None
    if answer is None:
        return Decision(p, "may", YES_NO, prompt_context(st, node, ctx, "instead"))
    if answer == "yes":
        card = held[0]
        st.log("reveal", player=p, card=SLUG[card], source="hand")
        for k in st.known:
            k.add(card)
        st.push(instead, ctx)
    else:
        st.push(default, ctx)
    return None


TEXT["gold_reveal_instead"] = lambda node: (
    render(node[3]) + f" You may reveal {names_text(node[1])} to instead " + _lower(render(node[2]))
)


@op("gold_and")
def _gold_and(st: RRState, node, ctx, answer):
    """node = ("gold_and", a, b, ...): run the steps in order, like ``seq``; it reads as one
    sentence ("banish it and banish Roque"), so it stays under a preceding "if"/"if you do"."""
    st.push_all(node[1:], ctx)
    return None


TEXT["gold_and"] = lambda node: (
    render(node[1]).rstrip(".") + "".join(" and " + _lower(render(n)).rstrip(".") for n in node[2:]) + "."
)

# The shared ``attempt`` step (engine) has no text of its own: it reads as what it attempts.
TEXT.setdefault("attempt", lambda node: render(node[2]))


# ============================================================================ the cards
ABILITIES = AbilityTable("abilities_gold")  # compiled into the rules by rules.py
deploy = ABILITIES.deploy


def _c(slug: str) -> int:
    return BY_SLUG[slug]


# Blocks: reveal to stop an opponent's attempt to steal or banish your cards (engine ``attempt``).
ABILITIES.block_steal_banish("pax-au-telemanus", "the-howlers")

# Choose an opponent; they banish 1 of their cards. Then banish Aja. (Antonia works the same.)
_AJA = ("choose_opponent", ("seq", ("attempt", "q", ("gold_opp_banish",)), ("banish_self",)), True)
deploy("aja", _AJA)
deploy("antonia", _AJA)

# Banish all Blues from this location. If this banishes 2 or more Blues, regain Ash Lord.
deploy(
    "ash-lord",
    (
        "gold_banish_all",
        "this",
        (("color", (BLUE,)),),
        ("if", ("gold_count_at_least", 2, (("color", (BLUE,)),)), ("regain_self",)),
    ),
)

# Boneriders and The Jackal: "Gain the Sovereign token."
deploy("boneriders", ("sovereign",))
deploy("the-jackal", ("sovereign",))

# Gain the card directly under this one. Banish Cassius unless that card is a Gold.
# (The colour is read as the card lay, so a face-down card is no Gold.)
deploy(
    "cassius",
    ("under", ("gold_note_c", ("seq", ("gain_c",), ("unless", ("gold_c_color", (GOLD,)), ("banish_self",))))),
)

# If deployed to the Institute, place 1 Influence there.
deploy("fitchner", ("if", ("deployed_on", (INSTITUTE,)), ("influence", 1)))

# Banish the card directly under this one. If the banished card is Mustang, The Jackal or
# Nero, you may also choose an opponent. If you do, they banish 1 of their cards.
deploy(
    "karnus",
    (
        "under",
        (
            "seq",
            ("banish_c",),
            (
                "if",
                ("c_name", (_c("mustang"), _c("the-jackal"), _c("nero"))),
                ("may", ("choose_opponent", ("attempt", "q", ("gold_opp_banish",)), True), ("gold_can_target",)),
            ),
        ),
    ),
)

# If the card directly under this one is a Gold, banish that card.
deploy("lorn", ("under", ("if", ("gold_c_color", (GOLD,)), ("banish_c",))))

# Gain the top card of the deck. Banish Lysander unless you deployed him on Luna.
deploy("lysander", ("gold_draw", ("unless", ("deployed_on", (LUNA,)), ("banish_self",))))

# Gain 1 banished card. If that card is not a Gold, banish Mustang.
deploy("mustang", ("gold_gain_banished", (), ("if", ("gold_c_not_color", (GOLD,)), ("banish_self",))))

# Gain 1 Helium for each Red at this location.
deploy("nero", ("gold_helium_per", "this", (("color", (RED,)),)))

# If you have the Sovereign token, gain the bottom card on Luna (if it's not this card);
# banish Octavia unless that card is a Gold.
deploy(
    "octavia",
    (
        "if",
        ("has_sovereign",),
        (
            "gold_bottom_of",
            LUNA,
            ("gold_note_c", ("seq", ("gain_c",), ("unless", ("gold_c_color", (GOLD,)), ("banish_self",)))),
        ),
    ),
)

# Gain 1 Blue from this location. Banish Romulus unless you deployed him directly on top of a Gold.
deploy(
    "romulus",
    (
        "note_under",
        (
            "choose_card",
            "this",
            (("color", (BLUE,)),),
            ("seq", ("gain_c",), ("unless", ("src_on_color", (GOLD,)), ("banish_self",))),
            False,
        ),
    ),
)

# Look at an opponent's hand, name a card, then randomly select a card from their hand.
# If you select the named card, banish it and banish Roque.
deploy(
    "roque",
    (
        "choose_opponent",
        (
            "gold_look_hand",
            (
                "gold_name_card",
                (
                    "gold_random_pick",
                    ("if", ("gold_picked_named",), ("gold_and", ("attempt", "q", ("banish_c",)), ("banish_self",))),
                ),
            ),
        ),
        True,
    ),
)

# Banish the card directly under this one. You may reveal The Howlers to instead gain that card.
deploy("sevro", ("under", ("gold_reveal_instead", (_c("the-howlers"),), ("gain_c",), ("banish_c",))))

# You may steal 1 card from an opponent (they choose the card). If you do, banish Tactus
# and end your turn.
deploy(
    "tactus",
    (
        "may",
        ("choose_opponent", ("attempt", "q", ("gold_steal", ("gold_and", ("banish_self",), ("end_turn",)))), True),
        ("gold_target_has_cards",),
    ),
)

# Move all cards under this card from this location to the top of another location in the same order.
deploy("the-telemanuses", ("gold_move_under_all",))

# Gain the bottom card of this location (if it's not this card). Banish Victra unless you
# deployed her on a Gold.
deploy(
    "victra", ("note_under", ("bottom", ("seq", ("gain_c",), ("unless", ("src_on_color", (GOLD,)), ("banish_self",)))))
)

GOLD_SLUGS = (
    "aja",
    "antonia",
    "ash-lord",
    "boneriders",
    "cassius",
    "fitchner",
    "karnus",
    "lorn",
    "lysander",
    "mustang",
    "nero",
    "octavia",
    "pax-au-telemanus",
    "romulus",
    "roque",
    "sevro",
    "tactus",
    "the-howlers",
    "the-jackal",
    "the-telemanuses",
    "victra",
)

__all__ = ["GOLD_SLUGS"]
