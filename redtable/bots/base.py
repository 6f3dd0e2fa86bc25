"""What every bot implements."""

from __future__ import annotations

from abc import ABC, abstractmethod

from ..core import Action, InvalidOptions, State


class Bot(ABC):
    name: str = "bot"

    @abstractmethod
    def choose(self, state: State) -> Action:
        """Pick one of ``state.decision().options`` for ``state.decision().player``.

        A bot may read ``state.decision()`` and ``state.view(player)`` (and, for search,
        ``state.resample(player, rng)``); nothing else of the state.
        """


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its name (``random``...)."""
    from .random_bot import RandomBot

    kinds = {"random": RandomBot}
    name = spec.split(":", 1)[0]
    if name not in kinds:
        raise InvalidOptions(f"unknown bot {spec!r}; known bots: {', '.join(kinds)}")
    return kinds[name](seed=seed)
