"""Write an analysis (:mod:`redtable.sim.analyze`) as files: JSON, CSV, PNG charts, HTML.

``write_report(numbers, out_dir, ...)`` writes into ``out_dir``:

* ``report.json``: the numbers, exactly (byte-identical for the same seed and settings);
* ``run.json``: how the run went (seconds, workers, backend): not part of the numbers;
* CSV tables: ``player_counts.csv``, ``win_rates.csv``, ``scores.csv``, ``lengths.csv``,
  ``cards.csv`` (Red Rising) or ``gods.csv`` and ``outposts.csv`` (Red North), and the raw
  ``games.csv`` (one row per game) and ``players.csv`` (one row per player and game);
* PNG charts drawn with matplotlib's non-interactive Agg canvas (no pyplot, no global
  state), and ``index.html``, which shows them with the tables.

matplotlib is an optional dependency (``pip install 'redtable[analysis]'``);
:func:`require_matplotlib` says so when it is missing.
"""

from __future__ import annotations

import csv
import html
import json
from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter
from pathlib import Path
from typing import Any

from ..core import RedtableError
from .analyze import analysis_of

INSTALL_HINT = "pip install 'redtable[analysis]'"


class MissingDependency(RedtableError):
    """An optional library the report needs is not installed."""


def require_matplotlib() -> None:
    """Raise :class:`MissingDependency` with the install command when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
        from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: F401
    except ImportError as e:
        raise MissingDependency(
            f"the analysis report draws its charts with matplotlib, which is not "
            f"installed ({e}); install it with: {INSTALL_HINT}"
        ) from None


# ----------------------------------------------------------------------------- JSON / CSV


def dumps_numbers(numbers: dict[str, Any]) -> str:
    """The canonical text of ``report.json`` (stable key order, fixed float formatting)."""
    return json.dumps(numbers, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def flatten(row: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested dicts become ``outer_inner`` columns; ``ci95`` becomes ``..._ci95_low/high``;
    other lists get ``_1``, ``_2``... suffixes."""
    out: dict[str, Any] = {}
    for k, v in row.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(flatten(v, key + "_"))
        elif isinstance(v, list) and k == "ci95" and len(v) == 2:
            out[key + "_low"], out[key + "_high"] = v
        elif isinstance(v, list):
            for i, x in enumerate(v, start=1):
                if isinstance(x, dict):
                    out.update(flatten(x, f"{key}_{i}_"))
                else:
                    out[f"{key}_{i}"] = x
        else:
            out[key] = v
    return out


def write_csv(path: Path, rows: Iterable[dict[str, Any]], columns: Sequence[str] | None = None) -> Path:
    flat = [flatten(r) for r in rows]
    if columns is None:
        cols: dict[str, None] = {}
        for r in flat:
            for k in r:
                cols.setdefault(k)
        columns = list(cols)
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(columns)
        for r in flat:
            w.writerow(["" if r.get(c) is None else r.get(c) for c in columns])
    return path


def _win_rate_rows(numbers: dict) -> list[dict]:
    out = []
    for dim, rows in numbers["win_rates"].items():
        key = dim.removeprefix("by_")
        for r in rows:
            out.append(
                {
                    "dimension": key,
                    "players": r["players"],
                    "group": r[key],
                    **{k: v for k, v in r.items() if k not in ("players", key)},
                }
            )
    return out


# ----------------------------------------------------------------------------- charts

_COLOURS = [
    "#4C72B0",
    "#DD8452",
    "#55A868",
    "#C44E52",
    "#8172B3",
    "#937860",
    "#DA8BC3",
    "#8C8C8C",
    "#CCB974",
    "#64B5CD",
]
_RN_COLOURS = {"green": "#3a9a4a", "red": "#c0392b", "blue": "#2e6fbf", "purple": "#7d3c98", "yellow": "#d4ac0d"}


def _figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _save(fig, path: Path) -> Path:
    fig.savefig(path, format="png", metadata={"Software": None})
    return path


def _plabel(k: Any) -> str:
    return "all" if k == "all" else f"{k}p"


def _grouped_rates(
    ax,
    rows: list[dict],
    group_key: str,
    series_key: str,
    title: str,
    series_label: Callable[[Any], str] = str,
    group_label: Callable[[Any], str] = _plabel,
) -> None:
    """Bars of win rate with 95% CI whiskers and a tick at the fair share, one cluster per group."""
    groups = list(dict.fromkeys(r[group_key] for r in rows))
    series = list(dict.fromkeys(r[series_key] for r in rows))
    try:
        series.sort()
    except TypeError:
        pass
    width = 0.8 / max(1, len(series))
    for j, sv in enumerate(series):
        xs, ys, lo, hi, exp = [], [], [], [], []
        for i, gv in enumerate(groups):
            r = next((r for r in rows if r[group_key] == gv and r[series_key] == sv), None)
            if r is None or r["win_rate"] is None:
                continue
            x = i - 0.4 + width * (j + 0.5)
            xs.append(x)
            ys.append(r["win_rate"])
            lo.append(r["win_rate"] - r["ci95"][0])
            hi.append(r["ci95"][1] - r["win_rate"])
            exp.append(r["expected"])
        colour = _COLOURS[j % len(_COLOURS)]
        ax.bar(
            xs,
            ys,
            width * 0.9,
            yerr=[lo, hi],
            capsize=2,
            color=colour,
            label=series_label(sv),
            error_kw={"elinewidth": 0.8, "ecolor": "#333"},
        )
        ax.scatter(xs, exp, marker="_", s=max(40, 900 * width), color="black", zorder=3, linewidths=1.5)
    ax.set_xticks(range(len(groups)), [group_label(g) for g in groups])
    ax.set_ylabel("win rate (95% CI)")
    ax.set_ylim(0, 1)
    ax.set_title(title + "  (black tick: fair share)", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, ncols=min(len(series), 6), loc="upper right")


def _chart_win_rates(numbers: dict, out: Path) -> list[tuple[str, str]]:
    charts = []
    wr = numbers["win_rates"]
    specs: list[tuple[str, str, str, Callable[[Any], str]]] = [
        (
            "by_turn_order",
            "turn_order",
            "Win rate by turn-order position (0 = first player)",
            lambda v: f"position {v}",
        ),
        ("by_seat", "seat", "Win rate by seat", lambda v: f"seat {v}"),
        ("by_house", "house", "Win rate by house", str),
        ("by_bot", "bot", "Win rate by bot", str),
    ]
    for key, series, title, label in specs:
        if key not in wr or not any(r["win_rate"] is not None for r in wr[key]):
            continue
        groups = len(dict.fromkeys(r["players"] for r in wr[key]))
        fig = _figure(max(7.0, 1.6 * groups + 3), 4.2)
        _grouped_rates(fig.add_subplot(), wr[key], "players", series, title, label)
        name = f"win_{key.removeprefix('by_')}.png"
        charts.append((_save(fig, out / name).name, title))
    return charts


def _values_by_count(players_rows: list[dict], column: str) -> dict[Any, list[float]]:
    out: dict[Any, list[float]] = {}
    for r in players_rows:
        out.setdefault(r["players"], []).append(float(r[column]))
    return dict(sorted(out.items()))


def _chart_scores(numbers: dict, players_rows: list[dict], out: Path) -> list[tuple[str, str]]:
    rows = numbers["scores"]["rows"]
    if not players_rows:
        return []
    ncols = 4 if len(rows) > 6 else 3
    nrows = -(-len(rows) // ncols)
    charts = []
    # box plots: one panel per scorepad row, one box per player count
    fig = _figure(3.3 * ncols, 2.7 * nrows)
    for i, row in enumerate(rows):
        ax = fig.add_subplot(nrows, ncols, i + 1)
        data = _values_by_count(players_rows, row)
        ax.boxplot(
            list(data.values()),
            showmeans=True,
            meanprops={"marker": "D", "markersize": 4, "markerfacecolor": "white"},
            flierprops={"markersize": 2},
        )
        ax.set_xticks(range(1, len(data) + 1), [_plabel(k) for k in data])  # works on matplotlib 3.8 and later
        ax.set_title(row, fontsize=10)
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle("Score per scorepad row, by player count (box: quartiles, diamond: mean)", fontsize=11)
    charts.append((_save(fig, out / "scores_box.png").name, "Scorepad rows: box plots by player count"))
    # histograms: one panel per row, one outline per player count
    fig = _figure(3.3 * ncols, 2.7 * nrows)
    for i, row in enumerate(rows):
        ax = fig.add_subplot(nrows, ncols, i + 1)
        data = _values_by_count(players_rows, row)
        lo = min(min(v) for v in data.values())
        hi = max(max(v) for v in data.values())
        bins = _bins(lo, hi)
        for j, (k, vals) in enumerate(data.items()):
            ax.hist(
                vals,
                bins=bins,
                histtype="step",
                linewidth=1.4,
                density=True,
                color=_COLOURS[j % len(_COLOURS)],
                label=_plabel(k),
            )
        ax.set_title(row, fontsize=10)
        if i == 0:
            ax.legend(fontsize=7)
    fig.suptitle("Score distribution per scorepad row (density), by player count", fontsize=11)
    charts.append((_save(fig, out / "scores_hist.png").name, "Scorepad rows: histograms by player count"))
    return charts


def _bins(lo: float, hi: float, most: int = 30) -> list[float]:
    """Integer-aligned bins (scores are integers) covering ``lo..hi``: at most ``most`` of them."""
    lo, hi = float(lo), float(hi)
    if hi <= lo:
        return [lo - 0.5, lo + 0.5]
    step = max(1.0, float(int((hi - lo + 1) / most + 0.999)))
    edges = []
    x = lo - 0.5
    while x <= hi + 0.5:
        edges.append(x)
        x += step
    edges.append(x)
    return edges


def _chart_length(numbers: dict, games_rows: list[dict], out: Path) -> list[tuple[str, str]]:
    if not games_rows:
        return []
    undrawn = analysis_of(numbers["game"]).undrawn_lengths
    measures = [m for m in numbers["length"]["measures"] if m not in undrawn]
    fig = _figure(4.2 * len(measures), 3.4)
    for i, m in enumerate(measures):
        ax = fig.add_subplot(1, len(measures), i + 1)
        data = _values_by_count(games_rows, m)
        lo = min(min(v) for v in data.values())
        hi = max(max(v) for v in data.values())
        bins = _bins(lo, hi, 25)
        for j, (k, vals) in enumerate(data.items()):
            ax.hist(
                vals,
                bins=bins,
                histtype="step",
                linewidth=1.4,
                color=_COLOURS[j % len(_COLOURS)],
                label=f"{_plabel(k)} (mean {sum(vals) / len(vals):.1f})",
            )
        ax.set_title(m.replace("_", " ") + " per game", fontsize=10)
        ax.set_ylabel("games")
        ax.legend(fontsize=7)
    fig.suptitle("Game length by player count", fontsize=11)
    return [(_save(fig, out / "length.png").name, "Game length by player count")]


def _chart_cards(numbers: dict, out: Path) -> list[tuple[str, str]]:
    cards = [c for c in numbers["cards"] if c["held"]["n"]]
    if not cards:
        return []
    charts = []
    cards.sort(key=lambda c: (c["held_lift"], c["card"]))
    fig = _figure(8.5, max(4.0, 0.16 * len(cards) + 1.2))
    ax = fig.add_subplot()
    ys = range(len(cards))
    lift = [c["held_lift"] for c in cards]
    lo = [c["held"]["win_rate"] - c["held"]["ci95"][0] for c in cards]
    hi = [c["held"]["ci95"][1] - c["held"]["win_rate"] for c in cards]
    ax.barh(
        list(ys),
        lift,
        xerr=[lo, hi],
        height=0.7,
        color=["#55A868" if x >= 0 else "#C44E52" for x in lift],
        error_kw={"elinewidth": 0.6, "ecolor": "#555"},
    )
    ax.set_yticks(list(ys), [f"{c['card']} (n={c['held']['n']})" for c in cards], fontsize=6)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_ylim(-0.7, len(cards) - 0.3)
    ax.set_xlabel("win rate of the player holding it at the end, minus the fair share (95% CI)")
    ax.set_title("Cards kept in the final hand: win-rate lift", fontsize=11)
    ax.grid(axis="x", alpha=0.3)
    charts.append((_save(fig, out / "cards_lift.png").name, "Cards: win-rate lift when held at the end"))

    fig = _figure(9, 6.5)
    ax = fig.add_subplot()
    xs = [c["deploys_per_game"] for c in cards]
    ys2 = [c["kept_rate"] for c in cards]
    sc = ax.scatter(xs, ys2, c=lift, cmap="RdYlGn", vmin=-0.5, vmax=0.5, s=28, edgecolors="#333", linewidths=0.4)
    fig.colorbar(sc, ax=ax, label="win-rate lift when held")
    extremes = cards[:6] + cards[-6:] if len(cards) > 12 else cards
    for c in extremes:
        ax.annotate(
            c["card"], (c["deploys_per_game"], c["kept_rate"]), fontsize=7, xytext=(3, 3), textcoords="offset points"
        )
    ax.set_xlabel("deploys per game")
    ax.set_ylabel("share of games ending in a hand")
    ax.set_title("Cards: how often deployed vs kept (labelled: the 6 best and worst lifts)", fontsize=11)
    ax.grid(alpha=0.3)
    charts.append((_save(fig, out / "cards_usage.png").name, "Cards: deployed vs kept"))
    return charts


def _chart_pairs(ax, labels: list[str], a: list[dict], b: list[dict], la: str, lb: str, title: str) -> None:
    """Win rates of two subsets per label (held / not held...) with CIs and fair-share ticks."""
    xs = range(len(labels))
    for off, rows, lab, colour in ((-0.2, a, la, _COLOURS[0]), (0.2, b, lb, _COLOURS[7])):
        x = [i + off for i, r in zip(xs, rows, strict=True) if r["n"]]
        y = [r["win_rate"] for r in rows if r["n"]]
        err = [
            [r["win_rate"] - r["ci95"][0] for r in rows if r["n"]],
            [r["ci95"][1] - r["win_rate"] for r in rows if r["n"]],
        ]
        ax.bar(x, y, 0.38, yerr=err, capsize=2, color=colour, label=lab, error_kw={"elinewidth": 0.8})
        ax.scatter(x, [r["expected"] for r in rows if r["n"]], marker="_", s=160, color="black", zorder=3)
    ax.set_xticks(list(xs), labels, fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title(title + "  (black tick: fair share)", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)


def _chart_gods(numbers: dict, out: Path) -> list[tuple[str, str]]:
    gods = numbers["gods"]
    if not any(g["held"]["n"] for g in gods):
        return []
    fig = _figure(13, 4)
    labels = [g["god"] for g in gods]
    _chart_pairs(
        fig.add_subplot(1, 2, 1),
        labels,
        [g["held"] for g in gods],
        [g["not_held"] for g in gods],
        "held",
        "not held",
        "Gods: win rate of the player holding it",
    )
    ax = fig.add_subplot(1, 2, 2)
    xs = range(len(gods))
    for off, key, lab, colour in (
        (-0.27, "held_mean_vp", "held", _COLOURS[0]),
        (0, "invoked_mean_vp", "invoked", _COLOURS[2]),
        (0.27, "not_held_mean_vp", "not held", _COLOURS[7]),
    ):
        pts = [(i + off, g[key]) for i, g in zip(xs, gods, strict=True) if g[key] is not None]
        ax.bar([p[0] for p in pts], [p[1] for p in pts], 0.26, color=colour, label=lab)
    ax.set_xticks(list(xs), labels, fontsize=8)
    ax.set_ylabel("mean final VP")
    ax.set_title("Gods: mean VP held / invoked / not held", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    return [(_save(fig, out / "gods.png").name, "Gods: win rate and VP")]


def _chart_outposts(numbers: dict, out: Path) -> list[tuple[str, str]]:
    ops = numbers["outposts"]
    if not any(o["games"] for o in ops):
        return []
    fig = _figure(15, 4)
    labels = [o["outpost"] for o in ops]
    colours = [_RN_COLOURS.get(o["outpost"], "#888") for o in ops]
    ax = fig.add_subplot(1, 3, 1)
    ax.bar(range(len(ops)), [o["in_play_rate"] or 0 for o in ops], color=colours)
    ax.set_xticks(range(len(ops)), labels)
    ax.set_ylim(0, 1.05)
    ax.set_title("Outposts: share of games in play", fontsize=10)
    ax = fig.add_subplot(1, 3, 2)
    for r, rname in enumerate(("spring", "summer", "ragnarok")):
        ax.bar(
            [i - 0.27 + 0.27 * r for i in range(len(ops))],
            [(o["control_rate_by_round"][r] or 0) if len(o["control_rate_by_round"]) > r else 0 for o in ops],
            0.26,
            color=colours,
            alpha=0.45 + 0.25 * r,
            edgecolor="#333",
            linewidth=0.5,
            label=rname,
        )
    ax.set_xticks(range(len(ops)), labels)
    ax.set_ylim(0, 1.05)
    ax.set_title("Controlled after each round (spring, summer, ragnarok)", fontsize=10)
    ax = fig.add_subplot(1, 3, 3)
    rows = [o["controller_win"] for o in ops]
    x = [i for i, r in enumerate(rows) if r["n"]]
    ax.bar(
        x,
        [rows[i]["win_rate"] for i in x],
        0.6,
        color=[colours[i] for i in x],
        yerr=[
            [rows[i]["win_rate"] - rows[i]["ci95"][0] for i in x],
            [rows[i]["ci95"][1] - rows[i]["win_rate"] for i in x],
        ],
        capsize=3,
    )
    ax.scatter(x, [rows[i]["expected"] for i in x], marker="_", s=300, color="black", zorder=3)
    ax.set_xticks(range(len(ops)), labels)
    ax.set_ylim(0, 1)
    ax.set_title("Win rate of the final controller (95% CI; tick: fair share)", fontsize=10)
    return [(_save(fig, out / "outposts.png").name, "Outposts: in play, control, controller win rate")]


# ----------------------------------------------------------------------------- HTML

_STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;max-width:1200px;
     padding:0 1rem;color:#222;line-height:1.4}
h1{margin-bottom:.2rem} h2{border-bottom:2px solid #ddd;padding-bottom:.2rem;margin-top:2.2rem}
table{border-collapse:collapse;margin:.6rem 0 1.2rem;font-size:.86rem}
th,td{border:1px solid #ddd;padding:.22rem .5rem;text-align:right;white-space:nowrap}
th{background:#f3f3f3;cursor:pointer;position:sticky;top:0} td.l,th.l{text-align:left}
tr:nth-child(even) td{background:#fafafa}
figure{margin:1rem 0} figure img{max-width:100%;border:1px solid #eee}
figcaption{color:#666;font-size:.85rem} .note{color:#555;font-size:.88rem;max-width:60rem}
.wrap{overflow-x:auto} .bad{color:#b00}
code{background:#f4f4f4;padding:0 .2rem}
"""

_SORT_JS = """
document.querySelectorAll('table.sortable th').forEach(function(th){
  th.addEventListener('click',function(){
    var table=th.closest('table'),body=table.tBodies[0],i=Array.prototype.indexOf.call(th.parentNode.children,th);
    var asc=th.dataset.asc!=='1';th.dataset.asc=asc?'1':'0';
    var rows=Array.prototype.slice.call(body.rows);
    rows.sort(function(a,b){
      var x=a.cells[i].dataset.v!==undefined?a.cells[i].dataset.v:a.cells[i].textContent;
      var y=b.cells[i].dataset.v!==undefined?b.cells[i].dataset.v:b.cells[i].textContent;
      var nx=parseFloat(x),ny=parseFloat(y);
      var c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:String(x).localeCompare(String(y));
      return asc?c:-c;});
    rows.forEach(function(r){body.appendChild(r);});});});
"""


def _esc(x: Any) -> str:
    return html.escape(str(x), quote=True)


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x * 100:.1f}%"


def _ci(r: dict) -> str:
    return f"{r['ci95'][0] * 100:.1f}–{r['ci95'][1] * 100:.1f}%"


def _num(x: Any, digits: int = 2) -> str:
    if x is None:
        return "–"
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


Column = tuple[str, Callable[[dict], Any], Callable[[dict], Any] | None, bool]  # header, text, sort value, left


def _counts_text(fact: str) -> Callable[[dict], str]:
    """A cell of counts by value of a counted per-game fact ("ragnarok 12, tie 1")."""

    def text(r: dict) -> str:
        return ", ".join(f"{k} {v}" for k, v in r[fact].items())

    return text


def _col(
    header: str, text: Callable[[dict], Any], value: Callable[[dict], Any] | None = None, left: bool = False
) -> Column:
    return (header, text, value, left)


def _table(columns: Sequence[Column], rows: Iterable[dict]) -> str:
    head = "".join(f'<th class="l">{_esc(h)}</th>' if left else f"<th>{_esc(h)}</th>" for h, _, _, left in columns)
    body = []
    for r in rows:
        cells = []
        for _, text, value, left in columns:
            v = value(r) if value else None
            attr = f' data-v="{_esc(v)}"' if v is not None else ""
            cls = ' class="l"' if left else ""
            cells.append(f"<td{cls}{attr}>{_esc(text(r))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (
        f'<div class="wrap"><table class="sortable"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def _rate_cols(get: Callable[[dict], dict], label: str = "") -> list[Column]:
    p = f"{label} " if label else ""
    return [
        _col(f"{p}n", lambda r: get(r)["n"], lambda r: get(r)["n"]),
        _col(f"{p}wins", lambda r: _num(get(r)["wins"], 2), lambda r: get(r)["wins"]),
        _col(f"{p}win rate", lambda r: _pct(get(r)["win_rate"]), lambda r: get(r)["win_rate"]),
        _col(f"{p}95% CI", lambda r: _ci(get(r)), lambda r: get(r)["ci95"][0]),
        _col(f"{p}fair share", lambda r: _pct(get(r)["expected"]), lambda r: get(r)["expected"]),
    ]


def _control_col(i: int, round_name: str) -> Column:
    """How often an Outpost is controlled after round ``i`` (``round_name``)."""
    return _col(
        f"controlled after {round_name}",
        lambda r: _pct(r["control_rate_by_round"][i]),
        lambda r: r["control_rate_by_round"][i],
    )


def _stat_cols() -> list[Column]:
    def stat(k: str) -> Column:
        return _col(k, lambda r: _num(r[k]), lambda r: r[k])

    return [stat(k) for k in ("mean", "std", "min", "q1", "median", "q3", "max")]


def _figures(charts: list[tuple[str, str]], names: Iterable[str]) -> str:
    wanted = set(names)
    return "".join(
        f'<figure><img src="{_esc(f)}" alt="{_esc(c)}"><figcaption>{_esc(c)}</figcaption></figure>'
        for f, c in charts
        if f in wanted
    )


def render_html(numbers: dict, charts: list[tuple[str, str]], files: list[str], run: dict | None) -> str:
    s = numbers["settings"]
    g = numbers["games"]
    title = f"{numbers['title']} balance report"
    parts = [
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{_esc(title)}</title>'
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>{_esc(title)}</h1>",
    ]
    bots = ", ".join(s["bots"])
    opts = ", ".join(f"{k}={json.dumps(v)}" for k, v in s["options"].items()) or "none"
    parts.append(
        f'<p class="note">{g["total"]} games: {s["games_per_player_count"]} at each of '
        f"{_esc(', '.join(str(p) for p in s['player_counts']))} players; seed {_esc(s['seed'])}; "
        f"bots {_esc(bots)} (repeated over the seats); game options: {_esc(opts)}. "
        f'{g["finished"]} finished, <span class="{"bad" if g["errors"] else ""}">{g["errors"]} failed</span>.'
    )
    if run:
        parts.append(
            f" Played in {_esc(run.get('seconds'))} s on {_esc(run.get('workers'))} worker(s), "
            f"backend {_esc(run.get('backend'))}."
        )
    parts.append("</p>")
    parts.append(
        '<p class="note">Files: '
        + ", ".join(f'<a href="{_esc(f)}">{_esc(f)}</a>' for f in files)
        + ". The numbers are in <code>report.json</code> and are the same for the same seed and "
        "settings, whatever the number of workers.</p>"
    )
    parts.append(
        '<p class="note">A tie for first between k players counts 1/k win each. A win rate is over '
        "player-games (one player in one game), with a 95% Wilson interval, next to its <em>fair share</em>: "
        "the mean of 1/players over the same player-games. Turn-order position 0 is the first player "
        + analysis_of(numbers["game"]).first_player_words
        + ". Std is the sample standard deviation; quartiles interpolate linearly. Click a column header "
        "to sort.</p>"
    )

    parts.append("<h2>Games by player count</h2>")
    pc_cols = [
        _col("players", lambda r: r["players"], left=True),
        _col("games", lambda r: r["games"]),
        _col("errors", lambda r: r["errors"]),
        _col("tied games", lambda r: r["tied_games"]),
        _col("mean winning score", lambda r: _num(r["winning_score"]["mean"]), lambda r: r["winning_score"]["mean"]),
        _col(
            "mean margin over 2nd", lambda r: _num(r["winning_margin"]["mean"]), lambda r: r["winning_margin"]["mean"]
        ),
    ]
    for fact in analysis_of(numbers["game"]).counted:
        pc_cols.append(_col(fact.replace("_", " "), _counts_text(fact), left=True))
    parts.append(_table(pc_cols, g["by_player_count"]))

    parts.append("<h2>Win rates</h2>")
    labels = {"by_turn_order": "turn-order position", "by_seat": "seat", "by_house": "house", "by_bot": "bot"}
    for key, rows in numbers["win_rates"].items():
        group = key.removeprefix("by_")
        parts.append(f"<h3>By {_esc(labels.get(key, group))}</h3>")
        parts.append(_figures(charts, [f"win_{group}.png"]))
        parts.append(
            _table(
                [
                    _col("players", lambda r: r["players"], left=True),
                    _col(labels.get(key, group), itemgetter(group), left=True),
                    *_rate_cols(lambda r: r),
                ],
                rows,
            )
        )

    parts.append("<h2>Scores per scorepad row</h2>")
    parts.append(_figures(charts, ["scores_box.png", "scores_hist.png"]))
    parts.append(
        _table(
            [
                _col("players", lambda r: r["players"], left=True),
                _col("row", lambda r: r["row"], left=True),
                _col("n", lambda r: r["n"]),
                *_stat_cols(),
            ],
            numbers["scores"]["stats"],
        )
    )

    parts.append("<h2>Game length</h2>")
    parts.append(_figures(charts, ["length.png"]))
    parts.append(
        _table(
            [
                _col("players", lambda r: r["players"], left=True),
                _col("measure", lambda r: r["measure"], left=True),
                _col("games", lambda r: r["n"]),
                *_stat_cols(),
            ],
            numbers["length"]["stats"],
        )
    )

    if "cards" in numbers:
        parts.append("<h2>Cards</h2>")
        parts.append(
            '<p class="note"><em>deployed</em>: times the card was deployed (re-deploys by abilities '
            "included); <em>took effect</em>: times its deploy ability changed the game or offered a choice; "
            "<em>kept</em>: games in which it ended in a hand. <em>Held</em>: the player holding it at the "
            "end vs every other player-game; <em>deployer</em>: the players who deployed it (once per player "
            "and game). <em>Lift</em>: win rate minus fair share.</p>"
        )
        parts.append(_figures(charts, ["cards_lift.png", "cards_usage.png"]))
        cols = [
            _col("card", lambda r: r["card"], left=True),
            _col("colour", lambda r: r["color"], left=True),
            _col("value", lambda r: r["value"]),
            _col("deployed", lambda r: r["deployed"]),
            _col("took effect", lambda r: r["ability_took_effect"]),
            _col("kept", lambda r: r["kept"]),
            _col("kept rate", lambda r: _pct(r["kept_rate"]), lambda r: r["kept_rate"]),
            *_rate_cols(lambda r: r["held"], "held"),
            _col("held lift", lambda r: _pct(r["held_lift"]), lambda r: r["held_lift"]),
            _col("not held win rate", lambda r: _pct(r["not_held"]["win_rate"]), lambda r: r["not_held"]["win_rate"]),
            _col("not held 95% CI", lambda r: _ci(r["not_held"]), lambda r: r["not_held"]["ci95"][0]),
            _col("held mean score", lambda r: _num(r["held_mean_score"]), lambda r: r["held_mean_score"]),
        ]
        if numbers["cards"] and "deployed_by_player" in numbers["cards"][0]:
            cols += [
                _col("deployer n", lambda r: r["deployed_by_player"]["n"]),
                _col(
                    "deployer win rate",
                    lambda r: _pct(r["deployed_by_player"]["win_rate"]),
                    lambda r: r["deployed_by_player"]["win_rate"],
                ),
                _col(
                    "deployer 95% CI",
                    lambda r: _ci(r["deployed_by_player"]),
                    lambda r: r["deployed_by_player"]["ci95"][0],
                ),
                _col("deployer lift", lambda r: _pct(r["deployer_lift"]), lambda r: r["deployer_lift"]),
            ]
        parts.append(_table(cols, numbers["cards"]))

    if "gods" in numbers:
        parts.append("<h2>Gods</h2>")
        parts.append(_figures(charts, ["gods.png"]))
        parts.append(
            _table(
                [
                    _col("god", lambda r: r["god"], left=True),
                    _col("games held", lambda r: r["games_held"]),
                    _col("invoked", lambda r: r["invoked"]),
                    _col("invoke rate", lambda r: _pct(r["invoke_rate"]), lambda r: r["invoke_rate"]),
                    *_rate_cols(lambda r: r["held"], "held"),
                    _col("held lift", lambda r: _pct(r["held_lift"]), lambda r: r["held_lift"]),
                    _col(
                        "not held win rate",
                        lambda r: _pct(r["not_held"]["win_rate"]),
                        lambda r: r["not_held"]["win_rate"],
                    ),
                    _col(
                        "invoked win rate",
                        lambda r: _pct(r["when_invoked"]["win_rate"]),
                        lambda r: r["when_invoked"]["win_rate"],
                    ),
                    _col("held mean VP", lambda r: _num(r["held_mean_vp"]), lambda r: r["held_mean_vp"]),
                    _col("not held mean VP", lambda r: _num(r["not_held_mean_vp"]), lambda r: r["not_held_mean_vp"]),
                ],
                numbers["gods"],
            )
        )
    if "outposts" in numbers:
        parts.append("<h2>Outposts</h2>")
        parts.append(_figures(charts, ["outposts.png"]))
        parts.append(
            _table(
                [
                    _col("outpost", lambda r: r["outpost"], left=True),
                    _col("games", lambda r: r["games"]),
                    _col("in play", lambda r: _pct(r["in_play_rate"]), lambda r: r["in_play_rate"]),
                    *[_control_col(i, n) for i, n in enumerate(("spring", "summer", "ragnarok"))],
                    _col("final: uncontrolled", lambda r: r["final_uncontrolled"]),
                    _col(
                        "final controller by turn order",
                        lambda r: ", ".join(f"{k}: {v}" for k, v in r["final_controller_by_turn_order"].items()),
                        left=True,
                    ),
                    *_rate_cols(lambda r: r["controller_win"], "controller"),
                    _col(
                        "controller mean VP", lambda r: _num(r["controller_mean_vp"]), lambda r: r["controller_mean_vp"]
                    ),
                ],
                numbers["outposts"],
            )
        )

    if numbers["errors"]:
        parts.append('<h2 class="bad">Failed games</h2>')
        for e in numbers["errors"][:20]:
            parts.append(
                f"<p>{_esc(e['players'])} players, game {_esc(e['game'])} (seed {_esc(e['seed'])}):</p>"
                f"<pre>{_esc(e['error'])}</pre>"
            )
    parts.append(f"<script>{_SORT_JS}</script></body></html>\n")
    return "".join(parts)


# ----------------------------------------------------------------------------- all together


def write_report(
    numbers: dict[str, Any],
    out_dir: str | Path,
    *,
    games_rows: list[dict] | None = None,
    players_rows: list[dict] | None = None,
    run: dict[str, Any] | None = None,
    charts: bool = True,
) -> dict[str, Path]:
    """Write every file of the report into ``out_dir`` (created); return ``{name: path}``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, Path] = {}

    def put(name: str, path: Path) -> None:
        files[name] = path

    (out / "report.json").write_text(dumps_numbers(numbers), encoding="utf-8")
    put("report.json", out / "report.json")
    if run is not None:
        (out / "run.json").write_text(json.dumps(run, indent=1) + "\n", encoding="utf-8")
        put("run.json", out / "run.json")
    pc = [{k: v for k, v in r.items()} for r in numbers["games"]["by_player_count"]]
    put("player_counts.csv", write_csv(out / "player_counts.csv", pc))
    put("win_rates.csv", write_csv(out / "win_rates.csv", _win_rate_rows(numbers)))
    put("scores.csv", write_csv(out / "scores.csv", numbers["scores"]["stats"]))
    put("lengths.csv", write_csv(out / "lengths.csv", numbers["length"]["stats"]))
    for key in ("cards", "gods", "outposts"):
        if key in numbers:
            put(f"{key}.csv", write_csv(out / f"{key}.csv", numbers[key]))
    if games_rows is not None:
        put("games.csv", write_csv(out / "games.csv", games_rows))
    if players_rows is not None:
        put("players.csv", write_csv(out / "players.csv", players_rows))
    drawn: list[tuple[str, str]] = []
    if charts:
        require_matplotlib()
        drawn += _chart_win_rates(numbers, out)
        drawn += _chart_scores(numbers, players_rows or [], out)
        drawn += _chart_length(numbers, games_rows or [], out)
        if "cards" in numbers:
            drawn += _chart_cards(numbers, out)
        if "gods" in numbers:
            drawn += _chart_gods(numbers, out)
        if "outposts" in numbers:
            drawn += _chart_outposts(numbers, out)
        for name, _ in drawn:
            put(name, out / name)
    listed = [n for n in files if not n.endswith(".png")]
    (out / "index.html").write_text(render_html(numbers, drawn, listed, run), encoding="utf-8")
    put("index.html", out / "index.html")
    return files


__all__ = [
    "INSTALL_HINT",
    "MissingDependency",
    "dumps_numbers",
    "flatten",
    "render_html",
    "require_matplotlib",
    "write_csv",
    "write_report",
]
