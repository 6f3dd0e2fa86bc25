"""Deploy abilities of the Reds, Browns, Pinks, Violets, Blues and Obsidians, clause by clause."""

from __future__ import annotations

import pytest

import redtable.redrising.abilities_lowcaste as low
import redtable.redrising.game  # noqa: F401  (registers the shared abilities)
from redtable.redrising.cards import BY_SLUG, SLUG
from redtable.redrising.effects import render
from redtable.redrising.rules import DEPLOY
from redtable.redrising.testing import hand_names, location_names, play, scenario


# ---------------------------------------------------------------------------- helpers
def consistent(st) -> None:
    """Every card in exactly one place."""
    places = [c for h in st.hands for c in h] + [c for loc in st.locs for c in loc] + st.deck + st.banished
    assert sorted(places) == list(range(112))


def dec(st):
    return st.decision()


def kind(st) -> str:
    return st.decision().kind


def options(st) -> tuple:
    return st.decision().options


def events(st, k: str) -> list:
    return [e for e in st.events if e.kind == k]


def hand_reveals(st) -> list:
    return [e for e in st.events if e.kind == "reveal" and e.data.get("source") == "hand"]


def banished(st) -> list[str]:
    return sorted(SLUG[c] for c in st.banished)


def at_gain_step(st, player: int = 0) -> bool:
    """The Lead's final gain step of ``player`` is pending, or was taken from the deck without
    asking (the only option left): the turn did not end."""
    d = st.decision()
    if d is not None and d.kind == "gain" and d.player == player:
        return True
    return not turn_ended(st, player) and any(e.kind == "die" and e.data["player"] == player for e in st.events)


def turn_ended(st, player: int = 0) -> bool:
    return any(e.kind == "end_turn" and e.data["player"] == player for e in st.events)


def effect_logged(st, slug: str) -> bool:
    return any(e.kind == "ability_effect" and e.data["card"] == slug for e in st.events)


def empty_deck(st) -> None:
    st.banished.extend(st.deck)
    st.deck.clear()


# ============================================================================ Reds
class TestArlus:
    def test_gold_revealed_is_banished(self):
        st = scenario(2, hands={0: ["arlus"], 1: ["nero"]}, locations={"mars": ["deanna"]})
        play(st, "arlus", "jupiter")
        assert banished(st) == ["nero"]
        assert st.hands[1] == []
        assert location_names(st, "jupiter") == ["arlus"]
        rev = hand_reveals(st)
        assert rev[-1].data["player"] == 1 and rev[-1].data["card"] == "nero" and rev[-1].to is None
        assert at_gain_step(st)
        consistent(st)

    def test_red_revealed_banishes_arlus(self):
        st = scenario(2, hands={0: ["arlus"], 1: ["eo"]})
        play(st, "arlus", "jupiter")
        assert banished(st) == ["arlus"]
        assert hand_names(st, 1) == ["eo"]
        assert location_names(st, "jupiter") == []
        assert at_gain_step(st)
        consistent(st)

    def test_other_colour_revealed_nothing_happens(self):
        st = scenario(2, hands={0: ["arlus"], 1: ["lawyer"]})
        play(st, "arlus", "luna")
        assert banished(st) == []
        assert hand_names(st, 1) == ["lawyer"]
        assert location_names(st, "luna") == ["arlus"]
        assert hand_reveals(st)[-1].data["card"] == "lawyer"

    def test_random_card_uses_rng_and_comes_from_hand(self):
        seen = set()
        for seed in range(12):
            st = scenario(2, hands={0: ["arlus"], 1: ["lawyer", "banker", "judge", "seer"]}, seed=seed)
            play(st, "arlus", "luna")
            seen.add(hand_reveals(st)[-1].data["card"])
            assert len(st.hands[1]) == 4
        assert len(seen) > 1 and seen <= {"lawyer", "banker", "judge", "seer"}

    def test_both_neighbours_but_not_across_the_table(self):
        st = scenario(4, hands={0: ["arlus"], 1: ["nero"], 2: ["octavia"], 3: ["romulus"]})
        play(st, "arlus", "mars")
        assert banished(st) == ["nero", "romulus"]
        assert hand_names(st, 2) == ["octavia"]
        assert [e.data["player"] for e in hand_reveals(st)] == [1, 3]
        consistent(st)

    def test_two_reds_banish_arlus_once(self):
        st = scenario(3, hands={0: ["arlus"], 1: ["eo"], 2: ["dancer"]})
        play(st, "arlus", "mars")
        assert banished(st) == ["arlus"]
        consistent(st)

    def test_empty_hands_ability_skipped_card_deployed(self):
        st = scenario(2, hands={0: ["arlus"], 1: []})
        play(st, "arlus", "mars")
        assert location_names(st, "mars") == ["arlus"]
        assert hand_reveals(st) == []
        assert not effect_logged(st, "arlus")
        assert at_gain_step(st)

    def test_blocked_by_a_blocker(self):
        # Both cards are Golds: whichever is revealed, banishing it is an attempt the Howlers block.
        st = scenario(2, hands={0: ["arlus"], 1: ["the-howlers", "nero"]})
        play(st, "arlus", "mars")
        d = dec(st)
        assert d.player == 1 and d.kind == "block" and d.options == ("block:the-howlers", "no")
        play(st, "block:the-howlers")
        assert banished(st) == []
        assert hand_names(st, 1) == ["nero", "the-howlers"]
        assert events(st, "block")[-1].data["player"] == 1
        assert at_gain_step(st)

    def test_block_declined(self):
        st = scenario(2, hands={0: ["arlus"], 1: ["judge", "nero"]}, locations={"luna": ["seer"]}, seed=1)
        play(st, "arlus", "mars")
        assert hand_reveals(st)[-1].data["card"] == "nero"  # this seed reveals Nero
        assert dec(st).player == 1 and dec(st).options == ("block:judge", "no")
        play(st, "no")
        assert banished(st) == ["nero"] and hand_names(st, 1) == ["judge"]
        assert at_gain_step(st)
        consistent(st)

    def test_revealed_blocker_that_is_not_gold_is_not_an_attempt(self):
        st = scenario(2, hands={0: ["arlus"], 1: ["judge", "nero"]}, locations={"luna": ["seer"]}, seed=3)
        play(st, "arlus", "mars")
        assert hand_reveals(st)[-1].data["card"] == "judge"  # this seed reveals the Judge (White)
        assert banished(st) == [] and at_gain_step(st)

    def test_multiplayer_variant_only_neighbours_above_starting_hand(self):
        six = ["nero", "lawyer", "banker", "seer", "judge", "orator"]
        st = scenario(4, hands={0: ["arlus"], 1: six, 2: ["octavia"], 3: ["romulus"]}, variant=True)
        play(st, "arlus", "mars")
        assert [e.data["player"] for e in hand_reveals(st)] == [1]
        assert hand_names(st, 3) == ["romulus"]

    def test_multiplayer_variant_no_neighbour_eligible(self):
        st = scenario(4, hands={0: ["arlus"], 1: ["nero"], 3: ["romulus"]}, variant=True)
        play(st, "arlus", "mars")
        assert hand_reveals(st) == [] and banished(st) == []
        assert location_names(st, "mars") == ["arlus"]


class TestDancer:
    def test_one_helium_without_reds(self):
        st = scenario(2, hands={0: ["dancer", "eo"]})
        play(st, "dancer", "mars")
        assert st.helium[0] == 1
        assert hand_reveals(st) == []

    def test_two_other_reds_revealed_for_two_more(self):
        st = scenario(2, hands={0: ["dancer", "eo", "harmony", "lawyer"]}, locations={"luna": ["seer"]})
        play(st, "dancer", "mars")
        assert st.helium[0] == 3
        rev = hand_reveals(st)
        assert sorted(e.data["card"] for e in rev) == ["eo", "harmony"]
        assert all(e.data["player"] == 0 and e.to is None for e in rev)
        assert hand_names(st, 0) == ["eo", "harmony", "lawyer"]
        assert at_gain_step(st)


class TestDarrow:
    def test_gain_non_gold_and_banished_off_gold(self):
        st = scenario(2, hands={0: ["darrow"]}, locations={"mars": ["nero", "lawyer", "banker"], "luna": ["seer"]})
        play(st, "darrow", "mars")
        assert dec(st).kind == "choose_card" and set(options(st)) == {"mars:1", "mars:2"}
        play(st, "mars:1")
        assert hand_names(st, 0) == ["lawyer"]
        assert "darrow" in banished(st)
        consistent(st)

    def test_deployed_on_gold_stays(self):
        st = scenario(2, hands={0: ["darrow"]}, locations={"mars": ["lawyer", "nero"], "luna": ["seer"]})
        play(st, "darrow", "mars")
        assert hand_names(st, 0) == ["lawyer"]
        assert location_names(st, "mars") == ["nero", "darrow"]

    def test_nothing_to_gain_ability_ignored_and_darrow_stays(self):
        st = scenario(2, hands={0: ["darrow"]}, locations={"mars": ["lawyer"]})
        play(st, "darrow", "jupiter")
        assert banished(st) == []
        assert location_names(st, "jupiter") == ["darrow"]
        assert at_gain_step(st)

    def test_face_down_gold_counts_as_non_gold(self):
        st = scenario(2, hands={0: ["darrow"]}, locations={"mars": ["nero"], "luna": ["seer"]}, facedown={"nero": 1})
        play(st, "darrow", "mars")
        assert hand_names(st, 0) == ["nero"]
        assert "darrow" in banished(st)


class TestHeliumReds:
    def test_deanna(self):
        st = scenario(2, hands={0: ["deanna"]})
        play(st, "deanna", "luna")
        assert st.helium == [1, 0]

    def test_uncle_narol(self):
        st = scenario(2, hands={0: ["uncle-narol"]})
        play(st, "uncle-narol", "luna")
        assert st.helium == [2, 0]


class TestEo:
    def test_opponent_chooses_which_red_to_reveal(self):
        st = scenario(3, hands={0: ["eo"], 1: ["dancer", "harmony", "nero"], 2: ["lawyer"]}, helium=[0, 2, 2])
        play(st, "eo", "mars")
        d = dec(st)
        assert d.player == 1 and d.kind == "reveal" and set(d.options) == {"dancer", "harmony"}
        play(st, "harmony")
        assert hand_reveals(st)[-1].data == {"player": 1, "card": "harmony", "source": "hand", "reason": "must_reveal"}
        assert st.helium == [0, 2, 1]  # player 2 had no Red
        assert hand_names(st, 1) == ["dancer", "harmony", "nero"]
        assert at_gain_step(st)

    def test_single_red_revealed_without_asking(self):
        st = scenario(2, hands={0: ["eo"], 1: ["deanna", "nero"]}, helium=[0, 3])
        play(st, "eo", "mars")
        assert hand_reveals(st)[-1].data["card"] == "deanna"
        assert st.helium == [0, 3]
        assert at_gain_step(st)

    def test_no_red_and_no_helium_nothing(self):
        st = scenario(2, hands={0: ["eo"], 1: ["nero"]})
        play(st, "eo", "mars")
        assert st.helium == [0, 0]
        assert events(st, "cannot_reveal")[-1].data["player"] == 1
        assert at_gain_step(st)

    def test_every_opponent(self):
        st = scenario(4, hands={0: ["eo"]}, helium=[1, 1, 1, 1])
        play(st, "eo", "mars")
        assert st.helium == [1, 0, 0, 0]


class TestHarmony:
    def test_opponent_of_your_choice_loses_one(self):
        st = scenario(3, hands={0: ["harmony"]}, helium=[0, 2, 3])
        play(st, "harmony", "mars")
        assert dec(st).kind == "choose_opponent" and options(st) == ("p1", "p2")
        play(st, "p2")
        assert st.helium == [0, 2, 2]

    def test_only_opponents_with_helium(self):
        st = scenario(3, hands={0: ["harmony"]}, helium=[0, 0, 3])
        play(st, "harmony", "mars")
        assert st.helium == [0, 0, 2]
        assert at_gain_step(st)

    def test_nobody_has_helium_skipped(self):
        st = scenario(3, hands={0: ["harmony"]}, helium=[4, 0, 0])
        play(st, "harmony", "mars")
        assert st.helium == [4, 0, 0]
        assert location_names(st, "mars") == ["harmony"]
        assert at_gain_step(st)


# ============================================================================ Browns
MOVERS = [  # card, a matching colour under it, a non-matching one, resource checked
    ("artisan-chef", "nero", "lawyer", "influence"),
    ("gardener", "musician", "lawyer", "helium"),
    ("gardener", "evey", "nero", "helium"),
    ("janitor", "hacker", "lawyer", "fleet"),
    ("janitor", "surgeon", "nero", "fleet"),
    ("janitor", "invictus", "evey", "fleet"),
    ("mess-hall-cook", "bridge", "lawyer", "fleet"),
    ("mess-hall-cook", "cyther", "nero", "fleet"),
    ("nanny", "banker", "nero", "helium"),
    ("nanny", "judge", "eo", "helium"),
    ("nanny", "lawyer", "hacker", "helium"),
]


def _res(st, what):
    return {"helium": st.helium, "influence": st.influence, "fleet": st.fleet}[what][0]


class TestBrownMovers:
    @pytest.mark.parametrize("brown,match,_other,res", MOVERS)
    def test_on_matching_colour_moves_it_and_gains(self, brown, match, _other, res):
        st = scenario(2, hands={0: [brown]}, locations={"mars": ["deanna", match], "luna": ["orator"]})
        play(st, brown, "mars")
        assert dec(st).kind == "move_location" and options(st) == ("jupiter", "luna", "institute")
        play(st, "luna")
        assert location_names(st, "luna") == ["orator", match]
        assert location_names(st, "mars") == ["deanna", brown]
        assert _res(st, res) == 1
        assert at_gain_step(st)
        # still deployed on Mars for the Lead's gain step
        assert "mars" not in options(st)
        consistent(st)

    @pytest.mark.parametrize("brown,_match,other,res", MOVERS)
    def test_on_other_colour_nothing(self, brown, _match, other, res):
        st = scenario(2, hands={0: [brown]}, locations={"mars": [other]})
        play(st, brown, "mars")
        assert location_names(st, "mars") == [other, brown]
        assert _res(st, res) == 0
        assert at_gain_step(st)
        assert not effect_logged(st, brown)

    @pytest.mark.parametrize("brown", ["artisan-chef", "gardener", "janitor", "mess-hall-cook", "nanny", "modjob"])
    def test_on_empty_location_nothing(self, brown):
        st = scenario(2, hands={0: [brown]})
        play(st, brown, "mars")
        assert location_names(st, "mars") == [brown]
        assert (st.helium[0], st.influence[0], st.fleet[0]) == (0, 0, 0)
        assert at_gain_step(st)

    def test_not_directly_on_top(self):
        # The Gold is lower in the pile: only the card directly under counts.
        st = scenario(2, hands={0: ["artisan-chef"]}, locations={"mars": ["nero", "lawyer"]})
        play(st, "artisan-chef", "mars")
        assert location_names(st, "mars") == ["nero", "lawyer", "artisan-chef"]
        assert st.influence[0] == 0

    def test_face_down_card_is_colourless(self):
        st = scenario(2, hands={0: ["artisan-chef"]}, locations={"mars": ["nero"]}, facedown={"nero": 1})
        play(st, "artisan-chef", "mars")
        assert location_names(st, "mars") == ["nero", "artisan-chef"]
        assert st.influence[0] == 0


class TestModjob:
    def test_deploys_red_under_it_elsewhere_triggering_its_ability(self):
        st = scenario(
            2, hands={0: ["modjob"]}, locations={"mars": ["deanna"], "luna": ["lawyer"], "institute": ["seer"]}
        )
        play(st, "modjob", "mars")
        assert dec(st).kind == "deploy_location" and options(st) == ("jupiter", "luna", "institute")
        play(st, "luna")
        assert location_names(st, "luna") == ["lawyer", "deanna"]
        assert location_names(st, "mars") == ["modjob"]
        assert st.helium[0] == 1  # Deanna's deploy ability
        assert [e.data["card"] for e in events(st, "deploy")] == ["modjob", "deanna"]
        # both locations deployed to this turn are closed to the Lead's final gain
        assert at_gain_step(st) and set(options(st)) == {"institute", "deck"}

    def test_deploys_brown(self):
        st = scenario(2, hands={0: ["modjob"]}, locations={"mars": ["nero", "assassin"]})
        play(st, "modjob", "mars", "jupiter")
        assert location_names(st, "jupiter") == ["assassin"]  # Assassin's ability: nothing under it
        assert location_names(st, "mars") == ["nero", "modjob"]

    def test_other_colour_not_deployed(self):
        st = scenario(2, hands={0: ["modjob"]}, locations={"mars": ["lawyer"]})
        play(st, "modjob", "mars")
        assert location_names(st, "mars") == ["lawyer", "modjob"]
        assert at_gain_step(st)


class TestAssassin:
    def test_banish_gold_places_influence(self):
        st = scenario(2, hands={0: ["assassin"]}, locations={"mars": ["lawyer", "nero"]})
        play(st, "assassin", "mars")
        assert banished(st) == ["nero"]
        assert st.influence[0] == 1
        assert location_names(st, "mars") == ["lawyer", "assassin"]
        consistent(st)

    def test_banish_non_gold_no_influence(self):
        st = scenario(2, hands={0: ["assassin"]}, locations={"mars": ["nero", "lawyer"]})
        play(st, "assassin", "mars")
        assert banished(st) == ["lawyer"]
        assert st.influence[0] == 0

    def test_empty_location_skipped(self):
        st = scenario(2, hands={0: ["assassin"]})
        play(st, "assassin", "mars")
        assert banished(st) == [] and location_names(st, "mars") == ["assassin"]
        assert at_gain_step(st)

    def test_face_down_gold_is_revealed_gold_once_banished(self):
        st = scenario(2, hands={0: ["assassin"]}, locations={"mars": ["nero"]}, facedown={"nero": 1})
        play(st, "assassin", "mars")
        assert banished(st) == ["nero"]
        assert st.influence[0] == 1


# ============================================================================ Pinks
class TestCalliope:
    def test_reveals_and_deploys_top_card_elsewhere(self):
        st = scenario(2, hands={0: ["calliope"]}, deck_top=["deanna", "lawyer"], locations={"institute": ["seer"]})
        play(st, "calliope", "mars")
        d = dec(st)
        assert d.kind == "deploy_location" and d.options == ("jupiter", "luna", "institute")
        assert d.context["card"] == "deanna"
        assert events(st, "reveal")[-1].data["card"] == "deanna"
        play(st, "luna")
        assert location_names(st, "luna") == ["deanna"]
        assert st.helium[0] == 1  # its deploy ability triggered
        assert SLUG[st.deck[-1]] == "lawyer"
        assert at_gain_step(st) and set(options(st)) == {"institute", "deck"}  # not Mars, not Luna
        consistent(st)

    def test_deployed_card_can_end_the_turn(self):
        st = scenario(2, hands={0: ["calliope"]}, deck_top=["holo-host"], influence=[2, 0])
        play(st, "calliope", "mars", "luna")
        assert hand_names(st, 1) == ["holo-host"]
        assert turn_ended(st)

    def test_empty_deck_skipped(self):
        st = scenario(2, hands={0: ["calliope"]}, locations={"luna": ["seer"], "institute": ["orator"]})
        empty_deck(st)
        play(st, "calliope", "mars")
        assert location_names(st, "mars") == ["calliope"]
        assert at_gain_step(st)
        consistent(st)


class TestConversationalist:
    def test_white_moved_under_then_gained(self):
        st = scenario(2, hands={0: ["conversationalist"]}, locations={"mars": ["lawyer"], "luna": ["nero", "judge"]})
        play(st, "conversationalist", "mars")
        # a single possible card (Luna's top) is taken without asking
        assert hand_names(st, 0) == ["judge"]
        assert location_names(st, "mars") == ["lawyer", "conversationalist"]
        assert location_names(st, "luna") == ["nero"]

    def test_other_card_stays_under(self):
        st = scenario(
            2,
            hands={0: ["conversationalist"]},
            locations={"mars": ["lawyer"], "luna": ["judge", "nero"], "jupiter": ["eo"]},
        )
        play(st, "conversationalist", "mars")
        assert set(options(st)) == {"luna:1", "jupiter:0"}  # tops of other locations only
        play(st, "luna:1")
        assert location_names(st, "mars") == ["lawyer", "nero", "conversationalist"]
        assert hand_names(st, 0) == []
        assert at_gain_step(st)

    def test_no_other_card_skipped(self):
        st = scenario(2, hands={0: ["conversationalist"]}, locations={"mars": ["judge"]})
        play(st, "conversationalist", "mars")
        assert location_names(st, "mars") == ["judge", "conversationalist"]
        assert not effect_logged(st, "conversationalist")
        assert at_gain_step(st)


class TestEvey:
    def test_banish_all_influence_per_gold_max_three(self):
        golds = ["nero", "octavia", "romulus", "roque"]
        st = scenario(2, hands={0: ["evey"]}, locations={"mars": golds + ["lawyer"]})
        play(st, "evey", "mars")
        assert banished(st) == sorted(golds + ["lawyer", "evey"])
        assert location_names(st, "mars") == []
        assert st.influence[0] == 3
        assert at_gain_step(st)
        consistent(st)

    def test_one_gold(self):
        st = scenario(2, hands={0: ["evey"]}, locations={"mars": ["nero", "lawyer"]})
        play(st, "evey", "mars")
        assert st.influence[0] == 1

    def test_alone(self):
        st = scenario(2, hands={0: ["evey"]}, locations={"luna": ["nero"]})
        play(st, "evey", "mars")
        assert banished(st) == ["evey"] and st.influence[0] == 0
        assert location_names(st, "luna") == ["nero"]
        assert at_gain_step(st) and "mars" not in options(st)


class TestGardenTrainedRose:
    def test_silver_moved_gains_helium(self):
        st = scenario(2, hands={0: ["garden-trained-rose"]}, locations={"mars": ["banker"]})
        play(st, "garden-trained-rose", "mars")
        assert options(st) == ("jupiter", "luna", "institute")
        play(st, "institute")
        assert location_names(st, "institute") == ["banker"]
        assert st.helium[0] == 1

    def test_other_moved_no_helium(self):
        st = scenario(2, hands={0: ["garden-trained-rose"]}, locations={"mars": ["banker", "nero"]})
        play(st, "garden-trained-rose", "mars", "jupiter")
        assert location_names(st, "jupiter") == ["nero"]
        assert location_names(st, "mars") == ["banker", "garden-trained-rose"]
        assert st.helium[0] == 0
        assert at_gain_step(st)

    def test_nothing_under_skipped(self):
        st = scenario(2, hands={0: ["garden-trained-rose"]})
        play(st, "garden-trained-rose", "mars")
        assert at_gain_step(st)


class TestMasseuse:
    def test_move_top_of_another_location_gain_its_bonus(self):
        st = scenario(2, hands={0: ["masseuse"]}, locations={"mars": ["lawyer", "nero"], "luna": ["eo"]})
        play(st, "masseuse", "luna")
        # Only one choice (Mars' top card, taken without asking): then where to.
        d = dec(st)
        assert d.kind == "move_location" and d.options == ("jupiter", "luna", "institute")
        play(st, "luna")  # a different location: Masseuse's own is allowed
        assert location_names(st, "luna") == ["eo", "masseuse", "nero"]
        assert st.helium[0] == 1  # Mars bonus
        assert events(st, "bonus")[-1].data["location"] == "mars"
        assert at_gain_step(st)

    def test_luna_origin_gains_sovereign(self):
        st = scenario(2, hands={0: ["masseuse"]}, locations={"luna": ["nero"], "jupiter": ["eo"]})
        play(st, "masseuse", "mars")
        assert set(options(st)) == {"luna:0", "jupiter:0"}
        play(st, "luna:0", "institute")
        assert st.sovereign == 0
        assert st.influence[0] == 1  # house Diana
        assert location_names(st, "institute") == ["nero"]

    def test_nothing_elsewhere_skipped(self):
        st = scenario(2, hands={0: ["masseuse"]}, locations={"mars": ["nero"]})
        play(st, "masseuse", "mars")
        assert location_names(st, "mars") == ["nero", "masseuse"]
        assert at_gain_step(st)


class TestMatteo:
    def test_pink_moved_places_influence(self):
        st = scenario(2, hands={0: ["matteo"]}, locations={"mars": ["evey", "nero"]})
        play(st, "matteo", "mars")
        assert set(options(st)) == {"mars:0", "mars:1"}
        play(st, "mars:0")
        assert options(st) == ("jupiter", "luna", "institute")
        play(st, "jupiter")
        assert location_names(st, "jupiter") == ["evey"]
        assert location_names(st, "mars") == ["nero", "matteo"]
        assert st.influence[0] == 1

    def test_non_pink_no_influence(self):
        st = scenario(2, hands={0: ["matteo"]}, locations={"mars": ["evey", "nero"]})
        play(st, "matteo", "mars", "mars:1", "jupiter")
        assert location_names(st, "jupiter") == ["nero"]
        assert st.influence[0] == 0

    def test_alone_skipped(self):
        st = scenario(2, hands={0: ["matteo"]})
        play(st, "matteo", "mars")
        assert at_gain_step(st)


class TestTheodora:
    def test_gold_moved_on_top_gained_turn_ends(self):
        st = scenario(2, hands={0: ["theodora"]}, locations={"mars": ["nero", "lawyer"]})
        play(st, "theodora", "mars")
        assert dec(st).kind == "may"
        play(st, "yes")
        assert hand_names(st, 0) == ["nero"]
        assert location_names(st, "mars") == ["lawyer", "theodora"]
        assert turn_ended(st)
        assert dec(st).player == 1 and kind(st) == "action"
        consistent(st)

    def test_red_gained(self):
        st = scenario(2, hands={0: ["theodora"]}, locations={"mars": ["eo"]})
        play(st, "theodora", "mars", "yes")
        assert hand_names(st, 0) == ["eo"]
        assert turn_ended(st)

    def test_other_moved_on_top_turn_goes_on(self):
        st = scenario(2, hands={0: ["theodora"]}, locations={"mars": ["lawyer", "nero"], "luna": ["seer"]})
        play(st, "theodora", "mars", "yes")
        assert location_names(st, "mars") == ["nero", "theodora", "lawyer"]
        assert hand_names(st, 0) == []
        assert at_gain_step(st)

    def test_declined(self):
        st = scenario(2, hands={0: ["theodora"]}, locations={"mars": ["nero"], "luna": ["seer"]})
        play(st, "theodora", "mars", "no")
        assert location_names(st, "mars") == ["nero", "theodora"]
        assert hand_names(st, 0) == []
        assert at_gain_step(st)

    def test_alone_skipped(self):
        st = scenario(2, hands={0: ["theodora"]})
        play(st, "theodora", "mars")
        assert at_gain_step(st)


# ============================================================================ Violets
class TestPainter:
    def test_only_locations_without_that_colour(self):
        st = scenario(
            2, hands={0: ["4d-painter"]}, locations={"mars": ["nero"], "jupiter": ["octavia"], "luna": ["lawyer"]}
        )
        play(st, "4d-painter", "mars")
        assert set(options(st)) == {"mars:0", "mars:1"}  # Nero, or the Painter itself
        play(st, "mars:0")
        assert options(st) == ("luna", "institute")
        play(st, "luna")
        assert location_names(st, "luna") == ["lawyer", "nero"]
        assert at_gain_step(st)

    def test_may_move_itself(self):
        st = scenario(2, hands={0: ["4d-painter"]}, locations={"jupiter": ["musician"]})
        play(st, "4d-painter", "mars")  # the only card: chosen without asking
        assert options(st) == ("luna", "institute")
        play(st, "luna")
        assert location_names(st, "luna") == ["4d-painter"]
        assert at_gain_step(st) and "mars" not in options(st)  # still deployed on Mars

    def test_card_without_destination_not_offered(self):
        st = scenario(
            2,
            hands={0: ["4d-painter"]},
            locations={
                "mars": ["nero"],
                "jupiter": ["octavia", "musician"],
                "luna": ["roque", "zanzibar"],
                "institute": ["romulus", "reporter"],
            },
        )
        play(st, "4d-painter", "mars")
        assert kind(st) == "gain"  # neither Nero nor the Painter can go anywhere
        assert location_names(st, "mars") == ["nero", "4d-painter"]

    def test_face_down_cards_share_no_colour(self):
        st = scenario(
            2,
            hands={0: ["4d-painter"]},
            locations={"mars": ["nero"], "jupiter": ["octavia"], "luna": ["lawyer"]},
            facedown={"octavia": 1},
        )
        play(st, "4d-painter", "mars", "mars:0")
        assert options(st) == ("jupiter", "luna", "institute")


class TestGivers:
    @pytest.mark.parametrize("slug,kw", [("holo-host", "influence"), ("reporter", "helium"), ("vlogger", "fleet")])
    def test_ahead_of_right_player(self, slug, kw):
        tokens = {kw: [2, 1, 3, 1]}  # player 3 is on player 0's right
        st = scenario(4, hands={0: [slug]}, deck_top=["nero", "lawyer", "eo"], **tokens)
        play(st, slug, "mars")
        assert hand_names(st, 3) == [slug]
        assert hand_names(st, 0) == ["lawyer", "nero"]
        assert location_names(st, "mars") == []
        assert turn_ended(st)
        assert dec(st).player == 1 and kind(st) == "action"
        assert [e.to for e in events(st, "gain_seen")][-2:] == [(0,), (0,)]
        consistent(st)

    @pytest.mark.parametrize("slug,kw", [("holo-host", "influence"), ("reporter", "helium"), ("vlogger", "fleet")])
    def test_tied_nothing(self, slug, kw):
        st = scenario(4, hands={0: [slug]}, **{kw: [2, 0, 0, 2]})
        play(st, slug, "mars")
        assert location_names(st, "mars") == [slug]
        assert hand_names(st, 3) == []
        assert at_gain_step(st)

    def test_left_player_does_not_count(self):
        st = scenario(4, hands={0: ["reporter"]}, helium=[2, 0, 0, 5])
        play(st, "reporter", "mars")
        assert location_names(st, "mars") == ["reporter"]

    def test_short_deck(self):
        st = scenario(2, hands={0: ["reporter"]}, helium=[1, 0])
        empty_deck(st)
        st.deck.append(st.banished.pop())
        play(st, "reporter", "mars")
        assert len(st.hands[0]) == 1 and hand_names(st, 1) == ["reporter"]
        assert turn_ended(st)
        consistent(st)


class TestMickey:
    def test_banish_red_dig_for_gold_order_bottom(self):
        st = scenario(
            2,
            hands={0: ["mickey-the-carver", "eo", "deanna"]},
            deck_top=["lawyer", "banker", "judge", "nero", "seer"],
            locations={"luna": ["orator"]},
        )
        play(st, "mickey-the-carver", "mars")
        d = dec(st)
        assert d.kind == "banish_from_hand" and set(d.options) == {"eo", "deanna", "none"}
        play(st, "eo")
        assert "eo" in banished(st)
        assert "nero" in hand_names(st, 0)
        assert [e.data["card"] for e in events(st, "reveal")][-4:] == ["lawyer", "banker", "judge", "nero"]
        d = dec(st)
        assert d.kind == "bottom_order" and set(d.options) == {"lawyer", "banker", "judge"}
        play(st, "banker", "lawyer")
        assert [SLUG[c] for c in st.deck[:3]] == ["judge", "lawyer", "banker"]  # judge chosen last: very bottom
        assert SLUG[st.deck[-1]] == "seer"
        assert at_gain_step(st)
        consistent(st)

    def test_gold_on_top(self):
        st = scenario(
            2, hands={0: ["mickey-the-carver", "eo"]}, deck_top=["nero", "lawyer"], locations={"luna": ["orator"]}
        )
        play(st, "mickey-the-carver", "mars", "eo")
        assert hand_names(st, 0) == ["nero"]
        assert SLUG[st.deck[-1]] == "lawyer"
        assert at_gain_step(st)

    def test_declined(self):
        st = scenario(
            2, hands={0: ["mickey-the-carver", "eo"]}, deck_top=["lawyer", "nero"], locations={"luna": ["orator"]}
        )
        play(st, "mickey-the-carver", "mars", "none")
        assert hand_names(st, 0) == ["eo"] and banished(st) == []
        assert SLUG[st.deck[-1]] == "lawyer"
        assert at_gain_step(st)

    def test_no_red_skipped(self):
        st = scenario(2, hands={0: ["mickey-the-carver", "nero"]})
        play(st, "mickey-the-carver", "mars")
        assert at_gain_step(st)
        assert not effect_logged(st, "mickey-the-carver")

    def test_no_gold_left_all_revealed_go_under(self):
        st = scenario(
            2, hands={0: ["mickey-the-carver", "eo"]}, deck_top=["lawyer", "banker"], locations={"luna": ["orator"]}
        )
        empty_deck(st)
        for s in ("banker", "lawyer"):
            c = BY_SLUG[s]
            st.banished.remove(c)
            st.deck.append(c)
        play(st, "mickey-the-carver", "mars", "eo", "lawyer")
        assert [SLUG[c] for c in st.deck] == ["banker", "lawyer"]
        assert hand_names(st, 0) == []
        assert events(st, "not_found")
        consistent(st)


class TestParityMovers:
    def test_musician_even_including_zero(self):
        st = scenario(2, hands={0: ["musician"]}, locations={"mars": ["surgeon", "nero", "octavia"]})
        play(st, "musician", "mars")
        assert set(options(st)) == {"mars:0", "mars:2", "mars:3"}  # 0, 30 and the Musician's 8
        play(st, "mars:0", "luna")
        assert location_names(st, "luna") == ["surgeon"]
        assert at_gain_step(st)

    def test_zanzibar_odd(self):
        st = scenario(2, hands={0: ["zanzibar"]}, locations={"mars": ["surgeon", "nero", "lawyer"]})
        play(st, "zanzibar", "mars")
        assert set(options(st)) == {"mars:1", "mars:2", "mars:3"}  # Nero 25, Lawyer 13, Zanzibar 9
        play(st, "mars:2", "institute")
        assert location_names(st, "institute") == ["lawyer"]

    def test_face_down_has_no_value_parity(self):
        st = scenario(2, hands={0: ["zanzibar"]}, locations={"mars": ["lawyer"]}, facedown={"lawyer": 1})
        play(st, "zanzibar", "mars")  # only Zanzibar itself qualifies: chosen without asking
        assert kind(st) == "move_location" and dec(st).context["moving"] == "mars:1"


# ============================================================================ Blues
class TestShips:
    @pytest.mark.parametrize(
        "slug,home", [("invictus", "mars"), ("morning-star", "jupiter"), ("quietus", "institute"), ("the-pax", "luna")]
    )
    def test_advance_on_home(self, slug, home):
        st = scenario(2, hands={0: [slug]})
        play(st, slug, home)
        assert st.fleet == [1, 0]

    @pytest.mark.parametrize(
        "slug,away", [("invictus", "luna"), ("morning-star", "mars"), ("quietus", "jupiter"), ("the-pax", "institute")]
    )
    def test_elsewhere_nothing(self, slug, away):
        st = scenario(2, hands={0: [slug]})
        play(st, slug, away)
        assert st.fleet == [0, 0]
        assert at_gain_step(st)

    @pytest.mark.parametrize("slug", ["pelus", "virga"])
    def test_two_for_you_one_for_the_others(self, slug):
        st = scenario(3, hands={0: [slug]}, fleet=[9, 0, 10])
        play(st, slug, "mars")
        assert st.fleet == [10, 1, 10]


class TestOrion:
    def test_deploys_other_blue_to_jupiter(self):
        st = scenario(2, hands={0: ["orion"]}, locations={"mars": ["morning-star", "lawyer"], "luna": ["seer"]})
        play(st, "orion", "mars")
        assert location_names(st, "jupiter") == ["morning-star"]
        assert st.fleet[0] == 1  # Morning Star deployed on Jupiter
        assert location_names(st, "mars") == ["lawyer", "orion"]
        assert at_gain_step(st) and set(options(st)) == {"luna", "deck"}  # not Mars, not Jupiter

    def test_choice_between_blues(self):
        st = scenario(2, hands={0: ["orion"]}, locations={"luna": ["invictus", "virga"]})
        play(st, "orion", "luna")
        assert set(options(st)) == {"luna:0", "luna:1"}
        play(st, "luna:1")
        assert location_names(st, "jupiter") == ["virga"] and st.fleet == [2, 1]

    def test_on_jupiter_nothing(self):
        st = scenario(2, hands={0: ["orion"]}, locations={"jupiter": ["morning-star"]})
        play(st, "orion", "jupiter")
        assert location_names(st, "jupiter") == ["morning-star", "orion"]
        assert st.fleet == [0, 0]

    def test_no_other_blue_nothing(self):
        st = scenario(2, hands={0: ["orion"]}, locations={"institute": ["nero"]})
        play(st, "orion", "institute")
        assert location_names(st, "jupiter") == []
        assert at_gain_step(st)


# ============================================================================ Obsidians
class TestAlfrunJopho:
    @pytest.mark.parametrize(
        "slug,friend", [("alfrun", "nero"), ("alfrun", "jopho"), ("jopho", "alfrun"), ("jopho", "nero")]
    )
    def test_gain_friend_regain_self_end_turn(self, slug, friend):
        st = scenario(2, hands={0: [slug]}, locations={"mars": [friend, "lawyer"]})
        play(st, slug, "mars")
        assert dec(st).kind == "choose_card" and options(st) == ("mars:0", "none")
        play(st, "mars:0")
        assert hand_names(st, 0) == sorted([slug, friend])
        assert location_names(st, "mars") == ["lawyer"]
        assert turn_ended(st) and dec(st).player == 1
        consistent(st)

    def test_declined(self):
        st = scenario(2, hands={0: ["alfrun"]}, locations={"mars": ["nero"]})
        play(st, "alfrun", "mars", "none")
        assert location_names(st, "mars") == ["nero", "alfrun"]
        assert at_gain_step(st)

    def test_nobody_to_gain(self):
        st = scenario(2, hands={0: ["jopho"]}, locations={"mars": ["octavia"], "luna": ["alfrun"]})
        play(st, "jopho", "mars")
        assert at_gain_step(st)
        assert location_names(st, "mars") == ["octavia", "jopho"]


class TestAliaSnowsparrow:
    def test_top_non_gold_under_golds_gain_helium(self):
        st = scenario(
            2,
            hands={0: ["alia-snowsparrow"]},
            locations={"mars": ["lawyer"], "luna": ["eo", "banker", "nero", "octavia"], "jupiter": ["romulus"]},
        )
        play(st, "alia-snowsparrow", "mars")
        assert banished(st) == ["banker"]
        assert st.helium[0] == 1
        assert location_names(st, "luna") == ["eo", "nero", "octavia"]
        assert location_names(st, "mars") == ["lawyer", "alia-snowsparrow"]

    def test_gray_or_obsidian_no_helium(self):
        st = scenario(2, hands={0: ["alia-snowsparrow"]}, locations={"luna": ["bridge"], "jupiter": ["sefi"]})
        play(st, "alia-snowsparrow", "mars")
        assert set(options(st)) == {"luna:0", "jupiter:0"}
        play(st, "jupiter:0")
        assert banished(st) == ["sefi"] and st.helium[0] == 0

    def test_only_golds_skipped(self):
        st = scenario(2, hands={0: ["alia-snowsparrow"]}, locations={"luna": ["nero"], "mars": ["lawyer"]})
        play(st, "alia-snowsparrow", "mars")
        assert banished(st) == [] and at_gain_step(st)

    def test_face_down_gold_is_non_gold(self):
        st = scenario(2, hands={0: ["alia-snowsparrow"]}, locations={"luna": ["nero"]}, facedown={"nero": 1})
        play(st, "alia-snowsparrow", "mars")
        assert banished(st) == ["nero"] and st.helium[0] == 1


class TestHelga:
    def test_only_other_card_gains_helium(self):
        st = scenario(2, hands={0: ["helga"]}, locations={"mars": ["nero"]})
        play(st, "helga", "mars")
        assert banished(st) == ["nero"] and st.helium[0] == 1
        assert location_names(st, "mars") == ["helga"]

    def test_more_cards_no_helium(self):
        st = scenario(2, hands={0: ["helga"]}, locations={"mars": ["lawyer", "nero"]})
        play(st, "helga", "mars")
        assert banished(st) == ["nero"] and st.helium[0] == 0
        assert location_names(st, "mars") == ["lawyer", "helga"]

    def test_empty_location(self):
        st = scenario(2, hands={0: ["helga"]})
        play(st, "helga", "mars")
        assert banished(st) == [] and st.helium[0] == 0 and at_gain_step(st)


class TestRagnar:
    @pytest.mark.parametrize("top,infl", [("nero", 1), ("bridge", 1), ("lawyer", 0)])
    def test_banish_top_of_another_location(self, top, infl):
        st = scenario(2, hands={0: ["ragnar"]}, locations={"mars": ["eo"], "luna": ["octavia", top]})
        play(st, "ragnar", "mars")
        assert banished(st) == [top]
        assert st.influence[0] == infl
        assert location_names(st, "mars") == ["eo", "ragnar"]

    def test_only_own_location_skipped(self):
        st = scenario(2, hands={0: ["ragnar"]}, locations={"mars": ["nero"]})
        play(st, "ragnar", "mars")
        assert banished(st) == [] and at_gain_step(st)


class TestSefi:
    def test_gain_another_obsidian(self):
        st = scenario(2, hands={0: ["sefi"]}, locations={"mars": ["ragnar", "nero", "helga"], "luna": ["seer"]})
        play(st, "sefi", "mars")
        assert set(options(st)) == {"mars:0", "mars:2"}
        play(st, "mars:0")
        assert hand_names(st, 0) == ["ragnar"]
        assert at_gain_step(st)

    def test_none_skipped(self):
        st = scenario(2, hands={0: ["sefi"]}, locations={"mars": ["nero"], "luna": ["ragnar"]})
        play(st, "sefi", "mars")
        assert hand_names(st, 0) == [] and at_gain_step(st)


class TestStained:
    def test_banish_obsidian_places_influence(self):
        st = scenario(2, hands={0: ["stained"]}, locations={"mars": ["helga", "nero"]})
        play(st, "stained", "mars")
        assert set(options(st)) == {"mars:0", "mars:1"}
        play(st, "mars:0")
        assert banished(st) == ["helga"] and st.influence[0] == 1

    def test_banish_other_no_influence(self):
        st = scenario(2, hands={0: ["stained"]}, locations={"mars": ["helga", "nero"]})
        play(st, "stained", "mars", "mars:1")
        assert banished(st) == ["nero"] and st.influence[0] == 0

    def test_alone_skipped(self):
        st = scenario(2, hands={0: ["stained"]})
        play(st, "stained", "mars")
        assert banished(st) == [] and at_gain_step(st)


# ============================================================================ text
KEYWORDS = {
    "arlus": ["neighboring player", "random card", "Gold", "banish that card", "Red", "banish this card"],
    "dancer": ["Gain 1 Helium", "2 or more other Reds", "reveal them", "2 Helium"],
    "darrow": ["other non-Gold", "this location", "Banish this card unless", "Gold"],
    "deanna": ["Gain 1 Helium"],
    "eo": ["Each opponent must reveal a Red", "can't", "lose 1 Helium"],
    "harmony": ["opponent", "lose 1 Helium"],
    "uncle-narol": ["Gain 2 Helium"],
    "artisan-chef": ["directly on top of a Gold", "another location", "1 Influence"],
    "assassin": ["Banish the card directly under", "Gold", "1 Influence"],
    "gardener": ["directly on top of a Violet or Pink", "another location", "1 Helium"],
    "janitor": ["Green, Yellow or Blue", "another location", "Advance once"],
    "mess-hall-cook": ["Gray or Orange", "another location", "Advance once"],
    "modjob": ["Red or Brown", "deploy", "another location"],
    "nanny": ["Silver, White or Copper", "another location", "1 Helium"],
    "calliope": ["Reveal the top card of the deck", "Deploy", "face-up", "another location"],
    "conversationalist": ["another location", "under this card", "White", "gain"],
    "evey": ["Banish this card and all cards at this location", "each Gold", "1 Influence", "max 3"],
    "garden-trained-rose": ["card directly under", "another location", "Silver", "1 Helium"],
    "masseuse": ["another location", "a different location", "original location bonus"],
    "matteo": ["any other card from this location", "another location", "Pink", "1 Influence"],
    "theodora": [
        "You may move the bottom card of this location",
        "on top of this card",
        "Gold or Red",
        "gain",
        "End your turn",
    ],
    "4d-painter": ["from this location", "another location", "no cards with the same color"],
    "holo-host": ["more Influence", "player to your right", "top 2 cards", "End your turn"],
    "mickey-the-carver": [
        "You may banish a Red from your hand",
        "until you find a Gold",
        "bottom of the deck",
        "any order",
    ],
    "musician": ["even core value", "this location", "another location"],
    "reporter": ["more Helium", "player to your right", "top 2 cards", "End your turn"],
    "vlogger": ["further on the Fleet Track", "player to your right", "top 2 cards", "End your turn"],
    "zanzibar": ["odd core value", "this location", "another location"],
    "invictus": ["Mars", "advance once"],
    "morning-star": ["Jupiter", "advance once"],
    "orion": ["Mars", "Luna", "The Institute", "other Blue", "Jupiter"],
    "pelus": ["Advance twice", "All other players advance once"],
    "quietus": ["The Institute", "advance once"],
    "the-pax": ["Luna", "advance once"],
    "virga": ["Advance twice", "All other players advance once"],
    "alfrun": ["You may gain Nero or Jopho from this location", "regain", "End your turn"],
    "alia-snowsparrow": ["top non-Gold card from any other location", "not a Gray or Obsidian", "1 Helium"],
    "helga": ["card directly under", "only other card", "1 Helium"],
    "jopho": ["You may gain Alfrun or Nero from this location", "regain", "End your turn"],
    "ragnar": ["Banish", "another location", "Gold or Gray", "1 Influence"],
    "sefi": ["other Obsidian from this location"],
    "stained": ["Banish any other card from this location", "Obsidian", "1 Influence"],
}


def test_every_card_of_the_family_has_a_deploy_ability_and_keywords():
    assert set(KEYWORDS) == {SLUG[c] for c in low.LOWCASTE}
    assert len(low.LOWCASTE) == 42


@pytest.mark.parametrize("slug", sorted(KEYWORDS))
def test_rendered_text_mentions_printed_words(slug):
    text = render(DEPLOY[BY_SLUG[slug]])
    for word in KEYWORDS[slug]:
        assert word.lower() in text.lower(), (slug, word, text)


# ============================================================================ random games
def test_random_games_keep_every_card_in_one_place():
    import random

    from redtable.redrising.game import RedRising

    for seed in range(25):
        rnd = random.Random(seed)
        st = RedRising(4, multiplayer_variant=seed % 2 == 1).new_initial_state(seed)
        steps = 0
        while st.decision() is not None and st.phase == "play" and steps < 3000:
            st.apply(rnd.choice(st.legal_actions()))
            consistent(st)
            steps += 1
