"""Observation and information-state strings and tensors (OpenSpiel's PyObserver interface).

Four observers, chosen by OpenSpiel's ``IIGObservationType``:

=================  ==============  ====================================================
private_info       perfect_recall  what it shows
=================  ==============  ====================================================
SINGLE_PLAYER      no              the seat's view (``observation_string/tensor``)
SINGLE_PLAYER      yes             the seat's information state (``information_state_*``)
NONE               no              the public (spectator) view
NONE               yes             the public information state
=================  ==============  ====================================================

(``ALL_PLAYERS``, the whole state, and private-only observations are not provided: a
view mixes the public and the seat's private facts, and the whole state would include the
deck order; an error says so.)

Strings. An observation string is the view (``state.view(seat)``, ``None`` for the
public one) as compact JSON: exactly what the seat may see, hand and pending options
included. An information-state string is
``"seat S, decision K, history DIGEST"`` followed by that JSON, where DIGEST is a 128-bit
digest of the seat's whole observation history (the events it may see, who decided
what kind of decision at each step, and its own actions; see ``_Core.digest``). It is
therefore equal for every state of the information set and different between
information sets (perfect recall), and cheap to compare, which is what OpenSpiel's
ISMCTS does with it at every tree node.

Tensors. An observation tensor is the float32 vector of :mod:`redtable.envs.observations`
(1,744 features for Red Rising, 1,071 for Red North, named segments in ``observer.dict``).
An information-state tensor adds ``decisions`` (each seat's number of decisions taken,
/100, clipped at 1) and, for a seat, ``own_actions`` (how often it took each action of
the codec, /4, clipped). It is equal on an information set (tested), but a fixed-size
vector cannot hold a whole game's history, so unlike the string it does not separate
every pair of information sets. Before the deal every tensor is zero.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import orjson
import pyspiel

from .chance import SEED_BYTES

if TYPE_CHECKING:
    from .games import Spec


class RedtableObserver:
    """A PyObserver: ``set_from(state, player)`` fills ``tensor`` (and its named views in
    ``dict``); ``string_from(state, player)`` returns the string."""

    def __init__(self, spec: Spec, iig_obs_type, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported by {spec.d.short_name}; got {params!r}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(
                f"{spec.d.short_name} provides no observation of the whole state (it would "
                "include the deck order); use private_info SINGLE_PLAYER (a seat's view) or "
                "NONE (the public view)"
            )
        if not iig_obs_type.public_info:
            raise ValueError(
                f"{spec.d.short_name} provides no private-only observation (a view mixes public "
                "and private facts); use public_info=True"
            )
        self.spec = spec
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.recall = bool(iig_obs_type.perfect_recall)
        enc = spec.encoder
        self.obs_size = enc.size
        pieces = [(name, n) for name, (_, n) in enc.layout.segments.items()]
        if self.recall:
            pieces.append(("decisions", enc.max_players))
            if self.private:
                pieces.append(("own_actions", spec.codec.n))
        self.tensor = np.zeros(sum(n for _, n in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, n in pieces:
            self.dict[name] = self.tensor[at : at + n]
            at += n

    def _seat(self, player: int) -> int | None:
        n = self.spec.players
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
            raise ValueError(f"player must be a seat from 0 to {n - 1}, got {player!r}")
        return player if self.private else None

    def set_from(self, state, player: int) -> None:
        seat = self._seat(player)
        core = state.core
        t = self.tensor
        if core.es is None:
            t.fill(0.0)
            return
        self.spec.encoder.encode(core.es.view(seat), out=t[: self.obs_size])
        if not self.recall:
            return
        dec = self.dict["decisions"]
        dec.fill(0.0)
        counts = [0] * len(dec)
        for p, _ in core.movers:
            counts[p] += 1
        dec[:] = np.minimum(np.asarray(counts, np.float32) / 100.0, 1.0)
        if seat is not None:
            own = self.dict["own_actions"]
            own.fill(0.0)
            index = self.spec.codec.index
            for a in core.own_actions(seat):
                own[index[a]] += 0.25
            np.minimum(own, 1.0, out=own)

    def string_from(self, state, player: int) -> str:
        seat = self._seat(player)
        core = state.core
        if core.es is None:
            return f"dealing: {len(core.drawn)} of {SEED_BYTES} seed bytes drawn"
        view = orjson.dumps(core.es.view(seat)).decode()
        if not self.recall:
            return view
        who = "public" if seat is None else f"seat {seat}"
        return f"{who}, decision {core.decisions}, history {core.digest(seat).hex()}\n{view}"
