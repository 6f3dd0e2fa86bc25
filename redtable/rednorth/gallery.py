"""The Red North card gallery (``GET /api/web/cards/red-north``; the rules page reads it too):
card kinds, Gods and Outposts with their names and rendered texts in en/uk/pl.

Its own module, above the data modules it gathers (:mod:`.cards`, :mod:`.gods`,
:mod:`.outposts`), so that none of them imports another's upper layer.
"""

from __future__ import annotations

from .cards import COLOURS, KINDS, kind_name, kind_text
from .gods import GODS, god_name, god_text
from .outposts import OUTPOSTS, outpost_name, outpost_text


def gallery(lang: str = "en") -> dict:
    """What ``GET /api/web/cards/red-north`` serves, names and texts in "en", "uk" or "pl":
    colours (ids), card kinds, Gods and Outposts (same structure in every language)."""
    if lang not in ("en", "uk", "pl"):
        raise ValueError(f"unknown language {lang!r}; choose one of: en, uk, pl")
    return {
        "colours": list(COLOURS),
        "kinds": [
            {
                "card": k.slug,
                "name": kind_name(k.kind, lang),
                "name_acc": kind_name(k.kind, lang, "a"),
                "name_ins": kind_name(k.kind, lang, "i"),
                "type": k.type,
                "colour": k.colour_name,
                "points": k.points,
                "text": kind_text(k.kind, lang),
            }
            for k in KINDS
        ],
        "gods": [
            {
                "god": g.slug,
                "name": god_name(g.index, lang),
                "name_acc": god_name(g.index, lang, "a"),
                "text": god_text(g.index, lang),
            }
            for g in GODS
        ],
        "outposts": [
            {"colour": COLOURS[i], "name": outpost_name(i, lang), "text": outpost_text(i, lang)}
            for i, o in enumerate(OUTPOSTS)
        ],
    }
