"""The undo rule: no chance, no private event, the decider decides next, nothing hidden read.

The last rule is checked with tripwires (``State.arm_hidden``), exactly and without random
re-deals; the property tests below check it against re-deals all the same: a decision the
rule accepts leaves the decider's view and every seat's events the same in every re-deal.
"""

from __future__ import annotations

import time

import pytest

from redtable.bots import make_bot
from redtable.core import Decision, Event, Game, HiddenList, Rng, State, make_game
from redtable.core.protocol import HiddenRead
from redtable.redrising.game import RedRising
from redtable.redrising.testing import play, scenario
from redtable.server import undo
from redtable.server.undo import find_rng, undo_check


def first_where(game: str | Game, players: int, pred, seeds=range(40)):
    """The first (state, action) of random games where ``pred(state, decision, action)`` holds."""
    g = make_game(game, players) if isinstance(game, str) else game
    for seed in seeds:
        s = g.new_initial_state(seed)
        bot = make_bot("random", seed)
        while not s.is_terminal():
            d = s.decision()
            for a in d.options:
                if pred(s, d, a):
                    return s, a
            s.apply(bot.choose(s))
    raise AssertionError("no such decision")


# ================================================================ Red Rising
def test_red_rising():
    s, a = first_where("red-rising", 3, lambda s, d, a: d.kind == "action" and a == "scout")
    assert undo_check(s, a) == (False, undo.HIDDEN)  # the deck's top card is shown
    s, a = first_where("red-rising", 3, lambda s, d, a: d.kind == "gain" and a == "deck")
    assert undo_check(s, a)[0] is False  # a card drawn, then the die rolled
    s, a = first_where("red-rising", 3, lambda s, d, a: d.kind == "action" and a not in ("scout", "lead"))
    assert undo_check(s, a) == (True, undo.UNDOABLE)  # Lead: a card from hand, then where to deploy it
    before = s.clone()
    undo_check(s, a)
    assert s.history == before.history and s.view(0) == before.view(0)  # the state is not changed
    assert s.hands == before.hands and s.deck == before.deck and type(s.deck) is list


def _scout_to_luna(holder_hand, windows=False, banished=None, sovereign=1):
    """Ceres (p0, whose house ability is her own next decision) scouts, to place on Luna
    where p1 holds the Sovereign token."""
    st = scenario(
        2,
        hands={0: ["harmony"], 1: holder_hand},
        houses=["ceres", "diana"],
        sovereign=sovereign,
        deck_top=["trigg"],
        locations={"mars": ["orion"]},
        banished=banished,
        block_windows=windows,
    )
    play(st, "scout")
    assert st.decision().kind == "scout_location"
    return st


def test_scout_to_luna_is_not_undoable_whatever_the_holder_holds():
    # whether p1 is offered a block depends on their hidden hand: never undoable
    st = _scout_to_luna(["martyr", "eo"])
    assert undo_check(st, "luna") == (False, undo.OTHER_SEAT)  # p1 is asked to block
    st = _scout_to_luna(["eo", "deanna"])
    after = st.clone()
    play(after, "luna")
    assert after.decision().player == 0  # Ceres banishes from a location: p0 decides next...
    assert undo_check(st, "luna") == (False, undo.HIDDEN)  # ... but p1's hand was read
    assert undo_check(st, "mars") == (False, undo.OTHER_SEAT)  # Mars: helium, and the turn is over
    # with block windows p1 is asked either way
    assert undo_check(_scout_to_luna(["deanna", "eo"], windows=True), "luna") == (False, undo.OTHER_SEAT)
    # ... unless both Sovereign blockers are public: then p1's hand is not even read
    st = _scout_to_luna(["deanna", "eo"], windows=True, banished=["martyr", "justice"])
    assert undo_check(st, "luna") == (True, undo.UNDOABLE)


def test_the_deck_top_once_revealed_is_public():
    # p0 keeps the Sovereign token: Ceres's banish from a location is next; the card placed
    # is the deck's top, read again, but everybody saw it revealed
    st = _scout_to_luna(["deanna"], sovereign=0)
    assert undo_check(st, "luna") == (True, undo.UNDOABLE)


def test_a_face_down_card_is_hidden_from_all_but_who_placed_it():
    # Lorn banishes the card under it if that is a Gold: on Mars that card lies face down
    def lorn(knower):
        st = scenario(
            3,
            hands={0: ["lorn"], 1: ["eo"], 2: ["trigg"]},
            locations={"mars": ["deanna", "sevro"], "luna": ["orion"], "institute": ["helga"]},
            facedown={"sevro": knower},
        )
        assert undo_check(st, "lorn")[0] is True
        play(st, "lorn")
        assert st.decision().kind == "deploy_location"
        return st

    assert undo_check(lorn(2), "mars") == (False, undo.HIDDEN)
    assert undo_check(lorn(2), "jupiter") == (True, undo.UNDOABLE)  # nothing under it there
    assert undo_check(lorn(0), "mars") == (True, undo.UNDOABLE)  # p0 placed it: they know it (colourless: stays)


def test_a_pending_step_bound_to_a_hidden_card_trips_when_it_runs():
    from redtable.redrising.cards import BY_SLUG
    from redtable.redrising.engine import OPS

    def at_gain(bound):
        st = scenario(2, hands={0: ["deanna", "helga"], 1: ["eo"]}, locations={"mars": ["trigg"], "luna": ["orion"]})
        play(st, "deanna", "jupiter")
        assert st.decision().kind == "gain"
        # a step of p0's that runs after the gain and asks p0 again, holding a card in its context
        st.stack.insert(-1, (OPS["banish_top_choice"], ("banish_top_choice",), {"p": 0, "c": BY_SLUG[bound]}))
        return st

    assert undo_check(at_gain("helga"), "mars") == (True, undo.UNDOABLE)  # p0's own card
    assert undo_check(at_gain("eo"), "mars") == (False, undo.HIDDEN)  # p1's card


def test_arming_red_rising():
    s, _ = first_where("red-rising", 4, lambda s, d, a: len(s.history) > 60)
    p = s.decision().player
    t = s.clone()
    trips = t.arm_hidden(p)
    assert trips == []
    assert type(t.hands[p]) is list and all(isinstance(t.hands[q], HiddenList) for q in range(4) if q != p)
    assert isinstance(t.deck, HiddenList) and all(isinstance(loc, HiddenList) for loc in t.locs)
    assert len(t.deck) == len(s.deck) and [len(h) for h in t.hands] == [len(h) for h in s.hands]  # public sizes
    with pytest.raises(HiddenRead):
        list(t.hands[(p + 1) % 4])
    assert trips == [f"hand of p{(p + 1) % 4}: iteration"]


# ================================================================ Red North
def test_red_north():
    s, a = first_where("red-north", 3, lambda s, d, a: d.kind == "deploy")
    assert undo_check(s, a) == (False, undo.PRIVATE)  # placing a card face down: told to the decider alone
    s, a = first_where("red-north", 3, lambda s, d, a: d.kind == "saga")
    assert undo_check(s, a)[0] is False  # an opponent's card turned up
    s, a = first_where("red-north", 2, lambda s, d, a: a == "invoke:tyr")
    assert undo_check(s, a)[0] is False  # cards drawn
    s, a = first_where(
        "red-north",
        2,
        lambda s, d, a: (
            d.kind == "turn" and all(s.passed[q] for q in range(2) if q != d.player) and a.startswith("inspire")
        ),
    )
    assert undo_check(s, a) == (True, undo.UNDOABLE)  # the others have passed: the decider goes on


def test_arming_red_north():
    s, _ = first_where("red-north", 3, lambda s, d, a: d.kind == "turn")
    p = s.decision().player
    t = s.clone()
    trips = t.arm_hidden(p)
    assert trips == [] and type(t.hands[p]) is list and isinstance(t.deck, HiddenList)
    q = (p + 1) % 3
    with pytest.raises(HiddenRead):
        t.hands[q][0]
    if any(not x & 16 for x in s.parties[q]):
        with pytest.raises(HiddenRead):
            list(t.parties[q])


# ================================================================ each rule, on a toy game
class _G(Game):
    name, title, min_players, max_players = "toy", "Toy", 2, 2

    def __init__(self, rng=True, arm=True):
        super().__init__(2)
        self.rng, self.can_arm = rng, arm

    def options(self):
        return {"players": 2}

    def new_initial_state(self, seed):
        return _S(self, seed)


class _S(State):
    """Seat 0 decides until "pass"; seat 1 holds a secret card."""

    ACTIONS = ("a", "roll", "peek", "swallowed_peek", "tell", "pass", "end", "size")

    def __init__(self, game, seed):
        self.game, self.history, self.events = game, [], []
        self.secret = [seed % 7, 3]
        self.over = self.passed = False
        if game.rng:
            self.dice = Rng(seed)  # found even under another name

    def decision(self):
        if self.over:
            return None
        return Decision(1 if self.passed else 0, "go", self.ACTIONS)

    def _apply(self, action):
        if action == "roll":
            self.events.append(Event("roll", {"face": self.dice.below(6)}))
        elif action == "peek":
            self.events.append(Event("peek", {"card": self.secret[0]}))
        elif action == "swallowed_peek":
            try:
                self.secret.index(3)
            except Exception:
                pass
        elif action == "tell":
            self.events.append(Event("told", {"n": 1}, (0,)))
        elif action == "pass":
            self.passed = True
        elif action == "end":
            self.over = True
        elif action == "size":
            self.events.append(Event("size", {"n": len(self.secret)}))  # public

    def clone(self):
        c = _S.__new__(_S)
        c.game, c.history, c.events = self.game, self.history[:], self.events[:]
        c.secret, c.over, c.passed = list(self.secret), self.over, self.passed
        if self.game.rng:
            c.dice = self.dice.clone()
        return c

    def arm_hidden(self, player):
        if not self.game.can_arm:
            return super().arm_hidden(player)
        trips = []
        if player != 1:
            self.secret = HiddenList.arm(self.secret, trips, "secret", ordered=False)
        return trips

    def view(self, player):
        return {"n": len(self.history)}

    def scores(self):
        return [0.0, 0.0]

    def winners(self):
        return []


def test_rule_1_no_chance():
    s = _G().new_initial_state(1)
    assert find_rng(s) is s.dice
    assert undo_check(s, "a") == (True, undo.UNDOABLE)
    assert undo_check(s, "roll") == (False, undo.CHANCE)
    assert undo_check(_G(rng=False).new_initial_state(1), "a") == (False, undo.NO_RNG)


def test_rule_2_no_private_event_even_to_the_decider():
    assert undo_check(_G().new_initial_state(1), "tell") == (False, undo.PRIVATE)


def test_rule_3_the_decider_decides_next():
    s = _G().new_initial_state(1)
    assert undo_check(s, "pass") == (False, undo.OTHER_SEAT)
    assert undo_check(s, "end") == (False, undo.ENDS_GAME)
    s.apply("end")
    assert undo_check(s, "a") == (False, undo.GAME_OVER)


def test_rule_4_nothing_hidden_read():
    s = _G().new_initial_state(1)
    assert undo_check(s, "peek") == (False, undo.HIDDEN)
    assert undo_check(s, "swallowed_peek") == (False, undo.HIDDEN)  # the trip is recorded before the raise
    assert undo_check(s, "size") == (True, undo.UNDOABLE)  # its size is public
    assert undo_check(_G(arm=False).new_initial_state(1), "a") == (False, undo.CANNOT_ARM)
    assert type(s.secret) is list  # the real state is never armed


def test_illegal_action_raises():
    with pytest.raises(Exception, match="illegal action"):
        undo_check(_G().new_initial_state(1), "nope")


# ================================================================ properties, against re-deals
def _seen(st, start, seat):
    return [e.to_json() for e in st.events[start:] if e.visible_to(seat)]


GAMES = {
    "rr3": (lambda: RedRising(3), 6),
    "rr4-windows": (lambda: RedRising(4, block_windows=True), 6),
    "rr4": (lambda: RedRising(4), 4),
    "rr2": (lambda: RedRising(2), 6),
    "rr5-windows": (lambda: RedRising(5, block_windows=True), 3),
    "rr6": (lambda: RedRising(6), 2),
    "rn2": (lambda: make_game("red-north", 2), 10),
    "rn3": (lambda: make_game("red-north", 3), 8),
    "rn4": (lambda: make_game("red-north", 4), 6),
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_accepted_decisions_reveal_nothing_in_any_redeal(name):
    """Every decision the rule accepts: in 20 re-deals for the decider (``State.resample``) the
    decider's view after it and the events every seat sees are the same as in the real game.
    And whether a decision is undoable never depends on what the decider cannot see."""
    make, games = GAMES[name]
    game = make()
    accepted = total = 0
    for seed in range(games):
        s = game.new_initial_state(seed)
        rng = Rng(seed * 31 + 7)
        while not s.is_terminal():
            d = s.decision()
            a = d.options[rng.below(len(d.options))]
            ok, _ = undo_check(s, a)
            total += 1
            p = d.player
            if ok:
                accepted += 1
                after = s.clone()
                after.apply(a)
                view = after.view(p)
                seen = [_seen(after, len(s.events), q) for q in range(game.players)]
                for k in range(20):
                    alt = s.resample(p, Rng(seed * 100_003 + len(s.history) * 101 + k))
                    assert alt.view(p) == s.view(p)
                    start = len(alt.events)
                    alt.apply(a)
                    assert alt.view(p) == view, (seed, len(s.history), d.kind, a)
                    assert [_seen(alt, start, q) for q in range(game.players)] == seen, (seed, d.kind, a)
            if total % 5 == 0:  # undoability itself tells nothing
                for k in range(2):
                    alt = s.resample(p, Rng(seed + 17 * k + len(s.history)))
                    assert undo_check(alt, a)[0] == ok, (seed, len(s.history), d.kind, a)
            s.apply(a)
    assert accepted > 0 and total > 0


def test_undo_check_is_cheap_in_red_rising():
    game = RedRising(4)
    spent = n = 0
    for seed in range(3):
        s = game.new_initial_state(seed)
        rng = Rng(seed)
        while not s.is_terminal():
            d = s.decision()
            a = d.options[rng.below(len(d.options))]
            t0 = time.perf_counter()
            undo_check(s, a)
            spent += time.perf_counter() - t0
            n += 1
            s.apply(a)
    assert spent / n < 0.002  # about 0.05 ms on a laptop; generous for loaded CI machines
