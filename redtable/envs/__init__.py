"""Reinforcement-learning environments for the redtable games (optional extra ``rl``).

* :mod:`redtable.envs.red_rising_v0`, :mod:`redtable.envs.red_north_v0`: PettingZoo AEC
  environments (every seat an agent), each exposing ``env(**kwargs)`` and ``raw_env``.
* :class:`RedTableEnv` (:mod:`redtable.envs.gym_env`): a Gymnasium single-agent
  environment where bots play the other seats, with MaskablePPO's ``action_masks()``;
  registered as ``redtable/RedRising-v0`` and ``redtable/RedNorth-v0``;
  ``gymnasium.make_vec(id, num_envs=N)`` gives the batched :class:`.vector.RedTableVectorEnv`
  (``processes=k`` for worker processes).
* :mod:`redtable.envs.selfplay`: batched self-play, every game's acting seat at once.
* :mod:`redtable.envs.fast`: the incremental observers the environments use (equal to the
  encoders of :mod:`.observations`, the reference).
* :mod:`redtable.envs.actions`: the fixed action enumerations (``codec(game)``);
  :mod:`redtable.envs.observations`: the view encoders (``encoder(game)``).

The submodules import ``numpy``, ``gymnasium`` and ``pettingzoo`` (``pip install
redtable[rl]``); importing this package alone does not.
"""

from __future__ import annotations

from typing import Any

__all__ = ["RedTableEnv", "red_rising_v0", "red_north_v0", "codec", "encoder"]


def __getattr__(name: str) -> Any:
    import importlib

    if name in (
        "red_rising_v0",
        "red_north_v0",
        "actions",
        "observations",
        "aec",
        "gym_env",
        "render",
        "vector",
        "selfplay",
        "fast",
    ):
        return importlib.import_module(f"{__name__}.{name}")
    if name == "RedTableEnv":
        from .gym_env import RedTableEnv

        return RedTableEnv
    if name == "codec":
        from .actions import codec

        return codec
    if name == "encoder":
        from .observations import encoder

        return encoder
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
