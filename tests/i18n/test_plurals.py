"""Numbers in the terminal's sentences: every counted word takes the form CLDR gives its number
(1, 2, 5, 11, 21, 22, 25 in both languages), and no sentence puts a count before a noun
without going through the one plural formatter (:func:`redtable.i18n.ntr`)."""

from __future__ import annotations

import ast
import re
import string

import pytest

from redtable.core import Event, make_game
from redtable.i18n import ntr, plural_form, set_lang
from redtable.i18n.pl import MESSAGES as PL
from redtable.i18n.uk import MESSAGES as UK

from .test_catalogs import FILES

NUMBERS = (1, 2, 5, 11, 21, 22, 25)
# The form each number takes, written out from the rulebooks' grammar (not computed):
# Ukrainian 1, 21 one; 2, 22 few; 5, 11, 25 many. Polish 1 one; 2, 22 few; 5, 11, 21, 25 many.
EXPECTED = {
    "uk": {1: 0, 2: 1, 5: 2, 11: 2, 21: 0, 22: 1, 25: 2},
    "pl": {1: 0, 2: 1, 5: 2, 11: 2, 21: 2, 22: 1, 25: 2},
}
CATALOGS = {"uk": UK, "pl": PL}

# tr() messages whose number counts no noun: a position, a round, a total beside an
# abbreviation or after a colon, a bound in a prompt. Anything else with a number is an ntr().
NOT_A_COUNT = re.compile(
    r"slot \{n\}|position \{n\}|round \{n\}|turn \{n\}|card \{n\}( of \{total\})?|Player \{n\}|\{n\} VP|"
    r"VP \{n\}|Glory \{n\}|hand \{n\}|\{n\} pts|\+\{n\}|\{n\}\+|\{n\} left|\{n\} to go|1-\{n\}|"
    r"\{shown\} of \{total\}|\{lo\} to \{hi\}|\{vp\} VP|VP: \{vp\}|VP this round: \{vp\}|: \{n\}|\{n\} characters|"
    r"\(Helium \{helium\}, Influence \{influence\}, Fleet \{fleet\}\)|\{total\}\[/bold\] so far|draw \{n\} cards",
    re.I,
)
COUNT_FIELDS = {"n", "d", "count", "points", "paid", "vp", "helium", "influence", "fleet", "total"}


@pytest.fixture(autouse=True)
def english_after():
    yield
    set_lang("en")


def test_cldr_rules_through_babel():
    for lang, want in EXPECTED.items():
        assert {n: plural_form(n, lang) for n in NUMBERS} == want
    assert [plural_form(n, "en") for n in (0, 1, 2, 21)] == [2, 0, 2, 2]


def plural_entries(lang: str) -> dict[str, tuple[str, str, str]]:
    return {k: v for k, v in CATALOGS[lang].items() if isinstance(v, tuple)}


@pytest.mark.parametrize("lang", ["uk", "pl"])
def test_every_counted_sentence_takes_the_form_of_its_number(lang):
    entries = plural_entries(lang)
    assert len(entries) >= 15
    set_lang(lang)
    for msgid, forms in entries.items():
        fields = {f for _, f, _, _ in string.Formatter().parse(msgid) if f} - {"n"}
        for n in NUMBERS:
            text = ntr(msgid, msgid, n, **{f: f"<{f}>" for f in fields})
            assert text == forms[EXPECTED[lang][n]].format(n=n, **{f: f"<{f}>" for f in fields}), (msgid, n)
            assert str(n) in text or "{n}" not in forms[EXPECTED[lang][n]], (msgid, n, text)


def test_the_forms_are_the_languages_own():
    set_lang("uk")
    assert [ntr("{who} scores {n} point ({card})", "", n, who="P1", card="X") for n in (1, 2, 5, 21, 22, 25)] == [
        "P1 отримує 1 очко (X)",
        "P1 отримує 2 очки (X)",
        "P1 отримує 5 очок (X)",
        "P1 отримує 21 очко (X)",
        "P1 отримує 22 очки (X)",
        "P1 отримує 25 очок (X)",
    ]
    assert ntr("{who} gains {n} Helium (now {now})", "", 1, who="P0", now=3) == "P0 бере 1 фішку гелію (тепер 3)"
    set_lang("pl")
    assert [ntr("{who} scores {n} point ({card})", "", n, who="P1", card="X") for n in (1, 2, 5, 21, 22)] == [
        "P1 zdobywa 1 punkt (X)",
        "P1 zdobywa 2 punkty (X)",
        "P1 zdobywa 5 punktów (X)",
        "P1 zdobywa 21 punktów (X)",
        "P1 zdobywa 22 punkty (X)",
    ]


def _tr_msgids_with_numbers() -> list[str]:
    out = []
    for path in FILES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "tr":
                arg = node.args[0] if node.args else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    fields = {f for _, f, _, _ in string.Formatter().parse(arg.value) if f}
                    if fields & COUNT_FIELDS:
                        out.append(arg.value)
    return out


def test_no_count_bypasses_the_plural_formatter():
    msgids = _tr_msgids_with_numbers()
    assert len(msgids) > 20  # the scan sees the sentences with numbers
    counted = [m for m in msgids if not NOT_A_COUNT.search(m)]
    assert not counted, f"numbers counting a noun through tr() instead of ntr(): {counted}"


@pytest.mark.parametrize("lang", ["uk", "pl"])
def test_the_log_says_each_count_in_its_form(lang):
    """The Red Rising log's counted events, rendered by the terminal for each number."""
    from redtable.play.common import Seat
    from redtable.play.render_redrising import RedRisingRenderer

    set_lang(lang)
    state = make_game("red-rising", 2).new_initial_state(1)
    r = RedRisingRenderer(state, [Seat(0, True), Seat(1, True)])
    cases = [
        ("helium", {"player": 0, "delta": None, "helium": 30}),
        ("influence", {"player": 0, "delta": None, "influence": 30}),
        ("fleet", {"player": 0, "delta": None, "fleet": 9}),
        ("points", {"player": 0, "points": None, "card": "darrow"}),
        ("loan_shark", {"player": 0, "lender": 1, "paid": None}),
    ]
    token = {"uk": ("фішку", "фішки", "фішок"), "pl": ("znacznik", "znaczniki", "znaczników")}[lang]
    step = {"uk": ("поділку", "поділки", "поділок"), "pl": ("pole", "pola", "pól")}[lang]
    point = {"uk": ("очко", "очки", "очок"), "pl": ("punkt", "punkty", "punktów")}[lang]
    words = [token, token, step, point, token]
    for (kind, data), forms in zip(cases, words, strict=True):
        key = next(k for k, v in data.items() if v is None)
        for n in NUMBERS:
            text = r.format_event(Event(kind, {**data, key: n}), None) or ""
            want = forms[EXPECTED[lang][n]]
            assert re.search(rf"\b{n} {want}\b", text), (kind, n, text)
