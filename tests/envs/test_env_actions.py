"""The fixed action enumerations: complete, bijective, and covering every option offered."""

import random

import pytest

np = pytest.importorskip("numpy")

from redtable.core import make_game  # noqa: E402
from redtable.envs.actions import RN_MAX_PARTY, codec  # noqa: E402

GAMES = [
    ("red-rising", range(2, 7), 16, {}),
    ("red-rising", range(3, 7), 4, {"multiplayer_variant": True}),
    ("red-north", range(2, 5), 60, {}),
    ("red-north", range(2, 5), 10, {"outpost_points": 3}),
]


def random_game(name, players, seed, options=None):
    """Yield (state, decision) for every decision of a random game."""
    st = make_game(name, players, **(options or {})).new_initial_state(seed)
    rng = random.Random(seed)
    while (d := st.decision()) is not None:
        yield st, d
        st.apply(rng.choice(d.options))


@pytest.mark.parametrize("name", ["red-rising", "red-north"])
def test_codec_is_a_bijection(name):
    c = codec(name)
    assert len(set(c.actions)) == c.n == len(c)
    for i, a in enumerate(c.actions):
        assert c.encode(a) == i and c.decode(i) == a
        assert c.decode(np.int64(i)) == a
    with pytest.raises(KeyError):
        c.encode("no-such-action")
    with pytest.raises(IndexError):
        c.decode(c.n)
    with pytest.raises(IndexError):
        c.decode(-1)


def test_codec_sizes_and_vocabulary():
    from redtable.rednorth.cards import KIND_SLUG
    from redtable.rednorth.gods import GODS
    from redtable.redrising.board import LOCATION_NAMES
    from redtable.redrising.cards import COLOR_NAMES, NUM_CARDS, SLUG

    rr = codec("red-rising")
    assert rr.n == 602
    assert set(SLUG) <= set(rr.actions) and set(COLOR_NAMES) <= set(rr.actions)
    for loc in LOCATION_NAMES:  # a location can never hold more than every card of the game
        assert f"{loc}:{NUM_CARDS - 1}" in rr and f"{loc}:{NUM_CARDS}" not in rr
    assert {f"p{i}" for i in range(6)} <= set(rr.actions)
    assert {"block:judge", "block:justice", "block:martyr", "block:pax-au-telemanus", "block:the-howlers"} <= set(
        rr.actions
    )
    assert {"helium", "advance", "influence", "banish", "place"} <= set(rr.actions)

    rn = codec("red-north")
    assert rn.n == 179
    assert set(KIND_SLUG) <= set(rn.actions)
    assert {f"invoke:{g.slug}" for g in GODS} <= set(rn.actions)
    assert {f"pass:{g.slug}" for g in GODS} <= set(rn.actions)
    assert f"withdraw:{RN_MAX_PARTY - 1}" in rn and f"jarl:{RN_MAX_PARTY}" in rn


@pytest.mark.parametrize("name,counts,games,options", GAMES)
def test_every_option_of_random_games_round_trips(name, counts, games, options):
    c = codec(name)
    seen = set()
    for players in counts:
        for seed in range(games):
            for _st, d in random_game(name, players, seed * 7 + players, options):
                m = c.mask(d.options)
                assert m.dtype == np.int8 and m.sum() == len(set(d.options))
                for o in d.options:
                    i = c.encode(o)
                    assert c.decode(i) == o and m[i] == 1
                seen.update(d.options)
    assert len(seen) > min(100, c.n // 3)  # the games really explored the vocabulary


def test_red_north_parties_stay_within_the_bound():
    """The justification of RN_MAX_PARTY, checked on random play (3 players, many games)."""
    biggest = 0
    for players in (2, 3, 4):
        for seed in range(30):
            for st, _d in random_game("red-north", players, 1000 + seed):
                biggest = max(biggest, max(len(p) for p in st.parties))
    assert biggest <= RN_MAX_PARTY
