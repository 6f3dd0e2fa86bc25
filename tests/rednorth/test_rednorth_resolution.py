"""Resolution A-E, Ragnarok's exceptions and the final tie-breakers."""

import pytest

from redtable.rednorth import RedNorth
from redtable.rednorth.cards import BLUE, GREEN, JARL, KIND_OF_SLUG, PURPLE, RED, YELLOW, hero
from redtable.rednorth.game import GOD_HEAD, OVER
from redtable.rednorth.gods import ODIN, THOR
from redtable.rednorth.resolution import final_winner, party_points, raid_points
from redtable.rednorth.scenario import (
    goto_turn,
    parse_slot,
    party,
    resolve_now,
    set_colours,
    set_hand,
    set_owner,
    set_party,
)

HAKKA, RIKKI, GORDON = 0, 1, 2


def new(players=3, seed=0, **options):
    return RedNorth(players, **options).new_initial_state(seed)


def points_of(specs):
    out = [0] * 5
    party_points([parse_slot(s) for s in specs], out)
    return out


# ---------------------------------------------------------------------- A: Raid Points
def test_raider_two_hero_four_glory_one():
    assert points_of(["+raider-red"])[RED] == 2
    assert points_of(["+hero-blue"])[BLUE] == 4
    assert points_of(["+raider-red/2", "+hero-red/1"])[RED] == 2 + 2 + 4 + 1


def test_jarl_adds_one_to_each_adjacent_raider_or_hero_not_to_jarls():
    assert points_of(["+jarl", "+raider-red", "+jarl"])[RED] == 4
    pts = points_of(["+raider-red", "+jarl", "+hero-blue"])
    assert (pts[RED], pts[BLUE]) == (3, 5)
    assert points_of(["+jarl", "+jarl", "+raider-red"])[RED] == 3
    assert points_of(["+jarl", "+raider-green", "+raider-green"])[GREEN] == 5  # only the adjacent one
    assert sum(points_of(["+jarl", "+jarl"])) == 0


def test_champion_jarl_adds_two_to_each_adjacent():
    pts = points_of(["+raider-red", "+jarl!", "+hero-blue", "+jarl"])
    assert (pts[RED], pts[BLUE]) == (2 + 2, 4 + 2 + 1)


def test_outposts_add_printed_points_to_their_controller():
    parties = [[parse_slot("+raider-red")], [parse_slot("+raider-red")]]
    owners = [-1, 0, -1, -1, 1]
    in_play = (True, True, False, False, True)
    pts = raid_points(parties, owners, (5, 2, 7, 7, 3), in_play)
    assert pts[RED] == [4, 2]
    assert pts[YELLOW] == [0, 3]  # even without a card of the colour
    assert pts[BLUE] == [0, 0]  # not in play


def test_face_down_cards_are_revealed_and_counted():
    s = new(2)
    set_colours(s, "green", "red", "blue")
    goto_turn(s, 0, round=3)
    set_party(s, 0, ["raider-red", "+jarl", "hero-red"])
    set_party(s, 1, ["raider-blue"])
    resolve_now(s, 0)
    rep = s.reports[-1]
    assert rep["parties"] == [["raider-red", "jarl", "hero-red"], ["raider-blue"]]
    assert rep["raid_points"]["red"] == [2 + 1 + 4 + 1, 0]
    assert party(s, 0) == ["+raider-red", "+jarl", "+hero-red"]  # Ragnarok: the Parties stay, revealed


# ---------------------------------------------------------------------- B, C: the rulebook example
def test_rulebook_resolution_example():
    """Green to Gordon; red uncontrolled (tie, no Tie Breaker); purple and blue to Håkkå (Tie Breaker)."""
    s = new(3)
    set_colours(s, "green", "red", "blue", "purple")
    goto_turn(s, HAKKA, round=1)
    s.tiebreaker = HAKKA
    set_party(s, HAKKA, ["raider-green", "raider-purple", "raider-blue"])
    set_party(s, RIKKI, ["raider-red", "raider-blue", "raider-purple"])
    set_party(s, GORDON, ["hero-green", "raider-red", "raider-blue"])
    glory = list(s.glory)
    resolve_now(s, HAKKA)
    rep = s.reports[-1]
    assert rep["raid_points"] == {"green": [2, 0, 4], "red": [0, 2, 2], "blue": [2, 2, 2], "purple": [2, 2, 0]}
    outposts = rep["outposts"]
    assert outposts["green"] == {"before": None, "controller": GORDON, "decided_by": "won"}
    assert outposts["red"] == {"before": None, "controller": None, "decided_by": "returned"}
    assert outposts["purple"]["controller"] == HAKKA and outposts["purple"]["decided_by"] == "tie-breaker"
    assert outposts["blue"]["controller"] == HAKKA and outposts["blue"]["decided_by"] == "tie-breaker"
    # The Tie Breaker did not change hands during B although Gordon took green ...
    # ... but Gordon takes it in D.
    assert rep["tie_breaker"] == GORDON and s.tiebreaker == GORDON
    assert rep["vp"] == [2, 0, 1]
    # C: Håkkå 1 (green), Rikki 3 (red, blue, purple), Gordon 2 (blue, red).
    assert rep["glory"] == [1, 3, 2]
    assert s.glory == [glory[0] + 1, glory[1] + 3, glory[2] + 2]
    assert s.owner[GREEN] == GORDON and s.owner[RED] == -1 and s.owner[PURPLE] == HAKKA == s.owner[BLUE]
    assert any(e.kind == "resolution" and e.to is None and e.data is rep for e in s.events)


def test_tie_returns_a_held_outpost_to_the_centre():
    s = new(3, outpost_points=0)
    set_colours(s, "green", "red", "blue", "purple")
    goto_turn(s, 0, round=3)
    set_owner(s, "red", 2)
    s.tiebreaker = 2  # not among the tied players
    set_party(s, 0, ["+raider-red"])
    set_party(s, 1, ["+raider-red"])
    set_party(s, 2, [])
    resolve_now(s, 0)
    assert s.owner[RED] == -1 and s.reports[-1]["outposts"]["red"]["decided_by"] == "returned"


def test_nobody_with_raid_points_means_no_battle():
    s = new(3, outpost_points=0)
    set_colours(s, "green", "red", "blue", "yellow")
    goto_turn(s, 0, round=2)
    s.muster = [(GOD_HEAD + THOR, ()), (GOD_HEAD + ODIN, ())]
    set_owner(s, "yellow", 1)
    for p in range(3):
        set_party(s, p, ["+jarl"])
    resolve_now(s, 0)
    rep = s.reports[-1]
    assert rep["outposts"]["yellow"] == {"before": 1, "controller": 1, "decided_by": "no-battle"}
    assert rep["outposts"]["green"] == {"before": None, "controller": None, "decided_by": "no-battle"}
    assert rep["vp"] == [0, 2, 0]  # the holder keeps it and scores it
    assert rep["glory"] == [0, 0, 0]


@pytest.mark.parametrize("points,winner", [(0, 1), (1, 1), (2, 1), (3, 0)])
def test_outpost_points_option_changes_who_wins(points, winner):
    s = new(2, outpost_points={"red": points})
    set_colours(s, "green", "red", "blue")
    goto_turn(s, 0, round=3)
    set_owner(s, "red", 0)
    s.tiebreaker = 1
    set_party(s, 0, ["+raider-red"])  # 2 + printed points
    set_party(s, 1, ["+raider-red", "+raider-red"])  # 4
    resolve_now(s, 0)
    assert s.owner[RED] == winner


def test_vp_per_outpost_by_round():
    for rnd, vp in ((1, 2), (2, 4), (3, 6)):
        s = new(2)
        set_colours(s, "green", "red", "blue")
        goto_turn(s, 0, round=rnd)
        if rnd == 2:
            s.muster = [(GOD_HEAD + THOR, ()), (GOD_HEAD + ODIN, ()), (GOD_HEAD + 2, ())]
        set_party(s, 0, ["+raider-red", "+raider-blue"])
        set_party(s, 1, [])
        resolve_now(s, 0)
        assert s.reports[-1]["vp"] == [vp, 0]
        assert s.vp[0] == vp


def test_glory_only_for_battles_fought_and_lost():
    s = new(3, outpost_points=2)
    set_colours(s, "green", "red", "blue", "purple")
    goto_turn(s, 0, round=3)
    set_owner(s, "purple", 0)
    set_party(s, 0, ["+raider-red"])  # purple only through its Outpost (2 points)
    set_party(s, 1, ["+hero-purple", "+raider-red/1"])  # wins purple 4 > 2, wins red 3 > 2
    set_party(s, 2, ["+jarl", "+raider-green"])  # wins green; the Jarl fights no battle
    resolve_now(s, 0)
    assert s.owner[PURPLE] == 1 and s.owner[RED] == 1 and s.owner[GREEN] == 2
    assert s.reports[-1]["glory"] == [1, 0, 0]  # player 0: red only; purple was lost without battle


# ---------------------------------------------------------------------- D: tokens and cards
def test_outpost_tokens_and_frankenland_cards():
    s = new(4, seed=3)
    goto_turn(s, 1, round=1)
    set_party(s, 0, ["+raider-purple"])
    set_party(s, 1, ["+raider-red"])
    set_party(s, 2, ["+raider-green"])
    set_party(s, 3, ["+raider-blue"])
    hand0, deck = s.hand_n[0], len(s.deck)
    resolve_now(s, 1)
    assert (s.first, s.tiebreaker, s.champion) == (1, 2, 3)
    assert s.hand_n[0] == hand0 + 2
    assert len(s.deck) == deck - 2 - 3 * 5  # Frankenland's 2, then the 5 Summer groups
    private = [e for e in s.events if e.kind == "draw"]
    assert private[-1].to == (0,) and len(private[-1].data["cards"]) == 2
    assert s.reports[-1]["frankenland_draw"] == {"player": 0, "count": 2}


def test_tokens_stay_when_their_outpost_is_uncontrolled():
    s = new(4, seed=3)
    goto_turn(s, 0, round=1)
    s.first, s.tiebreaker, s.champion = 3, 3, 3
    set_party(s, 0, ["+raider-red", "+raider-green", "+raider-blue"])
    set_party(s, 1, ["+raider-red", "+raider-green", "+raider-blue"])
    set_party(s, 2, [])
    set_party(s, 3, [])
    resolve_now(s, 0)
    assert s.owner[RED] == s.owner[GREEN] == s.owner[BLUE] == -1
    assert (s.first, s.tiebreaker, s.champion) == (3, 3, 3)


def _no_red(players=3):
    s = new(players, seed=0)
    set_colours(s, "green", "blue", "purple", "yellow")
    return s


def test_first_player_to_most_vp_without_red_outpost():
    s = _no_red()
    goto_turn(s, 0, round=1)
    s.first = 0
    set_party(s, 2, ["+raider-blue"])
    set_party(s, 0, [])
    set_party(s, 1, [])
    resolve_now(s, 0)
    assert s.vp == [0, 0, 1] and s.first == 2


def test_first_player_tie_goes_to_green_controller_among_tied():
    s = _no_red()
    goto_turn(s, 0, round=1)
    s.first = 0
    set_party(s, 0, [])
    set_party(s, 1, ["+raider-green"])
    set_party(s, 2, ["+raider-blue"])
    resolve_now(s, 0)
    assert s.vp == [0, 1, 1] and s.first == 1


def test_first_player_tie_without_green_controller_keeps_the_token():
    s = _no_red()
    goto_turn(s, 0, round=1)
    s.first = 0
    set_party(s, 0, [])
    set_party(s, 1, ["+raider-purple"])
    set_party(s, 2, ["+raider-blue"])
    resolve_now(s, 0)
    assert s.vp == [0, 1, 1] and s.owner[GREEN] == -1 and s.first == 0


def test_red_in_play_but_uncontrolled_keeps_first_player():
    s = new(4, seed=0)
    goto_turn(s, 0, round=1)
    s.first = 3
    set_party(s, 0, [])
    set_party(s, 1, ["+raider-blue"])
    set_party(s, 2, [])
    set_party(s, 3, [])
    resolve_now(s, 0)
    assert s.first == 3


# ---------------------------------------------------------------------- E: next round
def test_prepare_summer():
    s = new(3, seed=8)
    set_colours(s, "green", "red", "blue", "purple")
    goto_turn(s, 2, round=1)
    set_party(s, 0, ["+raider-red/2", "jarl"])
    set_party(s, 1, ["+hero-green/1"])
    set_party(s, 2, [])
    s.glory = [0, 0, 0]
    discard = list(s.discard)
    # players 0 and 1 took the first two groups; player 2 takes the third; the fourth is left over
    s.muster = s.muster[2:]
    left_head, left_cards = s.muster[1]
    resolve_now(s, 2)
    assert s.round == 2 and s.decision().kind == "deploy"
    assert s.parties == [[], [], []]
    assert s.glory == s.reports[-1]["glory"]  # Glory on cards went to the supply, not back to players
    assert s.discard[KIND_OF_SLUG["raider-red"]] >= discard[KIND_OF_SLUG["raider-red"]] + 1
    assert s.discard[JARL] >= discard[JARL] + 1 and s.discard[hero(GREEN)] == 1
    assert s.set_aside == left_head  # the unclaimed Hero, kept for Thor
    for k in left_cards:
        assert s.discard[k] >= 1
    assert len(s.muster) == 4 and all(h >= GOD_HEAD for h, _ in s.muster)
    assert len({h for h, _ in s.muster}) == 4 and all(len(c) == 3 for _, c in s.muster)
    assert [g["top"]["type"] for g in s.view(0)["muster"]] == ["god"] * 4


def test_no_muster_groups_in_ragnarok():
    s = new(2, seed=8)
    goto_turn(s, 0, round=2)
    s.muster = [(GOD_HEAD + THOR, (0, 0, 0)), (GOD_HEAD + ODIN, (1, 1, 1)), (GOD_HEAD + 5, (2, 2, 2))]
    discard = list(s.discard)
    s.passed = [False, True]
    s.apply("pass:thor")
    assert s.round == 3 and s.muster == []
    assert s.god[0] == THOR
    assert s.discard[1] >= discard[1] + 3 and s.discard[2] >= discard[2] + 3  # leftover cards discarded


# ---------------------------------------------------------------------- Ragnarok
def test_ragnarok_collects_only_the_tie_breaker_and_skips_e():
    s = new(4, seed=1)
    goto_turn(s, 0, round=3)
    s.first, s.tiebreaker, s.champion = 3, 3, 3
    set_party(s, 0, ["+raider-red"])
    set_party(s, 1, ["+raider-green/1"])
    set_party(s, 2, ["+raider-blue"])
    set_party(s, 3, ["+raider-purple"])
    hand3, deck = s.hand_n[3], len(s.deck)
    resolve_now(s, 0)
    assert s.phase == OVER and s.decision() is None and s.is_terminal()
    assert s.tiebreaker == 1
    assert (s.first, s.champion) == (3, 3)
    assert s.hand_n[3] == hand3 and len(s.deck) == deck
    assert party(s, 1) == ["+raider-green/1"]  # not discarded, Glory stays on the card
    assert s.vp == [3, 3, 3, 3]
    assert s.winners() == [1] and s.result == (1, "tie-breaker")
    assert s.events[-1].kind == "game-end"


# ---------------------------------------------------------------------- final tie-breakers
def test_final_most_vp_wins():
    assert final_winner([5, 9, 7], 0, [9, 0, 0], [9, 0, 0], 0) == (1, "vp")


def test_final_tie_breaker_holder_among_tied_wins():
    assert final_winner([9, 9, 7], 1, [5, 0, 0], [5, 0, 0], 0) == (1, "tie-breaker")


def test_final_tie_breaker_holder_not_tied_then_glory():
    assert final_winner([9, 9, 10], 0, [1, 2, 0], [5, 0, 0], 0)[0] == 2
    assert final_winner([9, 9, 7], 2, [1, 2, 0], [5, 0, 0], 0) == (1, "glory")


def test_final_then_cards_in_hand():
    assert final_winner([9, 9, 9], -1, [2, 2, 1], [3, 4, 9], 0) == (1, "hand")


def test_final_then_closest_to_first_player():
    assert final_winner([9, 9, 9], -1, [2, 2, 2], [3, 3, 3], 1) == (1, "turn-order")  # the First Player
    assert final_winner([9, 9, 0], -1, [2, 2, 2], [3, 3, 3], 2) == (0, "turn-order")  # 2 -> 0 -> 1
    assert final_winner([0, 9, 9, 0], -1, [0] * 4, [0] * 4, 3) == (1, "turn-order")  # 3 -> 0 -> 1 -> 2


def test_final_tie_breakers_in_the_engine():
    s = new(3, seed=2)
    goto_turn(s, 0, round=3)
    for p in range(3):
        set_party(s, p, [])
    s.vp = [4, 4, 1]
    s.tiebreaker = 2
    s.glory = [1, 1, 5]
    set_hand(s, 0, ["jarl"])
    set_hand(s, 1, ["jarl", "jarl"])
    resolve_now(s, 0)
    assert s.winners() == [1] and s.result[1] == "hand"
    assert s.scores() == [4.0, 4.0, 1.0]
    assert s.view(None)["result"] == {"winner": 1, "decided_by": "hand", "vp": [4, 4, 1]}
    assert s.summary()["winner"] == 1 and s.summary()["vp"] == [4, 4, 1]
