"""The terminal's translations: every word the code shows has its Ukrainian and Polish text,
with the same placeholders and markup; the language comes from --lang or the environment."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest
from rich.text import Text

from redtable import i18n
from redtable.i18n import detect, ntr, plural_form, resolve, set_lang, tr
from redtable.i18n.pl import MESSAGES as PL
from redtable.i18n.uk import MESSAGES as UK

ROOT = Path(__file__).resolve().parents[2] / "redtable"
FILES = [
    *sorted((ROOT / "play").glob("*.py")),
    ROOT / "redrising" / "score_cli.py",
    ROOT / "redrising" / "scorepad.py",
    ROOT / "redrising" / "gallery_cli.py",
    ROOT / "review" / "cli.py",
    ROOT / "review" / "words.py",
]
CATALOGS = {"uk": UK, "pl": PL}


def literal_msgids() -> dict[str, bool]:
    """msgid -> plural? for every tr("...")/ntr("...", "...") call with literal text."""
    out: dict[str, bool] = {}
    for path in FILES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("tr", "ntr"):
                arg = node.args[0] if node.args else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    out[arg.value] = node.func.id == "ntr"
    return out


def all_msgids() -> dict[str, bool]:
    from redtable.play import render_rednorth, render_redrising
    from redtable.redrising import gallery_cli, score_cli

    ids = literal_msgids()
    for m in (
        *render_redrising.MSGIDS,
        *render_rednorth.MSGIDS,
        *score_cli.MSGIDS,
        *(label for _, label in gallery_cli.TEXT_KEYS),
    ):
        ids.setdefault(m, False)
    return ids


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def tags(text: str) -> list[str]:
    return sorted(re.findall(r"\[/?(?:bold|italic|dim|reverse|bold reverse)?\]", text))


@pytest.fixture(autouse=True)
def english_after():
    yield
    set_lang("en")


def test_the_code_uses_hundreds_of_words():
    assert len(all_msgids()) > 400


@pytest.mark.parametrize("lang", ["uk", "pl"])
def test_every_word_is_translated_and_none_is_stale(lang):
    ids = all_msgids()
    catalog = CATALOGS[lang]
    missing = sorted(m for m in ids if m not in catalog)
    stale = sorted(m for m in catalog if m not in ids)
    assert not missing, f"{lang}: {len(missing)} untranslated, e.g. {missing[:5]}"
    assert not stale, f"{lang}: {len(stale)} no longer used, e.g. {stale[:5]}"


@pytest.mark.parametrize("lang", ["uk", "pl"])
def test_translations_keep_placeholders_and_markup(lang):
    ids = all_msgids()
    for msgid, plural in ids.items():
        text = CATALOGS[lang][msgid]
        forms = text if isinstance(text, tuple) else (text,)
        if plural:
            assert isinstance(text, tuple) and len(text) == 3, (lang, msgid)
        else:
            assert isinstance(text, str), (lang, msgid)
        for form in forms:
            assert form.strip() or not msgid.strip(), (lang, msgid)
            assert fields(form) <= fields(msgid) | {"n"}, (lang, msgid, form)
            assert fields(form) >= fields(msgid) - {"n"} or plural, (lang, msgid, form)
            assert tags(form) == tags(msgid), (lang, msgid, form)
            Text.from_markup(form.format(**{f: "x" for f in fields(form)}))  # valid markup
            assert form.startswith(" ") == msgid.startswith(" "), (lang, msgid)  # the same indentation


def test_terms_follow_the_rulebooks_and_the_web_ui():
    set_lang("uk")
    assert (tr("Scout"), tr("Luna"), tr("Banished"), tr("Raiding Party"), tr("VP")) == (
        "Розвідка",
        "Місяць",
        "Вигнані карти",
        "Загін набігу",
        "ПО",
    )
    set_lang("pl")
    assert (tr("Scout"), tr("Jupiter"), tr("Glory"), tr("Outposts"), tr("Deck")) == (
        "Zwiad",
        "Jowisz",
        "Chwała",
        "Placówki",
        "Stos",
    )


def test_plural_forms():
    assert [plural_form(n, "uk") for n in (1, 2, 5, 11, 12, 21, 22, 25, 111)] == [0, 1, 2, 2, 2, 0, 1, 2, 2]
    assert [plural_form(n, "pl") for n in (1, 2, 5, 12, 21, 22, 25, 102)] == [0, 1, 2, 2, 2, 1, 2, 1]
    set_lang("uk")
    assert [ntr("{n} card", "{n} cards", n) for n in (1, 3, 7)] == ["1 карта", "3 карти", "7 карт"]
    set_lang("pl")
    assert [ntr("{n} card", "{n} cards", n) for n in (1, 3, 7, 22)] == ["1 karta", "3 karty", "7 kart", "22 karty"]
    set_lang("en")
    assert [ntr("{n} card", "{n} cards", n) for n in (1, 3)] == ["1 card", "3 cards"]


@pytest.mark.parametrize(
    "env,lang",
    [
        ({}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8", "LANGUAGE": "uk"}, "en"),  # gettext: LANGUAGE is ignored under C
        ({"LANG": "uk_UA.UTF-8"}, "uk"),
        ({"LANG": "pl_PL.UTF-8"}, "pl"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "en_US.UTF-8", "LC_ALL": "pl_PL.UTF-8"}, "pl"),
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "uk_UA"}, "uk"),
        ({"LANG": "de_DE.UTF-8", "LANGUAGE": "de:pl:en"}, "pl"),
    ],
)
def test_language_from_the_environment(env, lang):
    assert detect(env) == lang


def test_lang_option():
    assert resolve("uk", {}) == "uk" and resolve("PL", {}) == "pl" and resolve("en", {"LANG": "uk_UA"}) == "en"
    assert resolve(None, {"LANG": "uk_UA.UTF-8"}) == "uk"
    with pytest.raises(ValueError, match="unknown language"):
        resolve("xx", {})


def test_missing_message_falls_back_to_english():
    set_lang("uk")
    assert tr("no such message {x}", x=1) == "no such message 1"
    assert i18n.get_lang() == "uk"
