"""Red North's part of the balance analysis (its title's ``analysis``): VP and Glory per
round, the rounds, how the games were decided, and per God and per Outpost colour how they
are held, invoked or controlled and how their holders fare."""

from __future__ import annotations

from typing import Any

from .stats import shared_wins
from .titleanalysis import Analysis, Tally, rounded

# Red North's scorepad rows: VP and Glory as the Resolution reports them, plus Odin's VP.
RN_ROWS = (
    "vp_spring",
    "vp_summer",
    "vp_ragnarok",
    "vp_odin",
    "vp_total",
    "glory_spring",
    "glory_summer",
    "glory_ragnarok",
    "glory_spent",
    "glory_unused",
)


class RedNorthAnalysis(Analysis):
    first_player_words = "of Spring"
    counted = ("decided_by",)
    undrawn_lengths = ("rounds",)

    def first_player(self, summary: dict) -> int:
        """The first player of Spring."""
        return summary["first_player_by_round"][0]

    def score_rows(self) -> tuple[str, ...]:
        """VP per round (Outposts controlled after each Resolution), Odin's VP and the total,
        Glory compensation per round (step C), unused Glory at the end and net Glory spent
        (starting Glory + compensation - unused: Inspire spends it; tokens Nornir takes back,
        Loki's included, count against it, so it can be negative)."""
        return RN_ROWS

    def score_values(self, summary: dict, players: int) -> list[dict[str, float]]:
        from ..rednorth.cards import STARTING_GLORY
        from ..rednorth.gods import ODIN_VP

        round_vp, round_glory = summary["vp_by_round"], summary["glory_by_round"]
        out = []
        for seat in range(players):
            odin = ODIN_VP if summary["gods"][seat] == "odin" and summary["invoked"][seat] else 0
            d = {f"vp_{name}": float(round_vp[r][seat]) for r, name in enumerate(("spring", "summer", "ragnarok"))}
            d["vp_odin"] = float(odin)
            d["vp_total"] = float(summary["vp"][seat])
            for r, name in enumerate(("spring", "summer", "ragnarok")):
                d[f"glory_{name}"] = float(round_glory[r][seat])
            gained = STARTING_GLORY + sum(round_glory[r][seat] for r in range(len(round_glory)))
            d["glory_spent"] = float(gained - summary["glory"][seat])
            d["glory_unused"] = float(summary["glory"][seat])
            out.append(d)
        return out

    def extra_lengths(self) -> tuple[str, ...]:
        return ("rounds",)

    def lengths(self, summary: dict) -> dict[str, float]:
        return {"rounds": float(len(summary["controllers"]))}

    def player_columns(self, summary: dict, seat: int) -> dict[str, Any]:
        return {"god": summary["gods"][seat] or "", "invoked": int(bool(summary["invoked"][seat]))}

    def sections(self, ok: list[dict]) -> dict[str, list[dict]]:
        return {"gods": gods(ok), "outposts": outposts(ok)}


def gods(ok: list[dict]) -> list[dict]:
    """Per God, how often it is held and invoked, and win rate / VP held vs not."""
    from ..rednorth.gods import GODS

    held = {gd.slug: Tally() for gd in GODS}
    not_held = {gd.slug: Tally() for gd in GODS}
    invoked = {gd.slug: Tally() for gd in GODS}
    games_with = {gd.slug: 0 for gd in GODS}
    for rec in ok:
        P, s = rec["players"], rec["summary"]
        credit = shared_wins(P, s["winners"])
        present = set(x for x in s["gods"] if x)
        for slug in present:
            games_with[slug] += 1
        for gd in GODS:
            for p in range(P):
                vp = float(s["vp"][p])
                if s["gods"][p] == gd.slug:
                    held[gd.slug].add(credit[p], P, vp)
                    if s["invoked"][p]:
                        invoked[gd.slug].add(credit[p], P, vp)
                else:
                    not_held[gd.slug].add(credit[p], P, vp)
    out = []
    n = len(ok)
    for gd in GODS:
        h, nh, inv = held[gd.slug], not_held[gd.slug], invoked[gd.slug]
        hj = h.json()
        out.append(
            {
                "god": gd.name,
                "slug": gd.slug,
                "games_held": games_with[gd.slug],
                "held_rate": rounded(games_with[gd.slug] / n) if n else None,
                "invoked": inv.n,
                "invoke_rate": rounded(inv.n / h.n) if h.n else None,
                "held": hj,
                "not_held": nh.json(),
                "when_invoked": inv.json(),
                "held_lift": rounded(hj["win_rate"] - hj["expected"]) if h.n else None,
                "held_mean_vp": h.mean_value(),
                "not_held_mean_vp": nh.mean_value(),
                "invoked_mean_vp": inv.mean_value(),
            }
        )
    return out


def outposts(ok: list[dict]) -> list[dict]:
    """Per Outpost colour, how often it is in play, who controls it, and how they fare."""
    from ..rednorth.cards import COLOURS, ROUNDS

    out = []
    n = len(ok)
    most = max((rec["players"] for rec in ok), default=0)
    for c in COLOURS:
        games = [rec for rec in ok if c in rec["summary"]["outposts"]]
        final_by_order: dict[int, int] = {}
        final_by_seat: dict[int, int] = {}
        uncontrolled = 0
        control_rounds = [0] * ROUNDS
        ctrl_win = [Tally() for _ in range(ROUNDS)]
        for rec in games:
            P, s = rec["players"], rec["summary"]
            credit = shared_wins(P, s["winners"])
            for r, ctrl in enumerate(s["controllers"]):
                who = ctrl.get(c)
                if who is not None:
                    control_rounds[r] += 1
                    ctrl_win[r].add(credit[who], P, float(s["vp"][who]))
            who = s["controllers"][-1].get(c)
            if who is None:
                uncontrolled += 1
            else:
                t = (who - RedNorthAnalysis().first_player(s)) % P
                final_by_order[t] = final_by_order.get(t, 0) + 1
                final_by_seat[who] = final_by_seat.get(who, 0) + 1
        k = len(games)
        final = ctrl_win[-1]
        fj = final.json()
        out.append(
            {
                "outpost": c,
                "games": k,
                "in_play_rate": rounded(k / n) if n else None,
                "control_rate_by_round": [rounded(x / k) if k else None for x in control_rounds],
                "final_uncontrolled": uncontrolled,
                "final_controller_by_seat": {str(p): final_by_seat.get(p, 0) for p in range(most)},
                "final_controller_by_turn_order": {str(t): final_by_order.get(t, 0) for t in range(most)},
                "controller_win": fj,
                "controller_lift": rounded(fj["win_rate"] - fj["expected"]) if final.n else None,
                "controller_mean_vp": final.mean_value(),
                "controller_win_by_round": [t.json() for t in ctrl_win],
            }
        )
    return out
