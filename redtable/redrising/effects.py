"""Shared effect primitives card abilities are built from.

An ability is a nested tuple such as::

    ("seq", ("choose_card", "this", (("color", (GOLD,)),), ("gain_c",), True),
            ("if", ("bound",), ("end_turn",)))

Every primitive is registered twice: as a step handler in ``engine.OPS`` (what it
does) and as a text renderer in :data:`TEXT` (what the card says), so the text a
player reads is rendered from the same data that runs.

Context keys (``ctx``): ``p`` acting seat, ``src`` the card whose ability runs,
``loc`` where it was deployed, ``c`` the bound card, ``q`` a bound opponent,
``color`` a bound colour.

Card choices on locations are offered as ``"<location>:<index from the bottom>"``
(face-down cards stay anonymous); hand choices as card slugs; opponents as ``"p<seat>"``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..core import Decision
from .board import LOCATION_NAMES, LOCATION_OF_NAME, LOCATION_TITLES
from .cards import BY_SLUG, COLOR, COLOR_NAMES, COLOR_OF_NAME, GOLD, NAME, SLUG, VALUE
from .engine import OPS, YES_NO, RRState, gainable, op, seat_id, seat_of
from .texts import TEXT, render_cached  # noqa: F401 - re-exported: the ability families register here
from .words import prompt_context

# ---------------------------------------------------------------------------- text
COND: dict[str, Callable[[RRState, tuple, dict], bool]] = {}
COND_TEXT: dict[str, Callable[[tuple], str]] = {}


def text_for(name: str):
    def deco(fn):
        TEXT[name] = fn
        return fn

    return deco


def cond(name: str, render: Callable[[tuple], str]):
    def deco(fn):
        COND[name] = fn
        COND_TEXT[name] = render
        return fn

    return deco


def render(node: tuple, lang: str = "en") -> str:
    """Rules text of an effect node: English (``TEXT``), or "uk"/"pl" (rendered from the same
    node by :mod:`redtable.redrising.lang`)."""
    if lang == "en":
        return TEXT[node[0]](node)
    from .lang import render as render_in

    return render_in(node, lang)


def render_cond(c: tuple) -> str:
    return COND_TEXT[c[0]](c)


def holds(st: RRState, c: tuple, ctx: dict) -> bool:
    return COND[c[0]](st, c, ctx)


def colors_text(colors: tuple[int, ...], joiner: str = "or") -> str:
    names = [COLOR_NAMES[c].capitalize() for c in colors]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + f" {joiner} " + names[-1]


def names_text(cards: tuple[int, ...], joiner: str = "or") -> str:
    names = [NAME[c] for c in cards]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {joiner} " + names[-1]


def cap(s: str) -> str:
    return s[:1].upper() + s[1:]


# ---------------------------------------------------------------------------- card filters
# A filter is a tuple of (kind, arg) clauses, all of which must hold.
def matches(st: RRState, card: int, filt: tuple, ctx: dict) -> bool:
    col = -1 if card in st.facedown else COLOR[card]  # st.color(card)
    for kind, arg in filt:
        if kind == "color":
            if col not in arg:
                return False
        elif kind == "not_color":
            if col in arg:
                return False
        elif kind == "name":
            if card in st.facedown or card not in arg:
                return False
        elif kind == "other":
            if card == ctx.get("src"):
                return False
        elif kind == "parity":
            if card in st.facedown or VALUE[card] % 2 != arg:
                return False
        elif kind == "either":  # any one of several alternative filters
            if not any(matches(st, card, f, ctx) for f in arg):
                return False
        else:
            raise ValueError(f"unknown card filter {kind!r}")
    return True


def filter_text(filt: tuple, article: bool = True) -> str:
    parts = []
    noun = "card"
    for kind, arg in filt:
        if kind == "color":
            noun = colors_text(arg)
        elif kind == "not_color":
            parts.append("non-" + colors_text(arg))
            noun = ""
        elif kind == "name":
            noun = names_text(arg)
        elif kind == "other":
            parts.insert(0, "any other")
        elif kind == "parity":
            noun = f"card with an {'even' if arg == 0 else 'odd'} core value"
    words = " ".join(p for p in parts + [noun] if p)
    if article and not any(k == "name" for k, _ in filt):
        words = ("an " if words[:1].lower() in "aeiou" else "a ") + words
    return words


_POS_IDS = tuple(tuple(f"{LOCATION_NAMES[loc]}:{idx}" for idx in range(128)) for loc in range(4))


def pos_id(loc: int, idx: int) -> str:
    if 0 <= idx < 128:
        return _POS_IDS[loc][idx]
    return f"{LOCATION_NAMES[loc]}:{idx}"


def parse_pos(action: str) -> tuple[int, int]:
    name, _, idx = action.partition(":")
    return LOCATION_OF_NAME[name], int(idx)


# ---------------------------------------------------------------------------- structure
@op("seq")
def _seq(st: RRState, node, ctx, answer):
    st.push_all(node[1:], ctx)


@text_for("seq")
def _seq_text(node):
    return " ".join(render(n) for n in node[1:])


@op("if")
def _if(st: RRState, node, ctx, answer):
    if holds(st, node[1], ctx):
        st.push(node[2], ctx)
    elif len(node) > 3 and node[3] is not None:
        st.push(node[3], ctx)


def _clause(node: tuple) -> str:
    """An effect as one clause: the sentences of a sequence joined with "then"."""
    return clause_of(render(node))


def clause_of(text: str) -> str:
    """Sentences as one clause, lower-case, joined with "then" ("Regain this card. End your
    turn." -> "regain this card, then end your turn.")."""
    parts = _SENTENCE_STOP.split(text.rstrip("."))
    return ", then ".join(p[0].lower() + p[1:] for p in parts if p) + "."


#: A full stop that ends a sentence (not the one of "Dr. Virany").
_SENTENCE_STOP = re.compile(r"(?<!\bDr)\. ")


def if_you_do(text: str, lead: str = "If you do") -> str:
    """ "<lead>, <text>" with every sentence of ``text`` in the one clause: a condition governs
    all the sentences of the effect it guards. Left as free sentences after it ("If you do,
    regain this card. End your turn."), the later ones read as unconditional."""
    return f"{lead}, {clause_of(text)}"


@text_for("if")
def _if_text(node):
    out = f"If {render_cond(node[1])}, {_clause(node[2])}"
    if len(node) > 3 and node[3] is not None:
        out += f" Otherwise, {_clause(node[3])}"
    return out


@op("unless")
def _unless(st: RRState, node, ctx, answer):
    if not holds(st, node[1], ctx):
        st.push(node[2], ctx)


@text_for("unless")
def _unless_text(node):
    body = render(node[2]).rstrip(".")
    return f"{body} unless {render_cond(node[1])}."


@op("may")
def _may(st: RRState, node, ctx, answer):
    """node = ("may", effect, possible, then): an optional step asked as yes/no.

    ``possible`` (a condition or None) says when the option exists at all; ``then`` (or
    None) runs after ``effect`` only if the player said yes ("if you do, ...").
    """
    possible = node[2] if len(node) > 2 else None
    if possible is not None and not holds(st, possible, ctx):
        return None
    if "c" in ctx and gain_blocked(st, ctx["c"], node[1]):
        return None
    if answer is None:
        return Decision(ctx["p"], "may", YES_NO, prompt_context(st, node, ctx, "may"))
    if answer == "yes":
        then = node[3] if len(node) > 3 else None
        st.push_all([node[1]] + ([then] if then is not None else []), ctx)
    return None


@text_for("may")
def _may_text(node):
    t = render(node[1])
    out = "You may " + t[0].lower() + t[1:]
    if len(node) > 3 and node[3] is not None:
        out = out.rstrip(".") + ". " + if_you_do(render(node[3]))
    return out


# ---------------------------------------------------------------------------- tokens
def _simple(name: str, fn: Callable[[RRState, int, int], Any], phrase: Callable[[int], str]):
    @op(name)
    def _h(st: RRState, node, ctx, answer):
        fn(st, ctx["p"], node[1] if len(node) > 1 else 1)

    TEXT[name] = lambda node: phrase(node[1] if len(node) > 1 else 1)


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


_simple("helium", RRState.gain_helium, lambda n: f"Gain {n} Helium.")
_simple("lose_helium", RRState.lose_helium, lambda n: f"Lose {n} Helium.")
_simple("advance", RRState.advance, lambda n: f"Advance {_times(n)} on the Fleet Track.")
_simple("regress", RRState.regress, lambda n: f"Regress {_times(n)} on the Fleet Track.")
_simple("influence", RRState.place_influence, lambda n: f"Place {n} Influence on the Institute.")
_simple("lose_influence", RRState.remove_influence, lambda n: f"Lose {n} Influence from the Institute.")


@op("others_advance")
def _others_advance(st: RRState, node, ctx, answer):
    for q in st.opponents(ctx["p"]):
        st.advance(q, node[1])


TEXT["others_advance"] = lambda node: f"All other players advance {_times(node[1])} on the Fleet Track."


@op("sovereign")
def _sovereign(st: RRState, node, ctx, answer):
    st.push(("gain_sovereign",), ctx)


TEXT["sovereign"] = lambda node: "Gain the Sovereign token."


@op("end_turn")
def _end_turn(st: RRState, node, ctx, answer):
    st.turn.ended = True
    st.log("end_turn", player=ctx["p"], card=SLUG[ctx["src"]])


TEXT["end_turn"] = lambda node: "End your turn."


@op("points")
def _points(st: RRState, node, ctx, answer):
    """Points scored by an end-of-game ability (Hacker); node[1] is the bound key holding the value."""
    pts = ctx.get(node[1], 0)
    st.log("points", player=ctx["p"], points=pts, card=SLUG[ctx["src"]])


TEXT["points"] = lambda node: "Gain points equal to that card's core value."


# The engine's ``attempt`` step (an opponent may block a steal or banish) reads as what it attempts.
TEXT["attempt"] = lambda node: render(node[2])


# ---------------------------------------------------------------------------- the source card
def _take_card(st: RRState, card: int) -> str | None:
    """Remove ``card`` from wherever it is; return where it was (location name, 'hand', 'deck')."""
    for i, loc in enumerate(st.locs):
        if card in loc:
            loc.remove(card)
            return LOCATION_NAMES[i]
    for hand in st.hands:
        if card in hand:
            hand.remove(card)
            return "hand"
    if card in st.deck:
        st.deck.remove(card)
        return "deck"
    return None


@op("banish_self")
def _banish_self(st: RRState, node, ctx, answer):
    card = ctx["src"]
    where = _take_card(st, card)
    if where is not None and card not in st.banished:
        st.banish(card, ctx["p"], where)


TEXT["banish_self"] = lambda node: "Banish this card."


@op("regain_self")
def _regain_self(st: RRState, node, ctx, answer):
    card = ctx["src"]
    loc = st.location_of(card)
    if loc >= 0:
        st.locs[loc].remove(card)
        st.take_to_hand(ctx["p"], card, LOCATION_NAMES[loc])


TEXT["regain_self"] = lambda node: "Regain this card."


# ---------------------------------------------------------------------------- binding cards
# Steps that run their first item on the same bound card (card modules add their own), and
# steps that gain the bound card: ("seq", ("gain_c",), ...) starts by gaining that card.
SAME_CARD_STEPS = {"seq"}
GAIN_STEPS = {"gain_c"}


def gains_c(effect: tuple) -> bool:
    """Whether ``effect`` starts by gaining the bound card."""
    while effect[0] in SAME_CARD_STEPS:
        effect = effect[1]
    return effect[0] in GAIN_STEPS


def gain_blocked(st: RRState, card: int, effect: tuple) -> bool:
    """Whether ``effect`` would gain ``card`` while it may not be gained now (:func:`gainable`).

    The abilities' gains of a bound card are checked here (the Lead's gain step checks
    :func:`gainable` itself): a choice does not offer that card, an ability whose gain it is
    is impossible and is ignored whole ("Gain X. Banish this unless ..." leaves the card
    deployed), an optional gain ("you may gain it", "reveal ... to instead gain") is not offered.
    """
    return not gainable(st, card) and gains_c(effect)


def _bind_card(st: RRState, ctx: dict, card: int, then: tuple) -> None:
    if not gain_blocked(st, card, then):
        st.push(then, dict(ctx, c=card))


@op("under")
def _under(st: RRState, node, ctx, answer):
    """Bind the card directly under the source card (where it lies now) and run node[1]."""
    src = ctx["src"]
    loc = st.location_of(src)
    if loc < 0:
        return None
    i = st.locs[loc].index(src)
    if i > 0:
        _bind_card(st, ctx, st.locs[loc][i - 1], node[1])
    return None


TEXT["under"] = lambda node: render(node[1]).replace("that card", "the card directly under this one", 1)


@op("bottom")
def _bottom(st: RRState, node, ctx, answer):
    """Bind the bottom card of the deploy location, if it is not the source card."""
    loc = st.locs[ctx["loc"]]
    if loc and loc[0] != ctx["src"]:
        _bind_card(st, ctx, loc[0], node[1])


TEXT["bottom"] = lambda node: render(node[1]).replace(
    "that card", "the bottom card of this location (if it's not this card)", 1
)


@op("top_of_deck")
def _top_of_deck(st: RRState, node, ctx, answer):
    """Reveal the deck's top card and bind it (skipped when the deck is empty)."""
    card = st.reveal_top()
    if card >= 0:
        _bind_card(st, ctx, card, node[1])


TEXT["top_of_deck"] = lambda node: "Reveal the top card of the deck. " + render(node[1])

SCOPES = {
    "this": "from this location",
    "any": "from any location",
    "other_top": "on top of another location",
    "any_top": "on top of any location",
    "other_any": "from any other location",
}


def scope_positions(st: RRState, scope: str, ctx: dict) -> list[tuple[int, int]]:
    here = ctx.get("loc", -1)
    if scope == "this":
        return [(here, i) for i in range(len(st.locs[here]))] if here >= 0 else []
    if scope == "any":
        return [(loc, i) for loc in range(4) for i in range(len(st.locs[loc]))]
    if scope == "other_any":
        return [(loc, i) for loc in range(4) if loc != here for i in range(len(st.locs[loc]))]
    if scope == "other_top":
        return [(loc, len(st.locs[loc]) - 1) for loc in range(4) if loc != here and st.locs[loc]]
    if scope == "any_top":
        return [(loc, len(st.locs[loc]) - 1) for loc in range(4) if st.locs[loc]]
    raise ValueError(f"unknown scope {scope!r}")


@op("choose_card")
def _choose_card(st: RRState, node, ctx, answer):
    """node = ("choose_card", scope, filter, then, optional): pick a matching card on the board.

    Nothing matching: the step is skipped. ``optional`` adds a "none" option. A card that
    ``then`` would gain while it may not be gained now is not offered (:func:`gain_blocked`).
    """
    _, scope, filt, then, optional = node
    if answer is None:
        locs = st.locs
        opts = tuple(
            [
                pos_id(loc, i)
                for loc, i in scope_positions(st, scope, ctx)
                if matches(st, locs[loc][i], filt, ctx) and (gainable(st, locs[loc][i]) or not gains_c(then))
            ]
        )
        if not opts:
            return None
        if optional:
            opts += ("none",)
        return Decision(ctx["p"], "choose_card", opts, prompt_context(st, node, ctx, "none" if optional else ""))
    if answer == "none":
        return None
    loc, i = parse_pos(answer)
    _bind_card(st, ctx, st.locs[loc][i], then)
    return None


@text_for("choose_card")
def _choose_card_text(node):
    _, scope, filt, then, optional = node[:5]
    what = f"{filter_text(filt, article=not any(k == 'other' for k, _ in filt))} {SCOPES[scope]}"
    body = render(then).replace("that card", what, 1)
    if optional:
        first, _, rest = body.partition(". ")
        body = "You may " + first[0].lower() + first[1:] + (". " + if_you_do(rest) if rest else ".")
    return body


# ---------------------------------------------------------------------------- acting on the bound card
@op("gain_c")
def _gain_c(st: RRState, node, ctx, answer):
    card = ctx["c"]
    if not gainable(st, card):
        return None
    where = _take_card(st, card)
    if where is not None:
        st.take_to_hand(ctx["p"], card, where)


TEXT["gain_c"] = lambda node: "Gain that card."


@op("banish_c")
def _banish_c(st: RRState, node, ctx, answer):
    card = ctx["c"]
    where = _take_card(st, card)
    if where is not None:
        st.banish(card, ctx["p"], where)


TEXT["banish_c"] = lambda node: "Banish that card."


@op("move_c")
def _move_c(st: RRState, node, ctx, answer):
    """node = ("move_c", where): move the bound card to the top of a location.

    where: "another" (not the deploy location), "other_than_its" (not where it lies),
    "under_src" (directly under the source card), "any".
    """
    card = ctx["c"]
    where = node[1]
    cur = st.location_of(card)
    if cur < 0:
        return None
    if where == "under_src":
        src_loc = st.location_of(ctx["src"])
        if src_loc < 0:
            return None
        st.locs[cur].remove(card)
        dest = st.locs[src_loc]
        dest.insert(dest.index(ctx["src"]), card)
        st.log(
            "move",
            player=ctx["p"],
            card=SLUG[card] if card not in st.facedown else None,
            source=LOCATION_NAMES[cur],
            location=LOCATION_NAMES[src_loc],
            under=SLUG[ctx["src"]],
        )
        return None
    exclude = {"another": ctx.get("loc", -1), "other_than_its": cur, "any": -1}[where]
    if answer is None:
        opts = tuple(LOCATION_NAMES[loc] for loc in range(4) if loc != exclude and loc != cur)
        if not opts:
            return None
        return Decision(
            ctx["p"], "move_location", opts, {"card": SLUG[ctx["src"]], "moving": pos_id(cur, st.locs[cur].index(card))}
        )
    st.locs[cur].remove(card)
    to = LOCATION_OF_NAME[answer]
    st.locs[to].append(card)
    st.log(
        "move",
        player=ctx["p"],
        card=SLUG[card] if card not in st.facedown else None,
        source=LOCATION_NAMES[cur],
        location=answer,
    )
    return None


TEXT["move_c"] = lambda node: {
    "another": "Move that card to the top of another location.",
    "other_than_its": "Move that card to the top of a different location.",
    "under_src": "Move that card to directly under this card.",
    "any": "Move that card to the top of any location.",
}[node[1]]


@op("deploy_c")
def _deploy_c(st: RRState, node, ctx, answer):
    """Deploy the bound card from its location to another location (Modjob, Orion)."""
    card = ctx["c"]
    cur = st.location_of(card)
    if cur >= 0:
        dest = node[1] if len(node) > 1 else -1
        if dest >= 0:
            st.locs[cur].remove(card)
            st.locs[dest].append(card)
            st.note_deploy(ctx["p"], dest)
            st.log("deploy", player=ctx["p"], card=SLUG[card], location=LOCATION_NAMES[dest], bottom=False)
            ability = st.game.rules.deploy.get(card)
            if ability is not None:
                st.push(("ability", card, ability), {"p": ctx["p"], "src": card, "loc": dest})
        else:
            st.push(("deploy", card, LOCATION_NAMES[cur], ctx.get("loc", -1)), {"p": ctx["p"]})


TEXT["deploy_c"] = lambda node: (
    f"Deploy that card to {LOCATION_TITLES[node[1]]}."
    if len(node) > 1 and node[1] >= 0
    else "Deploy that card to the top of another location."
)


# ---------------------------------------------------------------------------- conditions
cond("deployed_on", lambda c: f"deployed on {' or '.join(LOCATION_TITLES[loc] for loc in c[1])}")(
    lambda st, c, ctx: ctx.get("loc", -1) in c[1]
)
cond("has_sovereign", lambda c: "you have the Sovereign token")(lambda st, c, ctx: st.sovereign == ctx["p"])
cond("c_color", lambda c: f"it's {filter_text((('color', c[1]),))}")(
    lambda st, c, ctx: "c" in ctx and st.color(ctx["c"]) in c[1]
)
cond("c_not_color", lambda c: f"it's not {filter_text((('color', c[1]),))}")(
    lambda st, c, ctx: "c" in ctx and st.color(ctx["c"]) not in c[1]
)
cond("c_name", lambda c: f"it's {names_text(c[1])}")(
    lambda st, c, ctx: "c" in ctx and ctx["c"] not in st.facedown and ctx["c"] in c[1]
)
cond("src_on_color", lambda c: f"you deployed this directly on top of {filter_text((('color', c[1]),))}")(
    lambda st, c, ctx: ctx.get("under_color", -2) in c[1]
)
cond("not", lambda c: "not " + render_cond(c[1]))(lambda st, c, ctx: not holds(st, c[1], ctx))


@op("note_under")
def _note_under(st: RRState, node, ctx, answer):
    """Remember the colour of the card the source was deployed onto (for 'unless deployed on a Gold')."""
    src = ctx["src"]
    loc = st.locs[ctx["loc"]] if ctx.get("loc", -1) >= 0 else []
    i = loc.index(src) if src in loc else -1
    col = st.color(loc[i - 1]) if i > 0 else -2
    st.push(node[1], dict(ctx, under_color=col))


TEXT["note_under"] = lambda node: render(node[1])


# ---------------------------------------------------------------------------- players
@op("choose_opponent")
def _choose_opponent(st: RRState, node, ctx, answer):
    """node = ("choose_opponent", then, targeting): bind an opponent as ``q``.

    ``targeting`` marks abilities that make the opponent banish or be stolen from, which
    the multiplayer variant restricts.
    """
    then, targeting = node[1], node[2]
    p = ctx["p"]
    if answer is None:
        opps = st.targetable(p) if targeting else st.opponents(p)
        if not opps:
            return None
        return Decision(p, "choose_opponent", tuple(seat_id(q) for q in opps), {"card": SLUG[ctx["src"]]})
    st.push(then, dict(ctx, q=seat_of(answer)))
    return None


TEXT["choose_opponent"] = lambda node: "Choose an opponent. " + render(node[1])


@op("choose_color")
def _choose_color(st: RRState, node, ctx, answer):
    """node = ("choose_color", excluded_colors, then): bind a colour as ``color``."""
    if answer is None:
        opts = tuple(n for i, n in enumerate(COLOR_NAMES) if i not in node[1])
        return Decision(ctx["p"], "choose_color", opts, {"card": SLUG[ctx["src"]]})
    st.push(node[2], dict(ctx, color=COLOR_OF_NAME[answer]))
    return None


TEXT["choose_color"] = lambda node: (
    (f"Choose a color other than {colors_text(node[1])}. " if node[1] else "Choose a color. ") + render(node[2])
)


__all__ = [
    "TEXT",
    "COND",
    "render",
    "render_cond",
    "clause_of",
    "if_you_do",
    "holds",
    "matches",
    "OPS",
    "GOLD",
    "BY_SLUG",
]


@op("draw_to_hand")
def _draw_to_hand(st: RRState, node, ctx, answer):
    """Gain the top card of the deck (nothing when the deck is empty)."""
    for _ in range(node[1] if len(node) > 1 else 1):
        if st.deck:
            st.take_to_hand(ctx["p"], st.deck.pop(), "deck")


TEXT["draw_to_hand"] = lambda node: (
    "Gain the top card of the deck." if len(node) < 2 or node[1] == 1 else f"Gain the top {node[1]} cards of the deck."
)
