"""N games at once behind Gymnasium's vector API: ``gymnasium.make_vec("redtable/RedNorth-v0", num_envs=N)``.

    import gymnasium as gym
    import redtable.envs  # registers the ids
    envs = gym.make_vec("redtable/RedNorth-v0", num_envs=64, players=3)
    obs, infos = envs.reset(seed=0)          # obs: float32[64, F]
    masks = infos["action_mask"]             # int8[64, A] (also envs.action_masks(): bool)
    obs, rewards, terminated, truncated, infos = envs.step(actions)   # actions: int[64]

Each game is a :class:`~.gym_env.RedTableEnv` (one learner seat, bots on the others; the
same keyword arguments), and the batch behaves exactly as Gymnasium's ``SyncVectorEnv``
over those environments with ``autoreset_mode=SAME_STEP``: a game that ends is reset in
the same step, its last observation and info are in ``infos["final_obs"]`` /
``infos["final_info"]`` (with the ``_final_obs`` presence mask), and the returned row is
the new game's first observation. ``reset(seed=s)`` seeds game ``i`` with ``s + i``.

What it saves over ``SyncVectorEnv``: no per-game observation copy or info dict on the
hot path; each game's incremental observation (:mod:`.fast`) is copied straight into the
batch arrays.

``processes=k`` (k >= 2) runs the games in k worker processes (each steps its share in
process, results written into shared memory; the main process only sends actions and
reads the arrays), for k cores.
"""

from __future__ import annotations

import multiprocessing as mp
import time
from multiprocessing import shared_memory
from multiprocessing.connection import Connection
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ..rednorth.title import TITLE as RED_NORTH
from .gym_env import RedTableEnv


class RedTableVectorEnv(gym.vector.VectorEnv):
    """``num_envs`` games stepped together (see the module doc)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 1, game: str = RED_NORTH.name, processes: int = 1, **env_kwargs: Any) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be >= 1, got {num_envs!r}")
        if processes < 1:
            raise ValueError(f"processes must be >= 1, got {processes!r}")
        if env_kwargs.get("obs_type", "box") != "box":
            raise ValueError("the batched environment returns box observations (masks are in infos)")
        env_kwargs.pop("max_episode_steps", None)  # from a spec; the games end by themselves (use max_steps)
        self.num_envs = num_envs
        self.game_name = game
        self.render_mode = None
        probe = RedTableEnv(game, **env_kwargs)
        self.single_observation_space = probe.observation_space
        self.single_action_space = probe.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        assert isinstance(self.single_action_space, spaces.Discrete)
        self.F = int(self.single_observation_space.shape[0])  # type: ignore[index]
        self.A = int(self.single_action_space.n)
        self.processes = min(processes, num_envs)
        self._pool: _Pool | None = None
        if self.processes > 1:
            self._pool = _Pool(num_envs, self.processes, game, env_kwargs)
            self._obs, self._masks = self._pool.obs, self._pool.masks
            self._rewards, self._terms, self._truncs = self._pool.rewards, self._pool.terms, self._pool.truncs
            self.envs: list[RedTableEnv] = []
        else:
            self.envs = [probe] + [RedTableEnv(game, **env_kwargs) for _ in range(num_envs - 1)]
            self._obs = np.zeros((num_envs, self.F), dtype=np.float32)
            self._masks = np.zeros((num_envs, self.A), dtype=np.int8)
            self._rewards = np.zeros(num_envs, dtype=np.float64)
            self._terms = np.zeros(num_envs, dtype=np.bool_)
            self._truncs = np.zeros(num_envs, dtype=np.bool_)
        self._seats = np.zeros(num_envs, dtype=np.int64)
        self.closed = False

    # ------------------------------------------------------------------ API
    def reset(self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None):
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"give one seed per game ({self.num_envs}), got {len(seeds)}")
        if self._pool is not None:
            finals = self._pool.call("reset", seeds, options)
        else:
            finals = _reset_local(self, 0, seeds, options)
        return self._result(finals, reset=True)

    def step(self, actions: Any):
        acts = np.asarray(actions).reshape(self.num_envs).tolist()
        if self._pool is not None:
            finals = self._pool.call("step", acts, None)
        else:
            finals = _step_local(self, 0, acts)
        return self._result(finals, reset=False)

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game now, bool ``[num_envs, A]`` (MaskablePPO's convention)."""
        return self._masks.astype(bool)

    def worker_cpu(self) -> list[float]:
        """CPU seconds used so far by each worker process (none in process: [])."""
        if self._pool is None:
            return []
        for c in self._pool.conns:
            c.send(("cpu", None, None))
        return [float(c.recv()) for c in self._pool.conns]

    def close_extras(self, **kwargs: Any) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    # ------------------------------------------------------------------ results
    def _result(self, got: tuple[list[int], Finals], reset: bool):
        n = self.num_envs
        seats, finals = got
        infos: dict[str, Any] = {
            "action_mask": self._masks.copy(),
            "_action_mask": np.ones(n, dtype=np.bool_),
        }
        self._seats[:] = seats
        for i, final_obs, final_info in finals:
            if final_obs is not None:
                self._add_info(infos, {"final_obs": final_obs, "final_info": final_info}, i)
            elif final_info:  # an "illegal_action" note of a game that goes on
                self._add_info(infos, final_info, i)
        infos["seat"] = self._seats.copy()
        infos["_seat"] = np.ones(n, dtype=np.bool_)
        if reset:
            return self._obs.copy(), infos
        return self._obs.copy(), self._rewards.copy(), self._terms.copy(), self._truncs.copy(), infos


# ---------------------------------------------------------------------- the stepping loops
def _write(vec: Any, i: int, env: RedTableEnv) -> None:
    """Game ``i``'s observation and mask into the batch arrays (rows of flat memoryviews)."""
    F, A = vec.F, vec.A
    vec._obs_m[i * F : (i + 1) * F] = env.observer.observe(env.current_state(), env.seat).data
    vec._mask_m[i * A : (i + 1) * A] = env.mask.data


def _views(vec: Any) -> None:
    if getattr(vec, "_obs_m", None) is None:
        vec._obs_m = vec._obs.reshape(-1).data
        vec._mask_m = vec._masks.reshape(-1).data


Finals = list[tuple[int, Any, dict[str, Any]]]


def _reset_local(vec: Any, first: int, seeds: list[int | None], options: dict | None) -> tuple[list[int], Finals]:
    _views(vec)
    for k, env in enumerate(vec.envs):
        env.reset(seed=seeds[k], options=options)
        _write(vec, first + k, env)
    return [env.seat for env in vec.envs], []


def _step_local(vec: Any, first: int, acts: list[int]) -> tuple[list[int], Finals]:
    """Step every game of ``vec.envs`` (games ``first``...) into the arrays; return every
    game's learner seat and, for the games that ended (or had an illegal action replaced),
    (index, final observation or None, info)."""
    _views(vec)
    rewards, terms, truncs = vec._rewards, vec._terms, vec._truncs
    finals: Finals = []
    for k, env in enumerate(vec.envs):
        i = first + k
        reward, term, trunc, extra = env.advance(acts[k])
        rewards[i] = reward
        terms[i] = term
        truncs[i] = trunc
        if term or trunc:
            final_obs = env.observation()
            final_info = env.info(**extra)
            env.reset()
            finals.append((i, final_obs, final_info))
        elif extra:
            finals.append((i, None, extra))
        _write(vec, i, env)
    return [env.seat for env in vec.envs], finals


# ---------------------------------------------------------------------- processes
class _Shard:
    """A worker's games and its views of the shared arrays."""

    def __init__(
        self,
        envs: list[RedTableEnv],
        obs: np.ndarray,
        masks: np.ndarray,
        rewards: np.ndarray,
        terms: np.ndarray,
        truncs: np.ndarray,
        F: int,
        A: int,
    ) -> None:
        self.envs = envs
        self._obs, self._masks = obs, masks
        self._rewards, self._terms, self._truncs = rewards, terms, truncs
        self.F, self.A = F, A

    def release(self) -> None:
        """Drop every view of the shared buffer (it cannot close while one is alive)."""
        self._obs_m = self._mask_m = None
        self._obs = self._masks = self._rewards = self._terms = self._truncs = None  # type: ignore[assignment]


def _arrays(buf: memoryview, n: int, F: int, A: int) -> tuple[np.ndarray, ...]:
    """The five batch arrays laid out in one shared buffer."""
    obs = np.ndarray((n, F), dtype=np.float32, buffer=buf, offset=0)
    o = obs.nbytes
    rewards = np.ndarray((n,), dtype=np.float64, buffer=buf, offset=o)
    o += rewards.nbytes
    masks = np.ndarray((n, A), dtype=np.int8, buffer=buf, offset=o)
    o += masks.nbytes
    terms = np.ndarray((n,), dtype=np.bool_, buffer=buf, offset=o)
    o += n
    truncs = np.ndarray((n,), dtype=np.bool_, buffer=buf, offset=o)
    return obs, masks, rewards, terms, truncs


def _nbytes(n: int, F: int, A: int) -> int:
    return n * F * 4 + n * 8 + n * A + 2 * n


def _worker(conn: Connection, shm_name: str, n: int, first: int, count: int, game: str, kwargs: dict) -> None:
    shm = shared_memory.SharedMemory(name=shm_name)
    try:
        _serve(conn, shm, n, first, count, game, kwargs)
    except Exception as e:  # pragma: no cover - reported to the main process
        conn.send(("error", repr(e)))
    finally:
        shm.close()
        conn.close()


def _serve(conn: Connection, shm: shared_memory.SharedMemory, n: int, first: int, count: int, game: str, kwargs: dict):
    envs = [RedTableEnv(game, **kwargs) for _ in range(count)]
    F = int(envs[0].observation_space.shape[0])  # type: ignore[index]
    A = int(envs[0].action_space.n)  # type: ignore[attr-defined]
    assert shm.buf is not None
    obs, masks, rewards, terms, truncs = _arrays(shm.buf, n, F, A)
    shard = _Shard(envs, obs, masks, rewards, terms, truncs, F, A)
    del obs, masks, rewards, terms, truncs
    conn.send("ready")
    while True:
        cmd, arg, options = conn.recv()
        if cmd == "step":
            conn.send(_step_local(shard, first, arg))
        elif cmd == "reset":
            conn.send(_reset_local(shard, first, arg, options))
        elif cmd == "cpu":
            conn.send(time.process_time())
        else:
            break
    shard.release()


class _Pool:
    """Worker processes that each own a contiguous share of the games."""

    def __init__(self, n: int, k: int, game: str, kwargs: dict) -> None:
        probe = RedTableEnv(game, **kwargs)
        F = int(probe.observation_space.shape[0])  # type: ignore[index]
        A = int(probe.action_space.n)  # type: ignore[attr-defined]
        self.shm = shared_memory.SharedMemory(create=True, size=_nbytes(n, F, A))
        assert self.shm.buf is not None
        self.obs, self.masks, self.rewards, self.terms, self.truncs = _arrays(self.shm.buf, n, F, A)
        # fork: no re-import of the caller's main module (spawn would need a __main__ guard)
        ctx: Any = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        self.conns: list[Connection] = []
        self.procs: list[Any] = []
        self.shares: list[tuple[int, int]] = []
        first = 0
        for w in range(k):
            count = n // k + (1 if w < n % k else 0)
            parent, child = ctx.Pipe()
            p = ctx.Process(target=_worker, args=(child, self.shm.name, n, first, count, game, kwargs), daemon=True)
            p.start()
            child.close()
            self.conns.append(parent)
            self.procs.append(p)
            self.shares.append((first, count))
            first += count
        for c in self.conns:
            try:
                msg = c.recv()
            except EOFError:
                msg = "no answer"
            if msg != "ready":
                self.close()
                raise RuntimeError(f"a worker failed to start: {msg}")

    def call(self, cmd: str, arg: list, options: dict | None) -> tuple[list[int], Finals]:
        for c, (first, count) in zip(self.conns, self.shares, strict=True):
            c.send((cmd, arg[first : first + count], options))
        seats: list[int] = []
        finals: Finals = []
        for c in self.conns:
            msg = c.recv()
            if msg[0] == "error":
                raise RuntimeError(f"a worker failed: {msg[1]}")
            seats += msg[0]
            finals += msg[1]
        return seats, finals

    def close(self) -> None:
        for c in self.conns:
            try:
                c.send(("close", None, None))
            except (BrokenPipeError, OSError):
                pass
        for p in self.procs:
            p.join(timeout=10)
            if p.is_alive():  # pragma: no cover
                p.terminate()
                p.join()
        for c in self.conns:
            c.close()
        self.conns, self.procs = [], []
        del self.obs, self.masks, self.rewards, self.terms, self.truncs
        self.shm.close()
        self.shm.unlink()
