"""Red North God, Outpost and card kind names and texts in English, Ukrainian and Polish."""

from __future__ import annotations

import re

import pytest

from redtable.rednorth.cards import COLOURS, KINDS, kind_name, kind_text
from redtable.rednorth.gallery import gallery
from redtable.rednorth.gods import GODS, TYR, god_name, god_text
from redtable.rednorth.outposts import OUTPOSTS, outpost_name, outpost_text

CYRILLIC = re.compile(r"[А-Яа-яІіЇїЄєҐґ]")


def test_english_gallery_is_what_the_api_served():
    g = gallery("en")
    assert g == {
        "colours": list(COLOURS),
        "kinds": [
            {
                "card": k.slug,
                "name": k.name,
                "name_acc": k.name,
                "name_ins": k.name,
                "type": k.type,
                "colour": k.colour_name,
                "points": k.points,
                "text": k.text,
            }
            for k in KINDS
        ],
        "gods": [{"god": x.slug, "name": x.name, "name_acc": x.name, "text": x.text} for x in GODS],
        "outposts": [{"colour": COLOURS[i], "name": o.name, "text": o.text} for i, o in enumerate(OUTPOSTS)],
    }


@pytest.mark.parametrize("lang", ["uk", "pl"])
def test_every_name_and_text(lang):
    g, en = gallery(lang), gallery("en")
    assert [x["god"] for x in g["gods"]] == [x["god"] for x in en["gods"]]
    for section in ("kinds", "gods", "outposts"):
        for item, item_en in zip(g[section], en[section], strict=True):
            assert item["name"].strip() and item["text"].strip()
            assert item["text"] != item_en["text"]
            assert "{" not in item["text"] and "}" not in item["text"]
            if lang == "uk":
                assert CYRILLIC.search(item["name"]) and not re.search(r"[A-Za-z]", item["name"] + item["text"])
    assert len({x["name"] for x in g["gods"]}) == len(GODS)
    assert len({x["name"] for x in g["outposts"]}) == len(OUTPOSTS)


def test_spot_names():
    assert god_name("odin", "uk") == "Одін" and god_name("odin", "pl") == "Odyn"
    assert god_name(TYR, "en") == "Tyr"
    assert outpost_name("blue", "uk") == "Русь" and outpost_name("blue", "pl") == "Ruś"
    assert outpost_name(0, "en") == "Vinland"
    assert kind_name("raider-green", "uk") == "Зелений рейдер"
    assert kind_name("hero-blue", "pl") == "Niebieski Bohater"


def test_kinds_decline_as_persons():
    """Raiders, Heroes and Jarls are persons: the accusative is the genitive, and Polish keeps
    its capitals in every case."""
    assert kind_name("raider-yellow", "uk", "a") == "жовтого рейдера"
    assert kind_name("raider-purple", "uk", "i") == "фіолетовим рейдером"
    assert kind_name("hero-blue", "uk", "a") == "синього героя" and kind_name("hero-blue", "uk", "i") == "синім героєм"
    assert kind_name("jarl", "uk", "a") == "ярла" and kind_name("jarl", "uk", "i") == "ярлом"
    assert kind_name("raider-red", "pl", "a") == "Czerwonego Najeźdźcę"
    assert kind_name("raider-purple", "pl", "i") == "Fioletowym Najeźdźcą"
    assert kind_name("hero-yellow", "pl", "a") == "Żółtego Bohatera"
    assert kind_name("hero-green", "pl", "i") == "Zielonym Bohaterem"
    assert kind_name("jarl", "pl", "a") == "Jarla" and kind_name("jarl", "pl", "i") == "Jarlem"
    assert kind_name("raider-red", "en", "a") == "Red Raider"
    for lang in ("uk", "pl"):
        for item in gallery(lang)["kinds"]:
            assert item["name_acc"] == kind_name(item["card"], lang, "a") != item["name"]
            assert item["name_ins"] == kind_name(item["card"], lang, "i") != item["name"]
    with pytest.raises(ValueError):
        kind_name("jarl", "uk", "x")


def test_numbers_agree():
    assert god_text("tyr", "uk").startswith("Візьміть 4 карти з колоди")
    assert god_text("tyr", "pl") == "Dobierz 4 karty z talii na rękę."
    assert god_text("freya", "uk").startswith("Візьміть 1 карту з колоди")
    assert god_text("loki", "pl").startswith("Weź 2 znaczniki Chwały")
    assert "2 додаткові карти" in outpost_text("purple", "uk")
    assert "2 dodatkowe karty" in outpost_text("purple", "pl")
    assert kind_text("raider-red", "uk") == "Червоний рейдер: 2 очки набігу для червоного кольору."
    assert kind_text("jarl", "pl").startswith("Jarl: +1 punkt najazdu")


def test_unknown_language():
    with pytest.raises(ValueError):
        gallery("de")
