"""Seat rotation, tournament statistics (shared wins, Elo) and determinism across workers."""

from collections import Counter
from math import comb

import pytest

from redtable.core import InvalidOptions
from redtable.sim.simulate import GameResult
from redtable.sim.tournament import (
    TournamentReport,
    apply_budget,
    check_budget,
    display_names,
    rotation_period,
    seating,
    tournament,
)


@pytest.mark.parametrize(
    "bots, seats", [(1, 2), (2, 2), (2, 4), (3, 3), (3, 4), (4, 6), (6, 6), (3, 2), (4, 2), (5, 3), (6, 4), (4, 3)]
)
def test_every_bot_plays_every_seat_equally_often(bots, seats):
    period = rotation_period(bots, seats)
    count = Counter()
    tables = Counter()
    for g in range(period):
        s = seating(bots, seats, g)
        assert len(s) == seats and set(s) <= set(range(bots))
        if bots >= seats:
            assert len(set(s)) == seats  # no bot holds two seats when there are bots enough
        for seat, b in enumerate(s):
            count[b, seat] += 1
        tables[frozenset(s)] += 1
    assert set(count) == {(b, s) for b in range(bots) for s in range(seats)}
    assert len(set(count.values())) == 1  # every (bot, seat) equally often
    if bots > seats:  # every combination of bots meets
        assert len(tables) == comb(bots, seats)
    assert seating(bots, seats, period + 3) == seating(bots, seats, 3)


def test_rotation_balances_who_sits_after_whom():
    follows = Counter()
    for g in range(rotation_period(3, 3)):
        s = seating(3, 3, g)
        for i in range(3):
            follows[s[i], s[(i + 1) % 3]] += 1
    assert len(follows) == 6 and len(set(follows.values())) == 1


def test_budget_goes_to_search_bots_without_one():
    assert apply_budget(["ismcts", "ismcts:100it", "random"], "0.5s") == ["ismcts:0.5s", "ismcts:100it", "random"]
    assert apply_budget(["ismcts:c=0.5", "heuristic:samples=2"], "2000it") == [
        "ismcts:2000it:c=0.5",
        "heuristic:samples=2",
    ]
    assert apply_budget(["ismcts", "heuristic"], None) == ["ismcts", "heuristic"]
    assert check_budget("2000it") == "2000it" and check_budget(".25s") == ".25s"
    assert check_budget("250ms") == "250ms"
    for bad in ("0.5", "2000", "0s", "1.5it", "fast", "-1s", ""):
        with pytest.raises(InvalidOptions, match="0.5s"):
            check_budget(bad)


def test_repeated_bots_get_distinct_names():
    assert display_names(["random", "heuristic", "random", "random"]) == ["random", "heuristic", "random#2", "random#3"]


def _result(index, scores, winners):
    n = len(scores)
    return GameResult(
        index,
        index,
        {"scores": scores, "winners": winners},
        10,
        0.0,
        decision_seconds=[0.001] * n,
        decision_counts=[5] * n,
    )


def test_a_tie_for_first_is_a_shared_win():
    report = TournamentReport("red-north", 3, 2, 0, ["a", "b", "c"])
    report.seatings = [[0, 1, 2], [1, 2, 0]]
    report.results = [_result(0, [5, 5, 1], [0, 1]), _result(1, [3, 2, 9], [2])]
    data = report.to_json()
    wins = {b["name"]: b["wins"] for b in data["bots"]}
    assert wins == {"a": 1.5, "b": 0.5, "c": 0.0}
    rates = {b["name"]: b["win_rate"] for b in data["bots"]}
    assert rates == {"a": 0.75, "b": 0.25, "c": 0.0}
    assert sum(wins.values()) == 2
    assert all(b["mean_decision_seconds"] == pytest.approx(0.001 / 5) for b in data["bots"])


def test_elo_ranks_a_bot_that_always_beats_another():
    report = TournamentReport("red-north", 2, 20, 0, ["strong", "weak"])
    report.seatings = [seating(2, 2, g) for g in range(20)]
    report.results = [_result(g, [9 if b == 0 else 2 for b in s], [s.index(0)]) for g, s in enumerate(report.seatings)]
    strong, weak = report.to_json()["bots"]
    assert strong["win_rate"] == 1.0 and weak["win_rate"] == 0.0
    assert strong["elo"] > weak["elo"] + 400 and strong["elo"] + weak["elo"] == pytest.approx(3000, abs=0.2)
    assert strong["ci95"][0] > 0.8 and weak["ci95"][1] < 0.2


def test_failed_games_are_reported_not_counted():
    report = TournamentReport("red-north", 2, 2, 0, ["a", "b"])
    report.seatings = [[0, 1], [1, 0]]
    bad = GameResult(
        1, 1, None, 3, 0.0, "Traceback: boom", bots=["b", "a"], decision_seconds=[0.0, 0.0], decision_counts=[2, 1]
    )
    report.results = [_result(0, [4, 1], [0]), bad]
    data = report.to_json()
    assert data["errors"] == 1 and data["error_details"][0]["game"] == 1
    assert [b["games"] for b in data["bots"]] == [1, 1]


def _without_timings(data):
    data = dict(data, seconds=None)
    data["bots"] = [dict(b, mean_decision_seconds=None) for b in data["bots"]]
    return data


@pytest.mark.parametrize(
    "game, players, bots",
    [("red-north", 3, ["random", "random", "random"]), ("red-rising", 2, ["random", "random", "random"])],
)
@pytest.mark.multiprocess
def test_results_do_not_depend_on_workers(game, players, bots):
    one = tournament(game, players, bots, 12, seed=3, workers=1)
    two = tournament(game, players, bots, 12, seed=3, workers=2)
    assert [r.seed for r in two.results] == [r.seed for r in one.results]
    assert two.seatings == one.seatings
    assert _without_timings(two.to_json()) == _without_timings(one.to_json())
    data = one.to_json()
    assert data["errors"] == 0
    assert sum(b["wins"] for b in data["bots"]) == pytest.approx(12)
    assert sum(b["games"] for b in data["bots"]) == 12 * players


def test_tournament_rejects_unknown_bots_and_players():
    with pytest.raises(InvalidOptions, match="nobot"):
        tournament("red-north", 2, ["random", "nobot"], 2)
    with pytest.raises(InvalidOptions, match="2-4 players"):
        tournament("red-north", 5, ["random", "random"], 2)
