"""Red Rising card names and rules text in English, Ukrainian and Polish.

English is rendered by the engine's own renderers (``texts.TEXT``, ``bonuses``); the
other languages by :mod:`.effects_text` and :mod:`.bonuses_text`, which read the same
effect and bonus encodings and take every word from a phrase table (:mod:`.uk`,
:mod:`.pl`: the rulebooks' terms) through a little grammar (:mod:`.grammar`: cases,
agreement, the plural forms of numbers). Card names are a table (:mod:`.names`).

Nothing here runs on the engine's hot path: texts are rendered on demand and cached by
the callers (:func:`redtable.redrising.gallery.gallery`).
"""

from __future__ import annotations

LANGS = ("en", "uk", "pl")


def check_lang(lang: str | None) -> str:
    """``lang`` if offered ("en" for None); ValueError otherwise."""
    if lang is None:
        return "en"
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; choose one of: {', '.join(LANGS)}")
    return lang


def card_name(card: int | str, lang: str = "en") -> str:
    """A card's name in ``lang``: the card is its index, slug or English printed name."""
    from ..cards import card_index
    from .core import card_name as _name

    idx = card if isinstance(card, int) else card_index(card)
    return _name(idx, check_lang(lang))


def render(node: tuple, lang: str = "en") -> str:
    """The rules text of an effect node in ``lang``."""
    lang = check_lang(lang)
    if lang == "en":
        from ..texts import render_en as en

        return en(node)
    from .effects_text import render as other

    return other(node, lang)


def bonus_text(card: int, lang: str = "en") -> str:
    """A card's end-game bonus in ``lang`` ("" if none)."""
    lang = check_lang(lang)
    if lang == "en":
        from ..bonuses import bonus_text as en

        return en(card)
    from .bonuses_text import bonus_text as other

    return other(card, lang)


def fixed_text(key: str, lang: str) -> str:
    """One of the gallery's texts that no encoding holds (Gray, Orange, the blocks), by key."""
    from .tables import lang as get_lang

    return get_lang(check_lang(lang)).P[key]


__all__ = ["LANGS", "check_lang", "card_name", "render", "bonus_text", "fixed_text"]
