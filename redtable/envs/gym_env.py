"""A Gymnasium single-agent environment: one seat learns, bots play the others.

    from redtable.envs import RedTableEnv
    env = RedTableEnv("red-north", players=2, opponents="random")
    obs, info = env.reset(seed=0)
    action = env.action_space.sample(env.action_masks().astype(np.int8))
    obs, reward, terminated, truncated, info = env.step(action)

* ``opponents``: a bot spec (``"random"``, ``"heuristic"``, ``"ismcts:200it"``... see
  :func:`redtable.bots.make_bot`) for every other seat, a list of one spec (or
  :class:`~redtable.bots.Bot`) per other seat in seat order, or a callable
  ``(seat, seed) -> Bot``. Bots are rebuilt each episode with seeds drawn from the
  environment's generator, so ``reset(seed=s)`` replays exactly.
* ``seat``: the learner's seat, or ``None`` to draw it at random each episode.
* Observation: ``obs_type="box"`` (default) the float32 vector of
  :mod:`.observations` (built from the learner's ``state.view(seat)`` only);
  ``obs_type="dict"``: ``{"observation": ..., "action_mask": int8[A]}``.
* Action masks follow sb3-contrib's MaskablePPO convention: an ``action_masks()`` method
  (bool array); the mask is also in ``info["action_mask"]`` (int8, a copy); the property
  ``mask`` is the environment's own (read-only, shared between steps with the same
  legal actions).
* ``env.unwrapped.game_state`` is the underlying core :class:`~redtable.core.State`.
* Reward 0 until the game ends; then ``reward="win"``: 1 if the learner is among the
  winners else 0; ``"returns"``: ``state.returns()[seat]``.
* An action outside the mask: ``illegal_action="terminate"`` (default) ends the episode
  with ``illegal_reward`` (-1); ``"random"`` plays a random legal option instead (and
  says so in ``info["illegal_action"]``); ``"raise"`` raises ``ValueError``.

Registered with Gymnasium as ``redtable/RedRising-v0`` and ``redtable/RedNorth-v0``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..core import State, make_game, titles
from ..rednorth.title import TITLE as RED_NORTH
from .actions import codec
from .aec import REWARDS, terminal_rewards
from .fast import observer
from .observations import encoder
from .render import render_env

ILLEGAL = ("terminate", "random", "raise")
OpponentSpec = str | Bot | Sequence[str | Bot] | Callable[[int, int], Bot]


class RedTableEnv(gym.Env):
    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        game: str = RED_NORTH.name,
        players: int = 2,
        opponents: OpponentSpec = "random",
        seat: int | None = 0,
        obs_type: str = "box",
        reward: str = "win",
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
        render_mode: str | None = None,
        game_options: dict | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        if obs_type not in ("box", "dict"):
            raise ValueError(f"obs_type must be 'box' or 'dict', got {obs_type!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
        if illegal_action not in ILLEGAL:
            raise ValueError(f"illegal_action must be one of {ILLEGAL}, got {illegal_action!r}")
        self.game_name = game
        self.game = make_game(game, players, **(game_options or {}))
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be in 0..{players - 1} or None, got {seat!r}")
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.opponents = opponents
        self._check_opponents()
        self.obs_type = obs_type
        self.reward_mode = reward
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.codec = codec(game)
        self.encoder = encoder(game)
        self.observer = observer(game)
        box = spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32)
        if obs_type == "box":
            self.observation_space = box
        else:
            self.observation_space = spaces.Dict(
                {"observation": box, "action_mask": spaces.Box(0, 1, (self.codec.n,), np.int8)}
            )
        self.action_space = spaces.Discrete(self.codec.n)
        self.game_state: State | None = None
        self.bots: list[Bot | None] = []
        self.game_seed: int | None = None
        self.steps = 0
        self._last: tuple[str, str, str] | None = None
        self._done = False
        self._no_mask = np.zeros(self.codec.n, dtype=np.int8)
        self._no_mask.flags.writeable = False
        self._mask = self._no_mask

    # ------------------------------------------------------------------ opponents
    def _check_opponents(self) -> None:
        n = self.game.players - 1
        o = self.opponents
        if isinstance(o, (list, tuple)) and len(o) != n:
            raise ValueError(f"opponents: give one spec per other seat ({n}), got {len(o)}")

    def _make_bots(self) -> list[Bot | None]:
        o = self.opponents
        others = [p for p in range(self.game.players) if p != self.seat]
        bots: list[Bot | None] = [None] * self.game.players
        for k, p in enumerate(others):
            bot_seed = int(self.np_random.integers(0, 2**31 - 1))
            spec = o[k] if isinstance(o, (list, tuple)) else o
            if isinstance(spec, Bot):
                bots[p] = spec
            elif isinstance(spec, str):
                bots[p] = make_bot(spec, seed=bot_seed)
            elif callable(spec):
                bots[p] = spec(p, bot_seed)
            else:
                raise ValueError(f"bad opponent {spec!r}: a bot spec, a Bot, or a callable (seat, seed) -> Bot")
        return bots

    # ------------------------------------------------------------------ helpers
    def action_masks(self) -> np.ndarray:
        """The legal actions now, as a bool array (sb3-contrib's MaskablePPO reads this)."""
        return self._mask.astype(bool)

    @property
    def mask(self) -> np.ndarray:
        """The legal actions now, int8 (read-only, shared between steps with the same options)."""
        return self._mask

    @property
    def last_action(self) -> str | None:
        """The learner's last move, for render(): ``"p<seat> <kind>: <action> (<description>)"``."""
        if self._last is None:
            return None
        kind, move, desc = self._last
        return f"p{self.seat} {kind}: {move}" + (f" ({desc})" if desc != move else "")

    @last_action.setter
    def last_action(self, value: None) -> None:
        self._last = None

    def encode(self, action: str) -> int:
        return self.codec.encode(action)

    def decode(self, index: int) -> str:
        return self.codec.decode(index)

    def current_state(self) -> State:
        """The game being played (after ``reset()``)."""
        return self._live()

    def observation(self) -> np.ndarray | dict[str, np.ndarray]:
        """The learner's observation now (a new array), as ``step`` returns it."""
        return self._obs()

    def info(self, **extra: Any) -> dict[str, Any]:
        """The info dict ``step`` returns now (``extra`` added)."""
        return self._info(**extra)

    def _live(self) -> State:
        """The game being played; the environment has none before its first ``reset()``."""
        if self.game_state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game_state

    def _obs(self) -> np.ndarray | dict[str, np.ndarray]:
        x = self.observer.observe(self._live(), self.seat).copy()  # = encoder.encode(view(seat))
        if self.obs_type == "box":
            return x
        return {"observation": x, "action_mask": self._mask.copy()}

    def _update_mask(self) -> None:
        d = self._live().decision()
        if d is not None and d.player == self.seat:
            self._mask = self.codec.shared_mask(d.options)  # read-only: a mask never changes
        else:
            self._mask = self._no_mask

    def _info(self, **extra: Any) -> dict[str, Any]:
        # a new array each time: Gymnasium's checker requires that infos share no object
        info: dict[str, Any] = {"action_mask": self._mask.copy(), "seat": self.seat}
        st = self._live()
        if st.is_terminal():
            info["scores"] = list(st.scores())
            info["winners"] = list(st.winners())
            info["win"] = self.seat in info["winners"]
        info.update(extra)
        return info

    def _play_others(self) -> None:
        """Let the bots decide until the learner must decide or the game ends."""
        st = self._live()
        while True:
            d = st.decision()
            if d is None or d.player == self.seat:
                return
            bot = self.bots[d.player]
            if bot is None:  # only the learner's seat has no bot
                raise RuntimeError(f"no bot plays seat {d.player}")
            st.apply(bot.choose(st))

    # ------------------------------------------------------------------ API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        for _ in range(100):
            if self.fixed_seat is None:
                self.seat = int(self.np_random.integers(0, self.game.players))
            self.bots = self._make_bots()
            self.game_seed = int(self.np_random.integers(0, 2**31 - 1))
            self.game_state = st = self.game.new_initial_state(self.game_seed)
            self._play_others()
            if not st.is_terminal():
                break
        else:  # pragma: no cover - the learner always gets a decision in these games
            raise RuntimeError("100 games in a row ended before the learner's first decision")
        self.steps = 0
        self.last_action = None
        self._done = False
        self._update_mask()
        if self.render_mode == "human":
            self.render()
        return self._obs(), self._info()

    def step(self, action: Any):
        reward, terminated, truncated, extra = self.advance(action)
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, truncated, self._info(**extra)

    def advance(self, action: Any) -> tuple[float, bool, bool, dict[str, Any]]:
        """:meth:`step` without building the observation and info (the batched
        environment writes those into its own arrays): (reward, terminated, truncated,
        extra info)."""
        st = self._live()
        d = st.decision()
        if d is None or self._done:
            raise RuntimeError("the episode is over: call reset()")
        extra: dict[str, Any] = {}
        try:
            idx = int(action)
            legal = 0 <= idx < self.codec.n and self._mask[idx] == 1
        except (TypeError, ValueError):
            legal = False
        if not legal:
            if self.illegal_action == "raise":
                raise ValueError(f"illegal action {action!r} in a {d.kind!r} decision; legal: {list(d.options)}")
            if self.illegal_action == "terminate":
                self._done = True
                self._mask = self._no_mask
                return self.illegal_reward, True, False, {"illegal_action": True}
            extra["illegal_action"] = True
            idx = self.codec.encode(d.options[int(self.np_random.integers(0, len(d.options)))])
        move = self.codec.actions[idx]
        desc = st.describe(move) if self.render_mode is not None else move  # words only for render()
        self._last = (d.kind, move, desc)  # the sentence is made only if read (render)
        st.apply(move)
        self.steps += 1
        self._play_others()
        self._update_mask()
        terminated = st.is_terminal()
        truncated = not terminated and self.max_steps is not None and self.steps >= self.max_steps
        self._done = terminated or truncated
        reward = terminal_rewards(st, self.reward_mode)[self.seat] if terminated else 0.0
        return float(reward), terminated, truncated, extra

    def render(self) -> str | None:
        return render_env(self.render_mode, self.game, self.game_name, self.game_state, self.seat, self.last_action)

    def close(self) -> None:
        pass


def _register() -> None:
    for t in titles():
        env_id, game = t.gym_id, t.name
        if env_id is not None and env_id not in gym.registry:
            gym.register(
                id=env_id,
                entry_point="redtable.envs.gym_env:RedTableEnv",
                vector_entry_point="redtable.envs.vector:RedTableVectorEnv",
                kwargs={"game": game},
            )


_register()
