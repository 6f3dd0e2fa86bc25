"""Setup: Outposts, removed components, starting stuff, first player, Spring Muster Groups, options."""

import pytest

from redtable.core import InvalidOptions, make_game
from redtable.rednorth import RedNorth
from redtable.rednorth.cards import (
    BLUE,
    GREEN,
    JARL,
    JARLS,
    KIND_SLUG,
    PURPLE,
    RAIDERS_PER_COLOUR,
    RED,
    YELLOW,
    hero,
    raider,
)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_green_outpost_always_plus_one_per_player(players):
    seen = set()
    for seed in range(40):
        s = RedNorth(players).new_initial_state(seed)
        assert GREEN in s.colours
        assert len(s.colours) == players + 1
        assert s.in_play == tuple(c in s.colours for c in range(5))
        seen.add(s.colours)
    if players == 4:
        assert seen == {(GREEN, RED, BLUE, PURPLE, YELLOW)}  # the 4-player example: all five
    else:
        assert len(seen) > 1  # the others are picked at random


@pytest.mark.parametrize("players,jarls", [(2, 6), (3, 8), (4, 10)])
def test_unused_colours_and_jarls_are_removed(players, jarls):
    s = RedNorth(players).new_initial_state(7)
    counts = s.card_counts()
    for c in range(5):
        expected = RAIDERS_PER_COLOUR if c in s.colours else 0
        assert counts[raider(c)] == expected
        assert counts[hero(c)] == (1 if c in s.colours else 0)
    assert counts[JARL] == jarls == JARLS - {2: 4, 3: 2, 4: 0}[players]
    assert counts == s.total


@pytest.mark.parametrize("players", [2, 3, 4])
def test_starting_stuff(players):
    s = RedNorth(players).new_initial_state(3)
    for p in range(players):
        assert s.hand_n[p] == sum(s.hands[p]) == 7  # 1 Jarl + 6 dealt
        assert s.hands[p][JARL] >= 1
        assert s.glory[p] == 1 and s.vp[p] == 0
        assert s.known[p] == [0] * JARL + [1]  # everybody saw the Jarl handed out, nothing else
        assert all(s.hands[p][hero(c)] == 0 for c in range(5))  # Heroes are not in the deck
    dealt = 7 * players
    in_muster = 2 * (players + 1)
    assert len(s.deck) == sum(s.total) - dealt - in_muster - (players + 1)  # minus the Heroes
    assert s.tiebreaker == -1 and s.champion == -1 and s.owner == [-1] * 5
    assert s.round == 1 and s.decision().kind == "deploy"


def test_first_player_is_random():
    seen = {RedNorth(3).new_initial_state(seed).first for seed in range(40)}
    assert seen == {0, 1, 2}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_spring_muster_groups(players):
    s = RedNorth(players).new_initial_state(11)
    assert len(s.muster) == players + 1
    assert sorted(h for h, _ in s.muster) == sorted(hero(c) for c in s.colours)
    assert all(len(cards) == 2 for _, cards in s.muster)
    view = s.view(0)
    assert [g["group"] for g in view["muster"]] == [KIND_SLUG[h] for h, _ in s.muster]
    assert all(len(g["cards"]) == 2 and g["top"]["type"] == "hero" for g in view["muster"])


def test_options_validation_and_round_trip():
    for bad in (1, 5, "2", None):
        with pytest.raises(InvalidOptions):
            RedNorth(bad)
    for bad in (-1, 10, True, "2", {"pink": 1}, {"red": "x"}, {"red": 99}, [1]):
        with pytest.raises(InvalidOptions):
            RedNorth(2, outpost_points=bad)
    g = RedNorth(3)
    assert g.options() == {"players": 3, "outpost_points": 1}
    g2 = RedNorth(3, outpost_points={"red": 3, "green": 0})
    assert g2.outpost_points == (0, 3, 1, 1, 1)
    assert type(g2)(**g2.options()).outpost_points == g2.outpost_points
    assert make_game("red-north", 4, outpost_points=2).outpost_points == (2,) * 5
    assert (RedNorth.name, RedNorth.title, RedNorth.min_players, RedNorth.max_players) == (
        "red-north",
        "Red North",
        2,
        4,
    )


def test_outpost_points_are_reported_at_setup():
    s = RedNorth(2, outpost_points={"green": 2}).new_initial_state(0)
    setup = s.events[0]
    assert setup.kind == "setup" and setup.to is None
    assert setup.data["outpost_points"]["green"] == 2
    assert all(o["points"] == (2 if o["colour"] == "green" else 1) for o in s.view(None)["outposts"])
