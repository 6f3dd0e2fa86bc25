"""``redtable cards [red-rising] [--json] [--lang en|uk|pl]``: the card gallery in the terminal.

Every card with its rules text, rendered from the engine's encoding. The table's own words
and the colours are translated (:mod:`redtable.i18n`); card names and rules text stay
English for now.
"""

from __future__ import annotations

import json

import typer

from ..i18n import tr

TEXT_KEYS = (("deploy", "Deploy"), ("end_game_bonus", "End-game"), ("end_of_game", "End of game"), ("block", "Block"))


def cards_command(
    game: str = typer.Argument("red-rising", help="red-rising"),
    as_json: bool = typer.Option(False, "--json", help="print JSON"),
    lang: str | None = typer.Option(
        None, "--lang", "-l", help="language of the table: en, uk or pl (default: from LANG)"
    ),
) -> None:
    """The card gallery: every card with its rules text, rendered from the engine's encoding."""
    from ..cliutil import check_game, fail
    from ..i18n import resolve, set_lang

    check_game(game)
    if game != "red-rising":
        fail(f"the card gallery is available for red-rising, not {game!r}")
    try:
        code = resolve(lang)
        set_lang(code)
    except ValueError as e:
        fail(str(e))
    from .gallery import gallery

    entries = gallery(code)  # names and rules text in the language too
    if as_json:
        typer.echo(json.dumps(entries))
        return
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=tr("Red Rising: {n} characters", n=len(entries)), show_lines=True)
    for col in (tr("name"), tr("colour"), tr("value"), tr("abilities")):
        table.add_column(col)
    for entry in entries:
        text = "\n".join(f"[b]{escape(tr(label))}[/b]: {escape(str(entry[k]))}" for k, label in TEXT_KEYS if k in entry)
        table.add_row(escape(entry["name"]), escape(tr(entry["color"])), str(entry["value"]), text)
    Console().print(table)
