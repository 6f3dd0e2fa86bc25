"""Names of the games, mapped to their Game classes (imported lazily)."""

from __future__ import annotations

import importlib
from typing import Any

from .errors import InvalidOptions
from .protocol import Game

GAMES: dict[str, str] = {
    "red-rising": "redtable.redrising.game:RedRising",
    "red-north": "redtable.rednorth.game:RedNorth",
}


def game_class(name: str) -> type[Game]:
    try:
        target = GAMES[name]
    except KeyError:
        raise InvalidOptions(f"unknown game {name!r}; known games: {', '.join(GAMES)}") from None
    module, _, attr = target.partition(":")
    cls = getattr(importlib.import_module(module), attr)
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise TypeError(f"{target} (the game {name!r}) is not a Game class")
    return cls


def make_game(name: str, players: int, **options: Any) -> Game:
    return game_class(name)(players=players, **options)
