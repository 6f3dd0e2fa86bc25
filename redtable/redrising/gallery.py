"""The card gallery: every card's facts and its rules text, rendered from the encodings."""

from __future__ import annotations

from .cards import CARDS, COLOR_NAMES, GRAY, ORANGE
from .effects import render
from .engine import BLOCK_SOVEREIGN, BLOCK_STEAL_BANISH, DEPLOY, END_OF_GAME

BLOCK_TEXT = {
    "steal_or_banish": "When an opponent tries to steal or banish your cards, reveal this to block them.",
    "sovereign": ("If an opponent tries to take the Sovereign token from you, you may block them by "
                  "revealing and banishing this card, then {after}"),
}
GRAY_TEXT = "You may treat this card as if it is any one other color (in addition to Gray)."
ORANGE_TEXT = "You may treat this card as having the same name as any specific character."


def _bonus_text(index: int) -> str | None:
    try:
        from .bonuses import bonus_text
    except ImportError:  # scoring not installed in this checkout
        return None
    return bonus_text(index)


def card_entry(index: int) -> dict:
    """One card of the gallery as JSON."""
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


def gallery() -> list[dict]:
    from . import abilities  # noqa: F401  (make sure every ability is registered)

    return [card_entry(c.index) for c in CARDS]
