"""Red Rising rules: setup, Lead, Scout, bonuses, the Rising die, houses, Sovereign, game end."""

import json

import pytest

from redtable.core import IllegalAction
from redtable.redrising.board import HOUSE_NAMES
from redtable.redrising.cards import BY_SLUG, NUM_CARDS
from redtable.redrising.game import RedRising
from redtable.redrising.testing import hand_names, location_names, play, scenario


def all_cards(st):
    cards = [c for h in st.hands for c in h] + [c for loc in st.locs for c in loc] + st.deck + st.banished
    return sorted(cards)


def kinds(st, since=0):
    return [e.kind for e in st.events[since:]]


# ---------------------------------------------------------------- setup
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup(players):
    st = RedRising(players).new_initial_state(11)
    assert all_cards(st) == list(range(NUM_CARDS))
    assert [len(loc) for loc in st.locs] == [2, 2, 2, 2]
    for p in range(players):
        expected = 6 if HOUSE_NAMES[st.houses[p]] == "ceres" else 5
        assert len(st.hands[p]) == expected
    assert st.fleet == [0] * players and st.helium == [0] * players and st.influence == [0] * players
    assert st.neutral == (3 if players == 2 else 0)
    assert len(set(st.houses)) == players
    assert st.sovereign == -1
    assert st.decision().player == st.first and st.decision().kind == "action"


def test_apollo_goes_first_and_houses_are_random():
    seen_first_apollo, houses = 0, set()
    for seed in range(60):
        st = RedRising(4).new_initial_state(seed)
        houses.add(st.houses)
        if "apollo" in [HOUSE_NAMES[h] for h in st.houses]:
            assert HOUSE_NAMES[st.houses[st.first]] == "apollo"
            seen_first_apollo += 1
    assert seen_first_apollo > 10 and len(houses) > 20


def test_first_player_random_without_apollo():
    firsts = set()
    for seed in range(200):
        st = RedRising(2).new_initial_state(seed)
        if "apollo" not in [HOUSE_NAMES[h] for h in st.houses]:
            firsts.add(st.first)
    assert firsts == {0, 1}


def test_same_seed_same_setup():
    assert RedRising(5).new_initial_state(3).view(0) == RedRising(5).new_initial_state(3).view(0)
    assert RedRising(5).new_initial_state(3).deck == RedRising(5).new_initial_state(3).deck


# ---------------------------------------------------------------- lead
def test_lead_deploys_then_gains_from_another_location_with_its_bonus():
    st = scenario(
        2,
        hands={0: ["Lorn"]},
        locations={"mars": ["Judge", "Eo"], "jupiter": ["Helga"], "luna": [], "institute": ["Seer"]},
    )
    assert set(st.legal_actions()) == {"lorn", "scout"}
    play(st, "lorn")
    assert st.decision().kind == "deploy_location"
    play(st, "institute")
    assert location_names(st, "institute")[-1] == "lorn"
    d = st.decision()
    assert d.kind == "gain" and set(d.options) == {
        "jupiter",
        "mars",
        "deck",
    }  # not the deployed location, not empty Luna
    play(st, "mars")
    assert "eo" in hand_names(st, 0) and st.helium[0] == 1
    assert st.decision().player == 1  # turn passed


@pytest.mark.parametrize(
    "loc, check",
    [
        ("jupiter", lambda st: st.fleet[0] == 1),
        ("mars", lambda st: st.helium[0] == 1),
        ("institute", lambda st: st.influence[0] == 1),
        ("luna", lambda st: st.sovereign == 0),
    ],
)
def test_location_bonuses(loc, check):
    st = scenario(
        2,
        hands={0: ["Lorn"]},
        locations={"jupiter": ["Helga"], "mars": ["Eo"], "luna": ["Judge"], "institute": ["Seer"]},
        houses=["jupiter", "mars"],
    )
    target = "mars" if loc != "mars" else "luna"
    play(st, "lorn", target, loc)
    assert check(st)


def test_lead_from_deck_rolls_the_die():
    st = scenario(2, hands={0: ["Lorn"]}, locations={"mars": ["Eo"], "luna": ["Sefi"]}, deck_top=["Helga"])
    play(st, "lorn", "mars", "deck")
    assert "helga" in hand_names(st, 0)
    dice = [e for e in st.events if e.kind == "die"]
    assert len(dice) == 1 and dice[0].data["face"] in ("jupiter", "mars", "luna", "institute", "banish", "place")
    # the drawn card is shown only to its new owner
    gains = [e for e in st.events if e.kind == "gain" and e.data["source"] == "deck"]
    assert "card" not in gains[0].data
    assert [e for e in st.events if e.kind == "gain_seen"][0].to == (0,)


def test_die_faces_are_all_reachable_and_seeded():
    faces = set()
    for seed in range(80):
        st = scenario(2, hands={0: ["Lorn"]}, locations={"mars": ["Eo"], "jupiter": ["Helga"]}, seed=seed)
        play(st, "lorn", "mars", "deck")
        while st.decision().player == 0:
            play(st, st.legal_actions()[0])
        faces.add([e for e in st.events if e.kind == "die"][0].data["face"])
    assert faces == {"jupiter", "mars", "luna", "institute", "banish", "place"}


def test_empty_hand_lead_skips_deploy_and_any_location_may_be_gained():
    st = scenario(2, hands={0: []}, locations={"mars": ["Eo"], "luna": ["Helga"]})
    assert set(st.legal_actions()) == {"lead", "scout"}
    play(st, "lead")
    assert set(st.decision().options) == {"mars", "luna", "deck"}


def test_empty_deck_removes_deck_options():
    st = scenario(2, hands={0: ["Lorn"]}, locations={"mars": ["Eo"], "luna": ["Sefi"]}, rest="banished")
    # no Scout without a deck: the only choice, Lead with Lorn, is taken at once
    assert st.deck == [] and st.decision().kind == "deploy_location"
    play(st, "jupiter")
    assert set(st.decision().options) == {"mars", "luna"}  # no "deck" in the gain step


def test_scout_places_the_top_card_and_gains_the_bonus():
    st = scenario(2, hands={0: ["Lorn"]}, deck_top=["Helga"], houses=["jupiter", "mars"])
    play(st, "scout")
    d = st.decision()
    assert d.kind == "scout_location" and d.context["card"] == "helga"
    assert [e.data["card"] for e in st.events if e.kind == "reveal"] == ["helga"]
    play(st, "jupiter")
    assert location_names(st, "jupiter") == ["helga"] and st.fleet[0] == 1
    assert hand_names(st, 0) == ["lorn"]


def test_fleet_stops_at_ten_influence_at_ten_helium_unlimited():
    st = scenario(
        2,
        hands={0: ["Lorn"]},
        locations={"jupiter": ["Eo", "Helga"], "institute": ["Seer", "Judge"], "mars": ["Sefi", "Ragnar"]},
        fleet=[10, 0],
        influence=[10, 0],
        helium=[30, 0],
    )
    play(st, "lorn", "luna", "jupiter")
    assert st.fleet[0] == 10
    st2 = scenario(2, hands={0: ["Lorn"]}, locations={"institute": ["Seer"]}, influence=[10, 0])
    play(st2, "lorn", "luna", "institute")
    assert st2.influence[0] == 10
    st3 = scenario(2, hands={0: ["Lorn"]}, locations={"mars": ["Eo"]}, helium=[30, 0])
    play(st3, "lorn", "luna", "mars")
    assert st3.helium[0] == 31


# ---------------------------------------------------------------- Sovereign and houses
def _take_luna(house, **kw):
    st = scenario(
        2,
        hands={0: ["Lorn"]},
        locations={"luna": ["Judge"], "mars": ["Eo"], "jupiter": ["Helga"]},
        houses=[house, "mars" if house != "mars" else "diana"],
        deck_top=["Sefi", "Ragnar"],
        **kw,
    )
    play(st, "lorn", "institute", "luna")
    return st


def test_diana_jupiter_mars_house_abilities():
    st = _take_luna("diana")
    assert st.sovereign == 0 and st.influence[0] == 1
    st = _take_luna("jupiter")
    assert st.fleet[0] == 1
    st = _take_luna("mars")
    assert st.helium[0] == 1


def test_house_ability_triggers_even_when_already_holding_the_token():
    st = _take_luna("diana", sovereign=0)
    assert st.sovereign == 0 and st.influence[0] == 1


def test_apollo_places_the_top_card():
    st = _take_luna("apollo")
    d = st.decision()
    assert d.kind == "place_location" and d.context["card"] == "sefi" and d.player == 0
    play(st, "mars")
    assert location_names(st, "mars") == ["eo", "sefi"]


def test_ceres_banishes_any_card_of_a_location():
    st = _take_luna("ceres")
    d = st.decision()
    assert d.kind == "banish_from_location"
    assert set(d.options) == {"mars:0", "jupiter:0", "institute:0"}
    play(st, "mars:0")
    assert "eo" in [__import__("redtable.redrising.cards", fromlist=["SLUG"]).SLUG[c] for c in st.banished]


def test_minerva_rolls_and_rechooses_on_sovereign():
    outcomes = set()
    for seed in range(60):
        st = _take_luna("minerva", seed=seed)
        rolls = [e.data["face"] for e in st.events if e.kind == "die"]
        assert len(rolls) == 1
        if rolls[0] == "luna":
            d = st.decision()
            assert d.kind == "die_face" and "luna" not in d.options and len(d.options) == 5
            play(st, "mars")
            assert st.helium[0] == 1
            outcomes.add("rechoose")
        else:
            outcomes.add("plain")
    assert outcomes == {"rechoose", "plain"}


@pytest.mark.parametrize("blocker", ["Martyr", "Justice"])
def test_sovereign_block_banishes_blocker_keeps_token_and_draws(blocker):
    st = scenario(
        2,
        hands={0: ["Lorn"], 1: [blocker]},
        locations={"luna": ["Judge"]},
        sovereign=1,
        houses=["diana", "mars"],
        deck_top=["Sefi"],
    )
    play(st, "lorn", "mars", "luna")
    d = st.decision()
    assert d.player == 1 and d.kind == "block_sovereign"
    assert d.options == (f"block:{blocker.lower()}", "no")
    play(st, d.options[0])
    assert st.sovereign == 1 and st.influence[0] == 0  # no house ability for the blocked player
    assert hand_names(st, 1) == ["sefi"]
    assert blocker.lower() in [e.data["card"] for e in st.events if e.kind == "banish"]


def test_sovereign_block_declined():
    st = scenario(
        2, hands={0: ["Lorn"], 1: ["Martyr"]}, locations={"luna": ["Judge"]}, sovereign=1, houses=["diana", "mars"]
    )
    play(st, "lorn", "mars", "luna", "no")
    assert st.sovereign == 0 and st.influence[0] == 1 and hand_names(st, 1) == ["martyr"]


def test_no_block_offered_without_a_blocker_or_from_nobody():
    st = scenario(
        2, hands={0: ["Lorn"], 1: ["Judge"]}, locations={"luna": ["Eo"]}, sovereign=1, houses=["diana", "mars"]
    )
    play(st, "lorn", "mars", "luna")
    assert st.sovereign == 0


# ---------------------------------------------------------------- game end
def _finish_turn(st):
    p = st.decision().player
    while st.decision() is not None and st.decision().player == p and st.phase == "play":
        play(st, st.legal_actions()[0])


def test_two_conditions_by_one_player_trigger_the_end():
    st = scenario(
        4,
        hands={0: ["Lorn"]},
        locations={"mars": ["Eo"]},
        helium=[6, 0, 0, 0],
        fleet=[7, 0, 0, 0],
        houses=["diana", "jupiter", "mars", "minerva"],
    )
    play(st, "lorn", "luna", "mars")
    assert st.end_triggered


def test_three_conditions_by_any_combination_trigger_the_end():
    st = scenario(
        4,
        hands={0: ["Lorn"]},
        locations={"mars": ["Eo"]},
        helium=[6, 0, 0, 0],
        fleet=[0, 7, 0, 0],
        influence=[0, 0, 7, 0],
        houses=["diana", "jupiter", "mars", "minerva"],
    )
    assert not st.end_triggered
    play(st, "lorn", "luna", "mars")
    assert st.end_triggered


def test_one_condition_alone_does_not_end():
    st = scenario(
        4,
        hands={0: ["Lorn"]},
        locations={"mars": ["Eo"]},
        helium=[6, 0, 0, 0],
        fleet=[0, 7, 0, 0],
        houses=["diana", "jupiter", "mars", "minerva"],
    )
    play(st, "lorn", "luna", "mars")
    assert not st.end_triggered


def test_round_is_finished_then_apollo_takes_the_extra_last_turn():
    # Rulebook example: A (Apollo) first; B triggers the end; C and D play; then A plays once more.
    st = scenario(
        4,
        hands={0: ["Lorn"], 1: ["Sefi"], 2: ["Eo"], 3: ["Judge"]},
        locations={"mars": ["Helga", "Ragnar", "Stained"], "jupiter": ["Seer", "Orator"]},
        helium=[0, 6, 0, 0],
        fleet=[0, 7, 0, 0],
        houses=["apollo", "jupiter", "mars", "minerva"],
        first=0,
    )
    order = []
    for _ in range(4):
        order.append(st.decision().player)
        _finish_turn(st)
        if order[-1] == 1:
            assert st.end_triggered
    order.append(st.decision().player)
    assert order == [0, 1, 2, 3, 0]
    _finish_turn(st)
    assert st.turns == [2, 1, 1, 1]
    assert st.phase != "play"


def test_without_apollo_the_game_ends_when_turns_are_equal():
    st = scenario(
        3,
        hands={0: ["Lorn"], 1: ["Sefi"], 2: ["Eo"]},
        locations={"mars": ["Helga", "Ragnar", "Stained"]},
        helium=[0, 6, 0],
        fleet=[0, 7, 0],
        houses=["diana", "jupiter", "mars"],
        first=0,
    )
    for _ in range(3):
        _finish_turn(st)
    assert st.turns == [1, 1, 1] and st.phase != "play"


# ---------------------------------------------------------------- protocol
def test_illegal_action_leaves_the_game_unchanged():
    st = RedRising(4).new_initial_state(1)
    snapshot = json.dumps([st.view(p) for p in range(4)]), st.deck[:], len(st.events)
    with pytest.raises(IllegalAction):
        st.apply("jupiter")
    assert (json.dumps([st.view(p) for p in range(4)]), st.deck[:], len(st.events)) == snapshot


def test_view_hides_other_hands_and_the_deck():
    st = RedRising(3).new_initial_state(2)
    v = st.view(0)
    assert "hand" in v["players"][0] and "hand" not in v["players"][1]
    assert v["deck_size"] == len(st.deck) and "deck" not in v
    text = json.dumps(v)
    for c in st.hands[1] + st.hands[2] + st.deck:
        from redtable.redrising.cards import SLUG

        if c not in st.hands[0]:
            assert f'"{SLUG[c]}"' not in text
    assert "options" not in st.view(1)["decision"] or st.decision().player == 1


def test_face_down_cards_are_hidden_except_from_who_placed_them():
    st = scenario(3, hands={0: ["Lorn"]}, locations={"mars": ["Eo", "Sefi"]}, facedown={"Sefi": 0})
    st.known[0].add(BY_SLUG["sefi"])
    assert st.view(1)["locations"]["mars"][1] == {"face_down": True}
    assert st.view(0)["locations"]["mars"][1]["card"] == "sefi"
    assert "sefi" not in json.dumps(st.view(None))


def test_clone_is_independent():
    st = RedRising(4).new_initial_state(8)
    c = st.clone()
    c.apply(c.legal_actions()[0])
    assert st.history == [] and len(c.history) == 1
    assert st.view(0) != c.view(0) or st.decision() != c.decision()


def test_multiplayer_variant_limits_targets():
    st = scenario(
        4,
        hands={
            0: ["Lorn"],
            1: ["Eo"] * 0 + ["Sefi", "Ragnar", "Helga", "Stained", "Eo", "Judge"],
            2: ["Seer"],
            3: ["Orator", "Magistrate", "Priestess", "Martyr", "Justice"],
        },
        variant=True,
    )
    assert st.targetable(0) == [1]
    st2 = scenario(4, hands={0: ["Lorn"], 2: ["Seer"]})
    assert st2.targetable(0) == [1, 2, 3]


def test_lead_gain_excludes_every_location_deployed_to_this_turn():
    # Calliope deploys the deck's top card to another location: neither location may be gained from.
    st = scenario(
        2,
        hands={0: ["Calliope"]},
        locations={"jupiter": ["Eo"], "mars": ["Sefi"], "luna": ["Helga"], "institute": ["Seer"]},
        deck_top=["Deanna"],
    )
    play(st, "calliope", "jupiter", "mars")
    assert location_names(st, "mars")[-1] == "deanna"
    assert set(st.decision().options) == {"luna", "institute", "deck"}


def test_moved_deployed_card_still_counts_as_deployed_to_its_first_location():
    # Musician moves a card with an even value, itself included, off its location.
    st = scenario(2, hands={0: ["Musician"]}, locations={"jupiter": ["Eo"], "mars": ["Sefi"], "luna": ["Helga"]})
    play(st, "musician", "jupiter")
    d = st.decision()
    assert d.kind == "choose_card"
    play(st, "jupiter:1")  # Musician itself (value 8, even)
    play(st, "mars")
    assert location_names(st, "mars")[-1] == "musician"
    assert "jupiter" not in st.decision().options and "mars" in st.decision().options
