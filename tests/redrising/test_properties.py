"""Property tests: random Red Rising games for 2-6 players keep every invariant."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from redtable.core import Rng
from redtable.redrising.board import FLEET_MAX, INFLUENCE_TOKENS
from redtable.redrising.cards import NUM_CARDS, SLUG
from redtable.redrising.game import RedRising

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(st):
    cards = [c for h in st.hands for c in h] + [c for loc in st.locs for c in loc] + st.deck + st.banished
    assert sorted(cards) == list(range(NUM_CARDS)), "every card is in exactly one place"
    for p in range(st.n):
        assert 0 <= st.fleet[p] <= FLEET_MAX
        assert 0 <= st.influence[p] <= INFLUENCE_TOKENS
        assert st.helium[p] >= 0
    assert -1 <= st.sovereign < st.n
    assert set(st.facedown) <= {c for loc in st.locs for c in loc}


def check_views(st):
    revealed = {e.data["card"] for e in st.events if e.kind == "reveal"}
    for p in range(st.n):
        text = json.dumps(st.view(p))
        hidden = {c for q in range(st.n) if q != p for c in st.hands[q]} - st.known[p]
        hidden |= {c for c in st.deck if SLUG[c] not in revealed and c not in st.known[p]}
        hidden |= {c for c in st.facedown if c not in st.known[p]}
        for c in hidden:
            assert f'"{SLUG[c]}"' not in text, f"player {p}'s view shows hidden {SLUG[c]}"


def play(players: int, seed: int, check_every: int = 1):
    st = RedRising(players).new_initial_state(seed)
    rng = Rng(seed + 1)
    steps = 0
    while st.decision() is not None:
        opts = st.legal_actions()
        assert opts, "a decision always offers options"
        st.apply(opts[rng.below(len(opts))])
        steps += 1
        if steps % check_every == 0:
            check_invariants(st)
        assert steps < 5000, "a game ends"
    check_invariants(st)
    return st


@SETTINGS
@given(players=st_.integers(2, 6), seed=st_.integers(0, 2**31 - 1))
def test_random_games_end_with_every_card_accounted_for(players, seed):
    st = play(players, seed)
    assert st.is_terminal()
    assert len(set(st.turns)) <= 2  # equal turns, Apollo's extra one aside
    assert len(st.scores()) == players and st.winners()


@SETTINGS
@given(players=st_.integers(2, 6), seed=st_.integers(0, 2**31 - 1))
def test_same_seed_same_game(players, seed):
    a = play(players, seed, check_every=1000)
    b = play(players, seed, check_every=1000)
    assert a.history == b.history
    assert [e.to_json() for e in a.events] == [e.to_json() for e in b.events]
    assert a.scores() == b.scores()


@settings(max_examples=10, deadline=None)
@given(players=st_.integers(2, 6), seed=st_.integers(0, 2**31 - 1))
def test_views_never_show_hidden_cards(players, seed):
    st = RedRising(players).new_initial_state(seed)
    rng = Rng(seed)
    while st.decision() is not None:
        check_views(st)
        opts = st.legal_actions()
        st.apply(opts[rng.below(len(opts))])
    check_views(st)


@settings(max_examples=10, deadline=None)
@given(players=st_.integers(2, 6), seed=st_.integers(0, 2**31 - 1))
def test_resample_keeps_the_players_view_and_redeals_the_rest(players, seed):
    st = RedRising(players).new_initial_state(seed)
    rng = Rng(seed)
    moved = 0
    while st.decision() is not None:
        p = st.decision().player
        r = st.resample(p, Rng(seed + len(st.history)))
        assert r.view(p) == st.view(p)
        assert r.decision() == st.decision()
        check_invariants(r)
        moved += r.deck != st.deck
        opts = st.legal_actions()
        st.apply(opts[rng.below(len(opts))])
    assert moved > 0


def test_resampled_states_play_on_to_a_legal_end():
    st = RedRising(4).new_initial_state(3)
    rng = Rng(1)
    for _ in range(40):
        st.apply(st.legal_actions()[rng.below(len(st.legal_actions()))])
    before = st.view(0)
    r = st.resample(st.decision().player, Rng(5))
    while r.decision() is not None:
        r.apply(r.legal_actions()[rng.below(len(r.legal_actions()))])
    check_invariants(r)
    assert st.view(0) == before
