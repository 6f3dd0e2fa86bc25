"""Shared wins, Wilson intervals, pairwise decomposition and the Elo fit."""

import pytest

from redtable.sim.stats import elo_ratings, pairwise_outcomes, shared_wins, wilson_interval


def test_shared_wins_split_a_tie_for_first():
    assert shared_wins(3, [1]) == [0.0, 1.0, 0.0]
    assert shared_wins(4, [0, 2]) == [0.5, 0.0, 0.5, 0.0]
    assert shared_wins(3, [0, 1, 2]) == pytest.approx([1 / 3] * 3)
    assert shared_wins(2, []) == [0.0, 0.0]


@pytest.mark.parametrize(
    "x, n, lo, hi",
    [
        (5, 10, 0.2366, 0.7634),  # textbook values
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (81, 263, 0.2553, 0.3662),  # Newcombe (1998), method 3
        (1, 1, 0.2065, 1.0),
    ],
)
def test_wilson_interval_known_values(x, n, lo, hi):
    got = wilson_interval(x, n)
    assert got == pytest.approx((lo, hi), abs=5e-5)


def test_wilson_interval_edge_cases():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(2.5, 10)  # shared wins make fractional counts
    assert 0 < lo < 0.25 < hi < 1


def test_pairwise_outcomes_rank_winners_first_then_score():
    # seats held by bots 0, 1, 2, 0: seat 1 won on a tie-breaker against seat 2's equal score
    out = pairwise_outcomes([0, 1, 2, 0], [5, 7, 7, 3], [1])
    assert (0, 1, 0.0) in out and (0, 2, 0.0) in out and (1, 2, 1.0) in out
    assert (1, 0, 1.0) in out and (2, 0, 1.0) in out
    assert len(out) == 5  # the pair of seats both held by bot 0 is skipped
    assert pairwise_outcomes([0, 1], [4, 4], [0, 1]) == [(0, 1, 0.5)]


def test_elo_orders_a_bot_that_always_wins_above_one_that_always_loses():
    outcomes = [(0, 1, 1.0)] * 40 + [(1, 0, 0.0)] * 40
    a, b = elo_ratings(2, outcomes)
    assert a > b + 400 and a + b == pytest.approx(3000)


def test_elo_follows_a_chain_and_is_centred_and_deterministic():
    # 0 beats 1 and 2 always; 1 beats 2 three times in four; 3 never played (the prior keeps it finite)
    outcomes = [(0, 1, 1.0)] * 20 + [(2, 0, 0.0)] * 20 + [(1, 2, 1.0)] * 15 + [(1, 2, 0.0)] * 5
    elo = elo_ratings(4, outcomes)
    assert elo[0] > elo[1] > elo[2] and elo[0] > elo[3] > elo[2]
    assert sum(elo) / 4 == pytest.approx(1500)
    assert elo_ratings(4, outcomes) == elo
    assert elo_ratings(3, []) == [1500.0] * 3


def test_elo_of_equal_bots_is_equal():
    outcomes = [(0, 1, 1.0), (0, 1, 0.0)] * 10 + [(1, 2, 0.5)] * 8
    elo = elo_ratings(3, outcomes)
    assert elo == pytest.approx([1500.0] * 3, abs=1e-6)
