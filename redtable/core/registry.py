"""Names of the games, mapped to their Game classes (imported lazily)."""

from __future__ import annotations

import importlib

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
    return getattr(importlib.import_module(module), attr)


def make_game(name: str, players: int, **options) -> Game:
    return game_class(name)(players=players, **options)
