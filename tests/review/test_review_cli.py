"""``redtable review``: the saved formats it reads, its JSON, its 80 columns in three languages."""

import hashlib
import json

import pytest
from clikit import clean_error
from typer.testing import CliRunner

from redtable.cli import app

runner = CliRunner()
KEYS = {"step", "taken", "preferred", "win_before", "win_taken", "win_preferred", "mark"}


def run(*args):
    return runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def simulated(tmp_path_factory):
    """A ``simulate --save-games`` log (played in this process: one worker)."""
    out = tmp_path_factory.mktemp("games")
    r = run("simulate", "red-north", "-p", "2", "-n", "1", "-s", "4", "-w", "1", "--save-games", str(out))
    assert r.exit_code == 0, r.output
    return next(out.glob("*.json"))


def test_json_of_a_simulate_log(simulated):
    r = run("review", str(simulated), "--seat", "1", "--budget", "12it", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert set(data) == {"seat", "decisions"} and data["seat"] == 1 and data["decisions"]
    actions = json.loads(simulated.read_text())["actions"]
    for e in data["decisions"]:
        assert KEYS <= set(e)
        assert e["taken"] == actions[e["step"]]
        assert e["mark"] in (None, "mistake", "blunder")
    again = run("review", str(simulated), "--seat", "1", "--budget", "12it", "--json")
    assert json.loads(again.stdout) == data  # an iteration budget is exact


def test_a_server_record_and_an_autosave(simulated, tmp_path):
    rec = json.loads(simulated.read_text())
    # a terminal autosave: the same GameRecord JSON, without the result when saved mid-way
    auto = {k: v for k, v in rec.items() if k != "result"}
    (tmp_path / "auto.json").write_text(json.dumps(auto))
    salt = "ab" * 8
    server = dict(rec, salt=salt, seed_chosen_by_creator=False)
    server["seed_commitment"] = hashlib.sha256(f"{rec['seed']}:{salt}".encode()).hexdigest()
    (tmp_path / "server.json").write_text(json.dumps(server))
    outs = []
    for name in ("auto.json", "server.json"):
        r = run("review", str(tmp_path / name), "--seat", "0", "--budget", "8it", "--json")
        assert r.exit_code == 0, r.output
        outs.append(json.loads(r.stdout))
    assert outs[0] == outs[1]


@pytest.mark.parametrize("lang", ["en", "uk", "pl"])
def test_text_fits_80_columns(simulated, lang):
    r = run("review", str(simulated), "--seat", "0", "--budget", "8it", "--lang", lang)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert len(lines) > 5 and max(len(x) for x in lines) <= 80
    head = {"en": "review of", "uk": "розбір гри", "pl": "analiza gry"}[lang]
    assert head in lines[0]
    if "mistake" in r.stdout or "помилка" in r.stdout or "błąd" in r.stdout:
        better = {"en": "Better:", "uk": "Краще:", "pl": "Lepiej:"}[lang]
        assert better in r.stdout


def test_refusals(simulated, tmp_path):
    clean_error(run("review", str(simulated), "--seat", "7", "--budget", "8it"), "--seat", "0 to 1")
    clean_error(run("review", str(simulated), "--seat", "0", "--budget", "fast"), "--budget")
    clean_error(run("review", str(tmp_path / "none.json"), "--seat", "0"), "none.json")
    rec = json.loads(simulated.read_text())
    rec["actions"] = rec["actions"][:5]
    (tmp_path / "cut.json").write_text(json.dumps(rec))
    clean_error(run("review", str(tmp_path / "cut.json"), "--seat", "0", "--budget", "8it"), "not finished")
