"""PettingZoo AEC environment of Red North (2-4 players).

    from redtable.envs import red_north_v0
    env = red_north_v0.env(players=3)
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Options: ``players`` (2-4, default 2), ``outpost_points`` (the game option), ``reward``
(``"win"``: +1 to the winner, ``"returns"``: ``state.returns()``; Red North always has a
single winner, so both agree), ``max_steps``, ``render_mode`` (``"ansi"``/``"human"``),
``render_seat``. Spaces: observation ``{"observation": float32[1071], "action_mask":
int8[179]}``, action ``Discrete(179)``.
"""

from __future__ import annotations

from typing import Any

from ..rednorth.outposts import DEFAULT_OUTPOST_POINTS
from ..rednorth.title import TITLE
from .aec import RedTableAECEnv, wrap


class raw_env(RedTableAECEnv):
    metadata = {"render_modes": ["ansi", "human"], "name": "red_north_v0", "is_parallelizable": False, "render_fps": 4}
    game_name = TITLE.name

    def __init__(
        self,
        players: int = 2,
        outpost_points: int | dict = DEFAULT_OUTPOST_POINTS,
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
            outpost_points=outpost_points,
        )


def env(**kwargs: Any):
    """The wrapped environment (illegal actions end the game with -1 to the offender)."""
    return wrap(raw_env(**kwargs))
