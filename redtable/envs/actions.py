"""Fixed, complete enumerations of each game's action strings (the RL action spaces).

An engine offers its choices as JSON strings (``state.decision().options``). A learning
agent needs a fixed ``Discrete(n)`` space instead, so each game gets an
:class:`ActionCodec`: an ordered tuple of every action string the engine can ever offer,
with ``encode(action) -> index`` and ``decode(index) -> action``. The enumerations are
derived from the games' vocabularies (card tables, locations, colours, seats, effect
data), not from what random play happened to visit, and the bounds on numbered actions
are justified below. ``tests/envs/test_actions.py`` checks that every option offered in
many random games of every player count encodes and round-trips.

The index of an action string is the same whatever the decision kind: the engine gives a
string its meaning from the pending decision (``"mars"`` is a deploy location, a place to
gain from, or a face of the Rising die), and the mask built from the pending options says
which indices are legal now.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from ..core import GAMES, title


class ActionCodec:
    """A bijection between a game's action strings and ``range(len(codec))``."""

    def __init__(self, game: str, actions: Iterable[str]) -> None:
        self.game = game
        self.actions: tuple[str, ...] = tuple(actions)
        self.index: dict[str, int] = {}
        self._masks: dict[tuple[str, ...], np.ndarray] = {}
        for i, a in enumerate(self.actions):
            if a in self.index:
                raise ValueError(f"duplicate action {a!r} in the {game} enumeration")
            self.index[a] = i

    def __len__(self) -> int:
        return len(self.actions)

    def __contains__(self, action: object) -> bool:
        return action in self.index

    @property
    def n(self) -> int:
        return len(self.actions)

    def encode(self, action: str) -> int:
        try:
            return self.index[action]
        except KeyError:
            raise KeyError(
                f"action {action!r} is not in the fixed {self.game} action enumeration "
                f"({self.n} actions); extend redtable/envs/actions.py"
            ) from None

    def decode(self, index: int) -> str:
        i = int(index)
        if not 0 <= i < self.n:
            raise IndexError(f"action index {index!r} out of range 0..{self.n - 1} for {self.game}")
        return self.actions[i]

    def options_mask(self, options: tuple[str, ...]) -> np.ndarray:
        """A new int8 mask of ``options`` (a decision's tuple)."""
        return self.shared_mask(options).copy()

    def shared_mask(self, options: tuple[str, ...]) -> np.ndarray:
        """The int8 mask of ``options``, read-only and shared: masks are cached by option
        tuple, because setting numpy items one by one costs more than hashing the tuple and
        copying a stored mask, and the same option sets come back again and again."""
        m = self._masks.get(options)
        if m is None:
            if len(self._masks) >= 8192:  # bounded: forget everything, refill as play goes on
                self._masks.clear()
            m = self._masks[options] = self.mask(options)
            m.flags.writeable = False
        return m

    def mask(self, options: Sequence[str], out: np.ndarray | None = None) -> np.ndarray:
        """An int8 vector with 1 at the index of each legal option."""
        m = np.zeros(self.n, dtype=np.int8) if out is None else out
        index = self.index
        for o in options:
            m[index[o]] = 1
        return m

    def __repr__(self) -> str:
        return f"ActionCodec({self.game!r}, n={self.n})"


# ============================================================================ Red Rising
def _rr_choice_labels() -> list[str]:
    """Labels of "choose one of these effects" abilities, read from the effect data."""
    from ..redrising.rules import DEPLOY, END_OF_GAME

    ops = {"highcaste_choose_one", "highcaste_split"}
    labels: list[str] = []

    def walk(node) -> None:
        if not isinstance(node, tuple):
            return
        if node and isinstance(node[0], str) and node[0] in ops:
            for lbl, _ in node[1:]:
                if lbl not in labels:
                    labels.append(lbl)
        for child in node:
            walk(child)

    for table in (DEPLOY, END_OF_GAME):
        for card in sorted(table):
            walk(table[card])
    return labels


def red_rising_actions() -> list[str]:
    """Every action string the Red Rising engine can offer, in a fixed order.

    * the 112 card slugs (Lead from hand, choices from a hand, the banished pile, the
      deck's top cards, end-of-game order...);
    * ``lead`` (empty hand), ``scout``, ``deck`` (gain from the deck);
    * the 4 locations (also the 4 location faces of the Rising die) and the two other die
      faces ``banish`` and ``place`` (Minerva's choice);
    * ``<location>:<i>``, a card on a location counted from the bottom, for
      ``i < 112``: a location can never hold more than the 112 cards of the game, so the
      bound is exact rather than a guess (random play reaches about 30);
    * ``yes``/``no``, ``none``, ``top``/``bottom``;
    * the 14 colours; ``p0``..``p5`` (opponents, by absolute seat);
    * ``block:<card>`` for every blocker in the engine's block tables;
    * the labels of choose-one abilities (Hacker, Auctioneer), read from the effect data.
    """
    from ..redrising.board import DIE_FACES, LOCATION_NAMES
    from ..redrising.cards import COLOR_NAMES, NUM_CARDS, SLUG
    from ..redrising.game import RedRising
    from ..redrising.rules import BLOCK_SOVEREIGN, BLOCK_STEAL_BANISH

    out: list[str] = list(SLUG)
    out += ["lead", "scout", "deck"]
    out += list(LOCATION_NAMES)
    out += [f for f in DIE_FACES if f not in out]
    out += ["yes", "no", "none", "top", "bottom"]
    out += list(COLOR_NAMES)
    out += [f"p{i}" for i in range(RedRising.max_players)]
    out += [f"block:{SLUG[c]}" for c in sorted(BLOCK_STEAL_BANISH | set(BLOCK_SOVEREIGN))]
    out += [lbl for lbl in _rr_choice_labels() if lbl not in out]
    out += [f"{loc}:{i}" for loc in LOCATION_NAMES for i in range(NUM_CARDS)]
    return out


# ============================================================================ Red North
# The largest Raiding Party: per round a player deploys 3 face-down cards and may add one
# face-down card with Freya; Reinforce needs (and turns up) a face-down card, so at most
# 4 Reinforces add 4 cards; Sax and Hel add one card each; Withdraw only removes. 3 + 1 +
# 4 + 1 + 1 = 10 cards, slots 0..9, and Hel's insert positions 0..10 (the engine builds
# its strings for up to 40 slots, far above what the rules allow).
RN_MAX_PARTY = 10


def red_north_actions() -> list[str]:
    """Every action string the Red North engine can offer, in a fixed order (see the table
    in :mod:`redtable.rednorth.actions`)."""
    from ..rednorth.actions import ENDS, GIVE, HEL_KINDS, KEEP, PASS, PASS_GROUP, SKIP
    from ..rednorth.cards import KIND_SLUG, NKINDS
    from ..rednorth.game import RedNorth
    from ..rednorth.gods import GODS

    out: list[str] = list(KIND_SLUG)  # deploy
    out += [f"{KIND_SLUG[k]}:{e}" for k in range(NKINDS) for e in ENDS]  # reinforce, sax
    out += [KEEP, *GIVE[: RedNorth.max_players]]  # angleland
    out += [SKIP]  # sax
    for verb in ("withdraw", "reinforce", "inspire", "promote"):  # turn
        out += [f"{verb}:{i}" for i in range(RN_MAX_PARTY)]
    out += [f"invoke:{g.slug}" for g in GODS]
    out += [PASS] + [PASS_GROUP[h] for h in sorted(PASS_GROUP)]
    out += [f"slot:{i}" for i in range(RN_MAX_PARTY)]  # loki, saga
    out += list(ENDS)  # freya
    out += [f"{KIND_SLUG[k]}:{i}" for k in HEL_KINDS for i in range(RN_MAX_PARTY + 1)]  # hel
    return out


_CODECS: dict[str, ActionCodec] = {}


def codec(game: str) -> ActionCodec:
    """The (cached) action codec of the title ``game``: its ``codec`` part lists the actions."""
    c = _CODECS.get(game)
    if c is None:
        actions = title(game).load("codec") if game in GAMES else None
        if actions is None:
            raise ValueError(f"no action enumeration for game {game!r}")
        c = ActionCodec(game, actions())
        _CODECS[game] = c
    return c
