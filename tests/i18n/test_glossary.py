"""The rulebooks' terms (shared/reference/glossary-uk-pl.md) in every place that names their
concepts: the terminal's catalogs, the page's catalogs and tutorial, the rules pages' data;
and the words they replaced nowhere. Red North has no Ukrainian or Polish rulebook: its Gods
and Outposts have one name per language, the galleries', everywhere."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from redtable.i18n.pl import MESSAGES as PL
from redtable.i18n.uk import MESSAGES as UK
from redtable.rednorth.cards import KINDS, kind_name
from redtable.rednorth.gods import GODS, god_name
from redtable.rednorth.outposts import OUTPOSTS, outpost_name
from redtable.redrising.board import HOUSE_NAMES, HOUSE_TEXT

STATIC = Path(__file__).resolve().parents[2] / "redtable" / "web" / "static" / "i18n"
CATALOGS = {"uk": UK, "pl": PL}

# Words the rulebooks do not use, with the term they print instead (for the message).
REPLACED = {
    "uk": {
        r"випал\w* бонус": "випадний бонус (uk 239)",
        r"бланк\w* підрахунку": "блокнот підрахунку (uk 55, 258)",
        r"\bВолодар\b(?! Попелу)": "Володарювання (uk 326; «Володар Попелу» is a card)",
        r"\bДім Юпітер\b(?!а)|\bдому Церера\b|\bДім Церера\b": "the genitive («Дім Юпітера», «дому Церери»)",
    },
    "pl": {
        r"kart\w* punktacji": "tabela punktów (pl 53, 251)",
        r"\bz Luny\b": "z Luni (pl 114)",
        r"\bDom\w* Jowisz": "Dom Jupiter (pl 222: Jowisz is the location)",
        r"\bFLOTA\b": "TOR FLOTY (pl 295)",
        r"\bw Ragnarok\b": "w Ragnaroku",
    },
}
# Red North's English names that differ from the language's own, which must not show.
for _lang in ("uk", "pl"):
    for _en, _own in [(g.names[0], god_name(g.index, _lang)) for g in GODS] + [
        (o.names[0], outpost_name(o.colour, _lang)) for o in OUTPOSTS
    ]:
        if _en != _own:
            REPLACED[_lang][rf"\b{_en}\b"] = f"{_own} (the gallery's name)"


def page_texts(lang: str) -> Iterator[tuple[str, str]]:
    """(where, text) of the page's catalog and its tutorial, but for the Red Rising house
    short names in the scorepad's narrow columns (where «Hel» is Polish for Helium)."""
    for path in (STATIC / f"{lang}.json", STATIC / "learn" / f"{lang}.json"):
        for key, value in json.loads(path.read_text(encoding="utf-8")).items():
            if key.startswith("rr.row_short."):
                continue
            for form in value.values() if isinstance(value, dict) else [value]:
                yield f"{path.name}:{key}", form


def terminal_texts(lang: str) -> Iterator[tuple[str, str]]:
    for msgid, value in CATALOGS[lang].items():
        for form in value if isinstance(value, tuple) else (value,):
            yield f"terminal:{msgid[:40]}", form


def rules_texts(lang: str) -> Iterator[tuple[str, str]]:
    from redtable.web.rules_data import rules_data

    def walk(where: str, x) -> Iterator[tuple[str, str]]:
        if isinstance(x, str):
            yield where, x
        elif isinstance(x, dict):
            for k, v in x.items():
                yield from walk(f"{where}.{k}", v)
        elif isinstance(x, list):
            for i, v in enumerate(x):
                yield from walk(f"{where}[{i}]", v)

    for game in ("red-rising", "red-north"):
        yield from walk(f"rules:{game}", rules_data(game, lang))


@pytest.mark.parametrize("lang", ["uk", "pl"])
def test_the_replaced_words_appear_nowhere(lang):
    found = []
    for where, text in [*terminal_texts(lang), *page_texts(lang), *rules_texts(lang)]:
        for pattern, instead in REPLACED[lang].items():
            if re.search(pattern, text):
                found.append(f"{where}: {text[:90]!r} — say {instead}")
    assert not found, f"{len(found)} places, e.g.:\n" + "\n".join(found[:20])


def test_the_scans_are_not_vacuous():
    assert sum(1 for _ in page_texts("uk")) > 800 and sum(1 for _ in terminal_texts("pl")) > 500
    assert sum(1 for _ in rules_texts("uk")) > 200
    # each pattern catches the words it names, and lets the rulebooks' terms through
    caught = {
        "uk": ["випалий бонус", "бланк підрахунку", "Володар", "Дім Юпітер", "дому Церера", "Angleland"],
        "pl": ["karta punktacji", "(z Luny)", "Dom Jowisz", "FLOTA", "tylko w Ragnarok.", "Frankenland"],
    }
    passed = {
        "uk": ["випадний бонус", "блокнот підрахунку", "ВОЛОДАРЮВАННЯ", "Володарювання", "Дім Юпітера", "дому Церери"],
        "pl": ["tabela punktów", "z Luni", "Dom Jupiter", "na Jowisza", "TOR FLOTY", "w Ragnaroku", "Anglia"],
    }
    for lang in ("uk", "pl"):
        for text in caught[lang]:
            assert any(re.search(p, text) for p in REPLACED[lang]), text
        for text in passed[lang]:
            assert not any(re.search(p, text) for p in REPLACED[lang]), text


TERMS = {
    # msgid of the terminal: (uk, pl) as the rulebooks print them
    "Scorepad": ("Блокнот підрахунку", "Tabela punktów"),
    "SOVEREIGNTY": ("ВОЛОДАРЮВАННЯ", "SUWEREN"),
    "Sovereign": ("Володарювання", None),
    "FLEET": ("ФЛОТ", "TOR FLOTY"),
    "Jupiter (house)": ("Юпітер", "Jupiter"),
    "Jupiter (house, of)": ("Юпітера", "Jupiter"),
    "Ceres (house, of)": ("Церери", "Ceres"),
    "Jupiter": ("Юпітер", "Jowisz"),  # the location
    "(covered: only name, colour and value show)": ("назву", "nazwę"),
    "name": ("назва", "nazwa"),  # the card gallery's column: a card's name is its «назва» (uk 99, 150)
    "{card} is named {other}": ("має ім'я", "nosi imię"),  # the Orange ability names a character (uk 264)
    "{card} counts as {color}": ("вважається картою кольору", None),
    "{who}: {card} counted as {color}": ("вважається картою кольору", None),
}


@pytest.mark.parametrize("lang", ["uk", "pl"])
def test_the_terminal_says_the_rulebooks_terms(lang):
    i = 0 if lang == "uk" else 1
    for msgid, terms in TERMS.items():
        if terms[i] is not None:
            assert terms[i] in CATALOGS[lang][msgid], (lang, msgid, CATALOGS[lang][msgid])


EVEN_IF = {
    "en": "(even if you already have it)",
    "uk": "(навіть якщо вже маєте її)",
    "pl": "(nawet jeśli już go masz)",
}


@pytest.mark.parametrize("lang", ["en", "uk", "pl"])
def test_house_abilities_keep_even_if_you_already_have_it(lang):
    """As both rulebooks print it (uk 219–239, pl 212–232): the terminal, the rules data and the page."""
    from redtable.i18n.page import say
    from redtable.web.rules_data import rules_data

    terminal = [say(f"rr.house_text.{h}", lang) for h in HOUSE_NAMES]  # the terminal reads the page's catalog
    rules = [h["text"] for h in rules_data("red-rising", lang)["houses"]]
    page = json.loads((STATIC / f"{lang}.json").read_text(encoding="utf-8"))
    shown = [page[f"rr.house_text.{h}"] for h in HOUSE_NAMES]
    for texts in (terminal, rules, shown):
        assert all(EVEN_IF[lang] in t for t in texts), texts
    assert terminal == rules == shown  # one wording per language
    if lang == "en":
        assert shown == list(HOUSE_TEXT)  # the engine's English (cards endpoint) is the page's


def test_red_north_names_are_the_galleries_in_every_place():
    """A God or an Outpost the page's or the terminal's words name is called what the gallery calls it."""
    for lang in ("uk", "pl"):
        page = json.loads((STATIC / f"{lang}.json").read_text(encoding="utf-8"))
        for g in GODS:
            assert page[f"rn.god.{g.slug}"] == god_name(g.index, lang)
            assert CATALOGS[lang].get(g.names[0], god_name(g.index, lang)) == god_name(g.index, lang)
        for o in OUTPOSTS:
            assert CATALOGS[lang].get(o.names[0], outpost_name(o.colour, lang)) == outpost_name(o.colour, lang)
        for k in KINDS:  # the terminal's card names are the gallery's
            assert CATALOGS[lang][k.name] == kind_name(k.kind, lang)


@pytest.mark.parametrize("lang", ["uk", "pl"])
def test_nero_has_one_paradigm(lang):
    """«Нерон» / «Neron» in every case, and no other form of the name on any card: not «Nero»
    beside «Nerona / Neronem» (the Polish table kept the English nominative)."""
    from redtable.redrising.gallery import gallery
    from redtable.redrising.lang.names import TABLES, parse

    _, forms = parse(TABLES[lang]["nero"])
    nominative = {"uk": "Нерон", "pl": "Neron"}[lang]
    assert forms[0] == nominative and all(f.startswith(nominative) for f in forms), forms
    stem = {"uk": r"\bНеро\w*", "pl": r"\bNero\w*"}[lang]
    said = set()
    for card in gallery(lang):
        for text in (card["name"], card.get("deploy") or "", card.get("end_game_bonus") or ""):
            said |= set(re.findall(stem, text))
    assert said and said <= set(forms), said - set(forms)
    assert {"Nerona", "Neronem"} <= said or lang == "uk"


# The third person singular present of the verbs the decision labels start with.
THIRD_PERSON = {"uk": re.compile(r"\w+(є|е|ить|ть)$"), "pl": re.compile(r"\w+(a|e|i|uje|oże)$")}


@pytest.mark.parametrize("lang", ["uk", "pl"])
def test_decision_labels_are_one_person_and_mood(lang):
    """«▶ P2 Церера виганяє з руки: …», «▶ P2 Ceres odrzuca z ręki: …»: every label of the
    terminal's log is a verb in the third person, never an infinitive, an imperative or a bare
    noun («колір», «kolejność»); Red North's Outposts and Gods name the card that asks."""
    from redtable.play.render_rednorth import LABEL as RN
    from redtable.play.render_redrising import LABEL as RR

    names = {CATALOGS[lang].get(n, n) for n in ("Angleland", "Sax", "Loki", "Freya", "Saga", "Hel")}
    names |= {god_name(g.index, lang) for g in GODS} | {outpost_name(o.colour, lang) for o in OUTPOSTS}
    wrong = []
    for msgid in [*RR.values(), *RN.values()]:
        label = CATALOGS[lang][msgid]
        if label in names:
            continue
        verb = label.split()[0].rstrip(",")
        if not THIRD_PERSON[lang].fullmatch(verb) or verb.endswith(("ти", "ć")):
            wrong.append(label)
    assert not wrong, wrong
    assert THIRD_PERSON["uk"].fullmatch("виганяє") and not THIRD_PERSON["uk"].fullmatch("колір")
    assert THIRD_PERSON["pl"].fullmatch("odrzuca") and not THIRD_PERSON["pl"].fullmatch("kolejność")


# What may stand before a card's name in the tutorial: the word "card" that takes the case
# («Виберіть карту «Юрист»», «Wybierz kartę …»), the start of a sentence, a dash or colon
# before a subject, or a verb whose subject the name is («лежить …», «pod nią …»).
BEFORE_A_NAME = {
    "uk": re.compile(r"(«|^|[.!?:—]\s|\n|(лежить|нею)\s)$"),
    "pl": re.compile(r"(\bkart\w*\s|^|[.!?:—]\s|\n|(leży|nią)\s)$"),
}


@pytest.mark.parametrize("lang", ["uk", "pl"])
def test_the_tutorial_names_a_card_in_the_case_its_verb_takes(lang):
    """«Виберіть Юрист», «дає вам Юрист» put a name in the nominative after a verb: the
    tutorial says «Виберіть карту «Юрист»», «дає вам карту «Юрист»» instead."""
    wrong, seen = [], 0
    for where, text in page_texts(lang):
        if not where.startswith(f"{lang}.json:tut.") or "{c:" not in text:
            continue
        for m in re.finditer(r"\{c:[a-z-]+\}", text):
            seen += 1
            if not BEFORE_A_NAME[lang].search(text[: m.start()]):
                wrong.append(f"{where}: …{text[max(0, m.start() - 30) : m.end()]}")
    assert seen >= 12 and not wrong, (seen, wrong)
    assert not BEFORE_A_NAME["uk"].search("Виберіть ") and not BEFORE_A_NAME["uk"].search("дає вам ")
