"""Red North's Resolution (steps A-E of the rulebook) and the next round's setup, as a mixin
of :class:`~.game.RedNorthState`.

The arithmetic (Raid Points, awarding an Outpost, Glory compensation, the final winner) is
the pure functions of :mod:`.resolution`; this module applies them to the state, runs the
Outposts' Resolution powers (their data in :mod:`.outposts`) and writes the public report.
"""

from __future__ import annotations

from .actions import GOD_HEAD
from .base import RedNorthBase
from .cards import COLOURS, GREEN, KIND_SLUG, RED, ROUND_VP, ROUNDS, SUMMER_MUSTER_CARDS
from .effects import Effect
from .gods import NGODS
from .outposts import OUTPOSTS
from .party import KIND_MASK, UP
from .phases import OVER
from .resolution import award, final_winner, glory_compensation, most_vp_first_player, raid_points

#: The Outposts' Resolution effects by colour (None: no such power), with their slugs.
RESOLUTION_POWERS: tuple[tuple[Effect, str] | None, ...] = tuple(
    (o.resolution, o.slug) if o.resolution is not None else None for o in OUTPOSTS
)


def seat_or_none(x: int) -> int | None:
    return x if x >= 0 else None


class Resolution(RedNorthBase):
    """The Resolution and the next round's setup (see the module docstring)."""

    __slots__ = ()

    def _resolve(self) -> None:
        P = self.P
        r = self.round
        parties = self.parties
        # A - reveal, then Raid Points per colour.
        for p in range(P):
            party = parties[p]
            for i, s in enumerate(party):
                if not s & UP:
                    party[i] = s | UP
                    self.reveal_card(p, s & KIND_MASK)
        points = raid_points(parties, self.owner, self.opts_pts, self.in_play)
        # B - award Outposts (Tie Breaker as of the start of the Resolution), score VP.
        before = list(self.owner)
        how = {}
        for c in self.colours:
            self.owner[c], how[c] = award(points[c], self.owner[c], self.tiebreaker)
        vp_gain = [0] * P
        for c in self.colours:
            if self.owner[c] >= 0:
                vp_gain[self.owner[c]] += ROUND_VP[r]
        for p in range(P):
            self.vp[p] += vp_gain[p]
        # C - Glory compensation.
        glory_gain = glory_compensation(parties, self.owner, self.in_play)
        for p in range(P):
            self.glory[p] += glory_gain[p]
        # D - the Outposts' tokens and cards, in colour order (Ragnarok: only the powers
        # that act then, the Tie Breaker). Without Angleland the First Player token goes by VP.
        drawn = None
        last = r >= ROUNDS
        for c in self.colours:
            power = RESOLUTION_POWERS[c]
            o = self.owner[c]
            if power is None or o < 0 or (last and not power[0].ragnarok):
                continue
            note = power[0].resolve(self, o, power[1])
            if note is not None:
                drawn = note
        if not last and not self.in_play[RED]:
            self.first = most_vp_first_player(self.vp, self.first, self.owner[GREEN])
        report = {
            "round": r,
            "parties": [[KIND_SLUG[s & KIND_MASK] for s in parties[p]] for p in range(P)],
            "raid_points": {COLOURS[c]: points[c] for c in self.colours},
            "outposts": {
                COLOURS[c]: {
                    "before": seat_or_none(before[c]),
                    "controller": seat_or_none(self.owner[c]),
                    "decided_by": how[c],
                }
                for c in self.colours
            },
            "vp": vp_gain,
            "glory": glory_gain,
            "first_player": self.first,
            "tie_breaker": seat_or_none(self.tiebreaker),
            "champion": seat_or_none(self.champion),
            "frankenland_draw": drawn,
        }
        self.reports.append(report)
        self.log_event("resolution", report)
        if last:  # E is skipped in Ragnarok; the game ends.
            self.phase = OVER
            self.actor = -1
            winner, step = final_winner(self.vp, self.tiebreaker, self.glory, self.hand_n, self.first)
            self.result = (winner, step)
            self.log_event(
                "game-end",
                {
                    "vp": list(self.vp),
                    "glory": list(self.glory),
                    "hand_sizes": list(self.hand_n),
                    "winner": winner,
                    "decided_by": step,
                },
            )
            return
        self._next_round()

    def _next_round(self) -> None:
        """Step E: Parties and leftover Muster Groups to the discard pile (the unclaimed Hero
        set aside for Thor), Summer's God Muster Groups after Spring, then the next round."""
        r = self.round
        discard = self.discard
        parties = self.parties
        for p in range(self.P):
            for s in parties[p]:
                discard[s & KIND_MASK] += 1  # Glory tokens on them return to the supply
            parties[p] = []
        self.champion_out = False
        for head, cards in self.muster:
            if head < GOD_HEAD and self.set_aside < 0:
                self.set_aside = head  # the unclaimed Hero is set aside for Thor
            elif head < GOD_HEAD:  # pragma: no cover - only one group is ever left
                discard[head] += 1
            for k in cards:
                discard[k] += 1
        self.muster = []
        if r == 1:
            gods = list(range(NGODS))
            self.rng.shuffle(gods)
            self.muster = [(GOD_HEAD + g, self.draw_pile(SUMMER_MUSTER_CARDS)) for g in sorted(gods[: self.P + 1])]
        self.round = r + 1
        self._start_round()
