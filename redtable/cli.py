"""The `redtable` command. Validation of user input happens here, at the edge."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from .cliutil import fail as _fail
from .core import RedtableError
from .core.jsonfile import clip

app = typer.Typer(
    add_completion=False, no_args_is_help=True, help="Red Rising and Red North: play, score, simulate, replay."
)


def _show_version(value: bool) -> None:
    if value:
        from . import __version__

        typer.echo(f"redtable {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(
        False, "--version", callback=_show_version, is_eager=True, help="print the version and exit"
    ),
) -> None:
    """Red Rising and Red North: play, score, simulate, replay."""


@app.command()
def replay(
    file: Path = typer.Argument(..., help="a saved game (JSON)"),
    as_json: bool = typer.Option(False, "--json", help="print the result as JSON"),
) -> None:
    """Re-run a saved game, checking every action, and print the final scores."""
    from .core import GameRecord
    from .core import replay as run

    try:
        record = GameRecord.load(file)  # errors start with the file's name
    except RedtableError as e:
        _fail(str(e))
    try:
        state = run(record)
    except RedtableError as e:
        _fail(f"{clip(str(file))}: {e}")
    result = {
        "game": state.game.name,
        "decisions": len(state.history),
        "finished": state.is_terminal(),
        "scores": state.scores() if state.is_terminal() else None,
        "winners": state.winners() if state.is_terminal() else None,
    }
    if state.is_terminal():
        result["summary"] = state.summary()
    if as_json:
        typer.echo(json.dumps(result))
        return
    typer.echo(f"{state.game.title}: {len(state.history)} decisions replayed")
    if not state.is_terminal():
        d = state.pending()
        typer.echo(f"game not finished: player {d.player} to decide ({d.kind})")
        return
    for seat, s in enumerate(state.scores()):
        mark = "  winner" if seat in state.winners() else ""
        typer.echo(f"  player {seat}: {s:g}{mark}")


from .play import play_command  # noqa: E402
from .redrising.gallery_cli import cards_command  # noqa: E402
from .redrising.score_cli import score_command  # noqa: E402
from .sim.commands import simulate_command, tournament_command  # noqa: E402

app.command("score", help=score_command.__doc__)(score_command)
app.command("cards")(cards_command)
app.command("play")(play_command)
app.command("simulate")(simulate_command)
app.command("tournament")(tournament_command)
from .review.cli import review_command  # noqa: E402
from .sim.analyze_command import analyze_command  # noqa: E402

app.command("review")(review_command)

app.command("analyze")(analyze_command)

from .server.commands import serve_command  # noqa: E402

app.command("serve")(serve_command)

from .server.dbcli import db_app  # noqa: E402

app.add_typer(db_app, name="db")

from .server.admincli import admin_app  # noqa: E402
from .server.exportcli import export_command  # noqa: E402

app.command("export")(export_command)

app.add_typer(admin_app, name="admin")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
