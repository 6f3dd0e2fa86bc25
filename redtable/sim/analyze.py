"""Balance analytics over many bot games (the numbers behind `redtable analyze`).

:func:`collect` plays the games through :func:`~redtable.sim.parallel.run_games` (so it
spreads over ``--workers`` and any registered backend) and returns one plain record per
game; :func:`analyze` turns the records into a JSON-able dict of numbers, which
:mod:`redtable.sim.report` writes out as JSON, CSV, PNG charts and an HTML page.

Which games are played
----------------------
``games`` games are played **at each player count** in ``player_counts`` (so adding a
player count never thins out the others). Game ``i`` at ``P`` players is exactly game
``i`` of ``redtable simulate GAME --players P --seed SEED --bots BOTS``: same seed
(:func:`~redtable.sim.simulate.game_seed`), same bots per seat (``bots`` repeated
cyclically over the seats), so any game of a report can be replayed and saved with
``simulate --save-games``.

What the numbers mean
---------------------
* Win rates count a tie for first between ``k`` players as ``1/k`` win each
  (:func:`~redtable.sim.stats.shared_wins`); a unit is one player in one game (a
  *player-game*). Every rate comes with its 95% Wilson interval and with ``expected``,
  the fair share: the mean of ``1/P`` over the same player-games (``1/P`` at one player
  count; a mix when several counts are pooled as ``players == "all"``).
* ``turn_order`` is the position after the first player (0 = first player): Red
  Rising's first player of the game, Red North's first player of Spring. Seats are dealt
  houses and turn order at random, so ``turn_order`` is usually the seat effect to read.
* Score distributions are over player-games, per scorepad row: ``std`` is the sample
  standard deviation, the quartiles interpolate linearly (like ``numpy.percentile``).
* Games that raised an engine error are counted in ``games.errors`` and listed in
  ``errors``, and left out of everything else.

Determinism: records come back sorted by game, every sum runs in game order, and
timings are kept out of the numbers (see :class:`Collection`), so the same settings give
byte-identical ``report.json`` for any number of workers or backend.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core import make_game
from .simulate import GameResult, play_one
from .stats import shared_wins, wilson_interval

SCHEMA = 1

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


# ----------------------------------------------------------------------------- playing


@dataclass(slots=True, frozen=True)
class AnalyzeTask:
    """Play game ``g`` of an analysis (picklable, for :func:`~redtable.sim.parallel.run_games`).

    Game ``g`` is game ``g % games`` at ``player_counts[g // games]`` players.
    """

    game: str
    player_counts: tuple[int, ...]
    games: int
    options: dict
    seed: int
    bots: tuple[str, ...] | None = None

    def locate(self, g: int) -> tuple[int, int]:
        return self.player_counts[g // self.games], g % self.games

    def __call__(self, g: int) -> dict[str, Any]:
        players, index = self.locate(g)
        r = play_one(self.game, players, self.options, index, self.seed, list(self.bots) if self.bots else None)
        return record_of(r, players)


def record_of(r: GameResult, players: int) -> dict[str, Any]:
    """The plain record of one game, as :func:`analyze` reads it."""
    return {
        "players": players,
        "index": r.index,
        "seed": r.seed,
        "bots": list(r.bots),
        "decisions": r.decisions,
        "decision_counts": list(r.decision_counts),
        "summary": r.summary,
        "error": r.error,
        "seconds": r.seconds,
    }


@dataclass(slots=True)
class Collection:
    """The records of an analysis run; ``seconds``, ``workers`` and ``backend`` are run info, not numbers."""

    game: str
    player_counts: list[int]
    games: int
    seed: int
    bots: list[str]
    options: dict
    records: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    workers: int = 1
    backend: str = "local"

    def run_info(self) -> dict[str, Any]:
        n = len(self.records)
        play = sum(r.get("seconds", 0.0) for r in self.records)
        return {
            "seconds": round(self.seconds, 3),
            "workers": self.workers,
            "backend": self.backend,
            "games": n,
            "games_per_second": round(n / self.seconds, 2) if self.seconds else 0.0,
            "cpu_seconds_playing": round(play, 3),
        }


def collect(
    game: str,
    player_counts: Sequence[int],
    games: int,
    seed: int,
    bots: Sequence[str] | None = None,
    options: dict | None = None,
    *,
    workers: int = 1,
    backend: str = "local",
    progress: Callable[[int], None] | None = None,
) -> Collection:
    """Play ``games`` games at each of ``player_counts`` (see the module doc)."""
    from .parallel import run_games

    options = dict(options or {})
    counts = sorted(set(player_counts))
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if not counts:
        raise ValueError("at least one player count is needed")
    for p in counts:
        make_game(game, p, **options)  # an unknown game, a bad count or option fails here
    specs = list(bots) if bots else ["random"]
    task = AnalyzeTask(game, tuple(counts), games, options, seed, tuple(specs))
    out = Collection(game, counts, games, seed, specs, options, workers=workers, backend=backend)
    t0 = time.perf_counter()
    out.records = run_games(task, range(games * len(counts)), workers, backend, progress=progress)
    out.seconds = time.perf_counter() - t0
    return out


# ----------------------------------------------------------------------------- statistics


def _r(x: float, digits: int = 6) -> float:
    return round(x, digits) + 0.0  # + 0.0 turns -0.0 into 0.0


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (``numpy.percentile``'s default)."""
    n = len(sorted_values)
    if n == 0:
        raise ValueError("quantile of no values")
    pos = (n - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, n - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def describe(values: Iterable[float]) -> dict[str, Any]:
    """``n, mean, std`` (sample), ``min, q1, median, q3, max`` of ``values`` (None when empty)."""
    v = sorted(float(x) for x in values)
    n = len(v)
    if not n:
        return {"n": 0, "mean": None, "std": None, "min": None, "q1": None, "median": None, "q3": None, "max": None}
    mean = math.fsum(v) / n
    std = math.sqrt(math.fsum((x - mean) ** 2 for x in v) / (n - 1)) if n > 1 else 0.0
    return {
        "n": n,
        "mean": _r(mean, 4),
        "std": _r(std, 4),
        "min": _r(v[0], 4),
        "q1": _r(quantile(v, 0.25), 4),
        "median": _r(quantile(v, 0.5), 4),
        "q3": _r(quantile(v, 0.75), 4),
        "max": _r(v[-1], 4),
    }


class Tally:
    """Win credit over player-games: ``n``, ``wins`` (shared), ``expected`` (sum of 1/P)."""

    __slots__ = ("n", "wins", "expected", "values")

    def __init__(self) -> None:
        self.n = 0
        self.wins = 0.0
        self.expected = 0.0
        self.values: list[float] = []

    def add(self, credit: float, players: int, value: float | None = None) -> None:
        self.n += 1
        self.wins += credit
        self.expected += 1.0 / players
        if value is not None:
            self.values.append(value)

    def json(self) -> dict[str, Any]:
        lo, hi = wilson_interval(self.wins, self.n)
        return {
            "n": self.n,
            "wins": _r(self.wins),
            "win_rate": _r(self.wins / self.n) if self.n else None,
            "ci95": [_r(lo), _r(hi)],
            "expected": _r(self.expected / self.n) if self.n else None,
        }

    def mean_value(self) -> float | None:
        return _r(math.fsum(self.values) / len(self.values), 4) if self.values else None


def _tallies(keys: Iterable) -> dict:
    return {k: Tally() for k in keys}


# ----------------------------------------------------------------------------- per-game facts


def _turn_order(game: str, summary: dict, seat: int, players: int) -> int:
    if game == "red-rising":
        first = summary["first"]
    else:
        first = summary["first_player_by_round"][0]
    return (seat - first) % players


def score_row_names(game: str) -> tuple[str, ...]:
    """The scorepad rows of ``game``: Red Rising's as :mod:`redtable.redrising.scoring` names
    them; Red North's VP per round (Outposts controlled after each Resolution), Odin's VP and
    the total, Glory compensation per round (step C), unused Glory at the end and net Glory
    spent (starting Glory + compensation - unused: Inspire spends it; tokens Nornir takes
    back, Loki's included, count against it, so it can be negative)."""
    if game == "red-rising":
        from ..redrising.scoring import ROWS

        return tuple(ROWS)
    return RN_ROWS


def _score_rows(game: str, summary: dict, players: int) -> tuple[tuple[str, ...], list[dict[str, float]]]:
    """The scorepad rows and each seat's values in them."""
    if game == "red-rising":
        from ..redrising.scoring import ROWS

        rows = summary.get("rows") or [{} for _ in range(players)]
        out = []
        for seat in range(players):
            d = {k: float(rows[seat].get(k, 0)) for k in ROWS if k != "total"}
            d["total"] = float(summary["scores"][seat])
            out.append(d)
        return ROWS, out
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
    return RN_ROWS, out


def length_measures(game: str) -> tuple[str, ...]:
    """Game length measures: decisions per game and per player; Red Rising's turns (all
    players' turns) and rounds (the most turns one player took); Red North's rounds."""
    if game == "red-rising":
        return ("decisions", "decisions_per_player", "turns", "rounds")
    return ("decisions", "decisions_per_player", "rounds")


def _lengths(game: str, rec: dict) -> dict[str, float]:
    s = rec["summary"]
    players = rec["players"]
    out = {"decisions": float(rec["decisions"]), "decisions_per_player": rec["decisions"] / players}
    if game == "red-rising":
        out["turns"] = float(sum(s["turns"]))
        out["rounds"] = float(max(s["turns"]))
    else:
        out["rounds"] = float(len(s["controllers"]))
    return out


# ----------------------------------------------------------------------------- analysis


def analyze(col: Collection) -> dict[str, Any]:
    """The report's numbers (JSON-able, deterministic; no timings)."""
    game = col.game
    g = make_game(game, col.player_counts[0], **col.options)
    ok = [r for r in col.records if r["summary"] is not None]
    counts = col.player_counts
    keys: list = list(counts) + (["all"] if len(counts) > 1 else [])
    distinct_bots = list(dict.fromkeys(col.bots))

    seat: dict[Any, dict[Any, Any]] = {k: {} for k in keys}
    order: dict[Any, dict[Any, Any]] = {k: {} for k in keys}
    house: dict[Any, dict[Any, Any]] = {k: {} for k in keys}
    bot: dict[Any, dict[Any, Any]] = {k: {} for k in keys}
    per_count: dict = {
        k: {"games": 0, "finished": 0, "errors": 0, "tied": 0, "winning": [], "margin": [], "decided_by": {}}
        for k in keys
    }
    row_names = score_row_names(game)
    row_values: dict = {}
    length_values: dict = {}

    for rec in col.records:
        P = rec["players"]
        for k in (P, "all"):
            if k in per_count:
                per_count[k]["games"] += 1
                per_count[k]["errors" if rec["summary"] is None else "finished"] += 1
    for rec in ok:
        P, s = rec["players"], rec["summary"]
        credit = shared_wins(P, s["winners"])
        _, rows = _score_rows(game, s, P)
        scores = [float(x) for x in s["scores"]]
        top = sorted(scores, reverse=True)
        lengths = _lengths(game, rec)
        for k in (P, "all"):
            if k not in per_count:
                continue
            pc = per_count[k]
            pc["tied"] += len(s["winners"]) > 1
            pc["winning"].append(max(scores[w] for w in s["winners"]))
            pc["margin"].append(top[0] - top[1] if P > 1 else 0.0)
            if game == "red-north":
                pc["decided_by"][s["decided_by"]] = pc["decided_by"].get(s["decided_by"], 0) + 1
            for name, v in lengths.items():
                length_values.setdefault(k, {}).setdefault(name, []).append(v)
        for p in range(P):
            t = _turn_order(game, s, p, P)
            for k in (P, "all"):
                if k not in per_count:
                    continue
                seat[k].setdefault(p, Tally()).add(credit[p], P)
                order[k].setdefault(t, Tally()).add(credit[p], P)
                if game == "red-rising":
                    house[k].setdefault(s["houses"][p], Tally()).add(credit[p], P)
                bot[k].setdefault(rec["bots"][p], Tally()).add(credit[p], P)
                for name, v in rows[p].items():
                    row_values.setdefault(k, {}).setdefault(name, []).append(v)

    def table(d: dict, label: str, sort_key=None) -> list[dict]:
        out = []
        for k in keys:
            groups = sorted(d[k], key=sort_key) if sort_key else list(d[k])
            for grp in groups:
                out.append({"players": k, label: grp, **d[k][grp].json()})
        return out

    win_rates: dict[str, Any] = {
        "by_seat": table(seat, "seat", int),
        "by_turn_order": table(order, "turn_order", int),
    }
    if game == "red-rising":
        win_rates["by_house"] = table(house, "house", str)
    if len(distinct_bots) > 1:
        win_rates["by_bot"] = table(bot, "bot", distinct_bots.index)

    games_by_count = []
    for k in keys:
        pc = per_count[k]
        row = {
            "players": k,
            "games": pc["games"],
            "finished": pc["finished"],
            "errors": pc["errors"],
            "tied_games": pc["tied"],
            "tie_rate": _r(pc["tied"] / pc["finished"]) if pc["finished"] else None,
            "winning_score": describe(pc["winning"]),
            "winning_margin": describe(pc["margin"]),
        }
        if game == "red-north":
            row["decided_by"] = dict(sorted(pc["decided_by"].items()))
        games_by_count.append(row)

    numbers: dict[str, Any] = {
        "schema": SCHEMA,
        "game": game,
        "title": g.title,
        "settings": {
            "player_counts": counts,
            "games_per_player_count": col.games,
            "seed": col.seed,
            "bots": col.bots,
            "options": col.options,
        },
        "games": {
            "total": len(col.records),
            "finished": len(ok),
            "errors": len(col.records) - len(ok),
            "by_player_count": games_by_count,
        },
        "win_rates": win_rates,
        "scores": {
            "rows": list(row_names),
            "stats": [
                {"players": k, "row": name, **describe(row_values.get(k, {}).get(name, []))}
                for k in keys
                for name in row_names
            ],
        },
        "length": {
            "measures": list(length_measures(game)),
            "stats": [
                {"players": k, "measure": m, **describe(vals)}
                for k in keys
                for m, vals in length_values.get(k, {}).items()
            ],
        },
    }
    if game == "red-rising":
        numbers["cards"] = _cards(ok)
    else:
        numbers["gods"] = _gods(ok)
        numbers["outposts"] = _outposts(ok)
    numbers["errors"] = [
        {"players": r["players"], "game": r["index"], "seed": r["seed"], "bots": r["bots"], "error": r["error"]}
        for r in col.records
        if r["summary"] is None
    ]
    return numbers


def raw_rows(col: Collection) -> tuple[list[dict], list[dict]]:
    """One row per finished game and one per player-game (for ``games.csv`` / ``players.csv``)."""
    game = col.game
    games_rows, players_rows = [], []
    for rec in col.records:
        s = rec["summary"]
        if s is None:
            continue
        P = rec["players"]
        credit = shared_wins(P, s["winners"])
        row_names, rows = _score_rows(game, s, P)
        lengths = _lengths(game, rec)
        gr = {
            "players": P,
            "game": rec["index"],
            "seed": rec["seed"],
            "bots": " ".join(rec["bots"]),
            **{k: (_r(v, 4) if k == "decisions_per_player" else int(v)) for k, v in lengths.items()},
            "winners": " ".join(str(w) for w in s["winners"]),
            "scores": " ".join(f"{x:g}" for x in s["scores"]),
        }
        if game == "red-north":
            gr["decided_by"] = s["decided_by"]
        games_rows.append(gr)
        for p in range(P):
            pr = {
                "players": P,
                "game": rec["index"],
                "seed": rec["seed"],
                "seat": p,
                "turn_order": _turn_order(game, s, p, P),
                "bot": rec["bots"][p],
            }
            if game == "red-rising":
                pr["house"] = s["houses"][p]
            else:
                pr["god"] = s["gods"][p] or ""
                pr["invoked"] = int(bool(s["invoked"][p]))
            pr["win"] = _r(credit[p])
            pr.update({name: rows[p][name] for name in row_names})
            players_rows.append(pr)
    return games_rows, players_rows


def _cards(ok: list[dict]) -> list[dict]:
    """Red Rising: per card, deploys, abilities that took effect, final hands and win correlation."""
    from ..redrising.cards import CARDS

    n_games = len(ok)
    deployed = {c.slug: 0 for c in CARDS}
    deployed_games = {c.slug: 0 for c in CARDS}
    effect = {c.slug: 0 for c in CARDS}
    kept = {c.slug: 0 for c in CARDS}
    kept_by_winner = {c.slug: 0.0 for c in CARDS}
    held = _tallies(deployed)
    not_held = _tallies(deployed)
    by_deployer = _tallies(deployed)
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
            "deploys_per_game": _r(deployed[c.slug] / n_games) if n_games else None,
            "ability_took_effect": effect[c.slug],
            "kept": kept[c.slug],
            "kept_rate": _r(kept[c.slug] / n_games) if n_games else None,
            "held": hj,
            "not_held": nh.json(),
            "held_lift": _r(hj["win_rate"] - hj["expected"]) if h.n else None,
            "held_mean_score": h.mean_value(),
            "not_held_mean_score": nh.mean_value(),
        }
        if has_deployers:
            dj = by_deployer[c.slug].json()
            row["deployed_by_player"] = dj
            row["deployer_lift"] = _r(dj["win_rate"] - dj["expected"]) if dj["n"] else None
        out.append(row)
    return out


def _gods(ok: list[dict]) -> list[dict]:
    """Red North: per God, how often it is held and invoked, and win rate / VP held vs not."""
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
                "held_rate": _r(games_with[gd.slug] / n) if n else None,
                "invoked": inv.n,
                "invoke_rate": _r(inv.n / h.n) if h.n else None,
                "held": hj,
                "not_held": nh.json(),
                "when_invoked": inv.json(),
                "held_lift": _r(hj["win_rate"] - hj["expected"]) if h.n else None,
                "held_mean_vp": h.mean_value(),
                "not_held_mean_vp": nh.mean_value(),
                "invoked_mean_vp": inv.mean_value(),
            }
        )
    return out


def _outposts(ok: list[dict]) -> list[dict]:
    """Red North: per Outpost colour, how often it is in play, who controls it, and how they fare."""
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
                t = _turn_order("red-north", s, who, P)
                final_by_order[t] = final_by_order.get(t, 0) + 1
                final_by_seat[who] = final_by_seat.get(who, 0) + 1
        k = len(games)
        final = ctrl_win[-1]
        fj = final.json()
        out.append(
            {
                "outpost": c,
                "games": k,
                "in_play_rate": _r(k / n) if n else None,
                "control_rate_by_round": [_r(x / k) if k else None for x in control_rounds],
                "final_uncontrolled": uncontrolled,
                "final_controller_by_seat": {str(p): final_by_seat.get(p, 0) for p in range(most)},
                "final_controller_by_turn_order": {str(t): final_by_order.get(t, 0) for t in range(most)},
                "controller_win": fj,
                "controller_lift": _r(fj["win_rate"] - fj["expected"]) if final.n else None,
                "controller_mean_vp": final.mean_value(),
                "controller_win_by_round": [t.json() for t in ctrl_win],
            }
        )
    return out


__all__ = [
    "AnalyzeTask",
    "Collection",
    "RN_ROWS",
    "SCHEMA",
    "analyze",
    "collect",
    "describe",
    "quantile",
    "raw_rows",
    "record_of",
]
