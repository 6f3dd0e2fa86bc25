"""The `simulate` and `tournament` command functions, through a small Typer app."""

import json

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


def test_tournament_json_contract():
    r = run("tournament", "red-north", "--players", "3", "--bots", "random,random,random", "--games", "6",
            "--seed", "4", "--workers", "2", "--json")
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


@pytest.mark.parametrize("args, needles", [
    (["--bots", "random,nosuchbot"], ["nosuchbot", "random"]),
    (["--bots", "random,random", "--budget", "fast"], ["'fast'", "0.5s", "2000it"]),
    (["--bots", "random,random", "--players", "5"], ["5", "2-4 players"]),
    (["--bots", "random"], ["at least two bots", "'random'"]),
    (["--bots", "random,random", "--games", "0"], ["--games", "0"]),
    (["--bots", "random,random", "--workers", "0"], ["--workers", "0"]),
])
def test_tournament_errors_exit_2_naming_the_value(args, needles):
    r = run("tournament", "red-north", *args)
    assert r.exit_code == 2, r.output
    assert r.stdout == ""
    for needle in needles:
        assert needle in r.stderr


def test_tournament_unknown_game():
    r = run("tournament", "chess", "--bots", "random,random")
    assert r.exit_code == 2 and "'chess'" in r.stderr and "red-rising" in r.stderr


def test_simulate_command_keeps_the_json_contract(tmp_path):
    r = run("simulate", "red-rising", "--players", "3", "--games", "4", "--seed", "5", "--json",
            "--workers", "2", "--save-games", str(tmp_path))
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    for key in ("games", "errors", "seconds", "games_per_second", "decisions_per_second", "mean_score",
                "wins_by_house", "card_stats"):
        assert key in data
    assert data["games"] == 4 and data["errors"] == 0 and sum(data["wins_by_house"].values()) == 4
    assert len(list(tmp_path.glob("*.json"))) == 4
    again = json.loads(run("simulate", "red-rising", "-p", "3", "-n", "4", "-s", "5", "--json", "-w", "1").stdout)
    timing = ("seconds", "games_per_second", "decisions_per_second", "mean_decision_seconds")
    assert {k: v for k, v in again.items() if k not in timing} == {k: v for k, v in data.items() if k not in timing}


def test_simulate_command_table_and_errors():
    r = run("simulate", "red-north", "-p", "2", "-n", "3", "--bots", "random")
    assert r.exit_code == 0 and "mean_vp" in r.stdout
    r = run("simulate", "red-north", "--bots", "random,zzz")
    assert r.exit_code == 2 and "zzz" in r.stderr
    r = run("simulate", "red-rising", "--players", "9")
    assert r.exit_code == 2 and "2-6 players" in r.stderr
    r = run("simulate", "red-north", "-n", "2", "-w", "0")
    assert r.exit_code == 2 and "--workers" in r.stderr
    r = run("simulate", "red-north", "-p", "2", "-n", "3", "-o", "outpost_points=-4")
    assert r.exit_code == 2 and "outpost_points" in r.stderr
