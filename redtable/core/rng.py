"""A tiny seeded random generator whose whole state is one integer.

Why not :mod:`random`: cloning a ``random.Random`` copies 625 words of Mersenne
Twister state, and search bots clone game states thousands of times per move.
SplitMix64 is fast in pure Python, reproducible on every Python version, and a
clone is a single int copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


class Rng:
    """Seeded SplitMix64 generator: the only source of chance in an engine."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def clone(self) -> Rng:
        r = Rng.__new__(Rng)
        r.state = self.state
        return r

    def next64(self) -> int:
        self.state = z = (self.state + _GAMMA) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (Lemire's multiply-shift; bias < 2**-50)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        return (self.next64() * n) >> 64

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle a list in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def derive(self, *salt: int) -> int:
        """A new seed derived from this generator's state and ``salt``, without advancing it."""
        r = Rng(self.state)
        for s in salt:
            r.state = (r.state ^ (s * 0xD6E8FEB86659FD93)) & _MASK
            r.next64()
        return r.next64()
