"""Red North's decisions and events in the terminal, in English, Ukrainian and Polish: every
decision kind and event kind of random games renders without "None", placeholders or English
left in a Ukrainian or Polish sentence (God and Outpost names stay as printed); seats are named
as the terminal names them (its seat labels, "P0", through ``who``)."""

from __future__ import annotations

import random
import re

import pytest
from rich.text import Text

from redtable.i18n import set_lang
from redtable.play.common import Seat
from redtable.play.render_rednorth import RedNorthRenderer
from redtable.rednorth.game import RedNorth
from redtable.rednorth.gods import GODS
from redtable.rednorth.outposts import OUTPOSTS

LANGS = ("en", "uk", "pl")
CYRILLIC = re.compile(r"[а-яіїєґ]", re.I)
ENGLISH = re.compile(
    r"\b(the|and|your|you|from|with|card|cards|player|turn|skip|none|deploys|passes|takes|"
    r"glory|raider|hero|party|left|right|end|slot)\b",
    re.I,
)
PRINTED = re.compile(
    "|".join(
        re.escape(x) for x in sorted([*(g.name for g in GODS), *(o.name for o in OUTPOSTS)], key=len, reverse=True)
    )
)


@pytest.fixture(autouse=True)
def english_after():
    yield
    set_lang("en")


def problems_of(lang: str, where: str, markup: str) -> list[str]:
    text = Text.from_markup(markup).plain
    out = []
    if not text.strip():
        out.append(f"{lang} {where}: empty")
    if re.search(r"[{}]|\bNone\b|_", text):
        out.append(f"{lang} {where}: artifact in {text!r}")
    if lang != "en":
        bare = PRINTED.sub("", text)
        if ENGLISH.search(bare):
            out.append(f"{lang} {where}: English in {text!r}")
        if lang == "uk" and not CYRILLIC.search(bare) and re.search(r"[A-Za-z]{4,}", bare):
            out.append(f"{lang} {where}: no Ukrainian in {text!r}")
    return out


@pytest.mark.parametrize("players, seeds", [(2, range(4)), (3, range(3)), (4, range(3))])
def test_every_decision_and_event_in_three_languages(players, seeds):
    problems, kinds, events = [], set(), set()
    for seed in seeds:
        st = RedNorth(players).new_initial_state(seed)
        r = RedNorthRenderer(st, [Seat(i, human=i == 0, bot_spec=None if i == 0 else "random") for i in range(players)])
        rnd = random.Random(seed)
        while (d := st.decision()) is not None:
            for lang in LANGS:
                set_lang(lang)
                problems += problems_of(lang, f"explain {d.kind}", r.explain(st, d))
                for o, (label, _details) in zip(d.options, r.option_rows(st, d), strict=True):
                    problems += problems_of(lang, f"option {d.kind} {o}", label)
            kinds.add(d.kind)
            st.apply(rnd.choice(d.options))
        for e in st.events:
            for lang in LANGS:
                set_lang(lang)
                line = r.format_event(e, 0)
                if line:
                    problems += problems_of(lang, f"event {e.kind}", line)
            events.add(e.kind)
    set_lang("en")
    assert {"deploy", "turn", "reinforce"} <= kinds and {"resolution", "pass", "round", "game-end"} <= events
    assert not problems, f"{len(problems)} problems, e.g.:\n" + "\n".join(sorted(set(problems))[:30])


def test_the_resolution_names_the_seats():
    st = RedNorth(2).new_initial_state(5)
    rnd = random.Random(5)
    while (d := st.decision()) is not None:
        st.apply(rnd.choice(d.options))
    r = RedNorthRenderer(st, [Seat(0, human=True), Seat(1, human=False, bot_spec="random")])
    rep = next(e for e in st.events if e.kind == "resolution")
    text = Text.from_markup(r.format_event(rep, 0)).plain
    assert re.search(r"Raid Points P0 \(you\) \d+, P1 \d+", text), text  # the seats as the terminal names them
    assert "Party of P0 (you):" in text and "(you)'s" not in text
