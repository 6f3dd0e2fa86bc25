"""The five Outposts, as data: colour, names, and their powers as effects of :mod:`.effects`.

An Outpost's power acts at up to two moments, each an effect built with its numbers:
``resolution`` in the Resolution phase (step D, for the controller, not in Ragnarok unless
the effect says so) and ``after_deployment`` (a choice offered to the controller before the
First Player's first action). The engine runs them in colour order (:mod:`.turns`,
:mod:`.rounds`) and the rules text is rendered from them, so it cannot drift.

The rulebook says each Outpost adds its *printed* Raid Points to its controller's strength
in its colour but never prints the numbers. They are data: :data:`DEFAULT_OUTPOST_POINTS`
(1 for every Outpost: a small defender's edge that a single Raider still beats) and the
game option ``outpost_points`` (an int for all five, or a ``{colour: int}`` mapping).

No Ukrainian or Polish edition of the Red North rulebook: the names are the lands' names
in each language (Ukrainian keeps the game's Norse-style names), the texts careful
translations in the web UI's Red North terms.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import BLUE, COLOUR_OF_NAME, COLOURS, GREEN, PURPLE, RED, YELLOW
from .effects import (
    DrawExtra,
    Effect,
    GiveFirstPlayer,
    RaiderFromDiscard,
    TakeChampion,
    TakeFirstPlayer,
    TakeTieBreaker,
)

DEFAULT_OUTPOST_POINTS = 1
MAX_OUTPOST_POINTS = 9
PURPLE_DRAW = 2

# When an Outpost's power acts.
AFTER_DEPLOYMENT = "after-deployment"  # red, yellow: "Activate Outpost Powers"
RESOLUTION_D = "resolution-d"  # green, blue, red token, purple cards

#: What precedes a Resolution power's clause in its text.
RESOLUTION_TIMING = {
    "en": "In the Resolution phase, after Outposts are awarded, ",
    "uk": "У фазі розв'язки, після розподілу форпостів, ",
    "pl": "W fazie Rozstrzygnięcia, po przyznaniu placówek, ",
}


@dataclass(slots=True, frozen=True)
class Outpost:
    colour: int
    names: tuple[str, str, str]  # en, uk, pl
    resolution: Effect | None = None
    after_deployment: Effect | None = None

    @property
    def name(self) -> str:
        return self.names[0]

    @property
    def slug(self) -> str:
        """The kind of the events and decision of its after-Deployment power (``angleland``, ``sax``)."""
        return self.names[0].lower()

    @property
    def colour_name(self) -> str:
        return COLOURS[self.colour]

    @property
    def timing(self) -> tuple[str, ...]:
        return tuple(
            t for t, e in ((RESOLUTION_D, self.resolution), (AFTER_DEPLOYMENT, self.after_deployment)) if e is not None
        )

    def render(self, lang: str = "en") -> str:
        """Its powers' text in "en", "uk" or "pl", rendered from the effects."""
        parts = []
        if self.resolution is not None:
            parts.append(RESOLUTION_TIMING[lang] + self.resolution.text(lang))
        if self.after_deployment is not None:
            parts.append(self.after_deployment.text(lang))
        return " ".join(parts)

    @property
    def text(self) -> str:
        return self.render("en")


OUTPOSTS: tuple[Outpost, ...] = (
    Outpost(GREEN, ("Vinland", "Вінланд", "Winlandia"), resolution=TakeTieBreaker()),
    Outpost(
        RED, ("Angleland", "Англеланд", "Anglia"), resolution=TakeFirstPlayer(), after_deployment=GiveFirstPlayer()
    ),
    Outpost(BLUE, ("Rus", "Русь", "Ruś"), resolution=TakeChampion()),
    Outpost(PURPLE, ("Frankenland", "Франкенланд", "Frankia"), resolution=DrawExtra(PURPLE_DRAW)),
    Outpost(YELLOW, ("Sax", "Сакс", "Saksonia"), after_deployment=RaiderFromDiscard()),
)
_LANG_INDEX = {"en": 0, "uk": 1, "pl": 2}

assert all(o.colour == i for i, o in enumerate(OUTPOSTS)), "OUTPOSTS must be in colour order"


def _outpost_index(outpost: int | str) -> int:
    return outpost if isinstance(outpost, int) else COLOUR_OF_NAME[outpost]


def _lang(lang: str) -> int:
    if lang not in _LANG_INDEX:
        raise ValueError(f"unknown language {lang!r}; choose one of: en, uk, pl")
    return _LANG_INDEX[lang]


def outpost_name(outpost: int | str, lang: str = "en") -> str:
    """An Outpost's name in "en", "uk" or "pl" (the Outpost is its colour index or name)."""
    return OUTPOSTS[_outpost_index(outpost)].names[_lang(lang)]


def outpost_text(outpost: int | str, lang: str = "en") -> str:
    """An Outpost's power in "en", "uk" or "pl"."""
    _lang(lang)
    return OUTPOSTS[_outpost_index(outpost)].render(lang)
