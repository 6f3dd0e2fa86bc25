"""Red Rising's observation, kept up to date from the engine's fields instead of rebuilt from a view.

The reference is :class:`~.observations.RedRisingEncoder` (it reads ``state.view(seat)``).
:class:`RedRisingObserver` writes the same float32 vector from the fields of
:class:`~redtable.redrising.state.RRStateBase`, rewriting only what changed since that
seat's last observation:

* a card's row (13 features) depends on where it lies; each place (the seat's hand, the
  banished pile, the four locations) keeps a copy of its list as last written. A card
  that left a place is cleared (unseen) first, then the cards that arrived are written. A
  location's rows depend on depth from the top, which saturates at 10: when a pile grows
  or shrinks at the top only the rows near the top change, so only those are rewritten;
* the colour counts follow the same diffs; seats, globals and the pending decision
  (the decision object itself: the engine makes a new one per decision) are compared
  whole;
* the face-down cards the seat cannot identify change which rows are anonymous: when that
  set (or the set of face-down cards) changes, everything is rewritten.

The invariant: ``observe(state, seat)`` equals ``RED_RISING.encode(state.view(seat))`` bit
for bit (``tests/envs/test_env_incremental.py``), whatever the order of calls and even when
the state object is swapped for another (every part compares its inputs, not the history).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..redrising.cards import COLOR
from .observations import RED_RISING, RR_DECISION_KINDS, RedRisingEncoder, clip01

_DEPTH_CAP = 10  # depth from the top is min(d * 0.1, 1): equal for every d >= 10
_INDEX_CAP = 30  # index from the bottom is min(i / 30, 1)


def _sums(step: float, n: int) -> list[float]:
    """The colour counts as the reference adds them: ``step`` added k times, then clipped."""
    out, acc = [], 0.0
    for _ in range(n):
        out.append(acc if acc <= 1.0 else 1.0)
        acc += step
    return out


class _Tables:
    def __init__(self, enc: RedRisingEncoder) -> None:
        cf = enc.card_f
        rows = np.zeros((4, _DEPTH_CAP + 1, _INDEX_CAP + 1, 2, 10), dtype=np.float32)
        for li in range(4):
            for d in range(_DEPTH_CAP + 1):
                for i in range(_INDEX_CAP + 1):
                    for fd in (0, 1):
                        r = rows[li, d, i, fd]
                        r[2 + li] = 1.0
                        r[6] = float(d == 0)
                        r[7] = min(d * 0.1, 1.0)
                        r[8] = min(i / 30.0, 1.0)
                        r[9] = float(fd)
        # pile_rows[location][depth][index][face down]: columns 0-9 of a card's row
        self.pile_rows = [[[[memoryview(r) for r in by_i] for by_i in by_d] for by_d in by_li] for by_li in rows]
        self.acc02 = _sums(0.2, 200)
        self.acc0125 = _sums(0.125, 200)
        self.zeros = np.zeros(enc.size, dtype=np.float32).data
        assert cf == 13


_TABLES = _Tables(RED_RISING)
_UNSET = object()  # no decision written yet (None is the finished game's)


class _View:
    """One seat's vector and the inputs each part was last written from."""

    __slots__ = (
        "x",
        "m",
        "n",
        "hidden",
        "hand",
        "banished",
        "piles",
        "pile_cols",
        "hand_cols",
        "glob",
        "seats",
        "dec",
        "marks",
        "fleet",
        "helium",
        "influence",
        "turns",
        "sovereign",
        "hand_sizes",
        "houses",
    )

    def __init__(self, size: int) -> None:
        self.x = np.zeros(size, dtype=np.float32)
        self.m = self.x.data
        self.clear(-1)

    def clear(self, n: int) -> None:
        self.x.fill(0.0)
        self.n = n
        self.hidden: tuple | None = None  # (face-down cards, those the seat cannot identify)
        self.hand: list[int] = []
        self.banished: list[int] = []
        self.piles: list[list[int]] = [[], [], [], []]
        self.pile_cols: list[list[int]] = [[0] * 14 for _ in range(4)]
        self.hand_cols: list[int] = [0] * 14
        self.glob: tuple | None = None
        self.seats: list[tuple | None] = [None] * 6
        # the seat fields as last written
        self.fleet: list[int] = []
        self.helium: list[int] = []
        self.influence: list[int] = []
        self.turns: list[int] = []
        self.sovereign = -2
        self.hand_sizes: list[int] = []
        self.houses: tuple[int, ...] = ()
        self.dec: Any = _UNSET
        self.marks: list[int] = []


class RedRisingObserver:
    """Observations of Red Rising positions for seats ``0..5`` (see the module doc).

    ``observe`` returns the seat's own buffer, rewritten by the next call for that seat."""

    def __init__(self, enc: RedRisingEncoder = RED_RISING) -> None:
        self.enc = enc
        self.size = enc.size
        self.t = _TABLES if enc is RED_RISING else _Tables(enc)
        self.views = [_View(enc.size) for _ in range(enc.max_players)]
        L = enc.layout
        self.off = {k: L[k] for k in L.segments}

    def observe(self, st: Any, seat: int) -> np.ndarray:
        v = self.views[seat]
        x: Any = v.m
        off = self.off
        n = st.n
        if v.n != n:
            self._start(v, n, seat)
        facedown = st.facedown
        if facedown:
            kn = st.known[seat]
            hidden: tuple | None = (tuple(facedown), tuple(c for c in facedown if c not in kn))
        else:
            hidden = None
        if hidden != v.hidden:
            self._cards_afresh(v)
            v.hidden = hidden
        self._globals(st, v, x, off, n)
        self._cards(st, v, x, seat)
        d = st.dec
        if d is not v.dec:
            v.dec = d
            self._decision(d, v, x, seat)
        return v.x

    # ------------------------------------------------------------------ parts
    def _start(self, v: _View, n: int, seat: int) -> None:
        v.clear(n)
        x: Any = v.m
        off = self.off
        x[off["me"] + seat] = 1.0
        for p in range(n):
            x[off["present"] + p] = 1.0
        self._cards_afresh(v)

    def _cards_afresh(self, v: _View) -> None:
        """Every card unseen, every place empty: the next pass writes them all."""
        enc, off = self.enc, self.off
        x: Any = v.m
        cb, cf = off["cards"], enc.card_f
        x[cb : cb + enc.ncards * cf] = self.t.zeros[: enc.ncards * cf]
        for c in range(enc.ncards):
            x[cb + c * cf + 12] = 1.0
        x[off["locations"] : off["decision"]] = self.t.zeros[: off["decision"] - off["locations"]]
        v.hand, v.banished, v.piles = [], [], [[], [], [], []]
        v.pile_cols = [[0] * 14 for _ in range(4)]
        v.hand_cols = [0] * 14
        v.marks = []
        v.dec = _UNSET  # the marks of the decision's cards went with the rows

    def _globals(self, st: Any, v: _View, x: Any, off: dict[str, int], n: int) -> None:
        ts = st.turn_stack
        key = (
            st.first,
            ts[-1].player if ts else -1,
            len(st.deck),
            st.neutral,
            st.end_triggered,
            st.variant,
            st.phase,
        )
        if key != v.glob:
            old = v.glob
            v.glob = key
            Z = self.t.zeros
            if old is not None:
                x[off["first"] + old[0]] = 0.0
                if old[1] >= 0:
                    x[off["turn"] + old[1]] = 0.0
            x[off["first"] + key[0]] = 1.0
            if key[1] >= 0:
                x[off["turn"] + key[1]] = 1.0
            g = off["globals"]
            x[g : g + 7] = Z[:7]
            x[g] = clip01(key[2] / 112.0)
            x[g + 1] = clip01(key[3] / 3.0)
            x[g + 2] = float(bool(key[4]))
            x[g + 3] = float(bool(key[5]))
            x[g + 4 + self.enc.phases.get(key[6], 0)] = 1.0
        hands = st.hands
        if (
            st.fleet != v.fleet
            or st.helium != v.helium
            or st.influence != v.influence
            or st.turns != v.turns
            or st.sovereign != v.sovereign
            or list(map(len, hands)) != v.hand_sizes
            or st.houses != v.houses
        ):
            self._seats(st, v, x, n)

    def _seats(self, st: Any, v: _View, x: Any, n: int) -> None:
        sf = self.enc.seat_f
        off = self.off
        hands, fleet, helium, infl, turns, sov = st.hands, st.fleet, st.helium, st.influence, st.turns, st.sovereign
        seats = v.seats
        for p in range(n):
            s = (st.houses[p], len(hands[p]), fleet[p], helium[p], infl[p], sov == p, turns[p])
            if s != seats[p]:
                seats[p] = s
                b = off["seats"] + p * sf
                x[b : b + sf] = self.t.zeros[:sf]
                x[b + s[0]] = 1.0
                x[b + 6] = clip01(s[1] / 16.0)
                x[b + 7] = clip01(s[2] / 10.0)
                x[b + 8] = clip01(s[3] / 10.0)
                x[b + 9] = clip01(s[4] / 10.0)
                x[b + 10] = float(s[5])
                x[b + 11] = clip01(s[6] / 30.0)
                x[b + 12] = float(s[2] >= 7)
                x[b + 13] = float(s[3] >= 7)
                x[b + 14] = float(s[4] >= 7)
        v.fleet, v.helium, v.influence, v.turns = fleet[:], helium[:], infl[:], turns[:]
        v.sovereign = sov
        v.hand_sizes = list(map(len, hands))
        v.houses = st.houses

    def _cards(self, st: Any, v: _View, x: Any, seat: int) -> None:
        enc, off, t = self.enc, self.off, self.t
        cb, cf = off["cards"], enc.card_f
        col = off["colours"]
        hidden = v.hidden
        anon = hidden[1] if hidden is not None else ()
        fdown = hidden[0] if hidden is not None else ()
        hand = st.hands[seat]
        ban = st.banished
        locs = st.locs
        hand_changed = hand != v.hand
        ban_changed = ban != v.banished
        piles = v.piles
        dirty = [li for li in range(4) if locs[li] != piles[li]]
        if not (hand_changed or ban_changed or dirty):
            return
        # 1. clear every card that left a changed place
        left: set[int] = set()
        if hand_changed:
            left.update(v.hand)
            left.difference_update(hand)
        if ban_changed:
            left.update(set(v.banished).difference(ban))
        starts = {}
        for li in dirty:
            old, new = piles[li], locs[li]
            lo, ln = len(old), len(new)
            top = min(lo, ln)
            if old[:top] == new[:top]:  # grown or shrunk at the top: the usual move
                pre = top
            else:
                pre = 0
                while old[pre] == new[pre]:
                    pre += 1
            start = min(pre, max(0, min(lo, ln) - _DEPTH_CAP)) if lo != ln else pre
            starts[li] = start
            left.update(set(old[start:]).difference(new[start:]))
        Z = t.zeros
        for c in left:
            o = cb + c * cf
            x[o : o + 10] = Z[:10]
            x[o + 12] = 1.0
        # 2. write the places that changed
        if hand_changed:
            # the colour counts follow the cards that left and came (the anonymous cards
            # are fixed until _cards_afresh, which empties v.hand and the counts)
            acc = t.acc02
            cnt = v.hand_cols
            old_hand = v.hand
            touched = set()
            for c in set(old_hand).difference(hand):
                if c not in anon:
                    cnt[COLOR[c]] -= 1
                    touched.add(COLOR[c])
            for c in set(hand).difference(old_hand):
                if c not in anon:
                    cnt[COLOR[c]] += 1
                    touched.add(COLOR[c])
                    o = cb + c * cf
                    x[o] = 1.0
                    x[o + 12] = 0.0
            for k in touched:
                x[col + k] = acc[cnt[k]]
            v.hand = hand[:]
        if ban_changed:
            acc = t.acc0125
            cnt = [0] * 14
            for c in ban:
                cnt[COLOR[c]] += 1
            for c in set(ban).difference(v.banished):
                o = cb + c * cf
                x[o + 1] = 1.0
                x[o + 12] = 0.0
            b = col + 5 * 14
            for k in range(14):
                x[b + k] = acc[cnt[k]]
            v.banished = ban[:]
        lb = off["locations"]
        for li in dirty:
            old, new = piles[li], locs[li]
            start = starts[li]
            ln = len(new)
            rows = t.pile_rows[li]
            cols = v.pile_cols[li]
            touched = set()
            for c in old[start:]:
                if c not in anon and c not in fdown:
                    cols[COLOR[c]] -= 1
                    touched.add(COLOR[c])
            for i in range(start, ln):
                c = new[i]
                if c in anon:
                    continue
                fd = c in fdown
                if not fd:
                    cols[COLOR[c]] += 1
                    touched.add(COLOR[c])
                d = ln - 1 - i
                o = cb + c * cf
                x[o : o + 10] = rows[d if d < _DEPTH_CAP else _DEPTH_CAP][i if i < _INDEX_CAP else _INDEX_CAP][fd]
                x[o + 12] = 0.0
            acc = t.acc02
            b = col + (1 + li) * 14
            for k in touched:
                x[b + k] = acc[cols[k]]
            na = sum(1 for c in new if c in anon) if anon else 0
            x[lb + li * 3] = clip01(ln / 30.0)
            x[lb + li * 3 + 1] = clip01(na / 4.0)
            x[lb + li * 3 + 2] = float(ln > 0 and new[-1] in anon)
            piles[li] = new[:]

    def _decision(self, d: Any, v: _View, x: Any, seat: int) -> None:
        enc, off = self.enc, self.off
        cb, cf = off["cards"], enc.card_f
        for o in v.marks:
            x[o] = 0.0
        v.marks = []
        db = off["decision"]
        x[db:] = self.t.zeros[: self.size - db]
        if d is None:
            return
        nk = len(RR_DECISION_KINDS)
        x[db + enc.kinds.get(d.kind, nk)] = 1.0
        x[db + nk + 1 + d.player] = 1.0
        mine = d.player == seat
        x[db + nk + 1 + enc.max_players] = float(mine)
        ctx = d.context if mine else None
        if not ctx:
            return
        card, others = enc.context_cards(ctx)
        marks = [cb + c * cf + 11 for c in others]
        if card is not None:
            marks.append(cb + card * cf + 10)
        for o in marks:
            x[o] = 1.0
        v.marks = marks
        b = off["context"]
        for i, f in enumerate(enc.context_segment(ctx)):
            if f:
                x[b + i] = f
