"""Property tests over random games (hypothesis)."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redtable.core import GameRecord, Rng, replay
from redtable.rednorth import RedNorth
from redtable.rednorth.cards import NKINDS
from redtable.rednorth.game import FREYA_END
from redtable.rednorth.gods import ODIN
from redtable.rednorth.party import UP

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
players_st = st.integers(min_value=2, max_value=4)
seed_st = st.integers(min_value=0, max_value=2**31 - 1)


def random_game(players, seed, bot_seed, each_step=None):
    s = RedNorth(players).new_initial_state(seed)
    rng = Rng(bot_seed)
    while True:
        if each_step is not None:
            each_step(s)
        d = s.decision()
        if d is None:
            return s
        s.apply(d.options[rng.below(len(d.options))])


def hidden_holdings(s, p):
    h = list(s.hands[p])
    for x in s.parties[p]:
        if not x & UP:
            h[x & 15] += 1
    return h


@SETTINGS
@given(players=players_st, seed=seed_st, bot=seed_st)
def test_random_games_end_after_three_rounds_conserving_cards(players, seed, bot):
    max_vp = (players + 1) * (1 + 2 + 3) + 2  # every Outpost every round, plus Odin

    def check(s):
        assert s.card_counts() == s.total
        assert all(h[k] >= 0 for h in s.hands for k in range(NKINDS))
        assert s.hand_n == [sum(h) for h in s.hands]
        for p in range(players):  # publicly known cards really are among the player's hidden cards
            hold = hidden_holdings(s, p)
            if s.phase == FREYA_END and s.actor == p:  # Freya's card in hand
                hold[s.sub] += 1
            assert all(s.known[p][k] <= hold[k] for k in range(NKINDS))
        assert sum(s.vp) <= max_vp
        assert s.round in (1, 2, 3)

    s = random_game(players, seed, bot, check)
    assert s.is_terminal() and s.round == 3
    assert [r["round"] for r in s.reports] == [1, 2, 3]
    assert s.card_counts() == s.total
    assert sum(s.vp) <= max_vp
    for p in range(players):
        odin = 2 if s.god[p] == ODIN and s.invoked[p] else 0
        assert s.vp[p] <= (players + 1) * 6 + odin
        assert s.vp[p] == sum(r["vp"][p] for r in s.reports) + odin
    assert len(s.winners()) == 1
    summary = s.summary()
    json.dumps(summary)
    assert summary["winner"] == s.winners()[0] and summary["vp"] == s.vp


@SETTINGS
@given(players=players_st, seed=seed_st, bot=seed_st)
def test_same_seed_same_game(players, seed, bot):
    a = random_game(players, seed, bot)
    b = random_game(players, seed, bot)
    assert a.history == b.history
    assert [e.to_json() for e in a.events] == [e.to_json() for e in b.events]
    record = GameRecord.from_json(json.loads(json.dumps(GameRecord.of(a, seed).to_json(a))))
    c = replay(record)
    assert [e.to_json() for e in c.events] == [e.to_json() for e in a.events]
    assert c.view(None) == a.view(None) and c.winners() == a.winners()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=players_st, seed=seed_st, bot=seed_st)
def test_views_never_leak_and_resample_matches_every_view(players, seed, bot):
    rng = Rng(bot ^ 0x5EED)

    def check(s):
        d = s.decision()
        for p in range(players):
            v = s.view(p)
            for seat in v["seats"]:
                if seat["seat"] != p:
                    assert "hand" not in seat
                    assert all(x["card"] is None for x in seat["party"] if not x["face_up"])
            assert "deck" not in v
            if v["pending"] and "card" in v["pending"] and p != s.actor:
                assert v["pending"]["card"] is None
            r = s.resample(p, rng)
            assert r.view(p) == v
            assert r.card_counts() == s.total
            if d is not None and d.player == p:
                assert r.decision() == d  # a decision depends only on what its player knows
            assert all(e.to is None or p in e.to for e in r.events)

    random_game(players, seed, bot, check)


@settings(max_examples=10, deadline=None)
@given(players=players_st, seed=seed_st, bot=seed_st)
def test_resampled_states_play_on_to_a_legal_end(players, seed, bot):
    s = RedNorth(players).new_initial_state(seed)
    rng = Rng(bot)
    for _ in range(rng.below(60)):
        d = s.decision()
        if d is None:
            break
        s.apply(d.options[rng.below(len(d.options))])
    if s.is_terminal():
        return
    r = s.resample(s.decision().player, rng)
    while not r.is_terminal():
        d = r.decision()
        r.apply(d.options[rng.below(len(d.options))])
        assert r.card_counts() == r.total
    assert len(r.winners()) == 1


@settings(max_examples=10, deadline=None)
@given(players=players_st, seed=seed_st, bot=seed_st)
def test_clone_is_independent(players, seed, bot):
    s = RedNorth(players).new_initial_state(seed)
    rng = Rng(bot)
    for _ in range(20):
        d = s.decision()
        s.apply(d.options[rng.below(len(d.options))])
    key = s.information_key(None), [s.information_key(p) for p in range(players)], list(s.deck)
    c = s.clone()
    while not c.is_terminal():
        d = c.decision()
        c.apply(d.options[rng.below(len(d.options))])
    assert (s.information_key(None), [s.information_key(p) for p in range(players)], list(s.deck)) == key
