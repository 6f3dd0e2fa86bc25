"""Red North's turn flow: Deployment, the Outposts' after-Deployment powers, the Player
Actions (Withdraw, Reinforce, Inspire, Promote, Invoke, Pass) and the Gods' follow-up
choices, as a mixin of :class:`~.game.RedNorthState`.

Every point where a player chooses is a :class:`~redtable.core.Decision`; a choice is
offered even with one option (the engine never chooses for a player), and steps with no
choice at all are skipped. The Gods' and Outposts' powers are the effects of their data
(:mod:`.gods`, :mod:`.outposts`): this module only says when they run and what follows.
"""

from __future__ import annotations

from ..core import Decision
from .actions import (
    CARD_END,
    CARD_END_OF,
    GOD_HEAD,
    INSPIRE,
    INVOKE,
    LEFT,
    OP_INSPIRE,
    OP_PASS,
    OP_PROMOTE,
    OP_REINFORCE,
    OP_WITHDRAW,
    PASS,
    PASS_GROUP,
    PROMOTE,
    REINFORCE,
    TURN_OPS,
    WITHDRAW,
    group_slug,
)
from .base import RedNorthBase
from .cards import BLUE, JARL, KIND_OF_SLUG, KIND_SLUG, NKINDS, PARTY_SIZE, ROUND_NAMES, ROUNDS
from .choices import ENDS
from .effects import Effect
from .gods import GODS
from .outposts import OUTPOSTS
from .party import CHAMP, GLORY, GLORY_SHIFT, KIND_MASK, UP
from .phases import DEPLOY, REINFORCE_CARD, TURN

#: The Outposts' after-Deployment effects by colour (None: no such power).
AFTER_DEPLOYMENT: tuple[Effect | None, ...] = tuple(o.after_deployment for o in OUTPOSTS)
#: Phase of a follow-up choice -> (its effect, its owner's slug, the Outpost colour or -1 for a God).
FOLLOW_UPS: dict[int, tuple[Effect, str, int]] = {}
for _g in GODS:
    if _g.effect.phase >= 0:
        FOLLOW_UPS[_g.effect.phase] = (_g.effect, _g.slug, -1)
for _o in OUTPOSTS:
    if _o.after_deployment is not None and _o.after_deployment.phase >= 0:
        FOLLOW_UPS[_o.after_deployment.phase] = (_o.after_deployment, _o.slug, _o.colour)
_GOD_EFFECTS: tuple[Effect, ...] = tuple(g.effect for g in GODS)
_GOD_SLUGS: tuple[str, ...] = tuple(g.slug for g in GODS)


class TurnFlow(RedNorthBase):
    """Deployment, the Player Actions and the powers' choices (see the module docstring)."""

    __slots__ = ()

    def _start_round(self) -> None:
        self.passed = [False] * self.P
        self.log_event(
            "round",
            {
                "round": self.round,
                "name": ROUND_NAMES[self.round],
                "first_player": self.first,
                "muster": [
                    {"group": group_slug(h), "cards": [KIND_SLUG[k] for k in cards]} for h, cards in self.muster
                ],
            },
        )
        self.phase = DEPLOY
        self.sub = 0
        self.actor = -1
        self._next_deployer(0)

    # Deployment ----------------------------------------------------------------
    def _deploy_decision(self) -> Decision:
        p = self.actor
        h = self.hands[p]
        return Decision(
            p,
            "deploy",
            tuple([KIND_SLUG[k] for k in range(NKINDS) if h[k]]),
            {"placed": self.sub, "party_size": PARTY_SIZE},
        )

    def _apply_deploy(self, action: str) -> None:
        p = self.actor
        k = KIND_OF_SLUG[action]
        self.hands[p][k] -= 1
        self.hand_n[p] -= 1
        self.parties[p].append(k)
        self.sub += 1
        self.log_event("deploy", {"player": p, "card": action, "slot": self.sub - 1}, (p,))
        if self.sub >= PARTY_SIZE or not self.hand_n[p]:
            self.log_event("deployed", {"player": p, "count": self.sub})
            self.sub = 0
            self._next_deployer(p + 1)

    def _next_deployer(self, start: int) -> None:
        for q in range(start, self.P):
            if self.hand_n[q]:
                self.actor = q
                return
        self._after_deploy(0)

    def _after_deploy(self, start: int = 0) -> None:
        """Offer each controlled Outpost's after-Deployment power, in colour order from ``start``."""
        for c in self.colours:
            if c < start:
                continue
            eff = AFTER_DEPLOYMENT[c]
            if eff is None:
                continue
            o = self.owner[c]
            if o >= 0 and eff.can(self, o):
                self.phase = eff.phase
                self.actor = o
                return
        self.phase = TURN
        self.actor = self.first

    # Follow-up choices of the Gods and Outposts -----------------------------------
    def _follow_up_decision(self) -> Decision:
        eff, _, _ = FOLLOW_UPS[self.phase]
        return eff.decision(self, self.actor)

    def _apply_follow_up(self, action: str) -> None:
        eff, tag, colour = FOLLOW_UPS[self.phase]
        if eff.choose(self, action, tag):
            if colour >= 0:
                self._after_deploy(colour + 1)
            else:
                self._end_turn()

    # Player actions --------------------------------------------------------------
    def _turn_decision(self) -> Decision:
        p = self.actor
        party = self.parties[p]
        can_inspire = self.glory[p] > 0
        can_promote = self.champion == p and not self.champion_out and self.owner[BLUE] == p
        fd = []
        more = []
        i = 0
        for s in party:
            if s & UP:
                if s & KIND_MASK == JARL:
                    if can_promote:
                        more.append(PROMOTE[i])
                elif can_inspire:
                    more.append(INSPIRE[i])
            else:
                fd.append(i)
            i += 1
        opts = [WITHDRAW[i] for i in fd]
        if fd and self.hand_n[p]:
            opts += [REINFORCE[i] for i in fd]
        if more:
            opts += more
        if self.round == ROUNDS:
            g = self.god[p]
            if g >= 0 and not self.invoked[p] and _GOD_EFFECTS[g].can(self, p):
                opts.append(INVOKE[g])
        if self.muster:
            opts += [PASS_GROUP[h] for h, _ in self.muster]
        else:
            opts.append(PASS)
        return Decision(p, "turn", tuple(opts), {"round": self.round})

    def _apply_turn(self, action: str) -> None:
        op, arg = TURN_OPS[action]
        p = self.actor
        party = self.parties[p]
        if op == OP_INSPIRE:
            self.glory[p] -= 1
            party[arg] += GLORY
            self.log_event("inspire", {"player": p, "slot": arg})
        elif op == OP_WITHDRAW:
            s = party.pop(arg)
            self.hands[p][s & KIND_MASK] += 1
            self.hand_n[p] += 1
            # Glory on a withdrawn card (Loki) goes back to the supply.
            self.log_event("withdraw", {"player": p, "slot": arg, "glory_lost": s >> GLORY_SHIFT})
        elif op == OP_REINFORCE:
            s = party[arg]
            party[arg] = s | UP
            self.reveal_card(p, s & KIND_MASK)
            self.phase = REINFORCE_CARD
            self.sub = arg
            self.log_event("flip", {"player": p, "slot": arg, "card": KIND_SLUG[s & KIND_MASK]})
            return
        elif op == OP_PASS:
            self.passed[p] = True
            self._pass(p, arg)
        elif op == OP_PROMOTE:
            party[arg] |= CHAMP
            self.champion_out = True
            self.log_event("promote", {"player": p, "slot": arg})
        else:  # OP_INVOKE: the God's effect; it may ask a further choice (its phase)
            self.invoked[p] = True
            slug = _GOD_SLUGS[arg]
            self.log_event("invoke", {"player": p, "god": slug})
            if _GOD_EFFECTS[arg].run(self, p, slug):
                return
        self._end_turn()

    def _reinforce_decision(self) -> Decision:
        p = self.actor
        h = self.hands[p]
        opts: list[str] = []
        for k in range(NKINDS):
            if h[k]:
                opts += CARD_END[k]
        return Decision(p, "reinforce", tuple(opts), {"flipped": self.sub})

    def _apply_reinforce(self, action: str) -> None:
        p = self.actor
        k, end = CARD_END_OF[action]
        self.hands[p][k] -= 1
        self.hand_n[p] -= 1
        self.reveal_card(p, k)
        if end == LEFT:
            self.parties[p].insert(0, k | UP)
        else:
            self.parties[p].append(k | UP)
        self.log_event("reinforce", {"player": p, "card": KIND_SLUG[k], "end": ENDS[end]})
        self._end_turn()

    def _pass(self, p: int, head: int) -> None:
        if head < 0:
            self.log_event("pass", {"player": p})
            return
        idx = next(i for i, (h, _) in enumerate(self.muster) if h == head)
        cards = self.muster.pop(idx)[1]
        hand, known = self.hands[p], self.known[p]
        taken = list(cards)
        if head < GOD_HEAD:
            taken.append(head)
        else:
            self.god[p] = head - GOD_HEAD
        for k in taken:
            hand[k] += 1
            known[k] += 1  # Muster Groups are face up: everybody saw these cards go
        self.hand_n[p] += len(taken)
        self.log_event("pass", {"player": p, "group": group_slug(head), "cards": [KIND_SLUG[k] for k in taken]})

    def _end_turn(self) -> None:
        P = self.P
        passed = self.passed
        a = self.actor
        for i in range(1, P + 1):
            q = (a + i) % P
            if not passed[q]:
                self.actor = q
                self.phase = TURN
                return
        self._resolve()
