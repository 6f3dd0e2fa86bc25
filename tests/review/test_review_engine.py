"""The review of a decision depends only on the seat's information set (and budget, seed).

Re-dealing everything hidden from the seat (``resample``: the other hands, the deck, the
future chance) leaves the review of that decision unchanged, and the review reads the real
state only as a bot may (GuardedState). The test checks it is not vacuous: the re-deals
really differ on hidden cards, and the reviewed decisions have a real choice.
"""

import pytest
from bot_helpers import GuardedState, play_game, random_positions

from redtable.bots import HeuristicBot
from redtable.core import GameRecord, Rng
from redtable.review import BLUNDER, MISTAKE, Budget, decision_steps, mark_of, review_decision, review_record

CASES = [("red-rising", 4, 3), ("red-rising", 2, 8), ("red-north", 2, 5), ("red-north", 3, 6)]
SMALL = Budget(iterations=40)


def hidden_differs(a, b, seat) -> bool:
    if hasattr(a, "hands") and hasattr(a, "deck"):
        return a.deck != b.deck or any(a.hands[q] != b.hands[q] for q in range(len(a.hands)) if q != seat)
    return True


@pytest.mark.parametrize("game_name, players, seed", CASES)
def test_review_of_a_decision_is_unchanged_by_a_redeal_of_the_hidden(game_name, players, seed):
    positions = random_positions(game_name, players, seed, count=4)
    assert len(positions) >= 3
    differs = 0
    for i, st in enumerate(positions):
        d = st.decision()
        seat = d.player
        taken = d.options[-1]
        perm = st.resample(seat, Rng(500 + i))
        assert perm.view(seat) == st.view(seat) and perm.decision() == d
        differs += hidden_differs(st, perm, seat)
        a = review_decision(GuardedState(st, seat), taken, SMALL, seed=9, step=i)
        b = review_decision(GuardedState(perm, seat), taken, SMALL, seed=9, step=i)
        assert a == b, f"{game_name} position {i} ({d.kind})"
        assert 0.0 <= a.win_taken <= 1.0 and 0.0 <= a.win_preferred <= 1.0 and 0.0 <= a.win_before <= 1.0
        assert a.preferred in d.options
    assert differs >= len(positions) // 2


def test_the_preferred_option_is_the_experts_own_choice():
    from redtable.bots.common import seed_of
    from redtable.bots.expert import ExpertBot

    st = random_positions("red-rising", 3, 11, count=1)[0]
    seat = st.decision().player
    r = review_decision(GuardedState(st, seat), st.decision().options[0], SMALL, seed=4, step=7)
    assert r.preferred == ExpertBot(seed=seed_of(4, 7), iterations=40).choose(GuardedState(st, seat))


def test_marks_thresholds():
    assert mark_of(0.0) is None
    assert mark_of(MISTAKE) is None  # more than 5 points
    assert mark_of(0.0501) == "mistake"
    assert mark_of(BLUNDER) == "mistake"  # more than 15 points
    assert mark_of(0.1501) == "blunder"
    assert mark_of(-0.3) is None


def test_budget_parse():
    assert Budget.parse("200it") == Budget(200, None)
    assert Budget.parse("0.2s") == Budget(None, 0.2)
    assert Budget.parse("250ms") == Budget(None, 0.25)
    assert Budget(200).part(4) == Budget(50) and Budget(None, 0.2).part(4) == Budget(None, 0.05)


@pytest.fixture(scope="module")
def short_game():
    st = play_game("red-north", 2, [HeuristicBot(seed=1), HeuristicBot(seed=2)], seed=3, guard=False)
    return GameRecord.of(st, 3)


def test_json_shape_and_determinism(short_game):
    seen = []
    r = review_record(short_game, 1, Budget(iterations=24), seed=2, progress=lambda done, total: seen.append(done))
    j = r.to_json()
    assert set(j) == {"seat", "decisions"} and j["seat"] == 1
    steps = decision_steps(short_game, 1)
    assert [e["step"] for e in j["decisions"]] == steps and steps
    assert seen == list(range(len(steps) + 1))
    for e in j["decisions"]:
        assert {"step", "taken", "preferred", "win_before", "win_taken", "win_preferred", "mark"} <= set(e)
        assert e["taken"] == short_game.actions[e["step"]]
        assert e["mark"] in (None, "mistake", "blunder")
        assert all(0.0 <= e[k] <= 1.0 for k in ("win_before", "win_taken", "win_preferred"))
        if e["taken"] == e["preferred"]:
            assert e["win_taken"] == e["win_preferred"] and e["mark"] is None
        assert e["round"] in (1, 2, 3) and e["vp_taken"] is not None  # Red North: the round's expected VP
    assert review_record(short_game, 1, Budget(iterations=24), seed=2).to_json() == j


def test_red_rising_entries_have_exactly_the_issue_keys_and_why():
    st = play_game("red-rising", 2, [HeuristicBot(seed=1), HeuristicBot(seed=2)], seed=4, guard=False)
    rec = GameRecord.of(st, 4)
    r = review_record(rec, 0, Budget(iterations=8), seed=1)
    keys = {"step", "taken", "preferred", "win_before", "win_taken", "win_preferred", "mark", "why"}
    assert r.decisions and all(set(e) == keys for e in r.to_json()["decisions"])


def test_unfinished_games_and_bad_seats_are_refused(short_game):
    from redtable.core import RedtableError, ReplayError

    cut = GameRecord(short_game.game, short_game.players, short_game.seed, short_game.options, short_game.actions[:10])
    with pytest.raises(RedtableError, match="not finished"):
        review_record(cut, 0, SMALL)
    with pytest.raises(RedtableError, match="seat"):
        review_record(short_game, 5, SMALL)
    bad = GameRecord(short_game.game, short_game.players, short_game.seed, short_game.options, ["nope"])
    with pytest.raises(ReplayError):
        review_record(bad, 0, SMALL)


def test_a_time_budget_bounds_each_decision():
    """Seconds per decision: each review searches about its budget (a quarter more when the taken
    option needs a search of its own), however large the iteration count it reaches."""
    import time

    positions = random_positions("red-north", 2, 17, count=3)
    budget = Budget(seconds=0.02)
    t0 = time.perf_counter()
    for i, st in enumerate(positions):
        review_decision(st, st.decision().options[-1], budget, seed=1, step=i)
    per = (time.perf_counter() - t0) / len(positions)
    assert per < 0.02 * 1.25 + 0.2  # the budget, the forced search's quarter, the Resolution's VP samples
