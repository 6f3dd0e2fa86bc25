"""Uniformly random legal play: the baseline and the driver of the simulations."""

from __future__ import annotations

from ..core import Action, Rng, State
from .base import Bot


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, state: State) -> Action:
        options = state.pending().options
        return options[self.rng.below(len(options))]
