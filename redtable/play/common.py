"""What the game loop needs from a game's renderer, and small shared helpers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType
from rich.markup import escape
from rich.text import Text

from ..core import Decision, Event, State
from ..i18n import ntr, tr


@dataclass
class Seat:
    """One seat at the table: a human at the keyboard or a bot."""

    index: int
    human: bool
    bot_spec: str | None = None
    bot: Any = None

    @property
    def kind(self) -> str:
        return tr("human") if self.human else tr("bot: {spec}", spec=self.bot_spec)


@dataclass
class Command:
    """An extra command a renderer offers at the prompt (``look mars``, ``gods``...)."""

    usage: str
    help: str
    run: Callable[[State, int | None, str], list[RenderableType]]


@dataclass
class Part:
    """A part of the compact screen, in its versions from the most detailed to the shortest.

    The game loop fits a screen into the terminal by taking the next, shorter version of
    the part of lowest ``rank`` until everything fits; an empty version leaves the part out.
    """

    variants: list[list[RenderableType]]
    rank: int


def cards(n: int) -> str:
    return ntr("{n} card", "{n} cards", n)


def esc(text: Any) -> str:
    """Text safe to put in rich markup."""
    return escape(str(text))


def line(markup: str) -> Text:
    return Text.from_markup(markup)


def one_line(markup: str, width: int) -> Text:
    """``markup`` cut to one line of ``width`` cells (an ellipsis where it is cut)."""
    t = Text.from_markup(markup.replace("\n", " "))
    t.truncate(width, overflow="ellipsis")
    t.no_wrap = True
    return t


class Renderer:
    """A game's screens. Subclasses fill in every method; all return rich markup or renderables.

    ``viewer`` is the seat whose eyes the screen is for (None: a spectator); a renderer
    reads only ``state.view(viewer)``, the viewer's events and ``state.describe`` of the
    viewer's own decision, so it cannot show what that seat may not see.
    """

    title = ""

    def __init__(self, state: State, seats: list[Seat]) -> None:
        self.seats = seats
        self.n = len(seats)

    # --- seats -----------------------------------------------------------------
    def seat_name(self, p: int) -> str:
        """Short plain name of a seat, e.g. ``P2 Mars``."""
        return f"P{p}"

    def who(self, p: int | None, viewer: int | None = None) -> str:
        """Markup naming a seat, with "you" for the viewer."""
        if p is None:
            return tr("nobody")
        name = f"[bold]{esc(self.seat_name(p))}[/bold]"
        if p == viewer:
            return tr("{name} (you)", name=name)
        return name

    # --- screens ---------------------------------------------------------------
    def board(self, state: State, viewer: int | None, decision: Decision | None) -> list[RenderableType]:
        """The full board (the ``board`` command): every detail, however long."""
        raise NotImplementedError

    def compact(self, state: State, viewer: int | None, decision: Decision | None, width: int) -> list[Part]:
        """The board of the compact screen, header first, as parts that can shrink."""
        return [Part([self.board(state, viewer, decision), []], 10)]

    def hand(self, state: State, viewer: int) -> list[RenderableType]:
        """The viewer's hand with every card's rules text (the ``hand`` command)."""
        return []

    def explain(self, state: State, d: Decision) -> str:
        """The decision in words (markup)."""
        raise NotImplementedError

    def option_rows(self, state: State, d: Decision) -> list[tuple[str, str]]:
        """One (label, details) pair of markup per option, in option order."""
        view = state.view(d.player)
        return [self.option_row(state, d, view, o) for o in d.options]

    def option_row(self, state: State, d: Decision, view: dict, option: str) -> tuple[str, str]:
        """The (label, details) markup of one option; ``view`` is the decider's view."""
        return esc(state.describe(option)), ""

    def option_short(self, state: State, d: Decision) -> list[str]:
        """A short label (markup) per option, for screens with many options."""
        return [label for label, _ in self.option_rows(state, d)]

    def aliases(self, state: State, d: Decision, option: str) -> list[str]:
        """Extra words (lower case) a player may type to pick ``option``."""
        return []

    def end_screen(self, state: State, compact: bool = False) -> list[RenderableType]:
        """The scores and the winner; ``compact``: shorter, to fit a small terminal."""
        raise NotImplementedError

    def commands(self) -> dict[str, Command]:
        return {}

    def help_text(self) -> str:
        """A reminder of the game's rules for the help screen (markup)."""
        return ""

    # --- the log ---------------------------------------------------------------
    def format_event(self, event: Event, viewer: int | None) -> str | None:
        """One log line (markup) for an event the viewer may see; None to skip it."""
        return esc(f"{event.kind}: {event.data}")

    def public_move(self, state: State, d: Decision, action: str) -> str | None:
        """What everybody may know of a move (before it is applied); None if it is secret."""
        return None

    def hidden_move(self, d: Decision) -> str:
        """What the others are told of a secret move."""
        return tr("makes a hidden choice ({kind})", kind=d.kind.replace("_", " "))

    def decision_label(self, kind: str) -> str:
        return kind.replace("_", " ")
