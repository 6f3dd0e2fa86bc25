"""A language for the renderers: its phrase table, its words and its grammar helpers.

The phrase tables (:mod:`.uk`, :mod:`.pl`) hold templates such as ``"візьміть {c:a}"``;
a field's format spec is the case (``a`` accusative, ``gp`` genitive plural...) of the
phrase object passed in (:mod:`.grammar`). A template may be a pair (imperative,
infinitive): the infinitive is used after "you may" / "pay ... to" / "choose one:".
Several sentences in one template are separated by ``\\n``.
"""

from __future__ import annotations

import re
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
    #: The bound card named again where a pronoun could point at this card ("розкриту карту").
    revealed_card: Noun
    #: Any form of "this card" (the card whose text it is) as the phrase tables write it.
    this_card: re.Pattern[str]

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
    (accusative) or "that card" (other cases).

    A pronoun points at the last card the text named. Once a clause names this card after
    the bound one ("візьміть її, потім виженіть цю карту"), a pronoun for the bound card
    would read as this card, so its next mention is a noun phrase (``again``: "the revealed
    card", else "that card"); :meth:`saw` is told what each rendered clause said."""

    def __init__(
        self,
        L: Lang,
        np: Word | None = None,
        used: bool = False,
        gender: str | None = None,
        again: Word | None = None,
    ) -> None:
        self.L = L
        self.np = np
        self.used = used or np is None
        self.gender = gender or (np.gender if np is not None else "f")
        self.anim = np.anim if np is not None else False
        self.again = again or L.that_card
        self.shadowed = False  # this card was named after the bound card's last mention
        self.said: list[str] = []  # every mention, in order, to find them in the rendered text

    def form(self, case, num="s", gender=None, anim=None):
        self.said.append(self._form(case, num))
        return self.said[-1]

    def _form(self, case: str, num: str) -> str:
        np = self.np
        if not self.used and np is not None:  # (unused means there is a noun phrase to say once)
            self.used, self.shadowed = True, False
            return np.form(case, num)
        if self.shadowed:
            self.shadowed = False
            return self.again.form(case, num)
        if case == "a":
            return self._pronoun()
        return self.L.that_card.form(case)

    def _pronoun(self) -> str:
        return self.L.pron_acc[self.gender if self.gender in self.L.pron_acc else "m"]

    def saw(self, text: str) -> None:
        """Note a rendered clause: if it names this card after its last mention of the bound
        card (or names only this card), the bound card's next mention is a noun phrase. The
        bound card's own phrases are masked first: "нижню карту цієї зони (якщо це не ця
        карта)" names the bound card, not this one. A pronoun of another gender than "this
        card" («його» after «цю карту») cannot point at it and stays."""
        if not self.L.this_card.search(text) or self._pronoun() != self.L.pron_acc[self.L.card.gender]:
            return
        masked, last_ref = text, -1
        for said in set(self.said):
            for m in re.finditer(r"(?<!\w)" + re.escape(said) + r"(?!\w)", text):
                masked = masked[: m.start()] + "\x00" * len(said) + masked[m.end() :]
                last_ref = max(last_ref, m.end())
        last_this = max((m.end() for m in self.L.this_card.finditer(masked)), default=-1)
        if last_this > last_ref:
            self.shadowed = True


@dataclass
class Cx:
    """What the renderer knows while descending an effect."""

    L: Lang
    c: Ref | None = None
    here: int = -1  # a named location standing for "this location"
    subject: str = "you"  # "opp" under "that opponent ...", "each" under "each player: ..."
    #: One mood for every verb of a clause (``clause``): after "you may" all are infinitives.
    mood: str | None = None
    self_pron: bool = False  # "this card" was just mentioned: a condition says "it"
    extra: dict = field(default_factory=dict)

    def but(self, **kw) -> Cx:
        return replace(self, **kw)

    def ref(
        self, np: Word | None = None, used: bool = False, gender: str | None = None, again: Word | None = None
    ) -> Ref:
        return Ref(self.L, np, used, gender, again)


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
