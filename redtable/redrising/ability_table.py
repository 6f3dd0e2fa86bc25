"""Card abilities declared as typed data, one family at a time.

An ability is one of four typed declarations (:class:`Deploy`, :class:`EndOfGame`,
:class:`BlocksStealBanish`, :class:`BlocksSovereign`), made by the constructors of an
:class:`AbilityTable` (``table.deploy(slug, effect)``...), which check the slug and the
effect node as they are written. Each family of cards (:mod:`.abilities` for the shared
blocks, :mod:`.abilities_gold`, :mod:`.abilities_highcaste`, :mod:`.abilities_lowcaste`)
declares its table; nothing reaches the engine until :func:`redtable.redrising.rules.build_rules`
compiles the tables, in an explicit order, into the frozen :class:`~.rules.Rules` value
the game reads (the effect nodes stay the tuples the engine runs). The families import
this module, never each other or :mod:`.abilities`, so the dependencies run one way:
``rules -> abilities -> abilities_* -> ability_table``.

A later table may replace an earlier table's ability for a card only when it says so
(``override=True``); declaring the same effect again is harmless.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import BY_SLUG


def card(slug: str) -> int:
    """The card index of a slug; KeyError names an unknown slug."""
    try:
        return BY_SLUG[slug]
    except KeyError:
        raise KeyError(f"unknown card slug {slug!r}") from None


@dataclass(frozen=True)
class Deploy:
    """The card's deploy ability: ``effect`` runs when it is deployed."""

    card: int
    effect: tuple
    override: bool = False
    kind = "deploy"


@dataclass(frozen=True)
class EndOfGame:
    """The card's end-of-game ability (resolved before scoring)."""

    card: int
    effect: tuple
    override: bool = False
    kind = "end_of_game"


@dataclass(frozen=True)
class BlocksStealBanish:
    """The card may be revealed to stop an attempt to steal or banish its owner's cards."""

    card: int
    kind = "block_steal_banish"


@dataclass(frozen=True)
class BlocksSovereign:
    """The card is banished to keep the Sovereign token; ``effect`` happens after blocking."""

    card: int
    effect: tuple
    override: bool = False
    kind = "block_sovereign"


Declaration = Deploy | EndOfGame | BlocksStealBanish | BlocksSovereign


@dataclass
class AbilityTable:
    """One family's abilities: its typed declarations, in the order written."""

    family: str
    declarations: list[Declaration] = field(default_factory=list)

    def deploy(self, slug: str, effect: tuple, override: bool = False) -> Deploy:
        """The card's deploy ability."""
        d = Deploy(card(slug), self._effect("deploy", slug, effect), override)
        self.declarations.append(d)
        return d

    def end_of_game(self, slug: str, effect: tuple, override: bool = False) -> EndOfGame:
        """The card's end-of-game ability (resolved before scoring)."""
        d = EndOfGame(card(slug), self._effect("end_of_game", slug, effect), override)
        self.declarations.append(d)
        return d

    def block_steal_banish(self, *slugs: str) -> None:
        """Cards that may be revealed to stop an attempt to steal or banish their owner's cards."""
        for slug in slugs:
            self.declarations.append(BlocksStealBanish(card(slug)))

    def block_sovereign(self, slug: str, then: tuple, override: bool = False) -> BlocksSovereign:
        """A card banished to keep the Sovereign token; ``then`` happens after blocking."""
        d = BlocksSovereign(card(slug), self._effect("block_sovereign", slug, then), override)
        self.declarations.append(d)
        return d

    def _effect(self, kind: str, slug: str, effect: tuple) -> tuple:
        if not isinstance(effect, tuple) or not effect:
            raise TypeError(
                f"{self.family}: the {kind} ability of {slug!r} must be an effect node "
                f"(a non-empty tuple), got {effect!r}"
            )
        return effect

    # ------------------------------------------------------------------ per kind
    def _table(self, cls: type) -> dict[int, tuple]:
        out: dict[int, tuple] = {}
        for d in self.declarations:
            if isinstance(d, cls):
                out[d.card] = d.effect  # type: ignore[union-attr]
        return out

    @property
    def deploys(self) -> dict[int, tuple]:
        return self._table(Deploy)

    @property
    def end_of_games(self) -> dict[int, tuple]:
        return self._table(EndOfGame)

    @property
    def sovereign_blockers(self) -> dict[int, tuple]:
        return self._table(BlocksSovereign)

    @property
    def steal_banish_blockers(self) -> list[int]:
        out: list[int] = []
        for d in self.declarations:
            if isinstance(d, BlocksStealBanish) and d.card not in out:
                out.append(d.card)
        return out


_KINDS = ("deploy", "end_of_game", "block_sovereign")


def merge(*tables: AbilityTable) -> dict[str, dict[int, tuple]]:
    """The abilities of ``tables`` combined in order (later tables override where they say
    so), per kind; ValueError names a card two families define differently by accident."""
    out: dict[str, dict[int, tuple]] = {kind: {} for kind in _KINDS}
    source: dict[tuple[str, int], str] = {}
    for t in tables:
        overrides = {(d.kind, d.card) for d in t.declarations if getattr(d, "override", False)}
        per_kind = {"deploy": t.deploys, "end_of_game": t.end_of_games, "block_sovereign": t.sovereign_blockers}
        for kind in _KINDS:
            merged = out[kind]
            for c, effect in per_kind[kind].items():
                if c in merged and merged[c] != effect and (kind, c) not in overrides:
                    raise ValueError(
                        f"{t.family}: the {kind} ability of {_slug(c)!r} differs from the one in "
                        f"{source[kind, c]}; pass override=True if it replaces it"
                    )
                merged[c] = effect
                source[kind, c] = t.family
    return out


def _slug(c: int) -> str:
    return next(s for s, i in BY_SLUG.items() if i == c)
