"""The data of the in-app rules pages, read from the engines' own tables.

``GET /api/web/rules/{game}?lang=`` answers :func:`rules_data`. Nothing here restates a
rule by hand: the numbers are the constants the engines and the scorer run on
(``redrising.board``, ``redrising.scoring``, ``rednorth.cards`` ...), the card texts are
rendered from the same encodings as the card inspector (``gallery(lang)``), and the
short English texts the engines hold (house abilities, location bonuses, die faces) reach
Ukrainian and Polish through the terminal's catalogs (``redtable.i18n.uk`` / ``.pl``),
which translate exactly those engine strings. Red North's action texts are the engine's
own in each language (``rednorth.actions.action_text``); the table at the end of this module
names its phases and actions in the web UI's Red North terms.

The prose of a rules summary (turn structure, end of game, scoring) is the page's own,
in ``static/i18n/learn/{lang}.json``; it quotes these numbers through placeholders so that
a change of rule cannot leave the page saying something else.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..core import title, titles
from ..i18n.page import say
from ..rednorth.title import TITLE as RED_NORTH
from ..redrising.title import TITLE as RED_RISING

LANGS = ("en", "uk", "pl")


class UnknownChoice(ValueError):
    """A ``game`` or ``lang`` that is not offered; ``allowed`` lists what is."""

    def __init__(self, what: str, value: str, allowed: tuple[str, ...]) -> None:
        self.what, self.value, self.allowed = what, value, allowed
        shown = value if len(value) <= 40 else value[:39] + "…"
        super().__init__(f"unknown {what} {shown!r}; {what} must be one of: {', '.join(allowed)}")


def rules_data(game: str, lang: str = "en") -> dict[str, Any]:
    """Everything the rules page of ``game`` shows, in ``lang`` (a fresh dict each call).

    Raises :class:`UnknownChoice` for a game or language that is not offered."""
    games = rules_titles()
    if game not in games:
        raise UnknownChoice("game", game, games)
    if lang not in LANGS:
        raise UnknownChoice("lang", lang, LANGS)
    import copy

    return copy.deepcopy(title(game).load("rules_page")(lang))


def rules_titles() -> tuple[str, ...]:
    """The titles with a rules page (their ``rules_page`` part)."""
    return tuple(t.name for t in titles() if t.rules_page is not None)


def engine_text(msgid: str, lang: str) -> str:
    """An engine's English string in ``lang``, through the terminal's catalog of that language.

    Only strings the catalogs translate are asked for (a test checks every one), so a
    missing entry is a bug: it raises LookupError rather than showing English silently."""
    if lang == "en":
        return msgid
    if lang == "uk":
        from ..i18n.uk import MESSAGES
    elif lang == "pl":
        from ..i18n.pl import MESSAGES
    else:
        raise UnknownChoice("lang", lang, LANGS)
    text = MESSAGES.get(msgid)
    if text is None:
        raise LookupError(f"the {lang} catalog has no translation of {msgid!r}")
    return text[0] if isinstance(text, tuple) else text


def _capital(s: str) -> str:
    return s[:1].upper() + s[1:]


# ---------------------------------------------------------------------- Red Rising
@lru_cache(maxsize=3)
def red_rising_rules(lang: str) -> dict[str, Any]:
    from ..redrising.board import (
        DIE_FACES,
        DIE_TEXT,
        FLEET_MAX,
        HAND_SIZE,
        HOUSE_NAMES,
        HOUSE_TITLES,
        INFLUENCE_TOKENS,
        LOCATION_NAMES,
        LOCATION_TITLES,
        NEUTRAL_INFLUENCE_2P,
        THRESHOLD,
    )
    from ..redrising.cards import CARDS, COLOR_NAMES
    from ..redrising.gallery import gallery
    from ..redrising.game import RedRising
    from ..redrising.scoring import EXCESS_CARD_VP, FLEET_VP, HAND_LIMIT, HELIUM_VP, INFLUENCE_VP, ROWS, SOVEREIGN_VP

    caste = {c: _capital(engine_text(c, lang)) for c in COLOR_NAMES}
    counts = {c: 0 for c in COLOR_NAMES}
    for card in CARDS:
        counts[card.color_name] += 1
    cards = gallery(lang)
    for c in cards:
        c["caste"] = caste[c["color"]]
    return {
        "game": RED_RISING.name,
        "lang": lang,
        "players": {"min": RedRising.min_players, "max": RedRising.max_players},
        "setup": {
            "hand_size": HAND_SIZE,
            "influence_tokens": INFLUENCE_TOKENS,
            "neutral_influence_2p": NEUTRAL_INFLUENCE_2P,
            "cards_per_location": 2,
        },
        "end": {"threshold": THRESHOLD, "fleet_max": FLEET_MAX},
        "scoring": {
            "rows": list(ROWS),
            "helium_vp": HELIUM_VP,
            "sovereign_vp": SOVEREIGN_VP,
            "influence_vp": [*INFLUENCE_VP, 1],
            "hand_limit": HAND_LIMIT,
            "excess_card_vp": EXCESS_CARD_VP,
        },
        "houses": [
            {
                "house": h,
                "name": n if lang == "en" else engine_text(f"{n} (house)", lang),
                "text": say(f"rr.house_text.{h}", lang),
            }
            for h, n in zip(HOUSE_NAMES, HOUSE_TITLES, strict=True)
        ],
        # a location's bonus is the die face of the same name (the rulebook draws them alike)
        "locations": [
            {
                "location": loc,
                "name": engine_text(title, lang),
                "bonus": engine_text(DIE_TEXT[loc], lang),
                "triggers_house": loc == "luna",
            }
            for loc, title in zip(LOCATION_NAMES, LOCATION_TITLES, strict=True)
        ],
        "die": [{"face": f, "text": engine_text(DIE_TEXT[f], lang)} for f in DIE_FACES],
        "fleet_vp": list(FLEET_VP),
        "colors": [{"color": c, "name": caste[c], "count": counts[c]} for c in COLOR_NAMES],
        "cards": cards,
    }


# ---------------------------------------------------------------------- Red North
@lru_cache(maxsize=3)
def red_north_rules(lang: str) -> dict[str, Any]:
    from ..rednorth.actions import action_text
    from ..rednorth.cards import (
        CHAMPION_BONUS,
        COLOURS,
        GLORY_POINTS,
        HAND_DEAL,
        HERO_POINTS,
        JARL_BONUS,
        JARLS,
        JARLS_REMOVED,
        KINDS,
        PARTY_SIZE,
        RAIDER_POINTS,
        RAIDERS_PER_COLOUR,
        ROUND_NAMES,
        ROUND_VP,
        ROUNDS,
        SPRING_MUSTER_CARDS,
        STARTING_GLORY,
        STARTING_JARLS,
        SUMMER_MUSTER_CARDS,
    )
    from ..rednorth.gallery import gallery
    from ..rednorth.game import RedNorth
    from ..rednorth.gods import GODS
    from ..rednorth.outposts import DEFAULT_OUTPOST_POINTS, PURPLE_DRAW

    words = _RN_WORDS.get(lang)

    def word(key: str, en: str) -> str:
        return en if words is None else words[key]

    g = gallery(lang)
    for k in g["kinds"]:
        k["copies"] = next(x.copies for x in KINDS if x.slug == k["card"])
    muster = {1: {"top": "hero", "cards": SPRING_MUSTER_CARDS}, 2: {"top": "god", "cards": SUMMER_MUSTER_CARDS}}
    rounds = [
        {
            "round": r,
            "round_name": ROUND_NAMES[r],
            "name": say("rn.round." + ROUND_NAMES[r], lang),  # the page's word, which the terminal says too
            "outpost_vp": ROUND_VP[r],
            "muster": muster.get(r),
        }
        for r in range(1, ROUNDS + 1)
    ]
    actions = [
        {
            "action": a,
            "name": word(f"action.{a}", a.capitalize()),
            "text": action_text(a, lang),
            "when": {"promote": "blue_outpost", "invoke": "ragnarok"}.get(a),
        }
        for a in ("withdraw", "reinforce", "inspire", "promote", "invoke", "pass")
    ]
    return {
        "game": RED_NORTH.name,
        "lang": lang,
        "players": {"min": RedNorth.min_players, "max": RedNorth.max_players},
        "setup": {
            "hand_deal": HAND_DEAL,
            "starting_jarls": STARTING_JARLS,
            "starting_glory": STARTING_GLORY,
            "jarls": JARLS,
            "jarls_removed": {str(p): n for p, n in JARLS_REMOVED.items()},
            "raiders_per_colour": RAIDERS_PER_COLOUR,
            "outposts_extra_per_player": 1,
            "outpost_points_default": DEFAULT_OUTPOST_POINTS,
            "gods_in_box": len(GODS),
        },
        "points": {
            "raider": RAIDER_POINTS,
            "hero": HERO_POINTS,
            "jarl_bonus": JARL_BONUS,
            "champion_bonus": CHAMPION_BONUS,
            "glory": GLORY_POINTS,
            "frankenland_draw": PURPLE_DRAW,
        },
        "rounds": rounds,
        "phases": [
            {
                "phase": "deploy",
                "name": word("phase.deploy", "Deployment"),
                "party_size": PARTY_SIZE,
                "text": action_text("deploy", lang),
            },
            {"phase": "actions", "name": word("phase.actions", "Player Actions"), "actions": actions},
            {
                "phase": "resolution",
                "name": word("phase.resolution", "Resolution"),
                "steps": ["raid_points", "outposts", "glory", "tokens", "next_round"],
            },
        ],
        "colours": [{"colour": c, "name": _capital(engine_text(c, lang))} for c in COLOURS],
        "kinds": g["kinds"],
        "gods": g["gods"],
        "outposts": g["outposts"],
    }


# Red North's phase and action names in Ukrainian and Polish (the actions' texts are the
# engine's, :func:`redtable.rednorth.actions.action_text`); the terms are the web UI's (docs/web.md, "Languages").
_RN_WORDS: dict[str, dict[str, str]] = {
    "uk": {
        "phase.deploy": "Розгортання",
        "phase.actions": "Дії гравців",
        "phase.resolution": "Розв'язка",
        "action.withdraw": "Відкликати",
        "action.reinforce": "Підсилити",
        "action.inspire": "Надихнути",
        "action.promote": "Підвищити",
        "action.invoke": "Закликати",
        "action.pass": "Пас",
    },
    "pl": {
        "phase.deploy": "Rozstawienie",
        "phase.actions": "Akcje graczy",
        "phase.resolution": "Rozstrzygnięcie",
        "action.withdraw": "Wycofaj",
        "action.reinforce": "Wzmocnij",
        "action.inspire": "Zainspiruj",
        "action.promote": "Awansuj",
        "action.invoke": "Przywołaj",
        "action.pass": "Pas",
    },
}


__all__ = ["rules_titles", "LANGS", "UnknownChoice", "rules_data", "engine_text", "red_rising_rules", "red_north_rules"]
