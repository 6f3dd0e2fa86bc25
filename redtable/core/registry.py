"""The titles redtable plays, by name: the one place a title's name is listed outside its
rules package. Each entry names its rules package's :class:`~redtable.core.title.Title`
(``TITLE`` of ``<package>/title.py``), imported on first use; a title module imports only
:mod:`redtable.core.title`, so reading a title imports no engine.

:func:`title` and :func:`titles` are what consumers read; :data:`GAMES` (the same
dict) stays for the code that only asks which names exist. :func:`register` adds a
title at run time (the conformance tests' toy title); :func:`unregister` takes it back.
"""

from __future__ import annotations

from typing import Any

from .errors import InvalidOptions
from .protocol import Game
from .title import Title, resolve

TITLES: dict[str, str] = {
    "red-rising": "redtable.redrising.title:TITLE",
    "red-north": "redtable.rednorth.title:TITLE",
}

# the names of the titles (the same dict: ``name in GAMES``, ``list(GAMES)``)
GAMES = TITLES
_titles: dict[str, Title] = {}


def title(name: str) -> Title:
    """The title called ``name``; :class:`~redtable.core.errors.InvalidOptions` if none is."""
    got = _titles.get(name)
    if got is not None:
        return got
    try:
        ref = TITLES[name]
    except (KeyError, TypeError):
        raise InvalidOptions(f"unknown game {name!r}; known games: {', '.join(TITLES)}") from None
    got = resolve(ref)
    if not isinstance(got, Title) or got.name != name:
        raise TypeError(f"{ref} (the title {name!r}) is not a Title named {name!r}")
    _titles[name] = got
    return got


def titles() -> list[Title]:
    """Every title, in the registry's order."""
    return [title(name) for name in TITLES]


def register(t: Title) -> Title:
    """Add a title (for tests: a toy title plays through every consumer). Not for the
    titles redtable ships, which are listed in :data:`TITLES`."""
    if t.name in TITLES:
        raise ValueError(f"a title {t.name!r} is registered already")
    TITLES[t.name] = f"<registered {t.name}>"
    _titles[t.name] = t
    return t


def unregister(name: str) -> None:
    """Take back a title added by :func:`register`."""
    if not TITLES.get(name, "").startswith("<registered "):
        raise ValueError(f"{name!r} was not added by register()")
    del TITLES[name], _titles[name]


def game_class(name: str) -> type[Game]:
    t = title(name)
    cls = t.load("game")
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise TypeError(f"{t.game} (the game {name!r}) is not a Game class")
    return cls


def make_game(name: str, players: int, **options: Any) -> Game:
    return game_class(name)(players=players, **options)
