"""``redtable review GAME.json --seat N``: the expert's review of a saved game, in the terminal.

Any saved game is read (a terminal autosave, a ``simulate --save-games`` log, a server's
record: all are :class:`~redtable.core.GameRecord` JSON). ``--json`` prints the review's
data (``{"seat": N, "decisions": [...]}``, as the server answers); otherwise a table of the
seat's decisions at most 80 columns wide and, for each mistake and blunder, the sentence
saying what the preferred option would have done, in ``--lang`` (en/uk/pl). A progress
bar runs on stderr when it is a terminal. Bad input exits with code 2 and a message on
stderr that names it; nothing goes to stdout then.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from ..cliutil import fail
from ..core import RedtableError
from ..core.jsonfile import clip

WIDTH = 80


def review_command(
    file: Path = typer.Argument(..., help="a saved game (JSON): an autosave, a simulate log or a server record"),
    seat: int = typer.Option(..., "--seat", help="the seat whose decisions are reviewed (0 is the first)"),
    budget: str = typer.Option("0.2s", "--budget", help="search per decision: seconds (0.2s, 250ms) or 400it"),
    as_json: bool = typer.Option(False, "--json", help='print {"seat": N, "decisions": [...]} as JSON'),
    lang: str | None = typer.Option(None, "--lang", "-l", help="language: en, uk or pl (default: from LANG)"),
    seed: int = typer.Option(0, "--seed", help="seed of the searches (an iteration budget is then exact)"),
) -> None:
    """Review a finished game: the expert's winning chances at each decision of a seat."""
    from ..core import GameRecord, replay
    from ..i18n import resolve, set_lang
    from .engine import Budget, review_record

    try:
        set_lang(resolve(lang))
    except ValueError as e:
        fail(str(e))
    try:
        b = Budget.parse(budget)
    except RedtableError as e:
        fail(f"--budget: {e}")
    try:
        record = GameRecord.load(file)  # errors start with the file's name
        final = replay(record)
    except RedtableError as e:
        fail(str(e) if str(e).startswith(clip(str(file))) else f"{clip(str(file))}: {e}")
    if not final.is_terminal():
        fail(f"{clip(str(file))}: the game is not finished; only a finished game is reviewed")
    if not 0 <= seat < record.players:
        fail(f"--seat must be from 0 to {record.players - 1} for this {record.players}-player game, got {seat}")
    with _progress() as update:
        review = review_record(record, seat, b, seed, progress=update)
    if as_json:
        typer.echo(json.dumps(review.to_json()))
        return
    _print(record, review, b)


class _Bar:
    def __init__(self) -> None:
        self.bar: Any = None  # a rich Progress while the bar is shown
        self.task: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            return
        if self.task is None:
            from ..i18n import tr

            self.task = self.bar.add_task(tr("Reviewing"), total=total)
        self.bar.update(self.task, completed=done, refresh=True)


class _progress:
    """A rich progress bar on stderr while the review runs, when stderr is a terminal."""

    def __enter__(self) -> _Bar:
        self.cb = _Bar()
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            console = Console(stderr=True, width=min(WIDTH, Console(stderr=True).width))
            self.cb.bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=console,
                transient=True,
                auto_refresh=False,
            )
            self.cb.bar.start()
        return self.cb

    def __exit__(self, *exc: object) -> None:
        if self.cb.bar is not None:
            self.cb.bar.stop()


def _print(record, review, budget) -> None:
    from rich.console import Console
    from rich.table import Table

    from ..core import make_game
    from ..i18n import ntr, tr
    from ..play.common import Seat, esc
    from ..play.terminal import make_renderer
    from .words import mark_word, option_label, percent, sentence

    console = Console(width=WIDTH, highlight=False, emoji=False)
    st = make_game(record.game, record.players, **record.options).new_initial_state(record.seed)
    renderer = make_renderer(st, [Seat(i, True) for i in range(record.players)])
    marks = [d for d in review.decisions if d.mark]
    console.print(
        tr(
            "{title}: review of {who} (budget {budget})",
            title=renderer.title or record.game,
            who=renderer.who(review.seat),
            budget=budget.text(),
        )
    )
    console.print(
        ntr("{n} decision", "{n} decisions", len(review.decisions))
        + ", "
        + ntr("{n} mistake", "{n} mistakes", sum(d.mark == "mistake" for d in review.decisions))
        + ", "
        + ntr("{n} blunder", "{n} blunders", sum(d.mark == "blunder" for d in review.decisions))
    )
    table = Table(box=None, pad_edge=False, expand=False, width=WIDTH)
    table.add_column(tr("step"), justify="right", no_wrap=True)
    table.add_column(tr("win"), justify="right", no_wrap=True, min_width=6)
    table.add_column(tr("taken"), width=20, overflow="ellipsis", no_wrap=True)
    table.add_column(tr("expert"), width=20, overflow="ellipsis", no_wrap=True)
    table.add_column(tr("loss"), justify="right", no_wrap=True)
    table.add_column("", no_wrap=True, min_width=13)
    words: dict[int, str] = {}
    by_step = {d.step: d for d in review.decisions}
    for i, a in enumerate(record.actions):
        d = by_step.get(i)
        if d is not None:
            same = d.preferred == d.taken
            table.add_row(
                str(i),
                percent(d.win_before),
                option_label(renderer, st, d.taken),
                "=" if same else option_label(renderer, st, d.preferred),
                "" if same else f"-{round(100 * d.loss)}",
                mark_word(d.mark),
            )
            if d.mark:
                words[i] = sentence(renderer, st, d)
        st.apply(a)
    console.print(table)
    if marks:
        console.print()
        for d in marks:
            console.print(f"[bold]{d.step}[/bold] {esc(mark_word(d.mark))}: {words[d.step]}")
