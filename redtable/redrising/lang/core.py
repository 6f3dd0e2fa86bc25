"""A language for the renderers: its phrase table, its words and its grammar helpers.

The phrase tables (:mod:`.uk`, :mod:`.pl`) hold templates such as ``"візьміть {c:a}"``;
a field's format spec is the case (``a`` accusative, ``gp`` genitive plural...) of the
phrase object passed in (:mod:`.grammar`). A template may be a pair (imperative,
infinitive): the infinitive is used after "you may" / "pay ... to" / "choose one:".
Several sentences in one template are separated by ``\\n``.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from ..cards import CARDS, SLUG
from . import names as _names
from .grammar import NP, Adj, Count, Fixed, Noun, Subst, Word, euphony, join

_FMT = string.Formatter()


class Name(Word):
    """A card's name in a language, declined from the name table."""

    def __init__(self, forms: tuple[str, ...], flags: str) -> None:
        self.forms = forms
        self.gender = "p" if "p" in flags else ("f" if "f" in flags else "m")
        self.anim = "x" not in flags
        self.plural_only = False

    def form(self, case, num="s", gender=None, anim=None):
        if len(self.forms) == 1:
            return self.forms[0]
        return self.forms["ngdail".index(case)]


@dataclass
class Lang:
    code: str
    P: dict
    card: Noun
    helium: Word
    influence: Word
    step: Word
    point: Word
    colour_word: Word
    colours: tuple[Subst, ...]
    adj: dict[str, Adj]
    locs: dict[str, tuple[str, str, str, str]]
    pron_acc: dict[str, str]
    that_card: Noun
    OR: str
    AND: str

    # ------------------------------------------------------------------ names
    def name(self, card: int) -> Name:
        return _name_word(self.code, card)

    def names(self, cards, conj: str | None = None) -> Alt:
        return Alt([self.name(c) for c in cards], conj or self.OR, self.code)

    def colour(self, c: int) -> Subst:
        return self.colours[c]

    def colours_np(self, cols, conj: str | None = None, mods=()) -> NP:
        return NP([self.colours[c] for c in cols], list(mods), "", conj or self.OR, self.code)

    def loc(self, index: int, kind: str) -> str:
        return self.locs[kind][index]

    # ------------------------------------------------------------------ phrases
    def t(self, key: str, mood: str = "imp") -> str:
        v = self.P[key]
        if isinstance(v, tuple):
            return v[1] if mood == "inf" else v[0]
        return v

    def f(self, key: str, mood: str = "imp", **kw: Any) -> str:
        return _FMT.vformat(self.t(key, mood), (), kw)

    def fs(self, key: str, mood: str = "imp", **kw: Any) -> list[str]:
        """A template that may hold several sentences, as a list of sentences."""
        return self.f(key, mood, **kw).split("\n")

    def join(self, items: list[str], conj: str | None = None) -> str:
        return join(items, conj or self.OR, self.code)

    def then_join(self, sents: list[str]) -> str:
        return self.P["then_join"].join(s for s in sents if s)

    def count(self, n: int, what: Word) -> Count:
        return Count(n, what, self.code)

    def finish(self, sents: list[str]) -> str:
        out = []
        for s in sents:
            s = s.strip()
            if not s:
                continue
            s = s[:1].upper() + s[1:]
            if s[-1] not in ".!?":
                s += "."
            out.append(s)
        text = euphony(" ".join(out), self.code)
        for pattern, repl in self.P.get("_rewrite", ()):
            text = pattern.sub(repl, text)
        return text


class Alt(Word):
    """Alternatives joined by a conjunction, each declined on its own ("Нерона або Джофо")."""

    def __init__(self, items: list, conj: str, lang: str) -> None:
        self.items, self.conj, self.lang = items, conj, lang
        self.gender = items[0].gender if items else "m"
        self.anim = items[0].anim if items else True

    def form(self, case, num="s", gender=None, anim=None):
        return join([w.form(case, num) for w in self.items], self.conj, self.lang)


class Ref(Word):
    """The bound card ("that card"): the full phrase at its first mention, then a pronoun
    (accusative) or "that card" (other cases)."""

    def __init__(self, L: Lang, np: Word | None = None, used: bool = False, gender: str | None = None) -> None:
        self.L = L
        self.np = np
        self.used = used or np is None
        self.gender = gender or (np.gender if np is not None else "f")
        self.anim = np.anim if np is not None else False

    def form(self, case, num="s", gender=None, anim=None):
        np = self.np
        if not self.used and np is not None:  # (unused means there is a noun phrase to say once)
            self.used = True
            return np.form(case, num)
        if case == "a":
            g = self.gender if self.gender in self.L.pron_acc else "m"
            return self.L.pron_acc[g]
        return self.L.that_card.form(case)


@dataclass
class Cx:
    """What the renderer knows while descending an effect."""

    L: Lang
    c: Ref | None = None
    here: int = -1  # a named location standing for "this location"
    subject: str = "you"  # "opp" under "that opponent ..."
    self_pron: bool = False  # "this card" was just mentioned: a condition says "it"
    extra: dict = field(default_factory=dict)

    def but(self, **kw) -> Cx:
        return replace(self, **kw)

    def ref(self, np: Word | None = None, used: bool = False, gender: str | None = None) -> Ref:
        return Ref(self.L, np, used, gender)


@cache
def _name_word(lang: str, card: int) -> Name:
    flags, forms = _names.parse(_names.TABLES[lang][SLUG[card]])
    return Name(forms, flags)


def card_name(card: int, lang: str) -> str:
    """A card's name (nominative) in ``lang``; English: the printed name."""
    if lang == "en":
        return CARDS[card].name
    return _name_word(lang, card).forms[0]


__all__ = ["Lang", "Cx", "Ref", "Alt", "Name", "NP", "Adj", "Count", "Fixed", "Noun", "Subst", "card_name"]
