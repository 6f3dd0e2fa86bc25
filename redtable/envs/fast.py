"""The incremental observers, by game: ``observer(game)`` (see :mod:`.fast_rednorth`,
:mod:`.fast_redrising`). An observer's ``observe(state, seat)`` equals
``encoder(game).encode(state.view(seat))`` and returns that seat's reused buffer.

Why they exist (cProfile of ``bench/bench_envs.py``'s AEC loop, 2-player Red North, before
them): 61% of the time went to the observation: 34% building ``state.view(seat)`` (half of
it rendering Outpost, God and Muster texts, Babel plural rules included, that the encoder
never reads), 17% the encoder filling a Python list, 7% turning that list into an array;
15% went to PettingZoo's three stacked wrappers forwarding attributes through
``__getattr__``, and ``describe()`` built a sentence per step for ``render()``. The engine
itself was about a tenth. With the observation stubbed out the wrapped AEC env still ran at
only a seventh of the engine's rate, hence :mod:`.wrappers` and the lazy ``describe``.

What is left (same loop, after): the observer costs about 1.3 engine steps per
observation in both titles, the AEC bookkeeping (rewards dicts, mask, copy of the
vector, the wrapper) about one more: item writes through a memoryview (~40 ns) and list
comparisons are the floor of this pure-Python design.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from ..core import GAMES, State, title


class Observer(Protocol):
    size: int

    def observe(self, st: State, seat: int) -> np.ndarray: ...


def observer(game: str) -> Observer:
    """A new observer of ``game`` (each keeps its own buffers: one per environment): the
    title's ``observer`` part (a class)."""
    cls = title(game).load("observer") if game in GAMES else None
    if cls is None:
        raise ValueError(f"no observer for game {game!r}")
    return cls()
