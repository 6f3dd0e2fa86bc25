"""Helpers shared by the command-line modules: errors and option parsing at the edge."""

from __future__ import annotations

import json
from typing import NoReturn

import typer

from .core import GAMES


def fail(message: str) -> NoReturn:
    """Print ``error: message`` to stderr and exit with code 2 (nothing on stdout)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def check_game(game: str) -> str:
    if game not in GAMES:
        fail(f"unknown game {game!r}; choose one of: {', '.join(GAMES)}")
    return game


def parse_options(pairs: list[str]) -> dict:
    """``KEY=VALUE`` game options; values are JSON when they parse, else strings."""
    out: dict = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep:
            fail(f"--option takes KEY=VALUE, got {pair!r}")
        try:
            out[key.replace("-", "_")] = json.loads(raw)
        except json.JSONDecodeError:
            out[key.replace("-", "_")] = raw
    return out
