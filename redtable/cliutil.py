"""Helpers shared by the command-line modules: errors and option parsing at the edge."""

from __future__ import annotations

import json
from pathlib import Path
from typing import NoReturn

import typer

from .core import GAMES
from .core.jsonfile import JsonFileError, MalformedJson, parse_json, quote

OPTION_MAX_DEPTH = 16


def fail(message: str) -> NoReturn:
    """Print ``error: message`` to stderr and exit with code 2 (nothing on stdout)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def check_game(game: str) -> str:
    if game not in GAMES:
        fail(f"unknown game {quote(game)}; choose one of: {', '.join(GAMES)}")
    return game


def parse_options(pairs: list[str], game: str | None = None) -> dict:
    """``KEY=VALUE`` game options; values are JSON when they parse, else strings. JSON is
    read as a file is (:func:`redtable.core.jsonfile.parse_json`): nested at most
    ``OPTION_MAX_DEPTH`` levels, huge integers kept as text for the game's check to refuse.
    With ``game``, a key the game does not take is refused, naming the ones it does."""
    out: dict = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep:
            fail(f"--option takes KEY=VALUE, got {quote(pair)}")
        try:
            out[key.replace("-", "_")] = parse_json(raw, f"--option {quote(key)}", OPTION_MAX_DEPTH)
        except MalformedJson:
            out[key.replace("-", "_")] = raw
        except JsonFileError as e:
            fail(str(e))
    if game is not None:
        check_game_options(game, out)
    return out


# ----------------------------------------------------------------------------- game options


def game_option_names(game: str) -> dict:
    """``{name: default}`` of the options ``game`` takes besides its player count (read from
    the game class's constructor, so a new option is offered as soon as the game has it)."""
    import inspect

    from .core import game_class

    out: dict = {}
    for p in inspect.signature(game_class(game).__init__).parameters.values():
        if p.name in ("self", "players") or p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            continue
        out[p.name] = None if p.default is p.empty else p.default
    return out


def check_game_options(game: str, options: dict) -> dict:
    """Refuse an option ``game`` does not take, naming the ones it does (exit 2)."""
    from .core import game_class

    valid = game_option_names(game)
    title = game_class(game).title
    for key in options:
        if key == "players":
            fail("the player count is --players, not --option players")
        if key not in valid:
            shown = ", ".join(f"{k} (default {json.dumps(v)})" for k, v in valid.items()) or "none"
            fail(f"unknown --option {quote(key)} for {title}; its options: {shown}")
    return options


# ----------------------------------------------------------------------------- output paths


def _reason(e: OSError) -> str:
    return e.strerror or str(e)


def check_output_dir(path: Path, option: str) -> list[Path]:
    """Make sure files can be written into directory ``path`` before any work starts:
    create it (and missing parents), write and delete a probe file. A path that is a file,
    lies under a file, or cannot be created or written to fails with one ``error:`` line
    (exit 2). Returns the directories this created (innermost last), so that a run that
    ends without writing can remove them again (:func:`remove_created`)."""
    shown = quote(str(path))
    if path.exists() and not path.is_dir():
        fail(f"{option}: {shown} is a file, not a directory")
    created: list[Path] = []
    missing = []
    p = path.absolute()
    while not p.exists() and p != p.parent:
        missing.append(p)
        p = p.parent
    try:
        for d in reversed(missing):
            d.mkdir()
            created.append(d)
    except OSError as e:
        remove_created(created)
        fail(f"{option}: cannot create the directory {shown}: {_reason(e)}")
    try:
        _probe(path)
    except OSError as e:
        remove_created(created)
        fail(f"{option}: cannot write into {shown}: {_reason(e)}")
    return created


def check_output_file(path: Path, option: str) -> None:
    """Make sure ``path`` can be written later, without creating it now: an existing file
    is opened for appending (nothing changes); for a new one a probe file is written and
    deleted in its directory, or in the nearest existing ancestor when directories are
    still to be created. A directory, a path under a file, or a place that cannot be
    written fails with one ``error:`` line (exit 2)."""
    shown = quote(str(path))
    if path.is_dir():
        fail(f"{option}: {shown} is a directory, not a file")
    if path.exists():
        try:
            with open(path, "ab"):
                pass
        except OSError as e:
            fail(f"{option}: cannot write {shown}: {_reason(e)}")
        return
    parent = path.absolute().parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        fail(f"{option}: cannot write {shown}: {quote(str(parent))} is not a directory")
    try:
        _probe(parent)
    except OSError as e:
        fail(f"{option}: cannot write {shown}: {_reason(e)}")


def _probe(directory: Path) -> None:
    import os
    import tempfile

    fd, name = tempfile.mkstemp(prefix=".redtable-probe-", dir=directory)
    try:
        os.write(fd, b"probe")
    finally:
        os.close(fd)
        os.unlink(name)


def remove_created(created: list[Path]) -> None:
    """Remove the directories :func:`check_output_dir` created, innermost first, if still empty."""
    for d in reversed(created):
        try:
            d.rmdir()
        except OSError:
            return
