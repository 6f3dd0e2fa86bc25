"""Just enough Ukrainian and Polish morphology to render card texts that agree.

Words are inflected by case (``n`` nominative, ``g`` genitive, ``d`` dative, ``a``
accusative, ``i`` instrumental, ``l`` locative) and number (``s``/``p``). A noun phrase
(:class:`NP`) agrees its modifiers with its head; numbers take the form their value asks
for (:func:`plural_form`: one / few / many, the CLDR rules of both languages) through
:class:`Count`. Every phrase object formats itself with a case spec, so a phrase table
template reads ``"візьміть {c:a}"`` (the bound card, accusative).
"""

from __future__ import annotations

from dataclasses import dataclass, field

CASES = ("n", "g", "d", "a", "i", "l")


def plural_form(n: int, lang: str) -> int:
    """0 (one), 1 (few) or 2 (many) for ``n`` (CLDR rules for uk and pl; English 0/2): the
    terminal's catalogs and the card texts count with the same rule."""
    from ...i18n import plural_form as rule

    return rule(n, lang)


def _spec(spec: str) -> tuple[str, str]:
    """A format spec such as ``"a"``, ``"gp"`` -> (case, number)."""
    spec = spec or "n"
    case = spec[0] if spec[0] in CASES else "n"
    num = "p" if spec.endswith("p") else "s"
    return case, num


class Word:
    """Something that inflects: ``form(case, num, gender, anim)``."""

    gender = "m"
    anim = False
    plural_only = False

    def form(self, case: str, num: str = "s", gender: str | None = None, anim: bool | None = None) -> str:
        raise NotImplementedError

    def __format__(self, spec: str) -> str:
        case, num = _spec(spec)
        return self.form(case, num)


@dataclass(frozen=True)
class Noun(Word):
    """A noun with its 12 forms: ``sg`` and ``pl`` as "n|g|d|a|i|l"."""

    sg: str
    pl: str = ""
    gender: str = "f"
    anim: bool = False
    plural_only: bool = False

    def form(self, case, num="s", gender=None, anim=None):
        forms = (self.pl if (num == "p" or self.plural_only) and self.pl else self.sg).split("|")
        if len(forms) == 1:
            return forms[0]
        return forms[CASES.index(case)]


@dataclass(frozen=True)
class Fixed(Word):
    """An indeclinable word or phrase (a name that does not decline, a fixed tail)."""

    text: str
    gender: str = "m"
    anim: bool = True

    def form(self, case, num="s", gender=None, anim=None):
        return self.text


# ----------------------------------------------------------------------------- adjectives
_UK_HARD = {
    "m": ("ий", "ого", "ому", None, "им", "ому"),
    "f": ("а", "ої", "ій", "у", "ою", "ій"),
    "n": ("е", "ого", "ому", "е", "им", "ому"),
    "p": ("і", "их", "им", None, "ими", "их"),
}
_UK_SOFT = {
    "m": ("ій", "ього", "ьому", None, "ім", "ьому"),
    "f": ("я", "ьої", "ій", "ю", "ьою", "ій"),
    "n": ("є", "ього", "ьому", "є", "ім", "ьому"),
    "p": ("і", "іх", "ім", None, "іми", "іх"),
}
_PL_Y = {
    "m": ("y", "ego", "emu", None, "ym", "ym"),
    "f": ("a", "ej", "ej", "ą", "ą", "ej"),
    "n": ("e", "ego", "emu", "e", "ym", "ym"),
    "p": ("e", "ych", "ym", None, "ymi", "ych"),
}
_PL_KI = {
    "m": ("i", "iego", "iemu", None, "im", "im"),
    "f": ("a", "iej", "iej", "ą", "ą", "iej"),
    "n": ("ie", "iego", "iemu", "ie", "im", "im"),
    "p": ("ie", "ich", "im", None, "imi", "ich"),
}
_PL_SOFT = dict(_PL_KI, f=("ia", "iej", "iej", "ią", "ią", "iej"))


@dataclass(frozen=True)
class Adj(Word):
    """An adjective (or a pronoun declined like one) of Ukrainian or Polish.

    ``kind``: "uk" (hard, -ий), "uk_soft" (-ій), "pl" (hard, -y), "pl_ki" (k/g stems, -i),
    "pl_soft" (-ni). ``virile``: the Polish masculine-personal nominative plural.
    """

    stem: str
    kind: str
    virile: str = ""

    def form(self, case, num="s", gender="m", anim=True):
        gender = gender or "m"
        anim = True if anim is None else anim
        table = {"uk": _UK_HARD, "uk_soft": _UK_SOFT, "pl": _PL_Y, "pl_ki": _PL_KI, "pl_soft": _PL_SOFT}[self.kind]
        key = "p" if num == "p" else gender
        i = CASES.index(case)
        end = table[key][i]
        if end is None:  # accusative of m. / pl.: animate = genitive, inanimate = nominative
            end = table[key][1] if anim else table[key][0]
        if self.kind.startswith("pl") and key == "p" and anim and gender == "m" and case == "n":
            return self.virile or self.stem + end
        return self.stem + end


@dataclass(frozen=True)
class Subst(Word):
    """An adjective used as a masculine animate noun: a caste ("золотий", "Złoty")."""

    adj: Adj
    gender: str = "m"
    anim: bool = True

    def form(self, case, num="s", gender=None, anim=None):
        return self.adj.form(case, num, "m", True)

    def fem(self, case: str = "n") -> str:
        """The adjective agreeing with a feminine noun (a card): "золота", "Złota"."""
        return self.adj.form(case, "s", "f", False)


# ----------------------------------------------------------------------------- phrases
def join(items: list[str], conj: str, lang: str) -> str:
    """ "a, b or c" in the language (no serial comma)."""
    items = [x for x in items if x]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    last = conj
    if lang == "uk" and conj in ("і", "й"):
        last = uk_and(items[-2], items[-1])
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


_UK_VOWELS = set("аеєиіїоуюяАЕЄИІЇОУЮЯ")


def uk_and(before: str, after: str) -> str:
    """Ukrainian "і" or "й" between two words (й after a vowel, before a consonant)."""
    if before and after and before[-1] in _UK_VOWELS and after[0] not in _UK_VOWELS:
        return "й"
    return "і"


@dataclass
class NP(Word):
    """A noun phrase: modifiers agreeing with the head(s), heads joined by ``conj``, a fixed tail.

    ``heads`` are alternatives ("золотого або сірого"); modifiers agree with the first.
    """

    heads: list
    mods: list = field(default_factory=list)
    tail: str = ""
    conj: str = ""
    lang: str = "uk"

    @property
    def gender(self) -> str:  # type: ignore[override]
        return self.heads[0].gender

    @property
    def anim(self) -> bool:  # type: ignore[override]
        return self.heads[0].anim

    def form(self, case, num="s", gender=None, anim=None):
        h0 = self.heads[0]
        if getattr(h0, "plural_only", False):
            num = "p"
        mods = [m.form(case, num, h0.gender, h0.anim) if isinstance(m, Word) else m for m in self.mods]
        heads = [h.form(case, num) for h in self.heads]
        words = mods + [join(heads, self.conj, self.lang)]
        text = " ".join(w for w in words if w)
        return text + (" " + self.tail if self.tail else "")


@dataclass
class Count(Word):
    """``n`` things: the number and the phrase in the form the number asks for.

    Nominative/accusative: one -> singular; few -> plural nominative (a masculine
    animate noun: plural genitive, as in "2 золотих", "2 Złotych"); many -> plural
    genitive. Other cases: the same case, singular for one, plural otherwise.
    """

    n: int
    what: Word
    lang: str = "uk"

    def form(self, case, num="s", gender=None, anim=None):
        pf = plural_form(self.n, self.lang)
        w = self.what
        if pf == 0:
            text = w.form(case, "s")
        elif case in ("n", "a"):
            if pf == 1 and not (w.anim and w.gender == "m"):
                text = w.form("n", "p")
            else:
                text = w.form("g", "p")
        else:
            text = w.form(case, "p")
        return f"{self.n} {text}"


# ----------------------------------------------------------------------------- euphony
_UK_CONS = set("бвгґджзйклмнпрстфхцчшщБВГҐДЖЗЙКЛМНПРСТФХЦЧШЩ")


def _uk_z(word: str) -> str:
    w = word.lstrip("«(\"'")
    if not w:
        return "з"
    a = w[0].lower()
    b = w[1].lower() if len(w) > 1 else ""
    if a in "зсшщ" and b and b in {c.lower() for c in _UK_CONS}:
        return "зі"
    if a in "зсцшщ":
        return "із"
    return "з"


def _pl_z(word: str) -> str:
    w = word.lstrip("«„(\"'").lower()
    if w.startswith(("wsz", "mn")):
        return "ze"
    if w[:1] in ("s", "z", "ś", "ź", "ż"):
        rest = w[2:] if w[:2] in ("sz", "rz") else w[1:]
        if rest[:1] and rest[:1] not in "aąeęioóuy":
            return "ze"
    return "z"


_UK_PAUSE = ",.:;(—–"


def _uk_uv(prev: str, nxt: str) -> str:
    """Ukrainian "у" or "в" (в between vowels and after a vowel; у between consonants,
    after a pause before a consonant, and before в/ф)."""
    n0 = nxt.lstrip("«(\"'")[:1].lower()
    if n0 in ("в", "ф"):
        return "у"
    if not prev or prev[-1] in _UK_PAUSE:
        return "в" if n0 in _UK_VOWELS_L else "у"
    if prev[-1] in _UK_VOWELS:
        return "в"
    return "в" if n0 in _UK_VOWELS_L else "у"


def _uk_iy(prev: str, nxt: str) -> str:
    """Ukrainian "і" or "й" (й after a vowel, unless a pause comes first or й/я/ю/є/ї follows)."""
    n0 = nxt.lstrip("«(\"'")[:1].lower()
    if not prev or prev[-1] in _UK_PAUSE or n0 in "йяюєї":
        return "і"
    return "й" if prev[-1] in _UK_VOWELS else "і"


_UK_VOWELS_L = {c.lower() for c in _UK_VOWELS}


def euphony(text: str, lang: str) -> str:
    """The prepositions and conjunctions whose form the neighbouring words choose:
    "з/із/зі", "у/в", "і/й" (uk), "z/ze" (pl)."""
    words = text.split(" ")
    for i in range(len(words) - 1):
        w = words[i]
        prev = words[i - 1] if i > 0 else ""
        if lang == "uk":
            if w in ("з", "З"):
                new = _uk_z(words[i + 1])
                words[i] = new if w == "з" else new.capitalize()
            elif w in ("у", "в"):
                words[i] = _uk_uv(prev, words[i + 1])
            elif w in ("і", "й"):
                words[i] = _uk_iy(prev, words[i + 1])
        elif lang == "pl" and w in ("z", "Z"):
            new = _pl_z(words[i + 1])
            words[i] = new if w == "z" else new.capitalize()
    return " ".join(words)
