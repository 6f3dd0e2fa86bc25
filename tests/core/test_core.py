"""The game-agnostic core: seeded chance, decisions, events, records."""

import json

import pytest

from redtable.core import (
    Decision,
    Event,
    GameOver,
    GameRecord,
    IllegalAction,
    InvalidOptions,
    ReplayError,
    Rng,
    make_game,
    replay,
)


def test_rng_is_reproducible_and_clone_is_independent():
    a, b = Rng(42), Rng(42)
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    c = a.clone()
    assert a.below(1000) == c.below(1000)
    a.next64()
    assert a.state != c.state


def test_rng_below_covers_range_uniformly_enough():
    r = Rng(7)
    counts = [0] * 6
    for _ in range(6000):
        counts[r.below(6)] += 1
    assert all(800 < n < 1200 for n in counts)
    with pytest.raises(ValueError):
        r.below(0)


def test_rng_shuffle_is_a_permutation_and_seeded():
    xs = list(range(50))
    Rng(3).shuffle(xs)
    ys = list(range(50))
    Rng(3).shuffle(ys)
    assert xs == ys and sorted(xs) == list(range(50)) and xs != list(range(50))


def test_rng_derive_does_not_advance():
    r = Rng(9)
    s = r.state
    assert r.derive(1) != r.derive(2)
    assert r.state == s


def test_event_visibility():
    public = Event("x", {"a": 1})
    private = Event("y", {"b": 2}, (1,))
    assert public.visible_to(None) and public.visible_to(0)
    assert private.visible_to(1) and not private.visible_to(0) and not private.visible_to(None)
    assert private.to_json() == {"kind": "y", "b": 2, "to": [1]}


def test_decision_json():
    d = Decision(2, "gain", ("mars", "deck"), {"deployed": "luna"})
    assert d.to_json() == {"player": 2, "kind": "gain", "options": ["mars", "deck"], "context": {"deployed": "luna"}}


def test_unknown_game_and_bad_player_count():
    with pytest.raises(InvalidOptions, match="unknown game 'chess'"):
        make_game("chess", 2)
    with pytest.raises(InvalidOptions, match="2-6 players, got 7"):
        make_game("red-rising", 7)


def _random_game(seed, steps=60):
    st = make_game("red-rising", 3).new_initial_state(seed)
    r = Rng(seed)
    for _ in range(steps):
        if st.decision() is None:
            break
        opts = st.legal_actions()
        st.apply(opts[r.below(len(opts))])
    return st


def test_illegal_action_changes_nothing_and_names_legal_options():
    st = _random_game(1, 10)
    before = (json.dumps(st.view(None)), list(st.history), len(st.events))
    with pytest.raises(IllegalAction) as err:
        st.apply("not-an-option")
    assert err.value.legal == st.legal_actions()
    assert "legal:" in str(err.value)
    assert (json.dumps(st.view(None)), list(st.history), len(st.events)) == before


@pytest.mark.parametrize("name", ["red-rising", "red-north"])
def test_pending_is_the_decision_until_the_game_is_over(name):
    st = make_game(name, 2).new_initial_state(3)
    assert st.pending() == st.decision()
    while not st.is_terminal():
        st.apply(st.pending().options[0])
    assert st.decision() is None
    with pytest.raises(GameOver, match="the game is over, no decision is pending"):
        st.pending()


def test_record_round_trip_and_replay_is_exact(tmp_path):
    st = _random_game(5, 80)
    rec = GameRecord.of(st, 5)
    path = tmp_path / "g.json"
    rec.save(path, st)
    again = replay(GameRecord.load(path))
    assert again.history == st.history
    assert [e.to_json() for e in again.events] == [e.to_json() for e in st.events]
    assert again.view(0) == st.view(0)


def test_replay_names_the_illegal_step(tmp_path):
    st = _random_game(5, 30)
    rec = GameRecord.of(st, 5)
    rec.actions[12] = "bogus"
    with pytest.raises(ReplayError, match="step 12: illegal action 'bogus'"):
        replay(rec)


@pytest.mark.parametrize(
    "bad, message",
    [
        ([], "JSON object"),
        ({"game": "red-rising", "players": "4", "seed": 1, "actions": []}, "players"),
        ({"game": "red-rising", "players": 4, "seed": 1, "actions": [3]}, "step 0"),
        ({"game": "red-rising", "players": 4, "seed": 1, "actions": [], "format": "x"}, "unknown format"),
    ],
)
def test_malformed_records_are_rejected(bad, message):
    with pytest.raises(ReplayError, match=message):
        GameRecord.from_json(bad)
