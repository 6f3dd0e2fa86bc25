"""Batched self-play: N games, every game's acting seat answered at once (no bots).

    from redtable.envs.selfplay import SelfPlayVecEnv
    envs = SelfPlayVecEnv("red-north", num_envs=256, players=3)
    obs, masks, agents = envs.reset(seed=0)     # float32[N, F], int8[N, A], int64[N]
    obs, masks, agents, rewards, done = envs.step(actions)  # rewards: float32[N, players]

The multi-agent counterpart of :mod:`.vector` in PettingZoo's terms: in each game the
agent selected is ``player_{agents[i]}`` (the seat whose decision is pending, as the AEC
env's ``agent_selection``), and ``obs[i]`` / ``masks[i]`` are that agent's observation and
legal actions. ``step`` applies ``actions[i]`` for that agent in every game. A game that
ends gives every seat its terminal reward in ``rewards[i]`` (``reward="win"``: 1 to each
winner; ``"returns"``: ``state.returns()``), sets ``done[i]``, and is replaced by a new
game in the same step (its row is then the new game's first decision). Rewards are 0
otherwise: both games reward only the result. An action outside the mask raises
``ValueError`` (self-play policies sample from the mask).

``reset(seed=s)`` seeds game ``i``'s first deal with a generator seeded ``s + i``; the
games that follow draw their seeds from it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.utils import seeding

from ..core import State, make_game
from ..rednorth.title import TITLE as RED_NORTH
from .actions import codec
from .aec import REWARDS, terminal_rewards
from .fast import Observer, observer


class SelfPlayVecEnv:
    """``num_envs`` games of ``game`` with ``players`` seats, all seats played by the caller."""

    def __init__(
        self, game: str = RED_NORTH.name, num_envs: int = 1, players: int = 2, reward: str = "win", **game_options: Any
    ) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
        if num_envs < 1:
            raise ValueError(f"num_envs must be >= 1, got {num_envs!r}")
        self.game = make_game(game, players, **game_options)
        self.game_name = game
        self.num_envs = num_envs
        self.players = players
        self.reward_mode = reward
        self.codec = codec(game)
        self.observers: list[Observer] = [observer(game) for _ in range(num_envs)]
        self.F = self.observers[0].size
        self.A = self.codec.n
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.states: list[State] = []
        self.rngs: list[np.random.Generator] = []
        self.obs = np.zeros((num_envs, self.F), dtype=np.float32)
        self.masks = np.zeros((num_envs, self.A), dtype=np.int8)
        self.agents = np.zeros(num_envs, dtype=np.int64)
        self._obs_m = self.obs.reshape(-1).data
        self._mask_m = self.masks.reshape(-1).data

    def _new_state(self, i: int) -> State:
        return self.game.new_initial_state(int(self.rngs[i].integers(0, 2**31 - 1)))

    def _write(self, i: int) -> None:
        st = self.states[i]
        d = st.pending()
        F = self.F
        self._obs_m[i * F : (i + 1) * F] = self.observers[i].observe(st, d.player).data
        A = self.A
        self._mask_m[i * A : (i + 1) * A] = self.codec.shared_mask(d.options).data
        self.agents[i] = d.player

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self.rngs = [seeding.np_random(None if seed is None else seed + i)[0] for i in range(self.num_envs)]
        self.states = [self._new_state(i) for i in range(self.num_envs)]
        for i in range(self.num_envs):
            self._write(i)
        return self.obs.copy(), self.masks.copy(), self.agents.copy()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        if not self.states:
            raise RuntimeError("call reset() before step()")
        acts = np.asarray(actions).reshape(self.num_envs).tolist()
        rewards = np.zeros((self.num_envs, self.players), dtype=np.float32)
        done = np.zeros(self.num_envs, dtype=np.bool_)
        names = self.codec.actions
        for i, st in enumerate(self.states):
            a = acts[i]
            if not (0 <= a < self.A and self.masks[i, a]):
                raise ValueError(f"game {i}: action {a!r} is not legal for player_{self.agents[i]}")
            st.apply(names[a])
            if st.is_terminal():
                rewards[i] = terminal_rewards(st, self.reward_mode)
                done[i] = True
                self.states[i] = self._new_state(i)
            self._write(i)
        return self.obs.copy(), self.masks.copy(), self.agents.copy(), rewards, done
