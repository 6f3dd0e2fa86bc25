"""``redtable play``: a full game in the terminal, humans at the keyboard and bots on the other seats.

The loop is game-agnostic: it asks ``state.decision()`` who decides; a bot answers at
once, a human is shown the screen of *their* view (``state.view(seat)``) and types a
number, an option or a command. Each game's screens live in a renderer
(:mod:`.render_redrising`, :mod:`.render_rednorth`).

Screens fit the terminal (80x24 and up): a compact board, the log since the player's last
move and the decision; what does not fit is a command away (``board``, ``hand``, ``card``,
``log``), and long outputs are shown a page at a time. The terminal's history is kept
(nothing is cleared), except in hot-seat, where the screen and its scrollback are cleared
whenever the keyboard changes hands, so nobody sees another's hand.

Every game is saved as it goes (seed and actions, as ``redtable replay`` reads them), by
default under ``$XDG_STATE_HOME/redtable/games/`` (``~/.local/state/redtable/games/``), with
the seats beside it (``NAME.seats.json``); ``redtable play --resume FILE`` replays the
record and continues with the same seats and bots.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import typer
from rich.console import Console, RenderableType
from rich.segment import Segment, Segments
from rich.table import Table
from rich.text import Text

from ..cliutil import check_output_file
from ..cliutil import fail as _fail
from ..cliutil import parse_options as _parse_options
from ..core import GAMES, Decision, GameRecord, RedtableError, State, make_game, title
from ..core.jsonfile import JsonFileError, clip, read_json_file
from ..i18n import ntr, set_lang, tr
from ..i18n import resolve as resolve_lang
from .common import Part, Renderer, Seat, esc

CLEAR = "\x1b[H\x1b[2J\x1b[3J"  # home, clear screen, clear scrollback (hot-seat only)
SEATS_FORMAT = "redtable-seats/1"
MIN_WIDTH, MIN_HEIGHT = 40, 12


class Quit(Exception):
    """The player left the game (q, end of input or Ctrl-C)."""

    def __init__(self, code: int = 0, message: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Move:
    """A decision taken, for the log: where it happened among the events, and its texts."""

    at: int  # len(state.events) before the move
    seat: int
    kind: str
    own: str  # what the mover sees (markup)
    public: str  # what the others see (markup)


@dataclass
class LogCursor:
    events: int = 0
    moves: int = 0
    lines: list[str] = field(default_factory=list)
    shown: int = 0  # lines already put on this viewer's screen


def make_renderer(state: State, seats: list[Seat]) -> Renderer:
    """The title's terminal renderer (its ``terminal`` part)."""
    cls = title(state.game.name).load("terminal")
    if cls is None:
        raise RedtableError(f"{state.game.title} has no terminal renderer")
    return cls(state, seats)


# ====================================================================== saving


def state_dir(environ=None) -> Path:
    """Where games are saved by default: ``$XDG_STATE_HOME/redtable`` or ``~/.local/state/redtable``."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_STATE_HOME", "")
    if not base or not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "redtable"


def default_save_path(game: str, seed: int) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return state_dir() / "games" / f"{game}-{stamp}-seed{seed}.json"


def shown_path(path: Path) -> str:
    """``path`` as printed: the home folder as ``~`` (shorter lines, and a shell reads it back)."""
    text = str(path)
    home = os.path.expanduser("~")
    if home not in ("", "/") and text.startswith(home + os.sep) and " " not in text:
        return "~" + text[len(home) :]
    return text


def seats_path(save: Path) -> Path:
    """The seats file beside a saved game: ``game.json`` -> ``game.seats.json``."""
    name = save.name[:-5] if save.name.endswith(".json") else save.name
    return save.with_name(name + ".seats.json")


def _write_atomically(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def seats_json(seats: list[Seat]) -> dict:
    return {"format": SEATS_FORMAT, "seats": [{"human": True} if s.human else {"bot": s.bot_spec} for s in seats]}


def load_seats(path: Path, players: int) -> list[str | None] | None:
    """The seats saved beside a game: None for a human, else the bot spec; None if there is no
    such file. A bad file is a :class:`RedtableError` naming it."""
    if not path.exists():
        return None
    shown = clip(str(path))
    try:
        data = read_json_file(path, limit_bytes=64 << 10, max_depth=8, what="the seats of a saved game")
    except JsonFileError as e:
        raise RedtableError(str(e)) from None
    seats = data.get("seats") if isinstance(data, dict) else None
    if (
        not isinstance(data, dict)
        or data.get("format") != SEATS_FORMAT
        or not isinstance(seats, list)
        or len(seats) != players
    ):
        raise RedtableError(
            f'{shown}: expected the seats of a {players}-player game ({{"format": "{SEATS_FORMAT}", "seats": [...]}})'
        )
    out: list[str | None] = []
    for i, s in enumerate(seats):
        if s == {"human": True}:
            out.append(None)
        elif isinstance(s, dict) and set(s) == {"bot"} and isinstance(s["bot"], str) and 0 < len(s["bot"]) <= 100:
            out.append(s["bot"])
        else:
            raise RedtableError(f'{shown}: seat {i} must be {{"human": true}} or {{"bot": SPEC}}')
    return out


# ====================================================================== the session


class Session:
    """One game at the terminal."""

    def __init__(
        self,
        state: State,
        seats: list[Seat],
        seed: int,
        console: Console,
        save: Path | None = None,
        resumed: bool = False,
    ) -> None:
        self.state = state
        self.seats = seats
        self.seed = seed
        self.console = console
        self.save_path = save
        self.resumed = resumed
        self.r = make_renderer(state, seats)
        self.humans = [s.index for s in seats if s.human]
        self.hot_seat = len(self.humans) > 1
        self.viewer: int | None = None  # whose private view is on the screen
        self.moves: list[Move] = []
        self.cursors: dict[int | None, LogCursor] = {}
        self.spectator = not self.humans
        self.reserve = 0  # lines of the intro to keep on the first screen
        self.save_failed = False
        self.saved_once = False
        if resumed:  # the log of the replayed part is there for `log`, not on the first screen
            for v in [None, *range(len(seats))]:
                c = self._log(v)
                c.shown = len(c.lines)

    # ------------------------------------------------------------------ output
    def print(self, *things) -> None:
        for t in things:
            self.console.print(t)

    def size(self) -> tuple[int, int]:
        w, h = self.console.size
        return max(w, MIN_WIDTH), max(h, MIN_HEIGHT)

    def lines_of(self, things: Sequence[RenderableType], width: int | None = None) -> list[list[Segment]]:
        width = width or self.size()[0]
        opts = self.console.options.update(width=width, height=None)
        out: list[list[Segment]] = []
        for t in things:
            out.extend(self.console.render_lines(t, opts, pad=False, new_lines=False))
        return out

    def height_of(self, things: Sequence[RenderableType], width: int | None = None) -> int:
        return len(self.lines_of(things, width))

    def clear(self) -> None:
        if self.console.is_terminal:
            self.console.file.write(CLEAR)
            self.console.file.flush()

    def read(self, prompt: str) -> str:
        try:
            return self.console.input(prompt)
        except EOFError:
            raise Quit(0, tr("End of input: leaving the game.")) from None
        except KeyboardInterrupt:
            raise Quit(130, tr("Interrupted: leaving the game.")) from None

    def page(self, things: Sequence[RenderableType]) -> int:
        """Print ``things`` a screenful at a time (Enter for more, q to stop); the number of
        lines of the last page printed."""
        w, h = self.size()
        lines = self.lines_of(things, w)
        step = h - 1
        if len(lines) <= step:
            self._print_lines(lines)
            return len(lines)
        step = h - 2
        start = 0
        while start < len(lines):
            chunk = lines[start : start + step]
            self._print_lines(chunk)
            start += step
            if start < len(lines):
                answer = (
                    self.read(
                        tr("-- more ({shown} of {total} lines): Enter, or q to stop -- ", shown=start, total=len(lines))
                    )
                    .strip()
                    .lower()
                )
                if answer in ("q", "quit", "n", "no"):
                    return 1
        return len(chunk)

    def _print_lines(self, lines: list[list[Segment]]) -> None:
        segs: list[Segment] = []
        for ln in lines:
            segs.extend(ln)
            segs.append(Segment.line())
        self.console.print(Segments(segs), end="")

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

    def pending_log(self, viewer: int | None) -> list[Text]:
        """The viewer's log lines since their last screen (now counted as shown)."""
        c = self._log(viewer)
        lines = [Text.from_markup(x) for x in c.lines[c.shown :]]
        c.shown = len(c.lines)
        return lines

    def log_tail(self, lines: list[Text], budget: int, width: int) -> list[RenderableType]:
        """The newest of ``lines`` within ``budget`` screen lines, after a note of how many earlier
        ones the ``log`` command shows."""
        if not lines or budget <= 0:
            return []
        heights = [self.height_of([t], width) for t in lines]
        if sum(heights) <= budget:
            return list(lines)
        out: list[RenderableType] = []
        used = 1  # the note
        for t, h in zip(reversed(lines), reversed(heights), strict=True):
            if used + h > budget:
                break
            out.append(t)
            used += h
        out.reverse()
        hidden = len(lines) - len(out)
        note = ntr(
            "… {n} earlier line: type 'log' to see the whole log",
            "… {n} earlier lines: type 'log' to see the whole log",
            hidden,
        )
        return [Text.from_markup(f"[dim]{note}[/dim]"), *out]

    def log_part(self, viewer: int | None, budget: int, width: int) -> list[RenderableType]:
        return self.log_tail(self.pending_log(viewer), budget, width)

    def show_recent_log(self, viewer: int | None) -> None:
        """The spectator's and the end's log: everything new, paged."""
        c = self._log(viewer)
        lines = c.lines[c.shown :]
        c.shown = len(c.lines)
        for markup in lines:
            self.print(Text.from_markup(markup))

    def show_full_log(self, viewer: int | None) -> int:
        c = self._log(viewer)
        c.shown = len(c.lines)
        return self.page(
            [Text.from_markup(tr("[bold]The whole log[/bold] (what you have seen)"))]
            + [Text.from_markup(x) for x in c.lines]
        )

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
                self._save(quiet=True)
                if self.spectator:
                    self.show_recent_log(None)
            self._finish()
            return 0
        except KeyboardInterrupt:  # Ctrl-C while a bot thinks (at the prompt, read() handles it)
            return self._leave(Quit(130, tr("Interrupted: leaving the game.")))
        except Quit as q:
            return self._leave(q)

    def _leave(self, q: Quit) -> int:
        if q.message:
            self.print(Text(q.message))
        self._save(quiet=False)
        return q.code

    def intro_lines(self) -> list[RenderableType]:
        g = self.state.game
        who = ", ".join(f"{self.r.seat_name(s.index)} ({s.kind})" for s in self.seats)
        out: list[RenderableType] = [
            Text.from_markup(
                tr(
                    "[bold]{title}[/bold] — seed {seed} — {seats}",
                    title=esc(self.r.title or g.title),
                    seed=self.seed,
                    seats=esc(who),
                )
            )
        ]
        if self.resumed:
            out.append(
                Text(ntr("Resumed after {n} decision.", "Resumed after {n} decisions.", len(self.state.history)))
            )
        if self.save_path is not None:
            out.append(Text(tr("Saved as it goes to {path}", path=shown_path(self.save_path))))
        return out

    def _intro(self) -> None:
        lines = self.intro_lines()
        if self.spectator:
            lines.append(Text(tr("No human seats: watching the bots play.")))
        elif self.hot_seat:
            lines.append(
                Text(tr("Hot-seat: the screen and its scrollback are cleared whenever the keyboard changes hands."))
            )
        self.print(*lines)
        self.reserve = self.height_of(lines)
        if self.spectator and self.resumed:
            self.show_recent_log(None)

    def _bot_move(self, seat: Seat, d: Decision) -> str:
        try:
            if self.console.is_terminal and seat.bot_spec != "random":
                with self.console.status(
                    tr("{seat} ({bot}) is thinking…", seat=self.r.seat_name(seat.index), bot=seat.bot_spec)
                ):
                    action = seat.bot.choose(self.state)
            else:
                action = seat.bot.choose(self.state)
        except Exception as e:  # noqa: BLE001 - a broken bot must not end a human's game
            self.print(
                Text(
                    tr(
                        "warning: bot {bot} on seat {seat} failed ({error}); it plays the first option instead",
                        bot=seat.bot_spec,
                        seat=seat.index,
                        error=repr(e),
                    ),
                    style="bold",
                )
            )
            return d.options[0]
        if action not in d.options:
            self.print(
                Text(
                    tr(
                        "warning: bot {bot} on seat {seat} chose an illegal option {option}; it plays "
                        "the first option instead",
                        bot=seat.bot_spec,
                        seat=seat.index,
                        option=repr(action),
                    ),
                    style="bold",
                )
            )
            return d.options[0]
        return action

    def _hand_over(self, seat: int) -> None:
        """Hot-seat: clear the screen and wait for ``seat``'s player before showing their view."""
        if self.hot_seat and self.viewer != seat:
            self.clear()
            head = self.intro_lines()[0]
            self.print(
                head,
                Text.from_markup(
                    "\n"
                    + tr(
                        "[bold]Pass the keyboard to player {seat}[/bold] ({name}) — press Enter",
                        seat=seat,
                        name=esc(self.r.seat_name(seat)),
                    )
                    + "\n"
                ),
            )
            while True:
                answer = self.read("").strip().lower()
                if answer in ("q", "quit"):
                    self._confirm_quit()
                    continue
                break
            self.reserve = 0
            if self.save_path is not None:
                self.print(Text(tr("Saved as it goes to {path}", path=shown_path(self.save_path))))
                self.reserve = 1
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
                self.after_command(d, self.page(self.help_lines(d)))
                continue
            if low == "log":
                self.after_command(d, self.show_full_log(d.player))
                continue
            if low in ("q", "quit", "exit"):
                self._confirm_quit()
                self.after_command(d, 2)
                continue
            if low in ("b", "screen"):
                self.show_screen(d)
                continue
            if low in ("board", "full"):
                self.after_command(d, self.page(self.r.board(self.state, d.player, d)))
                continue
            if low == "hand":
                self.after_command(d, self.page(self.r.hand(self.state, d.player)))
                continue
            word, _, arg = text.partition(" ")
            cmd = self.r.commands().get(word.lower())
            if cmd is not None:
                self.after_command(d, self.page(cmd.run(self.state, d.player, arg)))
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
        shown = f"'{esc(text)}'" if text else tr("An empty answer")
        head = Text.from_markup(
            tr("[bold]{answer} is not a legal choice.[/bold] Nothing changed. The legal choices are:", answer=shown)
        )
        w, h = self.size()
        tail = Text.from_markup("[dim]" + tr("Type a number from the list, or ? for help.") + "[/dim]")
        budget = h - 1 - self.height_of([head, tail], w)
        self.print(head, *self.options_fitting(d, budget, w, with_details=False), tail)

    def _confirm_quit(self) -> None:
        answer = self.read(esc(tr("Really quit this game? [y/N] "))).strip().lower()
        if answer in ("y", "yes", "т", "так", "t", "tak"):
            raise Quit(0, tr("You left the game."))
        self.print(Text(tr("Not quitting.")))

    def _prompt(self, d: Decision) -> str:
        n = len(d.options)
        if n == 1:
            return tr("[bold]P{seat}[/bold] choose 1 (Enter = 1), or ? for help: ", seat=d.player)
        return tr("[bold]P{seat}[/bold] choose 1-{n}, or ? for help: ", seat=d.player, n=n)

    # ------------------------------------------------------------------ screens
    def decision_lines(self, d: Decision) -> list[RenderableType]:
        return [Text.from_markup(tr("[bold reverse] Your decision [/] {text}", text=self.r.explain(self.state, d)))]

    def option_variants(self, d: Decision, width: int, with_details: bool = True) -> list[list[RenderableType]]:
        """The options, from the most detailed layout to the most compact."""
        rows = self.r.option_rows(self.state, d)
        shorts = self.r.option_short(self.state, d)
        n = len(rows)
        numw = len(str(n)) + 1
        out: list[list[RenderableType]] = []
        if with_details and any(detail for _, detail in rows):
            t = Table(show_header=False, show_edge=False, show_lines=False, pad_edge=False, box=None)
            t.add_column("#", justify="right", style="bold", no_wrap=True)
            t.add_column("Choice", ratio=2)
            t.add_column("Text", ratio=3)
            for i, (label, detail) in enumerate(rows, 1):
                t.add_row(f"{i})", label, detail)
            out.append([t])
        numbered: list[RenderableType] = [
            Text.from_markup(f"[bold]{i:>{numw - 1}})[/bold] ") + Text.from_markup(label)
            for i, (label, _) in enumerate(rows, 1)
        ]
        out.append(numbered)
        shorts_t = [
            Text.from_markup(f"[bold]{i:>{numw - 1}})[/bold] ") + Text.from_markup(s) for i, s in enumerate(shorts, 1)
        ]
        truncated: list[RenderableType] = [_trunc(t, width) for t in shorts_t]
        out.append(truncated)
        for cols in (2, 3, 4):
            if n >= cols:
                out.append(grid(shorts_t, cols, width))
        return out

    def options_fitting(self, d: Decision, budget: int, width: int, with_details: bool = True) -> list[RenderableType]:
        variants = self.option_variants(d, width, with_details)
        for v in variants:
            if self.height_of(v, width) <= budget:
                return v
        return variants[-1]

    def show_screen(self, d: Decision) -> None:
        """The compact screen of ``d``'s decider: board, recent log, decision, options."""
        w, h = self.size()
        budget = h - 1 - self.reserve
        self.reserve = 0
        parts = list(self.r.compact(self.state, d.player, d, w))
        nboard = len(parts)
        log = self.pending_log(d.player)
        full_log = self.height_of(log, w)
        log_sizes = sorted({full_log, *(k for k in (8, 5, 3, 2) if k < full_log), 0}, reverse=True)
        parts.append(Part([self.log_tail(log, k, w) for k in log_sizes], 65))
        parts.append(Part([self.decision_lines(d)], 100))
        parts.append(Part(self.option_variants(d, w), 90))
        heights = [[self.height_of(v, w) for v in p.variants] for p in parts]
        chosen = [0] * len(parts)
        total = sum(hs[0] for hs in heights)
        while total > budget:
            cands = [i for i, p in enumerate(parts) if chosen[i] + 1 < len(p.variants)]
            if not cands:
                break
            i = min(cands, key=lambda i: (parts[i].rank, i))
            total += heights[i][chosen[i] + 1] - heights[i][chosen[i]]
            chosen[i] += 1
        shown = [list(p.variants[chosen[i]]) for i, p in enumerate(parts)]
        if chosen[nboard] and budget > total:  # the log was cut: give it whatever room is left
            shown[nboard] = self.log_tail(log, heights[nboard][chosen[nboard]] + budget - total, w)
        self.print(*(x for part in shown for x in part))

    def show_options(self, d: Decision, budget: int | None = None) -> None:
        w, h = self.size()
        lines = self.decision_lines(d)
        budget = (h - 1 if budget is None else budget) - self.height_of(lines, w)
        self.print(*lines, *self.options_fitting(d, budget, w))

    def after_command(self, d: Decision, used: int) -> None:
        """After a command's output: the decision again if it fits below, else a reminder."""
        w, h = self.size()
        budget = h - 1 - used
        need = self.height_of(self.decision_lines(d), w) + self.height_of(self.option_variants(d, w)[-1], w)
        if need <= budget:
            self.show_options(d, budget)
        else:
            self.print(Text.from_markup("[dim]" + tr("Type b to see your decision again.") + "[/dim]"))

    def help_lines(self, d: Decision) -> list[RenderableType]:
        t = Table(title=tr("Help"), title_justify="left", show_header=False, show_edge=False, box=None)
        t.add_column(no_wrap=True, style="bold")
        t.add_column()
        t.add_row(f"1-{len(d.options)}", tr("pick an option by its number"))
        t.add_row(tr("an option"), tr("or type it: the option itself, its description or a card/location name"))
        t.add_row("b", tr("show your decision's screen again"))
        t.add_row("board", tr("the full board, every detail"))
        t.add_row("hand", tr("your hand with every card's rules text"))
        for cmd in self.r.commands().values():
            t.add_row(esc(cmd.usage), esc(cmd.help))
        t.add_row("log", tr("the whole log of what you have seen"))
        t.add_row("? / help", tr("this help"))
        t.add_row("q / quit", tr("leave the game (asks to confirm; the game is saved)"))
        out: list[RenderableType] = [t]
        extra = self.r.help_text()
        if extra:
            out.append(Text.from_markup(extra))
        return out

    def _finish(self) -> None:
        viewer = self.humans[0] if len(self.humans) == 1 else None
        w, h = self.size()
        if self.hot_seat:
            self.clear()
            head = self.intro_lines()[0]
            self.print(head)
            h -= self.height_of([head], w)
        self._save(quiet=True)
        saved = self.saved_lines()
        over = Text.from_markup("[bold]" + tr("═══ The game is over ═══") + "[/bold]")
        end = [over, *self.r.end_screen(self.state)]
        if self.height_of(end + saved, w) > h - 1:
            end = [over, *self.r.end_screen(self.state, compact=True)]
        budget = h - 1 - self.height_of(end + saved, w)
        if not self.spectator:
            self.print(*self.log_part(viewer, budget, w))
        else:
            self.show_recent_log(None)
        self.print(*end, *saved)

    def saved_lines(self) -> list[RenderableType]:
        if self.save_path is None or not self.saved_once:
            return []
        if self.state.is_terminal():
            return [Text(tr("Game saved to {path}", path=shown_path(self.save_path)))]
        return [
            Text(tr("Game saved; continue it with: redtable play --resume {path}", path=shown_path(self.save_path)))
        ]

    def _save(self, quiet: bool) -> None:
        if self.save_path is None or self.save_failed:
            return
        try:
            _write_atomically(self.save_path, json.dumps(GameRecord.of(self.state, self.seed).to_json(self.state)))
            if not self.saved_once:
                _write_atomically(seats_path(self.save_path), json.dumps(seats_json(self.seats)))
            self.saved_once = True
        except OSError as e:
            self.save_failed = True
            self.print(Text(tr("could not save the game to {path}: {error}", path=self.save_path, error=e)))
            return
        if not quiet:
            self.print(*self.saved_lines())


def _trunc(t: Text, width: int) -> Text:
    t = t.copy()
    t.truncate(width, overflow="ellipsis")
    t.no_wrap = True
    return t


def grid(items: list[Text], cols: int, width: int) -> list[RenderableType]:
    """``items`` in ``cols`` columns (down the first column, then the next), each cut to fit."""
    n = len(items)
    rows = -(-n // cols)
    gap = 2
    colw = max(4, (width - gap * (cols - 1)) // cols)
    out: list[RenderableType] = []
    for r in range(rows):
        ln = Text(no_wrap=True)
        for c in range(cols):
            i = c * rows + r
            if i >= n:
                break
            cell = items[i].copy()
            cell.truncate(colw, overflow="ellipsis")
            if (c + 1) * rows + r < n:
                cell.pad_right(colw - cell.cell_len + gap)
            ln.append_text(cell)
        out.append(ln)
    return out


# ====================================================================== the command


def plan_seats(
    players: int | None, humans: int | None, bots: str | None, max_players: int
) -> tuple[int, int, list[str]]:
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
            _fail(
                f"{players} players with {humans} humans need {players - humans} bots, but --bots lists {len(bot_list)}"
            )
        return players, humans, bot_list
    humans = 1 if humans is None else humans
    if players is None:
        players = max(humans, min(4, max_players))
    if humans > players:
        _fail(f"--humans {humans} is more than --players {players}")
    return players, humans, ["random"] * (players - humans)


def _make_seats(game: str, seed: int, specs: list[str | None]) -> list[Seat]:
    from ..bots import make_bot

    seats = []
    for i, spec in enumerate(specs):
        if spec is None:
            seats.append(Seat(i, True))
            continue
        try:
            try:
                bot = make_bot(spec, seed=seed * 7 + i, game=game)
            except TypeError:  # a make_bot without the game argument
                bot = make_bot(spec, seed=seed * 7 + i)
        except RedtableError as e:
            _fail(str(e))
        seats.append(Seat(i, False, spec, bot))
    return seats


def _resume(path: Path, game: str | None, humans: int | None, bots: str | None) -> tuple[State, list[str | None], int]:
    from ..core import replay as run

    try:
        record = GameRecord.load(path)
    except RedtableError as e:
        _fail(str(e))
    if game is not None and game != record.game:
        _fail(f"{clip(str(path))} is a {record.game} game, not {clip(game)}")
    try:
        state = run(record)
    except RedtableError as e:
        _fail(f"{clip(str(path))}: {e}")
    if humans is not None or bots is not None:
        from ..core import game_class

        players, h, bot_specs = plan_seats(record.players, humans, bots, game_class(record.game).max_players)
        specs: list[str | None] = [None] * h + list(bot_specs)
    else:
        try:
            saved = load_seats(seats_path(path), record.players)
        except RedtableError as e:
            _fail(str(e))
        specs = saved if saved is not None else [None] + ["random"] * (record.players - 1)
    return state, specs, record.seed


def play_command(
    game: str | None = typer.Argument(None, help="red-rising or red-north (not needed with --resume)"),
    players: int | None = typer.Option(
        None, "--players", "-p", help="number of seats (default: humans + bots when --bots is given, else 4)"
    ),
    bots: str | None = typer.Option(
        None,
        "--bots",
        "-b",
        help="comma-separated bot specs for the seats after the humans, e.g. heuristic,random,ismcts:0.5s "
        "(default: every seat that is not human plays random)",
    ),
    humans: int | None = typer.Option(
        None,
        "--humans",
        "-H",
        help="human seats, 0 first (default: players minus bots when both are given, else 1); "
        "several humans play hot-seat; 0 watches the bots",
    ),
    seed: int | None = typer.Option(None, "--seed", "-s", help="seed of the game (default: random, printed)"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option KEY=VALUE (repeatable)"),
    save: Path | None = typer.Option(
        None,
        "--save",
        help="save the game (seed and actions) to this JSON file as it goes, for "
        "`redtable replay` and --resume (default: a new file under "
        "$XDG_STATE_HOME/redtable/games, printed at the start)",
    ),
    autosave: bool = typer.Option(
        True, "--autosave/--no-autosave", help="save the game as it goes (without --save: to the default place)"
    ),
    resume: Path | None = typer.Option(
        None,
        "--resume",
        "-r",
        help="continue a saved game (any saved game: an autosave, --save, a server's "
        "record), with its seats and bots; --humans/--bots change them",
    ),
    lang: str | None = typer.Option(
        None, "--lang", "-l", help="language of the screens: en, uk or pl (default: from LANG)"
    ),
) -> None:
    """Play a game in the terminal against bots, or hot-seat with several humans.

    Seats 0..HUMANS-1 are humans, the rest bots in the order of --bots. Examples:

      redtable play red-rising                      (you + 3 random bots)

      redtable play red-north --players 4 --bots heuristic,heuristic,random

      redtable play red-rising --humans 2 --players 2   (hot-seat)

      redtable play --resume ~/.local/state/redtable/games/red-rising-….json

    The seed is printed at the start, with the file the game is saved to as
    it goes. Screens fit 80x24: at the prompt type a number or the option
    itself; b shows the screen again, board the full board, hand your cards'
    rules text, log the whole log, ? help, q quits (the game stays saved).
    End of input quits too. The terminal's history is kept; hot-seat clears
    the screen and its scrollback when the keyboard changes hands.
    """
    try:
        set_lang(resolve_lang(lang))
    except ValueError as e:
        _fail(str(e))
    explicit_save = save is not None
    if resume is not None:
        for name, value in (("--seed", seed), ("--players", players), ("--option", option or None)):
            if value is not None:
                _fail(f"{name} cannot be used with --resume: the saved game has its own")
        state, specs, seed = _resume(resume, game, humans, bots)
        name = state.game.name
        save = save if save is not None else (resume if autosave else None)
    else:
        if game is None:
            _fail("say which game: red-rising or red-north (or --resume FILE)")
        if game not in GAMES:
            _fail(f"unknown game {game!r}; choose one of: {', '.join(GAMES)}")
        from ..core import game_class

        cls = game_class(game)
        players, h, bot_specs = plan_seats(players, humans, bots, cls.max_players)
        options = _parse_options(option, game)  # an option the game does not take names the ones it does
        if seed is None:
            seed = secrets.randbelow(2**31)
        try:
            g = make_game(game, players, **options)
        except (RedtableError, TypeError) as e:
            _fail(str(e))
        specs = [None] * h + list(bot_specs)
        state = g.new_initial_state(seed)
        name = game
        if save is None and autosave:
            save = default_save_path(game, seed)
    if save is not None:
        if explicit_save:  # a path the person chose that cannot be written is refused before the game
            check_output_file(save, "--save")
        try:
            save.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            typer.echo(tr("could not save the game to {path}: {error}", path=save, error=e), err=True)
            save = None
    seats = _make_seats(name, seed, specs)
    console = Console(highlight=False, emoji=False)
    code = Session(state, seats, seed, console, save, resumed=resume is not None).run()
    if code:
        raise typer.Exit(code)


def main(argv: list[str] | None = None) -> None:
    """Run the command on its own (``python -m redtable.play red-north ...``)."""
    app = typer.Typer(add_completion=False)
    app.command()(play_command)
    app(argv if argv is not None else sys.argv[1:], prog_name="redtable play")
