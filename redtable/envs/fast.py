"""The incremental observers, by game: ``observer(game)`` (see :mod:`.fast_rednorth`,
:mod:`.fast_redrising`). An observer's ``observe(state, seat)`` equals
``encoder(game).encode(state.view(seat))`` and returns that seat's reused buffer."""

from __future__ import annotations

from typing import Protocol

import numpy as np

from ..core import State
from .fast_rednorth import RedNorthObserver
from .fast_redrising import RedRisingObserver


class Observer(Protocol):
    size: int

    def observe(self, st: State, seat: int) -> np.ndarray: ...


OBSERVERS: dict[str, type[RedNorthObserver] | type[RedRisingObserver]] = {
    "red-north": RedNorthObserver,
    "red-rising": RedRisingObserver,
}


def observer(game: str) -> Observer:
    """A new observer of ``game`` (each keeps its own buffers: one per environment)."""
    try:
        return OBSERVERS[game]()
    except KeyError:
        raise ValueError(f"no observer for game {game!r}") from None
