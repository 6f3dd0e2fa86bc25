"""Red Rising's rules as one frozen value: every card's abilities, compiled once.

:func:`build_rules` compiles the families' typed declarations (:mod:`.ability_table`) in
the order given into a :class:`Rules`: read-only tables of the effect nodes the engine
runs (card index -> effect tuple, the form of the hot path). :data:`RULES` is the game's,
built here explicitly from :data:`.abilities.FAMILIES`; :class:`~.game.RedRising` plays by
it (``RedRising(rules=...)`` plays by another value), and every reader (the engine through
``state.game.rules``, the gallery, the rules page, the action space) reads it instead of
counting on an import having filled a table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .abilities import FAMILIES
from .ability_table import AbilityTable, merge
from .engine import OPS

__all__ = ["BLOCK_SOVEREIGN", "BLOCK_STEAL_BANISH", "DEPLOY", "END_OF_GAME", "RULES", "Rules", "build_rules"]


@dataclass(frozen=True)
class Rules:
    """Every card ability of a game of Red Rising: card index -> effect node, per kind."""

    #: deploy abilities
    deploy: Mapping[int, tuple]
    #: end-of-game abilities (resolved before scoring)
    end_of_game: Mapping[int, tuple]
    #: cards that may be revealed to stop an attempt to steal or banish their owner's cards
    block_steal_banish: frozenset[int]
    #: cards banished to keep the Sovereign token -> what happens after blocking
    block_sovereign: Mapping[int, tuple]
    #: the families compiled, in order
    families: tuple[str, ...] = ()

    def __reduce__(self):  # a game (and its rules) crosses to worker processes
        if self is RULES:
            return (_default_rules, ())
        return (
            Rules,
            (
                dict(self.deploy),
                dict(self.end_of_game),
                self.block_steal_banish,
                dict(self.block_sovereign),
                self.families,
            ),
        )


def _default_rules() -> Rules:
    return RULES


def build_rules(*tables: AbilityTable) -> Rules:
    """The rules of ``tables`` compiled in this order (a later family replaces an earlier
    one's ability only where it says ``override=True``). ValueError names a card two
    families define differently by accident, or an effect whose step the engine does not know."""
    merged = merge(*tables)
    for kind, table in merged.items():
        for c, effect in table.items():
            if effect[0] not in OPS:
                raise ValueError(f"the {kind} ability of card {c} starts with an unknown step {effect[0]!r}")
    blockers: list[int] = []
    for t in tables:
        blockers += [c for c in t.steal_banish_blockers if c not in blockers]
    return Rules(
        deploy=MappingProxyType(merged["deploy"]),
        end_of_game=MappingProxyType(merged["end_of_game"]),
        block_steal_banish=frozenset(blockers),
        block_sovereign=MappingProxyType(merged["block_sovereign"]),
        families=tuple(t.family for t in tables),
    )


RULES = build_rules(*FAMILIES)

# The tables of the game's rules under the names the engine's readers used.
DEPLOY = RULES.deploy
END_OF_GAME = RULES.end_of_game
BLOCK_STEAL_BANISH = RULES.block_steal_banish
BLOCK_SOVEREIGN = RULES.block_sovereign
