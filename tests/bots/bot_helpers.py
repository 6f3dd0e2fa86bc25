"""Helpers for the bot tests: a guard that lets a bot see only what its seat may see."""

from __future__ import annotations

from redtable.core import Rng, make_game


class GuardedState:
    """The real state as a bot may use it: decision() (and pending(), the same when the game
    goes on), view(own seat), resample(own seat).

    Anything else (clone, apply, hands, scores...) fails the test.
    """

    def __init__(self, state, seat: int) -> None:
        object.__setattr__(self, "_st", state)
        object.__setattr__(self, "_seat", seat)

    @property
    def game(self):
        return self._st.game

    def decision(self):
        return self._st.decision()

    def pending(self):
        return self._st.pending()

    def view(self, player):
        assert player == self._seat, f"bot of seat {self._seat} asked for the view of {player}"
        return self._st.view(player)

    def resample(self, player, rng):
        assert player == self._seat, f"bot of seat {self._seat} resampled for seat {player}"
        return self._st.resample(player, rng)

    def __getattr__(self, name):
        raise AssertionError(f"a bot read state.{name} of the real state")

    def __setattr__(self, name, value):
        raise AssertionError(f"a bot wrote state.{name}")


def play_game(game_name: str, players: int, bots: list, seed: int, guard: bool = True):
    """Play one game to the end; each decision goes to ``bots[seat]``; returns the final state."""
    st = make_game(game_name, players).new_initial_state(seed)
    while True:
        d = st.decision()
        if d is None:
            return st
        bot = bots[d.player]
        a = bot.choose(GuardedState(st, d.player) if guard else st)
        assert a in d.options, f"{bot.name} chose {a!r}, not among {d.options}"
        st.apply(a)


def random_positions(game_name: str, players: int, seed: int, count: int, min_options: int = 2):
    """``count`` positions of a random game where the decision has a real choice."""
    st = make_game(game_name, players).new_initial_state(seed)
    rng = Rng(seed)
    total = 0
    while st.decision() is not None:  # length of the game
        d = st.decision()
        st.apply(d.options[rng.below(len(d.options))])
        total += 1
    picks = sorted({Rng(seed + 1).derive(i) % max(1, total) for i in range(count * 2)})
    st = make_game(game_name, players).new_initial_state(seed)
    rng = Rng(seed)
    out = []
    i = 0
    while st.decision() is not None and len(out) < count:
        d = st.decision()
        if i in picks and len(d.options) >= min_options:
            out.append(st.clone())
        st.apply(d.options[rng.below(len(d.options))])
        i += 1
    return out
