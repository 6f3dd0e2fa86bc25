"""Typer command functions of the simulation commands; ``redtable.cli`` registers them::

    app.command("simulate")(simulate_command)
    app.command("tournament")(tournament_command)

Validation of user input happens here, at the edge: a bad value exits with code 2 and a
message on stderr that names the value and what is allowed; nothing goes to stdout.
"""

from __future__ import annotations

import json
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import typer

from ..cliutil import check_game as _check_game
from ..cliutil import check_output_dir, remove_created
from ..cliutil import fail as _fail
from ..cliutil import parse_options as _parse_options
from ..core import RedtableError
from ..core.jsonfile import quote

# Options the simulation commands (simulate, tournament, analyze) share.
BOTS = typer.Option(
    None, "--bots", help="comma-separated bots per seat, repeated cyclically over the seats (default random)"
)
GAME_OPTIONS = typer.Option([], "--option", "-o", help="game option KEY=VALUE (repeatable)")
WORKERS = typer.Option(
    None, "--workers", "-w", help="processes to play on (default: all cores); results do not depend on it"
)
BACKEND = typer.Option(
    "local", "--backend", help="where games run: local (processes on this machine) or ray (a Ray cluster)"
)
ADDRESS = typer.Option(
    None, "--address", help="Ray cluster to join (auto, host:port or ray://host:10001); default: start a local Ray"
)


def _split_bots(bots: str | None) -> list[str] | None:
    if bots is None:
        return None
    out = [b.strip() for b in bots.split(",")]
    if not all(out):
        _fail(f"--bots takes comma-separated bot names, got {bots!r}")
    return out


def _check_workers(workers: int | None) -> int:
    from .parallel import default_workers

    if workers is None:
        return default_workers()
    if workers < 1:
        _fail(f"--workers must be at least 1, got {workers}")
    return workers


def connect_backend(backend: str, address: str | None, workers: int) -> None:
    """Validate ``--backend``/``--address`` and connect before any game is played."""
    from .parallel import prepare_backend

    try:
        prepare_backend(backend, address, workers)
    except ValueError as e:
        _fail(str(e))


def _check_setup(game: str, players: int, options: dict, bots: list[str]) -> None:
    from ..bots import make_bot
    from ..core import make_game

    try:
        make_game(game, players, **options)
    except (RedtableError, TypeError) as e:
        _fail(str(e))
    for b in bots:
        try:
            make_bot(b)
        except (RedtableError, ValueError, TypeError) as e:
            _fail(f"--bots: {e}")


class Pace:
    """The pace of a run and its estimated time left, from the games finished so far.

    The rate is games finished over time *up to now* (not up to the last finished game, so
    a stall slows it down at once), measured since an anchor at least ``window`` seconds
    and ``min_games`` games back (else since the start): bursts of games finishing
    together on several workers do not make it jump, and a run whose pace changes (longer
    games at more players) is followed within a minute or so.
    """

    def __init__(
        self, total: int, clock: Callable[[], float] = time.monotonic, window: float = 60.0, min_games: int = 30
    ) -> None:
        self.total = total
        self.clock = clock
        self.window = window
        self.min_games = min_games
        self.done = 0
        self.samples: deque[tuple[float, int]] = deque([(clock(), 0)])

    def update(self, done: int) -> None:
        if done != self.done:
            self.done = done
            self.samples.append((self.clock(), done))
        now = self.clock()
        while len(self.samples) > 1 and self._old_enough(self.samples[1], now):
            self.samples.popleft()

    def _old_enough(self, sample: tuple[float, int], now: float) -> bool:
        return now - sample[0] >= self.window and self.done - sample[1] >= self.min_games

    def rate(self) -> float | None:
        """Games per second, or None before the first game ends."""
        t, d = self.samples[0]
        dt = self.clock() - t
        return (self.done - d) / dt if self.done > d and dt > 0 else None

    def remaining(self) -> float | None:
        """Seconds left at the current rate (0 when done), or None before the first game ends."""
        if self.done >= self.total:
            return 0.0
        r = self.rate()
        return (self.total - self.done) / r if r else None

    def text(self) -> str:
        """``2.4 games/s  eta 0:20:45`` (``s/game`` below one game a second)."""
        r = self.rate()
        if r is None:
            return "-- games/s  eta -:--:--"
        pace = f"{r:.1f} games/s" if r >= 1 else f"{1 / r:.1f} s/game"
        return f"{pace}  eta {_hms(self.remaining() or 0.0)}"


def _hms(seconds: float) -> str:
    s = int(seconds + 0.5)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


REFRESH_SECONDS = 0.1  # the progress bar is redrawn at most this often (and at the end)


@contextmanager
def _progress(
    label: str, total: int, console=None, clock: Callable[[], float] = time.monotonic
) -> Iterator[Callable[[int], None] | None]:
    """A rich progress bar on stderr when stderr is a terminal (or on ``console``), else nothing.

    It moves per finished game (see :func:`~redtable.sim.parallel.run_games`) and shows the
    elapsed time, the observed pace and the time left at that pace (:class:`Pace`). It
    refreshes from the callback only (no refresh thread), so worker processes are never
    forked from a process with a second thread; the callback also runs while workers play
    on, so the clock keeps moving.
    """
    if console is None:
        if not sys.stderr.isatty():
            yield None
            return
        from rich.console import Console

        console = Console(stderr=True)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    pace = Pace(total, clock)
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[pace]}"),
        console=console,
        transient=True,
        auto_refresh=False,
        get_time=clock,
    )
    task = bar.add_task(label, total=total, pace=pace.text())
    last = [float("-inf")]

    def update(done: int) -> None:
        pace.update(done)
        now = clock()
        if now - last[0] >= REFRESH_SECONDS or done >= total:
            last[0] = now
            bar.update(task, completed=done, pace=pace.text(), refresh=True)

    bar.start()
    try:
        yield update
    finally:
        bar.stop()


def simulate_command(
    game: str = typer.Argument(..., help="red-rising or red-north"),
    players: int = typer.Option(4, "--players", "-p", help="number of players"),
    games: int = typer.Option(100, "--games", "-n", help="number of games"),
    seed: int = typer.Option(0, "--seed", "-s", help="seed of the whole run"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object (every number)"),
    details: bool = typer.Option(
        False, "--details", help="also the per-card (Red Rising) or per-God and per-Outpost (Red North) tables"
    ),
    save_games: Path | None = typer.Option(
        None, "--save-games", help="keep every game here: one JSON log per game, or a data set's part (--save-format)"
    ),
    save_format: str = typer.Option(
        "json",
        "--save-format",
        help="json (one replayable log per game), jsonl or parquet (one new part of a data set: docs/data.md)",
    ),
    bots: str | None = BOTS,
    option: list[str] = GAME_OPTIONS,
    workers: int | None = WORKERS,
    backend: str = BACKEND,
    address: str | None = ADDRESS,
) -> None:
    """Play GAMES games with bots and print statistics.

    The summary: win % by seat, turn order, house (Red Rising) and bot with 95% Wilson intervals (a tie for
    first is a shared win, 1/k each), the scorepad rows, game length; --details adds cards, Gods and Outposts;
    --json prints every number.
    """
    from .simulate import simulate as run

    _check_game(game)
    if games < 1:
        _fail(f"--games must be at least 1, got {games}")
    options = _parse_options(option, game)
    bot_list = _split_bots(bots)
    _check_setup(game, players, options, bot_list or [])
    n_workers = _check_workers(workers)
    _check_save_format(save_format)
    created = check_output_dir(save_games, "--save-games") if save_games is not None else []
    try:
        connect_backend(backend, address, n_workers)
        with _progress(f"{game} x{games}", games) as progress_cb:
            report = run(
                game,
                players,
                games,
                seed,
                options,
                bot_list,
                save_games,
                progress_cb,
                workers=n_workers,
                backend=backend,
                save_format=save_format,
            )
    except OSError as e:
        remove_created(created)
        if save_games is None:
            raise
        _fail(f"--save-games: could not write a game log into {quote(str(save_games))}: {e.strerror or e}")
    except BaseException:
        remove_created(created)
        raise
    data = report.to_json()
    if as_json:
        typer.echo(json.dumps(data))
    else:
        from .summary import print_simulation, simulation_numbers

        print_simulation(simulation_numbers(report, bot_list, options), report.seconds, details)
    for failed in data.get("error_details", []):
        typer.echo(f"game {failed['game']} (seed {failed['seed']}) failed:\n{failed['error']}", err=True)


def _check_save_format(save_format: str) -> None:
    from ..data.files import FORMATS, need_pyarrow
    from ..data.schema import DataError

    if save_format not in ("json", *FORMATS):
        _fail(f"--save-format must be one of json, {', '.join(FORMATS)}; got {quote(save_format)}")
    if save_format == "parquet":
        try:
            need_pyarrow()
        except DataError as e:
            _fail(f"--save-format: {e}")


def tournament_command(
    game: str = typer.Argument(..., help="red-rising or red-north"),
    bots: str = typer.Option(..., "--bots", "-b", help="comma-separated bots, e.g. ismcts,heuristic,random"),
    players: int | None = typer.Option(
        None, "--players", "-p", help="seats per game (default: the number of bots, within the game's player range)"
    ),
    games: int = typer.Option(100, "--games", "-n", help="number of games"),
    budget: str | None = typer.Option(
        None,
        "--budget",
        help="search budget per decision for search "
        "bots without one in their spec: seconds (0.5s) or iterations (2000it)",
    ),
    seed: int = typer.Option(0, "--seed", "-s", help="seed of the whole tournament"),
    workers: int | None = WORKERS,
    option: list[str] = GAME_OPTIONS,
    as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
    backend: str = BACKEND,
    address: str | None = ADDRESS,
) -> None:
    """Bots play GAMES games against each other with rotated seats: win rate, Elo, score, time per bot.

    Every bot plays every seat equally often over each rotation period (reported in the JSON); with more bots
    than seats, every combination of bots takes its turn at the table. A tie for first is a shared win (1/k
    each); the 95% interval is Wilson's. Elo is a Bradley-Terry fit of all pairwise results (ranked by win,
    then score), with the field's mean at 1500.
    """
    from ..core import game_class
    from .tournament import apply_budget, tournament

    _check_game(game)
    if games < 1:
        _fail(f"--games must be at least 1, got {games}")
    bot_list = _split_bots(bots) or []
    if len(bot_list) < 2:
        _fail(f"a tournament needs at least two bots in --bots, got {bots!r}")
    options = _parse_options(option, game)
    if players is None:
        cls = game_class(game)
        players = min(max(len(bot_list), cls.min_players), cls.max_players)
    try:
        specs = apply_budget(bot_list, budget)
    except RedtableError as e:
        _fail(f"--budget: {e}")
    _check_setup(game, players, options, specs)
    n_workers = _check_workers(workers)
    connect_backend(backend, address, n_workers)
    with _progress(f"{game} tournament x{games}", games) as progress_cb:
        report = tournament(
            game, players, bot_list, games, seed, options, budget, n_workers, progress_cb, backend=backend
        )
    data = report.to_json()
    for failed in data.get("error_details", []):
        typer.echo(
            f"game {failed['game']} (seed {failed['seed']}, bots {failed['bots']}) failed:\n{failed['error']}", err=True
        )
    if as_json:
        typer.echo(json.dumps(data))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"{game}: {games} games, {players} players, seed {seed}"
        + (f", {data['errors']} failed" if data["errors"] else "")
    )
    table.add_column("bot", overflow="fold")
    for col in ("games", "win", "95% CI", "Elo", "score", "ms/dec"):
        table.add_column(col, justify="right", no_wrap=True)
    for b in sorted(data["bots"], key=lambda b: -b["elo"]):
        lo, hi = b["ci95"]
        table.add_row(
            b["name"],
            str(b["games"]),
            f"{b['win_rate']:.1%}",
            f"{lo * 100:.1f}–{hi:.1%}",
            f"{b['elo']:.0f}",
            f"{b['mean_score']:.2f}",
            f"{b['mean_decision_seconds'] * 1000:.2f}",
        )
    table.caption = (
        "win: win rate (a shared first place counts 1/k); score: mean final score; ms/dec: mean time per decision"
    )
    Console().print(table)
    period = data["rotation_period"]
    if games % period:
        typer.echo(f"note: seats are balanced over every {period} games; {games} is not a multiple", err=True)
