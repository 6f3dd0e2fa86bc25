"""Gods and Outposts as data: every text is rendered from the effect that does the work, in
en/uk/pl, and the numbers a text states are the numbers the effect acts on (checked by
running each effect on a crafted position)."""

import re

import pytest

from redtable.rednorth import RedNorth
from redtable.rednorth.cards import CHAMPION_BONUS, NCOLOURS, PURPLE, RED, hero
from redtable.rednorth.effects import DrawExtra, DrawToHand, Effect, GainVP, PlaceGlory
from redtable.rednorth.gallery import gallery
from redtable.rednorth.gods import FREYA, GODS, LOKI, ODIN, TYR, god_text
from redtable.rednorth.outposts import OUTPOSTS, outpost_text
from redtable.rednorth.party import GLORY_SHIFT
from redtable.rednorth.resolution import party_points
from redtable.rednorth.scenario import goto_turn, parse_slot, refresh, set_hand, set_party

LANGS = ("en", "uk", "pl")
# Numbers every text may print whatever the effect's numbers ("Turn 1 card", "any 1 Jarl").
FIXED = {"1"}


def numbers_in(text: str) -> set[str]:
    return set(re.findall(r"\d+", text))


def ragnarok(god: int, players: int = 3, seed: int = 0):
    s = RedNorth(players).new_initial_state(seed)
    goto_turn(s, 0, round=3)
    s.god[0] = god
    refresh(s)
    return s


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_is_rendered_from_its_effect(lang):
    g = gallery(lang)
    for god, item in zip(GODS, g["gods"], strict=True):
        assert item["text"] == god.effect.text(lang) == god_text(god.slug, lang)
        assert "{" not in item["text"] and item["text"].strip()
        assert {str(n) for n in god.effect.numbers} <= numbers_in(item["text"])
        assert numbers_in(item["text"]) <= {str(n) for n in god.effect.numbers} | FIXED, god.slug
    for outpost, item in zip(OUTPOSTS, g["outposts"], strict=True):
        parts = [e for e in (outpost.resolution, outpost.after_deployment) if e is not None]
        assert parts, outpost.name
        assert item["text"] == outpost_text(outpost.colour, lang)
        for e in parts:
            assert e.text(lang) in item["text"]
            assert {str(n) for n in e.numbers} <= numbers_in(item["text"])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("effect_type", [GainVP, DrawToHand, PlaceGlory, DrawExtra])
def test_a_text_follows_its_number(effect_type, lang):
    """Another number makes another text, in the plural form the number asks for."""
    texts = {n: effect_type(n).text(lang) for n in (1, 2, 3, 5, 11, 22)}
    for n, text in texts.items():
        assert str(n) in numbers_in(text) and "{" not in text
    assert len(set(texts.values())) == len(texts)


def test_english_plural_forms():
    assert DrawToHand(1).text() == "Draw 1 card from the deck and add it to your hand."
    assert DrawToHand(4).text() == "Draw 4 cards from the deck and add them to your hand."
    assert "2 Glory tokens" in PlaceGlory(2).text() and "1 Glory token " in PlaceGlory(1).text()


def test_unknown_language_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="'de'.*en, uk, pl"):
        GODS[0].effect.text("de")
    with pytest.raises(ValueError, match="en, uk, pl"):
        god_text("odin", "de")
    with pytest.raises(ValueError, match="en, uk, pl"):
        outpost_text("red", "de")


def _number(text: str) -> int:
    found = numbers_in(text) - FIXED or numbers_in(text)
    assert len(found) == 1, text
    return int(found.pop())


@pytest.mark.parametrize("lang", LANGS)
def test_odin_gains_the_vp_his_text_says(lang):
    s = ragnarok(ODIN)
    before = s.vp[0]
    s.apply("invoke:odin")
    assert s.vp[0] - before == _number(god_text(ODIN, lang))


@pytest.mark.parametrize("lang", LANGS)
def test_tyr_draws_the_cards_his_text_says(lang):
    s = ragnarok(TYR)
    before, deck = s.hand_n[0], len(s.deck)
    assert deck >= 10
    s.apply("invoke:tyr")
    n = _number(god_text(TYR, lang))
    assert s.hand_n[0] - before == n == deck - len(s.deck) == sum(s.hands[0]) - before


@pytest.mark.parametrize("lang", LANGS)
def test_loki_places_the_glory_his_text_says(lang):
    s = ragnarok(LOKI)
    set_party(s, 0, ["+raider-red", "hero-blue"])
    s.apply("invoke:loki")
    placed = 0
    while s.decision().kind == "loki":
        s.apply(s.decision().options[0])
        placed += 1
    assert placed == _number(god_text(LOKI, lang)) == sum(x >> GLORY_SHIFT for x in s.parties[0])


@pytest.mark.parametrize("lang", LANGS)
def test_freya_draws_the_cards_her_text_says(lang):
    s = ragnarok(FREYA)
    set_party(s, 0, ["+raider-red"])
    deck = len(s.deck)
    s.apply("invoke:freya")
    s.apply("right")
    n = _number(god_text(FREYA, lang))
    assert deck - len(s.deck) == n and len(s.parties[0]) == 1 + n


@pytest.mark.parametrize("lang", LANGS)
def test_frankenland_draws_the_cards_its_text_says(lang):
    s = RedNorth(4).new_initial_state(3)
    s.colours = tuple(range(NCOLOURS))
    s.in_play = (True,) * NCOLOURS
    s.owner[PURPLE] = 1
    before = s.hand_n[1]
    note = OUTPOSTS[PURPLE].resolution.resolve(s, 1, "frankenland")
    n = _number(outpost_text(PURPLE, lang))
    assert note == {"player": 1, "count": n} and s.hand_n[1] - before == n


@pytest.mark.parametrize("lang", LANGS)
def test_rus_champion_bonus_is_what_its_text_says(lang):
    text = outpost_text("blue", lang)
    assert f"+{CHAMPION_BONUS}" in text
    out = [0] * NCOLOURS
    party_points([parse_slot("+jarl!"), parse_slot("+raider-green")], out)
    assert out[0] == 2 + CHAMPION_BONUS


def test_a_new_god_is_one_entry():
    """An effect built with another number does what its text says, on the engine's state."""
    s = ragnarok(ODIN)
    effect: Effect = GainVP(5)
    assert "5" in effect.text("uk") and "5" in effect.text("pl") and effect.text() == "Gain 5 VP."
    before = s.vp[2]
    assert effect.run(s, 2, "odin") is False
    assert s.vp[2] - before == 5 and s.events[-1].data == {"player": 2, "vp": 5}


def test_thor_and_outpost_tokens_act_as_written():
    s = ragnarok(0)
    s.set_aside = hero(RED)
    set_hand(s, 0, [])
    refresh(s)
    s.apply("invoke:thor")
    assert s.hands[0][hero(RED)] == 1
    for outpost, field in ((OUTPOSTS[0], "tiebreaker"), (OUTPOSTS[1], "first"), (OUTPOSTS[2], "champion")):
        assert outpost.resolution.resolve(s, 2, outpost.slug) is None
        assert getattr(s, field) == 2
    assert OUTPOSTS[0].resolution.ragnarok and not OUTPOSTS[1].resolution.ragnarok
    assert [o.timing for o in OUTPOSTS][:2] == [("resolution-d",), ("resolution-d", "after-deployment")]
