"""``redtable play``: a full game in the terminal, humans at the keyboard and bots on the other seats.

The loop is game-agnostic: it asks ``state.decision()`` who decides; a bot answers at
once, a human is shown the screen of *their* view (``state.view(seat)``) and types a
number, an option or a command. With several humans (hot-seat) the screen is cleared
and the keyboard handed over whenever the deciding human changes, so nobody sees
another's hand. Each game's screens live in a renderer (:mod:`.render_redrising`,
:mod:`.render_rednorth`).
"""

from __future__ import annotations

import secrets
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..core import GAMES, Decision, GameRecord, RedtableError, State, make_game
from .common import Renderer, Seat, esc
from ..cliutil import fail as _fail, parse_options as _parse_options

RECENT_LINES = 30      # log lines shown on a screen at most
CLEAR = "\x1b[H\x1b[2J\x1b[3J"  # home, clear screen, clear scrollback


class Quit(Exception):
    """The player left the game (q, end of input or Ctrl-C)."""

    def __init__(self, code: int = 0, message: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Move:
    """A decision taken, for the log: where it happened among the events, and its texts."""

    at: int               # len(state.events) before the move
    seat: int
    kind: str
    own: str              # what the mover sees (markup)
    public: str           # what the others see (markup)


@dataclass
class LogCursor:
    events: int = 0
    moves: int = 0
    lines: list[str] = field(default_factory=list)
    shown: int = 0        # lines already put on this viewer's screen


def make_renderer(state: State, seats: list[Seat]) -> Renderer:
    if state.game.name == "red-rising":
        from .render_redrising import RedRisingRenderer

        return RedRisingRenderer(state, seats)
    from .render_rednorth import RedNorthRenderer

    return RedNorthRenderer(state, seats)


class Session:
    """One game at the terminal."""

    def __init__(self, state: State, seats: list[Seat], seed: int, console: Console,
                 save: Path | None = None) -> None:
        self.state = state
        self.seats = seats
        self.seed = seed
        self.console = console
        self.save_path = save
        self.r = make_renderer(state, seats)
        self.humans = [s.index for s in seats if s.human]
        self.viewer: int | None = None          # whose private view is on the screen
        self.moves: list[Move] = []
        self.cursors: dict[int | None, LogCursor] = {}
        self.spectator = not self.humans

    # ------------------------------------------------------------------ output
    def print(self, *things) -> None:
        for t in things:
            self.console.print(t)

    def clear(self) -> None:
        if self.console.is_terminal:
            self.console.file.write(CLEAR)
            self.console.file.flush()

    def read(self, prompt: str) -> str:
        try:
            return self.console.input(prompt)
        except EOFError:
            raise Quit(0, "End of input: leaving the game.") from None
        except KeyboardInterrupt:
            raise Quit(130, "Interrupted: leaving the game.") from None

    # ------------------------------------------------------------------ log
    def _log(self, viewer: int | None) -> LogCursor:
        c = self.cursors.setdefault(viewer, LogCursor())
        events = self.state.events
        while True:
            if c.moves < len(self.moves) and self.moves[c.moves].at <= c.events:
                m = self.moves[c.moves]
                c.moves += 1
                c.lines.append(self._move_line(m, viewer))
            elif c.events < len(events):
                e = events[c.events]
                c.events += 1
                if e.visible_to(viewer):
                    line = self.r.format_event(e, viewer)
                    if line:
                        c.lines.append("  " + line.replace("\n", "\n  "))
            else:
                return c

    def _move_line(self, m: Move, viewer: int | None) -> str:
        text = m.own if m.seat == viewer else m.public
        return f"▶ {self.r.who(m.seat, viewer)} [dim]{esc(self.r.decision_label(m.kind))}:[/dim] {text}"

    def show_recent_log(self, viewer: int | None) -> None:
        c = self._log(viewer)
        lines = c.lines[c.shown:]
        if len(lines) > RECENT_LINES:
            hidden = len(lines) - RECENT_LINES
            lines = lines[-RECENT_LINES:]
            self.print(Text.from_markup(f"[dim]… {hidden} earlier lines (type 'log' to see them all)[/dim]"))
        if lines:
            self.print(Text.from_markup("[bold]Log[/bold] [dim](since your last move)[/dim]"))
            for line in lines:
                self.print(Text.from_markup(line))
        c.shown = len(c.lines)

    def show_full_log(self, viewer: int | None) -> None:
        c = self._log(viewer)
        self.print(Text.from_markup("[bold]The whole log[/bold] (what you have seen)"))
        for line in c.lines:
            self.print(Text.from_markup(line))
        c.shown = len(c.lines)

    def record(self, d: Decision, action: str) -> None:
        own = self._own_text(d, action)
        public = self.r.public_move(self.state, d, action)
        if public is None:
            public = esc(self.r.hidden_move(d))
        self.moves.append(Move(len(self.state.events), d.player, d.kind, own, public))

    def _own_text(self, d: Decision, action: str) -> str:
        return self.r.option_rows(self.state, d)[d.options.index(action)][0]

    # ------------------------------------------------------------------ the game
    def run(self) -> int:
        try:
            self._intro()
            while True:
                d = self.state.decision()
                if d is None:
                    break
                seat = self.seats[d.player]
                action = self._bot_move(seat, d) if not seat.human else self._human_move(d)
                self.record(d, action)
                self.state.apply(action)
                if self.spectator:
                    self.show_recent_log(None)
            self._finish()
            return 0
        except KeyboardInterrupt:  # Ctrl-C while a bot thinks (at the prompt, read() handles it)
            return self._leave(Quit(130, "Interrupted: leaving the game."))
        except Quit as q:
            return self._leave(q)

    def _leave(self, q: Quit) -> int:
        if q.message:
            self.print(Text(q.message))
        self._save()
        return q.code

    def _intro(self) -> None:
        g = self.state.game
        who = ", ".join(f"{self.r.seat_name(s.index)} ({s.kind})" for s in self.seats)
        self.print(Text.from_markup(f"[bold]{esc(g.title)}[/bold] — seed {self.seed} — {esc(who)}"))
        if self.spectator:
            self.print(Text("No human seats: watching the bots play."))

    def _bot_move(self, seat: Seat, d: Decision) -> str:
        try:
            if self.console.is_terminal and seat.bot_spec != "random":
                with self.console.status(f"{self.r.seat_name(seat.index)} ({seat.bot_spec}) is thinking…"):
                    action = seat.bot.choose(self.state)
            else:
                action = seat.bot.choose(self.state)
        except Exception as e:  # noqa: BLE001 - a broken bot must not end a human's game
            self.print(Text(f"warning: bot {seat.bot_spec} on seat {seat.index} failed ({e!r}); "
                            f"it plays the first option instead", style="bold"))
            return d.options[0]
        if action not in d.options:
            self.print(Text(f"warning: bot {seat.bot_spec} on seat {seat.index} chose an illegal option "
                            f"{action!r}; it plays the first option instead", style="bold"))
            return d.options[0]
        return action

    def _hand_over(self, seat: int) -> None:
        """Hot-seat: clear the screen and wait for ``seat``'s player before showing their view."""
        if len(self.humans) > 1 and self.viewer != seat:
            self.clear()
            self.print(Text.from_markup(
                f"\n\n[bold]Pass the keyboard to player {seat}[/bold] ({esc(self.r.seat_name(seat))}) — "
                f"press Enter\n"))
            while True:
                answer = self.read("").strip().lower()
                if answer in ("q", "quit"):
                    self._confirm_quit()
                    continue
                break
        self.viewer = seat

    def _human_move(self, d: Decision) -> str:
        self._hand_over(d.player)
        self.show_screen(d)
        while True:
            raw = self.read(self._prompt(d))
            text = raw.strip()
            low = text.lower()
            exact = [o for o in d.options if o.lower() == low]
            if exact:  # an option always wins over a command of the same name
                return exact[0]
            if low in ("?", "help", "h"):
                self.show_help(d)
                continue
            if low == "log":
                self.show_full_log(d.player)
                self.show_options(d)
                continue
            if low in ("q", "quit", "exit"):
                self._confirm_quit()
                self.show_options(d)
                continue
            if low in ("b", "board", "screen"):
                self.show_screen(d)
                continue
            word, _, arg = text.partition(" ")
            cmd = self.r.commands().get(word.lower())
            if cmd is not None:
                self.print(*cmd.run(self.state, d.player, arg))
                continue
            action = self.match(d, text)
            if action is not None:
                return action
            self.refuse(d, text)

    def match(self, d: Decision, text: str) -> str | None:
        """The option a typed answer names: its number, the option itself, its description or a name."""
        low = text.strip().lower()
        if not low:
            return d.options[0] if len(d.options) == 1 else None
        if low.isdigit():
            i = int(low)
            return d.options[i - 1] if 1 <= i <= len(d.options) else None
        hits = [o for o in d.options if o.lower() == low]
        if hits:
            return hits[0]
        found = set()
        for o in d.options:
            names = {self.state.describe(o).lower(), *self.r.aliases(self.state, d, o)}
            if low in names:
                found.add(o)
        return found.pop() if len(found) == 1 else None

    def refuse(self, d: Decision, text: str) -> None:
        shown = f"'{esc(text)}'" if text else "An empty answer"
        self.print(Text.from_markup(
            f"[bold]{shown} is not a legal choice.[/bold] Nothing changed. The legal choices are:"))
        rows = self.r.option_rows(self.state, d)
        for i, (label, _) in enumerate(rows, 1):
            self.print(Text.from_markup(f"  {i}) {label}"))
        self.print(Text.from_markup("[dim]Type a number from the list, or ? for help.[/dim]"))

    def _confirm_quit(self) -> None:
        answer = self.read(esc("Really quit this game? [y/N] ")).strip().lower()
        if answer in ("y", "yes"):
            raise Quit(0, "You left the game.")
        self.print(Text("Not quitting."))

    def _prompt(self, d: Decision) -> str:
        n = len(d.options)
        default = " (Enter = 1)" if n == 1 else ""
        return f"[bold]P{d.player}[/bold] choose 1-{n}{default}, or ? for help: "

    # ------------------------------------------------------------------ screens
    def show_screen(self, d: Decision) -> None:
        self.clear()
        self.print(*self.r.board(self.state, d.player, d))
        self.show_recent_log(d.player)
        self.show_options(d)

    def show_options(self, d: Decision) -> None:
        self.print(Text.from_markup(f"\n[bold]Your decision:[/bold] {self.r.explain(self.state, d)}"))
        t = Table(show_header=False, show_edge=False, show_lines=False, pad_edge=False, box=None)
        t.add_column("#", justify="right", style="bold", no_wrap=True)
        t.add_column("Choice", ratio=2)
        t.add_column("Text", ratio=3)
        for i, (label, detail) in enumerate(self.r.option_rows(self.state, d), 1):
            t.add_row(f"{i})", label, detail)
        self.print(t)

    def show_help(self, d: Decision) -> None:
        t = Table(title="Help", title_justify="left", show_header=False, show_edge=False, box=None)
        t.add_column(no_wrap=True, style="bold")
        t.add_column()
        t.add_row(f"1-{len(d.options)}", "pick an option by its number")
        t.add_row("an option", "or type it: the option itself, its description or a card/location name")
        for cmd in self.r.commands().values():
            t.add_row(esc(cmd.usage), esc(cmd.help))
        t.add_row("log", "the whole log of what you have seen")
        t.add_row("board", "show the screen again")
        t.add_row("? / help", "this help")
        t.add_row("q / quit", "leave the game (asks to confirm)")
        self.print(t)
        extra = self.r.help_text()
        if extra:
            self.print(Text.from_markup(extra))
        self.show_options(d)

    def _finish(self) -> None:
        viewer = self.humans[0] if len(self.humans) == 1 else None
        if len(self.humans) > 1:
            self.clear()
        self.show_recent_log(viewer)
        self.print(Text.from_markup("\n[bold]═══ The game is over ═══[/bold]"))
        self.print(*self.r.end_screen(self.state))
        self._save()

    def _save(self) -> None:
        if self.save_path is None:
            return
        try:
            GameRecord.of(self.state, self.seed).save(self.save_path, self.state)
            self.print(Text(f"Game saved to {self.save_path}"))
        except OSError as e:
            self.print(Text(f"could not save the game to {self.save_path}: {e}"))


# ====================================================================== the command




def plan_seats(players: int | None, humans: int | None, bots: str | None,
               max_players: int) -> tuple[int, int, list[str]]:
    """(players, humans, bot specs for the seats after the humans) from the command line."""
    bot_list = [b.strip() for b in bots.split(",")] if bots is not None else None
    if bot_list is not None and any(not b for b in bot_list):
        _fail(f"--bots is a comma-separated list of bot specs, got {bots!r}")
    if humans is not None and humans < 0:
        _fail(f"--humans must be 0 or more, got {humans}")
    if bot_list is not None:
        if players is None:
            humans = 1 if humans is None else humans
            players = humans + len(bot_list)
        elif humans is None:
            humans = players - len(bot_list)
            if humans < 0:
                _fail(f"--players {players} leaves no seat for {len(bot_list)} bots")
        if humans + len(bot_list) != players:
            _fail(f"{players} players with {humans} humans need {players - humans} bots, "
                  f"but --bots lists {len(bot_list)}")
        return players, humans, bot_list
    humans = 1 if humans is None else humans
    if players is None:
        players = max(humans, min(4, max_players))
    if humans > players:
        _fail(f"--humans {humans} is more than --players {players}")
    return players, humans, ["random"] * (players - humans)


def play_command(
    game: str = typer.Argument(..., help="red-rising or red-north"),
    players: Optional[int] = typer.Option(
        None, "--players", "-p",
        help="number of seats (default: humans + bots when --bots is given, else 4)"),
    bots: Optional[str] = typer.Option(
        None, "--bots", "-b",
        help="comma-separated bot specs for the seats after the humans, e.g. heuristic,random,ismcts:0.5s "
             "(default: every seat that is not human plays random)"),
    humans: Optional[int] = typer.Option(
        None, "--humans", "-H",
        help="human seats, 0 first (default: players minus bots when both are given, else 1); "
             "several humans play hot-seat; 0 watches the bots"),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="seed of the game (default: random, printed)"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option KEY=VALUE (repeatable)"),
    save: Optional[Path] = typer.Option(None, "--save", help="write the game (seed and actions) to this JSON "
                                                               "file at the end, for `redtable replay`"),
) -> None:
    """Play a game in the terminal against bots, or hot-seat with several humans.

    Seats 0..HUMANS-1 are humans, the rest bots in the order of --bots. Examples:

      redtable play red-rising                      (you + 3 random bots)

      redtable play red-north --players 4 --bots heuristic,heuristic,random

      redtable play red-rising --humans 2 --players 2   (hot-seat)

    At the prompt type a number, the option itself, ? for help, log for the whole log,
    q to quit. End of input quits too.
    """
    if game not in GAMES:
        _fail(f"unknown game {game!r}; choose one of: {', '.join(GAMES)}")
    from ..core import game_class

    cls = game_class(game)
    players, humans, bot_specs = plan_seats(players, humans, bots, cls.max_players)
    options = _parse_options(option)
    if seed is None:
        seed = secrets.randbelow(2**31)
    try:
        g = make_game(game, players, **options)
    except (RedtableError, TypeError) as e:
        _fail(str(e))
    from ..bots import make_bot

    seats = [Seat(i, True) for i in range(humans)]
    for j, spec in enumerate(bot_specs):
        i = humans + j
        try:
            try:
                bot = make_bot(spec, seed=seed * 7 + i, game=game)
            except TypeError:  # a make_bot without the game argument
                bot = make_bot(spec, seed=seed * 7 + i)
        except RedtableError as e:
            _fail(str(e))
        seats.append(Seat(i, False, spec, bot))
    state = g.new_initial_state(seed)
    console = Console(highlight=False, emoji=False)
    code = Session(state, seats, seed, console, save).run()
    if code:
        raise typer.Exit(code)


def main(argv: list[str] | None = None) -> None:
    """Run the command on its own (``python -m redtable.play red-north ...``)."""
    app = typer.Typer(add_completion=False)
    app.command()(play_command)
    app(argv if argv is not None else sys.argv[1:], prog_name="redtable play")

