"""A native reader's checks of the terminal's Ukrainian and Polish: each word in the case its
verb or preposition takes.

- A location's top card after "top:" is a noun in the nominative («Місяць (зверху: Лісандр
  (золотий 10))», «Luna (na wierzchu: Lysander (złoty 10))»), never the accusative a verb
  takes («зверху: карту …», «na wierzchu: kartę …»); a card placed "on top of" another goes
  «на карту «…»» / «na kartę „…”» (not «поверх карту», which would need the genitive); an empty
  location reads «(зона порожня)» / «(lokacja pusta)», not «(поверх (порожньо))».
- A card after «картою» / «карти» / «kartą» / «karty» is named in quotes, as the page names it
  («блокує гравця P1 картою «Мученик» (білий 15)»), not as a bare name in the nominative.
- A Red North Outpost is named before its colour, in brackets («Winlandia (zielony)»): Polish
  Outposts are feminine and no colour adjective before them agreed («zielony Winlandia»).
- Polish names a colour it counts in quotes («karty w kolorze „złoty”», not «w kolorze złoty»).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rich.text import Text

from redtable.bots import make_bot
from redtable.core import Event, make_game
from redtable.i18n import set_lang
from redtable.play.common import Seat

from .test_play_no_english import play

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def lang_of():
    yield set_lang
    set_lang("en")


def _option_labels(lang: str, seed: int, kinds: set[str]) -> list[str]:
    """The labels of every option of the given decision kinds through a random 4-player game."""
    from redtable.play.render_redrising import RedRisingRenderer

    set_lang(lang)
    state = make_game("red-rising", 4).new_initial_state(seed)
    r = RedRisingRenderer(state, [Seat(p, True) for p in range(4)])
    bot = make_bot("random", seed=seed)
    out = []
    while (d := state.decision()) is not None:
        if d.kind in kinds:
            out += [Text.from_markup(label).plain for label, _ in r.option_rows(state, d)]
        state.apply(bot.choose(state))
    return out


@pytest.mark.parametrize("lang", ["uk", "pl"])
def test_a_locations_top_card_is_a_noun_and_a_placed_card_goes_onto_it(lang_of, lang):
    labels = [
        x
        for seed in (1, 2, 3)
        for x in _option_labels(lang, seed, {"deploy_location", "scout_location", "place_location"})
    ]
    text = "\n".join(labels)
    top, onto, empty = {
        "uk": ("(зверху: ", "(на карту «", "(зона порожня)"),
        "pl": ("(na wierzchu: ", "(na kartę „", "(lokacja pusta)"),
    }[lang]
    assert top in text and onto in text and empty in text, text[:2000]
    wrong = {"uk": ["зверху: карту", "поверх", "(порожньо))"], "pl": ["na wierzchu: kartę", "(na (", "(pusto))"]}
    for w in wrong[lang]:
        assert w not in text, [x for x in labels if w in x][:3]
    for x in labels:  # the nominative after "top:": the name (or a face-down back), not «карту»/«kartę»
        if top in x:
            after = x.split(top, 1)[1].lstrip()
            assert after[:1] not in "(«„" and not after.startswith(("карту", "kartę")), x


@pytest.mark.parametrize(
    "lang, block, ability, option",
    [
        (
            "uk",
            "блокує гравця P1 Аполлон картою «Мученик» (білий 15)",
            "активує властивість «Наприкінці гри» карти «Аукціоніст» (мідний 12)",
            "Заблокувати картою «Мученик» (білий 15)",
        ),
        (
            "pl",
            "blokuje gracza P1 Apollo kartą „Męczennik” (biały 15)",
            "rozpatruje zdolność na koniec gry karty „Licytator” (miedziany 12)",
            "Zablokuj kartą „Męczennik” (biały 15)",
        ),
    ],
)
def test_a_card_after_the_word_card_is_named_in_quotes(lang_of, lang, block, ability, option):
    from redtable.core import Decision
    from redtable.play.render_redrising import RedRisingRenderer

    set_lang(lang)
    state = make_game("red-rising", 2).new_initial_state(1)
    r = RedRisingRenderer(state, [Seat(0, True), Seat(1, True)])
    blocked = r.format_event(Event("block", {"player": 0, "against": 1, "card": "martyr"}), None) or ""
    kept = r.format_event(
        Event("block", {"player": 0, "against": 1, "card": "martyr", "attempt": "take_sovereign"}), None
    )
    resolved = r.format_event(Event("end_of_game_ability", {"player": 0, "card": "auctioneer"}), None) or ""
    assert Text.from_markup(blocked).plain.strip().endswith(block)
    assert Text.from_markup(kept or "").plain.strip().endswith(block)
    assert Text.from_markup(resolved).plain.strip().endswith(ability)
    d = Decision(0, "block", ["no", "block:martyr"], {"attacker": 1, "card": None})
    label, _ = r.option_row(state, d, state.view(0), "block:martyr")
    assert Text.from_markup(label).plain == option


@pytest.mark.parametrize("lang", ["uk", "pl"])
def test_an_outpost_is_named_before_its_colour(lang_of, lang):
    text = play("red-north", 4, 5, lang)
    named = {
        "uk": ["Вінланд (зелений): ", "Англеланд (червоний): ", "Русь (синій): "],
        "pl": ["Winlandia (zielony): ", "Anglia (czerwony): ", "Ruś (niebieski): "],
    }[lang]
    for x in named:
        assert x in text
    disagreeing = {"uk": ["синій Русь"], "pl": ["zielony Winlandia", "czerwony Anglia", "żółty Saksonia"]}[lang]
    for x in disagreeing:
        assert x not in text


def test_polish_names_a_counted_colour_in_quotes():
    from redtable.i18n.pl import MESSAGES

    page = json.loads((ROOT / "redtable/web/static/i18n/pl.json").read_text())
    texts = [v for v in [*MESSAGES.values(), *page.values()] if isinstance(v, str)]
    bare = [t for t in texts if re.search(r"w kolorze \{colors\}|koloru \{colors\}", t)]
    assert not bare
    assert sum("w kolorze „{colors}”" in t for t in texts) >= 6


def test_polish_interface_words_take_no_gendered_past_form():
    """The interface, the tutorial, the e-mails and pushes speak to a player in Polish without a
    past form that guesses the reader's gender («dołączyłeś», «nie prosiłeś», «walczyłeś»). The
    card texts keep the rulebook's register (its line 174: «Jeśli położyłeś już 10 znaczników»)."""
    from redtable.i18n.pl import MESSAGES

    gendered = re.compile(r"\b\w+ł(eś|aś|(a)?by(ś|m))\b")
    files = ["redtable/web/static/i18n/pl.json", "redtable/web/static/i18n/learn/pl.json"]
    texts = [v for f in files for v in _strings(json.loads((ROOT / f).read_text()))]
    texts += [v for v in _strings(list(MESSAGES.values()))]
    for module in ("mailtext", "notifytext", "push"):
        source = (ROOT / f"redtable/server/{module}.py").read_text()
        texts += re.findall(r'"pl": \((.*?)\),', source, re.S)
    assert len(texts) > 1000 and gendered.search("stół, do którego dołączyłeś") and gendered.search("nie prosiłaś")
    assert sum(1 for t in texts if "{link}" in t) >= 3  # the e-mails were read
    found = [t for t in texts if gendered.search(t)]
    assert not found, found[:5]


def _strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _strings(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _strings(v)


@pytest.mark.parametrize("lang, said", [("uk", "P0 закликає Тора"), ("pl", "P0 przywołuje Thora")])
def test_an_invoked_god_is_in_the_accusative(lang_of, lang, said):
    from redtable.play.render_rednorth import RedNorthRenderer

    set_lang(lang)
    state = make_game("red-north", 2).new_initial_state(1)
    r = RedNorthRenderer(state, [Seat(0, True), Seat(1, True)])
    line = r.format_event(Event("invoke", {"player": 0, "god": "thor"}), None) or ""
    assert Text.from_markup(line).plain.strip() == said
