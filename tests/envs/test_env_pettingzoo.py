"""The PettingZoo AEC environments pass PettingZoo's own api_test and seed_test."""

import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from redtable.core.errors import InvalidOptions  # noqa: E402
from redtable.envs import red_north_v0, red_rising_v0  # noqa: E402

MODULES = [(red_rising_v0, 2), (red_rising_v0, 5), (red_north_v0, 2), (red_north_v0, 4)]


@pytest.mark.parametrize("module,players", MODULES)
def test_api_test(module, players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations draw PettingZoo's advisory warnings
        api_test(module.env(players=players), num_cycles=400)
        api_test(module.raw_env(players=players, render_mode="ansi"), num_cycles=100)


@pytest.mark.parametrize("module,players", MODULES)
def test_seed_test(module, players):
    seed_test(lambda: module.env(players=players), num_cycles=400)


def play(env, seed, pick=None):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = {a: 0.0 for a in env.possible_agents}
    order = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        order.append(agent)
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        env.step(int(rng.choice(legal)) if pick is None else pick(env, obs))
    return total, order


@pytest.mark.parametrize("module,players", [(red_rising_v0, 3), (red_north_v0, 3)])
def test_full_game_rewards_and_selection(module, players):
    env = module.raw_env(players=players)
    total, order = play(env, seed=11)
    st = env.game_state
    assert st.is_terminal()
    winners = st.winners()
    assert winners and all(total[f"player_{p}"] == (1.0 if p in winners else 0.0) for p in range(players))
    assert len(order) == len(st.history)  # every decision went to state.decision().player
    assert not env.agents  # every agent was stepped out after the end


def test_returns_reward_and_ansi_render():
    env = red_rising_v0.raw_env(players=2, reward="returns", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert "Red Rising" in text and "jupiter" in text
    total, _ = play(env, seed=2)
    assert sum(total.values()) == pytest.approx(1.0)
    env = red_north_v0.raw_env(players=2, render_mode="ansi", render_seat=0)
    env.reset(seed=0)
    assert "hand:" in env.render() and "Red North" in env.render()


def test_opponent_decides_mid_turn():
    """An opponent's block/steal/choice mid-turn selects that opponent as the next agent."""
    env = red_rising_v0.raw_env(players=2)
    rng = np.random.default_rng(0)
    for seed in range(40):
        env.reset(seed=seed)
        while not env.terminations[env.agent_selection]:
            d = env.game_state.decision()
            assert env.agent_selection == f"player_{d.player}"
            if d.player != env.game_state.view(None)["current_turn"]:
                return  # found one, and agent_selection followed it
            env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    pytest.fail("no mid-turn opponent decision in 40 random games")


def test_illegal_actions():
    raw = red_north_v0.raw_env(players=2)
    raw.reset(seed=0)
    mask = raw.observe(raw.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = (raw.game_state.history[:], raw.agent_selection, raw.steps)
    for action in (bad, 10_000, -1, None, "x"):
        with pytest.raises(ValueError):
            raw.step(action)
    assert (raw.game_state.history, raw.agent_selection, raw.steps) == before  # nothing changed
    env = red_north_v0.env(players=2)
    env.reset(seed=0)
    offender = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.last()
        env.step(bad)
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -1


def test_game_options_pass_through():
    assert red_rising_v0.raw_env(players=4, multiplayer_variant=True).game.multiplayer_variant is True
    assert red_north_v0.raw_env(players=3, outpost_points=2).game.outpost_points == (2,) * 5
    with pytest.raises(InvalidOptions, match="2-4 players, got 5"):
        red_north_v0.raw_env(players=5)
    with pytest.raises(ValueError):
        red_north_v0.raw_env(reward="score")


def test_truncation_and_seeding():
    env = red_rising_v0.raw_env(players=2, max_steps=5)
    env.reset(seed=9)
    for _ in range(5):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    a, b = red_north_v0.raw_env(), red_north_v0.raw_env()
    a.reset(seed=1)
    b.reset(seed=1)
    assert a.game_seed == b.game_seed
    a.reset()
    b.reset()
    assert a.game_seed == b.game_seed  # the unseeded reset continues the seeded generator
    assert np.array_equal(a.observe("player_0")["observation"], b.observe("player_0")["observation"])


@pytest.mark.parametrize("module", [red_rising_v0, red_north_v0])
def test_masks_are_shared_and_read_only_observations_are_new(module):
    """The mask is the codec's read-only array for the pending options (no copy per step);
    the observation vector is a new array at every call."""
    raw = module.raw_env(players=2)
    raw.reset(seed=3)
    for _ in range(30):
        agent = raw.agent_selection
        a, b = raw.observe(agent), raw.observe(agent)
        d = raw.game_state.decision()
        assert not a["action_mask"].flags.writeable
        assert np.array_equal(a["action_mask"], raw.codec.mask(d.options))
        assert a["observation"] is not b["observation"] and np.array_equal(a["observation"], b["observation"])
        other = raw.possible_agents[1 - raw.agent_seat[agent]]
        assert not raw.observe(other)["action_mask"].any()
        raw.step(int(np.flatnonzero(a["action_mask"])[0]))
