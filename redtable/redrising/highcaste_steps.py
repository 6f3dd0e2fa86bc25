"""The primitives of the high castes' abilities (Yellows, Greens, Silvers, Whites, Coppers,
and the Grays' and Oranges' deploys), all named ``highcaste_*``: each registered as a step
of the engine (:func:`~.engine.op`) with its English rules text; the cards themselves are
declared in :mod:`.abilities_highcaste`.

Context keys used besides the shared ones (``p``, ``src``, ``loc``, ``c``, ``q``):
``dest`` a location chosen by a placement, ``colors`` the colours named (Online Gambler),
``value`` a bound core value (Hacker), ``looked`` the cards looked at (Firewall Expert).
"""

from __future__ import annotations

from ..core import Decision
from . import effects
from .board import INFLUENCE_TOKENS, INSTITUTE, LOCATION_NAMES, LOCATION_OF_NAME, LOCATION_TITLES
from .cards import (
    BY_SLUG,
    COLOR,
    COLOR_NAMES,
    COLOR_OF_NAME,
    NAME,
    SLUG,
    VALUE,
)
from .effects import TEXT, cond, filter_text, gainable, holds, matches, render, render_cond, scope_positions
from .engine import YES_NO, RRState, op, seat_id, seat_of
from .words import prompt_context

H = "highcaste_"


def _lc(s: str) -> str:
    return s[:1].lower() + s[1:]


def _turn(st: RRState):
    """The innermost turn, or None at the end of the game."""
    return st.turn_stack[-1] if st.turn_stack else None


def _remove_card(st: RRState, c: int) -> str | None:
    """Take ``c`` from wherever it is (location, hand, deck, banished pile); return where it was."""
    for i, loc in enumerate(st.locs):
        if c in loc:
            loc.remove(c)
            return LOCATION_NAMES[i]
    for hand in st.hands:
        if c in hand:
            hand.remove(c)
            return "hand"
    if c in st.deck:
        st.deck.remove(c)
        return "deck"
    if c in st.banished:
        st.banished.remove(c)
        return "banished"
    return None


def _reveal(st: RRState, c: int, source: str, p: int | None = None) -> None:
    st.log("reveal", player=p, card=SLUG[c], source=source)
    for k in st.known:
        k.add(c)


# ---------------------------------------------------------------------------- filters
# Card filters are the shared ones (effects.matches) plus one clause of ours:
# ("either", (filter, filter, ...)) holds when any of the alternative filters holds.
def _filt_text(filt: tuple, article: bool = True) -> str:
    for clause in filt:
        if clause[0] == "either":
            items: list[str] = []
            for alt in clause[1]:
                names = [a for k, a in alt if k == "name"]
                if names:
                    items.extend(NAME[c] for c in names[0])
                else:
                    items.append("any " + filter_text(alt, article=False))
            return ", ".join(items[:-1]) + ", or " + items[-1] if len(items) > 1 else items[0]
    return filter_text(filt, article=article)


def _plural(filt: tuple) -> str:
    t = _filt_text(filt, article=False)
    return "cards" if t == "card" else t + "s"


# ---------------------------------------------------------------------------- conditions
cond(H + "all", lambda c: " and ".join(render_cond(x) for x in c[1:]))(
    lambda st, c, ctx: all(holds(st, x, ctx) for x in c[1:])
)
cond(H + "can_trade", lambda c: "you have not traded this turn")(
    lambda st, c, ctx: _turn(st) is None or not _turn(st).traded
)
_RESOURCE_TEXT = {
    "helium": "{n} Helium",
    "influence": "{n} Influence on the Institute",
    "fleet": "reached space {n} of the Fleet Track",
}
cond(H + "at_least", lambda c: "you have " + _RESOURCE_TEXT[c[1]].format(n=c[2]))(
    lambda st, c, ctx: getattr(st, c[1])[ctx["p"]] >= c[2]
)
cond(H + "can_place_influence", lambda c: "you have Influence left to place")(
    lambda st, c, ctx: st.influence[ctx["p"]] < INFLUENCE_TOKENS
)
cond(H + "hand_has", lambda c: f"you have {c[2]} {_plural(c[1]) if c[2] > 1 else _filt_text(c[1])} in hand")(
    lambda st, c, ctx: sum(matches(st, x, c[1], ctx) for x in st.hands[ctx["p"]]) >= c[2]
)
cond(H + "banished_has", lambda c: f"there is a banished {_filt_text(c[1], article=False)}")(
    lambda st, c, ctx: any(matches(st, x, c[1], ctx) for x in st.banished)
)
cond(H + "deck_nonempty", lambda c: "the deck is not empty")(lambda st, c, ctx: bool(st.deck))
cond(H + "can_swap", lambda c: "you have a card to banish and the deck is not empty")(
    lambda st, c, ctx: bool(st.deck) and any(matches(st, x, c[1], ctx) for x in st.hands[ctx["p"]])
)
cond(H + "fewest_cards", lambda c: "you have the fewest cards in hand (ties count)")(
    lambda st, c, ctx: len(st.hands[ctx["p"]]) <= min(len(h) for h in st.hands)
)
cond(H + "c_named", lambda c: "it matches a color you named")(
    lambda st, c, ctx: "c" in ctx and st.color(ctx["c"]) in ctx.get("colors", ())
)
cond(H + "any_card", lambda c: f"there is {_filt_text(c[2])} {effects.SCOPES[c[1]]} you may gain")(
    lambda st, c, ctx: any(
        matches(st, st.locs[loc][i], c[2], ctx) and gainable(st, st.locs[loc][i])
        for loc, i in scope_positions(st, c[1], ctx)
    )
)


# ---------------------------------------------------------------------------- structure
@op(H + "at")
def _at(st: RRState, node, ctx, answer):
    """node = (at, location, effect): run ``effect`` with ``location`` as "this location"."""
    st.push(node[2], dict(ctx, loc=node[1]))


TEXT[H + "at"] = lambda node: render(node[2]).replace("this location", LOCATION_TITLES[node[1]])


@op(H + "as_q")
def _as_q(st: RRState, node, ctx, answer):
    """Run an effect as the bound opponent ``q`` (they decide and they gain)."""
    st.push(node[1], dict(ctx, p=ctx["q"]))


def _as_q_text(node):
    t = render(node[1])
    return "That opponent " + t[4:] if t.startswith("You ") else "That opponent: " + _lc(t)


TEXT[H + "as_q"] = _as_q_text


@op(H + "each_player")
def _each_player(st: RRState, node, ctx, answer):
    """node = (each_player, effect, targeting, possible): in clockwise order starting with
    you, each player resolves ``effect`` (as ``p``). For an opponent, ``targeting`` routes it
    through ``attempt`` (a block by Judge & co.); ``possible`` (a condition, or None) is
    checked for each player when their step comes, so nobody is asked to block a no-op."""
    p = ctx["p"]
    for q in reversed([p] + st.opponents(p)):
        st.push((H + "one_player",) + node[1:], dict(ctx, q=q))


@op(H + "one_player")
def _one_player(st: RRState, node, ctx, answer):
    _, effect, targeting, possible = node
    p, q = ctx["p"], ctx["q"]
    if possible is not None and not holds(st, possible, dict(ctx, p=q)):
        return None
    if q == p:
        st.push(effect, ctx)
    elif targeting:
        st.push(("attempt", "q", (H + "as_q", effect)), ctx)
    else:
        st.push((H + "as_q", effect), ctx)
    return None


TEXT[H + "each_player"] = lambda node: "In clockwise order starting with you, each player: " + _lc(render(node[1]))


@op(H + "choose_one")
def _choose_one(st: RRState, node, ctx, answer):
    """node = (choose_one, (label, effect), ...): the acting player picks one effect."""
    if answer is None:
        return Decision(ctx["p"], "choose_one", tuple(lbl for lbl, _ in node[1:]), prompt_context(st, node, ctx, "one"))
    st.push(dict(node[1:])[answer], ctx)
    return None


def _options_text(opts) -> str:
    parts = [_lc(render(e)).rstrip(".") for _, e in opts]
    if len(parts) == 2:
        return f"either {parts[0]} or {parts[1]}"
    return ", ".join(parts[:-1]) + ", or " + parts[-1]


TEXT[H + "choose_one"] = lambda node: (lambda t: t[:1].upper() + t[1:] + ".")(_options_text(node[1:]))


@op(H + "split")
def _split(st: RRState, node, ctx, answer):
    """node = (split, (label, effect), ...): the bound opponent ``q`` picks one effect for
    themselves; the acting player gets all the others (Auctioneer)."""
    q = ctx["q"]
    if answer is None:
        return Decision(
            q,
            "choose_one",
            tuple(lbl for lbl, _ in node[1:]),
            prompt_context(st, node, ctx, "one", **{"for": ctx["p"]}),
        )
    st.log("chose", player=q, option=answer, card=SLUG[ctx["src"]])
    frames = [(e, dict(ctx, p=q)) for lbl, e in node[1:] if lbl == answer]
    frames += [(e, ctx) for lbl, e in node[1:] if lbl != answer]
    for e, c in reversed(frames):
        st.push(e, c)
    return None


TEXT[H + "split"] = lambda node: (
    "That opponent chooses one: "
    + _options_text(node[1:]).replace("either ", "", 1)
    + f". You gain {'both' if len(node) == 4 else 'all'} other options."
)


# ---------------------------------------------------------------------------- trades
@op(H + "trade")
def _trade(st: RRState, node, ctx, answer):
    """A resources-for-resources trade: at most once per turn (checked by ``can_trade``)."""
    t = _turn(st)
    if t is not None:
        t.traded = True
    st.push(node[1], ctx)


TEXT[H + "trade"] = lambda node: render(node[1])


@op(H + "trade_once")
def _trade_once(st: RRState, node, ctx, answer):
    """Skip ``effect`` (a trade whose resources move later) when this turn already traded."""
    t = _turn(st)
    if t is None or not t.traded:
        st.push(node[1], ctx)


TEXT[H + "trade_once"] = lambda node: render(node[1])


@op(H + "pay")
def _pay(st: RRState, node, ctx, answer):
    """node = (pay, helium, effect): pay Helium, then ``effect``."""
    st.lose_helium(ctx["p"], node[1])
    st.push(node[2], ctx)


TEXT[H + "pay"] = lambda node: f"Pay {node[1]} Helium to {_lc(render(node[2]))}"


# ---------------------------------------------------------------------------- counting
@op(H + "count_gain")
def _count_gain(st: RRState, node, ctx, answer):
    """node = (count_gain, where, colors, gain): gain 1 Helium / place 1 Influence for each
    card of ``colors`` (a tuple, or "bound" for ``ctx['color']``) at ``where`` ("here" or a
    location). Face-down cards have no colour."""
    _, where, colors, gain = node
    loc = ctx.get("loc", -1) if where == "here" else where
    if loc < 0:
        return None
    cols = (ctx["color"],) if colors == "bound" else colors
    n = sum(1 for c in st.locs[loc] if st.color(c) in cols)
    st.log("count", player=ctx["p"], location=LOCATION_NAMES[loc], colors=[COLOR_NAMES[c] for c in cols], count=n)
    if gain == "helium":
        st.gain_helium(ctx["p"], n)
    else:
        st.place_influence(ctx["p"], n)
    return None


def _count_gain_text(node):
    _, where, colors, gain = node
    what = "card of that color" if colors == "bound" else effects.colors_text(colors)
    at = "at this location" if where == "here" else ("on " if where != INSTITUTE else "at ") + LOCATION_TITLES[where]
    if gain == "helium":
        return f"Gain 1 Helium for each {what} {at}."
    return f"For each {what} {at}, place 1 Influence on the Institute."


TEXT[H + "count_gain"] = _count_gain_text


@op(H + "steal_helium_most")
def _steal_helium_most(st: RRState, node, ctx, answer):
    """Steal 1 Helium from the opponent with the most Helium (ties: you choose)."""
    p = ctx["p"]
    opps = st.opponents(p)
    most = max((st.helium[q] for q in opps), default=0)
    if most <= 0:
        return None
    if answer is None:
        return Decision(
            p, "choose_opponent", tuple(seat_id(q) for q in opps if st.helium[q] == most), {"card": SLUG[ctx["src"]]}
        )
    q = seat_of(answer)
    st.log("steal_helium", player=p, victim=q, card=SLUG[ctx["src"]])
    st.gain_helium(p, st.lose_helium(q, 1))
    return None


TEXT[H + "steal_helium_most"] = lambda node: (
    "Steal 1 Helium from the opponent with the most Helium (if tied, you choose which of those opponents)."
)


# ---------------------------------------------------------------------------- board cards
@op(H + "reveal_under")
def _reveal_under(st: RRState, node, ctx, answer):
    """node = (reveal_under, 2): reveal the deck's top 2 cards and place them directly
    under the source card, in the order the player chooses (the answer is the card that
    ends directly under the source card)."""
    src, p = ctx["src"], ctx["p"]
    loc = st.location_of(src)
    if loc < 0 or not st.deck:
        return None
    cards = st.deck[::-1][: node[1]]
    if answer is None:
        for c in cards:
            _reveal(st, c, "deck", p)
        if len(cards) > 1:
            return Decision(
                p,
                "order_under",
                tuple(SLUG[c] for c in cards),
                {
                    "card": SLUG[src],
                    "revealed": [SLUG[c] for c in cards],
                },
            )
        answer = SLUG[cards[0]]
    first = BY_SLUG[answer]
    for c in [c for c in cards if c != first] + [first]:
        st.deck.remove(c)
        dest = st.locs[loc]
        dest.insert(dest.index(src), c)
        st.log("place", player=p, card=SLUG[c], location=LOCATION_NAMES[loc], bottom=False, under=SLUG[src])
    return None


TEXT[H + "reveal_under"] = lambda node: (
    f"Reveal the top {node[1]} cards of the deck and place them under this card in any order."
)


@op(H + "place_c")
def _place_c(st: RRState, node, ctx, answer):
    """node = (place_c, where[, then]): place (not deploy) the bound card on a location.

    where: "bottom_here" (bottom of this location), "another" (top of a location other
    than this one), "any" (top of any location), "dest" (top of ``ctx['dest']``). The
    chosen location is bound as ``dest`` for ``then``.
    """
    where = node[1]
    then = node[2] if len(node) > 2 else None
    c, p = ctx["c"], ctx["p"]
    if where == "bottom_here":
        loc = ctx.get("loc", -1)
        if loc < 0:
            return None
    elif where == "dest":
        loc = ctx["dest"]
    else:
        if answer is None:
            excl = ctx.get("loc", -1) if where == "another" else -1
            opts = tuple(LOCATION_NAMES[loc] for loc in range(4) if loc != excl)
            return Decision(p, "place_location", opts, {"card": SLUG[ctx["src"]], "placing": SLUG[c]})
        loc = LOCATION_OF_NAME[answer]
    if _remove_card(st, c) is None:
        return None
    st.put_on(loc, c, "place", p, bottom=where == "bottom_here")
    if then is not None:
        st.push(then, dict(ctx, dest=loc))
    return None


TEXT[H + "place_c"] = lambda node: (
    {
        "bottom_here": "Place (not deploy) that card at the bottom of this location.",
        "another": "Place (not deploy) that card on top of another location.",
        "any": "Place (not deploy) that card on top of any location.",
        "dest": "Place (not deploy) that card on top of that same location.",
    }[node[1]]
    + (" " + render(node[2]) if len(node) > 2 and node[2] is not None else "")
)


@op(H + "facedown_others")
def _facedown_others(st: RRState, node, ctx, answer):
    """node = (facedown_others, 3): look at the deck's top cards and place one face down on
    top of each location other than this one (Firewall Expert, with the official errata)."""
    p, here = ctx["p"], ctx.get("loc", -1)
    targets = [loc for loc in range(4) if loc != here]
    looked = tuple(st.deck[::-1][: node[1]])
    if not looked:
        return None
    st.log("look", player=p, source="deck", count=len(looked))
    st.log("look_seen", to=(p,), player=p, cards=[SLUG[c] for c in looked])
    st.known[p].update(looked)
    st.push_all([(H + "facedown_on", loc, len(targets) - k) for k, loc in enumerate(targets)], dict(ctx, looked=looked))
    return None


@op(H + "facedown_on")
def _facedown_on(st: RRState, node, ctx, answer):
    """node = (facedown_on, location, locations_left): put one looked-at card face down there."""
    _, loc, left = node
    p = ctx["p"]
    cards = [c for c in ctx["looked"] if c in st.deck]
    if not cards:
        return None
    if answer is None:
        opts = tuple(SLUG[c] for c in cards) + (("none",) if len(cards) < left else ())
        return Decision(p, "facedown_card", opts, {"card": SLUG[ctx["src"]], "location": LOCATION_NAMES[loc]})
    if answer == "none":
        return None
    c = BY_SLUG[answer]
    st.deck.remove(c)
    st.facedown[c] = p
    st.known[p].add(c)
    st.put_on(loc, c, "place", p)
    return None


TEXT[H + "facedown_others"] = lambda node: (
    f"Look at the top {node[1]} cards of the deck. Place 1 of them face down at the top of each other "
    "location. These cards are considered colorless while they are face down."
)


# ---------------------------------------------------------------------------- the deck
@op(H + "deck_bottom")
def _deck_bottom(st: RRState, node, ctx, answer):
    """Reveal the deck's bottom card and bind it (skipped when the deck is empty)."""
    if not st.deck:
        return None
    c = st.deck[0]
    _reveal(st, c, "deck_bottom", ctx["p"])
    st.push(node[1], dict(ctx, c=c))
    return None


TEXT[H + "deck_bottom"] = lambda node: "Reveal the bottom card of the deck. " + render(node[1])


@op(H + "to_deck")
def _to_deck(st: RRState, node, ctx, answer):
    """Put the bound card on the top or the bottom of the deck (the player chooses)."""
    c = ctx["c"]
    if answer is None:
        return Decision(ctx["p"], "deck_end", ("top", "bottom"), {"card": SLUG[ctx["src"]], "placing": SLUG[c]})
    if _remove_card(st, c) is None:
        return None
    if answer == "top":
        st.deck.append(c)
    else:
        st.deck.insert(0, c)
    for k in st.known:
        k.add(c)
    st.log("to_deck", player=ctx["p"], card=SLUG[c], end=answer)
    return None


TEXT[H + "to_deck"] = lambda node: "Place that card either on the top or bottom of the deck."


@op(H + "bind_value")
def _bind_value(st: RRState, node, ctx, answer):
    """Bind the bound card's core value as ``value`` (for ``points``)."""
    st.push(node[1], dict(ctx, value=VALUE[ctx["c"]]))


TEXT[H + "bind_value"] = lambda node: render(node[1])


@op(H + "name_colors")
def _name_colors(st: RRState, node, ctx, answer):
    """node = (name_colors, n, excluded, then): name n different colours (bound as
    ``colors``) before a reveal from the deck; skipped when the deck is empty."""
    if not st.deck:
        return None
    st.push((H + "name_color_step",) + tuple(node[1:]), dict(ctx, colors=()))
    return None


@op(H + "name_color_step")
def _name_color_step(st: RRState, node, ctx, answer):
    _, n, excluded, then = node
    named = ctx["colors"]
    if answer is None:
        opts = tuple(COLOR_NAMES[i] for i in range(len(COLOR_NAMES)) if i not in excluded and i not in named)
        return Decision(
            ctx["p"], "name_color", opts, {"card": SLUG[ctx["src"]], "named": [COLOR_NAMES[i] for i in named]}
        )
    named = named + (COLOR_OF_NAME[answer],)
    st.log("name_color", player=ctx["p"], color=answer, card=SLUG[ctx["src"]])
    st.push(then if len(named) >= n else node, dict(ctx, colors=named))
    return None


def _name_colors_text(node):
    _, n, excluded, then = node
    what = (
        f"{n} colors" if n > 1 else "1 " + ("non-" + effects.colors_text(excluded) + " " if excluded else "") + "color"
    )
    return f"Name {what}, then " + _lc(render(then))


TEXT[H + "name_colors"] = _name_colors_text


@op(H + "reveal_gain_colors")
def _reveal_gain_colors(st: RRState, node, ctx, answer):
    """node = (reveal_gain_colors, n): reveal n cards from the deck's top, gain those of the
    named colours, shuffle the others and return them to the top of the deck."""
    p = ctx["p"]
    taken = [st.deck.pop() for _ in range(min(node[1], len(st.deck)))]
    if not taken:
        return None
    for c in taken:
        _reveal(st, c, "deck", p)
    rest = []
    for c in taken:
        if COLOR[c] in ctx["colors"]:
            st.take_to_hand(p, c, "revealed")
        else:
            rest.append(c)
    st.rng.shuffle(rest)
    st.deck.extend(rest)
    for k in st.known:  # their order is unknown again
        k.difference_update(rest)
    st.log("return_to_deck", player=p, count=len(rest), shuffled=True)
    return None


TEXT[H + "reveal_gain_colors"] = lambda node: (
    f"Reveal {node[1]} cards from the top of the deck and gain all cards of that color. "
    "Shuffle and return the other cards to the top of the deck."
)


# ---------------------------------------------------------------------------- banished cards
@op(H + "choose_banished")
def _choose_banished(st: RRState, node, ctx, answer):
    """node = (choose_banished, filter, then, optional, times): pick a banished card matching
    ``filter``, bind it as ``c`` and run ``then``; repeat up to ``times`` (None: any number).
    ``optional`` adds "none" (which also stops the repetition)."""
    _, filt, then, optional, times = node
    if answer is None:
        opts = tuple(SLUG[c] for c in st.banished if matches(st, c, filt, ctx))
        if not opts:
            return None
        if optional:
            opts += ("none",)
        return Decision(
            ctx["p"],
            "choose_banished",
            opts,
            prompt_context(st, node, ctx, ("stop" if times != 1 else "none") if optional else ""),
        )
    if answer == "none":
        return None
    nodes = [then]
    if times is None or times > 1:
        nodes.append((node[0], filt, then, optional, None if times is None else times - 1))
    st.push_all(nodes, dict(ctx, c=BY_SLUG[answer]))
    return None


def _choose_banished_text(node):
    _, filt, then, optional, times = node
    if times is not None and times > 1:
        return f"Choose up to {times} banished {_plural(filt)} and " + _lc(
            render(then).replace("that card", "each of them")
        )
    if times is None:
        what = (
            f"any number of these banished cards: {_filt_text(filt)}"
            if any(k == "either" for k, _ in filt)
            else f"any number of banished {_plural(filt)}"
        )
    else:
        what = (
            f"a banished {_filt_text(filt, article=False)}"
            if optional
            else f"any 1 banished {_filt_text(filt, article=False)}"
        )
    body = render(then).replace("that card", what, 1)
    return "You may " + _lc(body) if optional else body


TEXT[H + "choose_banished"] = _choose_banished_text


@op(H + "random_banished")
def _random_banished(st: RRState, node, ctx, answer):
    """Bind a random banished card (skipped when none is banished)."""
    if not st.banished:
        return None
    c = st.banished[st.rng.below(len(st.banished))]
    st.log("random_banished", player=ctx["p"], card=SLUG[c])
    st.push(node[1], dict(ctx, c=c))
    return None


TEXT[H + "random_banished"] = lambda node: render(node[1]).replace("that card", "a random banished card", 1)


@op(H + "gain_c")
def _gain_c(st: RRState, node, ctx, answer):
    """Gain the bound card from wherever it is (the banished pile included)."""
    c = ctx["c"]
    where = _remove_card(st, c)
    if where is not None:
        st.take_to_hand(ctx["p"], c, where)


TEXT[H + "gain_c"] = lambda node: "Gain that card."


# ---------------------------------------------------------------------------- your hand
@op(H + "choose_hand")
def _choose_hand(st: RRState, node, ctx, answer):
    """node = (choose_hand, filter, then, optional): pick a card of your hand, bound as ``c``."""
    _, filt, then, optional = node
    p = ctx["p"]
    opts = tuple(SLUG[c] for c in st.hands[p] if matches(st, c, filt, ctx))
    if not opts:
        return None
    if answer is None:
        return Decision(
            p,
            "choose_hand",
            opts + (("none",) if optional else ()),
            prompt_context(st, node, ctx, "none" if optional else ""),
        )
    if answer == "none":
        return None
    st.push(then, dict(ctx, c=BY_SLUG[answer]))
    return None


def _choose_hand_text(node):
    _, filt, then, optional = node
    body = render(then).replace("that card", f"{_filt_text(filt)} from your hand", 1)
    return "You may " + _lc(body) if optional else body


TEXT[H + "choose_hand"] = _choose_hand_text


@op(H + "swap")
def _swap(st: RRState, node, ctx, answer):
    """node = (swap, filter): the player banishes a card of their hand matching ``filter``
    and gains the top card of the deck. An exchange: skipped unless both are possible."""
    p = ctx["p"]
    opts = tuple(SLUG[c] for c in st.hands[p] if matches(st, c, node[1], ctx))
    if not opts or not st.deck:
        return None
    if answer is None:
        return Decision(p, "banish_from_hand", opts, prompt_context(st, node, ctx))
    c = BY_SLUG[answer]
    st.hands[p].remove(c)
    st.banish(c, p, "hand")
    st.take_to_hand(p, st.deck.pop(), "deck")
    return None


TEXT[H + "swap"] = lambda node: (
    f"Banish 1 {'other ' if any(k == 'other' for k, _ in node[1]) else ''}card from your "
    "hand and gain the top card of the deck."
)


@op(H + "reveal_hand")
def _reveal_hand(st: RRState, node, ctx, answer):
    """node = (reveal_hand, colors, n): reveal n cards of ``colors`` from your hand (they
    stay in hand); the player picks which when they hold more."""
    _, colors, n = node
    p = ctx["p"]
    shown = ctx.get("shown", ())
    if n <= 0:
        return None
    cands = [c for c in st.hands[p] if COLOR[c] in colors and c not in shown]
    if len(cands) < n:
        return None
    if len(cands) == n:
        for c in cands:
            _reveal(st, c, "hand", p)
        return None
    if answer is None:
        return Decision(p, "reveal_from_hand", tuple(SLUG[c] for c in cands), {"card": SLUG[ctx["src"]], "left": n})
    c = BY_SLUG[answer]
    _reveal(st, c, "hand", p)
    st.push((H + "reveal_hand", colors, n - 1), dict(ctx, shown=shown + (c,)))
    return None


TEXT[H + "reveal_hand"] = lambda node: f"Reveal {node[2]} {effects.colors_text(node[1])}s from your hand."


# ---------------------------------------------------------------------------- Loan Shark
@op(H + "loan_shark")
def _loan_shark(st: RRState, node, ctx, answer):
    """The bound opponent ``q`` may give you 2 Helium to take 1 turn out of order right away
    (before your turn goes on); otherwise they give you 1 Helium. A trade: once per turn."""
    p, q = ctx["p"], ctx["q"]
    if answer is None and st.helium[q] >= 2:
        return Decision(
            q,
            "loan_shark",
            YES_NO,
            {"card": SLUG[ctx["src"]], "lender": p, "text": "Give 2 Helium to take 1 turn out of order now?"},
        )
    t = _turn(st)
    if t is not None:
        t.traded = True
    if answer == "yes":
        st.log("loan_shark", player=q, lender=p, paid=2, out_of_order_turn=True)
        st.gain_helium(p, st.lose_helium(q, 2))
        st.push(("turn_start", q, False), {"p": q})  # the engine's uncounted turn (see gainable)
    else:
        st.log("loan_shark", player=q, lender=p, paid=min(1, st.helium[q]), out_of_order_turn=False)
        st.gain_helium(p, st.lose_helium(q, 1))
    return None


TEXT[H + "loan_shark"] = lambda node: (
    "They may give you 2 Helium to immediately take 1 turn out of order (but may not gain this card) "
    "before you finish your turn. Otherwise they must give you 1 Helium."
)
