"""A Ukrainian or Polish game in the terminal shows no English: through whole random games of
both titles, every screen, board, hand, decision and option, the log, the commands' pages
(look, card, gods, outposts) and the end screen. Card names and texts, Gods and Outposts
come in the chosen language; only an allow-list (the title "Red North", command words, bot
ids) may stay in Latin letters.

Ukrainian: no word in Latin letters outside the allow-list. Polish is written in Latin
letters, so it is held to the English-only vocabulary: every word of the English card
texts, names and terminal messages that no Polish text uses."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from functools import cache

import pytest
from rich.console import Console
from rich.text import Text

from redtable.bots import make_bot
from redtable.core import make_game
from redtable.i18n import set_lang
from redtable.play.common import Seat
from redtable.play.terminal import Session

WORD = re.compile(r"[^\W\d_]{2,}")
# Latin words a Ukrainian screen may show: the title, the commands one types, bot ids, [y/N].
ALLOWED = {
    "red",
    "north",
    "look",
    "log",
    "board",
    "hand",
    "card",
    "gods",
    "outposts",
    "help",
    "random",
    "heuristic",
    "human",
    "y",
    "n",
    "q",
    "b",
    "mars",  # the example location in "look mars"
}


def _texts(obj) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _texts(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _texts(v)


def _words(texts) -> set[str]:
    """The words of prose (ids such as "raider-green" and placeholders such as "{glory}" left out)."""
    prose = (re.sub(r"\{[^}]*\}|\[[^]]*\]", " ", t) for t in texts if not re.fullmatch(r"[a-z0-9-]+", t))
    return {w.lower() for t in prose for w in WORD.findall(t)}


@cache
def english_only() -> frozenset[str]:
    """Words of the English texts (card names and texts of both titles, the terminal's
    message ids) that no Polish text has."""
    from redtable.i18n.pl import MESSAGES
    from redtable.rednorth.gallery import gallery as rn_gallery
    from redtable.redrising.gallery import gallery

    en = _words([*_texts(gallery("en")), *_texts(rn_gallery("en")), *MESSAGES])
    pl = _words([*_texts(gallery("pl")), *_texts(rn_gallery("pl")), *_texts(list(MESSAGES.values()))])
    return frozenset(en - pl - ALLOWED)


def play(game: str, players: int, seed: int, lang: str) -> str:
    """Everything the terminal shows in one random game, as text."""
    set_lang(lang)
    try:
        state = make_game(game, players).new_initial_state(seed)
        buf = io.StringIO()
        console = Console(file=buf, width=120, color_system=None, highlight=False, emoji=False)
        session = Session(state, [Seat(p, True) for p in range(players)], seed, console)
        r = session.r
        bot = make_bot("random", seed=seed)
        plain: list[str] = []

        def show(x) -> None:  # markup as its text; tables and panels through rich
            if isinstance(x, str):
                plain.append(Text.from_markup(x).plain)
            else:
                console.print(x)

        step = 0
        while (d := state.decision()) is not None:
            if step % 3 == 0:  # the compact screen's parts, in each of their shapes
                for part in r.compact(state, d.player, d, 80):
                    for shape in part.variants:
                        for x in shape:
                            show(x)
            show(r.explain(state, d))
            for label, detail in r.option_rows(state, d):
                show(label + " " + detail)
            if step % 23 == 0:  # the full board, and the hand with every card's rules text
                for part in [*r.board(state, d.player, d), *r.hand(state, d.player)]:
                    show(part)
                show(r.help_text())
            action = bot.choose(state)
            session.record(d, action)
            state.apply(action)
            step += 1
        for command in r.commands().values():
            args = ["mars", "darrow", "Севро", "Севр"] if game == "red-rising" else ["", "jarl", "Ярл", "Тор"]
            for arg in args:
                for part in command.run(state, 0, arg):
                    show(part)
        session._finish()
        for viewer in [None, *range(players)]:
            for line in session._log(viewer).lines:
                show(line)
        return buf.getvalue() + "\n".join(plain)
    finally:
        set_lang("en")


def english_in(text: str, lang: str) -> dict[str, int]:
    found: dict[str, int] = {}
    text = re.sub(r"[^\W\d_]+…", " ", text)  # a word cut to fit the line
    for w in WORD.findall(text):
        low = w.lower()
        if lang == "uk":
            english = bool(re.fullmatch(r"[a-z]+", low)) and low not in ALLOWED
        else:
            english = low in english_only()
        if english:
            found[w] = found.get(w, 0) + 1
    return found


GAMES = [("red-rising", 2, 1), ("red-rising", 4, 2), ("red-north", 2, 4), ("red-north", 4, 5)]


@pytest.mark.parametrize("lang", ["uk", "pl"])
@pytest.mark.parametrize("game, players, seed", GAMES)
def test_no_english_in_a_whole_game(game, players, seed, lang):
    text = play(game, players, seed, lang)
    assert len(text) > 20000
    found = english_in(text, lang)
    assert not found, sorted(found.items(), key=lambda x: -x[1])[:30]


def test_the_check_sees_english():
    """Not vacuous: an English game is full of what the check catches, in both modes."""
    text = play("red-north", 2, 4, "en")
    assert len(english_in(text, "uk")) > 50
    assert {"raider", "hero", "glory", "the", "your"} <= {w.lower() for w in english_in(text, "pl")}
    text = play("red-rising", 2, 1, "en")
    assert {"banish", "gain", "deploy", "location"} <= {w.lower() for w in english_in(text, "pl")}
