"""The `simulate` and `tournament` command functions, through a small Typer app."""

import json
import re

import pytest
import typer
from typer.testing import CliRunner

from redtable.sim.commands import simulate_command, tournament_command

app = typer.Typer(add_completion=False)
app.command("simulate")(simulate_command)
app.command("tournament")(tournament_command)
runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


@pytest.mark.multiprocess  # the command runs its games on a worker pool
def test_tournament_json_contract():
    r = run(
        "tournament",
        "red-north",
        "--players",
        "3",
        "--bots",
        "random,random,random",
        "--games",
        "6",
        "--seed",
        "4",
        "--workers",
        "2",
        "--json",
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["games"] == 6 and len(data["bots"]) == 3
    assert [b["name"] for b in data["bots"]] == ["random", "random#2", "random#3"]
    for b in data["bots"]:
        assert {"name", "win_rate", "ci95", "elo", "mean_score", "mean_decision_seconds"} <= set(b)
        lo, hi = b["ci95"]
        assert 0 <= lo <= b["win_rate"] <= hi <= 1
        assert b["mean_score"] > 0 and b["mean_decision_seconds"] > 0
        assert b["games_by_seat"] == [2, 2, 2]
    assert sum(b["elo"] for b in data["bots"]) / 3 == pytest.approx(1500, abs=0.1)
    assert sum(b["win_rate"] * b["games"] for b in data["bots"]) == pytest.approx(6, abs=1e-3)


@pytest.mark.multiprocess
def test_tournament_json_is_the_same_for_one_and_two_workers():
    args = ["tournament", "red-rising", "-p", "2", "-b", "random,random,random", "-n", "6", "--json"]
    one, two = json.loads(run(*args, "-w", "1").stdout), json.loads(run(*args, "-w", "2").stdout)
    for d in (one, two):
        d.pop("seconds")
        for b in d["bots"]:
            b.pop("mean_decision_seconds")
    assert one == two


def test_tournament_table_and_default_players():
    r = run("tournament", "red-north", "--bots", "random,random", "-n", "4", "-w", "1")
    assert r.exit_code == 0, r.output
    assert "random#2" in r.stdout and "Elo" in r.stdout and "2 players" in r.stdout


@pytest.mark.parametrize(
    "args, needles",
    [
        (["--bots", "random,nosuchbot"], ["nosuchbot", "random"]),
        (["--bots", "random,random", "--budget", "fast"], ["'fast'", "0.5s", "2000it"]),
        (["--bots", "random,random", "--players", "5"], ["5", "2-4 players"]),
        (["--bots", "random"], ["at least two bots", "'random'"]),
        (["--bots", "random,random", "--games", "0"], ["--games", "0"]),
        (["--bots", "random,random", "--workers", "0"], ["--workers", "0"]),
    ],
)
def test_tournament_errors_exit_2_naming_the_value(args, needles):
    r = run("tournament", "red-north", *args)
    assert r.exit_code == 2, r.output
    assert r.stdout == ""
    for needle in needles:
        assert needle in r.stderr


def test_tournament_unknown_game():
    r = run("tournament", "chess", "--bots", "random,random")
    assert r.exit_code == 2 and "'chess'" in r.stderr and "red-rising" in r.stderr


@pytest.mark.multiprocess  # the command runs its games on a worker pool
def test_simulate_command_keeps_the_json_contract(tmp_path):
    r = run(
        "simulate",
        "red-rising",
        "--players",
        "3",
        "--games",
        "4",
        "--seed",
        "5",
        "--json",
        "--workers",
        "2",
        "--save-games",
        str(tmp_path),
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    for key in (
        "games",
        "errors",
        "seconds",
        "games_per_second",
        "decisions_per_second",
        "mean_score",
        "wins_by_house",
        "card_stats",
    ):
        assert key in data
    assert data["games"] == 4 and data["errors"] == 0 and sum(data["wins_by_house"].values()) == 4
    assert len(list(tmp_path.glob("*.json"))) == 4
    again = json.loads(run("simulate", "red-rising", "-p", "3", "-n", "4", "-s", "5", "--json", "-w", "1").stdout)
    timing = ("seconds", "games_per_second", "decisions_per_second", "mean_decision_seconds")
    assert {k: v for k, v in again.items() if k not in timing} == {k: v for k, v in data.items() if k not in timing}


@pytest.mark.multiprocess  # the command runs its games on a worker pool
def test_simulate_command_table_and_errors():
    r = run("simulate", "red-north", "-p", "2", "-n", "3", "--bots", "random")
    assert r.exit_code == 0 and "win % [95% CI]" in r.stdout and "vp total" in r.stdout
    r = run("simulate", "red-north", "--bots", "random,zzz")
    assert r.exit_code == 2 and "zzz" in r.stderr
    r = run("simulate", "red-rising", "--players", "9")
    assert r.exit_code == 2 and "2-6 players" in r.stderr
    r = run("simulate", "red-north", "-n", "2", "-w", "0")
    assert r.exit_code == 2 and "--workers" in r.stderr
    r = run("simulate", "red-north", "-p", "2", "-n", "3", "-o", "outpost_points=-4")
    assert r.exit_code == 2 and "outpost_points" in r.stderr


# ----------------------------------------------------------------------------- progress


class FakeClock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


def test_pace_is_the_observed_rate_and_the_time_left_at_it():
    from redtable.sim.commands import Pace

    clock = FakeClock()
    pace = Pace(3000, clock)
    assert pace.rate() is None and pace.remaining() is None and "eta -:--:--" in pace.text()
    # 2 workers, a game each every 1.08 s: 0.54 s per game overall, 27 minutes for 3000
    for g in range(1, 401):
        clock.t += 0.54
        pace.update(g)
        if g >= 4:
            assert pace.remaining() == pytest.approx((3000 - g) * 0.54, rel=0.02)
    assert pace.text() == "1.9 games/s  eta 0:23:24"
    # games finishing in bursts (both workers at once) do not make the estimate jump
    estimates = []
    for g in range(401, 601, 2):
        clock.t += 1.08
        pace.update(g)
        pace.update(g + 1)
        estimates.append(pace.remaining() / ((3000 - g - 1) * 0.54))
    assert max(estimates) < 1.02 and min(estimates) > 0.98
    # a stall slows the rate at once: the time since the last game counts
    before = pace.rate()
    clock.t += 30
    pace.update(600)
    assert pace.rate() < before * 0.7
    pace.update(3000)
    assert pace.remaining() == 0.0


def test_pace_follows_a_change_of_pace_within_its_window():
    from redtable.sim.commands import Pace

    clock = FakeClock()
    pace = Pace(10_000, clock, window=60.0)
    for g in range(1, 1001):  # fast at first: 10 games/s
        clock.t += 0.1
        pace.update(g)
    for g in range(1001, 1201):  # then 1 game/s
        clock.t += 1.0
        pace.update(g)
    assert pace.rate() == pytest.approx(1.0, rel=0.05)
    assert pace.text().startswith("1.0 games/s")


def test_the_progress_bar_moves_per_game_with_pace_and_eta():
    import io

    from rich.console import Console

    from redtable.sim.commands import _progress

    clock = FakeClock()
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120, color_system=None)
    frames = []
    with _progress("red-north x10", 10, console=console, clock=clock) as update:
        for g in range(1, 11):
            clock.t += 2.0  # slow games: one every 2 s
            update(g)
            frames.append(out.getvalue().rsplit("\r", 1)[-1])
            update(g)  # a heartbeat: same count, refresh throttled
    for g, frame in enumerate(frames, 1):
        assert f" {g}/10 " in frame, frame
        if g < 10:
            assert "2.0 s/game" in frame and f"eta 0:00:{(10 - g) * 2:02d}" in frame, frame
    assert "0:00:20" in frames[-1]  # elapsed
    assert out.getvalue().count(" 5/10 ") == 1  # a heartbeat within 0.1 s does not redraw


def test_no_progress_bar_when_stderr_is_not_a_terminal():
    from redtable.sim.commands import _progress

    with _progress("x", 3) as update:
        assert update is None


# ----------------------------------------------------------------------------- the text summary


@pytest.mark.slow
@pytest.mark.parametrize("game", ["red-rising", "red-north"])
def test_simulate_summary_fits_80_columns_for_every_player_count(game):
    # 4 games a count, not 12 (98 s of the suite): every table, row and card line is printed for each
    # count with and without --details all the same; only the game counts in the cells are shorter.
    from redtable.core import game_class

    cls = game_class(game)
    for players in range(cls.min_players, cls.max_players + 1):
        for extra in ([], ["--details"]):
            r = runner.invoke(
                app,
                ["simulate", game, "-p", str(players), "-n", "4", "-w", "1", "--bots", "heuristic,random", *extra],
                env={"COLUMNS": "80"},
            )
            assert r.exit_code == 0, r.output
            lines = r.stdout.splitlines()
            assert max(map(len, lines)) <= 80, (players, extra, [x for x in lines if len(x) > 80])
            assert len(lines) <= (60 + 112 if extra and game == "red-rising" else 70)  # the details: 112 cards
            assert not any(line.lstrip().startswith(("{", "[")) for line in lines)  # no JSON dumps
            text = r.stdout
            assert f"4 games, {players} players" in text and "by seat" in text and "by turn order" in text
            assert "win % by bot" in text and "heuristic" in text and "scorepad" in text
            assert "decisions" in text and "rounds" in text and "winning score" in text
            seat_rows = [x for x in lines if re.match(r"^ \d  +\d+ \[\d+–\d+\] +\d+ \[\d+–\d+\]$", x)]
            assert len(seat_rows) == players
            if game == "red-rising":
                assert "win % by house" in text and "turns" in text and "excess cards" in text
                assert ("Darrow" in text) == bool(extra)
            else:
                assert "vp total" in text and "glory unused" in text and "decided by" in text
                assert ("Gods:" in text and "Outposts:" in text) == bool(extra)


def test_simulate_summary_numbers_are_those_of_analyze():
    """The text shows analyze's numbers for the same games: seat 0's win rate and interval."""
    from redtable.sim.analyze import analyze, collect
    from redtable.sim.summary import rate

    numbers = analyze(collect("red-rising", [4], 20, 3))
    r = runner.invoke(
        app, ["simulate", "red-rising", "-p", "4", "-n", "20", "-s", "3", "-w", "1"], env={"COLUMNS": "80"}
    )
    seat0 = next(x for x in numbers["win_rates"]["by_seat"] if x["seat"] == 0)
    order0 = next(x for x in numbers["win_rates"]["by_turn_order"] if x["turn_order"] == 0)
    assert re.search(rf"^ 0 +{re.escape(rate(seat0))} +{re.escape(rate(order0))}$", r.stdout, re.M), r.stdout
    mean = next(x["mean"] for x in numbers["scores"]["stats"] if x["row"] == "total")
    assert re.search(rf"^ total +{mean:.1f} ", r.stdout, re.M)


@pytest.mark.multiprocess  # the command runs its games on a worker pool
def test_simulate_json_is_still_complete():
    r = run("simulate", "red-rising", "-p", "3", "-n", "3", "--json", "--details")
    data = json.loads(r.stdout)
    assert {"card_stats", "wins_by_house", "win_rate_by_house", "mean_turns", "mean_score"} <= set(data)
