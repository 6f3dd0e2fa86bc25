"""The card gallery: every card's facts and its rules text, rendered from the encodings.

:func:`gallery` (``lang`` "en", "uk" or "pl") is what ``GET /api/web/cards/red-rising``
serves: per card ``card`` (slug), ``name``, ``color`` (the colour's id), ``value`` and the
texts ``deploy``, ``end_game_bonus``, ``end_of_game``, ``block`` (absent when the card has
none), names and texts in that language. Ukrainian and Polish are rendered by
:mod:`redtable.redrising.lang` from the same encodings; each language's gallery is built
once and cached (nothing here runs on the engine's hot path).
"""

from __future__ import annotations

import copy

from .cards import CARDS, COLOR_NAMES, GRAY, ORANGE, card_index
from .effects import render
from .lang import LANGS, check_lang
from .rules import BLOCK_SOVEREIGN, BLOCK_STEAL_BANISH, DEPLOY, END_OF_GAME

BLOCK_TEXT = {
    "steal_or_banish": "When an opponent tries to steal or banish your cards, reveal this to block them.",
    "sovereign": (
        "If an opponent tries to take the Sovereign token from you, you may block them by "
        "revealing and banishing this card, then {after}"
    ),
}
GRAY_TEXT = "You may treat this card as if it is any one other color (in addition to Gray)."
ORANGE_TEXT = "You may treat this card as having the same name as any specific character."
TEXT_FIELDS = ("deploy", "end_game_bonus", "end_of_game", "block")


def _bonus_text(index: int) -> str | None:
    try:
        from .bonuses import bonus_text
    except ImportError:  # scoring not installed in this checkout
        return None
    return bonus_text(index)


def card_name(card: int | str, lang: str = "en") -> str:
    """A card's name in ``lang`` ("en", "uk", "pl"); the card is its index, slug or printed
    name. For the event log: ``card_name("darrow", "uk")`` is "Дерроу"."""
    from .lang import card_name as _name

    return _name(card, lang)


def card_entry(index: int, lang: str = "en") -> dict:
    """One card of the gallery as JSON, its name and texts in ``lang``."""
    lang = check_lang(lang)
    if lang != "en":
        return _entry_other(index, lang)
    c = CARDS[index]
    out: dict = {"card": c.slug, "name": c.name, "color": COLOR_NAMES[c.color], "value": c.value}
    if index in DEPLOY:
        out["deploy"] = render(DEPLOY[index])
    bonus = _bonus_text(index)
    if bonus:
        out["end_game_bonus"] = bonus
    eog = []
    if index in END_OF_GAME:
        eog.append(render(END_OF_GAME[index]))
    if c.color == GRAY:
        eog.append(GRAY_TEXT)
    if c.color == ORANGE:
        eog.append(ORANGE_TEXT)
    if eog:
        out["end_of_game"] = " ".join(eog)
    if index in BLOCK_STEAL_BANISH:
        out["block"] = BLOCK_TEXT["steal_or_banish"]
    elif index in BLOCK_SOVEREIGN:
        after = render(BLOCK_SOVEREIGN[index])
        out["block"] = BLOCK_TEXT["sovereign"].format(after=after[0].lower() + after[1:])
    return out


def _entry_other(index: int, lang: str) -> dict:
    from .lang import bonus_text, fixed_text
    from .lang import card_name as name_of
    from .lang.effects_text import render as render_in
    from .lang.effects_text import render_clause

    c = CARDS[index]
    out: dict = {"card": c.slug, "name": name_of(index, lang), "color": COLOR_NAMES[c.color], "value": c.value}
    if index in DEPLOY:
        out["deploy"] = render_in(DEPLOY[index], lang)
    bonus = bonus_text(index, lang)
    if bonus:
        out["end_game_bonus"] = bonus
    eog = []
    if index in END_OF_GAME:
        eog.append(render_in(END_OF_GAME[index], lang))
    if c.color == GRAY:
        eog.append(fixed_text("gray", lang))
    if c.color == ORANGE:
        eog.append(fixed_text("orange", lang))
    if eog:
        out["end_of_game"] = " ".join(eog)
    if index in BLOCK_STEAL_BANISH:
        out["block"] = fixed_text("block_steal", lang)
    elif index in BLOCK_SOVEREIGN:
        # {after} goes on from "you may block them ...": its verbs are infinitives too
        after = render_clause(BLOCK_SOVEREIGN[index], lang, "inf")
        out["block"] = fixed_text("block_sovereign", lang).format(after=after) + "."
    return out


_GALLERIES: dict[str, list[dict]] = {}


def gallery(lang: str = "en") -> list[dict]:
    """Every card (in card order) with its name and rules text in ``lang`` ("en", "uk", "pl").

    The same structure in every language; "en" is the printed English. A fresh copy each
    call (the texts are rendered once per language)."""
    lang = check_lang(lang)
    if lang not in _GALLERIES:
        _GALLERIES[lang] = [card_entry(c.index, lang) for c in CARDS]
    return copy.deepcopy(_GALLERIES[lang])


def card_texts(card: int | str, lang: str = "en") -> dict:
    """One card's gallery entry in ``lang`` (cached with the gallery)."""
    idx = card if isinstance(card, int) else card_index(card)
    lang = check_lang(lang)
    if lang not in _GALLERIES:
        gallery(lang)
    return copy.deepcopy(_GALLERIES[lang][idx])


__all__ = ["LANGS", "TEXT_FIELDS", "gallery", "card_entry", "card_name", "card_texts"]
