"""The Red Rising game: static options and the initial state."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..core import Game, InvalidOptions
from .engine import RRState
from .rules import RULES, Rules


class RedRising(Game):
    """Red Rising for 2-6 players.

    ``multiplayer_variant``: the publisher's official variant, where abilities that make an
    opponent banish or be stolen from may only target players holding more cards than
    their starting hand.

    ``block_windows``: blocks without tells. An opponent who, for all the others can tell,
    might hold a blocker (Judge, Pax au Telemanus, The Howlers against a steal or banish;
    Martyr, Justice against taking the Sovereign token) is always asked, with the same
    decision kind and context: holding no blocker, their only option is ``"no"``. Without it
    (the printed game's habit at a table of bots) only a seat holding a blocker is asked, so
    the prompt itself tells the table they hold one.

    ``rules``: the card abilities played by (a :class:`~.rules.Rules` value; by default the
    printed game's, :data:`~.rules.RULES`).
    """

    name = "red-rising"
    title = "Red Rising"
    min_players = 2
    max_players = 6

    #: The card abilities this game plays by (:mod:`.rules`); ``rules=`` gives another value.
    rules: Rules = RULES

    def __init__(
        self,
        players: int = 4,
        multiplayer_variant: bool = False,
        block_windows: bool = False,
        rules: Rules | None = None,
    ) -> None:
        super().__init__(players)
        if rules is not None:
            self.rules = rules
        for name, value in (("multiplayer_variant", multiplayer_variant), ("block_windows", block_windows)):
            if not isinstance(value, bool):
                raise InvalidOptions(f"option {name!r} must be true or false, got {value!r}")
        self.multiplayer_variant = multiplayer_variant
        self.block_windows = block_windows

    def options(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "multiplayer_variant": self.multiplayer_variant,
            "block_windows": self.block_windows,
        }

    def new_initial_state(self, seed: int) -> RRState:
        return RRState.new(self, seed)

    def summarize(self, summaries: list[dict]) -> dict[str, Any]:
        wins: dict[str, float] = {}  # shared victories count as a fraction
        played: Counter[str] = Counter()
        for s in summaries:
            for seat, house in enumerate(s["houses"]):
                played[house] += 1
                if seat in s["winners"]:
                    wins[house] = wins.get(house, 0) + 1 / len(s["winners"])
        stats: dict[str, dict[str, int]] = {}
        from .cards import CARDS

        for c in CARDS:
            stats[c.name] = {"deployed": 0, "ability_took_effect": 0, "in_final_hand": 0}
        from .cards import BY_SLUG, NAME

        for s in summaries:
            for slug in s["deployed"]:
                stats[NAME[BY_SLUG[slug]]]["deployed"] += 1
            for slug in s["abilities"]:
                stats[NAME[BY_SLUG[slug]]]["ability_took_effect"] += 1
            for hand in s["hands"]:
                for slug in hand:
                    stats[NAME[BY_SLUG[slug]]]["in_final_hand"] += 1
        return {
            "card_stats": stats,
            "wins_by_house": {h: round(wins.get(h, 0), 3) for h in sorted(played)},
            "games_by_house": dict(sorted(played.items())),
            "win_rate_by_house": {h: round(wins.get(h, 0) / played[h], 4) for h in sorted(played)},
            "mean_turns": round(sum(sum(s["turns"]) for s in summaries) / max(1, len(summaries)), 2),
        }
