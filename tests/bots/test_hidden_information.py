"""Bots never use hidden information.

The "permuted real state" is ``state.resample(seat, rng)``: everything the deciding seat has
seen is kept, the opponents' hidden cards and the deck are re-dealt. A bot with a fixed
seed must choose the same action on the original and on the permuted state: its choice
is a function of its information set (and its seed) only.
"""

import pytest
from bot_helpers import GuardedState, random_positions

from redtable.bots import HeuristicBot, ISMCTSBot
from redtable.core import Rng

CASES = [("red-rising", 4, 3), ("red-rising", 2, 4), ("red-north", 2, 5), ("red-north", 3, 6)]


def hidden_differs(a, b, seat) -> bool:
    """Whether two states differ somewhere the seat cannot see (the test is not vacuous)."""
    if hasattr(a, "hands") and hasattr(a, "deck"):
        return a.deck != b.deck or any(a.hands[q] != b.hands[q] for q in range(len(a.hands)) if q != seat)
    return True


@pytest.mark.parametrize("game_name, players, seed", CASES)
def test_choice_is_the_same_on_a_permuted_state(game_name, players, seed):
    positions = random_positions(game_name, players, seed, count=8)
    assert len(positions) >= 6
    differs = 0
    for i, st in enumerate(positions):
        seat = st.decision().player
        perm = st.resample(seat, Rng(1000 + i))
        assert perm.view(seat) == st.view(seat)
        assert perm.decision() == st.decision()
        differs += hidden_differs(st, perm, seat)
        for make in (lambda: HeuristicBot(seed=7), lambda: ISMCTSBot(seed=7, iterations=40)):
            a = make().choose(GuardedState(st, seat))
            b = make().choose(GuardedState(perm, seat))
            assert a == b, f"{game_name} position {i} ({st.decision().kind}): {a!r} != {b!r}"
    assert differs >= len(positions) // 2


@pytest.mark.parametrize("game_name, players, seed", CASES[:1] + CASES[2:3])
def test_search_statistics_are_the_same_on_a_permuted_state(game_name, players, seed):
    """Stronger than equal choices: the whole ISMCTS tree is identical."""
    st = random_positions(game_name, players, seed + 50, count=1)[0]
    seat = st.decision().player
    perm = st.resample(seat, Rng(99))

    def tree(state):
        bot = ISMCTSBot(seed=3, iterations=60)
        bot.choose(GuardedState(state, seat))
        return {a: (ch.n, round(ch.w, 9), ch.avail) for a, ch in bot.last_root.children.items()}

    assert tree(st) == tree(perm)


def test_heuristic_values_are_the_same_on_a_permuted_state():
    for st in random_positions("red-rising", 3, 21, count=4):
        seat = st.decision().player
        perm = st.resample(seat, Rng(5))
        va = HeuristicBot(seed=1).values(GuardedState(st, seat))
        vb = HeuristicBot(seed=1).values(GuardedState(perm, seat))
        assert va == pytest.approx(vb)
