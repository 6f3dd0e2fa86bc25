"""Hidden information: views, events, decision contexts and resampling."""

import json

from redtable.core import Rng
from redtable.rednorth import RedNorth
from redtable.rednorth.cards import JARL, KIND_SLUG, hero
from redtable.rednorth.gods import LOKI
from redtable.rednorth.scenario import goto_turn, refresh, set_party


def play(s, steps, seed=0):
    rng = Rng(seed)
    for _ in range(steps):
        d = s.decision()
        if d is None:
            break
        s.apply(d.options[rng.below(len(d.options))])
    return s


def assert_view_hides(s, p):
    v = s.view(p)
    json.dumps(v)
    assert "deck" not in v and isinstance(v["deck_size"], int)
    for seat in v["seats"]:
        q = seat["seat"]
        if q == p:
            assert sorted(seat["hand"]) == sorted(
                slug for k, slug in enumerate(KIND_SLUG) for _ in range(s.hands[q][k])
            )
            assert all(x["card"] is not None for x in seat["party"])
        else:
            assert "hand" not in seat
            assert all((x["card"] is None) == (not x["face_up"]) for x in seat["party"])
        assert seat["hand_size"] == s.hand_n[q]


def test_views_hide_hands_face_down_cards_and_deck():
    s = play(RedNorth(3).new_initial_state(5), 4)  # in the middle of Deployment
    for p in (0, 1, 2, None):
        assert_view_hides(s, p)
    assert all("hand" not in seat for seat in s.view(None)["seats"])
    play(s, 30, seed=1)
    for p in (0, 1, 2, None):
        assert_view_hides(s, p)


def test_private_events_reach_only_their_player():
    s = play(RedNorth(3).new_initial_state(2), 200)
    assert s.is_terminal()
    private = [e for e in s.events if e.to is not None]
    assert {e.kind for e in private} <= {"hand", "deploy", "draw"}
    for p in range(3):
        seen = s.events_for(p)
        assert all(e.to is None or e.to == (p,) for e in seen)
        assert sum(1 for e in seen if e.kind == "hand") == 1
    for e in s.events:
        if e.kind == "deployed":
            assert set(e.data) == {"player", "count"}
        if e.kind == "withdraw":
            assert set(e.data) == {"player", "slot", "glory_lost"}


def test_resample_keeps_the_view_and_the_decision():
    s = play(RedNorth(4).new_initial_state(9), 25)
    rng = Rng(3)
    for p in range(4):
        r = s.resample(p, rng)
        assert r.view(p) == s.view(p)
        assert r.card_counts() == s.total
        if s.decision().player == p:
            assert r.decision() == s.decision()
    d = s.decision()
    others = [p for p in range(4) if p != d.player]
    differs = any(s.resample(d.player, rng).hands[others[0]] != s.hands[others[0]] for _ in range(20))
    assert differs  # the opponents' cards really are re-dealt


def test_resample_keeps_publicly_known_cards_with_their_holder():
    s = RedNorth(2).new_initial_state(1)
    s.known[1][hero(2)] = 1
    s.hands[1][hero(2)] += 1
    s.hand_n[1] += 1
    rng = Rng(0)
    for _ in range(30):
        r = s.resample(0, rng)
        hidden = list(r.hands[1])
        for x in r.parties[1]:
            if not x & 16:
                hidden[x & 15] += 1
        assert hidden[hero(2)] >= 1 and hidden[JARL] >= 1


def test_resample_never_puts_a_jarl_under_loki_glory():
    s = RedNorth(2).new_initial_state(1)
    goto_turn(s, 0, round=3)
    s.god[0] = LOKI
    set_party(s, 0, ["raider-red"])
    set_party(s, 1, ["raider-red", "jarl", "jarl"])
    refresh(s)
    s.apply("invoke:loki")  # player 0's Loki on their own face-down card
    s.apply("slot:0")
    s.apply("slot:0")
    # Nearly every card hidden from player 1 is a Jarl: only the card under the Glory and
    # one card of the deck are Raiders.
    s.hands[0] = [0] * 10 + [3]
    s.hand_n[0] = 3
    s.known[0] = [0] * 11
    s.deck = [JARL] * 8 + [0]
    rng = Rng(5)
    seen = set()
    for _ in range(50):
        r = s.resample(1, rng)
        assert r.parties[0][0] & 15 != JARL
        assert r.view(1) == s.view(1)
        seen.add(r.parties[0][0] & 15)
    assert seen == {0, 1}  # red from the Party or green from the deck: both are possible


def test_no_block_windows_and_arming_hides_the_others_cards():
    """Red North has no reveal-to-block windows (State.idle_window is None throughout); its
    arm_hidden trips on the deck, the other seats' hands and their face-down Party cards."""
    from redtable.core import HiddenList, HiddenRead

    s = RedNorth(3).new_initial_state(5)
    rng = Rng(5)
    armed = 0
    while s.decision() is not None:
        assert s.idle_window() is None
        p = s.decision().player
        t = s.clone()
        trips = t.arm_hidden(p)
        assert trips == [] and type(t.hands[p]) is list and type(t.parties[p]) is list
        for q in range(3):
            if q != p:
                assert isinstance(t.hands[q], HiddenList) and len(t.hands[q]) == len(s.hands[q])
                hidden = [i for i, x in enumerate(s.parties[q]) if not x & 16]
                for i, x in enumerate(s.parties[q]):
                    if i not in hidden:
                        assert t.parties[q][i] == x  # face up: public
                if hidden:
                    try:
                        t.parties[q][hidden[0]]
                    except HiddenRead:
                        armed += 1
                    else:
                        raise AssertionError("a face-down card was read freely")
        if s.deck:
            try:
                t.deck[-1]
            except HiddenRead:
                pass
            else:
                raise AssertionError("the deck was read freely")
        d = s.decision()
        s.apply(d.options[rng.below(len(d.options))])
    assert armed
