"""The `play` command's options: seats, bots, errors, spectating (in-process, no terminal)."""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

from redtable.play import play_command
from redtable.play.terminal import plan_seats

runner = CliRunner()


@pytest.fixture(autouse=True)
def state_home(tmp_path, monkeypatch):
    """Games are saved as they go: under a temporary folder here, not the user's."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def app() -> typer.Typer:
    a = typer.Typer(add_completion=False)
    a.command()(play_command)
    return a


def run(*args: str, input: str = ""):
    return runner.invoke(app(), list(args), input=input)


@pytest.mark.parametrize(
    "players, humans, bots, max_players, expected",
    [
        (None, None, None, 6, (4, 1, ["random"] * 3)),
        (4, None, "heuristic,heuristic,random", 6, (4, 1, ["heuristic", "heuristic", "random"])),
        (None, None, "random,ismcts:0.5s", 6, (3, 1, ["random", "ismcts:0.5s"])),
        (None, 2, "random", 6, (3, 2, ["random"])),
        (2, 2, None, 6, (2, 2, [])),
        (None, 2, None, 4, (4, 2, ["random", "random"])),
        (None, 0, None, 4, (4, 0, ["random"] * 4)),
        (3, None, None, 6, (3, 1, ["random", "random"])),
    ],
)
def test_seat_plan(players, humans, bots, max_players, expected):
    assert plan_seats(players, humans, bots, max_players) == expected


@pytest.mark.parametrize(
    "players, humans, bots",
    [
        (4, 2, "random"),  # 2 humans + 1 bot is not 4 seats
        (2, 3, None),  # more humans than seats
        (None, -1, None),
        (None, None, "random,,random"),
        (1, None, "random,random"),
    ],
)
def test_seat_plan_refuses_what_does_not_add_up(players, humans, bots):
    with pytest.raises(typer.Exit):
        plan_seats(players, humans, bots, 6)


def test_bots_take_the_seats_after_the_human():
    r = run("red-rising", "--players", "3", "--bots", "random,random", "--seed", "1")
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert re.search(r"seed 1 — P0 \w+ \(human\), P1 \w+ \(bot: random\), P2 \w+ \(bot: random\)", text)
    assert "End of input" in r.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["chess"], "unknown game"),
        (["red-rising", "--players", "7"], "2-6 players"),
        (["red-north", "--players", "5"], "2-4 players"),
        (["red-north", "--bots", "nonsense"], "unknown bot"),
        (["red-rising", "-o", "multiplayer_variant=maybe"], "multiplayer_variant"),
        (["red-rising", "--lang", "klingon"], "unknown language"),
        ([], "say which game"),
        (["--resume", "/nonexistent/game.json"], "no such file"),
        (["--resume", "/nonexistent/game.json", "--seed", "3"], "--seed cannot be used with --resume"),
    ],
)
def test_bad_options_exit_2_with_a_message(args, message):
    r = run(*args)
    assert r.exit_code == 2
    assert message in r.output


def test_no_humans_watches_the_bots_to_the_end():
    r = run("red-north", "--humans", "0", "--players", "2", "--seed", "3")
    assert r.exit_code == 0, r.output
    assert "watching the bots" in r.output and "The game is over" in r.output and "Winner: P" in r.output
    assert "Your hand" not in r.output  # a spectator sees no hand


def test_help_documents_seats_and_bots():
    r = run("--help")
    assert r.exit_code == 0
    for word in ("--players", "--bots", "--humans", "--seed", "--save", "hot-seat"):
        assert word in r.output


def test_spectating_in_ukrainian_from_the_environment(tmp_path):
    r = runner.invoke(
        app(),
        ["red-north", "--humans", "0", "--players", "2", "--seed", "3", "--no-autosave"],
        env={"LANG": "uk_UA.UTF-8", "LC_ALL": "", "LC_MESSAGES": "", "LANGUAGE": ""},
    )
    assert r.exit_code == 0, r.output
    assert "Людей за столом немає" in r.output and "Гру завершено" in r.output


def test_no_autosave_writes_nothing(tmp_path):
    r = runner.invoke(
        app(),
        ["red-north", "--humans", "0", "--players", "2", "--seed", "3", "--no-autosave"],
        env={"XDG_STATE_HOME": str(tmp_path)},
    )
    assert r.exit_code == 0 and not any(tmp_path.rglob("*.json"))
    r = runner.invoke(
        app(), ["red-north", "--humans", "0", "--players", "2", "--seed", "3"], env={"XDG_STATE_HOME": str(tmp_path)}
    )
    saved = list((tmp_path / "redtable" / "games").glob("red-north-*-seed3.json"))
    assert r.exit_code == 0 and len(saved) == 1 and "Saved as it goes to" in r.output
