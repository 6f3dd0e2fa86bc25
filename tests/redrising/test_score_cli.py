"""`redtable score red-rising FILE [--json]`, run through the real typer app."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from redtable.cli import app
from redtable.redrising.score_cli import score_file

DATA = Path(__file__).parent / "data"
runner = CliRunner()


def run(path: Path | str, *extra: str):
    return runner.invoke(app, ["score", "red-rising", str(path), *extra])


EXPECTED_THREE = {
    "players": [
        # Darrow 40 (7 cards), Sevro 35, Bridge 15+5 (Evey on Mars; the face-down Calliope has no colour),
        # Cyther 14 (no Blue), The Howlers 35, Eo 10+30 (Darrow, Deanna, Bridge as Red), Deanna 35
        {"name": "Ann", "cards": 219, "fleet": 10, "helium": 6, "sovereignty": 10, "influence": 20,
         "excess_cards": 0, "total": 265,
         "choices": {"as_color": {"Bridge": "red"}, "as_name": {"Cyther": "Victra"}}},
        # Janitor 10+10 (Codebreaker, Trigg as Yellow), Pulse Armorer 30, Trigg 15, Quicksilver 40, Codebreaker 30
        {"name": "Bob", "cards": 135, "fleet": 28, "helium": 15, "sovereignty": 0, "influence": 20,
         "excess_cards": 0, "total": 198, "choices": {"as_color": {"Trigg": "yellow"}, "as_name": {}}},
        # Mustang 20+20 (Orange, Green, White, Copper), Artificer 10, Holo Designer 7, Judge 25, Lawyer 35
        {"name": "Cy", "cards": 117, "fleet": 3, "helium": 0, "sovereignty": 0, "influence": 4,
         "excess_cards": 0, "total": 124, "choices": {"as_color": {}, "as_name": {}}},
    ],
    "winners": ["Ann"],
}


def test_json_output_of_a_good_file():
    r = run(DATA / "three_players.json", "--json")
    assert r.exit_code == 0, r.stderr
    assert r.stderr == ""
    assert json.loads(r.stdout) == EXPECTED_THREE


def test_json_keys_are_exactly_the_scorepad():
    data = json.loads(run(DATA / "three_players.json", "--json").stdout)
    assert set(data) == {"players", "winners"}
    for p in data["players"]:
        assert set(p) == {"name", "cards", "fleet", "helium", "sovereignty", "influence", "excess_cards",
                          "total", "choices"}


def test_two_player_file_with_neutral_house_and_sovereign_tie_break():
    r = run(DATA / "two_players.json", "--json")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    a, b = data["players"]
    assert (a["cards"], a["influence"], a["sovereignty"], a["total"]) == (30, 12, 10, 52)
    assert (b["cards"], b["helium"], b["influence"], b["total"]) == (35, 15, 2, 52)
    assert data["winners"] == ["A"]


def test_scorepad_table_output():
    r = run(DATA / "three_players.json")
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    for row in ("CARDS", "FLEET", "HELIUM", "SOVEREIGNTY", "INFLUENCE", "EXCESS CARDS", "TOTAL"):
        assert row in out
    for name in ("Ann", "Bob", "Cy"):
        assert name in out
    assert "(winner)" in out and "Winner: Ann" in out
    assert "265" in out and "198" in out and "124" in out
    assert "Bridge counts as Red" in out and "Cyther is named Victra" in out and "Trigg counts as Yellow" in out
    assert r.stderr == ""


def test_table_output_of_a_tie_broken_by_the_sovereign_token():
    out = run(DATA / "two_players.json").stdout
    assert "Winner: A (tie broken by the Sovereign token)" in out


def test_shared_victory(tmp_path):
    f = tmp_path / "shared.json"
    f.write_text(json.dumps({"players": [{"name": "A", "hand": ["Aja"]}, {"name": "B", "hand": ["Antonia"]}]}))
    r = run(f, "--json")
    assert json.loads(r.stdout)["winners"] == ["A", "B"]
    assert "shared victory" in run(f).stdout


def test_score_file_returns_the_exit_code(capsys):
    assert score_file(DATA / "two_players.json", True) == 0
    assert json.loads(capsys.readouterr().out)["winners"] == ["A"]
    assert score_file(DATA / "missing.json", True) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "missing.json" in captured.err


# ------------------------------------------------------------------------------ errors

BASE = {
    "players": [
        {"name": "Ann", "hand": ["Darrow", "Sevro", {"card": "Bridge", "as_color": "red"}], "fleet": 4,
         "helium": 2, "influence": 5, "sovereign": True},
        {"name": "Bob", "hand": ["Janitor", "Cyther", "Trigg", "Quicksilver"], "fleet": 7, "helium": 5,
         "influence": 5},
    ],
    "locations": {"jupiter": ["Arlus"], "mars": [], "luna": ["Evey"], "institute": []},
    "banished": ["Harmony"],
}


def _set(data, path, value):
    obj = data
    for key in path[:-1]:
        obj = obj[key]
    obj[path[-1]] = value


ERRORS = [
    # unknown cards, with suggestions
    ([("players", 1, "hand", 3)], "Darow",
     "players[1].hand[3]: unknown card 'Darow'; did you mean: Darrow, Danto"),
    ([("players", 0, "hand", 0)], "Zqxv", "players[0].hand[0]: unknown card 'Zqxv'"),
    ([("banished", 0)], "Harmoni", "banished[0]: unknown card 'Harmoni'; did you mean: Harmony"),
    ([("locations", "luna", 0)], {"card": "Evy"}, "locations.luna[0].card: unknown card 'Evy'"),
    # bad numbers
    ([("players", 0, "fleet")], 11, "players[0].fleet: must be from 0 to 10, got 11"),
    ([("players", 0, "fleet")], -1, "players[0].fleet: must be from 0 to 10, got -1"),
    ([("players", 0, "fleet")], True, "players[0].fleet: expected an integer 0-10, got true"),
    ([("players", 1, "helium")], -2, "players[1].helium: must be at least 0, got -2"),
    ([("players", 1, "helium")], 2.5, "players[1].helium: expected an integer >= 0, got 2.5"),
    ([("players", 1, "influence")], "3", 'players[1].influence: expected an integer 0-10, got "3"'),
    ([("players", 1, "influence")], 11, "players[1].influence: must be from 0 to 10, got 11"),
    ([("neutral_influence",)], 12, "neutral_influence: must be from 0 to 10, got 12"),
    ([("neutral_influence",)], None, "neutral_influence: expected an integer 0-10, got null"),
    ([("players", 0, "sovereign")], "yes", 'players[0].sovereign: expected true or false, got "yes"'),
    # duplicate cards anywhere in the file
    ([("players", 1, "hand", 0)], "darrow", "players[1].hand[0]: Darrow appears twice (also at players[0].hand[0])"),
    ([("banished", 0)], "Arlus", "banished[0]: Arlus appears twice (also at locations.jupiter[0])"),
    ([("locations", "mars")], ["Evey"], "locations.luna[0]: Evey appears twice (also at locations.mars[0])"),
    # wrong types and shapes
    ([("players",)], {"Ann": {}}, 'players: expected a list of 2-6 players, got {"Ann": {}}'),
    ([("players", 0, "hand")], "Darrow", 'players[0].hand: expected a list of cards, got "Darrow"'),
    ([("players", 1)], ["Janitor"], "players[1]: expected a player (a JSON object)"),
    ([("players", 0, "hand", 1)], 7, "players[0].hand[1]: expected a card name (a string), got 7"),
    ([("players", 0, "hand", 1)], {"name": "Sevro"}, "players[0].hand[1]: unknown key 'name'"),
    ([("players", 0, "hand", 1)], {"as_color": "red"}, "players[0].hand[1]: missing key 'card'"),
    ([("players", 0, "helum")], 3, "players[0]: unknown key 'helum'"),
    ([("locations",)], {"venus": []}, "locations: unknown key 'venus'"),
    ([("locations",)], [], "locations: expected the locations (a JSON object), got []"),
    ([("players", 1, "name")], "ann", "players[1].name: 'ann' is also the name of players[0]"),
    ([("players", 1, "name")], "", "players[1].name: expected a non-empty string"),
    ([("players", 1, "sovereign")], True, "players[1].sovereign: only one player can hold the Sovereign token"),
    ([("neutral_influence",)], 3, None),   # valid for 2 players (control case)
    # Gray and Orange choices
    ([("players", 0, "hand", 1)], {"card": "Sevro", "as_color": "red"},
     "players[0].hand[1].as_color: only Gray cards may count as another colour; Sevro is Gold"),
    ([("players", 0, "hand", 2)], {"card": "Bridge", "as_color": "gray"},
     'players[0].hand[2].as_color: expected a colour other than gray'),
    ([("players", 0, "hand", 2)], {"card": "Bridge", "as_color": "purple"},
     'got "purple"'),
    ([("players", 0, "hand", 2)], {"card": "Bridge", "as_color": "red", "face_down": True},
     "players[0].hand[2].as_color: Bridge is face down"),
    ([("players", 1, "hand", 0)], {"card": "Janitor", "as_name": "Darrow"},
     "players[1].hand[0].as_name: only Orange cards may take another character's name; Janitor is Brown"),
    ([("players", 1, "hand", 1)], {"card": "Cyther", "as_name": "Darow"},
     "players[1].hand[1].as_name: unknown card 'Darow'; did you mean: Darrow"),
    ([("players", 1, "hand", 1)], {"card": "Cyther", "face_down": "yes"},
     'players[1].hand[1].face_down: expected true or false, got "yes"'),
    ([("banished", 0)], {"card": "Harmony", "face_down": True}, "banished[0].face_down: banished cards are face up"),
]


@pytest.mark.parametrize("paths,value,message", ERRORS, ids=[str(i) for i in range(len(ERRORS))])
def test_bad_values_exit_2_with_a_located_message_and_no_stdout(tmp_path, paths, value, message):
    data = copy.deepcopy(BASE)
    for path in paths:
        _set(data, path, value)
    f = tmp_path / "game.json"
    f.write_text(json.dumps(data))
    for extra in ((), ("--json",)):
        r = run(f, *extra)
        if message is None:
            assert r.exit_code == 0, r.stderr
            continue
        assert r.exit_code == 2, r.stdout
        assert r.stdout == ""
        assert message in r.stderr, r.stderr
        assert r.stderr.startswith("error: ")
        assert str(f) in r.stderr


def test_unknown_card_without_close_names_has_no_suggestion(tmp_path):
    data = copy.deepcopy(BASE)
    data["players"][0]["hand"][0] = "Zqxv"
    f = tmp_path / "g.json"
    f.write_text(json.dumps(data))
    assert "did you mean" not in run(f).stderr


@pytest.mark.parametrize("n", [1, 7])
def test_player_count_must_be_2_to_6(tmp_path, n):
    data = {"players": [{"name": f"P{k}", "hand": []} for k in range(n)]}
    f = tmp_path / "g.json"
    f.write_text(json.dumps(data))
    r = run(f, "--json")
    assert r.exit_code == 2 and r.stdout == ""
    assert f"players: Red Rising is for 2-6 players, got {n}" in r.stderr


def test_neutral_house_only_in_two_player_games(tmp_path):
    data = copy.deepcopy(BASE)
    data["players"].append({"name": "Cy", "hand": []})
    data["neutral_influence"] = 3
    f = tmp_path / "g.json"
    f.write_text(json.dumps(data))
    r = run(f)
    assert r.exit_code == 2 and r.stdout == "" and "neutral_influence: the neutral house" in r.stderr


def test_missing_hand(tmp_path):
    data = copy.deepcopy(BASE)
    del data["players"][1]["hand"]
    f = tmp_path / "g.json"
    f.write_text(json.dumps(data))
    r = run(f)
    assert r.exit_code == 2 and r.stdout == "" and "players[1]: missing key 'hand'" in r.stderr


@pytest.mark.parametrize("text,message", [
    ('{"players": [', "malformed JSON at line 1 column"),
    ("", "malformed JSON at line 1 column 1"),
    ('{"players": []}\n}', "malformed JSON at line 2 column 1"),
    ("[1, 2]", "expected the final position (a JSON object), got [1, 2]"),
    ('"players"', "expected the final position (a JSON object)"),
    ('{"players": [], "banished": [], "extra": 1}', "unknown key 'extra'"),
])
def test_malformed_files(tmp_path, text, message):
    f = tmp_path / "bad.json"
    f.write_text(text)
    r = run(f, "--json")
    assert r.exit_code == 2 and r.stdout == ""
    assert message in r.stderr


def test_missing_file(tmp_path):
    r = run(tmp_path / "nope.json", "--json")
    assert r.exit_code == 2 and r.stdout == ""
    assert "nope.json: cannot read the file" in r.stderr


def test_face_down_cards_and_extra_points_from_the_file(tmp_path):
    data = {"players": [
        {"name": "A", "hand": ["Janitor", {"card": "Codebreaker", "face_down": True}], "extra_points": 12},
        {"name": "B", "hand": ["Firewall Expert"]}],
        "locations": {"jupiter": ["Aja"], "mars": ["Eo"], "luna": ["Arlus"],
                      "institute": ["Darrow", {"card": "Lorn", "face_down": True}]}}
    f = tmp_path / "g.json"
    f.write_text(json.dumps(data))
    a, b = json.loads(run(f, "--json").stdout)["players"]
    # the face-down Codebreaker is no Green for Janitor, but keeps its name for its own bonus
    assert a["cards"] == 10 + (8 + 22) + 12
    assert b["cards"] == 13 + 22            # a face-down top card for Firewall Expert


def test_helium_has_no_upper_limit(tmp_path):
    # "There is no limit to Helium tokens": 75 Helium score 225.
    f = tmp_path / "rich.json"
    f.write_text(json.dumps({"players": [{"name": "A", "hand": [], "helium": 75}, {"name": "B", "hand": []}]}))
    r = run(f, "--json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["players"][0]["helium"] == 225
