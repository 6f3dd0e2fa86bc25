"""The two games as OpenSpiel Python games: types, parameters, states and serialization.

Everything here drives the engines through the core protocol only (``decision``,
``apply``, ``view``, ``resample``, ``clone``, ``returns``) plus the fixed action codec of
:mod:`redtable.envs.actions` and the view encoders of :mod:`redtable.envs.observations`.
The module docstring of :mod:`redtable.envs.openspiel` explains the choices (chance,
information states, serialization); this one holds the machinery.

A pyspiel state keeps a single Python attribute, ``_core`` (a :class:`_Core`), because
OpenSpiel clones a Python state by building a fresh initial state and deep-copying each
attribute, and serializes it by pickling them: ``_Core.__deepcopy__`` is the engine's own
``clone`` plus a few short lists, and ``_Core.__reduce__`` is the recipe "seed, actions,
resamples", replayed on load.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar

import orjson
import pyspiel

from ...bots.common import CanonicalRng
from ...core import Game as CoreGame
from ...core import GameRecord, IllegalAction, RedtableError, Title, make_game
from ...core import State as CoreState
from ...rednorth.title import TITLE as RED_NORTH_TITLE
from ...redrising.title import TITLE as RED_RISING_TITLE
from ..actions import ActionCodec, codec
from ..observations import Encoder, encoder
from ..render import render_view
from .chance import CHANCE_OUTCOMES, SEED_BYTES  # noqa: F401 - SEED_BYTES re-exported

_MASK64 = (1 << 64) - 1


# ====================================================================== game definitions
@dataclass(frozen=True)
class GameDef:
    """What OpenSpiel needs to know about one redtable game, and how its parameters map to
    the engine's options."""

    name: str  # the redtable title's name
    short_name: str  # the OpenSpiel name ("python_red_rising")
    long_name: str
    min_players: int
    max_players: int
    parameters: dict[str, Any]  # OpenSpiel parameter -> default (its type is the default's)
    options: Callable[[dict[str, Any]], dict[str, Any]] = field(repr=False)

    def game_type(self) -> pyspiel.GameType:
        return pyspiel.GameType(
            short_name=self.short_name,
            long_name=self.long_name,
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.CONSTANT_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=self.max_players,
            min_num_players=self.min_players,
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            provides_factored_observation_string=False,
            parameter_specification=dict(self.parameters),
        )


def _rr_options(p: dict[str, Any]) -> dict[str, Any]:
    return {
        "players": p["players"],
        "multiplayer_variant": p["multiplayer_variant"],
        "block_windows": p["block_windows"],
    }


def _rn_options(p: dict[str, Any]) -> dict[str, Any]:
    by_colour = p["outpost_points_by_colour"]
    if not by_colour:
        return {"players": p["players"], "outpost_points": p["outpost_points"]}
    from ...rednorth.cards import COLOURS

    points: dict[str, int] = {c: p["outpost_points"] for c in COLOURS}
    # ';' and ':' because OpenSpiel's game strings use ',' and '=' themselves
    for item in by_colour.split(";"):
        colour, colon, value = item.strip().partition(":")
        colour, value = colour.strip(), value.strip()
        if not colon or colour not in COLOURS or not value.lstrip("-").isdigit():
            raise ValueError(
                f"parameter 'outpost_points_by_colour' must look like 'green:2;red:3' with colours "
                f"from {', '.join(COLOURS)} and whole numbers; got {by_colour!r} (at {item.strip()!r})"
            )
        points[colour] = int(value)
    return {"players": p["players"], "outpost_points": points}


# Upper bounds on the number of decisions (chance nodes not counted). Neither rulebook
# bounds a game's length (Red Rising's players could in principle trade cards between
# locations without ever reaching a threshold), so the adapter needs one: it is far above
# anything measured (the longest of 300 random games per player count: 515 decisions in
# 6-player Red Rising, 110 in 4-player Red North). A game that reaches it stops there
# and counts as shared by all seats; the parameter changes it.
RR_MAX_GAME_LENGTH = 3000
RN_MAX_GAME_LENGTH = 1000

RED_RISING = GameDef(
    name=RED_RISING_TITLE.name,
    short_name="python_red_rising",
    long_name="Red Rising (redtable)",
    min_players=2,
    max_players=6,
    parameters={
        "players": 4,
        "multiplayer_variant": False,
        "block_windows": False,
        "max_game_length": RR_MAX_GAME_LENGTH,
    },
    options=_rr_options,
)
RED_NORTH = GameDef(
    name=RED_NORTH_TITLE.name,
    short_name="python_red_north",
    long_name="Red North (redtable)",
    min_players=2,
    max_players=4,
    parameters={
        "players": 2,
        "outpost_points": 1,
        "outpost_points_by_colour": "",
        "max_game_length": RN_MAX_GAME_LENGTH,
    },
    options=_rn_options,
)
DEFS: dict[str, GameDef] = {d.short_name: d for d in (RED_RISING, RED_NORTH)}
GENERIC_MAX_GAME_LENGTH = 1000


def generic_definition(t: Title) -> GameDef:
    """The definition of a title that gives none (its ``openspiel`` part): ``python_<name>``,
    its player range, the parameters ``players`` (default the fewest) and ``max_game_length``."""
    lo, hi = t.players
    return GameDef(
        name=t.name,
        short_name="python_" + t.name.replace("-", "_"),
        long_name=f"{t.display_name()} (redtable)",
        min_players=lo,
        max_players=hi,
        parameters={"players": lo, "max_game_length": GENERIC_MAX_GAME_LENGTH},
        options=lambda p: {"players": p["players"]},
    )


def check_parameters(d: GameDef, params: dict[str, Any] | None) -> dict[str, Any]:
    """The full parameter dict (defaults filled in), every value checked against the type
    of its default; a ValueError names the parameter, the value and what is allowed."""
    out = dict(d.parameters)
    for key, value in (params or {}).items():
        if key not in d.parameters:
            raise ValueError(
                f"unknown parameter {key!r} for {d.short_name}; its parameters are: {', '.join(d.parameters)}"
            )
        default = d.parameters[key]
        if isinstance(default, bool):
            ok = isinstance(value, bool)
        elif isinstance(default, int):
            ok = isinstance(value, int) and not isinstance(value, bool)
        else:
            ok = isinstance(value, str)
        if not ok:
            raise ValueError(f"parameter {key!r} of {d.short_name} must be {type(default).__name__}, got {value!r}")
        out[key] = value
    if not d.min_players <= out["players"] <= d.max_players:
        raise ValueError(
            f"parameter 'players' of {d.short_name} must be from {d.min_players} to "
            f"{d.max_players}, got {out['players']}"
        )
    if out["max_game_length"] < 1:
        raise ValueError(
            f"parameter 'max_game_length' of {d.short_name} must be a positive number of "
            f"decisions, got {out['max_game_length']}"
        )
    return out


# ====================================================================== the shared, static part
class Spec:
    """One parametrised game, shared by all its states: the engine game, the codec, the
    encoder and the parameters (read-only)."""

    __slots__ = ("d", "params", "core_game", "codec", "encoder", "players", "max_len", "title")

    def __init__(self, d: GameDef, params: dict[str, Any]) -> None:
        self.d = d
        self.params = params
        try:
            self.core_game: CoreGame = make_game(d.name, **d.options(params))
        except RedtableError as e:  # InvalidOptions: the engine's own message names the option
            raise ValueError(f"{d.short_name}: {e}") from None
        self.codec: ActionCodec = codec(d.name)
        self.encoder: Encoder = encoder(d.name)
        self.players: int = params["players"]
        self.max_len: int = params["max_game_length"]
        self.title: str = self.core_game.title


@lru_cache(maxsize=64)
def _spec(short_name: str, items: tuple) -> Spec:
    return Spec(DEFS[short_name], dict(items))


def spec_for(short_name: str, params: dict[str, Any]) -> Spec:
    """The (cached) spec of a game and its full parameters: deserialized states share it."""
    d = DEFS[short_name]
    return _spec(short_name, tuple(sorted(check_parameters(d, params).items())))


# ====================================================================== the state's data
def seed_bytes(seed: int) -> list[int]:
    """The eight chance outcomes that deal the game with ``seed`` (little-endian bytes of the
    seed modulo 2**64, as the engine's generator keeps it)."""
    s = seed & _MASK64
    return [(s >> (8 * i)) & 0xFF for i in range(SEED_BYTES)]


class _Core:
    """A state's data: the engine state once dealt, and what the information states need.

    ``marks[0]`` is the number of events after the deal, ``marks[i]`` after decision ``i``;
    ``movers[i]`` is ``(seat, decision kind)`` of decision ``i`` (public in both games: every
    seat's view shows who decides and what kind of decision it is). ``resamples`` lists
    ``(decisions so far, seat, generator seed)`` of each re-deal this state went through, so
    that it can be rebuilt. ``digests`` caches the running history digest per observer
    (one per seat, then the public one) as ``(steps covered, digest)``.
    """

    __slots__ = ("spec", "drawn", "seed", "es", "marks", "movers", "resamples", "digests")

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.drawn: list[int] = []
        self.seed: int | None = None
        self.es: CoreState | None = None
        self.marks: list[int] = []
        self.movers: list[tuple[int, str]] = []
        self.resamples: tuple[tuple[int, int, int], ...] = ()
        self.digests: list[tuple[int, bytes] | None] = [None] * (spec.players + 1)

    # ------------------------------------------------------------------ copies
    def copy(self, es: CoreState | None) -> _Core:
        c = _Core.__new__(_Core)
        c.spec, c.seed, c.resamples = self.spec, self.seed, self.resamples
        c.drawn = self.drawn[:]
        c.es = es
        c.marks = self.marks[:]
        c.movers = self.movers[:]
        c.digests = self.digests[:]
        return c

    def __deepcopy__(self, memo) -> _Core:
        return self.copy(None if self.es is None else self.es.clone())

    def __reduce__(self):
        es = self.es
        actions = [] if es is None else list(es.history)
        return (
            _rebuild,
            (self.spec.d.short_name, self.spec.params, list(self.drawn), self.seed, actions, self.resamples),
        )

    def dealt(self) -> CoreState:
        """The game itself, which exists once the deal's chance outcomes are all drawn."""
        if self.es is None:
            raise ValueError("the game is not dealt yet: draw the deal's chance outcomes first")
        return self.es

    # ------------------------------------------------------------------ progress
    @property
    def decisions(self) -> int:
        return len(self.movers)

    def truncated(self) -> bool:
        return len(self.movers) >= self.spec.max_len and self.es is not None and self.es.decision() is not None

    def terminal(self) -> bool:
        es = self.es
        return es is not None and (es.decision() is None or len(self.movers) >= self.spec.max_len)

    def draw(self, byte: int) -> None:
        """One chance outcome of the deal; the eighth deals the game."""
        if isinstance(byte, bool) or not isinstance(byte, int) or not 0 <= byte < CHANCE_OUTCOMES:
            raise ValueError(f"a chance outcome of the deal is a byte 0-255, got {byte!r}")
        self.drawn.append(byte)
        if len(self.drawn) == SEED_BYTES:
            self.seed = sum(b << (8 * i) for i, b in enumerate(self.drawn))
            self.es = self.spec.core_game.new_initial_state(self.seed)
            self.marks.append(len(self.es.events))

    def play(self, move: str) -> None:
        """Apply one option of the pending decision (an action string)."""
        es = self.dealt()
        d = es.decision()
        if d is None or len(self.movers) >= self.spec.max_len:
            raise ValueError(f"the game is over; no action can be applied (got {move!r})")
        es.apply(move)  # IllegalAction (the options named) if it is not one of them
        self.movers.append((d.player, d.kind))
        self.marks.append(len(es.events))

    def resample(self, player: int, seed: int) -> _Core:
        """A copy in which every card ``player`` cannot see is re-dealt (the engine's
        ``resample`` with the bots' canonical generator) and future chance re-seeded."""
        for slot in range(self.spec.players):  # the histories up to now, from the real events
            self.digest(slot)
        self.digest(None)
        c = self.copy(self.dealt().resample(player, CanonicalRng(seed)))
        c.resamples = self.resamples + ((len(self.movers), player, seed),)
        # An engine may keep only ``player``'s events in a re-deal (Red North does), so the
        # old event counts mean nothing there: every digest is already up to date, and the
        # steps from now on count from the re-deal's events.
        c.marks = [len(c.dealt().events)] * len(self.marks)
        return c

    # ------------------------------------------------------------------ history digest
    def digest(self, seat: int | None) -> bytes:
        """A 128-bit digest of everything ``seat`` (None: a spectator) observed so far, step
        by step: the deal's events it may see, then for each decision who took it and of
        which kind, the action when ``seat`` took it, and the events it may see. Chained per
        step, so it depends on the information only, never on when it was asked for."""
        slot = self.spec.players if seat is None else seat
        cached = self.digests[slot]
        done, h = cached if cached is not None else (0, b"")
        total = len(self.movers) + 1
        if done == total:
            return h
        es = self.dealt()
        events, history = es.events, es.history
        marks, movers = self.marks, self.movers
        blake = hashlib.blake2b
        dumps = orjson.dumps
        for step in range(done, total):
            if step == 0:
                parts = [b"deal"]
                lo = 0
            else:
                p, kind = movers[step - 1]
                head = f"{p}:{kind}" + (f"={history[step - 1]}" if p == seat else "")
                parts = [head.encode()]
                lo = marks[step - 1]
            for e in events[lo : marks[step]]:
                if e.to is None or (seat is not None and seat in e.to):
                    parts.append(dumps((e.kind, e.data, e.to)))
            h = blake(h + b"|".join(parts), digest_size=16).digest()
        self.digests[slot] = (total, h)
        return h

    def own_actions(self, seat: int) -> list[str]:
        history = self.dealt().history
        return [history[i] for i, (p, _) in enumerate(self.movers) if p == seat]


def _rebuild(
    short_name: str, params: dict[str, Any], drawn: list[int], seed: int | None, actions: list[str], resamples: tuple
) -> _Core:
    """Unpickle a :class:`_Core`: deal, then replay the actions with the re-deals at their steps."""
    core = _Core(spec_for(short_name, params))
    if seed is None:
        for b in drawn:
            core.draw(b)
        return core
    for b in seed_bytes(seed):
        core.draw(b)
    pending = list(resamples)
    for i, move in enumerate(actions):
        while pending and pending[0][0] == i:
            _, player, s = pending.pop(0)
            core = core.resample(player, s)
        core.play(move)
    for _, player, s in pending:
        core = core.resample(player, s)
    return core


# ====================================================================== pyspiel classes
class RedtableGame(pyspiel.Game):
    """A redtable game as a pyspiel game (subclassed once per game below)."""

    definition: ClassVar[GameDef]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        d = self.definition
        full = check_parameters(d, params)
        spec = spec_for(d.short_name, full)
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.codec.n,
            max_chance_outcomes=CHANCE_OUTCOMES,
            num_players=spec.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=spec.max_len,
        )
        super().__init__(d.game_type(), info, full)
        self.spec = spec

    def new_initial_state(self) -> RedtableState:
        """The state before the deal: eight chance nodes draw the 64-bit seed (see :func:`deal`)."""
        return RedtableState(self)

    def max_chance_nodes_in_history(self) -> int:
        return SEED_BYTES

    def make_py_observer(self, iig_obs_type=None, params=None):
        from .observers import RedtableObserver

        return RedtableObserver(self.spec, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class RedRisingGame(RedtableGame):
    definition = RED_RISING


class RedNorthGame(RedtableGame):
    definition = RED_NORTH


class RedtableState(pyspiel.State):
    """A pyspiel state over a redtable engine state (see the package docstring)."""

    def __init__(self, game: RedtableGame) -> None:
        super().__init__(game)
        self.core = _Core(game.spec)

    # ------------------------------------------------------------------ whose move
    def current_player(self) -> int:
        core = self.core
        es = core.es
        if es is None:
            return pyspiel.PlayerId.CHANCE
        d = es.decision()
        if d is None or len(core.movers) >= core.spec.max_len:
            return pyspiel.PlayerId.TERMINAL
        return d.player

    def is_terminal(self) -> bool:
        return self.core.terminal()

    def _legal_actions(self, player: int) -> list[int]:
        core = self.core
        if core.es is None:  # the deal: only chance moves
            return []
        d = core.es.decision()
        if d is None or d.player != player or len(core.movers) >= core.spec.max_len:
            return []
        index = core.spec.codec.index
        return sorted([index[o] for o in d.options])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.core.es is not None:
            raise ValueError("not a chance node: the game is dealt (chance outcomes exist only before the deal)")
        p = 1.0 / CHANCE_OUTCOMES
        return [(b, p) for b in range(CHANCE_OUTCOMES)]

    def _apply_action(self, action: int) -> None:
        core = self.core
        if core.es is None:
            core.draw(action)
            return
        try:
            move = core.spec.codec.decode(action)
        except (IndexError, TypeError, ValueError) as e:
            raise ValueError(f"bad action {action!r}: {e}") from None
        try:
            core.play(move)
        except IllegalAction as e:
            legal = self._legal_actions(e.player if e.player is not None else -1)
            raise ValueError(f"illegal action {action} ({move!r}): {e}; legal action ids: {legal}") from None

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal: seed byte {action}"
        try:
            return self.core.spec.codec.decode(action)
        except (IndexError, TypeError, ValueError) as e:
            raise ValueError(f"bad action {action!r}: {e}") from None

    # ------------------------------------------------------------------ results
    def returns(self) -> list[float]:
        core = self.core
        n = core.spec.players
        if not core.terminal():
            return [0.0] * n
        es = core.dealt()  # a terminal game is dealt
        if es.decision() is not None:  # stopped at max_game_length: shared by all seats
            return [1.0 / n] * n
        return [float(r) for r in es.returns()]

    # ------------------------------------------------------------------ hidden information
    def resample_from_infostate(self, player_id: int, probability_sampler) -> RedtableState:
        """A state ``player_id`` cannot tell from this one, for search (OpenSpiel's ISMCTS).

        Every card the seat cannot see is re-dealt consistently with what it has seen (the
        engine's ``resample``, with the canonical generator of redtable's own ISMCTS), and
        future chance is re-seeded, all from ``probability_sampler`` (a callable returning
        uniform numbers in [0, 1), such as ``pyspiel.UniformProbabilitySampler``). Before the
        deal, the seed bytes drawn so far (seen by nobody) are drawn again.

        Only ``player_id``'s information state is meaningful in the result: the other seats'
        private event history is the real one, not re-dealt. ``history()`` is this state's
        (kept for move numbers); ``serialize()`` records the re-deal, so it round-trips."""
        core = self.core
        n = core.spec.players
        if isinstance(player_id, bool) or not isinstance(player_id, int) or not 0 <= player_id < n:
            raise ValueError(f"player_id must be a seat from 0 to {n - 1}, got {player_id!r}")
        out = self.clone()
        if core.es is None:
            out.core.drawn = [_uniform_int(probability_sampler, CHANCE_OUTCOMES) for _ in core.drawn]
            return out
        seed = 0
        for _ in range(4):
            seed = (seed << 16) | _uniform_int(probability_sampler, 1 << 16)
        out.core = core.resample(player_id, seed)
        return out

    # ------------------------------------------------------------------ redtable side
    def redtable_state(self) -> CoreState:
        """The engine state (after the deal). Read it only through the core protocol a bot
        may use (``decision``, ``view(seat)``, ``resample``); apply actions through this
        pyspiel state, which keeps its own records in step."""
        es = self.core.es
        if es is None:
            raise ValueError("the game is not dealt yet: apply the 8 chance outcomes first (see deal())")
        return es

    def decisions(self) -> int:
        """How many player decisions were taken (chance nodes not counted)."""
        return self.core.decisions

    def seed(self) -> int | None:
        """The deal's 64-bit seed (None before the deal): the seed of the redtable game."""
        return self.core.seed

    def __str__(self) -> str:
        core = self.core
        spec = core.spec
        es = core.es
        if es is None:
            return f"{spec.title}, {spec.players} players: dealing, {len(core.drawn)} of {SEED_BYTES} seed bytes drawn"
        head = f"{spec.title}, {spec.players} players, seed {core.seed}, decision {core.decisions}"
        for _, p, s in core.resamples:
            head += f", re-dealt for seat {p} (generator seed {s})"
        if core.truncated():
            head += f", stopped at max_game_length={spec.max_len}"
        parts = [head]
        for p in range(spec.players):
            parts.append(f"--- seat {p} sees ---\n" + render_view(spec.d.name, es.view(p)))
        return "\n".join(parts)


def _uniform_int(sampler, n: int) -> int:
    u = sampler()
    try:
        u = float(u)
    except (TypeError, ValueError):
        raise ValueError(f"probability_sampler must return numbers in [0, 1), got {u!r}") from None
    if not 0.0 <= u < 1.0:
        raise ValueError(f"probability_sampler must return numbers in [0, 1), got {u!r}")
    return int(u * n)


# ====================================================================== helpers
def deal(game: RedtableGame, seed: int) -> RedtableState:
    """A new state of ``game`` dealt with ``seed``: the same deal and chance as the redtable
    game ``game.spec.core_game.new_initial_state(seed)`` (so :func:`record` of the finished
    state replays with ``redtable replay``)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    state = game.new_initial_state()
    for b in seed_bytes(seed):
        state.apply_action(b)
    return state


def record(state: RedtableState) -> GameRecord:
    """The redtable :class:`~redtable.core.GameRecord` (seed and actions) of a dealt state,
    for ``redtable replay`` and the rest of the toolchain. A re-dealt state (from
    ``resample_from_infostate``) has no such record and raises ValueError."""
    core = state.core
    if core.es is None or core.seed is None:
        raise ValueError("the game is not dealt yet: it has no redtable record")
    if core.resamples:
        raise ValueError("a re-dealt state (resample_from_infostate) is not a real game: it has no record")
    return GameRecord.of(core.es, core.seed)
