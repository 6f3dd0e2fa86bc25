"""Search copies (``State.for_search``) and the fast paths search relies on play exactly
as the real game: same decisions, chance, scores and winners; only the log and the words of
the prompts (a decision context's ``say``) are skipped."""

import random

import pytest

from redtable.bots.common import CanonicalRng
from redtable.core import Rng, make_game
from redtable.redrising.engine import RRState, SearchRRState
from redtable.redrising.game import RedRising


def _unworded(d):
    """A decision without the words of its prompt (``say``), which a search copy skips."""
    if d is None or "say" not in d.context:
        return d
    return d._replace(context={k: v for k, v in d.context.items() if k != "say"})


def _play_both(real, copy, rng: Rng):
    """Play the same random options on both states; return the decisions seen."""
    seen = []
    while True:
        d, e = real.decision(), copy.decision()
        assert _unworded(d) == _unworded(e)
        if d is None:
            return seen
        seen.append(d)
        a = d.options[rng.below(len(d.options))]
        real.apply(a)
        copy.apply(a)


@pytest.mark.parametrize("players, variant", [(2, False), (3, False), (4, False), (5, True), (6, False)])
def test_a_search_copy_plays_like_the_real_game(players, variant):
    for seed in range(12):
        st = RedRising(players, multiplayer_variant=variant).new_initial_state(seed)
        rng = Rng(seed)
        for _ in range(seed * 7):  # from several points of the game
            d = st.decision()
            st.apply(d.options[rng.below(len(d.options))])
        real = st.resample(st.decision().player, Rng(seed + 100))
        copy = real.clone().for_search()
        assert type(copy) is SearchRRState and copy.quiet and not real.quiet
        assert type(copy.clone()) is SearchRRState  # clones of a search copy stay search copies
        n_events = len(real.events)
        _play_both(real, copy, Rng(seed + 200))
        assert copy.scores() == real.scores() and copy.winners() == real.winners()
        assert copy.history == real.history
        assert copy.hands == real.hands and copy.locs == real.locs and copy.deck == real.deck
        assert copy.extra_points == real.extra_points
        assert [s.total for s in copy.final] == [s.total for s in real.final]
        assert len(real.events) > n_events  # the real game keeps its log...
        assert all(e.kind == "points" for e in copy.events)  # ...the copy only what scoring reads


def test_points_events_are_kept_for_the_scoring():
    """Hacker's end-of-game points come from "points" events: a search copy keeps them."""
    found = 0
    for seed in range(300):
        st = make_game("red-rising", 4).new_initial_state(seed)
        copy = st.clone().for_search()
        _play_both(st, copy, Rng(seed))
        if any(st.extra_points):
            found += 1
            assert copy.extra_points == st.extra_points
            assert copy.scores() == st.scores()
        if found >= 3:
            break
    assert found >= 1


def test_real_states_log_everything():
    st = make_game("red-rising", 4).new_initial_state(3)
    assert type(st) is RRState and not st.quiet
    assert type(st.clone()) is RRState
    assert type(st.resample(st.decision().player, Rng(1))) is RRState  # the server's undo check reads its log


def test_for_search_default_is_the_state_itself():
    st = make_game("red-north", 2).new_initial_state(1)
    assert st.for_search() is st


def test_canonical_rng_draws_like_random_random():
    """CanonicalRng inlines random.Random.randrange/shuffle (ISMCTS inlines below() too)."""
    for seed in range(40):
        a, r = CanonicalRng(seed), random.Random(seed)
        for n in (1, 2, 3, 5, 7, 8, 9, 100, 1000, 2**40 + 3):
            assert a.below(n) == r.randrange(n)
        x = list(range(seed * 3))
        y = x[:]
        a.shuffle(x)
        r.shuffle(y)
        assert x == y
