"""The batched environments: make_vec equals Gymnasium's SyncVectorEnv (same-step autoreset)
over the single environments, in process and over worker processes; batched self-play."""

import re
import warnings

import pytest

np = pytest.importorskip("numpy")
gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402

from redtable.envs import RedTableEnv  # noqa: E402
from redtable.envs.observations import encoder  # noqa: E402
from redtable.envs.selfplay import SelfPlayVecEnv  # noqa: E402
from redtable.envs.vector import RedTableVectorEnv  # noqa: E402

IDS = {"red-north": "redtable/RedNorth-v0", "red-rising": "redtable/RedRising-v0"}


def random_actions(rng, masks):
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def run_pair(ref, mine, steps, seed):
    """Step both with the same random legal actions; every array must agree."""
    o1, i1 = ref.reset(seed=seed)
    o2, i2 = mine.reset(seed=seed)
    assert np.array_equal(o1, o2) and np.array_equal(i1["action_mask"], i2["action_mask"])
    rng = np.random.default_rng(seed)
    ended = 0
    for _ in range(steps):
        assert mine.observation_space.contains(o2)
        a = random_actions(rng, i2["action_mask"])
        assert mine.action_space.contains(a)
        o1, r1, t1, u1, i1 = ref.step(a)
        o2, r2, t2, u2, i2 = mine.step(a)
        assert o2.dtype == np.float32 and o2.shape == o1.shape
        assert np.array_equal(o1, o2) and np.array_equal(r1, r2)
        assert np.array_equal(t1, t2) and np.array_equal(u1, u2)
        assert np.array_equal(i1["action_mask"], i2["action_mask"])
        assert np.array_equal(i1["seat"], i2["seat"])
        if t1.any():
            assert np.array_equal(i1["_final_obs"], i2["_final_obs"])
            for k in np.flatnonzero(i1["_final_obs"]):
                assert np.array_equal(i1["final_obs"][k], i2["final_obs"][k])
                assert i1["final_info"]["win"][k] == i2["final_info"]["win"][k]
            ended += int(t1.sum())
    return ended


@pytest.mark.parametrize("game,players", [("red-north", 3), ("red-rising", 2)])
def test_make_vec_steps_like_gymnasiums_sync_vector_env(game, players):
    n = 3
    ref = SyncVectorEnv(
        [lambda: RedTableEnv(game, players=players, seat=None) for _ in range(n)],
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    mine = gym.make_vec(IDS[game], num_envs=n, players=players, seat=None)
    assert isinstance(mine.unwrapped, RedTableVectorEnv)
    assert mine.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert mine.single_observation_space == ref.single_observation_space
    assert mine.single_action_space == ref.single_action_space
    ended = run_pair(ref, mine, 60 if game == "red-north" else 120, seed=11)
    assert ended >= 1  # the same-step reset was exercised
    masks = mine.unwrapped.action_masks()
    assert masks.dtype == bool and masks.shape == (n, mine.single_action_space.n) and masks.any(axis=1).all()
    ref.close()
    mine.close()


def test_the_single_environment_passes_gymnasiums_checker():
    for env_id in IDS.values():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_env(gym.make(env_id).unwrapped)


def test_bad_vector_arguments():
    with pytest.raises(ValueError):
        RedTableVectorEnv(num_envs=0)
    with pytest.raises(ValueError):
        RedTableVectorEnv(num_envs=2, obs_type="dict")
    envs = RedTableVectorEnv(num_envs=2)
    with pytest.raises(ValueError):
        envs.reset(seed=[1, 2, 3])
    envs.close()


@pytest.mark.multiprocess
def test_worker_processes_give_the_same_batches():
    n = 5
    ref = RedTableVectorEnv(num_envs=n, game="red-north", players=2)
    pooled = RedTableVectorEnv(num_envs=n, game="red-north", players=2, processes=2)
    try:
        assert pooled.processes == 2 and not pooled.envs
        assert run_pair(ref, pooled, 120, seed=3) >= 1
    finally:
        pooled.close()
        ref.close()
    assert pooled.closed and pooled.worker_cpu() == []  # the workers are gone


@pytest.mark.parametrize("game,players", [("red-north", 4), ("red-rising", 3)])
def test_selfplay_batch_answers_every_games_acting_seat(game, players):
    n = 3
    envs = SelfPlayVecEnv(game, num_envs=n, players=players)
    obs, masks, agents = envs.reset(seed=4)
    enc = encoder(game)
    rng = np.random.default_rng(4)
    finished = 0
    totals = np.zeros((n, players))
    for _ in range(300 if game == "red-north" else 120):
        for i, st in enumerate(envs.states):
            d = st.decision()
            assert agents[i] == d.player
            assert np.array_equal(obs[i], enc.encode(st.view(d.player)))
            assert sorted(np.flatnonzero(masks[i])) == sorted(envs.codec.encode(o) for o in d.options)
        obs, masks, agents, rewards, done = envs.step(random_actions(rng, masks))
        totals += rewards
        finished += int(done.sum())
        assert (rewards[~done] == 0).all()
        assert (rewards[done].sum(axis=1) >= 1).all()  # someone won each finished game
    if game == "red-north":
        assert finished >= 1
    with pytest.raises(ValueError):
        envs.step(np.full(n, -1))


def test_the_batched_training_example_learns(capsys, monkeypatch):
    """examples/train_batched_pg.py, cut short: it trains on make_vec and its policy beats
    the uniformly random one on fresh games."""
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "examples" / "train_batched_pg.py"
    spec = importlib.util.spec_from_file_location("train_batched_pg", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    argv = ["train_batched_pg.py", "--games", "300", "--envs", "32", "--lr", "1e-2", "--batch", "512"]
    argv += ["--eval-games", "200", "--report", "100"]
    monkeypatch.setattr(sys, "argv", argv)
    module.main()
    out = capsys.readouterr().out
    last = out.strip().splitlines()[-1]
    trained, uniform = (float(w) for w in re.findall(r"(\d\.\d{3})", last))
    assert trained > uniform + 0.1, out
