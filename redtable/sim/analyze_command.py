"""The `redtable analyze` command function; ``redtable.cli`` registers it::

    app.command("analyze")(analyze_command)

Validation of user input happens here, at the edge (as in :mod:`redtable.sim.commands`):
a bad value exits with code 2 and a message on stderr that names the value and what is
allowed; nothing goes to stdout.
"""

from __future__ import annotations

from pathlib import Path

import typer

from ..cliutil import check_game as _check_game
from ..cliutil import check_output_dir, remove_created
from ..cliutil import fail as _fail
from ..cliutil import parse_options as _parse_options
from ..core.jsonfile import quote
from .commands import (
    ADDRESS,
    BACKEND,
    BOTS,
    GAME_OPTIONS,
    WORKERS,
    _check_setup,
    _check_workers,
    _progress,
    _split_bots,
    connect_backend,
)
from .summary import new_table as _new_table
from .summary import pp as _pp
from .summary import rate as _rate


def parse_player_counts(text: str | None, game: str) -> list[int]:
    """``--players``: ``4``, ``2,3,4`` or ``2-4`` (default: every count the game allows)."""
    from ..core import game_class

    cls = game_class(game)
    allowed = f"{cls.title} allows {cls.min_players}-{cls.max_players} players"
    if text is None:
        return list(range(cls.min_players, cls.max_players + 1))
    counts: list[int] = []
    for part in text.split(","):
        part = part.strip()
        lo, dash, hi = part.partition("-")
        try:
            span = range(int(lo), int(hi) + 1) if dash else [int(part)]
        except ValueError:
            _fail(f"--players takes player counts like 4, 2,3,4 or 2-4, got {text!r}")
        if not span:
            _fail(f"--players: empty range {part!r}; {allowed}")
        for p in span:
            if not cls.min_players <= p <= cls.max_players:
                _fail(f"--players: {p} is not a valid player count; {allowed}")
            if p not in counts:
                counts.append(p)
    return sorted(counts)


def analyze_command(
    game: str = typer.Argument(..., help="red-rising or red-north"),
    games: int = typer.Option(100, "--games", "-n", help="games at EACH player count"),
    players: str | None = typer.Option(
        None, "--players", "-p", help="player counts: 4, 2,3,4 or 2-4 (default: every count the game allows)"
    ),
    bots: str | None = BOTS,
    seed: int = typer.Option(0, "--seed", "-s", help="seed of the whole run"),
    out: Path | None = typer.Option(None, "--out", help="report directory (default: analysis-GAME-SEED)"),
    option: list[str] = GAME_OPTIONS,
    workers: int | None = WORKERS,
    backend: str = BACKEND,
    address: str | None = ADDRESS,
) -> None:
    """Play GAMES games at each player count and write a balance report (HTML, PNG, CSV, JSON).

    Win rates by seat, turn-order position, house (Red Rising) and bot, with 95% Wilson intervals (a tie for
    first is a shared win, 1/k each); score distributions per scorepad row; each card's deploys, kept copies
    and win correlation (Red Rising); each God's and Outpost's effect (Red North); game length. Game i at P
    players is game i of `redtable simulate GAME -p P -s SEED`. The numbers (report.json) are the same for the
    same seed and settings, whatever --workers.
    """
    from .analyze import analyze, collect, raw_rows
    from .report import MissingDependency, require_matplotlib, write_report

    _check_game(game)
    if games < 1:
        _fail(f"--games must be at least 1, got {games}")
    counts = parse_player_counts(players, game)
    options = _parse_options(option, game)
    bot_list = _split_bots(bots)
    for p in counts:
        _check_setup(game, p, options, bot_list or [])
    n_workers = _check_workers(workers)
    try:
        require_matplotlib()
    except MissingDependency as e:
        _fail(str(e))
    out_dir = out if out is not None else Path(f"analysis-{game}-{seed}")
    created = check_output_dir(out_dir, "--out")  # before any game: a bad path loses no run
    try:
        connect_backend(backend, address, n_workers)
        total = games * len(counts)
        with _progress(f"{game} analysis x{total}", total) as progress_cb:
            col = collect(
                game, counts, games, seed, bot_list, options, workers=n_workers, backend=backend, progress=progress_cb
            )
    except BaseException:
        remove_created(created)
        raise
    numbers = analyze(col)
    games_rows, players_rows = raw_rows(col)
    try:
        files = write_report(numbers, out_dir, games_rows=games_rows, players_rows=players_rows, run=col.run_info())
    except OSError as e:
        _fail(f"--out: could not write the report into {quote(str(out_dir))}: {e.strerror or e}")
    print_summary(numbers, col.run_info())
    for failed in numbers["errors"][:5]:
        typer.echo(
            f"game {failed['game']} at {failed['players']} players (seed {failed['seed']}) failed:\n{failed['error']}",
            err=True,
        )
    typer.echo(f"report: {files['index.html']}  ({len(files)} files in {out_dir})")


def print_summary(numbers: dict, run: dict | None = None) -> None:
    """A short rich summary of the report on the terminal."""
    from rich.console import Console

    console = Console()
    s, g = numbers["settings"], numbers["games"]
    console.print(
        f"[b]{numbers['title']}[/b]: {g['total']} games ({s['games_per_player_count']} at each of "
        f"{', '.join(map(str, s['player_counts']))} players), seed {s['seed']}, bots "
        f"{', '.join(s['bots'])}; {g['errors']} failed" + (f"; {run['seconds']} s" if run else "")
    )
    wr = numbers["win_rates"]
    most = max(s["player_counts"])
    t = _new_table("win % by turn order (0 = first), P players [95% CI]")
    t.add_column("P", no_wrap=True)
    for i in range(most):
        t.add_column(str(i), justify="right", no_wrap=True)
    for k in [r["players"] for r in g["by_player_count"]]:
        rows = {r["turn_order"]: r for r in wr["by_turn_order"] if r["players"] == k}
        t.add_row(str(k), *[_rate(rows[i]) if i in rows else "" for i in range(most)])
    console.print(t)
    key = "all" if len(s["player_counts"]) > 1 else s["player_counts"][0]
    for what in ("house", "bot"):
        if f"by_{what}" not in wr:
            continue
        t = _new_table(f"win rate by {what} ({key} players)")
        for col in (what, "n", "win % [95% CI]", "fair share"):
            t.add_column(col, justify="left" if col == what else "right")
        for r in wr[f"by_{what}"]:
            if r["players"] == key:
                t.add_row(r[what], str(r["n"]), _rate(r), f"{r['expected']:.0%}")
        console.print(t)
    if "cards" in numbers:
        held = sorted((c for c in numbers["cards"] if c["held"]["n"]), key=lambda c: (-c["held_lift"], c["card"]))
        if held:
            t = _new_table("cards held at the end: best and worst win-rate lift")
            for col in ("card", "kept", "win % [95% CI]", "lift pp", "deployed"):
                t.add_column(col, justify="left" if col == "card" else "right")
            pick = held if len(held) <= 10 else held[:5] + held[-5:]
            for c in pick:
                t.add_row(c["card"], str(c["kept"]), _rate(c["held"]), _pp(c["held_lift"]), str(c["deployed"]))
            console.print(t)
    if "gods" in numbers:
        t = _new_table("Gods: the player holding it")
        for col in ("god", "held", "invoked", "win % [95% CI]", "lift pp", "VP held / not"):
            t.add_column(col, justify="left" if col == "god" else "right")
        for r in numbers["gods"]:
            vp = f"{r['held_mean_vp'] or 0:.1f} / {r['not_held_mean_vp'] or 0:.1f}"
            lift = _pp(r["held_lift"])
            t.add_row(r["god"], str(r["held"]["n"]), str(r["invoked"]), _rate(r["held"]), lift, vp)
        console.print(t)
    if "outposts" in numbers:
        t = _new_table("Outposts: the final controller")
        for col in ("outpost", "in play", "win % [95% CI]", "lift pp", "uncontrolled"):
            t.add_column(col, justify="left" if col == "outpost" else "right")
        for r in numbers["outposts"]:
            lift = _pp(r["controller_lift"])
            t.add_row(
                r["outpost"],
                f"{(r['in_play_rate'] or 0):.0%}",
                _rate(r["controller_win"]),
                lift,
                str(r["final_uncontrolled"]),
            )
        console.print(t)
    lengths = [r for r in numbers["length"]["stats"] if r["measure"] == "decisions" and r["n"]]
    console.print(
        "mean decisions per game: "
        + ", ".join(f"{r['players']}{'' if r['players'] == 'all' else 'p'} {r['mean']:.0f}" for r in lengths)
    )


__all__ = ["analyze_command", "parse_player_counts", "print_summary"]
