"""Readable terminal summaries of many bot games (`redtable simulate`, `redtable analyze`).

The numbers come from :func:`redtable.sim.analyze.analyze`, so ``simulate`` and
``analyze`` read the same way: win rates with 95% Wilson intervals (a tie for first is a
shared win, 1/k each), scorepad rows, game length. Every table fits 80 columns for 2-6
players; the long per-card, per-God and per-Outpost tables are the details, shown on
request.
"""

from __future__ import annotations

from typing import Any

from .simulate import SimulationReport


def rate(r: dict) -> str:
    """``47 [40–54]``: win rate and its 95% interval, in percent."""
    if r["win_rate"] is None:
        return "–"
    return f"{r['win_rate'] * 100:.0f} [{r['ci95'][0] * 100:.0f}–{r['ci95'][1] * 100:.0f}]"


def pp(x: float | None) -> str:
    """A difference of rates in percentage points."""
    return "–" if x is None else f"{round(x * 100):+d}"


def new_table(title: str):
    from rich import box
    from rich.table import Table

    return Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 0, 0, 1), show_edge=False)


def _num(x: float | None, digits: int = 1) -> str:
    if x is None:
        return "–"
    return f"{x:.{digits}f}" if x != int(x) or digits == 0 else f"{x:.0f}"


def simulation_numbers(report: SimulationReport, bots: list[str] | None, options: dict) -> dict[str, Any]:
    """The analysis numbers (:func:`~redtable.sim.analyze.analyze`) of a simulation's games."""
    from .analyze import Collection, analyze, record_of

    col = Collection(
        report.game,
        [report.players],
        report.games,
        report.seed,
        list(bots or ["random"]),
        dict(options),
        records=[record_of(r, report.players) for r in report.results],
    )
    return analyze(col)


def print_simulation(numbers: dict[str, Any], seconds: float, details: bool = False, console=None) -> None:
    """The summary of ``redtable simulate``: who wins (by seat, turn order, house, bot),
    the scorepad, the game length; with ``details`` the cards, Gods and Outposts too."""
    from rich.console import Console

    console = console or Console()
    s, g = numbers["settings"], numbers["games"]
    P = s["player_counts"][0]
    pace = ""
    if seconds:
        per_second = g["total"] / seconds
        pace = f"; {seconds:.{2 if seconds < 10 else 0}f} s, {per_second:.{1 if per_second < 10 else 0}f} games/s"
    console.print(
        f"[b]{numbers['title']}[/b]: {g['total']} games, {P} players, seed {s['seed']}; {g['errors']} failed{pace}",
        highlight=False,
    )
    console.print(
        f"bots by seat: {', '.join(s['bots'])}"
        + (" (repeated)" if len(s["bots"]) < P else "")
        + (f"; options {s['options']}" if s["options"] else ""),
        highlight=False,
    )
    if not g["finished"]:
        return
    wr = numbers["win_rates"]
    pc = g["by_player_count"][0]
    t = new_table("win % [95% CI]")
    for col in ("", "by seat", "by turn order"):
        t.add_column(col, justify="right", no_wrap=True)
    seats = {r["seat"]: r for r in wr["by_seat"]}
    orders = {r["turn_order"]: r for r in wr["by_turn_order"]}
    for i in range(P):
        t.add_row(str(i), rate(seats[i]) if i in seats else "–", rate(orders[i]) if i in orders else "–")
    console.print()
    console.print(t)
    console.print(f"[dim]fair share {1 / P:.0%}; turn order 0 = the first player; a tie for first counts 1/k[/dim]")
    for what in ("house", "bot"):
        if f"by_{what}" not in wr:
            continue
        t = new_table(f"win % by {what}")
        for col in (what, "n", "win % [95% CI]", "fair"):
            t.add_column(col, justify="left" if col == what else "right", no_wrap=True)
        for r in wr[f"by_{what}"]:
            t.add_row(r[what], str(r["n"]), rate(r), f"{r['expected']:.0%}")
        console.print()
        console.print(t)
    t = new_table("scorepad, per player")
    for col in ("row", "mean", "sd", "min", "median", "max"):
        t.add_column(col, justify="left" if col == "row" else "right", no_wrap=True)
    for r in numbers["scores"]["stats"]:
        if r["n"]:
            t.add_row(
                r["row"].replace("_", " "),
                f"{r['mean']:.1f}",
                f"{r['std']:.1f}",
                _num(r["min"]),
                _num(r["median"]),
                _num(r["max"]),
            )
    console.print()
    console.print(t)
    t = new_table("game length and result")
    for col in ("", "mean", "min", "median", "max"):
        t.add_column(col, justify="left" if not col else "right", no_wrap=True)
    for r in numbers["length"]["stats"]:
        t.add_row(r["measure"].replace("_", " "), f"{r['mean']:.1f}", _num(r["min"]), _num(r["median"]), _num(r["max"]))
    for key in ("winning_score", "winning_margin"):
        r = pc[key]
        if r["n"]:
            t.add_row(key.replace("_", " "), f"{r['mean']:.1f}", _num(r["min"]), _num(r["median"]), _num(r["max"]))
    console.print()
    console.print(t)
    extra = f"ties for first: {pc['tied_games']} of {pc['finished']} games"
    if "decided_by" in pc:
        extra += "; decided by " + ", ".join(f"{k} {v}" for k, v in pc["decided_by"].items())
    console.print(extra, highlight=False)
    if details:
        print_details(numbers, console)
    else:
        what = "every card" if "cards" in numbers else "Gods and Outposts"
        console.print(f"[dim]--details: {what}; --json: every number[/dim]")


def print_details(numbers: dict[str, Any], console) -> None:
    """Per card (Red Rising), per God and per Outpost (Red North): how often and how well."""
    if "cards" in numbers:
        t = new_table("cards: deploys, kept at the end, win % of the player holding it")
        for col in ("card", "deployed", "effect", "kept", "win % [95% CI]", "lift pp"):
            t.add_column(col, justify="left" if col == "card" else "right", no_wrap=True)
        for c in sorted(numbers["cards"], key=lambda c: (-c["deployed"], c["card"])):
            t.add_row(
                c["card"],
                str(c["deployed"]),
                str(c["ability_took_effect"]),
                str(c["kept"]),
                rate(c["held"]),
                pp(c["held_lift"]),
            )
        console.print()
        console.print(t)
        console.print("[dim]effect: the ability took effect; lift: win % minus the fair share[/dim]")
    if "gods" in numbers:
        t = new_table("Gods: the player holding it")
        for col in ("god", "held", "invoked", "win % [95% CI]", "lift pp", "VP held / not"):
            t.add_column(col, justify="left" if col == "god" else "right", no_wrap=True)
        for r in numbers["gods"]:
            vp = f"{r['held_mean_vp'] or 0:.1f} / {r['not_held_mean_vp'] or 0:.1f}"
            t.add_row(r["god"], str(r["held"]["n"]), str(r["invoked"]), rate(r["held"]), pp(r["held_lift"]), vp)
        console.print()
        console.print(t)
    if "outposts" in numbers:
        t = new_table("Outposts: the final controller")
        for col in ("outpost", "in play", "controlled by round", "win % [95% CI]", "lift pp"):
            t.add_column(col, justify="left" if col == "outpost" else "right", no_wrap=True)
        for r in numbers["outposts"]:
            by_round = " ".join("–" if x is None else f"{x:.0%}" for x in r["control_rate_by_round"])
            t.add_row(
                r["outpost"],
                f"{(r['in_play_rate'] or 0):.0%}",
                by_round,
                rate(r["controller_win"]),
                pp(r["controller_lift"]),
            )
        console.print()
        console.print(t)


__all__ = ["new_table", "pp", "print_details", "print_simulation", "rate", "simulation_numbers"]
