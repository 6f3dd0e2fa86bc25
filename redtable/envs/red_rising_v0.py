"""PettingZoo AEC environment of Red Rising (2-6 players).

    from redtable.envs import red_rising_v0
    env = red_rising_v0.env(players=2, render_mode="ansi")
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Options: ``players`` (2-6, default 2), ``multiplayer_variant`` (the game option),
``reward`` (``"win"``: +1 to each winner, ``"returns"``: ``state.returns()``),
``max_steps``, ``render_mode`` (``"ansi"``/``"human"``), ``render_seat`` (whose view
``render()`` shows; None: the public view). Spaces: observation
``{"observation": float32[1744], "action_mask": int8[602]}``, action ``Discrete(602)``
(:mod:`redtable.envs.actions`, :mod:`redtable.envs.observations`).
"""

from __future__ import annotations

from typing import Any

from ..redrising.title import TITLE
from .aec import RedTableAECEnv, wrap


class raw_env(RedTableAECEnv):
    metadata = {"render_modes": ["ansi", "human"], "name": "red_rising_v0", "is_parallelizable": False, "render_fps": 4}
    game_name = TITLE.name

    def __init__(
        self,
        players: int = 2,
        multiplayer_variant: bool = False,
        render_mode: str | None = None,
        reward: str = "win",
        max_steps: int | None = None,
        render_seat: int | None = None,
    ) -> None:
        super().__init__(
            players=players,
            render_mode=render_mode,
            reward=reward,
            max_steps=max_steps,
            render_seat=render_seat,
            multiplayer_variant=multiplayer_variant,
        )


def env(**kwargs: Any):
    """The wrapped environment (illegal actions end the game with -1 to the offender)."""
    return wrap(raw_env(**kwargs))
