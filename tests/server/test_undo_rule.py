"""The undo rule: no chance used, nobody else shown anything, the decider learned nothing hidden."""

from __future__ import annotations

from redtable.bots import make_bot
from redtable.core import Decision, Event, Game, Rng, State, make_game
from redtable.server.undo import find_rng, undo_check


def first_where(game: str, players: int, pred, seeds=range(40)):
    """The first (state, action) of random games where ``pred(state, action)`` holds."""
    g = make_game(game, players)
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


def test_red_rising():
    s, a = first_where("red-rising", 3, lambda s, d, a: d.kind == "action" and a == "scout")
    assert undo_check(s, a) == (False, "hidden information was revealed")  # the deck's top card is shown
    s, a = first_where("red-rising", 3, lambda s, d, a: d.kind == "gain" and a == "deck")
    assert undo_check(s, a)[0] is False  # a card drawn, then the die rolled
    s, a = first_where("red-rising", 3, lambda s, d, a: d.kind == "action" and a not in ("scout", "lead"))
    assert undo_check(s, a) == (True, "no chance used and no hidden information revealed")  # Lead: a card from hand
    before = s.clone()
    undo_check(s, a)
    assert s.history == before.history and s.view(0) == before.view(0)  # the state is not changed


def test_red_north():
    s, a = first_where("red-north", 3, lambda s, d, a: d.kind == "deploy")
    assert undo_check(s, a)[0] is True  # placing a card face down
    s, a = first_where("red-north", 3, lambda s, d, a: d.kind == "saga")
    assert undo_check(s, a) == (False, "hidden information was revealed")  # an opponent's card turned up
    s, a = first_where("red-north", 2, lambda s, d, a: a == "invoke:tyr")
    assert undo_check(s, a)[0] is False  # cards drawn


class _G(Game):
    name, title, min_players, max_players = "toy", "Toy", 1, 1

    def __init__(self, rng=True, resample=True):
        super().__init__(1)
        self.rng, self.can_resample = rng, resample

    def options(self):
        return {"players": 1}

    def new_initial_state(self, seed):
        return _S(self, seed)


class _S(State):
    def __init__(self, game, seed):
        self.game, self.history, self.events = game, [], []
        if game.rng:
            self.dice = Rng(seed)  # found even under another name

    def decision(self):
        return None if len(self.history) >= 3 else Decision(0, "go", ("a", "roll"))

    def _apply(self, action):
        if action == "roll":
            self.events.append(Event("roll", {"face": self.dice.below(6)}))

    def clone(self):
        c = _S.__new__(_S)
        c.game, c.history, c.events = self.game, self.history[:], self.events[:]
        if self.game.rng:
            c.dice = self.dice.clone()
        return c

    def view(self, player):
        return {"n": len(self.history)}

    def resample(self, player, rng):
        if not self.game.can_resample:
            raise NotImplementedError
        return self.clone()

    def scores(self):
        return [0.0]

    def winners(self):
        return []


def test_generic_rules():
    s = _G().new_initial_state(1)
    assert find_rng(s) is s.dice
    assert undo_check(s, "a")[0] is True
    assert undo_check(s, "roll") == (False, "chance was used (a die roll, shuffle or random pick)")
    assert undo_check(_G(rng=False).new_initial_state(1), "a")[0] is False
    assert undo_check(_G(resample=False).new_initial_state(1), "a")[0] is False
