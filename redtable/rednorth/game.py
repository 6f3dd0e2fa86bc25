"""Red North on the core protocol: the game, its setup, the decision dispatch, copies and re-deals.

The engine is split by concern, each part a mixin over the fields of :mod:`.base`:
:mod:`.turns` (Deployment, the Player Actions, the Gods' and Outposts' choices),
:mod:`.rounds` (the Resolution and the next round), :mod:`.views` (views, descriptions,
summaries). Cards, Gods and Outposts are data (:mod:`.cards`, :mod:`.gods`,
:mod:`.outposts`), their powers small effects (:mod:`.effects`) that also render their text.
The state is a slotted object of ints, count vectors and lists of ints (see
:mod:`.cards` and :mod:`.party`), so ``clone`` is a handful of shallow list copies.
Every point where a player chooses is a :class:`~redtable.core.Decision`; everything
else (resolution, tokens, draws, the next round's setup) happens inside ``_apply``.
A choice is offered even when it has a single option (e.g. a hand of one kind at
Deployment): the engine never applies a choice on a player's behalf. Steps that have no
choice at all are skipped (Sax with no Raider in the discard pile; Saga skips opponents
with no face-down card).

Hidden information. Deployment is simultaneous in the rulebook; here the players deploy
one after the other in seat order, one card per decision, but nobody's view, decision
context or public event shows anything of another's choice except how many cards they
have placed. For re-dealing (``resample``) the state tracks, per player, the cards that
are *publicly known* to be among their hidden cards (hand + face-down cards): the starting
Jarl, Muster Group cards, Thor's Hero. A card leaving that hidden set face up is removed
from it; secretly drawn cards (deal, Frankenland, Tyr, Freya) never enter it.
"""

from __future__ import annotations

from typing import Any

from ..core import Decision, Event, Game, HiddenList, InvalidOptions, Rng, check_option
from .actions import GOD_HEAD  # noqa: F401 - re-exported (tests, scenarios)
from .cards import (
    BLUE,
    COLOUR_OF_NAME,
    COLOURS,
    GREEN,
    HAND_DEAL,
    JARL,
    JARLS,
    JARLS_REMOVED,
    NCOLOURS,
    NKINDS,
    PURPLE,
    RAIDERS_PER_COLOUR,
    RED,
    SPRING_MUSTER_CARDS,
    STARTING_GLORY,
    STARTING_JARLS,
    YELLOW,
    counts_to_slugs,
    hero,
    raider,
)
from .outposts import DEFAULT_OUTPOST_POINTS, MAX_OUTPOST_POINTS
from .party import GLORY_SHIFT, KIND_MASK, UP
from .phases import (  # noqa: F401 - re-exported: the phases are named from here too
    ANGLELAND,
    DEPLOY,
    FREYA_END,
    HEL_PLACE,
    LOKI_SLOT,
    OVER,
    PHASE_NAMES,
    REINFORCE_CARD,
    SAGA_SLOT,
    SAX,
    TURN,
)
from .rounds import Resolution
from .turns import TurnFlow
from .views import KINDS_OF, Views, describe_action, summarize  # noqa: F401 - re-exported

_NOT_KIND = ~KIND_MASK


def _outpost_points(value: Any) -> tuple[int, ...]:
    """Normalise the ``outpost_points`` option to one int per colour."""
    allowed = tuple(range(MAX_OUTPOST_POINTS + 1))
    if isinstance(value, bool):
        raise InvalidOptions(
            f"option 'outpost_points' must be an int 0-{MAX_OUTPOST_POINTS} or a {{colour: int}} mapping, got {value!r}"
        )
    if isinstance(value, int):
        check_option("outpost_points", value, allowed)
        return (value,) * NCOLOURS
    if isinstance(value, dict):
        pts = [DEFAULT_OUTPOST_POINTS] * NCOLOURS
        for key, v in value.items():
            check_option("outpost_points colour", key, COLOURS)
            if isinstance(v, bool) or not isinstance(v, int):
                raise InvalidOptions(f"option 'outpost_points' for {key!r} must be an int, got {v!r}")
            check_option(f"outpost_points[{key}]", v, allowed)
            pts[COLOUR_OF_NAME[key]] = v
        return tuple(pts)
    raise InvalidOptions(
        f"option 'outpost_points' must be an int 0-{MAX_OUTPOST_POINTS} or a {{colour: int}} mapping, got {value!r}"
    )


class RedNorth(Game):
    """Red North for 2-4 players. Option ``outpost_points``: the Outposts' printed Raid Points."""

    name = "red-north"
    title = "Red North"
    min_players = 2
    max_players = 4

    def __init__(self, players: int, outpost_points: int | dict = DEFAULT_OUTPOST_POINTS) -> None:
        super().__init__(players)
        self.outpost_points = _outpost_points(outpost_points)

    def options(self) -> dict[str, Any]:
        pts = self.outpost_points
        value: int | dict = pts[0] if len(set(pts)) == 1 else {c: pts[i] for i, c in enumerate(COLOURS)}
        return {"players": self.players, "outpost_points": value}

    def new_initial_state(self, seed: int) -> RedNorthState:
        return RedNorthState(self, seed)

    def summarize(self, summaries: list[dict]) -> dict[str, Any]:
        return summarize(self.players, summaries)


class RedNorthState(Views, TurnFlow, Resolution):
    """A Red North position (its fields: :class:`~.base.RedNorthBase`)."""

    __slots__ = ()

    # ------------------------------------------------------------------ setup
    def __init__(self, game: RedNorth, seed: int) -> None:
        P = game.players
        self.game = game
        self.P = P
        self.rng = rng = Rng(seed)
        self.history = []
        self.events = []
        self.opts_pts = game.outpost_points
        # 1 - Outposts: green, plus one more per player, at random.
        others = [RED, BLUE, PURPLE, YELLOW]
        rng.shuffle(others)
        colours = tuple(sorted([GREEN, *others[:P]]))
        self.colours = colours
        self.in_play = tuple(c in colours for c in range(NCOLOURS))
        # 2 - Remove unused components; 3 - starting stuff.
        jarls = JARLS - JARLS_REMOVED[P]
        self.hands = [[0] * NKINDS for _ in range(P)]
        self.known = [[0] * NKINDS for _ in range(P)]
        for p in range(P):
            self.hands[p][JARL] = STARTING_JARLS
            self.known[p][JARL] = STARTING_JARLS  # everybody sees the Jarl handed out
        deck = [JARL] * (jarls - STARTING_JARLS * P)
        for c in colours:
            deck += [raider(c)] * RAIDERS_PER_COLOUR
        rng.shuffle(deck)
        self.deck = deck
        for p in range(P):
            h = self.hands[p]
            for _ in range(HAND_DEAL):
                h[deck.pop()] += 1
        self.hand_n = [sum(h) for h in self.hands]
        self.total = [0] * NKINDS
        self.total[JARL] = jarls
        for c in colours:
            self.total[raider(c)] = RAIDERS_PER_COLOUR
            self.total[hero(c)] = 1
        self.first = rng.below(P)
        self.tiebreaker = -1
        self.champion = -1
        self.champion_out = False
        self.owner = [-1] * NCOLOURS
        self.glory = [STARTING_GLORY] * P
        self.vp = [0] * P
        self.god = [-1] * P
        self.invoked = [False] * P
        self.passed = [False] * P
        self.parties = [[] for _ in range(P)]
        self.discard = [0] * NKINDS
        self.set_aside = -1
        self.reports = []
        self.result = None
        self.queue = []
        self.sub = 0
        # 4 - Spring Muster Groups: each Hero in play with 2 cards.
        self.muster = [(hero(c), self.draw_pile(SPRING_MUSTER_CARDS)) for c in colours]
        self.round = 1
        self._dec = None
        self.events.append(
            Event(
                "setup",
                {
                    "outposts": [COLOURS[c] for c in colours],
                    "outpost_points": {COLOURS[c]: self.opts_pts[c] for c in colours},
                    "jarls_removed": JARLS_REMOVED[P],
                    "first_player": self.first,
                },
            )
        )
        for p in range(P):
            self.events.append(Event("hand", {"player": p, "hand": counts_to_slugs(self.hands[p])}, (p,)))
        self._start_round()

    # --------------------------------------------------------------- protocol
    def decision(self) -> Decision | None:
        d = self._dec
        if d is None and self.phase != OVER:
            d = self._dec = self._build_decision()
        return d

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def round_number(self) -> int | None:
        return self.round

    def _build_decision(self) -> Decision:
        ph = self.phase
        if ph == TURN:
            return self._turn_decision()
        if ph == DEPLOY:
            return self._deploy_decision()
        if ph == REINFORCE_CARD:
            return self._reinforce_decision()
        return self._follow_up_decision()

    def _apply(self, action: str) -> None:
        self._dec = None
        ph = self.phase
        if ph == TURN:
            self._apply_turn(action)
        elif ph == DEPLOY:
            self._apply_deploy(action)
        elif ph == REINFORCE_CARD:
            self._apply_reinforce(action)
        elif ph != OVER:
            self._apply_follow_up(action)
        else:  # pragma: no cover - apply() refuses actions once the game is over
            raise AssertionError(f"no action in phase {ph}")

    # --------------------------------------------------------------------- copies
    def clone(self) -> RedNorthState:
        s = RedNorthState.__new__(RedNorthState)
        s.game = self.game
        s.P = self.P
        s.rng = self.rng.clone()
        s.history = self.history[:]
        s.events = self.events[:]
        s.round = self.round
        s.phase = self.phase
        s.actor = self.actor
        s.sub = self.sub
        s.queue = self.queue[:]
        s.in_play = self.in_play
        s.colours = self.colours
        s.opts_pts = self.opts_pts
        s.owner = self.owner[:]
        s.first = self.first
        s.tiebreaker = self.tiebreaker
        s.champion = self.champion
        s.champion_out = self.champion_out
        s.hands = [h[:] for h in self.hands]
        s.hand_n = self.hand_n[:]
        s.known = [h[:] for h in self.known]
        s.parties = [x[:] for x in self.parties]
        s.glory = self.glory[:]
        s.vp = self.vp[:]
        s.god = self.god[:]
        s.invoked = self.invoked[:]
        s.passed = self.passed[:]
        s.deck = self.deck[:]
        s.discard = self.discard[:]
        s.muster = self.muster[:]  # tuples of (head, tuple of cards): immutable
        s.set_aside = self.set_aside
        s.total = self.total
        s.reports = self.reports[:]  # reports are never mutated once written
        s.result = self.result
        s._dec = self._dec  # Decisions are immutable
        return s

    def resample(self, player: int, rng: Rng) -> RedNorthState:
        """A state equal on all ``player`` knows, with every card hidden from them re-dealt.

        Hidden from ``player``: the deck (cards and order) and each opponent's hidden cards
        (hand, face-down Party cards, a card Freya just drew) beyond those publicly known to
        be among them. Those cards are pooled, shuffled and dealt back keeping every count;
        a face-down card carrying Glory (Loki) is known not to be a Jarl and gets a non-Jarl.
        Future chance comes from a new generator seeded from ``rng``. The copy's history is
        not a replayable record (its deck differs); its events are those ``player`` saw.
        """
        for _ in range(64):
            s = self._try_resample(player, rng)
            if s is not None:
                return s
        # Every attempt put too many Jarls under Loki's Glory: keep the opponents' cards.
        s = self.clone()  # pragma: no cover
        s.deck = self.deck[:]
        rng.shuffle(s.deck)
        s.rng = Rng(rng.next64())
        s.events = self.events_for(player)
        return s

    def _try_resample(self, player: int, rng: Rng) -> RedNorthState | None:
        P = self.P
        s = self.clone()
        pool = self.deck[:]
        unknown = [0] * P
        freya_of = self.actor if self.phase == FREYA_END else -1
        for q in range(P):
            if q == player:
                continue
            hidden = self.hands[q][:]
            for x in self.parties[q]:
                if not x & UP:
                    hidden[x & KIND_MASK] += 1
            if q == freya_of:
                hidden[self.sub] += 1
            kn = self.known[q]
            for k in range(NKINDS):
                extra = hidden[k] - kn[k]
                if extra:
                    pool += [k] * extra
                    unknown[q] += extra
        rng.shuffle(pool)
        pos = 0
        for q in range(P):
            if q == player:
                continue
            kn = self.known[q]
            holding = [k for k in range(NKINDS) for _ in range(kn[k])]
            holding += pool[pos : pos + unknown[q]]
            pos += unknown[q]
            rng.shuffle(holding)
            party = s.parties[q]
            for i, x in enumerate(party):  # Glory-carrying face-down cards first: no Jarl there
                if not x & UP and x >> GLORY_SHIFT:
                    j = next((j for j, k in enumerate(holding) if k != JARL), -1)
                    if j < 0:
                        return None
                    party[i] = (x & _NOT_KIND) | holding.pop(j)
            for i, x in enumerate(party):
                if not x & UP and not x >> GLORY_SHIFT:
                    party[i] = (x & _NOT_KIND) | holding.pop()
            if q == freya_of:
                s.sub = holding.pop()
            hand = [0] * NKINDS
            for k in holding:
                hand[k] += 1
            s.hands[q] = hand
        s.deck = pool[pos:]
        s.rng = Rng(rng.next64())
        s.events = self.events_for(player)
        s._dec = None
        return s

    def arm_hidden(self, player: int) -> list[str] | None:
        """:meth:`State.arm_hidden`: tripwires on all that ``player`` may not know.

        Armed: the deck (every card hidden; its size is public), every other seat's hand (a
        count per kind, every count hidden, even of cards publicly known to be among them),
        and every other seat's Party (a face-down slot is hidden, glory and all; a face-up
        one is public, as are the Party's size and slot order). The public ``known`` counts,
        hand sizes, Muster Groups, discard pile and tokens stay plain. While another seat
        places the card Freya drew (a plain int), nothing can be armed: None."""
        if self.phase == FREYA_END and self.actor != player:
            return None
        trips: list[str] = []
        self.deck = HiddenList.arm(self.deck, trips, "deck")
        self.hands = [h if q == player else HiddenList.arm(h, trips, f"hand of p{q}") for q, h in enumerate(self.hands)]
        self.parties = [
            x if q == player else HiddenList.arm(x, trips, f"Party of p{q}", _face_down)
            for q, x in enumerate(self.parties)
        ]
        return trips

    # ---------------------------------------------------------------- invariants
    def card_counts(self) -> list[int]:
        """How many cards of each kind are anywhere in the game (for conservation checks)."""
        out = self.discard[:]
        for h in self.hands:
            for k in range(NKINDS):
                out[k] += h[k]
        for party in self.parties:
            for s in party:
                out[s & KIND_MASK] += 1
        for k in self.deck:
            out[k] += 1
        for head, cards in self.muster:
            if head < GOD_HEAD:
                out[head] += 1
            for k in cards:
                out[k] += 1
        if self.set_aside >= 0:
            out[self.set_aside] += 1
        if self.phase == FREYA_END:
            out[self.sub] += 1
        return out


def _face_down(slot: int) -> bool:
    return not slot & UP
