"""Shared helpers of the bots: canonical determinizations and utilities from estimates.

Information hiding. A bot reads the real state only through ``decision()``,
``view(own seat)`` and ``resample(own seat, rng)``. Everything else (clone, apply,
evaluation) runs on *determinizations*: resampled states, in which every hidden card is
a random guess consistent with what the bot has seen, so reading them reveals nothing.

:class:`CanonicalRng` makes a determinization a function of the bot's information set
and its seed only. An engine's ``resample`` pools the hidden cards in the order they lie
in the real state and shuffles the pool; the order itself is hidden information, so the
same seed would deal different cards from two states the bot cannot tell apart. This
generator sorts every list before shuffling it, which keeps the shuffle uniform and
erases the real order: a bot with a fixed seed then chooses the same action in every
state of its information set (tested in ``tests/bots/test_hidden_information.py``).
"""

from __future__ import annotations

import math
import random

from ..core import Rng


class CanonicalRng(Rng):
    """An :class:`Rng` whose ``shuffle`` ignores the input order (sorts, then shuffles).

    Backed by :class:`random.Random` (C code) for speed: a resample shuffles ~100 cards.
    """

    __slots__ = ("_r",)

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._r = random.Random(seed)

    def clone(self) -> CanonicalRng:
        r = CanonicalRng.__new__(CanonicalRng)
        r.state = self.state
        r._r = random.Random()
        r._r.setstate(self._r.getstate())
        return r

    @property
    def getrandbits(self):
        """``random.Random.getrandbits`` of the stream, bound: for a hot loop that inlines
        :meth:`below` (the same numbers)."""
        return self._r.getrandbits

    def next64(self) -> int:
        return self._r.getrandbits(64)

    def below(self, n: int) -> int:
        """``random.Random.randrange(n)``, inlined (the same numbers, fewer calls)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        getrandbits = self._r.getrandbits
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    def shuffle(self, items: list) -> None:
        try:
            items.sort()
        except TypeError:  # mixed types: any total order that does not depend on positions
            items.sort(key=repr)
        # random.Random.shuffle(items), inlined (the same permutation, fewer calls)
        getrandbits = self._r.getrandbits
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            items[i], items[j] = items[j], items[i]


def softmax_utilities(estimates: list[float], temperature: float) -> list[float]:
    """Win chances from estimated final scores: a softmax with ``temperature`` in points."""
    top = max(estimates)
    ex = [math.exp((e - top) / temperature) for e in estimates]
    s = sum(ex)
    return [e / s for e in ex]


def seed_of(*parts: int) -> int:
    """A 64-bit seed mixed from ints (bot seed, decision counter...)."""
    r = Rng(0x2545F4914F6CDD1D)
    for x in parts:
        r.state ^= (x * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
        r.next64()
    return r.next64()
