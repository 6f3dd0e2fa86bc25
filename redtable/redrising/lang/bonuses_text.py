"""End-game bonus clauses (``bonuses.py``) rendered in Ukrainian and Polish.

Each bonus primitive (selector, quantity, condition, clause) has a renderer here keyed by
its class, reading the same objects the scorer evaluates; words come from the phrase
tables (keys ``b_*``). The rulebooks' own examples are the model: "5 очок за кожного
зеленого, жовтого й синього", "14 очок, якщо зі срібним"; "5 punktów za każdego Zielonego,
Żółtego i Niebieskiego", "14 punktów, jeśli ze Srebrnym".
"""

from __future__ import annotations

from .. import bonuses as B
from .core import NP, Alt, Lang, Word
from .tables import lang as get_lang

# ============================================================================ selectors


class _Except(Word):
    def __init__(self, base: Word, who: Word, L: Lang) -> None:
        self.base, self.who, self.L = base, who, L
        self.gender, self.anim = base.gender, base.anim

    def form(self, case, num="s", gender=None, anim=None):
        return self.base.form(case, num) + self.L.f("b_except", who=self.who)


def sel_word(sel: B.Sel, me: int, L: Lang, conj: str, mods: tuple = ()) -> Word:
    """A selector as a phrase that declines: colours, names, their unions and exceptions."""
    if isinstance(sel, B.C):
        own = B.is_own_color(me, sel.mask())
        return L.colours_np(sel.colors, conj, tuple(mods) + ((L.adj["other"],) if own else ()))
    if isinstance(sel, B.N):
        return L.names(sel.names, conj)
    if isinstance(sel, B.Or):
        items: list[Word] = []
        for s in sel.parts():
            if isinstance(s, B.N):
                items += [L.name(n) for n in s.names]
            else:
                items.append(sel_word(s, me, L, conj, mods if not items else ()))
        return Alt(items, conj, L.code)
    if isinstance(sel, B.Except):
        return _Except(sel_word(sel.sel, me, L, conj, mods), L.names(sel.excluded.names), L)
    raise TypeError(f"no renderer for selector {type(sel).__name__}")


# ============================================================================ numbers
def _range(lo, hi, L: Lang) -> tuple[str, int, bool]:
    """(the range in words, the number the noun agrees with, whether the noun is genitive plural)."""
    if hi is None:
        return L.f("b_range_at_least", lo=lo), lo, False
    if not lo:
        return L.f("b_range_or_fewer", hi=hi), hi, True
    if lo == hi:
        return L.f("b_range_exactly", lo=lo), lo, False
    if hi == lo + 1:
        return L.f("b_range_or", lo=lo, hi=hi), hi, False
    return L.f("b_range", lo=lo, hi=hi), hi, False


def _noun_for(n: int, many: bool, what: Word, L: Lang) -> str:
    """The form of ``what`` after the number ``n`` (nominative), without the number."""
    return format(L.count(5 if many else n, what), "n").split(" ", 1)[1]


def _res_key(res) -> str:
    return {"_Fleet": "fleet", "_Helium": "helium", "_Influence": "influence"}[type(res).__name__]


# ============================================================================ quantities
def qty_each(q, me: int, L: Lang) -> str:
    t = type(q).__name__
    if t == "InHand":
        if q.sel.names_only():
            return L.f(
                "b_each_names",
                names=format(
                    L.names(
                        q.sel.names if isinstance(q.sel, B.N) else [n for s in q.sel.parts() for n in s.names], L.AND
                    ),
                    "n",
                ),
            )
        if q.including_self:
            return L.f("b_each_incl", what=sel_word(q.sel, -1, L, L.AND, (L.adj["each"],)), me=L.name(me))
        return L.f("b_each_sel", what=sel_word(q.sel, me, L, L.AND, (L.adj["each"],)))
    if t == "OnLocations":
        return L.f("b_each_on_locations", what=sel_word(q.sel, -1, L, L.AND, (L.adj["each"],)))
    if t == "Banished":
        if q.sel is None:
            return L.t("b_each_banished_card")
        return L.f("b_each_sel", what=sel_word(q.sel, -1, L, L.AND, (L.adj["each"], L.adj["banished"])))
    if t == "DistinctColors":
        return L.t("b_each_distinct")
    if t == "HandSize":
        return L.t("b_each_card")
    if t in ("_Helium", "_Influence"):
        return L.t("b_each_" + _res_key(q))
    raise TypeError(f"no 'for each' text for {t}")


def qty_amount(q, me: int, lo, hi, L: Lang) -> str:
    t = type(q).__name__
    rng, n, many = _range(lo, hi, L)
    if t == "_Fleet":
        return L.f("b_amount_fleet", range=rng)
    if t in ("_Helium", "_Influence"):
        return L.f("b_amount_" + _res_key(q), range=rng, noun=_noun_for(n, many, getattr(L, _res_key(q)), L))
    if t == "HandSize":
        return L.f("b_hand_range", range=rng, noun=_noun_for(n, many, L.card, L), me=L.name(me))
    if t == "Banished":
        if q.sel is None:
            what: Word = NP([L.card], [L.adj["banished"]], "", L.OR, L.code)
            return L.f("b_banished_range", range=rng, noun=_noun_for(n, many, what, L))
        what = sel_word(q.sel, -1, L, L.OR, (L.adj["banished"],))
        return L.f("b_banished_range_sel", range=rng, noun=_noun_for(n, many, what, L))
    if t == "InHand":
        return L.f("b_have_range", range=rng, noun=_noun_for(n, many, sel_word(q.sel, me, L, L.OR), L))
    raise TypeError(f"no amount text for {t}")


def qty_gain(q, me: int, L: Lang) -> str:
    t = type(q).__name__
    if t == "_Fleet":
        return L.t("b_gain_fleet")
    if t == "BestTopValue":
        return L.t("b_gain_top")
    raise TypeError(f"no 'gain' text for {t}")


# ============================================================================ conditions
def cond_text(c, me: int, L: Lang) -> str:
    t = type(c).__name__
    if t == "With":
        if c.n == 1:
            return L.f("b_with", what=sel_word(c.sel, me, L, L.OR))
        return L.f("b_with_n", n=c.n, what=sel_word(c.sel, me, L, L.OR))
    if t == "OnlyOne":
        return L.f("b_only_one", what=sel_word(c.sel, -1, L, L.OR))
    if t == "WithNo":
        if c.style == "without":
            return L.f("b_without", what=sel_word(c.sel, me, L, L.OR))
        return L.f("b_with_no", what=sel_word(c.sel, me, L, L.OR))
    if t == "WithBoth":
        return L.f("b_with_both", a=sel_word(c.a, me, L, L.OR), b=sel_word(c.b, me, L, L.OR))
    if t == "WithButNot":
        return L.f("b_with_but_not", a=sel_word(c.a, me, L, L.OR), b=sel_word(c.b, me, L, L.OR))
    if t == "WithOneNotBoth":
        return L.f("b_one_not_both", a=sel_word(c.a, me, L, L.OR), b=sel_word(c.b, me, L, L.OR))
    if t == "WithOnly":
        return L.f("b_with_only", what=L.join([format(L.colour(x), "ip") for x in c.colors], L.t("b_and_or")))
    if t == "AllCards":
        key = ("b_all_self_" if c.include_self else "b_all_other_") + c.test.kind
        return L.f(key, n=c.test.n)
    if t == "AllDifferent":
        return L.t("b_all_diff_" + c.key)
    if t in ("Have", "HaveNone"):
        case = "g" if t == "HaveNone" else "a"
        words = [L.t("b_sovereign_gen" if case == "g" else "b_sovereign")] if c.sovereign else []
        if isinstance(c.sel, B.N):
            words += [format(L.name(n), case) for n in c.sel.names]
        elif c.sel is not None:
            words.append(format(sel_word(c.sel, me, L, L.OR), case))
        if t == "Have":
            return L.f("b_have", what=L.join(words))
        if len(words) == 1:
            return L.f("b_have_none1", what=words[0])
        return L.f("b_have_none", what=L.t("b_have_none_join").join(words))
    if t == "Most":
        return L.t("b_most_" + _res_key(c.res))
    if t == "Least":
        return L.t("b_least_" + _res_key(c.res))
    if t == "OpponentMore":
        return L.t("b_more_" + _res_key(c.res))
    if t == "SameAsOpponent":
        return L.t("b_same_" + _res_key(c.res))
    if t == "InRange":
        return qty_amount(c.qty, me, c.lo, c.hi, L)
    if t == "EmptyOrFaceDownTop":
        return L.t("b_empty_or_facedown")
    if t in ("AllOf", "AnyOf"):
        parts = [cond_text(x, me, L) for x in c.conds]
        out = [parts[0]]
        for p in parts[1:]:
            for lead in L.P["b_leads"]:
                if p.startswith(lead) and parts[0].startswith(lead):
                    p = p[len(lead) :]
                    break
            out.append(p)
        return L.join(out, L.AND if t == "AllOf" else L.OR)
    if t == "Unless":
        return cond_text(c.cond, me, L)
    raise TypeError(f"no condition text for {t}")


def cond_clause(c, me: int, L: Lang) -> str:
    if type(c).__name__ == "Unless":
        inner = c.cond
        if type(inner).__name__ == "With" and inner.n == 1:
            return L.f("b_unless_with", what=sel_word(inner.sel, me, L, L.OR))
        return L.f("b_unless", cond=cond_text(inner, me, L))
    return L.f("b_if", cond=cond_text(c, me, L))


# ============================================================================ clauses
def clause_text(cl, me: int, L: Lang) -> str:
    t = type(cl).__name__
    if t == "Points":
        return L.f("b_points", pts=L.count(cl.n, L.point), cond=cond_clause(cl.cond, me, L))
    if t == "Each":
        cap = L.f("b_cap", n=L.count(cl.cap, L.point)) if cl.cap is not None else ""
        return L.f("b_each", pts=L.count(cl.n, L.point), each=qty_each(cl.qty, me, L), cap=cap)
    if t == "Gain":
        return qty_gain(cl.qty, me, L)
    if t == "IgnoreLosses":
        return L.f("b_ignore", what=sel_word(cl.sel, -1, L, L.OR))
    raise TypeError(f"no clause text for {t}")


def bonus_clauses_text(card: int, code: str) -> list[str]:
    L = get_lang(code)
    return [L.finish([clause_text(cl, card, L)]) for cl in B.BONUSES[card]]


def bonus_text(card: int, code: str) -> str:
    return " ".join(bonus_clauses_text(card, code))
