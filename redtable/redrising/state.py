"""Red Rising's position and the machine that runs its turn program.

The turn flow is a stack machine of small steps. A turn is a program that sometimes needs
an answer. The state keeps a stack of frames ``(handler, node, ctx)``: ``node`` is an
effect tuple such as ``("bonus", MARS)`` and ``ctx`` a small dict (acting player, source
card, deploy location, bound values). Running the stack pops frames and executes them
until a handler needs a choice; that frame goes back on the stack and its
:class:`Decision` is what the state offers. ``apply`` pops it again with the answer.
Frames and their ctx are never mutated, so a clone copies the stack list shallowly.

This module holds the vocabulary of steps (:data:`OPS`, :func:`op`), the fields of a
position (one ``__slots__``, :class:`RRStateBase`), its setup, copy and machine, and the
card and token moves every step uses. The engine is split by concern as Red North's is:
:mod:`.flow` (the turn flow's steps), :mod:`.hidden` (information sets: re-deals and
tripwires), :mod:`.views` (what a seat sees, summaries, descriptions), :mod:`.engine` (the
state class made of these parts, and its outcome); card abilities are effect data
(:mod:`.rules`) built from the same vocabulary, registered in :data:`OPS` with :func:`op`,
so a card is data, not code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core import Decision, Event, IllegalAction, Rng, State
from .board import (
    APOLLO,
    CERES,
    FLEET_MAX,
    HAND_SIZE,
    HOUSE_NAMES,
    INFLUENCE_TOKENS,
    LOCATION_NAMES,
    LOCATION_OF_NAME,
    NEUTRAL_INFLUENCE_2P,
    THRESHOLD,
)
from .cards import BY_SLUG, COLOR, COLOR_NAMES, NAME, NUM_CARDS, SLUG, VALUE

if TYPE_CHECKING:
    from .engine import RRState
    from .game import RedRising
    from .scoring import PlayerScore


Handler = Callable[["RRState", tuple, dict, Any], "Decision | None"]
OPS: dict[str, Handler] = {}

# The card abilities are the game's rules value (``st.game.rules``, :mod:`.rules`): card
# index -> effect node per kind (deploy, end_of_game, block_sovereign) and the cards that
# block a steal or banish.

#: Decisions where a seat may reveal a blocker. With the ``block_windows`` option a seat
#: holding none is asked too, with the single option "no" (never taken on its behalf).
WINDOW_KINDS = frozenset(("block", "block_sovereign"))
NO_ONLY = ("no",)


def op(name: str) -> Callable[[Handler], Handler]:
    """Register a step handler under ``name`` (the first item of an effect node)."""

    def deco(fn: Handler) -> Handler:
        if name in OPS:
            raise ValueError(f"effect op {name!r} registered twice")
        OPS[name] = fn
        return fn

    return deco


YES_NO = ("yes", "no")

LOAN_SHARK = BY_SLUG["loan-shark"]


def gainable(st: RRState, card: int) -> bool:
    """Whether ``card`` may be gained now. Loan Shark may not be gained during a turn out of
    order (the only uncounted turns): no gain of that turn offers or takes it."""
    return card != LOAN_SHARK or not st.turn_stack or st.turn_stack[-1].counted


def seat_id(p: int) -> str:
    return f"p{p}"


def seat_of(action: str) -> int:
    return int(action[1:])


class Turn:
    """What a turn remembers: who, where they deployed, whether it ended early.

    ``deployed`` is the first location the Lead deployed to; ``deployed_mask`` has a bit for
    every location a card was deployed to this turn (a deploy may deploy another card),
    none of which the Lead's final step may gain from.
    """

    __slots__ = ("player", "deployed", "deployed_mask", "ended", "traded", "counted")

    def __init__(self, player: int, counted: bool = True) -> None:
        self.player = player
        self.deployed = -1
        self.deployed_mask = 0
        self.ended = False
        self.traded = False
        self.counted = counted

    def copy(self) -> Turn:
        t = Turn.__new__(Turn)
        t.player, t.deployed, t.deployed_mask, t.ended, t.traded, t.counted = (
            self.player,
            self.deployed,
            self.deployed_mask,
            self.ended,
            self.traded,
            self.counted,
        )
        return t


class RRStateBase(State):
    """The fields of a position, its setup, copy and turn machine, and the moves every step
    uses; :class:`~.engine.RRState` adds the views, the hidden information and the outcome."""

    __slots__ = (
        "game",
        "n",
        "rng",
        "houses",
        "first",
        "hands",
        "locs",
        "deck",
        "banished",
        "fleet",
        "helium",
        "influence",
        "neutral",
        "sovereign",
        "facedown",
        "turns",
        "end_triggered",
        "apollo_extra",
        "turn_stack",
        "stack",
        "dec",
        "history",
        "events",
        "eog_done",
        "final",
        "final_winners",
        "variant",
        "start_hand",
        "known",
        "phase",
    )
    game: RedRising
    n: int
    rng: Rng
    houses: tuple[int, ...]
    first: int
    hands: list[list[int]]
    locs: list[list[int]]
    deck: list[int]
    banished: list[int]
    fleet: list[int]
    helium: list[int]
    influence: list[int]
    neutral: int
    sovereign: int
    facedown: dict[int, int]  # face-down card -> the seat that knows it
    turns: list[int]
    end_triggered: bool
    apollo_extra: bool
    turn_stack: list[Turn]
    stack: list[tuple[Handler, tuple[Any, ...], dict[str, Any]]]
    dec: Decision | None
    history: list[str]
    events: list[Event]
    eog_done: set[Any]
    final: list[PlayerScore] | None
    final_winners: tuple[int, ...] | None
    variant: bool
    start_hand: tuple[int, ...]
    known: list[set[int]]
    phase: str

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, game, seed: int) -> RRState:
        st = cls.__new__(cls)
        n = game.players
        st.game, st.n, st.rng = game, n, Rng(seed)
        st.variant = bool(game.multiplayer_variant)
        houses = list(range(6))
        st.rng.shuffle(houses)
        neutral_house = houses[n] if n == 2 else -1
        st.houses = tuple(houses[:n])
        deck = list(range(NUM_CARDS))
        st.rng.shuffle(deck)
        st.deck = deck
        st.locs = [[], [], [], []]
        for loc in range(4):
            for _ in range(2):
                st.locs[loc].append(deck.pop())
        st.start_hand = tuple(HAND_SIZE + (h == CERES) for h in st.houses)
        st.hands = [[deck.pop() for _ in range(st.start_hand[p])] for p in range(n)]
        st.banished = []
        st.fleet = [0] * n
        st.helium = [0] * n
        st.influence = [0] * n
        st.neutral = NEUTRAL_INFLUENCE_2P if n == 2 else 0
        st.sovereign = -1
        st.facedown = {}
        st.known = [set() for _ in range(n)]
        st.turns = [0] * n
        st.end_triggered = False
        st.apollo_extra = False
        st.turn_stack = []
        st.stack = []
        st.dec = None
        st.history = []
        st.events = []
        st.eog_done = set()
        st.final = None
        st.final_winners = None
        st.phase = "play"
        st.first = st.houses.index(APOLLO) if APOLLO in st.houses else st.rng.below(n)
        st.log(
            "setup",
            players=n,
            houses=[HOUSE_NAMES[h] for h in st.houses],
            first=st.first,
            neutral_house=HOUSE_NAMES[neutral_house] if neutral_house >= 0 else None,
            neutral_influence=st.neutral,
            locations={LOCATION_NAMES[i]: [SLUG[c] for c in st.locs[i]] for i in range(4)},
        )
        on_board = {c for loc in st.locs for c in loc}
        for p in range(n):
            st.known[p] = set(st.hands[p]) | on_board
            st.log("hand", to=(p,), player=p, cards=[SLUG[c] for c in st.hands[p]])
        st.push(("turn_start", st.first, True), {"p": st.first})
        st.run()
        return st  # type: ignore[return-value]  # an RRState (the class that has every part)

    def clone(self) -> RRState:
        st = object.__new__(type(self))  # a search copy's clones stay search copies
        st.game, st.n, st.rng = self.game, self.n, self.rng.clone()
        st.houses, st.first, st.variant, st.start_hand = self.houses, self.first, self.variant, self.start_hand
        st.hands = [h[:] for h in self.hands]
        st.locs = [loc[:] for loc in self.locs]
        st.deck = self.deck[:]
        st.banished = self.banished[:]
        st.fleet = self.fleet[:]
        st.helium = self.helium[:]
        st.influence = self.influence[:]
        st.neutral, st.sovereign = self.neutral, self.sovereign
        st.facedown = dict(self.facedown)
        st.known = [set(k) for k in self.known]
        st.turns = self.turns[:]
        st.end_triggered, st.apollo_extra, st.phase = self.end_triggered, self.apollo_extra, self.phase
        st.turn_stack = [t.copy() for t in self.turn_stack]
        st.stack = self.stack[:]
        st.dec = self.dec
        st.history = self.history[:]
        st.events = self.events[:]
        st.eog_done = set(self.eog_done)
        st.final = self.final
        st.final_winners = self.final_winners
        return st  # type: ignore[return-value]  # an RRState (the class that has every part)

    # ------------------------------------------------------------------ machine
    def push(self, node: tuple, ctx: dict) -> None:
        self.stack.append((OPS[node[0]], node, ctx))

    def push_all(self, nodes, ctx: dict) -> None:
        """Push nodes so that they run in the given order."""
        for node in reversed(nodes):
            self.stack.append((OPS[node[0]], node, ctx))

    def run(self) -> None:
        stack = self.stack
        pop = stack.pop
        while stack:
            handler, node, ctx = frame = pop()
            d = handler(self, node, ctx, None)  # type: ignore[arg-type]
            if d is not None:
                opts = d[2]
                if len(opts) == 1 and d[1] not in WINDOW_KINDS:  # a forced choice is taken at once
                    handler(self, node, ctx, opts[0])  # type: ignore[arg-type]
                    continue
                stack.append(frame)
                self.dec = d
                return
        self.dec = None

    def decision(self) -> Decision | None:
        return self.dec

    def apply(self, action: str) -> None:
        """:meth:`State.apply` (same checks), inlined: it is the search's hottest call."""
        d = self.dec
        if d is None or action not in d[2]:
            raise IllegalAction(
                action, () if d is None else d.options, None if d is None else d.player, "" if d is None else d.kind
            )
        self.history.append(action)
        self._apply(action)

    def _apply(self, action: str) -> None:
        handler, node, ctx = self.stack.pop()
        handler(self, node, ctx, action)  # type: ignore[arg-type]
        self.run()

    # ------------------------------------------------------------------ log
    #: True on search copies (:meth:`for_search`), which keep no event log: hot code may
    #: skip building an event's data with ``if not st.quiet: st.log(...)``.
    quiet = False

    def log(self, kind: str, to: tuple[int, ...] | None = None, **data: Any) -> None:
        self.events.append(Event(kind, data, to))

    # ------------------------------------------------------------------ queries
    @property
    def turn(self) -> Turn:
        return self.turn_stack[-1]

    def opponents(self, p: int) -> list[int]:
        """Opponents in clockwise order starting left of ``p``."""
        return [(p + i) % self.n for i in range(1, self.n)]

    def targetable(self, p: int) -> list[int]:
        """Opponents an ability may make banish or steal from (the multiplayer variant limits them)."""
        opps = self.opponents(p)
        if self.variant:
            opps = [q for q in opps if len(self.hands[q]) > self.start_hand[q]]
        return opps

    def may_hold(self, q: int, cards) -> bool:
        """Whether, for all the other seats can tell, ``q`` might hold one of ``cards``: their
        hand is not empty and not every such card lies face up on a location or banished.
        Reads public facts only (hand size, the board, the banished pile)."""
        if not self.hands[q]:
            return False
        for c in cards:
            if c in self.banished:
                continue
            if any(c in loc for loc in self.locs) and c not in self.facedown:
                continue
            return True
        return False

    def idle_window(self) -> str | None:
        """The pending decision is a block window its decider cannot use ("no" is the only
        option, see the ``block_windows`` option): return "no", else None."""
        d = self.dec
        if d is not None and d[1] in WINDOW_KINDS and d[2] == NO_ONLY:
            return "no"
        return None

    def right_of(self, p: int) -> int:
        return (p - 1) % self.n

    def color(self, card: int) -> int:
        """A card's colour as it lies: face-down cards are colourless (-1)."""
        return -1 if card in self.facedown else COLOR[card]

    def holder_of(self, card: int) -> int:
        for p, h in enumerate(self.hands):
            if card in h:
                return p
        return -1

    def location_of(self, card: int) -> int:
        for i, loc in enumerate(self.locs):
            if card in loc:
                return i
        return -1

    # ------------------------------------------------------------------ tokens
    def check_end(self) -> None:
        if self.end_triggered:
            return
        hel, inf, fle = self.helium, self.influence, self.fleet
        helium = max(hel) >= THRESHOLD
        influence = max(inf) >= THRESHOLD
        fleet = max(fle) >= THRESHOLD
        if not (helium or influence or fleet):
            return  # (the usual case) nothing reached the threshold yet
        two = False  # a player reached it on two tracks
        if not (helium and influence and fleet):
            for p in range(self.n):
                if (hel[p] >= THRESHOLD) + (inf[p] >= THRESHOLD) + (fle[p] >= THRESHOLD) >= 2:
                    two = True
                    break
        if (helium and influence and fleet) or two:
            self.end_triggered = True
            self.log(
                "end_triggered",
                player=self.turn_stack[-1].player if self.turn_stack else None,
                helium=self.helium[:],
                influence=self.influence[:],
                fleet=self.fleet[:],
            )

    def advance(self, p: int, steps: int = 1) -> int:
        moved = min(steps, FLEET_MAX - self.fleet[p])
        if moved > 0:
            self.fleet[p] += moved
            if not self.quiet:
                self.log("fleet", player=p, delta=moved, fleet=self.fleet[p])
            self.check_end()
        return moved

    def regress(self, p: int, steps: int = 1) -> int:
        moved = min(steps, self.fleet[p])
        if moved > 0:
            self.fleet[p] -= moved
            self.log("fleet", player=p, delta=-moved, fleet=self.fleet[p])
        return moved

    def gain_helium(self, p: int, amount: int = 1) -> int:
        if amount > 0:
            self.helium[p] += amount
            if not self.quiet:
                self.log("helium", player=p, delta=amount, helium=self.helium[p])
            self.check_end()
        return amount

    def lose_helium(self, p: int, amount: int = 1) -> int:
        lost = min(amount, self.helium[p])
        if lost > 0:
            self.helium[p] -= lost
            self.log("helium", player=p, delta=-lost, helium=self.helium[p])
        return lost

    def place_influence(self, p: int, amount: int = 1) -> int:
        placed = min(amount, INFLUENCE_TOKENS - self.influence[p])
        if placed > 0:
            self.influence[p] += placed
            if not self.quiet:
                self.log("influence", player=p, delta=placed, influence=self.influence[p])
            self.check_end()
        return placed

    def remove_influence(self, p: int, amount: int = 1) -> int:
        removed = min(amount, self.influence[p])
        if removed > 0:
            self.influence[p] -= removed
            self.log("influence", player=p, delta=-removed, influence=self.influence[p])
        return removed

    # ------------------------------------------------------------------ cards
    def card_json(self, card: int, viewer: int | None) -> dict:
        if card in self.facedown and (viewer is None or card not in self.known[viewer]):
            return {"face_down": True}
        out = {"card": SLUG[card], "name": NAME[card], "color": COLOR_NAMES[COLOR[card]], "value": VALUE[card]}
        if card in self.facedown:
            out["face_down"] = True
        return out

    def take_to_hand(self, p: int, card: int, source: str) -> None:
        """``card`` (already removed from its place) joins ``p``'s hand."""
        was_face_down = self.facedown.pop(card, None) is not None
        self.hands[p].append(card)
        # ``known[q]``: the cards whose current place q knows. A face-up card taken from a
        # location is seen going into the hand; a card from the deck or a face-down one is
        # known to others only if they already knew it (a revealed top card).
        if source in LOCATION_OF_NAME and not was_face_down:
            for k in self.known:
                k.add(card)
        elif was_face_down:
            for q, k in enumerate(self.known):
                if q != p:
                    k.discard(card)
        self.known[p].add(card)
        if self.quiet:
            return
        if was_face_down:
            self.log("gain", player=p, source=source, face_down=True)
            self.log("gain_seen", to=(p,), player=p, card=SLUG[card], source=source)
        elif source == "deck":
            self.log("gain", player=p, source=source)
            self.log("gain_seen", to=(p,), player=p, card=SLUG[card], source=source)
        else:
            self.log("gain", player=p, source=source, card=SLUG[card])

    def banish(self, card: int, by: int | None = None, source: str = "") -> None:
        """Put ``card`` (already removed from its place) on the public banished pile."""
        self.facedown.pop(card, None)
        self.banished.append(card)
        for k in self.known:
            k.add(card)
        if not self.quiet:
            self.log("banish", player=by, card=SLUG[card], source=source)

    def remove_from_hand(self, p: int, card: int) -> None:
        self.hands[p].remove(card)

    def draw(self) -> int:
        """Remove and return the deck's top card, or -1 when the deck is empty."""
        return self.deck.pop() if self.deck else -1

    def reveal_top(self) -> int:
        """The deck's top card, revealed to everybody (it stays on the deck); -1 if empty."""
        if not self.deck:
            return -1
        card = self.deck[-1]
        if not self.quiet:
            self.log("reveal", card=SLUG[card], source="deck")
        for k in self.known:
            k.add(card)
        return card

    def note_deploy(self, p: int, loc: int) -> None:
        """Remember that ``p`` deployed to ``loc`` during their own turn."""
        turn = self.turn_stack[-1] if self.turn_stack else None
        if turn is not None and turn.player == p:
            if turn.deployed < 0:
                turn.deployed = loc
            turn.deployed_mask |= 1 << loc

    def put_on(self, loc: int, card: int, how: str, p: int | None = None, bottom: bool = False) -> None:
        if bottom:
            self.locs[loc].insert(0, card)
        else:
            self.locs[loc].append(card)
        if card in self.facedown:
            knower = self.facedown[card]
            for q, k in enumerate(self.known):
                if q != knower:
                    k.discard(card)
            if not self.quiet:
                self.log(how, player=p, location=LOCATION_NAMES[loc], face_down=True, bottom=bottom)
        else:
            for k in self.known:
                k.add(card)
            if not self.quiet:
                self.log(how, player=p, card=SLUG[card], location=LOCATION_NAMES[loc], bottom=bottom)
