"""The 21 Golds: every clause of every deploy ability and block, on exact positions."""

import pytest

import redtable.redrising.abilities  # noqa: F401  (installs every card's abilities in the engine)
import redtable.redrising.abilities_gold as gold
from redtable.redrising.cards import BY_SLUG, NUM_CARDS
from redtable.redrising.effects import render
from redtable.redrising.rules import BLOCK_STEAL_BANISH, DEPLOY, END_OF_GAME
from redtable.redrising.testing import hand_names, location_names, play
from redtable.redrising.testing import scenario as _scenario

# ---------------------------------------------------------------- helpers
FILLER = "bondilus"


def scenario(*args, **kw):
    """The shared builder, with a filler card on the Institute (unless given) so that the
    Lead's gain step is a real choice after deploying elsewhere."""
    locs = dict(kw.pop("locations", None) or {})
    locs.setdefault("institute", [FILLER])
    return _scenario(*args, locations=locs, **kw)


def all_cards(st):
    return sorted([c for h in st.hands for c in h] + [c for loc in st.locs for c in loc] + st.deck + st.banished)


def check(st):
    assert all_cards(st) == list(range(NUM_CARDS))


def banished(st):
    return {gold.SLUG[c] for c in st.banished}


def effect_logged(st, slug):
    return any(e.kind == "ability_effect" and e.data["card"] == slug for e in st.events)


def at_gain_step(st, p=0):
    d = st.decision()
    return d is not None and d.player == p and d.kind == "gain"


def empty_deck(st):
    st.banished.extend(st.deck)
    st.deck.clear()


def public(st):
    return [e for e in st.events if e.to is None]


def mentions(events, slug):
    return any(slug in repr(e.data) for e in events)


# ================================================================ Aja / Antonia
@pytest.mark.parametrize("card", ["aja", "antonia"])
def test_aja_antonia_opponent_banishes_card_of_their_choice_then_self_banish(card):
    st = scenario(3, hands={0: [card], 1: ["trigg", "eo"], 2: ["helga"]}, locations={"mars": ["sefi"]})
    play(st, card, "mars")
    d = st.decision()
    assert d.player == 0 and d.kind == "choose_opponent" and set(d.options) == {"p1", "p2"}
    play(st, "p1")
    d = st.decision()
    assert d.player == 1 and d.kind == "banish_from_hand" and set(d.options) == {"trigg", "eo"}
    assert "trigg" not in repr(d.context) and "eo" not in repr(d.context)
    play(st, "eo")
    assert hand_names(st, 1) == ["trigg"] and {"eo", card} <= banished(st)
    assert location_names(st, "mars") == ["sefi"]
    assert at_gain_step(st) and effect_logged(st, card)
    check(st)


@pytest.mark.parametrize("card", ["aja", "antonia"])
def test_aja_antonia_opponent_without_cards_still_banishes_self(card):
    st = scenario(2, hands={0: [card], 1: []})
    play(st, card, "mars")  # the only opponent is chosen at once
    assert card in banished(st) and len(st.banished) == 1
    assert at_gain_step(st)
    check(st)


@pytest.mark.parametrize("blocker", ["the-howlers", "pax-au-telemanus", "judge"])
def test_aja_blocked(blocker):
    st = scenario(2, hands={0: ["aja"], 1: [blocker, "eo"]})
    play(st, "aja", "mars")
    d = st.decision()
    assert d.player == 1 and d.kind == "block" and d.options == (f"block:{blocker}", "no")
    play(st, f"block:{blocker}")
    assert hand_names(st, 1) == sorted([blocker, "eo"])
    assert banished(st) == {"aja"}  # the card is still spent
    assert any(e.kind == "block" and e.data["card"] == blocker for e in st.events)
    assert all(BY_SLUG[blocker] in k for k in st.known)
    assert at_gain_step(st)


def test_aja_block_declined():
    st = scenario(2, hands={0: ["aja"], 1: ["the-howlers", "eo"]})
    play(st, "aja", "mars", "no", "the-howlers")
    assert hand_names(st, 1) == ["eo"] and banished(st) == {"aja", "the-howlers"}


def test_aja_multiplayer_variant_targets_only_players_above_starting_hand():
    five = ["trigg", "eo", "helga", "sefi", "ragnar"]
    st = scenario(
        3, hands={0: ["aja"], 1: five, 2: ["dancer", "darrow", "deanna", "harmony", "arlus", "orator"]}, variant=True
    )
    play(st, "aja", "mars")
    d = st.decision()  # p1 (5 cards) cannot be chosen: p2 is chosen at once
    assert d.player == 2 and d.kind == "banish_from_hand"
    play(st, "orator")
    assert "orator" in banished(st) and "aja" in banished(st)


def test_aja_multiplayer_variant_nobody_targetable_card_stays():
    st = scenario(3, hands={0: ["aja"], 1: ["trigg"], 2: []}, variant=True)
    play(st, "aja", "mars")
    assert location_names(st, "mars") == ["aja"] and not st.banished
    assert at_gain_step(st) and not effect_logged(st, "aja")


# ================================================================ Ash Lord
def test_ash_lord_banishes_all_blues_here_and_regains_itself_on_two():
    st = scenario(2, hands={0: ["ash-lord"]}, locations={"mars": ["invictus", "trigg", "orion"], "luna": ["virga"]})
    play(st, "ash-lord", "mars")
    assert banished(st) == {"invictus", "orion"}
    assert location_names(st, "mars") == ["trigg"] and location_names(st, "luna") == ["virga"]
    assert "ash-lord" in hand_names(st, 0)
    assert at_gain_step(st) and st.turn.deployed == 1  # still deployed to Mars
    check(st)


def test_ash_lord_one_blue_stays():
    st = scenario(2, hands={0: ["ash-lord"]}, locations={"mars": ["invictus", "trigg"]})
    play(st, "ash-lord", "mars")
    assert banished(st) == {"invictus"} and location_names(st, "mars") == ["trigg", "ash-lord"]


def test_ash_lord_no_blue_nothing_happens():
    st = scenario(2, hands={0: ["ash-lord"]}, locations={"mars": ["trigg"], "jupiter": ["invictus", "orion"]})
    play(st, "ash-lord", "mars")
    assert not st.banished and location_names(st, "mars") == ["trigg", "ash-lord"]
    assert at_gain_step(st) and not effect_logged(st, "ash-lord")


def test_ash_lord_face_down_blue_is_colourless():
    st = scenario(2, hands={0: ["ash-lord"]}, locations={"mars": ["invictus", "orion", "pelus"]}, facedown={"orion": 0})
    play(st, "ash-lord", "mars")
    assert banished(st) == {"invictus", "pelus"} and "ash-lord" in hand_names(st, 0)
    assert location_names(st, "mars") == ["orion"]


# ================================================================ Boneriders / The Jackal
@pytest.mark.parametrize("card", ["boneriders", "the-jackal"])
def test_gain_sovereign(card):
    st = scenario(2, hands={0: [card]}, sovereign=1)
    play(st, card, "mars")
    assert st.sovereign == 0 and st.influence[0] == 1  # Diana's house ability
    assert at_gain_step(st) and effect_logged(st, card)


@pytest.mark.parametrize("card", ["boneriders", "the-jackal"])
def test_gain_sovereign_blocked_by_martyr(card):
    st = scenario(2, hands={0: [card], 1: ["martyr"]}, sovereign=1, deck_top=["eo"])
    play(st, card, "mars")
    d = st.decision()
    assert d.player == 1 and d.kind == "block_sovereign"
    play(st, "block:martyr")
    assert st.sovereign == 1 and hand_names(st, 1) == ["eo"] and "martyr" in banished(st)


# ================================================================ Cassius
def test_cassius_gains_gold_under_and_stays():
    st = scenario(2, hands={0: ["cassius"]}, locations={"mars": ["trigg", "lorn"]})
    play(st, "cassius", "mars")
    assert hand_names(st, 0) == ["lorn"] and location_names(st, "mars") == ["trigg", "cassius"]
    assert at_gain_step(st)


def test_cassius_gains_non_gold_and_is_banished():
    st = scenario(2, hands={0: ["cassius"]}, locations={"mars": ["lorn", "trigg"]})
    play(st, "cassius", "mars")
    assert hand_names(st, 0) == ["trigg"] and banished(st) == {"cassius"}
    assert location_names(st, "mars") == ["lorn"] and at_gain_step(st)


def test_cassius_nothing_under_is_ignored():
    st = scenario(2, hands={0: ["cassius"]})
    play(st, "cassius", "mars")
    assert location_names(st, "mars") == ["cassius"] and not st.banished and at_gain_step(st)


def test_cassius_face_down_gold_counts_as_no_gold():
    st = scenario(2, hands={0: ["cassius"]}, locations={"mars": ["lorn"]}, facedown={"lorn": 1})
    play(st, "cassius", "mars")
    assert hand_names(st, 0) == ["lorn"] and banished(st) == {"cassius"}
    assert not any(e.to is None and e.kind == "gain" and "card" in e.data for e in st.events)


def test_cassius_override_is_this_module():
    assert DEPLOY[BY_SLUG["cassius"]][1][0] == "gold_note_c"


# ================================================================ Fitchner
def test_fitchner_on_institute_places_influence():
    st = scenario(2, hands={0: ["fitchner"]})
    play(st, "fitchner", "institute")
    assert st.influence[0] == 1 and effect_logged(st, "fitchner")


def test_fitchner_elsewhere_nothing():
    st = scenario(2, hands={0: ["fitchner"]})
    play(st, "fitchner", "luna")
    assert st.influence == [0, 0] and not effect_logged(st, "fitchner") and at_gain_step(st)


# ================================================================ Karnus
def test_karnus_banishes_card_under():
    st = scenario(2, hands={0: ["karnus"], 1: ["eo"]}, locations={"mars": ["trigg", "helga"]})
    play(st, "karnus", "mars")
    assert banished(st) == {"helga"} and location_names(st, "mars") == ["trigg", "karnus"]
    assert at_gain_step(st)  # no opponent question for a non-listed card


@pytest.mark.parametrize("victim", ["mustang", "the-jackal", "nero"])
def test_karnus_special_card_opponent_banishes(victim):
    st = scenario(3, hands={0: ["karnus"], 1: ["eo", "trigg"], 2: ["sefi"]}, locations={"mars": [victim]})
    play(st, "karnus", "mars")
    d = st.decision()
    assert d.kind == "may" and d.player == 0
    play(st, "yes", "p1")
    d = st.decision()
    assert d.player == 1 and d.kind == "banish_from_hand"
    play(st, "trigg")
    assert banished(st) == {victim, "trigg"} and hand_names(st, 1) == ["eo"]
    assert location_names(st, "mars") == ["karnus"] and at_gain_step(st)
    check(st)


def test_karnus_may_declined():
    st = scenario(2, hands={0: ["karnus"], 1: ["eo"]}, locations={"mars": ["nero"]})
    play(st, "karnus", "mars", "no")
    assert banished(st) == {"nero"} and hand_names(st, 1) == ["eo"] and at_gain_step(st)


def test_karnus_blocked_by_howlers():
    st = scenario(2, hands={0: ["karnus"], 1: ["eo", "the-howlers"]}, locations={"mars": ["mustang"]})
    play(st, "karnus", "mars", "yes")
    d = st.decision()
    assert d.player == 1 and d.kind == "block"
    play(st, "block:the-howlers")
    assert banished(st) == {"mustang"} and hand_names(st, 1) == ["eo", "the-howlers"]


def test_karnus_variant_no_target_no_question():
    st = scenario(3, hands={0: ["karnus"], 1: ["eo"], 2: ["trigg"]}, locations={"mars": ["mustang"]}, variant=True)
    play(st, "karnus", "mars")
    assert banished(st) == {"mustang"} and at_gain_step(st)


def test_karnus_nothing_under():
    st = scenario(2, hands={0: ["karnus"]})
    play(st, "karnus", "mars")
    assert not st.banished and location_names(st, "mars") == ["karnus"] and at_gain_step(st)


def test_karnus_face_down_card_under_is_banished_face_up():
    st = scenario(2, hands={0: ["karnus"], 1: ["eo"]}, locations={"mars": ["nero"]}, facedown={"nero": 1})
    play(st, "karnus", "mars")
    assert banished(st) == {"nero"} and st.decision().kind == "may"  # banished cards are face up


# ================================================================ Lorn
def test_lorn_banishes_gold_under():
    st = scenario(2, hands={0: ["lorn"]}, locations={"mars": ["trigg", "nero"]})
    play(st, "lorn", "mars")
    assert banished(st) == {"nero"} and location_names(st, "mars") == ["trigg", "lorn"] and at_gain_step(st)


def test_lorn_non_gold_under_stays():
    st = scenario(2, hands={0: ["lorn"]}, locations={"mars": ["nero", "trigg"]})
    play(st, "lorn", "mars")
    assert not st.banished and location_names(st, "mars") == ["nero", "trigg", "lorn"]
    assert not effect_logged(st, "lorn")


def test_lorn_nothing_under_and_face_down_gold():
    st = scenario(2, hands={0: ["lorn"]})
    play(st, "lorn", "mars")
    assert not st.banished and at_gain_step(st)
    st = scenario(2, hands={0: ["lorn"]}, locations={"mars": ["nero"]}, facedown={"nero": 1})
    play(st, "lorn", "mars")
    assert not st.banished


# ================================================================ Lysander
def test_lysander_on_luna_gains_top_of_deck_and_stays():
    st = scenario(2, hands={0: ["lysander"]}, deck_top=["eo", "trigg"])
    play(st, "lysander", "luna")
    assert hand_names(st, 0) == ["eo"] and location_names(st, "luna") == ["lysander"]
    seen = [e for e in st.events if e.kind == "gain_seen"]
    assert seen and seen[-1].to == (0,) and seen[-1].data["card"] == "eo"
    assert not mentions([e for e in public(st) if e.kind == "gain"], "eo")
    assert at_gain_step(st)


def test_lysander_elsewhere_is_banished():
    st = scenario(2, hands={0: ["lysander"]}, deck_top=["eo"])
    play(st, "lysander", "mars")
    assert hand_names(st, 0) == ["eo"] and banished(st) == {"lysander"} and at_gain_step(st)


def test_lysander_empty_deck_ignored():
    st = scenario(2, hands={0: ["lysander"]}, locations={"mars": ["trigg"]})
    empty_deck(st)
    n = len(st.banished)
    play(st, "lysander", "jupiter")
    assert len(st.banished) == n and location_names(st, "jupiter") == ["lysander"] and at_gain_step(st)
    check(st)


# ================================================================ Mustang
def test_mustang_gains_banished_gold_and_stays():
    st = scenario(2, hands={0: ["mustang"]}, banished=["nero", "trigg"])
    play(st, "mustang", "mars")
    d = st.decision()
    assert d.kind == "choose_banished" and set(d.options) == {"nero", "trigg"}
    play(st, "nero")
    assert hand_names(st, 0) == ["nero"] and banished(st) == {"trigg"}
    assert location_names(st, "mars") == ["mustang"] and at_gain_step(st)


def test_mustang_gains_non_gold_and_is_banished():
    st = scenario(2, hands={0: ["mustang"]}, banished=["nero", "trigg"])
    play(st, "mustang", "mars", "trigg")
    assert hand_names(st, 0) == ["trigg"] and banished(st) == {"nero", "mustang"}
    check(st)


def test_mustang_empty_banished_pile_ignored():
    st = scenario(2, hands={0: ["mustang"]})
    play(st, "mustang", "mars")
    assert location_names(st, "mars") == ["mustang"] and not st.banished and at_gain_step(st)


# ================================================================ Nero
def test_nero_helium_per_red_here():
    st = scenario(2, hands={0: ["nero"]}, locations={"mars": ["eo", "trigg", "darrow"], "jupiter": ["dancer"]})
    play(st, "nero", "jupiter")
    assert st.helium[0] == 1
    st = scenario(2, hands={0: ["nero"]}, locations={"mars": ["eo", "trigg", "darrow"], "jupiter": ["dancer"]})
    play(st, "nero", "mars")
    assert st.helium[0] == 2 and at_gain_step(st)


def test_nero_no_red_and_face_down_red():
    st = scenario(2, hands={0: ["nero"]}, locations={"mars": ["trigg", "eo"]}, facedown={"eo": 1})
    play(st, "nero", "mars")
    assert st.helium == [0, 0] and not effect_logged(st, "nero") and at_gain_step(st)


# ================================================================ Octavia
def test_octavia_with_sovereign_gains_bottom_of_luna_non_gold_banished():
    st = scenario(2, hands={0: ["octavia"]}, locations={"luna": ["trigg", "nero"]}, sovereign=0)
    play(st, "octavia", "mars")
    assert hand_names(st, 0) == ["trigg"] and banished(st) == {"octavia"}
    assert location_names(st, "luna") == ["nero"] and at_gain_step(st)


def test_octavia_gold_at_bottom_stays():
    st = scenario(2, hands={0: ["octavia"]}, locations={"luna": ["nero", "trigg"]}, sovereign=0)
    play(st, "octavia", "luna")
    assert hand_names(st, 0) == ["nero"] and location_names(st, "luna") == ["trigg", "octavia"]


def test_octavia_without_sovereign_nothing():
    st = scenario(2, hands={0: ["octavia"]}, locations={"luna": ["trigg"]}, sovereign=1)
    play(st, "octavia", "mars")
    assert hand_names(st, 0) == [] and not st.banished and location_names(st, "mars") == ["octavia"]


def test_octavia_alone_on_luna_or_empty_luna():
    st = scenario(2, hands={0: ["octavia"]}, sovereign=0)
    play(st, "octavia", "luna")  # the bottom card is Octavia herself
    assert location_names(st, "luna") == ["octavia"] and not st.banished
    st = scenario(2, hands={0: ["octavia"]}, sovereign=0)
    play(st, "octavia", "mars")
    assert location_names(st, "mars") == ["octavia"] and not st.banished and at_gain_step(st)


# ================================================================ Romulus
def test_romulus_gains_blue_not_on_gold_banished():
    st = scenario(2, hands={0: ["romulus"]}, locations={"mars": ["nero", "invictus"]})
    play(st, "romulus", "mars")
    assert hand_names(st, 0) == ["invictus"] and banished(st) == {"romulus"}
    assert location_names(st, "mars") == ["nero"] and at_gain_step(st)


def test_romulus_on_gold_stays_and_chooses_blue():
    st = scenario(2, hands={0: ["romulus"]}, locations={"mars": ["invictus", "orion", "nero"]})
    play(st, "romulus", "mars")
    d = st.decision()
    assert d.kind == "choose_card" and set(d.options) == {"mars:0", "mars:1"}  # mandatory: no "none"
    play(st, "mars:1")
    assert hand_names(st, 0) == ["orion"] and location_names(st, "mars") == ["invictus", "nero", "romulus"]


def test_romulus_no_blue_ignored():
    st = scenario(2, hands={0: ["romulus"]}, locations={"mars": ["trigg"], "luna": ["invictus"]})
    play(st, "romulus", "mars")
    assert not st.banished and location_names(st, "mars") == ["trigg", "romulus"] and at_gain_step(st)


# ================================================================ Roque
def test_roque_looks_names_and_selection_misses():
    st = scenario(3, hands={0: ["roque"], 1: ["eo", "trigg", "helga"], 2: ["sefi"]})
    play(st, "roque", "mars", "p1")
    seen = [e for e in st.events if e.kind == "hand_seen"]
    assert len(seen) == 1 and seen[0].to == (0,) and sorted(seen[0].data["cards"]) == ["eo", "helga", "trigg"]
    assert {BY_SLUG[s] for s in ("eo", "trigg", "helga")} <= st.known[0]
    assert not any(BY_SLUG["eo"] in st.known[q] for q in (2,))
    d = st.decision()
    assert d.player == 0 and d.kind == "name_card" and set(d.options) == {"eo", "trigg", "helga"}
    hand = st.hands[1]
    picked = hand[st.rng.clone().below(len(hand))]
    other = next(c for c in hand if c != picked)
    play(st, gold.SLUG[other])
    assert not st.banished and location_names(st, "mars") == ["roque"] and len(st.hands[1]) == 3
    # the hand, the name and the pick are private to the two players involved
    for s in ("eo", "trigg", "helga"):
        assert not mentions(public(st), s)
    assert all(e.to in ((0,), (0, 1)) for e in st.events if e.kind in ("hand_seen", "name_card", "random_pick_seen"))
    assert at_gain_step(st)


def test_roque_selects_named_card_banishes_both():
    st = scenario(2, hands={0: ["roque"], 1: ["eo", "trigg"]})
    play(st, "roque", "mars")  # single opponent chosen at once
    hand = st.hands[1]
    picked = gold.SLUG[hand[st.rng.clone().below(len(hand))]]
    play(st, picked)
    assert banished(st) == {picked, "roque"} and len(st.hands[1]) == 1 and at_gain_step(st)
    check(st)


def test_roque_single_card_hand_is_forced():
    st = scenario(2, hands={0: ["roque"], 1: ["eo"]})
    play(st, "roque", "mars")
    assert banished(st) == {"eo", "roque"}


def test_roque_blocked():
    st = scenario(2, hands={0: ["roque"], 1: ["pax-au-telemanus", "trigg"]})
    play(st, "roque", "mars")
    hand = st.hands[1]
    picked = gold.SLUG[hand[st.rng.clone().below(len(hand))]]
    play(st, picked)
    d = st.decision()
    assert d.player == 1 and d.kind == "block"
    play(st, "block:pax-au-telemanus")
    assert hand_names(st, 1) == ["pax-au-telemanus", "trigg"] and banished(st) == {"roque"}


def test_roque_empty_hand_and_variant():
    st = scenario(2, hands={0: ["roque"], 1: []})
    play(st, "roque", "mars")
    assert not st.banished and location_names(st, "mars") == ["roque"] and at_gain_step(st)
    st = scenario(3, hands={0: ["roque"], 1: ["eo"], 2: ["trigg"]}, variant=True)
    play(st, "roque", "mars")
    assert not st.banished and at_gain_step(st) and not any(e.kind == "hand_seen" for e in st.events)


# ================================================================ Sevro
def test_sevro_banishes_card_under():
    st = scenario(2, hands={0: ["sevro"]}, locations={"mars": ["nero", "trigg"]})
    play(st, "sevro", "mars")
    assert banished(st) == {"trigg"} and location_names(st, "mars") == ["nero", "sevro"] and at_gain_step(st)


def test_sevro_reveal_howlers_to_gain_instead():
    st = scenario(2, hands={0: ["sevro", "the-howlers"]}, locations={"mars": ["trigg"]})
    play(st, "sevro", "mars")
    d = st.decision()
    assert d.kind == "may" and d.player == 0
    play(st, "yes")
    assert hand_names(st, 0) == ["the-howlers", "trigg"] and not st.banished
    assert any(e.kind == "reveal" and e.to is None and e.data["card"] == "the-howlers" for e in st.events)
    assert all(BY_SLUG["the-howlers"] in k for k in st.known) and at_gain_step(st)


def test_sevro_reveal_declined():
    st = scenario(2, hands={0: ["sevro", "the-howlers"]}, locations={"mars": ["trigg"]})
    play(st, "sevro", "mars", "no")
    assert hand_names(st, 0) == ["the-howlers"] and banished(st) == {"trigg"}


def test_sevro_nothing_under():
    st = scenario(2, hands={0: ["sevro", "the-howlers"]})
    play(st, "sevro", "mars")
    assert not st.banished and at_gain_step(st)


# ================================================================ Tactus
def test_tactus_steals_card_they_choose_banishes_and_ends_turn():
    st = scenario(3, hands={0: ["tactus"], 1: ["eo", "trigg"], 2: ["sefi"]})
    play(st, "tactus", "mars")
    d = st.decision()
    assert d.kind == "may" and d.player == 0
    play(st, "yes")
    assert st.decision().kind == "choose_opponent"
    play(st, "p1")
    d = st.decision()
    assert d.player == 1 and d.kind == "steal_choice" and set(d.options) == {"eo", "trigg"}
    play(st, "trigg")
    assert hand_names(st, 0) == ["trigg"] and hand_names(st, 1) == ["eo"] and banished(st) == {"tactus"}
    d = st.decision()
    assert d.player == 1 and d.kind == "action"  # turn ended: no gain step
    assert not mentions([e for e in public(st) if e.kind == "steal"], "trigg")
    assert [e.to for e in st.events if e.kind == "steal_seen"] == [(0, 1)]
    check(st)


def test_tactus_declined():
    st = scenario(2, hands={0: ["tactus"], 1: ["eo"]})
    play(st, "tactus", "mars", "no")
    assert hand_names(st, 1) == ["eo"] and location_names(st, "mars") == ["tactus"] and at_gain_step(st)


def test_tactus_blocked_no_steal_turn_goes_on():
    st = scenario(2, hands={0: ["tactus"], 1: ["eo", "the-howlers"]})
    play(st, "tactus", "mars", "yes")
    d = st.decision()
    assert d.player == 1 and d.kind == "block"
    play(st, "block:the-howlers")
    assert hand_names(st, 0) == [] and location_names(st, "mars") == ["tactus"] and at_gain_step(st)


def test_tactus_impossible_and_variant():
    st = scenario(2, hands={0: ["tactus"], 1: []})
    play(st, "tactus", "mars")
    assert at_gain_step(st) and location_names(st, "mars") == ["tactus"]
    st = scenario(3, hands={0: ["tactus"], 1: ["eo"], 2: ["trigg"]}, variant=True)
    play(st, "tactus", "mars")
    assert at_gain_step(st)
    six = ["dancer", "darrow", "deanna", "harmony", "arlus", "orator"]
    st = scenario(3, hands={0: ["tactus"], 1: ["eo"], 2: six}, variant=True)
    play(st, "tactus", "mars", "yes")  # p2 is the only target: chosen at once
    assert st.decision().player == 2 and st.decision().kind == "steal_choice"


# ================================================================ blocks only
@pytest.mark.parametrize("card", ["pax-au-telemanus", "the-howlers"])
def test_blockers_have_no_deploy_ability(card):
    assert BY_SLUG[card] in BLOCK_STEAL_BANISH and BY_SLUG[card] not in DEPLOY
    st = scenario(2, hands={0: [card]})
    play(st, card, "mars")
    assert at_gain_step(st) and not any(e.kind == "ability" for e in st.events)


def test_block_only_against_opponents():
    # your own blocker does not interfere with your own abilities
    st = scenario(2, hands={0: ["sevro", "the-howlers", "pax-au-telemanus"]}, locations={"mars": ["trigg"]})
    play(st, "sevro", "mars", "no")
    assert banished(st) == {"trigg"}


# ================================================================ The Telemanuses
def test_telemanuses_moves_stack_in_order():
    st = scenario(2, hands={0: ["the-telemanuses"]}, locations={"mars": ["eo", "trigg", "nero"], "luna": ["sefi"]})
    play(st, "the-telemanuses", "mars")
    d = st.decision()
    assert d.kind == "move_location" and set(d.options) == {"jupiter", "luna", "institute"}
    play(st, "luna")
    assert location_names(st, "luna") == ["sefi", "eo", "trigg", "nero"]
    assert location_names(st, "mars") == ["the-telemanuses"]
    assert st.turn.deployed == 1 and at_gain_step(st)
    assert "luna" in st.decision().options  # gain from another location than Mars
    check(st)


def test_telemanuses_face_down_stays_hidden():
    st = scenario(2, hands={0: ["the-telemanuses"]}, locations={"mars": ["eo"]}, facedown={"eo": 1})
    play(st, "the-telemanuses", "mars", "jupiter")
    assert location_names(st, "jupiter") == ["eo"] and BY_SLUG["eo"] in st.facedown
    assert not mentions([e for e in public(st) if e.kind == "move"], "eo")


def test_telemanuses_nothing_under():
    st = scenario(2, hands={0: ["the-telemanuses"]})
    play(st, "the-telemanuses", "mars")
    assert at_gain_step(st) and not effect_logged(st, "the-telemanuses")


# ================================================================ Victra
def test_victra_gains_bottom_not_on_gold_banished():
    st = scenario(2, hands={0: ["victra"]}, locations={"mars": ["nero", "trigg"]})
    play(st, "victra", "mars")
    assert hand_names(st, 0) == ["nero"] and banished(st) == {"victra"}
    assert location_names(st, "mars") == ["trigg"] and at_gain_step(st)


def test_victra_on_gold_stays():
    st = scenario(2, hands={0: ["victra"]}, locations={"mars": ["trigg", "nero"]})
    play(st, "victra", "mars")
    assert hand_names(st, 0) == ["trigg"] and location_names(st, "mars") == ["nero", "victra"]
    st = scenario(2, hands={0: ["victra"]}, locations={"mars": ["nero"]})
    play(st, "victra", "mars")  # the bottom card is the Gold she lies on
    assert hand_names(st, 0) == ["nero"] and location_names(st, "mars") == ["victra"]


def test_victra_empty_location_ignored():
    st = scenario(2, hands={0: ["victra"]})
    play(st, "victra", "mars")
    assert location_names(st, "mars") == ["victra"] and not st.banished and at_gain_step(st)


# ================================================================ the data
PRINTED_KEYWORDS = {
    "aja": ["choose an opponent", "banish 1 of their cards", "banish this card"],
    "antonia": ["choose an opponent", "banish 1 of their cards", "banish this card"],
    "ash-lord": ["banish all blues from this location", "2 or more blues", "regain"],
    "boneriders": ["gain the sovereign token"],
    "cassius": ["gain the card directly under this one", "banish", "unless that card is a gold"],
    "fitchner": ["institute", "place 1 influence"],
    "karnus": [
        "banish the card directly under this one",
        "mustang, the jackal or nero",
        "you may",
        "choose an opponent",
        "banish 1 of their cards",
    ],
    "lorn": ["if the card directly under this one is a gold, banish that card"],
    "lysander": ["gain the top card of the deck", "banish", "unless", "luna"],
    "mustang": ["gain 1 banished card", "if that card is not a gold, banish"],
    "nero": ["gain 1 helium for each red at this location"],
    "octavia": [
        "if you have the sovereign token",
        "bottom card on luna (if it's not this card)",
        "banish",
        "unless that card is a gold",
    ],
    "romulus": ["gain a blue from this location", "banish", "unless", "directly on top of a gold"],
    "roque": [
        "look at",
        "their hand",
        "name a card",
        "randomly select a card from their hand",
        "if you select the named card, banish",
    ],
    "sevro": ["banish the card directly under this one", "you may reveal the howlers to instead gain that card"],
    "tactus": ["you may", "steal 1 card", "they choose the card", "if you do, banish this card and end your turn"],
    "the-jackal": ["gain the sovereign token"],
    "the-telemanuses": [
        "move all cards under this card from this location to the top of another location",
        "same order",
    ],
    "victra": ["gain the bottom card of this location (if it's not this card)", "banish", "unless", "on top of a gold"],
}


@pytest.mark.parametrize("slug", sorted(PRINTED_KEYWORDS))
def test_rendered_text_reads_like_the_card(slug):
    text = render(DEPLOY[BY_SLUG[slug]]).lower()
    for words in PRINTED_KEYWORDS[slug]:
        assert words in text, (slug, words, text)


def test_every_gold_is_encoded():
    for slug in gold.GOLD_SLUGS:
        c = BY_SLUG[slug]
        assert (c in DEPLOY) != (c in BLOCK_STEAL_BANISH), slug
        assert c not in END_OF_GAME
    assert len(gold.GOLD_SLUGS) == 21
