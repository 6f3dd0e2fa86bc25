"""The `redtable` command: simulate, replay, cards (score has its own tests)."""

import json

from typer.testing import CliRunner

from redtable.cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def test_simulate_red_rising_json_contract(tmp_path):
    r = run("simulate", "red-rising", "--players", "3", "--games", "4", "--seed", "5", "--json",
            "--save-games", str(tmp_path))
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    for key in ("games", "errors", "seconds", "games_per_second", "decisions_per_second", "mean_score",
                "wins_by_house", "card_stats"):
        assert key in data
    assert data["games"] == 4 and data["errors"] == 0
    assert sum(data["wins_by_house"].values()) == 4
    assert set(data["card_stats"]["Darrow"]) == {"deployed", "ability_took_effect", "in_final_hand"}
    assert len(list(tmp_path.glob("*.json"))) == 4
    again = run("simulate", "red-rising", "--players", "3", "--games", "4", "--seed", "5", "--json")
    assert json.loads(again.stdout)["mean_score"] == data["mean_score"]


def test_saved_game_replays_to_the_same_scores(tmp_path):
    run("simulate", "red-rising", "-p", "2", "-n", "1", "-s", "9", "--save-games", str(tmp_path))
    path = next(tmp_path.glob("*.json"))
    saved = json.loads(path.read_text())
    r = run("replay", str(path), "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["finished"] and out["scores"] == saved["result"]["scores"]


def test_replay_refuses_an_illegal_step(tmp_path):
    run("simulate", "red-rising", "-p", "2", "-n", "1", "-s", "9", "--save-games", str(tmp_path))
    path = next(tmp_path.glob("*.json"))
    saved = json.loads(path.read_text())
    saved["actions"][7] = "nowhere"
    path.write_text(json.dumps(saved))
    r = run("replay", str(path))
    assert r.exit_code == 2 and "step 7" in r.stderr and r.stdout == ""


def test_replay_rejects_malformed_files(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text("{not json")
    r = run("replay", str(p))
    assert r.exit_code == 2 and "not valid JSON" in r.stderr


def test_simulate_rejects_bad_input():
    assert run("simulate", "chess").exit_code == 2
    r = run("simulate", "red-rising", "--players", "9")
    assert r.exit_code == 2 and "2-6 players" in r.stderr
    assert run("simulate", "red-rising", "--games", "0").exit_code == 2


def test_cards_gallery_renders_every_card():
    r = run("cards", "red-rising", "--json")
    assert r.exit_code == 0
    cards = json.loads(r.stdout)
    assert len(cards) == 112
    by_name = {c["name"]: c for c in cards}
    assert by_name["Darrow"]["deploy"].startswith("Gain any other non-Gold from this location")
    assert "steal or banish" in by_name["Judge"]["block"]
    assert "any one other color" in by_name["Trigg"]["end_of_game"]
    assert "same name as any specific character" in by_name["Cyther"]["end_of_game"]
    assert all("end_game_bonus" in c or c["name"] in {
        "Auctioneer", "Banker", "Investor", "Justice", "Martyr", "Hacker", "Online Gambler", "Dr. Virany",
        "Hypnotist", "Psychologist"} for c in cards)
    table = run("cards")
    assert table.exit_code == 0 and "Darrow" in table.stdout
