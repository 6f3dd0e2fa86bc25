"""Yellows, Greens, Silvers, Whites and Coppers (deploy, block, end of game) and the deploy
abilities of Grays and Oranges: every clause on exact positions."""

import pytest

import redtable.redrising.abilities_highcaste as hc  # noqa: F401  (the family's table and primitives)
import redtable.redrising.game  # noqa: F401
from redtable.redrising.cards import BY_SLUG, COLOR, NUM_CARDS, SLUG, VALUE
from redtable.redrising.effects import render
from redtable.redrising.rules import BLOCK_SOVEREIGN, BLOCK_STEAL_BANISH, DEPLOY, END_OF_GAME
from redtable.redrising.testing import hand_names, location_names, play
from redtable.redrising.testing import scenario as _scenario

FILLER = "ceo"  # a Silver on the Institute so the Lead's gain step is a real choice (no Gray/Orange wants it)


def scenario(*args, **kw):
    locs = dict(kw.pop("locations", None) or {})
    named = repr((kw, locs))
    locs.setdefault("institute", [FILLER if f"'{FILLER}'" not in named else "sponsor"])
    return _scenario(*args, locations=locs, **kw)


def check(st):
    cards = sorted([c for h in st.hands for c in h] + [c for loc in st.locs for c in loc] + st.deck + st.banished)
    assert cards == list(range(NUM_CARDS))


def banished(st):
    return sorted(SLUG[c] for c in st.banished)


def effect_logged(st, slug):
    return any(e.kind == "ability_effect" and e.data["card"] == slug for e in st.events)


def at_gain_step(st, p=0):
    d = st.decision()
    return d is not None and d.player == p and d.kind == "gain"


def at_next_turn(st, p=1):
    d = st.decision()
    return d is not None and d.player == p and d.kind == "action"


def empty_deck(st):
    st.banished.extend(st.deck)
    st.deck.clear()


def to_bottom(st, slug):
    c = BY_SLUG[slug]
    st.deck.remove(c)
    st.deck.insert(0, c)


def top_slugs(st, n):
    return [SLUG[c] for c in st.deck[::-1][:n]]


def run_eog(st, p):
    """Resolve player p's end-of-game abilities from a mid-game position."""
    st.stack.clear()
    st.turn_stack.clear()
    st.phase = "end_of_game"
    st.push(("eog_player", p), {"p": p})
    st.run()
    return st


def events(st, kind):
    return [e for e in st.events if e.kind == kind]


def points(st, p):
    return sum(e.data["points"] for e in events(st, "points") if e.data["player"] == p)


# ================================================================ Yellows
# ---------------------------------------------------------------- reveal 2 under this card
UNDER = [
    ("dr-virany", "mars"),
    ("dataport-specialist", "jupiter"),
    ("holo-designer", "luna"),
    ("administrator", "institute"),
]


@pytest.mark.parametrize("card,loc", UNDER)
def test_reveal_two_under_in_chosen_order(card, loc):
    other = "luna" if loc != "luna" else "mars"
    st = _scenario(hands={0: [card]}, locations={loc: ["eo"], other: ["helga"]}, deck_top=["harmony", "dancer"])
    play(st, card, loc)
    d = st.decision()
    assert d.kind == "order_under" and set(d.options) == {"harmony", "dancer"}
    play(st, "harmony")  # harmony directly under the card, dancer below it
    assert location_names(st, loc) == ["eo", "dancer", "harmony", card]
    assert at_gain_step(st) and effect_logged(st, card)
    assert {e.data["card"] for e in events(st, "reveal")} >= {"harmony", "dancer"}
    check(st)


@pytest.mark.parametrize("card,loc", UNDER)
def test_reveal_two_under_other_location_does_nothing(card, loc):
    other = "luna" if loc != "luna" else "mars"
    st = scenario(hands={0: [card]}, deck_top=["harmony", "dancer"])
    play(st, card, other)
    assert at_gain_step(st) and location_names(st, other) == [card]
    assert top_slugs(st, 2) == ["harmony", "dancer"] and not effect_logged(st, card)


def test_reveal_under_with_one_card_left_and_empty_deck():
    st = scenario(hands={0: ["dr-virany", "holo-designer"]}, locations={"jupiter": ["stock-broker"]})
    last = st.deck[-1]
    st.banished.extend(st.deck[:-1])
    del st.deck[:-1]
    play(st, "dr-virany", "mars")
    assert location_names(st, "mars") == [SLUG[last], "dr-virany"] and not st.deck and at_gain_step(st)
    check(st)
    st2 = scenario(hands={0: ["holo-designer"]}, locations={"jupiter": ["stock-broker"]})
    empty_deck(st2)
    play(st2, "holo-designer", "luna")
    assert location_names(st2, "luna") == ["holo-designer"] and at_gain_step(st2)


def test_dr_virany_end_of_game_gains_any_number_of_listed_banished_cards():
    st = scenario(hands={0: ["dr-virany"]}, banished=["victra", "sevro", "arlus", "octavia", "fitchner", "eo"])
    run_eog(st, 0)
    d = st.decision()
    assert d.kind == "choose_banished"
    assert set(d.options) == {"victra", "sevro", "arlus", "fitchner", "eo", "none"}  # not Octavia
    play(st, "victra", "arlus", "none")
    assert hand_names(st, 0) == ["arlus", "dr-virany", "victra"]
    assert banished(st) == ["eo", "fitchner", "octavia", "sevro"] and st.decision() is None
    check(st)


def test_dr_virany_end_of_game_declined_and_impossible():
    st = scenario(hands={0: ["dr-virany"]}, banished=["sevro"])
    run_eog(st, 0)
    play(st, "none")
    assert hand_names(st, 0) == ["dr-virany"] and banished(st) == ["sevro"]
    st = scenario(hands={0: ["dr-virany"]}, banished=["octavia", "helga"])
    run_eog(st, 0)
    assert st.decision() is None and hand_names(st, 0) == ["dr-virany"]


# ---------------------------------------------------------------- Group Counselor
def test_group_counselor_places_up_to_three_on_top_or_bottom():
    st = scenario(hands={0: ["group-counselor"]}, banished=["eo", "helga", "sevro", "nero"])
    play(st, "group-counselor", "mars")
    assert set(st.decision().options) == {"eo", "helga", "sevro", "nero", "none"}
    play(st, "eo", "top", "helga", "bottom", "sevro")
    assert st.decision().kind == "deck_end"
    play(st, "top")
    assert top_slugs(st, 2) == ["sevro", "eo"] and SLUG[st.deck[0]] == "helga"
    assert banished(st) == ["nero"] and at_gain_step(st)  # stopped after 3
    check(st)


def test_group_counselor_declined_partway_and_impossible():
    st = scenario(hands={0: ["group-counselor"]}, banished=["eo", "helga"])
    play(st, "group-counselor", "mars", "eo", "bottom", "none")
    assert SLUG[st.deck[0]] == "eo" and banished(st) == ["helga"] and at_gain_step(st)
    st = scenario(hands={0: ["group-counselor"]})
    play(st, "group-counselor", "mars")
    assert at_gain_step(st) and location_names(st, "mars") == ["group-counselor"]


# ---------------------------------------------------------------- Hypnotist
def test_hypnotist_each_player_in_clockwise_order_banishes_and_draws():
    st = scenario(
        3,
        hands={0: ["hypnotist", "eo", "helga"], 1: ["nero"], 2: ["sevro", "victra"]},
        deck_top=["dancer", "harmony", "arlus"],
        current=0,
    )
    play(st, "hypnotist", "mars")
    d = st.decision()
    assert d.player == 0 and d.kind == "banish_from_hand" and set(d.options) == {"eo", "helga"}
    play(st, "eo")  # p0 draws dancer; p1 has a single card (auto), draws harmony
    d = st.decision()
    assert d.player == 2 and set(d.options) == {"sevro", "victra"} and "dancer" not in repr(d.context)
    play(st, "victra")
    assert hand_names(st, 0) == ["dancer", "helga"]
    assert hand_names(st, 1) == ["harmony"]
    assert hand_names(st, 2) == ["arlus", "sevro"]
    assert banished(st) == ["eo", "nero", "victra"]
    assert [e.data["card"] for e in events(st, "banish")] == ["eo", "nero", "victra"]  # clockwise from you
    # what each player drew is told only to them
    seen = [e for e in events(st, "gain_seen")]
    assert all(e.to == (e.data["player"],) for e in seen)
    assert at_gain_step(st)
    check(st)


def test_hypnotist_skips_a_player_without_cards_and_an_empty_deck():
    st = scenario(3, hands={0: ["hypnotist", "eo"], 1: [], 2: ["sevro"]}, deck_top=["dancer", "harmony"])
    play(st, "hypnotist", "mars")
    assert hand_names(st, 0) == ["dancer"] and hand_names(st, 1) == [] and hand_names(st, 2) == ["harmony"]
    st = scenario(2, hands={0: ["hypnotist", "eo"], 1: ["sevro"]}, locations={"jupiter": ["stock-broker"]})
    empty_deck(st)
    n = len(st.banished)
    play(st, "hypnotist", "mars")
    assert hand_names(st, 0) == ["eo"] and hand_names(st, 1) == ["sevro"] and len(st.banished) == n
    assert at_gain_step(st) and location_names(st, "mars") == ["hypnotist"]


def test_hypnotist_blocked_by_judge():
    st = scenario(2, hands={0: ["hypnotist", "eo"], 1: ["judge", "nero"]}, deck_top=["dancer", "harmony"])
    play(st, "hypnotist", "mars")
    d = st.decision()
    assert d.player == 1 and d.kind == "block" and d.options == ("block:judge", "no")
    play(st, "block:judge")
    assert hand_names(st, 1) == ["judge", "nero"] and banished(st) == ["eo"]
    assert any(e.data.get("card") == "judge" for e in events(st, "block"))
    assert at_gain_step(st)
    # not blocking: the swap happens
    st = scenario(2, hands={0: ["hypnotist", "eo"], 1: ["judge", "nero"]}, deck_top=["dancer", "harmony"])
    play(st, "hypnotist", "mars", "no", "nero")
    assert hand_names(st, 1) == ["harmony", "judge"]


def test_hypnotist_is_not_limited_by_the_multiplayer_variant():
    # it chooses nobody: every player swaps, whatever their hand size
    st = scenario(
        3,
        hands={0: ["hypnotist", "eo"], 1: ["nero"], 2: ["sevro"]},
        deck_top=["dancer", "harmony", "arlus"],
        variant=True,
    )
    play(st, "hypnotist", "mars")
    assert banished(st) == ["eo", "nero", "sevro"]


def test_hypnotist_end_of_game():
    st = scenario(hands={0: ["hypnotist", "eo", "nero"]}, deck_top=["dancer"])
    run_eog(st, 0)
    d = st.decision()
    assert d.kind == "banish_from_hand" and set(d.options) == {"eo", "nero"}  # not Hypnotist itself
    play(st, "nero")
    assert hand_names(st, 0) == ["dancer", "eo", "hypnotist"] and banished(st) == ["nero"]
    st = scenario(hands={0: ["hypnotist"]})
    run_eog(st, 0)
    assert st.decision() is None and hand_names(st, 0) == ["hypnotist"]


# ---------------------------------------------------------------- Pathologist
def test_pathologist_banishes_bottom_card():
    st = scenario(hands={0: ["pathologist"]}, locations={"mars": ["eo", "nero"]})
    play(st, "pathologist", "mars")
    assert location_names(st, "mars") == ["nero", "pathologist"] and banished(st) == ["eo"]
    assert at_gain_step(st)
    check(st)


def test_pathologist_not_itself():
    st = scenario(hands={0: ["pathologist"]})
    play(st, "pathologist", "mars")
    assert location_names(st, "mars") == ["pathologist"] and banished(st) == [] and at_gain_step(st)


# ---------------------------------------------------------------- Psychologist
def test_psychologist_places_two_banished_cards_on_one_location():
    st = scenario(hands={0: ["psychologist"]}, banished=["eo", "nero", "helga"])
    play(st, "psychologist", "mars")
    assert set(st.decision().options) == {"eo", "nero", "helga", "none"}
    play(st, "nero")
    assert st.decision().kind == "place_location" and len(st.decision().options) == 4
    play(st, "luna", "helga")  # the second goes on the same location: no location asked
    assert location_names(st, "luna") == ["nero", "helga"] and banished(st) == ["eo"]
    assert at_gain_step(st)
    assert not any(e.kind == "deploy" and e.data.get("card") in ("nero", "helga") for e in st.events)
    check(st)


def test_psychologist_one_card_declined_and_impossible():
    st = scenario(hands={0: ["psychologist"]}, banished=["eo", "nero"])
    play(st, "psychologist", "mars", "eo", "jupiter", "none")
    assert location_names(st, "jupiter") == ["eo"] and banished(st) == ["nero"]
    st = scenario(hands={0: ["psychologist"]}, banished=["eo"])
    play(st, "psychologist", "mars", "none")
    assert banished(st) == ["eo"] and at_gain_step(st)
    st = scenario(hands={0: ["psychologist"]})
    play(st, "psychologist", "mars")
    assert at_gain_step(st) and location_names(st, "mars") == ["psychologist"]


def test_psychologist_end_of_game_fewest_cards_ties_count():
    st = scenario(hands={0: ["psychologist", "eo"], 1: ["nero", "helga"]}, banished=["sevro", "victra"])
    run_eog(st, 0)
    assert len(st.hands[0]) == 3 and len(st.banished) == 1
    gained = set(hand_names(st, 0)) - {"psychologist", "eo"}
    assert gained <= {"sevro", "victra"} and len(gained) == 1
    check(st)
    st = scenario(hands={0: ["psychologist", "eo", "dancer"], 1: ["nero", "helga"]}, banished=["sevro"])
    run_eog(st, 0)
    assert hand_names(st, 0) == ["dancer", "eo", "psychologist"] and banished(st) == ["sevro"]
    st = scenario(hands={0: ["psychologist"]})  # nothing banished
    run_eog(st, 0)
    assert hand_names(st, 0) == ["psychologist"]


def test_psychologist_end_of_game_is_random_from_the_state_rng():
    got = set()
    for seed in range(20):
        st = scenario(hands={0: ["psychologist"], 1: ["nero"]}, banished=["sevro", "victra", "eo"], seed=seed)
        run_eog(st, 0)
        got |= set(hand_names(st, 0)) - {"psychologist"}
        again = scenario(hands={0: ["psychologist"], 1: ["nero"]}, banished=["sevro", "victra", "eo"], seed=seed)
        run_eog(again, 0)
        assert hand_names(again, 0) == hand_names(st, 0)
    assert len(got) >= 2


# ---------------------------------------------------------------- Researcher
def test_researcher_random_banished_card_at_bottom():
    st = scenario(hands={0: ["researcher"]}, locations={"mars": ["eo"]}, banished=["nero", "helga"])
    play(st, "researcher", "mars")
    mars = location_names(st, "mars")
    assert mars[0] in ("nero", "helga") and mars[1:] == ["eo", "researcher"] and len(st.banished) == 1
    assert at_gain_step(st)
    check(st)


def test_researcher_nothing_banished():
    st = scenario(hands={0: ["researcher"]})
    play(st, "researcher", "mars")
    assert location_names(st, "mars") == ["researcher"] and at_gain_step(st)


# ---------------------------------------------------------------- Surgeon
def test_surgeon_swaps_a_non_gold_for_a_banished_gold():
    st = scenario(hands={0: ["surgeon", "eo", "helga", "nero"]}, banished=["sevro", "victra", "dancer"])
    play(st, "surgeon", "mars")
    assert st.decision().kind == "may"
    play(st, "yes")
    assert set(st.decision().options) == {"eo", "helga"}  # non-Golds only
    play(st, "helga")
    assert set(st.decision().options) == {"sevro", "victra"}  # banished Golds only
    play(st, "victra")
    assert hand_names(st, 0) == ["eo", "nero", "victra"] and banished(st) == ["dancer", "helga", "sevro"]
    assert at_gain_step(st)
    check(st)


def test_surgeon_declined_and_impossible():
    st = scenario(hands={0: ["surgeon", "eo"]}, banished=["sevro"])
    play(st, "surgeon", "mars", "no")
    assert hand_names(st, 0) == ["eo"] and banished(st) == ["sevro"] and at_gain_step(st)
    st = scenario(hands={0: ["surgeon", "eo"]}, banished=["dancer"])  # no banished Gold
    play(st, "surgeon", "mars")
    assert at_gain_step(st) and location_names(st, "mars") == ["surgeon"]
    st = scenario(hands={0: ["surgeon", "nero"]}, banished=["sevro"])  # no non-Gold in hand
    play(st, "surgeon", "mars")
    assert at_gain_step(st) and hand_names(st, 0) == ["nero"]


def test_surgeon_end_of_game_gains_any_banished_gold():
    st = scenario(hands={0: ["surgeon"]}, banished=["sevro", "victra", "eo"])
    run_eog(st, 0)
    assert set(st.decision().options) == {"sevro", "victra"}  # mandatory: no "none"
    play(st, "sevro")
    assert hand_names(st, 0) == ["sevro", "surgeon"]
    st = scenario(hands={0: ["surgeon"]}, banished=["eo"])
    run_eog(st, 0)
    assert hand_names(st, 0) == ["surgeon"]


# ================================================================ Greens
def test_codebreaker_gains_bottom_non_gold_and_stays_on_a_gold():
    st = scenario(hands={0: ["codebreaker"]}, locations={"mars": ["nero"]})
    to_bottom(st, "eo")
    play(st, "codebreaker", "mars")
    assert "eo" in hand_names(st, 0) and location_names(st, "mars") == ["nero", "codebreaker"]
    assert any(e.data.get("card") == "eo" and e.data.get("source") == "deck_bottom" for e in events(st, "reveal"))
    check(st)


@pytest.mark.parametrize("bottom", ["nero", "quicksilver"])
def test_codebreaker_leaves_gold_or_silver_and_is_banished_unless_on_gold_or_silver(bottom):
    st = scenario(hands={0: ["codebreaker"]}, locations={"mars": ["eo"]})
    to_bottom(st, bottom)
    play(st, "codebreaker", "mars")
    assert SLUG[st.deck[0]] == bottom and hand_names(st, 0) == []
    assert banished(st) == ["codebreaker"] and location_names(st, "mars") == ["eo"]
    assert at_gain_step(st)
    check(st)


def test_codebreaker_on_silver_stays_on_face_down_gold_is_banished():
    st = scenario(hands={0: ["codebreaker"]}, locations={"mars": ["banker"]})
    play(st, "codebreaker", "mars")
    assert location_names(st, "mars") == ["banker", "codebreaker"]
    st = scenario(hands={0: ["codebreaker"]}, locations={"mars": ["nero"]}, facedown={"nero": 1})
    play(st, "codebreaker", "mars")
    assert banished(st) == ["codebreaker"]


def test_codebreaker_empty_deck_still_banished():
    st = scenario(hands={0: ["codebreaker"]}, locations={"mars": ["eo"], "jupiter": ["stock-broker"]})
    empty_deck(st)
    play(st, "codebreaker", "mars")
    assert "codebreaker" in banished(st) and at_gain_step(st)


def test_developer_gains_any_other_card_and_ends_turn():
    st = scenario(hands={0: ["developer"]}, locations={"mars": ["eo", "nero"]}, facedown={"eo": 1})
    play(st, "developer", "mars")
    d = st.decision()
    assert set(d.options) == {"mars:0", "mars:1", "none"}  # face-down cards too, not itself
    play(st, "mars:0")
    assert hand_names(st, 0) == ["eo"] and BY_SLUG["eo"] not in st.facedown
    assert at_next_turn(st) and st.turns[0] == 1
    check(st)


def test_developer_declined_and_impossible():
    st = scenario(hands={0: ["developer"]}, locations={"mars": ["eo"]})
    play(st, "developer", "mars", "none")
    assert at_gain_step(st) and location_names(st, "mars") == ["eo", "developer"]
    st = scenario(hands={0: ["developer"]})
    play(st, "developer", "mars")
    assert at_gain_step(st)


def test_firewall_expert_face_down_on_each_other_location():
    st = scenario(2, hands={0: ["firewall-expert"]}, deck_top=["nero", "eo", "helga"])
    play(st, "firewall-expert", "mars")
    d = st.decision()
    assert d.kind == "facedown_card" and d.context["location"] == "jupiter"
    assert set(d.options) == {"nero", "eo", "helga"}
    assert not any(s in repr(d.context) for s in ("nero", "helga"))  # context is public
    play(st, "helga", "nero")  # jupiter <- helga, luna <- nero, institute <- eo (last: automatic)
    assert location_names(st, "jupiter") == ["helga"] and location_names(st, "luna") == ["nero"]
    assert location_names(st, "institute") == [FILLER, "eo"] and location_names(st, "mars") == ["firewall-expert"]
    for s in ("helga", "nero", "eo"):
        c = BY_SLUG[s]
        assert st.facedown[c] == 0 and st.color(c) == -1 and c in st.known[0]
    v1, v0 = st.view(1), st.view(0)
    assert v1["locations"]["jupiter"] == [{"face_down": True}]
    assert v0["locations"]["jupiter"][0]["card"] == "helga"
    assert not any("helga" in repr(e.data) for e in st.events if e.visible_to(1))
    assert at_gain_step(st)
    check(st)


def test_firewall_expert_short_deck_and_empty_deck():
    st = scenario(2, hands={0: ["firewall-expert"]})
    keep = st.deck[-2:]
    st.banished.extend(st.deck[:-2])
    del st.deck[:-2]
    play(st, "firewall-expert", "luna")
    d = st.decision()
    assert d.context["location"] == "jupiter" and "none" in d.options
    play(st, "none", SLUG[keep[0]])  # jupiter: none; mars: one; institute: the last
    assert location_names(st, "jupiter") == [] and location_names(st, "mars") == [SLUG[keep[0]]]
    assert location_names(st, "institute")[-1] == SLUG[keep[1]] and not st.deck
    check(st)
    st = scenario(2, hands={0: ["firewall-expert"]}, locations={"jupiter": ["stock-broker"]})
    empty_deck(st)
    play(st, "firewall-expert", "luna")
    assert at_gain_step(st) and not st.facedown


def test_hacker_banishes_or_places_on_another_location():
    st = scenario(hands={0: ["hacker"]}, deck_top=["nero"])
    play(st, "hacker", "mars")
    assert st.decision().options == ("banish", "place")
    play(st, "banish")
    assert banished(st) == ["nero"] and at_gain_step(st)
    st = scenario(hands={0: ["hacker"]}, deck_top=["nero"])
    play(st, "hacker", "mars", "place")
    assert "mars" not in st.decision().options  # another location
    play(st, "luna")
    assert location_names(st, "luna") == ["nero"] and at_gain_step(st)
    assert not any(e.kind == "deploy" and e.data.get("card") == "nero" for e in st.events)
    check(st)


def test_hacker_empty_deck_and_end_of_game_points():
    st = scenario(hands={0: ["hacker"]}, locations={"jupiter": ["stock-broker"]})
    empty_deck(st)
    play(st, "hacker", "mars")
    assert at_gain_step(st)
    st = scenario(hands={0: ["hacker"]}, deck_top=["octavia"])
    run_eog(st, 0)
    assert points(st, 0) == VALUE[BY_SLUG["octavia"]] == 30
    assert SLUG[st.deck[-1]] == "octavia" and hand_names(st, 0) == ["hacker"]
    st = scenario(hands={0: ["hacker"]})
    empty_deck(st)
    run_eog(st, 0)
    assert points(st, 0) == 0


def test_online_gambler_match_gains_and_banishes_itself():
    st = scenario(hands={0: ["online-gambler"]}, deck_top=["eo"])
    play(st, "online-gambler", "mars")
    assert st.decision().kind == "name_color" and len(st.decision().options) == 14
    play(st, "gold", "red")
    assert "gold" not in st.decision().options and len(st.decision().options) == 12
    play(st, "blue")
    assert hand_names(st, 0) == ["eo"] and banished(st) == ["online-gambler"] and at_gain_step(st)
    check(st)


def test_online_gambler_miss_banishes_revealed_card_and_empty_deck():
    st = scenario(hands={0: ["online-gambler"]}, deck_top=["eo"])
    play(st, "online-gambler", "mars", "gold", "blue", "green")
    assert banished(st) == ["eo"] and location_names(st, "mars") == ["online-gambler"] and at_gain_step(st)
    st = scenario(hands={0: ["online-gambler"]}, locations={"jupiter": ["stock-broker"]})
    empty_deck(st)
    play(st, "online-gambler", "mars")
    assert at_gain_step(st)


def test_online_gambler_end_of_game():
    top = ["eo", "nero", "dancer", "helga", "sevro", "harmony", "victra", "arlus"]
    st = scenario(hands={0: ["online-gambler"]}, deck_top=top)
    run_eog(st, 0)
    assert "gold" not in st.decision().options
    play(st, "red")
    assert hand_names(st, 0) == ["dancer", "eo", "harmony", "online-gambler"]  # not arlus (8th)
    assert sorted(top_slugs(st, 4)) == ["helga", "nero", "sevro", "victra"]
    assert top_slugs(st, 5)[4] == "arlus"
    check(st)


# ================================================================ Silvers
def test_banker_pays_three_to_gain_and_is_banished():
    st = scenario(hands={0: ["banker"]}, locations={"mars": ["eo", "nero"]}, helium=[4, 0])
    play(st, "banker", "mars", "yes")
    assert set(st.decision().options) == {"mars:0", "mars:1"}
    play(st, "mars:0")
    assert hand_names(st, 0) == ["eo"] and st.helium[0] == 1 and banished(st) == ["banker"]
    assert st.turn.traded and at_gain_step(st)
    check(st)


def test_banker_declined_poor_and_traded():
    st = scenario(hands={0: ["banker"]}, locations={"mars": ["eo"]}, helium=[3, 0])
    play(st, "banker", "mars", "no")
    assert st.helium[0] == 3 and location_names(st, "mars") == ["eo", "banker"] and at_gain_step(st)
    st = scenario(hands={0: ["banker"]}, locations={"mars": ["eo"]}, helium=[2, 0])
    play(st, "banker", "mars")
    assert at_gain_step(st)
    st = scenario(hands={0: ["banker"]}, locations={"mars": ["eo"]}, helium=[3, 0])
    st.turn.traded = True
    play(st, "banker", "mars")
    assert at_gain_step(st) and st.helium[0] == 3


def test_banker_end_of_game():
    st = scenario(hands={0: ["banker"]}, locations={"mars": ["eo", "nero"], "luna": ["helga"]}, helium=[3, 0])
    run_eog(st, 0)
    play(st, "yes")
    assert set(st.decision().options) == {"mars:1", "luna:0", "institute:0"}  # top cards only
    play(st, "mars:1")
    assert hand_names(st, 0) == ["banker", "nero"] and st.helium[0] == 0
    st = scenario(hands={0: ["banker"]}, helium=[2, 0])
    run_eog(st, 0)
    assert st.decision() is None


def test_ceo_regress_for_two_helium():
    st = scenario(hands={0: ["ceo"]}, fleet=[2, 0])
    play(st, "ceo", "mars", "yes")
    assert st.fleet[0] == 1 and st.helium[0] == 2 and at_gain_step(st)
    st = scenario(hands={0: ["ceo"]}, fleet=[2, 0])
    play(st, "ceo", "mars", "no")
    assert st.fleet[0] == 2 and st.helium[0] == 0
    st = scenario(hands={0: ["ceo"]}, fleet=[0, 0])
    play(st, "ceo", "mars")
    assert at_gain_step(st) and st.helium[0] == 0
    st = scenario(hands={0: ["ceo"]}, fleet=[2, 0])
    st.turn.traded = True
    play(st, "ceo", "mars")
    assert at_gain_step(st) and st.fleet[0] == 2


def test_investor_helium_per_card_of_chosen_color_here():
    st = scenario(
        hands={0: ["investor"]}, locations={"mars": ["eo", "dancer", "nero", "harmony"]}, facedown={"harmony": 1}
    )
    play(st, "investor", "mars")
    assert "silver" not in st.decision().options
    play(st, "red")
    assert st.helium[0] == 2 and at_gain_step(st)  # the face-down Red is colourless
    st = scenario(hands={0: ["investor"]})
    play(st, "investor", "luna", "gold")
    assert st.helium[0] == 0 and at_gain_step(st)


def test_investor_end_of_game_counts_mars():
    st = scenario(hands={0: ["investor"]}, locations={"mars": ["nero", "sevro", "eo"], "luna": ["victra"]})
    run_eog(st, 0)
    play(st, "gold")
    assert st.helium[0] == 2


def test_loan_shark_out_of_order_turn_then_your_turn_goes_on():
    st = scenario(
        3,
        hands={0: ["loan-shark"], 1: ["eo", "developer"], 2: ["nero"]},
        locations={"jupiter": ["helga"]},
        helium=[0, 3, 5],
    )
    play(st, "loan-shark", "mars")
    d = st.decision()
    assert d.kind == "choose_opponent" and d.options == ("p1", "p2")
    play(st, "p1")
    d = st.decision()
    assert d.player == 1 and d.kind == "loan_shark"
    play(st, "yes")
    assert st.helium[:2] == [2, 1]
    d = st.decision()
    assert d.player == 1 and d.kind == "action" and st.turn.player == 1 and not st.turn.counted
    play(st, "eo", "luna")
    d = st.decision()
    assert d.player == 1 and d.kind == "gain" and "mars" not in d.options  # may not gain Loan Shark
    play(st, "jupiter")
    # back to the Loan Shark player's turn: their Lead gain step still happens
    d = st.decision()
    assert d.player == 0 and d.kind == "gain" and st.turn.player == 0
    assert st.turns == [0, 0, 0]
    play(st, "institute")
    assert at_next_turn(st, 1) and st.turns == [1, 0, 0]
    check(st)


def test_loan_shark_out_of_order_turn_that_ends_early_and_developer_cannot_take_it():
    st = scenario(2, hands={0: ["loan-shark"], 1: ["developer"]}, locations={"mars": ["eo"]}, helium=[0, 2])
    play(st, "loan-shark", "mars", "yes", "developer", "mars")
    d = st.decision()
    assert d.player == 1 and set(d.options) == {"mars:0", "none"}  # Loan Shark (mars:1) is not offered
    play(st, "mars:0")  # Developer: gain, end your turn -> ends only the turn out of order
    assert hand_names(st, 1) == ["eo"]
    assert at_gain_step(st, 0) and st.turn.player == 0 and st.turns == [0, 0]


def test_loan_shark_otherwise_one_helium():
    st = scenario(2, hands={0: ["loan-shark"]}, helium=[0, 5])
    play(st, "loan-shark", "mars", "no")
    assert st.helium == [1, 4] and at_gain_step(st) and st.turn.traded
    st = scenario(2, hands={0: ["loan-shark"]}, helium=[0, 1])  # cannot pay 2: no choice
    play(st, "loan-shark", "mars")
    assert st.helium == [1, 0] and at_gain_step(st)
    st = scenario(2, hands={0: ["loan-shark"]}, helium=[0, 0])
    play(st, "loan-shark", "mars")
    assert st.helium == [0, 0] and at_gain_step(st)
    st = scenario(2, hands={0: ["loan-shark"]}, helium=[0, 5])
    st.turn.traded = True  # already traded this turn
    play(st, "loan-shark", "mars")
    assert st.helium == [0, 5] and at_gain_step(st)


def test_quicksilver_steals_from_the_richest_opponent():
    st = scenario(4, hands={0: ["quicksilver"]}, helium=[0, 3, 3, 1])
    play(st, "quicksilver", "mars")
    assert st.decision().options == ("p1", "p2")
    play(st, "p2")
    assert st.helium == [1, 3, 2, 1] and at_gain_step(st)
    st = scenario(3, hands={0: ["quicksilver"]}, helium=[5, 1, 2])
    play(st, "quicksilver", "mars")
    assert st.helium == [6, 1, 1] and at_gain_step(st)
    st = scenario(3, hands={0: ["quicksilver"]}, helium=[5, 0, 0])
    play(st, "quicksilver", "mars")
    assert st.helium == [5, 0, 0] and at_gain_step(st)


def test_quicksilver_helium_is_not_a_card_judge_does_not_block():
    st = scenario(2, hands={0: ["quicksilver"], 1: ["judge"]}, helium=[0, 2])
    play(st, "quicksilver", "mars")
    assert st.helium == [1, 1] and at_gain_step(st)


def test_sponsor():
    st = scenario(hands={0: ["sponsor"]}, helium=[1, 0])
    play(st, "sponsor", "mars", "yes")
    assert st.helium[0] == 0 and st.influence[0] == 2 and at_gain_step(st)
    st = scenario(hands={0: ["sponsor"]}, helium=[1, 0])
    play(st, "sponsor", "mars", "no")
    assert st.helium[0] == 1 and st.influence[0] == 0
    st = scenario(hands={0: ["sponsor"]}, helium=[0, 0])
    play(st, "sponsor", "mars")
    assert at_gain_step(st)
    st = scenario(hands={0: ["sponsor"]}, helium=[2, 0])
    st.turn.traded = True
    play(st, "sponsor", "mars")
    assert at_gain_step(st) and st.helium[0] == 2


def test_stock_broker():
    st = scenario(hands={0: ["stock-broker"]}, influence=[1, 0])
    play(st, "stock-broker", "mars", "yes")
    assert st.influence[0] == 0 and st.helium[0] == 2 and at_gain_step(st)
    st = scenario(hands={0: ["stock-broker"]}, influence=[1, 0])
    play(st, "stock-broker", "mars", "no")
    assert st.influence[0] == 1 and st.helium[0] == 0
    st = scenario(hands={0: ["stock-broker"]})
    play(st, "stock-broker", "mars")
    assert at_gain_step(st)
    st = scenario(hands={0: ["stock-broker"]}, influence=[1, 0])
    st.turn.traded = True
    play(st, "stock-broker", "mars")
    assert at_gain_step(st) and st.influence[0] == 1


def test_two_trades_in_one_turn_only_the_first_happens():
    st = scenario(hands={0: ["sponsor"]}, helium=[1, 0])
    st.push(("ability", BY_SLUG["ceo"], DEPLOY[BY_SLUG["ceo"]]), {"p": 0, "src": BY_SLUG["ceo"], "loc": 0})
    st.push(("ability", BY_SLUG["sponsor"], DEPLOY[BY_SLUG["sponsor"]]), {"p": 0, "src": BY_SLUG["sponsor"], "loc": 0})
    st.fleet[0] = 3
    st.run()
    play(st, "yes")  # Sponsor: trade done; CEO then is not offered
    assert st.influence[0] == 2 and st.fleet[0] == 3 and st.decision().kind == "action"


# ================================================================ Whites
def test_judge_justice_martyr_blocks_are_registered():
    assert BY_SLUG["judge"] in BLOCK_STEAL_BANISH
    assert BLOCK_SOVEREIGN[BY_SLUG["justice"]] == ("draw_to_hand",) == BLOCK_SOVEREIGN[BY_SLUG["martyr"]]


@pytest.mark.parametrize("blocker", ["justice", "martyr"])
def test_justice_and_martyr_block_taking_the_sovereign(blocker):
    st = scenario(
        2,
        hands={0: [blocker, "eo"], 1: ["lawyer"]},
        locations={"luna": ["nero"]},
        sovereign=0,
        current=1,
        deck_top=["dancer"],
    )
    play(st, "lawyer", "mars", "luna")
    d = st.decision()
    assert d.player == 0 and d.options == (f"block:{blocker}", "no")
    play(st, f"block:{blocker}")
    assert st.sovereign == 0 and banished(st) == [blocker] and hand_names(st, 0) == ["dancer", "eo"]
    st = scenario(2, hands={0: [blocker], 1: ["lawyer"]}, locations={"luna": ["nero"]}, sovereign=0, current=1)
    play(st, "lawyer", "mars", "luna", "no")
    assert st.sovereign == 1 and hand_names(st, 0) == [blocker]


@pytest.mark.parametrize("card,loc", [("justice", "luna"), ("martyr", "mars")])
def test_justice_martyr_end_of_game(card, loc):
    other = "mars" if loc == "luna" else "luna"
    st = scenario(hands={0: [card]}, locations={loc: ["eo", "nero"], other: ["helga"]}, sovereign=0)
    run_eog(st, 0)
    assert set(st.decision().options) == {f"{loc}:0", f"{loc}:1"}  # any card there, not just the top
    play(st, f"{loc}:0")
    assert hand_names(st, 0) == sorted([card, "eo"])
    st = scenario(hands={0: [card]}, locations={loc: ["eo"]}, sovereign=1)
    run_eog(st, 0)
    assert hand_names(st, 0) == [card]


@pytest.mark.parametrize("card,what", [("magistrate", "helium"), ("orator", "influence"), ("priestess", "fleet")])
def test_white_sovereign_bonuses(card, what):
    st = scenario(hands={0: [card]}, sovereign=0)
    play(st, card, "mars")
    assert getattr(st, what)[0] == 1 and at_gain_step(st)
    st = scenario(hands={0: [card]}, sovereign=1)
    play(st, card, "mars")
    assert getattr(st, what)[0] == 0 and at_gain_step(st)


def test_seer():
    st = scenario(hands={0: ["seer"]}, sovereign=0, deck_top=["nero"])
    play(st, "seer", "mars")
    d = st.decision()
    assert d.kind == "place_location" and "mars" not in d.options
    play(st, "jupiter")
    assert location_names(st, "jupiter") == ["nero"] and at_gain_step(st)
    st = scenario(hands={0: ["seer"]}, sovereign=1, deck_top=["nero"])
    play(st, "seer", "mars")
    assert at_gain_step(st) and SLUG[st.deck[-1]] == "nero"
    st = scenario(hands={0: ["seer"]}, sovereign=0, locations={"jupiter": ["stock-broker"]})
    empty_deck(st)
    play(st, "seer", "mars")
    assert at_gain_step(st)


# ================================================================ Coppers
def test_auctioneer_opponent_chooses_one_you_gain_both_others():
    st = scenario(3, hands={0: ["auctioneer"]})
    play(st, "auctioneer", "mars", "p2")
    d = st.decision()
    assert d.player == 2 and set(d.options) == {"helium", "advance", "influence"}
    play(st, "advance")
    assert st.fleet == [0, 0, 1] and st.helium == [1, 0, 0] and st.influence == [1, 0, 0]
    assert at_gain_step(st)


def test_auctioneer_end_of_game():
    st = scenario(hands={0: ["auctioneer"]})
    run_eog(st, 0)
    play(st, "influence")
    assert st.influence[0] == 1 and st.helium[0] == 0 and st.fleet[0] == 0


def test_bondilus_on_mars_banishes_a_non_gold_here():
    st = scenario(hands={0: ["bondilus"]}, locations={"mars": ["eo", "nero", "helga"]}, facedown={"helga": 1})
    play(st, "bondilus", "mars")
    assert set(st.decision().options) == {"mars:0", "mars:2"}  # face-down counts as non-Gold
    play(st, "mars:2")
    assert banished(st) == ["helga"] and BY_SLUG["helga"] not in st.facedown and at_gain_step(st)
    check(st)


def test_bondilus_elsewhere_or_only_golds():
    st = scenario(hands={0: ["bondilus"]}, locations={"luna": ["eo"]})
    play(st, "bondilus", "luna")
    assert banished(st) == [] and at_gain_step(st)
    st = scenario(hands={0: ["bondilus"]}, locations={"mars": ["nero"]})
    play(st, "bondilus", "mars")
    assert banished(st) == [] and location_names(st, "mars") == ["nero", "bondilus"]


def test_diplomat():
    st = scenario(3, hands={0: ["diplomat"]})
    play(st, "diplomat", "mars", "p2", "yes")
    d = st.decision()
    assert d.player == 2 and d.kind == "may"
    play(st, "yes")
    assert st.influence == [1, 0, 1] and at_gain_step(st)
    st = scenario(2, hands={0: ["diplomat"]})
    play(st, "diplomat", "mars", "no", "no")
    assert st.influence == [0, 0] and at_gain_step(st)
    st = scenario(2, hands={0: ["diplomat"]}, influence=[10, 10])
    play(st, "diplomat", "mars")
    assert at_gain_step(st)


def test_lawyer():
    st = scenario(hands={0: ["lawyer"]}, locations={"institute": ["eo"]})
    play(st, "lawyer", "mars")
    assert st.influence[0] == 1 and at_gain_step(st)


def test_politician():
    st = scenario(hands={0: ["politician", "nero", "sevro", "eo"]})
    play(st, "politician", "mars", "yes")
    assert st.influence[0] == 2 and at_gain_step(st)
    assert {e.data["card"] for e in events(st, "reveal") if e.data.get("source") == "hand"} == {"nero", "sevro"}
    assert hand_names(st, 0) == ["eo", "nero", "sevro"]
    st = scenario(hands={0: ["politician", "nero", "sevro", "victra"]})
    play(st, "politician", "mars", "yes")
    assert set(st.decision().options) == {"nero", "sevro", "victra"}
    play(st, "victra", "nero")
    assert st.influence[0] == 2
    st = scenario(hands={0: ["politician", "nero", "sevro"]})
    play(st, "politician", "mars", "no")
    assert st.influence[0] == 0
    st = scenario(hands={0: ["politician", "nero", "eo"]})
    play(st, "politician", "mars")
    assert at_gain_step(st) and st.influence[0] == 0


def test_timony_counts_golds_at_the_institute_wherever_deployed():
    st = scenario(hands={0: ["timony"]}, locations={"institute": ["nero", "eo", "sevro"], "mars": ["victra"]})
    play(st, "timony", "mars")
    assert st.influence[0] == 2 and at_gain_step(st)
    st = scenario(hands={0: ["timony"]}, locations={"institute": ["eo"]})
    play(st, "timony", "institute")
    assert st.influence[0] == 0


# ================================================================ Grays
GRAYS = [
    ("bridge", "calliope", "eo"),
    ("colonel-valentin", "nero", "eo"),
    ("danto", "judge", "eo"),
    ("holiday", "cyther", "eo"),
    ("sun-hwa", "helga", "eo"),
    ("trigg", "pathologist", "eo"),
    ("ugly-dan", "modjob", "nero"),
]


@pytest.mark.parametrize("gray,target,other", GRAYS)
def test_gray_moves_a_card_under_itself_and_may_gain_it(gray, target, other):
    st = scenario(hands={0: [gray]}, locations={"jupiter": [target, other], "mars": ["stock-broker"]})
    play(st, gray, "mars")
    assert location_names(st, "mars") == ["stock-broker", target, gray]  # forced move: single choice
    assert st.decision().kind == "may"
    play(st, "yes")
    assert hand_names(st, 0) == [target] and at_next_turn(st)  # ended the turn
    check(st)


@pytest.mark.parametrize("gray,target,other", GRAYS)
def test_gray_declines_the_gain(gray, target, other):
    st = scenario(hands={0: [gray]}, locations={"jupiter": [target, other]})
    play(st, gray, "mars", "no")
    assert location_names(st, "mars") == [target, gray] and location_names(st, "jupiter") == [other]
    assert at_gain_step(st)


@pytest.mark.parametrize("gray,target,other", GRAYS)
def test_gray_nothing_to_move(gray, target, other):
    st = scenario(hands={0: [gray]}, locations={"jupiter": [other]})
    play(st, gray, "mars")
    assert location_names(st, "mars") == [gray] and at_gain_step(st)


def test_gray_chooses_among_several_and_ignores_face_down_and_itself():
    st = scenario(
        hands={0: ["trigg"]},
        locations={"jupiter": ["pathologist", "bridge"], "luna": ["surgeon"]},
        facedown={"surgeon": 1},
    )
    play(st, "trigg", "jupiter")
    assert set(st.decision().options) == {"jupiter:0", "jupiter:1"}
    play(st, "jupiter:0", "no")
    assert location_names(st, "jupiter") == ["bridge", "pathologist", "trigg"]


# ================================================================ Oranges
ORANGES = [
    ("aegis-craftsman", "nero", "eo"),
    ("artificer", "cyther", "eo"),
    ("artificer", "nero", "eo"),
    ("cyther", "invictus", "eo"),
    ("gravboot-cobbler", "bridge", "eo"),
    ("gravboot-cobbler", "nero", "eo"),
    ("pulse-armorer", "trigg", "nero"),
    ("pulse-fist-engineer", "helga", "nero"),
    ("razor-designer", "nero", "eo"),
]


@pytest.mark.parametrize("orange,target,other", ORANGES)
def test_orange_gains_a_card_of_its_colors_here_and_ends_turn(orange, target, other):
    st = scenario(hands={0: [orange]}, locations={"mars": [target, other]})
    play(st, orange, "mars")
    assert st.decision().options == ("mars:0", "none")
    play(st, "mars:0")
    assert hand_names(st, 0) == [target] and at_next_turn(st)


@pytest.mark.parametrize("orange,target,other", ORANGES)
def test_orange_declined_and_impossible(orange, target, other):
    st = scenario(hands={0: [orange]}, locations={"mars": [target, other]})
    play(st, orange, "mars", "none")
    assert at_gain_step(st) and location_names(st, "mars") == [target, other, orange]
    st = scenario(hands={0: [orange]}, locations={"mars": [other], "luna": [target]})
    play(st, orange, "mars")
    assert at_gain_step(st)


def test_artificer_not_itself():
    st = scenario(hands={0: ["artificer"]}, locations={"mars": ["eo"]})
    play(st, "artificer", "mars")
    assert at_gain_step(st)


# ================================================================ text
KEYWORDS = {
    "dr-virany": ["Mars", "top 2 cards", "under this card", "any order"],
    "group-counselor": ["up to 3", "banished", "top or bottom of the deck"],
    "hypnotist": ["clockwise", "each player", "hand", "banish", "top card of the deck"],
    "pathologist": ["Banish", "bottom card", "if it's not this card"],
    "psychologist": ["place (not deploy)", "banished", "top of", "location"],
    "researcher": ["random banished card", "bottom of this location"],
    "surgeon": ["may", "non-Gold", "hand", "banished Gold"],
    "codebreaker": ["bottom card of the deck", "Gold or Silver", "unless", "Banish"],
    "dataport-specialist": ["Jupiter", "top 2 cards", "under this card"],
    "developer": ["may gain any other card from this location", "end your turn"],
    "firewall-expert": ["top 3 cards", "face down", "each other location", "colorless"],
    "hacker": ["top card of the deck", "banish", "place (not deploy)", "another location"],
    "holo-designer": ["Luna", "top 2 cards", "under this card"],
    "online-gambler": ["Name 3 colors", "top card of the deck", "matches a color you named", "banish"],
    "banker": ["may pay 3 Helium", "gain", "this location", "banish this card"],
    "ceo": ["may regress once", "gain 2 Helium"],
    "investor": ["color other than Silver", "1 Helium for each card of that color", "this location"],
    "loan-shark": ["Choose an opponent", "2 Helium", "turn out of order", "may not gain", "1 Helium"],
    "quicksilver": ["Steal 1 Helium", "most Helium", "tied"],
    "sponsor": ["may pay 1 Helium", "2 Influence"],
    "stock-broker": ["may lose 1 Influence", "gain 2 Helium"],
    "magistrate": ["Sovereign token", "1 Helium"],
    "orator": ["Sovereign token", "1 Influence"],
    "priestess": ["Sovereign token", "advance once"],
    "seer": ["Sovereign token", "top card of the deck", "place (not deploy)", "another location"],
    "administrator": ["Institute", "top 2 cards", "under this card"],
    "auctioneer": ["Choose an opponent", "chooses one", "1 Helium", "Fleet Track", "Influence", "both other"],
    "bondilus": ["Mars", "banish", "non-Gold", "this location"],
    "diplomat": ["opponent", "may place 1 Influence"],
    "lawyer": ["Place 1 Influence"],
    "politician": ["may reveal 2 Golds", "hand", "place 2 Influence"],
    "timony": ["each Gold", "Institute", "1 Influence"],
    "bridge": ["Move a Pink or Violet", "any location", "directly under this card", "may gain", "end your turn"],
    "colonel-valentin": ["Move a Gold", "directly under this card", "may gain", "end your turn"],
    "danto": ["Copper or White", "directly under this card", "may gain"],
    "holiday": ["Orange or Blue", "directly under this card", "may gain"],
    "sun-hwa": ["Obsidian or Green", "directly under this card", "may gain"],
    "trigg": ["Gray or Yellow", "under this card", "may gain"],
    "ugly-dan": ["Red or Brown", "under this card", "may gain"],
    "aegis-craftsman": ["may gain a Gold from this location", "end your turn"],
    "artificer": ["Gold", "other", "Orange", "this location", "end your turn"],
    "cyther": ["Blue", "this location", "end your turn"],
    "gravboot-cobbler": ["Gold or Gray", "this location", "end your turn"],
    "pulse-armorer": ["may gain a Gray", "end your turn"],
    "pulse-fist-engineer": ["may gain an Obsidian", "end your turn"],
    "razor-designer": ["may gain a Gold", "end your turn"],
}
EOG_KEYWORDS = {
    "dr-virany": ["any number", "banished", "Victra", "Sevro", "Fitchner", "Red"],
    "hypnotist": ["Banish 1 other card from your hand", "top card of the deck"],
    "psychologist": ["fewest cards", "ties count", "random banished card"],
    "surgeon": ["Gain any 1 banished Gold"],
    "hacker": ["top card of the deck", "points equal to that card's core value"],
    "online-gambler": [
        "1 non-Gold color",
        "Reveal 7 cards",
        "gain all cards of that color",
        "Shuffle",
        "top of the deck",
    ],
    "banker": ["may pay 3 Helium", "top of any location"],
    "investor": ["color other than Silver", "1 Helium for each card of that color on Mars"],
    "justice": ["Sovereign token", "Luna"],
    "martyr": ["Sovereign token", "Mars"],
    "auctioneer": ["1 Helium", "advance once", "1 Influence"],
}


@pytest.mark.parametrize("slug", sorted(KEYWORDS))
def test_deploy_text_reads_like_the_card(slug):
    text = render(DEPLOY[BY_SLUG[slug]])
    for word in KEYWORDS[slug]:
        assert word.lower() in text.lower(), (slug, word, text)


@pytest.mark.parametrize("slug", sorted(EOG_KEYWORDS))
def test_end_of_game_text_reads_like_the_card(slug):
    text = render(END_OF_GAME[BY_SLUG[slug]])
    for word in EOG_KEYWORDS[slug]:
        assert word.lower() in text.lower(), (slug, word, text)


def test_family_coverage():
    from redtable.redrising.cards import COPPER, GRAY, GREEN, ORANGE, SILVER, WHITE, YELLOW

    fam = [c for c in range(NUM_CARDS) if COLOR[c] in (YELLOW, GREEN, SILVER, WHITE, COPPER, GRAY, ORANGE)]
    no_deploy = {"judge", "justice", "martyr"}
    assert {SLUG[c] for c in fam if c not in DEPLOY} == no_deploy
    assert {SLUG[c] for c in fam if c in DEPLOY} == set(KEYWORDS)
    # Gray / Orange "treat as" end-of-game choices belong to scoring
    assert not any(c in END_OF_GAME for c in fam if COLOR[c] in (GRAY, ORANGE))


# ================================================================ random games
def test_random_games_keep_every_card_in_one_place():
    from redtable.core import Rng
    from redtable.redrising.game import RedRising

    for seed in range(8):
        st = RedRising(4, multiplayer_variant=seed % 2 == 1).new_initial_state(seed)
        rng = Rng(seed + 1000)
        for _ in range(400):
            if st.phase != "play" or st.decision() is None:
                break
            st.apply(rng.choice(st.decision().options))
            check(st)
