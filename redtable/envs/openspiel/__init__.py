"""Red Rising and Red North as OpenSpiel games (optional extra ``openspiel``).

    import pyspiel
    import redtable.envs.openspiel            # registers python_red_rising and python_red_north
    game = pyspiel.load_game("python_red_rising", {"players": 4})
    state = game.new_initial_state()           # before the deal: a chance node

Parameters. ``python_red_rising``: ``players`` (2-6, default 4), ``multiplayer_variant``
and ``block_windows`` (the engine's options, default false), ``max_game_length``.
``python_red_north``: ``players`` (2-4, default 2), ``outpost_points`` (the Outposts'
printed Raid Points, default 1), ``outpost_points_by_colour`` (e.g. ``"green:2;red:3"``,
overriding it per colour), ``max_game_length``. Bad values raise ValueError naming the
parameter and what is allowed.

Actions are the fixed codec of :mod:`redtable.envs.actions` (602 ids for Red Rising, 179
for Red North): ``legal_actions()`` are the codec ids of the pending decision's options,
sorted, and ``action_to_string`` is the engine's action string (``"mars"``,
``"block:judge"``). Returns: 1 to the winner, 1/k to each of k tied winners, 0 to the
others (constant-sum 1), at the end only.

Chance: explicit chance nodes for the deal, then the engine's own seeded chance.
All chance in a redtable game comes from one 64-bit seed (the core protocol: ``apply``
resolves die rolls, random cards and shuffles from the state's seeded generator, and a
seed plus the actions replays a game exactly). So a game starts with eight explicit
chance nodes, 256 uniform outcomes each, that draw the seed byte by byte; the eighth
deals. Every later draw (the Rising die, a random card, Red North's shuffles) is then a
function of that seed, which no seat observes: as a game tree this is nature choosing
the hidden seed at the root. Why not chance nodes at each draw: the engines draw inside
``apply`` and the public protocol does not announce a draw before it happens (a shuffle
would be up to 111 chance nodes), so that would mean changing the engines. Why not
OpenSpiel's sampled-stochastic mode: OpenSpiel then serializes the game's generator
with ``GetRNGState``, which pyspiel does not let a Python game provide, so serialization
(and ``random_sim_test`` with it) fails. Consequences: a search that clones the real state
(OpenSpiel's MCTSBot) sees the hidden cards and also the pre-drawn future (die rolls);
``resample_from_infostate`` re-deals the hidden cards and re-seeds the future, which is
what ISMCTS needs and what :class:`DeterminizedBot` gives MCTS. ``deal(game, seed)``
plays the eight chance nodes of a given seed: the same deal as the redtable game with
that seed, and ``record(state)`` is its redtable game record.

Information: see :mod:`.observers` (view JSON strings with a perfect-recall history
digest; the environments' float32 encodings as tensors). ``resample_from_infostate``:
see :meth:`RedtableState.resample_from_infostate`; OpenSpiel's Python ISMCTSBot
(``open_spiel.python.algorithms.ismcts``) calls it. pyspiel's C++ bots cannot call a Python
game's resample (pyspiel does not route ``ResampleFromInfostate`` to Python).

Serialization: ``serialize()`` pickles the state's one attribute as its recipe, the seed
bytes, the action strings and any re-deals (seat and generator seed); deserializing
replays it. ``random_sim_test`` (with serialization) passes for every player count
(tests/envs/test_openspiel.py).

``max_game_length``: neither rulebook bounds a game (Red Rising's players could trade
cards between locations forever), so OpenSpiel's bound is a parameter (3,000 decisions
for Red Rising, 1,000 for Red North; the longest of 300 random games per player count was
515 and 110): a game that reaches it stops and counts as shared by all seats.
"""

from __future__ import annotations

import pyspiel

from ...core import GAMES as TITLE_NAMES
from ...core import title
from .games import (
    DEFS,
    RED_NORTH,
    RED_RISING,
    GameDef,
    RedNorthGame,
    RedRisingGame,
    RedtableGame,
    RedtableState,
    deal,
    generic_definition,
    record,
    seed_bytes,
)

GAMES: dict[str, type[RedtableGame]] = {RED_RISING.short_name: RedRisingGame, RED_NORTH.short_name: RedNorthGame}
_generic: dict[str, GameDef] = {}


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for cls in (RedRisingGame, RedNorthGame):
        d = cls.definition
        if d.short_name not in registered:
            pyspiel.register_game(d.game_type(), cls)


_register()


def definition(game: str) -> GameDef:
    """The OpenSpiel definition of the title ``game``: its ``openspiel`` part, else a generic
    one (:func:`~.games.generic_definition`), registered with pyspiel on first use."""
    if game not in TITLE_NAMES:
        raise ValueError(f"unknown game {game!r}; known games: {', '.join(TITLE_NAMES)}")
    t = title(game)
    d = t.load("openspiel")
    if d is None:
        d = _generic.get(game)
        if d is None:
            d = _generic[game] = generic_definition(t)
    if d.short_name not in GAMES:
        cls = type(f"RedtableGame_{d.short_name}", (RedtableGame,), {"definition": d})
        DEFS[d.short_name] = d
        GAMES[d.short_name] = cls
        if d.short_name not in set(pyspiel.registered_names()):
            pyspiel.register_game(d.game_type(), cls)
    return d


def short_name(game: str) -> str:
    """OpenSpiel's name of the title ``game`` (``python_red_north``)."""
    return definition(game).short_name


def load(game: str, **params) -> RedtableGame:
    """``pyspiel.load_game`` by redtable name: ``load("red-north", players=3)``."""
    return pyspiel.load_game(short_name(game), params)


def __getattr__(name: str):
    # the bots import OpenSpiel's algorithms (absl, scipy...): only when asked for
    if name in ("DeterminizedBot", "RedtableBot", "TimedISMCTSBot", "TimedMCTSBot", "make_bot", "play_game"):
        from . import bots

        return getattr(bots, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "GAMES",
    "definition",
    "short_name",
    "RedtableGame",
    "RedRisingGame",
    "RedNorthGame",
    "RedtableState",
    "deal",
    "record",
    "seed_bytes",
    "load",
    "DeterminizedBot",
    "RedtableBot",
    "TimedISMCTSBot",
    "TimedMCTSBot",
    "make_bot",
    "play_game",
]
