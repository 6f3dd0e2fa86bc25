"""The ``block_windows`` option: blocks without tells.

Every opponent who might hold a blocker, for all the others can tell, is asked with the same
decision kind and context whether or not they hold one; holding none, their only option is
"no", which the engine never takes on their behalf (``State.idle_window`` names it for the
server). Nothing another seat sees depends on whether the target held a blocker.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from redtable.core import InvalidOptions, Rng, make_game
from redtable.redrising.cards import BY_SLUG, SLUG
from redtable.redrising.game import RedRising
from redtable.redrising.rules import BLOCK_SOVEREIGN, BLOCK_STEAL_BANISH
from redtable.redrising.testing import hand_names, play, scenario, twin_window_states

from .test_properties import check_invariants, check_views

BLOCKERS = ("judge", "pax-au-telemanus", "the-howlers")


# ================================================================ the option
def test_option_is_declared_validated_and_replayed():
    g = RedRising(3, block_windows=True)
    assert g.options() == {"players": 3, "multiplayer_variant": False, "block_windows": True}
    assert RedRising(**g.options()).block_windows is True
    assert RedRising(3).options()["block_windows"] is False  # off by default in the engine
    assert make_game("red-rising", 2, block_windows=True).block_windows is True
    for bad in ("yes", 1, None):
        with pytest.raises(InvalidOptions, match="'block_windows' must be true or false"):
            RedRising(2, block_windows=bad)


# ================================================================ steal / banish attempts
def test_target_without_blocker_gets_the_same_window_with_only_no():
    with_blocker = scenario(2, hands={0: ["aja"], 1: ["judge", "eo"]}, block_windows=True)
    without = scenario(2, hands={0: ["aja"], 1: ["trigg", "eo"]}, block_windows=True)
    for st in (with_blocker, without):
        play(st, "aja", "mars")
    a, b = with_blocker.decision(), without.decision()
    assert (a.player, a.kind, a.context) == (b.player, b.kind, b.context) == (1, "block", a.context)
    assert a.context == {"attacker": 0, "card": "aja"}
    assert a.options == ("block:judge", "no") and b.options == ("no",)
    assert with_blocker.idle_window() is None and without.idle_window() == "no"
    for st in (with_blocker, without):
        play(st, "no", "eo")  # declined: they banish a card of their choice
        assert "eo" not in hand_names(st, 1) and {SLUG[c] for c in st.banished} == {"aja", "eo"}


def test_with_blockers_the_window_offers_them_and_no():
    st = scenario(2, hands={0: ["aja"], 1: ["the-howlers", "judge", "eo"]}, block_windows=True)
    play(st, "aja", "mars")
    d = st.decision()
    assert d.kind == "block" and d.options == ("block:the-howlers", "block:judge", "no")
    play(st, "block:judge")
    assert hand_names(st, 1) == ["eo", "judge", "the-howlers"] and {SLUG[c] for c in st.banished} == {"aja"}


def test_no_window_when_the_target_surely_holds_no_blocker():
    # an empty hand
    st = scenario(2, hands={0: ["tactus"], 1: []}, block_windows=True)
    play(st, "tactus", "mars")
    assert st.decision().kind != "block"
    # every blocker lies face up on a location or banished: nobody can hold one
    st = scenario(
        2,
        hands={0: ["aja"], 1: ["eo", "trigg"]},
        locations={"jupiter": ["judge"]},
        banished=["pax-au-telemanus", "the-howlers"],
        block_windows=True,
    )
    play(st, "aja", "mars")
    d = st.decision()
    assert d.player == 1 and d.kind == "banish_from_hand"  # straight to the effect
    # a face-down blocker might be anywhere as far as the others know: still asked
    st = scenario(
        2,
        hands={0: ["aja"], 1: ["eo", "trigg"]},
        locations={"jupiter": ["judge"]},
        facedown={"judge": 1},
        banished=["pax-au-telemanus", "the-howlers"],
        block_windows=True,
    )
    play(st, "aja", "mars")
    assert st.decision().kind == "block" and st.decision().options == ("no",)


def test_own_abilities_never_open_a_window():
    st = scenario(2, hands={0: ["hypnotist", "judge", "eo"], 1: ["trigg"]}, block_windows=True)
    play(st, "hypnotist", "mars")
    assert [st.decision().player, st.decision().kind] == [0, "banish_from_hand"]


def test_option_off_keeps_the_old_prompts():
    st = scenario(2, hands={0: ["aja"], 1: ["trigg", "eo"]})
    play(st, "aja", "mars")
    assert st.decision().kind == "banish_from_hand" and st.idle_window() is None


# ================================================================ the Sovereign token
@pytest.mark.parametrize("blocker", [None, "martyr", "justice"])
def test_sovereign_window(blocker):
    hand = [blocker, "eo"] if blocker else ["trigg", "eo"]
    st = scenario(2, hands={0: ["boneriders"], 1: hand}, sovereign=1, deck_top=["orion"], block_windows=True)
    play(st, "boneriders", "mars")
    d = st.decision()
    assert (d.player, d.kind, d.context) == (1, "block_sovereign", {"attacker": 0})
    assert d.options == ((f"block:{blocker}", "no") if blocker else ("no",))
    assert st.idle_window() == (None if blocker else "no")
    n = len(st.events)
    play(st, "no")
    assert st.sovereign == 0
    kinds = [e.kind for e in st.events[n:]]
    assert kinds[:2] == ["sovereign", "house_ability"]


def test_no_sovereign_window_for_an_empty_hand_or_the_holder_themselves():
    st = scenario(2, hands={0: ["boneriders"], 1: []}, sovereign=1, block_windows=True)
    play(st, "boneriders", "mars")
    assert st.sovereign == 0 and st.decision().player == 0
    st = scenario(2, hands={0: ["boneriders", "martyr"], 1: ["eo"]}, sovereign=0, block_windows=True)
    play(st, "boneriders", "mars")
    assert st.sovereign == 0 and st.decision().player == 0


# ================================================================ no tells
def _twin_cases(n: int = 10) -> list:
    out = []
    for seed in range(200):
        players = 3 + seed % 3
        if twin_window_states(seed, players) is not None:
            out.append((seed, players))
            if len(out) == n:
                break
    return out


@pytest.mark.parametrize("seed,players", _twin_cases())
def test_redealt_target_hand_tells_the_others_nothing(seed, players):
    with_judge, without, a, q = twin_window_states(seed, players)
    assert BY_SLUG["judge"] in with_judge.hands[q] and not set(without.hands[q]) & BLOCK_STEAL_BANISH
    others = [p for p in range(players) if p != q]
    for p in others:
        assert with_judge.view(p) == without.view(p)
    starts = (len(with_judge.events), len(without.events))
    keep = next(c for c in without.hands[q] if c in with_judge.hands[q])  # a card both hands hold
    script = ["aja", "mars", f"p{q}", "no", SLUG[keep]]
    rng = Rng(seed + 5)
    windows = 0
    for step in range(40):
        da, db = with_judge.decision(), without.decision()
        if da is None or db is None:
            assert da is db
            break
        assert (da.player, da.kind) == (db.player, db.kind)
        if da.player != q:
            assert da == db
        else:
            windows += da.kind == "block"
            if da.kind == "block":
                assert da.options == ("block:judge", "no") and db.options == ("no",) and da.context == db.context
        for p in others:
            assert with_judge.view(p) == without.view(p)
            ea = [e for e in with_judge.events[starts[0] :] if e.visible_to(p)]
            eb = [e for e in without.events[starts[1] :] if e.visible_to(p)]
            assert ea == eb
        if step < len(script):
            action = script[step]
            if action not in da.options:  # the only opponent is chosen at once, say
                script.insert(step, None)
                action = None
        else:
            action = None
        if action is None or action not in db.options:
            if da.player == q:
                break  # the target's own later choices may differ: stop comparing here
            action = da.options[rng.below(len(da.options))]
        with_judge.apply(action)
        without.apply(action)
    assert windows == 1 and any(e.kind == "lead" and e.data["player"] == a for e in without.events[starts[1] :])


def test_without_the_option_the_prompt_tells():
    st = scenario(3, hands={0: ["aja"], 1: ["judge", "eo"], 2: ["trigg"]})
    other = scenario(3, hands={0: ["aja"], 1: ["trigg", "eo"], 2: ["judge"]})
    play(st, "aja", "mars", "p1")
    play(other, "aja", "mars", "p1")
    assert st.decision().kind == "block" and other.decision().kind == "banish_from_hand"


# ================================================================ random games
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(players=st_.integers(2, 6), seed=st_.integers(0, 2**31 - 1), variant=st_.booleans())
def test_random_games_with_block_windows(players, seed, variant):
    st = RedRising(players, multiplayer_variant=variant and players > 2, block_windows=True).new_initial_state(seed)
    rng = Rng(seed)
    steps = 0
    while st.decision() is not None:
        d = st.decision()
        assert d.options
        idle = st.idle_window()
        if d.kind in ("block", "block_sovereign"):
            blockers = BLOCK_STEAL_BANISH if d.kind == "block" else set(BLOCK_SOVEREIGN)
            held = [c for c in st.hands[d.player] if c in blockers]
            assert d.options == tuple(f"block:{SLUG[c]}" for c in held) + ("no",)
            assert idle == (None if held else "no")
        else:
            assert idle is None
        st.apply(d.options[rng.below(len(d.options))])
        steps += 1
        if steps % 7 == 0:
            check_invariants(st)
            check_views(st)
        assert steps < 5000
    check_invariants(st)
    assert st.is_terminal() and st.winners() and len(set(st.turns)) <= 2
