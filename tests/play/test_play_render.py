"""Every screen of many random games renders, for every seat, without showing what it may not see."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from rich.text import Text

from redtable.bots import make_bot
from redtable.core import make_game
from redtable.play.common import Seat
from redtable.play.terminal import Session


def render(things) -> str:
    buf = io.StringIO()
    console = Console(file=buf, width=160, color_system=None, highlight=False, emoji=False)
    for t in things:
        console.print(t)
    return buf.getvalue()


def play_all(game: str, players: int, seed: int, board_every: int):
    """Drive a game with random bots through a Session's renderer and log, rendering as we go."""
    state = make_game(game, players).new_initial_state(seed)
    seats = [Seat(p, True) for p in range(players)]
    session = Session(state, seats, seed, Console(file=io.StringIO(), color_system=None))
    r = session.r
    bot = make_bot("random", seed=seed)
    kinds = set()
    step = 0
    while (d := state.decision()) is not None:
        kinds.add(d.kind)
        assert r.explain(state, d)
        rows = r.option_rows(state, d)
        assert len(rows) == len(d.options)
        for markup in [r.explain(state, d)] + [label + " " + detail for label, detail in rows]:
            Text.from_markup(markup)  # valid markup
        if step % board_every == 0:
            yield state, d, render(r.board(state, d.player, d))
            render(r.board(state, None, d))
        action = bot.choose(state)
        assert session.match(d, str(d.options.index(action) + 1)) == action
        assert session.match(d, action) == action
        session.record(d, action)
        state.apply(action)
        step += 1
    for viewer in [None, *range(players)]:
        lines = session._log(viewer).lines
        assert lines
        for line in lines:
            Text.from_markup(line)
    out = render(r.end_screen(state))
    assert "Winner" in out or "Shared victory" in out


@pytest.mark.parametrize("seed", range(6))
def test_red_rising_screens(seed):
    players = 2 + seed % 5
    for state, d, text in play_all("red-rising", players, seed, board_every=25):
        me = state.view(d.player)["players"][d.player]
        assert f"Your hand — P{d.player}" in text or d.kind == "action"
        assert str(me["hand_size"]) in text


@pytest.mark.parametrize("seed", range(6))
def test_red_north_screens(seed):
    players = 2 + seed % 3
    for state, d, text in play_all("red-north", players, seed, board_every=4):
        v = state.view(d.player)
        # Other players' face-down cards are backs; the viewer's are named.
        backs = sum(1 for s in v["seats"] if s["seat"] != d.player for x in s["party"] if not x["face_up"])
        assert len(re.findall(r"card back", text)) >= backs
        mine = [x for x in v["seats"][d.player]["party"] if not x["face_up"]]
        assert text.count("(face-down)") >= len(mine)


# ---------------------------------------------------------------------------- every screen fits 80x24
def _screens_fit(game: str, players: int, seed: int, lang: str, width: int = 80, height: int = 24) -> int:
    from rich.cells import cell_len

    from redtable.i18n import set_lang

    set_lang(lang)
    try:
        state = make_game(game, players).new_initial_state(seed)
        seats = [Seat(p, True) for p in range(players)]
        buf = io.StringIO()
        console = Console(file=buf, width=width, height=height, color_system=None, highlight=False, emoji=False)
        session = Session(state, seats, seed, console)
        bot = make_bot("random", seed=seed)
        screens = 0
        while (d := state.decision()) is not None:
            buf.seek(0)
            buf.truncate()
            session.show_screen(d)
            lines = buf.getvalue().split("\n")[:-1]
            assert len(lines) + 1 <= height, "\n".join(lines)  # and the prompt
            assert all(cell_len(x) <= width for x in lines), max(lines, key=cell_len)
            screens += 1
            action = bot.choose(state)
            session.record(d, action)
            state.apply(action)
        buf.seek(0)
        buf.truncate()
        session._finish()
        assert len(buf.getvalue().split("\n")[:-1]) <= height
        return screens
    finally:
        set_lang("en")


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("lang", ["en", "uk", "pl"])
def test_every_red_rising_screen_fits_80x24(players, lang):
    assert _screens_fit("red-rising", players, 100 + players, lang) > 20


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("lang", ["en", "uk", "pl"])
def test_every_red_north_screen_fits_80x24(players, lang):
    assert _screens_fit("red-north", players, 200 + players, lang) > 20
