"""What players see of a Red North position, and the words for it: the per-seat ``view``,
the pending choice's public face, ``describe`` of an option, the game's ``summary`` and
the statistics over many games (``summarize``), as a mixin of :class:`~.game.RedNorthState`.

Names and texts come from the data (:mod:`.cards`, :mod:`.gods`, :mod:`.outposts`), so what
a player reads is what the engine does.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from .actions import (
    ACTION_TEXT,
    CARD_END_OF,
    CARD_POS_OF,
    ENDS,
    GIVE_OF,
    GOD_HEAD,
    KEEP,
    OP_INSPIRE,
    OP_INVOKE,
    OP_PROMOTE,
    OP_REINFORCE,
    OP_WITHDRAW,
    SKIP,
    SLOT_OF,
    TURN_OPS,
    group_slug,
)
from .base import RedNorthBase
from .cards import COLOURS, KIND_OF_SLUG, KIND_SLUG, KINDS, RED, ROUND_NAMES, ROUND_VP, ROUNDS, YELLOW, counts_to_slugs
from .gods import GODS
from .outposts import OUTPOSTS
from .party import KIND_MASK, slot_view
from .phases import DEPLOY, FREYA_END, HEL_PLACE, LOKI_SLOT, OVER, PHASE_NAMES, REINFORCE_CARD, SAGA_SLOT
from .rounds import seat_or_none as _seat

KINDS_OF = KIND_OF_SLUG


class Views(RedNorthBase):
    """Views, descriptions and summaries (see the module docstring)."""

    __slots__ = ()

    def view(self, player: int | None) -> dict[str, Any]:
        P = self.P
        seats = []
        for q in range(P):
            own = player == q
            g = self.god[q]
            seat = {
                "seat": q,
                "hand_size": self.hand_n[q],
                "party": [slot_view(s, own) for s in self.parties[q]],
                "glory": self.glory[q],
                "vp": self.vp[q],
                "god": GODS[g].slug if g >= 0 else None,
                "invoked": self.invoked[q],
                "passed": self.passed[q],
                "known_hidden": counts_to_slugs(self.known[q]),
            }
            if own:
                seat["hand"] = counts_to_slugs(self.hands[q])
            seats.append(seat)
        over = self.phase == OVER
        v: dict[str, Any] = {
            "game": "red-north",
            "player": player,
            "players": P,
            "round": self.round,
            "round_name": ROUND_NAMES[self.round],
            "round_vp": ROUND_VP[self.round],
            "phase": PHASE_NAMES[self.phase],
            "to_act": None if over else self.actor,
            "first_player": self.first,
            "tie_breaker": _seat(self.tiebreaker),
            "champion": {"holder": _seat(self.champion), "placed": self.champion_out},
            "outposts": [
                {
                    "colour": COLOURS[c],
                    "name": OUTPOSTS[c].name,
                    "points": self.opts_pts[c],
                    "controller": _seat(self.owner[c]),
                    "text": OUTPOSTS[c].text,
                }
                for c in self.colours
            ],
            "deck_size": len(self.deck),
            "discard": counts_to_slugs(self.discard),
            "set_aside_hero": KIND_SLUG[self.set_aside] if self.set_aside >= 0 else None,
            "muster": [_group_view(h, cards) for h, cards in self.muster],
            "gods": {g.slug: g.text for g in GODS},
            "seats": seats,
            "pending": self._pending_view(player),
            "resolutions": list(self.reports),
        }
        if over and self.result is not None:  # the game ends with its result
            v["result"] = {"winner": self.result[0], "decided_by": self.result[1], "vp": list(self.vp)}
        return v

    def _pending_view(self, player: int | None) -> dict | None:
        ph = self.phase
        if ph == DEPLOY:
            return {"action": "deploy", "player": self.actor, "placed": self.sub}
        if ph == REINFORCE_CARD:
            return {"action": "reinforce", "player": self.actor, "flipped": self.sub}
        if ph == LOKI_SLOT:
            return {"action": "loki", "player": self.actor, "glory_left": self.sub}
        if ph == FREYA_END:
            return {
                "action": "freya",
                "player": self.actor,
                "card": KIND_SLUG[self.sub] if player == self.actor else None,
            }
        if ph == SAGA_SLOT:
            return {"action": "saga", "player": self.actor, "opponents": list(self.queue)}
        if ph == HEL_PLACE:
            return {"action": "hel", "player": self.actor}
        return None

    def information_key(self, player: int | None) -> str:
        """Equal for two states ``player`` cannot tell apart."""
        return json.dumps(self.view(player), sort_keys=True, separators=(",", ":"))

    def describe(self, action: str) -> str:
        d = self.decision()
        kind = d.kind if d is not None else ""
        return describe_action(self, kind, action)

    # -------------------------------------------------------------------- results
    def scores(self) -> list[float]:
        return [float(v) for v in self.vp]

    def winners(self) -> list[int]:
        return [self.result[0]] if self.result is not None else []

    def summary(self) -> dict[str, Any]:
        out = super().summary()
        out.update(
            {
                "vp": list(self.vp),
                "glory": list(self.glory),
                "hand_sizes": list(self.hand_n),
                "winner": self.result[0] if self.result else None,
                "decided_by": self.result[1] if self.result else None,
                "outposts": [COLOURS[c] for c in self.colours],
                "controllers": [{c: rep["outposts"][c]["controller"] for c in rep["outposts"]} for rep in self.reports],
                "gods": [GODS[g].slug if g >= 0 else None for g in self.god],
                "invoked": list(self.invoked),
                "first_player": self.first,
                "tie_breaker": _seat(self.tiebreaker),
                # per round, from the Resolution reports: VP and Glory compensation gained per seat
                "vp_by_round": [list(rep["vp"]) for rep in self.reports],
                "glory_by_round": [list(rep["glory"]) for rep in self.reports],
                "first_player_by_round": [e.data["first_player"] for e in self.events if e.kind == "round"],
            }
        )
        return out


def _group_view(head: int, cards: tuple[int, ...]) -> dict:
    if head < GOD_HEAD:
        k = KINDS[head]
        top = {"type": "hero", "slug": k.slug, "name": k.name, "text": k.text}
    else:
        g = GODS[head - GOD_HEAD]
        top = {"type": "god", "slug": g.slug, "name": g.name, "text": g.text}
    return {"group": group_slug(head), "top": top, "cards": [KIND_SLUG[k] for k in cards]}


def _card_text(kind: int) -> str:
    return KINDS[kind].text


def describe_action(state: RedNorthBase, kind: str, action: str) -> str:
    """A player-facing sentence for an option, rendered from the card/God/Outpost data."""
    p = state.actor
    if kind == "deploy":
        k = KINDS_OF[action]
        return f"Deploy {KINDS[k].name} face-down. {ACTION_TEXT['deploy']} ({_card_text(k)})"
    if kind == "turn":
        op, arg = TURN_OPS[action]
        if op == OP_WITHDRAW:
            return f"Withdraw the face-down card in slot {arg}. {ACTION_TEXT['withdraw']}"
        if op == OP_REINFORCE:
            return f"Reinforce, turning up the face-down card in slot {arg}. {ACTION_TEXT['reinforce']}"
        if op == OP_INSPIRE:
            k = state.parties[p][arg] & KIND_MASK
            return f"Inspire the {KINDS[k].name} in slot {arg}. {ACTION_TEXT['inspire']}"
        if op == OP_PROMOTE:
            return f"Promote the Jarl in slot {arg}. {ACTION_TEXT['promote']}"
        if op == OP_INVOKE:
            g = GODS[arg]
            return f"Invoke {g.name}: {g.text}"
        if arg < 0:
            return f"Pass. {ACTION_TEXT['pass']}"
        for head, cards in state.muster:
            if head == arg:
                names = ", ".join(KINDS[k].name for k in cards)
                god = GODS[head - GOD_HEAD] if head >= GOD_HEAD else None
                top = KINDS[head].name if god is None else f"{god.name} ({god.text})"
                return f"Pass and take the Muster Group {top} with {names or 'no cards'}."
    if kind in ("reinforce", "sax"):
        if action == SKIP:
            return f"Do not use {OUTPOSTS[YELLOW].name}."
        k, end = CARD_END_OF[action]
        verb = "Add" if kind == "reinforce" else f"{OUTPOSTS[YELLOW].name}: add the discarded"
        return f"{verb} {KINDS[k].name} face-up at the {ENDS[end]} end of your Party. ({_card_text(k)})"
    if kind == "angleland":
        o = OUTPOSTS[RED].name
        if action == KEEP:
            return f"{o}: keep the First Player token."
        return f"{o}: give the First Player token to player {GIVE_OF[action]}."
    if kind == "loki":
        return f"Loki: place a Glory token on the card in slot {SLOT_OF[action]}."
    if kind == "freya":
        return f"Freya: place the drawn card face-down at the {action} end of your Party."
    if kind == "saga":
        q = state.queue[0] if state.queue else -1
        return f"Saga: turn face-up the card in slot {SLOT_OF[action]} of player {q}'s Party."
    if kind == "hel":
        k, pos = CARD_POS_OF[action]
        return f"Hel: place the discarded {KINDS[k].name} face-up before slot {pos} of your Party. ({_card_text(k)})"
    return action


def summarize(players: int, summaries: list[dict]) -> dict[str, Any]:
    """Red North statistics over finished games' summaries (the simulate JSON extras)."""
    n = len(summaries)
    if not n:
        return {}
    vps = [v for s in summaries for v in s["vp"]]
    glories = [g for s in summaries for g in s["glory"]]
    wins = [0] * players
    for s in summaries:
        wins[s["winner"]] += 1
    outposts: dict[str, dict] = {}
    for c in COLOURS:
        games = [s for s in summaries if c in s["outposts"]]
        if not games:
            continue
        by_round = []
        for r in range(ROUNDS):
            seats = [0] * players
            none = 0
            for s in games:
                who = s["controllers"][r][c]
                if who is None:
                    none += 1
                else:
                    seats[who] += 1
            by_round.append({"controlled_by_seat": seats, "uncontrolled": none})
        won = sum(1 for s in games for r in range(ROUNDS) if s["controllers"][r][c] is not None)
        outposts[c] = {
            "games": len(games),
            "rounds_controlled": won,
            "control_rate": round(won / (ROUNDS * len(games)), 3),
            "by_round": by_round,
        }
    god_games = Counter(g for s in summaries for g in s["gods"] if g)
    god_wins = Counter(s["gods"][s["winner"]] for s in summaries if s["gods"][s["winner"]])
    invoked = Counter(s["gods"][p] for s in summaries for p in range(players) if s["invoked"][p])
    return {
        "mean_vp": round(sum(vps) / len(vps), 3),
        "mean_winner_vp": round(sum(s["vp"][s["winner"]] for s in summaries) / n, 3),
        "max_vp": max(vps),
        "mean_glory": round(sum(glories) / len(glories), 3),
        "mean_hand_size": round(sum(h for s in summaries for h in s["hand_sizes"]) / (n * players), 3),
        "wins_by_seat": wins,
        "win_rate_by_seat": [round(w / n, 3) for w in wins],
        "decided_by": dict(Counter(s["decided_by"] for s in summaries)),
        "outposts_won": {c: o["rounds_controlled"] for c, o in outposts.items()},
        "outposts": outposts,
        "gods": {
            g.slug: {
                "held": god_games[g.slug],
                "invoked": invoked[g.slug],
                "win_rate": round(god_wins[g.slug] / god_games[g.slug], 3) if god_games[g.slug] else None,
            }
            for g in GODS
        },
    }
