"""What every bot implements: :class:`Bot`.

This module knows no concrete bot: the bots import it, and the spec grammar that picks
one (``make_bot("ismcts:1s")``) lives in :mod:`.registry`, above all of them, so that
every dependency runs one way (``registry -> bots -> base``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from ..core import Action, State


class Bot(ABC):
    name: str = "bot"

    @abstractmethod
    def choose(self, state: State) -> Action:
        """Pick one of ``state.decision().options`` for ``state.decision().player``.

        A bot may read ``state.decision()`` and ``state.view(player)`` (and, for search,
        ``state.resample(player, rng)``); nothing else of the state. Search bots clone,
        apply and evaluate the resampled states only.
        """
