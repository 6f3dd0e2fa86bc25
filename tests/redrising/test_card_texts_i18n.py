"""Red Rising card names and rules text in English, Ukrainian and Polish.

Every card's texts (deploy, end-game bonus, end of game, block) are rendered in every
language from the encodings that run; none may fall back to English, leave a template
field, or lose a text the English card has. English changes only on purpose (a snapshot).
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from redtable.redrising import abilities  # noqa: F401  (registers every ability)
from redtable.redrising import bonuses as B
from redtable.redrising.bonuses import bonus_text
from redtable.redrising.cards import BY_SLUG, CARDS, NUM_CARDS
from redtable.redrising.effects import COND_TEXT, TEXT, render
from redtable.redrising.gallery import TEXT_FIELDS, card_entry, card_name, card_texts, gallery
from redtable.redrising.lang import names as name_tables
from redtable.redrising.lang.bonuses_text import clause_text
from redtable.redrising.lang.effects_text import COND, RENDER
from redtable.redrising.lang.grammar import Count, euphony, plural_form
from redtable.redrising.lang.tables import lang as get_lang
from redtable.redrising.rules import DEPLOY

LANGS = ("uk", "pl")
# sha256 of json.dumps(gallery(), ensure_ascii=False, sort_keys=True): the English gallery
# changes only on purpose, never by a translation. It was the one before any language existed
# until "If you do" came to govern every sentence after it (Alfrun, Jopho, Mickey the Carver:
# "..., then ...") and Administrator's bonus became "the least Influence" as printed (was "most").
EN_SNAPSHOT = "7fd1dd6c449f7a63e9fcc219951ed882e4759eeedfa22d5cb97ed8b8a0c2f386"

WORD = re.compile(r"[^\W\d_]+")
# Polish words that are spelled like an English word of the rules text.
PL_SHARED = {"a", "to", "do", "on", "bonus", "helium", "mars", "au"}


def _texts(lang: str):
    for c in gallery(lang):
        for f in TEXT_FIELDS:
            if f in c:
                yield c["card"], f, c[f]


def _english_vocabulary() -> set[str]:
    return {w.lower() for _, _, t in _texts("en") for w in WORD.findall(t)}


def _name_words(lang: str) -> set[str]:
    out: set[str] = set()
    for entry in name_tables.TABLES[lang].values():
        _, forms = name_tables.parse(entry)
        for f in forms:
            out |= {w.lower() for w in WORD.findall(f)}
    return out


# ---------------------------------------------------------------------------- English unchanged
def test_english_gallery_is_unchanged():
    g = gallery()
    assert g == gallery("en")
    assert len(g) == NUM_CARDS
    digest = hashlib.sha256(json.dumps(g, ensure_ascii=False, sort_keys=True).encode()).hexdigest()
    assert digest == EN_SNAPSHOT


def test_english_spot_texts():
    darrow = card_entry(BY_SLUG["darrow"])
    assert darrow["deploy"] == (
        "Gain any other non-Gold from this location. Banish this card unless you "
        "deployed this directly on top of a Gold."
    )
    assert render(DEPLOY[BY_SLUG["deanna"]], "en") == "Gain 1 Helium."
    assert bonus_text(BY_SLUG["janitor"], "en") == "5 VP for each Green, Yellow and Blue."


# ---------------------------------------------------------------------------- every card, every language
@pytest.mark.parametrize("lang", LANGS)
def test_same_cards_and_fields_as_english(lang):
    en, other = gallery("en"), gallery(lang)
    assert len(other) == NUM_CARDS
    for e, o in zip(en, other, strict=True):
        assert set(e) == set(o), e["card"]
        assert (e["card"], e["color"], e["value"]) == (o["card"], o["color"], o["value"])
        for f in TEXT_FIELDS:
            if f in e:
                assert o[f].strip() and o[f] != e[f], (e["card"], f)


@pytest.mark.parametrize("lang", LANGS)
def test_no_placeholders_and_sentences_finished(lang):
    for card, field, text in _texts(lang):
        assert "{" not in text and "}" not in text, (card, field, text)
        assert "  " not in text and " ." not in text and " ," not in text, (card, field, text)
        assert text[0].isupper() or text[0].isdigit() or text[0] == "-", (card, field, text)
        assert text.endswith("."), (card, field, text)


def test_ukrainian_has_no_latin_words():
    for card, field, text in _texts("uk"):
        assert not re.search(r"[A-Za-z]", text), (card, field, text)


def test_polish_has_no_english_words():
    english = _english_vocabulary()
    allowed = PL_SHARED | _name_words("pl")
    for card, field, text in _texts("pl"):
        left = {w for w in WORD.findall(text) if w.lower() in english and w.lower() not in allowed}
        assert not left, (card, field, left, text)


@pytest.mark.parametrize("lang", LANGS)
def test_every_primitive_and_condition_has_a_renderer(lang):
    assert set(TEXT) <= set(RENDER), sorted(set(TEXT) - set(RENDER))
    assert set(COND_TEXT) <= set(COND), sorted(set(COND_TEXT) - set(COND))


@pytest.mark.parametrize("lang", LANGS)
def test_rulebook_terms(lang):
    texts = " ".join(t for _, _, t in _texts(lang))
    terms = {
        "uk": (
            "фішку володарювання",
            "трек",
            "флоту",
            "Інститут",
            "зони",
            "виженіть",
            "призначили",
            "гелію",
            "впливу",
            "Місяця",
            "золотого",
            "зі срібним",
        ),
        "pl": (
            "znacznik Suwerena",
            "torze Floty",
            "Instytucie",
            "lokacji",
            "odrzuć",
            "zagrałeś",
            "Helium",
            "Wpływu",
            "Luni",
            "Złotego",
            "ze Srebrnym",
        ),
    }[lang]
    for term in terms:
        assert term in texts, term


# ---------------------------------------------------------------------------- grammar
def test_plural_forms():
    uk, pl = get_lang("uk"), get_lang("pl")
    assert [format(Count(n, uk.helium, "uk"), "a") for n in (1, 2, 5, 21, 12)] == [
        "1 фішку гелію",
        "2 фішки гелію",
        "5 фішок гелію",
        "21 фішку гелію",
        "12 фішок гелію",
    ]
    assert [format(Count(n, pl.helium, "pl"), "a") for n in (1, 2, 5, 22, 12)] == [
        "1 znacznik Helium",
        "2 znaczniki Helium",
        "5 znaczników Helium",
        "22 znaczniki Helium",
        "12 znaczników Helium",
    ]
    assert [format(Count(n, uk.point, "uk"), "n") for n in (1, 2, 5, -1, -10)] == [
        "1 очко",
        "2 очки",
        "5 очок",
        "-1 очко",
        "-10 очок",
    ]
    assert [format(Count(n, pl.point, "pl"), "n") for n in (1, 2, 5, -1, 31)] == [
        "1 punkt",
        "2 punkty",
        "5 punktów",
        "-1 punkt",
        "31 punktów",
    ]
    # a caste counted: genitive plural for persons from 2 on
    assert format(Count(2, uk.colours_np((13,)), "uk"), "a") == "2 золотих"
    assert format(Count(2, pl.colours_np((13,)), "pl"), "a") == "2 Złotych"
    assert [plural_form(n, "uk") for n in (1, 3, 11, 14, 22, 25)] == [0, 1, 2, 2, 1, 2]
    assert [plural_form(n, "pl") for n in (1, 3, 21, 22, 25)] == [0, 1, 2, 1, 2]


def test_plurals_in_card_texts():
    dep = lambda slug, lang: card_texts(slug, lang)["deploy"]  # noqa: E731
    bon = lambda slug, lang: card_texts(slug, lang)["end_game_bonus"]  # noqa: E731
    assert dep("deanna", "uk") == "Візьміть 1 фішку гелію."
    assert dep("uncle-narol", "uk") == "Візьміть 2 фішки гелію."
    assert render(("helium", 5), "uk") == "Візьміть 5 фішок гелію."
    assert dep("deanna", "pl") == "Zyskaj 1 znacznik Helium."
    assert dep("uncle-narol", "pl") == "Zyskaj 2 znaczniki Helium."
    assert render(("helium", 5), "pl") == "Zyskaj 5 znaczników Helium."
    assert render(("advance", 2), "uk") == "Просуньтеся на 2 поділки вперед по треку флоту."
    assert render(("advance", 1), "pl") == "Przesuń się o 1 pole do przodu na torze Floty."
    assert bon("group-counselor", "uk") == "-1 очко за кожну вигнану карту."
    assert bon("sponsor", "uk") == "2 очки за кожну вашу фішку впливу в Інституті."
    assert bon("arlus", "uk") == "25 очок, якщо не із золотими."
    assert bon("group-counselor", "pl") == "-1 punkt za każdą odrzuconą kartę."
    assert bon("sponsor", "pl") == "2 punkty za każdy swój znacznik Wpływu na Instytucie."
    assert bon("arlus", "pl") == "25 punktów, jeśli bez Złotych."


def test_rulebook_models():
    # the rulebooks' own examples of bonus text
    assert card_texts("janitor", "uk")["end_game_bonus"] == "5 очок за кожного зеленого, жовтого й синього."
    assert card_texts("garden-trained-rose", "uk")["end_game_bonus"] == "14 очок, якщо зі срібним."
    assert card_texts("janitor", "pl")["end_game_bonus"] == "5 punktów za każdego Zielonego, Żółtego i Niebieskiego."
    assert card_texts("garden-trained-rose", "pl")["end_game_bonus"] == "14 punktów, jeśli ze Srebrnym."


def test_administrator_least_and_politician_most_in_every_language():
    """The two Influence Coppers are opposites: "the least (or tied for the least)" is not
    "the most" in any language, and reads the rulebooks' terms."""
    assert card_texts("administrator", "uk")["end_game_bonus"] == (
        "15 очок, якщо ви маєте найменше фішок впливу в Інституті (або поділяєте останнє місце)."
    )
    assert card_texts("administrator", "pl")["end_game_bonus"] == (
        "15 punktów, jeśli masz najmniej znaczników Wpływu na Instytucie (lub remisujesz o ostatnie miejsce)."
    )
    for lang in ("en", *LANGS):
        admin = card_texts("administrator", lang)["end_game_bonus"]
        politician = card_texts("politician", lang)["end_game_bonus"]
        assert admin != politician, lang


@pytest.mark.parametrize("lang", LANGS)
def test_least_renders_for_every_resource(lang):
    """Least is a composable clause: every resource it may take has its words."""
    L = get_lang(lang)
    texts = {clause_text(B.Points(10, B.Least(res)), -1, L) for res in (B.FLEET, B.HELIUM, B.INFLUENCE)}
    most = {clause_text(B.Points(10, B.Most(res)), -1, L) for res in (B.FLEET, B.HELIUM, B.INFLUENCE)}
    assert len(texts) == 3 and not texts & most
    assert all("{" not in t and "(" in t for t in texts)


def test_agreement_with_the_bound_card_and_names():
    # a caste taken: masculine animate accusative; then "him"
    assert card_texts("colonel-valentin", "uk")["deploy"].startswith(
        "Перемістіть золотого з будь-якої зони безпосередньо під цю карту. Можете взяти його."
    )
    assert card_texts("colonel-valentin", "pl")["deploy"].startswith(
        "Przenieś Złotego z dowolnej lokacji bezpośrednio pod tę kartę. Możesz go zyskać."
    )
    # a card revealed: "her"
    assert card_texts("calliope", "uk")["deploy"] == (
        "Розкрийте верхню карту колоди. Призначте її горілиць в іншу зону."
    )
    # names declined: instrumental after "with", accusative after "have"
    assert card_texts("evey", "pl")["end_game_bonus"] == (
        "15 punktów, jeśli z Darrowem. -15 punktów, jeśli z Mickeyem Rzeźbiarzem."
    )
    assert card_texts("lysander", "uk")["end_game_bonus"] == (
        "20 очок, якщо ви маєте фішку володарювання, Октавію або Кассія."
    )
    assert card_texts("octavia", "uk")["end_game_bonus"] == (
        "-30 очок, якщо ви не маєте ні фішки володарювання, ні Лісандра."
    )


def test_euphony():
    assert euphony("якщо з срібним", "uk") == "якщо зі срібним"
    assert euphony("якщо з червоним", "uk") == "якщо з червоним"
    assert euphony("якщо з золотим", "uk") == "якщо із золотим"
    assert euphony("цього кольору у цій зоні", "uk") == "цього кольору в цій зоні"
    assert euphony("сірого і оранжевого", "uk") == "сірого й оранжевого"
    assert euphony("jeśli z Srebrnym", "pl") == "jeśli ze Srebrnym"
    assert euphony("jeśli z Szarym", "pl") == "jeśli z Szarym"


# ---------------------------------------------------------------------------- names
def test_names_tables_cover_every_card():
    for lang in LANGS:
        assert set(name_tables.TABLES[lang]) == {c.slug for c in CARDS}
        names = [card_name(c.index, lang) for c in CARDS]
        assert all(n.strip() for n in names)
        assert len(set(names)) == NUM_CARDS, lang


def test_ukrainian_names_are_cyrillic():
    for c in CARDS:
        name = card_name(c.index, "uk")
        assert name != c.name and re.search(r"[А-Яа-яІіЇїЄєҐґ]", name), (c.slug, name)
        assert not re.search(r"[A-Za-z]", name.replace("4D", "")), (c.slug, name)


def test_names_from_the_rulebooks():
    assert card_name("darrow", "uk") == "Дерроу"
    assert card_name("sponsor", "uk") == "Спонсор"
    assert card_name("stock-broker", "uk") == "Брокер"
    assert card_name("darrow", "pl") == "Darrow"
    assert card_name("sponsor", "pl") == "Sponsorka"
    assert card_name("stock-broker", "pl") == "Maklerka"


def test_card_name_helper():
    assert card_name(BY_SLUG["the-jackal"], "en") == "The Jackal"
    assert card_name("The Jackal", "uk") == "Шакал"
    assert card_name("the-jackal", "pl") == "Szakal"
    assert card_name("arlus") == "Arlus"
    with pytest.raises(ValueError):
        card_name("arlus", "de")
    with pytest.raises(ValueError):
        gallery("fr")


def test_gallery_is_a_fresh_copy():
    g = gallery("uk")
    g[0]["name"] = "x"
    assert gallery("uk")[0]["name"] != "x"
