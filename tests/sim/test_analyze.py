"""`redtable analyze`: the report's numbers, its files, determinism and the command line."""

import csv
import json
import re
import sys
from collections import Counter

import pytest
from typer.testing import CliRunner

from redtable.cli import app
from redtable.core import make_game
from redtable.sim import analyze as an
from redtable.sim.analyze import analyze, collect, describe, quantile, raw_rows
from redtable.sim.report import MissingDependency, dumps_numbers, require_matplotlib, write_report
from redtable.sim.simulate import play_one

runner = CliRunner()

RR = dict(game="red-rising", player_counts=[2, 4], games=6, seed=11)  # 12 games
RN = dict(game="red-north", player_counts=[2, 3, 4], games=4, seed=7)  # 12 games


def _collect(spec, workers=1, bots=None):
    return collect(spec["game"], spec["player_counts"], spec["games"], spec["seed"], bots, workers=workers)


@pytest.fixture(scope="module")
def rr():
    col = _collect(RR)
    return col, analyze(col)


@pytest.fixture(scope="module")
def rn():
    col = _collect(RN)
    return col, analyze(col)


def _rate_dicts(obj):
    """Every {win_rate, ci95, ...} dict anywhere in the numbers."""
    if isinstance(obj, dict):
        if "ci95" in obj and "win_rate" in obj:
            yield obj
        for v in obj.values():
            yield from _rate_dicts(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _rate_dicts(v)


# ----------------------------------------------------------------------------- the numbers


@pytest.mark.parametrize("which", ["rr", "rn"])
def test_games_are_those_of_simulate_and_all_finish(which, request):
    col, numbers = request.getfixturevalue(which)
    spec = RR if which == "rr" else RN
    assert numbers["games"]["total"] == numbers["games"]["finished"] == 12 and numbers["errors"] == []
    assert [(r["players"], r["index"]) for r in col.records] == [
        (p, i) for p in spec["player_counts"] for i in range(spec["games"])
    ]
    # game i at P players is game i of `simulate -p P -s SEED`
    rec = col.records[spec["games"] + 1]
    again = play_one(spec["game"], rec["players"], {}, rec["index"], spec["seed"])
    assert again.summary == rec["summary"] and again.seed == rec["seed"]


@pytest.mark.parametrize("which", ["rr", "rn"])
def test_win_counts_sum_to_games_with_shared_ties(which, request):
    col, numbers = request.getfixturevalue(which)
    finished = Counter(r["players"] for r in col.records if r["summary"])
    finished["all"] = sum(finished.values())
    dims = numbers["win_rates"]
    assert set(dims) >= {"by_seat", "by_turn_order"} and ("by_house" in dims) == (which == "rr")
    for dim, rows in dims.items():
        for k, games in finished.items():
            sub = [r for r in rows if r["players"] == k]
            assert sum(r["wins"] for r in sub) == pytest.approx(games, abs=1e-4), (dim, k)
            slots = games * k if k != "all" else sum(r["players"] for r in col.records)
            assert sum(r["n"] for r in sub) == slots, (dim, k)
            assert sum(r["expected"] * r["n"] for r in sub) == pytest.approx(games, abs=1e-3)
    # by player count: every seat's fair share is 1/P
    for r in dims["by_seat"]:
        if r["players"] != "all":
            assert r["expected"] == pytest.approx(1 / r["players"], abs=1e-6)


@pytest.mark.parametrize("which", ["rr", "rn"])
def test_confidence_intervals_contain_the_rate(which, request):
    _, numbers = request.getfixturevalue(which)
    rates = list(_rate_dicts(numbers))
    assert len(rates) > 20
    for r in rates:
        lo, hi = r["ci95"]
        assert 0.0 <= lo <= hi <= 1.0
        if r["n"]:
            assert lo <= r["win_rate"] <= hi
            assert r["wins"] <= r["n"]
        else:
            assert r["win_rate"] is None and (lo, hi) == (0.0, 1.0)


def test_red_rising_card_counts_equal_the_summaries(rr):
    col, numbers = rr
    summaries = [r["summary"] for r in col.records]
    cards = {c["slug"]: c for c in numbers["cards"]}
    assert len(cards) == 112
    deployed = Counter(slug for s in summaries for slug in s["deployed"])
    effect = Counter(slug for s in summaries for slug in s["abilities"])
    kept = Counter(slug for s in summaries for hand in s["hands"] for slug in hand)
    for slug, c in cards.items():
        assert c["deployed"] == deployed[slug]
        assert c["ability_took_effect"] == effect[slug]
        assert c["kept"] == kept[slug] == c["held"]["n"]
        assert c["held"]["n"] + c["not_held"]["n"] == sum(r["players"] for r in col.records)
        assert c["deployed_games"] == sum(slug in s["deployed"] for s in summaries)
        pairs = {
            (i, p)
            for i, s in enumerate(summaries)
            for d, p in zip(s["deployed"], s["deployed_by"], strict=True)
            if d == slug
        }
        assert c["deployed_by_player"]["n"] == len(pairs)
    assert sum(c["deployed"] for c in cards.values()) == sum(len(s["deployed"]) for s in summaries) > 0
    # the same counts as `simulate`'s card_stats (by card name)
    stats = make_game("red-rising", 2).summarize(summaries)["card_stats"]
    for c in numbers["cards"]:
        assert stats[c["card"]] == {
            "deployed": c["deployed"],
            "ability_took_effect": c["ability_took_effect"],
            "in_final_hand": c["kept"],
        }


def test_red_rising_summary_names_who_deployed(rr):
    col, _ = rr
    for rec in col.records:
        s = rec["summary"]
        assert len(s["deployed_by"]) == len(s["deployed"]) and len(s["abilities_by"]) == len(s["abilities"])
        assert all(0 <= p < rec["players"] for p in s["deployed_by"] + s["abilities_by"])


def test_red_rising_scorepad_rows(rr):
    col, numbers = rr
    from redtable.redrising.scoring import ROWS

    assert numbers["scores"]["rows"] == list(ROWS)
    _, players = raw_rows(col)
    for r in players:
        assert sum(r[k] for k in ROWS if k != "total") == r["total"]
    for st in numbers["scores"]["stats"]:
        n = sum(r["players"] for r in col.records if st["players"] in (r["players"], "all"))
        assert st["n"] == n
        assert st["min"] <= st["q1"] <= st["median"] <= st["q3"] <= st["max"] and st["std"] >= 0
    total = next(s for s in numbers["scores"]["stats"] if s["players"] == "all" and s["row"] == "total")
    scores = [x for r in col.records for x in r["summary"]["scores"]]
    assert total["mean"] == pytest.approx(sum(scores) / len(scores), abs=1e-4)
    assert total["max"] == max(scores)


def test_red_north_gods_outposts_and_vp_rows(rn):
    col, numbers = rn
    summaries = [r["summary"] for r in col.records]
    held = Counter(g for s in summaries for g in s["gods"] if g)
    gods = {g["slug"]: g for g in numbers["gods"]}
    assert len(gods) == 8
    for slug, g in gods.items():
        assert g["held"]["n"] == held[slug] == g["games_held"]
        assert g["held"]["n"] + g["not_held"]["n"] == sum(len(s["vp"]) for s in summaries)
        assert g["invoked"] == sum(
            1 for s in summaries for p, x in enumerate(s["gods"]) if x == slug and s["invoked"][p]
        )
    for o in numbers["outposts"]:
        games = [s for s in summaries if o["outpost"] in s["outposts"]]
        assert o["games"] == len(games)
        final = [s["controllers"][-1][o["outpost"]] for s in games]
        assert o["final_uncontrolled"] == final.count(None)
        assert o["controller_win"]["n"] == len(games) - final.count(None)
        assert sum(o["final_controller_by_seat"].values()) == o["controller_win"]["n"]
    green = next(o for o in numbers["outposts"] if o["outpost"] == "green")
    assert green["in_play_rate"] == 1.0  # Vinland is always in play
    _, players = raw_rows(col)
    for r in players:
        assert r["vp_spring"] + r["vp_summer"] + r["vp_ragnarok"] + r["vp_odin"] == r["vp_total"]
    for s in summaries:
        assert len(s["vp_by_round"]) == len(s["glory_by_round"]) == len(s["first_player_by_round"]) == 3
    lengths = {(r["players"], r["measure"]): r for r in numbers["length"]["stats"]}
    assert lengths[("all", "rounds")]["mean"] == 3.0
    assert lengths[(2, "decisions")]["n"] == RN["games"]


def test_describe_and_quantiles():
    d = describe([4, 1, 3, 2])
    assert (d["n"], d["mean"], d["min"], d["q1"], d["median"], d["q3"], d["max"]) == (4, 2.5, 1, 1.75, 2.5, 3.25, 4)
    assert d["std"] == pytest.approx(1.2910, abs=1e-4)  # sample standard deviation
    assert describe([7])["std"] == 0.0 and describe([])["mean"] is None
    assert quantile([0.0, 10.0], 0.3) == pytest.approx(3.0)


# ----------------------------------------------------------------------------- determinism and files


@pytest.mark.multiprocess
def test_same_seed_same_report_json_for_one_and_two_workers(rr, rn, tmp_path):
    for spec, (col1, numbers1) in ((RR, rr), (RN, rn)):
        col2 = _collect(spec, workers=2)
        assert col2.workers == 2
        numbers2 = analyze(col2)
        assert dumps_numbers(numbers1) == dumps_numbers(numbers2)
        a = write_report(numbers1, tmp_path / f"{spec['game']}-1", charts=False, run=col1.run_info())
        b = write_report(numbers2, tmp_path / f"{spec['game']}-2", charts=False, run=col2.run_info())
        assert a["report.json"].read_bytes() == b["report.json"].read_bytes()
        assert "seconds" not in a["report.json"].read_text()  # timings live in run.json only
        assert json.loads(a["run.json"].read_text())["workers"] == 1


def test_report_files_and_html(rr, rn, tmp_path):
    for (col, numbers), extra in ((rr, ["cards.csv"]), (rn, ["gods.csv", "outposts.csv"])):
        g, p = raw_rows(col)
        out = tmp_path / col.game
        files = write_report(numbers, out, games_rows=g, players_rows=p, run=col.run_info())
        for name in [
            "report.json",
            "run.json",
            "index.html",
            "win_rates.csv",
            "scores.csv",
            "lengths.csv",
            "player_counts.csv",
            "games.csv",
            "players.csv",
            *extra,
        ]:
            assert (out / name).is_file() and name in files, name
        assert json.loads((out / "report.json").read_text()) == json.loads(dumps_numbers(numbers))
        page = (out / "index.html").read_text()
        pngs = sorted(f.name for f in out.glob("*.png"))
        assert len(pngs) >= 6
        assert sorted(set(re.findall(r'<img src="([^"]+)"', page))) == pngs
        for png in pngs:
            assert (out / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        with (out / "win_rates.csv").open() as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == sum(len(v) for v in numbers["win_rates"].values())
        assert {"dimension", "players", "group", "win_rate", "ci95_low", "ci95_high"} <= set(rows[0])
        with (out / "players.csv").open() as f:
            assert sum(1 for _ in csv.DictReader(f)) == sum(r["players"] for r in col.records)
    with (tmp_path / "red-rising" / "cards.csv").open() as f:
        cards = list(csv.DictReader(f))
    assert len(cards) == 112 and "held_ci95_low" in cards[0]


def test_html_escapes_text(rr, tmp_path):
    _, numbers = rr
    evil = json.loads(json.dumps(numbers))
    evil["settings"]["bots"] = ["<script>alert(1)</script>"]
    evil["cards"][0]["card"] = "A & <b>"
    write_report(evil, tmp_path, charts=False)
    page = (tmp_path / "index.html").read_text()
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "A &amp; &lt;b&gt;" in page


def test_missing_matplotlib_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(MissingDependency, match=re.escape("pip install 'redtable[analysis]'")):
        require_matplotlib()
    r = runner.invoke(app, ["analyze", "red-north", "-n", "1", "-p", "2", "--out", str(tmp_path / "x")])
    assert r.exit_code != 0 and "redtable[analysis]" in r.stderr
    assert not (tmp_path / "x").exists()


def test_a_bad_backend_is_refused_before_any_game(tmp_path):
    r = runner.invoke(app, ["analyze", "red-north", "-n", "2", "--backend", "nosuch", "--out", str(tmp_path / "x")])
    assert r.exit_code == 2 and "known backends: local, ray" in r.stderr
    r = runner.invoke(app, ["analyze", "red-north", "-n", "2", "--address", "auto", "--out", str(tmp_path / "x")])
    assert r.exit_code == 2 and "needs --backend ray" in r.stderr
    assert not (tmp_path / "x").exists()


# ----------------------------------------------------------------------------- command line


def test_cli_writes_the_report(tmp_path):
    out = tmp_path / "rep"
    r = runner.invoke(
        app,
        [
            "analyze",
            "red-north",
            "--games",
            "3",
            "--players",
            "2-3",
            "--seed",
            "5",
            "--workers",
            "1",
            "--out",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.output
    assert "Red North" in r.stdout and "report:" in r.stdout and str(out / "index.html") in r.stdout
    numbers = analyze(collect("red-north", [2, 3], 3, 5))
    assert (out / "report.json").read_text() == dumps_numbers(numbers)
    assert "gods.png" in (out / "index.html").read_text()


def test_cli_several_bots_report_win_rate_by_bot(tmp_path):
    r = runner.invoke(
        app,
        ["analyze", "red-north", "-n", "2", "-p", "2", "--bots", "random,heuristic", "-w", "1", "--out", str(tmp_path)],
    )
    assert r.exit_code == 0, r.output
    by_bot = json.loads((tmp_path / "report.json").read_text())["win_rates"]["by_bot"]
    assert [b["bot"] for b in by_bot] == ["random", "heuristic"]


@pytest.mark.parametrize(
    "args, needles",
    [
        (["chess"], ["'chess'", "red-rising", "red-north"]),
        (["red-north", "--players", "5"], ["5", "2-4 players"]),
        (["red-rising", "--players", "2,7"], ["7", "2-6 players"]),
        (["red-north", "--players", "two"], ["'two'", "2,3,4"]),
        (["red-north", "--bots", "random,nosuchbot"], ["nosuchbot", "random", "heuristic"]),
        (["red-north", "--games", "0"], ["--games", "0"]),
        (["red-north", "--workers", "0"], ["--workers", "0"]),
        (["red-north", "--backend", "nosuch"], ["'nosuch'", "local"]),
    ],
)
def test_cli_bad_input_exits_2_naming_what_is_allowed(args, needles, tmp_path):
    r = runner.invoke(
        app, ["analyze", *args, "-n" if "--games" not in args else "--seed", "1", "--out", str(tmp_path / "x")]
    )
    assert r.exit_code == 2, r.output
    assert r.stdout == ""
    for needle in needles:
        assert needle in r.stderr
    assert not (tmp_path / "x").exists()


def test_default_player_counts_are_every_allowed_count():
    from redtable.sim.analyze_command import parse_player_counts

    assert parse_player_counts(None, "red-rising") == [2, 3, 4, 5, 6]
    assert parse_player_counts(None, "red-north") == [2, 3, 4]
    assert parse_player_counts("4,2-3,3", "red-north") == [2, 3, 4]
    assert an.score_row_names("red-north")[4] == "vp_total"
