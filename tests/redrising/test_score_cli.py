"""`redtable score red-rising FILE [--json]`, run through the real typer app."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from clikit import clean_error
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
        {
            "name": "Ann",
            "cards": 219,
            "fleet": 10,
            "helium": 6,
            "sovereignty": 10,
            "influence": 20,
            "excess_cards": 0,
            "total": 265,
            "choices": {"as_color": {"Bridge": "red"}, "as_name": {"Cyther": "Victra"}},
        },
        # Janitor 10+10 (Codebreaker, Trigg as Yellow), Pulse Armorer 30, Trigg 15, Quicksilver 40, Codebreaker 30
        {
            "name": "Bob",
            "cards": 135,
            "fleet": 28,
            "helium": 15,
            "sovereignty": 0,
            "influence": 20,
            "excess_cards": 0,
            "total": 198,
            "choices": {"as_color": {"Trigg": "yellow"}, "as_name": {}},
        },
        # Mustang 20+20 (Orange, Green, White, Copper), Artificer 10, Holo Designer 7, Judge 25, Lawyer 35
        {
            "name": "Cy",
            "cards": 117,
            "fleet": 3,
            "helium": 0,
            "sovereignty": 0,
            "influence": 4,
            "excess_cards": 0,
            "total": 124,
            "choices": {"as_color": {}, "as_name": {}},
        },
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
        assert set(p) == {
            "name",
            "cards",
            "fleet",
            "helium",
            "sovereignty",
            "influence",
            "excess_cards",
            "total",
            "choices",
        }


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


@pytest.mark.parametrize(
    "lang, said",
    [
        ("uk", ["Брідж вважається картою кольору «червоний»", "Сайтер має ім'я Віктра", "Трігг вважається"]),
        ("pl", ["Bridge liczy się jako kolor: czerwony", "Cyther nosi imię Victra", "Trigg liczy się jako kolor"]),
    ],
)
def test_scorepad_names_the_cards_in_the_chosen_language(lang, said):
    """The Gray and Orange choices and each player's card points name the cards as the gallery
    does in that language (not in English), with the rulebook's rows."""
    from redtable.i18n import set_lang
    from redtable.redrising.gallery import card_name

    try:
        r = run(DATA / "three_players.json", "--lang", lang)
    finally:
        set_lang("en")
    assert r.exit_code == 0, r.stderr
    for x in said:
        assert x in r.stdout, r.stdout
    assert {"uk": "ВОЛОДАРЮВАННЯ", "pl": "TOR FLOTY"}[lang] in r.stdout
    assert "counts as" not in r.stdout and "is named" not in r.stdout
    for slug in ("the-howlers", "deanna", "darrow", "sevro", "eo"):
        assert card_name(slug, lang) in r.stdout
    if lang == "uk":  # no Latin letters but the players' names
        assert set(re.findall(r"[A-Za-z]{2,}", r.stdout)) <= {"Ann", "Bob", "Cy"}, r.stdout


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
        {
            "name": "Ann",
            "hand": ["Darrow", "Sevro", {"card": "Bridge", "as_color": "red"}],
            "fleet": 4,
            "helium": 2,
            "influence": 5,
            "sovereign": True,
        },
        {"name": "Bob", "hand": ["Janitor", "Cyther", "Trigg", "Quicksilver"], "fleet": 7, "helium": 5, "influence": 5},
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
    ([("players", 1, "hand", 3)], "Darow", "players[1].hand[3]: unknown card 'Darow'; did you mean: Darrow, Danto"),
    ([("players", 0, "hand", 0)], "Zqxv", "players[0].hand[0]: unknown card 'Zqxv'"),
    ([("banished", 0)], "Harmoni", "banished[0]: unknown card 'Harmoni'; did you mean: Harmony"),
    ([("locations", "luna", 0)], {"card": "Evy"}, "locations.luna[0].card: unknown card 'Evy'"),
    # bad numbers
    ([("players", 0, "fleet")], 11, "players[0].fleet: must be from 0 to 10, got 11"),
    ([("players", 0, "fleet")], -1, "players[0].fleet: must be from 0 to 10, got -1"),
    ([("players", 0, "fleet")], True, "players[0].fleet: expected an integer 0-10, got true"),
    ([("players", 1, "helium")], -2, "players[1].helium: must be from 0 to 999, got -2"),
    ([("players", 1, "helium")], 2.5, "players[1].helium: expected an integer 0-999, got 2.5"),
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
    ([("neutral_influence",)], 3, None),  # valid for 2 players (control case)
    # Gray and Orange choices
    (
        [("players", 0, "hand", 1)],
        {"card": "Sevro", "as_color": "red"},
        "players[0].hand[1].as_color: only Gray cards may count as another colour; Sevro is Gold",
    ),
    (
        [("players", 0, "hand", 2)],
        {"card": "Bridge", "as_color": "gray"},
        "players[0].hand[2].as_color: expected a colour other than gray",
    ),
    ([("players", 0, "hand", 2)], {"card": "Bridge", "as_color": "purple"}, 'got "purple"'),
    (
        [("players", 0, "hand", 2)],
        {"card": "Bridge", "as_color": "red", "face_down": True},
        "players[0].hand[2].as_color: Bridge is face down",
    ),
    (
        [("players", 1, "hand", 0)],
        {"card": "Janitor", "as_name": "Darrow"},
        "players[1].hand[0].as_name: only Orange cards may take another character's name; Janitor is Brown",
    ),
    (
        [("players", 1, "hand", 1)],
        {"card": "Cyther", "as_name": "Darow"},
        "players[1].hand[1].as_name: unknown card 'Darow'; did you mean: Darrow",
    ),
    (
        [("players", 1, "hand", 1)],
        {"card": "Cyther", "face_down": "yes"},
        'players[1].hand[1].face_down: expected true or false, got "yes"',
    ),
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


@pytest.mark.parametrize(
    "text,message",
    [
        ('{"players": [', "malformed JSON at line 1 column"),
        ("", "malformed JSON at line 1 column 1"),
        ('{"players": []}\n}', "malformed JSON at line 2 column 1"),
        ("[1, 2]", "expected the final position (a JSON object), got [1, 2]"),
        ('"players"', "expected the final position (a JSON object)"),
        ('{"players": [], "banished": [], "extra": 1}', "unknown key 'extra'"),
    ],
)
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
    data = {
        "players": [
            {"name": "A", "hand": ["Janitor", {"card": "Codebreaker", "face_down": True}], "extra_points": 12},
            {"name": "B", "hand": ["Firewall Expert"]},
        ],
        "locations": {
            "jupiter": ["Aja"],
            "mars": ["Eo"],
            "luna": ["Arlus"],
            "institute": ["Darrow", {"card": "Lorn", "face_down": True}],
        },
    }
    f = tmp_path / "g.json"
    f.write_text(json.dumps(data))
    a, b = json.loads(run(f, "--json").stdout)["players"]
    # the face-down Codebreaker is no Green for Janitor, but keeps its name for its own bonus
    assert a["cards"] == 10 + (8 + 22) + 12
    assert b["cards"] == 13 + 22  # a face-down top card for Firewall Expert


def test_helium_has_no_upper_limit(tmp_path):
    # "There is no limit to Helium tokens": 75 Helium score 225.
    f = tmp_path / "rich.json"
    f.write_text(json.dumps({"players": [{"name": "A", "hand": [], "helium": 75}, {"name": "B", "hand": []}]}))
    r = run(f, "--json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["players"][0]["helium"] == 225


# ------------------------------------------------------------------------------ hostile files
# Every bad file: exit code 2, one message on stderr naming the problem and what is allowed,
# nothing on stdout, no traceback, and no echoed input longer than 200 characters.


def score_text(tmp_path, text: str | bytes):
    f = tmp_path / "final.json"
    if isinstance(text, bytes):
        f.write_bytes(text)
    else:
        f.write_text(text, encoding="utf-8")
    return run(f), run(f, "--json")


def base_with(value_text: str, *path) -> str:
    """BASE as JSON with the value at ``path`` replaced by raw JSON text (which json.dumps cannot write)."""
    data = copy.deepcopy(BASE)
    _set(data, path, "@@VALUE@@")
    return json.dumps(data).replace('"@@VALUE@@"', value_text)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        '{"a":' * 100_000,
        "[" * 33 + "]" * 33,
        base_with("[" * 100_000 + "]" * 100_000, "players", 0, "hand"),
        base_with('{"card":' * 50 + '"Darrow"' + "}" * 50, "players", 0, "hand", 0),
    ],
)
def test_score_deep_nesting(tmp_path, text):
    for r in score_text(tmp_path, text):
        clean_error(r, "JSON nested too deeply", "at most 32")


@pytest.mark.multiprocess
def test_score_deep_nesting_in_a_real_process(tmp_path):
    f = tmp_path / "deep.json"
    f.write_text("[" * 100_000 + '{"a":' * 100_000)
    p = subprocess.run(
        [sys.executable, "-m", "redtable.cli", "score", "red-rising", str(f)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 2 and p.stdout == "" and "Traceback" not in p.stderr
    assert "JSON nested too deeply" in p.stderr


@pytest.mark.parametrize("digits", [5_000, 100_000])
@pytest.mark.parametrize(
    "path,message",
    [
        (("players", 0, "fleet"), "players[0].fleet: must be from 0 to 10, got {sign}99999"),
        (("players", 1, "helium"), "players[1].helium: must be from 0 to 999, got {sign}99999"),
        (("players", 1, "influence"), "players[1].influence: must be from 0 to 10, got {sign}99999"),
        (("players", 0, "extra_points"), "players[0].extra_points: must be from 0 to 999, got {sign}99999"),
        (("neutral_influence",), "neutral_influence: must be from 0 to 10, got {sign}99999"),
        (("players", 0, "hand", 1), "players[0].hand[1]: expected a card name (a string), got {sign}99999"),
        (("players", 0, "sovereign"), "players[0].sovereign: expected true or false, got {sign}99999"),
        (("locations", "mars"), "locations.mars: expected a list of cards, got {sign}99999"),
    ],
)
@pytest.mark.parametrize("sign", ["", "-"])
def test_score_huge_integers_name_the_field_and_range(tmp_path, digits, path, message, sign):
    for r in score_text(tmp_path, base_with(sign + "9" * digits, *path)):
        clean_error(r, message.format(sign=sign), f"({digits} digits)")


@pytest.mark.parametrize("digits", [5_000, 100_000])
def test_score_huge_floats_are_not_integers(tmp_path, digits):
    for r in score_text(tmp_path, base_with("9" * digits + ".5", "players", 0, "fleet")):
        clean_error(r, "players[0].fleet: expected an integer 0-10, got Infinity")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_score_dev_zero_stops_at_the_size_limit():
    start = time.monotonic()
    clean_error(
        run("/dev/zero"), "/dev/zero: the file is too large (more than 1 MB)", "the limit for a final position is 1 MB"
    )
    assert time.monotonic() - start < 10


@pytest.mark.multiprocess
@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_score_dev_zero_in_a_real_process():
    start = time.monotonic()
    p = subprocess.run(
        [sys.executable, "-m", "redtable.cli", "score", "red-rising", "/dev/zero", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 2 and p.stdout == "" and "Traceback" not in p.stderr
    assert "too large (more than 1 MB)" in p.stderr
    assert time.monotonic() - start < 20


def test_score_huge_file(tmp_path):
    f = tmp_path / "huge.json"
    with open(f, "wb") as out:  # sparse: 2 MB without writing them
        out.truncate(2 << 20)
    clean_error(run(f), f"the file is too large ({2 << 20} bytes)", "the limit for a final position is 1 MB")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_score_fifo(tmp_path):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    clean_error(run(fifo), "the file is empty")  # nobody writes: no hang
    fd = os.open(fifo, os.O_RDWR)  # a writer that never stops (as reader too: no race)
    stop = threading.Event()

    def feed():
        while not stop.is_set():
            try:
                os.write(fd, b"{" * 65536)
            except OSError:
                return

    t = threading.Thread(target=feed, daemon=True)
    t.start()
    try:
        clean_error(run(fifo, "--json"), "too large (more than 1 MB)")
    finally:
        stop.set()
        os.set_blocking(fd, False)
        while t.is_alive():
            try:
                os.read(fd, 1 << 20)
            except BlockingIOError:
                pass
            t.join(0.01)
        os.close(fd)


def test_score_directory_and_missing_file(tmp_path):
    clean_error(run(tmp_path), "cannot read the file: it is a directory; expected a final position")
    clean_error(run(tmp_path / "nope.json"), "nope.json: cannot read the file: no such file")
    clean_error(run(tmp_path / ("n" * 5000)), "cannot read the file", "characters)")


@pytest.mark.parametrize(
    "data,message",
    [
        (b'{"players": [{"name": "\xc3\x28"}]}', "not UTF-8 text: byte 0xc3 at line 1 column 24"),
        (json.dumps(BASE).encode("utf-16"), "UTF-16"),
        (b"\xef\xbb\xbf" + json.dumps(BASE).encode(), None),  # a UTF-8 byte order mark is fine
        (b"   \n ", "the file is empty"),
    ],
)
def test_score_bad_bytes(tmp_path, data, message):
    for r in score_text(tmp_path, data):
        if message is None:
            assert r.exit_code == 0, r.stderr
        else:
            clean_error(r, message)


@pytest.mark.parametrize(
    "value,message",
    [
        ("2.0", "expected an integer 0-10, got 2.0"),
        ("NaN", "expected an integer 0-10, got NaN"),
        ("Infinity", "expected an integer 0-10, got Infinity"),
        ("-Infinity", "expected an integer 0-10, got -Infinity"),
        ("1e400", "expected an integer 0-10, got Infinity"),
        ('"4"', 'expected an integer 0-10, got "4"'),
        ("true", "expected an integer 0-10, got true"),
        ("false", "expected an integer 0-10, got false"),
        ("null", "expected an integer 0-10, got null"),
        ("[4]", "expected an integer 0-10, got [4]"),
        ('{"n": 4}', 'expected an integer 0-10, got {"n": 4}'),
    ],
)
def test_score_wrong_numbers(tmp_path, value, message):
    for r in score_text(tmp_path, base_with(value, "players", 0, "fleet")):
        clean_error(r, "players[0].fleet: " + message)


@pytest.mark.parametrize(
    "text,message",
    [
        ("[]", "expected the final position (a JSON object), got []"),
        ("3", "expected the final position (a JSON object), got 3"),
        ("null", "expected the final position (a JSON object), got null"),
        ("true", "expected the final position (a JSON object), got true"),
        ('"players"', 'expected the final position (a JSON object), got "players"'),
        (json.dumps({"player": []}), "unknown key 'player' (did you mean 'players'?)"),
        (
            base_with('[{"name": "A", "hand": [], "helum": 3}, {"hand": []}]', "players"),
            "players[0]: unknown key 'helum' (did you mean 'helium'?)",
        ),
        (base_with('{"jupitr": []}', "locations"), "locations: unknown key 'jupitr' (did you mean 'jupiter'?)"),
        (
            base_with('{"card": "Bridge", "as_colour": "red"}', "players", 0, "hand", 2),
            "players[0].hand[2]: unknown key 'as_colour' (did you mean 'as_color'?)",
        ),
        (base_with('{"name": "A", "name": "B", "hand": []}', "players", 0), "duplicate key 'name'"),
        (base_with('"\\ud800"', "players", 0, "name"), "players[0].name: a string contains \\ud800"),
        (
            base_with('"\\u001b[31mRed"', "players", 0, "name"),
            "players[0].name: a name cannot contain control characters",
        ),
    ],
)
def test_score_wrong_shapes_and_keys(tmp_path, text, message):
    for r in score_text(tmp_path, text):
        clean_error(r, message)


LONG = "x" * 100_000


@pytest.mark.parametrize(
    "path",
    [
        ("players", 0, "name"),
        ("players", 0, "hand", 0),
        ("players", 0, "sovereign"),
        ("banished", 0),
        ("players", 0, "hand", 2, "as_color"),
        ("locations", "luna", 0),
        ("players", 1, "hand", 1, "as_name"),
        ("players", 0, "hand", 1, LONG),  # a long key
    ],
)
def test_score_long_strings_are_clipped(tmp_path, path):
    data = copy.deepcopy(BASE)
    data["players"][0]["hand"][1] = {"card": "Sevro"}
    data["players"][1]["hand"][1] = {"card": "Cyther"}
    _set(data, path, LONG)
    for r in score_text(tmp_path, json.dumps(data)):
        err = clean_error(r, "x" * 150, "characters")
        assert "x" * 201 not in err


def test_score_long_keys_are_clipped(tmp_path):
    for text in (
        json.dumps({"k" * 100_000: 1}),
        base_with(json.dumps({"card": "Darrow", "k" * 100_000: 1}), "players", 0, "hand", 0),
    ):
        for r in score_text(tmp_path, text):
            err = clean_error(r, "unknown key 'kkkk", "characters")
            assert "k" * 201 not in err


def test_score_unknown_game_name_is_clipped():
    r = runner.invoke(app, ["score", "x" * 100_000, str(DATA / "two_players.json")])
    assert r.exit_code == 2 and r.stdout == ""
    assert "x" * 201 not in r.stderr and len(r.stderr) < 700


# ------------------------------------------------------------------- the 2-player neutral house


def test_two_player_file_without_neutral_influence_counts_the_neutral_houses_3_tokens(tmp_path):
    """The rulebook always places 3 Influence tokens of an unused house on the Institute in a
    2-player game (Setup; Scoring: "the 2 players will include those 3 tokens in the end-game
    comparison as if they were the Influence of a third house")."""
    f = tmp_path / "g.json"
    data = {"players": [{"name": "A", "hand": [], "influence": 2}, {"name": "B", "hand": [], "influence": 1}]}
    f.write_text(json.dumps(data))
    players = json.loads(run(f, "--json").stdout)["players"]
    assert [p["influence"] for p in players] == [4, 1]  # neutral 3 most, A 2 second (2 each), B 1 (1 each)
    data["neutral_influence"] = 0  # said explicitly: no neutral tokens
    f.write_text(json.dumps(data))
    players = json.loads(run(f, "--json").stdout)["players"]
    assert [p["influence"] for p in players] == [8, 2]


def test_three_player_file_has_no_neutral_house_by_default(tmp_path):
    f = tmp_path / "g.json"
    f.write_text(
        json.dumps(
            {
                "players": [
                    {"name": "A", "hand": [], "influence": 2},
                    {"name": "B", "hand": [], "influence": 1},
                    {"name": "C", "hand": []},
                ]
            }
        )
    )
    players = json.loads(run(f, "--json").stdout)["players"]
    assert [p["influence"] for p in players] == [8, 2, 0]


def test_administrator_scores_the_least_influence_the_neutral_house_included(tmp_path):
    """Administrator: 15 VP for the least Influence (or tied); Politician: for the most. In a
    2-player game the neutral house's 3 tokens are one of the houses compared."""
    f = tmp_path / "two.txt"

    def cards(text: str) -> list[int]:
        f.write_text(text)
        r = run(f, "--json")
        assert r.exit_code == 0, r.stderr
        return [p["cards"] for p in json.loads(r.stdout)["players"]]

    # Ann 2 is the least (neutral 3, Bob 5): Administrator 15+15; Bob's Politician 15+15
    assert cards("Ann: Administrator | influence 2\nBob: Politician | influence 5\n") == [30, 30]
    # Ann 3 ties the neutral house for the least
    assert cards("Ann: Administrator | influence 3\nBob: Politician | influence 5\n") == [30, 30]
    # Ann 4: the neutral house has less; Ann 0: the least
    assert cards("Ann: Administrator | influence 4\nBob: Politician | influence 5\n") == [15, 30]
    assert cards("Ann: Administrator\nBob: Politician | influence 5\n") == [30, 30]
    # no neutral house: Ann 4 is below Bob 5 again
    assert cards("Ann: Administrator | influence 4\nBob: Politician | influence 5\nneutral 0\n") == [30, 30]


# ------------------------------------------------------------------- the short text form

TEXT = """# a finished game
Ann: Darrow, Sevro, Bridge as red, Cyther as Victra, The Howlers, Eo, Deanna | fleet 4 helium 2 influence 5 sovereign
Bob: Janitor, Pulse Armorer, Trigg, Quicksilver, codebreaker | fleet 7 helium 5 influence 5
Cy: mustang, Artificer, Holo Designer, Judge, lawyer | fleet 2 influence 2

on jupiter: Arlus, Aja
on mars: Evey
on institute: Calliope face down
banished: Harmony, Dancer
"""


def test_text_form_scores_as_the_same_json(tmp_path):
    f = tmp_path / "final.txt"
    f.write_text(TEXT)
    r = run(f, "--json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout) == EXPECTED_THREE


def test_text_form_from_standard_input():
    r = runner.invoke(app, ["score", "red-rising", "-", "--json"], input=TEXT)
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout) == EXPECTED_THREE
    r = runner.invoke(app, ["score", "red-rising"], input=TEXT)  # no FILE, stdin not a terminal
    assert r.exit_code == 0, r.stderr
    assert "Winner: Ann" in r.stdout and "265" in r.stdout


def test_issue_example_line_and_the_neutral_house(tmp_path):
    f = tmp_path / "two.txt"
    f.write_text(
        "Ann: Darrow, Mustang, Trigg as red, Cyther as Sevro | fleet 6 helium 4 influence 7 sovereign\n"
        "Bob: Eo | influence 2\n"
    )
    data = json.loads(run(f, "--json").stdout)
    ann, bob = data["players"]
    assert ann["choices"] == {"as_color": {"Trigg": "red"}, "as_name": {"Cyther": "Sevro"}}
    assert (ann["fleet"], ann["helium"], ann["sovereignty"], ann["influence"]) == (21, 12, 10, 28)
    assert bob["influence"] == 2  # the neutral house's 3 tokens are second, Bob third
    f.write_text(f.read_text() + "neutral 0\n")
    assert json.loads(run(f, "--json").stdout)["players"][1]["influence"] == 4


@pytest.mark.parametrize(
    "text,message",
    [
        ("Ann: Darow\nBob: Eo", "line 1: unknown card 'Darow'; did you mean: Darrow"),
        ("Ann: Darrow\nBob: Darrow", "line 2, card 1: Darrow appears twice (also at line 1, card 1)"),
        ("Ann: Darrow | flet 3\nBob: Eo", "line 1: unknown word 'flet' (did you mean 'fleet'?)"),
        ("Ann: Darrow | fleet 11\nBob: Eo", "line 1, fleet: must be from 0 to 10, got 11"),
        ("Ann: Darrow | fleet\nBob: Eo", "line 1: fleet needs a number"),
        ("Ann: Darrow as red\nBob: Eo", "Darrow is Red: only a Gray card counts as another colour"),
        ("Ann: Trigg as purple\nBob: Eo", "line 1, card 1: expected a colour other than gray"),
        ("Ann Darrow\nBob: Eo", "line 1: expected 'NAME: cards | tokens'"),
        ("Ann: Darrow", "Red Rising is for 2-6 players, got 1"),
        ("Ann: Darrow | sovereign\nBob: Eo | sovereign", "line 2, sovereign: only one player can hold"),
        ("# nothing\n\n", "no players"),
        ("", "the file is empty"),
        ("Ann: Darrow,, Eo\nBob: Sevro", "line 1: an empty card name"),
    ],
)
def test_text_form_errors_name_the_line(tmp_path, text, message):
    f = tmp_path / "final.txt"
    f.write_text(text)
    r = run(f)
    assert r.exit_code == 2 and r.stdout == ""
    assert message in r.stderr, r.stderr
    assert r.stderr.startswith(f"error: {f}")


def test_help_shows_both_forms_with_an_example_and_the_calculator():
    r = runner.invoke(app, ["score", "--help"], env={"COLUMNS": "80"})
    assert r.exit_code == 0
    out = r.stdout
    assert "interactive scorepad" in out and "Tab" in out
    assert "Ann: Darrow, Mustang, Trigg as red | fleet 6 helium 4 influence 7 sovereign" in out
    assert '{"players": [{"name": "Ann"' in out
    assert "Score" in out and "calculator" in out and "#/calc" in out
    assert all(len(line) <= 80 for line in out.splitlines())


def test_scorepad_in_ukrainian_and_polish():
    out = runner.invoke(app, ["score", "red-rising", str(DATA / "three_players.json"), "--lang", "uk"]).stdout
    for word in ("КАРТИ", "ФЛОТ", "ГЕЛІЙ", "УСЬОГО", "Переможець: Ann"):
        assert word in out, word
    out = runner.invoke(
        app,
        ["score", "red-rising", str(DATA / "three_players.json")],
        env={"LANG": "pl_PL.UTF-8", "LC_ALL": "", "LC_MESSAGES": "", "LANGUAGE": ""},
    ).stdout
    for word in ("KARTY", "SUMA", "Zwycięzca: Ann"):
        assert word in out, word
    r = runner.invoke(app, ["score", "red-rising", str(DATA / "three_players.json"), "--lang", "xx"])
    assert r.exit_code == 2 and "unknown language" in r.stderr


def test_cards_gallery_in_ukrainian():
    r = runner.invoke(app, ["cards", "--lang", "uk"], env={"COLUMNS": "120"})
    assert r.exit_code == 0
    assert "персонаж" in r.stdout and "червоний" in r.stdout and "Дерроу" in r.stdout and "Darrow" not in r.stdout


# ------------------------------------------------------------------- the interactive scorepad (a terminal)


@pytest.mark.multiprocess
def test_interactive_scorepad_through_a_terminal(tmp_path):
    import pexpect

    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", NO_COLOR="1", PYTHONIOENCODING="utf-8")
    for var in ("COLUMNS", "LINES", "LC_ALL", "LANGUAGE"):
        env.pop(var, None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "redtable.cli", "score", "red-rising"],
        env=env,
        encoding="utf-8",
        dimensions=(24, 80),
        timeout=30,
    )
    child.expect(r"How many players \(2-6\)\? \[2\]: ")
    child.sendline("2")
    child.expect(r"Player 1's name \[Player 1\]: ")
    child.sendline("Ann")
    child.expect(r"card 1: ")
    child.send("Darr\t")  # Tab completes the name
    child.expect("Darrow")
    child.sendline("")
    child.expect(r"Ann: 10\S* so far")  # the running total
    child.expect(r"card 2: ")
    child.sendline("Trig as red")  # a typo: suggestions, nothing counted
    child.expect(r"unknown card 'Trig'; did you mean: Trigg")
    child.expect(r"card 2: ")
    child.sendline("Trigg as red")
    child.expect(r"Ann: 25\S* so far")
    child.expect(r"card 3: ")
    child.sendline("")
    for prompt, answer in (
        (r"Fleet Track \(0-10\) \[0\]: ", "6"),
        (r"Helium \[0\]: ", "4"),
        (r"Influence on the Institute \(0-10\) \[0\]: ", "7"),
        (r"Sovereign token\? \[y/N\]: ", "y"),
        (r"Hacker\) \[0\]: ", ""),
    ):
        child.expect(prompt)
        child.sendline(answer)
    child.expect(r"Ann: 96\S* so far")
    child.expect(r"Player 2's name")
    child.sendline("Bob")
    child.expect(r"card 1: ")
    child.sendline("Darrow")
    child.expect("Darrow is already counted")
    child.expect(r"card 1: ")
    child.sendline("Eo")
    child.expect(r"card 2: ")
    child.sendline("")
    for prompt, answer in (
        (r"Fleet Track \(0-10\) \[0\]: ", "11"),
        (r"A number from 0 to 10", None),
        (r"Fleet Track \(0-10\) \[0\]: ", "3"),
        (r"Helium \[0\]: ", "2"),
        (r"Institute \(0-10\) \[0\]: ", "2"),
        (r"Hacker\) \[0\]: ", ""),
        (r"Neutral house's Influence on the Institute \[3\]: ", ""),
    ):
        child.expect(prompt)
        if answer is not None:
            child.sendline(answer)
    for _ in range(5):  # the locations and the banished pile
        child.expect(r"\(bottom to top, commas\): ")
        child.sendline("")
    child.expect(r"TOTAL")
    child.expect(r"Winner: Ann")
    child.expect(r"Ann: Darrow, Trigg as red \| fleet 6 helium 4 influence 7 sovereign")
    child.expect(r"Bob: Eo \| fleet 3 helium 2 influence 2")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.multiprocess
def test_interactive_scorepad_end_of_input_scores_nothing():
    import pexpect

    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", NO_COLOR="1")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "redtable.cli", "score", "red-rising"],
        env=env,
        encoding="utf-8",
        dimensions=(24, 80),
        timeout=30,
    )
    child.expect(r"How many players")
    child.sendeof()
    child.expect("nothing scored")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1


def test_the_text_form_takes_ukrainian_and_polish_names(tmp_path):
    """Cards (and a Gray card's colour, an Orange card's character) typed as the Ukrainian or
    Polish gallery names them score as their English names; a typo is answered with names in the
    language the player reads."""
    from redtable.i18n import set_lang

    english = tmp_path / "en.txt"
    english.write_text(
        "Ann: Darrow, Mustang, Trigg as red, Lawyer | fleet 6 helium 21\nBob: Sevro, Cyther as Eo | helium 2\n"
    )
    local = {
        "uk": "Ann: Дерроу, Мустанг, Трігг as червоний, Юрист | fleet 6 helium 21\n"
        "Bob: Севро, Сайтер as Ео | helium 2\n",
        "pl": "Ann: Darrow, Mustang, Trigg as czerwony, Prawnik | fleet 6 helium 21\n"
        "Bob: Sevro, Cyther as Eo | helium 2\n",
    }
    want = json.loads(run(english, "--json").stdout)
    for lang, text in local.items():
        f = tmp_path / f"{lang}.txt"
        f.write_text(text)
        try:
            r = run(f, "--json", "--lang", lang)
        finally:
            set_lang("en")
        assert r.exit_code == 0, r.stderr
        assert json.loads(r.stdout) == want
    typo = tmp_path / "typo.txt"
    typo.write_text("Ann: Дерроф\nBob: Севро\n")
    try:
        r = run(typo, "--lang", "uk")
    finally:
        set_lang("en")
    assert r.exit_code == 2 and "did you mean: Дерроу" in r.stderr
