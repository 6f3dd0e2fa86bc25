"""Card abilities (deploy, block, end-of-game) rendered in Ukrainian and Polish.

One renderer per effect primitive and one per condition, keyed like ``effects.TEXT`` /
``effects.COND_TEXT``: the same nodes the engine runs are read here, and every word comes
from the language's phrase table (:mod:`.uk`, :mod:`.pl`) through the grammar helpers.
A renderer returns a list of sentences (the first in the requested mood: "imp" as on the
card, "inf" after "you may ..."); :meth:`Lang.finish` capitalises and punctuates them.

Three rules keep a text saying what the card says (each once, here or in :mod:`.core`):

* a pronoun for the bound card ("її", "ją") is said only while it cannot point at this card:
  after a clause that names this card it is a noun phrase ("розкриту карту", :class:`.Ref`);
* a clause whose subject is not the reader ("кожен гравець: ...") says "from their own hand"
  (:func:`hand`);
* sentences joined into one clause share its mood (:func:`clause`): after "можете" every
  verb is an infinitive; and "if you do" takes every sentence of what it guards.
"""

from __future__ import annotations

from collections.abc import Callable

from .core import NP, Cx, Fixed, Lang
from .grammar import Word, euphony
from .tables import lang as get_lang

RENDER: dict[str, Callable[[tuple, Cx, str], list[str]]] = {}
COND: dict[str, Callable[[tuple, Cx], str]] = {}


def R(node: tuple, cx: Cx, mood: str = "imp") -> list[str]:
    """The sentences of ``node``: the first in ``mood``, unless the clause they join sets one
    mood for all (:func:`clause`). The bound card is told what they said (:meth:`Ref.saw`)."""
    out = RENDER[node[0]](node, cx, cx.mood or mood)
    if cx.c is not None:
        cx.c.saw("\n".join(out))
    return out


def clause(node: tuple, cx: Cx, mood: str = "imp") -> str:
    """The sentences of ``node`` joined into one clause ("X, потім Y"). Its verbs are
    coordinated, so they share one mood: after «можете» / «możesz» every one is an
    infinitive («можете заблокувати ..., потім взяти ...»), not only the first."""
    return cx.L.then_join(R(node, cx.but(mood=mood) if mood != "imp" else cx, mood))


def hand(cx: Cx) -> str:
    """ "from your hand", whose hand being the subject's: the reader's, or under "each
    player:" the player's own («зі своєї руки»)."""
    return cx.L.P["your_hand"]["you" if cx.subject == "you" else "own"]


def C(c: tuple, cx: Cx) -> str:
    return COND[c[0]](c, cx)


def render(node: tuple, code: str) -> str:
    """The rules text of an effect node in ``code`` ("uk" or "pl")."""
    L = get_lang(code)
    return L.finish(R(node, Cx(L)))


def render_clause(node: tuple, code: str, mood: str = "imp") -> str:
    """An effect as one clause, lower-case, no final stop ("візьміть ..., потім ..."); "inf"
    where the clause goes on from a modal ("можете ..., потім взяти ...")."""
    L = get_lang(code)
    return euphony(clause(node, Cx(L), mood), code)


def render_cond(c: tuple, code: str) -> str:
    L = get_lang(code)
    return C(c, Cx(L))


def text(name: str):
    def deco(fn):
        RENDER[name] = fn
        return fn

    return deco


def cond(name: str):
    def deco(fn):
        COND[name] = fn
        return fn

    return deco


def passthrough(name: str, idx: int) -> None:
    RENDER[name] = lambda node, cx, mood: R(node[idx], cx, mood)


def fixed(name: str, key: str | None = None) -> None:
    RENDER[name] = lambda node, cx, mood: cx.L.fs(key or name, mood)


def if_you_do(L: Lang, sents: list[str]) -> list[str]:
    return [L.f("if_you_do", body=L.then_join(sents))] if sents else []


def if_you_do_node(cx: Cx, then: tuple) -> list[str]:
    """ "If you do, <then>"; "if you do and <cond>, <body>" when ``then`` is a plain "if"."""
    L = cx.L
    if then[0] == "if" and (len(then) < 4 or then[3] is None):
        c = C(then[1], cx)
        return [L.f("if_you_do_and", cond=c, body=L.then_join(R(then[2], cx)))]
    return if_you_do(L, R(then, cx))


def may(L: Lang, cx: Cx, body: list[str]) -> list[str]:
    key = "may_opp" if cx.subject == "opp" else "may"
    return [L.f(key, body=body[0])] + body[1:]


# ============================================================================ card phrases
def filter_np(filt: tuple, cx: Cx, mods: tuple = (), tail: str = "", each: bool = False) -> NP:
    """The cards a filter matches, as a noun phrase ("будь-якого іншого синього", "kartę spoza Złotych")."""
    L = cx.L
    heads: list = [L.card]
    conj = L.OR
    tails: list[str] = []
    pre: list = []
    for kind, arg in filt:
        if kind == "color":
            heads = [L.colour(c) for c in arg]
        elif kind == "not_color":
            tails.append(L.f("not_color", what=L.colours_np(arg, L.AND)))
        elif kind == "name":
            heads = [L.name(c) for c in arg]
        elif kind == "other":
            pre = [L.adj["any"], L.adj["other"]]
        elif kind == "parity":
            tails.append(L.t("even" if arg == 0 else "odd"))
    if each:
        pre = [L.adj["each"]] + pre[1:]
    if tail:
        tails.append(tail)
    return NP(heads, pre + list(mods), " ".join(tails), conj, L.code)


def scope_tail(scope: str, cx: Cx) -> str:
    if scope == "this":
        return here(cx, "from")
    return cx.L.t("scope_" + scope)


def here(cx: Cx, kind: str) -> str:
    """ "this location" in a form ("from", "in", "of"), or the named location standing for it."""
    if cx.here >= 0:
        return cx.L.loc(cx.here, kind)
    return cx.L.t("here_" + kind)


def scoped_np(filt: tuple, scope: str, cx: Cx, mods: tuple = ()) -> NP:
    L = cx.L
    if scope in ("other_top", "any_top"):
        if not filt:
            return NP([L.card], [L.adj["top"]] + list(mods), L.t("of_" + scope), L.OR, L.code)
        return filter_np(filt, cx, mods, L.t("on_" + scope))
    return filter_np(filt, cx, mods, scope_tail(scope, cx))


# ============================================================================ structure
@text("seq")
def _seq(node, cx, mood):
    out: list[str] = []
    for i, n in enumerate(node[1:]):
        out += R(n, cx, mood if i == 0 else "imp")
    return out


@text("if")
def _if(node, cx, mood):
    L = cx.L
    c = C(node[1], cx)
    out = [L.f("if", cond=c, body=L.then_join(R(node[2], cx)))]
    if len(node) > 3 and node[3] is not None:
        out.append(L.f("otherwise", body=L.then_join(R(node[3], cx))))
    return out


@text("unless")
def _unless(node, cx, mood):
    L = cx.L
    body = R(node[2], cx, mood)
    c = C(node[1], cx.but(self_pron=node[2] == ("banish_self",)))
    body[-1] = L.f("unless", body=body[-1], cond=c)
    return body


@text("may")
def _may(node, cx, mood):
    out = may(cx.L, cx, R(node[1], cx, "inf"))
    if len(node) > 3 and node[3] is not None:
        out += if_you_do_node(cx, node[3])
    return out


# ============================================================================ tokens
def _count(name: str, what: str) -> None:
    def fn(node, cx, mood):
        L = cx.L
        n = node[1] if len(node) > 1 else 1
        return L.fs(name, mood, n=L.count(n, getattr(L, what)))

    RENDER[name] = fn


for _name, _what in (
    ("helium", "helium"),
    ("lose_helium", "helium"),
    ("advance", "step"),
    ("regress", "step"),
    ("influence", "influence"),
    ("lose_influence", "influence"),
    ("others_advance", "step"),
    ("lowcaste_q_loses_helium", "helium"),
):
    _count(_name, _what)

for _name in (
    "sovereign",
    "end_turn",
    "banish_self",
    "regain_self",
    "gold_move_under_all",
    "gold_opp_banish",
    "highcaste_steal_helium_most",
    "lowcaste_to_bottom",
    "lowcaste_give_self_right",
):
    fixed(_name)

RENDER["points"] = lambda node, cx, mood: cx.L.fs("points", mood, c=cx.c)
passthrough("attempt", 2)
for _name in (
    "note_under",
    "gold_note_c",
    "highcaste_bind_value",
    "lowcaste_note_origin",
    "highcaste_trade",
    "highcaste_trade_once",
    "lowcaste_against_q",
):
    passthrough(_name, 1)


# ============================================================================ binding a card
def _bind(np, then, cx, mood):
    return R(then, cx.but(c=cx.ref(np)), mood)


@text("under")
def _under(node, cx, mood):
    L = cx.L
    return _bind(NP([L.card], [], L.t("under_this"), L.OR, L.code), node[1], cx, mood)


@text("bottom")
def _bottom(node, cx, mood):
    L = cx.L
    return _bind(
        NP([L.card], [L.adj["bottom"]], L.f("bottom_tail", loc=here(cx, "of")), L.OR, L.code), node[1], cx, mood
    )


@text("gold_bottom_of")
def _gold_bottom_of(node, cx, mood):
    L = cx.L
    return _bind(
        NP([L.card], [L.adj["bottom"]], L.f("bottom_on_tail", loc=L.loc(node[1], "in")), L.OR, L.code),
        node[2],
        cx,
        mood,
    )


def _reveal_then(key: str, idx: int, revealed: bool = True):
    """A card just revealed (or drawn), bound as "it"; named again as "the revealed card"."""

    def fn(node, cx, mood):
        again = cx.L.revealed_card if revealed else None
        return cx.L.fs(key, mood) + R(node[idx], cx.but(c=cx.ref(used=True, gender="f", again=again)))

    return fn


RENDER["top_of_deck"] = _reveal_then("top_of_deck", 1)
RENDER["gold_draw"] = _reveal_then("draw1", 1, revealed=False)
RENDER["highcaste_deck_bottom"] = _reveal_then("deck_bottom", 1)
RENDER["lowcaste_q_reveals_random"] = _reveal_then("q_reveals_random", 1)


def _choose(node, cx, mood):
    _, scope, filt, then, optional = node[:5]
    L = cx.L
    np = scoped_np(filt, scope, cx)
    body = _bind(np, then, cx, "inf" if optional else mood)
    if optional:
        return may(L, cx, body[:1]) + if_you_do(L, body[1:])
    return body


RENDER["choose_card"] = _choose
RENDER["highcaste_choose_card"] = _choose


def _on_c(key: str):
    RENDER[key] = lambda node, cx, mood: cx.L.fs(key, mood, c=cx.c)


for _name in (
    "gain_c",
    "banish_c",
    "highcaste_to_deck",
    "lowcaste_deploy_c",
    "lowcaste_move_c_onto_src",
    "lowcaste_origin_bonus",
):
    _on_c(_name)
RENDER["highcaste_gain_c"] = lambda node, cx, mood: cx.L.fs("gain_c", mood, c=cx.c)


@text("move_c")
def _move_c(node, cx, mood):
    L = cx.L
    return L.fs("move_c_" + node[1], mood, c=cx.c, pron=L.P["pron_n"][cx.c.gender])


@text("deploy_c")
def _deploy_c(node, cx, mood):
    L = cx.L
    if len(node) > 1 and node[1] >= 0:
        return L.fs("deploy_c_to", mood, c=cx.c, to=L.loc(node[1], "to"))
    return L.fs("deploy_c", mood, c=cx.c)


# ============================================================================ players
@text("choose_opponent")
def _choose_opponent(node, cx, mood):
    return cx.L.fs("choose_opponent", mood) + R(node[1], cx)


@text("choose_color")
def _choose_color(node, cx, mood):
    L = cx.L
    if node[1]:
        first = L.fs("choose_color_except", mood, what=L.colours_np(node[1]))
    else:
        first = L.fs("choose_color", mood)
    return first + R(node[2], cx)


@text("draw_to_hand")
def _draw_to_hand(node, cx, mood):
    L = cx.L
    n = node[1] if len(node) > 1 else 1
    if n == 1:
        return L.fs("draw1", mood)
    return L.fs("draw_n", mood, n=L.count(n, NP([L.card], [L.adj["top"]], "", L.OR, L.code)))


# ============================================================================ conditions
def _colours(cols, cx, conj=None):
    return cx.L.colours_np(cols, conj)


cond("deployed_on")(
    lambda c, cx: cx.L.f(
        "deployed_on_pron" if cx.self_pron else "deployed_on", where=cx.L.join([cx.L.loc(loc, "to") for loc in c[1]])
    )
)
cond("has_sovereign")(lambda c, cx: cx.L.t("has_sovereign"))
cond("c_color")(lambda c, cx: cx.L.f("c_color", what=_colours(c[1], cx)))
cond("c_not_color")(lambda c, cx: cx.L.f("c_not_color", what=_colours(c[1], cx, cx.L.P["nor"])))
cond("c_name")(lambda c, cx: cx.L.f("c_name", what=cx.L.names(c[1])))
cond("src_on_color")(
    lambda c, cx: cx.L.f("src_on_color_pron" if cx.self_pron else "src_on_color", what=_colours(c[1], cx))
)
cond("not")(lambda c, cx: cx.L.f("not", cond=C(c[1], cx)))


def _fem(cols, cx, case):
    L = cx.L
    return L.join([L.colour(c).fem(case) for c in cols])


cond("gold_c_color")(lambda c, cx: cx.L.f("gold_c_color", c=cx.c, what=_fem(c[1], cx, cx.L.P["pred_case"])))
cond("gold_c_not_color")(lambda c, cx: cx.L.f("gold_c_not_color", c=cx.c, what=_fem(c[1], cx, cx.L.P["pred_case"])))
cond("gold_count_at_least")(lambda c, cx: cx.L.f("count_at_least", n=c[1], what=filter_np(c[2], cx)))
for _name in (
    "gold_picked_named",
    "gold_can_target",
    "gold_target_has_cards",
    "highcaste_can_trade",
    "highcaste_can_place_influence",
    "highcaste_deck_nonempty",
    "highcaste_can_swap",
    "highcaste_fewest_cards",
    "highcaste_c_named",
    "lowcaste_src_alone",
):
    COND[_name] = (lambda key: lambda c, cx: cx.L.t(key))(_name)
cond("highcaste_all")(lambda c, cx: cx.L.join([C(x, cx) for x in c[1:]], cx.L.AND))


@cond("highcaste_at_least")
def _at_least(c, cx):
    L = cx.L
    if c[1] == "fleet":
        return L.f("at_least_fleet", n=c[2])
    return L.f("at_least_" + c[1], n=L.count(c[2], getattr(L, c[1])))


cond("highcaste_hand_has")(lambda c, cx: cx.L.f("hand_has", what=cx.L.count(c[2], filter_np(c[1], cx))))
cond("highcaste_banished_has")(lambda c, cx: cx.L.f("banished_has", what=filter_np(c[1], cx, (cx.L.adj["banished"],))))
cond("highcaste_any_card")(lambda c, cx: cx.L.f("any_card", what=scoped_np(c[2], c[1], cx)))
cond("lowcaste_more_than_right")(lambda c, cx: cx.L.t("more_than_right_" + c[1]))


# ============================================================================ the Golds' primitives
@text("gold_gain_banished")
def _gold_gain_banished(node, cx, mood):
    L = cx.L
    np = filter_np(node[1], cx, (L.adj["banished"],))
    return L.fs("gain_banished", mood, what=L.count(1, np)) + R(node[2], cx.but(c=cx.ref(np, used=True)))


@text("gold_banish_all")
def _gold_banish_all(node, cx, mood):
    L = cx.L
    _, scope, filt, then = node
    out = L.fs("banish_all", mood, what=filter_np(filt, cx, (L.adj["all"],)), where=scope_tail(scope, cx))
    return out + (R(then, cx) if then is not None else [])


@text("gold_helium_per")
def _gold_helium_per(node, cx, mood):
    L = cx.L
    where = here(cx, "in") if node[1] == "this" else L.t("everywhere")
    return L.fs("helium_per", mood, one=L.count(1, L.helium), what=filter_np(node[2], cx, each=True), where=where)


@text("gold_steal")
def _gold_steal(node, cx, mood):
    out = cx.L.fs("steal", mood)
    if len(node) > 1 and node[1] is not None:
        out += if_you_do(cx.L, R(node[1], cx))
    return out


def _lead_in(key: str):
    def fn(node, cx, mood):
        t = R(node[1], cx)
        return cx.L.fs(key, mood, rest=t[0]) + t[1:]

    return fn


RENDER["gold_look_hand"] = _lead_in("look_hand")
RENDER["gold_name_card"] = _lead_in("name_card")


@text("gold_random_pick")
def _gold_random_pick(node, cx, mood):
    t = R(node[1], cx.but(c=cx.ref(used=True, gender="f")))
    return [cx.L.f("random_pick")] + t


@text("gold_reveal_instead")
def _gold_reveal_instead(node, cx, mood):
    L = cx.L
    _, cards, instead, default = node
    d = R(default, cx, mood)
    i = R(instead, cx, "inf")
    return d + [L.f("reveal_instead", who=L.names(cards), body=i[0])] + i[1:]


@text("gold_and")
def _gold_and(node, cx, mood):
    L = cx.L
    parts = [clause(n, cx, mood) for n in node[1:]]
    return [L.join(parts, L.AND)]


# ============================================================================ the high castes' primitives
RENDER["highcaste_at"] = lambda node, cx, mood: R(node[2], cx.but(here=node[1]), mood)


@text("highcaste_as_q")
def _as_q(node, cx, mood):
    child = node[1]
    if child[0] == "may":
        return R(child, cx.but(subject="opp"), mood)
    return [cx.L.f("as_q", body=clause(child, cx.but(subject="opp")))]


@text("highcaste_each_player")
def _each_player(node, cx, mood):
    return [cx.L.f("each_player", body=clause(node[1], cx.but(subject="each")))]


def _options(opts, cx, mood) -> list[str]:
    return [clause(e, cx, mood) for _, e in opts]


@text("highcaste_choose_one")
def _choose_one(node, cx, mood):
    L = cx.L
    parts = _options(node[1:], cx, mood)
    if len(parts) == 2:
        return [L.f("either", a=parts[0], b=parts[1])]
    return [L.join(parts)]


@text("highcaste_split")
def _split(node, cx, mood):
    L = cx.L
    parts = _options(node[1:], cx, "inf")
    return L.fs("split", mood, opts=L.join(parts), rest=L.t("split_both" if len(parts) == 3 else "split_all"))


@text("highcaste_pay")
def _pay(node, cx, mood):
    L = cx.L
    body = R(node[2], cx, "inf")
    return L.fs("pay", mood, n=L.count(node[1], L.helium), body=body[0]) + body[1:]


@text("highcaste_count_gain")
def _count_gain(node, cx, mood):
    L = cx.L
    _, where, colors, gain = node
    if colors == "bound":
        what = L.t("each_card_of_that_colour")
    else:
        what = format(L.colours_np(colors, mods=(L.adj["each"],)), "a")
    at = here(cx, "in") if where == "here" else L.loc(where, "in")
    return L.fs(
        "count_gain_" + gain, mood, what=what, at=at, one=L.count(1, L.helium if gain == "helium" else L.influence)
    )


@text("highcaste_reveal_under")
def _reveal_under(node, cx, mood):
    L = cx.L
    return L.fs("reveal_under", mood, n=L.count(node[1], NP([L.card], [L.adj["top"]], "", L.OR, L.code)))


@text("highcaste_place_c")
def _place_c(node, cx, mood):
    L = cx.L
    out = L.fs("place_c_" + node[1], mood, c=cx.c)
    if len(node) > 2 and node[2] is not None:
        out += R(node[2], cx)
    return out


@text("highcaste_facedown_others")
def _facedown_others(node, cx, mood):
    L = cx.L
    return L.fs("facedown_others", mood, n=L.count(node[1], NP([L.card], [L.adj["top"]], "", L.OR, L.code)))


@text("highcaste_name_colors")
def _name_colors(node, cx, mood):
    L = cx.L
    _, n, excluded, then = node
    if n == 1 and excluded:
        what = L.f("one_colour_except", what=L.colours_np(excluded))
    else:
        what = format(L.count(n, L.colour_word), "a")
    t = R(then, cx)
    return L.fs("name_colors", mood, what=what, rest=t[0]) + t[1:]


RENDER["highcaste_reveal_gain_colors"] = lambda node, cx, mood: cx.L.fs(
    "reveal_gain_colors", mood, n=cx.L.count(node[1], cx.L.card)
)


@text("highcaste_choose_banished")
def _choose_banished(node, cx, mood):
    L = cx.L
    _, filt, then, optional, times = node
    banished = L.adj["banished"]
    if times is not None and times > 1:
        body = R(then, cx.but(c=cx.ref(Fixed(L.t("each_of_them"), gender="f", anim=False))))
        return L.fs("choose_up_to", mood, n=L.count(times, filter_np(filt, cx, (banished,))), body=L.then_join(body))
    np: Word
    if times is None:
        eith = [a for k, a in filt if k == "either"]
        if eith:
            items = []
            for alt in eith[0]:
                names = [a for k, a in alt if k == "name"]
                if names:
                    items += [format(L.name(c), "n") for c in names[0]]
                else:
                    items.append(
                        format(
                            NP(
                                [L.colour(c) for c in [a for k, a in alt if k == "color"][0]],
                                [L.adj["any"]],
                                "",
                                L.OR,
                                L.code,
                            ),
                            "n",
                        )
                    )
            np = Fixed(L.f("these_banished", items=L.join(items)), gender="f", anim=False)
        else:
            np = Fixed(L.f("any_number_banished", what=filter_np(filt, cx, (banished,))), gender="f", anim=False)
    elif optional:
        np = filter_np(filt, cx, (banished,))
    else:
        np = filter_np(filt, cx, tuple(L.adj.get(k, k) for k in L.P["any_one_banished"]))
    body = R(then, cx.but(c=cx.ref(np)), "inf" if optional else mood)
    return may(L, cx, body) if optional else body


@text("highcaste_random_banished")
def _random_banished(node, cx, mood):
    L = cx.L
    return _bind(NP([L.card], [L.adj["random"], L.adj["banished"]], "", L.OR, L.code), node[1], cx, mood)


@text("highcaste_choose_hand")
def _choose_hand(node, cx, mood):
    L = cx.L
    _, filt, then, optional = node
    body = _bind(filter_np(filt, cx, tail=hand(cx)), then, cx, "inf" if optional else mood)
    return may(L, cx, body) if optional else body


RENDER["highcaste_swap"] = lambda node, cx, mood: cx.L.fs(
    "swap_other" if any(k == "other" for k, _ in node[1]) else "swap", mood, hand=hand(cx)
)
RENDER["highcaste_reveal_hand"] = lambda node, cx, mood: cx.L.fs(
    "reveal_hand", mood, what=cx.L.count(node[2], cx.L.colours_np(node[1])), hand=hand(cx)
)
RENDER["highcaste_loan_shark"] = lambda node, cx, mood: cx.L.fs(
    "loan_shark", mood, two=cx.L.count(2, cx.L.helium), one=cx.L.count(1, cx.L.helium)
)


# ============================================================================ the low castes' primitives
@text("lowcaste_each")
def _lc_each(node, cx, mood):
    t = R(node[2], cx)
    return [cx.L.f("each_" + node[1], body=t[0])] + t[1:]


@text("lowcaste_q_reveals")
def _q_reveals(node, cx, mood):
    L = cx.L
    t = R(node[2], cx)
    return [L.f("q_reveals", what=L.colours_np(node[1])), L.f("if_they_cant", body=L.then_join(t))]


@text("lowcaste_choose_opponent_with")
def _choose_opponent_with(node, cx, mood):
    return cx.L.fs("choose_opponent_with", mood, res=cx.L.t("res_" + node[1])) + R(node[2], cx)


@text("lowcaste_reveal_hand")
def _lc_reveal_hand(node, cx, mood):
    L = cx.L
    _, colors, at_least, then = node
    t = R(then, cx, "inf")
    return [L.f("reveal_to", n=at_least, what=L.colours_np(colors, mods=(L.adj["other"],)), body=t[0])] + t[1:]


@text("lowcaste_may_banish_from_hand")
def _may_banish_from_hand(node, cx, mood):
    L = cx.L
    banish = L.fs("banish_from_hand", "inf", what=L.colours_np(node[1]), hand=hand(cx))
    return may(L, cx, banish) + if_you_do(L, R(node[2], cx))


RENDER["lowcaste_dig"] = lambda node, cx, mood: cx.L.fs("dig", mood, what=cx.L.colours_np(node[1]))


@text("lowcaste_banish_here")
def _banish_here(node, cx, mood):
    L = cx.L
    _, colors, each, most = node
    t = R(each, cx)
    return L.fs("banish_here", mood) + [
        L.f("for_each_banished", what=L.colours_np(colors), body=L.then_join(t), most=most)
    ]


@text("lowcaste_move_card")
def _move_card(node, cx, mood):
    L = cx.L
    _, scope, filt, dest, then = node
    np = filter_np(filt, cx, tail=scope_tail(scope, cx))
    out = L.fs("move_card", mood, what=np, dest=L.f("dest_" + dest, pron=L.P["pron_n"][np.gender]))
    if then is not None:
        out += R(then, cx.but(c=cx.ref(np, used=True)))
    return out


@text("lowcaste_move_c")
def _lc_move_c(node, cx, mood):
    L = cx.L
    out = L.fs("move_c_to", mood, c=cx.c, dest=L.f("dest_" + node[1], pron=L.P["pron_n"][cx.c.gender]))
    if node[2] is not None:
        out += R(node[2], cx)
    return out


@text("lowcaste_choose_topmost")
def _choose_topmost(node, cx, mood):
    L = cx.L
    _, scope, filt, then = node
    tail = L.t("scope_other_any" if scope == "other" else "scope_any")
    return _bind(filter_np(filt, cx, (L.adj["topmost"],), tail), then, cx, mood)
