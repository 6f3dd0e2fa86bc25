"""Red North on the core protocol: setup, the three rounds, Gods, Outposts, resolution.

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

import json
from collections import Counter
from typing import Any

from ..core import Decision, Event, Game, HiddenList, InvalidOptions, Rng, State, check_option
from .actions import (
    ACTION_TEXT, CARD_END, CARD_END_OF, CARD_POS, CARD_POS_OF, ENDS, GIVE, GIVE_OF, GOD_HEAD, HEL_KINDS,
    INSPIRE, INVOKE, KEEP, LEFT, OP_INSPIRE, OP_INVOKE, OP_PASS, OP_PROMOTE, OP_REINFORCE, OP_WITHDRAW,
    PASS, PASS_GROUP, PROMOTE, RAIDER_KINDS, REINFORCE, SKIP, SLOT, SLOT_OF, TURN_OPS, WITHDRAW, group_slug,
)
from .cards import (
    BLUE, COLOUR_OF_NAME, COLOURS, GREEN, HAND_DEAL, JARL, JARLS, JARLS_REMOVED, KIND_SLUG, KINDS, NCOLOURS,
    NKINDS, PARTY_SIZE, PURPLE, RAIDERS_PER_COLOUR, RED, ROUND_NAMES, ROUND_VP, ROUNDS, SPRING_MUSTER_CARDS,
    STARTING_GLORY, STARTING_JARLS, SUMMER_MUSTER_CARDS, YELLOW, counts_to_slugs, hero, raider,
)
from .gods import FREYA, FREYA_DRAW, GODS, HEL, LOKI, LOKI_GLORY, NGODS, NORNIR, ODIN, ODIN_VP, SAGA, THOR, TYR, TYR_DRAW
from .outposts import DEFAULT_OUTPOST_POINTS, MAX_OUTPOST_POINTS, OUTPOSTS, PURPLE_DRAW
from .party import CHAMP, GLORY, GLORY_SHIFT, KIND_MASK, UP, slot_view
from .resolution import award, glory_compensation, final_winner, most_vp_first_player, raid_points

# Phases; the name of a phase is the kind of the decision it asks for.
DEPLOY, ANGLELAND, SAX, TURN, REINFORCE_CARD, LOKI_SLOT, FREYA_END, SAGA_SLOT, HEL_PLACE, OVER = range(10)
PHASE_NAMES = ("deploy", "angleland", "sax", "turn", "reinforce", "loki", "freya", "saga", "hel", "over")

_NOT_KIND = ~KIND_MASK


def _outpost_points(value: Any) -> tuple[int, ...]:
    """Normalise the ``outpost_points`` option to one int per colour."""
    allowed = tuple(range(MAX_OUTPOST_POINTS + 1))
    if isinstance(value, bool):
        raise InvalidOptions(f"option 'outpost_points' must be an int 0-{MAX_OUTPOST_POINTS} "
                             f"or a {{colour: int}} mapping, got {value!r}")
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
    raise InvalidOptions(f"option 'outpost_points' must be an int 0-{MAX_OUTPOST_POINTS} "
                         f"or a {{colour: int}} mapping, got {value!r}")


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

    def new_initial_state(self, seed: int) -> "RedNorthState":
        return RedNorthState(self, seed)

    def summarize(self, summaries: list[dict]) -> dict[str, Any]:
        return summarize(self.players, summaries)


class RedNorthState(State):
    __slots__ = (
        "game", "P", "rng", "history", "events",
        "round", "phase", "actor", "sub", "queue",
        "in_play", "colours", "opts_pts",
        "owner", "first", "tiebreaker", "champion", "champion_out",
        "hands", "hand_n", "known", "parties", "glory", "vp", "god", "invoked", "passed",
        "deck", "discard", "muster", "set_aside", "total", "reports", "result", "_dec",
    )

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
        self.muster = [(hero(c), self._draw_pile(SPRING_MUSTER_CARDS)) for c in colours]
        self.round = 1
        self._dec = None
        self.events.append(Event("setup", {
            "outposts": [COLOURS[c] for c in colours],
            "outpost_points": {COLOURS[c]: self.opts_pts[c] for c in colours},
            "jarls_removed": JARLS_REMOVED[P],
            "first_player": self.first,
        }))
        for p in range(P):
            self.events.append(Event("hand", {"player": p, "hand": counts_to_slugs(self.hands[p])}, (p,)))
        self._start_round()

    def _draw_pile(self, n: int) -> tuple[int, ...]:
        deck = self.deck
        return tuple(deck.pop() for _ in range(min(n, len(deck))))

    def _draw(self, p: int, n: int) -> list[int]:
        """Draw up to n cards from the deck into p's hand, secretly (an empty deck yields fewer)."""
        deck = self.deck
        got = [deck.pop() for _ in range(min(n, len(deck)))]
        h = self.hands[p]
        for k in got:
            h[k] += 1
        self.hand_n[p] += len(got)
        return got

    def _start_round(self) -> None:
        self.passed = [False] * self.P
        self.events.append(Event("round", {
            "round": self.round, "name": ROUND_NAMES[self.round], "first_player": self.first,
            "muster": [{"group": group_slug(h), "cards": [KIND_SLUG[k] for k in cards]} for h, cards in self.muster],
        }))
        self.phase = DEPLOY
        self.sub = 0
        self.actor = -1
        self._next_deployer(0)

    # --------------------------------------------------------------- protocol
    def decision(self) -> Decision | None:
        d = self._dec
        if d is None and self.phase != OVER:
            d = self._dec = self._build_decision()
        return d

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def _build_decision(self) -> Decision:
        ph = self.phase
        p = self.actor
        if ph == TURN:
            return self._turn_decision()
        if ph == DEPLOY:
            h = self.hands[p]
            return Decision(p, "deploy", tuple([KIND_SLUG[k] for k in range(NKINDS) if h[k]]),
                            {"placed": self.sub, "party_size": PARTY_SIZE})
        if ph == REINFORCE_CARD:
            h = self.hands[p]
            opts = []
            for k in range(NKINDS):
                if h[k]:
                    opts += CARD_END[k]
            return Decision(p, "reinforce", tuple(opts), {"flipped": self.sub})
        if ph == ANGLELAND:
            return Decision(p, "angleland", (KEEP, *[GIVE[q] for q in range(self.P) if q != p]),
                            {"first_player": self.first})
        if ph == SAX:
            opts = [SKIP]
            for k in RAIDER_KINDS:
                if self.discard[k]:
                    opts += CARD_END[k]
            return Decision(p, "sax", tuple(opts), {})
        if ph == LOKI_SLOT:
            party = self.parties[p]
            return Decision(p, "loki", tuple([SLOT[i] for i in range(len(party)) if party[i] & KIND_MASK != JARL]),
                            {"glory_left": self.sub})
        if ph == FREYA_END:
            return Decision(p, "freya", ENDS, {"card": KIND_SLUG[self.sub]})
        if ph == SAGA_SLOT:
            q = self.queue[0]
            party = self.parties[q]
            return Decision(p, "saga", tuple([SLOT[i] for i in range(len(party)) if not party[i] & UP]),
                            {"opponent": q})
        if ph == HEL_PLACE:
            n = len(self.parties[p]) + 1
            opts = []
            for k in HEL_KINDS:
                if self.discard[k]:
                    opts += CARD_POS[k][:n]
            return Decision(p, "hel", tuple(opts), {})
        raise AssertionError(f"no decision in phase {ph}")  # pragma: no cover

    def _turn_decision(self) -> Decision:
        p = self.actor
        party = self.parties[p]
        can_inspire = self.glory[p] > 0
        can_promote = self.champion == p and not self.champion_out and self.owner[BLUE] == p
        fd = []
        more = []
        i = 0
        for s in party:
            if s & UP:
                if s & KIND_MASK == JARL:
                    if can_promote:
                        more.append(PROMOTE[i])
                elif can_inspire:
                    more.append(INSPIRE[i])
            else:
                fd.append(i)
            i += 1
        opts = [WITHDRAW[i] for i in fd]
        if fd and self.hand_n[p]:
            opts += [REINFORCE[i] for i in fd]
        if more:
            opts += more
        if self.round == ROUNDS:
            g = self.god[p]
            if g >= 0 and not self.invoked[p] and self._can_invoke(p, g):
                opts.append(INVOKE[g])
        if self.muster:
            opts += [PASS_GROUP[h] for h, _ in self.muster]
        else:
            opts.append(PASS)
        return Decision(p, "turn", tuple(opts), {"round": self.round})

    def _can_invoke(self, p: int, g: int) -> bool:
        """Invoke is offered only when the God's power can do something (see docs)."""
        if g == ODIN:
            return True
        if g == THOR:
            return self.set_aside >= 0
        if g == FREYA or g == TYR:
            return bool(self.deck)
        if g == LOKI:
            return any(s & KIND_MASK != JARL for s in self.parties[p])
        if g == NORNIR:
            return any(s >> GLORY_SHIFT for s in self.parties[p])
        if g == SAGA:
            return any(not s & UP for q in range(self.P) if q != p for s in self.parties[q])
        if g == HEL:
            return any(self.discard[k] for k in HEL_KINDS)
        return False  # pragma: no cover

    # ------------------------------------------------------------------ apply
    def _apply(self, action: str) -> None:
        self._dec = None
        ph = self.phase
        if ph == TURN:
            self._apply_turn(action)
        elif ph == DEPLOY:
            self._apply_deploy(action)
        elif ph == REINFORCE_CARD:
            self._apply_reinforce(action)
        elif ph == ANGLELAND:
            q = self.actor if action == KEEP else GIVE_OF[action]
            self.first = q
            self.events.append(Event("first-player", {"player": self.actor, "recipient": q, "by": "angleland"}))
            self._to_sax()
        elif ph == SAX:
            self._apply_sax(action)
        elif ph == LOKI_SLOT:
            i = SLOT_OF[action]
            p = self.actor
            self.parties[p][i] += GLORY
            self.sub -= 1
            self.events.append(Event("loki", {"player": p, "slot": i}))
            if self.sub <= 0:
                self._end_turn()
        elif ph == FREYA_END:
            p = self.actor
            k = self.sub
            end = ENDS.index(action)
            if end == LEFT:
                self.parties[p].insert(0, k)
            else:
                self.parties[p].append(k)
            self.events.append(Event("freya", {"player": p, "end": action}))
            self._end_turn()
        elif ph == SAGA_SLOT:
            self._apply_saga(action)
        elif ph == HEL_PLACE:
            k, pos = CARD_POS_OF[action]
            p = self.actor
            self.discard[k] -= 1
            self.parties[p].insert(pos, k | UP)
            self.events.append(Event("hel", {"player": p, "card": KIND_SLUG[k], "position": pos}))
            self._end_turn()
        else:  # pragma: no cover - apply() refuses actions once the game is over
            raise AssertionError(f"no action in phase {ph}")

    # Deployment ----------------------------------------------------------------
    def _apply_deploy(self, action: str) -> None:
        p = self.actor
        k = KINDS_OF[action]
        self.hands[p][k] -= 1
        self.hand_n[p] -= 1
        self.parties[p].append(k)
        self.sub += 1
        self.events.append(Event("deploy", {"player": p, "card": action, "slot": self.sub - 1}, (p,)))
        if self.sub >= PARTY_SIZE or not self.hand_n[p]:
            self.events.append(Event("deployed", {"player": p, "count": self.sub}))
            self.sub = 0
            self._next_deployer(p + 1)

    def _next_deployer(self, start: int) -> None:
        for q in range(start, self.P):
            if self.hand_n[q]:
                self.actor = q
                return
        self._after_deploy()

    def _after_deploy(self) -> None:
        o = self.owner[RED]
        if self.in_play[RED] and o >= 0:
            self.phase = ANGLELAND
            self.actor = o
            return
        self._to_sax()

    def _to_sax(self) -> None:
        o = self.owner[YELLOW]
        if self.in_play[YELLOW] and o >= 0 and any(self.discard[k] for k in RAIDER_KINDS):
            self.phase = SAX
            self.actor = o
            return
        self._start_actions()

    def _apply_sax(self, action: str) -> None:
        p = self.actor
        if action != SKIP:
            k, end = CARD_END_OF[action]
            self.discard[k] -= 1
            if end == LEFT:
                self.parties[p].insert(0, k | UP)
            else:
                self.parties[p].append(k | UP)
            self.events.append(Event("sax", {"player": p, "card": KIND_SLUG[k], "end": ENDS[end]}))
        else:
            self.events.append(Event("sax", {"player": p, "card": None}))
        self._start_actions()

    def _start_actions(self) -> None:
        self.phase = TURN
        self.actor = self.first

    # Player actions --------------------------------------------------------------
    def _apply_turn(self, action: str) -> None:
        op, arg = TURN_OPS[action]
        p = self.actor
        party = self.parties[p]
        if op == OP_INSPIRE:
            self.glory[p] -= 1
            party[arg] += GLORY
            self.events.append(Event("inspire", {"player": p, "slot": arg}))
        elif op == OP_WITHDRAW:
            s = party.pop(arg)
            self.hands[p][s & KIND_MASK] += 1
            self.hand_n[p] += 1
            # Glory on a withdrawn card (Loki) goes back to the supply.
            self.events.append(Event("withdraw", {"player": p, "slot": arg, "glory_lost": s >> GLORY_SHIFT}))
        elif op == OP_REINFORCE:
            s = party[arg]
            party[arg] = s | UP
            self._reveal(p, s & KIND_MASK)
            self.phase = REINFORCE_CARD
            self.sub = arg
            self.events.append(Event("flip", {"player": p, "slot": arg, "card": KIND_SLUG[s & KIND_MASK]}))
            return
        elif op == OP_PASS:
            self.passed[p] = True
            self._pass(p, arg)
        elif op == OP_PROMOTE:
            party[arg] |= CHAMP
            self.champion_out = True
            self.events.append(Event("promote", {"player": p, "slot": arg}))
        else:  # OP_INVOKE
            self.invoked[p] = True
            self.events.append(Event("invoke", {"player": p, "god": GODS[arg].slug}))
            if self._invoke(p, arg):
                return
        self._end_turn()

    def _apply_reinforce(self, action: str) -> None:
        p = self.actor
        k, end = CARD_END_OF[action]
        self.hands[p][k] -= 1
        self.hand_n[p] -= 1
        self._reveal(p, k)
        if end == LEFT:
            self.parties[p].insert(0, k | UP)
        else:
            self.parties[p].append(k | UP)
        self.events.append(Event("reinforce", {"player": p, "card": KIND_SLUG[k], "end": ENDS[end]}))
        self._end_turn()

    def _pass(self, p: int, head: int) -> None:
        if head < 0:
            self.events.append(Event("pass", {"player": p}))
            return
        for idx, (h, cards) in enumerate(self.muster):
            if h == head:
                break
        del self.muster[idx]
        hand, known = self.hands[p], self.known[p]
        taken = list(cards)
        if head < GOD_HEAD:
            taken.append(head)
        else:
            self.god[p] = head - GOD_HEAD
        for k in taken:
            hand[k] += 1
            known[k] += 1  # Muster Groups are face up: everybody saw these cards go
        self.hand_n[p] += len(taken)
        self.events.append(Event("pass", {"player": p, "group": group_slug(head),
                                          "cards": [KIND_SLUG[k] for k in taken]}))

    def _end_turn(self) -> None:
        P = self.P
        passed = self.passed
        a = self.actor
        for i in range(1, P + 1):
            q = (a + i) % P
            if not passed[q]:
                self.actor = q
                self.phase = TURN
                return
        self._resolve()

    def _reveal(self, p: int, k: int) -> None:
        """Card k of p's hidden cards became public: it no longer counts as publicly known-hidden."""
        kn = self.known[p]
        if kn[k]:
            kn[k] -= 1

    # Gods ------------------------------------------------------------------------------
    def _invoke(self, p: int, g: int) -> bool:
        """Apply God g's power for p; True when it waits for a further decision."""
        if g == ODIN:
            self.vp[p] += ODIN_VP
            self.events.append(Event("odin", {"player": p, "vp": ODIN_VP}))
        elif g == THOR:
            k = self.set_aside
            self.set_aside = -1
            self.hands[p][k] += 1
            self.hand_n[p] += 1
            self.known[p][k] += 1
            self.events.append(Event("thor", {"player": p, "card": KIND_SLUG[k]}))
        elif g == TYR:
            got = self._draw(p, TYR_DRAW)
            self.events.append(Event("tyr", {"player": p, "count": len(got)}))
            self.events.append(Event("draw", {"player": p, "cards": [KIND_SLUG[k] for k in got]}, (p,)))
        elif g == NORNIR:
            party = self.parties[p]
            back = 0
            for i, s in enumerate(party):
                if s >> GLORY_SHIFT:
                    back += s >> GLORY_SHIFT
                    party[i] = s & (GLORY - 1)
            self.glory[p] += back
            self.events.append(Event("nornir", {"player": p, "glory": back}))
        elif g == LOKI:
            self.phase = LOKI_SLOT
            self.sub = LOKI_GLORY
            return True
        elif g == FREYA:
            k = self._draw_pile(FREYA_DRAW)[0]  # _can_invoke checked the deck is not empty
            self.phase = FREYA_END
            self.sub = k
            self.events.append(Event("draw", {"player": p, "cards": [KIND_SLUG[k]]}, (p,)))
            return True
        elif g == SAGA:
            P = self.P
            self.queue = [(p + i) % P for i in range(1, P)]
            return self._next_saga()
        elif g == HEL:
            self.phase = HEL_PLACE
            return True
        return False

    def _next_saga(self) -> bool:
        q = self.queue
        while q and all(s & UP for s in self.parties[q[0]]):
            q.pop(0)  # skip players who have no face-down cards
        if q:
            self.phase = SAGA_SLOT
            return True
        return False

    def _apply_saga(self, action: str) -> None:
        i = SLOT_OF[action]
        q = self.queue.pop(0)
        party = self.parties[q]
        s = party[i]
        party[i] = s | UP
        self._reveal(q, s & KIND_MASK)
        self.events.append(Event("saga", {"player": self.actor, "opponent": q, "slot": i,
                                          "card": KIND_SLUG[s & KIND_MASK]}))
        if not self._next_saga():
            self._end_turn()

    # Resolution ------------------------------------------------------------------------
    def _resolve(self) -> None:
        P = self.P
        r = self.round
        parties = self.parties
        # A - reveal, then Raid Points per colour.
        for p in range(P):
            party = parties[p]
            for i, s in enumerate(party):
                if not s & UP:
                    party[i] = s | UP
                    self._reveal(p, s & KIND_MASK)
        points = raid_points(parties, self.owner, self.opts_pts, self.in_play)
        # B - award Outposts (Tie Breaker as of the start of the Resolution), score VP.
        before = list(self.owner)
        how = {}
        for c in self.colours:
            self.owner[c], how[c] = award(points[c], self.owner[c], self.tiebreaker)
        vp_gain = [0] * P
        for c in self.colours:
            if self.owner[c] >= 0:
                vp_gain[self.owner[c]] += ROUND_VP[r]
        for p in range(P):
            self.vp[p] += vp_gain[p]
        # C - Glory compensation.
        glory_gain = glory_compensation(parties, self.owner, self.in_play)
        for p in range(P):
            self.glory[p] += glory_gain[p]
        # D - Outpost tokens and cards (Ragnarok: only the Tie Breaker).
        drawn = None
        green = self.owner[GREEN]
        if green >= 0:
            self.tiebreaker = green
        if r < ROUNDS:
            red = self.owner[RED]
            if self.in_play[RED]:
                if red >= 0:
                    self.first = red
            else:
                self.first = most_vp_first_player(self.vp, self.first, green)
            blue = self.owner[BLUE]
            if self.in_play[BLUE] and blue >= 0:
                self.champion = blue
            purple = self.owner[PURPLE]
            if self.in_play[PURPLE] and purple >= 0:
                got = self._draw(purple, PURPLE_DRAW)
                drawn = {"player": purple, "count": len(got)}
                self.events.append(Event("draw", {"player": purple, "cards": [KIND_SLUG[k] for k in got]},
                                         (purple,)))
        report = {
            "round": r,
            "parties": [[KIND_SLUG[s & KIND_MASK] for s in parties[p]] for p in range(P)],
            "raid_points": {COLOURS[c]: points[c] for c in self.colours},
            "outposts": {COLOURS[c]: {"before": _seat(before[c]), "controller": _seat(self.owner[c]),
                                      "decided_by": how[c]} for c in self.colours},
            "vp": vp_gain,
            "glory": glory_gain,
            "first_player": self.first,
            "tie_breaker": _seat(self.tiebreaker),
            "champion": _seat(self.champion),
            "frankenland_draw": drawn,
        }
        self.reports.append(report)
        self.events.append(Event("resolution", report))
        if r >= ROUNDS:  # E is skipped in Ragnarok; the game ends.
            self.phase = OVER
            self.actor = -1
            winner, step = final_winner(self.vp, self.tiebreaker, self.glory, self.hand_n, self.first)
            self.result = (winner, step)
            self.events.append(Event("game-end", {"vp": list(self.vp), "glory": list(self.glory),
                                                  "hand_sizes": list(self.hand_n), "winner": winner,
                                                  "decided_by": step}))
            return
        # E - prepare the next round.
        discard = self.discard
        for p in range(P):
            for s in parties[p]:
                discard[s & KIND_MASK] += 1  # Glory tokens on them return to the supply
            parties[p] = []
        self.champion_out = False
        for head, cards in self.muster:
            if head < GOD_HEAD and self.set_aside < 0:
                self.set_aside = head  # the unclaimed Hero is set aside for Thor
            elif head < GOD_HEAD:  # pragma: no cover - only one group is ever left
                discard[head] += 1
            for k in cards:
                discard[k] += 1
        self.muster = []
        if r == 1:
            gods = list(range(NGODS))
            self.rng.shuffle(gods)
            self.muster = [(GOD_HEAD + g, self._draw_pile(SUMMER_MUSTER_CARDS)) for g in sorted(gods[:P + 1])]
        self.round = r + 1
        self._start_round()

    # --------------------------------------------------------------------- copies
    def clone(self) -> "RedNorthState":
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

    def resample(self, player: int, rng: Rng) -> "RedNorthState":
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

    def _try_resample(self, player: int, rng: Rng) -> "RedNorthState | None":
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
            holding += pool[pos:pos + unknown[q]]
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
        self.hands = [h if q == player else HiddenList.arm(h, trips, f"hand of p{q}")
                      for q, h in enumerate(self.hands)]
        self.parties = [x if q == player else HiddenList.arm(x, trips, f"Party of p{q}", _face_down)
                        for q, x in enumerate(self.parties)]
        return trips

    # ---------------------------------------------------------------------- views
    def view(self, player: int | None) -> dict[str, Any]:
        P = self.P
        seats = []
        for q in range(P):
            own = player == q
            g = self.god[q]
            seat = {
                "seat": q,
                "hand_size": self.hand_n[q],
                "party": [slot_view(s, own) for s in self.parties[q]],
                "glory": self.glory[q],
                "vp": self.vp[q],
                "god": GODS[g].slug if g >= 0 else None,
                "invoked": self.invoked[q],
                "passed": self.passed[q],
                "known_hidden": counts_to_slugs(self.known[q]),
            }
            if own:
                seat["hand"] = counts_to_slugs(self.hands[q])
            seats.append(seat)
        over = self.phase == OVER
        v: dict[str, Any] = {
            "game": "red-north",
            "player": player,
            "players": P,
            "round": self.round,
            "round_name": ROUND_NAMES[self.round],
            "round_vp": ROUND_VP[self.round],
            "phase": PHASE_NAMES[self.phase],
            "to_act": None if over else self.actor,
            "first_player": self.first,
            "tie_breaker": _seat(self.tiebreaker),
            "champion": {"holder": _seat(self.champion), "placed": self.champion_out},
            "outposts": [{"colour": COLOURS[c], "name": OUTPOSTS[c].name, "points": self.opts_pts[c],
                          "controller": _seat(self.owner[c]), "text": OUTPOSTS[c].text} for c in self.colours],
            "deck_size": len(self.deck),
            "discard": counts_to_slugs(self.discard),
            "set_aside_hero": KIND_SLUG[self.set_aside] if self.set_aside >= 0 else None,
            "muster": [_group_view(h, cards) for h, cards in self.muster],
            "gods": {g.slug: g.text for g in GODS},
            "seats": seats,
            "pending": self._pending_view(player),
            "resolutions": list(self.reports),
        }
        if over:
            v["result"] = {"winner": self.result[0], "decided_by": self.result[1], "vp": list(self.vp)}
        return v

    def _pending_view(self, player: int | None) -> dict | None:
        ph = self.phase
        if ph == DEPLOY:
            return {"action": "deploy", "player": self.actor, "placed": self.sub}
        if ph == REINFORCE_CARD:
            return {"action": "reinforce", "player": self.actor, "flipped": self.sub}
        if ph == LOKI_SLOT:
            return {"action": "loki", "player": self.actor, "glory_left": self.sub}
        if ph == FREYA_END:
            return {"action": "freya", "player": self.actor,
                    "card": KIND_SLUG[self.sub] if player == self.actor else None}
        if ph == SAGA_SLOT:
            return {"action": "saga", "player": self.actor, "opponents": list(self.queue)}
        if ph == HEL_PLACE:
            return {"action": "hel", "player": self.actor}
        return None

    def information_key(self, player: int | None) -> str:
        """Equal for two states ``player`` cannot tell apart."""
        return json.dumps(self.view(player), sort_keys=True, separators=(",", ":"))

    def describe(self, action: str) -> str:
        d = self.decision()
        kind = d.kind if d is not None else ""
        return describe_action(self, kind, action)

    # -------------------------------------------------------------------- results
    def scores(self) -> list[float]:
        return [float(v) for v in self.vp]

    def winners(self) -> list[int]:
        return [self.result[0]] if self.result is not None else []

    def summary(self) -> dict[str, Any]:
        out = super().summary()
        out.update({
            "vp": list(self.vp),
            "glory": list(self.glory),
            "hand_sizes": list(self.hand_n),
            "winner": self.result[0] if self.result else None,
            "decided_by": self.result[1] if self.result else None,
            "outposts": [COLOURS[c] for c in self.colours],
            "controllers": [{c: rep["outposts"][c]["controller"] for c in rep["outposts"]} for rep in self.reports],
            "gods": [GODS[g].slug if g >= 0 else None for g in self.god],
            "invoked": list(self.invoked),
            "first_player": self.first,
            "tie_breaker": _seat(self.tiebreaker),
            # per round, from the Resolution reports: VP and Glory compensation gained per seat
            "vp_by_round": [list(rep["vp"]) for rep in self.reports],
            "glory_by_round": [list(rep["glory"]) for rep in self.reports],
            "first_player_by_round": [e.data["first_player"] for e in self.events if e.kind == "round"],
        })
        return out

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


KINDS_OF = {k.slug: k.kind for k in KINDS}


def _face_down(slot: int) -> bool:
    return not slot & UP


def _seat(x: int) -> int | None:
    return x if x >= 0 else None


def _group_view(head: int, cards: tuple[int, ...]) -> dict:
    if head < GOD_HEAD:
        k = KINDS[head]
        top = {"type": "hero", "slug": k.slug, "name": k.name, "text": k.text}
    else:
        g = GODS[head - GOD_HEAD]
        top = {"type": "god", "slug": g.slug, "name": g.name, "text": g.text}
    return {"group": group_slug(head), "top": top, "cards": [KIND_SLUG[k] for k in cards]}


def _card_text(kind: int) -> str:
    return KINDS[kind].text


def describe_action(state: RedNorthState, kind: str, action: str) -> str:
    """A player-facing sentence for an option, rendered from the card/God/Outpost data."""
    p = state.actor
    if kind == "deploy":
        k = KINDS_OF[action]
        return f"Deploy {KINDS[k].name} face-down. {ACTION_TEXT['deploy']} ({_card_text(k)})"
    if kind == "turn":
        op, arg = TURN_OPS[action]
        if op == OP_WITHDRAW:
            return f"Withdraw the face-down card in slot {arg}. {ACTION_TEXT['withdraw']}"
        if op == OP_REINFORCE:
            return f"Reinforce, turning up the face-down card in slot {arg}. {ACTION_TEXT['reinforce']}"
        if op == OP_INSPIRE:
            k = state.parties[p][arg] & KIND_MASK
            return f"Inspire the {KINDS[k].name} in slot {arg}. {ACTION_TEXT['inspire']}"
        if op == OP_PROMOTE:
            return f"Promote the Jarl in slot {arg}. {ACTION_TEXT['promote']}"
        if op == OP_INVOKE:
            g = GODS[arg]
            return f"Invoke {g.name}: {g.text}"
        if arg < 0:
            return f"Pass. {ACTION_TEXT['pass']}"
        for head, cards in state.muster:
            if head == arg:
                names = ", ".join(KINDS[k].name for k in cards)
                top = KINDS[head].name if head < GOD_HEAD else f"{GODS[head - GOD_HEAD].name} ({GODS[head - GOD_HEAD].text})"
                return f"Pass and take the Muster Group {top} with {names or 'no cards'}."
    if kind in ("reinforce", "sax"):
        if action == SKIP:
            return f"Do not use {OUTPOSTS[YELLOW].name}."
        k, end = CARD_END_OF[action]
        verb = "Add" if kind == "reinforce" else f"{OUTPOSTS[YELLOW].name}: add the discarded"
        return f"{verb} {KINDS[k].name} face-up at the {ENDS[end]} end of your Party. ({_card_text(k)})"
    if kind == "angleland":
        o = OUTPOSTS[RED].name
        if action == KEEP:
            return f"{o}: keep the First Player token."
        return f"{o}: give the First Player token to player {GIVE_OF[action]}."
    if kind == "loki":
        return f"Loki: place a Glory token on the card in slot {SLOT_OF[action]}."
    if kind == "freya":
        return f"Freya: place the drawn card face-down at the {action} end of your Party."
    if kind == "saga":
        q = state.queue[0] if state.queue else -1
        return f"Saga: turn face-up the card in slot {SLOT_OF[action]} of player {q}'s Party."
    if kind == "hel":
        k, pos = CARD_POS_OF[action]
        return f"Hel: place the discarded {KINDS[k].name} face-up before slot {pos} of your Party. ({_card_text(k)})"
    return action


def summarize(players: int, summaries: list[dict]) -> dict[str, Any]:
    """Red North statistics over finished games' summaries (the simulate JSON extras)."""
    n = len(summaries)
    if not n:
        return {}
    vps = [v for s in summaries for v in s["vp"]]
    glories = [g for s in summaries for g in s["glory"]]
    wins = [0] * players
    for s in summaries:
        wins[s["winner"]] += 1
    outposts: dict[str, dict] = {}
    for c in COLOURS:
        games = [s for s in summaries if c in s["outposts"]]
        if not games:
            continue
        by_round = []
        for r in range(ROUNDS):
            seats = [0] * players
            none = 0
            for s in games:
                who = s["controllers"][r][c]
                if who is None:
                    none += 1
                else:
                    seats[who] += 1
            by_round.append({"controlled_by_seat": seats, "uncontrolled": none})
        won = sum(1 for s in games for r in range(ROUNDS) if s["controllers"][r][c] is not None)
        outposts[c] = {"games": len(games), "rounds_controlled": won,
                       "control_rate": round(won / (ROUNDS * len(games)), 3), "by_round": by_round}
    god_games = Counter(g for s in summaries for g in s["gods"] if g)
    god_wins = Counter(s["gods"][s["winner"]] for s in summaries if s["gods"][s["winner"]])
    invoked = Counter(s["gods"][p] for s in summaries for p in range(players) if s["invoked"][p])
    return {
        "mean_vp": round(sum(vps) / len(vps), 3),
        "mean_winner_vp": round(sum(s["vp"][s["winner"]] for s in summaries) / n, 3),
        "max_vp": max(vps),
        "mean_glory": round(sum(glories) / len(glories), 3),
        "mean_hand_size": round(sum(h for s in summaries for h in s["hand_sizes"]) / (n * players), 3),
        "wins_by_seat": wins,
        "win_rate_by_seat": [round(w / n, 3) for w in wins],
        "decided_by": dict(Counter(s["decided_by"] for s in summaries)),
        "outposts_won": {c: o["rounds_controlled"] for c, o in outposts.items()},
        "outposts": outposts,
        "gods": {g.slug: {"held": god_games[g.slug], "invoked": invoked[g.slug],
                          "win_rate": round(god_wins[g.slug] / god_games[g.slug], 3) if god_games[g.slug] else None}
                 for g in GODS},
    }
