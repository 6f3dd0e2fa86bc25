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
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, NoReturn, Self, SupportsIndex, TypeVar

from .errors import GameOver, IllegalAction, InvalidOptions

if TYPE_CHECKING:
    from _collections_abc import dict_items, dict_keys, dict_values

    from .rng import Rng

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

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "kind": self.kind, "options": list(self.options), "context": self.context}


class Event(NamedTuple):
    """One entry of a game's log. ``to`` is None for a public event, else the seats that may see it."""

    kind: str
    data: dict[str, Any]
    to: tuple[int, ...] | None = None

    def visible_to(self, player: int | None) -> bool:
        return self.to is None or (player is not None and player in self.to)

    def to_json(self) -> dict[str, Any]:
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
            raise InvalidOptions(f"{self.title} takes {self.min_players}-{self.max_players} players, got {players!r}")
        self.players = players

    @abstractmethod
    def options(self) -> dict[str, Any]:
        """The options as JSON, such that ``type(game)(**game.options())`` rebuilds the game."""

    @abstractmethod
    def new_initial_state(self, seed: int) -> State:
        """A new game set up with the given seed; all chance after this comes from it too."""

    def summarize(self, summaries: list[dict[str, Any]]) -> dict[str, Any]:
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

    def pending(self) -> Decision:
        """The pending decision, for code that may only run while the game goes on (a bot
        asked to choose, an environment stepping its game). A finished game raises
        :class:`~redtable.core.errors.GameOver` rather than handing back None."""
        d = self.decision()
        if d is None:
            raise GameOver(f"{self.game.title}: the game is over, no decision is pending")
        return d

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
            raise IllegalAction(
                action, () if d is None else d.options, None if d is None else d.player, "" if d is None else d.kind
            )
        self.history.append(action)
        self._apply(action)

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Apply an action already checked to be legal."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy (no shared mutable data)."""

    # --- what players may know -----------------------------------------------------------
    @abstractmethod
    def view(self, player: int | None) -> dict[str, Any]:
        """Everything ``player`` may see (None: a spectator), as JSON. Never more."""

    def events_for(self, player: int | None) -> list[Event]:
        return [e for e in self.events if e.visible_to(player)]

    def resample(self, player: int, rng: Rng) -> State:
        """A state equal on all ``player`` knows, with everything hidden re-dealt (for search bots)."""
        raise NotImplementedError(f"{type(self).__name__} does not support resampling yet")

    def for_search(self) -> State:
        """Mark this state, a search bot's own determinization (from :meth:`resample`,
        never the real game), as a search copy and return it: from now on it and its
        clones may skip work that only a real game needs, such as recording the event
        log. Play is unchanged (same decisions, chance, scores). Default: nothing to skip."""
        return self

    def describe(self, action: Action) -> str:
        """A short human description of an option of the current decision."""
        return action

    def round_number(self) -> int | None:
        """For a game played in rounds that end in a scoring (Red North's Resolution), the
        round being played (public), so that a review can say what a choice scores by the
        round's end; None (the default) for a game without such rounds."""
        return None

    def idle_window(self) -> Action | None:
        """If the pending decision is a block window that its decider cannot use (the only
        option is to decline), the declining action; else None.

        Games that ask every seat that might block, holding a blocker or not (so that being
        asked tells nothing), return here the action a front end or server answers for the
        seat after a human-like delay. Default: the game has no such windows."""
        return None

    def arm_hidden(self, player: int) -> list[str] | None:
        """Turn this state, a throwaway clone, into a tripwire for what ``player`` may not know.

        Every container holding information hidden from ``player`` (the deck's order, other
        seats' hands, face-down cards, anything a re-deal for ``player`` could change) is
        replaced by a tripwire (:class:`HiddenList`, :class:`HiddenDict`, :class:`HiddenSet`
        or a game's own): reading hidden contents records a line in the returned list and
        raises :class:`HiddenRead`. Facts the game makes public (hand and deck sizes,
        face-up cards, cards ``player`` saw) stay readable, and writes that reveal nothing
        (putting a card somewhere) are allowed. Play from the armed state is unchanged
        until a tripwire fires; it is meant only to test one decision (``apply``, then
        ``decision()``), never for real play.

        Returns the (empty) list of trips, which fills as tripwires fire; or None when the
        game cannot arm itself (the default): nothing can be proved about it."""
        return None

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


# ====================================================================== tripwires
class HiddenRead(Exception):
    """A tripwire (:meth:`State.arm_hidden`) saw hidden information being read.

    The read is recorded in the armed state's trip list before this is raised, so code that
    swallows exceptions cannot hide it."""


_R = TypeVar("_R")
# What a tripwire asks of an item (is it hidden?) or of a value (is its place unknown?).
Predicate = Callable[[Any], bool]


def _trip(trips: list[str], where: str, what: str) -> NoReturn:
    msg = f"{where}: {what}"
    trips.append(msg)
    raise HiddenRead(msg)


class HiddenList(list[Any]):
    """A list whose items may be hidden from one player, recording every read of them.

    ``hidden(item)`` says whether an item lying in the list is hidden (None: every item is);
    ``unknown(x)`` whether the player does not know where ``x`` is (None: nothing is known),
    for membership questions. ``ordered``: the places of items the player knows are known
    too (a deck, a row of cards on the table), so reading a visible item by index is free;
    otherwise (a hand) any read by index counts as soon as one item is hidden.

    Free: ``len`` and truth (sizes must be public where this is used), writes (``append``,
    ``insert``, ``extend``, item and slice assignment, ``del``, ``clear``, ``reverse``),
    reading visible items, and asking about an ``x`` the player knows the place of
    (``in``, ``count``, ``remove``, ``index``). Everything else that exposes contents
    (iteration, ``list()``/``tuple()``/``sorted()``/``sum()``..., which all iterate,
    slicing, comparisons, ``+``, ``*``, ``copy``, ``sort``, ``repr``, pickling) trips as
    soon as a hidden item is there. CPython's fast paths for exact lists do not apply to
    a subclass, so those built-ins go through the methods below (see tests/core).
    """

    __slots__ = ("_trips", "_where", "_hidden", "_unknown", "_ordered")
    _trips: list[str]
    _where: str
    _hidden: Predicate | None
    _unknown: Predicate | None
    _ordered: bool

    @classmethod
    def arm(
        cls,
        items: Iterable[Any],
        trips: list[str],
        where: str,
        hidden: Predicate | None = None,
        unknown: Predicate | None = None,
        ordered: bool = True,
    ) -> Self:
        h = cls(items)
        h._trips, h._where, h._hidden, h._unknown, h._ordered = trips, where, hidden, unknown, ordered
        return h

    def _leaky(self) -> bool:
        """Whether a hidden item lies here now."""
        if self._hidden is None:
            return list.__len__(self) > 0
        return any(map(self._hidden, list.__iter__(self)))

    def _check_all(self, what: str) -> None:
        if self._leaky():
            _trip(self._trips, self._where, what)

    def _check_item(self, v: Any, what: str) -> None:
        if self._ordered:
            if self._hidden is None or self._hidden(v):
                _trip(self._trips, self._where, what)
        else:
            self._check_all(what)

    def _check_about(self, x: Any, what: str) -> None:
        if (self._unknown is None or self._unknown(x)) and self._leaky():
            _trip(self._trips, self._where, what)

    def __getitem__(self, i: Any) -> Any:
        v = list.__getitem__(self, i)
        if isinstance(i, slice):
            if v and (not self._ordered or self._hidden is None or any(map(self._hidden, v))):
                self._check_all("slice")
        else:
            self._check_item(v, "item")
        return v

    def pop(self, i: SupportsIndex = -1) -> Any:
        self._check_item(list.__getitem__(self, i), "pop")
        return list.pop(self, i)

    def __contains__(self, x: object) -> bool:
        self._check_about(x, "in")
        return list.__contains__(self, x)

    def count(self, x: Any) -> int:
        self._check_about(x, "count")
        return list.count(self, x)

    def remove(self, x: Any) -> None:
        self._check_about(x, "remove")
        list.remove(self, x)

    def index(self, x: Any, *args: Any) -> int:
        if self._ordered:
            self._check_about(x, "index")
        else:
            self._check_all("index")
        return list.index(self, x, *args)

    def __iter__(self) -> Iterator[Any]:
        self._check_all("iteration")
        return list.__iter__(self)

    def __reversed__(self) -> Iterator[Any]:
        self._check_all("reversed")
        return list.__reversed__(self)

    def _compare(self, other: Any, op: Callable[[Any, Any], _R]) -> _R:
        self._check_all("comparison")
        if isinstance(other, HiddenList):
            other._check_all("comparison")
        return op(self, other)

    def __eq__(self, other: Any) -> bool:
        return self._compare(other, list.__eq__)

    def __ne__(self, other: Any) -> bool:
        return self._compare(other, list.__ne__)

    def __lt__(self, other: Any) -> bool:
        return self._compare(other, list.__lt__)

    def __le__(self, other: Any) -> bool:
        return self._compare(other, list.__le__)

    def __gt__(self, other: Any) -> bool:
        return self._compare(other, list.__gt__)

    def __ge__(self, other: Any) -> bool:
        return self._compare(other, list.__ge__)

    __hash__ = None

    def __add__(self, other: Any) -> list[Any]:
        return self._compare(other, list.__add__)

    def __radd__(self, other: Any) -> Any:
        self._check_all("concatenation")
        return NotImplemented  # nothing hidden: the plain list's concatenation may copy us

    def __mul__(self, n: SupportsIndex) -> list[Any]:
        self._check_all("repetition")
        return list.__mul__(self, n)

    __rmul__ = __mul__

    def __imul__(self, n: SupportsIndex) -> Self:  # a write: repeats in place, reads nothing out
        return list.__imul__(self, n)

    def copy(self) -> list[Any]:
        self._check_all("copy")
        return list.copy(self)

    def __copy__(self) -> list[Any]:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        self._check_all("copy")
        return list(list.__iter__(self))

    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple[Any, ...]:
        self._check_all("pickling")
        return (list, (list(list.__iter__(self)),))

    def sort(self, *args: Any, **kwargs: Any) -> None:
        self._check_all("sort")
        list.sort(self, *args, **kwargs)

    def __repr__(self) -> str:
        self._check_all("repr")
        return list.__repr__(self)

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return format(self.__repr__(), spec)


class HiddenDict(dict[Any, Any]):
    """A dict whose keys may be hidden from one player (``unknown(key)``: the player does not
    know that key's whereabouts), recording every read that could expose one.

    Free: asking about a key the player knows (``in``, ``[]``, ``get``, ``pop``,
    ``setdefault``, ``del``), ``len`` and truth, writes (item assignment, ``update``,
    ``clear``). Iteration, ``keys``/``values``/``items``, ``dict()``/``{**d}``/``update``
    from it (CPython takes its slow path, through ``keys()``, for a subclass with its own
    ``__iter__``), comparisons, ``|``, ``copy``, ``popitem``, ``repr`` and pickling trip as
    soon as a hidden key is there, as does asking about a key the player does not know.
    """

    __slots__ = ("_trips", "_where", "_unknown")
    _trips: list[str]
    _where: str
    _unknown: Predicate

    @classmethod
    def arm(cls, items: Any, trips: list[str], where: str, unknown: Predicate) -> Self:
        h = cls(items)
        h._trips, h._where, h._unknown = trips, where, unknown
        return h

    def _leaky(self) -> bool:
        return any(map(self._unknown, dict.__iter__(self)))

    def _check_all(self, what: str) -> None:
        if self._leaky():
            _trip(self._trips, self._where, what)

    def _check_key(self, k: Any, what: str) -> None:
        if self._unknown(k) and self._leaky():
            _trip(self._trips, self._where, what)

    def __contains__(self, k: object) -> bool:
        self._check_key(k, "in")
        return dict.__contains__(self, k)

    def __getitem__(self, k: Any) -> Any:
        self._check_key(k, "item")
        return dict.__getitem__(self, k)

    def get(self, k: Any, default: Any = None) -> Any:
        self._check_key(k, "get")
        return dict.get(self, k, default)

    def pop(self, k: Any, *default: Any) -> Any:
        self._check_key(k, "pop")
        return dict.pop(self, k, *default)

    def setdefault(self, k: Any, default: Any = None) -> Any:
        self._check_key(k, "setdefault")
        return dict.setdefault(self, k, default)

    def __delitem__(self, k: Any) -> None:
        self._check_key(k, "del")
        dict.__delitem__(self, k)

    def __iter__(self) -> Iterator[Any]:
        self._check_all("iteration")
        return dict.__iter__(self)

    def __reversed__(self) -> Iterator[Any]:
        self._check_all("reversed")
        return dict.__reversed__(self)

    def keys(self) -> dict_keys[Any, Any]:
        self._check_all("keys")
        return dict.keys(self)

    def values(self) -> dict_values[Any, Any]:
        self._check_all("values")
        return dict.values(self)

    def items(self) -> dict_items[Any, Any]:
        self._check_all("items")
        return dict.items(self)

    def popitem(self) -> tuple[Any, Any]:
        self._check_all("popitem")
        return dict.popitem(self)

    def copy(self) -> dict[Any, Any]:
        self._check_all("copy")
        return dict.copy(self)

    def __copy__(self) -> dict[Any, Any]:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[Any, Any]:
        return self.copy()

    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple[Any, ...]:
        self._check_all("pickling")
        return (dict, (dict.copy(self),))

    def _compare(self, other: Any, op: Callable[[Any, Any], _R]) -> _R:
        self._check_all("comparison")
        if isinstance(other, HiddenDict):
            other._check_all("comparison")
        return op(self, other)

    def __eq__(self, other: Any) -> bool:
        return self._compare(other, dict.__eq__)

    def __ne__(self, other: Any) -> bool:
        return self._compare(other, dict.__ne__)

    __hash__ = None

    def __or__(self, other: Any) -> dict[Any, Any]:
        return self._compare(other, dict.__or__)

    def __ror__(self, other: Any) -> Any:
        self._check_all("union")
        return NotImplemented

    def __repr__(self) -> str:
        self._check_all("repr")
        return dict.__repr__(self)

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return format(self.__repr__(), spec)


class HiddenSet:
    """Stands for a set whose whole contents are hidden from the player (not a ``set``
    subclass: CPython's set operations read another set's table directly).

    Writes are free (``add``, ``discard``, ``update``, ``difference_update``, ``clear``);
    every read (``in``, ``len``, truth, iteration, comparisons, set algebra, any other
    method) trips. ``data`` is the set itself, for the game's own bookkeeping."""

    __slots__ = ("data", "_trips", "_where")

    def __init__(self, data: set[Any], trips: list[str], where: str) -> None:
        self.data, self._trips, self._where = data, trips, where

    def add(self, x: Any) -> None:
        self.data.add(x)

    def discard(self, x: Any) -> None:
        self.data.discard(x)

    def update(self, *others: Iterable[Any]) -> None:
        self.data.update(*others)

    def difference_update(self, *others: Iterable[Any]) -> None:
        self.data.difference_update(*others)

    def clear(self) -> None:
        self.data.clear()

    def _read(self, what: str) -> NoReturn:
        _trip(self._trips, self._where, what)

    def __getattr__(self, name: str) -> NoReturn:
        self._read(name)

    def __contains__(self, x: object) -> bool:
        self._read("in")

    def __iter__(self) -> Iterator[Any]:
        self._read("iteration")

    def __len__(self) -> int:
        self._read("len")

    def __bool__(self) -> bool:
        self._read("truth")

    def __eq__(self, other: object) -> bool:
        self._read("comparison")

    __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __eq__
    __hash__ = None  # type: ignore[assignment]

    def __or__(self, other: Any) -> NoReturn:
        self._read("set algebra")

    __ror__ = __and__ = __rand__ = __sub__ = __rsub__ = __xor__ = __rxor__ = __or__

    def __repr__(self) -> str:
        self._read("repr")
        return ""

    def __reduce_ex__(self, protocol: SupportsIndex) -> NoReturn:
        self._read("pickling")


def check_option(name: str, value: Any, allowed: tuple[Any, ...]) -> None:
    """Raise InvalidOptions naming the option, the value and what is allowed."""
    if value not in allowed:
        raise InvalidOptions(f"option {name!r} must be one of {list(allowed)}, got {value!r}")
