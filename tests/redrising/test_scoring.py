"""Scoring a final position: the scorepad rows, Gray/Orange choices, winners."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from redtable.redrising.bonuses import Hand, hand_bonuses
from redtable.redrising.cards import BLUE, COLOR, COLOR_OF_NAME, GRAY, NAME, ORANGE, RED, VALUE, card_index
from redtable.redrising.scoring import (
    FLEET_VP,
    FinalPlayer,
    FinalPosition,
    PlayerScore,
    _board,  # noqa: PLC2701  (for the brute-force oracle)
    influence_points,
    score_position,
    winners,
)


def ci(name: str) -> int:
    return card_index(name)


def hand(*names: str) -> list[int]:
    return [ci(n) for n in names]


def position(*players: FinalPlayer, locations=([], [], [], []), banished=(), neutral=0, down=()) -> FinalPosition:
    return FinalPosition(
        players=list(players),
        locations=tuple(list(x) for x in locations),
        banished=list(banished),
        neutral_influence=neutral,
        face_down_on_locations=frozenset(down),
    )


def score_one(*names: str, **kw) -> PlayerScore:
    return score_position(position(FinalPlayer(hand=hand(*names), name="me", **kw), FinalPlayer(hand=[], name="x")))[0]


# --------------------------------------------------------------------------- token rows


def test_fleet_track_points():
    assert FLEET_VP == (0, 1, 3, 6, 10, 15, 21, 28, 34, 39, 43)
    for pos, vp in enumerate(FLEET_VP):
        assert score_one(fleet=pos).fleet == vp


def test_fleet_outside_the_track_is_rejected():
    with pytest.raises(ValueError):
        score_one(fleet=11)


def test_helium_and_sovereignty():
    s = score_one(helium=4, sovereign=True)
    assert (s.helium, s.sovereignty) == (12, 10)
    assert score_one().sovereignty == 0


def test_influence_rulebook_example_10_10_5_2():
    assert influence_points([10, 10, 5, 2]) == [40, 40, 10, 2]
    players = [FinalPlayer(hand=[], name=n, influence=i) for n, i in zip("JMBW", (10, 10, 5, 2), strict=True)]
    assert [s.influence for s in score_position(position(*players))] == [40, 40, 10, 2]


def test_influence_ranks_distinct_counts_and_ignores_houses_without_tokens():
    assert influence_points([6, 4, 4, 1, 0]) == [24, 8, 8, 1, 0]
    assert influence_points([3, 3]) == [12, 12]
    assert influence_points([0, 0]) == [0, 0]


def test_two_player_neutral_house_counts_as_a_third_house():
    assert influence_points([3, 1], neutral=3) == [12, 2]  # tied with the neutral house for the most
    assert influence_points([2, 2], neutral=5) == [4, 4]  # the neutral house has the most
    assert influence_points([2, 1], neutral=5) == [4, 1]
    assert influence_points([2, 1], neutral=0) == [8, 2]
    a, b = FinalPlayer(hand=[], name="a", influence=2), FinalPlayer(hand=[], name="b", influence=1)
    assert [s.influence for s in score_position(position(a, b, neutral=5))] == [4, 1]


@pytest.mark.parametrize("n,penalty", [(0, 0), (7, 0), (8, -10), (9, -20), (12, -50)])
def test_excess_cards(n, penalty):
    names = [NAME[i] for i in range(112) if COLOR[i] not in (GRAY, ORANGE)][:n]
    s = score_one(*names)
    assert s.excess_cards == penalty
    # the cards still score their points (the rulebook: those points are still valid)
    assert s.cards == sum(s.card_points.values())


def test_total_is_the_sum_of_the_rows_and_extra_points_go_to_cards():
    s = score_one("Darrow", "Aja", fleet=3, helium=2, influence=4, sovereign=True, extra_points=11)
    assert s.cards == 10 + 15 + 11  # Hacker-like reveal points
    assert s.card_points == {"Darrow": 10, "Aja": 15}
    assert s.total == s.cards + 6 + 6 + 10 + 16 + 0


# --------------------------------------------------------------------------- rulebook examples


def test_for_each_green_yellow_and_blue_with_2_greens_and_1_blue_is_15():
    s = score_one("Janitor", "Codebreaker", "Hacker", "Orion")
    assert s.card_points["Janitor"] == 10 + 15


def test_if_with_a_silver_is_binary():
    one = score_one("Garden-trained Rose", "CEO")
    three = score_one("Garden-trained Rose", "CEO", "Banker", "Sponsor")
    assert one.card_points["Garden-trained Rose"] == three.card_points["Garden-trained Rose"] == 16 + 14


def test_artisan_chef_ignores_lost_points_from_golds():
    without = score_one("The Jackal", "Darrow")
    assert without.card_points["The Jackal"] == 10 - 30
    s = score_one("Artisan Chef", "The Jackal", "Darrow", "Karnus", "Nero")
    assert s.card_points["The Jackal"] == 10  # -30 ignored
    assert s.card_points["Karnus"] == 15  # -15 (with Nero, The Jackal) ignored
    assert s.card_points["Nero"] == 25  # -5 for Karnus ignored
    assert s.card_points["Artisan Chef"] == 10 + 5 * 3
    # positive clauses of Golds still count; losses of non-Golds still count
    s = score_one("Artisan Chef", "Antonia", "The Jackal", "Sevro", "Sefi")
    assert s.card_points["Antonia"] == 15 + 15  # +15 with The Jackal, -10 with Sevro ignored
    assert s.card_points["Sefi"] == 20 - 5 * 3  # Sefi is an Obsidian


def test_darrow_counts_himself_and_loan_shark_counts_all_cards():
    s = score_one("Darrow", "Loan Shark", "Banker", "Investor", "Justice", "Martyr", "Hacker")
    assert s.card_points["Darrow"] == 40 and s.card_points["Loan Shark"] == 20


# --------------------------------------------------------------------------- Gray and Orange


def test_a_gray_counts_as_the_colour_that_enables_a_bonus():
    s = score_one("Dataport Specialist", "Bridge")
    assert s.card_points["Dataport Specialist"] == 9 + 26
    assert s.choices == {"as_color": {"Bridge": "blue"}, "as_name": {}}


def test_a_gray_is_still_a_gray():
    s = score_one("Pulse Armorer", "Dataport Specialist", "Trigg")
    assert s.card_points["Pulse Armorer"] == 13 + 17
    assert s.card_points["Dataport Specialist"] == 9 + 26


def test_gray_choice_picks_the_best_total_not_the_first_bonus():
    # Trigg as Blue: Dataport +26; as Red: Sevro +20 and Fitchner +10 -> Red wins
    s = score_one("Dataport Specialist", "Sevro", "Fitchner", "Trigg")
    assert s.choices["as_color"] == {"Trigg": "red"}
    assert s.card_points["Sevro"] == 35 and s.card_points["Fitchner"] == 45
    assert s.card_points["Dataport Specialist"] == 9
    # with Darrow holding the Red already, Blue is worth more
    s = score_one("Dataport Specialist", "Sevro", "Fitchner", "Trigg", "Darrow")
    assert s.choices["as_color"] == {"Trigg": "blue"}


def test_gray_choice_can_break_bonuses_so_none_is_chosen():
    s = score_one("4D Painter", "Bridge", "Darrow")
    assert s.choices["as_color"] == {}
    assert s.card_points["4D Painter"] == 9 + 31


def test_given_gray_colour_is_used_as_is():
    s = score_one("Dataport Specialist", "Bridge", as_color={ci("Bridge"): RED})
    assert s.card_points["Dataport Specialist"] == 9
    assert s.choices["as_color"] == {"Bridge": "red"}
    s = score_one("Dataport Specialist", "Bridge", as_color={ci("Bridge"): GRAY})  # explicitly none
    assert s.card_points["Dataport Specialist"] == 9 and s.choices["as_color"] == {}


def test_given_choices_are_checked():
    with pytest.raises(ValueError):
        score_one("Dataport Specialist", "Bridge", as_color={ci("Darrow"): BLUE})
    with pytest.raises(ValueError):
        score_one("Evey", "Cyther", as_name={ci("Evey"): ci("Darrow")})


def test_mustang_counts_a_gray_extra_colour_as_another_different_colour():
    s = score_one("Mustang", "Trigg", "Darrow")
    assert s.card_points["Mustang"] == 20 + 5 * 3  # Gray, Red and one more colour
    assert len(s.choices["as_color"]) == 1 and s.choices["as_color"]["Trigg"] not in ("red", "gray")


def test_an_orange_renamed_to_darrow():
    s = score_one("Evey", "Cyther")
    assert s.card_points["Evey"] == 15 + 15
    assert s.choices == {"as_color": {}, "as_name": {"Cyther": "Darrow"}}
    assert s.card_points["Cyther"] == 14  # keeps its own value, colour and bonus


def test_a_renamed_orange_keeps_its_colour():
    s = score_one("Ragnar", "Cyther", "Sefi")  # Ragnar: with an Orange, with Sefi
    assert s.card_points["Ragnar"] == 20 + 20


def test_two_cards_of_the_same_name_score_no_extra():
    s = score_one("Nero", "Cassius", "Cyther", as_name={ci("Cyther"): ci("Cassius")})
    assert s.card_points["Nero"] == 25 - 5
    s = score_one("Evey", "Darrow", "Cyther")
    assert s.card_points["Evey"] == 30 and s.choices["as_name"] == {}


def test_given_orange_name_is_used_as_is():
    s = score_one("Evey", "Cyther", as_name={ci("Cyther"): ci("Mickey the Carver")})
    assert s.card_points["Evey"] == 0 and s.choices["as_name"] == {"Cyther": "Mickey the Carver"}


def test_an_orange_rename_can_fix_codebreaker_first_letters():
    s = score_one("Codebreaker", "Cyther", "Darrow")  # C, C, D
    assert s.card_points["Codebreaker"] == 8 + 22
    new = s.choices["as_name"]["Cyther"]
    assert new[0] not in "CD" and card_index(new) not in (ci("Codebreaker"), ci("Darrow"))


def test_codebreaker_with_two_oranges_sharing_a_letter():
    s = score_one("Codebreaker", "Pulse Armorer", "Pulse Fist Engineer")
    assert s.card_points["Codebreaker"] == 30
    assert len(s.choices["as_name"]) == 1  # one of them keeps its own name


def test_no_rename_when_it_cannot_help():
    s = score_one("Codebreaker", "Cassius", "Cyther")  # Codebreaker and Cassius clash anyway
    assert s.choices["as_name"] == {} and s.card_points["Codebreaker"] == 8


def test_face_down_cards_are_colourless():
    assert score_one("Janitor", "Codebreaker", face_down=frozenset({ci("Codebreaker")})).card_points["Janitor"] == 10
    # "non-Gold" includes face-down cards: a face-down Gold is not a Gold
    assert score_one("Arlus", "Aja", face_down=frozenset({ci("Aja")})).card_points["Arlus"] == 35
    # a face-down Gray has no colour to choose
    s = score_one("Dataport Specialist", "Bridge", face_down=frozenset({ci("Bridge")}))
    assert s.card_points["Dataport Specialist"] == 9 and s.choices["as_color"] == {}
    # face-down cards keep their name and value
    assert score_one("Evey", "Darrow", face_down=frozenset({ci("Darrow")})).card_points["Evey"] == 30
    assert score_one("Uncle Narol", "Aja", face_down=frozenset({ci("Aja")})).card_points["Uncle Narol"] == 10


# --------------------------------------------------------------------------- winners


def _players(totals_and_sov):
    """Players whose totals are exactly the given numbers (the Sovereign token's 10 included)."""
    return [
        FinalPlayer(hand=[], name=str(k), extra_points=t - (10 if sov else 0), sovereign=sov)
        for k, (t, sov) in enumerate(totals_and_sov)
    ]


def test_highest_total_wins():
    pos = position(*_players([(50, False), (70, False), (60, True)]))
    assert [s.total for s in score_position(pos)] == [50, 70, 60]
    assert winners(pos, score_position(pos)) == [1]


def test_tie_goes_to_the_tied_player_with_the_sovereign_token():
    pos = position(*_players([(70, False), (70, True), (30, False)]))
    scores = score_position(pos)
    assert scores[0].total == scores[1].total == 70
    assert winners(pos, scores) == [1]


def test_tie_without_the_sovereign_token_is_shared():
    pos = position(*_players([(70, False), (70, False), (20, True)]))
    assert winners(pos, score_position(pos)) == [0, 1]


# --------------------------------------------------------------------------- exactness


def _brute_force(p: FinalPlayer, board) -> int:
    """Every colour for every Gray, every name for every Orange."""
    grays = [j for j, c in enumerate(p.hand) if COLOR[c] == GRAY and c not in p.face_down]
    oranges = [j for j, c in enumerate(p.hand) if COLOR[c] == ORANGE]
    base = [0 if c in p.face_down else 1 << COLOR[c] for c in p.hand]
    best = None
    for gc in itertools.product(range(14), repeat=len(grays)):
        masks = list(base)
        for j, x in zip(grays, gc, strict=True):
            masks[j] |= 1 << x
        for nc in itertools.product(range(112), repeat=len(oranges)):
            names = list(p.hand)
            for j, x in zip(oranges, nc, strict=True):
                names[j] = x
            t = sum(VALUE[c] for c in p.hand) + sum(
                hand_bonuses(Hand(tuple(p.hand), tuple(masks), tuple(names)), board)
            )
            best = t if best is None or t > best else best
    return best


INTERESTING = (
    "Codebreaker",
    "Mustang",
    "4D Painter",
    "Harmony",
    "Alia Snowsparrow",
    "Eo",
    "Lawyer",
    "Sevro",
    "Tactus",
    "Stained",
    "Theodora",
    "Cassius",
    "Karnus",
    "Nero",
    "Artisan Chef",
    "Antonia",
    "Romulus",
    "Dancer",
    "Lorn",
    "Janitor",
    "Boneriders",
    "Pax au Telemanus",
    "Matteo",
    "Evey",
    "Darrow",
    "Calliope",
    "The Jackal",
    "Octavia",
    "Aja",
    "Deanna",
    "Dataport Specialist",
    "Artificer",
)


def test_search_matches_brute_force_on_random_hands():
    rng = random.Random(7)
    grays = [c for c in range(112) if COLOR[c] == GRAY]
    oranges = [c for c in range(112) if COLOR[c] == ORANGE]
    for _ in range(30):
        picks = rng.sample(INTERESTING, rng.randint(2, 6))
        cards = [ci(n) for n in picks]
        if rng.random() < 0.7:
            cards.append(rng.choice([g for g in grays if g not in cards]))
        if rng.random() < 0.5:
            cards.append(rng.choice([o for o in oranges if o not in cards]))
        cards = list(dict.fromkeys(cards))
        rng.shuffle(cards)
        down = frozenset(rng.sample(cards, 1)) if rng.random() < 0.2 else frozenset()
        rest = [c for c in range(112) if c not in cards]
        rng.shuffle(rest)
        me = FinalPlayer(
            hand=cards,
            name="me",
            fleet=rng.randint(0, 10),
            helium=rng.randint(0, 7),
            influence=rng.randint(0, 6),
            sovereign=rng.random() < 0.5,
            face_down=down,
        )
        opp = FinalPlayer(
            hand=[], name="opp", fleet=rng.randint(0, 10), helium=rng.randint(0, 7), influence=rng.randint(0, 6)
        )
        pos = position(
            me, opp, locations=(rest[0:2], rest[2:4], rest[4:5], []), banished=rest[5 : 5 + rng.randint(0, 6)]
        )
        s = score_position(pos)[0]
        assert s.cards == _brute_force(me, _board(pos, 0)), [NAME[c] for c in cards]
        # the reported choices reproduce the score
        fixed = FinalPlayer(
            hand=cards,
            name="me",
            fleet=me.fleet,
            helium=me.helium,
            influence=me.influence,
            sovereign=me.sovereign,
            face_down=down,
            as_color={ci(k): COLOR_OF_NAME[v] for k, v in s.choices["as_color"].items()},
            as_name={ci(k): ci(v) for k, v in s.choices["as_name"].items()},
        )
        assert score_position(position(fixed, opp, locations=pos.locations, banished=pos.banished))[0].cards == s.cards


def test_search_stays_fast_on_a_crowded_hand():
    grays = [c for c in range(112) if COLOR[c] == GRAY][:3]
    oranges = [c for c in range(112) if COLOR[c] == ORANGE][:3]
    cards = grays + oranges + hand("Mustang", "Codebreaker", "Janitor", "Sevro", "Tactus", "Eo", "Lawyer", "Judge")
    start = time.perf_counter()
    s = score_position(position(FinalPlayer(hand=cards, name="me"), FinalPlayer(hand=[], name="x")))[0]
    assert time.perf_counter() - start < 2.0
    assert s.card_points["Lawyer"] == 13 + 12 + 22 and s.card_points["Sevro"] == 35


def test_score_position_is_pure():
    me = FinalPlayer(hand=hand("Evey", "Cyther", "Bridge", "Dataport Specialist"), name="me")
    pos = position(me, FinalPlayer(hand=[], name="x"))
    first = score_position(pos)
    assert score_position(pos) == first
    assert me.as_color is None and me.as_name is None
    assert me.hand == hand("Evey", "Cyther", "Bridge", "Dataport Specialist")
