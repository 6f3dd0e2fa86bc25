"""The review's chances are calibrated (redtable/review/calibration.py): a monotone map per title,
number of players and round, applied to every chance of a review and a hint.

The maps themselves are measured by ``bench/calibrate_review.py`` (the README's table); here:
they keep the options' order and [0, 1], they are what ``review_decision`` applies to the
search's raw chances, and a player count that was not measured keeps the raw chances.
"""

import pytest
from bot_helpers import random_positions

from redtable.core.registry import titles
from redtable.review import Budget, review_decision
from redtable.review.calibration import calibrate, calibrated, maps

#: (title, players) -> its maps per round, as the titles give them
MAPS = {(t.name, n): per_round for t in titles() for n, per_round in maps(t.name).items()}

GRID = [i / 100 for i in range(101)]


@pytest.mark.parametrize("key", sorted(MAPS, key=str))
def test_every_map_is_monotone_and_a_probability(key):
    game, players = key
    for rnd in MAPS[key]:
        got = [calibrated(game, players, rnd, p) for p in GRID]
        assert all(0.0 <= x <= 1.0 for x in got)
        # strictly increasing: the preferred option stays first
        assert all(a < b for a, b in zip(got, got[1:], strict=False)), (key, rnd)


def test_the_measured_titles_have_maps():
    assert ("red-rising", 2) in MAPS and set(MAPS[("red-rising", 2)]) == {None}
    assert ("red-north", 2) in MAPS and set(MAPS[("red-north", 2)]) == {1, 2, 3}  # Spring, Summer, Ragnarok


def test_an_unmeasured_player_count_keeps_the_raw_chance():
    assert ("red-rising", 5) not in MAPS
    assert [calibrated("red-rising", 5, None, p) for p in GRID] == GRID


@pytest.mark.parametrize("game, players, seed", [("red-north", 2, 3), ("red-rising", 2, 4), ("red-north", 3, 2)])
def test_the_review_applies_the_map_to_the_searchs_chances(game, players, seed):
    st = random_positions(game, players, seed, count=1)[0]
    d = st.decision()
    taken = d.options[-1]
    raw = review_decision(st, taken, Budget(iterations=40), seed=5, step=2, calibrated=False)
    got = review_decision(st, taken, Budget(iterations=40), seed=5, step=2)
    assert got.preferred == raw.preferred and got.why == raw.why  # the search and the words are the same
    for k in ("win_before", "win_taken", "win_preferred"):
        assert getattr(got, k) == pytest.approx(calibrate(st, getattr(raw, k)))
    assert (got.win_preferred >= got.win_taken) == (raw.win_preferred >= raw.win_taken)
    if players == 3:
        assert got == raw
