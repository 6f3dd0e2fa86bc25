"""``redtable.data``: the rows ``simulate --save-format`` writes, read back in both formats and
replayed through the core protocol; the documented field list is the code's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from redtable.cli import app
from redtable.core import GameRecord, replay
from redtable.data import FIELDS, SCHEMA_VERSION, DataError, check, decisions, read_rows, replay_row, states, views
from redtable.data.files import write_part
from redtable.data.schema import SEAT_FIELDS, normalize

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def simulate(out: Path, fmt: str | None, game: str = "red-north", n: int = 3, seed: int = 4):
    args = ["simulate", game, "-n", str(n), "-s", str(seed), "-w", "1", "--json", "--save-games", str(out)]
    r = runner.invoke(app, args + (["--save-format", fmt] if fmt else []))
    assert r.exit_code == 0, r.output
    return r


@pytest.mark.parametrize("game", ["red-north", "red-rising"])
def test_simulate_writes_rows_that_replay_to_the_json_logs_games(tmp_path, game):
    simulate(tmp_path / "logs", None, game)  # today's default: one JSON log per game
    logs = sorted((tmp_path / "logs").glob("game-*.json"))
    assert len(logs) == 3
    simulate(tmp_path / "ds", "parquet", game)
    simulate(tmp_path / "ds", "jsonl", game)  # a second run: the next part, in its format
    assert sorted(p.name for p in (tmp_path / "ds").iterdir()) == ["part-00001.parquet", "part-00002.jsonl"]
    pq_rows, js_rows = list(read_rows(tmp_path / "ds")), list(read_rows(tmp_path / "ds", "jsonl"))
    assert pq_rows == js_rows and len(pq_rows) == 3  # same seeds: the same games, the same values
    for row, log in zip(pq_rows, logs, strict=True):
        saved = json.loads(log.read_text())
        assert row["schema_version"] == SCHEMA_VERSION and row["source"] == "simulate"
        assert (row["seed"], row["actions"], row["options"]) == (saved["seed"], saved["actions"], saved["options"])
        final = check(row)
        assert final.scores() == saved["result"]["scores"] == row["scores"]
        assert replay(GameRecord.from_json(saved)).scores() == replay_row(row).scores()
        assert [s["bot"] for s in row["seats"]] == ["random"] * row["players"]
        assert sorted(s["place"] for s in row["seats"])[0] == 1


def test_states_views_and_decisions_follow_the_actions(tmp_path):
    simulate(tmp_path, "jsonl", n=1)
    (row,) = read_rows(tmp_path)
    all_states = list(states(row))
    assert len(all_states) == len(row["actions"]) + 1 and all_states[-1].is_terminal()
    assert all_states[0].history == [] and all_states[-1].history == row["actions"]
    seen = list(views(row, 1))
    assert len(seen) == len(all_states) and seen[3] == all_states[3].view(1)
    steps = list(decisions(row))
    assert [a for _, _, _, a in steps] == row["actions"]
    for (seat, view, options, action), state in zip(steps, all_states, strict=False):
        assert seat == state.decision().player and view == state.view(seat) and action in options


def test_a_row_that_lies_is_refused(tmp_path):
    simulate(tmp_path, "jsonl", n=1)
    (row,) = read_rows(tmp_path)
    with pytest.raises(DataError, match="step 2"):
        replay_row({**row, "actions": row["actions"][:2] + ["no-such-action"]})
    with pytest.raises(DataError, match="scores"):
        check({**row, "scores": [s + 1 for s in row["scores"]]})
    with pytest.raises(DataError, match="schema_version"):
        normalize({**row, "schema_version": 99})
    bad = tmp_path / "bad" / "part-00001.jsonl"
    bad.parent.mkdir()
    bad.write_text('{"schema_version": 1}\nnot json\n')
    with pytest.raises(DataError, match="lacks"):
        list(read_rows(bad))


def test_a_failed_write_leaves_no_part(tmp_path):
    simulate(tmp_path / "src", "jsonl", n=1)
    (row,) = read_rows(tmp_path / "src")
    row = {**row, "finished_at": 0.0}

    def rows():
        yield row
        raise RuntimeError("the source broke")

    with pytest.raises(RuntimeError):
        write_part(tmp_path / "out", rows(), ["parquet", "jsonl"])
    assert list((tmp_path / "out").iterdir()) == []
    assert write_part(tmp_path / "out", iter(()), ["jsonl"]) == []


def test_bad_save_format_is_refused(tmp_path):
    from clikit import clean_error

    r = runner.invoke(app, ["simulate", "red-north", "-n", "1", "--save-games", str(tmp_path), "--save-format", "csv"])
    clean_error(r, "--save-format", "jsonl", "parquet")


def test_the_documented_fields_are_the_codes():
    doc = (ROOT / "docs" / "data.md").read_text()
    assert f"schema version {SCHEMA_VERSION}" in doc
    for name, kind, meaning in FIELDS + SEAT_FIELDS:
        assert f"| `{name}` | {kind} | {meaning} |" in doc, name
