"""The protocol every game implements and every consumer (bots, UI, server, RL) drives.

A game is a pure state machine of decisions, in the style of OpenSpiel:

    state = game.new_initial_state(seed)
    while not state.is_terminal():
        d = state.decision()                  # who decides, and between what
        state.apply(pick(state.view(d.player), d))
    state.scores(), state.winners()

Actions are JSON strings (a card slug, a location, ``"yes"``...), so a game is fully
described by its options, its seed and its list of actions, and a saved log is
readable. Chance is resolved inside ``apply`` from the state's own seeded
:class:`~redtable.core.rng.Rng`, so replay is exact.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, NamedTuple

from .errors import IllegalAction, InvalidOptions

Action = str


class Decision(NamedTuple):
    """A choice the game is waiting for.

    ``player`` is the seat that decides (an opponent may decide in the middle of your
    turn, e.g. a block); ``kind`` names what is being decided; ``options`` are the legal
    actions; ``context`` carries what a front end needs to phrase the prompt (the card
    that asks, the source of a move...). It may name things only ``player`` may see, so
    views show it to the decider alone.

    A NamedTuple rather than a frozen dataclass: engines create one per decision, and
    tuple construction is several times cheaper.
    """

    player: int
    kind: str
    options: tuple[Action, ...]
    context: dict[str, Any] = {}

    def to_json(self) -> dict:
        return {"player": self.player, "kind": self.kind, "options": list(self.options), "context": self.context}


class Event(NamedTuple):
    """One entry of a game's log. ``to`` is None for a public event, else the seats that may see it."""

    kind: str
    data: dict[str, Any]
    to: tuple[int, ...] | None = None

    def visible_to(self, player: int | None) -> bool:
        return self.to is None or (player is not None and player in self.to)

    def to_json(self) -> dict:
        out = {"kind": self.kind, **self.data}
        if self.to is not None:
            out["to"] = list(self.to)
        return out


class Game(ABC):
    """Static parameters of a game: its name, player count and variant options."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    def __init__(self, players: int) -> None:
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise InvalidOptions(
                f"{self.title} takes {self.min_players}-{self.max_players} players, got {players!r}"
            )
        self.players = players

    @abstractmethod
    def options(self) -> dict[str, Any]:
        """The options as JSON, such that ``type(game)(**game.options())`` rebuilds the game."""

    @abstractmethod
    def new_initial_state(self, seed: int) -> "State":
        """A new game set up with the given seed; all chance after this comes from it too."""

    def summarize(self, summaries: list[dict]) -> dict[str, Any]:
        """Game-specific statistics over many finished games' ``State.summary()`` dicts."""
        return {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.options()!r})"


class State(ABC):
    """A position in a game. Subclasses keep their data flat and cheap to clone."""

    __slots__ = ()

    game: Game
    history: list[Action]
    events: list[Event]

    # --- who decides, and between what -------------------------------------------------
    @abstractmethod
    def decision(self) -> Decision | None:
        """The pending decision, or None when the game is over."""

    def is_terminal(self) -> bool:
        return self.decision() is None

    def current_player(self) -> int:
        d = self.decision()
        return -1 if d is None else d.player

    def legal_actions(self) -> tuple[Action, ...]:
        d = self.decision()
        return () if d is None else d.options

    # --- changing the game ----------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Apply one of the offered options. Anything else raises and changes nothing."""
        d = self.decision()
        if d is None or action not in d.options:
            raise IllegalAction(action, () if d is None else d.options,
                                None if d is None else d.player, "" if d is None else d.kind)
        self.history.append(action)
        self._apply(action)

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Apply an action already checked to be legal."""

    @abstractmethod
    def clone(self) -> "State":
        """An independent copy (no shared mutable data)."""

    # --- what players may know -----------------------------------------------------------
    @abstractmethod
    def view(self, player: int | None) -> dict[str, Any]:
        """Everything ``player`` may see (None: a spectator), as JSON. Never more."""

    def events_for(self, player: int | None) -> list[Event]:
        return [e for e in self.events if e.visible_to(player)]

    def resample(self, player: int, rng) -> "State":
        """A state equal on all ``player`` knows, with everything hidden re-dealt (for search bots)."""
        raise NotImplementedError(f"{type(self).__name__} does not support resampling yet")

    def for_search(self) -> "State":
        """Mark this state, a search bot's own determinization (from :meth:`resample`,
        never the real game), as a search copy and return it: from now on it and its
        clones may skip work that only a real game needs, such as recording the event
        log. Play is unchanged (same decisions, chance, scores). Default: nothing to skip."""
        return self

    def describe(self, action: Action) -> str:
        """A short human description of an option of the current decision."""
        return action

    # --- results -------------------------------------------------------------------------
    @abstractmethod
    def scores(self) -> list[float]:
        """Final scores per seat (only meaningful once terminal)."""

    @abstractmethod
    def winners(self) -> list[int]:
        """Winning seats (several when the victory is shared)."""

    def returns(self) -> list[float]:
        """+1 shared among winners, 0 to the others: a zero-sum-ish utility for search."""
        if not self.is_terminal():
            return [0.0] * self.game.players
        w = self.winners()
        return [1.0 / len(w) if p in w else 0.0 for p in range(self.game.players)]

    def summary(self) -> dict[str, Any]:
        """JSON facts about a finished game for statistics (scores, winners, game extras)."""
        return {"scores": self.scores(), "winners": self.winners(), "decisions": len(self.history)}


def check_option(name: str, value: Any, allowed: tuple) -> None:
    """Raise InvalidOptions naming the option, the value and what is allowed."""
    if value not in allowed:
        raise InvalidOptions(f"option {name!r} must be one of {list(allowed)}, got {value!r}")
