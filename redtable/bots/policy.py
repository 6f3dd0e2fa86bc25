"""The pretrained policy: a small network that picks a move in one forward pass (preset ``policy``).

The network reads the deciding seat's observation vector (the RL environments' encoding
of ``state.view(seat)``, :mod:`redtable.envs.observations`; training reads the same vectors
from the incremental observer of :mod:`redtable.envs.fast`, equal to it bit for bit) and
scores every action of the game's fixed enumeration (:mod:`redtable.envs.actions`); the
move is the legal action with the
highest score (the lowest index among equals): no search, no randomness, so the same
position always gets the same move. With ``temperature=T`` (> 0) it samples from the
softmax of the scores over the legal actions at that temperature instead, from a
generator seeded by the bot's seed: still the same moves for the same seed.

Architecture: one hidden layer, ``h = tanh(x W1 + b1)``, scores ``h W2 + b2``. The weights
ship with the package as ``data/policy-<game>.npz`` (float16, read once per process) and
the forward pass is numpy only: no torch. They were trained by
:mod:`redtable.bots.train_policy` (imitation of the expert's self-play decisions, then
policy-gradient self-play); each file records how (``meta``). One network per title,
trained on 2-player games; the observation has room for every player count, so it plays
any table size (weaker away from 2 players).

Like the other bots it reads only ``state.decision()`` and ``state.view(seat)`` (a view
costs a fraction of a millisecond: the move still takes well under one).
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ..core import Action, Rng, State
from ..envs.actions import ActionCodec, codec
from ..envs.observations import Encoder, encoder
from .base import Bot


def trained_titles() -> tuple[str, ...]:
    """The titles a network is shipped for (a ``data/policy-<title>.npz`` beside this module)."""
    from ..core.registry import titles

    return tuple(t.name for t in titles() if weights_path(t.name).is_file())


WEIGHTS = ("W1", "b1", "W2", "b2")


class PolicyNet:
    """The numpy network: ``scores(x) = tanh(x W1 + b1) W2 + b2`` (float32)."""

    def __init__(self, params: dict[str, np.ndarray], meta: dict[str, Any] | None = None) -> None:
        self.W1 = np.ascontiguousarray(params["W1"], dtype=np.float32)
        self.b1 = np.ascontiguousarray(params["b1"], dtype=np.float32)
        self.W2 = np.ascontiguousarray(params["W2"], dtype=np.float32)
        self.b2 = np.ascontiguousarray(params["b2"], dtype=np.float32)
        self.meta = dict(meta or {})
        if self.W1.shape[1] != self.b1.shape[0] or self.W2.shape != (self.b1.shape[0], self.b2.shape[0]):
            raise ValueError(f"inconsistent policy weights: W1 {self.W1.shape}, W2 {self.W2.shape}")

    @property
    def inputs(self) -> int:
        return int(self.W1.shape[0])

    @property
    def actions(self) -> int:
        return int(self.W2.shape[1])

    def scores(self, x: np.ndarray) -> np.ndarray:
        """Scores of every action for one observation ``[F]`` or a batch ``[N, F]``."""
        return np.tanh(x @ self.W1 + self.b1) @ self.W2 + self.b2

    def save(self, path: str | Path) -> None:
        """Write the weights as float16 (what ships) with ``meta`` as JSON."""
        np.savez_compressed(
            path,
            **{k: getattr(self, k).astype(np.float16) for k in WEIGHTS},
            meta=np.frombuffer(json.dumps(self.meta, sort_keys=True).encode(), dtype=np.uint8),
        )

    @classmethod
    def load(cls, path: Any) -> PolicyNet:
        with np.load(path) as z:
            params = {k: z[k].astype(np.float32) for k in WEIGHTS}
            meta = json.loads(bytes(z["meta"]).decode()) if "meta" in z else {}
        return cls(params, meta)


def weights_path(game: str) -> Any:
    """The shipped weights of ``game`` (an importlib resource)."""
    return resources.files(__package__).joinpath("data", f"policy-{game}.npz")


@cache
def load_policy(game: str) -> PolicyNet:
    """The shipped network of ``game``, read once per process."""
    if not weights_path(game).is_file():
        raise ValueError(f"no policy network for game {game!r}; there are: {', '.join(trained_titles())}")
    with weights_path(game).open("rb") as f:
        return PolicyNet.load(f)


def masked_choice(scores: np.ndarray, legal: np.ndarray, temperature: float, rng: Rng | None) -> int:
    """The index among ``legal`` (action indices, increasing) to play: the best score (the
    first among equals) when ``temperature`` is 0, else a draw from the softmax of
    ``scores / temperature`` over them using ``rng``."""
    s = scores[legal]
    if temperature <= 0.0 or rng is None:
        return int(s.argmax())
    z = (s - s.max()) / temperature
    p = np.exp(z.astype(np.float64))
    cum = np.cumsum(p)
    u = rng.next64() / 2.0**64 * cum[-1]
    return min(int(np.searchsorted(cum, u, side="right")), len(legal) - 1)


class PolicyBot(Bot):
    """Plays the shipped (or a given) policy network: one forward pass per decision."""

    name = "policy"

    def __init__(
        self, seed: int = 0, game: str | None = None, temperature: float = 0.0, net: PolicyNet | None = None
    ) -> None:
        if not (temperature >= 0.0 and math.isfinite(temperature)):
            raise ValueError(f"temperature must be a finite number >= 0, got {temperature!r}")
        self.seed = seed
        self.game = game
        self.temperature = float(temperature)
        self.rng = Rng(seed)
        self._net = net
        self._parts: dict[str, tuple[PolicyNet, ActionCodec, Encoder]] = {}

    def _for(self, game: str) -> tuple[PolicyNet, ActionCodec, Encoder]:
        parts = self._parts.get(game)
        if parts is None:
            net = self._net if self._net is not None else load_policy(game)
            cd, enc = codec(game), encoder(game)
            if net.inputs != enc.size or net.actions != cd.n:
                raise ValueError(
                    f"the policy network ({net.inputs} inputs, {net.actions} actions) does not fit {game} "
                    f"({enc.size}, {cd.n})"
                )
            parts = self._parts[game] = (net, cd, enc)
        return parts

    def choose(self, state: State) -> Action:
        d = state.pending()
        net, cd, enc = self._for(self.game or state.game.name)
        x = enc.encode(state.view(d.player))
        index = cd.index
        legal = np.fromiter(sorted(index[o] for o in d.options), dtype=np.intp, count=len(d.options))
        k = masked_choice(net.scores(x), legal, self.temperature, self.rng)
        return cd.actions[int(legal[k])]
