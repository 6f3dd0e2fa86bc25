"""The eight Gods (Summer Muster Groups; invoked once, in Ragnarok), as data.

A God is one entry: its index, its slug (the action strings ``invoke:<slug>`` and
``pass:<slug>``, and the kind of the events and follow-up decision its power logs), its
names in en/uk/pl, and its power as an effect of :mod:`.effects` built with its numbers.
The engine runs that effect (:mod:`.turns`) and the rules text is rendered from it, so the
text cannot drift from what the God does.

The Red North rulebook has no Ukrainian or Polish edition: the names are the gods' usual
names in each language, the texts careful translations in the web UI's Red North terms.
"""

from __future__ import annotations

from dataclasses import dataclass

from .effects import (
    DrawFaceDown,
    DrawToHand,
    Effect,
    GainVP,
    PlaceFromDiscard,
    PlaceGlory,
    RetrieveGlory,
    RetrieveSetAsideHero,
    RevealOneEach,
)

THOR, LOKI, ODIN, FREYA, NORNIR, TYR, SAGA, HEL = range(8)

LOKI_GLORY = 2
ODIN_VP = 2
FREYA_DRAW = 1
TYR_DRAW = 4


@dataclass(slots=True, frozen=True)
class God:
    index: int
    slug: str
    names: tuple[str, str, str]  # en, uk, pl
    effect: Effect

    @property
    def name(self) -> str:
        return self.names[0]

    @property
    def text(self) -> str:
        """The power as printed (English), rendered from the effect."""
        return self.effect.text("en")


GODS: tuple[God, ...] = (
    God(THOR, "thor", ("Thor", "Тор", "Thor"), RetrieveSetAsideHero()),
    God(LOKI, "loki", ("Loki", "Локі", "Loki"), PlaceGlory(LOKI_GLORY)),
    God(ODIN, "odin", ("Odin", "Одін", "Odyn"), GainVP(ODIN_VP)),
    God(FREYA, "freya", ("Freya", "Фрейя", "Freja"), DrawFaceDown(FREYA_DRAW)),
    God(NORNIR, "nornir", ("Nornir", "Норни", "Norny"), RetrieveGlory()),
    God(TYR, "tyr", ("Tyr", "Тюр", "Tyr"), DrawToHand(TYR_DRAW)),
    God(SAGA, "saga", ("Saga", "Сага", "Saga"), RevealOneEach()),
    God(HEL, "hel", ("Hel", "Хель", "Hel"), PlaceFromDiscard()),
)
NGODS = len(GODS)
GOD_OF_SLUG = {g.slug: g.index for g in GODS}
_LANG_INDEX = {"en": 0, "uk": 1, "pl": 2}
#: Each God's name in the accusative, in GODS' order, for a sentence whose verb takes it
#: ("P1 закликає Тора", "P1 przywołuje Lokiego"); English names do not decline.
ACCUSATIVE: dict[str, tuple[str, ...]] = {
    "uk": ("Тора", "Локі", "Одіна", "Фрейю", "Норн", "Тюра", "Сагу", "Хель"),
    "pl": ("Thora", "Lokiego", "Odyna", "Freję", "Norny", "Tyra", "Sagę", "Hel"),
}

assert all(g.index == i for i, g in enumerate(GODS)), "GODS must be in index order"
assert all(len(forms) == len(GODS) for forms in ACCUSATIVE.values()), "an accusative per God"


def _god_index(god: int | str) -> int:
    return god if isinstance(god, int) else GOD_OF_SLUG[god]


def _lang(lang: str) -> int:
    if lang not in _LANG_INDEX:
        raise ValueError(f"unknown language {lang!r}; choose one of: en, uk, pl")
    return _LANG_INDEX[lang]


def god_name(god: int | str, lang: str = "en", case: str = "n") -> str:
    """A God's name in "en", "uk" or "pl" (the God is its index or slug), in the nominative
    (``case`` "n") or the accusative ("a")."""
    if case not in ("n", "a"):
        raise ValueError(f"unknown case {case!r}; choose n (nominative) or a (accusative)")
    i = _god_index(god)
    if case == "a" and lang in ACCUSATIVE:
        return ACCUSATIVE[lang][i]
    return GODS[i].names[_lang(lang)]


def god_text(god: int | str, lang: str = "en") -> str:
    """A God's power in "en", "uk" or "pl", its number in the form the number asks for."""
    return GODS[_god_index(god)].effect.text(lang)
