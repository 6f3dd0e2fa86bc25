"""Red North evaluation: expected Outpost control per colour, and the cards kept for later.

Used on determinizations only (resampled states, see :mod:`.common`): every face-down card
is a guess consistent with what the bot has seen, so reading the Parties leaks nothing.

A player's estimated final VP is

* the VP already scored;
* this round: for each Outpost in play, its round VP times the player's chance to hold it
  after the Resolution, a softmax of the current Raid Points (temperature
  ``t_round``: players who have not passed may still add strength; the Tie Breaker
  holder wins ties, so it counts half a point more; with no Raid Point at all the Outpost
  stays with its holder);
* the rounds left: the VP of all Outposts in them shared by *strength*: the Raid Points
  of the cards in hand (Raider 2, Hero 4, Jarl ``jarl``), Glory, the expected Muster
  Group for a player who has not passed yet and the God in front of them, raised to
  ``alpha`` (the stronger player wins more than their proportional share).

Utilities are a softmax of the estimates (``temperature`` in VP).
"""

from __future__ import annotations

import math

from ..rednorth.cards import JARL, KIND_POINTS, NKINDS, ROUND_VP, ROUNDS
from ..rednorth.gods import FREYA, HEL, LOKI, NORNIR, ODIN, SAGA, THOR, TYR
from ..rednorth.resolution import raid_points

GOD_HEAD = 16
GOD_STRENGTH = {THOR: 4.0, LOKI: 2.0, ODIN: 0.0, FREYA: 2.0, NORNIR: 0.5, TYR: 7.0, SAGA: 1.0, HEL: 2.5}
GOD_VP = {ODIN: 2.0}


class RNEval:
    def __init__(
        self,
        t_round: float = 1.2,
        alpha: float = 1.5,
        jarl: float = 1.5,
        glory: float = 1.0,
        temperature: float = 1.5,
        tie_edge: float = 0.5,
    ) -> None:
        self.t_round = t_round
        self.alpha = alpha
        self.temperature = temperature
        self.glory = glory
        self.tie_edge = tie_edge
        self.card_value = tuple(jarl if k == JARL else float(KIND_POINTS[k]) for k in range(NKINDS))

    def group_value(self, head: int, cards) -> float:
        cv = self.card_value
        v = sum(cv[k] for k in cards)
        if head < GOD_HEAD:
            v += cv[head]
        else:
            v += GOD_STRENGTH[head - GOD_HEAD] + 1.5 * GOD_VP.get(head - GOD_HEAD, 0.0)
        return v

    def add_round_vp(self, st, pts, rv: float, out: list[float]) -> None:
        """Add to ``out`` each seat's expected share of this round's ``rv`` VP per Outpost: an
        Outpost nobody raids stays with its owner; a raided one goes by a softmax (temperature
        ``t_round``) over the raid points ``pts``, the tiebreaker's counted ``tie_edge`` higher."""
        P = st.P
        owner = st.owner
        tb = st.tiebreaker
        t = self.t_round
        for c in st.colours:
            row = pts[c]
            best = max(row)
            if best <= 0:
                o = owner[c]
                if o >= 0:
                    out[o] += rv
                continue
            ws = []
            for q in range(P):
                x = row[q]
                if x <= 0:
                    ws.append(0.0)
                    continue
                if q == tb:
                    x += self.tie_edge
                ws.append(math.exp((x - best) / t))
            s = sum(ws)
            for q in range(P):
                if ws[q]:
                    out[q] += rv * ws[q] / s

    def estimates(self, st) -> list[float]:
        P = st.P
        vp = st.vp
        E = [float(v) for v in vp]
        tb = st.tiebreaker
        if st.result is not None:  # over
            if 0 <= tb < P:
                E[tb] += 0.25
            return E
        r = st.round
        rv = ROUND_VP[r]
        owner = st.owner
        self.add_round_vp(st, raid_points(st.parties, owner, st.opts_pts, st.in_play), rv, E)
        future = len(st.colours) * sum(ROUND_VP[r + 1 : ROUNDS + 1])
        if future:
            cv = self.card_value
            muster = st.muster
            mv = (sum(self.group_value(h, cards) for h, cards in muster) / len(muster)) if muster else 0.0
            S = []
            for q in range(P):
                h = st.hands[q]
                s = sum(h[k] * cv[k] for k in range(NKINDS) if h[k]) + self.glory * st.glory[q]
                if not st.passed[q]:
                    s += mv
                g = st.god[q]
                if g >= 0 and not st.invoked[q]:
                    s += GOD_STRENGTH[g]
                S.append(max(s, 0.1) ** self.alpha)
            tot = sum(S)
            for q in range(P):
                E[q] += future * S[q] / tot
        for q in range(P):
            g = st.god[q]
            if g >= 0 and not st.invoked[q]:
                E[q] += GOD_VP.get(g, 0.0)
        if 0 <= tb < P:
            E[tb] += 0.25
        return E

    def terminal_estimates(self, st) -> list[float]:
        return self.estimates(st)
