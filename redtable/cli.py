"""The `redtable` command. Validation of user input happens here, at the edge."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from .core import GAMES, RedtableError

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Red Rising and Red North: play, score, simulate, replay.")


def _fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _check_game(game: str) -> str:
    if game not in GAMES:
        _fail(f"unknown game {game!r}; choose one of: {', '.join(GAMES)}")
    return game


def _parse_options(pairs: list[str]) -> dict:
    out: dict = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep:
            _fail(f"--option takes KEY=VALUE, got {pair!r}")
        try:
            out[key.replace("-", "_")] = json.loads(raw)
        except json.JSONDecodeError:
            out[key.replace("-", "_")] = raw
    return out


@app.command()
def simulate(
    game: str = typer.Argument(..., help="red-rising or red-north"),
    players: int = typer.Option(4, "--players", "-p", help="number of players"),
    games: int = typer.Option(100, "--games", "-n", help="number of games"),
    seed: int = typer.Option(0, "--seed", "-s", help="seed of the whole run"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
    save_games: Optional[Path] = typer.Option(None, "--save-games", help="write one JSON log per game here"),
    bots: Optional[str] = typer.Option(None, "--bots", help="comma-separated bots per seat (default random)"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option KEY=VALUE (repeatable)"),
) -> None:
    """Play GAMES games with bots and print statistics."""
    from .sim.simulate import simulate as run

    _check_game(game)
    if games < 1:
        _fail(f"--games must be at least 1, got {games}")
    options = _parse_options(option)
    bot_list = [b.strip() for b in bots.split(",")] if bots else None
    try:
        from .core import make_game
        from .bots import make_bot

        make_game(game, players, **options)
        for b in bot_list or []:
            make_bot(b)
    except (RedtableError, TypeError) as e:
        _fail(str(e))
    progress_cb = None
    bar = None
    if sys.stderr.isatty():
        from rich.progress import Progress

        bar = Progress(transient=True)
        task = bar.add_task(f"{game} x{games}", total=games)
        bar.start()
        progress_cb = lambda done: bar.update(task, completed=done)  # noqa: E731
    try:
        report = run(game, players, games, seed, options, bot_list, save_games, progress_cb)
    finally:
        if bar is not None:
            bar.stop()
    data = report.to_json()
    if as_json:
        typer.echo(json.dumps(data))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{game}: {games} games, {players} players, seed {seed}")
    table.add_column("statistic")
    table.add_column("value", justify="right")
    for k, v in data.items():
        if k != "error_details":
            table.add_row(k, json.dumps(v) if isinstance(v, (dict, list)) else str(v))
    Console().print(table)
    for e in data.get("error_details", []):
        typer.echo(f"game {e['game']} (seed {e['seed']}) failed:\n{e['error']}", err=True)


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

app.command("play")(play_command)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
