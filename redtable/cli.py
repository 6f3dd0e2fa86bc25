"""The `redtable` command. Validation of user input happens here, at the edge."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from .cliutil import check_game as _check_game, fail as _fail
from .core import RedtableError

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Red Rising and Red North: play, score, simulate, replay.")






@app.command()
def replay(
    file: Path = typer.Argument(..., help="a saved game (JSON)"),
    as_json: bool = typer.Option(False, "--json", help="print the result as JSON"),
) -> None:
    """Re-run a saved game, checking every action, and print the final scores."""
    from .core import GameRecord, replay as run

    try:
        state = run(GameRecord.load(file))
    except RedtableError as e:
        _fail(str(e))
    result = {
        "game": state.game.name, "decisions": len(state.history), "finished": state.is_terminal(),
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
        d = state.decision()
        typer.echo(f"game not finished: player {d.player} to decide ({d.kind})")
        return
    for seat, s in enumerate(state.scores()):
        mark = "  winner" if seat in state.winners() else ""
        typer.echo(f"  player {seat}: {s:g}{mark}")


@app.command()
def score(
    game: str = typer.Argument(..., help="red-rising"),
    file: Path = typer.Argument(..., help="the final position of a physical game (JSON)"),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of the scorepad"),
) -> None:
    """Score a finished physical game from the final hands and tokens."""
    _check_game(game)
    if game != "red-rising":
        _fail(f"scoring a physical game is available for red-rising, not {game!r}")
    from .redrising.score_cli import score_file

    raise typer.Exit(score_file(file, as_json))


@app.command()
def cards(
    game: str = typer.Argument("red-rising", help="red-rising"),
    as_json: bool = typer.Option(False, "--json", help="print JSON"),
) -> None:
    """The card gallery: every card with its rules text, rendered from the engine's encoding."""
    _check_game(game)
    if game != "red-rising":
        _fail(f"the card gallery is available for red-rising, not {game!r}")
    from .redrising.gallery import gallery

    entries = gallery()
    if as_json:
        typer.echo(json.dumps(entries))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title="Red Rising: 112 characters", show_lines=True)
    for col in ("name", "color", "value", "abilities"):
        table.add_column(col)
    for e in entries:
        text = "\n".join(f"[b]{k.replace('_', ' ')}[/b]: {e[k]}" for k in
                         ("deploy", "end_game_bonus", "end_of_game", "block") if k in e)
        table.add_row(e["name"], e["color"], str(e["value"]), text)
    Console().print(table)


from .play import play_command  # noqa: E402
from .sim.commands import simulate_command, tournament_command  # noqa: E402

app.command("play")(play_command)
app.command("simulate")(simulate_command)
app.command("tournament")(tournament_command)
from .sim.analyze_command import analyze_command  # noqa: E402

app.command("analyze")(analyze_command)

from .server.commands import serve_command  # noqa: E402

app.command("serve")(serve_command)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
