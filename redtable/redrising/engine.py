"""Red Rising turn flow as a stack machine of small steps.

A turn is a program that sometimes needs an answer. The state keeps a stack of
frames ``(handler, node, ctx)``: ``node`` is an effect tuple such as
``("bonus", MARS)`` and ``ctx`` a small dict (acting player, source card, deploy
location, bound values). Running the stack pops frames and executes them until a
handler needs a choice; that frame goes back on the stack and its
:class:`Decision` is what the state offers. ``apply`` pops it again with the
answer. Frames and their ctx are never mutated, so a clone copies the stack list
shallowly.

Card abilities (``abilities.py``) are effect tuples built from the same
vocabulary, registered in :data:`OPS` with :func:`op`, so a card is data, not code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from ..core import Decision, Event, HiddenDict, HiddenList, HiddenRead, HiddenSet, IllegalAction, Rng, State
from .board import (
    APOLLO,
    CERES,
    DIANA,
    DIE_FACES,
    FLEET_MAX,
    HAND_SIZE,
    HOUSE_JUPITER,
    HOUSE_MARS,
    HOUSE_NAMES,
    INFLUENCE_TOKENS,
    JUPITER,
    LOCATION_NAMES,
    LOCATION_OF_NAME,
    LUNA,
    MARS,
    NEUTRAL_INFLUENCE_2P,
    THRESHOLD,
)
from .cards import BY_SLUG, COLOR, COLOR_NAMES, NAME, NUM_CARDS, SLUG, VALUE
from .words import public_about

if TYPE_CHECKING:
    from .game import RedRising
    from .scoring import PlayerScore

Handler = Callable[["RRState", tuple, dict, Any], "Decision | None"]
OPS: dict[str, Handler] = {}

# Ability tables, filled by abilities.py: card index -> effect node.
DEPLOY: dict[int, tuple] = {}
END_OF_GAME: dict[int, tuple] = {}
BLOCK_STEAL_BANISH: set[int] = set()  # Judge, Pax au Telemanus, The Howlers
BLOCK_SOVEREIGN: dict[int, tuple] = {}  # Martyr, Justice -> what happens after blocking

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


class RRState(State):
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
        return st

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
        return st

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
            d = handler(self, node, ctx, None)
            if d is not None:
                opts = d[2]
                if len(opts) == 1 and d[1] not in WINDOW_KINDS:  # a forced choice is taken at once
                    handler(self, node, ctx, opts[0])
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
        handler(self, node, ctx, action)
        self.run()

    # ------------------------------------------------------------------ log
    #: True on search copies (:meth:`for_search`), which keep no event log: hot code may
    #: skip building an event's data with ``if not st.quiet: st.log(...)``.
    quiet = False

    def log(self, kind: str, to: tuple[int, ...] | None = None, **data: Any) -> None:
        self.events.append(Event(kind, data, to))

    def for_search(self) -> RRState:
        """This state (a determinization) as a search copy: from now on it and its clones
        keep no event log (only the "points" events the scoring reads). Nothing else
        changes: a search copy plays exactly as the original would."""
        self.__class__ = SearchRRState
        if self.phase == "play":  # "points" come from end-of-game abilities only
            self.events = []
        else:
            self.events = [e for e in self.events if e.kind == "points"]
        return self

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

    # ------------------------------------------------------------------ information sets
    def resample(self, player: int, rng: Rng) -> RRState:
        """A state ``player`` cannot tell from this one, with every hidden card re-dealt.

        Hidden places are the other hands, the deck and face-down cards; a card in them
        stays put when ``player`` knows where it is (a card they saw go there). The other
        cards are shuffled among the remaining hidden slots, so hand sizes and the deck
        size are kept. Future chance is re-seeded from ``rng``.
        """
        st = self.clone()
        known = self.known[player]
        slots: list[tuple[list[int], int]] = []
        for q in range(st.n):
            if q != player:
                hand = st.hands[q]
                slots += [(hand, i) for i, c in enumerate(hand) if c not in known]
        deck = st.deck
        slots += [(deck, i) for i, c in enumerate(deck) if c not in known]
        facedown = st.facedown
        if facedown:
            for loc in st.locs:
                slots += [(loc, i) for i, c in enumerate(loc) if c in facedown and c not in known]
        old = [place[i] for place, i in slots]
        new = old[:]
        rng.shuffle(new)
        moved = {c: d for c, d in zip(old, new, strict=True) if c != d}  # the permutation, without fixed points
        for (place, i), card in zip(slots, new, strict=True):
            place[i] = card
        if facedown:
            st.facedown = {moved.get(c, c): q for c, q in facedown.items()}
        # known sets: {moved.get(c, c) for c in k}, with set operations
        st.known = [
            k.difference(moved) | {moved[c] for c in k.intersection(moved)} if not k.isdisjoint(moved) else k
            for k in st.known
        ]
        st.rng = Rng(rng.next64())
        return st

    def arm_hidden(self, player: int) -> list[str]:
        """:meth:`State.arm_hidden`: tripwires on all that ``player`` may not know.

        ``player`` surely knows where a card is when it is in their own hand, face up on a
        location, banished, or a card their ``known`` set names on the deck or face down
        (one they saw there). A card in another seat's hand never counts as surely known,
        even one ``player`` once saw go there (a steal may have moved it since, unseen).

        Armed: every other seat's hand (every card hidden; its size is public), the deck and
        each location (a card is hidden unless surely known or face up there; sizes and
        places are public), the face-down map (``facedown``: asking about a card not surely
        known), the other seats' ``known`` sets (write-only), and every pending frame of the
        turn program whose node or context holds a card not surely known or a choice
        ``player`` did not see (running it trips)."""
        trips: list[str] = []
        others: set[int] = set()
        for q in range(self.n):
            if q != player:
                others.update(self.hands[q])
        sure = frozenset(self.known[player].difference(others))

        def not_sure(c) -> bool:
            return c not in sure

        fd = HiddenDict.arm(self.facedown, trips, "face-down cards", not_sure)
        raw_facedown = dict.__contains__

        def hidden_on_board(c) -> bool:
            return raw_facedown(fd, c) and c not in sure

        _arm_frames(self.stack, player, sure, trips)
        self.facedown = fd
        self.hands = [
            h if q == player else HiddenList.arm(h, trips, f"hand of p{q}", None, not_sure, False)
            for q, h in enumerate(self.hands)
        ]
        self.deck = HiddenList.arm(self.deck, trips, "deck", not_sure, not_sure, True)
        self.locs = [
            HiddenList.arm(loc, trips, LOCATION_NAMES[i], hidden_on_board, not_sure, True)
            for i, loc in enumerate(self.locs)
        ]
        # a HiddenSet stands for the set it guards (every read of it trips)
        self.known = [
            k if q == player else cast("set[int]", HiddenSet(k, trips, f"what p{q} knows"))
            for q, k in enumerate(self.known)
        ]
        return trips

    # ------------------------------------------------------------------ protocol
    def scores(self) -> list[float]:
        return [float(s.total) for s in self.final] if self.final else [0.0] * self.n

    def winners(self) -> list[int]:
        return list(self.final_winners) if self.final_winners is not None else []

    def final_position(self):
        from .scoring import FinalPlayer, FinalPosition

        extra = self.extra_points
        players = [
            FinalPlayer(
                hand=list(self.hands[p]),
                fleet=self.fleet[p],
                helium=self.helium[p],
                influence=self.influence[p],
                sovereign=self.sovereign == p,
                extra_points=extra[p],
                name=f"p{p} {HOUSE_NAMES[self.houses[p]]}",
            )
            for p in range(self.n)
        ]
        jupiter, mars, luna, institute = (list(loc) for loc in self.locs)
        return FinalPosition(
            players=players,
            locations=(jupiter, mars, luna, institute),
            banished=list(self.banished),
            neutral_influence=self.neutral,
            face_down_on_locations=frozenset(self.facedown),
        )

    @property
    def extra_points(self) -> list[int]:
        pts = [0] * self.n
        for e in self.events:
            if e.kind == "points":
                pts[e.data["player"]] += e.data["points"]
        return pts

    def summary(self) -> dict[str, Any]:
        out = super().summary()
        out["houses"] = [HOUSE_NAMES[h] for h in self.houses]
        out["first"] = self.first
        out["turns"] = self.turns[:]
        if self.final:
            out["rows"] = [
                {
                    "cards": s.cards,
                    "fleet": s.fleet,
                    "helium": s.helium,
                    "sovereignty": s.sovereignty,
                    "influence": s.influence,
                    "excess_cards": s.excess_cards,
                }
                for s in self.final
            ]
        out["hands"] = [[SLUG[c] for c in h] for h in self.hands]
        out["deployed"] = [e.data["card"] for e in self.events if e.kind == "deploy"]
        out["abilities"] = [e.data["card"] for e in self.events if e.kind == "ability_effect"]
        # the seat behind each entry of "deployed" / "abilities" (same order and length)
        out["deployed_by"] = [e.data["player"] for e in self.events if e.kind == "deploy"]
        out["abilities_by"] = [e.data["player"] for e in self.events if e.kind == "ability_effect"]
        return out

    def view(self, player: int | None) -> dict[str, Any]:
        d = self.dec
        players = []
        for p in range(self.n):
            entry = {
                "seat": p,
                "house": HOUSE_NAMES[self.houses[p]],
                "hand_size": len(self.hands[p]),
                "fleet": self.fleet[p],
                "helium": self.helium[p],
                "influence": self.influence[p],
                "sovereign": self.sovereign == p,
                "turns": self.turns[p],
            }
            if p == player:
                entry["hand"] = [self.card_json(c, player) for c in self.hands[p]]
            players.append(entry)
        out: dict[str, Any] = {
            "game": "red-rising",
            "you": player,
            "players": players,
            "first_player": self.first,
            "locations": {LOCATION_NAMES[i]: [self.card_json(c, player) for c in self.locs[i]] for i in range(4)},
            "deck_size": len(self.deck),
            "banished": [SLUG[c] for c in self.banished],
            "neutral_influence": self.neutral,
            "end_triggered": self.end_triggered,
            "phase": self.phase,
            "current_turn": self.turn_stack[-1].player if self.turn_stack else None,
            "variant": self.variant,
        }
        if d is not None:
            out["decision"] = {"player": d.player, "kind": d.kind}
            about = public_about(d.kind, d.context, self.phase == "play")
            if about:  # what every seat may know of it: the asking card when face up, the seats it names
                out["decision"]["about"] = about
            if d.player == player:  # the context may name a card only the decider holds
                out["decision"]["options"] = list(d.options)
                out["decision"]["context"] = d.context
        if self.final:
            out["scores"] = [
                {
                    "total": s.total,
                    "cards": s.cards,
                    "fleet": s.fleet,
                    "helium": s.helium,
                    "sovereignty": s.sovereignty,
                    "influence": s.influence,
                    "excess_cards": s.excess_cards,
                    "choices": s.choices,
                }
                for s in self.final
            ]
            out["winners"] = self.winners()
        return out

    def describe(self, action: str) -> str:
        if action in BY_SLUG:
            c = BY_SLUG[action]
            return f"{NAME[c]} ({COLOR_NAMES[COLOR[c]]}, {VALUE[c]})"
        if action in LOCATION_OF_NAME:
            return {"institute": "The Institute"}.get(action, action.capitalize())
        if action[:1] == "p" and action[1:].isdigit():
            p = seat_of(action)
            return f"player {p} ({HOUSE_NAMES[self.houses[p]]})"
        if ":" in action:
            a, _, b = action.partition(":")
            if a in LOCATION_OF_NAME and b.isdigit():
                loc = self.locs[LOCATION_OF_NAME[a]]
                i = int(b)
                if i < len(loc):
                    j = self.card_json(loc[i], self.dec.player if self.dec else None)
                    what = j.get("name", "a face-down card")
                    return f"{what} at {a.capitalize()} (position {i + 1} from the bottom)"
            if a == "block" and b in BY_SLUG:
                return f"block with {NAME[BY_SLUG[b]]}"
        return action


class SearchRRState(RRState):
    """A search bot's private copy (:meth:`RRState.for_search`): it logs nothing but the
    "points" events (end-of-game ability points, read by the scoring). Views, replays and
    summaries of real games are never built from one."""

    __slots__ = ()
    quiet = True

    def log(self, kind: str, to: tuple[int, ...] | None = None, **data: Any) -> None:
        if kind == "points":
            self.events.append(Event(kind, data, to))


# ====================================================================== tripwires (arm_hidden)
# What a turn program frame may hold, for RRState.arm_hidden: context keys holding public
# facts (seats, locations, choices every seat saw logged, colours as they lay on the board),
# keys holding a card or a tuple of cards (public when surely known), choices of the acting
# seat that no event tells the others (public to that seat only), and the node items that
# are cards. Any other key makes the frame hidden: a new key must be classified here.
_CTX_PUBLIC = frozenset(("p", "q", "loc", "lead", "dest", "origin", "colors", "gold_count", "under_color", "c_col"))
_CTX_CARD = frozenset(("c", "src"))
_CTX_CARDS = frozenset(("looked", "shown"))
_CTX_OWN_CHOICE = frozenset(("color",))  # choose_color: not logged
_NODE_CARD = {"deploy": 1, "ability": 1, "ability_end": 1}
_NODE_CARDS = {"lowcaste_to_bottom": 1}


def _arm_frames(stack: list, player: int, sure: frozenset, trips: list[str]) -> None:
    """Replace each pending frame that holds something hidden from ``player`` by one whose
    step trips when it runs."""
    for i, (_, node, ctx) in enumerate(stack):
        if _frame_public(node, ctx, player, sure):
            continue

        def tripped(st, node, ctx, answer, _name=node[0]):
            trips.append(f"turn program: step {_name!r} holds hidden information")
            raise HiddenRead(trips[-1])

        stack[i] = (tripped, node, ctx)


def _frame_public(node: tuple, ctx: dict, player: int, sure: frozenset) -> bool:
    """Whether nothing in a frame is hidden from ``player`` (``sure``: the cards whose place
    they surely know)."""
    i = _NODE_CARD.get(node[0])
    if i is not None and node[i] not in sure:
        return False
    i = _NODE_CARDS.get(node[0])
    if i is not None and not sure.issuperset(node[i]):
        return False
    for k, v in ctx.items():
        if k in _CTX_PUBLIC:
            continue
        if k in _CTX_CARD:
            if v not in sure:
                return False
        elif k in _CTX_CARDS:
            if not sure.issuperset(v):
                return False
        elif k == "value":  # a bound card's value
            if ctx.get("c") not in sure or v != VALUE[ctx["c"]]:
                return False
        elif k == "named":  # Roque: seen by the two players involved only
            if player != ctx.get("p") and player != ctx.get("q"):
                return False
        elif k in _CTX_OWN_CHOICE:
            if player != ctx.get("p"):
                return False
        else:
            return False
    return True


# ====================================================================== turn flow
_LOC_OPTIONS = {ex: tuple(LOCATION_NAMES[i] for i in range(4) if i != ex) for ex in range(-1, 4)}
# the options of a Lead's gain by bits: 1 << location for each location to gain from, 16 for the deck
_GAIN_OPTIONS = tuple(
    tuple(LOCATION_NAMES[i] for i in range(4) if bits >> i & 1) + (("deck",) if bits & 16 else ()) for bits in range(32)
)
_new_decision = tuple.__new__  # _new_decision(Decision, (...)): a Decision without the NamedTuple's Python __new__


def _loc_options(st: RRState, exclude: int = -1, nonempty: bool = False) -> tuple[str, ...]:
    if not nonempty:
        return _LOC_OPTIONS[exclude] if -1 <= exclude <= 3 else _LOC_OPTIONS[-1]
    return tuple(LOCATION_NAMES[i] for i in range(4) if i != exclude and st.locs[i])


@op("turn_start")
def _turn_start(st: RRState, node, ctx, answer):
    _, p, counted = node
    st.turn_stack.append(Turn(p, counted))
    if not st.quiet:
        st.log("turn", player=p, out_of_order=not counted, number=st.turns[p] + 1)
    ctx = {"p": p}
    stack = st.stack
    stack.append((_turn_end, ("turn_end",), ctx))
    stack.append((_action, ("action",), ctx))
    return None


@op("action")
def _action(st: RRState, node, ctx, answer):
    p = ctx["p"]
    if answer is None:
        hand = st.hands[p]
        opts = tuple([SLUG[c] for c in hand]) if hand else ("lead",)
        if st.deck:
            opts += ("scout",)
        return _new_decision(Decision, (p, "action", opts, {"hint": "deploy a card to Lead, or scout"}))
    if answer == "scout":
        st.stack.append((_scout, ("scout",), ctx))
    elif answer == "lead":
        if not st.quiet:
            st.log("lead", player=p, empty_hand=True)
        st.stack.append((_lead_gain, ("lead_gain",), ctx))
    else:
        card = BY_SLUG[answer]
        if not st.quiet:
            st.log("lead", player=p)  # the card becomes public when it is deployed
        ctx = dict(ctx, lead=True)
        stack = st.stack
        stack.append((_lead_gain, ("lead_gain",), ctx))
        stack.append((_deploy, ("deploy", card, "hand", -1), ctx))
    return None


@op("deploy")
def _deploy(st: RRState, node, ctx, answer):
    """Deploy ``card`` from ``source`` (hand / a location / the deck's top) onto a location."""
    _, card, source, exclude = node
    p = ctx["p"]
    if answer is None:
        opts = _loc_options(st, exclude)
        return _new_decision(Decision, (p, "deploy_location", opts, {"card": SLUG[card], "source": source}))
    loc = LOCATION_OF_NAME[answer]
    if source == "hand":
        st.hands[p].remove(card)
    elif source == "deck":
        st.deck.pop()
    else:
        st.locs[LOCATION_OF_NAME[source]].remove(card)
    st.put_on(loc, card, "deploy", p)
    if card in st.facedown:  # put_on kept it hidden from the others; a deployed card is public
        for k in st.known:
            k.add(card)
    st.note_deploy(p, loc)
    ability = DEPLOY.get(card)
    if ability is not None:
        st.stack.append((_ability, ("ability", card, ability), {"p": p, "src": card, "loc": loc}))
    return None


@op("ability")
def _ability(st: RRState, node, ctx, answer):
    _, card, effect = node
    stack = st.stack
    if not st.quiet:
        st.log("ability", player=ctx["p"], card=SLUG[card])
        stack.append((_ability_end, ("ability_end", card, len(st.events), len(st.history)), ctx))
    stack.append((OPS[effect[0]], effect, ctx))
    return None


@op("ability_end")
def _ability_end(st: RRState, node, ctx, answer):
    """Note whether the ability took effect: it changed the game or offered a real choice
    (never on a search copy: :func:`_ability` does not push it there)."""
    _, card, n_events, n_history = node
    if len(st.events) > n_events or len(st.history) > n_history:
        st.log("ability_effect", player=ctx["p"], card=SLUG[card])
    return None


@op("lead_gain")
def _lead_gain(st: RRState, node, ctx, answer):
    p = ctx["p"]
    turn = st.turn_stack[-1]
    if turn.ended:
        return None
    if answer is None:
        mask = turn.deployed_mask
        avail = 16 if st.deck else 0
        for i, cards in enumerate(st.locs):
            if cards and not mask >> i & 1:
                avail |= 1 << i
        if not turn.counted:  # a turn out of order: a top card that may not be gained is no option
            for i, cards in enumerate(st.locs):
                if avail >> i & 1 and not gainable(st, cards[-1]):
                    avail &= ~(1 << i)
        opts = _GAIN_OPTIONS[avail]
        if not opts:
            st.log("nothing_to_gain", player=p)
            return None
        return _new_decision(
            Decision, (p, "gain", opts, {"deployed": LOCATION_NAMES[turn.deployed] if turn.deployed >= 0 else None})
        )
    if answer == "deck":
        st.take_to_hand(p, st.deck.pop(), "deck")
        st.stack.append((_die, ("die",), ctx))
    else:
        loc = LOCATION_OF_NAME[answer]
        st.take_to_hand(p, st.locs[loc].pop(), answer)
        st.stack.append((_bonus, _BONUS_NODES[loc], ctx))
    return None


@op("scout")
def _scout(st: RRState, node, ctx, answer):
    p = ctx["p"]
    if answer is None:
        card = st.reveal_top()
        return _new_decision(Decision, (p, "scout_location", _LOC_OPTIONS[-1], {"card": SLUG[card]}))
    loc = LOCATION_OF_NAME[answer]
    st.put_on(loc, st.deck.pop(), "place", p)
    st.stack.append((_bonus, _BONUS_NODES[loc], ctx))
    return None


@op("turn_end")
def _turn_end(st: RRState, node, ctx, answer):
    turn = st.turn_stack.pop()
    p = turn.player
    if not turn.counted:  # a turn out of order (Loan Shark) changes nobody's count
        return None
    st.turns[p] += 1
    if st.apollo_extra:
        st.push(("end_game",), {"p": st.first})
    elif st.end_triggered and p == (st.first - 1) % st.n:
        if APOLLO in st.houses:
            apollo = st.houses.index(APOLLO)
            st.apollo_extra = True
            st.log("apollo_last_turn", player=apollo)
            st.push(("turn_start", apollo, True), {"p": apollo})
        else:
            st.push(("end_game",), {"p": st.first})
    else:
        nxt = (p + 1) % st.n
        st.stack.append((_turn_start, ("turn_start", nxt, True), {"p": nxt}))
    return None


# ====================================================================== bonuses
_BONUS_NODES = tuple(("bonus", loc) for loc in range(4))


@op("bonus")
def _bonus(st: RRState, node, ctx, answer):
    loc = node[1]
    p = ctx["p"]
    if not st.quiet:
        st.log("bonus", player=p, location=LOCATION_NAMES[loc])
    if loc == JUPITER:
        st.advance(p)
    elif loc == MARS:
        st.gain_helium(p)
    elif loc == LUNA:
        st.push(("gain_sovereign",), ctx)
    else:
        st.place_influence(p)
    return None


@op("die")
def _die(st: RRState, node, ctx, answer):
    face = DIE_FACES[st.rng.below(6)]
    if not st.quiet:
        st.log("die", player=ctx["p"], face=face)
    st.stack.append((_die_face, ("die_face", face), ctx))
    return None


@op("die_face")
def _die_face(st: RRState, node, ctx, answer):
    face = node[1]
    if face in LOCATION_OF_NAME:
        st.push(("bonus", LOCATION_OF_NAME[face]), ctx)
    elif face == "banish":
        st.push(("banish_top_choice",), ctx)
    else:
        st.push(("place_top", -1), ctx)
    return None


@op("banish_top_choice")
def _banish_top_choice(st: RRState, node, ctx, answer):
    p = ctx["p"]
    if answer is None:
        opts = _loc_options(st, nonempty=True)
        return Decision(p, "banish_top", opts, {}) if opts else None
    loc = LOCATION_OF_NAME[answer]
    st.banish(st.locs[loc].pop(), p, answer)
    return None


@op("place_top")
def _place_top(st: RRState, node, ctx, answer):
    """Reveal the deck's top card and place (not deploy) it on a location (node[1]: excluded location)."""
    p = ctx["p"]
    if answer is None:
        card = st.reveal_top()
        if card < 0:
            return None
        return Decision(p, "place_location", _loc_options(st, node[1]), {"card": SLUG[card]})
    st.put_on(LOCATION_OF_NAME[answer], st.deck.pop(), "place", p)
    return None


# ====================================================================== Sovereign
@op("gain_sovereign")
def _gain_sovereign(st: RRState, node, ctx, answer):
    p = ctx["p"]
    holder = st.sovereign
    # block_windows: a holder who may hold a blocker for all the others can tell is asked
    # even holding none (the answer "no" comes back here and falls through, as a declined
    # block does); one who surely holds none is not asked, and their hand is not read
    if holder >= 0 and holder != p and (not st.game.block_windows or st.may_hold(holder, BLOCK_SOVEREIGN)):
        blockers = [c for c in st.hands[holder] if c in BLOCK_SOVEREIGN]
        if not blockers and answer is None and st.game.block_windows:
            return Decision(holder, "block_sovereign", NO_ONLY, {"attacker": p})
        if blockers:
            if answer is None:
                return Decision(
                    holder, "block_sovereign", tuple(f"block:{SLUG[c]}" for c in blockers) + ("no",), {"attacker": p}
                )
            if answer != "no":
                card = BY_SLUG[answer[6:]]
                st.log("block", player=holder, card=SLUG[card], against=p, attempt="take_sovereign")
                st.hands[holder].remove(card)
                st.banish(card, holder, "block")
                st.push(BLOCK_SOVEREIGN[card], {"p": holder, "src": card})
                return None
    st.sovereign = p
    if not st.quiet:
        st.log("sovereign", player=p, taken_from=holder if holder >= 0 and holder != p else None)
    st.stack.append((_house, ("house",), {"p": p}))
    return None


@op("house")
def _house(st: RRState, node, ctx, answer):
    p = ctx["p"]
    h = st.houses[p]
    if not st.quiet:
        st.log("house_ability", player=p, house=HOUSE_NAMES[h])
    if h == APOLLO:
        st.push(("place_top", -1), ctx)
    elif h == CERES:
        st.push(("ceres_banish_location",), ctx)
    elif h == DIANA:
        st.place_influence(p)
    elif h == HOUSE_JUPITER:
        st.advance(p)
    elif h == HOUSE_MARS:
        st.gain_helium(p)
    else:
        st.push(("minerva",), ctx)
    return None


@op("ceres_banish_location")
def _ceres_banish_location(st: RRState, node, ctx, answer):
    p = ctx["p"]
    if answer is None:
        opts = tuple(f"{LOCATION_NAMES[i]}:{j}" for i in range(4) for j in range(len(st.locs[i])))
        return Decision(p, "banish_from_location", opts, {"house": "ceres"}) if opts else None
    name, _, j = answer.partition(":")
    card = st.locs[LOCATION_OF_NAME[name]].pop(int(j))
    st.banish(card, p, name)
    return None


@op("minerva")
def _minerva(st: RRState, node, ctx, answer):
    p = ctx["p"]
    if answer is None:
        face = DIE_FACES[st.rng.below(6)]
        st.log("die", player=p, face=face)
        if face != "luna":
            st.push(("die_face", face), ctx)
            return None
        return Decision(p, "die_face", tuple(f for f in DIE_FACES if f != "luna"), {"house": "minerva"})
    st.push(("die_face", answer), ctx)
    return None


# ====================================================================== blocks
@op("attempt")
def _attempt(st: RRState, node, ctx, answer):
    """An opponent's attempt to steal or banish ``target``'s cards: they may reveal a blocker.

    node = ("attempt", target_key, effect): ``ctx[target_key]`` is the target seat; the
    effect runs unless blocked. A revealed blocker goes back to its owner's hand.
    """
    _, key, effect = node
    q = ctx[key]
    p = ctx["p"]
    if q == p:
        blockers = []
    elif not st.game.block_windows:
        blockers = [c for c in st.hands[q] if c in BLOCK_STEAL_BANISH]
    elif st.may_hold(q, BLOCK_STEAL_BANISH):
        # block_windows: asked all the same (same kind, same context) even holding no
        # blocker, with only "no" to say; the answer "no" comes back here and runs the
        # effect, as a declined block does. A target who surely holds none is not asked.
        blockers = [c for c in st.hands[q] if c in BLOCK_STEAL_BANISH]
        if not blockers and answer is None:
            return Decision(q, "block", NO_ONLY, {"attacker": p, "card": SLUG[ctx["src"]] if "src" in ctx else None})
    else:
        blockers = []
    if not blockers:
        st.push(effect, ctx)
        return None
    if answer is None:
        return Decision(
            q,
            "block",
            tuple(f"block:{SLUG[c]}" for c in blockers) + ("no",),
            {"attacker": p, "card": SLUG[ctx["src"]] if "src" in ctx else None},
        )
    if answer == "no":
        st.push(effect, ctx)
        return None
    card = BY_SLUG[answer[6:]]
    st.log("block", player=q, card=SLUG[card], against=p, attempt="steal_or_banish")
    for k in st.known:
        k.add(card)
    return None


# ====================================================================== game end
@op("end_game")
def _end_game(st: RRState, node, ctx, answer):
    st.phase = "end_of_game"
    st.log("game_end", turns=st.turns[:])
    order = [(st.first + i) % st.n for i in range(st.n)]
    nodes = [("eog_player", p) for p in order] + [("ceres_final",), ("score",)]
    st.push_all(nodes, ctx)
    return None


@op("eog_player")
def _eog_player(st: RRState, node, ctx, answer):
    p = node[1]
    if answer is None:
        pending = tuple(SLUG[c] for c in st.hands[p] if c in END_OF_GAME and c not in st.eog_done)
        if not pending:
            return None
        return Decision(p, "end_of_game_order", pending, {"hint": "choose which end-of-game ability to resolve next"})
    card = BY_SLUG[answer]
    st.eog_done.add(card)
    st.log("end_of_game_ability", player=p, card=SLUG[card])
    st.push_all([END_OF_GAME[card], ("eog_player", p)], {"p": p, "src": card, "loc": -1})
    return None


@op("ceres_final")
def _ceres_final(st: RRState, node, ctx, answer):
    if CERES not in st.houses:
        return None
    p = st.houses.index(CERES)
    if answer is None:
        opts = tuple(SLUG[c] for c in st.hands[p])
        return Decision(p, "ceres_banish_hand", opts, {"house": "ceres"}) if opts else None
    card = BY_SLUG[answer]
    st.hands[p].remove(card)
    st.banish(card, p, "hand")
    return None


@op("score")
def _score(st: RRState, node, ctx, answer):
    from .scoring import score_position, winners

    st.phase = "over"
    position = st.final_position()
    st.final = score_position(position)
    st.final_winners = tuple(winners(position, st.final))
    st.log("scores", totals=[s.total for s in st.final])
    return None
