"""Red North's observation, kept up to date from the engine's fields instead of rebuilt from a view.

The reference is :class:`~.observations.RedNorthEncoder`, which reads ``state.view(seat)``;
building that view (texts of Outposts, Gods and Muster Groups included) costs more than
the engine's step. :class:`RedNorthObserver` writes the same float32 vector straight from
the fields of :class:`~redtable.rednorth.base.RedNorthBase`, one segment at a time, and
rewrites a segment only when what it is made of changed since that seat's last
observation: a step of the game touches a few of them (one seat's hand and Party, the
pending sub-decision), so a step costs a few small numpy writes.

The invariant: ``observe(state, seat)`` equals ``RED_NORTH.encode(state.view(seat))`` bit
for bit, for any state, in any order of calls (each segment compares its inputs with the
copy taken when it was last written, so a state swapped for another, e.g. a re-deal, is
handled like any step). ``tests/envs/test_env_incremental.py`` checks it over thousands of
random positions. It reads only what the view shows: other seats' face-down cards and
hands go through the same visibility rules (a face-down slot's kind only for its owner).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..rednorth.actions import GOD_HEAD, group_slug
from ..rednorth.cards import ROUND_VP
from ..rednorth.party import CHAMP, GLORY_SHIFT, KIND_MASK, UP
from ..rednorth.phases import DEPLOY, FREYA_END, HEL_PLACE, LOKI_SLOT, OVER, REINFORCE_CARD, SAGA_SLOT
from .observations import RED_NORTH, RedNorthEncoder, clip01

_NSLOT = 1 << 12  # slot ints: kind (4 bits), face up, Champion, Glory tokens from bit 6
_NCOUNT = 128  # count vectors never reach this (60 cards in the box)


def _count_table(scale: float) -> list[float]:
    return [min(n / scale, 1.0) if n else 0.0 for n in range(_NCOUNT)]


class _Tables:
    """Lookup tables shared by every observer: one feature row per possible small input."""

    def __init__(self, enc: RedNorthEncoder) -> None:
        K = enc.nkinds
        self.c3, self.c6, self.c11 = _count_table(3.0), _count_table(6.0), _count_table(11.0)
        # clip01(n / d) for n < _NCOUNT, then d itself (for larger n)
        self.r10 = [clip01(i / 10.0) for i in range(_NCOUNT)] + [10.0]
        self.r20 = [clip01(i / 20.0) for i in range(_NCOUNT)] + [20.0]
        slf = enc.slot_f
        rows = np.zeros((2, _NSLOT, slf), dtype=np.float32)
        for show in (0, 1):
            for s in range(_NSLOT):
                r = rows[show, s]
                r[0] = 1.0
                up = bool(s & UP)
                r[1] = float(up)
                kind = s & KIND_MASK
                r[2 + (kind if (up or show) and kind < K else K)] = 1.0
                r[3 + K] = clip01((s >> GLORY_SHIFT) / 3.0)
                r[4 + K] = float(bool(s & CHAMP))
        self.slot_rows = [[memoryview(rows[show, s]) for s in range(_NSLOT)] for show in (0, 1)]
        self.zeros = np.zeros(enc.size, dtype=np.float32).data
        self.group_of_head = {h: enc.groups[group_slug(h)] for h in [*range(5, 10), *range(GOD_HEAD, GOD_HEAD + 8)]}


class _View:
    """One seat's vector and the inputs each of its segments was last written from."""

    __slots__ = (
        "x",
        "m",
        "glob",
        "actor",
        "owner",
        "colours",
        "opts_pts",
        "discard",
        "set_aside",
        "muster",
        "pend",
        "P",
        "hand_n",
        "glory",
        "vp",
        "god",
        "invoked",
        "passed",
        "known",
        "parties",
        "hand",
    )

    def __init__(self, size: int) -> None:
        self.x = np.zeros(size, dtype=np.float32)
        self.m = self.x.data
        self.clear(-1)

    def clear(self, players: int) -> None:
        self.x.fill(0.0)
        self.P = players
        self.glob: tuple | None = None
        self.actor = -1
        self.hand_n: list[int] = []
        self.glory: list[int] = []
        self.vp: list[int] = []
        self.god: list[int] = []
        self.invoked: list[bool] = []
        self.passed: list[bool] = []
        self.known: list[list[int]] = []
        self.parties: list[list[int]] = []
        self.hand: list[int] = []
        self.owner: list[int] | None = None
        self.colours: tuple = ()
        self.opts_pts: tuple = ()
        self.discard: list[int] | None = None
        self.set_aside: int | None = None
        self.muster: list | None = None
        self.pend: tuple | None = None


class RedNorthObserver:
    """Observations of Red North positions for seats ``0..max_players-1`` (see the module doc).

    ``observe`` returns the seat's own buffer, rewritten by the next call for that seat:
    copy it to keep it."""

    def __init__(self, enc: RedNorthEncoder = RED_NORTH) -> None:
        self.enc = enc
        self.size = enc.size
        self.t = _TABLES if enc is RED_NORTH else _Tables(enc)
        self.views = [_View(enc.size) for _ in range(enc.max_players)]
        L = enc.layout
        self.off = {k: L[k] for k in L.segments}
        self.ngods = len(enc.gods)
        self.seats_off = L["seats"]
        self.hand_off = L["seats"] + 6 + len(enc.gods) + enc.nkinds  # a seat's own hand counts

    def observe(self, st: Any, seat: int) -> np.ndarray:
        v = self.views[seat]
        x: Any = v.m  # writes go through a memoryview: an item costs a third of a numpy one
        t = self.t
        Z = t.zeros
        enc = self.enc
        off = self.off
        P = enc.max_players
        n = st.P
        if v.P != n:  # a new table size: start from zeros
            v.clear(n)
            x[off["me"] + seat] = 1.0
            for q in range(n):
                x[off["present"] + q] = 1.0
        phase = st.phase
        # --- globals (whose turn it is changes at every step: written on its own)
        actor = st.actor if phase != OVER else -1
        if actor != v.actor:
            a = off["globals"] + 3 + len(enc.phases)
            if v.actor >= 0:
                x[a + v.actor] = 0.0
            if actor >= 0:
                x[a + actor] = 1.0
            v.actor = actor
        key = (st.round, phase, st.first, st.tiebreaker, st.champion, st.champion_out, len(st.deck))
        if key != v.glob:
            v.glob = key
            g = off["globals"]
            x[g : g + 3 + len(enc.phases)] = Z[: 3 + len(enc.phases)]
            x[g + 3 + len(enc.phases) + P : off["outposts"]] = Z[: off["outposts"] - g - 3 - len(enc.phases) - P]
            rnd = st.round
            x[g + min(max(rnd, 1), 3) - 1] = 1.0
            g += 3
            x[g + phase] = 1.0
            g += len(enc.phases)
            g += P
            x[g + st.first] = 1.0
            g += P
            tb = st.tiebreaker
            x[g + (P if tb < 0 else tb)] = 1.0
            g += P + 1
            ch = st.champion
            x[g + (P if ch < 0 else ch)] = 1.0
            g += P + 1
            x[g] = float(bool(st.champion_out))
            x[g + 1] = clip01(len(st.deck) / 60.0)
            x[g + 2] = clip01(ROUND_VP[rnd] / 3.0)
        # --- outposts
        owner = st.owner
        if owner != v.owner or st.colours != v.colours or st.opts_pts != v.opts_pts:
            v.owner, v.colours, v.opts_pts = owner[:], st.colours, st.opts_pts
            ob = off["outposts"]
            of = 2 + P + 1
            x[ob : off["discard"]] = Z[: off["discard"] - ob]
            for c in st.colours:
                b = ob + c * of
                x[b] = 1.0
                x[b + 1] = clip01(st.opts_pts[c] / 9.0)
                o = owner[c]
                x[b + 2 + (P if o < 0 else o)] = 1.0
        K = enc.nkinds
        if st.discard != v.discard:
            v.discard = st.discard[:]
            b = off["discard"]
            c11 = t.c11
            for k, cnt in enumerate(st.discard):
                x[b + k] = c11[cnt]
        if st.set_aside != v.set_aside:
            v.set_aside = sa = st.set_aside
            b = off["set_aside"]
            x[b : b + 6] = Z[:6]
            x[b + (sa - 5 if sa >= 0 else 5)] = 1.0
        if st.muster != v.muster:
            v.muster = st.muster[:]
            mb = off["muster"]
            mf = 1 + K
            x[mb : off["seats"]] = Z[: off["seats"] - mb]
            c3 = t.c3
            for head, cards in st.muster:
                b = mb + t.group_of_head[head] * mf
                x[b] = 1.0
                for k in set(cards):
                    x[b + 1 + k] = c3[cards.count(k)]
        # --- seats: each field compared whole, then only the seats that changed rewritten
        if st.hand_n != v.hand_n:
            v.hand_n = self._scalar(st.hand_n, v.hand_n, x, 0, t.r20, n)
        if st.glory != v.glory:
            v.glory = self._scalar(st.glory, v.glory, x, 1, t.r10, n)
        if st.vp != v.vp:
            v.vp = self._scalar(st.vp, v.vp, x, 2, t.r20, n)
        if st.god != v.god:
            self._gods(st.god, v, x, n)
        if st.invoked != v.invoked:
            v.invoked = self._scalar(st.invoked, v.invoked, x, 4 + self.ngods, None, n)
        if st.passed != v.passed:
            v.passed = self._scalar(st.passed, v.passed, x, 5 + self.ngods, None, n)
        if st.known != v.known:
            self._counts(st.known, v.known, x, off["seats"] + 6 + len(enc.gods), n)
        h = st.hands[seat]
        was = v.hand
        if h != was:
            b = self.hand_off + seat * enc.seat_f
            c6 = t.c6
            if len(was) != len(h):
                for k, cnt in enumerate(h):
                    x[b + k] = c6[cnt]
            else:
                for k, cnt in enumerate(h):
                    if cnt != was[k]:
                        x[b + k] = c6[cnt]
            v.hand = h[:]
        if st.parties != v.parties:
            self._parties(st.parties, v.parties, x, seat, n)
        # --- the pending sub-decision
        mp = enc.max_party
        sub = st.sub
        if phase == SAGA_SLOT:
            pkey: tuple = (phase, *st.queue)
        elif phase == FREYA_END:
            pkey = (phase, sub if st.actor == seat else -1)
        else:
            pkey = (phase, sub)
        if pkey != v.pend:
            v.pend = pkey
            b = off["pending"]
            x[b:] = Z[: self.size - b]
            if phase == DEPLOY:
                x[b] = 1.0
                x[b + 6] = clip01(sub / 3.0)
            elif phase == REINFORCE_CARD:
                x[b + 1] = 1.0
                if 0 <= sub < mp:
                    x[b + 7 + sub] = 1.0
            elif phase == LOKI_SLOT:
                x[b + 2] = 1.0
                x[b + 7 + mp] = clip01(sub / 2.0)
            elif phase == FREYA_END:
                x[b + 3] = 1.0
                if pkey[1] >= 0:
                    x[b + 8 + mp + sub] = 1.0
            elif phase == SAGA_SLOT:
                x[b + 4] = 1.0
                o = b + 8 + mp + K
                for q in st.queue:
                    x[o + q] = 1.0
                if st.queue:
                    x[o + P + st.queue[0]] = 1.0
            elif phase == HEL_PLACE:
                x[b + 5] = 1.0
        return v.x

    def _scalar(self, new: list, old: list, x: Any, at: int, table: list[float] | None, n: int) -> list:
        """One per-seat number (feature ``at`` of each seat block; ``table[value]`` if the
        value is small, else its ratio clipped: see :class:`_Tables`; a flag when
        ``table`` is None), rewritten for the seats whose value differs from ``old``;
        returns the copy to keep."""
        b, sf = self.seats_off + at, self.enc.seat_f
        w = len(old)
        for q in range(n):
            val = new[q]
            if q >= w or val != old[q]:
                if table is None:
                    x[b + q * sf] = float(bool(val))
                else:
                    x[b + q * sf] = table[val] if 0 <= val < _NCOUNT else clip01(val / table[_NCOUNT])
        return new[:]

    def _gods(self, new: list[int], v: _View, x: Any, n: int) -> None:
        """Each seat's God, one-hot (the last position: none)."""
        b, sf, ng = self.seats_off + 3, self.enc.seat_f, self.ngods
        old = v.god
        for q in range(n):
            g = new[q]
            if q >= len(old) or g != old[q]:
                if q < len(old):
                    og = old[q]
                    x[b + q * sf + (og if og >= 0 else ng)] = 0.0
                x[b + q * sf + (g if g >= 0 else ng)] = 1.0
        v.god = new[:]

    def _counts(self, new: list[list[int]], old: list[list[int]], x: Any, base: int, n: int) -> None:
        """Count vectors (one per seat from ``base``, a seat block apart), /6 capped at 1;
        ``old`` (the copies last written) is brought up to date."""
        c6, sf = self.t.c6, self.enc.seat_f
        for q in range(n):
            kn = new[q]
            was = old[q] if q < len(old) else None
            if kn != was:
                b = base + q * sf
                if was is None or len(was) != len(kn):
                    for k, cnt in enumerate(kn):
                        x[b + k] = c6[cnt]
                else:
                    for k, cnt in enumerate(kn):
                        if cnt != was[k]:
                            x[b + k] = c6[cnt]
                if q < len(old):
                    old[q] = kn[:]
                else:
                    old.append(kn[:])

    def _parties(self, new: list[list[int]], old: list[list[int]], x: Any, seat: int, n: int) -> None:
        """Each seat's Party slots (a face-down card's kind only to its owner); only the
        slots that differ from the copy last written are rewritten."""
        enc, t = self.enc, self.t
        slf, mp = enc.slot_f, enc.max_party
        base = self.off["seats"] + 6 + len(enc.gods) + 2 * enc.nkinds
        while len(old) < n:
            old.append([])
        for q in range(n):
            party, was = new[q], old[q]
            if party == was:
                continue
            b = base + q * enc.seat_f
            rows = t.slot_rows[q == seat]
            for i, slot in enumerate(party[:mp]):
                if i >= len(was) or was[i] != slot:
                    x[b + i * slf : b + (i + 1) * slf] = rows[slot]
            m, w = min(len(party), mp), min(len(was), mp)
            if w > m:
                x[b + m * slf : b + w * slf] = t.zeros[: (w - m) * slf]
            old[q] = party[:]


_TABLES = _Tables(RED_NORTH)
