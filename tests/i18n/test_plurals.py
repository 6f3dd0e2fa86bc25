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


# Page sentences whose number counts no noun, or counts one in a form written for every value
# it takes: a position or ordinal (seat, step, turn, slot, page), a number after a colon or
# beside an abbreviation (ПО/PZ, с/s, хв/min), a range's bounds, a constant (a name's 24
# characters, a password's 8 to 256, a chat message's 300), a count of a noun in the genitive
# after «з»/«z» («зайнято 3 з 4 місць»). Any other sentence with a number has plural forms.
PAGE_NOT_A_COUNT = {
    *("lobby.seat", "lobby.remove_seat", "lobby.you_play", "lobby.new_invite_seat", "seat.bot", "seat.bot_short"),
    *("seat.n", "table.step", "replay.step", "replay.turn", "score.as_of", "calc.player", "rr.value", "rr.turns"),
    *("rr.log.turn", "rr.log.fleet_up", "rr.log.fleet_down", "rn.slot", "rn.opt.position", "players.page"),
    *("story.rr.token", "rr.log.count", "a11y.location", "rr.prompt.reveal_from_hand", "rn.prompt.loki"),
    *("rn.prompt.deploy", "rn.prompt.deploy_touch", "rn.log.odin", "score.depends_hidden"),
    *("err.rate_limited", "err.too_many_spectators", "err.hashing_busy", "err.login_delay", "account.busy_retrying"),
    *("clock.seconds", "clock.minutes", "clock.hours_only", "clock.days_only", "clock.turn"),
    *("err.bad_name.length", "account.password_help", "err.bad_username.length", "err.bad_password"),
    *("err.message_too_long", "err.invalid_bot", "err.malformed.seat", "err.one_seat_per_account", "err.seat_bound"),
    *("table.waiting_players", "ready.count", "ready.waiting", "tables.waiting", "tables.seated"),
    # the waiting room and quick play: seat numbers, "{n} of {total}" with no noun, a unit's abbreviation
    *("wait.lead", "wait.link_label", "wait.to_bot_label", "tables.someone_came", "rematch.minutes"),
    "friends.invite_label",  # the seat a friend is invited to (its number)
    "err.text_too_long",  # {max} is a constant of the field (500 for a report's note)
    "review.running",  # "{done}/{total}": a fraction, no noun
}
NUMBER = re.compile(r"\{(n|count|limit|max|min|points|vp|total|left|glory|helium|influence|fleet|seats)\}")


@pytest.mark.parametrize("lang", ["uk", "pl"])
def test_no_page_count_bypasses_the_plural_forms(lang):
    """Every page sentence with a number is a plural entry ({"one", "few", "many", "other"},
    chosen by Intl.PluralRules; tests/web/test_web_no_english.py renders each for 1, 2, 5, 11,
    21, 22, 25 in Chromium) or a sentence whose number counts no noun (PAGE_NOT_A_COUNT)."""
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "redtable" / "web" / "static" / "i18n" / f"{lang}.json"
    catalog = json.loads(path.read_text(encoding="utf-8"))
    plain = {k for k, v in catalog.items() if isinstance(v, str) and NUMBER.search(v)}
    assert len(plain & PAGE_NOT_A_COUNT) > 30  # the scan sees the sentences with numbers
    assert sorted(plain - PAGE_NOT_A_COUNT) == [], "numbers counting a noun without plural forms"
    plural = [k for k, v in catalog.items() if isinstance(v, dict)]
    assert len(plural) >= 40 and all({"one", "other"} <= set(catalog[k]) for k in plural)
