"""Observations: fixed size, in [0, 1], and blind to everything a seat cannot see."""

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from redtable.core import Rng, make_game  # noqa: E402
from redtable.envs import red_north_v0, red_rising_v0  # noqa: E402
from redtable.envs.observations import RED_NORTH, RED_RISING, encoder  # noqa: E402

CASES = [("red-rising", range(2, 7), 3), ("red-north", range(2, 5), 6)]


def test_layout_sizes():
    assert RED_RISING.size == 1744 and RED_NORTH.size == 1071
    for enc in (RED_RISING, RED_NORTH):
        ends = [s + n for s, n in enc.layout.segments.values()]
        assert max(ends) == enc.size
        assert "total" in enc.layout.describe()


@pytest.mark.parametrize("name,counts,games", CASES)
def test_observations_ignore_hidden_information(name, counts, games):
    """For every seat at many positions: re-dealing what that seat cannot see (resample)
    leaves its observation, and its action mask, exactly unchanged."""
    enc = encoder(name)
    checked = 0
    for players in counts:
        for g in range(games):
            seed = 100 * players + g
            st = make_game(name, players).new_initial_state(seed)
            rng = random.Random(seed)
            step = 0
            while (d := st.decision()) is not None:
                if step % 5 == 0:
                    for seat in range(players):
                        x = enc.encode(st.view(seat))
                        assert x.dtype == np.float32 and x.shape == (enc.size,)
                        assert x.min() >= 0.0 and x.max() <= 1.0
                        for k in range(2):
                            other = st.resample(seat, Rng(seed * 31 + step * 7 + k))
                            y = enc.encode(other.view(seat))
                            assert np.array_equal(x, y), (name, players, seed, step, seat)
                            if seat == d.player:
                                assert other.decision().options == d.options
                        checked += 1
                st.apply(rng.choice(d.options))
                step += 1
            x = enc.encode(st.view(0))  # terminal views encode too
            assert x.min() >= 0.0 and x.max() <= 1.0
    assert checked > 100


@pytest.mark.parametrize("module,players", [(red_rising_v0, 3), (red_north_v0, 3)])
def test_env_observation_is_unchanged_by_resampling_the_underlying_state(module, players):
    env = module.raw_env(players=players)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for step in range(60):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        for a in env.agents:
            seat = env.agent_seat[a]
            before = env.observe(a)
            saved = env.game_state
            env.game_state = saved.resample(seat, Rng(step * 10 + seat))
            after = env.observe(a)
            env.game_state = saved
            assert np.array_equal(before["observation"], after["observation"])
            assert np.array_equal(before["action_mask"], after["action_mask"])
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))


def test_observations_differ_between_seats_and_over_time():
    st = make_game("red-rising", 2).new_initial_state(5)
    a, b = RED_RISING.encode(st.view(0)), RED_RISING.encode(st.view(1))
    assert not np.array_equal(a, b)  # own seat and own hand
    st.apply(st.decision().options[0])
    assert not np.array_equal(a, RED_RISING.encode(st.view(0)))
