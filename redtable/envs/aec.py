"""A PettingZoo AEC environment over any redtable game (``red_rising_v0``, ``red_north_v0``).

* Agents are ``player_0`` .. ``player_{n-1}`` (seat ``i`` is ``player_i``).
* ``agent_selection`` is always ``state.decision().player``: an opponent who must answer
  in the middle of someone's turn (a block, a steal, Auctioneer's split, Loan Shark) is
  simply selected next, and the turn goes on after their answer.
* Observation of an agent: ``{"observation": float32[N], "action_mask": int8[A]}``; the
  vector is built from ``state.view(seat)`` only (:mod:`.observations`) and is a new array
  each time; the mask has a 1 at each legal option of the pending decision when that agent
  decides, else all 0, and is read-only (shared between steps with the same options:
  copy it to change it).
* Actions: ``Discrete(A)``, a fixed enumeration of the game's action strings
  (:mod:`.actions`); ``env.unwrapped.decode(i)`` / ``encode(s)`` convert.
* Rewards are 0 until the game ends; then ``reward="win"`` (default) gives +1 to every
  winner (also in a shared victory) and 0 to the others, ``reward="returns"`` gives
  ``state.returns()`` (1/k to each of k winners).
* ``env.unwrapped.game_state`` is the underlying core :class:`~redtable.core.State`
  (``game_seed`` its seed); PettingZoo's own ``state()`` (a global state) is not provided.
* ``max_steps`` (default none: both games end by themselves) truncates a long game.
* An illegal action raises ``ValueError`` in ``raw_env``; the ``env()`` constructors wrap
  it in PettingZoo's ``TerminateIllegalWrapper`` (the game ends, -1 to the offender), as
  PettingZoo's classic games do.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from ..core import IllegalAction, State, make_game
from .actions import ActionCodec, codec
from .fast import Observer, observer
from .observations import Encoder, encoder
from .render import render_env

REWARDS = ("win", "returns")


def terminal_rewards(state: State, mode: str) -> list[float]:
    """Per-seat rewards of a finished game under a reward ``mode`` (see the module doc)."""
    if mode == "returns":
        return [float(r) for r in state.returns()]
    winners = set(state.winners())
    return [1.0 if p in winners else 0.0 for p in range(state.game.players)]


class RedTableAECEnv(AECEnv):
    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "human"],
        "name": "redtable_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    game_name: str = ""

    def __init__(
        self,
        players: int = 2,
        render_mode: str | None = None,
        reward: str = "win",
        max_steps: int | None = None,
        render_seat: int | None = None,
        **game_options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
        self.game = make_game(self.game_name, players, **game_options)
        self.render_mode = render_mode
        self.reward_mode = reward
        self.max_steps = max_steps
        self.render_seat = render_seat
        self.codec: ActionCodec = codec(self.game_name)
        self.encoder: Encoder = encoder(self.game_name)
        self.observer: Observer = observer(self.game_name)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.codec.n,), np.int8),
            }
        )
        self.observation_spaces = {
            a: obs_space if i == 0 else _copy_space(obs_space) for i, a in enumerate(self.possible_agents)
        }
        self.action_spaces = {a: spaces.Discrete(self.codec.n) for a in self.possible_agents}
        self.np_random: np.random.Generator | None = None
        self.np_random_seed: int | None = None
        self.game_state: State | None = None
        self.game_seed: int | None = None
        self.steps = 0
        self._last: tuple[int, str, str, str] | None = None
        self._no_mask = np.zeros(self.codec.n, dtype=np.int8)
        self._no_mask.flags.writeable = False

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def encode(self, action: str) -> int:
        return self.codec.encode(action)

    def decode(self, index: int) -> str:
        return self.codec.decode(index)

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self.np_random is None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        self.game_seed = int(self.np_random.integers(0, 2**31 - 1))
        self.game_state = st = self.game.new_initial_state(self.game_seed)
        self.steps = 0
        self.last_action = None
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        d = st.decision()
        self.agent_selection = self.possible_agents[d.player if d is not None else 0]
        if d is None:  # cannot happen with these games; keep the API consistent anyway
            self._finish()

    def _live(self) -> State:
        """The game being played; the environment has none before its first ``reset()``."""
        if self.game_state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game_state

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_seat[agent]
        st = self.game_state
        if st is None:
            raise RuntimeError("call reset() before using the environment")
        obs = self.observer.observe(st, seat).copy()  # equal to self.encoder.encode(st.view(seat))
        d = st.decision()
        if d is not None and d.player == seat and not (self.terminations.get(agent) or self.truncations.get(agent)):
            mask = self.codec.shared_mask(d.options)  # read-only, shared: a mask never changes
        else:
            mask = self._no_mask
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self._live()
        d = st.decision()
        seat = self.agent_seat[agent]
        assert d is not None and d.player == seat, "agent_selection out of sync with the game"
        actions = self.codec.actions
        try:
            i = int(action)
            if not 0 <= i < len(actions):
                raise IndexError(f"action index {action!r} out of range 0..{len(actions) - 1} for {self.game_name}")
        except (IndexError, TypeError, ValueError) as e:
            raise ValueError(f"bad action {action!r} for {agent}: {e}") from None
        move = actions[i]
        desc = move
        if self.render_mode is not None:  # words only for render()
            self._check_legal(d, move, action, agent)
            desc = st.describe(move)
        try:
            st.apply(move)  # checks the move is offered, and changes nothing if not
        except IllegalAction:
            self._check_legal(d, move, action, agent)
            raise
        self._cumulative_rewards[agent] = 0.0
        self.steps += 1
        self._last = (seat, d.kind, move, desc)  # the sentence is made only if read (render)
        nxt = st.decision()
        # Rewards are all 0 until the game ends (only _finish sets them), so a step that does
        # not end the game has nothing to clear or accumulate.
        if nxt is None:
            self._finish()
            self._accumulate_rewards()
        else:
            if self.max_steps is not None and self.steps >= self.max_steps:
                for a in self.agents:
                    self.truncations[a] = True
            self.agent_selection = self.possible_agents[nxt.player]
        if self.render_mode == "human":
            self.render()

    @staticmethod
    def _check_legal(d: Any, move: str, action: Any, agent: str) -> None:
        if move not in d.options:
            raise ValueError(
                f"illegal action {action!r} ({move!r}) for {agent} in a {d.kind!r} decision; legal: {list(d.options)}"
            )

    @property
    def last_action(self) -> str | None:
        """The last move, for render(): ``"p<seat> <kind>: <action> (<description>)"``."""
        if self._last is None:
            return None
        seat, kind, move, desc = self._last
        return f"p{seat} {kind}: {move}" + (f" ({desc})" if desc != move else "")

    @last_action.setter
    def last_action(self, value: None) -> None:
        self._last = None

    def _finish(self) -> None:
        st = self._live()
        rewards = terminal_rewards(st, self.reward_mode)
        scores, winners = st.scores(), st.winners()
        for a in self.agents:
            seat = self.agent_seat[a]
            self.rewards[a] = rewards[seat]
            self.terminations[a] = True
            self.infos[a] = {"scores": list(scores), "winners": list(winners)}

    # ------------------------------------------------------------------ display
    def render(self) -> str | None:
        return render_env(
            self.render_mode, self.game, self.game_name, self.game_state, self.render_seat, self.last_action
        )

    def close(self) -> None:
        pass


def _copy_space(space: spaces.Dict) -> spaces.Dict:
    """An equal but distinct space object per agent (each seeds its own sampler)."""
    boxes: dict[str, spaces.Space[Any]] = {}
    for k, s in space.spaces.items():
        if not isinstance(s, spaces.Box):
            raise TypeError(f"observation part {k!r} must be a Box, got {type(s).__name__}")
        boxes[k] = spaces.Box(s.low, s.high, s.shape, s.dtype)
    return spaces.Dict(boxes)


def wrap(raw: RedTableAECEnv) -> AECEnv:
    """The standard PettingZoo wrappers of a turn-based game with masks (illegal move: the
    game ends, -1 to the offender; out-of-space actions assert; order enforced), folded
    into one layer (:mod:`.wrappers`)."""
    from .wrappers import RedTableWrapper

    return RedTableWrapper(raw, illegal_reward=-1)
