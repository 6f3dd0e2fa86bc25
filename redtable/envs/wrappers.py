"""PettingZoo's standard wrappers of a turn-based game with masks, folded into one layer.

``env()`` used to stack ``TerminateIllegalWrapper(illegal_reward=-1)``,
``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``. Each layer forwards every
attribute it does not define through ``__getattr__``; three layers cost more per step than
the whole game engine. :class:`RedTableWrapper` is an ``OrderEnforcingWrapper`` (so
``agent_iter`` and ``isinstance`` checks keep working) that does the same three jobs with
the same behaviour, and reads the hot attributes (``agent_selection``, ``terminations``...)
straight from the environment it wraps.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper


def _forward(name: str, before_reset: bool = False) -> property:
    """A read-only attribute of the wrapped env; ``before_reset``: readable before reset()."""

    def get(self: RedTableWrapper) -> Any:
        if not before_reset and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(get)


class RedTableWrapper(OrderEnforcingWrapper):
    """Order enforcing, action-space assertion and illegal moves ending the game (the
    offender gets ``illegal_reward``), as PettingZoo's three wrappers do, in one layer."""

    agent_selection = _forward("agent_selection")
    agents = _forward("agents")
    num_agents = _forward("num_agents")
    rewards = _forward("rewards")
    terminations = _forward("terminations")
    truncations = _forward("truncations")
    infos = _forward("infos")
    _cumulative_rewards = _forward("_cumulative_rewards", before_reset=True)
    possible_agents = _forward("possible_agents", before_reset=True)
    metadata = _forward("metadata", before_reset=True)

    def __init__(self, env: AECEnv, illegal_reward: float = -1.0) -> None:
        super().__init__(env)
        self._illegal_value = float(illegal_reward)
        self._prev_mask: np.ndarray | None = None
        self._terminated = False  # ended by an illegal move

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._terminated = False
        self._prev_mask = None
        super().reset(seed=seed, options=options)

    def observe(self, agent: Any) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        obs = self.env.observe(agent)
        if agent == self.env.agent_selection:
            self._prev_mask = obs["action_mask"]
        return obs

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """AECEnv.last() reading the wrapped env's fields directly."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        raw = self.env
        agent = raw.agent_selection
        if observe:
            obs = raw.observe(agent)
            self._prev_mask = obs["action_mask"]
        else:
            obs = None
        return obs, raw._cumulative_rewards[agent], raw.terminations[agent], raw.truncations[agent], raw.infos[agent]

    def step(self, action: Any) -> None:
        raw = self.env
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not raw.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = raw.agent_selection
        dead = raw.terminations[agent] or raw.truncations[agent]
        t = type(action)
        if t is int or t is np.int64 or isinstance(action, np.integer):
            in_space = 0 <= action < raw.action_space(agent).n
        else:
            in_space = raw.action_space(agent).contains(action)
        assert (action is None and dead) or in_space, "action is not in action space"
        mask = self._prev_mask if self._prev_mask is not None else self.observe(agent)["action_mask"]
        self._prev_mask = None
        if self._terminated and dead:
            raw.unwrapped._was_dead_step(action)
        elif not dead and not mask[action]:
            EnvLogger.warn_on_illegal_move()
            u = raw.unwrapped
            u._cumulative_rewards[agent] = 0
            u.terminations = dict.fromkeys(u.agents, True)
            u.truncations = dict.fromkeys(u.agents, True)
            u.rewards = dict.fromkeys(u.truncations, 0)
            u.rewards[agent] = self._illegal_value
            u._accumulate_rewards()
            u._deads_step_first()
            self._terminated = True
        else:
            raw.step(action)
