"""A Raiding Party slot packed into one int, so a Party is a flat list of ints.

``slot = kind | UP*face_up | CHAMP*champion + GLORY*glory_tokens``: bits 0-3 hold the
card kind (:mod:`.cards`), bit 4 says face up, bit 5 says the Champion token is on it, and
the Glory tokens on the card are counted from bit 6 up. Positions are list indices, 0 is
the left end; cards are only added at the ends (or anywhere by Hel) and gaps close by
construction (``list.pop``).
"""

from __future__ import annotations

from .cards import KIND_SLUG

KIND_MASK = 15
UP = 16
CHAMP = 32
GLORY = 64
GLORY_SHIFT = 6


def make_slot(kind: int, up: bool = False, glory: int = 0, champion: bool = False) -> int:
    return kind | (UP if up else 0) | (CHAMP if champion else 0) | (glory << GLORY_SHIFT)


def slot_kind(s: int) -> int:
    return s & KIND_MASK


def slot_up(s: int) -> bool:
    return bool(s & UP)


def slot_glory(s: int) -> int:
    return s >> GLORY_SHIFT


def slot_champion(s: int) -> bool:
    return bool(s & CHAMP)


def slot_view(s: int, show_card: bool) -> dict:
    """A slot as JSON; the card of a face-down slot only if ``show_card`` (its owner)."""
    up = bool(s & UP)
    return {
        "card": KIND_SLUG[s & KIND_MASK] if (up or show_card) else None,
        "face_up": up,
        "glory": s >> GLORY_SHIFT,
        "champion": bool(s & CHAMP),
    }
