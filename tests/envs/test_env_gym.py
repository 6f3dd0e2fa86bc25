"""The Gymnasium single-agent wrapper: env checker, masks, opponents, determinism."""

import warnings

import pytest

np = pytest.importorskip("numpy")
gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from redtable.envs import RedTableEnv  # noqa: E402
from redtable.envs.actions import codec  # noqa: E402


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(game="red-north"),
        dict(game="red-rising"),
        dict(game="red-north", players=3, obs_type="dict", seat=None),
        dict(game="red-rising", players=3, seat=2, opponents=["random", "heuristic"]),
    ],
)
def test_env_checker(kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(RedTableEnv(**kwargs, render_mode="ansi"))


@pytest.mark.parametrize("env_id", ["redtable/RedNorth-v0", "redtable/RedRising-v0"])
def test_registered(env_id):
    env = gym.make(env_id, render_mode="ansi")
    obs, info = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape
    assert "action_mask" in info and isinstance(env.render(), str)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)


def run_episode(env, seed):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps, total = 0, 0.0
    while True:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        d = env.unwrapped.game_state.decision()
        assert d.player == env.unwrapped.seat  # the bots played everything else
        assert sorted(codec(env.unwrapped.game_name).decode(i) for i in np.flatnonzero(mask)) == sorted(set(d.options))
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert env.observation_space.contains(obs)
        total += r
        steps += 1
        if term or trunc:
            return total, steps, info


@pytest.mark.parametrize("game,players", [("red-north", 2), ("red-north", 4), ("red-rising", 2), ("red-rising", 4)])
def test_episodes(game, players):
    env = RedTableEnv(game, players=players, seat=None)
    for seed in range(3):
        total, steps, info = run_episode(env, seed)
        assert total == (1.0 if info["win"] else 0.0)
        assert info["winners"] and len(info["scores"]) == players


def test_reset_is_deterministic():
    a, b = (
        RedTableEnv("red-rising", players=3, opponents="heuristic"),
        RedTableEnv("red-rising", players=3, opponents="heuristic"),
    )
    ra, rb = run_episode(a, 7), run_episode(b, 7)
    assert ra[:2] == rb[:2]
    assert a.unwrapped.game_state.history == b.unwrapped.game_state.history


def test_illegal_action_modes():
    env = RedTableEnv("red-north")
    env.reset(seed=0)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    _, r, term, _, info = env.step(bad)
    assert term and r == -1.0 and info["illegal_action"]
    env = RedTableEnv("red-north", illegal_action="random")
    env.reset(seed=0)
    _, r, term, _, info = env.step(bad)
    assert info["illegal_action"] and len(env.game_state.history) > 0
    env = RedTableEnv("red-north")
    env.reset(seed=0)
    env.step(bad)
    with pytest.raises(RuntimeError):  # the episode ended
        env.step(int(np.flatnonzero(env.action_masks() | True)[0]))
    env = RedTableEnv("red-north", illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(ValueError):
        env.step(bad)


def test_bad_arguments():
    with pytest.raises(ValueError):
        RedTableEnv("red-north", players=3, opponents=["random"])
    with pytest.raises(ValueError):
        RedTableEnv("red-north", seat=5)
    with pytest.raises(ValueError):
        RedTableEnv("red-north", obs_type="image")


def test_maskable_ppo_convention():
    """sb3-contrib reads masks through an ``action_masks`` method; check its helper if installed."""
    env = RedTableEnv("red-north")
    env.reset(seed=0)
    try:
        from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    except ImportError:
        assert callable(env.action_masks)
        return
    assert is_masking_supported(env)
    assert np.array_equal(get_action_masks(env), env.action_masks())


def test_truncation_and_human_render(capsys):
    env = RedTableEnv("red-rising", max_steps=3, render_mode="human")
    env.reset(seed=4)
    assert "Red Rising" in capsys.readouterr().out
    for _ in range(3):
        _, r, term, trunc, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert trunc and not term and r == 0.0
    assert "last: p0" in capsys.readouterr().out


def test_the_mask_is_shared_and_read_only_and_the_info_gets_a_copy():
    env = RedTableEnv("red-north", players=2, opponents="random")
    _, info = env.reset(seed=4)
    for _ in range(20):
        st = env.game_state
        assert not env.mask.flags.writeable
        assert np.array_equal(env.mask, env.codec.mask(st.decision().options))
        assert info["action_mask"] is not env.mask and info["action_mask"].flags.writeable
        assert np.array_equal(info["action_mask"], env.mask)
        _, _, term, _, info = env.step(int(np.flatnonzero(env.mask)[0]))
        if term:
            break
    assert env.last_action is not None and env.last_action.startswith("p0 ")
