"""The generic `simulate` and `replay` commands with red-north; statistics; descriptions."""

import json

import pytest
from typer.testing import CliRunner

from redtable.cli import app
from redtable.core import Rng
from redtable.rednorth import RedNorth
from redtable.sim.simulate import simulate

runner = CliRunner()


@pytest.mark.multiprocess
def test_simulate_json_has_vp_and_glory_statistics(tmp_path):
    out = tmp_path / "games"
    res = runner.invoke(
        app,
        ["simulate", "red-north", "--players", "3", "--games", "12", "--seed", "1", "--json", "--save-games", str(out)],
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["game"] == "red-north" and data["errors"] == 0 and data["games"] == 12
    assert sum(data["wins_by_seat"]) == 12 and len(data["wins_by_seat"]) == 3
    assert data["mean_vp"] > 0 and data["mean_glory"] > 0
    assert set(data["outposts_won"]) <= {"green", "red", "blue", "purple", "yellow"}
    assert "green" in data["outposts"] and data["outposts"]["green"]["games"] == 12
    assert set(data["decided_by"]) <= {"vp", "tie-breaker", "glory", "hand", "turn-order"}
    files = sorted(out.iterdir())
    assert len(files) == 12
    saved = json.loads(files[0].read_text())
    assert saved["game"] == "red-north" and saved["options"] == {"outpost_points": 1}
    res = runner.invoke(app, ["replay", str(files[0]), "--json"])
    assert res.exit_code == 0, res.output
    replayed = json.loads(res.stdout)
    assert replayed["finished"] and replayed["winners"] == saved["result"]["winners"]
    assert replayed["summary"]["vp"] == saved["result"]["scores"]


@pytest.mark.multiprocess
def test_simulate_with_outpost_points_option():
    res = runner.invoke(app, ["simulate", "red-north", "-p", "2", "-n", "3", "--json", "-o", "outpost_points=3"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["simulate", "red-north", "-p", "2", "-n", "3", "--json", "-o", "outpost_points=-4"])
    assert res.exit_code == 2 and "outpost_points" in res.output


def test_replay_reports_an_illegal_step(tmp_path):
    s = RedNorth(2).new_initial_state(4)
    rng = Rng(1)
    for _ in range(10):
        d = s.decision()
        s.apply(d.options[rng.below(len(d.options))])
    record = {
        "format": "redtable-game/1",
        "game": "red-north",
        "players": 2,
        "seed": 4,
        "options": {},
        "actions": [*s.history, "invoke:odin"],
    }
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    res = runner.invoke(app, ["replay", str(path)])
    assert res.exit_code == 2 and "step 10" in res.output


def test_summarize_statistics():
    report = simulate("red-north", 2, 20, seed=5)
    data = report.to_json()
    assert data["errors"] == 0
    assert len(data["win_rate_by_seat"]) == 2 and abs(sum(data["win_rate_by_seat"]) - 1) < 1e-9
    assert data["max_vp"] <= 3 * 6 + 2
    assert set(data["gods"]) == {"thor", "loki", "odin", "freya", "nornir", "tyr", "saga", "hel"}
    assert RedNorth(2).summarize([]) == {}


def test_every_option_has_a_description():
    rng = Rng(2)
    for players in (2, 3, 4):
        s = RedNorth(players).new_initial_state(players)
        kinds = set()
        while not s.is_terminal():
            d = s.decision()
            kinds.add(d.kind)
            for o in d.options:
                text = s.describe(o)
                assert text and text != o, (d.kind, o)
            s.apply(d.options[rng.below(len(d.options))])
        assert {"deploy", "turn"} <= kinds
