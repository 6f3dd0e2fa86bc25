"""Red Rising's part of the balance analysis (its title's ``analysis``): the scorepad rows,
turns and rounds, win rates by house, and per card its deploys, abilities and final hands."""

from __future__ import annotations

from typing import Any

from .stats import shared_wins
from .titleanalysis import Analysis, rounded, tallies


class RedRisingAnalysis(Analysis):
    groups = ("house",)

    def first_player(self, summary: dict) -> int:
        return summary["first"]

    def score_rows(self) -> tuple[str, ...]:
        """The scorepad rows as :mod:`redtable.redrising.scoring` names them."""
        from ..redrising.scoring import ROWS

        return tuple(ROWS)

    def score_values(self, summary: dict, players: int) -> list[dict[str, float]]:
        from ..redrising.scoring import ROWS

        rows = summary.get("rows") or [{} for _ in range(players)]
        out = []
        for seat in range(players):
            d = {k: float(rows[seat].get(k, 0)) for k in ROWS if k != "total"}
            d["total"] = float(summary["scores"][seat])
            out.append(d)
        return out

    def extra_lengths(self) -> tuple[str, ...]:
        """All players' turns, and rounds (the most turns one player took)."""
        return ("turns", "rounds")

    def lengths(self, summary: dict) -> dict[str, float]:
        return {"turns": float(sum(summary["turns"])), "rounds": float(max(summary["turns"]))}

    def player_groups(self, summary: dict, seat: int) -> dict[str, str]:
        return {"house": summary["houses"][seat]}

    def player_columns(self, summary: dict, seat: int) -> dict[str, Any]:
        return {"house": summary["houses"][seat]}

    def sections(self, ok: list[dict]) -> dict[str, list[dict]]:
        return {"cards": cards(ok)}


def cards(ok: list[dict]) -> list[dict]:
    """Per card, deploys, abilities that took effect, final hands and win correlation."""
    from ..redrising.cards import CARDS

    n_games = len(ok)
    deployed = {c.slug: 0 for c in CARDS}
    deployed_games = {c.slug: 0 for c in CARDS}
    effect = {c.slug: 0 for c in CARDS}
    kept = {c.slug: 0 for c in CARDS}
    kept_by_winner = {c.slug: 0.0 for c in CARDS}
    held = tallies(deployed)
    not_held = tallies(deployed)
    by_deployer = tallies(deployed)
    has_deployers = all("deployed_by" in rec["summary"] for rec in ok)
    for rec in ok:
        P, s = rec["players"], rec["summary"]
        credit = shared_wins(P, s["winners"])
        for slug in s["deployed"]:
            deployed[slug] += 1
        for slug in set(s["deployed"]):
            deployed_games[slug] += 1
        for slug in s["abilities"]:
            effect[slug] += 1
        holder: dict[str, int] = {}
        for p, hand in enumerate(s["hands"]):
            for slug in hand:
                kept[slug] += 1
                kept_by_winner[slug] += credit[p]
                holder[slug] = p
        for slug in deployed:
            for p in range(P):
                (held if holder.get(slug) == p else not_held)[slug].add(credit[p], P, s["scores"][p])
        if has_deployers:
            pairs = sorted(set(zip(s["deployed"], s["deployed_by"], strict=True)))
            for slug, p in pairs:
                if p is not None:
                    by_deployer[slug].add(credit[p], P)
    out = []
    for c in CARDS:
        h, nh = held[c.slug], not_held[c.slug]
        hj = h.json()
        row = {
            "card": c.name,
            "slug": c.slug,
            "color": c.color_name,
            "value": c.value,
            "deployed": deployed[c.slug],
            "deployed_games": deployed_games[c.slug],
            "deploys_per_game": rounded(deployed[c.slug] / n_games) if n_games else None,
            "ability_took_effect": effect[c.slug],
            "kept": kept[c.slug],
            "kept_rate": rounded(kept[c.slug] / n_games) if n_games else None,
            "held": hj,
            "not_held": nh.json(),
            "held_lift": rounded(hj["win_rate"] - hj["expected"]) if h.n else None,
            "held_mean_score": h.mean_value(),
            "not_held_mean_score": nh.mean_value(),
        }
        if has_deployers:
            dj = by_deployer[c.slug].json()
            row["deployed_by_player"] = dj
            row["deployer_lift"] = rounded(dj["win_rate"] - dj["expected"]) if dj["n"] else None
        out.append(row)
    return out
