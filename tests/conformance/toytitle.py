"""High Card, a toy title that exists only to show that a title is one value.

Everything redtable needs to play it is in this file and reaches the consumers through
:data:`TITLE` (registered at test time by ``registry.register``): the engine, the
environments' action list, observation encoder and observer, the terminal's renderer.
Nothing outside this file knows its name.

The rules. Twelve cards valued 1 to 12 are shuffled; each of 2 or 3 players is dealt a
hand of three, hidden from the others; the rest is the draw pile, face down. Three tricks
are played. In a trick each player in turn, from the leader, first decides whether to
draw the pile's top card (``draw``) or not (``keep``; no choice when the pile is empty),
then plays a card of their hand face up (``play:<value>``). The highest card wins the
trick (a point) and its player leads the next. After three tricks the most points win
(a tie shares the win).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from redtable.core import Decision, Event, Game, Rng, State, Title
from redtable.envs.observations import Encoder as BaseEncoder
from redtable.envs.observations import Layout
from redtable.play.common import Renderer, esc

NAME = "toy-high-card"
CARDS = tuple(range(1, 13))
HAND = 3
TRICKS = 3


class HighCard(Game):
    name = NAME
    title = "High Card"
    min_players = 2
    max_players = 3

    def __init__(self, players: int = 2) -> None:
        super().__init__(players)

    def options(self) -> dict[str, Any]:
        return {"players": self.players}

    def new_initial_state(self, seed: int) -> HighCardState:
        rng = Rng(seed)
        deck = list(CARDS)
        rng.shuffle(deck)
        P = self.players
        hands = [sorted(deck[p * HAND : (p + 1) * HAND]) for p in range(P)]
        return HighCardState(self, rng, hands, deck[P * HAND :])


class HighCardState(State):
    __slots__ = ("game", "history", "events", "rng", "hands", "pile", "trick", "points", "leader", "done", "drawn")

    def __init__(self, game: HighCard, rng: Rng, hands: list[list[int]], pile: list[int]) -> None:
        self.game = game
        self.history: list[str] = []
        self.events: list[Event] = [Event("deal", {"hand_sizes": [len(h) for h in hands], "pile": len(pile)})]
        self.rng = rng
        self.hands = hands
        self.pile = pile
        self.trick: list[tuple[int, int]] = []
        self.points = [0] * game.players
        self.leader = 0
        self.done = 0  # tricks played
        self.drawn = False  # the player to play has decided draw/keep

    # --- decisions ------------------------------------------------------------------
    def _seat(self) -> int:
        return (self.leader + len(self.trick)) % self.game.players

    def decision(self) -> Decision | None:
        if self.done >= TRICKS:
            return None
        p = self._seat()
        if not self.drawn and self.pile:
            return Decision(p, "draw", ("draw", "keep"))
        return Decision(p, "play", tuple(f"play:{v}" for v in sorted(self.hands[p])))

    def _apply(self, action: str) -> None:
        p = self._seat()
        if action in ("draw", "keep"):
            self.drawn = True
            if action == "draw":
                card = self.pile.pop()
                self.hands[p].append(card)
                self.events.append(Event("drew", {"seat": p}))
                self.events.append(Event("drew_card", {"seat": p, "card": card}, to=(p,)))
            return
        card = int(action.partition(":")[2])
        self.hands[p].remove(card)
        self.trick.append((p, card))
        self.drawn = False
        self.events.append(Event("played", {"seat": p, "card": card}))
        if len(self.trick) == self.game.players:
            winner = max(self.trick, key=lambda sc: sc[1])[0]
            self.points[winner] += 1
            self.events.append(Event("trick", {"winner": winner, "cards": [c for _, c in self.trick]}))
            self.trick = []
            self.leader = winner
            self.done += 1

    def clone(self) -> HighCardState:
        new = HighCardState.__new__(HighCardState)
        new.game = self.game
        new.history = list(self.history)
        new.events = list(self.events)
        new.rng = self.rng.clone()
        new.hands = [list(h) for h in self.hands]
        new.pile = list(self.pile)
        new.trick = list(self.trick)
        new.points = list(self.points)
        new.leader, new.done, new.drawn = self.leader, self.done, self.drawn
        return new

    # --- what a seat may know -------------------------------------------------------
    def view(self, player: int | None) -> dict[str, Any]:
        seats: list[dict[str, Any]] = [
            {"cards": len(h), "points": n} for h, n in zip(self.hands, self.points, strict=True)
        ]
        if player is not None:
            seats[player]["hand"] = sorted(self.hands[player])
        return {
            "you": player,
            "seats": seats,
            "pile": len(self.pile),
            "trick": [[s, c] for s, c in self.trick],
            "tricks": self.done,
            "leader": self.leader,
            "over": self.done >= TRICKS,
        }

    def resample(self, player: int, rng: Rng) -> HighCardState:
        """Re-deal what ``player`` cannot see: the others' hands and the pile."""
        new = self.clone()
        others = [q for q in range(self.game.players) if q != player]
        unknown = [c for q in others for c in new.hands[q]] + new.pile
        rng.shuffle(unknown)
        for q in others:
            n = len(new.hands[q])
            new.hands[q], unknown = sorted(unknown[:n]), unknown[n:]
        new.pile = unknown
        return new

    def describe(self, action: str) -> str:
        if action == "draw":
            return "draw the top card of the pile"
        if action == "keep":
            return "keep your hand"
        return f"play the {action.partition(':')[2]}"

    # --- results --------------------------------------------------------------------
    def scores(self) -> list[float]:
        return [float(x) for x in self.points]

    def winners(self) -> list[int]:
        top = max(self.points)
        return [p for p, x in enumerate(self.points) if x == top]

    def summary(self) -> dict[str, Any]:
        return {**super().summary(), "first": 0}


# ====================================================================== environments
def actions() -> list[str]:
    """Every action the engine can offer (the environments' fixed action space)."""
    return ["draw", "keep"] + [f"play:{v}" for v in CARDS]


class Encoder(BaseEncoder):
    """A view as floats in [0, 1]: my hand, the trick's cards, each seat's cards and
    points, the pile, the leader, tricks played."""

    game = NAME
    max_players = 3

    def __init__(self) -> None:
        self.layout = Layout()
        for segment, n in (("hand", 12), ("trick", 12), ("cards", 3), ("points", 3), ("pile", 1), ("leader", 3)):
            self.layout.add(segment, n)
        self.layout.add("tricks", 1)

    def _fill(self, view: dict[str, Any], x: list[float]) -> None:
        L = self.layout
        you = view["you"]
        for v in () if you is None else view["seats"][you]["hand"]:
            x[L["hand"] + v - 1] = 1.0
        for _, v in view["trick"]:
            x[L["trick"] + v - 1] = 1.0
        for p, seat in enumerate(view["seats"]):
            x[L["cards"] + p] = seat["cards"] / (HAND + len(CARDS))
            x[L["points"] + p] = seat["points"] / TRICKS
        x[L["pile"]] = view["pile"] / len(CARDS)
        x[L["leader"] + view["leader"]] = 1.0
        x[L["tricks"]] = view["tricks"] / TRICKS


ENCODER = Encoder()


class Observer:
    """The incremental observer: here simply the encoder of the seat's view, in a reused buffer."""

    def __init__(self) -> None:
        self.size = ENCODER.size
        self.buf = np.zeros(self.size, dtype=np.float32)

    def observe(self, st: State, seat: int) -> np.ndarray:
        return ENCODER.encode(st.view(seat), self.buf)


# ====================================================================== terminal
class HighCardRenderer(Renderer):
    title = "High Card"

    def board(self, state: State, viewer: int | None, decision: Decision | None) -> list:
        v = state.view(viewer)
        lines = [
            f"[bold]High Card[/bold]: trick {min(v['tricks'] + 1, TRICKS)} of {TRICKS}, pile {v['pile']}",
            "points: " + ", ".join(f"{self.who(p, viewer)} {s['points']}" for p, s in enumerate(v["seats"])),
            "trick: " + (", ".join(f"{self.who(s, viewer)} {c}" for s, c in v["trick"]) or "-"),
        ]
        if viewer is not None:
            lines.append("Your cards: " + esc(" ".join(map(str, v["seats"][viewer]["hand"]))))
        return lines

    def explain(self, state: State, d: Decision) -> str:
        return "draw a card or keep your hand?" if d.kind == "draw" else "play a card"

    def end_screen(self, state: State, compact: bool = False) -> list:
        w = state.winners()
        return ["Winner: " + ", ".join(self.who(p) for p in w) + f" with {state.scores()[w[0]]:g} points"]


# ====================================================================== the title
TITLE = Title(
    name=NAME,
    game=HighCard,
    players=(2, 3),
    display={"en": "High Card", "uk": "Старша карта", "pl": "Wysoka karta"},
    codec=actions,
    encoder=ENCODER,
    observer=Observer,
    terminal=HighCardRenderer,
)
