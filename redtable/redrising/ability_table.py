"""Card abilities declared as data, and the one place that installs them in the engine.

Each family of cards (:mod:`.abilities` for the shared blocks, :mod:`.abilities_gold`,
:mod:`.abilities_highcaste`, :mod:`.abilities_lowcaste`) fills an :class:`AbilityTable`
of its own while it is imported; nothing reaches the engine's tables (``DEPLOY``,
``END_OF_GAME``, ``BLOCK_STEAL_BANISH``, ``BLOCK_SOVEREIGN``) until :func:`install` is
called with the tables in an explicit order (:mod:`.abilities` does it). The families
import this module, never each other or :mod:`.abilities`, so the dependencies run one
way: ``abilities -> abilities_* -> ability_table -> engine``, and the result does not
depend on which module was imported first.

A later table may replace an earlier table's ability for a card only when it says so
(``override=True``); declaring the same effect again is harmless.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import BY_SLUG
from .engine import BLOCK_SOVEREIGN, BLOCK_STEAL_BANISH, DEPLOY, END_OF_GAME


def card(slug: str) -> int:
    """The card index of a slug; KeyError names an unknown slug."""
    try:
        return BY_SLUG[slug]
    except KeyError:
        raise KeyError(f"unknown card slug {slug!r}") from None


@dataclass
class AbilityTable:
    """One family's abilities: card -> effect node, per kind of ability."""

    family: str
    deploys: dict[int, tuple] = field(default_factory=dict)
    end_of_games: dict[int, tuple] = field(default_factory=dict)
    steal_banish_blockers: list[int] = field(default_factory=list)
    sovereign_blockers: dict[int, tuple] = field(default_factory=dict)
    overrides: set[tuple[str, int]] = field(default_factory=set)

    def deploy(self, slug: str, effect: tuple, override: bool = False) -> None:
        """The card's deploy ability."""
        self._put("deploy", self.deploys, slug, effect, override)

    def end_of_game(self, slug: str, effect: tuple, override: bool = False) -> None:
        """The card's end-of-game ability (resolved before scoring)."""
        self._put("end_of_game", self.end_of_games, slug, effect, override)

    def block_steal_banish(self, *slugs: str) -> None:
        """Cards that may be revealed to stop an attempt to steal or banish their owner's cards."""
        for slug in slugs:
            c = card(slug)
            if c not in self.steal_banish_blockers:
                self.steal_banish_blockers.append(c)

    def block_sovereign(self, slug: str, then: tuple, override: bool = False) -> None:
        """A card banished to keep the Sovereign token; ``then`` happens after blocking."""
        self._put("block_sovereign", self.sovereign_blockers, slug, then, override)

    def _put(self, kind: str, table: dict[int, tuple], slug: str, effect: tuple, override: bool) -> None:
        if not isinstance(effect, tuple) or not effect:
            raise TypeError(
                f"{self.family}: the {kind} ability of {slug!r} must be an effect node "
                f"(a non-empty tuple), got {effect!r}"
            )
        c = card(slug)
        table[c] = effect
        if override:
            self.overrides.add((kind, c))


_KINDS = (
    ("deploy", "deploys", DEPLOY),
    ("end_of_game", "end_of_games", END_OF_GAME),
    ("block_sovereign", "sovereign_blockers", BLOCK_SOVEREIGN),
)


def merge(*tables: AbilityTable) -> dict[str, dict[int, tuple]]:
    """The abilities of ``tables`` combined in order (later tables override where they say
    so), per kind; ValueError names a card two families define differently by accident."""
    out: dict[str, dict[int, tuple]] = {kind: {} for kind, _, _ in _KINDS}
    source: dict[tuple[str, int], str] = {}
    for t in tables:
        for kind, attr, _ in _KINDS:
            merged = out[kind]
            for c, effect in getattr(t, attr).items():
                if c in merged and merged[c] != effect and (kind, c) not in t.overrides:
                    raise ValueError(
                        f"{t.family}: the {kind} ability of {_slug(c)!r} differs from the one in "
                        f"{source[kind, c]}; pass override=True if it replaces it"
                    )
                merged[c] = effect
                source[kind, c] = t.family
    return out


def _slug(c: int) -> str:
    return next(s for s, i in BY_SLUG.items() if i == c)


def install(*tables: AbilityTable) -> None:
    """Copy the abilities of ``tables`` (in this order) into the engine's tables. Installing
    the same tables again changes nothing."""
    merged = merge(*tables)
    for kind, _, engine_table in _KINDS:
        engine_table.update(merged[kind])
    for t in tables:
        BLOCK_STEAL_BANISH.update(t.steal_banish_blockers)
