"""What Red Rising shows: a seat's view of the position, the game's summary, and the
words of an action (:class:`Views`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .board import (
    HOUSE_NAMES,
    LOCATION_NAMES,
    LOCATION_OF_NAME,
)
from .cards import BY_SLUG, COLOR, COLOR_NAMES, NAME, SLUG, VALUE
from .words import public_about

if TYPE_CHECKING:
    pass

from .state import RRStateBase, seat_of


class Views(RRStateBase):
    """Views, summaries and descriptions of a position."""

    __slots__ = ()

    def summary(self) -> dict[str, Any]:
        out = super().summary()
        out["houses"] = [HOUSE_NAMES[h] for h in self.houses]
        out["first"] = self.first
        out["turns"] = self.turns[:]
        if self.final:
            out["rows"] = [
                {
                    "cards": s.cards,
                    "fleet": s.fleet,
                    "helium": s.helium,
                    "sovereignty": s.sovereignty,
                    "influence": s.influence,
                    "excess_cards": s.excess_cards,
                }
                for s in self.final
            ]
        out["hands"] = [[SLUG[c] for c in h] for h in self.hands]
        out["deployed"] = [e.data["card"] for e in self.events if e.kind == "deploy"]
        out["abilities"] = [e.data["card"] for e in self.events if e.kind == "ability_effect"]
        # the seat behind each entry of "deployed" / "abilities" (same order and length)
        out["deployed_by"] = [e.data["player"] for e in self.events if e.kind == "deploy"]
        out["abilities_by"] = [e.data["player"] for e in self.events if e.kind == "ability_effect"]
        return out

    def view(self, player: int | None) -> dict[str, Any]:
        d = self.dec
        players = []
        for p in range(self.n):
            entry = {
                "seat": p,
                "house": HOUSE_NAMES[self.houses[p]],
                "hand_size": len(self.hands[p]),
                "fleet": self.fleet[p],
                "helium": self.helium[p],
                "influence": self.influence[p],
                "sovereign": self.sovereign == p,
                "turns": self.turns[p],
            }
            if p == player:
                entry["hand"] = [self.card_json(c, player) for c in self.hands[p]]
            players.append(entry)
        out: dict[str, Any] = {
            "game": "red-rising",
            "you": player,
            "players": players,
            "first_player": self.first,
            "locations": {LOCATION_NAMES[i]: [self.card_json(c, player) for c in self.locs[i]] for i in range(4)},
            "deck_size": len(self.deck),
            "banished": [SLUG[c] for c in self.banished],
            "neutral_influence": self.neutral,
            "end_triggered": self.end_triggered,
            "phase": self.phase,
            "current_turn": self.turn_stack[-1].player if self.turn_stack else None,
            "variant": self.variant,
        }
        if d is not None:
            out["decision"] = {"player": d.player, "kind": d.kind}
            about = public_about(d.kind, d.context, self.phase == "play")
            if about:  # what every seat may know of it: the asking card when face up, the seats it names
                out["decision"]["about"] = about
            if d.player == player:  # the context may name a card only the decider holds
                out["decision"]["options"] = list(d.options)
                out["decision"]["context"] = d.context
        if self.final:
            out["scores"] = [
                {
                    "total": s.total,
                    "cards": s.cards,
                    "fleet": s.fleet,
                    "helium": s.helium,
                    "sovereignty": s.sovereignty,
                    "influence": s.influence,
                    "excess_cards": s.excess_cards,
                    "choices": s.choices,
                }
                for s in self.final
            ]
            out["winners"] = self.winners()
        return out

    def describe(self, action: str) -> str:
        if action in BY_SLUG:
            c = BY_SLUG[action]
            return f"{NAME[c]} ({COLOR_NAMES[COLOR[c]]}, {VALUE[c]})"
        if action in LOCATION_OF_NAME:
            return {"institute": "The Institute"}.get(action, action.capitalize())
        if action[:1] == "p" and action[1:].isdigit():
            p = seat_of(action)
            return f"player {p} ({HOUSE_NAMES[self.houses[p]]})"
        if ":" in action:
            a, _, b = action.partition(":")
            if a in LOCATION_OF_NAME and b.isdigit():
                loc = self.locs[LOCATION_OF_NAME[a]]
                i = int(b)
                if i < len(loc):
                    j = self.card_json(loc[i], self.dec.player if self.dec else None)
                    what = j.get("name", "a face-down card")
                    return f"{what} at {a.capitalize()} (position {i + 1} from the bottom)"
            if a == "block" and b in BY_SLUG:
                return f"block with {NAME[BY_SLUG[b]]}"
        return action
